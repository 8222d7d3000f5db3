--- Debug drawing for LÖVE: grids, paths, navigation meshes and searches under way.
--
-- `astar.love` is this module, loaded the first time it is used. Requiring it needs nothing;
-- each function draws with the global `love.graphics` (LÖVE 11) and without it raises
-- `astar.love.draw_grid: love.graphics not found (draw from a LÖVE game)` (its own name).
-- Each restores the colour, line width and point size it changed, and draws with few calls:
-- one `setColor` per colour, one `line` per path, one `points` per set of cells.
--
-- Grid cells are drawn in the grid's world frame (@{Grid:set_world|set_world}): cell `(x, y)`
-- covers `ox + (x-1)*tw, oy + (y-1)*th` to `ox + x*tw, oy + y*th`, its centre is
-- @{Grid:to_world|grid:to_world(x, y)}; by default `[x-1, x] x [y-1, y]`. An `opts.tile = t`
-- draws square cells of size `t` from `(0, 0)` instead, as `astar.navmesh.from_grid`'s `tile`.
-- @module astar.love
local show = require("astar.scheduler").show

local M = {}

local unpack = table.unpack or unpack -- luacheck: ignore

local WALL = { 0.12, 0.12, 0.15 }
-- cheapest to dearest walkable cells
local RAMP = { { 0.85, 0.85, 0.8 }, { 0.75, 0.8, 0.45 }, { 0.85, 0.65, 0.3 }, { 0.8, 0.4, 0.25 },
  { 0.6, 0.2, 0.2 } }

-- love.graphics, or an error that names the function called.
local function graphics(fname)
  local love = rawget(_G, "love")
  local g = type(love) == "table" and love.graphics
  if type(g) ~= "table" then
    error(("astar.love.%s: love.graphics not found (draw from a LÖVE game)"):format(fname), 0)
  end
  return g
end

-- Runs f(g) with the colour, line width and point size restored afterwards.
local function drawing(g, f)
  local r, gr, b, a = g.getColor()
  local lw, ps = g.getLineWidth(), g.getPointSize()
  f(g)
  g.setColor(r, gr, b, a)
  g.setLineWidth(lw)
  g.setPointSize(ps)
end

local function check_opts(fname, argn, opts)
  if opts == nil then return {} end
  if type(opts) ~= "table" then
    error(("bad argument #%d to '%s' (table expected, got %s)"):format(argn, fname, type(opts)), 0)
  end
  local t = opts.tile
  if t ~= nil and not (type(t) == "number" and t > 0 and t < math.huge) then
    error(("bad argument #%d to '%s' (option 'tile': must be a positive finite number, got %s)")
      :format(argn, fname, show(t)), 0)
  end
  return opts
end

