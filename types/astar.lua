---@meta astar
-- luacheck: no unused args, no max comment line length, ignore 241

-- Type annotations (LuaCATS) for `require "astar"`, for lua-language-server (LuaLS) and
-- the editors built on it (VS Code "Lua" extension, Neovim lua_ls, ...): completion, hover
-- docs and type checks for every function, method, option table and result. Nothing here
-- runs: the module is lua/astar.lua and the C module astar.core.
--
-- Use: add this folder (types/) to LuaLS's `workspace.library`, e.g. in the project's
-- .luarc.json:
--
--     { "workspace.library": ["path/to/astar/types"] }
--
-- (VS Code settings.json: "Lua.workspace.library"; Neovim lspconfig:
-- settings = { Lua = { workspace = { library = { "path/to/astar/types" } } } }).
-- `require "astar"` then resolves to this file; types/astar/scheduler.lua, movingai.lua, tiled.lua
-- and navmesh.lua do the same for `require "astar.scheduler"` etc. A LuaRocks install
-- ships the folder as <tree>/lib/luarocks/rocks-5.x/astar/<version>/types.
--
-- Conventions: cells are (x, y), 1-based, x = column, y = row. Outcomes that are not bugs
-- return `nil, message, code` (so `assert(grid:find(...))` works); programmer errors raise
-- `bad argument #n to 'f' (...)`. Checked against the built module by
-- tools/check_types.lua: every registered function and method is annotated here, and
-- nothing annotated here is missing from the module.

------------------------------------------------------------------------------------------
-- Enumerated strings
------------------------------------------------------------------------------------------

---The diagonal policy of grid searches, fields, components and replanners.
---@alias astar.Diagonal
---| "no_corner_cutting" # default: a diagonal step needs both orthogonal neighbours walkable (the Moving AI rule)
---| "never"             # 4-connected: no diagonal steps
---| "always"            # any diagonal step, even between two blocked cells
---| "one_obstacle"      # at most one of the two orthogonal neighbours blocked

---`algorithm` of `Grid:find` (default "auto"); `path:stats().algorithm` says which ran.
---@alias astar.GridAlgorithm
---| "auto"     # default: jump point search where it is provably shortest, A* otherwise
---| "jps"      # jump point search (an error with `cost`, `within` or `partial`)
---| "astar"    # A* (with `weight`: weighted A*)
---| "dijkstra" # no heuristic
---| "bfs"      # fewest steps (reports the real cost)
---| "greedy"   # best-first on the heuristic: fast, not shortest
---| "theta"    # Theta*: any-angle, bends at cell centres; a Path of points
---| "lazy_theta" # Lazy Theta*: the same paths, a line check per expansion
---| "directional" # Directional A* (Pinter): poses (cell, heading), moves along Dubins curves; a Path of poses
---| "hybrid" # "directional" plus shots: the curve straight to the goal, tried as the search goes (never costlier)
---| "hierarchical" # HPA* over the abstraction of `Grid:hierarchy` (made with clusters of 16 if none): legal paths, not always shortest

---`heuristic` names of `Grid:find`; each is scaled by the grid's smallest cell cost.
---@alias astar.GridHeuristic
---| "octile"    # default (with diagonal steps)
---| "manhattan" # default with `diagonal = "never"`
---| "euclidean"
---| "chebyshev"
---| "zero"      # Dijkstra

---`algorithm` of `Graph:find` (default "astar").
---@alias astar.GraphAlgorithm
---| "astar"         # default
---| "dijkstra"
---| "bfs"           # fewest edges
---| "greedy"
---| "bidirectional" # from both ends; always shortest (not with `within` or `weight`, nor in queries)

---`algorithm` of `astar.search` / `astar.query` (default "astar").
---@alias astar.SearchAlgorithm
---| "astar"    # default
---| "dijkstra"
---| "bfs"
---| "greedy"

---`algorithm` of `NavMesh:find` (default "astar").
---@alias astar.NavMeshAlgorithm
---| "astar"    # default
---| "dijkstra"

---`heuristic` names of `Graph:find` and `NavMesh:find`.
---@alias astar.EuclideanHeuristic
---| "euclidean" # default: never overestimates
---| "zero"      # Dijkstra

---`on_change` of queries: what an edit of the map does to a running query.
---@alias astar.OnChange
---| "restart" # default: the search starts again on the next step
---| "stale"   # the query ends with status "stale"
---| "continue" # it goes on regardless (a slightly stale answer)

---The third result of a search that found no path (or, with "partial", a partial one).
---@alias astar.Code
---| "no_path" # the goal cannot be reached
---| "blocked" # the start or the goal is blocked / disabled / off the mesh
---| "limit"   # `max_expansions` or `max_cost` stopped the search
---| "partial" # with `partial = true`: the first result is the path toward the goal

---The third result of `Query:result`.
---@alias astar.QueryCode
---| astar.Code
---| "running"   # the query has not finished
---| "cancelled" # `q:cancel()` was called
---| "stale"     # `on_change = "stale"` and the map changed

---The status of a time-sliced query (`Query:step`, `Query:stats`).
---@alias astar.QueryStatus
---| "running"
---| "found"
---| "partial"   # with `partial = true`
---| "none"      # no path, blocked ends or a limit
---| "stale"     # `on_change = "stale"` and the map changed
---| "cancelled"

---Why `Grid:check` / `Graph:check` rejected a stored path.
---@alias astar.CheckReason
---| "blocked" # the cell/node is blocked, removed or disabled (or a step cuts a blocked corner / its edge is gone)
---| "changed" # its cost changed since the path was found

---A cell value: a cost > 0, or `false` for blocked (`true` means cost 1 where accepted).
---@alias astar.Cost number|boolean

---A step-cost callback of grids: the cost of the step (x1, y1) -> (x2, y2) whose built-in
---cost is `base`; a number > 0, or `false`/`nil` to forbid the step. Callable tables work too.
---@alias astar.GridCostFn fun(x1: integer, y1: integer, x2: integer, y2: integer, base: number): number|false|nil

---A heuristic callback of grids: an estimate >= 0 of the cost from (x, y) to (gx, gy).
---@alias astar.GridHeuristicFn fun(x: integer, y: integer, gx: integer, gy: integer): number

---An edge-cost callback of graphs: the cost of the edge `from -> to` whose stored cost is
---`base` (always in the direction of travel); a number > 0, or `false`/`nil` to forbid it.
---@alias astar.GraphCostFn fun(from: integer, to: integer, base: number): number|false|nil

---A heuristic callback of graphs: an estimate >= 0 of the cost from `node` to `goal`.
---@alias astar.GraphHeuristicFn fun(node: integer, goal: integer): number

