-- navmesh_bench.lua - navigation meshes built from the Moving AI grids: build time and size, then
-- mesh:find against grid:find (default options) on the same scenarios in the same run: time,
-- expansions, path length, and allocations per warm query. Ends with a markdown table for the
-- README.
--
--   LUA_PATH_5_4='./lua/?.lua;./lua/?/init.lua;;' LUA_CPATH_5_4='./build/5.4/?.so;;' \
--     lua5.4 bench/navmesh_bench.lua [--limit N | --all] [--repeat R] [set/name ...]
--   LUA_PATH='./lua/?.lua;./lua/?/init.lua;;' LUA_CPATH='./build/jit/?.so;;' \
--     luajit bench/navmesh_bench.lua [...]
--
-- Maps come from $ASTAR_MOVINGAI (default ../shared/benchmarks/movingai). Each map runs N of its
-- scenarios (default 400, evenly spaced through the file so that every length bucket is in; --all
-- runs every one, which takes several minutes per map for grid:find alone). mesh:find runs them
-- once to warm up and count, then R times timed (default 3), the fastest pass reported; grid:find
-- runs them once to warm up, once timed (it is the slow side). Build time is the best of 3.
-- Coordinates: grid cell (x, y) is the mesh point (x - 0.5, y - 0.5), its centre.
local astar = require "astar"

local ok, system = pcall(require, "system")       -- lua-system comes with busted
local now = (ok and system.monotime) or os.clock

local dir = os.getenv("ASTAR_MOVINGAI") or "../shared/benchmarks/movingai"
local limit, rep, maps = 400, 3, {}
local i = 1
while arg[i] do
  local a = arg[i]
  if a == "--limit" then limit = assert(tonumber(arg[i + 1]), "--limit N"); i = i + 1
  elseif a == "--all" then limit = math.huge
  elseif a == "--repeat" then rep = assert(tonumber(arg[i + 1]), "--repeat R"); i = i + 1
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
  print("navmesh_bench: no Moving AI maps at " .. dir .. " (set ASTAR_MOVINGAI); nothing to do")
  return
end
f:close()

local function cpu_model()
  local cf = io.open("/proc/cpuinfo")
  if not cf then return "unknown CPU" end
  local text = cf:read("*a")
  cf:close()
  return (text:match("model name%s*:%s*([^\n]+)") or "unknown CPU"):gsub("%s+", " ")
end

local function walkable_cells(grid)
  local w, h = grid:size()
  local n = 0
  for y = 1, h do
    for x = 1, w do
      if grid:walkable(x, y) then n = n + 1 end
    end
  end
  return n
end

local function fmt_int(n)
  local s = tostring(math.floor(n))
  return (s:reverse():gsub("(%d%d%d)", "%1,"):reverse():gsub("^,", ""))
end

local vm = jit and jit.version or _VERSION
print(("# %s, navmesh.from_grid vs grid:find, on %s; %s; %s"):format(astar._VERSION, vm,
  cpu_model(), os.date("!%Y-%m-%d %H:%M UTC")))
print(("# %s scenarios per map, evenly spaced; mesh:find best of %d passes, grid:find 1 pass")
  :format(limit == math.huge and "all" or tostring(limit), rep))
print(("%-22s %8s %7s %7s %8s %6s %9s %8s %9s %7s %7s %8s"):format("map", "walkable", "polys",
  "portals", "build ms", "qs", "mesh us", "mesh exp", "grid us", "t m/g", "len m/g", "allocs/q"))

local rows = {}
local t_start = now()
for _, name in ipairs(maps) do
  local grid = assert(astar.grid.load_movingai(dir .. "/" .. name .. ".map"))
  local all = assert(astar.load_scenarios(dir .. "/" .. name .. ".map.scen"))
  local scen = {}
  local n = math.min(limit, #all)
  for k = 1, n do scen[k] = all[math.floor((k - 1) * #all / n) + 1] end

  -- build: best of 3
  local build, mesh = math.huge, nil
  for _ = 1, 3 do
    if mesh then mesh:close() end
    collectgarbage()
    local t0 = now()
    mesh = astar.navmesh.from_grid(grid)
    local t = now() - t0
    if t < build then build = t end
  end
  local st = mesh:stats()

  -- mesh: warm-up pass (expansions, lengths), then timed passes; allocations over the timed ones
  local mexp, mlen, mfail = 0, {}, 0
  for k = 1, n do
    local s = scen[k]
    local path = mesh:find(s.sx - 0.5, s.sy - 0.5, s.gx - 0.5, s.gy - 0.5)
    if path then
      mexp = mexp + path:stats().expanded
      mlen[k] = path:cost()
    else
      mfail = mfail + 1
    end
  end
  local a0 = mesh:stats().allocs
  local mbest = math.huge
  for _ = 1, rep do
    local t0 = now()
    for k = 1, n do
      local s = scen[k]
      mesh:find(s.sx - 0.5, s.sy - 0.5, s.gx - 0.5, s.gy - 0.5)
    end
    local t = now() - t0
    if t < mbest then mbest = t end
  end
  local allocs = (mesh:stats().allocs - a0) / (n * rep)

  -- grid: warm-up pass (lengths), then one timed pass
  local ratio, nratio = 0, 0
  for k = 1, n do
    local s = scen[k]
    local path = assert(grid:find(s.sx, s.sy, s.gx, s.gy))
    if mlen[k] and path:cost() > 0 then
      ratio, nratio = ratio + mlen[k] / path:cost(), nratio + 1
    end
  end
  local t0 = now()
  for k = 1, n do
    local s = scen[k]
    grid:find(s.sx, s.sy, s.gx, s.gy)
  end
  local gtime = now() - t0

  local row = {
    name = name, walkable = walkable_cells(grid), polygons = st.polygons, portals = st.portals,
    build = build * 1e3, n = n, mesh = mbest / n * 1e6, exp = mexp / n, grid = gtime / n * 1e6,
    len = nratio > 0 and ratio / nratio or 0 / 0, allocs = allocs, fail = mfail,
  }
  rows[#rows + 1] = row
  print(("%-22s %8d %7d %7d %8.1f %6d %9.1f %8.1f %9.1f %7.3f %7.4f %8.2f%s"):format(name,
    row.walkable, row.polygons, row.portals, row.build, n, row.mesh, row.exp, row.grid,
    row.mesh / row.grid, row.len, row.allocs, mfail > 0 and ("  (" .. mfail .. " not found!)") or ""))
  io.stdout:flush()
  mesh:close()
  grid:close()
end

print(("\n(%.0f s in all)\n"):format(now() - t_start))
print(("Measured on %s, %s, %s; %s scenarios per map."):format(cpu_model(), vm,
  os.date("!%Y-%m-%d"), limit == math.huge and "all" or tostring(limit)))
print("")
print("| map | walkable cells | polygons | portals | build (ms) | mesh:find (µs) | expansions "
  .. "| grid:find (µs) | time mesh / grid | length mesh / grid | allocs / warm query |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for _, r in ipairs(rows) do
  print(("| %s | %s | %s | %s | %.1f | %.0f | %.0f | %.0f | %.2f | %.3f | %.2f |"):format(r.name,
    fmt_int(r.walkable), fmt_int(r.polygons), fmt_int(r.portals), r.build, r.mesh, r.exp, r.grid,
    r.mesh / r.grid, r.len, r.allocs))
end