-- The grid's world frame: tile width and height, and the world point of its top-left corner;
-- with opts.tile, square cells of that size from (0, 0) (as navmesh.from_grid's option).
local function frame(grid, opts)
  if opts.tile then return opts.tile, opts.tile, 0, 0 end
  return grid:world()
end

-- The world points of a flat list of cells (their centres).
local function centres(cells, grid, opts)
  local tw, th, ox, oy = frame(grid, opts)
  local out = {}
  for i = 1, #cells - 1, 2 do
    out[i] = ox + (cells[i] - 0.5) * tw
    out[i + 1] = oy + (cells[i + 1] - 0.5) * th
  end
  return out
end

-- Cost -> colour: the ramp spread from the cheapest cost to the dearest.
local function colour_of(cost, lo, hi, ramp)
  if hi <= lo then return ramp[1] end
  local k = math.floor((cost - lo) / (hi - lo) * (#ramp - 1) + 0.5)
  return ramp[k + 1]
end

--- Draws every cell of a grid as a filled rectangle: blocked cells dark, walkable ones on a
-- ramp from the cheapest cost (light) to the dearest (red). One `setColor` per colour.
-- @param grid a @{Grid}
-- @tparam[opt] table opts the options:
-- @number[opt] opts.tile square cells of this size from `(0, 0)` instead of the grid's frame
-- @tparam[opt] table opts.colors `{wall = {r, g, b [, a]}, ramp = {colour, ...}}`, either
-- or both (the ramp: any number of colours, cheapest first)
function M.draw_grid(grid, opts)
  local g = graphics("draw_grid")
  opts = check_opts("draw_grid", 2, opts)
  local colors = opts.colors or {}
  local wall, ramp = colors.wall or WALL, colors.ramp or RAMP
  local w, h = grid:size()
  local costs, lo, hi = {}, math.huge, -math.huge
  for i = 1, w * h do
    local c = grid:get((i - 1) % w + 1, math.floor((i - 1) / w) + 1)
    costs[i] = c
    if c then lo, hi = math.min(lo, c), math.max(hi, c) end
  end
  -- cells by colour: {colour = {x1, y1, ...}}, colours in the order first met
  local groups, order = {}, {}
  for i = 1, w * h do
    local c = costs[i]
    local col = c and colour_of(c, lo, hi, ramp) or wall
    local cells = groups[col]
    if not cells then
      cells = {}
      groups[col], order[#order + 1] = cells, col
    end
    cells[#cells + 1], cells[#cells + 2] = (i - 1) % w + 1, math.floor((i - 1) / w) + 1
  end
  local tw, th, ox, oy = frame(grid, opts)
  drawing(g, function()
    for _, col in ipairs(order) do
      local cells = groups[col]
      g.setColor(unpack(col))
      for i = 1, #cells, 2 do
        g.rectangle("fill", ox + (cells[i] - 1) * tw, oy + (cells[i + 1] - 1) * th, tw, th)
      end
    end
  end)
end

-- The points of a Path or flat list, as a flat list.
local function flat_points(route)
  if type(route) == "table" and getmetatable(route) == nil then return route end
  if type(route) == "userdata" or type(route) == "table" then return route:flat() end
  error(("bad argument #1 to 'draw_path' (Path or flat list of points expected, got %s)")
    :format(type(route)), 0)
end

--- Draws a path as one line (a single point as a point). With a grid, the points are cells,
-- drawn at their centres in the grid's world frame, as @{Grid:world_points|world_points} gives
-- them (grid paths, and their smoothed and Theta\* paths); without, as they are (navmesh
-- paths, world points).
-- @param path a @{Path} or a flat list `{x1, y1, x2, y2, ...}`
-- @param[opt] grid the @{Grid} the path's cells are on
-- @tparam[opt] table opts the options:
-- @number[opt] opts.tile with a grid, square cells of this size from `(0, 0)` instead of the
-- grid's frame
-- @tparam[opt={1, 0.8, 0.1}] table opts.color `{r, g, b [, a]}`
-- @number[opt=2] opts.width the line's width
function M.draw_path(path, grid, opts)
  if opts == nil and type(grid) == "table" and getmetatable(grid) == nil then
    grid, opts = nil, grid
  end
  local g = graphics("draw_path")
  opts = check_opts("draw_path", 3, opts)
  local pts = flat_points(path)
  if grid ~= nil then pts = centres(pts, grid, opts) end
  drawing(g, function()
    g.setColor(unpack(opts.color or { 1, 0.8, 0.1 }))
    g.setLineWidth(opts.width or 2)
    g.setPointSize(opts.width or 2)
    if #pts >= 4 then g.line(pts) elseif #pts == 2 then g.points(pts) end
  end)
end

--- Outlines every polygon of a navigation mesh, and fills them first if asked.
-- @param mesh a @{NavMesh}
-- @tparam[opt] table opts the options:
-- @tparam[opt={0.3, 0.7, 1}] table opts.color the outlines' colour `{r, g, b [, a]}`
-- @tparam[opt] table opts.fill a colour to fill the polygons with (default: no fill)
-- @number[opt=1] opts.width the outlines' width
function M.draw_mesh(mesh, opts)
  local g = graphics("draw_mesh")
  opts = check_opts("draw_mesh", 2, opts)
  local polys = {}
  for p = 1, #mesh:polygons() do polys[p] = mesh:polygon(p) end
  drawing(g, function()
    if opts.fill then
      g.setColor(unpack(opts.fill))
      for _, poly in ipairs(polys) do g.polygon("fill", poly) end
    end
    g.setColor(unpack(opts.color or { 0.3, 0.7, 1 }))
    g.setLineWidth(opts.width or 1)
    for _, poly in ipairs(polys) do g.polygon("line", poly) end
  end)
end

--- Draws what a time-sliced grid search has seen so far (`query:explored()`): its closed
-- cells and its open ones, each a square point at the cell's centre. Two `points` calls.
-- @param grid the @{Grid} the query searches
-- @param query a @{Query} of that grid
-- @tparam[opt] table opts the options:
-- @number[opt] opts.tile square cells of this size from `(0, 0)` instead of the grid's frame
-- @number[opt] opts.size the squares' size in pixels (default: half a tile's width, at least 1)
-- @tparam[opt={0.3, 0.4, 0.9, 0.6}] table opts.closed the closed cells' colour
-- @tparam[opt={0.2, 0.9, 0.3, 0.8}] table opts.open the open cells' colour
function M.draw_search(grid, query, opts)
  local g = graphics("draw_search")
  opts = check_opts("draw_search", 3, opts)
  local closed, open = query:explored()
  closed, open = centres(closed, grid, opts), centres(open, grid, opts)
  local tw = frame(grid, opts)
  drawing(g, function()
    g.setPointSize(opts.size or math.max(1, tw / 2))
    g.setColor(unpack(opts.closed or { 0.3, 0.4, 0.9, 0.6 }))
    if #closed > 0 then g.points(closed) end
    g.setColor(unpack(opts.open or { 0.2, 0.9, 0.3, 0.8 }))
    if #open > 0 then g.points(open) end
  end)
end

return M
