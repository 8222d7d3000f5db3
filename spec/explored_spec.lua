-- Query:explored: the closed and open sets of a time-sliced search, checked against what a
-- plain Dijkstra of the spec helper says they must be: closed cells are never farther than
-- open ones (Dijkstra settles in order of distance), and the open cells are exactly the
-- unexpanded neighbours of the closed ones.
local astar = require "astar"
local H = require "spec.helper"

local function set_of(flat, stride)
  local s, n = {}, 0
  for i = 1, #flat, stride do
    local k = stride == 2 and (flat[i] .. "," .. flat[i + 1]) or tostring(flat[i])
    assert.is_nil(s[k], "listed twice: " .. k)
    s[k] = true
    n = n + 1
  end
  return s, n
end

local N4 = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } }

describe("Query:explored on grids", function()
  it("lists what Dijkstra has settled and its frontier, step by step", function()
    local rng = H.rng(4242)
    for _ = 1, 40 do
      local w, h = rng.int(5, 20), rng.int(5, 20)
      local cells = H.random_cells(rng, w, h, 0.25, { 1, 2, 3 })
      cells[1][1] = 1
      local dist = H.dijkstra_all(cells, w, h, 1, 1, "never")
      local grid = astar.grid.from_table(cells)
      local q = grid:query(1, 1, w, h, { algorithm = "dijkstra", diagonal = "never" })
      while true do
        local status = q:step(rng.int(1, 7))
        if status ~= "running" then break end
        local closed, open = q:explored()
        local cs, nc = set_of(closed, 2)
        local os_, no = set_of(open, 2)
        assert.equal(q:stats().expanded, nc)
        assert.is_true(cs["1,1"])
        local far, near = -math.huge, math.huge
        for k in pairs(cs) do
          local x, y = k:match("(%d+),(%d+)")
          far = math.max(far, dist[(tonumber(y) - 1) * w + tonumber(x)])
        end
        for k in pairs(os_) do
          local x, y = k:match("(%d+),(%d+)")
          near = math.min(near, dist[(tonumber(y) - 1) * w + tonumber(x)])
          assert.is_nil(cs[k], "both open and closed: " .. k)
        end
        assert.is_true(far <= near + 1e-9, ("settled %g beyond open %g"):format(far, near))
        -- the frontier: walkable 4-neighbours of closed cells that are not closed
        local want, nwant = {}, 0
        for k in pairs(cs) do
          local x, y = k:match("(%d+),(%d+)")
          x, y = tonumber(x), tonumber(y)
          for _, d in ipairs(N4) do
            local nx, ny = x + d[1], y + d[2]
            local key = nx .. "," .. ny
            if nx >= 1 and ny >= 1 and nx <= w and ny <= h and cells[ny][nx] and not cs[key]
               and not want[key] then
              want[key] = true
              nwant = nwant + 1
            end
          end
        end
        assert.equal(nwant, no)
        for k in pairs(want) do assert.is_true(os_[k], "missing from open: " .. k) end
      end
      local closed, open = q:explored()                     -- finished: memory given back
      assert.same({ {}, {} }, { closed, open })
    end
  end)

  it("lists jump points under JPS, and nothing before the first step", function()
    local grid = astar.grid(64, 64)
    for y = 3, 62, 4 do for x = 3, 62, 4 do grid:set(x, y, false) end end   -- pillars
    local q = grid:query(1, 1, 20, 60)
    assert.same({ {}, {} }, { q:explored() })
    assert.equal("running", q:step(2))
    local closed = q:explored()
    assert.equal(2 * q:stats().expanded, #closed)
    for i = 1, #closed do assert.equal(math.type and "integer" or "number", math.type and
      math.type(closed[i]) or type(closed[i])) end
  end)

  it("refuses meshes and implicit graphs, and closed maps", function()
    local grid = astar.grid(8, 8)
    local mesh = astar.navmesh.from_grid(grid)
    local mq = mesh:query(0.5, 0.5, 7.5, 7.5)
    H.checkerr("explored: the nodes of navmesh queries are not listed", mq.explored, mq)
    local iq = astar.query{ start = 1, goal = 5, neighbors = function(n)
      return { n + 1 } end }
    H.checkerr("explored: the nodes of implicit graph queries are not listed", iq.explored, iq)
    local q = grid:query(1, 1, 8, 8)
    q:step(1)
    grid:close()
    H.checkerr("attempt to use a closed grid", q.explored, q)
    H.checkerr_prefix("calling 'explored' on bad self", q.explored, {})
  end)
end)

describe("Query:explored on graphs", function()
  it("lists node ids: settled ones and their unsettled neighbours", function()
    local rng = H.rng(9)
    for _ = 1, 30 do
      local n = rng.int(5, 40)
      local ops, M = H.random_graph(rng, { n = n, m = rng.int(n, 3 * n) })
      local g = H.build_graph(ops)
      local src = 1
      local dist = H.graph_dijkstra(M, src)
      local q = g:query(src, n, { algorithm = "dijkstra" })
      while q:step(1) == "running" do
        local closed, open = q:explored()
        local cs, nc = set_of(closed, 1)
        local os_ = set_of(open, 1)
        assert.equal(q:stats().expanded, nc)
        local far, near = -math.huge, math.huge
        for k in pairs(cs) do far = math.max(far, dist[tonumber(k)] or math.huge) end
        for k in pairs(os_) do near = math.min(near, dist[tonumber(k)] or math.huge) end
        assert.is_true(far <= near + 1e-9)
      end
    end
  end)
end)