---A polygon-cost callback of navmeshes: the cost of crossing `polygon` into `next` (`nil`
---in the goal's polygon); `base` is the straight-line length inside it times its cost.
---A number >= 0, or `false`/`nil` to forbid it.
---@alias astar.NavMeshCostFn fun(polygon: integer, next: integer|nil, base: number): number|false|nil

---What a scheduled request's callback receives: what `find` returns.
---@alias astar.ResultCallback fun(path: astar.Path|nil, message: string|nil, code: astar.QueryCode|nil)

------------------------------------------------------------------------------------------
-- Option tables (unknown option names raise: they catch typos like `wieght`)
------------------------------------------------------------------------------------------

---Options of `Grid:find` (all optional; defaults return shortest paths).
---@class astar.GridFindOptions
---@field algorithm? astar.GridAlgorithm default "auto"
---@field diagonal? astar.Diagonal default "no_corner_cutting"
---@field heuristic? astar.GridHeuristic|astar.GridHeuristicFn default "octile" ("manhattan" with diagonal = "never")
---@field cost? astar.GridCostFn prices each step (callable tables too)
---@field weight? number >= 1: weighted A*, f = g + w*h; the path costs at most `weight` times the optimum (default 1)
---@field max_expansions? integer >= 0: stop with "limit" after this many expansions
---@field max_cost? number >= 0: paths costing more are not searched for ("limit")
---@field partial? boolean return the path to the expanded cell closest to the goal as `path, message, "partial"` (default false)
---@field goals? integer[][] `{{x, y}, ...}`: go to the cheapest to reach (`grid:find(sx, sy, {goals = ...})`); `path:stats().goal` says which
---@field within? number >= 0: any cell within heuristic distance `within` of the goal is accepted
---@field radius? number >= 0: the unit is a disc of this radius in cells (default 0)
---@field overlay? astar.Field a grid Field of this size, no value below 0: a step of length len into a cell adds len * overlay_scale * its value (unreached cells are not entered); not with "jps", "theta" or "lazy_theta"
---@field overlay_scale? number >= 0, finite: the overlay's factor (default 1)
---@field size? integer|integer[] a unit covering `size` x `size` cells, or `{w, h}`, whose top-left cell is the path's (integers in [1, 64]); not with `radius`, "jps", "theta" or "lazy_theta"
---@field heading? number "directional" and "hybrid" (so every option below): the start heading, radians counter-clockwise from +x (y down); default any
---@field goal_heading? number "directional": the heading to arrive with; default any
---@field turning? number "directional": the turning radius in cells, (0, 16] (default 1; `radius` then at most 4)
---@field headings? integer "directional": 8 (default) or 16 headings a cell
---@field neighborhood? integer "directional": moves to the 8, 24 (default) or 48 cells around (Pinter's Directional-8/24/48)
---@field reverse? boolean|number "directional": the unit may back up; a number >= 1 multiplies the cost of backing up (default false)
---@field turn_cost? number "directional": cost added per radian turned, >= 0 (default 0)
---@field reserve? astar.Reservations cooperative paths (Cooperative A*, WHCA* with `window`): a path conflict-free in space and time against the table; `algorithm` "astar" only; not with `heuristic`, `cost`, `goals`, `within`, `radius`, `size`, `overlay`
---@field unit? integer `reserve`: the unit planning, in [1, 2^31 - 2]: its own entries do not block it, and its path replaces them (needed unless `claim = false`)
---@field start_time? integer `reserve`: the time at the start, in [0, 2^30 - 1] (default 0)
---@field wait? boolean|number `reserve`: waiting in place is a move costing the grid's smallest cell cost (true, the default), this cost (a number > 0), or not allowed (false)
---@field window? integer `reserve`: WHCA*: only the first `window` steps are conflict-free (and reserved); the path goes on along a shortest grid path (default: the whole path, Cooperative A*)
---@field claim? boolean `reserve`: reserve the path found for `unit`, holding its goal if it ends there (default true)
---@field refine? boolean `"hierarchical"`: false returns the abstract path's points (start, cluster border cells, goal), each leg inside one cluster (default true: every cell)

---Options of `Grid:query`: those of `find`, plus `on_change`.
---@class astar.GridQueryOptions: astar.GridFindOptions
---@field on_change? astar.OnChange default "restart"

---Options of `astar.batch`: `threads`, plus the options of `Grid:find` that worker threads run
---(not `cost`, a `heuristic` function, `goals`, `overlay`, `radius`, `size`, "directional" nor
---"hybrid": they raise).
---@class astar.BatchOptions: astar.GridFindOptions
---@field threads? integer worker threads, 1 to 64 (default the number of processors)

---Options of `astar.workers`.
---@class astar.WorkersOptions
---@field threads? integer worker threads, 1 to 64 (default one less than the processors, at least 1)

---Options of `Workers:submit`: those `astar.batch` takes but `threads`, plus `on_change`.
---@class astar.SubmitOptions: astar.GridFindOptions
---@field on_change? "stale"|"restart" an edit of the grid before the result is taken: `nil, message, "stale"` (default) or the search again on the edited grid

---Options of `Grid:splice`: those of `find` but `goals`, `within`, `partial`, `radius`, `size`
---and `overlay`, plus `ratio`.
---@class astar.SpliceOptions
---@field algorithm? astar.GridAlgorithm
---@field diagonal? astar.Diagonal
---@field heuristic? astar.GridHeuristic|astar.GridHeuristicFn
---@field cost? astar.GridCostFn
---@field weight? number
---@field max_expansions? integer
---@field max_cost? number
---@field ratio? number >= 1: re-plan in full when the detour has more than `ratio` times the steps it replaces (default 3)

---Options of `Grid:distance_field`.
---@class astar.GridFieldOptions
---@field diagonal? astar.Diagonal default "no_corner_cutting"
---@field max_cost? number >= 0: cells whose distance would exceed it stay unreached
---@field cost? astar.GridCostFn as `find`'s, called for the forward step (toward the source)
---@field scale? number finite; required (and only allowed) when `sources` is a Field: each reached cell becomes a source of value `scale * distance` (negative: a flee map)
---@field radius? number >= 0: distances for a disc of this radius in cells (default 0)
---@field overlay? astar.Field as `find`'s: added to each step toward the source
---@field overlay_scale? number >= 0, finite (default 1)
---@field size? integer|integer[] distances for a unit of this footprint, as `find`'s

---Options of `Grid:replanner`.
---@class astar.ReplannerOptions
---@field diagonal? astar.Diagonal default "no_corner_cutting"
---@field radius? number the unit's radius in cells, default 0

---Options of `astar.graph`.
---@class astar.GraphOptions
---@field directed? boolean one-way edges (default false)

---Options of `Graph:find`.
---@class astar.GraphFindOptions
---@field algorithm? astar.GraphAlgorithm default "astar"
---@field heuristic? astar.EuclideanHeuristic|astar.GraphHeuristicFn default "euclidean" (times the smallest cost/length ratio)
---@field cost? astar.GraphCostFn
---@field weight? number >= 1 (default 1)
---@field max_expansions? integer >= 0
---@field max_cost? number >= 0
---@field partial? boolean default false
---@field goals? integer[] node ids (`graph:find(a, {goals = ...})`); disabled goals are skipped
---@field within? number >= 0: any enabled node within this Euclidean distance of the goal is accepted

---Options of `Graph:query`: those of `find` (not "bidirectional"), plus `on_change`.
---@class astar.GraphQueryOptions: astar.GraphFindOptions
---@field on_change? astar.OnChange default "restart"

---Options of `Graph:distance_field`.
---@class astar.GraphFieldOptions
---@field max_cost? number >= 0: nodes whose distance would exceed it stay unreached
---@field cost? astar.GraphCostFn as `find`'s, called in the direction of travel (toward the source)
---@field scale? number required (and only allowed) when `sources` is a Field

---The table `astar.navmesh{...}` takes: convex polygons over shared vertices.
---@class astar.NavMeshDesc
---@field vertices number[] `{x1, y1, x2, y2, ...}`, at least 3 points
---@field polygons integer[][] `{{1, 2, 3}, ...}`: 1-based vertex indices, either orientation
---@field costs? number[] one cost (> 0) per polygon (default 1)
---@field flags? integer[] one 32-bit flag set per polygon (default 1)

---Options of `astar.navmesh.from_grid`.
---@class astar.FromGridOptions
---@field tile? number > 0: the size of a cell (default 1)

---Options of `NavMesh:find`.
---@class astar.NavMeshFindOptions
---@field radius? number >= 0: keep the whole path this far from every wall (default 0)
---@field include? integer flag mask: use polygons with `flags & include ~= 0` (default all bits)
---@field exclude? integer flag mask: never use polygons with `flags & exclude ~= 0` (default 0)
---@field cost? astar.NavMeshCostFn
---@field heuristic? astar.EuclideanHeuristic default "euclidean"
---@field algorithm? astar.NavMeshAlgorithm default "astar"
---@field weight? number >= 1 (default 1)
---@field max_expansions? integer >= 0
---@field max_cost? number >= 0
---@field partial? boolean default false: return the path to the reached point nearest the goal

---Options of `NavMesh:query`: those of `find`, plus `on_change`.
---@class astar.NavMeshQueryOptions: astar.NavMeshFindOptions
---@field on_change? astar.OnChange default "restart"

---Options of `NavMesh:raycast`.
---@class astar.RaycastOptions
---@field include? integer flag mask (default all bits)
---@field exclude? integer flag mask (default 0)

---The table of `astar.search` and `astar.query`: a graph described by callbacks. Nodes are
---any Lua values but `nil` and NaN. One of `goal`, `goals` and `is_goal` is required.
---@class astar.SearchOptions
---@field start any required: the first node
---@field neighbors fun(node: any, emit: fun(next: any, cost: number)) required: calls `emit(next, cost)` (cost a finite number > 0) for each successor; `emit` works only during that call
---@field goal? any the node to reach (with `is_goal`, only passed to the heuristic)
---@field goals? any[] several goals: the path goes to the cheapest; `path:stats().goal` is its index
---@field is_goal? fun(node: any): any truthy ends the search at `node`
---@field heuristic? fun(node: any, goal: any): number an estimate >= 0 of the cost left (without it: Dijkstra)
---@field key? fun(node: any): number|string names a node (give it for table nodes built afresh)
---@field algorithm? astar.SearchAlgorithm default "astar"
---@field weight? number >= 1 (default 1)
---@field max_expansions? integer >= 0
---@field max_cost? number >= 0
---@field partial? boolean default false
---@field within? number >= 0: accept any node whose heuristic to the goal is <= within (needs `heuristic`, not `is_goal`)

---Options of `astar.scheduler`.
---@class astar.SchedulerOptions
---@field budget integer the most node expansions one `update` spends (>= 1)

---Options of `astar.follow`.
---@class astar.FollowOptions
---@field start? number >= 0: the distance already walked (default 0)

---A colour for `love.graphics.setColor`: `{r, g, b [, a]}`, each in [0, 1].
---@alias astar.Colour number[]

---Options of `astar.love.draw_grid`.
---@class astar.DrawGridOptions
---@field tile? number > 0: square cells of this size from (0, 0) instead of the grid's world frame
---@field colors? { wall?: astar.Colour, ramp?: astar.Colour[] } blocked cells' colour; walkable cells' colours, cheapest cost first

---Options of `astar.love.draw_path`.
---@class astar.DrawPathOptions
---@field tile? number > 0: with a grid, square cells of this size from (0, 0) instead of its world frame
---@field color? astar.Colour default {1, 0.8, 0.1}
---@field width? number the line's width (default 2)

---Options of `astar.love.draw_mesh`.
---@class astar.DrawMeshOptions
---@field color? astar.Colour the outlines' colour (default {0.3, 0.7, 1})
---@field fill? astar.Colour fill the polygons with this colour first (default: no fill)
---@field width? number the outlines' width (default 1)

---Options of `astar.love.draw_search`.
---@class astar.DrawSearchOptions
---@field tile? number > 0: square cells of this size from (0, 0) instead of the grid's world frame
---@field size? number the squares' size in pixels (default half a tile, at least 1)
---@field closed? astar.Colour the closed cells' colour
---@field open? astar.Colour the open cells' colour

------------------------------------------------------------------------------------------
-- Result tables
------------------------------------------------------------------------------------------

---`Grid:stats()` / `Graph:stats()`.
---@class astar.MapStats
---@field allocations integer allocator calls of the map and its search contexts so far
---@field edits integer the edit counter

---`Path:stats()`: the search that found the path.
---@class astar.PathStats
---@field expanded integer
---@field generated integer
---@field reopened integer
---@field algorithm string what ran: "astar", "jps", "jps+", "dijkstra", "bfs", "greedy", "bidirectional", "to_path", "dstar_lite", ...
---@field goal? integer with `goals`: the index of the goal reached

---`Field:stats()`.
---@class astar.FieldStats
---@field reached integer cells or nodes with a distance
---@field expanded integer
---@field generated integer

---`Query:stats()`.
---@class astar.QueryStats
---@field status astar.QueryStatus
---@field expanded integer
---@field generated integer
---@field restarts integer how often the search started again (edits, callback errors)

---`Replanner:stats()`.
---@class astar.ReplannerStats
---@field expanded integer vertices expanded by the last repair
---@field total integer vertices expanded over the replanner's life
---@field resets integer how often it had to start afresh

---`NavMesh:stats()`: sizes and the bounding box.
---@class astar.NavMeshStats
---@field polygons integer
---@field vertices integer
---@field portals integer
---@field allocs integer
---@field x0 number
---@field y0 number
---@field x1 number
---@field y1 number

---A Moving AI scenario (`astar.load_scenarios`), coordinates 1-based.
---@class astar.Scenario
---@field bucket number
---@field map string the map file's name
---@field width integer
---@field height integer
---@field sx integer
---@field sy integer
---@field gx integer
---@field gy integer
---@field optimal number the published optimal length

------------------------------------------------------------------------------------------
-- Grid
------------------------------------------------------------------------------------------

---A tile grid: cells with costs > 0 or blocked. A step into cell b costs `len * c(b)`,
---`len` 1 orthogonally and √2 diagonally. Also `__close` (Lua 5.4 `<close>`) and `__gc`.
---@class astar.Grid
local Grid = {}

---The grid's size.
---@return integer w width (columns)
---@return integer h height (rows)
function Grid:size() end

---A cell's cost, or `false` if it is blocked.
---@param x integer column, 1-based
---@param y integer row, 1-based
---@return number|false cost
function Grid:get(x, y) end

---Sets a cell.
---@param x integer
---@param y integer
---@param v astar.Cost a cost > 0, `false` (blocked) or `true` (cost 1)
function Grid:set(x, y, v) end

---Sets every cell of the `w` x `h` rectangle whose top-left cell is (x, y); it must lie
---inside the grid.
---@param x integer
---@param y integer
---@param w integer >= 0
---@param h integer >= 0
---@param v astar.Cost
function Grid:fill(x, y, w, h, v) end

---Whether a cell may be entered (`true` unless it is blocked).
---@param x integer
---@param y integer
---@return boolean
function Grid:walkable(x, y) end

---Options of `Grid:link` and `Grid:unlink`.
---@class astar.LinkOptions
---@field oneway? boolean only from the first cell to the second (default: both ways)

---Links two cells with a move of a fixed cost (a ladder, a teleporter): every search takes it
---while both cells are walkable. Both ways unless `oneway`; linking again sets the cost.
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@param cost number > 0, finite (not multiplied by cell costs)
---@param opts? astar.LinkOptions
function Grid:link(x1, y1, x2, y2, cost, opts) end

---Removes the link between two cells (both ways unless `oneway`).
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@param opts? astar.LinkOptions
---@return integer removed 0, 1 or 2
function Grid:unlink(x1, y1, x2, y2, opts) end

---The grid's links, one entry per direction: `{{x1, y1, x2, y2, cost}, ...}`.
---@return number[][]
function Grid:links() end

---A movement class: a grid that follows this one through a table of costs (a cost it does
---not name is kept; `false` names blocked cells). Every later `set`/`fill` of this grid is made
---to it too; it is a Grid for everything else, but may not be edited itself.
---@param costs table<number|boolean, number|boolean> `{[cost here] = cost in the class}`, at most 256
---@return astar.Grid
function Grid:class(costs) end

---A hex grid's cell in axial coordinates (cell (1, 1) is (0, 0)).
---@param x integer
---@param y integer
---@return integer q
---@return integer r
function Grid:to_axial(x, y) end

---The cell of axial coordinates q, r, or nil outside the grid.
---@param q integer
---@param r integer
---@return integer? x
---@return integer? y
function Grid:from_axial(q, r) end

---Steps between two cells of a hex grid with nothing in the way.
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@return integer
function Grid:hex_distance(x1, y1, x2, y2) end

---Makes the grid wrap around: "x" (a cylinder), "y", "xy" (a torus) or "none".
---@param mode "x"|"y"|"xy"|"none"
---@return astar.Grid self
function Grid:set_wrap(mode) end

---How the grid wraps ("x", "y", "xy"), or nil.
---@return ("x"|"y"|"xy")?
function Grid:wrap() end

---A hex grid's layout, or nil for a square grid.
---@return ("odd-r"|"even-r"|"odd-q"|"even-q")?
function Grid:hex() end

---A Field holding this grid's cells as values (0 where blocked), for the `overlay` option.
---@return astar.Field
function Grid:to_field() end

---A grid's place in the world: cell (x, y) covers [ox + (x-1)*tw, ox + x*tw] x
---[oy + (y-1)*th, oy + y*th].
---@class astar.World
---@field tile? number|number[] a square tile's size, or `{tw, th}` (default 1)
---@field origin? number[] `{ox, oy}`, the grid's top-left corner (default `{0, 0}`)

---Places the grid in the world; not an edit. Returns the grid.
---@param world astar.World
---@return astar.Grid
function Grid:set_world(world) end

---The world frame: tile width and height, origin x and y.
---@return number tw
---@return number th
---@return number ox
---@return number oy
function Grid:world() end

---The world point at the centre of cell (x, y) (any finite numbers).
---@param x number
---@param y number
---@return number wx
---@return number wy
function Grid:to_world(x, y) end

---The cell under a world point, or nil off the grid.
---@param wx number
---@param wy number
---@return integer? x
---@return integer? y
function Grid:to_cell(wx, wy) end

---A path in cells (grid, smoothed, any-angle) as flat world points `{x1, y1, ...}`.
---@param path astar.Path
---@param into? number[] a table to refill
---@return number[]
function Grid:world_points(path, into) end

---`find` between the cells under two world points: world points and the Path.
---@param wx0 number
---@param wy0 number
---@param wx1 number
---@param wy1 number
---@param opts? astar.GridFindOptions
---@return number[]? points
---@return astar.Path|string path_or_message
---@return string? code
function Grid:find_world(wx0, wy0, wx1, wy1, opts) end

---Whether a unit of radius `r` can move straight from point `(x1, y1)` to `(x2, y2)` (cell
---`(x, y)`'s centre is the point `(x, y)`) without touching a blocked cell; and the move's cost.
---@param x1 number
---@param y1 number
---@param x2 number
---@param y2 number
---@param r? number the unit's radius in cells, default 0
---@return boolean clear
---@return number|nil cost
function Grid:walkable_line(x1, y1, x2, y2, r) end

---An independent copy of the grid (not prepared).
---@return astar.Grid
function Grid:clone() end

---JPS+ for static maps: precomputes every jump under `diagonal` ("no_corner_cutting", the
---default, or "never"); jumping searches then read them (`stats().algorithm` is "jps+").
---Grids with a side of 32766 cells or more cannot be prepared.
---@param diagonal? "no_corner_cutting"|"never"
---@return integer bytes the bytes the tables take
function Grid:prepare(diagonal) end

---@class astar.HierarchyOptions
---@field cluster? integer the side of a cluster in cells, 4 to 64 (default 16)
---@field diagonal? "no_corner_cutting"|"never"|"always"|"one_obstacle" the policy it is built for
---@field threads? integer threads that build it (and rebuild it after many edits), 1 to 64; default the processors
---@field auto? boolean|number let find's "auto" search it for ends at least this many cells apart (true: 1024; false: no more); paths then not always shortest

---@class astar.HierarchyInfo
---@field cluster integer
---@field diagonal string
---@field clusters integer
---@field nodes integer abstract nodes (cells on cluster borders)
---@field edges integer costs known inside clusters
---@field rebuilt integer clusters (re)built by this call
---@field bytes integer memory held
---@field digest string a hash of every node and cost (equal grids give equal digests)
---@field auto number|false the distance from which "auto" searches it, or false

---HPA*: builds, or brings up to date with the edits since (locally: only clusters within one
---cell of an edit), the abstraction `find` uses with `algorithm = "hierarchical"`. One per
---cluster size and policy, at most 8 a grid. Not for hex or wrapping grids, nor with links.
---@param opts? astar.HierarchyOptions
---@return astar.HierarchyInfo
function Grid:hierarchy(opts) end

---Memory and edit counters.
---@return astar.MapStats
function Grid:stats() end

---Finds a path from (sx, sy) to (gx, gy); or to the cheapest of several goals with
---`grid:find(sx, sy, {goals = {{x, y}, ...}})`.
---@param sx integer start column
---@param sy integer start row
---@param gx integer goal column
---@param gy integer goal row
---@param opts? astar.GridFindOptions
---@return astar.Path|nil path the path (with `partial = true` and code "partial": the path toward the goal)
---@return string|nil message why there is no path
---@return astar.Code|nil code "no_path", "blocked", "limit" or "partial"
---@overload fun(self: astar.Grid, sx: integer, sy: integer, opts: astar.GridFindOptions): astar.Path|nil, string|nil, astar.Code|nil
function Grid:find(sx, sy, gx, gy, opts) end

---A time-sliced `find`: the same arguments and options, plus `on_change`. Nothing is
---searched until `q:step(n)`.
---@param sx integer
---@param sy integer
---@param gx integer
---@param gy integer
---@param opts? astar.GridQueryOptions
---@return astar.Query
---@overload fun(self: astar.Grid, sx: integer, sy: integer, opts: astar.GridQueryOptions): astar.Query
function Grid:query(sx, sy, gx, gy, opts) end

---Whether a stored path is still good: every cell walkable, every step legal, no cost changed.
---@param path astar.Path a path found on this grid
---@return boolean ok
---@return integer|nil index the first point that is no longer good
---@return astar.CheckReason|nil why
function Grid:check(path) end

---A Path through the given cells (each step to a neighbour), priced by the grid's cost
---model or by `cost`; `nil, message, "blocked"` if a cell is blocked, a step cuts a blocked
---corner or the callback forbids a step.
---@param points integer[] `{x1, y1, x2, y2, ...}`
---@param diagonal? astar.Diagonal the policy the steps must obey (default "no_corner_cutting")
---@param cost? astar.GridCostFn
---@return astar.Path|nil path
---@return string|nil message
---@return "blocked"|nil code
function Grid:to_path(points, diagonal, cost) end

---Frees the grid's memory now; idempotent. Paths found earlier stay valid; any other later
---use raises `attempt to use a closed grid`.
function Grid:close() end

---A distance field (Dijkstra map, flow field): for every cell, the cost of the cheapest
---path to the nearest source plus that source's value, and the next step on it.
---@param sources integer[][]|astar.Field `{{x, y}, {x, y, value}, ...}` (not empty), or a Field of a grid of this size (with `opts.scale`)
---@param opts? astar.GridFieldOptions
---@return astar.Field
function Grid:distance_field(sources, opts) end

---The number of connected components of walkable cells under `diagonal` ("always":
---8-connected; the others: 4-connected). From the first call on, `find` answers a goal in
---another component at once with "no_path".
---@param diagonal? astar.Diagonal default "no_corner_cutting"
---@return integer
function Grid:components(diagonal) end

---A cell's component label, 1 .. `components()`, or `nil` if the cell is blocked.
---@param x integer
---@param y integer
---@param diagonal? astar.Diagonal
---@return integer|nil
function Grid:component(x, y, diagonal) end

---Whether a path joins two cells (both walkable, same component); O(1).
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@param diagonal? astar.Diagonal
---@return boolean
function Grid:same_component(x1, y1, x2, y2, diagonal) end

---An incremental re-planner (D* Lite) for an agent at (sx, sy) going to (gx, gy).
---@param sx integer
---@param sy integer
---@param gx integer
---@param gy integer
---@param opts? astar.ReplannerOptions
---@return astar.Replanner
function Grid:replanner(sx, sy, gx, gy, opts) end

---The grid as text, one line per row: `#` blocked, `.` cost 1, a digit for other costs
---(rounded, 9 at most), `*` cells of `path`, `S` and `G` its ends.
---@param path? astar.Path
---@return string
function Grid:render(path) end

---Path splicing: the agent stands on point `at` of `path`; re-plans the next `n` steps and
---keeps the rest. Falls back to a full `find` to the path's goal when no detour exists,
---when the detour is more than `opts.ratio` times longer, or when the tail is blocked.
---@param path astar.Path a path found on this grid
---@param at? integer the index of the agent's point (default 1)
---@param n? integer how many steps to re-plan (default 8)
---@param opts? astar.SpliceOptions
---@return astar.Path|nil path (`stats().algorithm` is "to_path" when spliced)
---@return string|nil message
---@return astar.Code|nil code
function Grid:splice(path, at, n, opts) end

------------------------------------------------------------------------------------------
-- Graph
------------------------------------------------------------------------------------------

---A graph of nodes with integer ids 1, 2, 3... (in the order they were added), each with an
---optional 2D or 3D position, joined by edges with costs > 0. Undirected by default. Also
---`__close` and `__gc`.
---@class astar.Graph
local Graph = {}

---Adds a node, with a 2D or 3D position or none.
---@param x? number
---@param y? number (with x)
---@param z? number
---@return integer id the new node's id
function Graph:add_node(x, y, z) end

---Adds the edge a -> b (both ways if undirected), or replaces the cost of the existing one.
---@param a integer
---@param b integer a node other than a
---@param cost? number > 0; default: the Euclidean distance between the positions
function Graph:add_edge(a, b, cost) end

---Removes the edge a -> b.
---@param a integer
---@param b integer
---@return boolean removed whether there was such an edge
function Graph:remove_edge(a, b) end

---Sets the cost of the existing edge a -> b (an error if there is none).
---@param a integer
---@param b integer
---@param cost number > 0
function Graph:set_edge_cost(a, b, cost) end

---The cost of the edge a -> b, or `nil` if there is no such edge.
---@param a integer
---@param b integer
---@return number|nil
function Graph:edge_cost(a, b) end

---Disables a node: searches never enter nor leave it; its edges stay.
---@param a integer
function Graph:disable_node(a) end

---Enables a disabled node again.
---@param a integer
function Graph:enable_node(a) end

---Whether a node is enabled.
---@param a integer
---@return boolean
function Graph:enabled(a) end

---Removes a node and its edges; its id is never reused (using it raises).
---@param a integer
function Graph:remove_node(a) end

---The edges leaving `a` (all its edges if undirected), in the order they were added:
---`for b, cost in g:neighbors(a) do ... end`. Editing the graph inside the loop raises.
---@param a integer
---@return fun(): integer, number
function Graph:neighbors(a) end

---The number of nodes (removed ones excluded, disabled ones included).
---@return integer
function Graph:node_count() end

---The number of edges (an undirected edge counts once).
---@return integer
function Graph:edge_count() end

---Whether the graph is directed.
---@return boolean
function Graph:directed() end

---A node's position: `x, y, z` (z = 0 for 2D nodes), or `nil` if it has none.
---@param a integer
---@return number|nil x
---@return number|nil y
---@return number|nil z
function Graph:position(a) end

---Finds a path from node a to node b, or to the cheapest of several goals with
---`graph:find(a, {goals = {b, c}, ...})`.
---@param a integer start node
---@param b integer goal node
---@param opts? astar.GraphFindOptions
---@return astar.Path|nil path
---@return string|nil message
---@return astar.Code|nil code
---@overload fun(self: astar.Graph, a: integer, opts: astar.GraphFindOptions): astar.Path|nil, string|nil, astar.Code|nil
function Graph:find(a, b, opts) end

---A time-sliced `find` (not "bidirectional"), plus `on_change`.
---@param a integer
---@param b integer
---@param opts? astar.GraphQueryOptions
---@return astar.Query
---@overload fun(self: astar.Graph, a: integer, opts: astar.GraphQueryOptions): astar.Query
function Graph:query(a, b, opts) end

---Whether a stored path is still good: every node there and enabled, every edge there
---with the cost it had.
---@param path astar.Path a path found on this graph
---@return boolean ok
---@return integer|nil index the first point that is no longer good
---@return astar.CheckReason|nil why
function Graph:check(path) end

---The number of weakly connected components (directions ignored; disabled nodes belong
---to none). From the first call on, `find` answers a goal in another component at once.
---@return integer
function Graph:components() end

---A node's component label (1 .. `components()`), or `nil` if the node is disabled.
---@param a integer
---@return integer|nil
function Graph:component(a) end

---Whether two nodes are enabled and connected (directions ignored); O(1).
---@param a integer
---@param b integer
---@return boolean
function Graph:same_component(a, b) end

---A distance field over the graph (along edge directions, toward the sources).
---@param sources (integer|number[])[]|astar.Field node ids and `{id, value}` pairs, or a Field of this graph (with `opts.scale`)
---@param opts? astar.GraphFieldOptions
---@return astar.Field
function Graph:distance_field(sources, opts) end

---Memory and edit counters.
---@return astar.MapStats
function Graph:stats() end

---Frees the graph now; idempotent. Paths stay valid; later use raises.
function Graph:close() end

------------------------------------------------------------------------------------------
-- NavMesh
------------------------------------------------------------------------------------------

---A navigation mesh: walkable convex polygons; any-angle paths across them. Also
---`__close` and `__gc`.
---@class astar.NavMesh
local NavMesh = {}

---Finds a path from (x0, y0) to (x1, y1): the funnel-straightened points (start and goal
---included), `path:corridor()` the polygons crossed, `path:cost()` the length inside each
---polygon times its cost.
---@param x0 number
---@param y0 number
---@param x1 number
---@param y1 number
---@param opts? astar.NavMeshFindOptions
---@return astar.Path|nil path
---@return string|nil message
---@return astar.Code|nil code
function NavMesh:find(x0, y0, x1, y1, opts) end

---A time-sliced `find`, plus `on_change`.
---@param x0 number
---@param y0 number
---@param x1 number
---@param y1 number
---@param opts? astar.NavMeshQueryOptions
---@return astar.Query
function NavMesh:query(x0, y0, x1, y1, opts) end

---The polygon containing (x, y) (on a shared edge: one of the two), or `nil`.
---@param x number
---@param y number
---@return integer|nil
function NavMesh:locate(x, y) end

---The point of the mesh closest to (x, y) (the point itself when it is on the mesh).
---@param x number
---@param y number
---@return number x
---@return number y
---@return integer polygon
function NavMesh:nearest(x, y) end

---The distance from (x, y) to the nearest wall.
---@param x number
---@param y number
---@return number
function NavMesh:clearance(x, y) end

---Whether the segment (x0, y0) - (x1, y1) stays on the mesh; else `false, x, y, polygon`
---where it leaves (`polygon` nil when the start is off the mesh).
---@param x0 number
---@param y0 number
---@param x1 number
---@param y1 number
---@param opts? astar.RaycastOptions
---@return boolean clear
---@return number|nil x
---@return number|nil y
---@return integer|nil polygon
function NavMesh:raycast(x0, y0, x1, y1, opts) end

---Links two points of the mesh with a move of a fixed cost (a ladder, a jump, a teleporter: an
---off-mesh link). Every search takes it while both ends are on polygons the flags allow (and,
---with a radius, while the unit fits at both). Both ways unless `oneway`; linking again sets
---the cost.
---@param x1 number
---@param y1 number
---@param x2 number
---@param y2 number
---@param cost number > 0, finite (not multiplied by polygon costs)
---@param opts? astar.LinkOptions
function NavMesh:link(x1, y1, x2, y2, cost, opts) end

---Removes the link between two points (both ways unless `oneway`).
---@param x1 number
---@param y1 number
---@param x2 number
---@param y2 number
---@param opts? astar.LinkOptions
---@return integer removed 0, 1 or 2
function NavMesh:unlink(x1, y1, x2, y2, opts) end

---The mesh's links, one entry per direction, in the order they were made:
---`{{x1, y1, x2, y2, cost}, ...}`.
---@return number[][]
function NavMesh:links() end

---Sets polygon p's cost (a multiplier of the distance walked inside it, > 0).
---@param p integer
---@param cost number
function NavMesh:set_cost(p, cost) end

---Polygon p's cost.
---@param p integer
---@return number
function NavMesh:cost(p) end

---Sets polygon p's 32 flag bits (default 1); flags 0 close it.
---@param p integer
---@param flags integer
function NavMesh:set_flags(p, flags) end

---Polygon p's flags.
---@param p integer
---@return integer
function NavMesh:flags(p) end

---Every polygon as a list of vertex indices into `vertices()`, counter-clockwise.
---@return integer[][]
function NavMesh:polygons() end

---Polygon p's corners as a flat list `{x1, y1, x2, y2, ...}`.
---@param p integer
---@return number[]
function NavMesh:polygon(p) end

---The vertices as a flat list `{x1, y1, x2, y2, ...}`.
---@return number[]
function NavMesh:vertices() end

---Polygon p's neighbours, one per edge: a polygon index, or `false` for a wall.
---@param p integer
---@return (integer|false)[]
function NavMesh:neighbours(p) end

---Sizes and bounding box.
---@return astar.NavMeshStats
function NavMesh:stats() end

---Frees the mesh now; idempotent (refused from a callback of its own search).
function NavMesh:close() end

------------------------------------------------------------------------------------------
-- Path
------------------------------------------------------------------------------------------

---A path: a compact C array of points, start and goal included; it outlives the map it came
---from. Points are `x, y` (grids, navmeshes), node ids (graphs) or node values
---(`astar.search`). `#path` is the number of points.
---@class astar.Path
---@operator len: integer
local Path = {}

---Point i (negative i counts from the end): `x, y` on grids and navmeshes, the node id on
---graphs, the node value for `astar.search`.
---@param i integer
---@return any x x, the node id or the node value
---@return number|nil y
function Path:get(i) end

---Iterates over the points: `for i, x, y in path:points() do` (`i, id` on graphs,
---`i, node` for `astar.search`).
---@return fun(path: astar.Path, i: integer): integer, any, number
---@return astar.Path
---@return integer
function Path:points() end

---The total cost (the sum of the step costs).
---@return number
function Path:cost() end

---The points as one flat list `{x1, y1, x2, y2, ...}` (`love.graphics.line`); graph paths:
---the nodes' positions; a path of poses ("directional"): points every `step` (default 0.25)
---along its curves.
---@param step? number
---@return number[]
function Path:flat(step) end

---A path of poses ("directional"): the length driven along its moves.
---@return number
function Path:length() end

---A path of poses ("directional"): the pose after driving distance `s` (clamped); the heading
---is the way the unit faces (backing up, against its motion).
---@param s number
---@return number x
---@return number y
---@return number heading radians in [0, 2 pi)
function Path:sample(s) end

---A path of poses ("directional"): its moves `{{word, length, direction}, ...}`, one per step
---from point i to i + 1 (direction 1 forward, -1 backing up).
---@return table[]
function Path:segments() end

---A path of poses ("directional"): the curve of the move from point i to i + 1 (headings
---where the unit faces; backing up, its segments go backward).
---@param i integer
---@return astar.Curve
function Path:curve(i) end

---The points where the path turns, start and goal included, as a flat list.
---@return number[]
function Path:waypoints() end

---A cooperative path (`find` with `reserve`): the time the unit is at point i
---(`start_time + i - 1`; a wait repeats a cell), whether point i was planned against the
---table (WHCA*: not after the window), and whether the unit then holds its goal.
---@param i integer
---@return integer time
---@return boolean planned
---@return boolean holds
function Path:time(i) end

---`{{x = x1, y = y1}, ...}` on grids; the list of ids or node values otherwise.
---@return table
function Path:table() end

---Statistics of the search that found the path.
---@return astar.PathStats
function Path:stats() end

---The points' positions as a flat list `{x1, y1, ...}` (graph paths; grids: as `flat`).
---@return number[]
function Path:positions() end

---The polygons a navmesh path crosses, start's first (other paths: an error).
---@return integer[]
function Path:corridor() end

---The cost of the link the step from point `i` to `i + 1` takes, or `nil` for a walk (grid and
---navmesh paths; `nil` on graph and implicit paths).
---@param i integer
---@return number|nil
function Path:link(i) end

---Options of `Path:smooth`.
---@class astar.SmoothOptions
---@field radius? number the unit's radius in cells, default 0
---@field pull? boolean pull the string taut after Pinter's pass (default true)

---A smoothed copy of a grid path (Pinter's pass, then pulled taut): never cuts a corner, never
---nearer than `radius` to a wall where it leaves the steps, never costlier. Its points are
---numbers (with `pull = false`, cell centres).
---@param grid astar.Grid the grid it was found on
---@param opts? astar.SmoothOptions
---@return astar.Path
function Path:smooth(grid, opts) end

------------------------------------------------------------------------------------------
-- Field
------------------------------------------------------------------------------------------

---A distance field (Dijkstra map, flow field), made by `Grid:distance_field` or
---`Graph:distance_field`: a snapshot that outlives its map. Grid fields take `(x, y)`,
---graph fields a node id.
---@class astar.Field
local Field = {}

---The distance of a cell (or node) to its nearest source plus that source's value; `nil`
---where unreached.
---@param x integer column, or the node id (graph fields)
---@param y? integer row (grid fields)
---@return number|nil
function Field:distance(x, y) end

---The next step toward the nearest source: `x, y` (grid fields) or the node id; `nil` at a
---source or where unreached.
---@param x integer
---@param y? integer
---@return integer|nil x x or the next node id
---@return integer|nil y
function Field:next(x, y) end

---The path from a cell (or node) to its nearest source, following `next`.
---@param x integer
---@param y? integer
---@return astar.Path|nil path
---@return string|nil message
---@return "no_path"|nil code
function Field:path_from(x, y) end

---`w, h` of the grid (grid fields), or the number of node ids covered (graph fields).
---@return integer w_or_n
---@return integer|nil h
function Field:size() end

---Statistics of the search that made the field.
---@return astar.FieldStats
function Field:stats() end

------------------------------------------------------------------------------------------
-- Query
------------------------------------------------------------------------------------------

---A time-sliced search, made by `Grid:query`, `Graph:query`, `NavMesh:query` and
---`astar.query`: it expands at most `n` nodes per `step(n)`. Also `__close` and `__gc`.
---@class astar.Query
local Query = {}

---Expands at most `n` nodes. A finished query keeps answering its final status.
---@param n integer >= 0
---@return astar.QueryStatus status
---@return integer expanded the expansions this call did
function Query:step(n) end

---What `find` would have returned; while running `nil, "query still running", "running"`.
---@return astar.Path|nil path
---@return string|nil message
---@return astar.QueryCode|nil code
function Query:result() end

---Stops the query and gives its scratch memory back to the map; idempotent.
function Query:cancel() end

---Statistics of the query.
---@return astar.QueryStats
function Query:stats() end

---The nodes met so far, closed and open, as flat lists (grid cells `{x1, y1, ...}`, graph ids);
---empty before the first step and after the end.
---@return integer[] closed
---@return integer[] open
function Query:explored() end

------------------------------------------------------------------------------------------
-- Workers
------------------------------------------------------------------------------------------

---A pool of worker threads searching grids off the Lua thread (`astar.workers`): each request
---searches a read-only snapshot of its grid as it was when submitted. Also `__close` and `__gc`
---(which stop the threads safely with requests in flight).
---@class astar.Workers
local Workers = {}

---Queues a search; the workers search a snapshot of the grid as it is now.
---@param grid astar.Grid
---@param x0 integer
---@param y0 integer
---@param x1 integer
---@param y1 integer
---@param opts? astar.SubmitOptions
---@return integer ticket
function Workers:submit(grid, x0, y0, x1, y1, opts) end

---A finished request's ticket and what `Grid:find` returns (`"stale"` if the grid changed since
---it was submitted); nothing when none has finished. Never waits.
---@return integer|nil ticket
---@return astar.Path|nil path
---@return string|nil message
---@return astar.Code|"stale"|nil code
function Workers:poll() end

---The results of request `ticket` (`nil, message, "pending"` while it runs, unless `wait`).
---Raises for an unknown ticket (already taken, cancelled, never made).
---@param ticket integer
---@param wait? boolean
---@return astar.Path|nil path
---@return string|nil message
---@return astar.Code|"stale"|"pending"|nil code
function Workers:result(ticket, wait) end

---Cancels a request; true if it was pending.
---@param ticket integer
---@return boolean
function Workers:cancel(ticket) end

---"queued", "running", "done" (results waiting), or nil for an unknown ticket.
---@param ticket integer
---@return "queued"|"running"|"done"|nil
function Workers:status(ticket) end

---Requests pending (submitted, not yet given nor cancelled), and the threads.
---@return integer requests
---@return integer threads
function Workers:pending() end

---Stops the workers and forgets every request; idempotent.
function Workers:close() end

------------------------------------------------------------------------------------------
-- Curve
------------------------------------------------------------------------------------------

---The shortest way with a turning radius (`astar.curve`): forward only (Dubins), or forward and
---backward with `reverse = true` (Reeds-Shepp).
---@class astar.Curve
local Curve = {}

---The curve's length (distance driven backward counts too).
---@return number
function Curve:length() end

---Which word. Dubins: "LSL", "RSR", "LSR", "RSL", "RLR" or "LRL". Reeds-Shepp: each segment's
---kind and direction, such as "L+S+R+", "L+R-L+" or "R-L+S+R+L-" (`+` forward, `-` backward).
---@return string
function Curve:word() end

---How many times the curve changes between forward and backward (0 for Dubins; at most 2).
---@return integer
function Curve:cusps() end

---The pose at distance `s` along the curve (clamped to [0, length]); the heading is where the
---unit faces (driving backward, the opposite of where it moves).
---@param s number
---@return number x
---@return number y
---@return number heading radians in [0, 2 pi)
function Curve:sample(s) end

---Points every `step` of length, start and end included, as `{x1, y1, x2, y2, ...}`.
---@param step number > 0
---@return number[]
function Curve:points(step) end

---The segments: `{{"L", length, 1}, {"S", length, 1}, {"R", length, -1}, ...}`: kind, length
---and direction (1 forward, -1 backward); three for Dubins, three to five for Reeds-Shepp.
---@return table[]
function Curve:segments() end

------------------------------------------------------------------------------------------
-- Replanner
------------------------------------------------------------------------------------------

---A space-time reservation table for cooperative paths (Silver 2005): (x, y, t) -> unit, and
---cells a unit holds from a time on forever. Made by `astar.reservations()`. Also `__close`
---and `__gc`.
---@class astar.Reservations
local Reservations = {}

---The unit holding (x, y) at time t, or nil.
---@param x integer
---@param y integer
---@param t integer
---@return integer|nil
function Reservations:holder(x, y, t) end

---Reserves a grid path for `unit` in place of what it held (point i at start_time + i - 1;
---with `hold`, the last cell forever after): true, or nil, message, "conflict".
---@param unit integer
---@param path astar.Path
---@param opts? {start_time?: integer, hold?: boolean}
---@return boolean|nil ok
---@return string|nil message
---@return string|nil code
function Reservations:reserve(unit, path, opts) end

---Reserves (x, y) at time t for `unit`: true, or nil, message, "conflict".
---@param unit integer
---@param x integer
---@param y integer
---@param t integer
---@return boolean|nil ok
---@return string|nil message
---@return string|nil code
function Reservations:take(unit, x, y, t) end

---`unit` holds (x, y) from time t (default 0) on, forever: true, or nil, message, "conflict".
---@param unit integer
---@param x integer
---@param y integer
---@param t? integer
---@return boolean|nil ok
---@return string|nil message
---@return string|nil code
function Reservations:hold(unit, x, y, t) end

---Drops what `unit` holds; returns how many entries.
---@param unit integer
---@return integer
function Reservations:release(unit) end

---Empties the table.
---@return astar.Reservations
function Reservations:clear() end

---Entries (cell at a time), cells held forever, and the latest time named (-1 if empty).
---@return integer entries
---@return integer held
---@return integer last
function Reservations:count() end

---Frees the table now; idempotent.
function Reservations:close() end

---Incremental re-planning (D* Lite) for an agent on a changing grid, made by
---`Grid:replanner`. Also `__close` and `__gc`.
---@class astar.Replanner
local Replanner = {}

---The agent is now at (x, y); the next `path` or `update` repairs what changed.
---@param x integer
---@param y integer
function Replanner:move_to(x, y) end

---Repairs after the grid's edits without building a path.
---@return integer expanded the vertices this repair expanded
function Replanner:update() end

---Repairs if needed, then the shortest path from the agent's cell to the goal.
---@return astar.Path|nil path
---@return string|nil message
---@return "no_path"|"blocked"|nil code
function Replanner:path() end

---Statistics of the repairs.
---@return astar.ReplannerStats
function Replanner:stats() end

---Frees the replanner now; idempotent.
function Replanner:close() end

------------------------------------------------------------------------------------------
-- Scheduler and Request (lua/astar/scheduler.lua)
------------------------------------------------------------------------------------------

---Shares a per-frame budget of node expansions between path requests, round robin.
---@class astar.Scheduler
local Scheduler = {}

---Queues a path request: `map:query(...)` is started and stepped by `update`; `callback`
---gets what `find` would return when the request ends (never if cancelled). The
---arguments are those of `map:query`, then the callback; or a Query and the callback.
---@param map astar.Grid|astar.Graph|astar.NavMesh|astar.Query
---@param ... any the arguments of `map:query`, then the callback (`astar.ResultCallback`)
---@return astar.Request
---@overload fun(self: astar.Scheduler, query: astar.Query, callback: astar.ResultCallback): astar.Request
---@overload fun(self: astar.Scheduler, grid: astar.Grid, sx: integer, sy: integer, gx: integer, gy: integer, callback: astar.ResultCallback): astar.Request
---@overload fun(self: astar.Scheduler, grid: astar.Grid, sx: integer, sy: integer, gx: integer, gy: integer, opts: astar.GridQueryOptions, callback: astar.ResultCallback): astar.Request
---@overload fun(self: astar.Scheduler, graph: astar.Graph, a: integer, b: integer, callback: astar.ResultCallback): astar.Request
---@overload fun(self: astar.Scheduler, graph: astar.Graph, a: integer, b: integer, opts: astar.GraphQueryOptions, callback: astar.ResultCallback): astar.Request
---@overload fun(self: astar.Scheduler, mesh: astar.NavMesh, x0: number, y0: number, x1: number, y1: number, callback: astar.ResultCallback): astar.Request
---@overload fun(self: astar.Scheduler, mesh: astar.NavMesh, x0: number, y0: number, x1: number, y1: number, opts: astar.NavMeshQueryOptions, callback: astar.ResultCallback): astar.Request
function Scheduler:request(map, ...) end

---Spends at most `budget` expansions over the live requests and calls the callbacks of
---those that ended. A map callback's error propagates; its request restarts next update.
---@return integer ended the number of requests that ended
function Scheduler:update() end

---The number of live requests.
---@return integer
function Scheduler:pending() end

---From inside a coroutine: queues the request and yields until an `update` has finished
---it, then returns what `find` would.
---@param map astar.Grid|astar.Graph|astar.NavMesh|astar.Query
---@param ... any the arguments of `map:query`
---@return astar.Path|nil path
---@return string|nil message
---@return astar.QueryCode|nil code
function Scheduler:await(map, ...) end

---A queued request of a Scheduler.
---@class astar.Request
local Request = {}

---Stops the request; its callback is never called. Idempotent.
function Request:cancel() end

------------------------------------------------------------------------------------------
-- Walker (lua/astar/follow.lua)
------------------------------------------------------------------------------------------

---A unit walking a route at a speed: `astar.follow(route, speed)`.
---@class astar.Walker
local Walker = {}

---Moves `speed * dt` further along the route (never beyond its end).
---@param dt number seconds, finite, >= 0
---@return number x
---@return number y
function Walker:update(dt) end

---Where the walker is.
---@return number x
---@return number y
function Walker:position() end

---Radians, counter-clockwise from +x: the current segment's direction (or the curve's heading).
---@return number
function Walker:heading() end

---Whether the walker is at the end of the route.
---@return boolean
function Walker:arrived() end

---The distance walked from the start.
---@return number
function Walker:travelled() end

---The route's length.
---@return number
function Walker:length() end

---`length() - travelled()`.
---@return number
function Walker:remaining() end

---The point at distance `s` (clamped to the route); the walker does not move.
---@param s number
---@return number x
---@return number y
function Walker:at(s) end

---Changes the speed from the next `update` on.
---@param speed number > 0, finite
function Walker:set_speed(speed) end

---The segment the walker is on: `i` from point `i` to `i + 1` (on a Curve: which segment).
---@return integer
function Walker:index() end

------------------------------------------------------------------------------------------
-- The constructor tables astar.grid and astar.navmesh
------------------------------------------------------------------------------------------

---`astar.grid(w, h [, cost])` makes a grid; the other constructors are fields.
---@class astar.gridlib
---@overload fun(w: integer, h: integer, cost?: astar.Cost, world?: astar.World): astar.Grid
---@overload fun(w: integer, h: integer, world: astar.World): astar.Grid
local gridlib = {}

---A new `w` x `h` grid whose cells all cost `cost` (up to 2^28 cells); same as `astar.grid(...)`.
---@param w integer width (columns), >= 1
---@param h integer height (rows), >= 1
---@param cost? astar.Cost a cost > 0, or `false` for blocked (default 1)
---@param world? astar.World the grid's place in the world (may come third, without a cost)
---@return astar.Grid
function gridlib.new(w, h, cost, world) end

---A grid from text, one line per row (`\r\n` and a final newline accepted; all rows the
---same length); `legend` maps each character to a cost or `false`.
---@param text string
---@param legend table<string, astar.Cost> e.g. `{["#"] = false, ["."] = 1, ["~"] = 3}`
---@return astar.Grid
function gridlib.parse(text, legend) end

---A grid from `rows[y][x]`. Without `f`, each value is a cost > 0, `true` (1) or `false`
---(blocked). With a function, `f(value, x, y)` returns the cost or `false`. Any other `f`
---is the walkable value: cells equal to it cost 1, the others are blocked.
---@param rows any[][]
---@param f? (fun(value: any, x: integer, y: integer): astar.Cost)|string|number|boolean|table
---@return astar.Grid
function gridlib.from_table(rows, f) end

---A grid from a Moving AI `.map` file (`.`, `G`, `S` walkable; `@`, `O`, `T`, `W`
---blocked); `nil, message, "io"` if the file cannot be read; raises on a malformed file.
---@param path string
---@return astar.Grid|nil grid
---@return string|nil message
---@return "io"|nil code
function gridlib.load_movingai(path) end

---A grid from the text of a Moving AI `.map` file.
---@param text string
---@return astar.Grid
function gridlib.parse_movingai(text) end

---Options of the hex grid constructors.
---@class astar.HexOptions
---@field layout? "odd-r"|"even-r"|"odd-q"|"even-q" default "odd-r"

---`astar.hexgrid(w, h [, cost] [, opts])` makes a hex grid; the other constructors are fields.
---@class astar.hexgridlib
---@overload fun(w: integer, h: integer, cost?: astar.Cost, opts?: astar.HexOptions): astar.Grid
---@overload fun(w: integer, h: integer, opts: astar.HexOptions): astar.Grid
local hexgridlib = {}

---A hexagonal grid in offset coordinates (Amit Patel's layouts): six neighbours a cell, a step
---costs the cell it enters; a Grid without the square-only options and methods.
---@param w integer columns, >= 1
---@param h integer rows, >= 1
---@param cost? astar.Cost every cell's cost (default 1), or `false`
---@param opts? astar.HexOptions
---@return astar.Grid
function hexgridlib.new(w, h, cost, opts) end

---A hex grid from text, as `astar.grid.parse` reads it.
---@param text string
---@param legend table<string, astar.Cost>
---@param opts? astar.HexOptions
---@return astar.Grid
function hexgridlib.parse(text, legend, opts) end

---A hex grid from `rows[y][x]`, as `astar.grid.from_table` reads it.
---@param rows any[][]
---@param f? (fun(value: any, x: integer, y: integer): astar.Cost)|string|number|boolean|table
---@param opts? astar.HexOptions
---@return astar.Grid
function hexgridlib.from_table(rows, f, opts) end

---`astar.navmesh{vertices = , polygons = }` makes a mesh; the builders are fields.
---@class astar.navmeshlib
---@overload fun(desc: astar.NavMeshDesc): astar.NavMesh
local navmeshlib = {}

---A mesh of convex polygons over shared vertices; same as `astar.navmesh{...}`.
---@param desc astar.NavMeshDesc
---@return astar.NavMesh
function navmeshlib.new(desc) end

---A mesh of a grid's walkable cells, merged into rectangles of equal cost; cell (x, y)
---covers [x-1, x] x [y-1, y] times `tile`.
---@param grid astar.Grid
---@param opts? astar.FromGridOptions
---@return astar.NavMesh
function navmeshlib.from_grid(grid, opts) end

---A mesh of the area inside `outline` and outside every hole (ear clipping, then
---Hertel-Mehlhorn convex partition).
---@param outline number[] `{x1, y1, x2, y2, ...}`, either orientation
---@param holes? number[][] a list of such lists
---@return astar.NavMesh
function navmeshlib.from_polygons(outline, holes) end

------------------------------------------------------------------------------------------
-- The module: require "astar"
------------------------------------------------------------------------------------------

---Fast, correct-by-default pathfinding: grids, graphs, implicit graphs, navmeshes.
---@class astar
---@field version string the library's version
---@field _VERSION string `"astar " .. version`
---@field grid astar.gridlib `astar.grid(w, h [, cost])`, `astar.grid.parse`, ...
---@field hexgrid astar.hexgridlib `astar.hexgrid(w, h [, cost] [, opts])`, `.parse`, `.from_table`
---@field navmesh astar.navmeshlib `astar.navmesh{...}`, `astar.navmesh.from_grid`, ...
---@field love astar.love_module debug drawing for LÖVE, loaded on first use
---@field tiled astar.tiled_module `astar.tiled.grid`, `astar.tiled.navmesh`: Tiled maps
local astar = {}

---A walker at the start of `route`, moving `speed` units a second.
---@param route astar.Path|astar.Curve|number[] a Path of positions, a Curve, or `{x1, y1, x2, y2, ...}`
---@param speed number > 0, finite
---@param opts? astar.FollowOptions
---@return astar.Walker
function astar.follow(route, speed, opts) end

---A new empty graph.
---@param opts? astar.GraphOptions
---@return astar.Graph
function astar.graph(opts) end


---Searches a graph described by callbacks (any state space whose nodes are Lua values).
---The path's points are the node values. Callback errors propagate unchanged.
---@param opts astar.SearchOptions
---@return astar.Path|nil path
---@return string|nil message
---@return "no_path"|"limit"|"partial"|nil code
function astar.search(opts) end

---@class astar.CurveOptions
---@field reverse? boolean the unit may also drive backward (Reeds-Shepp); default false (Dubins)

---The shortest curve from pose (x0, y0, h0) to (x1, y1, h1) for a unit of turning radius `r`
---(headings in radians, counter-clockwise from +x): Dubins, or with `reverse = true`
---Reeds-Shepp.
---@param x0 number
---@param y0 number
---@param h0 number
---@param x1 number
---@param y1 number
---@param h1 number
---@param r number > 0
---@param opts? astar.CurveOptions
---@return astar.Curve
function astar.curve(x0, y0, h0, x1, y1, h1, r, opts) end

---A new, empty space-time reservation table (cooperative paths).
---@return astar.Reservations
function astar.reservations() end

---Plans units `{{x0, y0, x1, y1}, ...}` in priority order (unit i is the i-th): Cooperative
---A*, or WHCA* with `opts.window`; `opts` are `find`'s (not `unit`; `reserve`: plan into that
---table). Returns paths[i] (a Path, or false), the failures `{unit =, message =, code =}`
---and the table.
---@param grid astar.Grid
---@param units integer[][]
---@param opts? astar.GridFindOptions
---@return (astar.Path|false)[] paths
---@return {unit: integer, message: string, code: string}[] failed
---@return astar.Reservations
function astar.cooperative(grid, units, opts) end

---A time-sliced `astar.search`: nothing is searched until `q:step(n)`.
---@param opts astar.SearchOptions
---@return astar.Query
function astar.query(opts) end

---Searches `grid` for every `{x0, y0, x1, y1}` of `requests` with worker threads and returns
---when all are done, in order: `paths[i]` is the Path `Grid:find` would return, or false; for a
---request without a full path, `codes[i]` and `messages[i]` are find's code and message.
---@param grid astar.Grid
---@param requests integer[][]
---@param opts? astar.BatchOptions
---@return (astar.Path|false)[] paths
---@return table<integer, astar.Code> codes
---@return table<integer, string> messages
function astar.batch(grid, requests, opts) end

---A pool of worker threads for `Workers:submit` and `Workers:poll`; one per Lua state.
---@param opts? astar.WorkersOptions
---@return astar.Workers
function astar.workers(opts) end

---A new scheduler.
---@param opts astar.SchedulerOptions
---@return astar.Scheduler
function astar.scheduler(opts) end

---From inside a coroutine: steps `q` to its end, yielding after every `budget` expansions;
---returns what `find` would.
---@param q astar.Query
---@param budget? integer >= 1 (default 1000)
---@return astar.Path|nil path
---@return string|nil message
---@return astar.QueryCode|nil code
function astar.await(q, budget) end

---The problems of a Moving AI `.scen` file (coordinates 1-based); `nil, message, "io"` if
---the file cannot be read.
---@param path string
---@return astar.Scenario[]|nil scenarios
---@return string|nil message
---@return "io"|nil code
function astar.load_scenarios(path) end

---The problems of a Moving AI `.scen` text.
---@param text string
---@return astar.Scenario[]
function astar.parse_scenarios(text) end

------------------------------------------------------------------------------------------
-- The submodules (types/astar/*.lua return these)
------------------------------------------------------------------------------------------

---`require "astar.scheduler"`.
---@class astar.scheduler_module
local scheduler_module = {}

---A new scheduler (`astar.scheduler`).
---@param opts astar.SchedulerOptions
---@return astar.Scheduler
function scheduler_module.new(opts) end

---Steps a query to its end from inside a coroutine (`astar.await`).
---@param q astar.Query
---@param budget? integer default 1000
---@return astar.Path|nil path
---@return string|nil message
---@return astar.QueryCode|nil code
function scheduler_module.await(q, budget) end

---`require "astar.follow"`.
---@class astar.follow_module
local follow_module = {}

---A walker at the start of `route` (`astar.follow`).
---@param route astar.Path|astar.Curve|number[]
---@param speed number > 0, finite
---@param opts? astar.FollowOptions
---@return astar.Walker
function follow_module.new(route, speed, opts) end

---`require "astar.love"` (also `astar.love`): debug drawing with `love.graphics`.
---@class astar.love_module
local love_module = {}

---Every cell as a filled rectangle coloured by its cost (blocked cells dark).
---@param grid astar.Grid
---@param opts? astar.DrawGridOptions
function love_module.draw_grid(grid, opts) end

---A path as one line; with a grid, through its cells' centres in world units.
---@param path astar.Path|number[]
---@param grid? astar.Grid|astar.DrawPathOptions
---@param opts? astar.DrawPathOptions
function love_module.draw_path(path, grid, opts) end

---Every polygon of a mesh outlined (and filled first with `opts.fill`).
---@param mesh astar.NavMesh
---@param opts? astar.DrawMeshOptions
function love_module.draw_mesh(mesh, opts) end

---The closed and open cells of a time-sliced grid query (`query:explored()`), as squares.
---@param grid astar.Grid
---@param query astar.Query
---@param opts? astar.DrawSearchOptions
function love_module.draw_search(grid, query, opts) end

---`require "astar.movingai"`: readers for the Moving AI benchmark formats (1-based).
---@class astar.movingai_module
local movingai_module = {}

---A grid from the text of a `.map` file (`astar.grid.parse_movingai`).
---@param text string
---@return astar.Grid
function movingai_module.parse_map(text) end

---A grid from a `.map` file (`astar.grid.load_movingai`).
---@param path string
---@return astar.Grid|nil grid
---@return string|nil message
---@return "io"|nil code
function movingai_module.load_map(path) end

---The problems of a `.scen` text (`astar.parse_scenarios`).
---@param text string
---@return astar.Scenario[]
function movingai_module.parse_scenarios(text) end

---The problems of a `.scen` file (`astar.load_scenarios`).
---@param path string
---@return astar.Scenario[]|nil scenarios
---@return string|nil message
---@return "io"|nil code
function movingai_module.load_scenarios(path) end

---Options of `astar.tiled.grid`.
---@class astar.TiledGridOptions
---@field layer? string|integer the tile layer, by name or index (default: every tile layer)
---@field layers? (string|integer)[] several tile layers, read together
---@field walkable? fun(gid: integer, props: table, x: integer, y: integer, layer: string): boolean
---@field cost? string|fun(gid: integer, props: table, x: integer, y: integer, layer: string): number|false|nil
---@field empty? boolean `false` blocks cells without a tile (default `true`)
---@field tilesets? table[] the map's tilesets, when reading a bare tile layer

---A grid's world frame from a Tiled map.
---@class astar.TiledFrame
---@field tile number[] `{tilewidth, tileheight}`
---@field origin number[] `{ox, oy}`: the top-left pixel of cell (1, 1)

---Options of `astar.tiled.navmesh`.
---@class astar.TiledNavMeshOptions
---@field outline? string the name of the object that is the walkable area
---@field segments? integer sides of the polygon around an ellipse (default 16)

---`require "astar.tiled"` (`astar.tiled`): Tiled maps as grids and navigation meshes.
---@class astar.tiled_module
local tiled_module = {}

---A grid from the tile layers of a Tiled map (Lua or JSON export, or STI), or of one layer.
---@param map table
---@param opts? astar.TiledGridOptions
---@return astar.Grid grid
---@return astar.TiledFrame|nil frame
function tiled_module.grid(map, opts) end

---A navigation mesh from an object layer of a Tiled map, in the map's pixels.
---@param map table
---@param layer string|integer
---@param opts? astar.TiledNavMeshOptions
---@return astar.NavMesh
function tiled_module.navmesh(map, layer, opts) end

---`require "astar.navmesh"`: navigation meshes from polygons with holes, in pure Lua.
---Vertex and polygon indices are 1-based; polygons counter-clockwise (x right, y up).
---@class astar.navmesh_module
local navmesh_module = {}

---Triangulates a polygon with holes (holes bridged to the outline, then ear clipping).
---@param outline number[] `{x1, y1, x2, y2, ...}`: at least 3 points, either orientation
---@param holes? number[][] lists like `outline`, strictly inside it and apart
---@return number[] vertices `{x1, y1, ...}`: the outline's points, then each hole's
---@return integer[][] triangles counter-clockwise triples of vertex indices
function navmesh_module.triangulate(outline, holes) end

---Merges triangles into convex polygons (Hertel-Mehlhorn).
---@param vertices number[] `{x1, y1, x2, y2, ...}`
---@param triangles integer[][] vertex index triples, either orientation
---@return integer[][] polygons counter-clockwise lists of vertex indices
function navmesh_module.convex_partition(vertices, triangles) end

---The description `astar.navmesh` takes, of the area inside `outline` and outside every hole.
---@param outline number[]
---@param holes? number[][]
---@return astar.NavMeshDesc desc `{vertices = , polygons = }`
function navmesh_module.from_polygons(outline, holes) end

return astar
