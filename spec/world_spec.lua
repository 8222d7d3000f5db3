-- World coordinates (Grid:set_world, to_world, to_cell, world_points, find_world, and
-- navmesh.from_grid in the grid's frame), against the frame's formulas written here: cell
-- (x, y) covers [ox + (x-1) tw, ox + x tw] x [oy + (y-1) th, oy + y th].
local astar = require "astar"
local H = require "spec.helper"

local FRAMES = { -- tw, th, ox, oy: exact binary fractions, so the spec's sums are exact too
  { 1, 1, 0, 0 }, { 32, 32, 0, 0 }, { 16, 8, 100, -50 }, { 0.5, 2.5, -3.25, 7 },
  { 0.125, 0.125, 1e6, 1e6 }, { 64, 48, -2048, 512 },
}

local function framed(w, h, f, cost)
  return astar.grid(w, h, cost or 1, { tile = { f[1], f[2] }, origin = { f[3], f[4] } })
end

local function centre(f, x, y) return f[3] + (x - 0.5) * f[1], f[4] + (y - 0.5) * f[2] end

describe("Grid:set_world", function()
  it("keeps the frame it is given, by constructor or method, and clone copies it", function()
    for _, f in ipairs(FRAMES) do
      local g = framed(7, 5, f)
      assert.same(f, { g:world() })
      assert.same(f, { g:clone():world() })
      local g2 = astar.grid(7, 5)
      assert.same({ 1, 1, 0, 0 }, { g2:world() })
      assert.equal(g2, g2:set_world{ tile = { f[1], f[2] }, origin = { f[3], f[4] } })
      assert.same(f, { g2:world() })
    end
    assert.same({ 8, 8, 0, 0 }, { astar.grid(3, 3, { tile = 8 }):world() })
    assert.same({ 1, 1, 5, 6 }, { astar.grid(3, 3, false, { origin = { 5, 6 } }):world() })
    assert.is_false(astar.grid(3, 3, false, { tile = 2 }):walkable(2, 2))
  end)

  it("is not an edit: live queries go on, counters stay", function()
    local g = astar.grid(30, 30)
    local q = g:query(1, 1, 30, 30, { algorithm = "astar" })
    q:step(5)
    local edits = g:stats().edits
    g:set_world{ tile = 3 }
    assert.equal(edits, g:stats().edits)
    g:set_world{ tile = 5, origin = { 1, 1 } }
    assert.equal("found", q:step(1e6))
    assert.equal(0, q:stats().restarts)
    assert.equal(edits, g:stats().edits)
  end)

  it("refuses bad frames with messages that name the field", function()
    local g = astar.grid(10, 10)
    local e = "bad argument #1 to 'set_world' ("
    H.checkerr(e .. "a tile's sides must be in [1e-100, 1e+100], got 0)", g.set_world, g,
      { tile = 0 })
    H.checkerr(e .. "a tile's sides must be in [1e-100, 1e+100], got -2)", g.set_world, g,
      { tile = { 1, -2 } })
    H.checkerr(e .. "a tile's sides must be in [1e-100, 1e+100], got nan)", g.set_world, g,
      { tile = 0 / 0 })
    H.checkerr(e .. "a tile's sides must be in [1e-100, 1e+100], got inf)", g.set_world, g,
      { tile = math.huge })
    H.checkerr(e .. "'tile' [2]: number expected, got string)", g.set_world, g,
      { tile = { 1, "2" } })
    H.checkerr(e .. "'tile': number expected, got string)", g.set_world, g, { tile = "2" })
    H.checkerr(e .. "the origin (100000000000000000, 0) is more than 1e12 tiles from (0, 0): cell corners "
      .. "would round together)", g.set_world, g, { origin = { 1e17, 0 } })
    H.checkerr(e .. "'origin' must be a table {x, y}, got number)", g.set_world, g,
      { origin = 3 })
    H.checkerr(e .. "'origin' [1]: number expected, got nil)", g.set_world, g, { origin = {} })
    H.checkerr(e .. "unknown field tiles (expected 'tile' and 'origin'))", g.set_world, g,
      { tiles = 3 })
    H.checkerr(e .. "the grid would reach (1.9e+100, 1e+100): the world must lie within 1e+100 "
      .. "of (0, 0))", g.set_world, g, { tile = 1e99, origin = { 9e99, 0 } })
    H.checkerr_prefix("bad argument #1 to 'set_world' (table expected", g.set_world, g, 5)
    H.checkerr("bad argument #4 to 'grid' (nothing expected after the world table, got "
      .. "number)", astar.grid, 3, 3, { tile = 2 }, 5)
    assert.same({ 1, 1, 0, 0 }, { g:world() })        -- nothing half-set
  end)

  it("raises, and sets nothing, when an __index metamethod closes the grid", function()
    local g = astar.grid(4, 4)
    local t = setmetatable({}, { __index = function() g:close() end })
    H.checkerr("attempt to use a closed grid", g.set_world, g, t)
  end)
end)

describe("Grid:to_world and Grid:to_cell", function()
  it("follow the frame's formulas, and invert each other on every cell", function()
    for _, f in ipairs(FRAMES) do
      local w, h = 9, 6
      local g = framed(w, h, f)
      for y = 1, h do
        for x = 1, w do
          local wx, wy = g:to_world(x, y)
          local ex, ey = centre(f, x, y)
          assert.equal(ex, wx); assert.equal(ey, wy)
          assert.same({ x, y }, { g:to_cell(wx, wy) })
          -- a cell owns its left and top edges, not its right and bottom ones
          local lx, ty = f[3] + (x - 1) * f[1], f[4] + (y - 1) * f[2]
          assert.same({ x, y }, { g:to_cell(lx, ty) })
          local rx, by = f[3] + x * f[1], f[4] + y * f[2]
          if x < w and y < h then assert.same({ x + 1, y + 1 }, { g:to_cell(rx, by) }) end
        end
      end
      -- off the grid: nil, one value
      for _, p in ipairs({ { f[3] - f[1] / 4, f[4] }, { f[3], f[4] - 1e-3 },
                           { f[3] + w * f[1], f[4] }, { f[3], f[4] + h * f[2] },
                           { math.huge, 0 }, { -math.huge, 0 } }) do
        assert.equal(1, select("#", g:to_cell(p[1], p[2])))
        assert.is_nil(g:to_cell(p[1], p[2]))
      end
    end
  end)

  it("maps any finite number linearly (smoothed points are cell numbers too)", function()
    local rng = H.rng(77)
    for _, f in ipairs(FRAMES) do
      local g = framed(5, 5, f)
      for _ = 1, 50 do
        local x, y = rng.float() * 12 - 3, rng.float() * 12 - 3
        local wx, wy = g:to_world(x, y)
        local ex, ey = centre(f, x, y)
        assert.is_true(H.close(ex, wx, 1e-12) and H.close(ey, wy, 1e-12))
      end
    end
  end)

  it("refuse what is not a finite number", function()
    local g = astar.grid(3, 3)
    H.checkerr("bad argument #1 to 'to_world' (finite number expected, got nan)", g.to_world,
      g, 0 / 0, 1)
    H.checkerr("bad argument #2 to 'to_world' (finite number expected, got inf)", g.to_world,
      g, 1, math.huge)
    H.checkerr("bad argument #2 to 'to_cell' (number expected, got nan)", g.to_cell, g, 1,
      0 / 0)
    H.checkerr_prefix("bad argument #1 to 'to_cell' (number expected", g.to_cell, g, "1", 1)
  end)
end)

describe("Grid:world_points and Grid:find_world", function()
  it("give the centres of a grid path's cells, and the points of a smoothed one", function()
    local rng = H.rng(5)
    for _, f in ipairs(FRAMES) do
      local w, h = 16, 12
      local cells = H.random_cells(rng, w, h, 0.2, { 1 })
      local g = astar.grid.from_table(cells):set_world{ tile = { f[1], f[2] },
                                                        origin = { f[3], f[4] } }
      g:set(1, 1, 1); g:set(w, h, 1)
      local path = g:find(1, 1, w, h)
      if path then
        local pts = g:world_points(path)
        assert.equal(2 * #path, #pts)
        for i, x, y in path:points() do
          local ex, ey = centre(f, x, y)
          assert.equal(ex, pts[2 * i - 1]); assert.equal(ey, pts[2 * i])
        end
        local smooth = path:smooth(g)
        local sp = g:world_points(smooth)
        for i = 1, #smooth do
          local x, y = smooth:get(i)
          local ex, ey = centre(f, x, y)
          assert.equal(ex, sp[2 * i - 1]); assert.equal(ey, sp[2 * i])
        end
        -- find_world: the cells under the world points, the same path
        local sx, sy = centre(f, 1, 1)
        local gx, gy = f[3] + (w - 0.75) * f[1], f[4] + (h - 0.25) * f[2]   -- inside (w, h)
        local wp, wpath = g:find_world(sx, sy, gx, gy)
        assert.same(pts, wp)
        assert.equal(path:cost(), wpath:cost())
      else
        local _, _, code = g:find_world(f[3], f[4], f[3] + (w - 0.5) * f[1], f[4] + (h - 0.5) * f[2])
        assert.equal("no_path", code)
      end
    end
  end)

  it("fills a table it is given, clearing what the last path left", function()
    local g = astar.grid(10, 10, { tile = 2 })
    local into = { "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n" }
    local got = g:world_points(g:find(1, 1, 3, 1), into)
    assert.equal(into, got)
    assert.same({ 1, 1, 3, 1, 5, 1 }, got)
  end)

  it("refuse navmesh paths, other values, and world points off the grid", function()
    local g = astar.grid(6, 6)
    local mesh = astar.navmesh.from_grid(g)
    local mp = mesh:find(0.5, 0.5, 5.5, 5.5)
    local e = "bad argument #1 to 'world_points' (a Path in cells (a grid, smoothed or "
      .. "any-angle path) expected, got "
    H.checkerr(e .. "userdata)", g.world_points, g, mp)
    H.checkerr(e .. "table)", g.world_points, g, {})
    H.checkerr("bad argument #1 to 'find_world' (the world point (-1, 0) is off the grid)",
      g.find_world, g, -1, 0, 1, 1)
    H.checkerr("bad argument #3 to 'find_world' (the world point (6, 0) is off the grid)",
      g.find_world, g, 0, 0, 6, 0)
    H.checkerr("bad argument #3 to 'find_world' (number expected, got nil)", g.find_world, g, 1,
      1, nil, 2)
    H.checkerr("bad argument #2 to 'find_world' (number expected, got nan)", g.find_world, g, 1,
      0 / 0, 2, 2)
    g:set(6, 6, false)
    assert.same({ nil, "blocked" }, { nil, select(3, g:find_world(0, 0, 5.5, 5.5)) })
  end)
end)

describe("navmesh.from_grid in the grid's frame", function()
  it("is the unit mesh mapped through the frame, polygon by polygon", function()
    local rng = H.rng(99)
    for _, f in ipairs(FRAMES) do
      local w, h = 14, 10
      local cells = H.random_cells(rng, w, h, 0.3, { 1, 2 })
      cells[1][1] = 1
      local unit = astar.navmesh.from_grid(astar.grid.from_table(cells))
      local g = astar.grid.from_table(cells):set_world{ tile = { f[1], f[2] },
                                                        origin = { f[3], f[4] } }
      local mesh = astar.navmesh.from_grid(g)
      assert.equal(unit:stats().polygons, mesh:stats().polygons)
      for p = 1, unit:stats().polygons do
        local a, b = unit:polygon(p), mesh:polygon(p)
        assert.equal(#a, #b)
        for i = 1, #a, 2 do
          assert.equal(f[3] + a[i] * f[1], b[i])
          assert.equal(f[4] + a[i + 1] * f[2], b[i + 1])
        end
      end
      -- every walkable cell's world centre lies in a polygon, every blocked one in none
      for y = 1, h do
        for x = 1, w do
          local p = mesh:locate(g:to_world(x, y))
          assert.equal(cells[y][x] ~= false, p ~= nil)
        end
      end
    end
  end)

  it("keeps the old 'tile' option: square cells from (0, 0)", function()
    local g = astar.grid(4, 3, { tile = 8, origin = { 40, 40 } })
    local mesh = astar.navmesh.from_grid(g, { tile = 2 })
    assert.same({ 0, 0, 8, 0, 8, 6, 0, 6 }, mesh:polygon(1))
    assert.same({ 40, 40, 72, 40, 72, 64, 40, 64 }, astar.navmesh.from_grid(g):polygon(1))
  end)
end)
