--- Fast, correct-by-default pathfinding: grids, A*-family search, a C core.
-- `require "astar"` loads the C module `astar.core` and adds the Lua-only
-- helpers: the `astar.grid` constructor table, Moving AI loaders and
-- `grid:render`.
-- @module astar
local core = require "astar.core"
local movingai = require "astar.movingai"
local scheduler = require "astar.scheduler"

local astar = {
  _VERSION = "astar " .. core.version,
  version = core.version,
}

local Grid = core.Grid

--- Grids.
-- `astar.grid(w, h [, cost])` makes a new grid; the other constructors are
-- fields of this table.
-- @section grid

--- A new `w` x `h` grid whose cells all cost `cost`.
-- @function grid
-- @int w width (columns), >= 1
-- @int h height (rows), >= 1
-- @tparam[opt=1] number|boolean cost a cost > 0, or `false` for blocked
-- @treturn Grid

--- A grid from text, one line per row.
-- @function grid.parse
-- @string text the map; `\r\n` and a final newline are accepted
-- @tparam table legend maps each character to a cost or `false`
-- @treturn Grid

--- A grid from a table of rows, `rows[y][x]`.
-- @function grid.from_table
-- @tparam table rows
-- @param[opt] f a function `f(value, x, y) -> cost|false`, or the walkable value
-- @treturn Grid

astar.grid = setmetatable({
  new = core.grid_new,
  parse = core.grid_parse,
  from_table = core.grid_from_table,
  load_movingai = movingai.load_map,
  parse_movingai = movingai.parse_map,
}, {
  __call = function(_, ...) return core.grid_new(...) end,
})

astar.graph = core.graph_new

--- Navigation meshes.
-- `astar.navmesh{vertices = {x1, y1, ...}, polygons = {{1, 2, 3}, ...}}` makes a
-- mesh of convex polygons; the builders below make one from a grid or from an
-- outline with holes.
-- @section navmesh

--- A mesh of a grid's walkable cells (see `NavMesh`).
-- @function navmesh.from_grid
-- @tparam Grid grid
-- @tparam[opt] table opts `tile`: the size of a cell (default 1)
-- @treturn NavMesh

--- A mesh of the area inside `outline` and outside every hole: ear clipping
-- with holes bridged to the outline, then triangles merged into convex
-- polygons (Hertel-Mehlhorn).
-- @function navmesh.from_polygons
-- @tparam table outline `{x1, y1, x2, y2, ...}`, either orientation
-- @tparam[opt] table holes a list of such lists
-- @treturn NavMesh
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
astar.search = core.search
astar.query = core.query

local DIGITS = "0123456789"

--- The grid as text, one line per row.
-- `#` blocked, `.` cost 1, a digit for other costs (rounded, 9 at most),
-- `*` cells of `path`, `S` and `G` its ends.
-- @function Grid:render
-- @tparam[opt] Path path a path to draw
-- @treturn string
function Grid.render(self, path)
  if getmetatable(self) ~= core.Grid_mt then
    error(("calling 'render' on bad self (astar.Grid expected, got %s)"):format(type(self)), 0)
  end
  if path ~= nil and getmetatable(path) ~= core.Path_mt then
    error(("bad argument #1 to 'render' (astar.Path expected, got %s)"):format(type(path)), 0)
  end
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

