-- Hexagonal grids (astar.hexgrid), checked against references written here from Amit Patel's
-- hexagon guide (redblobgames.com/grids/hexagons, "offset coordinates"): the neighbour tables
-- of the four layouts, the axial conversions, and a Dijkstra over those neighbours where a
-- step costs the cell it enters.
local astar = require "astar"
local H = require "spec.helper"

local LAYOUTS = { "odd-r", "even-r", "odd-q", "even-q" }

-- The guide's neighbour offsets, 0-based (col, row), by the parity of the row (-r) or column
-- (-q) of the cell.
local NB = {
  ["odd-r"] = { [0] = { { 1, 0 }, { 0, -1 }, { -1, -1 }, { -1, 0 }, { -1, 1 }, { 0, 1 } },
    [1] = { { 1, 0 }, { 1, -1 }, { 0, -1 }, { -1, 0 }, { 0, 1 }, { 1, 1 } } },
  ["even-r"] = { [0] = { { 1, 0 }, { 1, -1 }, { 0, -1 }, { -1, 0 }, { 0, 1 }, { 1, 1 } },
    [1] = { { 1, 0 }, { 0, -1 }, { -1, -1 }, { -1, 0 }, { -1, 1 }, { 0, 1 } } },
  ["odd-q"] = { [0] = { { 1, 0 }, { 1, -1 }, { 0, -1 }, { -1, -1 }, { -1, 0 }, { 0, 1 } },
    [1] = { { 1, 1 }, { 1, 0 }, { 0, -1 }, { -1, 0 }, { -1, 1 }, { 0, 1 } } },
  ["even-q"] = { [0] = { { 1, 1 }, { 1, 0 }, { 0, -1 }, { -1, 0 }, { -1, 1 }, { 0, 1 } },
    [1] = { { 1, 0 }, { 1, -1 }, { 0, -1 }, { -1, -1 }, { -1, 0 }, { 0, 1 } } },
}

