---@meta astar.compat.jumper
-- luacheck: no unused args, no max comment line length, ignore 241

-- Type annotations (LuaCATS) for `require "astar.compat.jumper"`: Jumper 1.8's API (Grid,
-- Pathfinder, Path, Node, heuristics) over astar's C core, plus the shim's extensions
-- (`Grid:refresh`, `setAutoRefresh`, `getAutoRefresh`, `toAstar`, `Pathfinder:getAstarOptions`).
-- See doc/migrating-from-jumper.md. Coordinates are Jumper's: `map[y][x]`, x the column, rows
-- and columns counted from 1 (or from 0 for a map indexed from 0). Each class is also its
-- objects' method table, as in Jumper: `Grid:new(map)` and `Grid(map)` both make a grid.

------------------------------------------------------------------------------------------
-- Enumerated strings and callbacks
------------------------------------------------------------------------------------------

---A search algorithm of `Pathfinder:setFinder` (what each runs on astar is in the guide).
---@alias astar.compat.jumper.Finder
---| "ASTAR"     # default: A* with the pathfinder's heuristic (astar's "auto", same length, when the heuristic never overestimates)
---| "DIJKSTRA"  # astar's "auto": a shortest path
---| "THETASTAR" # A* then line-of-sight smoothing (not Theta* itself): an any-angle path
---| "BFS"       # the fewest steps, and of those the shortest path
---| "DFS"       # runs as "BFS": the fewest steps (astar has no depth-first search)
---| "JPS"       # astar's "jps": the path lists the turning points only (`path:fill()` for every cell)

---The moves of `Pathfinder:setMode`.
---@alias astar.compat.jumper.Mode
---| "DIAGONAL"   # default: 8 directions; a diagonal step needs one of its two side cells walkable (astar's "one_obstacle"; with tunnelling, "always")
---| "ORTHOGONAL" # 4 directions (astar's "never")

---The built-in heuristics' names (`Pathfinder:setHeuristic`, fields of `heuristics`).
---@alias astar.compat.jumper.HeuristicName
---| "MANHATTAN"   # default: |dx| + |dy| (overestimates in "DIAGONAL" mode: paths may be longer than the shortest)
---| "EUCLIDIAN"   # sqrt(dx^2 + dy^2)
---| "DIAGONAL"    # max(|dx|, |dy|)
---| "CARDINTCARD" # octile distance, min(|dx|, |dy|) * sqrt(2) + max - min: shortest paths in "DIAGONAL" mode

---A heuristic function: an estimate >= 0 (finite) of the distance between two nodes,
---passed in Jumper's order (A* and the finders built on it: `(goal, node)`; JPS: `(node, goal)`).
---@alias astar.compat.jumper.HeuristicFn fun(nodeA: astar.compat.jumper.Node, nodeB: astar.compat.jumper.Node): number

---Which cells are walkable: the cells equal (`==`) to a string or an integer, or those
---whose value a function returns truthy for. None (`nil`): every cell of the map.
---@alias astar.compat.jumper.Walkable string|integer|fun(value: string|integer): any

---A collision map `map[y][x]`: rows indexed from 1 (or 0) without holes, each a sequence of
---strings or integers of the same length.
---@alias astar.compat.jumper.Map (string|integer)[][]

------------------------------------------------------------------------------------------
-- Grid
------------------------------------------------------------------------------------------

---A grid over a collision map, as Jumper's `jumper.grid`. The shim searches a copy of the
---map (one `astar.Grid` per walkable value); by default every search first compares the map
---with it (see `setAutoRefresh`). `Grid(map [, cacheNodeData])` makes one; `grid(x, y)` is
---`grid:getNodeAt(x, y)` (with `cacheNodeData`: only nodes made so far, unless `create`).
---@class astar.compat.jumper.Grid
---@overload fun(map: astar.compat.jumper.Map|string, cacheNodeData?: boolean): astar.compat.jumper.Grid
---@overload fun(x: integer, y: integer, create?: boolean): astar.compat.jumper.Node|nil
local Grid = {}

