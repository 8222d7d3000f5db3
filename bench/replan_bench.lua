-- replan_bench.lua - what D* Lite (grid:replanner) saves against searching again after edits:
-- an agent walks its path on a Moving AI map; then k cells become blocked (k = 1, 10, 100): the
-- first a little ahead of it on its path, the others at random within 20 cells of the path
-- ahead. The replanner's repair, a fresh grid:find (the default, jump point search) and a
-- fresh A* are timed, and their costs compared.
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
local W, H = grid:size()

-- every 10th scenario of the longer half: paths long enough to walk
local picked = {}
for k = math.floor(#scen / 2), #scen, 10 do picked[#picked + 1] = scen[k] end
local seed = 12345
local function rand(n)                         -- a fixed sequence, the same on every VM
  seed = (seed * 16807) % 2147483647
  return 1 + seed % n
end

local function timed(f, ...)
  local t0 = now()
  local r = f(...)
  return r, now() - t0
end

-- Blocks k cells of g: path point 10, then cells within 20 of points 10.. of p.
local function block(g, p, k)
  local bx, by = p:get(10)
  g:set(bx, by, false)
  for _ = 2, k do
    local x, y = p:get(10 + rand(#p - 10))
    x = math.max(1, math.min(W, x + rand(41) - 21))
    y = math.max(1, math.min(H, y + rand(41) - 21))
    g:set(x, y, false)
  end
end

print(("# %s on %s, %s: %s, agents that walk 3 steps, then k cells are blocked ahead")
  :format(astar._VERSION, jit and jit.version or _VERSION, os.date("!%Y-%m-%d"), name))
print("| k edits | repairs | replanner us | exp | fresh find (jps) us | exp | fresh A* us | exp |")
print("|---:|---:|---:|---:|---:|---:|---:|---:|")
for _, k in ipairs({ 1, 10, 100 }) do
  local n, t = 0, { 0, 0, 0 }
  local e = { 0, 0, 0 }
  for j = 1, math.min(limit, #picked) do
    local s = picked[j]
    local g = grid:clone()
    g:find(s.sx, s.sy, s.gx, s.gy)               -- builds the clone's jump bits, kept current
    local r = g:replanner(s.sx, s.sy, s.gx, s.gy)
    local p = r:path()
    for _ = 1, 5 do
      if not p or #p < 12 then break end
      local x, y = p:get(4)                      -- the agent walks 3 steps
      r:move_to(x, y)
      block(g, p, k)
      local f, a, dt
      p, dt = timed(r.path, r)
      t[1], e[1] = t[1] + dt, e[1] + r:stats().expanded
      f, dt = timed(g.find, g, x, y, s.gx, s.gy)
      t[2], e[2] = t[2] + dt, e[2] + (f and f:stats().expanded or 0)
      a, dt = timed(g.find, g, x, y, s.gx, s.gy, { algorithm = "astar" })
      t[3], e[3] = t[3] + dt, e[3] + (a and a:stats().expanded or 0)
      if (f == nil) ~= (p == nil) or (f and math.abs(f:cost() - p:cost()) > 1e-6 * f:cost()) then
        error(("replanner and find disagree: %s vs %s"):format(p and p:cost(), f and f:cost()))
      end
      n = n + 1
    end
    r:close()
    g:close()
  end
  print(("| %d | %d | %.1f | %.0f | %.1f | %.0f | %.1f | %.0f |"):format(k, n,
    t[1] / n * 1e6, e[1] / n, t[2] / n * 1e6, e[2] / n, t[3] / n * 1e6, e[3] / n))
end
