-- link_bench.lua - jump point search on grids with links: the Moving AI maps with ten random
-- links (cost 5, seeded) between walkable cells; mean µs per query (the whole call from Lua)
-- of A* and of the default search (jump point search, which stops at link ends), the costs
-- checked equal.
--
--   lua5.4 bench/link_bench.lua [--every N] [--links N] [set/name ...]   (default every 10th
--   scenario of dao/arena2, dao/brc202d, dao/orz900d; 10 links)
local astar = require "astar"

local ok, system = pcall(require, "system")
local now = (ok and system.monotime) or os.clock

local dir = os.getenv("ASTAR_MOVINGAI") or "../shared/benchmarks/movingai"
local every, nlinks, names = 10, 10, {}
local i = 1
while arg[i] do
  if arg[i] == "--every" then every = tonumber(arg[i + 1]); i = i + 1
  elseif arg[i] == "--links" then nlinks = tonumber(arg[i + 1]); i = i + 1
  else names[#names + 1] = arg[i] end
  i = i + 1
end
if #names == 0 then names = { "dao/arena2", "dao/brc202d", "dao/orz900d" } end

print(("# %s on %s, %s, every %dth scenario, %d links; mean us per query")
  :format(astar._VERSION, jit and jit.version or _VERSION, os.date("!%Y-%m-%d"), every, nlinks))
print("| map | queries | A* | auto | A* / auto | algorithm |")
print("|---|---:|---:|---:|---:|---|")
for _, name in ipairs(names) do
  local grid = astar.grid.load_movingai(dir .. "/" .. name .. ".map")
  if not grid then print("link_bench: no " .. name .. " under " .. dir); return end
  local scen = assert(astar.load_scenarios(dir .. "/" .. name .. ".map.scen"))
  local w, h = grid:size()
  local seed, n = 7, 0
  local function rand(m)
    seed = (seed * 16807) % 2147483647
    return seed % m + 1
  end
  while n < nlinks do
    local x1, y1, x2, y2 = rand(w), rand(h), rand(w), rand(h)
    if grid:walkable(x1, y1) and grid:walkable(x2, y2) and (x1 ~= x2 or y1 ~= y2) then
      grid:link(x1, y1, x2, y2, 5)
      n = n + 1
    end
  end
  local ta, tj, q, alg = 0, 0, 0, nil
  for k = 1, #scen, every do
    local s = scen[k]
    local t0 = now()
    local a = grid:find(s.sx, s.sy, s.gx, s.gy, { algorithm = "astar" })
    local t1 = now()
    local j = grid:find(s.sx, s.sy, s.gx, s.gy)
    local t2 = now()
    assert(math.abs(a:cost() - j:cost()) <= 1e-9 * a:cost(), "the costs differ")
    alg = j:stats().algorithm
    ta, tj, q = ta + (t1 - t0), tj + (t2 - t1), q + 1
  end
  print(("| %s | %d | %.0f | %.0f | %.1f | %s |"):format(name, q, ta / q * 1e6, tj / q * 1e6,
    ta / tj, alg))
end