---A new grid; same as `Grid(map, cacheNodeData)`. Raises on a map Jumper would refuse.
---@param map astar.compat.jumper.Map|string the map table, or a string: one line per row, each character a cell (a string of one character)
---@param cacheNodeData? boolean `true`: `grid(x, y)` and `getNodes()` give only the nodes made so far (Jumper's memory-saving grid)
---@return astar.compat.jumper.Grid
function Grid:new(map, cacheNodeData) end

---The width (columns).
---@return integer
function Grid:getWidth() end

---The height (rows).
---@return integer
function Grid:getHeight() end

---The map (for a string map, the table made from it). Edits to it reach the searches (see
---`setAutoRefresh` and `refresh`).
---@return astar.compat.jumper.Map
function Grid:getMap() end

---The smallest and largest coordinates (a map indexed from 0 starts at 0).
---@return integer minx
---@return integer miny
---@return integer maxx
---@return integer maxy
function Grid:getBounds() end

---The node at (x, y), or `nil` off the map; the same node every time (made when first asked for).
---@param x integer
---@param y integer
---@return astar.compat.jumper.Node|nil
function Grid:getNodeAt(x, y) end

---Every node, `nodes[y][x]` (made now if they were not; with `cacheNodeData`, only those
---made so far).
---@return table<integer, table<integer, astar.compat.jumper.Node>>
function Grid:getNodes() end

---Whether (x, y) is on the map and walkable (the map as it is now). Without `walkable`,
---every cell of the map is; with `clearance`, the cell also needs at least that clearance
---(`Pathfinder:annotateGrid`).
---@param x integer
---@param y integer
---@param walkable? astar.compat.jumper.Walkable
---@param clearance? integer
---@return boolean
function Grid:isWalkableAt(x, y, walkable, clearance) end

---The walkable neighbours of `node`: the four straight ones, then with `allowDiagonal` the
---diagonal ones, except those whose two side cells are both unwalkable (unless `tunnel`).
---@param node astar.compat.jumper.Node
---@param walkable? astar.compat.jumper.Walkable
---@param allowDiagonal? boolean
---@param tunnel? boolean
---@param clearance? integer
---@return astar.compat.jumper.Node[]
function Grid:getNeighbours(node, walkable, allowDiagonal, tunnel, clearance) end

---Iterates over the nodes of a rectangle (default: the whole grid, clamped to it), row by
---row: `for node, count in grid:iter() do`.
---@param lx? integer left
---@param ly? integer top
---@param ex? integer right
---@param ey? integer bottom
---@return fun(): astar.compat.jumper.Node, integer
function Grid:iter(lx, ly, ex, ey) end

---Iterates over the nodes on the outline of the square of half-side `radius` centred on
---`node`, clockwise from its top-left corner; cells off the map are skipped.
---@param node astar.compat.jumper.Node
---@param radius? integer default 1
---@return fun(): astar.compat.jumper.Node
function Grid:around(node, radius) end

---Calls `f(node, ...)` on every node.
---@param f fun(node: astar.compat.jumper.Node, ...: any)
---@param ... any passed to `f`
---@return astar.compat.jumper.Grid self
function Grid:each(f, ...) end

---Calls `f(node, ...)` on every node of a rectangle (clamped to the grid).
---@param lx integer left
---@param ly integer top
---@param ex integer right
---@param ey integer bottom
---@param f fun(node: astar.compat.jumper.Node, ...: any)
---@param ... any passed to `f`
---@return astar.compat.jumper.Grid self
function Grid:eachRange(lx, ly, ex, ey, f, ...) end

---Calls `f(node, ...)` on every node, as `each` (what Jumper's `imap` does: it replaces no node).
---@param f fun(node: astar.compat.jumper.Node, ...: any)
---@param ... any passed to `f`
---@return astar.compat.jumper.Grid self
function Grid:imap(f, ...) end

---Calls `f(node, ...)` on every node of a rectangle, as `eachRange`.
---@param lx integer left
---@param ly integer top
---@param ex integer right
---@param ey integer bottom
---@param f fun(node: astar.compat.jumper.Node, ...: any)
---@param ... any passed to `f`
---@return astar.compat.jumper.Grid self
function Grid:imapRange(lx, ly, ex, ey, f, ...) end

---Re-reads the map (extension). `grid:refresh(x, y)` re-reads one cell: call it after
---changing `map[y][x]` when auto-refresh is off (a cell off the map raises).
---`grid:refresh()` re-reads every cell and asks walkable functions about all of them again.
---@param x? integer
---@param y? integer
---@return astar.compat.jumper.Grid self
function Grid:refresh(x, y) end

---Whether every search first compares the whole map with the shim's copy (extension;
---default `true`, Jumper's semantics: O(width x height) per search). Turn it off for a map
---that does not change, or whose edits you report with `refresh`.
---@param on boolean
---@return astar.compat.jumper.Grid self
function Grid:setAutoRefresh(on) end

---Whether auto-refresh is on (extension).
---@return boolean
function Grid:getAutoRefresh() end

---The `astar.Grid` the shim searches for `walkable` (extension), brought up to date with the
---map: cells cost 1 or are blocked, x and y counted from 1 (for a map indexed from 0, add 1).
---Search it with your own options (`Pathfinder:getAstarOptions`); edit the map, not it.
---@param walkable? astar.compat.jumper.Walkable default: every cell of the map walkable
---@return astar.Grid
function Grid:toAstar(walkable) end

------------------------------------------------------------------------------------------
-- Pathfinder
------------------------------------------------------------------------------------------

---A pathfinder, as Jumper's `jumper.pathfinder`: finder "ASTAR", mode "DIAGONAL", heuristic
---"MANHATTAN", tunnelling off. `Pathfinder(grid [, finderName [, walkable]])` makes one.
---@class astar.compat.jumper.Pathfinder
---@field _VERSION string `"astar.compat.jumper (Jumper 1.8.1 API)"`
---@overload fun(grid: astar.compat.jumper.Grid, finderName?: astar.compat.jumper.Finder, walkable?: astar.compat.jumper.Walkable): astar.compat.jumper.Pathfinder
local Pathfinder = {}

---A new pathfinder; same as `Pathfinder(grid, finderName, walkable)`.
---@param grid astar.compat.jumper.Grid a grid of this shim
---@param finderName? astar.compat.jumper.Finder default "ASTAR"
---@param walkable? astar.compat.jumper.Walkable default: every cell of the map walkable
---@return astar.compat.jumper.Pathfinder
function Pathfinder:new(grid, finderName, walkable) end

---Uses `grid` for the next searches.
---@param grid astar.compat.jumper.Grid
---@return astar.compat.jumper.Pathfinder self
function Pathfinder:setGrid(grid) end

---The grid.
---@return astar.compat.jumper.Grid
function Pathfinder:getGrid() end

---Sets the walkable value (a string or an integer, compared with `==`) or function
---(`f(value)` truthy for walkable cells); `nil`: every cell of the map.
---@param walkable? astar.compat.jumper.Walkable
---@return astar.compat.jumper.Pathfinder self
function Pathfinder:setWalkable(walkable) end

---The walkable value or function (`nil`: every cell).
---@return astar.compat.jumper.Walkable|nil
function Pathfinder:getWalkable() end

---Sets the search algorithm; `nil` keeps the current one ("ASTAR" at first).
---@param finderName? astar.compat.jumper.Finder
---@return astar.compat.jumper.Pathfinder self
function Pathfinder:setFinder(finderName) end

---The finder's name.
---@return astar.compat.jumper.Finder
function Pathfinder:getFinder() end

---The finders' names: `{"ASTAR", "DIJKSTRA", "THETASTAR", "BFS", "DFS", "JPS"}` (a new table).
---@return astar.compat.jumper.Finder[]
function Pathfinder:getFinders() end

---Sets the heuristic: a built-in one's name, or a function of two nodes returning a finite
---number >= 0 (astar raises `heuristic callback returned ...` otherwise).
---@param heuristic astar.compat.jumper.HeuristicName|astar.compat.jumper.HeuristicFn
---@return astar.compat.jumper.Pathfinder self
function Pathfinder:setHeuristic(heuristic) end

---The heuristic function (a built-in one is the function of `heuristics`).
---@return astar.compat.jumper.HeuristicFn
function Pathfinder:getHeuristic() end

---The built-in heuristics' names: `{"MANHATTAN", "EUCLIDIAN", "DIAGONAL", "CARDINTCARD"}`.
---@return astar.compat.jumper.HeuristicName[]
function Pathfinder:getHeuristics() end

---Sets the mode: "DIAGONAL" (8 directions) or "ORTHOGONAL" (4).
---@param mode astar.compat.jumper.Mode
---@return astar.compat.jumper.Pathfinder self
function Pathfinder:setMode(mode) end

---The mode.
---@return astar.compat.jumper.Mode
function Pathfinder:getMode() end

---The modes' names: `{"ORTHOGONAL", "DIAGONAL"}`.
---@return astar.compat.jumper.Mode[]
function Pathfinder:getModes() end

---Tunnelling: in "DIAGONAL" mode, diagonal steps between two unwalkable cells too (astar's
---"always"). "JPS" ignores it, as Jumper documents.
---@param on boolean
---@return astar.compat.jumper.Pathfinder self
function Pathfinder:setTunnelling(on) end

---Whether tunnelling is on.
---@return boolean
function Pathfinder:getTunnelling() end

---Computes every cell's clearance for the current walkable value (which must be set): the
---side of the largest square of walkable cells whose top-left cell it is (0 on unwalkable
---cells). A snapshot of the map: call it again after changing the map. `getPath`'s
---`clearance` needs it.
---@return astar.compat.jumper.Pathfinder self
function Pathfinder:annotateGrid() end

---Forgets the clearance computed for the current walkable value (which must be set).
---@return astar.compat.jumper.Pathfinder self
function Pathfinder:clearAnnotations() end

---Does nothing (Jumper clears node data here; astar keeps none in nodes).
---@return astar.compat.jumper.Pathfinder self
function Pathfinder:reset() end

---The options of `astar.Grid:find` the shim passes for the current settings (extension):
---what to pass when searching `grid:toAstar(walkable)` with astar directly. A heuristic
---function comes wrapped as astar's `function(x, y, gx, gy)`; "BFS"/"DFS" in "DIAGONAL"
---mode carry a `cost` function.
---@return astar.GridFindOptions
function Pathfinder:getAstarOptions() end

---Finds a path from (startX, startY) to (endX, endY), both on the map (an error otherwise);
---the start may be unwalkable. With `clearance`, every cell entered needs at least that
---clearance (after `annotateGrid`; without it there is no path). "JPS" paths list the
---turning points only; "THETASTAR" paths are any-angle.
---@param startX integer
---@param startY integer
---@param endX integer
---@param endY integer
---@param clearance? integer
---@return astar.compat.jumper.Path|nil path `nil` when there is none (a blocked goal included)
function Pathfinder:getPath(startX, startY, endX, endY, clearance) end

------------------------------------------------------------------------------------------
-- Path
------------------------------------------------------------------------------------------

---A path, as Jumper's `jumper.core.path`: the grid's nodes from the start to the goal.
---`Path()` makes an empty one.
---@class astar.compat.jumper.Path
---@field _nodes astar.compat.jumper.Node[] the nodes, start first
---@field _grid? astar.compat.jumper.Grid the grid they belong to (`nil` for `Path()`)
---@overload fun(): astar.compat.jumper.Path
local Path = {}

---A new empty path; same as `Path()`.
---@return astar.compat.jumper.Path
function Path:new() end

---Iterates over the nodes: `for node, count in path:iter() do`.
---@return fun(): astar.compat.jumper.Node, integer
function Path:iter() end

---Iterates over the nodes: `for node, count in path:nodes() do` (same as `iter`).
---@return fun(): astar.compat.jumper.Node, integer
function Path:nodes() end

---The length: the sum of the straight-line distances between consecutive nodes (1 for a
---straight step, sqrt(2) for a diagonal one).
---@return number
function Path:getLength() end

---Inserts a node at `index` (default: at the end).
---@param node astar.compat.jumper.Node
---@param index? integer
---@return astar.compat.jumper.Path self
function Path:addNode(node, index) end

---Puts back the cells between nodes that are not neighbours (a "JPS" or "THETASTAR" path),
---so that every step is one cell; a path of one node is left as it is.
---@return astar.compat.jumper.Path self
function Path:fill() end

---Removes the nodes in the middle of straight runs (the opposite of `fill`).
---@return astar.compat.jumper.Path self
function Path:filter() end

---A copy of the path (the same node objects, a new list).
---@return astar.compat.jumper.Path
function Path:clone() end

---Whether two paths visit the same cells in the same order once straight runs are filtered
---(so a "JPS" path equals its filled form).
---@param other astar.compat.jumper.Path
---@return boolean
function Path:isEqualTo(other) end

---Reverses the path in place.
---@return astar.compat.jumper.Path self
function Path:reverse() end

---Appends the nodes of another path.
---@param other astar.compat.jumper.Path
---@return astar.compat.jumper.Path self
function Path:append(other) end

------------------------------------------------------------------------------------------
-- Node
------------------------------------------------------------------------------------------

---A cell of the map, as Jumper's `jumper.core.node`. A grid makes one per cell when first
---asked for and always returns the same one; a path's nodes are its grid's. `Node(x, y)`
---makes one that belongs to no grid.
---@class astar.compat.jumper.Node
---@field _x integer the x coordinate (column)
---@field _y integer the y coordinate (row)
---@overload fun(x: integer, y: integer): astar.compat.jumper.Node
local Node = {}

---A new node (not one of a grid's); same as `Node(x, y)`.
---@param x integer
---@param y integer
---@return astar.compat.jumper.Node
function Node:new(x, y) end

---The x coordinate (column).
---@return integer
function Node:getX() end

---The y coordinate (row).
---@return integer
function Node:getY() end

---Both coordinates.
---@return integer x
---@return integer y
function Node:getPos() end

---The clearance `Pathfinder:annotateGrid` computed for `walkable`: the side of the largest
---walkable square whose top-left cell is this one; `nil` if not computed.
---@param walkable astar.compat.jumper.Walkable the walkable value or function it was computed for
---@return integer|nil
function Node:getClearance(walkable) end

---Forgets this node's clearance for `walkable`.
---@param walkable astar.compat.jumper.Walkable
---@return astar.compat.jumper.Node self
function Node:removeClearance(walkable) end

---Does nothing (Jumper clears search data here; astar keeps none in nodes).
---@return astar.compat.jumper.Node self
function Node:reset() end

------------------------------------------------------------------------------------------
-- Heuristics
------------------------------------------------------------------------------------------

---Jumper's distance heuristics (`jumper.core.heuristics`): functions of two nodes, with
---dx, dy the differences of their coordinates. `Pathfinder:setHeuristic` takes their names
---or the functions; the built-in ones run inside astar's C core.
---@class astar.compat.jumper.Heuristics
local Heuristics = {}

---`|dx| + |dy|`: Jumper's default (overestimates with diagonal steps).
---@param a astar.compat.jumper.Node
---@param b astar.compat.jumper.Node
---@return number
function Heuristics.MANHATTAN(a, b) end

---`sqrt(dx^2 + dy^2)`.
---@param a astar.compat.jumper.Node
---@param b astar.compat.jumper.Node
---@return number
function Heuristics.EUCLIDIAN(a, b) end

---`max(|dx|, |dy|)`.
---@param a astar.compat.jumper.Node
---@param b astar.compat.jumper.Node
---@return number
function Heuristics.DIAGONAL(a, b) end

---`min(|dx|, |dy|) * sqrt(2) + max - min` (octile distance): gives shortest paths in
---"DIAGONAL" mode.
---@param a astar.compat.jumper.Node
---@param b astar.compat.jumper.Node
---@return number
function Heuristics.CARDINTCARD(a, b) end

------------------------------------------------------------------------------------------
-- The module: require "astar.compat.jumper"
------------------------------------------------------------------------------------------

---Jumper 1.8's API on astar: `local Grid, Pathfinder = jumper.grid, jumper.pathfinder`, or
---`install()` once and keep the game's `require "jumper.grid"` lines.
---@class astar.compat.jumper
---@field grid astar.compat.jumper.Grid `Grid(map [, cacheNodeData])` (`jumper.grid`)
---@field pathfinder astar.compat.jumper.Pathfinder `Pathfinder(grid [, finderName [, walkable]])` (`jumper.pathfinder`)
---@field path astar.compat.jumper.Path `Path()` (`jumper.core.path`)
---@field node astar.compat.jumper.Node `Node(x, y)` (`jumper.core.node`)
---@field heuristics astar.compat.jumper.Heuristics the built-in heuristics (`jumper.core.heuristics`)
local M = {}

---Makes `require "jumper.grid"`, `"jumper.pathfinder"`, `"jumper.core.path"`,
---`"jumper.core.node"` and `"jumper.core.heuristics"` return this shim's classes (it sets
---`package.loaded`). Call it before the game requires them.
---@return astar.compat.jumper M the module
function M.install() end

return M
