-- anyangle_bench.lua - paths units can drive, on the Moving AI maps: A*'s grid paths, the same
-- after Pinter's pass alone (path:smooth with pull = false) and pulled taut (path:smooth),
-- Theta* and Lazy Theta*, and A* for a unit of radius 0.4; the default search (jump point
-- search on these maps) and both smoothings of its path; mean µs per
-- query (the whole call from Lua, Path included; smoothing: the smoothing alone) and each
-- length against the exact any-angle optimum (the navmesh of navmesh.from_grid, whose lengths
-- match Polyanya's). The default search and its smoothings are each the fastest of 5 runs
-- of the same call, so that their ratio compares warm runs with warm runs (a single run
-- times the search with caches cold from the searches before it, the smoothing warm).
--
--   lua5.4 bench/anyangle_bench.lua [--every N] [set/name ...]     (default every 20th
--   scenario of dao/arena2, dao/brc202d, dao/orz900d)
local astar = require "astar"

local ok, system = pcall(require, "system")
local now = (ok and system.monotime) or os.clock

local dir = os.getenv("ASTAR_MOVINGAI") or "../shared/benchmarks/movingai"
local every, names = 20, {}
local i = 1
while arg[i] do
  if arg[i] == "--every" then every = tonumber(arg[i + 1]); i = i + 1
  else names[#names + 1] = arg[i] end
  i = i + 1
end
if #names == 0 then names = { "dao/arena2", "dao/brc202d", "dao/orz900d" } end

local function timed(f, ...)
  local t0 = now()
  local r = f(...)
  return r, now() - t0
end

local function fastest(f, ...)
  local r, t = timed(f, ...)
  for _ = 2, 5 do
    local _, u = timed(f, ...)
    if u < t then t = u end
  end
  return r, t
end

print(("# %s on %s, %s, every %dth scenario; mean us per query, and length / any-angle optimum")
  :format(astar._VERSION, jit and jit.version or _VERSION, os.date("!%Y-%m-%d"), every))
print("| map | queries | A* us | A* len | Pinter us | Pinter len | pulled us | pulled len | "
  .. "theta us | theta len | lazy us | lazy len | r=0.4 us | default us | its Pinter us | its pulled us |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for _, name in ipairs(names) do
  local grid = astar.grid.load_movingai(dir .. "/" .. name .. ".map")
  if not grid then print("anyangle_bench: no " .. name .. " under " .. dir); return end
  local scen = assert(astar.load_scenarios(dir .. "/" .. name .. ".map.scen"))
  local mesh = astar.navmesh.from_grid(grid)
  local n, t, r = 0, { 0, 0, 0, 0, 0, 0, 0, 0, 0 }, { 0, 0, 0, 0, 0 }
  for k = 1, #scen, every do
    local s = scen[k]
    local opt = mesh:find(s.sx - 0.5, s.sy - 0.5, s.gx - 0.5, s.gy - 0.5)
    if opt and opt:cost() > 0 then
      local a, ta = timed(grid.find, grid, s.sx, s.sy, s.gx, s.gy, { algorithm = "astar" })
      local pi, tp = timed(a.smooth, a, grid, { pull = false })
      local sm, ts = timed(a.smooth, a, grid)
      local th, tt = timed(grid.find, grid, s.sx, s.sy, s.gx, s.gy, { algorithm = "theta" })
      local lz, tl = timed(grid.find, grid, s.sx, s.sy, s.gx, s.gy, { algorithm = "lazy_theta" })
      local _, tr = timed(grid.find, grid, s.sx, s.sy, s.gx, s.gy, { radius = 0.4 })
      local d, td = fastest(grid.find, grid, s.sx, s.sy, s.gx, s.gy)
      local _, tdp = fastest(d.smooth, d, grid, { pull = false })
      local _, tds = fastest(d.smooth, d, grid)
      t[7], t[8], t[9] = t[7] + td, t[8] + tdp, t[9] + tds
      n = n + 1
      t[1], t[2], t[3], t[4], t[5] = t[1] + ta, t[2] + ts, t[3] + tt, t[4] + tl, t[5] + tr
      t[6] = t[6] + tp
      local o = opt:cost()
      r[1], r[2], r[5] = r[1] + a:cost() / o, r[2] + sm:cost() / o, r[5] + pi:cost() / o
      r[3], r[4] = r[3] + th:cost() / o, r[4] + lz:cost() / o
    end
  end
  local function us(x) return ("%.0f"):format(x / n * 1e6) end
  local function us1(x) return ("%.1f"):format(x / n * 1e6) end
  local function len(x) return ("%.4f"):format(x / n) end
  print(("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |"):format(
    name, n, us(t[1]), len(r[1]), us(t[6]), len(r[5]), us(t[2]), len(r[2]), us(t[3]), len(r[3]),
    us(t[4]), len(r[4]), us(t[5]), us1(t[7]), us1(t[8]), us1(t[9])))
  grid:close()
end
