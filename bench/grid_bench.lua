-- grid_bench.lua - grid A* on the Moving AI scenarios: time, expansions per
-- second, allocations per warm query, and the largest deviation from the
-- published optimum.
--
--   lua5.4 bench/grid_bench.lua [--limit N] [--repeat R] [--opts lua-table] [--prepare]
--                               [--terrain SEED [--every N | --scatter P] [--save DIR]]
--                               [set/name ...]
--
-- --prepare calls grid:prepare(diagonal of --opts) (JPS+) before the runs and reports its time.
-- --terrain SEED lays random terrain patches over the map (rectangles of 4-24 cells a
-- side, costs 1-9, one per 400 cells or --every N, from a Park-Miller generator: the same on every
-- VM); the published optima no longer apply, so "max dev" is then the largest
-- difference from A*'s cost on the same query. With --scatter P instead of patches, each
-- walkable cell costs 3 with probability P (the same generator), 1 otherwise. --save DIR
-- writes each map so laid out to DIR/<set>_<name>.map, a Moving AI map whose walkable cells
-- are their cost's digit ('@' blocked), for other programs (JPSW reads it with a costs file).
--
-- Maps come from $ASTAR_MOVINGAI (default ../shared/benchmarks/movingai).
-- Each map's scenarios are run once to warm up, then R times timed; the
-- fastest pass is reported (the machines are shared and noisy).
local astar = require "astar"
local B = require "bench.common"

local now, dir = B.now, B.dir
local limit, rep, opts, maps, prepare, terrain, every = math.huge, 3, nil, {}, false, nil, 400
local scatter, save
local i = 1
while arg[i] do
  local a = arg[i]
  if a == "--limit" then limit = tonumber(arg[i + 1]); i = i + 1
  elseif a == "--repeat" then rep = tonumber(arg[i + 1]); i = i + 1
  elseif a == "--opts" then opts = assert(load("return " .. arg[i + 1]))(); i = i + 1
  elseif a == "--prepare" then prepare = true
  elseif a == "--terrain" then terrain = tonumber(arg[i + 1]); i = i + 1
  elseif a == "--every" then every = tonumber(arg[i + 1]); i = i + 1
  elseif a == "--scatter" then scatter = tonumber(arg[i + 1]); i = i + 1
  elseif a == "--save" then save = arg[i + 1]; i = i + 1
  else maps[#maps + 1] = a end
  i = i + 1
end
if #maps == 0 then
  maps = { "dao/arena2", "dao/brc202d", "dao/orz900d", "bg512/AR0011SR",
    "mazes/maze512-1-0", "random/random512-10-0", "rooms/32room_000",
    "sc1/TheFrozenSea", "cities/Berlin_1_256" }
end

local f = io.open(dir .. "/README.md")
if not f then
  print("grid_bench: no Moving AI maps at " .. dir .. " (set ASTAR_MOVINGAI); nothing to do")
  return
end
f:close()

print(("# %s on %s, %s"):format(astar._VERSION, jit and jit.version or _VERSION, os.date("!%Y-%m-%d")))
print(("%-22s %7s %10s %10s %10s %8s %10s"):format(
  "map", "queries", "mean us", "median us", "Mexp/s", "allocs/q", "max dev"))

for _, name in ipairs(maps) do
  local grid = assert(astar.grid.load_movingai(dir .. "/" .. name .. ".map"))
  if terrain then B.terrain(grid, terrain, every, scatter) end
  if save then
    local w, h = grid:size()
    local out = assert(io.open(save .. "/" .. name:gsub("/", "_") .. ".map", "w"))
    out:write(("type octile\nheight %d\nwidth %d\nmap\n"):format(h, w))
    for y = 1, h do
      local row = {}
      for x = 1, w do row[x] = grid:get(x, y) and ("%d"):format(grid:get(x, y)) or "@" end
      out:write(table.concat(row), "\n")
    end
    out:close()
  end
  if prepare then
    local p0 = now()
    local bytes = grid:prepare(opts and opts.diagonal)
    print(("# %s: grid:prepare() %.1f ms, %.1f MB"):format(name, (now() - p0) * 1e3, bytes / 2 ^ 20))
  end
  local all = assert(astar.load_scenarios(dir .. "/" .. name .. ".map.scen"))
  local scen = {}
  for k = 1, math.min(limit, #all) do scen[k] = all[k] end
  local n = #scen
  local dev, expanded = 0, 0
  for _, s in ipairs(scen) do                      -- warm-up pass, and checks
    local path = assert(grid:find(s.sx, s.sy, s.gx, s.gy, opts))
    local want = terrain and grid:find(s.sx, s.sy, s.gx, s.gy, { algorithm = "astar" }):cost()
    dev = math.max(dev, math.abs(path:cost() - (want or s.optimal)))
    expanded = expanded + path:stats().expanded
  end
  local a0 = grid:stats().allocations
  local best, times = math.huge, nil
  for _ = 1, rep do
    local t = {}
    local t0 = now()
    for k = 1, n do
      local s = scen[k]
      local q0 = now()
      grid:find(s.sx, s.sy, s.gx, s.gy, opts)
      t[k] = now() - q0
    end
    local total = now() - t0
    if total < best then best, times = total, t end
  end
  local allocs = (grid:stats().allocations - a0) / (n * rep)
  table.sort(times)
  local median = (times[math.floor((n + 1) / 2)] + times[math.floor(n / 2) + 1]) / 2
  print(("%-22s %7d %10.1f %10.1f %10.2f %8.2f %10.2g"):format(name, n, best / n * 1e6,
    median * 1e6, expanded / best / 1e6, allocs, dev))
  grid:close()
end
