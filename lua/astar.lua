--- Fast, correct-by-default pathfinding for Lua: grids, graphs, navigation meshes and any
-- state space, searched by a C core.
--
-- `local astar = require "astar"` loads the C module `astar.core` and the Lua helpers, and
-- returns this table. Each kind of map has its page, with its constructors and all its
-- methods:
--
-- - @{Grid}: `astar.grid(w, h)`, `astar.grid.parse`, `astar.grid.from_table`,
--   `astar.grid.load_movingai` and `astar.grid.parse_movingai` (@{astar.movingai})
-- - @{Graph}: `astar.graph()`, waypoints and roads
-- - @{NavMesh}: `astar.navmesh{...}`, `astar.navmesh.from_grid`,
--   `astar.navmesh.from_polygons`, any-angle paths
-- - @{Implicit}: `astar.search{...}` and `astar.query{...}`, over a graph that callbacks
--   describe
--
-- What the searches give: @{Path}, @{Query} (time-sliced), @{Field} (distance fields),
-- @{Replanner} (D* Lite). In the game loop: `astar.scheduler{budget = n}` and
-- `astar.await` (@{astar.scheduler}); `astar.load_scenarios` and `astar.parse_scenarios`
-- read Moving AI problems (@{astar.movingai}); `astar.tiled.grid` and `astar.tiled.navmesh`
-- read Tiled maps (@{astar.tiled}).
--
-- Outcomes that are not bugs return `nil, message, code`, so `assert(grid:find(...))`
-- works: `"no_path"`, `"blocked"`, `"limit"`. Programmer errors raise with Lua's
-- standard shape, `bad argument #n to 'f' (...)`.
--
-- `astar.version` is the library's version, `"major.minor.patch"`, and `astar._VERSION`
-- is `"astar "` followed by it.
-- @module astar
local core = require "astar.core"
local movingai = require "astar.movingai"
local scheduler = require "astar.scheduler"
local tiled = require "astar.tiled"

local astar = {
  _VERSION = "astar " .. core.version,
  version = core.version,
}

local Grid = core.Grid

