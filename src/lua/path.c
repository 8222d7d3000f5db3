/*
** path.c - the Path userdata: a compact array of points and the statistics
** of the search that found it. Paths own their memory (they are one Lua
** userdata), so they outlive the map they came from.
*/
/***
A path: a compact C array of points (no table per point), with its cost and the statistics
of the search that found it. It outlives the map it came from.

What a point is depends on the map: `x, y` of a cell on grids, `x, y` of a corner on
navigation meshes, a node id on graphs, a node value on implicit graphs. Every `find` and
@{Query:result} gives one; so do @{Field:path_from}, @{Grid:to_path},
@{Grid:splice} and @{Replanner:path}.
@classmod Path
*/
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "binding.h"

typedef struct lpath lpath;
struct lpath {
  size_t n;              /* points */
  int kind;              /* ASTAR_PATH_* */
  int stride;            /* numbers a point */
  double cost;
  astar_stats st;
  long goal;             /* index of the goal reached among several, or 0 */
  int diagonal;          /* grid paths: the ASTAR_DIAG_* policy they were found under, or -1 */
  int links;             /* the user value holds {[i] = cost} of link steps */
  int corridor;          /* navmesh paths: the user value holds the polygons crossed */
  const char *algorithm; /* a static string */
  long t0;               /* cooperative paths: the time at point 1, else -1 */
  size_t planned;        /* cooperative paths: the points planned against the table */
  int holds;             /* cooperative paths: the unit then holds its goal */
  double v[1];           /* n * stride numbers (struct hack sized at creation) */
};

static const int STRIDE[] = {2, 3, 1, 2, 3};

static const afn F_GET = {"get", 1};

double *astar_newpath(lua_State *L, size_t n, int kind, double cost,
                      const astar_stats *st, const char *algorithm, long goal) {
  int stride = STRIDE[kind];
  size_t sz;
  lpath *p;
  if (n > (((size_t)-1) - sizeof(lpath)) / sizeof(double) / 3) astar_error(L, "not enough memory");
  /* grid paths keep, after their points, the cost of each cell at the time
  ** they were found (NaN: unknown), so that grid:check sees exact changes */
  sz = sizeof(lpath) + (n > 0 ? n * (size_t)(stride + (kind != ASTAR_PATH_VALUES)) - 1 : 0) *
                       sizeof(double);
  p = (lpath *)lua_newuserdatauv(L, sz, 1);
  p->n = n; p->kind = kind; p->stride = stride; p->cost = cost; p->st = *st;
  p->goal = goal;
  p->diagonal = -1;
  p->links = 0;
  p->corridor = 0;
  p->t0 = -1;
  p->planned = 0;
  p->holds = 0;
  if (kind != ASTAR_PATH_VALUES) {      /* grid and graph paths: costs for check */
    size_t i;
    for (i = 0; i < n; i++) p->v[(size_t)stride * n + i] = NAN;
  }
  p->algorithm = algorithm;
  luaL_setmetatable(L, ASTAR_PATH_MT);
  return p->v;
}

void astar_path_settime(lua_State *L, int idx, long t0, size_t planned, int holds) {
  lpath *p = (lpath *)luaL_checkudata(L, idx, ASTAR_PATH_MT);
  p->t0 = t0;
  p->planned = planned;
  p->holds = holds;
}

int astar_path_time(lua_State *L, int idx, long *t0, size_t *planned, int *holds) {
  lpath *p = (lpath *)luaL_testudata(L, idx, ASTAR_PATH_MT);
  if (p == NULL || p->t0 < 0) return 0;
  *t0 = p->t0;
  *planned = p->planned;
  *holds = p->holds;
  return 1;
}

void astar_path_info(lua_State *L, int idx, astar_stats *st, long *goal) {
  lpath *p = (lpath *)luaL_checkudata(L, idx, ASTAR_PATH_MT);
  *st = p->st;
  *goal = p->goal;
}

void astar_path_setcorridor(lua_State *L, int idx) {
  lpath *p = (lpath *)luaL_testudata(L, idx, ASTAR_PATH_MT);
  if (p == NULL || p->kind != ASTAR_PATH_MESH || p->links) {
    lua_pop(L, 1);
    return;
  }
  astar_compat_setuservalue(L, idx);
  p->corridor = 1;
}

