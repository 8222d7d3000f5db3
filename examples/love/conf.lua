-- conf.lua - the lab's window: the map on the left, the panel on the right; no audio.
-- luacheck: globals love

function love.conf(t)
  t.identity = "astar-lab"
  t.version = "11.4"
  t.window.title = "astar lab - paint, drag S and G, pick an algorithm"
  t.window.width = 1320
  t.window.height = 720
  t.window.resizable = true
  t.window.minwidth = 640                -- the panel (290 pixels) and some map
  t.window.minheight = 480
  t.window.vsync = 1

  -- Nothing here makes a sound; without a sound device OpenAL would only print errors.
  t.modules.audio = false
  t.modules.sound = false
  t.modules.joystick = false
  t.modules.physics = false
  t.modules.video = false
end
