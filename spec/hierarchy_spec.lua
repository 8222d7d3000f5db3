-- Hierarchical search (HPA*): grid:hierarchy and algorithm = "hierarchical". Every path is
-- checked step by step against the cells (the helper's own legality rules), its cost
-- against the helper's Dijkstra (never below it; a path exactly when the Dijkstra finds
-- one), and the abstraction kept current by edits against one built afresh.
local astar = require "astar"
local H = require "spec.helper"

local POLICIES = { "no_corner_cutting", "never", "always", "one_obstacle" }
local HIER = { algorithm = "hierarchical" }
local LEGEND = { ["."] = 1, ["#"] = false }
local floor = math.floor

local function opts(diagonal) return { algorithm = "hierarchical", diagonal = diagonal } end

local function random_walkable(rng, cells, w, h)
  for _ = 1, 200 do
    local x, y = rng.int(1, w), rng.int(1, h)
    if cells[y][x] then return x, y end
  end
end

-- The cost of the abstract path HPA* should find, worked out here from the cells alone: the
-- nodes by the entrance rule (each run of walkable pairs across a border of two clusters of C:
-- its ends, its middle when shorter than 6), the costs inside a cluster by a Dijkstra that
-- stays in it, steps between nodes of two clusters, the start and goal joined to their
-- clusters' nodes and, when their clusters touch, to each other by a Dijkstra over the box of
-- both; then the cheapest way over that graph. Not for "always" (its squeeze nodes). nil if
-- the graph has no way.
local function ref_abstract(cells, w, h, C, diagonal, sx, sy, gx, gy)
  local dirs = diagonal == "never" and 4 or 8
  local D = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 }, { 1, 1 }, { 1, -1 }, { -1, 1 }, { -1, -1 } }
  local function key(x, y) return (y - 1) * w + x end
  local function xy(k) return (k - 1) % w + 1, floor((k - 1) / w) + 1 end
  local function cl(x, y) return floor((x - 1) / C), floor((y - 1) / C) end
  local node = {}
  local function mark_run(ax, ay, bx, by, ex, ey, len)     -- pairs (a + i e, b + i e)
    local i = 0
    while i < len do
      local function ok(j)
        return H.walk(cells, w, h, ax + j * ex, ay + j * ey) and
               H.walk(cells, w, h, bx + j * ex, by + j * ey)
      end
      while i < len and not ok(i) do i = i + 1 end
      if i >= len then break end
      local first = i
      while i < len and ok(i) do i = i + 1 end
      local picks = i - first < 6 and { first + floor((i - 1 - first) / 2) } or { first, i - 1 }
      for _, j in ipairs(picks) do
        node[key(ax + j * ex, ay + j * ey)] = true
        node[key(bx + j * ex, by + j * ey)] = true
      end
    end
  end
  for x = C, w - 1, C do                                   -- borders between columns
    for y0 = 1, h, C do mark_run(x, y0, x + 1, y0, 0, 1, math.min(C, h - y0 + 1)) end
  end
  for y = C, h - 1, C do
    for x0 = 1, w, C do mark_run(x0, y, x0, y + 1, 1, 0, math.min(C, w - x0 + 1)) end
  end
  -- a Dijkstra from cell k over the cells of the clusters in [cx0, cx1] x [cy0, cy1]
  local function inside(k, cx0, cy0, cx1, cy1)
    return H.dijkstra_generic({ { k } }, function(u, emit)
      local ux, uy = xy(u)
      for d = 1, dirs do
        local dx, dy = D[d][1], D[d][2]
        local vx, vy = ux + dx, uy + dy
        local vcx, vcy = cl(vx, vy)
        if vx >= 1 and vy >= 1 and vx <= w and vy <= h and vcx >= cx0 and vcx <= cx1 and
           vcy >= cy0 and vcy <= cy1 and H.legal_step(cells, w, h, ux, uy, dx, dy, diagonal) then
          emit(key(vx, vy), H.step_cost(cells, vx, vy, dx, dy))
        end
      end
    end)
  end
  local s, t = key(sx, sy), key(gx, gy)
  if s == t then return 0 end
  local scx, scy = cl(sx, sy)
  local tcx, tcy = cl(gx, gy)
  local dist = H.dijkstra_generic({ { s } }, function(u, emit)
    if u == t then return end
    local ux, uy = xy(u)
    local cx, cy = cl(ux, uy)
    if node[u] or u == s then                      -- inside the cluster: its nodes, the goal
      local d = inside(u, cx, cy, cx, cy)
      for v, c in pairs(d) do
        if v ~= u and (node[v] or v == t) then emit(v, c) end
      end
    end
    if node[u] then                                -- steps to nodes of other clusters
      for d = 1, dirs do
        local dx, dy = D[d][1], D[d][2]
        local vx, vy = ux + dx, uy + dy
        if vx >= 1 and vy >= 1 and vx <= w and vy <= h and node[key(vx, vy)] and
           H.legal_step(cells, w, h, ux, uy, dx, dy, diagonal) then
          local vcx, vcy = cl(vx, vy)
          if vcx ~= cx or vcy ~= cy then emit(key(vx, vy), H.step_cost(cells, vx, vy, dx, dy)) end
        end
      end
    end
    if u == s and math.abs(scx - tcx) <= 1 and math.abs(scy - tcy) <= 1 then
      local d = inside(s, math.min(scx, tcx), math.min(scy, tcy), math.max(scx, tcx),
                       math.max(scy, tcy))
      if d[t] then emit(t, d[t]) end
    end
  end)
  return dist[t]
