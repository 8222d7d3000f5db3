-- main.lua - the astar lab in LÖVE 11.4: paint a map, drag the start and the goal, pick an
-- algorithm and watch it search; the same map as a navigation mesh; units on a flow field.
--
--   make love                               (copies the library into lib/, runs the script)
--   love examples/love                      (interactive, after `make love` once)
--   love examples/love --map x.map          (a Moving AI map, or a Tiled map exported as Lua;
--                                            or drop such a file on the window)
--   love examples/love --script /abs/dir    (the scripted tour: screenshots checked pixel by
--                                            pixel into dir, exit 0 only if every check holds)
-- luacheck: globals love

-- First of all: LÖVE's own error screen loops forever, which hangs a headless run.
-- Print the error with its traceback and exit 1 instead.
function love.errorhandler(msg)
  io.stderr:write(debug.traceback("astar lab: " .. tostring(msg), 3), "\n")
  os.exit(1)
end
io.stdout:setvbuf("line")

-- `make love` puts astar.lua, astar/*.lua, astar/core.so and dungeon.txt in lib/.
love.filesystem.setRequirePath("lib/?.lua;lib/?/init.lua;?.lua;?/init.lua")
love.filesystem.setCRequirePath("lib/??;??")
local astar = require "astar"
local ui = require "ui"
local script = require "script"

local TILE, PANEL = 16, 290
local COLOUR = {
  path = { 0.93, 0.12, 0.12 }, closed = { 0.34, 0.42, 0.93 }, open = { 0.15, 0.8, 0.3 },
  mesh = { 0.1, 0.45, 0.95 }, start = { 0.05, 0.65, 0.15 }, goal = { 0.98, 0.72, 0.05 },
  unit = { 0.9, 0.2, 0.85 }, smooth = { 1, 1, 1 }, back = { 0.08, 0.08, 0.1 },
}
local GRID_COLOURS = { wall = { 0.16, 0.16, 0.2 },
  ramp = { { 0.86, 0.82, 0.7 }, { 0.6, 0.66, 0.36 }, { 0.36, 0.7, 0.76 } } }
local ALGORITHMS = { { "auto", "auto" }, { "JPS", "jps" }, { "A*", "astar" },
  { "weighted A*", "weighted" }, { "Dijkstra", "dijkstra" }, { "BFS", "bfs" },
  { "greedy", "greedy" }, { "Theta*", "theta" }, { "Lazy Theta*", "lazy_theta" } }
local DIAGONALS = { { "no corner cut", "no_corner_cutting" }, { "never", "never" },
  { "always", "always" }, { "one obstacle", "one_obstacle" } }
local HEURISTICS = { { "default", "default" }, { "octile", "octile" },
  { "manhattan", "manhattan" }, { "euclid", "euclidean" }, { "chebyshev", "chebyshev" },
  { "zero", "zero" } }
local BRUSHES = { { "wall", false }, { "floor", 1 }, { "rubble 2", 2 }, { "water 3", 3 } }
local MODES = { { "grid search", "grid" }, { "navmesh", "navmesh" }, { "units", "units" } }
local HELP = "left drag: paint, or move S/G   right drag: pan   wheel: zoom   space: " ..
  "animate on/off   drop a Moving AI .map or a Tiled .lua export to load it"

local lab = {
  mode = "grid", algorithm = "auto", diagonal = "no_corner_cutting", heuristic = "default",
  weight = 2, radius = 0, animate = true, speed = 8, smooth = false, brush = false,
  cam = { x = 0, y = 0, zoom = 1 }, units = {}, info = "", colour = COLOUR,
}

-- Coordinates -----------------------------------------------------------------------------

function lab.screen(wx, wy)
  local c = lab.cam
  return (wx - c.x) * c.zoom, (wy - c.y) * c.zoom
end

function lab.world(sx, sy)
  local c = lab.cam
  return sx / c.zoom + c.x, sy / c.zoom + c.y
end

local function viewport_width() return math.max(0, love.graphics.getWidth() - PANEL) end

-- The map ---------------------------------------------------------------------------------

local function options()
  local alg = lab.algorithm
  return {
    algorithm = alg == "weighted" and "astar" or alg,
    weight = alg == "weighted" and lab.weight or nil,
    diagonal = lab.diagonal,
    heuristic = lab.heuristic ~= "default" and lab.heuristic or nil,
    radius = lab.radius > 0 and lab.radius or nil,
  }
end

-- Mean microseconds of grid:find with these options (repeated for at least 2 ms).
local function time_find(opts)
  local n, t0 = 0, love.timer.getTime()
  repeat
    lab.grid:find(lab.sx, lab.sy, lab.gx, lab.gy, opts)
    n = n + 1
  until love.timer.getTime() - t0 > 0.002 or n >= 1000
  return (love.timer.getTime() - t0) / n * 1e6
end

local function describe(path, message)
  if not path then
    lab.info = "no path: " .. tostring(message)
    return
  end
  local st = path:stats()
  -- (the scripted tour leaves the time out: its screenshots stay the same from run to run)
  local us = script.running() and "-" or ("%.0f"):format(time_find(options()))
  lab.info = ("%s: cost %.2f, %d points\n%d expanded, %s us a find"):format(
    st.algorithm or lab.algorithm, path:cost(), #path, st.expanded, us)
end

-- Theta* paths bend at any angle already: only grid paths are smoothed.
local function finish_search(path, message)
  local any_angle = lab.algorithm == "theta" or lab.algorithm == "lazy_theta"
  lab.path, lab.query = path, nil
  lab.smoothed = path and lab.smooth and not any_angle and path:smooth(lab.grid) or nil
  describe(path, message)
end

-- Starts the search again (after any change): a time-sliced query drawn as it grows, or find.
function lab.research()
  lab.path, lab.smoothed, lab.closed, lab.open = nil, nil, {}, {}
  local ok, res, message = pcall(function()
    if lab.animate then return lab.grid:query(lab.sx, lab.sy, lab.gx, lab.gy, options()) end
    return lab.grid:find(lab.sx, lab.sy, lab.gx, lab.gy, options())
  end)
  if not ok then lab.query = nil; lab.info = "error: " .. tostring(res); return end
  if lab.animate then lab.query = res else finish_search(res, message) end
  lab.mesh_path = nil
  if lab.mesh then
    local wx0, wy0 = lab.grid:to_world(lab.sx, lab.sy)
    local wx1, wy1 = lab.grid:to_world(lab.gx, lab.gy)
    lab.mesh_path, lab.mesh_info = lab.mesh:find(wx0, wy0, wx1, wy1,
      { radius = lab.radius > 0 and lab.radius * TILE or nil })
    lab.mesh_info = lab.mesh_path and ("navmesh path: %.1f px, %d points"):format(
      lab.mesh_path:cost(), #lab.mesh_path) or ("navmesh: " .. tostring(lab.mesh_info))
  end
end

function lab.changed_map()
  lab.canvas_dirty = true
  local ok, mesh = pcall(astar.navmesh.from_grid, lab.grid)
  lab.mesh = ok and mesh or nil
  lab.research()
  if lab.mode == "units" then lab.retarget(lab.tx, lab.ty) end
end

function lab.load_grid(grid, name, sx, sy, gx, gy)
  local w, h = grid:size()
  local canvas = love.graphics.newCanvas(w, h)   -- first: a map too big for a texture raises
  canvas:setFilter("nearest", "nearest")        -- here, before the lab has changed
  lab.query = nil
  lab.grid, lab.name = grid:set_world{ tile = TILE }, name
  lab.w, lab.h, lab.canvas = w, h, canvas
  lab.sx, lab.sy, lab.gx, lab.gy = sx, sy, gx, gy
  lab.tx, lab.ty = gx, gy
  local fit = math.min(viewport_width() / (lab.w * TILE), love.graphics.getHeight() / (lab.h * TILE))
  lab.cam = { x = 0, y = 0, zoom = math.min(fit, 4) }
  lab.spawn_units(40)
  lab.changed_map()
end

function lab.paint(x, y, value)
  if lab.grid:get(x, y) == value then return end
  if value == false and ((x == lab.sx and y == lab.sy) or (x == lab.gx and y == lab.gy)) then
    return
  end
  lab.grid:set(x, y, value)
  lab.changed_map()
end

function lab.set(key, value)
  lab[key] = value
  if key == "mode" and value == "units" then lab.retarget(lab.tx, lab.ty) end
  lab.research()
end

-- Units: each walks the path the distance field gives from where it stands -------------

function lab.spawn_units(n)
  local rng = love.math.newRandomGenerator(7)
  lab.units = {}
  for _ = 1, 20 * n do
    if #lab.units == n then break end
    local x, y = rng:random(1, lab.w), rng:random(1, lab.h)
    if lab.grid:walkable(x, y) then
      local wx, wy = lab.grid:to_world(x, y)
      lab.units[#lab.units + 1] = { x = wx, y = wy, x0 = wx, y0 = wy }
    end
  end
end

function lab.retarget(tx, ty)
  lab.tx, lab.ty = tx, ty
  local field = lab.grid:distance_field({ { tx, ty } }, { diagonal = lab.diagonal })
  for _, u in ipairs(lab.units) do
    local x, y = lab.grid:to_cell(u.x, u.y)
    local path = x and field:path_from(x, y)
    u.walker = nil
    if path then
      local pts = lab.grid:world_points(path)
      pts[1], pts[2] = u.x, u.y                       -- from where it stands, not the centre
      u.walker = astar.follow(pts, 5 * TILE)
    end
  end
end

-- LÖVE callbacks --------------------------------------------------------------------------

local function default_map()
  local text = assert(love.filesystem.read("lib/dungeon.txt"), "no lib/dungeon.txt: run `make love`")
  local grid = astar.grid.parse(text, { ["#"] = false, ["."] = 1, [","] = 2, ["~"] = 3,
    S = 1, G = 1 })
  local y, sx, sy, gx, gy = 0, 1, 1, 1, 1
  for line in text:gmatch("[^\r\n]+") do
    y = y + 1
    local x = line:find("S", 1, true)
    if x then sx, sy = x, y end
    x = line:find("G", 1, true)
    if x then gx, gy = x, y end
  end
  return grid, "dungeon.txt", sx, sy, gx, gy
end

-- The first and last walkable cells in reading order: ends for a map that has none marked.
local function far_ends(grid)
  local w, h = grid:size()
  local a, b
  for i = 0, w * h - 1 do
    local x, y = i % w + 1, math.floor(i / w) + 1
    if grid:walkable(x, y) then a = a or { x, y }; b = { x, y } end
  end
  assert(a, "the map has no walkable cell")
  return a[1], a[2], b[1], b[2]
end

-- A Moving AI .map, or a Tiled map exported as Lua (File > Export As > Lua).
function lab.load_file(path, text)
  local grid
  if path:match("%.lua$") then
    local chunk = assert(load(text, "=" .. path, "t", {}))
    grid = astar.tiled.grid(chunk())
  else
    grid = astar.grid.parse_movingai(text)
  end
  lab.load_grid(grid, path:match("[^/\\]+$"), far_ends(grid))
end

function love.load(args)
  love.graphics.setLineStyle("rough")
  love.keyboard.setKeyRepeat(true)
  local dir
  for i, a in ipairs(args) do
    if a == "--script" then dir = args[i + 1] end
    if a == "--map" then
      local f = assert(io.open(args[i + 1], "rb"))
      lab.pending = { args[i + 1], f:read("*a") }
      f:close()
    end
  end
  lab.load_grid(default_map())
  if lab.pending then lab.load_file(lab.pending[1], lab.pending[2]) end
  local major, minor = love.getVersion()
  print(("astar lab in LÖVE %d.%d (%s): %s, %dx%d"):format(major, minor,
    jit and jit.version or _VERSION, lab.name, lab.w, lab.h))
  if dir then script.start(lab, dir) end
end

function love.update(dt)
  if script.running() then dt = 1 / 60 end           -- the same frames on every machine
  if lab.query then
    local status = lab.query:step(lab.speed)
    if status == "running" then
      lab.closed, lab.open = lab.query:explored()
    else
      finish_search(lab.query:result())
    end
  end
  if lab.mode == "units" then
    for _, u in ipairs(lab.units) do
      if u.walker then u.x, u.y = u.walker:update(dt) end
    end
  end
  script.update()
end

-- Drawing ---------------------------------------------------------------------------------

local function draw_marker(x, y, colour, text)
  local wx, wy = lab.grid:to_world(x, y)
  love.graphics.setColor(colour)
  love.graphics.circle("fill", wx, wy, TILE * 0.55)
  love.graphics.setColor(0, 0, 0)
  love.graphics.print(text, wx - 4, wy - 7)
end

-- The map as one pixel a cell, redrawn after edits (before the camera's transform).
local function refresh_canvas()
  if not lab.canvas_dirty then return end
  love.graphics.setCanvas(lab.canvas)
  love.graphics.clear(COLOUR.back)
  astar.love.draw_grid(lab.grid, { tile = 1, colors = GRID_COLOURS })
  love.graphics.setCanvas()
  lab.canvas_dirty = false
end

local function draw_map()
  love.graphics.setColor(1, 1, 1, lab.mode == "grid" and 1 or 0.55)
  love.graphics.draw(lab.canvas, 0, 0, 0, TILE, TILE)
end

local function draw_grid_mode()
  local size = math.max(1, TILE * lab.cam.zoom * 0.6)
  local snapshot = { explored = function() return lab.closed or {}, lab.open or {} end }
  astar.love.draw_search(lab.grid, snapshot, { size = size, closed = COLOUR.closed,
    open = COLOUR.open })
  if lab.path then
    astar.love.draw_path(lab.path, lab.grid, { color = COLOUR.path, width = 3 / lab.cam.zoom })
  end
  if lab.smoothed then
    astar.love.draw_path(lab.smoothed, lab.grid, { color = COLOUR.smooth, width = 2 / lab.cam.zoom })
  end
end

local function draw_navmesh_mode()
  if lab.mesh then
    astar.love.draw_mesh(lab.mesh, { color = COLOUR.mesh, width = 1 / lab.cam.zoom })
  end
  if lab.mesh_path then
    astar.love.draw_path(lab.mesh_path, { color = COLOUR.path, width = 3 / lab.cam.zoom })
  end
  if lab.radius > 0 then
    local wx, wy = lab.grid:to_world(lab.sx, lab.sy)
    love.graphics.setColor(COLOUR.start)
    love.graphics.circle("line", wx, wy, lab.radius * TILE)
  end
end

local function draw_units_mode()
  for _, u in ipairs(lab.units) do
    love.graphics.setColor(COLOUR.unit)
    love.graphics.circle("fill", u.x, u.y, TILE * 0.35)
  end
end

local function draw_panel(x)
  local g = love.graphics
  g.setColor(0.12, 0.13, 0.16)
  g.rectangle("fill", x, 0, PANEL, g.getHeight())
  ui.begin(x + 10, 8, PANEL - 20)
  ui.label(("astar %s lab: %s %dx%d"):format(astar.version, lab.name, lab.w, lab.h),
    { 1, 1, 1 })
  ui.choices(MODES, lab.mode, function(v) lab.set("mode", v) end)
  if lab.mode == "grid" then
    ui.label("algorithm")
    ui.choices(ALGORITHMS, lab.algorithm, function(v) lab.set("algorithm", v) end, 3)
    if lab.algorithm == "weighted" then
      ui.stepper(("weight %.1f"):format(lab.weight),
        function() lab.set("weight", math.max(1, lab.weight - 0.5)) end,
        function() lab.set("weight", lab.weight + 0.5) end)
    end
    ui.label("heuristic")
    ui.choices(HEURISTICS, lab.heuristic, function(v) lab.set("heuristic", v) end, 3)
    ui.choices({ { "animate", true }, { "instant", false } }, lab.animate,
      function(v) lab.set("animate", v) end)
    ui.stepper(("%d expansions a frame"):format(lab.speed),
      function() lab.set("speed", math.max(1, math.floor(lab.speed / 2))) end,
      function() lab.set("speed", math.min(65536, lab.speed * 2)) end)
    ui.choices({ { "smooth the path", true }, { "cell path", false } }, lab.smooth,
      function(v) lab.set("smooth", v) end)
  end
  ui.label("diagonal steps")
  ui.choices(DIAGONALS, lab.diagonal, function(v) lab.set("diagonal", v) end, 2)
  if lab.mode ~= "units" then
    ui.stepper(("unit radius %.2f cells"):format(lab.radius),
      function() lab.set("radius", math.max(0, lab.radius - 0.25)) end,
      function() lab.set("radius", lab.radius + 0.25) end)
  end
  ui.label("brush (left drag)")
  ui.choices(BRUSHES, lab.brush, function(v) lab.brush = v end, 2)
  ui.label(lab.mode == "navmesh" and (lab.mesh_info or "") or
    lab.mode == "units" and ("%d units walk a distance field to the clicked cell"):format(
      #lab.units) or lab.info, { 1, 0.9, 0.6 })
  ui.label("legend: S start, G goal, red path, blue closed, green open, white smoothed")
  ui.label(HELP, { 0.6, 0.62, 0.68 })
end

function love.draw()
  local g = love.graphics
  refresh_canvas()
  g.clear(COLOUR.back)
  g.setScissor(0, 0, viewport_width(), g.getHeight())
  g.push()
  g.scale(lab.cam.zoom)
  g.translate(-lab.cam.x, -lab.cam.y)
  draw_map()
  if lab.mode == "grid" then draw_grid_mode()
  elseif lab.mode == "navmesh" then draw_navmesh_mode()
  else draw_units_mode() end
  if lab.mode ~= "units" then draw_marker(lab.sx, lab.sy, COLOUR.start, "S") end
  draw_marker(lab.mode == "units" and lab.tx or lab.gx, lab.mode == "units" and lab.ty or lab.gy,
    COLOUR.goal, "G")
  g.pop()
  g.setScissor()
  draw_panel(viewport_width())
  script.draw()
end

-- Input -----------------------------------------------------------------------------------

local function cell_under(sx, sy)
  if sx >= viewport_width() then return nil end
  return lab.grid:to_cell(lab.world(sx, sy))
end

local function press_map(x, y)
  if lab.mode == "units" then lab.retarget(x, y); return end
  if x == lab.sx and y == lab.sy then lab.drag = "start"
  elseif x == lab.gx and y == lab.gy then lab.drag = "goal"
  else lab.drag = "paint"; lab.paint(x, y, lab.brush) end
end

function love.mousepressed(mx, my, button)
  if button == 1 and ui.click(mx, my) then return end
  local x, y = cell_under(mx, my)
  if button == 2 then lab.drag = "pan" elseif x and button == 1 then press_map(x, y) end
end

function love.mousereleased() lab.drag = nil end

function love.mousemoved(mx, my, dx, dy)
  if lab.drag == "pan" then
    lab.cam.x, lab.cam.y = lab.cam.x - dx / lab.cam.zoom, lab.cam.y - dy / lab.cam.zoom
    return
  end
  local x, y = cell_under(mx, my)
  if not x or not lab.drag then return end
  if lab.drag == "paint" then lab.paint(x, y, lab.brush)
  elseif lab.grid:walkable(x, y) then
    if lab.drag == "start" then lab.sx, lab.sy = x, y else lab.gx, lab.gy = x, y end
    lab.research()
  end
end

function love.wheelmoved(_, dy)
  local mx, my = love.mouse.getPosition()
  local wx, wy = lab.world(mx, my)
  lab.cam.zoom = math.max(0.05, math.min(8, lab.cam.zoom * (dy > 0 and 1.25 or 0.8)))
  lab.cam.x, lab.cam.y = wx - mx / lab.cam.zoom, wy - my / lab.cam.zoom   -- zoom about the mouse
end

function love.keypressed(key)
  if key == "space" then lab.set("animate", not lab.animate)
  elseif key == "escape" then love.event.quit(0) end
end

function love.filedropped(file)
  file:open("r")
  local text = file:read()
  file:close()
  local ok, err = pcall(lab.load_file, file:getFilename(), text)
  if not ok then lab.info = "could not load it: " .. tostring(err) end
end
