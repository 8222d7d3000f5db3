-- link_bench.lua - jump point search on grids with links: the Moving AI maps with ten random
-- links (cost 5, seeded) between walkable cells; mean µs per query (the whole call from Lua)
-- of A* and of the default search (jump point search, which stops at link ends), the costs
-- checked equal.
--
--   lua5.4 bench/link_bench.lua [--every N] [--links N] [set/name ...]   (default every 10th
--   scenario of dao/arena2, dao/brc202d, dao/orz900d; 10 links)
local astar = require "astar"
local B = require "bench.common"

local dir, timed = B.dir, B.timed
local opts, names = B.args({ every = 10, links = 10 },
  { "dao/arena2", "dao/brc202d", "dao/orz900d" })
local every, nlinks = opts.every, opts.links

print(("# %s on %s, %s, every %dth scenario, %d links; mean us per query")
  :format(astar._VERSION, jit and jit.version or _VERSION, os.date("!%Y-%m-%d"), every, nlinks))
print("| map | queries | A* | auto | A* / auto | algorithm |")
print("|---|---:|---:|---:|---:|---|")
for _, name in ipairs(names) do
  local grid = astar.grid.load_movingai(dir .. "/" .. name .. ".map")
  if not grid then print("link_bench: no " .. name .. " under " .. dir); return end
  local scen = assert(astar.load_scenarios(dir .. "/" .. name .. ".map.scen"))
  B.random_links(grid, nlinks, function(x1, y1, x2, y2) grid:link(x1, y1, x2, y2, 5) end)
  local ta, tj, q, alg = 0, 0, 0, nil
  for k = 1, #scen, every do
    local s = scen[k]
    local a, t1 = timed(grid.find, grid, s.sx, s.sy, s.gx, s.gy, { algorithm = "astar" })
    local j, t2 = timed(grid.find, grid, s.sx, s.sy, s.gx, s.gy)
    assert(math.abs(a:cost() - j:cost()) <= 1e-9 * a:cost(), "the costs differ")
    alg = j:stats().algorithm
    ta, tj, q = ta + t1, tj + t2, q + 1
  end
  print(("| %s | %d | %.0f | %.0f | %.1f | %s |"):format(name, q, ta / q * 1e6, tj / q * 1e6,
    ta / tj, alg))
end
