-- Wrapping grids (grid:set_wrap): a step off an edge enters the opposite edge. Every search is
-- checked against a Dijkstra written here over the wrapped neighbours, the diagonal policy
-- reading the wrapped orthogonal neighbours, a step costing its length times the cell entered.
local astar = require "astar"
local H = require "spec.helper"

local MODES = { "x", "y", "xy" }
local DIRS = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 }, { 1, 1 }, { 1, -1 }, { -1, 1 }, { -1, -1 } }

-- Cell (x + dx, y + dy) across the seams of `mode`, or nil off a non-wrapping edge.
local function cell(mode, w, h, x, y, dx, dy)
  local nx, ny = x + dx, y + dy
  if mode:find("x") then nx = (nx - 1) % w + 1 end
  if mode:find("y") then ny = (ny - 1) % h + 1 end
  if nx < 1 or ny < 1 or nx > w or ny > h then return nil end
  return nx, ny
end

local function open(cells, mode, w, h, x, y, dx, dy)
  local nx, ny = cell(mode, w, h, x, y, dx, dy)
  return nx ~= nil and cells[ny][nx] ~= false, nx, ny
end

-- The steps out of (x, y): {x2, y2, cost}, forward (the cell entered pays) or back.
local function steps(cells, mode, w, h, pol, x, y, back)
  local out = {}
  for _, d in ipairs(DIRS) do
    local dx, dy = d[1], d[2]
    local ok, nx, ny = open(cells, mode, w, h, x, y, dx, dy)
    if ok and dx ~= 0 and dy ~= 0 then
      local a = open(cells, mode, w, h, x, y, dx, 0)
      local b = open(cells, mode, w, h, x, y, 0, dy)
      ok = pol == "always" or (pol == "no_corner_cutting" and a and b) or
        (pol == "one_obstacle" and (a or b))
    end
    if ok then
      local len = (dx ~= 0 and dy ~= 0) and H.SQRT2 or 1
      out[#out + 1] = { nx, ny, len * (back and cells[y][x] or cells[ny][nx]) }
    end
  end
  return out
end

local function dijkstra(cells, mode, w, h, pol, sx, sy, back)
  return H.dijkstra_generic({ { (sy - 1) * w + sx, 0 } }, function(u, visit)
    local x, y = (u - 1) % w + 1, math.floor((u - 1) / w) + 1
    for _, s in ipairs(steps(cells, mode, w, h, pol, x, y, back)) do
      visit((s[2] - 1) * w + s[1], s[3])
    end
  end)
end

describe("wrapping grids", function()
  it("find takes the cheapest way across the seams, under every policy", function()
    local found, across = 0, 0
    H.each_random_grid(808, 250, 1, 14, { 0, 0.2, 0.35 }, { 1, 1, 2, 0.5 },
      function(rng, w, h, cells, grid)
        local mode = rng.pick(MODES)
        grid:set_wrap(mode)
        assert(grid:wrap() == mode)
        for _ = 1, 3 do
          local pol = rng.pick(H.POLICIES)
          local sx, sy, gx, gy = rng.int(1, w), rng.int(1, h), rng.int(1, w), rng.int(1, h)
          local path, _, code = grid:find(sx, sy, gx, gy, { diagonal = pol,
            algorithm = rng.pick({ "auto", "astar", "dijkstra" }),
            heuristic = rng.pick({ false, "euclidean", "chebyshev", "zero" }) or nil })
          local want = cells[sy][sx] and cells[gy][gx] and
            dijkstra(cells, mode, w, h, pol, sx, sy)[(gy - 1) * w + gx] or nil
          local plain = H.dijkstra(cells, w, h, sx, sy, gx, gy, pol)
          if want == nil then
            assert(path == nil and (code == "no_path" or code == "blocked"), tostring(code))
          else
            assert(path, "no path where the reference has one")
            local sum, px, py = 0, path:get(1)
            for i = 2, #path do
              local x, y = path:get(i)
              local c
              for _, s in ipairs(steps(cells, mode, w, h, pol, px, py)) do
                if s[1] == x and s[2] == y then c = math.min(c or s[3], s[3]) end
              end
              assert(c, ("step (%d, %d) -> (%d, %d) is not one of %s"):format(px, py, x, y, mode))
              sum = sum + c
              px, py = x, y
            end
            assert(px == gx and py == gy and H.close(sum, path:cost()))
            assert(H.close(path:cost(), want), ("%s %s: %.17g, expected %.17g"):format(mode, pol,
              path:cost(), want))
            assert(grid:check(path))
            found = found + 1
            if plain == nil or want < plain - 1e-9 then across = across + 1 end
          end
        end
      end)
    assert(found > 400 and across > 100, ("found %d, across a seam %d"):format(found, across))
  end)

  it("has distance fields and components across the seams", function()
    H.each_random_grid(91, 60, 2, 10, { 0.3 }, { 1, 3 }, function(rng, w, h, cells, grid)
      local mode, pol = rng.pick(MODES), rng.pick(H.POLICIES)
      grid:set_wrap(mode)
      local sx, sy = rng.int(1, w), rng.int(1, h)
      if cells[sy][sx] then
        local field = grid:distance_field({ { sx, sy } }, { diagonal = pol })
        local back = dijkstra(cells, mode, w, h, pol, sx, sy, true)
        local from = dijkstra(cells, mode, w, h, pol, sx, sy)
        for y = 1, h do
          for x = 1, w do
            local want, got = back[(y - 1) * w + x], field:distance(x, y)
            assert((want == nil) == (got == nil) and (want == nil or H.close(got, want)))
            assert(grid:same_component(sx, sy, x, y, pol) == (from[(y - 1) * w + x] ~= nil))
          end
        end
      end
    end)
  end)

  it("refuses what follows straight lines, and stops wrapping", function()
    local g = astar.grid(6, 4)
    g:set_wrap("xy")
    local P = "bad argument #5 to 'find' (option '"
    H.checkerr(P .. "radius' does not apply to a wrapping grid)", g.find, g, 1, 1, 6, 4,
      { radius = 0.5 })
    H.checkerr(P .. "size' does not apply to a wrapping grid)", g.find, g, 1, 1, 6, 4,
      { size = 2 })
    H.checkerr(P .. "algorithm': 'theta' does not apply to a wrapping grid)", g.find, g, 1, 1,
      6, 4, { algorithm = "theta" })
    for _, c in ipairs({
      { "prepare", function() return g:prepare() end },
      { "replanner", function() return g:replanner(1, 1, 6, 4) end },
      { "walkable_line", function() return g:walkable_line(1, 1, 6, 4) end },
      { "from_grid", function() return astar.navmesh.from_grid(g) end },
    }) do
      H.checkerr(c[1] .. ": not for a wrapping grid", c[2])
    end
    H.checkerr("bad argument #1 to 'set_wrap' (mode: invalid value 'z')", g.set_wrap, g, "z")
    local hex = astar.hexgrid(3, 3)                       -- odd-r: its rows are shoved
    H.checkerr("set_wrap: a hex grid whose rows are shoved (odd-r, even-r) wraps north-south " ..
               "only with an even height", hex.set_wrap, hex, "y")
    assert(hex:set_wrap("x"):wrap() == "x")
    local flat = astar.hexgrid(3, 4, { layout = "even-q" })
    H.checkerr("set_wrap: a hex grid whose columns are shoved (odd-q, even-q) wraps east-west " ..
               "only with an even width", flat.set_wrap, flat, "xy")
    assert(flat:wrap() == nil and flat:set_wrap("y"):wrap() == "y")
    assert(g:find(1, 1, 6, 4):cost() == H.SQRT2)          -- one diagonal across both seams
    assert(g:clone():wrap() == "xy" and g:class({ [1] = 2 }):wrap() == "xy")
    g:set_wrap("none")
    assert(g:wrap() == nil and H.close(g:find(1, 1, 6, 4):cost(), 2 + 3 * H.SQRT2))
  end)
end)
