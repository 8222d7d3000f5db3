-- graph_bench.lua - waypoint-graph search on a graph built from a Moving AI map:
-- every walkable cell a node at its cell centre, edges to the 8 neighbours under
-- the no-corner-cutting rule (cost 1 or sqrt 2), so the published optima apply.
--
--   lua5.4 bench/graph_bench.lua [--limit N] [--repeat R] [set/name]   (default dao/orz900d)
--
-- Prints the build time, then per algorithm: queries, mean and median µs,
-- expansions per second and the largest deviation from the published optimum.
local astar = require "astar"

local ok, system = pcall(require, "system")
local now = (ok and system.monotime) or os.clock

local dir = os.getenv("ASTAR_MOVINGAI") or "../shared/benchmarks/movingai"
local limit, rep, name = 1000, 3, "dao/orz900d"
local i = 1
while arg[i] do
  if arg[i] == "--limit" then limit = tonumber(arg[i + 1]); i = i + 1
  elseif arg[i] == "--repeat" then rep = tonumber(arg[i + 1]); i = i + 1
  else name = arg[i] end
  i = i + 1
end
local f = io.open(dir .. "/" .. name .. ".map")
if not f then print("graph_bench: no " .. name .. " under " .. dir); return end
f:close()

local grid = assert(astar.grid.load_movingai(dir .. "/" .. name .. ".map"))
local w, h = grid:size()
local t0 = now()
local g = astar.graph { directed = false }
local id = {}
for y = 1, h do
  for x = 1, w do
    if grid:walkable(x, y) then id[(y - 1) * w + x] = g:add_node(x, y) end
  end
end
local SQRT2 = math.sqrt(2)
for y = 1, h do
  for x = 1, w do
    local a = id[(y - 1) * w + x]
    if a then
      local e = x < w and id[(y - 1) * w + x + 1]
      local s = y < h and id[y * w + x]
      if e then g:add_edge(a, e, 1) end
      if s then g:add_edge(a, s, 1) end
      if e and s then
        local se = id[y * w + x + 1]
        if se then g:add_edge(a, se, SQRT2) end
      end
      local sw = y < h and x > 1 and id[y * w + x - 1]
      if sw and s and x > 1 and id[(y - 1) * w + x - 1] then g:add_edge(a, sw, SQRT2) end
    end
  end
end
local build = now() - t0
print(("# %s on %s, %s: %s as a graph, %d nodes, %d edges, built in %.0f ms"):format(
  astar._VERSION, jit and jit.version or _VERSION, os.date("!%Y-%m-%d"), name,
  g:node_count(), g:edge_count(), build * 1e3))

local all = assert(astar.load_scenarios(dir .. "/" .. name .. ".map.scen"))
local scen = {}
for k = 1, math.min(limit, #all) do
  local s = all[k]
  scen[k] = { id[(s.sy - 1) * w + s.sx], id[(s.gy - 1) * w + s.gx], s.optimal }
end

print(("%-14s %7s %10s %10s %10s %10s"):format("algorithm", "queries", "mean us", "median us",
  "Mexp/s", "max dev"))
for _, alg in ipairs({ "astar", "bidirectional", "dijkstra" }) do
  local opts = { algorithm = alg }
  local dev, expanded = 0, 0
  for _, s in ipairs(scen) do
    local p = assert(g:find(s[1], s[2], opts))
    dev = math.max(dev, math.abs(p:cost() - s[3]))
    expanded = expanded + p:stats().expanded
  end
  local best, times = math.huge, nil
  for _ = 1, rep do
    local t = {}
    local ta = now()
    for k, s in ipairs(scen) do
      local q0 = now()
      g:find(s[1], s[2], opts)
      t[k] = now() - q0
    end
    local total = now() - ta
    if total < best then best, times = total, t end
  end
  table.sort(times)
  local n = #scen
  print(("%-14s %7d %10.1f %10.1f %10.2f %10.2g"):format(alg, n, best / n * 1e6,
    times[math.floor((n + 1) / 2)] * 1e6, expanded / best / 1e6, dev))
end
