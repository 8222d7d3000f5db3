-- workers_bench.lua - astar.batch throughput: the scenarios of Moving AI maps answered by
-- 1 thread and by N threads, queries per second and the ratio; also grid:find on the Lua
-- thread for reference. Each batch runs --repeat times, 1 and N threads in turn, the fastest
-- kept (the machines are shared and noisy). The costs of the batch are checked equal to
-- find's first.
--
--   lua5.4 bench/workers_bench.lua [--threads N] [--repeat R] [--limit N] [--astar 1] [set/name ...]
--
-- --astar 1 searches with algorithm = "astar" (cell by cell) instead of the default "auto"
-- (jump point search where it applies). Maps come from $ASTAR_MOVINGAI (default
-- ../shared/benchmarks/movingai); default dao/orz900d and sc1/TheFrozenSea.
local astar = require "astar"
local B = require "bench.common"

local o, maps = B.args({ threads = 2, ["repeat"] = 5, limit = math.huge, astar = 0 },
  { "dao/orz900d", "sc1/TheFrozenSea" })
local opts = o.astar == 1 and { algorithm = "astar" } or {}

local function fastest(f)
  local best = math.huge
  for _ = 1, o["repeat"] do
    collectgarbage()
    local _, t = B.timed(f)
    if t < best then best = t end
  end
  return best
end

print(("workers_bench: %s, %s, threads 1 vs %d, best of %d"):format(
  jit and jit.version or _VERSION, o.astar == 1 and "astar" or "auto", o.threads, o["repeat"]))
print(("%-22s %7s %12s %12s %12s %7s"):format("map", "queries", "find q/s", "1 thread q/s",
  o.threads .. " threads q/s", "ratio"))
for _, name in ipairs(maps) do
  local path = B.dir .. "/" .. name .. ".map"
  local grid = assert(astar.grid.load_movingai(path))
  local scen = assert(astar.load_scenarios(path .. ".scen"))
  local reqs = {}
  for i = 1, math.min(#scen, o.limit) do
    local s = scen[i]
    reqs[i] = { s.sx, s.sy, s.gx, s.gy }
  end
  -- check once: the same costs as find
  local paths = astar.batch(grid, reqs, opts)
  for i, r in ipairs(reqs) do
    local p = grid:find(r[1], r[2], r[3], r[4], opts)
    assert((p and p:cost()) == (paths[i] and paths[i]:cost()), "batch differs from find")
  end
  local tf = fastest(function()
    for _, r in ipairs(reqs) do grid:find(r[1], r[2], r[3], r[4], opts) end
  end)
  local one, many = { threads = 1 }, { threads = o.threads }
  for k, v in pairs(opts) do one[k] = v; many[k] = v end
  -- interleaved, so that both see the same load on a shared machine
  local t1, tn = math.huge, math.huge
  for _ = 1, o["repeat"] do
    collectgarbage()
    t1 = math.min(t1, select(2, B.timed(astar.batch, grid, reqs, one)))
    collectgarbage()
    tn = math.min(tn, select(2, B.timed(astar.batch, grid, reqs, many)))
  end
  print(("%-22s %7d %12.0f %12.0f %12.0f %6.2fx"):format(name, #reqs, #reqs / tf, #reqs / t1,
    #reqs / tn, t1 / tn))
  grid:close()
end