--- Path splicing: after the map changed, re-plans only the next `n` steps
-- of a stored path and keeps the rest of it. The agent stands on point `at`;
-- a detour goes from there to the first walkable point at least `n` steps
-- further, and the old path's tail follows. Falls back to a full re-plan
-- (a plain `find` to the path's goal) when no detour exists, when the detour
-- is more than `ratio` times longer than the steps it replaces, or when the
-- kept tail is itself no longer walkable.
-- @function Grid:splice
-- @tparam Path path a path found on this grid
-- @int[opt=1] at the index of the agent's point
-- @int[opt=8] n how many steps to re-plan
-- @tparam[opt] table opts options of `find`, plus `ratio` (default 3)
-- @return a Path (its `stats().algorithm` is "to_path" when spliced), or nil, message, code
function Grid.splice(self, path, at, n, opts)
  if getmetatable(self) ~= core.Grid_mt then
    error(("calling 'splice' on bad self (astar.Grid expected, got %s)"):format(type(self)), 0)
  end
  if getmetatable(path) ~= core.Path_mt then
    error(("bad argument #1 to 'splice' (astar.Path expected, got %s)"):format(type(path)), 0)
  end
  local len = #path
  at, n = at or 1, n or 8
  local show = scheduler.show
  if type(at) ~= "number" or at % 1 ~= 0 or at < 1 or at > len then
    error(("bad argument #2 to 'splice' (index out of range: %s not in [1, %d])")
      :format(show(at), len), 0)
  end
  if type(n) ~= "number" or n ~= n or n % 1 ~= 0 or n < 1 then
    error(("bad argument #3 to 'splice' (n must be an integer >= 1, got %s)"):format(show(n)), 0)
  end
  local ratio = 3
  if opts ~= nil then
    if type(opts) ~= "table" then
      error(("bad argument #4 to 'splice' (table expected, got %s)"):format(type(opts)), 0)
    end
    for _, k in ipairs({ "goals", "within", "partial" }) do
      if opts[k] ~= nil then
        error(("bad argument #4 to 'splice' (option '%s' does not apply to splice)"):format(k), 0)
      end
    end
    core.grid_splice_options(opts, 4)              -- find's rules, splice's messages
    if opts.ratio ~= nil then
      ratio = opts.ratio
      local copy = {}
      for k, v in pairs(opts) do if k ~= "ratio" then copy[k] = v end end
      opts = copy
    end
  end
  local ax, ay = path:get(at)
  local gx, gy = path:get(len)
  local k = math.min(at + n, len)
  while k < len and not self:walkable(path:get(k)) do k = k + 1 end
  local kx, ky = path:get(k)
  local detour = self:find(ax, ay, kx, ky, opts)
  if not detour or #detour - 1 > ratio * (k - at) then
    return self:find(ax, ay, gx, gy, opts)
  end
  -- the kept tail, by cell: if the detour meets it beyond k, join it there
  -- (a shortest detour that crosses the tail would otherwise make a loop)
  local w = self:size()
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
  local spliced = self:to_path(points, opts and opts.diagonal, opts and opts.cost)
  if not spliced then return self:find(ax, ay, gx, gy, opts) end
  return spliced
end

--- Graphs.
-- @section graph

--- A new empty graph.
-- @function graph
-- @tparam[opt] table opts `directed` (boolean, default false)
-- @treturn Graph

--- Implicit graphs.
-- @section search

--- Searches a graph that callbacks describe: any state space whose nodes are Lua values.
-- Nodes are numbered in the order the search meets them; values with the same key
-- (`opts.key(node)`, or the node itself) are the same node, and the first one met stands
-- for it. Callback errors propagate unchanged; callbacks may not yield, and may call
-- `astar.search` again.
-- @function search
-- @tparam table opts the search:
--
-- - `start` (required): the first node, any value but `nil` or NaN
-- - `neighbors(node, emit)` (required): calls `emit(next, cost)` once for each successor of
--   `node`, `cost` a finite number > 0; `emit` works only during that call
-- - `goal`, `goals` (a list) or `is_goal(node)`: where to go; `goal` may come with
--   `is_goal`, which then decides, and `goal` is only passed to the heuristic
-- - `heuristic(node, goal)`: an estimate >= 0 of the cost left (the least over `goals`)
-- - `key(node)`: a number or a string naming the node (table nodes built afresh)
-- - `algorithm`, `weight`, `max_expansions`, `max_cost`, `partial`, `within`: as for
--   `Grid:find`; `within` needs `heuristic` and `goal` or `goals`
-- @treturn[1] Path its points are the node values; `stats().goal` is the index of the goal
--   reached when `goals` was given
-- @return[2] nil
-- @treturn[2] string a message
-- @treturn[2] string `"no_path"` or `"limit"` (or, with `partial`, a Path, a message
--   and `"partial"`)
-- @usage local path = astar.search {
--   start = 1, goal = 100,
--   neighbors = function(n, emit) emit(n + 1, 1); emit(n * 2, 1) end,
-- }
-- print(table.concat(path:table(), " "))   --> 1 2 3 6 12 24 25 50 100

--- A time-sliced `search`: the same options (there is no map to edit, so no `on_change`), and
-- nothing is searched until `q:step(n)`; see `Query`. Stepped to its end, the query gives what
-- `search` would have given. Each query owns its search context, freed when it ends, is
-- cancelled or is collected. A callback of a query may search or step other queries, not its own.
-- @function query
-- @tparam table opts the options of `search`
-- @treturn Query
-- @usage local q = astar.query { start = 1, goal = 100, neighbors = neighbors }
-- repeat local status = q:step(50) until status ~= "running"   -- one step a frame
-- local path, message, code = q:result()

return astar
