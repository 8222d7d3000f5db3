-- replan_bench.lua - what D* Lite (grid:replanner) saves against re-running A*
-- after small edits: an agent walks its path on a Moving AI map; every few
-- steps a cell a little ahead of it on its path becomes blocked. Both the
-- replanner's repair and a fresh grid:find are timed, and their costs compared.
--
--   lua5.4 bench/replan_bench.lua [--limit N] [set/name]      (default dao/brc202d, 100)
local astar = require "astar"

local ok, system = pcall(require, "system")
local now = (ok and system.monotime) or os.clock

local dir = os.getenv("ASTAR_MOVINGAI") or "../shared/benchmarks/movingai"
local limit, name = 100, "dao/brc202d"
local i = 1
while arg[i] do
  if arg[i] == "--limit" then limit = tonumber(arg[i + 1]); i = i + 1 else name = arg[i] end
  i = i + 1
end
local grid = astar.grid.load_movingai(dir .. "/" .. name .. ".map")
if not grid then print("replan_bench: no " .. name .. " under " .. dir); return end
local scen = assert(astar.load_scenarios(dir .. "/" .. name .. ".map.scen"))

local n, t_rep, t_find, e_rep, e_find, worst, initial = 0, 0, 0, 0, 0, 0, 0
-- take every 10th scenario of the longer half: paths long enough to walk
local picked = {}
for k = math.floor(#scen / 2), #scen, 10 do picked[#picked + 1] = scen[k] end
for k = 1, math.min(limit, #picked) do
  local s = picked[k]
  local g = grid:clone()
  local r = g:replanner(s.sx, s.sy, s.gx, s.gy)
  local t0 = now()
  local p = r:path()
  initial = initial + (now() - t0)
  for _ = 1, 5 do
    if not p or #p < 12 then break end
    local bx, by = p:get(10)                       -- a cell ahead of the agent
    local x, y = p:get(4)                          -- the agent walks 3 steps
    r:move_to(x, y)
    g:set(bx, by, false)
    t0 = now()
    p = r:path()
    t_rep = t_rep + (now() - t0)
    e_rep = e_rep + r:stats().expanded
    t0 = now()
    local f = g:find(x, y, s.gx, s.gy)
    t_find = t_find + (now() - t0)
    e_find = e_find + (f and f:stats().expanded or 0)
    if f and p then worst = math.max(worst, math.abs(f:cost() - p:cost())) end
    if (f == nil) ~= (p == nil) then error("replanner and find disagree") end
    n = n + 1
  end
  r:close()
  g:close()
end
print(("# %s on %s, %s: %s, %d repairs after one cell ahead on the path was blocked")
  :format(astar._VERSION, jit and jit.version or _VERSION, os.date("!%Y-%m-%d"), name, n))
print(("replanner: %.1f us and %.0f expansions per repair (first plan %.1f us)")
  :format(t_rep / n * 1e6, e_rep / n, initial / math.min(limit, #picked) * 1e6))
print(("fresh A*:  %.1f us and %.0f expansions per query; largest cost difference %.2g")
  :format(t_find / n * 1e6, e_find / n, worst))
