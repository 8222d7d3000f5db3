--- Jumper's API on astar: a shim for games written against Jumper 1.8
-- (Yonaba/Jumper, the pure-Lua grid pathfinder), so that switching is a change
-- of `require` lines:
--
--     local jumper = require "astar.compat.jumper"
--     local Grid, Pathfinder = jumper.grid, jumper.pathfinder
--     -- or, once at startup, keep every `require "jumper.grid"` as it is:
--     require("astar.compat.jumper").install()
--
-- `Grid(map)`, `Pathfinder(grid, finder, walkable)`, `finder:getPath(...)`, the
-- path object (`nodes`, `getLength`, `fill`, `filter`, ...), node objects,
-- heuristics, modes, tunnelling and clearance behave as Jumper documents them.
-- The search runs in astar's C core on a copy of the map: one `astar.Grid` per
-- walkable value (or function) used on a grid.
--
-- **How Jumper's rules map to astar's** (see doc/migrating-from-jumper.md):
--
-- - Coordinates are Jumper's: `map[y][x]`, x the column; maps indexed from 0
--   work, as in Jumper (`getBounds`).
-- - `DIAGONAL` mode: Jumper refuses a diagonal step only when both cells
--   beside it are unwalkable, so paths cut single corners: astar's
--   `"one_obstacle"`. With `setTunnelling(true)`: `"always"`. `JPS` ignores
--   tunnelling, as Jumper documents (`"one_obstacle"`; Jumper's code still lets
--   the first step from the start tunnel). `ORTHOGONAL`: `"never"`.
--   (astar's own default is `"no_corner_cutting"`.) Steps cost 1 and sqrt(2),
--   as Jumper's (no terrain costs).
-- - Finders: `ASTAR` runs astar's `A*` with the pathfinder's heuristic; when that
--   heuristic never overestimates in the mode (any built-in one in `ORTHOGONAL`;
--   `EUCLIDIAN`, `DIAGONAL`, `CARDINTCARD` in `DIAGONAL`) it runs astar's
--   default `"auto"` search instead, which returns a path of the same (shortest)
--   length, by jump point search when it can. `DIJKSTRA`: `"auto"` (shortest).
--   `BFS`: the fewest steps, as Jumper's, and of those the shortest path (`A*`
--   with a Lua cost function in `DIAGONAL` mode: slower than the others;
--   astar's own `"bfs"` would take any, zig-zags included). `JPS`: `"jps"`;
--   its path lists the turning points only, as Jumper's lists jump points:
--   call `path:fill()` for every cell.
--   **`DFS` runs as `BFS`**: a path with the fewest steps, not the
--   meandering path of a depth-first walk. **`THETASTAR` is `A*` followed by
--   line-of-sight smoothing** (a Bresenham line through walkable cells, as
--   Jumper's `Theta*` tests it), not `Theta*` itself: an any-angle path through the
--   same corridor, whose length can differ a little from Jumper's either way
--   (in `ORTHOGONAL` mode the smoothed path is an 8-connected one that cuts
--   no corner, once a 4-connected path is known to exist).
-- - Differences that change results:
--   1. astar's searches are exact. With `MANHATTAN`, Jumper's default heuristic,
--      in `DIAGONAL` mode the heuristic overestimates, so both Jumper and this
--      shim can return paths longer than the shortest, and not of the same
--      length. With a heuristic that never overestimates, `ASTAR`, `DIJKSTRA`
--      and `JPS` here always return a shortest path (Jumper's `A*` occasionally
--      does not: it lowers keys inside its heap without re-sifting).
--      `setHeuristic('CARDINTCARD')` (octile distance) gives shortest paths.
--   2. Among equally short paths the cells chosen can differ from Jumper's;
--      `BFS` paths have Jumper's number of steps and are sometimes shorter.
--   3. A blocked goal gives `nil` at once (Jumper floods what it can reach first:
--      the same answer). A blocked start is allowed, as in Jumper.
--   4. A heuristic function must return a finite number >= 0: astar raises
--      `heuristic callback returned ...` otherwise.
--   5. Jumper's JPS often lists extra jump points along straight runs; this
--      shim lists turning points only. After `fill()` both list every cell.
-- - Map edits: Jumper reads your map table during every search. This shim
--   copies it, so by default **every `getPath` compares the whole map with its
--   copy** and applies the cells that changed: O(width x height) table reads
--   per search (measured: 0.25 ms for 100x100 cells on Lua 5.4, 0.02 ms on
--   LuaJIT; 6 ms and 0.4 ms for 512x512), often more than the search itself.
--   For a map that never changes, or whose edits you report, call
--   `grid:setAutoRefresh(false)` and then `grid:refresh(x, y)` after changing
--   a cell (or `grid:refresh()` after many).
--   A walkable function is called again only for cells whose value changed;
--   if its answer for a value changes (it reads other state), call
--   `grid:refresh()`.
-- - Smaller differences: walkable strings are compared with `==` (as in
--   Jumper; they are not patterns); nodes are made when first asked for
--   (`getNodes()` makes them all); `iter` clamps its rectangle to the grid;
--   `imap` calls its function like `each` (Jumper's code never replaced the
--   nodes its docs say it replaces); `isWalkableAt` with a function works
--   without a pathfinder; `isEqualTo` also compares lengths; `fill`/`filter` on
--   one-node paths do nothing (Jumper raises).
--
-- Extensions (not in Jumper): `Grid:refresh`, `Grid:setAutoRefresh`,
-- `Grid:getAutoRefresh`, `Grid:toAstar` (the synced `astar.Grid`), and
-- `Pathfinder:getAstarOptions` (the `grid:find` options the shim uses).
-- @module astar.compat.jumper
local astar = require "astar"

local M = {}

local abs, floor, sqrt, max, min = math.abs, math.floor, math.sqrt, math.max, math.min
local huge = math.huge
local SQRT2 = sqrt(2)
local type, pairs, setmetatable, getmetatable = type, pairs, setmetatable, getmetatable

local function fail(fname, argn, msg)
  error(("bad argument #%d to '%s' (%s)"):format(argn, fname, msg), 0)
end

local function isint(v)
  return type(v) == "number" and v == floor(v) and v > -huge and v < huge
end

local function show(v)
  if type(v) == "string" then return ("'%s'"):format(v) end
  if type(v) == "number" then return ("%.14g"):format(v) end
  return type(v)
end

--- Makes `require "jumper.grid"`, `"jumper.pathfinder"`, `"jumper.core.path"`,
-- `"jumper.core.node"` and `"jumper.core.heuristics"` return this shim's
-- classes (it sets `package.loaded`), so a game's own `require` lines can
-- stay. Call it before the game requires them.
-- @treturn table the module
function M.install()
  package.loaded["jumper.grid"] = M.grid
  package.loaded["jumper.pathfinder"] = M.pathfinder
  package.loaded["jumper.core.path"] = M.path
  package.loaded["jumper.core.node"] = M.node
  package.loaded["jumper.core.heuristics"] = M.heuristics
  return M
end

-- Heuristics --------------------------------------------------------------------------------------

--- Jumper's distance heuristics (`jumper.core.heuristics`): functions of two
-- nodes. `Pathfinder:setHeuristic` takes their names or any such function;
-- the built-in ones run inside astar's C core.
-- @table heuristics
-- @field MANHATTAN `|dx| + |dy|` (Jumper's default; overestimates with diagonals)
-- @field EUCLIDIAN `sqrt(dx^2 + dy^2)`
-- @field DIAGONAL `max(|dx|, |dy|)`
-- @field CARDINTCARD `min(|dx|, |dy|) * sqrt(2) + max - min` (octile distance)
local Heuristics = {}
Heuristics.MANHATTAN = function(a, b) return abs(a._x - b._x) + abs(a._y - b._y) end
Heuristics.EUCLIDIAN = function(a, b)
  local dx, dy = a._x - b._x, a._y - b._y
  return sqrt(dx * dx + dy * dy)
end
Heuristics.DIAGONAL = function(a, b) return max(abs(a._x - b._x), abs(a._y - b._y)) end
Heuristics.CARDINTCARD = function(a, b)
  local dx, dy = abs(a._x - b._x), abs(a._y - b._y)
  return min(dx, dy) * SQRT2 + max(dx, dy) - min(dx, dy)
end

local HEURISTIC_NAMES = { "MANHATTAN", "EUCLIDIAN", "DIAGONAL", "CARDINTCARD" }
local ASTAR_HEURISTIC = { MANHATTAN = "manhattan", EUCLIDIAN = "euclidean",
                          DIAGONAL = "chebyshev", CARDINTCARD = "octile" }
local NAME_OF = {}
for _, name in ipairs(HEURISTIC_NAMES) do NAME_OF[Heuristics[name]] = name end

-- Node --------------------------------------------------------------------------------------------

--- A cell of the map, as Jumper's `node` (`jumper.core.node`). The grid makes
-- one per cell, when first asked for, and always returns the same one; path
-- nodes are the grid's nodes. Fields `_x`, `_y` are the coordinates.
-- @type Node
local Node = {}
Node.__index = Node

local function newnode(x, y)
  return setmetatable({ _x = x, _y = y, _clearance = {} }, Node)
end

--- A new node (not one of a grid's). `Node(x, y)` is the same.
-- @int x
-- @int y
-- @treturn Node
function Node:new(x, y) return newnode(x, y) end -- luacheck: ignore self

--- The x coordinate (column).
-- @treturn int
function Node:getX() return self._x end

--- The y coordinate (row).
-- @treturn int
function Node:getY() return self._y end

--- Both coordinates.
-- @treturn int x
-- @treturn int y
function Node:getPos() return self._x, self._y end

--- The clearance `Pathfinder:annotateGrid` computed for `walkable`: the side
-- of the largest walkable square whose top-left cell is this one.
-- @param walkable the walkable value or function it was computed for
-- @treturn int|nil
function Node:getClearance(walkable) return self._clearance[walkable] end

--- Forgets this node's clearance for `walkable`.
-- @param walkable
-- @treturn Node self
function Node:removeClearance(walkable)
  self._clearance[walkable] = nil
  return self
end

--- Does nothing (Jumper clears search data here; astar keeps none in nodes).
-- @treturn Node self
function Node:reset() return self end

setmetatable(Node, { __call = function(_, x, y) return newnode(x, y) end })

-- Path --------------------------------------------------------------------------------------------

--- A path, as Jumper's (`jumper.core.path`): the list of nodes `_nodes`, from
-- the start to the goal, and the grid `_grid` they belong to.
-- @type Path
local Path = {}
Path.__index = Path

local function newpath(grid)
  return setmetatable({ _nodes = {}, _grid = grid }, Path)
end

--- A new empty path. `Path()` is the same.
-- @treturn Path
function Path:new() return newpath(nil) end -- luacheck: ignore self

--- Iterates over the nodes: `for node, count in path:iter() do`. Also
-- `path:nodes()`.
-- @treturn function
function Path:iter()
  local nodes, i = self._nodes, 0
  return function()
    i = i + 1
    local n = nodes[i]
    if n ~= nil then return n, i end
  end
end
Path.nodes = Path.iter

--- The length: the sum of the straight-line distances between consecutive
-- nodes (1 for a straight step, sqrt(2) for a diagonal one).
-- @treturn number
function Path:getLength()
  local nodes, len = self._nodes, 0
  for i = 2, #nodes do
    local dx, dy = nodes[i]._x - nodes[i - 1]._x, nodes[i]._y - nodes[i - 1]._y
    len = len + sqrt(dx * dx + dy * dy)
  end
  return len
end

--- Inserts a node at `index` (default: at the end).
-- @tparam Node node
-- @int[opt] index
-- @treturn Path self
function Path:addNode(node, index)
  local nodes = self._nodes
  table.insert(nodes, index or #nodes + 1, node)
  return self
end

local function sign(v) return v > 0 and 1 or (v < 0 and -1 or 0) end

--- Puts back the cells between nodes that are not neighbours (a `JPS` or
-- `THETASTAR` path): from each node it steps toward the next one, diagonally
-- while both coordinates differ, then straight. Makes every step one cell.
-- @treturn Path self
function Path:fill()
  local nodes, grid = self._nodes, self._grid
  if #nodes < 2 then return self end
  local out = { nodes[1] }
  for i = 2, #nodes do
    local x, y = nodes[i - 1]._x, nodes[i - 1]._y
    local tx, ty = nodes[i]._x, nodes[i]._y
    while abs(tx - x) > 1 or abs(ty - y) > 1 do
      x, y = x + sign(tx - x), y + sign(ty - y)
      out[#out + 1] = grid and grid:getNodeAt(x, y) or newnode(x, y)
    end
    out[#out + 1] = nodes[i]
  end
  self._nodes = out
  return self
end

--- Removes the nodes in the middle of straight runs: a node stays when the
-- step into it and the step out of it differ. The opposite of `fill`.
-- @treturn Path self
function Path:filter()
  local nodes = self._nodes
  local n = #nodes
  if n < 3 then return self end
  local out = { nodes[1] }
  for i = 2, n - 1 do
    local a, b, c = nodes[i - 1], nodes[i], nodes[i + 1]
    if b._x - a._x ~= c._x - b._x or b._y - a._y ~= c._y - b._y then out[#out + 1] = b end
  end
  out[#out + 1] = nodes[n]
  self._nodes = out
  return self
end

--- A copy of the path (the same node objects, a new list).
-- @treturn Path
function Path:clone()
  local p = newpath(self._grid)
  for i, n in ipairs(self._nodes) do p._nodes[i] = n end
  return p
end

--- Whether two paths visit the same cells in the same order once straight
-- runs are filtered (so a `JPS` path equals its filled form).
-- @tparam Path other
-- @treturn boolean
function Path:isEqualTo(other)
  local a, b = self:clone():filter()._nodes, other:clone():filter()._nodes
  if #a ~= #b then return false end
  for i = 1, #a do
    if a[i]._x ~= b[i]._x or a[i]._y ~= b[i]._y then return false end
  end
  return true
end

--- Reverses the path in place.
-- @treturn Path self
function Path:reverse()
  local nodes, out = self._nodes, {}
  for i = #nodes, 1, -1 do out[#out + 1] = nodes[i] end
  self._nodes = out
  return self
end

--- Appends the nodes of another path.
-- @tparam Path other
-- @treturn Path self
function Path:append(other)
  for n in other:nodes() do self:addNode(n) end
  return self
end

setmetatable(Path, { __call = function() return newpath(nil) end })

-- Grid --------------------------------------------------------------------------------------------

--- A grid over a collision map, as Jumper's `Grid(map [, cacheNodeData])`
-- (`jumper.grid`).
-- @type Grid
local Grid = {}
Grid.__index = Grid

local ABSENT = {} -- a cell whose map value is nil (a removed row or cell)
local NOWALK = {} -- the view key of walkable == nil (every cell walkable)

-- Keys of `t` are exactly lo..hi with lo 0 or 1: returns lo, hi (nil otherwise).
local function seqrange(t)
  local n = 0
  for _ in pairs(t) do n = n + 1 end
  if n == 0 then return nil end
  local lo = t[0] ~= nil and 0 or 1
  local hi = lo + n - 1
  for i = lo, hi do
    if t[i] == nil then return nil end
  end
  return lo, hi
end

local function parsemap(text)
  local map, w = {}, nil
  for line in text:gmatch("[^\n\r]+") do
    if w == nil then w = #line end
    if #line ~= w then
      fail("Grid", 1, ("not a valid map: line %d has %d characters, expected %d")
        :format(#map + 1, #line, w))
    end
    local row = {}
    for i = 1, #line do row[i] = line:sub(i, i) end
    map[#map + 1] = row
  end
  if #map == 0 then fail("Grid", 1, "not a valid map: no rows") end
  return map
end

-- Checks a map table the way Jumper does; returns its bounds.
local function checkmap(map)
  local y0, y1 = seqrange(map)
  if y0 == nil then
    fail("Grid", 1, "not a valid map: rows must be indexed 1..n (or 0..n-1) without holes")
  end
  local x0, x1
  for y = y0, y1 do
    local row = map[y]
    if type(row) ~= "table" then
      fail("Grid", 1, ("not a valid map: row %d is a %s, expected a table"):format(y, type(row)))
    end
    local a, b = seqrange(row)
    if a == nil then
      fail("Grid", 1, ("not a valid map: row %d must be indexed 1..n (or 0..n-1) without holes")
        :format(y))
    end
    if x0 == nil then
      x0, x1 = a, b
    elseif a ~= x0 or b ~= x1 then
      fail("Grid", 1, ("not a valid map: row %d has cells %d..%d, expected %d..%d")
        :format(y, a, b, x0, x1))
    end
    for x = a, b do
      local v = row[x]
      if type(v) ~= "string" and not isint(v) then
        fail("Grid", 1, ("not a valid map: cell (%d, %d) is %s, expected a string or an integer")
          :format(x, y, show(v)))
      end
    end
  end
  return x0, y0, x1, y1
end

--- A new grid. `Grid(map [, cacheNodeData])` is the same.
-- @tparam table|string map `map[y][x]`, rows indexed from 1 (or 0), each a
-- sequence of strings or integers of the same length; or a string, one line
-- per row, each character a cell (a string of one character)
-- @tparam[opt] boolean cacheNodeData `true`: `grid(x, y)` and `getNodes()`
-- give only the nodes made so far (Jumper's memory-saving grid)
-- @treturn Grid
function Grid:new(map, cacheNodeData) -- luacheck: ignore self
  if type(map) == "string" then
    map = parsemap(map)
  elseif type(map) ~= "table" then
    fail("Grid", 1, ("not a valid map: table or string expected, got %s"):format(type(map)))
  end
  if cacheNodeData ~= nil and type(cacheNodeData) ~= "boolean" then
    fail("Grid", 2, ("boolean expected, got %s"):format(type(cacheNodeData)))
  end
  local x0, y0, x1, y1 = checkmap(map)
  local g = setmetatable({
    _map = map, _min_x = x0, _min_y = y0, _max_x = x1, _max_y = y1,
    _width = x1 - x0 + 1, _height = y1 - y0 + 1,
    _nodes = {}, _lazy = cacheNodeData or false,
    _isAnnotated = {}, _annot = {},
    _snap = {}, _log = {}, _nlog = 0, _epoch = 0, _auto = true,
    _views = setmetatable({}, { __mode = "k" }),
  }, Grid)
  local snap, i = g._snap, 0
  for y = y0, y1 do
    local row = map[y]
    for x = x0, x1 do
      i = i + 1
      snap[i] = row[x]
    end
  end
  return g
end

setmetatable(Grid, { __call = function(self, ...) return self:new(...) end })

-- flat index of map coordinates (x, y), or nil outside the grid
local function index(g, x, y)
  if type(x) ~= "number" or type(y) ~= "number" then return nil end
  local ax, ay = x - g._min_x, y - g._min_y
  if ax < 0 or ay < 0 or ax >= g._width or ay >= g._height or ax % 1 ~= 0 or ay % 1 ~= 0 then
    return nil
  end
  return ay * g._width + ax + 1
end

--- The width (columns).
-- @treturn int
function Grid:getWidth() return self._width end

--- The height (rows).
-- @treturn int
function Grid:getHeight() return self._height end

--- The map (for a string map, the table made from it). Edits to it reach the
-- searches: see `refresh`.
-- @treturn table
function Grid:getMap() return self._map end

--- The smallest and largest coordinates: `minx, miny, maxx, maxy`.
-- @treturn int
-- @treturn int
-- @treturn int
-- @treturn int
function Grid:getBounds() return self._min_x, self._min_y, self._max_x, self._max_y end

--- The node at `(x, y)`, or `nil` outside the map. The same node every time.
-- @int x
-- @int y
-- @treturn Node|nil
function Grid:getNodeAt(x, y)
  local i = index(self, x, y)
  if i == nil then return nil end
  local row = self._nodes[y]
  if row == nil then
    row = {}
    self._nodes[y] = row
  end
  local n = row[x]
  if n == nil then
    n = newnode(x, y)
    for key, arr in pairs(self._annot) do n._clearance[key] = arr[i] end
    row[x] = n
  end
  return n
end

--- Every node, `nodes[y][x]` (made now if they were not; with `cacheNodeData`,
-- only those made so far).
-- @treturn table
function Grid:getNodes()
  if not self._lazy then
    for y = self._min_y, self._max_y do
      for x = self._min_x, self._max_x do self:getNodeAt(x, y) end
    end
  end
  return self._nodes
end

-- grid(x, y) is grid:getNodeAt(x, y); with cacheNodeData, grid(x, y, true)
Grid.__call = function(self, x, y, create)
  if self._lazy and not create then
    local row = self._nodes[y]
    return row and row[x]
  end
  return self:getNodeAt(x, y)
end

-- walkable(value) for the cells of the map, per Jumper's rules (a cell whose
-- value is nil or false does not exist)
local function evaluator(walkable)
  if walkable == nil or walkable == false then
    return function(v) return v ~= nil and v ~= false and v ~= ABSENT end
  end
  if type(walkable) == "function" then
    return function(v)
      return v ~= nil and v ~= false and v ~= ABSENT and walkable(v) and true or false
    end
  end
  return function(v) return v == walkable end
end

--- Whether `(x, y)` is on the map and walkable: with no `walkable`, every cell
-- of the map is; `walkable` is the walkable value, or a function of the cell's
-- value. With `clearance`, the cell must also have at least that clearance
-- (`Pathfinder:annotateGrid`). Reads the map as it is now.
-- @int x
-- @int y
-- @param[opt] walkable a string, an integer or a function
-- @int[opt] clearance
-- @treturn boolean
function Grid:isWalkableAt(x, y, walkable, clearance)
  local i = index(self, x, y)
  if i == nil then return false end
  local row = self._map[y]
  local v = type(row) == "table" and row[x] or nil
  if not v then return false end
  if not walkable then return true end
  if clearance then
    local arr = self._annot[walkable]
    if arr == nil or arr[i] < clearance then return false end
  end
  if type(walkable) == "function" then return walkable(v) and true or false end
  return v == walkable
end

local STRAIGHT = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } }
local DIAGONALS = { { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } }

--- The walkable neighbours of `node`: the four straight ones, then with
-- `allowDiagonal` the diagonal ones, except those with both cells beside the
-- step unwalkable (unless `tunnel`).
-- @tparam Node node
-- @param[opt] walkable
-- @tparam[opt] boolean allowDiagonal
-- @tparam[opt] boolean tunnel
-- @int[opt] clearance
-- @treturn {Node,...}
function Grid:getNeighbours(node, walkable, allowDiagonal, tunnel, clearance)
  local out, x, y = {}, node._x, node._y
  for _, d in ipairs(STRAIGHT) do
    if self:isWalkableAt(x + d[1], y + d[2], walkable, clearance) then
      out[#out + 1] = self:getNodeAt(x + d[1], y + d[2])
    end
  end
  if not allowDiagonal then return out end
  for _, d in ipairs(DIAGONALS) do
    local nx, ny = x + d[1], y + d[2]
    if self:isWalkableAt(nx, ny, walkable, clearance) and (tunnel
        or self:isWalkableAt(nx, y, walkable, clearance)
        or self:isWalkableAt(x, ny, walkable, clearance)) then
      out[#out + 1] = self:getNodeAt(nx, ny)
    end
  end
  return out
end

--- Iterates over the nodes of a rectangle (default: the whole grid), row by
-- row: `for node, count in grid:iter() do`. The rectangle is clamped to the
-- grid.
-- @int[opt] lx left
-- @int[opt] ly top
-- @int[opt] ex right
-- @int[opt] ey bottom
-- @treturn function
function Grid:iter(lx, ly, ex, ey)
  local x0, y0 = max(lx or self._min_x, self._min_x), max(ly or self._min_y, self._min_y)
  local x1, y1 = min(ex or self._max_x, self._max_x), min(ey or self._max_y, self._max_y)
  local x, y, count = x0 - 1, y0, 0
  return function()
    x = x + 1
    if x > x1 then x, y = x0, y + 1 end
    if y > y1 or x > x1 then return nil end
    count = count + 1
    return self:getNodeAt(x, y), count
  end
end

--- Iterates over the nodes on the outline of the square of half-side
-- `radius` (default 1) centred on `node`, clockwise from its top-left corner;
-- cells off the map are skipped.
-- @tparam Node node
-- @int[opt=1] radius
-- @treturn function
function Grid:around(node, radius)
  local cx, cy, r = node._x, node._y, radius or 1
  local list = {}
  local function add(x, y)
    local n = self:getNodeAt(x, y)
    if n then list[#list + 1] = n end
  end
  if r <= 0 then
    add(cx, cy)
  else
    for x = cx - r, cx + r do add(x, cy - r) end
    for y = cy - r + 1, cy + r do add(cx + r, y) end
    for x = cx + r - 1, cx - r, -1 do add(x, cy + r) end
    for y = cy + r - 1, cy - r + 1, -1 do add(cx - r, y) end
  end
  local i = 0
  return function()
    i = i + 1
    return list[i]
  end
end

--- Calls `f(node, ...)` on every node.
-- @func f
-- @param ... passed to `f`
-- @treturn Grid self
function Grid:each(f, ...)
  for n in self:iter() do f(n, ...) end
  return self
end

--- Calls `f(node, ...)` on every node of a rectangle.
-- @int lx
-- @int ly
-- @int ex
-- @int ey
-- @func f
-- @param ... passed to `f`
-- @treturn Grid self
function Grid:eachRange(lx, ly, ex, ey, f, ...)
  for n in self:iter(lx, ly, ex, ey) do f(n, ...) end
  return self
end

--- Calls `f(node, ...)` on every node, as `each` (what Jumper's `imap` does).
-- @func f
-- @param ... passed to `f`
-- @treturn Grid self
function Grid:imap(f, ...) return self:each(f, ...) end

--- Calls `f(node, ...)` on every node of a rectangle, as `eachRange`.
-- @int lx
-- @int ly
-- @int ex
-- @int ey
-- @func f
-- @param ... passed to `f`
-- @treturn Grid self
function Grid:imapRange(lx, ly, ex, ey, f, ...) return self:eachRange(lx, ly, ex, ey, f, ...) end

-- Compares the map with the copy; logs the cells that changed.
local function sync(g)
  local map, snap, log, n = g._map, g._snap, g._log, g._nlog
  local x0, x1, i = g._min_x, g._max_x, 0
  for y = g._min_y, g._max_y do
    local row = map[y]
    if type(row) ~= "table" then
      for _ = x0, x1 do
        i = i + 1
        if snap[i] ~= ABSENT then
          snap[i] = ABSENT
          n = n + 1
          log[n] = i
        end
      end
    else
      for x = x0, x1 do
        i = i + 1
        local v = row[x]
        if v == nil then v = ABSENT end
        if v ~= snap[i] then
          snap[i] = v
          n = n + 1
          log[n] = i
        end
      end
    end
  end
  g._nlog = n
  if n > g._width * g._height then -- cheaper to rebuild every view than to replay
    g._log, g._nlog, g._epoch = {}, 0, g._epoch + 1
  end
end

-- The astar.Grid of `walkable`, up to date with the copy of the map.
local function view(g, walkable)
  if g._auto then sync(g) end
  local key = walkable == nil and NOWALK or walkable
  local v = g._views[key]
  if v == nil then
    v = { grid = astar.grid(g._width, g._height, 1), epoch = -1, applied = 0, version = 0 }
    g._views[key] = v
  end
  local w, snap = g._width, g._snap
  if v.epoch ~= g._epoch then
    local eval, memo, ag = evaluator(walkable), {}, v.grid
    for i = 1, w * g._height do
      local val = snap[i]
      local ok = memo[val]
      if ok == nil then
        ok = eval(val)
        if val == val then memo[val] = ok end -- (NaN cannot be a key)
      end
      local x, y = (i - 1) % w + 1, floor((i - 1) / w) + 1
      if ag:walkable(x, y) ~= ok then ag:set(x, y, ok and 1 or false) end
    end
    v.epoch, v.applied, v.version = g._epoch, g._nlog, v.version + 1
  elseif v.applied < g._nlog then
    local eval, ag, log, changed = evaluator(walkable), v.grid, g._log, false
    for k = v.applied + 1, g._nlog do
      local i = log[k]
      local ok = eval(snap[i])
      local x, y = (i - 1) % w + 1, floor((i - 1) / w) + 1
      if ag:walkable(x, y) ~= ok then
        ag:set(x, y, ok and 1 or false)
        changed = true
      end
    end
    v.applied = g._nlog
    if changed then v.version = v.version + 1 end
  end
  -- every view has replayed the log: start it afresh
  local behind = false
  for _, o in pairs(g._views) do
    if o.epoch == g._epoch and o.applied < g._nlog then behind = true end
  end
  if not behind and g._nlog > 0 then
    g._log, g._nlog = {}, 0
    for _, o in pairs(g._views) do o.applied = 0 end
  end
  return v
end

--- Re-reads the map (extension). `grid:refresh(x, y)` re-reads one cell: call
-- it after changing `map[y][x]` when auto-refresh is off. `grid:refresh()`
-- re-reads every cell and re-evaluates walkable functions on all of them.
-- @int[opt] x
-- @int[opt] y
-- @treturn Grid self
function Grid:refresh(x, y)
  if x == nil and y == nil then
    sync(self)
    self._log, self._nlog, self._epoch = {}, 0, self._epoch + 1
    return self
  end
  local i = index(self, x, y)
  if i == nil then
    fail("refresh", 1, ("(%s, %s) is not a cell of the map"):format(show(x), show(y)))
  end
  local row = self._map[y]
  local v = type(row) == "table" and row[x] or nil
  if v == nil then v = ABSENT end
  self._snap[i] = v
  self._nlog = self._nlog + 1
  self._log[self._nlog] = i
  return self
end

--- Whether every search first compares the map with the shim's copy
-- (extension; default `true`, which is what Jumper's semantics need: it reads
-- the map during every search). Turn it off for maps that do not change, or
-- whose edits you report with `refresh`.
-- @tparam boolean on
-- @treturn Grid self
function Grid:setAutoRefresh(on)
  if type(on) ~= "boolean" then
    fail("setAutoRefresh", 1, ("boolean expected, got %s"):format(type(on)))
  end
  self._auto = on
  return self
end

--- Whether auto-refresh is on (extension).
-- @treturn boolean
function Grid:getAutoRefresh() return self._auto end

--- The `astar.Grid` the shim searches for `walkable` (extension), brought up
-- to date with the map: cells cost 1 or are blocked, x and y counted from 1
-- (subtract `getBounds()`'s minimum and add 1 for maps indexed from 0). Read
-- it, search it with your own options; edit the map, not this grid.
-- @param[opt] walkable
-- @treturn astar.Grid
function Grid:toAstar(walkable) return view(self, walkable).grid end

-- Pathfinder --------------------------------------------------------------------------------------

--- A pathfinder, as Jumper's `Pathfinder(grid [, finder [, walkable]])`
-- (`jumper.pathfinder`): mode `DIAGONAL`, heuristic `MANHATTAN`, tunnelling off.
-- @type Pathfinder
local Pathfinder = {}
Pathfinder.__index = Pathfinder
Pathfinder._VERSION = "astar.compat.jumper (Jumper 1.8.1 API)"

local FINDERS = { "ASTAR", "DIJKSTRA", "THETASTAR", "BFS", "DFS", "JPS" }
local IS_FINDER = {}
for _, f in ipairs(FINDERS) do IS_FINDER[f] = true end
local MODES = { "ORTHOGONAL", "DIAGONAL" }

-- Argument checks, shared by the constructor and the setters.
local function checkgrid(fname, argn, grid)
  if getmetatable(grid) ~= Grid then
    fail(fname, argn, ("a Grid of astar.compat.jumper expected, got %s"):format(type(grid)))
  end
end

local function checkwalkable(fname, argn, walkable)
  local t = type(walkable)
  if not (walkable == nil or t == "string" or t == "function" or isint(walkable)) then
    fail(fname, argn, ("string, integer or function expected, got %s"):format(show(walkable)))
  end
end

local function checkfinder(fname, argn, name)
  if type(name) ~= "string" then
    fail(fname, argn, ("string expected, got %s"):format(type(name)))
  elseif not IS_FINDER[name] then
    fail(fname, argn, ("unknown finder '%s': expected one of %s")
      :format(name, table.concat(FINDERS, ", ")))
  end
end

--- A new pathfinder. `Pathfinder(grid, finderName, walkable)` is the same.
-- @tparam Grid grid
-- @string[opt="ASTAR"] finderName
-- @param[opt] walkable a string, an integer or a function of the cell's value;
-- none: every cell of the map is walkable
-- @treturn Pathfinder
function Pathfinder:new(grid, finderName, walkable) -- luacheck: ignore self
  checkgrid("Pathfinder", 1, grid)
  if finderName ~= nil then checkfinder("Pathfinder", 2, finderName) end
  checkwalkable("Pathfinder", 3, walkable)
  local pf = setmetatable({}, Pathfinder)
  pf:setGrid(grid)
  pf:setFinder(finderName)
  pf:setWalkable(walkable)
  pf:setMode("DIAGONAL")
  pf:setHeuristic("MANHATTAN")
  pf:setTunnelling(false)
  return pf
end

setmetatable(Pathfinder, { __call = function(self, ...) return self:new(...) end })

--- Uses `grid` for the next searches.
-- @tparam Grid grid
-- @treturn Pathfinder self
function Pathfinder:setGrid(grid)
  checkgrid("setGrid", 1, grid)
  self._grid = grid
  return self
end

--- The grid.
-- @treturn Grid
function Pathfinder:getGrid() return self._grid end

--- Sets the walkable value (a string or an integer, compared with `==`) or
-- function (`f(value)` truthy for walkable cells); `nil`: every cell.
-- @param walkable
-- @treturn Pathfinder self
function Pathfinder:setWalkable(walkable)
  checkwalkable("setWalkable", 1, walkable)
  self._walkable = walkable
  return self
end

--- The walkable value or function.
-- @return walkable
function Pathfinder:getWalkable() return self._walkable end

--- Sets the search algorithm: `"ASTAR"`, `"DIJKSTRA"`, `"THETASTAR"`,
-- `"BFS"`, `"DFS"` or `"JPS"` (see the module's notes for what each runs).
-- `nil` keeps the current one (`"ASTAR"` at first).
-- @string finderName
-- @treturn Pathfinder self
function Pathfinder:setFinder(finderName)
  if finderName == nil then
    self._finder = self._finder or "ASTAR"
    return self
  end
  checkfinder("setFinder", 1, finderName)
  self._finder = finderName
  return self
end

--- The finder's name.
-- @treturn string
function Pathfinder:getFinder() return self._finder end

--- The finders' names.
-- @treturn {string,...}
function Pathfinder:getFinders() -- luacheck: ignore self
  local t = {}
  for i, f in ipairs(FINDERS) do t[i] = f end
  return t
end

--- Sets the heuristic: a name (`"MANHATTAN"`, `"EUCLIDIAN"`, `"DIAGONAL"`,
-- `"CARDINTCARD"`) or a function `f(nodeA, nodeB)` returning a number >= 0.
-- @tparam string|func heuristic
-- @treturn Pathfinder self
function Pathfinder:setHeuristic(heuristic)
  if type(heuristic) == "string" and Heuristics[heuristic] then
    self._heuristic = Heuristics[heuristic]
  elseif type(heuristic) == "function" then
    self._heuristic = heuristic
  elseif type(heuristic) == "string" then
    fail("setHeuristic", 1, ("unknown heuristic '%s': expected a function or one of %s"):format(
      heuristic, table.concat(HEURISTIC_NAMES, ", ")))
  else
    fail("setHeuristic", 1, ("string or function expected, got %s"):format(type(heuristic)))
  end
  return self
end

--- The heuristic function.
-- @treturn func
function Pathfinder:getHeuristic() return self._heuristic end

--- The built-in heuristics' names.
-- @treturn {string,...}
function Pathfinder:getHeuristics() -- luacheck: ignore self
  local t = {}
  for i, h in ipairs(HEURISTIC_NAMES) do t[i] = h end
  return t
end

--- Sets the mode: `"DIAGONAL"` (8 directions) or `"ORTHOGONAL"` (4).
-- @string mode
-- @treturn Pathfinder self
function Pathfinder:setMode(mode)
  if type(mode) ~= "string" then
    fail("setMode", 1, ("string expected, got %s"):format(type(mode)))
  elseif mode ~= "DIAGONAL" and mode ~= "ORTHOGONAL" then
    fail("setMode", 1, ("unknown mode '%s': expected DIAGONAL or ORTHOGONAL"):format(mode))
  end
  self._allowDiagonal = mode == "DIAGONAL"
  return self
end

--- The mode.
-- @treturn string
function Pathfinder:getMode() return self._allowDiagonal and "DIAGONAL" or "ORTHOGONAL" end

--- The modes' names.
-- @treturn {string,...}
function Pathfinder:getModes() return { MODES[1], MODES[2] } end -- luacheck: ignore self

--- Tunnelling: in `DIAGONAL` mode, diagonal steps between two unwalkable
-- cells (astar's `diagonal = "always"`). `JPS` ignores it, as in Jumper.
-- @tparam boolean on
-- @treturn Pathfinder self
function Pathfinder:setTunnelling(on)
  if type(on) ~= "boolean" then
    fail("setTunnelling", 1, ("boolean expected, got %s"):format(type(on)))
  end
  self._tunnel = on
  return self
end

--- Whether tunnelling is on.
-- @treturn boolean
function Pathfinder:getTunnelling() return self._tunnel end

--- Computes the clearance of every cell for the current walkable value: the
-- side of the largest square of walkable cells whose top-left cell it is (0
-- on unwalkable cells). Read from the map as it is now; call it again after
-- changing the map. Needed by `getPath`'s `clearance`.
-- @treturn Pathfinder self
function Pathfinder:annotateGrid()
  local walkable, g = self._walkable, self._grid
  if not walkable then fail("annotateGrid", 1, "the pathfinder has no walkable value") end
  local w, h, arr = g._width, g._height, {}
  for ay = h, 1, -1 do
    for ax = w, 1, -1 do
      local i = (ay - 1) * w + ax
      if not g:isWalkableAt(ax + g._min_x - 1, ay + g._min_y - 1, walkable) then
        arr[i] = 0
      elseif ax == w or ay == h then
        arr[i] = 1
      else
        arr[i] = 1 + min(arr[i + 1], arr[i + w], arr[i + w + 1])
      end
    end
  end
  g._annot[walkable] = arr
  g._isAnnotated[walkable] = true
  g._annotVersion = (g._annotVersion or 0) + 1
  for y, row in pairs(g._nodes) do
    for x, n in pairs(row) do n._clearance[walkable] = arr[index(g, x, y)] end
  end
  return self
end

--- Forgets the clearance computed for the current walkable value.
-- @treturn Pathfinder self
function Pathfinder:clearAnnotations()
  local walkable, g = self._walkable, self._grid
  if not walkable then fail("clearAnnotations", 1, "the pathfinder has no walkable value") end
  g._annot[walkable] = nil
  g._isAnnotated[walkable] = false
  for _, row in pairs(g._nodes) do
    for _, n in pairs(row) do n._clearance[walkable] = nil end
  end
  return self
end

--- Does nothing (Jumper clears node data here between searches).
-- @treturn Pathfinder self
function Pathfinder:reset() return self end

-- astar's diagonal policy for the pathfinder's mode, finder and tunnelling
local function policy(pf)
  if not pf._allowDiagonal then return "never" end
  if pf._finder == "JPS" or not pf._tunnel then return "one_obstacle" end
  return "always"
end

-- Breadth-first order without astar's zig-zags: a step costs 1 plus a tiny
-- share of its length, so the path has the fewest steps and, of those, the
-- shortest length (Jumper's BFS tries straight steps first, so its paths tend
-- to be those; astar's "bfs" takes any of them, diagonal zig-zags included).
-- Exact while a path is shorter than 2^30 cells; "chebyshev" never overestimates it.
local EPS = 2 ^ -30
local function fewest_steps(_, _, _, _, base) return 1 + base * EPS end

-- The options of grid:find for the pathfinder's settings.
-- `hfn` wraps a heuristic function (nil: report it as is).
local function searchoptions(pf, hfn)
  local finder, diagonal = pf._finder, policy(pf)
  local name = NAME_OF[pf._heuristic]
  local heuristic = name and ASTAR_HEURISTIC[name] or (hfn and hfn(pf._heuristic) or pf._heuristic)
  if finder == "BFS" or finder == "DFS" then
    if diagonal == "never" then return { algorithm = "auto", diagonal = diagonal } end
    return { algorithm = "astar", diagonal = diagonal, heuristic = "chebyshev",
             cost = fewest_steps }
  elseif finder == "DIJKSTRA" then
    return { algorithm = "auto", diagonal = diagonal }
  elseif finder == "JPS" then
    return { algorithm = "jps", diagonal = diagonal, heuristic = heuristic }
  end
  -- ASTAR, THETASTAR
  if name and (diagonal == "never" or name ~= "MANHATTAN") then
    return { algorithm = "auto", diagonal = diagonal, heuristic = heuristic }
  end
  return { algorithm = "astar", diagonal = diagonal, heuristic = heuristic }
end

-- Wraps a heuristic of two nodes as astar's function(x, y, gx, gy), with the
-- arguments in the order Jumper passes them: `A*` calls h(goal, node), JPS h(node, goal).
local function wrapper(pf)
  local g = pf._grid
  local ox, oy, reversed = g._min_x - 1, g._min_y - 1, pf._finder ~= "JPS"
  return function(fn)
    return function(x, y, gx, gy)
      local a, b = g:getNodeAt(x + ox, y + oy), g:getNodeAt(gx + ox, gy + oy)
      if reversed then return fn(b, a) end
      return fn(a, b)
    end
  end
end

--- The options of `astar.Grid:find` the shim passes for the current settings
-- (extension): what to write when you call astar directly, on `toAstar()`'s
-- grid. A heuristic function is wrapped as astar's `function(x, y, gx, gy)`.
-- @treturn table
function Pathfinder:getAstarOptions() return searchoptions(self, wrapper(self)) end

-- A grid of the cells that are walkable in `v` and have clearance >= c
-- (for JPS, whose every walkability test includes the clearance in Jumper).
local function clearedgrid(g, v, arr, c)
  local key = c .. ":" .. v.version .. ":" .. (g._annotVersion or 0) .. ":" .. tostring(arr)
  local cached = v.cleared
  if cached and cached.key == key then return cached.grid end
  local w, h, src = g._width, g._height, v.grid
  local cg = astar.grid(w, h, 1)
  for y = 1, h do
    for x = 1, w do
      if not (src:walkable(x, y) and arr[(y - 1) * w + x] >= c) then cg:set(x, y, false) end
    end
  end
  v.cleared = { key = key, grid = cg }
  return cg
end

-- Does a Bresenham line from (x0, y0) to (x1, y1) cross only cells where
-- ok(x, y) holds (the first cell is not tested)?
local function sight(ok, x0, y0, x1, y1)
  local dx, dy = abs(x1 - x0), abs(y1 - y0)
  local sx, sy = x0 < x1 and 1 or -1, y0 < y1 and 1 or -1
  local err = dx - dy
  while x0 ~= x1 or y0 ~= y1 do
    local e2 = 2 * err
    if e2 > -dy then
      err = err - dy
      x0 = x0 + sx
    end
    if e2 < dx then
      err = err + dx
      y0 = y0 + sy
    end
    if not ok(x0, y0) then return false end
  end
  return true
end

-- String pulling of a flat list of cells: keeps a cell only where the line of
-- sight from the last kept one to the next cell is broken.
local function smooth(pts, ok)
  local n = #pts / 2
  if n <= 2 then return pts end
  local out = { pts[1], pts[2] }
  local ax, ay = pts[1], pts[2]
  for k = 3, n do
    local x, y = pts[2 * k - 1], pts[2 * k]
    if not sight(ok, ax, ay, x, y) then
      ax, ay = pts[2 * k - 3], pts[2 * k - 2]
      out[#out + 1], out[#out + 2] = ax, ay
    end
  end
  out[#out + 1], out[#out + 2] = pts[2 * n - 1], pts[2 * n]
  return out
end

--- Finds a path from `(startX, startY)` to `(endX, endY)`, both on the map
-- (an error otherwise). The start may be unwalkable. With `clearance`, every
-- cell entered needs at least that clearance (after `annotateGrid`; without
-- it there is no path).
-- @int startX
-- @int startY
-- @int endX
-- @int endY
-- @int[opt] clearance
-- @treturn Path|nil the path, or `nil` when there is none
function Pathfinder:getPath(startX, startY, endX, endY, clearance)
  local g = self._grid
  local s = g:getNodeAt(startX, startY)
  if s == nil then
    fail("getPath", 1, ("start (%s, %s) is not on the map"):format(show(startX), show(startY)))
  end
  local e = g:getNodeAt(endX, endY)
  if e == nil then
    fail("getPath", 3, ("goal (%s, %s) is not on the map"):format(show(endX), show(endY)))
  end
  if clearance ~= nil and type(clearance) ~= "number" then
    fail("getPath", 5, ("clearance must be a number, got %s"):format(type(clearance)))
  end
  if s == e then
    local p = newpath(g)
    p._nodes[1] = s
    return p
  end
  local walkable, finder = self._walkable, self._finder
  local arr
  if clearance then
    arr = walkable and g._annot[walkable]
    if arr == nil then return nil end -- not annotated: no cell has any clearance
  end
  local v = view(g, walkable)
  local ox, oy, w = g._min_x - 1, g._min_y - 1, g._width
  local opts = searchoptions(self, wrapper(self))
  local ag = v.grid
  if arr then
    if finder == "JPS" then
      ag = clearedgrid(g, v, arr, clearance)
    else
      local inner = opts.cost
      opts.cost = function(x1, y1, x2, y2, base) -- "auto" runs A* with a cost function
        if arr[(y2 - 1) * w + x2] < clearance then return false end
        if inner then return inner(x1, y1, x2, y2, base) end
        return base
      end
    end
  end
  local ax, ay, bx, by = startX - ox, startY - oy, endX - ox, endY - oy
  -- THETASTAR in ORTHOGONAL mode smooths an 8-connected path that cuts no
  -- corner instead: it hugs corners where a 4-connected staircase may not
  -- (lines of sight ignore the mode, as Jumper's do). The first search decides
  -- whether there is a path; the second then always finds one.
  local second
  if finder == "THETASTAR" and opts.diagonal == "never" then
    second = { algorithm = "auto", diagonal = "no_corner_cutting", cost = opts.cost }
  end
  local opened = not ag:walkable(ax, ay)
  if opened then ag:set(ax, ay, 1) end
  local ok, path = pcall(ag.find, ag, ax, ay, bx, by, opts)
  local path2
  if ok and path and second then ok, path2 = pcall(ag.find, ag, ax, ay, bx, by, second) end
  if opened then ag:set(ax, ay, false) end
  if not ok then error(path2 or path, 0) end
  if not path then return nil end
  local pts
  if finder == "JPS" then
    pts = path:waypoints()
  elseif finder == "THETASTAR" then
    local vg = v.grid
    local function clear(x, y)
      return vg:walkable(x, y) and (arr == nil or arr[(y - 1) * w + x] >= clearance)
    end
    pts = smooth((path2 or path):flat(), clear)
  else
    pts = path:flat()
  end
  local p = newpath(g)
  local nodes = p._nodes
  for k = 1, #pts, 2 do nodes[#nodes + 1] = g:getNodeAt(pts[k] + ox, pts[k + 1] + oy) end
  return p
end

-- The module --------------------------------------------------------------------------------------

M.grid = Grid
M.pathfinder = Pathfinder
M.path = Path
M.node = Node
M.heuristics = Heuristics

return M