-- Constructors, documented with their types (src/lua/*.c): Grid, Graph, NavMesh.
astar.grid = setmetatable({
  new = core.grid_new,
  parse = core.grid_parse,
  from_table = core.grid_from_table,
  load_movingai = movingai.load_map,
  parse_movingai = movingai.parse_map,
}, {
  __call = function(_, ...) return core.grid_new(...) end,
})

-- astar.hexgrid.parse and .from_table are documented with the hex grid (src/lua/grid_hex.c).
astar.hexgrid = setmetatable({
  new = core.hexgrid_new,
  parse = function(text, legend, opts)
    return core.hexgrid_of(core.grid_parse(text, legend), opts, "parse", 3)
  end,
  from_table = function(rows, f, opts)
    return core.hexgrid_of(core.grid_from_table(rows, f), opts, "from_table", 3)
  end,
}, {
  __call = function(_, ...) return core.hexgrid_new(...) end,
})

astar.graph = core.graph_new

-- astar.navmesh.from_polygons is documented with the NavMesh (src/lua/navmesh.c).
local function from_polygons(outline, holes)
  return core.navmesh_new(require("astar.navmesh").from_polygons(outline, holes))
end

astar.navmesh = setmetatable({
  new = core.navmesh_new,
  from_grid = core.navmesh_from_grid,
  from_polygons = from_polygons,
}, {
  __call = function(_, ...) return core.navmesh_new(...) end,
})
astar.scheduler = scheduler.new
astar.await = scheduler.await
astar.load_scenarios = movingai.load_scenarios
astar.parse_scenarios = movingai.parse_scenarios
astar.curve = core.curve
astar.reservations = core.reservations
astar.search = core.search
astar.query = core.query
astar.batch = core.batch
astar.workers = core.workers
astar.follow = require("astar.follow").new
setmetatable(astar, { __index = function(_, k) if k == "love" then return require "astar.love" end end })
astar.tiled = tiled

local DIGITS = "0123456789"

-- Is (x, y) a cell of a w x h grid? A graph's Path gives node ids, a navmesh's floats.
local function fits(x, y, w, h)
  return type(x) == "number" and type(y) == "number" and x % 1 == 0 and y % 1 == 0 and
    x >= 1 and y >= 1 and x <= w and y <= h
end

local function show_point(x, y)
  local show = scheduler.show
  return y == nil and ("node " .. show(x)) or ("(" .. show(x) .. ", " .. show(y) .. ")")
end

-- Raises find-style errors unless self is a Grid and path (when given, or 'required') a
-- Path whose points all lie on it; 'fname' names the method in the messages.
local function grid_path(self, path, fname, required)
  if getmetatable(self) ~= core.Grid_mt then
    error(("calling '%s' on bad self (astar.Grid expected, got %s)"):format(fname, type(self)), 0)
  end
  if path == nil and not required then return end
  if getmetatable(path) ~= core.Path_mt then
    error(("bad argument #1 to '%s' (astar.Path expected, got %s)"):format(fname, type(path)), 0)
  end
  local w, h = self:size()
  for i, x, y in path:points() do
    if not fits(x, y, w, h) then
      error(("bad argument #1 to '%s' (a grid Path that fits this %dx%d grid expected: "
        .. "point %d is %s)"):format(fname, w, h, i, show_point(x, y)), 0)
    end
  end
end

-- grid:render and grid:splice are documented with the Grid (src/lua/grid.c).
function Grid.render(self, path)
  grid_path(self, path, "render")
  local w, h = self:size()
  local marks = {}
  if path ~= nil then
    local n = #path
    for i, x, y in path:points() do
      marks[(y - 1) * w + x] = (i == 1 and "S") or (i == n and "G") or "*"
    end
  end
  local lines = {}
  for y = 1, h do
    local row = {}
    for x = 1, w do
      local c = marks[(y - 1) * w + x]
      if not c then
        local v = self:get(x, y)
        if v == false then c = "#"
        elseif v == 1 then c = "."
        else
          local d = math.max(0, math.min(9, math.floor(v + 0.5)))
          c = DIGITS:sub(d + 1, d + 1)
        end
      end
      row[x] = c
    end
    lines[y] = table.concat(row)
  end
  return table.concat(lines, "\n")
end

-- splice's arguments after the path, checked: at, n, the ratio, and find's options (a copy
-- without 'ratio' when it was given).
local function splice_args(path, at, n, opts)
  local show, len, ratio = scheduler.show, #path, 3
  at, n = at or 1, n or 8
  if type(at) ~= "number" or at % 1 ~= 0 or at < 1 or at > len then
    error(("bad argument #2 to 'splice' (index out of range: %s not in [1, %d])")
      :format(show(at), len), 0)
  end
  if type(n) ~= "number" or n ~= n or n % 1 ~= 0 or n < 1 then
    error(("bad argument #3 to 'splice' (n must be an integer >= 1, got %s)"):format(show(n)), 0)
  end
  if opts == nil then return at, n, ratio, nil end
  if type(opts) ~= "table" then
    error(("bad argument #4 to 'splice' (table expected, got %s)"):format(type(opts)), 0)
  end
  for _, k in ipairs({ "goals", "within", "partial" }) do
    if opts[k] ~= nil then
      error(("bad argument #4 to 'splice' (option '%s' does not apply to splice)"):format(k), 0)
    end
  end
  core.grid_splice_options(opts, 4)                -- find's rules, splice's messages
  if opts.ratio == nil then return at, n, ratio, opts end
  local copy = {}
  for k, v in pairs(opts) do if k ~= "ratio" then copy[k] = v end end
  return at, n, opts.ratio, copy
end

-- The points of the detour from path's point at, followed by the path's tail from point k on:
-- if the detour meets the tail beyond k, it joins it there (a shortest detour that crosses the
-- tail would otherwise make a loop).
local function joined(self, path, k, detour)
  local w, len = self:size(), #path
  local tail = {}
  for i = len, k, -1 do
    local x, y = path:get(i)
    tail[(y - 1) * w + x] = i
  end
  local points, join = {}, k
  for _, x, y in detour:points() do
    points[#points + 1] = x
    points[#points + 1] = y
    local j = tail[(y - 1) * w + x]
    if j and j >= k then join = j; break end
  end
  for i = join + 1, len do
    local x, y = path:get(i)
    points[#points + 1] = x
    points[#points + 1] = y
  end
  return points
end

function Grid.splice(self, path, at, n, opts)
  grid_path(self, path, "splice", true)
  local ratio
  at, n, ratio, opts = splice_args(path, at, n, opts)
  local len = #path
  local ax, ay = path:get(at)
  local gx, gy = path:get(len)
  local k = math.min(at + n, len)
  while k < len and not self:walkable(path:get(k)) do k = k + 1 end
  local kx, ky = path:get(k)
  local detour = self:find(ax, ay, kx, ky, opts)
  if not detour or #detour - 1 > ratio * (k - at) then
    return self:find(ax, ay, gx, gy, opts)
  end
  local spliced = self:to_path(joined(self, path, k, detour), opts and opts.diagonal,
                               opts and opts.cost)
  if not spliced then return self:find(ax, ay, gx, gy, opts) end
  return spliced
end

local function world_cell(self, wx, wy, arg)
  for i = 0, 1 do
    local v = wy
    if i == 0 then v = wx end
    if type(v) ~= "number" or v ~= v then
      error(("bad argument #%d to 'find_world' (number expected, got %s)"):format(arg + i,
        type(v) == "number" and "nan" or type(v)), 0)
    end
  end
  local x, y = self:to_cell(wx, wy)
  if not x then
    local show = scheduler.show
    error(("bad argument #%d to 'find_world' (the world point (%s, %s) is off the grid)")
      :format(arg, show(wx), show(wy)), 0)
  end
  return x, y
end

function Grid.find_world(self, wx0, wy0, wx1, wy1, opts)
  if getmetatable(self) ~= core.Grid_mt then
    error(("calling 'find_world' on bad self (astar.Grid expected, got %s)"):format(type(self)), 0)
  end
  local x0, y0 = world_cell(self, wx0, wy0, 1)
  local x1, y1 = world_cell(self, wx1, wy1, 3)
  local path, message, code = self:find(x0, y0, x1, y1, opts)
  if not path then return nil, message, code end
  return self:world_points(path), path
end

local COOP_KEYS = { reserve = true, unit = true }

--- Plans a group of units in priority order (Cooperative A\*, or WHCA\* with `window`): unit
-- `i` of the list is unit `i` of the table and searches with @{Grid:find} and
-- `reserve = table, unit = i` after units `1 .. i - 1` have reserved their paths, so the
-- paths found form a collision-free schedule (no two units in a cell at a time, no swap across
-- an edge; each unit then holds its goal). A unit that finds no path reserves nothing and is
-- reported; later units do not know where it stands.
-- @function cooperative
-- @tparam Grid grid the map
-- @tparam table units `{{x0, y0, x1, y1}, ...}`: each unit's start and goal
-- @tparam[opt] table opts the options of @{Grid:find} for every unit (`diagonal`,
-- `start_time`, `wait`, `window`, `claim`, `max_expansions`, ...; not `unit`); `reserve` plans
-- into that table (default: a new one)
-- @treturn table `paths[i]`: unit `i`'s Path, or `false` if it failed
-- @treturn table the failures, in order: `{unit = i, message = ..., code = ...}`
-- @treturn Reservations the table
-- @usage
-- -- a corridor with a passing bay: unit 2 steps into the bay and lets unit 1 by
-- local grid = astar.grid.parse("###.###\n.......", { ["."] = 1, ["#"] = false })
-- local paths, failed = astar.cooperative(grid, { { 1, 2, 7, 2 }, { 5, 2, 1, 2 } })
-- print(#failed, #paths[2], paths[2]:cost())          --> 0 8 7.0
local function cooperative(grid, units, opts)
  if getmetatable(grid) ~= core.Grid_mt then
    error(("bad argument #1 to 'cooperative' (astar.Grid expected, got %s)"):format(type(grid)), 0)
  end
  if type(units) ~= "table" then
    error(("bad argument #2 to 'cooperative' (table expected, got %s)"):format(type(units)), 0)
  end
  if opts ~= nil and type(opts) ~= "table" then
    error(("bad argument #3 to 'cooperative' (table expected, got %s)"):format(type(opts)), 0)
  end
  local o = {}
  for k, v in pairs(opts or {}) do
    if k == "unit" then
      error("bad argument #3 to 'cooperative' (option 'unit': units are numbered by their "
        .. "place in the list)", 0)
    end
    if not COOP_KEYS[k] then o[k] = v end
  end
  local r = opts and opts.reserve or core.reservations()
  o.reserve = r
  local paths, failed = {}, {}
  for i = 1, #units do
    local u = units[i]
    if type(u) ~= "table" then
      error(("bad argument #2 to 'cooperative' (unit %d is not a table {x0, y0, x1, y1})")
        :format(i), 0)
    end
    o.unit = i
    local path, message, code = grid:find(u[1], u[2], u[3], u[4], o)
    if path and code ~= "partial" then
      paths[i] = path
    else
      paths[i] = false
      failed[#failed + 1] = { unit = i, message = message, code = code }
    end
  end
  return paths, failed, r
end
astar.cooperative = cooperative

return astar
