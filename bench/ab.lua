-- ab.lua - two builds of the library in one process, taking turns on the same grid queries:
-- for changes too small to see across runs on a noisy machine.
--
--   lua5.4 bench/ab.lua [--rounds R] [--limit N] [--prepare 1] [--opts lua-table]
--                       [--terrain SEED [--every N]] DIR_A DIR_B set/name
--
-- DIR_A and DIR_B are directories holding astar/core.so (build/5.4, or the same of another
-- worktree: `git worktree add /tmp/b HEAD~1 && make -C /tmp/b build/5.4/astar/core.so`).
-- Both load into this one process (the library has no globals; their metatables live in the
-- registry under the same names, so each side's are put back before its turn). After a warm
-- pass each, A and B take R turns each (default 20), in the order ABBA..., each turn every
-- query of the scenario file (or its first N). Prints the algorithm each side ran (the last
-- query's), each side's fastest and mean turn in µs a query, and B's time over A's; both
-- must find the same costs, or it stops. --terrain lays grid_bench's terrain patches
-- (bench/common's B.terrain) over the map first. On this machine two
-- copies of one build came out within 1% of each other on the mean (2026-11-29).
local B = require "bench.common"

local opts, rest = B.args({ rounds = 20, limit = math.huge, prepare = 0, opts = "{}",
                           terrain = 0, every = 400 }, {})
local findopts = assert(load("return " .. opts.opts))()
local dir_a, dir_b, name = rest[1], rest[2], rest[3]
if not name then
  io.stderr:write("usage: ab.lua [--rounds R] [--limit N] [--prepare 1] [--opts T]"
    .. " [--terrain S [--every N]] DIR_A DIR_B set/name\n")
  os.exit(2)
end

local R = debug.getregistry()
local function registered()
  local t = {}
  for k, v in pairs(R) do
    if type(k) == "string" and k:match("^astar%.") then t[k] = v end
  end
  return t
end
local function install(t)
  for k in pairs(registered()) do R[k] = nil end
  for k, v in pairs(t) do R[k] = v end
end

-- Loads the library from 'so_dir' afresh: its grid of the map and its metatables.
local base = package.cpath
local function side(so_dir, label)
  install({})
  for k in pairs(package.loaded) do
    if k == "astar" or k:match("^astar%.") then package.loaded[k] = nil end
  end
  package.cpath = so_dir .. "/?.so;" .. base
  local astar = require "astar"
  local grid = assert(astar.grid.load_movingai(B.dir .. "/" .. name .. ".map"))
  if opts.terrain > 0 then B.terrain(grid, opts.terrain, opts.every) end
  if opts.prepare == 1 then grid:prepare(findopts.diagonal) end
  local scen = assert(astar.load_scenarios(B.dir .. "/" .. name .. ".map.scen"))
  local last = scen[#scen]
  local alg = grid:find(last.sx, last.sy, last.gx, last.gy, findopts):stats().algorithm
  return { label = label, alg = alg, grid = grid, scen = scen, reg = registered(),
           best = math.huge, sum = 0, costs = {} }
end
local sides = { side(dir_a, "A"), side(dir_b, "B") }
local n = math.min(#sides[1].scen, opts.limit)

-- One turn of side s over the queries: timed, or (the warm pass) writing their costs.
local function turn(s, timed)
  install(s.reg)
  local grid, scen, costs = s.grid, s.scen, s.costs
  if not timed then
    for k = 1, n do
      local q = scen[k]
      costs[k] = grid:find(q.sx, q.sy, q.gx, q.gy, findopts):cost()
    end
    return
  end
  local t0 = B.now()
  for k = 1, n do
    local q = scen[k]
    grid:find(q.sx, q.sy, q.gx, q.gy, findopts)
  end
  local t = B.now() - t0
  s.best = math.min(s.best, t)
  s.sum = s.sum + t
end

turn(sides[1], false)
turn(sides[2], false)
for k = 1, n do
  local a, b = sides[1].costs[k], sides[2].costs[k]
  if math.abs(a - b) > 1e-9 * math.max(1, a) then
    error(("query %d: A's cost %.17g, B's %.17g"):format(k, a, b))
  end
end
for r = 1, opts.rounds do
  local first = (r % 2 == 1) and 1 or 2
  turn(sides[first], true)
  turn(sides[3 - first], true)
end

local us = 1e6 / n
local a, b = sides[1], sides[2]
print(("# %s, %s, %d queries, %d turns each"):format(name, jit and jit.version or _VERSION, n,
                                                      opts.rounds))
print(("A %s (%s): fastest %.2f mean %.2f us"):format(dir_a, a.alg, a.best * us,
                                                      a.sum / opts.rounds * us))
print(("B %s (%s): fastest %.2f mean %.2f us"):format(dir_b, b.alg, b.best * us,
                                                      b.sum / opts.rounds * us))
print(("B / A: fastest %.3f mean %.3f"):format(b.best / a.best, b.sum / a.sum))
-- skip closing the state: each library's finalizers must run with its own metatables
os.exit(0, false)
