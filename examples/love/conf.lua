-- conf.lua - a window the size of the map (12-pixel tiles, a text bar below), no audio.
-- luacheck: globals love

local TILE, BAR = 12, 24

function love.conf(t)
  t.identity = "astar-demo"
  t.version = "11.4"

  -- Size the window from the map `make love` puts in lib/; 64x32 if it is not there yet.
  local w, h = 64, 32
  local text = love.filesystem.read("lib/dungeon.txt")
  if text then
    h = select(2, text:gsub("[^\r\n]+", ""))
    w = #text:match("[^\r\n]*")
  end
  t.window.title = "astar - click to move the goal (right click: the start)"
  t.window.width = w * TILE
  t.window.height = h * TILE + BAR
  t.window.resizable = false

  -- Nothing here makes a sound; without a sound device OpenAL would only print errors.
  t.modules.audio = false
  t.modules.sound = false
  t.modules.joystick = false
  t.modules.physics = false
  t.modules.video = false
end
