-- tools/navmesh_sweep.lua [--stride N] [set/name ...]: the exact navmesh search on every Moving AI
-- scenario (cell centres, meshes from navmesh.from_grid), checked against what does not depend on
-- it: a path whenever the published optimum says the goal is reachable, the reverse query as long
-- to 1e-9, never longer than the published 8-connected optimum (to the README's rounding
-- tolerance), and never shorter than the straight line. One line per map; exit status 1 if any
-- query failed (the first five of each map are printed).
--   ASTAR_MOVINGAI=../shared/benchmarks/movingai lua5.4 tools/navmesh_sweep.lua
local astar = require "astar"

local dir = os.getenv("ASTAR_MOVINGAI") or "../shared/benchmarks/movingai"
local stride, maps = 1, {}
local i = 1
while arg[i] do
  if arg[i] == "--stride" then stride = assert(tonumber(arg[i + 1]), "--stride N"); i = i + 2
  else maps[#maps + 1] = arg[i]; i = i + 1 end
end
if #maps == 0 then
  maps = { "dao/arena2", "dao/brc202d", "dao/orz900d", "bg512/AR0011SR", "sc1/TheFrozenSea",
    "mazes/maze512-1-0", "random/random512-10-0", "rooms/32room_000", "cities/Berlin_1_256" }
end

-- The digits after the point of the published length as the file gives it (the scenario readers
-- keep the number only; %.14g gives back the text for every length the files hold).
local function decimals(v)
  return #((("%.14g"):format(v)):match("%.(%d*)") or "")
end

local bad = 0
for _, name in ipairs(maps) do
  local grid = assert(astar.grid.load_movingai(dir .. "/" .. name .. ".map"))
  local all = assert(astar.load_scenarios(dir .. "/" .. name .. ".map.scen"))
  local mesh = astar.navmesh.from_grid(grid)
  local n, fails, t0, most = 0, 0, os.clock(), 0
  local ms = mesh:stats()
  local size = ms.vertices + 2 * ms.portals
  for k = 1, #all, stride do
    local s = all[k]
    local x0, y0, x1, y1 = s.sx - 0.5, s.sy - 0.5, s.gx - 0.5, s.gy - 0.5
    local fw, msg, code = mesh:find(x0, y0, x1, y1)
    local bw = mesh:find(x1, y1, x0, y0)
    local straight = math.sqrt((x1 - x0) ^ 2 + (y1 - y0) ^ 2)
    local why
    if not fw or not bw then
      why = ("no path (%s, %s) forward, %s backward"):format(tostring(msg), tostring(code),
        bw and "found" or "none")
    else
      local a, b = fw:cost(), bw:cost()
      if math.abs(a - b) > 1e-9 * (1 + a) then
        why = ("forward %.17g, backward %.17g"):format(a, b)
      elseif a > s.optimal + math.max(0.5 * 10 ^ -decimals(s.optimal) + 1e-6, 1e-5 * s.optimal) then
        why = ("%.17g, longer than the grid optimum %.17g"):format(a, s.optimal)
      elseif a < straight * (1 - 1e-12) then
        why = ("%.17g, shorter than the straight line %.17g"):format(a, straight)
      end
    end
    n = n + 1
    if fw then most = math.max(most, fw:stats().generated / size) end
    if why then
      fails = fails + 1
      if fails <= 5 then
        print(("  %s scenario %d: mesh:find(%g, %g, %g, %g): %s"):format(name, k, x0, y0, x1, y1, why))
      end
    end
  end
  print(("%-22s %6d scenarios, %5d failed, %.1f s; at most %.2f nodes per vertex and portal side")
    :format(name, n, fails, os.clock() - t0, most))
  bad = bad + fails
  mesh:close(); grid:close()
end
print(bad == 0 and "navmesh sweep: all agree" or ("navmesh sweep: %d failed"):format(bad))
os.exit(bad == 0 and 0 or 1)
