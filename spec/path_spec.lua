-- Path objects: accessors, stats, lifetimes (close, __close, __gc, reuse of the search buffers).

local astar = require "astar"
local H = require "spec.helper"

local LEGEND = { ["#"] = false, ["."] = 1 }
-- The only path from (1,1) to (5,3), under every diagonal policy but "always".
local CORRIDOR = "..###\n#.###\n#...."
local CORRIDOR_PTS = { { 1, 1 }, { 2, 1 }, { 2, 2 }, { 2, 3 }, { 3, 3 }, { 4, 3 }, { 5, 3 } }

local function corridor_path()
  local g = astar.grid.parse(CORRIDOR, LEGEND)
  return assert(g:find(1, 1, 5, 3)), g
end

describe("Path", function()
  it("#path counts the points, start and goal included", function()
    local p = corridor_path()
    assert.are.equal(7, #p)
    assert.are.equal(6, p:cost())
  end)

  it("get(i) gives x, y of point i; negative i counts from the end", function()
    local p = corridor_path()
    for i, pt in ipairs(CORRIDOR_PTS) do
      local x, y = p:get(i)
      assert.are.same(pt, { x, y }, "get(" .. i .. ")")
      x, y = p:get(i - 8) -- -7 .. -1
      assert.are.same(pt, { x, y }, "get(" .. (i - 8) .. ")")
    end
    assert.are.equal(2, select("#", p:get(1)))
  end)

  it("points() iterates i, x, y in order", function()
    local p = corridor_path()
    local n = 0
    for i, x, y in p:points() do
      n = n + 1
      assert.are.equal(n, i)
      assert.are.same(CORRIDOR_PTS[i], { x, y })
    end
    assert.are.equal(7, n)
    -- a one-point path iterates once
    n = 0
    local g = astar.grid(2, 2)
    for i, x, y in assert(g:find(2, 1, 2, 1)):points() do
      n = n + 1
      assert.are.same({ 1, 2, 1 }, { i, x, y })
    end
    assert.are.equal(1, n)
  end)

  it("flat() gives {x1, y1, x2, y2, ...}", function()
    local p = corridor_path()
    local want = {}
    for _, pt in ipairs(CORRIDOR_PTS) do
      want[#want + 1] = pt[1]
      want[#want + 1] = pt[2]
    end
    assert.are.same(want, p:flat())
    -- a fresh table each time
    local a, b = p:flat(), p:flat()
    assert.are_not.equal(a, b)
    a[1] = 99
    assert.are.equal(1, p:flat()[1])
  end)

  it("table() gives {{x =, y =}, ...}", function()
    local p = corridor_path()
    local want = {}
    for i, pt in ipairs(CORRIDOR_PTS) do want[i] = { x = pt[1], y = pt[2] } end
    assert.are.same(want, p:table())
  end)

  it("cost() is the sum of the step costs", function()
    local g = astar.grid.parse("..\n.3", { ["."] = 1, ["3"] = 3 })
    local p = assert(g:find(2, 1, 1, 2, { diagonal = "always" }))
    assert.are.equal(2, #p)
    assert.is_true(H.close(H.SQRT2, p:cost()))
    p = assert(g:find(1, 1, 2, 2, { diagonal = "never" }))
    assert.are.equal(4, p:cost())
  end)

  it("stats() reports the search that found it", function()
    local g = astar.grid(30, 30)
    for _, alg in ipairs({ "astar", "dijkstra", "bfs", "greedy" }) do
      local p = assert(g:find(1, 15, 30, 15, { algorithm = alg }))
      local s = p:stats()
      assert.are.equal("table", type(s))
      assert.are.equal(alg, s.algorithm)
      assert.is_true(H.is_int(s.expanded) and s.expanded >= 1, alg .. " expanded " .. tostring(s.expanded))
      assert.is_true(H.is_int(s.generated) and s.generated >= 1, alg .. " generated " .. tostring(s.generated))
      assert.is_true(s.expanded <= 900, alg .. " expanded more nodes than the grid has")
    end
    -- the default ("auto") jumps on a grid of one cost, and is A* where costs vary cell by cell
    assert.are.equal("jps", assert(g:find(1, 1, 2, 2)):stats().algorithm)
    local board = g:clone()
    for y = 1, 30 do
      for x = 1, 30 do board:set(x, y, (x + y) % 2 + 1) end
    end
    assert.are.equal("astar", assert(board:find(1, 1, 2, 2)):stats().algorithm)
    -- A* with octile on an open grid expands far fewer nodes than Dijkstra
    local a = assert(g:find(1, 15, 30, 15, { algorithm = "astar" })):stats()
    local d = assert(g:find(1, 15, 30, 15, { algorithm = "dijkstra" })):stats()
    assert.is_true(a.expanded * 4 < d.expanded, ("astar %d, dijkstra %d"):format(a.expanded, d.expanded))
  end)

  it("max_expansions equal to the expansions needed is enough, one fewer is not", function()
    local rng = H.rng(31)
    local cells = H.random_cells(rng, 25, 25, 0.3, { 1, 2 })
    local g = astar.grid.from_table(cells)
    local tried = 0
    for _ = 1, 40 do
      local sx, sy, gx, gy = rng.int(1, 25), rng.int(1, 25), rng.int(1, 25), rng.int(1, 25)
      local p = g:find(sx, sy, gx, gy)
      if p and #p > 1 then
        tried = tried + 1
        local n = p:stats().expanded
        local q = g:find(sx, sy, gx, gy, { max_expansions = n })
        assert.is_not_nil(q, "max_expansions = " .. n .. " (the search's own count) was not enough")
        assert.is_true(H.same_points(H.points_of(p), H.points_of(q)))
        local r, _, code = g:find(sx, sy, gx, gy, { max_expansions = n - 1 })
        assert.is_nil(r, "max_expansions = " .. (n - 1) .. " was enough, but stats said " .. n)
        assert.are.equal("limit", code)
      end
    end
    assert.is_true(tried > 10)
  end)

  it("is deterministic: the same query gives the same points", function()
    local cells = H.random_cells(H.rng(8), 30, 30, 0.2, { 1, 1, 2 })
    cells[1][1], cells[30][30] = 1, 1
    local g1 = astar.grid.from_table(cells)
    local g2 = astar.grid.from_table(cells)
    local a = H.points_of(assert(g1:find(1, 1, 30, 30, { diagonal = "always" })))
    g1:find(30, 1, 1, 30)
    local b = H.points_of(assert(g1:find(1, 1, 30, 30, { diagonal = "always" })))
    local c = H.points_of(assert(g2:find(1, 1, 30, 30, { diagonal = "always" })))
    assert.is_true(H.same_points(a, b))
    assert.is_true(H.same_points(a, c))
  end)

  it("tostring works on paths and grids", function()
    local p, g = corridor_path()
    assert.are.equal("string", type(tostring(p)))
    assert.are.equal("string", type(tostring(g)))
  end)
end)

describe("Path lifetime", function()
  it("is not changed by later searches on the same grid", function()
    -- the first seed whose grid connects the corners (by the reference, not the library)
    local cells
    for seed = 3, 100 do
      cells = H.random_cells(H.rng(seed), 30, 30, 0.2, { 1, 2, 3 })
      cells[1][1], cells[30][30] = 1, 1
      if H.dijkstra(cells, 30, 30, 1, 1, 30, 30, "never") then break end
    end
    local g = astar.grid.from_table(cells)
    local p = assert(g:find(1, 1, 30, 30, { diagonal = "never" }))
    local pts, cost = H.points_of(p), p:cost()
    for i = 1, 50 do
      g:find(30, i % 30 + 1, 1, 1)
    end
    assert.is_true(H.same_points(pts, H.points_of(p)))
    assert.are.equal(cost, p:cost())
    H.check_path(cells, 30, 30, p, 1, 1, 30, 30, "never")
  end)

  it("is not changed when the grid changes", function()
    local p, g = corridor_path()
    g:fill(1, 1, 5, 3, 9)
    g:set(2, 2, false)
    assert.is_true(H.same_points(CORRIDOR_PTS, H.points_of(p)))
    assert.are.equal(6, p:cost())
  end)

  it("outlives a closed grid", function()
    local p, g = corridor_path()
    g:close()
    assert.are.equal(7, #p)
    assert.is_true(H.same_points(CORRIDOR_PTS, H.points_of(p)))
    assert.are.equal(6, p:cost())
    assert.are.equal(14, #p:flat())
    assert.are.equal(7, #p:table())
    assert.are.equal("jps", p:stats().algorithm)
  end)

  it("outlives a collected grid", function()
    local paths = {}
    for i = 1, 50 do
      local g = astar.grid.parse(CORRIDOR, LEGEND)
      paths[i] = assert(g:find(1, 1, 5, 3))
    end
    collectgarbage()
    collectgarbage()
    for i = 1, 50 do
      assert.is_true(H.same_points(CORRIDOR_PTS, H.points_of(paths[i])))
      assert.are.equal(6, paths[i]:cost())
    end
  end)

  it("thousands of paths kept from one grid stay valid", function()
    local w, h = 12, 12
    local cells = H.random_cells(H.rng(4), w, h, 0.2, { 1, 2 })
    local g = astar.grid.from_table(cells)
    local rng = H.rng(5)
    local kept = {}
    for _ = 1, 2000 do
      local sx, sy, gx, gy = rng.int(1, w), rng.int(1, h), rng.int(1, w), rng.int(1, h)
      local p = g:find(sx, sy, gx, gy)
      if p then kept[#kept + 1] = { p, sx, sy, gx, gy, p:cost() } end
    end
    assert.is_true(#kept > 500)
    g:close()
    collectgarbage()
    for _, k in ipairs(kept) do
      local sum = H.check_path(cells, w, h, k[1], k[2], k[3], k[4], k[5])
      assert.is_true(H.close(sum, k[6]))
      assert.are.equal(k[6], k[1]:cost())
    end
  end)
end)

describe("grid:close", function()
  local CLOSED = "attempt to use a closed grid"

  it("is idempotent", function()
    local g = astar.grid(3, 3)
    g:close()
    g:close()
    assert.has_no.errors(function() g:close() end)
  end)

  it("makes every later use raise exactly '" .. CLOSED .. "'", function()
    local g = astar.grid(4, 4)
    g:close()
    H.checkerr(CLOSED, g.size, g)
    H.checkerr(CLOSED, g.get, g, 1, 1)
    H.checkerr(CLOSED, g.set, g, 1, 1, 2)
    H.checkerr(CLOSED, g.fill, g, 1, 1, 2, 2, false)
    H.checkerr(CLOSED, g.walkable, g, 1, 1)
    H.checkerr(CLOSED, g.find, g, 1, 1, 4, 4)
    H.checkerr(CLOSED, g.find, g, 1, 1, 4, 4, { algorithm = "bfs" })
    H.checkerr(CLOSED, g.render, g)
    H.checkerr(CLOSED, g.clone, g)
    H.checkerr(CLOSED, g.stats, g)
  end)

  it("does not affect a clone, nor a clone's close the original", function()
    local g = astar.grid.parse(CORRIDOR, LEGEND)
    local c = g:clone()
    g:close()
    local p = assert(c:find(1, 1, 5, 3))
    assert.is_true(H.same_points(CORRIDOR_PTS, H.points_of(p)))
    local g2 = astar.grid.parse(CORRIDOR, LEGEND)
    g2:clone():close()
    assert.are.equal(6, assert(g2:find(1, 1, 5, 3)):cost())
  end)

  it("lets the garbage collector free grids, closed or not", function()
    for i = 1, 300 do
      local g = astar.grid(64, 64)
      assert(g:find(1, 1, 64, 64))
      if i % 2 == 0 then g:close() end
    end
    collectgarbage()
    collectgarbage()
    local g = astar.grid(3, 3)
    assert.are.equal(3, #assert(g:find(1, 1, 3, 3)))
  end)

  if _VERSION == "Lua 5.4" then
    it("is called by <close> (Lua 5.4)", function()
      local chunk = assert(load([[
        local astar = ...
        local escaped, path
        do
          local g <close> = astar.grid(5, 5)
          escaped = g
          path = assert(g:find(1, 1, 5, 5))
        end
        return escaped, path
      ]], "=close_test"))
      local g, p = chunk(astar)
      H.checkerr(CLOSED, g.size, g)
      assert.are.equal(5, #p)
      assert.is_true(H.close(4 * H.SQRT2, p:cost()))
    end)

    it("<close> runs when the block is left by an error", function()
      local chunk = assert(load([[
        local astar = ...
        local escaped
        local ok, err = pcall(function()
          local g <close> = astar.grid(2, 2)
          escaped = g
          error("boom", 0)
        end)
        return escaped, ok, err
      ]], "=close_error_test"))
      local g, ok, err = chunk(astar)
      assert.is_false(ok)
      assert.are.equal("boom", err)
      H.checkerr(CLOSED, g.get, g, 1, 1)
    end)
  end
end)

describe("Path:waypoints", function()
  it("keeps the start, the goal and every point where the direction changes", function()
    local g = astar.grid(10, 10)
    local p = assert(g:to_path({ 1, 1, 2, 2, 3, 3, 4, 3, 5, 3, 6, 3, 6, 4, 6, 5, 5, 6, 4, 7 }))
    assert.are.same({ 1, 1, 3, 3, 6, 3, 6, 5, 4, 7 }, p:waypoints())
    assert.are.same({ 1, 1 }, assert(g:to_path({ 1, 1 })):waypoints())
    assert.are.same({ 1, 1, 2, 1 }, assert(g:to_path({ 1, 1, 2, 1 })):waypoints())
    -- a jump point search's path: every cell, and waypoints a walker can follow in lines
    g:fill(5, 1, 1, 8, false)
    local j = assert(g:find(1, 1, 10, 1))
    local w = j:waypoints()
    assert.is_true(#w / 2 < #j and #w >= 6)
    assert.are.same({ 1, 1 }, { w[1], w[2] })
    assert.are.same({ 10, 1 }, { w[#w - 1], w[#w] })
  end)

  it("works on navmesh and positioned graph paths, and refuses paths without positions", function()
    local g = astar.graph()
    local a, b, c, d = g:add_node(0, 0), g:add_node(1, 1), g:add_node(2, 2), g:add_node(2, 5)
    g:add_edge(a, b)
    g:add_edge(b, c)
    g:add_edge(c, d)
    assert.are.same({ 0, 0, 2, 2, 2, 5 }, assert(g:find(a, d)):waypoints())
    local bare = astar.graph()
    local x, y = bare:add_node(), bare:add_node()
    bare:add_edge(x, y, 1)
    H.checkerr("point 1 (node 1) has no position", assert(bare:find(x, y)).waypoints,
      assert(bare:find(x, y)))
    local values = assert(astar.search { start = 1, goal = 3,
      neighbors = function(n, emit) emit(n + 1, 1) end })
    H.checkerr("waypoints: the points of this path are Lua values, not positions", values.waypoints,
      values)
    local mesh = astar.navmesh { vertices = { 0, 0, 10, 0, 10, 10, 0, 10 }, polygons = { { 1, 2, 3, 4 } } }
    local mp = assert(mesh:find(1, 1, 9, 9))
    assert.are.same({ 1, 1, 9, 9 }, mp:waypoints())
  end)
end)