void astar_path_setlinks(lua_State *L, int idx) {
  lpath *p = (lpath *)luaL_testudata(L, idx, ASTAR_PATH_MT);
  idx = lua_absindex(L, idx);
  if (p == NULL || (p->kind != ASTAR_PATH_GRID && p->kind != ASTAR_PATH_MESH)) {
    lua_pop(L, 1);
    return;
  }
  if (p->corridor) {                     /* a navmesh path: beside its corridor */
    astar_compat_getuservalue(L, idx);
    lua_insert(L, -2);
    lua_setfield(L, -2, "links");
    lua_pop(L, 1);
  } else {
    astar_compat_setuservalue(L, idx);
  }
  p->links = 1;
}

double *astar_path_grid(lua_State *L, int idx, size_t *n, int **diagonal) {
  lpath *p = (lpath *)luaL_testudata(L, idx, ASTAR_PATH_MT);
  if (p == NULL || p->kind != ASTAR_PATH_GRID) return NULL;
  *n = p->n;
  if (diagonal != NULL) *diagonal = &p->diagonal;
  return p->v;
}

void astar_path_setcost(lua_State *L, int idx) {
  lpath *p = (lpath *)luaL_testudata(L, idx, ASTAR_PATH_MT);
  if (p != NULL) p->cost = (double)lua_tonumber(L, -1);
  lua_pop(L, 1);
}

double *astar_path_mesh(lua_State *L, int idx, size_t *n) {
  lpath *p = (lpath *)luaL_testudata(L, idx, ASTAR_PATH_MT);
  if (p == NULL || p->kind != ASTAR_PATH_MESH) return NULL;
  *n = p->n;
  return p->v;
}

double *astar_path_cellpoints(lua_State *L, int idx, size_t *n) {
  lpath *p = (lpath *)luaL_testudata(L, idx, ASTAR_PATH_MT);
  if (p == NULL || (p->kind != ASTAR_PATH_GRID && p->kind != ASTAR_PATH_MESH) || p->corridor)
    return NULL;
  *n = p->n;
  return p->v;
}

void astar_path_setposes(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  astar_compat_setuservalue(L, idx);
}

double *astar_path_poses(lua_State *L, int idx, size_t *n) {
  lpath *p = (lpath *)luaL_testudata(L, idx, ASTAR_PATH_MT);
  if (p == NULL || p->kind != ASTAR_PATH_POSE) return NULL;
  *n = p->n;
  return p->v;
}

double *astar_path_graph(lua_State *L, int idx, size_t *n) {
  lpath *p = (lpath *)luaL_testudata(L, idx, ASTAR_PATH_MT);
  if (p == NULL || p->kind != ASTAR_PATH_GRAPH) return NULL;
  *n = p->n;
  return p->v;
}

static lpath *checkpath(lua_State *L, const char *fname) {
  return (lpath *)astar_checkself(L, ASTAR_PATH_MT, fname, "astar.Path");
}

/* Pushes what point i (0-based) is: x, y for grids, the node id for graphs,
** the node value for implicit graphs. Returns how many values it pushed. */
static int pushpoint(lua_State *L, int pidx, const lpath *p, size_t i) {
  const double *v = p->v + i * (size_t)p->stride;
  switch (p->kind) {
    case ASTAR_PATH_GRID:
      lua_pushinteger(L, (lua_Integer)v[0]);
      lua_pushinteger(L, (lua_Integer)v[1]);
      return 2;
    case ASTAR_PATH_GRAPH:
      lua_pushinteger(L, (lua_Integer)v[0]);
      return 1;
    case ASTAR_PATH_MESH:
      lua_pushnumber(L, (lua_Number)v[0]);
      lua_pushnumber(L, (lua_Number)v[1]);
      return 2;
    case ASTAR_PATH_POSE:
      lua_pushnumber(L, (lua_Number)v[0]);
      lua_pushnumber(L, (lua_Number)v[1]);
      lua_pushnumber(L, (lua_Number)v[2]);
      return 3;
    default:
      astar_compat_getuservalue(L, pidx);
      lua_rawgeti(L, -1, (int)v[0]);
      lua_remove(L, -2);
      return 1;
  }
}