-- The neighbours of 1-based cell (x, y), inside the w x h grid, or across the seams of the
-- axes in 'wrap' ("x", "y", "xy" or nil).
local function neighbours(layout, w, h, x, y, wrap)
  local c, r, out = x - 1, y - 1, {}
  local parity = layout:sub(-1) == "r" and r % 2 or c % 2
  for _, d in ipairs(NB[layout][parity]) do
    local nx, ny = x + d[1], y + d[2]
    if wrap and wrap:find("x") then nx = (nx - 1) % w + 1 end
    if wrap and wrap:find("y") then ny = (ny - 1) % h + 1 end
    if nx >= 1 and ny >= 1 and nx <= w and ny <= h then out[#out + 1] = { nx, ny } end
  end
  return out
end

-- The guide's offset -> axial conversions (0-based).
local function axial(layout, x, y)
  local c, r = x - 1, y - 1
  local half = function(v) return math.floor(v / 2) end
  if layout == "odd-r" then return c - half(r - r % 2), r end
  if layout == "even-r" then return c - half(r + r % 2), r end
  if layout == "odd-q" then return c, r - half(c - c % 2) end
  return c, r - half(c + c % 2)
end

local function dijkstra(layout, cells, w, h, sx, sy, back, wrap)
  local function key(x, y) return (y - 1) * w + x end
  return H.dijkstra_generic({ { key(sx, sy), 0 } }, function(u, visit)
    local x, y = (u - 1) % w + 1, math.floor((u - 1) / w) + 1
    for _, n in ipairs(neighbours(layout, w, h, x, y, wrap)) do
      if cells[n[2]][n[1]] then
        visit(key(n[1], n[2]), back and cells[y][x] or cells[n[2]][n[1]])
      end
    end
  end)
end

-- The distance field to (sx, sy) against the backward Dijkstra, and components against the
-- forward one, over every cell (wrap: as for neighbours). Returns the forward costs.
local function check_field(grid, layout, cells, w, h, sx, sy, wrap)
  local field = grid:distance_field({ { sx, sy } })
  local back = dijkstra(layout, cells, w, h, sx, sy, true, wrap)   -- the way to (sx, sy)
  local from = dijkstra(layout, cells, w, h, sx, sy, false, wrap)
  for y = 1, h do
    for x = 1, w do
      local want, got = back[(y - 1) * w + x], field:distance(x, y)
      assert((want == nil) == (got == nil) and (want == nil or H.close(got, want)))
      -- components: reachable from (sx, sy) exactly when in its component
      assert(grid:same_component(sx, sy, x, y) == (from[(y - 1) * w + x] ~= nil))
    end
  end
  return from
end

local function hexgrid(layout, cells, w, h)
  local g = astar.hexgrid(w, h, { layout = layout })
  for y = 1, h do
    for x = 1, w do g:set(x, y, cells[y][x]) end
  end
  return g
end

describe("hex grids", function()
  it("find takes the cheapest way over the six neighbours, in every layout", function()
    local rng = H.rng(606)
    local found, none = 0, 0
    for _ = 1, 200 do
      local layout = rng.pick(LAYOUTS)
      local w, h = rng.int(2, 14), rng.int(2, 14)
      local cells = H.random_cells(rng, w, h, rng.pick({ 0, 0.2, 0.35 }), { 1, 1, 2, 0.5 })
      local grid = hexgrid(layout, cells, w, h)
      assert(grid:hex() == layout)
      for _ = 1, 4 do
        local sx, sy, gx, gy = rng.int(1, w), rng.int(1, h), rng.int(1, w), rng.int(1, h)
        local alg = rng.pick({ "auto", "astar", "dijkstra", "bfs" })
        local path, _, code = grid:find(sx, sy, gx, gy, { algorithm = alg,
          heuristic = rng.pick({ "zero", false }) or nil })
        local want = cells[sy][sx] and cells[gy][gx] and
          dijkstra(layout, cells, w, h, sx, sy)[(gy - 1) * w + gx] or nil
        if want == nil then
          assert(path == nil and (code == "no_path" or code == "blocked"), tostring(code))
          none = none + 1
        else
          assert(path, "no path where the reference has one")
          local sum, px, py = 0, path:get(1)
          assert(px == sx and py == sy)
          for i = 2, #path do
            local x, y = path:get(i)
            local ok = false
            for _, n in ipairs(neighbours(layout, w, h, px, py)) do
              if n[1] == x and n[2] == y then ok = true end
            end
            assert(ok and cells[y][x], ("step %d (%d, %d) -> (%d, %d) is not a step of %s")
              :format(i - 1, px, py, x, y, layout))
            sum = sum + cells[y][x]
            px, py = x, y
          end
          assert(px == gx and py == gy)
          assert(H.close(sum, path:cost()))
          if alg ~= "bfs" then
            assert(H.close(path:cost(), want), ("%s %s: %.17g, expected %.17g"):format(layout,
              alg, path:cost(), want))
          end
          assert(grid:check(path))
          found = found + 1
        end
      end
      grid:close()
    end
    assert(found > 400 and none > 50, ("found %d, none %d"):format(found, none))
  end)

  it("has distance fields, components, queries and goals over the same steps", function()
    local rng = H.rng(7)
    for _ = 1, 60 do
      local layout = rng.pick(LAYOUTS)
      local w, h = rng.int(2, 10), rng.int(2, 10)
      local cells = H.random_cells(rng, w, h, 0.25, { 1, 3 })
      local grid = hexgrid(layout, cells, w, h)
      local sx, sy = rng.int(1, w), rng.int(1, h)
      if cells[sy][sx] then
        local from = check_field(grid, layout, cells, w, h, sx, sy)
        local gx, gy = rng.int(1, w), rng.int(1, h)
        local q = grid:query(sx, sy, { goals = { { gx, gy }, { sx, sy } } })
        repeat until q:step(2) ~= "running"
        assert(q:result():cost() == 0)                         -- the start is a goal
        local want = from[(gy - 1) * w + gx]
        local p = grid:find(sx, sy, gx, gy, { within = 1 })
        if want then
          assert(p, "within 1 of a reachable goal")
          local x, y = p:get(#p)
          assert(grid:hex_distance(x, y, gx, gy) <= 1)
        end
      end
      grid:close()
    end
  end)

  it("wraps around either axis: find, fields, components and hex distance over the seams", function()
    local rng = H.rng(608)
    local found = 0
    for _ = 1, 150 do
      local layout, wrap = rng.pick(LAYOUTS), rng.pick({ "x", "y", "xy" })
      local byrow = layout:sub(-1) == "r"
      local w, h = rng.int(3, 12), rng.int(3, 12)
      if byrow and h % 2 == 1 then h = h + 1 end          -- the shoved axis: an even count
      if not byrow and w % 2 == 1 then w = w + 1 end
      local cells = H.random_cells(rng, w, h, rng.pick({ 0, 0.25, 0.4 }), { 1, 1, 3 })
      local grid = hexgrid(layout, cells, w, h):set_wrap(wrap)
      local open = H.random_cells(rng, w, h, 0, { 1 })      -- hex distance: steps, no walls
      for _ = 1, 3 do
        local sx, sy, gx, gy = rng.int(1, w), rng.int(1, h), rng.int(1, w), rng.int(1, h)
        local from = cells[sy][sx] and dijkstra(layout, cells, w, h, sx, sy, false, wrap) or {}
        local want = cells[gy][gx] and from[(gy - 1) * w + gx] or nil
        local path = grid:find(sx, sy, gx, gy, { algorithm = rng.pick({ "auto", "astar" }) })
        assert.equals(want ~= nil, path ~= nil)
        if path then
          assert.truthy(H.close(path:cost(), want), ("%s %s: %.17g, expected %.17g"):format(
            layout, wrap, path:cost(), want))
          local px, py = path:get(1)
          for i = 2, #path do
            local x, y = path:get(i)
            local ok = false
            for _, n in ipairs(neighbours(layout, w, h, px, py, wrap)) do
              if n[1] == x and n[2] == y then ok = true end
            end
            assert.truthy(ok, ("(%d, %d) -> (%d, %d) is no step"):format(px, py, x, y))
            px, py = x, y
          end
          assert.truthy(grid:check(path))
          found = found + 1
        end
        local steps = dijkstra(layout, open, w, h, sx, sy, false, wrap)[(gy - 1) * w + gx]
        assert.equals(steps, grid:hex_distance(sx, sy, gx, gy))
        if cells[sy][sx] then check_field(grid, layout, cells, w, h, sx, sy, wrap) end
      end
      grid:close()
    end
    assert.truthy(found > 150, "too few paths: " .. found)
  end)

  it("converts offset and axial coordinates, and measures hex distance", function()
    for _, layout in ipairs(LAYOUTS) do
      local w, h = 9, 7
      local grid = astar.hexgrid(w, h, { layout = layout })
      for y = 1, h do
        for x = 1, w do
          local q, r = grid:to_axial(x, y)
          local eq, er = axial(layout, x, y)
          assert(q == eq and r == er, ("%s (%d, %d): %d, %d, expected %d, %d"):format(layout, x,
            y, q, r, eq, er))
          local bx, by = grid:from_axial(q, r)
          assert(bx == x and by == y)
          -- on an open grid the distance is the fewest steps (a breadth-first search here)
          local steps = H.bfs_generic((y - 1) * w + x, function(u, visit)
            local ux, uy = (u - 1) % w + 1, math.floor((u - 1) / w) + 1
            for _, n in ipairs(neighbours(layout, w, h, ux, uy)) do visit((n[2] - 1) * w + n[1]) end
          end)
          for ty = 1, h, 3 do
            for tx = 1, w, 2 do
              assert(grid:hex_distance(x, y, tx, ty) == steps[(ty - 1) * w + tx])
            end
          end
        end
      end
      assert(grid:from_axial(-50, 3) == nil)
    end
  end)

  it("refuses what only square grids do, with clear errors", function()
    local hex = astar.hexgrid(6, 5, 2, { layout = "even-q" })
    assert(hex:get(3, 3) == 2 and hex:hex() == "even-q")
    local P = "bad argument #5 to 'find' (option '"
    H.checkerr(P .. "diagonal' does not apply to a hex grid)", hex.find, hex, 1, 1, 6, 5,
      { diagonal = "always" })
    H.checkerr(P .. "radius' does not apply to a hex grid)", hex.find, hex, 1, 1, 6, 5,
      { radius = 0.5 })
    H.checkerr(P .. "size' does not apply to a hex grid)", hex.find, hex, 1, 1, 6, 5,
      { size = 2 })
    H.checkerr(P .. "algorithm': 'jps' does not apply to a hex grid)", hex.find, hex, 1, 1, 6,
      5, { algorithm = "jps" })
    H.checkerr(P .. "algorithm': 'theta' does not apply to a hex grid)", hex.find, hex, 1, 1,
      6, 5, { algorithm = "theta" })
    H.checkerr(P .. "heuristic': a hex grid takes the hex distance (the default), 'zero' or a " ..
      "function)", hex.find, hex, 1, 1, 6, 5, { heuristic = "euclidean" })
    H.checkerr("bad argument #2 to 'distance_field' (option 'diagonal' does not apply to a hex " ..
      "grid)", hex.distance_field, hex, { { 1, 1 } }, { diagonal = "never" })
    for _, c in ipairs({
      { "prepare", function() return hex:prepare() end },
      { "replanner", function() return hex:replanner(1, 1, 6, 5) end },
      { "walkable_line", function() return hex:walkable_line(1, 1, 6, 5) end },
      { "smooth", function() return hex:find(1, 1, 6, 5):smooth(hex) end },
      { "set_world", function() return hex:set_world({ tile = 2 }) end },
      { "to_cell", function() return hex:to_cell(1, 1) end },
      { "from_grid", function() return astar.navmesh.from_grid(hex) end },
    }) do
      H.checkerr(c[1] .. ": not for a hex grid (square grids only)", c[2])
    end
    H.checkerr("bad argument #3 to 'hexgrid' (option 'layout': invalid value 'pointy')",
      astar.hexgrid, 3, 3, { layout = "pointy" })
    H.checkerr("bad argument #3 to 'hexgrid' (unknown option 'offset')", astar.hexgrid, 3, 3,
      { offset = "odd-r" })
    H.checkerr("bad argument #1 to 'hexgrid' (width must be at least 1, got 0)", astar.hexgrid,
      0, 3)
    H.checkerr("bad argument #3 to 'parse' (option 'layout': string expected, got number)",
      astar.hexgrid.parse, "..", { ["."] = 1 }, { layout = 3 })
    local parsed = astar.hexgrid.parse("..#\n...", { ["."] = 1, ["#"] = false },
      { layout = "even-r" })
    assert(parsed:hex() == "even-r" and parsed:get(3, 1) == false and parsed:get(3, 2) == 1)
    local rows = astar.hexgrid.from_table({ { 1, 2 }, { false, 1 } })
    assert(rows:hex() == "odd-r" and rows:get(2, 1) == 2 and rows:get(1, 2) == false)
    local square = astar.grid(3, 3)
    assert(square:hex() == nil)
    H.checkerr("to_axial: a hex grid's method", square.to_axial, square, 1, 1)
    -- classes and clones stay hexagonal, links work
    local k = hex:class({ [2] = 1 })
    assert(k:hex() == "even-q" and hex:clone():hex() == "even-q")
    hex:link(1, 1, 6, 5, 0.5)
    assert(hex:find(1, 1, 6, 5):cost() == 0.5)
    -- an overlay adds its value once a step: every step has length 1 (not the square
    -- grid's sqrt 2 for a step that is diagonal in offset coordinates)
    local two = astar.hexgrid(2, 2)
    local danger = astar.grid(2, 2, false)
    danger:set(1, 2, 3)
    local p = two:find(2, 1, 1, 2, { overlay = danger:to_field() })
    assert(#p == 2 and p:cost() == 4, p:cost())
  end)
end)
