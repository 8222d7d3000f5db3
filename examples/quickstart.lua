-- quickstart.lua - find the cheapest way across a dungeon, draw it, and time it.
--
--   make demo                      (runs this under lua5.4 and luajit)
--   lua5.4 examples/quickstart.lua (with astar on LUA_PATH / LUA_CPATH)

local astar = require "astar"

-- The map lives next to this script, so it is found from any working directory.
local dir = arg and arg[0] and arg[0]:match("^(.*)[/\\]") or "."
local file = assert(io.open(dir .. "/maps/dungeon.txt", "rb"))
local text = file:read("*a")
file:close()

-- Walls block; floor costs 1 per step, rubble 2, water 3. S and G are floor too.
local grid = astar.grid.parse(text, {
  ["#"] = false, ["."] = 1, [","] = 2, ["~"] = 3, S = 1, G = 1,
})

-- Where are S and G? x is the column, y the row, both 1-based.
local function locate(ch)
  local y = 0
  for line in text:gmatch("[^\r\n]+") do
    y = y + 1
    local x = line:find(ch, 1, true)
    if x then return x, y end
  end
  error("no " .. ch .. " in the map")
end
local sx, sy = locate("S")
local gx, gy = locate("G")

local path, message = grid:find(sx, sy, gx, gy)
if not path then
  io.stderr:write("no path: ", message, "\n")
  os.exit(1)
end

print(grid:render(path))
print("# wall, . floor, 2 rubble, 3 water (the cost of a step there), * the path")

-- The same query again and again, for a mean time per find.
local N = 1000
local t0 = os.clock()
for _ = 1, N do grid:find(sx, sy, gx, gy) end
local us = (os.clock() - t0) / N * 1e6

local w, h = grid:size()
print(("%dx%d grid, from S (%d, %d) to G (%d, %d)"):format(w, h, sx, sy, gx, gy))
print(("path: %d points (%d waypoints), cost %.2f, %d nodes expanded by %s"):format(
  #path, #path:waypoints() / 2, path:cost(), path:stats().expanded, path:stats().algorithm))
print(("time: %.1f us per find (mean of %d) on %s"):format(
  us, N, jit and jit.version or _VERSION))

-- Units that do not zig-zag: the path smoothed (Pinter: straight lines where nothing is in the
-- way and the terrain is no dearer), Theta* (any-angle search over cell centres), and the
-- shortest path for a unit 0.8 cells wide.
local smooth = path:smooth(grid)
local theta = assert(grid:find(sx, sy, gx, gy, { algorithm = "theta" }))
local wide = grid:find(sx, sy, gx, gy, { radius = 0.4 })
print(("smoothed: %d points, cost %.2f; theta*: %d points, cost %.2f; radius 0.4: %s"):format(
  #smooth, smooth:cost(), #theta, theta:cost(),
  wide and ("cost %.2f"):format(wide:cost()) or "no path"))

-- The same dungeon as a navigation mesh: walkable cells merged into rectangles, and an
-- any-angle path across them, straightened by the funnel algorithm. Cell (x, y) covers
-- [x-1, x] x [y-1, y], so a cell's centre is (x - 0.5, y - 0.5).
local mesh = astar.navmesh.from_grid(grid)
local mpath = assert(mesh:find(sx - 0.5, sy - 0.5, gx - 0.5, gy - 0.5))
local t1 = os.clock()
for _ = 1, N do mesh:find(sx - 0.5, sy - 0.5, gx - 0.5, gy - 0.5) end
local mus = (os.clock() - t1) / N * 1e6
local pts = {}
for _, x, y in mpath:points() do pts[#pts + 1] = ("(%.1f, %.1f)"):format(x, y) end
print(("\nnavmesh: %d walkable cells in %d polygons; any-angle path of %d points, cost %.2f"):format(
  w * h - (select(2, grid:render():gsub("#", ""))), mesh:stats().polygons, #mpath, mpath:cost()))
print("  " .. table.concat(pts, " "))
print(("  %d polygons crossed, %.1f us per find (mean of %d)"):format(
  #mpath:corridor(), mus, N))
local rpath = mesh:find(sx - 0.5, sy - 0.5, gx - 0.5, gy - 0.5, { radius = 0.4 })
print(rpath and ("  with radius 0.4 (keeps 0.4 from every wall): cost %.2f, %d points"):format(
  rpath:cost(), #rpath) or "  no path for radius 0.4")