/* Pushes point i as drawing coordinates x, y (grids and graphs with positions). */
static void pushxy(lua_State *L, const lpath *p, size_t i) {
  const double *v = p->v + i * (size_t)p->stride;
  if (p->kind == ASTAR_PATH_GRID) {
    lua_pushinteger(L, (lua_Integer)v[0]);
    lua_pushinteger(L, (lua_Integer)v[1]);
  } else if (p->kind == ASTAR_PATH_MESH || p->kind == ASTAR_PATH_POSE) {
    lua_pushnumber(L, (lua_Number)v[0]);
    lua_pushnumber(L, (lua_Number)v[1]);
  } else if (v[1] == v[1]) {
    lua_pushnumber(L, (lua_Number)v[1]);
    lua_pushnumber(L, (lua_Number)v[2]);
  } else {
    astar_error(L, "point %d (node %d) has no position", (int)i + 1, (int)v[0]);
  }
}

/***
The number of points, `#path`: start and goal included, so a path from a cell to itself
has 1 point.
@function Path:__len
@treturn int
*/
static int path_len(lua_State *L) {
  lpath *p = checkpath(L, "__len");
  lua_pushinteger(L, (lua_Integer)p->n);
  return 1;
}

/***
Point `i`. Negative indices count from the end (-1 is the goal).
@function Path:get
@int i from 1 to `#path`, or from `-#path` to -1
@return `x, y` on grids and navigation meshes, the node id on graphs, the node value on
implicit graphs
@usage
local path = astar.grid(5, 5):find(1, 1, 5, 3)
print(path:get(1))     --> 1 1
print(path:get(-1))    --> 5 3
*/
static int path_get(lua_State *L) {
  lpath *p = checkpath(L, "get");
  double i = astar_checknumber(L, &F_GET, 2), n = (double)p->n;
  double k = i < 0 ? n + i + 1 : i;
  char buf[32];
  if (i != floor(i) || i == HUGE_VAL || i == -HUGE_VAL)
    astar_argerror(L, &F_GET, 2, "integer expected, got %s", astar_fmtnum(buf, i));
  if (i == 0 || k < 1 || k > n)
    astar_argerror(L, &F_GET, 2, "index out of range: %s not in [1, %d] or [-%d, -1]",
                   astar_fmtnum(buf, i), (int)p->n, (int)p->n);
  return pushpoint(L, 1, p, (size_t)(k - 1));
}

static int path_iter(lua_State *L) {
  lpath *p = (lpath *)luaL_testudata(L, 1, ASTAR_PATH_MT);
  if (p == NULL) astar_error(L, "bad argument #1 to 'points' iterator (astar.Path expected, got %s)",
                             luaL_typename(L, 1));
  lua_Integer i = lua_tointeger(L, 2) + 1;
  if (i < 1 || (size_t)i > p->n) return 0;
  lua_pushinteger(L, i);
  return 1 + pushpoint(L, 1, p, (size_t)(i - 1));
}

/***
Iterates over the points in order: `for i, x, y in path:points()` on grids (`i, id` on
graphs, `i, node` on implicit graphs).
@function Path:points
@treturn function the iterator
@usage
local path = astar.grid(3, 1):find(1, 1, 3, 1)
for i, x, y in path:points() do print(i, x, y) end
--> 1 1 1
--> 2 2 1
--> 3 3 1
*/
static int path_points(lua_State *L) {
  checkpath(L, "points");
  lua_pushcfunction(L, path_iter);
  lua_pushvalue(L, 1);
  lua_pushinteger(L, 0);
  return 3;
}

/***
The path's total cost, the sum of its step costs.
@function Path:cost
@treturn number
*/
static int path_cost(lua_State *L) {
  lpath *p = checkpath(L, "cost");
  lua_pushnumber(L, (lua_Number)p->cost);
  return 1;
}

