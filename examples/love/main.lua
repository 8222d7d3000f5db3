-- main.lua - astar in LÖVE 11.4: the dungeon map, the cheapest path, click to move the goal.
--
--   make love                              (copies the library into lib/, takes a screenshot)
--   love examples/love                     (interactive, after `make love` once)
--   love examples/love --shot /abs/x.png   (draw one frame, save it to x.png, exit 0)
-- luacheck: globals love

-- First of all: LÖVE's own error screen loops forever, which hangs a headless run.
-- Print the error with its traceback and exit 1 instead.
function love.errorhandler(msg)
  io.stderr:write(debug.traceback("astar demo: " .. tostring(msg), 3), "\n")
  os.exit(1)
end
io.stdout:setvbuf("line")

-- `make love` puts astar.lua, astar/*.lua, astar/core.so and dungeon.txt in lib/.
love.filesystem.setRequirePath("lib/?.lua;lib/?/init.lua;?.lua;?/init.lua")
love.filesystem.setCRequirePath("lib/??;??")
local astar = require "astar"

local COLOURS = { -- by cell cost; false is a wall
  [false] = { 0.16, 0.16, 0.20 },
  [1] = { 0.86, 0.82, 0.70 }, -- floor
  [2] = { 0.52, 0.62, 0.32 }, -- rubble
  [3] = { 0.26, 0.50, 0.86 }, -- water
}
local BAR = 24 -- pixels of text below the map

local grid, w, h, tile
local sx, sy, gx, gy
local path, status
local shot, shot_taken, shot_saved

local function refind()
  local message
  path, message = grid:find(sx, sy, gx, gy)
  if path then
    status = ("cost %.2f, %d points, %d nodes expanded"):format(
      path:cost(), #path, path:stats().expanded)
  else
    status = "no path: " .. message
  end
end

function love.load(args)
  for i, a in ipairs(args) do
    if a == "--shot" then shot = args[i + 1] end
  end

  local text = assert(love.filesystem.read("lib/dungeon.txt"), "no lib/dungeon.txt: run `make love`")
  grid = astar.grid.parse(text, { ["#"] = false, ["."] = 1, [","] = 2, ["~"] = 3, S = 1, G = 1 })
  w, h = grid:size()
  local y = 0
  for line in text:gmatch("[^\r\n]+") do
    y = y + 1
    local x = line:find("S", 1, true)
    if x then sx, sy = x, y end
    x = line:find("G", 1, true)
    if x then gx, gy = x, y end
  end
  tile = math.min(math.floor(love.graphics.getWidth() / w),
                  math.floor((love.graphics.getHeight() - BAR) / h))

  refind()
  local major, minor = love.getVersion()
  print(("astar in LÖVE %d.%d (%s): %dx%d map, %s"):format(
    major, minor, jit and jit.version or _VERSION, w, h, status))
  if shot and not path then os.exit(1) end
end

function love.draw()
  for y = 1, h do
    for x = 1, w do
      love.graphics.setColor(COLOURS[grid:get(x, y)] or COLOURS[1])
      love.graphics.rectangle("fill", (x - 1) * tile, (y - 1) * tile, tile, tile)
    end
  end

  -- The path: cell (x, y) has its centre at ((x - 0.5) * tile, (y - 0.5) * tile).
  if path and #path > 1 then
    local pts = path:flat()
    for i = 1, #pts do pts[i] = (pts[i] - 0.5) * tile end
    love.graphics.setColor(0.90, 0.15, 0.15)
    love.graphics.setLineWidth(3)
    love.graphics.setLineJoin("bevel")
    love.graphics.line(pts)
  end
  love.graphics.setColor(0.10, 0.75, 0.20)
  love.graphics.circle("fill", (sx - 0.5) * tile, (sy - 0.5) * tile, tile * 0.6)
  love.graphics.setColor(0.95, 0.75, 0.10)
  love.graphics.circle("fill", (gx - 0.5) * tile, (gy - 0.5) * tile, tile * 0.6)

  love.graphics.setColor(1, 1, 1)
  love.graphics.print("S -> G: " .. status, 6, h * tile + 5)

  -- Headless mode: capture this first frame; the callback runs when the frame is presented.
  if shot and not shot_taken then
    shot_taken = true
    love.graphics.captureScreenshot(function(image)
      local f = assert(io.open(shot, "wb"))
      f:write(image:encode("png"):getString())
      f:close()
      shot_saved = true
      print("screenshot: " .. shot)
    end)
  end
end

function love.update()
  if shot_saved then love.event.quit(0) end
end

-- Left click moves the goal, right click the start; walls are ignored.
function love.mousepressed(mx, my, button)
  local x, y = math.floor(mx / tile) + 1, math.floor(my / tile) + 1
  if x > w or y > h or not grid:walkable(x, y) then return end
  if button == 1 then gx, gy = x, y elseif button == 2 then sx, sy = x, y end
  refind()
end
