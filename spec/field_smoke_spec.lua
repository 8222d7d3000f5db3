-- Distance fields and components on grids: quick checks against the helper's independent
-- references (forward Dijkstra from every cell, BFS reachability). The main specs are elsewhere.

local astar = require "astar"
local H = require "spec.helper"

local POLICIES = H.POLICIES

-- Reference field: for every cell v, min over sources s of (cheapest forward path v -> s) + value.
-- One forward Dijkstra per cell: independent of the library's backward search.
local function ref_field(cells, w, h, sources, diagonal, costfn)
  local best = {}
  for y = 1, h do
    for x = 1, w do
      if cells[y][x] then
        local d = H.dijkstra_all(cells, w, h, x, y, diagonal, costfn)
        local b
        for _, s in ipairs(sources) do
          local ds = d[(s[2] - 1) * w + s[1]]
          if ds and cells[s[2]][s[1]] then
            local v = ds + (s[3] or 0)
            if b == nil or v < b then b = v end
          end
        end
        best[(y - 1) * w + x] = b
      end
    end
  end
  return best
end

-- Checks every cell of field f against the reference distances, and next/path_from against them.
local function check_field(f, cells, w, h, ref, diagonal, costfn)
  for y = 1, h do
    for x = 1, w do
      local want = ref[(y - 1) * w + x]
      local got = f:distance(x, y)
      if want == nil then
        assert.is_nil(got, ("distance(%d, %d)"):format(x, y))
        assert.is_nil(f:next(x, y))
        local p, msg, code = f:path_from(x, y)
        assert.is_nil(p)
        assert.are.equal(("no path from (%d, %d) to a source"):format(x, y), msg)
        assert.are.equal("no_path", code)
      else
        assert.is_true(H.close(want, got, 1e-9),
          ("distance(%d, %d): want %s, got %s"):format(x, y, tostring(want), tostring(got)))
        local nx, ny = f:next(x, y)
        local path = assert(f:path_from(x, y))
        local ex, ey = path:get(-1)
        local cost = H.check_path(cells, w, h, path, x, y, ex, ey, diagonal, costfn)
        assert.is_true(H.close(cost, path:cost(), 1e-9))
        assert.is_true(H.close(got - f:distance(ex, ey), path:cost(), 1e-9))
        assert.is_nil(f:next(ex, ey))
        if nx == nil then
          assert.are.equal(1, #path)
        else
          assert.are.same({ nx, ny }, { path:get(2) })
        end
      end
    end
  end
end

describe("grid:distance_field", function()
  it("matches a forward Dijkstra from every cell, under every policy, with values", function()
    local rng = H.rng(7)
    for round = 1, 12 do
      local w, h = rng.int(3, 8), rng.int(3, 7)
      local cells = H.random_cells(rng, w, h, 0.25, { 1, 2, 3, 0.5 })
      local g = astar.grid.from_table(cells)
      local sources = {}
      for i = 1, rng.int(1, 3) do
        sources[i] = { rng.int(1, w), rng.int(1, h), round % 2 == 0 and rng.int(-5, 5) or nil }
      end
      for _, pol in ipairs(POLICIES) do
        local f = g:distance_field(sources, { diagonal = pol })
        check_field(f, cells, w, h, ref_field(cells, w, h, sources, pol), pol)
      end
    end
  end)

  it("calls the cost callback with the forward step and honours it", function()
    local rng = H.rng(11)
    local function costfn(x1, y1, x2, y2, base)
      if (x2 * 3 + y2) % 7 == 0 and x1 < x2 then return nil end  -- one-way walls
      return base * (1 + ((x1 + y1) % 3))                          -- depends on the cell left
    end
    for _ = 1, 8 do
      local w, h = rng.int(3, 7), rng.int(3, 7)
      local cells = H.random_cells(rng, w, h, 0.2, { 1, 2 })
      local g = astar.grid.from_table(cells)
      local sources = { { rng.int(1, w), rng.int(1, h) } }
      for _, pol in ipairs(POLICIES) do
        local f = g:distance_field(sources, { diagonal = pol, cost = costfn })
        check_field(f, cells, w, h, ref_field(cells, w, h, sources, pol, costfn), pol, costfn)
      end
    end
  end)

  it("agrees with grid:find", function()
    local g = astar.grid.parse("....#...\n.##.#.~.\n..#...~.\n........", {
      ["#"] = false, ["."] = 1, ["~"] = 4 })
    local f = g:distance_field({ { 8, 1 } })
    for y = 1, 4 do
      for x = 1, 8 do
        local p = g:find(x, y, 8, 1)
        if p then assert.is_true(H.close(p:cost(), f:distance(x, y), 1e-12))
        else assert.is_nil(f:distance(x, y)) end
      end
    end
  end)

  it("max_cost leaves farther cells unreached", function()
    local g = astar.grid(6, 1)
    local f = g:distance_field({ { 1, 1 }, { 6, 1, 10 } }, { max_cost = 2.5, diagonal = "never" })
    assert.are.same({ 0, 1, 2 }, { f:distance(1, 1), f:distance(2, 1), f:distance(3, 1) })
    assert.is_nil(f:distance(4, 1))
    assert.is_nil(f:distance(6, 1))               -- its value is above max_cost
    assert.are.equal(3, f:stats().reached)
  end)

  it("makes flee maps from a Field", function()
    local rng = H.rng(3)
    local w, h = 7, 5
    local cells = H.random_cells(rng, w, h, 0.2, { 1, 2 })
    cells[3][4] = 1
    local g = astar.grid.from_table(cells)
    local toward = g:distance_field({ { 4, 3 } })
    local flee = g:distance_field(toward, { scale = -1.5 })
    local srcs = {}
    for y = 1, h do
      for x = 1, w do
        local d = toward:distance(x, y)
        if d then srcs[#srcs + 1] = { x, y, -1.5 * d } end
      end
    end
    check_field(flee, cells, w, h, ref_field(cells, w, h, srcs, "no_corner_cutting"), "no_corner_cutting")
  end)

  it("ignores blocked sources, keeps the cheaper duplicate", function()
    local g = astar.grid.parse("..#", { ["."] = 1, ["#"] = false })
    local f = g:distance_field({ { 3, 1 }, { 1, 1, 5 }, { 1, 1, 2 } })
    assert.are.same({ 2, 3 }, { f:distance(1, 1), f:distance(2, 1) })
    assert.is_nil(f:distance(3, 1))
    local e = g:distance_field({ { 3, 1 } })
    assert.is_nil(e:distance(1, 1))
    assert.are.equal(0, e:stats().reached)
    assert.are.equal("astar.Field (3x1 grid, 0 reached)", tostring(e))
    assert.are.same({ 3, 1 }, { e:size() })
  end)

  it("outlives its grid", function()
    local g = astar.grid(3, 3)
    local f = g:distance_field({ { 1, 1 } })
    g:close()
    collectgarbage()
    assert.are.equal(2 * H.SQRT2, f:distance(3, 3))
    assert.are.equal(3, #f:path_from(3, 3))
  end)

  it("raises on bad arguments with exact messages", function()
    local g = astar.grid(4, 3)
    local f = g:distance_field({ { 1, 1 } })
    H.checkerr("bad argument #1 to 'distance_field' (table or astar.Field expected, got nil)",
      g.distance_field, g)
    H.checkerr("bad argument #1 to 'distance_field' (source 1 is not a cell of the grid)",
      g.distance_field, g, { { 5, 1 } })
    H.checkerr("bad argument #1 to 'distance_field' (source 2 is not a table {x, y [, value]})",
      g.distance_field, g, { { 1, 1 }, 3 })
    H.checkerr("bad argument #1 to 'distance_field' (source 1: value must be a finite number, got inf)",
      g.distance_field, g, { { 1, 1, math.huge } })
    H.checkerr("bad argument #1 to 'distance_field' (Field of a 4x3 grid, expected 3x3)",
      astar.grid(3, 3).distance_field, astar.grid(3, 3), f, { scale = 1 })
    H.checkerr("bad argument #2 to 'distance_field' (unknown option 'wieght')",
      g.distance_field, g, { { 1, 1 } }, { wieght = 2 })
    H.checkerr("bad argument #2 to 'distance_field' (option 'diagonal': invalid value 'sometimes')",
      g.distance_field, g, { { 1, 1 } }, { diagonal = "sometimes" })
    H.checkerr("bad argument #2 to 'distance_field' (option 'cost': function expected, got number)",
      g.distance_field, g, { { 1, 1 } }, { cost = 1 })
    H.checkerr("bad argument #2 to 'distance_field' (option 'max_cost': must be a non-negative number, got nan)",
      g.distance_field, g, { { 1, 1 } }, { max_cost = 0 / 0 })
    H.checkerr("bad argument #1 to 'distance_field' (empty list of sources)", g.distance_field, g, {})
    H.checkerr("bad argument #2 to 'distance_field' (option 'scale' is required when the sources are a Field)",
      g.distance_field, g, f)
    H.checkerr("bad argument #2 to 'distance_field' (option 'scale': must be a finite number, got -inf)",
      g.distance_field, g, f, { scale = -math.huge })
    H.checkerr("bad argument #2 to 'distance_field' (option 'scale' is only for a Field as sources)",
      g.distance_field, g, { { 1, 1 } }, { scale = 1 })
    H.checkerr("cost callback returned 0 for the step (2, 1) -> (1, 1) (expected a positive finite "
      .. "number, or false or nil to forbid it)",
      g.distance_field, g, { { 1, 1 } }, { cost = function() return 0 end })
    H.checkerr("bad argument #1 to 'distance' (x out of range: 5 not in [1, 4])", f.distance, f, 5, 1)
    H.checkerr("bad argument #2 to 'next' (integer expected, got 1.5)", f.next, f, 1, 1.5)
    H.checkerr("calling 'path_from' on bad self (astar.Field expected, got number)", f.path_from, 1, 1, 1)
  end)

  it("runs callbacks safely: errors propagate unchanged, no re-entry, the grid works after", function()
    local g = astar.grid(4, 4)
    local err = {}
    local ok, e = pcall(g.distance_field, g, { { 1, 1 } }, { cost = function() error(err) end })
    assert.is_false(ok)
    assert.are.equal(err, e)
    for _, inner in ipairs({
      { function() g:set(2, 2, 3) end, "cannot edit the grid: a search on this grid is running" },
      { function() g:find(1, 1, 2, 2) end, "cannot search: a search on this grid is already running" },
      { function() g:distance_field({ { 1, 1 } }) end,
        "cannot search: a search on this grid is already running" },
    }) do
      H.checkerr(inner[2], g.distance_field, g, { { 1, 1 } }, {
        cost = function() inner[1]() return 1 end })
    end
    assert.are.equal(3 * H.SQRT2, g:distance_field({ { 1, 1 } }):distance(4, 4))
    assert.is_truthy(g:find(1, 1, 4, 4))
  end)
end)

describe("grid components", function()
  local function check_components(g, cells, w, h, pol)
    local n = g:components(pol)
    local firsts, seen = {}, {}
    for y = 1, h do
      for x = 1, w do
        local lab = g:component(x, y, pol)
        if not cells[y][x] then
          assert.is_nil(lab)
        else
          assert.is_true(lab >= 1 and lab <= n)
          if not seen[lab] then                     -- numbered in reading order
            seen[lab] = true
            firsts[#firsts + 1] = lab
            assert.are.equal(#firsts, lab)
          end
        end
      end
    end
    assert.are.equal(n, #firsts)
    for y = 1, h do
      for x = 1, w do
        local reach = H.bfs_all(cells, w, h, x, y, pol)
        for y2 = 1, h do
          for x2 = 1, w do
            assert.are.equal(reach[(y2 - 1) * w + x2] ~= nil, g:same_component(x, y, x2, y2, pol))
          end
        end
      end
    end
  end

  it("match BFS reachability under every policy, and follow edits", function()
    local rng = H.rng(5)
    for _ = 1, 10 do
      local w, h = rng.int(2, 7), rng.int(2, 6)
      local cells = H.random_cells(rng, w, h, 0.4)
      local g = astar.grid.from_table(cells)
      for _, pol in ipairs(POLICIES) do check_components(g, cells, w, h, pol) end
      for _ = 1, 3 do
        local x, y = rng.int(1, w), rng.int(1, h)
        cells[y][x] = (not cells[y][x]) and 2 or false
        g:set(x, y, cells[y][x])
        for _, pol in ipairs(POLICIES) do check_components(g, cells, w, h, pol) end
      end
    end
  end)

  it("make find answer unreachable goals with no_path, and stay exact", function()
    local rng = H.rng(9)
    for _ = 1, 10 do
      local w, h = rng.int(3, 8), rng.int(3, 8)
      local cells = H.random_cells(rng, w, h, 0.35)
      local g = astar.grid.from_table(cells)
      g:components()
      for k = 1, 30 do
        if k % 10 == 0 then
          local x, y = rng.int(1, w), rng.int(1, h)
          cells[y][x] = not cells[y][x] and 1 or false
          g:set(x, y, cells[y][x])
        end
        local pol = rng.pick(POLICIES)
        local sx, sy, gx, gy = rng.int(1, w), rng.int(1, h), rng.int(1, w), rng.int(1, h)
        local want = H.dijkstra(cells, w, h, sx, sy, gx, gy, pol)
        local p, _, code = g:find(sx, sy, gx, gy, { diagonal = pol })
        if want then
          assert.is_true(H.close(want, p:cost(), 1e-9))
        else
          assert.is_nil(p)
          assert.is_truthy(code == "no_path" or code == "blocked")
        end
      end
    end
  end)

  it("checks arguments", function()
    local g = astar.grid(3, 3)
    H.checkerr("bad argument #1 to 'components' (diagonal: invalid value 'sometimes')",
      g.components, g, "sometimes")
    H.checkerr("bad argument #3 to 'component' (diagonal: string expected, got number)", g.component, g, 1, 1, 4)
    H.checkerr("bad argument #3 to 'same_component' (x out of range: 4 not in [1, 3])",
      g.same_component, g, 1, 1, 4, 1)
    g:close()
    H.checkerr("attempt to use a closed grid", g.components, g)
  end)
end)