/***
The points as one flat list `{x1, y1, x2, y2, ...}`, what `love.graphics.line` takes. On
graphs, the nodes' positions (an error if a node has none); implicit paths have none. On a
path of poses (`algorithm = "directional"`), points every `step` along its curves.
@function Path:flat
@number[opt=0.25] step paths of poses: the distance between points, > 0
@treturn table
*/
static int path_flat(lua_State *L) {
  static const afn F = {"flat", 1};
  lpath *p = checkpath(L, "flat");
  size_t i;
  if (p->kind == ASTAR_PATH_POSE) {
    double step = lua_isnoneornil(L, 2) ? 0.25 : astar_checknumber(L, &F, 2);
    char buf[32];
    if (!(step > 0) || !isfinite(step))
      astar_argerror(L, &F, 2, "step must be a positive finite number, got %s",
                     astar_fmtnum(buf, step));
    return astar_path_pose_flat(L, step);
  }
  if (p->kind == ASTAR_PATH_VALUES)
    astar_error(L, "flat: the points of this path are Lua values, not positions");
  lua_createtable(L, (int)(2 * p->n), 0);
  for (i = 0; i < p->n; i++) {
    pushxy(L, p, i);
    lua_rawseti(L, -3, (int)(2 * i + 2));
    lua_rawseti(L, -2, (int)(2 * i + 1));
  }
  return 1;
}

/* Point i's position in *x, *y; 0 if it has none (implicit values, graph
** nodes without a position). */
static int getxy(const lpath *p, size_t i, double *x, double *y) {
  const double *v = p->v + i * (size_t)p->stride;
  if (p->kind == ASTAR_PATH_GRID || p->kind == ASTAR_PATH_MESH || p->kind == ASTAR_PATH_POSE) {
    *x = v[0]; *y = v[1];
  }
  else if (p->kind == ASTAR_PATH_GRAPH && v[1] == v[1]) { *x = v[1]; *y = v[2]; }
  else return 0;
  return 1;
}

/***
The points where the path turns, start and goal included, as one flat list
`{x1, y1, x2, y2, ...}`: a point is left out when the path goes on through it in the same
direction. A unit that walks from waypoint to waypoint in straight lines walks the path.
Grid, navigation mesh and positioned graph paths.
@function Path:waypoints
@treturn table
@usage
local path = astar.grid(5, 5):find(1, 1, 5, 3)
print(#path, table.concat(path:waypoints(), " "))    --> 5 1 1 3 3 5 3
*/
static int path_waypoints(lua_State *L) {
  lpath *p = checkpath(L, "waypoints");
  double px = 0, py = 0, x = 0, y = 0, nx, ny;
  size_t i;
  int k = 0;
  lua_newtable(L);
  for (i = 0; i < p->n; i++) {
    if (!getxy(p, i, &x, &y)) {
      if (p->kind == ASTAR_PATH_VALUES)
        astar_error(L, "waypoints: the points of this path are Lua values, not positions");
      astar_error(L, "point %d (node %d) has no position", (int)i + 1, (int)p->v[i * 3]);
    }
    if (i > 0 && i + 1 < p->n && getxy(p, i + 1, &nx, &ny) &&
        (x - px) * (ny - y) == (y - py) * (nx - x) &&
        (x - px) * (nx - x) + (y - py) * (ny - y) > 0)
      continue;                     /* on through it, the same way */
    pushxy(L, p, i);
    lua_rawseti(L, -3, ++k + 1);
    lua_rawseti(L, -2, k++);
    px = x;
    py = y;
  }
  return 1;
}

/***
The points as a table: `{{x = x1, y = y1}, ...}` on grids and navigation meshes, the list
of ids on graphs, the list of node values on implicit graphs.
@function Path:table
@treturn table
*/
static int path_table(lua_State *L) {
  lpath *p = checkpath(L, "table");
  size_t i;
  lua_createtable(L, (int)p->n, 0);
  for (i = 0; i < p->n; i++) {
    if (p->kind == ASTAR_PATH_GRID || p->kind == ASTAR_PATH_MESH || p->kind == ASTAR_PATH_POSE) {
      lua_createtable(L, 0, 3);
      pushxy(L, p, i);
      lua_setfield(L, -3, "y");
      lua_setfield(L, -2, "x");
      if (p->kind == ASTAR_PATH_POSE) {
        lua_pushnumber(L, (lua_Number)p->v[3 * i + 2]);
        lua_setfield(L, -2, "heading");
      }
    } else {
      pushpoint(L, 1, p, i);
    }
    lua_rawseti(L, -2, (int)(i + 1));
  }
  return 1;
}

