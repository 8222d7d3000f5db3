-- terrain_bench.lua - per-unit costs at C speed: on the Moving AI maps with random terrain
-- patches (costs 1-4, seeded), mean µs per A* query (the whole call from Lua, Path included)
--   * on the grid itself;
--   * on a movement class of it (grid:class, another cost table): a plain grid, so the same
--     speed is expected;
--   * the same costs through a Lua `cost` callback that maps them (what a game did before);
--   * with a cost overlay (a danger Field from grid:to_field, the `overlay` option);
--   * the same overlay through a Lua `cost` callback.
-- Each pair returns the same cost (checked), so the ratios are the price of the callback.
--
--   lua5.4 bench/terrain_bench.lua [--every N] [set/name ...]     (default every 10th
--   scenario of dao/arena2, dao/brc202d)
local astar = require "astar"
local B = require "bench.common"

local dir, timed = B.dir, B.timed
local opts, names = B.args({ every = 10 }, { "dao/arena2", "dao/brc202d" })
local every = opts.every

local seed = 12345
local function rand(n)                       -- the same patches on every VM
  seed = (seed * 16807) % 2147483647
  return seed % n + 1
end

-- Random rectangles of costs 2-4 over the walkable cells; a danger layer of 0-5 likewise.
local function terrain(grid, danger)
  local w, h = grid:size()
  for _ = 1, 60 do
    local x, y, pw, ph, c = rand(w), rand(h), rand(40), rand(40), rand(3) + 1
    for yy = y, math.min(h, y + ph - 1) do
      for xx = x, math.min(w, x + pw - 1) do
        if grid:walkable(xx, yy) then grid:set(xx, yy, c) end
      end
    end
    local d = rand(5)
    danger:fill(x, y, math.min(pw, w - x + 1), math.min(ph, h - y + 1), d)
  end
end

print(("# %s on %s, %s, every %dth scenario; mean us per A* query")
  :format(astar._VERSION, jit and jit.version or _VERSION, os.date("!%Y-%m-%d"), every))
print("| map | queries | grid | class | class by callback | overlay | overlay by callback |")
print("|---|---:|---:|---:|---:|---:|---:|")
for _, name in ipairs(names) do
  local grid = astar.grid.load_movingai(dir .. "/" .. name .. ".map")
  if not grid then print("terrain_bench: no " .. name .. " under " .. dir); return end
  local scen = assert(astar.load_scenarios(dir .. "/" .. name .. ".map.scen"))
  local w, h = grid:size()
  local danger = astar.grid(w, h, false)
  terrain(grid, danger)
  local TABLE = { [1] = 2, [2] = 1, [3] = 6, [4] = 3 }  -- a unit that prefers the 2s
  local class = grid:class(TABLE)
  local field = danger:to_field()
  local get = grid.get
  local function by_class(_, _, x2, y2, base)
    local c = get(grid, x2, y2)
    return base / c * TABLE[c]
  end
  local dget = danger.get
  local function by_overlay(x1, y1, x2, y2, base)
    local d = dget(danger, x2, y2) or 0
    return base + ((x1 ~= x2 and y1 ~= y2) and 1.4142135623730951 or 1) * d
  end
  local A, CB = { algorithm = "astar" }, { algorithm = "astar", cost = by_class }
  local OV = { algorithm = "astar", overlay = field }
  local OCB = { algorithm = "astar", cost = by_overlay }
  local n, t = 0, { 0, 0, 0, 0, 0 }
  for k = 1, #scen, every do
    local s = scen[k]
    local a, ta = timed(grid.find, grid, s.sx, s.sy, s.gx, s.gy, A)
    if a then
      local c, tc = timed(class.find, class, s.sx, s.sy, s.gx, s.gy, A)
      local cb, tcb = timed(grid.find, grid, s.sx, s.sy, s.gx, s.gy, CB)
      local o, to = timed(grid.find, grid, s.sx, s.sy, s.gx, s.gy, OV)
      local ocb, tocb = timed(grid.find, grid, s.sx, s.sy, s.gx, s.gy, OCB)
      assert(math.abs(c:cost() - cb:cost()) <= 1e-9 * c:cost(), "class and callback differ")
      assert(math.abs(o:cost() - ocb:cost()) <= 1e-9 * o:cost(), "overlay and callback differ")
      n = n + 1
      t[1], t[2], t[3], t[4], t[5] = t[1] + ta, t[2] + tc, t[3] + tcb, t[4] + to, t[5] + tocb
    end
  end
  local function us(x) return ("%.0f"):format(x / n * 1e6) end
  print(("| %s | %d | %s | %s | %s | %s | %s |"):format(name, n, us(t[1]), us(t[2]), us(t[3]),
    us(t[4]), us(t[5])))
end
