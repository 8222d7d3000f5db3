-- astar.love against a fake love.graphics that records every call. The expected rectangles and
-- points are computed here from the README's frame: cell (x, y) covers [x-1, x] x [y-1, y]
-- times the tile, its centre is ((x - 0.5) * tile, (y - 0.5) * tile).
local astar = require "astar"
local H = require "spec.helper"
local unpack = H.unpack

-- A love.graphics that keeps its state and logs {name, args...} for each drawing call.
local function fake_graphics()
  local g = { log = {}, color = { 0.1, 0.2, 0.3, 0.4 }, width = 3, size = 5 }
  local function record(name)
    return function(...) g.log[#g.log + 1] = { name, color = g.color, width = g.width, size = g.size, ... } end
  end
  function g.getColor() return unpack(g.color) end
  function g.setColor(r, gr, b, a)
    if type(r) == "table" then r, gr, b, a = r[1], r[2], r[3], r[4] end
    g.color = { r, gr, b, a or 1 }
    g.log[#g.log + 1] = { "setColor" }
  end
  function g.getLineWidth() return g.width end
  function g.setLineWidth(w) g.width = w end
  function g.getPointSize() return g.size end
  function g.setPointSize(s) g.size = s end
  g.rectangle, g.line, g.points, g.polygon = record("rectangle"), record("line"), record("points"),
    record("polygon")
  function g.calls(name)
    local out = {}
    for _, c in ipairs(g.log) do if c[1] == name then out[#out + 1] = c end end
    return out
  end
  return g
end

local function key(c) return table.concat({ c[1], c[2], c[3], c[4] or 1 }, ",") end

local function assert_restored(g)
  assert.are.same({ 0.1, 0.2, 0.3, 0.4 }, g.color)
  assert.are.equal(3, g.width)
  assert.are.equal(5, g.size)
end

local function close_list(got, want)
  assert.are.equal(#want, #got)
  for i = 1, #want do assert.is_true(math.abs(got[i] - want[i]) <= 1e-12, "point " .. i) end
end

describe("astar.love", function()
  local g
  before_each(function()
    g = fake_graphics()
    _G.love = { graphics = g }
  end)
  after_each(function() _G.love = nil end)

  it("draw_grid: one rectangle per cell, where the cell is, coloured by its cost", function()
    local grid = astar.grid.parse("..#5\n3.#.\n...5", { ["#"] = false, ["."] = 1, ["3"] = 3, ["5"] = 5 })
    astar.love.draw_grid(grid, { tile = 16 })
    local rects = g.calls("rectangle")
    assert.are.equal(12, #rects)
    local at, colour_of_cost = {}, {}
    for _, r in ipairs(rects) do
      assert.are.equal("fill", r[2])
      assert.are.same({ 16, 16 }, { r[5], r[6] })
      local x, y = math.floor(r[3] / 16) + 1, math.floor(r[4] / 16) + 1
      local k = x .. "," .. y
      assert.is_nil(at[k])
      at[k] = true
      local cost = tostring(grid:get(x, y))
      colour_of_cost[cost] = colour_of_cost[cost] or key(r.color)
      assert.are.equal(colour_of_cost[cost], key(r.color), "cost " .. cost)
    end
    for y = 1, 3 do for x = 1, 4 do assert.is_true(at[x .. "," .. y]) end end
    -- four classes: wall, 1, 3, 5, each its own colour, and one setColor each (+ the restore)
    local distinct = {}
    for _, c in pairs(colour_of_cost) do distinct[c] = true end
    local n = 0
    for _ in pairs(distinct) do n = n + 1 end
    assert.are.equal(4, n)
    assert.are.equal(5, #g.calls("setColor"))
    assert_restored(g)
  end)

  it("draw_grid: opts.colors sets the wall colour and the ramp, cheapest to dearest", function()
    local grid = astar.grid.parse(".#9", { ["#"] = false, ["."] = 1, ["9"] = 9 })
    local wall, cheap, dear = { 0, 0, 1 }, { 0, 1, 0 }, { 1, 0, 0 }
    astar.love.draw_grid(grid, { colors = { wall = wall, ramp = { cheap, dear } } })
    local rects = g.calls("rectangle")
    local by_x = {}
    for _, r in ipairs(rects) do
      assert.are.same({ 0, 1, 1 }, { r[4], r[5], r[6] })
      by_x[r[3] + 1] = key(r.color)
    end
    assert.are.same({ key(cheap), key(wall), key(dear) }, by_x)
    assert_restored(g)
  end)

  it("draw_path: one line through the cells' centres in world units", function()
    local grid = astar.grid(6, 4)
    grid:fill(3, 1, 1, 3, false)
    local path = assert(grid:find(1, 1, 6, 1))
    local want = {}
    for _, x, y in path:points() do
      want[#want + 1], want[#want + 2] = (x - 0.5) * 32, (y - 0.5) * 32
    end
    astar.love.draw_path(path, grid, { tile = 32, color = { 1, 0, 0 }, width = 4 })
    local lines = g.calls("line")
    assert.are.equal(1, #lines)
    close_list(lines[1][2], want)
    assert.are.equal("1,0,0,1", key(lines[1].color))
    assert.are.equal(4, lines[1].width)
    assert_restored(g)
    -- a smoothed path's points are numbers on the same cells
    g.log = {}
    local smooth = path:smooth(grid)
    want = {}
    for i = 1, #smooth do
      local x, y = smooth:get(i)
      want[#want + 1], want[#want + 2] = (x - 0.5) * 32, (y - 0.5) * 32
    end
    astar.love.draw_path(smooth, grid, { tile = 32 })
    close_list(g.calls("line")[1][2], want)
  end)

  it("draws in the grid's world frame (set_world); opts.tile means square cells from (0, 0)", function()
    local grid = astar.grid(5, 4)
    grid:set_world { tile = { 8, 4 }, origin = { 100, 50 } }
    grid:fill(3, 1, 1, 3, false)
    astar.love.draw_grid(grid)
    local seen = 0
    for _, r in ipairs(g.calls("rectangle")) do
      local x, y = (r[3] - 100) / 8 + 1, (r[4] - 50) / 4 + 1
      assert.is_true(x % 1 == 0 and y % 1 == 0 and x >= 1 and x <= 5 and y >= 1 and y <= 4)
      assert.are.same({ 8, 4 }, { r[5], r[6] })
      seen = seen + 1
    end
    assert.are.equal(20, seen)
    local path = assert(grid:find(1, 1, 5, 1))
    local want = {}
    for _, x, y in path:points() do
      want[#want + 1], want[#want + 2] = 100 + (x - 0.5) * 8, 50 + (y - 0.5) * 4
    end
    astar.love.draw_path(path, grid)
    close_list(g.calls("line")[1][2], want)
    close_list(g.calls("line")[1][2], grid:world_points(path))
    -- a mesh built from the grid is in the same frame: drawn as it is, it covers the cells
    g.log = {}
    astar.love.draw_mesh(astar.navmesh.from_grid(grid))
    for _, c in ipairs(g.calls("polygon")) do
      for i = 1, #c[3], 2 do
        assert.is_true(c[3][i] >= 100 and c[3][i] <= 140 and c[3][i + 1] >= 50 and c[3][i + 1] <= 66)
      end
    end
    g.log = {}
    astar.love.draw_path(path, grid, { tile = 2 })
    assert.are.same({ 1, 1 }, { g.calls("line")[1][2][1], g.calls("line")[1][2][2] })
    astar.love.draw_grid(grid, { tile = 2 })
    assert.are.same({ 0, 0, 2, 2 }, { H.unpack(g.calls("rectangle")[1], 3, 6) })
  end)

  it("draw_path: navmesh paths and flat lists as they are; one point alone as a point", function()
    local mesh = astar.navmesh {
      vertices = { 0, 0, 10, 0, 10, 10, 0, 10, 20, 0, 20, 10 },
      polygons = { { 1, 2, 3, 4 }, { 2, 5, 6, 3 } },
    }
    local path = assert(mesh:find(1, 1, 19, 9))
    astar.love.draw_path(path)
    assert.are.same({ 1, 1, 19, 9 }, g.calls("line")[1][2])
    astar.love.draw_path({ 0, 0, 5, 5, 7, 1 }, { width = 1 })
    assert.are.same({ 0, 0, 5, 5, 7, 1 }, g.calls("line")[2][2])
    astar.love.draw_path({ 4, 4 })
    assert.are.same({ 4, 4 }, g.calls("points")[1][2])
    astar.love.draw_path({})
    assert.are.equal(2, #g.calls("line"))
    assert_restored(g)
  end)

  it("draw_mesh: each polygon outlined, filled first when asked", function()
    local verts = { 0, 0, 10, 0, 10, 10, 0, 10, 20, 0, 20, 10 }
    local polys = { { 1, 2, 3, 4 }, { 2, 5, 6, 3 } }
    local mesh = astar.navmesh { vertices = verts, polygons = polys }
    astar.love.draw_mesh(mesh, { fill = { 0, 0, 1, 0.3 }, width = 2 })
    local fills, outlines = {}, {}
    for _, c in ipairs(g.calls("polygon")) do
      if c[2] == "fill" then fills[#fills + 1] = c else outlines[#outlines + 1] = c end
    end
    assert.are.equal(2, #fills)
    assert.are.equal(2, #outlines)
    for p, poly in ipairs(polys) do
      local want = {}
      for _, v in ipairs(poly) do want[#want + 1], want[#want + 2] = verts[2 * v - 1], verts[2 * v] end
      assert.are.same(want, outlines[p][3])
      assert.are.same(want, fills[p][3])
      assert.are.equal(2, outlines[p].width)
      assert.are.equal("0,0,1,0.3", key(fills[p].color))
    end
    assert_restored(g)
  end)

  it("draw_search: the closed and the open cells of a query as points at their centres", function()
    local grid = astar.grid(8, 8)
    local query = { explored = function() return { 1, 1, 2, 1 }, { 3, 1, 3, 2, 2, 2 } end }
    astar.love.draw_search(grid, query, { tile = 10, size = 4 })
    local pts = g.calls("points")
    assert.are.equal(2, #pts)
    assert.are.same({ 5, 5, 15, 5 }, pts[1][2])
    assert.are.same({ 25, 5, 25, 15, 15, 15 }, pts[2][2])
    assert.are.equal(4, pts[1].size)
    assert.are_not.equal(key(pts[1].color), key(pts[2].color))
    assert_restored(g)
  end)

  it("draw_search: a real time-sliced query, as it grows, in the grid's frame", function()
    local grid = astar.grid(12, 12)
    grid:set_world { tile = 10, origin = { -5, 20 } }
    grid:fill(6, 1, 1, 10, false)
    local q = grid:query(1, 1, 12, 1, { algorithm = "astar" })
    for _ = 1, 3 do
      q:step(7)
      local closed, open = q:explored()
      assert.is_true(#closed > 0 and #open > 0)
      g.log = {}
      astar.love.draw_search(grid, q)
      local pts = g.calls("points")
      assert.are.equal(2, #pts)
      for k, cells in ipairs({ closed, open }) do
        local want = {}
        for i = 1, #cells, 2 do
          want[i], want[i + 1] = -5 + (cells[i] - 0.5) * 10, 20 + (cells[i + 1] - 0.5) * 10
        end
        close_list(pts[k][2], want)
      end
      assert.are.equal(5, pts[1].size)                -- half a tile
      assert_restored(g)
    end
    assert.are.equal("found", (q:step(10000)))
    g.log = {}
    astar.love.draw_search(grid, q)                   -- ended: nothing left to draw
    assert.are.equal(0, #g.calls("points"))
    assert_restored(g)
  end)

  it("checks its options", function()
    local grid = astar.grid(2, 2)
    H.checkerr("bad argument #2 to 'draw_grid' (table expected, got number)",
      astar.love.draw_grid, grid, 5)
    H.checkerr("bad argument #2 to 'draw_grid' (option 'tile': must be a positive finite number, got 0)",
      astar.love.draw_grid, grid, { tile = 0 })
    H.checkerr("bad argument #1 to 'draw_path' (Path or flat list of points expected, got nil)",
      astar.love.draw_path, nil)
  end)

  it("loads without LÖVE, and says so when it must draw", function()
    _G.love = nil
    package.loaded["astar.love"] = nil
    local M = require "astar.love"
    assert.are.equal(M, astar.love)
    local grid = astar.grid(2, 2)
    for name, args in pairs({ draw_grid = { grid }, draw_path = { { 0, 0, 1, 1 } },
      draw_mesh = { {} }, draw_search = { grid, {} } }) do
      H.checkerr(("astar.love.%s: love.graphics not found (draw from a LÖVE game)"):format(name),
        M[name], unpack(args))
    end
    _G.love = {}
    H.checkerr("astar.love.draw_grid: love.graphics not found (draw from a LÖVE game)",
      M.draw_grid, grid)
  end)
end)