/***
Statistics of the search that found the path: `{expanded =, generated =, reopened =,
algorithm =}`, and `goal`, the index of the goal reached, when the search had `goals`.
@function Path:stats
@treturn table
*/
static int path_stats(lua_State *L) {
  lpath *p = checkpath(L, "stats");
  lua_createtable(L, 0, 4);
  lua_pushinteger(L, (lua_Integer)p->st.expanded);
  lua_setfield(L, -2, "expanded");
  lua_pushinteger(L, (lua_Integer)p->st.generated);
  lua_setfield(L, -2, "generated");
  lua_pushinteger(L, (lua_Integer)p->st.reopened);
  lua_setfield(L, -2, "reopened");
  lua_pushstring(L, p->algorithm);
  lua_setfield(L, -2, "algorithm");
  if (p->goal > 0) {
    lua_pushinteger(L, (lua_Integer)p->goal);
    lua_setfield(L, -2, "goal");
  }
  return 1;
}

/***
The points' positions as one flat list `{x1, y1, x2, y2, ...}`, for drawing: on graphs the
nodes' positions; otherwise the same as @{Path:flat|flat}.
@function Path:positions
@treturn table
*/
static int path_positions(lua_State *L) {
  return path_flat(L);
}

/***
The polygons a navigation mesh path crosses, the start's first: `{p1, p2, ...}`, a new
table. Other paths have none (an error).
@function Path:corridor
@treturn table
*/
static int path_corridor(lua_State *L) {
  lpath *p = checkpath(L, "corridor");
  size_t i, n;
  if (!p->corridor) astar_error(L, "corridor: only navmesh paths have one");
  astar_compat_getuservalue(L, 1);
  n = (size_t)lua_rawlen(L, -1);
  lua_createtable(L, (int)n, 0);
  for (i = 1; i <= n; i++) {
    lua_rawgeti(L, -2, (int)i);
    lua_rawseti(L, -2, (int)i);
  }
  return 1;
}

/***
Smooths a grid path: pulls it taut. On a grid of one cost with `radius = 0` in one go, exactly:
the free cells of each row (or column) form runs, rectangles whose portals to the next row end
on wall corners, so the runs the path crosses are the one corridor holding every way with the
walls on the path's sides, and the funnel through their portals is the shortest of those ways,
each bend on the wall corner it wraps (1e-7 off it, out along the corner's diagonal); then from
each bend, where a straight line to the bend after the next is clear, the pillar between changes
side and the string is pulled again. Time about linear in the path's cells (each row crossed
is read 57 cells at a load where jump point search has left its bit lines); no garbage but the
Path.
Otherwise (terrain costs, a radius, links, or an `"always"` diagonal between two blocked cells)
in two passes. First Marco Pinter's ("Toward More Realistic Pathfinding"), over the path's
turning points: from each point it keeps, it skips ahead to the end of each straight run in
turn while @{Grid:walkable_line} says the segment is clear for the unit's `radius` and costs no
more than the steps it replaces, and into the first run whose end it cannot reach as far as
bisection finds it can. Then it pulls the string: each bend slides toward the straight line
between its neighbours, and along its segments, as far as both stay clear and cost no more;
bends go where the straight line does as well, and for `radius = 0` settle on the wall corners
they wrap, a bend becoming two where the path wraps both ends of a wall. The result never cuts
a corner, never passes nearer than `radius` to a blocked cell where it leaves the steps of the
path, and never costs more than the path; in two passes, never more than Pinter's pass alone
either (on weighted terrain it keeps to the roads; a taut string may pass a row of pillars on
the path's side where Pinter's lines pass them on the other, now and then longer). It is a
Path of points (numbers: the bends need not be cell centres); `cost()` is priced the
continuous way (the length inside each cell times its cost, for the steps kept too, so a path
of one cost keeps its cost exactly), and `stats()` are those of the search that found the
path.
@function Path:smooth
@tparam Grid grid the grid the path was found on
@tparam[opt] table opts `radius = r` (0 or more, default 0): the unit's radius in cells;
`pull = false`: Pinter's pass alone (its points are cell centres)
@treturn Path
@usage
local grid = astar.grid(20, 20)
local path = grid:find(1, 1, 20, 8)
local smooth = path:smooth(grid)
print(#path, #smooth, smooth:get(2))              --> 20 2 20 8
grid:fill(10, 1, 1, 6, false)                     -- a wall to go round
local bend = grid:find(1, 1, 20, 1):smooth(grid)  -- taut: round both corners of its end
local x2, y2 = bend:get(2)
local x3, y3 = bend:get(3)
print(#bend, ("%.3f %.3f %.3f %.3f"):format(x2, y2, x3, y3))   --> 4 9.500 6.500 10.500 6.500
*/
/* (defined in src/lua/grid_line.c) */

