-- polyanya_bench.lua - astar's side of bench/polyanya.sh: the exact navmesh search on one Moving
-- AI map, on two meshes, against Polyanya's answers to the same queries (read from the file that
-- bench/polyanya_driver.cpp wrote in the same run). Run it through bench/polyanya.sh.
--
--   lua5.4 bench/polyanya_bench.lua [--every N] [--repeat R] set/name <polyanya.mesh> <polyanya.out>
--
-- The meshes: astar's own `navmesh.from_grid` mesh of the map, and Polyanya's mesh of it
-- (gridmap2rects: cell corners at integer coordinates, (0, 0) top-left, the same frame as
-- from_grid) loaded with `astar.navmesh{...}`. Queries are cell centres: scenario cell (x, y),
-- 1-based, is the point (x - 0.5, y - 0.5), which is Polyanya's (sx + 0.5, sy + 0.5). Every N-th
-- scenario (0-based index divisible by N, as the driver picks them) runs; one untimed pass checks
-- every length against Polyanya's (|difference| <= 1e-6) and counts expansions, then R timed
-- passes of the whole `mesh:find` call from Lua; the fastest pass is reported (as the driver
-- does). Prints a `row` line for polyanya.sh's table, and each disagreement.
local astar = require "astar"
local B = require "bench.common"

local opts, args = B.args({ every = 1, ["repeat"] = 3 }, {})
local name, mesh_path, poly_path = args[1], args[2], args[3]
assert(name and mesh_path and poly_path,
  "usage: polyanya_bench.lua [--every N] [--repeat R] set/name <polyanya.mesh> <polyanya.out>")
local every, rep = opts.every, opts["repeat"]

-- Polyanya's mesh format 2: "mesh", 2, V P, then V lines "x y n p1..pn", then P lines
-- "n v1..vn p1..pn" (0-based indices; -1 is no polygon).
local function load_polyanya_mesh(path)
  local f = assert(io.open(path))
  local text = f:read("*a")
  f:close()
  local nums = {}
  for w in text:gmatch("%S+") do nums[#nums + 1] = w end
  assert(nums[1] == "mesh" and nums[2] == "2", path .. ": not a version 2 mesh")
  local nv, np = tonumber(nums[3]), tonumber(nums[4])
  local k = 5
  local vertices = {}
  for i = 1, nv do
    vertices[2 * i - 1], vertices[2 * i] = tonumber(nums[k]), tonumber(nums[k + 1])
    k = k + 3 + tonumber(nums[k + 2])
  end
  local polygons = {}
  for i = 1, np do
    local n = tonumber(nums[k])
    local poly = {}
    for j = 1, n do poly[j] = tonumber(nums[k + j]) + 1 end
    polygons[i] = poly
    k = k + 1 + 2 * n
  end
  return astar.navmesh { vertices = vertices, polygons = polygons }, nv, np
end

-- The driver's per-query lines: "q index length popped pruned search_us".
local poly = {}
local summary
for line in io.lines(poly_path) do
  local idx, len = line:match("^q (%d+) (%S+)")
  if idx then
    poly[tonumber(idx)] = tonumber(len)
  elseif line:match("^summary") then
    summary = {}
    for w in line:gmatch("%S+") do summary[#summary + 1] = w end
  end
end
assert(summary, poly_path .. ": no summary line (did the driver fail?)")

local grid = assert(astar.grid.load_movingai(B.dir .. "/" .. name .. ".map"))
local all = assert(astar.load_scenarios(B.dir .. "/" .. name .. ".map.scen"))
local scen = {}
for k = 1, #all do
  if (k - 1) % every == 0 then scen[#scen + 1] = { index = k - 1, s = all[k] } end
end
local n = #scen
assert(n == tonumber(summary[2]), ("%s: %d queries here, %d in the driver's output"):format(name, n,
  tonumber(summary[2])))

local own = astar.navmesh.from_grid(grid)
local theirs, nv, np = load_polyanya_mesh(mesh_path)

-- One mesh: checked pass (lengths, expansions), then the fastest of `rep` timed passes.
local function run(mesh, label)
  local exp, bad = 0, 0
  for _, q in ipairs(scen) do
    local s = q.s
    local path, msg = mesh:find(s.sx - 0.5, s.sy - 0.5, s.gx - 0.5, s.gy - 0.5)
    local want = poly[q.index]
    local got = path and path:cost() or -1
    if path then exp = exp + path:stats().expanded end
    if not want or math.abs(got - want) > 1e-6 then
      bad = bad + 1
      if bad <= 5 then
        print(("mismatch %s %s #%d: mesh:find(%g, %g, %g, %g) = %.10g (%s), Polyanya %.10g")
          :format(name, label, q.index, s.sx - 0.5, s.sy - 0.5, s.gx - 0.5, s.gy - 0.5, got,
          tostring(msg or "ok"), want or -1))
      end
    end
  end
  local best = math.huge
  for _ = 1, rep do
    local t0 = B.now()
    for _, q in ipairs(scen) do
      local s = q.s
      mesh:find(s.sx - 0.5, s.sy - 0.5, s.gx - 0.5, s.gy - 0.5)
    end
    local t = B.now() - t0
    if t < best then best = t end
  end
  return best / n * 1e6, exp / n, bad
end

local own_us, own_exp, own_bad = run(own, "from_grid")
local their_us, their_exp, their_bad = run(theirs, "polyanya-mesh")
local p_us, p_pops, p_exp = tonumber(summary[3]), tonumber(summary[4]), tonumber(summary[5])
local st = own:stats()
-- row: name queries | Polyanya mesh V P | from_grid V P | Polyanya us pops expanded |
--      astar-own us exp | astar-theirs us exp | ratios (time own, time same mesh, expansions
--      own / Polyanya's, same mesh / Polyanya's) | disagreements own, same mesh | Polyanya failures |
--      Polyanya's own timer (search(), untimed first pass)
print(("row %s %d %d %d %d %d %.1f %.0f %.0f %.1f %.0f %.1f %.0f %.2f %.2f %.2f %.2f %d %d %d %.1f")
  :format(name, n, nv, np, st.vertices, st.polygons, p_us, p_pops, p_exp, own_us, own_exp,
  their_us, their_exp, own_us / p_us, their_us / p_us, own_exp / p_exp, their_exp / p_exp,
  own_bad, their_bad, tonumber(summary[7]), tonumber(summary[6])))
own:close()
theirs:close()
grid:close()
