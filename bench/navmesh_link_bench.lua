-- navmesh_link_bench.lua - the exact navmesh search with off-mesh links: the from_grid meshes of
-- the Moving AI maps, searched between cell centres without links, then with N random links
-- (cost 5, seeded, between centres of walkable cells); mean µs per query (the whole call from
-- Lua) and expansions, and how many paths take a link. With links a path may be cheaper,
-- never dearer: checked.
--
--   lua5.4 bench/navmesh_link_bench.lua [--every N] [--links N] [set/name ...]   (default every
--   10th scenario of dao/arena2, dao/brc202d, dao/orz900d; 10 links)
local astar = require "astar"
local B = require "bench.common"

local dir, timed = B.dir, B.timed
local opts, names = B.args({ every = 10, links = 10 },
  { "dao/arena2", "dao/brc202d", "dao/orz900d" })
local every, nlinks = opts.every, opts.links

print(("# %s on %s, %s, every %dth scenario, %d links; mean us per query, expansions")
  :format(astar._VERSION, jit and jit.version or _VERSION, os.date("!%Y-%m-%d"), every, nlinks))
print("| map | queries | no links | exp. | links | exp. | ratio | through a link |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for _, name in ipairs(names) do
  local grid = astar.grid.load_movingai(dir .. "/" .. name .. ".map")
  if not grid then print("navmesh_link_bench: no " .. name .. " under " .. dir); return end
  local scen = assert(astar.load_scenarios(dir .. "/" .. name .. ".map.scen"))
  local mesh = astar.navmesh.from_grid(grid)
  local function run()
    local t, e, out = 0, 0, {}
    for k = 1, #scen, every do
      local s = scen[k]
      local p, dt = timed(mesh.find, mesh, s.sx - 0.5, s.sy - 0.5, s.gx - 0.5, s.gy - 0.5)
      t, e = t + dt, e + p:stats().expanded
      out[#out + 1] = p
    end
    return t, e, out
  end
  local t0, e0, plain = run()
  B.random_links(grid, nlinks, function(x1, y1, x2, y2)    -- between the cells' centres
    mesh:link(x1 - 0.5, y1 - 0.5, x2 - 0.5, y2 - 0.5, 5)
  end)
  local t1, e1, linked = run()
  local q, via = #plain, 0
  for i = 1, q do
    assert(linked[i]:cost() <= plain[i]:cost() * (1 + 1e-9), "a link made a path dearer")
    for k = 1, #linked[i] - 1 do if linked[i]:link(k) then via = via + 1 break end end
  end
  print(("| %s | %d | %.0f | %.0f | %.0f | %.0f | %.2f | %d |"):format(name, q, t0 / q * 1e6,
    e0 / q, t1 / q * 1e6, e1 / q, t1 / t0, via))
end