/***
Whether the step from point `i` to point `i + 1` takes a link (@{Grid:link}): its cost, or
`nil` for a walk to a neighbour or a straight line (and on graph and implicit paths). Grid
paths, their smoothed copies, Theta\* paths and navmesh paths (@{NavMesh:link}) have them. A step both walkable and linked
takes the cheaper: a link costing no less than the walk counts as a walk.
@function Path:link
@int i the index of a point, 1 to `#path - 1`
@treturn number|nil the link's cost
*/
static int path_link(lua_State *L) {
  lpath *p = checkpath(L, "link");
  static const afn F = {"link", 1};
  int i = astar_checkint(L, &F, 2);
  if (!p->links) {
    lua_pushnil(L);
    return 1;
  }
  astar_compat_getuservalue(L, 1);
  if (p->corridor) lua_getfield(L, -1, "links");
  lua_rawgeti(L, -1, i);
  return 1;
}

/***
A cooperative path's schedule: the time the unit is at point `i` (`start_time + i - 1`; a
wait shows as the same cell at two times). The second and third results say whether point
`i` was planned against the reservation table (with a `window`, the points after it follow
the grid's shortest path and are not) and whether the unit then holds its goal. Raises for a
path that has no times (one not found with `reserve`).
@function Path:time
@int i a point, 1 to `#path`
@treturn int the time
@treturn boolean planned: conflict-free in the table's eyes
@treturn boolean holds: the path ends at the goal, which the unit may keep forever
*/
static int path_time(lua_State *L) {
  static const afn F = {"time", 1};
  lpath *p = (lpath *)luaL_testudata(L, 1, ASTAR_PATH_MT);
  int i;
  if (p == NULL) astar_argerror(L, &F, 1, "astar.Path expected, got %s", luaL_typename(L, 1));
  if (p->t0 < 0)
    astar_error(L, "time: only a cooperative path has times (find with option 'reserve')");
  i = astar_checkrange(L, &F, 2, "index", 1, (int)(p->n > 0x7fffffff ? 0x7fffffff : p->n));
  lua_pushinteger(L, (lua_Integer)(p->t0 + i - 1));
  lua_pushboolean(L, (size_t)i <= p->planned);
  lua_pushboolean(L, p->holds);
  return 3;
}

static int path_tostring(lua_State *L) {
  lpath *p = checkpath(L, "__tostring");
  char buf[32];
  lua_pushfstring(L, "astar.Path (%d points, cost %s)", (int)p->n,
                  astar_fmtnum(buf, p->cost));
  return 1;
}

static const luaL_Reg path_methods[] = {
  {"get", path_get},
  {"points", path_points},
  {"cost", path_cost},
  {"flat", path_flat},
  {"waypoints", path_waypoints},
  {"table", path_table},
  {"stats", path_stats},
  {"positions", path_positions},
  {"corridor", path_corridor},
  {"link", path_link},
  {"time", path_time},
  {NULL, NULL}
};

static const luaL_Reg path_meta[] = {
  {"__len", path_len},
  {"__tostring", path_tostring},
  {NULL, NULL}
};

void astar_path_open(lua_State *L) {
  astar_newclass(L, ASTAR_PATH_MT, "Path", path_meta, path_methods);
}
