-- directional_bench.lua - Directional A* (algorithm = "directional") and its hybrid (shots at
-- the goal, algorithm = "hybrid") on the Moving AI maps: the first N scenarios of each map,
-- start and goal headings free, for Pinter's Directional-8, -24 and -48 with 8 headings and
-- 16; mean ms per query (the whole call from Lua, Path included; the lattice is built once,
-- before timing: its build time is printed apart), expansions per query, and the path's length
-- against A*'s grid path (cell to cell, no turning limit).
--
--   luajit bench/directional_bench.lua [--first N] [--turning R] [set/name ...]
--   (default: the first 300 scenarios of dao/arena2, turning radius 2)
local astar = require "astar"

local ok, system = pcall(require, "system")
local now = (ok and system.monotime) or os.clock

local dir = os.getenv("ASTAR_MOVINGAI") or "../shared/benchmarks/movingai"
local first, turning, names = 300, 2, {}
local i = 1
while arg[i] do
  if arg[i] == "--first" then first = tonumber(arg[i + 1]); i = i + 1
  elseif arg[i] == "--turning" then turning = tonumber(arg[i + 1]); i = i + 1
  else names[#names + 1] = arg[i] end
  i = i + 1
end
if #names == 0 then names = { "dao/arena2" } end

print(("# %s on %s, %s, first %d scenarios, turning radius %g; ms per query (mean), "
  .. "expansions per query, length / A* length"):format(astar._VERSION,
  jit and jit.version or _VERSION, os.date("!%Y-%m-%d"), first, turning))
print("| map | algorithm | moves | headings | lattice build ms | queries | found | ms | expanded | length |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
for _, name in ipairs(names) do
  local grid = astar.grid.load_movingai(dir .. "/" .. name .. ".map")
  if not grid then print("directional_bench: no " .. name .. " under " .. dir); return end
  local scen = assert(astar.load_scenarios(dir .. "/" .. name .. ".map.scen"))
  for _, v in ipairs({ { 8, 8, "directional" }, { 24, 8, "directional" }, { 48, 8, "directional" },
    { 24, 16, "directional" }, { 8, 8, "hybrid" }, { 24, 8, "hybrid" } }) do
    local opts = { algorithm = v[3], turning = turning, neighborhood = v[1], headings = v[2] }
    local t0 = now()
    grid:find(1, 1, 1, 1, opts)                      -- builds the lattice
    local build = now() - t0
    local n, found, t, ex, ratio = 0, 0, 0, 0, 0
    for k = 1, math.min(first, #scen) do
      local s = scen[k]
      local a = grid:find(s.sx, s.sy, s.gx, s.gy, { algorithm = "astar" })
      if a and a:cost() > 0 then
        t0 = now()
        local p = grid:find(s.sx, s.sy, s.gx, s.gy, opts)
        t = t + now() - t0
        n = n + 1
        if p then
          found = found + 1
          ex = ex + p:stats().expanded
          ratio = ratio + p:length() / a:cost()
        end
      end
    end
    print(("| %s | %s | %d | %d | %.1f | %d | %d | %.2f | %.0f | %.4f |"):format(name, v[3], v[1], v[2],
      build * 1e3, n, found, t / n * 1e3, ex / math.max(found, 1), ratio / math.max(found, 1)))
  end
  grid:close()
end
