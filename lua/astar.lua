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

astar.scheduler = scheduler.new
astar.await = scheduler.await
astar.load_scenarios = movingai.load_scenarios
astar.parse_scenarios = movingai.parse_scenarios

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

return astar
