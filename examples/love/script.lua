-- script.lua - the lab's scripted tour (`make love`, headless under Xvfb): paint terrain,
-- watch an A* search grow, switch to the navmesh, send the units; after each step a screenshot
-- is checked pixel by pixel and saved. The checks work out where things must be drawn from the
-- search results and the camera (not from the drawing code): the path's colour at the centre
-- of every cell of the path, the closed set's colour at closed cells, the mesh's colour on
-- polygon edges, each unit's colour where its walker stands. The run exits 1 if any fails.
-- luacheck: globals love
local script = {}

local co, lab, dir
local failures = 0

function script.running() return co ~= nil end

local function wait(frames)
  for _ = 1, frames do coroutine.yield() end
end

-- Is a pixel of 'colour' within r pixels of (x, y)?
local function near(img, x, y, colour, r)
  local w, h = img:getDimensions()
  x, y = math.floor(x), math.floor(y)
  for py = y - r, y + r do
    for px = x - r, x + r do
      if px >= 0 and py >= 0 and px < w and py < h then
        local cr, cg, cb = img:getPixel(px, py)
        if math.abs(cr - colour[1]) < 0.08 and math.abs(cg - colour[2]) < 0.08 and
           math.abs(cb - colour[3]) < 0.08 then
          return true
        end
      end
    end
  end
  return false
end

-- Is the screen point under the start or goal marker (drawn on top of everything)?
local function under_marker(sx, sy)
  local zoom = lab.cam.zoom
  for _, c in ipairs({ { lab.sx, lab.sy }, { lab.gx, lab.gy }, { lab.tx, lab.ty } }) do
    local mx, my = lab.screen(lab.grid:to_world(c[1], c[2]))
    if (sx - mx) ^ 2 + (sy - my) ^ 2 < (16 * 0.6 * zoom + 2) ^ 2 then return true end
  end
  return false
end

-- Checks that at least 'share' of the points (a list of {x, y} on screen, those under a
-- marker left out) show 'colour'.
local function expect(problems, what, img, all, colour, r, share, at_least)
  local hit, pts = 0, {}
  for _, p in ipairs(all) do
    if not under_marker(p[1], p[2]) then pts[#pts + 1] = p end
  end
  for _, p in ipairs(pts) do
    if near(img, p[1], p[2], colour, r) then hit = hit + 1 end
  end
  local ok = #pts >= (at_least or 1) and hit >= share * #pts
  print(("  %s: %d of %d points show its colour%s"):format(what, hit, #pts, ok and "" or " FAILED"))
  if not ok then problems[#problems + 1] = what end
end

local function cell_points(flat, skip)
  local pts = {}
  for i = 1, #flat - 1, 2 do
    local key = flat[i] .. "," .. flat[i + 1]
    if not skip[key] then pts[#pts + 1] = { lab.screen(lab.grid:to_world(flat[i], flat[i + 1])) } end
  end
  return pts
end

local function check_grid(img, problems)
  local C, path = lab.colour, lab.path
  if not path then problems[#problems + 1] = "no path"; return end
  local on, pts = {}, {}
  for i, x, y in path:points() do
    on[x .. "," .. y] = true
    if i > 1 and i < #path then pts[#pts + 1] = { lab.screen(lab.grid:to_world(x, y)) } end
  end
  on[lab.sx .. "," .. lab.sy], on[lab.gx .. "," .. lab.gy] = true, true
  expect(problems, "path", img, pts, C.path, 1, 0.95, 5)
  expect(problems, "closed set", img, cell_points(lab.closed, on), C.closed, 0, 0.9, 10)
  expect(problems, "open set", img, cell_points(lab.open, on), C.open, 0, 0.9, 5)
end

local function check_navmesh(img, problems)
  local C, mesh, pts, edges = lab.colour, lab.mesh, {}, {}
  local path = lab.mesh_path
  if not path then problems[#problems + 1] = "no navmesh path"; return end
  for i = 1, #path - 1 do
    local x0, y0 = path:get(i)
    local x1, y1 = path:get(i + 1)
    for _, t in ipairs({ 0.25, 0.5, 0.75 }) do
      pts[#pts + 1] = { lab.screen(x0 + (x1 - x0) * t, y0 + (y1 - y0) * t) }
    end
  end
  expect(problems, "navmesh path", img, pts, C.path, 1, 0.95, 3)
  for p = 1, math.min(80, #mesh:polygons()) do
    local poly = mesh:polygon(p)
    for i = 1, #poly, 2 do
      local j = i + 2 <= #poly and i + 2 or 1
      local sx, sy = lab.screen((poly[i] + poly[j]) / 2, (poly[i + 1] + poly[j + 1]) / 2)
      if not near(img, sx, sy, C.path, 2) then edges[#edges + 1] = { sx, sy } end
    end
  end
  expect(problems, "polygon edges", img, edges, C.mesh, 1, 0.95, 40)
end

local function check_units(img, problems)
  local pts, moved = {}, 0
  for _, u in ipairs(lab.units) do
    pts[#pts + 1] = { lab.screen(u.x, u.y) }
    if math.abs(u.x - u.x0) + math.abs(u.y - u.y0) > 16 then moved = moved + 1 end
  end
  expect(problems, "units", img, pts, lab.colour.unit, 1, 0.9, 2)
  print(("  units: %d of %d walked more than a tile"):format(moved, #lab.units))
  if moved < #lab.units / 2 then problems[#problems + 1] = "units did not walk" end
end

-- A screenshot at the end of this frame: checked, then saved as <dir>/lab-<name>.png.
local function shot(name, check)
  local done = false
  love.graphics.captureScreenshot(function(img)
    print("lab-" .. name .. ":")
    local problems = {}
    check(img, problems)
    local file = dir .. "/lab-" .. name .. ".png"
    local f = assert(io.open(file, "wb"))
    f:write(img:encode("png"):getString())
    f:close()
    print(("  %s: %s"):format(file, #problems == 0 and "pixels OK" or table.concat(problems, ", ")))
    failures = failures + #problems
    done = true
  end)
  while not done do coroutine.yield() end
end

-- Water on the walkable cells of a band across the map's middle.
local function paint_terrain()
  local x0 = math.floor((lab.sx + lab.gx) / 2) - 2
  for y = 1, lab.h do
    for x = x0, x0 + 4 do
      if lab.grid:walkable(x, y) then lab.paint(x, y, 3) end
    end
  end
end

local function tour()
  lab.set("mode", "grid")
  lab.set("algorithm", "astar")
  lab.set("speed", 4)
  paint_terrain()
  local frames = 0
  repeat wait(1); frames = frames + 1 until not lab.query or frames > 5000
  print(("the search took %d frames: %s"):format(frames, lab.info:gsub("\n", "; ")))
  wait(2)
  shot("grid", check_grid)
  lab.set("mode", "navmesh")
  wait(2)
  shot("navmesh", check_navmesh)
  lab.set("mode", "units")
  wait(150)
  shot("units", check_units)
  print(failures == 0 and "lab: every check passed" or ("lab: %d checks FAILED"):format(failures))
  love.event.quit(failures == 0 and 0 or 1)
end

function script.start(the_lab, out_dir)
  lab, dir = the_lab, out_dir
  co = coroutine.create(tour)
end

function script.update()
  if not co then return end
  local ok, err = coroutine.resume(co)
  if not ok then error(debug.traceback(co, err), 0) end
end

function script.draw() end

return script
