-- Regressions found in review: each once crashed or misbehaved.
local astar = require "astar"
local helper = require "spec.helper"

describe("regressions", function()
  it("a callback cannot cancel the query it is stepping, and the query still finishes", function()
    local g = astar.grid(20, 20)
    local q, once = nil, true
    q = g:query(1, 1, 20, 20, { cost = function(_, _, _, _, b)
      if q and once then once = false; q:cancel() end
      return b
    end })
    local ok, err = pcall(q.step, q, 100)
    assert.is_false(ok)
    assert.are.equal("cannot cancel the query: it is being stepped", err)
    assert.are.equal("found", (q:step(100000)))
    local cells = {}
    for y = 1, 20 do cells[y] = {} for x = 1, 20 do cells[y][x] = 1 end end
    local want = helper.dijkstra(cells, 20, 20, 1, 1, 20, 20, "no_corner_cutting")
    assert.is_true(math.abs(q:result():cost() - want) < 1e-9)
  end)

  it("from_table raises, not crashes, when the cost function edits the rows", function()
    local rows = { { 1, 1 }, { 1, 1 } }
    local ok, err = pcall(astar.grid.from_table, rows, function() rows[2] = 42; return 1 end)
    assert.is_false(ok)
    assert.are.equal("bad argument #1 to 'from_table' (row 2 changed during from_table)", err)
  end)

  it("a grid made blocked and then opened keeps a tight heuristic", function()
    local a = astar.grid(60, 60, false)
    a:fill(1, 1, 60, 60, 5)
    local b = astar.grid(60, 60, 5)
    local pa, pb = a:find(1, 1, 60, 60), b:find(1, 1, 60, 60)
    assert.are.equal(pb:stats().expanded, pa:stats().expanded)
    assert.is_true(math.abs(pa:cost() - 5 * 59 * math.sqrt(2)) < 1e-9)
  end)

  it("the points iterator checks its state argument", function()
    local it = astar.grid(3, 3):find(1, 1, 3, 3):points()
    local ok, err = pcall(it, nil, 0)
    assert.is_false(ok)
    assert.are.equal("bad argument #1 to 'points' iterator (astar.Path expected, got nil)", err)
  end)

  it("path:get says out of range for large integers", function()
    local p = astar.grid(5, 1):find(1, 1, 5, 1)
    helper.checkerr("bad argument #1 to 'get' (index out of range: 2147483648 not in [1, 5] "
      .. "or [-5, -1])", p.get, p, 2 ^ 31)
  end)

  it("grid:check accepts a field's path under the field's diagonal policy", function()
    local g = astar.grid.parse("#.\n.#", { ["#"] = false, ["."] = 1 })
    local p = g:distance_field({ { 2, 1 } }, { diagonal = "always" }):path_from(1, 2)
    assert.are.equal(2, #p)
    assert.is_true(g:check(p))
  end)

  it("scheduler:await does not run (and lose the errors of) the coroutine inside update", function()
    local g = astar.grid(10, 10)
    local s = astar.scheduler { budget = 100 }
    local co = coroutine.create(function()
      local p = s:await(g, 1, 1, 10, 10)
      error("boom " .. #p, 0)
    end)
    assert.is_true((coroutine.resume(co)))
    while s:pending() > 0 do s:update() end
    assert.are.equal("suspended", coroutine.status(co))
    local ok, err = coroutine.resume(co)
    assert.is_false(ok)
    assert.are.equal("boom 10", err)
  end)

  it("splice rejects options that would end the detour elsewhere", function()
    local g = astar.grid(20, 5)
    local p = g:find(1, 1, 20, 1)
    for _, k in ipairs({ "partial", "within", "goals" }) do
      helper.checkerr(("bad argument #4 to 'splice' (option '%s' does not apply to splice)"):format(k),
        g.splice, g, p, 1, 4, { [k] = (k == "partial") or (k == "within" and 1) or { { 20, 1 } } })
    end
  end)

  it("to_path rejects coordinates far outside int range without undefined behaviour", function()
    local g = astar.grid(3, 3)
    helper.checkerr("bad argument #1 to 'to_path' (point 1 is not a cell of the grid)",
      g.to_path, g, { 1e20, 1, 2, 2 })
  end)

  -- Issue 17: `goals` silently replaced the goal arguments on grids and graphs.
  it("a goal argument and option 'goals' cannot be combined, on every kind", function()
    local g = astar.grid(10, 10)
    local msg = "option 'goals' cannot be combined with a goal argument"
    helper.checkerr("bad argument #5 to 'find' (" .. msg .. ")", g.find, g, 1, 1, 2, 1,
      { goals = { { 10, 3 } } })
    helper.checkerr("bad argument #5 to 'query' (" .. msg .. ")", g.query, g, 1, 1, 2, 1,
      { goals = { { 10, 3 } } })
    local gr = astar.graph()
    local a, b = gr:add_node(), gr:add_node()
    gr:add_edge(a, b, 1)
    helper.checkerr("bad argument #3 to 'find' (" .. msg .. ")", gr.find, gr, a, b, { goals = { b } })
    helper.checkerr("bad argument #3 to 'query' (" .. msg .. ")", gr.query, gr, a, b, { goals = { b } })
    -- the goals form alone still works, and both objects stay usable
    local p = assert(g:find(1, 1, { goals = { { 10, 3 } } }))
    assert.are.same({ 10, 3 }, { p:get(#p) })
    assert.are.equal(2, #assert(gr:find(a, { goals = { b } })))
  end)

  -- Issue 16: wrong self and foreign paths raised internal errors or drew garbage.
  it("render and splice take only a path of cells that fit the grid; wrong selves say so", function()
    local g = astar.grid(5, 5)
    local gr = astar.graph()
    local a, b = gr:add_node(0, 0), gr:add_node(1, 0)
    gr:add_edge(a, b, 1)
    local mesh = astar.navmesh.from_grid(astar.grid(5, 5))
    local big = astar.grid(9, 9):find(1, 1, 9, 9)
    local fit = "a grid Path that fits this 5x5 grid expected: "
    helper.checkerr("bad argument #1 to 'render' (" .. fit .. "point 1 is node 1)",
      g.render, g, gr:find(a, b))
    helper.checkerr("bad argument #1 to 'render' (" .. fit .. "point 1 is (0.5, 0.5))",
      g.render, g, mesh:find(0.5, 0.5, 4.5, 4.5))
    helper.checkerr("bad argument #1 to 'render' (" .. fit .. "point 6 is (6, 6))", g.render, g, big)
    helper.checkerr("bad argument #1 to 'splice' (" .. fit .. "point 6 is (6, 6))",
      g.splice, g, big, 1, 1)
    local s = astar.scheduler({ budget = 10 })
    helper.checkerr("calling 'update' on bad self (astar.Scheduler expected, got table)",
      s.update, {})
    helper.checkerr("calling 'pending' on bad self (astar.Scheduler expected, got nil)", s.pending)
    local r = g:replanner(1, 1, 5, 5)
    helper.checkerr("calling 'close' on bad self (astar.Replanner expected, got table)",
      r.close, {})
    -- all of them still work
    assert.are.equal(5, #assert(r:path()))
    assert.are.equal(0, s:pending())
    assert.is_truthy(g:render(g:find(1, 1, 5, 5)):find("G", 1, true))
  end)

  -- Issue 16: a grid of cost 1e308 found a path of cost inf, a replanner on it said no_path;
  -- nodes at +-1e308 gave "invalid argument". One rule now: costs and coordinates are at most
  -- 1e100 in magnitude, so no sum over a path overflows.
  it("costs and coordinates beyond 1e100 are refused with one message; sums stay finite", function()
    local big = "(at most 1e+100 in magnitude, so that sums stay finite)"
    helper.checkerr("bad argument #3 to 'grid' (cost is too large: 1e+308 " .. big .. ")",
      astar.grid, 20, 20, 1e308)
    local g = astar.grid(20, 20, 1e100)               -- the largest cost: a finite path
    local p = assert(g:find(1, 1, 20, 20))
    assert.is_true(p:cost() < math.huge and math.abs(p:cost() / (19 * math.sqrt(2) * 1e100) - 1) < 1e-12)
    helper.checkerr("bad argument #3 to 'set' (cost is too large: 1e+200 " .. big .. ")",
      g.set, g, 1, 1, 1e200)
    helper.checkerr("bad argument #1 to 'from_table' (cell (2, 1): cost is too large: 1e+200 "
      .. big .. ")", astar.grid.from_table, { { 1, 1e200 } })
    helper.checkerr("cost callback returned 1e+200 for the step (1, 1) -> (2, 1) (expected at "
      .. "most 1e+100 in magnitude, so that sums stay finite)",
      g.find, g, 1, 1, 20, 20, { cost = function() return 1e200 end })
    local gr = astar.graph()
    helper.checkerr("bad argument #1 to 'add_node' (x is too large: -1e+308 " .. big .. ")",
      gr.add_node, gr, -1e308, 0)
    local a, b = gr:add_node(-1e100, 0), gr:add_node(1e100, 0)
    helper.checkerr("bad argument #3 to 'add_edge' (a cost is needed: nodes 1 and 2 are 2e+100 "
      .. "apart, too far for a cost " .. big .. ")", gr.add_edge, gr, a, b)
    helper.checkerr("bad argument #3 to 'add_edge' (cost is too large: 1e+300 " .. big .. ")",
      gr.add_edge, gr, a, b, 1e300)
    helper.checkerr("bad argument #1 to 'navmesh' (field 'vertices': item 3 is too large: 1e+200 "
      .. big .. ")", astar.navmesh, { vertices = { 0, 0, 1e200, 0, 0, 1 }, polygons = { { 1, 2, 3 } } })
    local small = astar.grid(5, 5)
    helper.checkerr("bad argument #2 to 'from_grid' (option 'tile': 1e-300 makes the mesh 5e-300 "
      .. "units across; the tile must be at least 1e-100, the mesh at most 1e+100 across)",
      astar.navmesh.from_grid, small, { tile = 1e-300 })
    -- and the objects still work
    assert.is_truthy(gr:add_edge(a, b, 1e100) == nil and gr:find(a, b))
  end)

  it("a directory is not a map file: load_* say so", function()
    local dir = os.getenv("TMPDIR") or "/tmp"
    local v, msg, code = astar.grid.load_movingai(dir)
    assert.is_nil(v)
    assert.are.equal("io", code)
    assert.is_truthy(type(msg) == "string" and msg:find(dir, 1, true), tostring(msg))
    v, msg, code = astar.load_scenarios(dir)
    assert.is_nil(v)
    assert.are.equal("io", code)
    assert.is_truthy(type(msg) == "string" and #msg > #dir, tostring(msg))
  end)

  it("from_table and parse_scenarios say the same on every VM", function()
    helper.checkerr("bad argument #1 to 'from_table' (row 1 has holes (nil at index 2))",
      astar.grid.from_table, { { 1, nil, 1 } })
    local line = "version 1\n0\tmaps/x.map\t10\t10\t1\t1\t2\t2\t%s\n"
    for _, v in ipairs({ "nan", "inf", "-inf", "0x10" }) do
      helper.checkerr("bad argument #1 to 'parse_scenarios' (malformed scenarios: line 2: "
        .. "expected 9 fields)", astar.parse_scenarios, line:format(v))
    end
    assert.are.equal(1.5, astar.parse_scenarios(line:format("1.5"))[1].optimal)
  end)

  -- Issue 16: two overlapping squares that share no edge were accepted, and find then said
  -- no_path across them.
  it("polygons that overlap without sharing an edge are refused", function()
    helper.checkerr("navmesh: polygon 2 overlaps polygon 1", astar.navmesh, { vertices = {
      0, 0, 10, 0, 10, 10, 0, 10, 5, 5, 15, 5, 15, 15, 5, 15 }, polygons = { { 1, 2, 3, 4 }, { 5, 6, 7, 8 } } })
    helper.checkerr("navmesh: polygon 2 overlaps polygon 1", astar.navmesh, { vertices = {
      0, 0, 10, 0, 10, 10, 0, 10, 2, 2, 4, 2, 4, 4, 2, 4 }, polygons = { { 1, 2, 3, 4 }, { 5, 6, 7, 8 } } })
    -- touching at a corner or along a whole edge is not overlapping
    assert.is_truthy(astar.navmesh({ vertices = { 0, 0, 10, 0, 10, 10, 0, 10, 10, 10, 20, 10, 20,
      20, 10, 20 }, polygons = { { 1, 2, 3, 4 }, { 5, 6, 7, 8 } } }))
    -- random rectangles against the obvious reference: interiors meet iff both spans overlap
    local rng = helper.rng(16)
    local refused, accepted = 0, 0
    for _ = 1, 400 do
      local r = {}
      for k = 1, 2 do
        local x, y = rng.int(0, 8), rng.int(0, 8)
        r[k] = { x, y, x + rng.int(1, 6), y + rng.int(1, 6) }
      end
      local a, b = r[1], r[2]
      local meet = math.max(a[1], b[1]) < math.min(a[3], b[3]) and
        math.max(a[2], b[2]) < math.min(a[4], b[4])
      local ok, err = pcall(astar.navmesh, { vertices = { a[1], a[2], a[3], a[2], a[3], a[4],
        a[1], a[4], b[1], b[2], b[3], b[2], b[3], b[4], b[1], b[4] },
        polygons = { { 1, 2, 3, 4 }, { 5, 6, 7, 8 } } })
      if meet then
        assert.is_false(ok, ("rectangles %s and %s overlap"):format(table.concat(a, ","),
          table.concat(b, ",")))
        assert.is_truthy(tostring(err):find("overlaps polygon", 1, true) or
          tostring(err):find("repeats polygon", 1, true), tostring(err))
        refused = refused + 1
      else
        -- apart, or touching: fine, unless an edge meets part of another (a T-junction)
        assert.is_truthy(ok or tostring(err):find("T-junction", 1, true), tostring(err))
        if ok then accepted = accepted + 1 end
      end
    end
    assert.is_true(refused > 50 and accepted > 50, refused .. " refused, " .. accepted .. " accepted")
  end)

  it("a radius search whose straight way is too narrow ends with no_path (issue 15)", function()
    -- start and goal have clearance 2.5 in one polygon; the way between passes 0.8 from the tip
    -- of a wedge-shaped hole. The old search tried the same corridor again for ever. Stepped, so
    -- that a regression fails here instead of hanging: each step call returns.
    local mesh = astar.navmesh{ vertices = { -10, -3, 10, -3, 10, 0, -10, 0, 0, 0.3, 10, 10, 1, 10,
      -1, 10, -10, 10 }, polygons = { { 1, 2, 3, 4 }, { 4, 3, 5 }, { 5, 3, 6, 7 }, { 4, 5, 8, 9 } } }
    local q = mesh:query(-5, -0.5, 5, -0.5, { radius = 2 })
    local st, calls = "running", 0
    while st == "running" and calls < 1000 do st = q:step(50); calls = calls + 1 end
    assert.are.equal("none", st)
    local path, msg, code = q:result()
    assert.is_nil(path)
    assert.are.equal("no_path", code, msg)
    -- radius 1.5 fits under the tip (3.3 wide): a way that dips round it, 1.5 from the tip and
    -- from the floor at every point
    path = assert(mesh:find(-5, -0.5, 5, -0.5, { radius = 1.5 }))
    assert.is_true(path:cost() > 10 and path:cost() < 10.2, path:cost())
    local f = path:flat()
    for i = 1, #f - 3, 2 do
      assert.is_true(helper.seg_dist(0, 0.3, f[i], f[i + 1], f[i + 2], f[i + 3]) >= 1.5 * (1 - 1e-9)
        and f[i + 1] >= -1.5, i)
    end
  end)

  it("raycast along a wall from a point on its line passes both ways (fuzz_navmesh)", function()
    -- a lies on the wall (0, 0)-(93, 40) exactly, b a rounding error outside it: the ray from
    -- a ran out at a grazing angle and left at once, the ray from b passed
    local mesh = astar.navmesh.from_polygons({ 0, 0, 40, 40, 93, 40 })
    local ax, ay = 9.0811764705882343, 3.9058823529411759
    local bx, by = 18.70941176470588, 8.0470588235294098
    assert.are.equal(1, mesh:locate(ax, ay))
    assert.are.equal(1, mesh:locate(bx, by))
    assert.is_true(mesh:raycast(ax, ay, bx, by))
    assert.is_true(mesh:raycast(bx, by, ax, ay))
    local path = assert(mesh:find(ax, ay, bx, by))
    local f = path:flat()
    for i = 1, #f - 3, 2 do assert.is_true(mesh:raycast(f[i], f[i + 1], f[i + 2], f[i + 3])) end
    -- and a ray that crosses a wall still leaves exactly on its line
    local ok, x, y = mesh:raycast(50, 39, 50, 45)
    assert.is_false(ok)
    assert.are.equal(50, x)
    assert.are.equal(40, y)
  end)

  it("a partial path after 0 expansions of the portal search is the start (fuzz_navmesh)", function()
    -- the start node's point was read before the search had written it: the path went on to
    -- a point of uninitialised memory
    local grid = astar.grid.parse("1311\n#351", { ["#"] = false, ["1"] = 1, ["3"] = 3, ["5"] = 5 })
    for _, tile in ipairs({ 1, 1e-3 }) do
      local mesh = astar.navmesh.from_grid(grid, { tile = tile })
      for _, radius in ipairs({ 0, 0.1 * tile }) do
        local path, _, code = mesh:find(3.5 * tile, 0.5 * tile, 0.5 * tile, 0.5 * tile,
          { partial = true, max_expansions = 0, radius = radius })
        assert.are.equal("partial", code)
        assert.are.same({ 3.5 * tile, 0.5 * tile }, path:flat())
      end
    end
  end)

  it("nearest and clearance from far outside the mesh find the nearest wall (fuzz_navmesh)", function()
    -- the ring search over the buckets stopped when 'distance outside the box + ring radius'
    -- passed the best wall so far; that sum overestimates the distance of the walls in the
    -- ring (the two legs are at right angles), so (3, 18) was missed from (10.5, 1.5)
    local mesh = astar.navmesh {
      vertices = { 0, 18, 3, 18, 3, 21, 0, 21, 9, 21, 12, 21, 12, 27, 9, 27 },
      polygons = { { 1, 2, 3, 4 }, { 5, 6, 7, 8 } },
    }
    local x, y, p = mesh:nearest(10.5, 1.5)
    assert.are.same({ 3, 18, 1 }, { x, y, p })
    assert.is_true(math.abs(mesh:clearance(10.5, 1.5) - math.sqrt(7.5 ^ 2 + 16.5 ^ 2)) < 1e-12)
  end)

  it("the exact search turns round a corner it reached along a portal's line (fuzz_navmesh)", function()
    -- b, the corner (7.5, 7.5) and the hole's corner (1.25, 1.25) are on one line: from b the
    -- search ran along the portal (7.5, 7.5)-(1.25, 1.25) to the corner, which then saw only
    -- the polygon across that portal, not the one beyond it round the corner where the goal is;
    -- b -> a went round the hole (27.75), a -> b through the corner (16.40)
    local mesh = astar.navmesh.from_polygons({ 0, 0, 25, 0, 25, 7.5, 7.5, 25, 7.5, 7.5, 0, 25 },
      { { 1.25, 1.25, 1.25, 3.75, 2.5, 3.75 } })
    local ax, ay, bx, by = 2.2058823529411762, 9.264705882352942, 15.147058823529413, 15.147058823529413
    local want = math.sqrt((ax - 7.5) ^ 2 + (ay - 7.5) ^ 2) + math.sqrt(2) * (bx - 7.5)
    for _, p in ipairs({ assert(mesh:find(ax, ay, bx, by)), assert(mesh:find(bx, by, ax, ay)) }) do
      assert.is_true(math.abs(p:cost() - want) < 1e-9 * want, p:cost())
      assert.are.same({ 7.5, 7.5 }, { p:get(2) })
    end
  end)
end)
