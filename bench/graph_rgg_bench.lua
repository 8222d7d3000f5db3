-- graph_rgg_bench.lua - graph construction from Lua and graph:find on a random geometric graph.
--
--   lua5.4 bench/graph_rgg_bench.lua [--nodes N] [--degree D] [--queries Q] [--seed S]
--
-- N nodes uniform in a square of side sqrt(N / 0.1) (density 0.1), each pair closer than r
-- joined by an undirected edge of default cost (the Euclidean distance), r chosen so that the
-- mean degree is D (default 6: 300 000 edges for 100 000 nodes). Reports the time to add the
-- nodes and the edges from Lua (the geometry is computed beforehand, untimed), then mean and
-- median µs per query and mean expansions for each algorithm over Q random pairs of the
-- largest component (all algorithms get the same pairs; every cost is checked against
-- Dijkstra's).
local astar = require "astar"

local ok, system = pcall(require, "system")       -- lua-system comes with busted
local now = (ok and system.monotime) or os.clock

local N, D, Q, SEED = 100000, 6, 300, 1
local i = 1
while arg[i] do
  local a, v = arg[i], tonumber(arg[i + 1])
  if a == "--nodes" then N = v elseif a == "--degree" then D = v
  elseif a == "--queries" then Q = v elseif a == "--seed" then SEED = v
  else error("unknown argument " .. a) end
  i = i + 2
end

-- Park-Miller, the same sequence on every VM
local state = SEED
local function rand()
  state = (state * 16807) % 2147483647
  return (state - 1) / 2147483646
end

local side = math.sqrt(N / 0.1)
local r = math.sqrt(D / (0.1 * math.pi))
local xs, ys = {}, {}
for k = 1, N do xs[k], ys[k] = rand() * side, rand() * side end

-- pairs closer than r, through buckets of side r
local cells, ncx = {}, math.floor(side / r) + 1
for k = 1, N do
  local c = math.floor(ys[k] / r) * ncx + math.floor(xs[k] / r)
  local b = cells[c]
  if not b then b = {} cells[c] = b end
  b[#b + 1] = k
end
local ea, eb = {}, {}
local r2 = r * r
for k = 1, N do
  local cx, cy = math.floor(xs[k] / r), math.floor(ys[k] / r)
  for dy = -1, 1 do
    for dx = -1, 1 do
      local b = cells[(cy + dy) * ncx + cx + dx]
      if b and cx + dx >= 0 and cx + dx < ncx then
        for _, m in ipairs(b) do
          if m > k then
            local ddx, ddy = xs[k] - xs[m], ys[k] - ys[m]
            if ddx * ddx + ddy * ddy < r2 then
              ea[#ea + 1], eb[#eb + 1] = k, m
            end
          end
        end
      end
    end
  end
end
local M = #ea

print(("# %s on %s, %s"):format(astar._VERSION, jit and jit.version or _VERSION, os.date("!%Y-%m-%d")))
collectgarbage()
collectgarbage()
local t0 = now()
local g = astar.graph()
for k = 1, N do g:add_node(xs[k], ys[k]) end
local t1 = now()
for k = 1, M do g:add_edge(ea[k], eb[k]) end
local t2 = now()
print(("build: %d nodes %.3f s, %d edges %.3f s, total %.3f s"):format(N, t1 - t0, M, t2 - t1, t2 - t0))

-- query pairs in the largest component
g:components()
local size = {}
for k = 1, N do
  local c = g:component(k)
  size[c] = (size[c] or 0) + 1
end
local big, bigsize = nil, 0
for c, n in pairs(size) do if n > bigsize then big, bigsize = c, n end end
local members = {}
for k = 1, N do if g:component(k) == big then members[#members + 1] = k end end
print(("largest component: %d nodes"):format(bigsize))
local pairs_ = {}
for k = 1, Q do
  pairs_[k] = { members[1 + math.floor(rand() * #members)], members[1 + math.floor(rand() * #members)] }
end

local ref = {}
local algs = {
  { "dijkstra", { algorithm = "dijkstra" } },
  { "astar", nil },
  { "bidirectional", { algorithm = "bidirectional" } },
  { "bidirectional, h = 0", { algorithm = "bidirectional", heuristic = "zero" } },
}
print(("%-22s %8s %10s %10s %12s"):format("algorithm", "queries", "mean us", "median us", "expanded"))
for _, a in ipairs(algs) do
  local name, opts = a[1], a[2]
  for k = 1, math.min(10, Q) do g:find(pairs_[k][1], pairs_[k][2], opts) end   -- warm up
  local times, expanded = {}, 0
  local total0 = now()
  for k = 1, Q do
    local q0 = now()
    local p = g:find(pairs_[k][1], pairs_[k][2], opts)
    times[k] = now() - q0
    local c = assert(p, "no path"):cost()
    expanded = expanded + p:stats().expanded
    if ref[k] == nil then ref[k] = c
    elseif math.abs(ref[k] - c) > 1e-9 * ref[k] then
      error(("%s: query %d costs %.17g, Dijkstra %.17g"):format(name, k, c, ref[k]))
    end
  end
  local total = now() - total0
  table.sort(times)
  local median = (times[math.floor((Q + 1) / 2)] + times[math.floor(Q / 2) + 1]) / 2
  print(("%-22s %8d %10.1f %10.1f %12.0f"):format(name, Q, total / Q * 1e6, median * 1e6,
    expanded / Q))
end
g:close()