end

-- Runs n random queries on grid (model: cells, abstracted in clusters of C) with refine =
-- false: each abstract cost equals ref_abstract's. Returns how many had a path.
local function against_reference(rng, cells, w, h, grid, C, diagonal, n)
  local found = 0
  for _ = 1, n do
    local sx, sy = random_walkable(rng, cells, w, h)
    local gx, gy = random_walkable(rng, cells, w, h)
    if sx and gx then
      local want = ref_abstract(cells, w, h, C, diagonal, sx, sy, gx, gy)
      local p = grid:find(sx, sy, gx, gy, { algorithm = "hierarchical", diagonal = diagonal,
                                            refine = false })
      assert.equals(want ~= nil, p ~= nil)
      if p then
        assert.truthy(H.close(p:cost(), want, 1e-5), ("abstract cost %s, reference %s"):format(
          p:cost(), want))
        found = found + 1
      end
    end
  end
  return found
end

-- Runs n random queries on grid (model: cells) and checks each against the Dijkstra.
local function check_queries(rng, cells, w, h, grid, diagonal, n)
  local found = 0
  for _ = 1, n do
    local sx, sy = random_walkable(rng, cells, w, h)
    local gx, gy = random_walkable(rng, cells, w, h)
    if sx and gx then
      local p, msg, code = grid:find(sx, sy, gx, gy, opts(diagonal))
      local best = H.dijkstra(cells, w, h, sx, sy, gx, gy, diagonal)
      if best == nil then
        assert.is_nil(p)
        assert.equals("no_path", code)
      else
        assert.truthy(p, msg)
        local cost = H.check_path(cells, w, h, p, sx, sy, gx, gy, diagonal)
        assert.truthy(H.close(cost, p:cost(), 1e-9), ("cost %s, steps sum to %s"):format(p:cost(), cost))
        assert.truthy(cost >= best * (1 - 1e-9), ("cost %s below the optimum %s"):format(cost, best))
        assert.equals("hierarchical", p:stats().algorithm)
        found = found + 1
        -- refine = false (a quarter of the queries: a Dijkstra a leg): the abstract path's
        -- cells, each leg a walk the grid can make, and the whole no dearer than the
        -- filled-in path (to the rounding of its float costs)
        local a = rng.float() < 0.25 and assert(grid:find(sx, sy, gx, gy, { algorithm = "hierarchical", refine = false,
                                                    diagonal = diagonal }))
        if a then
          local x1, y1 = a:get(1)
          local xn, yn = a:get(#a)
          assert.same({ sx, sy, gx, gy }, { x1, y1, xn, yn })
          assert.truthy(#a <= #p)
          local legs = 0
          for i = 2, #a do
            local ax, ay = a:get(i - 1)
            local bx, by = a:get(i)
            legs = legs + assert(H.dijkstra(cells, w, h, ax, ay, bx, by, diagonal))
          end
          assert.truthy(legs <= a:cost() * (1 + 1e-6), ("legs %s, path %s"):format(legs, a:cost()))
          assert.truthy(H.close(a:cost(), cost, 1e-6), ("abstract %s, filled %s"):format(a:cost(), cost))
        end
      end
    end
  end
  return found
end

describe("hierarchical search on random grids", function()
  for _, case in ipairs {
    { "one cost", 301, { 1 } },
    { "several costs", 302, { 1, 1, 2, 3, 9 } },
  } do
    it("gives legal paths, never below the Dijkstra, and finds one exactly when it exists ("
       .. case[1] .. ", every policy)", function()
      local found = 0
      H.each_random_grid(case[2], H.trials(80), 3, 40, { 0, 0.1, 0.25, 0.35, 0.45 }, case[3],
        function(rng, w, h, cells, grid)
          local diagonal = rng.pick(POLICIES)
          grid:hierarchy { cluster = rng.int(4, 9), diagonal = diagonal }
          found = found + check_queries(rng, cells, w, h, grid, diagonal, 8)
        end)
      assert.truthy(found > H.trials(80) * 2, "too few queries had a path: " .. found)
    end)
  end

  it("finds the cheapest way over the abstract graph a reference built from the cells gives", function()
    local rng, n = H.rng(303), 0
    for _ = 1, H.trials(60) do
      local w, h = rng.int(4, 30), rng.int(4, 30)
      local cells = H.random_cells(rng, w, h, rng.pick { 0, 0.15, 0.3 }, rng.pick { { 1 }, { 1, 2, 5 } })
      local grid = astar.grid.from_table(cells)
      local diagonal = rng.pick { "no_corner_cutting", "never", "one_obstacle" }
      local C = rng.int(4, 8)
      grid:hierarchy { cluster = C, diagonal = diagonal }
      n = n + against_reference(rng, cells, w, h, grid, C, diagonal, 4)
      grid:close()
    end
    assert.truthy(n > H.trials(60), "too few paths: " .. n)
  end)

  it("works with the widest clusters (64 cells, a whole word of a row) under every policy", function()
    local rng, found = H.rng(306), 0
    for _, diagonal in ipairs(POLICIES) do
      local w, h = 128, 70
      local cells = H.random_cells(rng, w, h, 0.3, { 1, 1, 3 })
      local grid = astar.grid.from_table(cells)
      grid:hierarchy { cluster = 64, diagonal = diagonal }
      found = found + check_queries(rng, cells, w, h, grid, diagonal, 6)
      grid:close()
    end
    assert.truthy(found >= 8, "too few paths: " .. found)
  end)

  it("built on several threads: the same abstraction as on one, and the reference's costs", function()
    local rng, n = H.rng(305), 0
    for _ = 1, H.trials(6) do
      local w, h = rng.int(64, 80), rng.int(64, 80)   -- 256 clusters or more: the build uses threads
      local costs = rng.pick { { 1 }, { 1, 2, 5 } }
      local cells = H.random_cells(rng, w, h, rng.pick { 0.1, 0.3 }, costs)
      local grid = astar.grid.from_table(cells)
      local diagonal = rng.pick { "no_corner_cutting", "never", "one_obstacle" }
      local one = grid:clone():hierarchy { cluster = 4, diagonal = diagonal, threads = 1 }
      local many = grid:hierarchy { cluster = 4, diagonal = diagonal, threads = rng.int(2, 4) }
      assert.truthy(many.clusters >= 256)
      assert.equals(one.digest, many.digest)
      assert.equals(one.edges, many.edges)
      n = n + against_reference(rng, cells, w, h, grid, 4, diagonal, 2)
      for _ = 1, 70 do                          -- more edits than the grid remembers: all rebuilt
        H.edit_cells(rng, grid, cells, w, h, rng.int(1, w), rng.int(1, h),
                     rng.float() < 0.5 and false or rng.pick(costs), 0, 1)
      end
      many = grid:hierarchy { cluster = 4, diagonal = diagonal, threads = 3 }
      assert.equals(many.clusters, many.rebuilt)
      assert.equals(grid:clone():hierarchy { cluster = 4, diagonal = diagonal, threads = 1 }.digest,
                    many.digest)
      grid:close()
    end
    assert.truthy(n >= H.trials(6), "too few paths: " .. n)
  end)

  it("crosses a cluster border, or a cluster corner, by a diagonal squeeze under 'always'", function()
    -- clusters of 4: the only way from the left half to the right squeezes between two
    -- blocked cells across the border x = 4 | 5; then a corner to corner squeeze at (8, 8)
    local cells = H.cells_from_text([[
....#.......
....#.......
...#........
....#.......
....#.......
....#.......
....#.......
#######.####
#######.####
#######.####
#######.####
#######.####]], LEGEND)
    local w, h = #cells[1], #cells
    local grid = astar.grid.from_table(cells)
    grid:hierarchy { cluster = 4, diagonal = "always" }
    local p = assert(grid:find(1, 1, 8, 12, opts("always")))
    local cost = H.check_path(cells, w, h, p, 1, 1, 8, 12, "always")
    assert.truthy(cost >= H.dijkstra(cells, w, h, 1, 1, 8, 12, "always") - 1e-9)
    assert.is_nil(grid:find(1, 1, 8, 12, opts("no_corner_cutting")))
    local corner = H.cells_from_text([[
...#....
...#....
...#....
....####
####....
....#...
....#...
....#...]], LEGEND)
    local g2 = astar.grid.from_table(corner)
    local q = assert(g2:find(1, 1, 8, 8, opts("always")))
    H.check_path(corner, 8, 8, q, 1, 1, 8, 8, "always")
    assert.is_nil(g2:find(1, 1, 8, 8, opts("one_obstacle")))
  end)

  it("answers start = goal, ends in one cluster, ends on nodes, and blocked ends", function()
    local grid = astar.grid(40, 30)
    local p = assert(grid:find(7, 7, 7, 7, HIER))
    assert.equals(1, #p)
    assert.equals(0, p:cost())
    p = assert(grid:find(2, 2, 5, 3, HIER))        -- inside one cluster: its own search
    assert.truthy(H.close(p:cost(), 2 + math.sqrt(2), 1e-12))
    -- ends in clusters that touch are also joined by a search of their clusters: here the
    -- border x = 16 | 17 has nodes only at y = 1 and y = 16, and the straight line is shorter
    p = assert(grid:find(14, 8, 19, 8, HIER))
    assert.equals(5, p:cost())
    p = assert(grid:find(14, 8, 19, 20, HIER))     -- diagonal neighbours: a 2 x 2 window
    assert.truthy(H.close(p:cost(), 7 + 5 * math.sqrt(2), 1e-12))
    p = assert(grid:find(14, 8, 19, 8, { algorithm = "hierarchical", refine = false }))
    assert.equals(2, #p)
    -- (16, 1) and (17, 1) sit on the border of two clusters of 16: nodes both
    p = assert(grid:find(16, 1, 17, 1, HIER))
    assert.equals(2, #p)
    grid:set(30, 20, false)
    local q, msg, code = grid:find(1, 1, 30, 20, HIER)
    assert.is_nil(q)
    assert.equals("blocked", code)
    assert.matches("goal %(30, 20%) is blocked", msg)
    q, msg, code = grid:find(30, 20, 1, 1, HIER)
    assert.is_nil(q)
    assert.equals("blocked", code)
    assert.matches("start %(30, 20%) is blocked", msg)
  end)
end)

describe("grid:hierarchy", function()
  it("after random edits equals a fresh build, rebuilding only near the edits", function()
    local rng = H.rng(77)
    for _ = 1, H.trials(12) do
      local w, h = rng.int(20, 70), rng.int(20, 70)
      local costs = rng.pick { { 1 }, { 1, 2, 4 } }
      local cells = H.random_cells(rng, w, h, rng.pick { 0.1, 0.3 }, costs)
      local grid = astar.grid.from_table(cells)
      local cluster, diagonal = rng.int(4, 12), rng.pick(POLICIES)
      local info = grid:hierarchy { cluster = cluster, diagonal = diagonal }
      assert.equals(info.clusters, info.rebuilt)
      assert.equals(math.ceil(w / cluster) * math.ceil(h / cluster), info.clusters)
      for round = 1, 6 do
        local edits = round == 6 and 70 or rng.int(1, 4)   -- 70: more than the grid remembers
        for _ = 1, edits do
          local v = rng.float() < 0.5 and false or rng.pick(costs)
          H.edit_cells(rng, grid, cells, w, h, rng.int(1, w), rng.int(1, h), v, 0.3, 4)
        end
        info = grid:hierarchy { cluster = cluster, diagonal = diagonal }
        local fresh = grid:clone():hierarchy { cluster = cluster, diagonal = diagonal }
        assert.equals(fresh.digest, info.digest)
        assert.equals(fresh.nodes, info.nodes)
        assert.equals(fresh.edges, info.edges)
        if round == 6 then
          assert.equals(info.clusters, info.rebuilt)
        else                        -- an edit of up to 4 x 4 cells touches up to 3 x 3 clusters
          assert.truthy(info.rebuilt <= 9 * edits, info.rebuilt .. " rebuilt after " .. edits)
        end
        check_queries(rng, cells, w, h, grid, diagonal, 3)
      end
      grid:close()
    end
  end)

  it("a cell edited in a cluster's middle rebuilds that cluster alone, and a border cell both", function()
    local grid = astar.grid(64, 64)
    grid:hierarchy { cluster = 16 }
    grid:set(8, 8, false)
    assert.equals(1, grid:hierarchy { cluster = 16 }.rebuilt)
    grid:set(16, 8, false)          -- on the border x = 16 | 17
    assert.equals(2, grid:hierarchy { cluster = 16 }.rebuilt)
    assert.equals(0, grid:hierarchy { cluster = 16 }.rebuilt)
  end)

  it("keeps one abstraction per cluster size and policy, the last asked for used by find", function()
    local grid = astar.grid(50, 50)
    grid:fill(25, 1, 1, 49, false)
    local a = grid:hierarchy { cluster = 5 }
    local b = grid:hierarchy { cluster = 10, diagonal = "never" }
    assert.equals(100, a.clusters)
    assert.equals(25, b.clusters)
    assert.equals("never", b.diagonal)
    assert.equals(0, grid:hierarchy { cluster = 5 }.rebuilt)    -- the same one again
    for c = 4, 9 do grid:hierarchy { cluster = c, diagonal = "always" } end
    H.checkerr("hierarchy: a grid keeps at most 8 abstractions", function()
      grid:hierarchy { cluster = 64 }
    end)
    local ok, err = pcall(grid.find, grid, 1, 1, 50, 1, opts("one_obstacle"))
    assert.is_false(ok)
    assert.matches("the grid keeps 8 abstractions %(grid:hierarchy%), none for diagonal " ..
                   "'one_obstacle'", err)
    local p = assert(grid:find(1, 1, 50, 1, opts("never")))
    local cells = {}
    for y = 1, 50 do
      cells[y] = {}
      for x = 1, 50 do cells[y][x] = grid:get(x, y) end
    end
    H.check_path(cells, 50, 50, p, 1, 1, 50, 1, "never")
  end)

  it("is what 'auto' searches for ends far enough apart once allowed, and nothing else", function()
    local rng = H.rng(309)
    local w, h = 60, 50
    local cells = H.random_cells(rng, w, h, 0.2, { 1 })
    local grid = astar.grid.from_table(cells)
    assert.is_false(grid:hierarchy { cluster = 8 }.auto)           -- not allowed by default
    local info = grid:hierarchy { cluster = 8, auto = 30 }
    assert.equals(30, info.auto)
    local far, near, pair = 0, 0, nil
    for _ = 1, 60 do
      local sx, sy = random_walkable(rng, cells, w, h)
      local gx, gy = random_walkable(rng, cells, w, h)
      local dx, dy = math.abs(gx - sx), math.abs(gy - sy)
      local oct = math.max(dx, dy) + (math.sqrt(2) - 1) * math.min(dx, dy)
      local best = H.dijkstra(cells, w, h, sx, sy, gx, gy, "no_corner_cutting")
      local p = grid:find(sx, sy, gx, gy)
      assert.equals(best ~= nil, p ~= nil)
      if p then
        local cost = H.check_path(cells, w, h, p, sx, sy, gx, gy, "no_corner_cutting")
        assert.truthy(cost >= best * (1 - 1e-9))
        if oct >= 30 then
          assert.equals("hierarchical", p:stats().algorithm)
          far = far + 1
          pair = { sx, sy, gx, gy, p:cost() }
        else
          assert.truthy(H.close(cost, best, 1e-9), "a near query is shortest")
          assert.are_not.equal("hierarchical", p:stats().algorithm)
          near = near + 1
        end
        -- what it cannot take, or another algorithm or policy, leaves it out
        for _, o in ipairs { { algorithm = "astar" }, { weight = 1.5 }, { diagonal = "never" },
                             { cost = function() return 1 end }, { partial = true } } do
          local q = grid:find(sx, sy, gx, gy, o)
          assert.are_not.equal("hierarchical", q:stats().algorithm)
        end
      end
    end
    assert.truthy(far > 5 and near > 5, far .. " far, " .. near .. " near")
    local q = grid:query(pair[1], pair[2], pair[3], pair[4])       -- time-sliced, the same
    while q:step(3) == "running" do end
    assert.equals("hierarchical", q:result():stats().algorithm)
    assert.equals(pair[5], q:result():cost())
    assert.is_false(grid:hierarchy { cluster = 8, auto = false }.auto)
    assert.equals(8, grid:hierarchy { cluster = 8, auto = true }.cluster)
    assert.equals(1024, grid:hierarchy { cluster = 8 }.auto)       -- kept; true means 1024 cells
    assert.is_false(grid:hierarchy { cluster = 8, diagonal = "never" }.auto)
    for _, bad in ipairs { -1, 0 / 0, math.huge, "far", {} } do
      local ok, err = pcall(grid.hierarchy, grid, { auto = bad })
      assert.is_false(ok)
      assert.matches("option 'auto': true, false or a distance in cells", err, 1, true)
    end
    grid:close()
  end)

  it("makes an abstraction when find needs one, and warm queries allocate nothing", function()
    local grid = astar.grid(100, 100)
    grid:fill(50, 1, 1, 90, false)
    local function twenty()
      for i = 1, 20 do assert(grid:find(1, i, 100, 101 - i, HIER)) end
    end
    twenty()
    local before = grid:stats().allocations
    twenty()
    assert.equals(before, grid:stats().allocations)
    grid:set(80, 80, false)           -- an edit: the next query rebuilds a cluster
    twenty()
    before = grid:stats().allocations
    twenty()
    assert.equals(before, grid:stats().allocations)
  end)

  it("refuses what it cannot do, with clear errors, and stays usable", function()
    local grid = astar.grid(20, 20)
    H.checkerr("bad argument #1 to 'hierarchy' (option 'cluster': must be an integer in [4, 64], got 3)",
      function() grid:hierarchy { cluster = 3 } end)
    H.checkerr_prefix("bad argument #1 to 'hierarchy' (option 'cluster': must be an integer in [4, 64]",
      function() grid:hierarchy { cluster = 0 / 0 } end)
    H.checkerr("bad argument #1 to 'hierarchy' (option 'cluster': must be an integer in [4, 64], got 8.5)",
      function() grid:hierarchy { cluster = 8.5 } end)
    H.checkerr("bad argument #1 to 'hierarchy' (option 'cluster': number expected, got string)",
      function() grid:hierarchy { cluster = "16" } end)
    H.checkerr("bad argument #1 to 'hierarchy' (option 'diagonal': invalid value 'sideways')",
      function() grid:hierarchy { diagonal = "sideways" } end)
    H.checkerr("bad argument #1 to 'hierarchy' (option 'threads': must be an integer in [1, 64], got 0)",
      function() grid:hierarchy { threads = 0 } end)
    H.checkerr("bad argument #1 to 'hierarchy' (option 'threads': must be an integer in [1, 64], got 1.5)",
      function() grid:hierarchy { threads = 1.5 } end)
    H.checkerr("bad argument #1 to 'hierarchy' (option 'threads': must be an integer in [1, 64], got 65)",
      function() grid:hierarchy { threads = 65 } end)
    H.checkerr("bad argument #1 to 'hierarchy' (option names must be strings, got number)",
      function() grid:hierarchy { 16 } end)
    H.checkerr_prefix("bad argument #1 to 'hierarchy' (unknown option 'size')",
      function() grid:hierarchy { size = 3 } end)
    H.checkerr_prefix("bad argument #1 to 'hierarchy' (table expected, got number)",
      function() grid:hierarchy(16) end)
    for _, o in ipairs {
      { "cost", function() return 1 end }, { "radius", 1 },
      { "within", 2 }, { "partial", true }, { "weight", 2 }, { "heuristic", "manhattan" },
    } do
      local ok, err = pcall(grid.find, grid, 1, 1, 20, 20, { algorithm = "hierarchical", [o[1]] = o[2] })
      assert.is_false(ok)
      assert.matches("option '" .. o[1] .. "' cannot be used with algorithm 'hierarchical'", err)
    end
    local okg, errg = pcall(grid.find, grid, 1, 1, { goals = { { 2, 2 } }, algorithm = "hierarchical" })
    assert.is_false(okg)
    assert.matches("option 'goals' cannot be used with algorithm 'hierarchical'", errg)
    local hex = astar.hexgrid(10, 10, { layout = "odd-r" })
    local ok0, err0 = pcall(hex.find, hex, 1, 1, 5, 5, HIER)
    assert.is_false(ok0)
    assert.matches("'hierarchical' does not apply to a hex grid", err0)
    local okr, errr = pcall(grid.find, grid, 1, 1, 20, 20, { refine = false })
    assert.is_false(okr)
    assert.matches("option 'refine' needs algorithm 'hierarchical'", errr)
    local linked = astar.grid(10, 10)
    linked:link(1, 1, 9, 9, 1)
    local ok, err = pcall(linked.find, linked, 1, 1, 5, 5, HIER)
    assert.is_false(ok)
    assert.matches("does not apply to a grid with links", err)
    assert.has_error(function() linked:hierarchy() end, "hierarchy: a grid with links cannot be abstracted")
    assert(grid:find(1, 1, 20, 20, HIER))
  end)

  it("runs as a time-sliced query, restarting after an edit", function()
    local cells = H.random_cells(H.rng(5), 60, 60, 0.2, { 1 })
    cells[1][1], cells[60][60] = 1, 1
    local grid = astar.grid.from_table(cells)
    local q = grid:query(1, 1, 60, 60, HIER)
    assert.equals("running", q:step(3))
    grid:set(30, 30, false)
    cells[30][30] = false
    local status
    repeat status = q:step(3) until status ~= "running"
    local best = H.dijkstra(cells, 60, 60, 1, 1, 60, 60, "no_corner_cutting")
    if best then
      assert.equals("found", status)
      local cost = H.check_path(cells, 60, 60, (q:result()), 1, 1, 60, 60)
      assert.truthy(cost >= best - 1e-9)
    else
      assert.equals("none", status)
    end
  end)
end)

describe("hierarchical search on the Moving AI maps", function()
  local dir = H.movingai_dir()
  local maps = { "dao/arena2", "dao/brc202d", "dao/orz900d", "sc1/TheFrozenSea",
                 "rooms/32room_000", "cities/Berlin_1_256", "mazes/maze512-1-0",
                 "random/random512-10-0", "bg512/AR0011SR" }
  for _, name in ipairs(maps) do
    it(name .. ": every scenario legal, never below the published optimum; mean excess under 6%",
       function()
      if not dir then return pending("no Moving AI maps") end
      local grid = astar.grid.load_movingai(dir .. "/" .. name .. ".map")
      grid:hierarchy()
      local sc = H.read_scen(dir .. "/" .. name .. ".map.scen")
      local every = math.ceil(#sc / (H.scen_limit() or #sc))   -- spread over the buckets
      local sum, n = 0, 0
      for i = 1, #sc, every do
        local s = sc[i]
        local p = assert(grid:find(s.sx, s.sy, s.gx, s.gy, HIER))
        assert.truthy(grid:check(p))
        local tol, listed = H.scen_tolerance(s.optimal_text)
        assert.truthy(p:cost() >= listed - tol, ("scenario %d: %s below %s"):format(i, p:cost(), listed))
        if listed > 0 then
          sum = sum + p:cost() / listed - 1
          n = n + 1
        end
      end
      assert.truthy(sum / n < 0.06, ("mean excess %.2f%%"):format(100 * sum / n))
    end)
  end
end)
