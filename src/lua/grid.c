/*
** grid.c - the Grid userdata: construction, cells, and grid:find (text and
** tables become grids in grid_load.c).
*/
/***
A tile grid: `w` x `h` cells with costs, and the searches over them.

Cells are addressed `(x, y)`, 1-based, `x` the column and `y` the row, `(1, 1)` the top-left
cell: the same as `map[y][x]` in a Lua table. A cell is blocked (`false`) or walkable with a
cost `c > 0`. A step into cell `b` costs `len * c(b)`, where `len` is 1 for an orthogonal
step and the square root of 2 for a diagonal one.

Made by @{astar.grid}, @{astar.grid.parse} and @{astar.grid.from_table}; the Moving AI
readers `astar.grid.load_movingai` and `astar.grid.parse_movingai` are
@{astar.movingai.load_map} and @{astar.movingai.parse_map}. The methods by topic:

- cells: @{Grid:size|size}, @{Grid:get|get}, @{Grid:walkable|walkable}, @{Grid:set|set},
  @{Grid:fill|fill}, @{Grid:render|render}
- search: @{Grid:find|find}, @{Grid:query|query} (time-sliced), @{Grid:prepare|prepare}
  (JPS+, patched as the map changes)
- stored paths on a changing map: @{Grid:check|check}, @{Grid:splice|splice},
  @{Grid:to_path|to_path}, @{Grid:replanner|replanner} (D* Lite)
- many units, one target: @{Grid:distance_field|distance_field}; reachability:
  @{Grid:components|components}, @{Grid:component|component},
  @{Grid:same_component|same_component}
- ladders and teleporters: @{Grid:link|link}, @{Grid:unlink|unlink}, @{Grid:links|links}
- copies and memory: @{Grid:clone|clone}, @{Grid:stats|stats}, @{Grid:close|close}

Errors follow one rule: a programmer error raises (`bad argument #1 to 'find' (x out of
range: 0 not in [1, 10])`); an outcome that is not a bug returns `nil, message, code`.
@classmod Grid
*/
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include "binding.h"

static const afn F_NEW = {"grid", 0};
static const afn F_GET = {"get", 1};
static const afn F_SET = {"set", 1};
static const afn F_FILL = {"fill", 1};
static const afn F_WALK = {"walkable", 1};
static const afn F_SIZE = {"size", 1};
static const afn F_CLONE = {"clone", 1};
static const afn F_STATS = {"stats", 1};

static const astar_kind GRID;

/* Pushes a new, empty grid userdata (closed state, metatable set), with
** room for find's search record after it. */
static lgrid *emptygrid(lua_State *L) {
  size_t rec = (sizeof(lgrid) + sizeof(double) - 1) / sizeof(double) * sizeof(double);
  lgrid *lg = (lgrid *)lua_newuserdatauv(L, rec + GRID.recsize, 0);
  astar_map_init(&lg->m, &GRID, (char *)lg + rec);
  memset((char *)lg + rec, 0, GRID.recsize);         /* no lattice held (grid_dir.c) */
  lg->g = NULL;
  lg->world.tw = lg->world.th = 1;
  lg->world.ox = lg->world.oy = 0;
  lg->follows = lg->classes = 0;
  lg->lat = NULL;
  lg->snap = NULL;
  memset(lg->hier, 0, sizeof lg->hier);
  lg->hauto = -1;
  lg->hauto_diag = 0;
  luaL_setmetatable(L, ASTAR_GRID_MT);
  return lg;
}

lgrid *astar_pushgrid(lua_State *L) { return emptygrid(L); }

/* Gives the empty userdata 'lg' a w x h core grid, raising on failure. */
static void makegrid(lua_State *L, lgrid *lg, const afn *f, int idx, int w, int h,
                     double cost) {
  void *ud;
  astar_alloc fn = astar_allocator(L, &ud);
  int rc;
  if ((uint64_t)w * (uint64_t)h > ASTAR_GRID_MAX_CELLS)
    astar_argerror(L, f, idx, "grid too large: %d x %d cells, at most %d in all", w, h,
                   (int)ASTAR_GRID_MAX_CELLS);
  rc = astar_grid_new(&lg->g, w, h, cost, fn, ud);
  if (rc != 0) astar_raise(L, rc);
  lg->m.core = lg->g;
}

lgrid *astar_newgrid(lua_State *L, const afn *f, int idx, int w, int h, double cost) {
  lgrid *lg = emptygrid(L);
  makegrid(L, lg, f, idx, w, h, cost);
  return lg;
}

lgrid *astar_checkgrid(lua_State *L, const afn *f) {
  return (lgrid *)astar_checkmap(L, &GRID, f);
}

static int checksize(lua_State *L, const afn *f, int idx, const char *what) {
  double n = astar_checknumber(L, f, idx);
  char buf[32];
  if (n != floor(n) || n == HUGE_VAL || n == -HUGE_VAL)
    astar_argerror(L, f, idx, "integer expected, got %s", astar_fmtnum(buf, n));
  if (n < 1) astar_argerror(L, f, idx, "%s must be at least 1, got %s", what,
                            astar_fmtnum(buf, n));
  if (n > (double)ASTAR_GRID_MAX_CELLS)
    astar_argerror(L, f, idx, "grid too large: %s %s, at most %d cells in all", what,
                   astar_fmtnum(buf, n), (int)ASTAR_GRID_MAX_CELLS);
  return (int)n;
}

/***
A new `w` x `h` grid whose cells all cost `cost`. At most `2^28` cells in all;
`astar.grid.new` is the same function.
@function astar.grid
@int w width (columns), at least 1
@int h height (rows), at least 1
@tparam[opt=1] number|boolean cost every cell's cost, a number > 0, or `false` for blocked
@tparam[opt] table world the grid's place in the world, as @{Grid:set_world} takes it (may
come third, without a cost)
@treturn Grid
@usage
local grid = astar.grid(10, 5)
grid:fill(4, 1, 1, 4, false)                 -- a wall, open at the bottom
local path = assert(grid:find(1, 1, 10, 1))
print(#path, grid:walkable(4, 5))            --> 12 true
*/
lgrid *astar_grid_construct(lua_State *L, const afn *f, int world) {
  int w = checksize(L, f, 1, "width");
  int h = checksize(L, f, 2, "height");
  double cost = lua_isnoneornil(L, 3) || world == 3 ? 1.0 : astar_checkcost(L, f, 3);
  return astar_newgrid(L, f, 1, w, h, cost);
}

static int grid_new(lua_State *L) {
  int world = lua_istable(L, 3) ? 3 : lua_istable(L, 4) ? 4 : 0;
  lgrid *lg;
  if (world == 3 && !lua_isnoneornil(L, 4))
    astar_argerror(L, &F_NEW, 4, "nothing expected after the world table, got %s",
                   luaL_typename(L, 4));
  lg = astar_grid_construct(L, &F_NEW, world);
  if (world) astar_grid_setworld(L, &F_NEW, world, lg);
  astar_gc_settle(L);
  return 1;
}

/***
The grid's size.
@function Grid:size
@treturn int width (columns)
@treturn int height (rows)
*/
static int grid_size(lua_State *L) {
  lgrid *lg = astar_checkgrid(L, &F_SIZE);
  lua_pushinteger(L, astar_grid_width(lg->g));
  lua_pushinteger(L, astar_grid_height(lg->g));
  return 2;
}

/***
A cell's cost.
@function Grid:get
@int x column, 1-based
@int y row, 1-based
@treturn number|boolean the cost, or `false` if the cell is blocked
*/
static int grid_get(lua_State *L) {
  lgrid *lg = astar_checkgrid(L, &F_GET);
  int x = astar_checkcoord(L, &F_GET, 2, "x", astar_grid_width(lg->g));
  int y = astar_checkcoord(L, &F_GET, 3, "y", astar_grid_height(lg->g));
  double c = astar_grid_get(lg->g, x, y);
  if (c > 0) lua_pushnumber(L, (lua_Number)c);
  else lua_pushboolean(L, 0);
  return 1;
}

/***
Whether a cell may be entered: `true` unless it is blocked.
@function Grid:walkable
@int x column
@int y row
@treturn boolean
*/
static int grid_walkable(lua_State *L) {
  lgrid *lg = astar_checkgrid(L, &F_WALK);
  int x = astar_checkcoord(L, &F_WALK, 2, "x", astar_grid_width(lg->g));
  int y = astar_checkcoord(L, &F_WALK, 3, "y", astar_grid_height(lg->g));
  lua_pushboolean(L, astar_grid_get(lg->g, x, y) > 0);
  return 1;
}

astar_search *astar_gridsearch(lua_State *L, lgrid *lg) {
  return astar_map_search(L, &lg->m);
}

/***
Sets a cell's cost. Raises from a callback of a search running on this grid.
@function Grid:set
@int x column
@int y row
@tparam number|boolean v a cost > 0, `false` (blocked) or `true` (cost 1)
*/
static int grid_set(lua_State *L) {
  lgrid *lg = astar_checkgrid(L, &F_SET);
  int x = astar_checkcoord(L, &F_SET, 2, "x", astar_grid_width(lg->g));
  int y = astar_checkcoord(L, &F_SET, 3, "y", astar_grid_height(lg->g));
  double c = astar_checkcost(L, &F_SET, 4);
  astar_grid_check_editable(L, lg);
  astar_grid_set(lg->g, x, y, c);
  astar_grid_sync_classes(L, lg, x, y, 1, 1);
  return 0;
}

/***
Sets every cell of the `w` x `h` rectangle whose top-left cell is `(x, y)`; the
rectangle must lie inside the grid. One edit, however many cells.
@function Grid:fill
@int x left column
@int y top row
@int w width, 0 or more
@int h height, 0 or more
@tparam number|boolean v a cost > 0, `false` (blocked) or `true` (cost 1)
*/
static int grid_fill(lua_State *L) {
  lgrid *lg = astar_checkgrid(L, &F_FILL);
  int W = astar_grid_width(lg->g), H = astar_grid_height(lg->g);
  int x = astar_checkcoord(L, &F_FILL, 2, "x", W);
  int y = astar_checkcoord(L, &F_FILL, 3, "y", H);
  int w = astar_checkrange(L, &F_FILL, 4, "width", 0, W - x);
  int h = astar_checkrange(L, &F_FILL, 5, "height", 0, H - y);
  double c = astar_checkcost(L, &F_FILL, 6);
  astar_grid_check_editable(L, lg);
  astar_grid_fill(lg->g, x, y, w, h, c);
  astar_grid_sync_classes(L, lg, x, y, w, h);
  return 0;
}

/***
Precomputes jump point search (JPS+): how far every jump from every
cell goes, under one diagonal policy. Later jumping searches under that policy read
their jumps instead of scanning for them (their `path:stats().algorithm` is `"jps+"`):
another 1.3 to 2 times faster on the Moving AI maps. On grids of several costs or with
links the tables stop at cost boundaries and link ends, as the jumps do. Edits that block
or open cells, or move a cost boundary, make the tables stale; the next such search
patches them around the edits (in time about the rows and columns near them: a fraction of
a millisecond for a cell of a map of a million), or, after large edits, more than 64 of them
or links, fills them again, in time proportional to the grid. Freed with the grid. Grids with a side
of 32766 cells or more cannot be prepared.
@function Grid:prepare
@string[opt="no_corner_cutting"] diagonal the policy: `"never"` takes 8 bytes a cell
(counting a one-cell border), the others (`"no_corner_cutting"`, `"always"`,
`"one_obstacle"`) 16
@treturn int the bytes the tables take
@usage
local grid = astar.grid(64, 64)
print(grid:prepare())                               --> 69696
print(grid:find(1, 1, 64, 64):stats().algorithm)    --> jps+
*/
static int grid_prepare(lua_State *L) {
  static const afn F_PREPARE = {"prepare", 1};
  lgrid *lg = astar_checkgrid(L, &F_PREPARE);
  int policy = lua_isnoneornil(L, 2) ? ASTAR_DIAG_NO_CORNER_CUTTING
                                     : astar_checkenum(L, &F_PREPARE, 2, "diagonal", astar_diagonals());
  int rc;
  astar_grid_square(L, lg, "prepare");
  astar_map_idle(L, &lg->m, "edit");
  rc = astar_grid_prepare_jumps(lg->g, policy);
  if (rc == ASTAR_EINVAL)
    astar_error(L, "prepare: a grid with a side of 32766 cells or more cannot be prepared");
  if (rc != 0) astar_raise(L, rc);
  lua_pushinteger(L, (lua_Integer)astar_grid_prepared(lg->g, policy));
  astar_gc_settle(L);
  return 1;
}

/***
An independent copy of the grid: its cells, not its @{Grid:prepare|prepare} tables.
@function Grid:clone
@treturn Grid
@usage
local grid = astar.grid(3, 3)
local copy = grid:clone()
copy:set(2, 2, false)
print(grid:walkable(2, 2), copy:walkable(2, 2))   --> true false
*/
static int grid_clone(lua_State *L) {
  lgrid *lg = astar_checkgrid(L, &F_CLONE);
  lgrid *copy = emptygrid(L);
  int rc;
  astar_map_alive(L, &lg->m);                        /* a finalizer may have closed it */
  rc = astar_grid_clone(&copy->g, lg->g);
  if (rc != 0) astar_raise(L, rc);
  copy->m.core = copy->g;
  copy->world = lg->world;
  astar_gc_settle(L);
  return 1;
}

/***
Memory and edit counters: `{allocations = n, edits = m}`. `allocations` counts the core's
allocator calls for this grid and its search contexts over their whole life, so a warm
query, which allocates nothing, leaves it unchanged; `edits` counts the edits.
@function Grid:stats
@treturn table
*/
static int grid_stats(lua_State *L) {
  lgrid *lg = astar_checkgrid(L, &F_STATS);
  return astar_map_stats(L, &lg->m, astar_grid_allocs(lg->g), NULL);
}

/***
Frees the grid's memory now (also `__close`, for Lua 5.4's `<close>`, and `__gc`).
Idempotent; paths found earlier stay valid; any other later use raises
`attempt to use a closed grid`. Refused from a callback of a search on this grid.
@function Grid:close
*/
static int grid_close(lua_State *L) { return astar_map_close(L, &GRID); }

static int grid_tostring(lua_State *L) {
  lgrid *lg = (lgrid *)luaL_testudata(L, 1, ASTAR_GRID_MT);
  if (lg == NULL || lg->g == NULL) lua_pushliteral(L, "astar.Grid (closed)");
  else lua_pushfstring(L, "astar.Grid (%dx%d)", astar_grid_width(lg->g),
                       astar_grid_height(lg->g));
  return 1;
}


/* ---------------------------------------------------------------------- */
/* find and query: the grid's part of the pipeline (src/lua/find.c)        */
/* ---------------------------------------------------------------------- */

/* The engine's algorithms by index (ASTAR_ALG_*), then the jumping ones. */
static const char *const ALGORITHMS[] = {"astar", "dijkstra", "bfs", "greedy", "jps",
                                         "auto", "theta", "lazy_theta", "directional", "hybrid",
                                         "hierarchical", NULL};
enum { ALG_JPS = 4, ALG_AUTO = 5, ALG_THETA = 6, ALG_LAZY_THETA = 7, ALG_DIRECTIONAL = 8,
       ALG_HYBRID = 9, ALG_HIERARCHICAL = 10 };
static const char *const HEURISTICS[] = {"octile", "manhattan", "euclidean",
                                         "chebyshev", "zero", NULL};

#define GRID_OPTS \
  {ASTAR_OPT_ALGORITHM, ASTAR_OT_ENUM, ALGORITHMS}, {ASTAR_OPT_DIAGONAL, 0, NULL}, \
  {ASTAR_OPT_HEURISTIC, 0, HEURISTICS}, {ASTAR_OPT_COST, 0, NULL}, \
  {ASTAR_OPT_WEIGHT, 0, NULL}, {ASTAR_OPT_MAX_EXPANSIONS, 0, NULL}, \
  {ASTAR_OPT_MAX_COST, 0, NULL}, {ASTAR_OPT_PARTIAL, 0, NULL}, \
  {ASTAR_OPT_GOALS, 0, NULL}, {ASTAR_OPT_WITHIN, 0, NULL}, {ASTAR_OPT_RADIUS, 0, NULL}, \
  {ASTAR_OPT_OVERLAY, 0, NULL}, {ASTAR_OPT_OVERLAY_SCALE, 0, NULL}, {ASTAR_OPT_SIZE, 0, NULL}, \
  {ASTAR_OPT_HEADING, 0, NULL}, {ASTAR_OPT_GOAL_HEADING, 0, NULL}, \
  {ASTAR_OPT_TURNING, 0, NULL}, {ASTAR_OPT_HEADINGS, 0, NULL}, \
  {ASTAR_OPT_NEIGHBORHOOD, 0, NULL}, {ASTAR_OPT_REVERSE, 0, NULL}, {ASTAR_OPT_TURN_COST, 0, NULL}
static const astar_optuse FIND_OPTS[] = {
  GRID_OPTS, {ASTAR_OPT_RESERVE, 0, NULL}, {ASTAR_OPT_UNIT, 0, NULL},
  {ASTAR_OPT_START_TIME, 0, NULL}, {ASTAR_OPT_WAIT, 0, NULL}, {ASTAR_OPT_WINDOW, 0, NULL},
  {ASTAR_OPT_CLAIM, 0, NULL}, {ASTAR_OPT_REFINE, 0, NULL}, ASTAR_OPT_END};
static const astar_optuse QUERY_OPTS[] = {GRID_OPTS, {ASTAR_OPT_ON_CHANGE, 0, NULL},
                                          {ASTAR_OPT_REFINE, 0, NULL}, ASTAR_OPT_END};

/* A grid search record: the core query and the ends, 0-based; a
** directional search has its own query (grid_dir.c). */
typedef struct grec {
  astar_grid_query q;
  int sx, sy, gx, gy;
  lgdir dir;
  lcoop coop;            /* option 'reserve' (grid_coop.c) */
  lghier hier;           /* algorithm "hierarchical" (grid_hier.c) */
} grec;

/* Reads the goals list {{x, y}, ...} at 'gidx' into a scratch userdata
** (garbage collected, so an error later leaks nothing); returns its index. */
static int readgoals(lua_State *L, const afn *f, int optidx, int gidx, lgrid *lg,
                     astar_grid_query *q) {
  int n = (int)lua_rawlen(L, gidx), i, *xy;
  int w = astar_grid_width(lg->g), h = astar_grid_height(lg->g);
  if (n < 1) astar_argerror(L, f, optidx, "option 'goals': empty list");
  xy = (int *)lua_newuserdatauv(L, sizeof(int) * 2 * (size_t)n, 0);
  for (i = 1; i <= n; i++) {
    double x, y;
    lua_rawgeti(L, gidx, i);                         /* ... goal */
    if (lua_type(L, -1) != LUA_TTABLE)
      astar_argerror(L, f, optidx, "option 'goals': goal %d is not a table {x, y}", i);
    lua_rawgeti(L, -1, 1);
    lua_rawgeti(L, -2, 2);
    x = lua_type(L, -2) == LUA_TNUMBER ? (double)lua_tonumber(L, -2) : -1;
    y = lua_type(L, -1) == LUA_TNUMBER ? (double)lua_tonumber(L, -1) : -1;
    if (x != floor(x) || y != floor(y) || x < 1 || y < 1 || x > w || y > h)
      astar_argerror(L, f, optidx, "option 'goals': goal %d is not a cell of the grid", i);
    xy[2 * (i - 1)] = (int)x - 1;
    xy[2 * (i - 1) + 1] = (int)y - 1;
    lua_pop(L, 3);
  }
  q->goals = xy;
  q->ngoals = (size_t)n;
  return lua_gettop(L);
}

/* The algorithm and diagonal policy: "auto" (the default) and "jps" jump
** where the core can (astar_grid_prepare); "jps" is an error with an option
** that never lets it jump. */
static void setalgorithm(lua_State *L, const afn *f, const astar_opts *o,
                         astar_grid_query *q) {
  int alg = (int)astar_opt(o, ASTAR_OPT_ALGORITHM, ALG_AUTO);
  q->diagonal = (int)astar_opt(o, ASTAR_OPT_DIAGONAL, q->diagonal);
  q->jump = alg == ALG_JPS ? ASTAR_JUMP_ALWAYS : alg == ALG_AUTO ? ASTAR_JUMP_AUTO
                                                                : ASTAR_JUMP_NEVER;
  q->theta = alg == ALG_THETA ? 1 : alg == ALG_LAZY_THETA ? 2 : 0;
  q->params.algorithm = q->jump || q->theta ? ASTAR_ALG_ASTAR : alg;
  if (q->theta) {
    const char *h = o->given[ASTAR_OPT_HEURISTIC] && !o->fn[ASTAR_OPT_HEURISTIC]
                    ? HEURISTICS[(int)astar_opt(o, ASTAR_OPT_HEURISTIC, 0)] : NULL;
    if (o->given[ASTAR_OPT_COST])
      astar_opterror(L, f, o, "option 'cost' cannot be used with algorithm '%s'",
                     ALGORITHMS[alg]);
    if (h != NULL && (h[0] == 'o' || h[0] == 'm'))
      astar_opterror(L, f, o, "option 'heuristic': '%s' overestimates straight moves; "
                     "algorithm '%s' takes 'euclidean', 'chebyshev', 'zero' or a function", h,
                     ALGORITHMS[alg]);
  }
  if (o->given[ASTAR_OPT_SIZE] && q->theta)
    astar_opterror(L, f, o, "option 'size' cannot be used with algorithm '%s'", ALGORITHMS[alg]);
  if (o->given[ASTAR_OPT_OVERLAY] && (alg == ALG_JPS || q->theta))
    astar_opterror(L, f, o, "option 'overlay' cannot be used with algorithm '%s'",
                   ALGORITHMS[alg]);
  if (alg != ALG_JPS) return;
  if (o->given[ASTAR_OPT_COST])
    astar_opterror(L, f, o, "option 'cost' cannot be used with algorithm 'jps'");
  if (o->given[ASTAR_OPT_WITHIN])
    astar_opterror(L, f, o, "option 'within' cannot be used with algorithm 'jps'");
  if (astar_opt(o, ASTAR_OPT_PARTIAL, 0))
    astar_opterror(L, f, o, "option 'partial' cannot be used with algorithm 'jps'");
  if (astar_opt(o, ASTAR_OPT_RADIUS, 0) > 0)
    astar_opterror(L, f, o, "option 'radius' cannot be used with algorithm 'jps'");
  if (o->given[ASTAR_OPT_SIZE])
    astar_opterror(L, f, o, "option 'size' cannot be used with algorithm 'jps'");
}

/* (sx, sy, gx, gy [, opts]) or (sx, sy, {goals = ...}) */
static int g_opts(lua_State *L, const afn *f, lgrid *lg, grec *r, const astar_opts *o);

static int g_args(lua_State *L, const afn *f, lmap *m, void *rec, const astar_optuse *use,
                  astar_opts *o) {
  lgrid *lg = (lgrid *)m;
  grec *r = (grec *)rec;
  int w = astar_grid_width(lg->g), h = astar_grid_height(lg->g);
  r->sx = astar_checkcoord(L, f, 2, "x", w);
  r->sy = astar_checkcoord(L, f, 3, "y", h);
  r->gx = r->gy = 0;
  if (astar_goalsform(L, f, 4, use, o) == 0) {
    r->gx = astar_checkcoord(L, f, 4, "x", w);
    r->gy = astar_checkcoord(L, f, 5, "y", h);
    astar_goalopts(L, f, 6, use, o);
  }
  {
    int keep = g_opts(L, f, lg, r, o);
    if (keep == 0 && !r->hier.on && !r->dir.on && !r->coop.on &&
        (int)astar_opt(o, ASTAR_OPT_ALGORITHM, ALG_AUTO) == ALG_AUTO)
      astar_ghier_auto(L, f, o, lg, &r->hier, r->q.diagonal, r->sx, r->sy, r->gx, r->gy);
    return keep;
  }
}

/* The options read into o, after the ends: into r's query. Returns the
** stack index of a value the query must keep alive, or 0. */
static int g_opts(lua_State *L, const afn *f, lgrid *lg, grec *r, const astar_opts *o) {
  astar_grid_query *q = &r->q;
  int w = astar_grid_width(lg->g), h = astar_grid_height(lg->g);
  astar_grid_query_init(q);
  r->coop.on = 0;
  r->hier.on = 0;
  if (o->given[ASTAR_OPT_RESERVE] && o->given[ASTAR_OPT_ALGORITHM] &&
      o->v[ASTAR_OPT_ALGORITHM] != ASTAR_ALG_ASTAR)
    astar_opterror(L, f, o, "option 'reserve' needs algorithm 'astar' (the default with it)");
  setalgorithm(L, f, o, q);
  astar_grid_hexopts(L, f, lg, o);
  {
    int alg = (int)astar_opt(o, ASTAR_OPT_ALGORITHM, ALG_AUTO);
    astar_gdir_args(L, f, o, alg == ALG_DIRECTIONAL ? 1 : alg == ALG_HYBRID ? 2 : 0, &r->dir);
  }
  if (r->dir.on) {
    int hk = o->given[ASTAR_OPT_HEURISTIC] && !o->fn[ASTAR_OPT_HEURISTIC]
             ? (int)o->v[ASTAR_OPT_HEURISTIC] : ASTAR_H_EUCLIDEAN;
    const char *name = r->dir.on == 2 ? "hybrid" : "directional";
    if (astar_grid_hex(lg->g) || astar_grid_wrap(lg->g))
      astar_opterror(L, f, o, "option 'algorithm': '%s' does not apply to a %s grid", name,
                     astar_grid_hex(lg->g) ? "hex" : "wrapping");
    if (o->fn[ASTAR_OPT_HEURISTIC] || (hk != ASTAR_H_EUCLIDEAN && hk != ASTAR_H_ZERO))
      astar_opterror(L, f, o, "option 'heuristic': algorithm '%s' takes 'euclidean' or 'zero'",
                     name);
    r->dir.q.heuristic = hk;
    return 0;
  }
  if ((int)astar_opt(o, ASTAR_OPT_ALGORITHM, ALG_AUTO) == ALG_HIERARCHICAL) {
    if (o->given[ASTAR_OPT_RESERVE])
      astar_opterror(L, f, o, "option 'reserve' needs algorithm 'astar' (the default with it)");
    astar_ghier_args(L, f, o, lg, &r->hier, q->diagonal);
    return 0;
  }
  if (o->given[ASTAR_OPT_REFINE])
    astar_opterror(L, f, o, "option 'refine' needs algorithm 'hierarchical'");
  if ((astar_grid_hex(lg->g) || astar_grid_wrap(lg->g)) &&
      (q->jump == ASTAR_JUMP_ALWAYS || q->theta))
    astar_opterror(L, f, o, "option 'algorithm': '%s' does not apply to a %s grid",
                   q->theta == 2 ? "lazy_theta" : q->theta ? "theta" : "jps",
                   astar_grid_hex(lg->g) ? "hex" : "wrapping");
  if (!o->fn[ASTAR_OPT_HEURISTIC])
    q->heuristic = (int)astar_opt(o, ASTAR_OPT_HEURISTIC, q->heuristic);
  q->within = astar_opt(o, ASTAR_OPT_WITHIN, q->within);
  q->radius = astar_opt(o, ASTAR_OPT_RADIUS, 0);
  astar_opt_size(L, f, o, &q->size_w, &q->size_h);
  astar_opt_params(o, &q->params);
  astar_setoverlay(L, f, o, w, h, q);
  astar_gcoop_args(L, f, o, lg, &r->coop, q);
  if (o->given[ASTAR_OPT_GOALS]) {
    int keep = readgoals(L, f, o->idx, o->fn[ASTAR_OPT_GOALS], lg, q);
    if (!o->given[ASTAR_OPT_OVERLAY]) return keep;
    lua_createtable(L, 2, 0);                        /* a query keeps both */
    lua_pushvalue(L, keep);
    lua_rawseti(L, -2, 1);
    lua_pushvalue(L, o->fn[ASTAR_OPT_OVERLAY]);
    lua_rawseti(L, -2, 2);
    return lua_gettop(L);
  }
  return o->fn[ASTAR_OPT_OVERLAY];
}

/* The cost trampoline (ud: an lcall); -1 if the callback forbids the step. */
double astar_grid_cost_cb(void *ud, int x1, int y1, int x2, int y2, double base) {
  const lcall *c = (const lcall *)ud;
  lua_State *L = c->L;
  lua_pushvalue(L, c->cost);
  lua_pushinteger(L, x1 + 1);
  lua_pushinteger(L, y1 + 1);
  lua_pushinteger(L, x2 + 1);
  lua_pushinteger(L, y2 + 1);
  lua_pushnumber(L, (lua_Number)base);
  lua_call(L, 5, 1);
  return astar_cbcost(L, 0, "the step (%d, %d) -> (%d, %d)", x1 + 1, y1 + 1, x2 + 1, y2 + 1);
}

/* The heuristic trampoline: Lua errors escape by longjmp, through the core,
** which holds nothing that its search context does not own. */
static double heur_cb(void *ud, int x, int y, int gx, int gy) {
  const lcall *c = (const lcall *)ud;
  lua_State *L = c->L;
  lua_pushvalue(L, c->heur);
  lua_pushinteger(L, x + 1);
  lua_pushinteger(L, y + 1);
  lua_pushinteger(L, gx + 1);
  lua_pushinteger(L, gy + 1);
  lua_call(L, 4, 1);
  return astar_cbheur(L, "(%d, %d)", x + 1, y + 1);
}

static void g_hook(void *rec, lcall *c) {
  astar_grid_query *q = &((grec *)rec)->q;
  q->cost_fn = c != NULL && c->cost ? astar_grid_cost_cb : NULL;
  q->h_fn = c != NULL && c->heur ? heur_cb : NULL;
  q->cost_ud = q->h_ud = c;
}

static int g_begin(lmap *m, void *rec, astar_search *s) {
  grec *r = (grec *)rec;
  uint32_t start, goal;
  int rc;
  if (r->dir.on) return astar_gdir_begin((lgrid *)m, &r->dir, r->sx, r->sy, r->gx, r->gy, s);
  if (r->coop.on)
    return astar_gcoop_begin((lgrid *)m, &r->coop, r->sx, r->sy, r->gx, r->gy, s);
  if (r->hier.on) {
    rc = astar_ghier_begin((lgrid *)m, &r->hier, r->sx, r->sy, r->gx, r->gy, s);
    r->q.blocked = r->hier.q.blocked;
    return rc;
  }
  rc = astar_grid_prepare(((lgrid *)m)->g, &r->q, r->sx, r->sy, r->gx, r->gy,
                              &start, &goal);
  if (rc != 0) return rc;
  return astar_search_begin(s, &r->q.domain, start, goal, &r->q.params);
}

/* Did the jump point search go from path node i - 1 to node i by a link?
** Yes if there is one and node i's cost is node i - 1's plus the link's, as
** the search added them (a walk of exactly that cost is then marked a link:
** the same cost, and a legal move). */
static int linkstep(const astar_grid_query *q, const astar_found *p, long i) {
  uint32_t a = p->nodes[i - 1], b = p->nodes[i], parent;
  int ax, ay, bx, by;
  double ga, gb, c;
  if (astar_grid_link_count(q->grid) == 0) return 0;
  astar_grid_cell(q->grid, a, &ax, &ay);
  astar_grid_cell(q->grid, b, &bx, &by);
  c = astar_grid_link_cost(q->grid, ax, ay, bx, by);
  if (!(c > 0)) return 0;
  if (p->g != NULL) {
    ga = p->g[i - 1];
    gb = p->g[i];
  } else if (astar_search_node(p->s, a, &ga, &parent) == 0 ||
             astar_search_node(p->s, b, &gb, &parent) == 0) {
    return 0;
  }
  return ga + c == gb;
}

/* Pushes the path p of a search on q as a Path. A jump point search's nodes
** are joined by the cells between them; other searches' nodes are the cells
** (a step may take a link anywhere). */
static int pushfound(lua_State *L, const astar_grid_query *q, const astar_found *p) {
  const uint32_t *nodes = p->nodes;
  double *xy;
  long n = p->n, i, k, cells, goal = 0;
  int x = 0, y = 0, tx, ty;
  size_t len;
  int *diag;
  if (q->theta) {                       /* any-angle: the cells' centres, as points */
    if (q->goals != NULL && n > 0) goal = astar_grid_goal_index(q, nodes[n - 1]) + 1;
    xy = astar_newpath(L, (size_t)n, ASTAR_PATH_MESH, p->cost, &p->st,
                       q->theta == 2 ? "lazy_theta" : "theta", goal);
    for (i = 0; i < n; i++) {
      astar_grid_cell(q->grid, nodes[i], &x, &y);
      xy[2 * i] = x + 1;
      xy[2 * i + 1] = y + 1;
    }
    astar_path_marklinks_lines(L, -1, q->grid, q->radius);
    return 1;
  }
  if (q->goals != NULL && n > 0) goal = astar_grid_goal_index(q, nodes[n - 1]) + 1;
  if (n > 0) astar_grid_cell(q->grid, nodes[0], &x, &y);
  for (i = 1, cells = n > 0; i < n && q->jps; i++) {          /* count the cells */
    astar_grid_cell(q->grid, nodes[i], &tx, &ty);
    cells += linkstep(q, p, i) ? 1 : astar_grid_walk(q, x, y, tx, ty, NULL, NULL);
    x = tx; y = ty;
  }
  if (!q->jps) cells = n;
  xy = astar_newpath(L, (size_t)cells, ASTAR_PATH_GRID, p->cost, &p->st,
                     q->jps ? (q->jps == 2 || q->jps == 4 ? "jps+" : "jps") : ALGORITHMS[q->params.algorithm],
                     goal);
  for (i = 0, k = 0; i < n; i++) {     /* each node, and the cells walked to it */
    astar_grid_cell(q->grid, nodes[i], &tx, &ty);
    if (i > 0 && q->jps && !linkstep(q, p, i)) {
      k += astar_grid_walk(q, x, y, tx, ty, xy + 2 * k, xy + 2 * cells + k);
    } else {
      xy[2 * k] = tx + 1;
      xy[2 * k + 1] = ty + 1;
      xy[2 * cells + k++] = astar_grid_get(q->grid, tx, ty);   /* for grid:check */
    }
    x = tx; y = ty;
  }
  astar_path_grid(L, -1, &len, &diag);
  *diag = q->diagonal;
  astar_path_marklinks(L, -1, q->grid, q->diagonal);
  return 1;
}

/* Pushes the path the search context holds, as a Path; 0 if none is wanted. */
static int g_push(lua_State *L, void *rec, astar_search *s, int rc) {
  const astar_grid_query *q = &((grec *)rec)->q;
  astar_found p;
  if (((grec *)rec)->dir.on) return astar_gdir_push(L, &((grec *)rec)->dir, s, rc);
  if (((grec *)rec)->coop.on) return astar_gcoop_push(L, &((grec *)rec)->coop, s, rc);
  if (((grec *)rec)->hier.on) return astar_ghier_push(L, &((grec *)rec)->hier, s, rc);
  if (rc != ASTAR_FOUND && !q->params.partial) return 0;
  p.n = astar_search_path(s, &p.nodes, &p.cost);
  if (p.n < 0) astar_raise(L, (int)p.n);
  astar_search_stats(s, &p.st);
  p.g = NULL;
  p.s = s;
  return pushfound(L, q, &p);
}

static int g_endname(lua_State *L, void *rec, int which) {
  const grec *r = (const grec *)rec;
  if (which == 0) lua_pushfstring(L, "(%d, %d)", r->sx + 1, r->sy + 1);
  else if (r->q.goals != NULL) return 0;
  else lua_pushfstring(L, "(%d, %d)", r->gx + 1, r->gy + 1);
  return 1;
}

static void g_blocked(lua_State *L, void *rec) {
  const grec *r = (const grec *)rec;
  if (r->coop.on) {
    astar_gcoop_blocked(L, &r->coop);
    return;
  }
  double radius = r->dir.on ? r->dir.p.radius : r->q.radius;
  int blocked = r->dir.on ? r->dir.q.blocked : r->q.blocked;
  const char *why = radius > 0 ? "blocked or too near a blocked cell for the radius"
                   : r->q.size_w > 1 || r->q.size_h > 1
                   ? "blocked or without room for the unit's size" : "blocked";
  if (blocked == 1)
    lua_pushfstring(L, "start (%d, %d) is %s", r->sx + 1, r->sy + 1, why);
  else if (r->q.goals != NULL)
    lua_pushfstring(L, "every goal is %s", why);
  else
    lua_pushfstring(L, "goal (%d, %d) is %s", r->gx + 1, r->gy + 1, why);
}

static uint64_t g_version(const lmap *m) { return astar_grid_version(((const lgrid *)m)->g); }

/* Every edit restarts a jumping search (its jumps read cells it never
** expands); under "auto", the query then goes on cell by cell, so that edits
** away from what it searched no longer restart it. */
static int g_affected(lmap *m, void *rec, astar_search *s, uint64_t since) {
  grec *r = (grec *)rec;
  if (r->dir.on || r->hier.on) return 1;   /* every edit may change these */
  if (!astar_grid_affected(((lgrid *)m)->g, &r->q, s, since, r->sx, r->sy)) return 0;
  if (r->q.jps && r->q.jump == ASTAR_JUMP_AUTO) r->q.jump = ASTAR_JUMP_NEVER;
  return 1;
}

static void g_release(lmap *m) {
  lgrid *lg = (lgrid *)m;
  astar_gsnap_drop(lg);
  astar_ghier_free(lg);
  astar_grid_free(lg->g);
  lg->g = NULL;
  astar_lattice_release(lg->lat);
  lg->lat = NULL;
}

static void g_recfree(void *rec) {
  astar_gdir_free(&((grec *)rec)->dir);
  astar_gcoop_free(&((grec *)rec)->coop);
}

static int g_node(const lmap *m, uint32_t id, double out[2]) {
  int x, y;
  astar_grid_layout_cell(astar_grid_width((const astar_grid *)m->core), id, &x, &y);
  out[0] = x + 1;
  out[1] = y + 1;
  return 2;
}

static const astar_kind GRID = {
  "grid", ASTAR_GRID_MT, FIND_OPTS, QUERY_OPTS, sizeof(grec),
  g_args, g_hook, g_begin, NULL, {g_push, g_blocked, g_endname}, g_version, NULL, g_recfree,
  g_release,
  g_affected, g_node
};

/* ---------------------------------------------------------------------- */
/* Searches on worker threads: the grid's part of src/lua/workers.c        */
/* ---------------------------------------------------------------------- */

/* A worker's search record: find's, and the result it copied out. */
typedef struct wrec {
  grec r;
  const astar_found *res;
} wrec;

static const astar_optuse WORK_OPTS[] = {GRID_OPTS, ASTAR_OPT_END};
static const astar_optuse BATCH_OPTS[] = {GRID_OPTS, {ASTAR_OPT_THREADS, 0, NULL},
                                          ASTAR_OPT_END};
static const astar_optuse SUBMIT_OPTS[] = {GRID_OPTS, {ASTAR_OPT_ON_CHANGE, 0, NULL},
                                           ASTAR_OPT_END};

size_t astar_grid_worksize(void) { return sizeof(wrec); }

void astar_grid_workopts(lua_State *L, const afn *f, lgrid *lg, int idx, int which,
                         astar_opts *o, void *rec) {
  static const int LUA_ONLY[] = {ASTAR_OPT_COST, ASTAR_OPT_GOALS, ASTAR_OPT_OVERLAY, -1};
  static const char *const NAME[] = {"cost", "goals", "overlay"};
  static const char *const WHY[] = {"a Lua callback", "a Lua table", "a Lua table"};
  grec *r = &((wrec *)rec)->r;
  int i;
  astar_readopts(L, f, idx, which == 0 ? WORK_OPTS : which == 1 ? BATCH_OPTS : SUBMIT_OPTS,
                 o);
  for (i = 0; LUA_ONLY[i] >= 0; i++)
    if (o->given[LUA_ONLY[i]])
      astar_opterror(L, f, o, "option '%s' cannot be used in worker threads (it needs %s)",
                     NAME[i], WHY[i]);
  if (o->fn[ASTAR_OPT_HEURISTIC])
    astar_opterror(L, f, o, "option 'heuristic': a function cannot be used in worker "
                   "threads (it needs a Lua callback)");
  if (o->given[ASTAR_OPT_ON_CHANGE] && o->v[ASTAR_OPT_ON_CHANGE] == ASTAR_ON_CONTINUE)
    astar_opterror(L, f, o, "option 'on_change': 'continue' cannot be used in worker threads");
  {
    int alg = (int)astar_opt(o, ASTAR_OPT_ALGORITHM, ALG_AUTO);
    if (alg == ALG_DIRECTIONAL || alg == ALG_HYBRID || alg == ALG_HIERARCHICAL)
      astar_opterror(L, f, o, "option 'algorithm': '%s' cannot be used in worker threads",
                     ALGORITHMS[alg]);
  }
  memset(rec, 0, sizeof(wrec));
  g_opts(L, f, lg, r, o);
  if (r->q.radius > 0 || r->q.size_w > 1 || r->q.size_h > 1)
    astar_opterror(L, f, o, "option '%s' cannot be used in worker threads (its cache is "
                   "built during the search)", r->q.radius > 0 ? "radius" : "size");
}

void astar_grid_workends(void *rec, int sx, int sy, int gx, int gy) {
  grec *r = &((wrec *)rec)->r;
  r->sx = sx; r->sy = sy; r->gx = gx; r->gy = gy;
}

int astar_grid_workbegin(astar_grid *g, void *rec, astar_search *s) {
  grec *r = &((wrec *)rec)->r;
  uint32_t start, goal;
  int rc = astar_grid_prepare(g, &r->q, r->sx, r->sy, r->gx, r->gy, &start, &goal);
  if (rc > 0) astar_search_finish(s, rc);
  if (rc != 0) return rc;
  return astar_search_begin(s, &r->q.domain, start, goal, &r->q.params);
}

int astar_grid_workwants(const void *rec, int rc) {
  return rc == ASTAR_FOUND ||
         ((rc == ASTAR_NO_PATH || rc == ASTAR_LIMIT) && ((const wrec *)rec)->r.q.params.partial);
}

static int w_push(lua_State *L, void *rec, astar_search *s, int rc) {
  wrec *w = (wrec *)rec;
  (void)s;
  if (!astar_grid_workwants(rec, rc)) return 0;
  return pushfound(L, &w->r.q, w->res);
}

static const astar_reporter WORK_REPORT = {w_push, g_blocked, g_endname};

int astar_grid_workreport(lua_State *L, void *rec, const astar_found *res, int rc) {
  ((wrec *)rec)->res = res;
  return astar_report(L, &WORK_REPORT, rec, NULL, rc);
}

/***
Finds a path from `(sx, sy)` to `(gx, gy)`, or with `grid:find(sx, sy, {goals = ...})` to
the cheapest to reach of several goals. The default options return a shortest path.

The default algorithm, `"auto"`, runs jump point search (JPS, Harabor and Grastien) where it
is shortest and fast: without a `cost` function, `within` or `partial`, on a grid of one
cost or with fewer than three walkable cells in five on a cost boundary. Otherwise it runs A*.
Both return paths of the same, shortest cost, listing every cell; `path:stats().algorithm`
says which ran (`"jps"`, `"jps+"` after @{Grid:prepare|prepare}, or `"astar"`).

A callback's error propagates unchanged and leaks nothing; a callback may not yield, nor
search, edit or close this grid. Without callbacks no Lua code runs during the search.
@function Grid:find
@int sx start column
@int sy start row
@int gx goal column (or the options, with `goals`)
@int gy goal row
@tparam[opt] table opts the options; an unknown name is an error
@tparam[opt="auto"] string opts.algorithm `"auto"`, `"jps"` (jump point search on any
grid; an error with `cost`, `within` or `partial`), `"astar"`, `"dijkstra"`, `"bfs"`
(fewest steps; it reports the real cost), `"greedy"` (best-first on the heuristic: fast,
not shortest), `"theta"` (Theta\*: any-angle, a Path of points bending at cell centres with
a clear line between each, priced along its segments; heuristic `"euclidean"` by default; an
error with `cost`, `"octile"` or `"manhattan"`), `"lazy_theta"` (Lazy Theta\*: the same,
one line check per expansion) or `"directional"` (Directional A\*, Marco Pinter: a search over
poses, a cell and a heading, whose moves are the shortest Dubins curves of the turning radius
between cell centres; a Path of poses, `x, y, heading`, with @{Path:sample}, @{Path:length}
and @{Path:segments}: the cheapest such path, which a unit of that turning radius and
`radius` can drive. Heuristic `"euclidean"` (default) or `"zero"`; not with `diagonal`,
`cost`, `goals`, `within`, `size` or `overlay`), or `"hybrid"` (the same, and from the poses
it expands it also tries a shot: the curve straight to the goal, which when clear is one more
way in; the options of `"directional"`; never a costlier path), or `"hierarchical"` (HPA\*
over the abstraction of @{Grid:hierarchy}, made with clusters of 16 the first time: on big
maps long paths cost a few nodes per cluster crossed; legal paths that are **not always
shortest**, about 1% dearer on the README's 4096 x 4096 world; `diagonal`, `max_cost`,
`max_expansions` (abstract nodes) and `refine` only; chosen by `"auto"` only where
@{Grid:hierarchy} was given `auto`)
@tparam[opt=true] boolean opts.refine `"hierarchical"`: `false` returns the abstract path,
a Path of points at the cells it passes through (start, the cluster border cells, goal),
each leg inside one cluster: a unit can set off along its first leg (a @{Grid:find|find}
between its points, a short search) while the rest waits; its cost is the filled-in path's
@tparam[opt] number opts.heading `"directional"`: the start heading in radians,
counter-clockwise from +x in grid coordinates (whose y axis points down); default: any
@tparam[opt] number opts.goal_heading `"directional"`: the heading to arrive with; default any
@tparam[opt=1] number opts.turning `"directional"`: the turning radius in cells, in (0, 16]
@tparam[opt=8] int opts.headings `"directional"`: 8 or 16 headings a cell
@tparam[opt=24] int opts.neighborhood `"directional"`: moves to the 8, 24 or 48 cells
around (Pinter's Directional-8, -24, -48)
@tparam[opt=false] boolean|number opts.reverse `"directional"`: the unit may back up (the same
curves driven backward); a number >= 1 multiplies the cost of backing up
@tparam[opt=0] number opts.turn_cost `"directional"`: a cost added per radian turned
@tparam[opt="no_corner_cutting"] string opts.diagonal `"no_corner_cutting"` (a diagonal step
needs both orthogonal neighbours walkable: the Moving AI rule), `"never"` (4-connected),
`"always"` or `"one_obstacle"` (at most one of the two blocked)
@tparam[opt="octile"] string|function opts.heuristic `"octile"`, `"manhattan"` (the default
when `diagonal = "never"`), `"euclidean"`, `"chebyshev"`, `"zero"`, each times the grid's
smallest cost so that it never overestimates; or `function(x, y, gx, gy)` returning an
estimate of at least 0
@tparam[opt] function opts.cost `function(x1, y1, x2, y2, base)`: the cost of the step
`(x1, y1) -> (x2, y2)` whose built-in cost is `base`; a number > 0, or `false` or `nil` to
forbid the step. Pair it with `heuristic = "zero"` if it can return less than `base`.
@tparam[opt=1] number opts.weight weighted A*, `f = g + weight * h`, at least 1: the path
costs at most `weight` times the optimum
@tparam[opt] int opts.max_expansions stop with `"limit"` after this many node expansions
(default: no limit)
@tparam[opt] number opts.max_cost do not look for paths costing more (`"limit"`; default:
no limit)
@tparam[opt=false] boolean opts.partial when the goal cannot be reached or a limit stops the
search, return the path to the expanded cell nearest the goal as `path, message, "partial"`
@tparam[opt] table opts.goals `{{x, y}, ...}`: go to the cheapest to reach;
`path:stats().goal` is its index. Give the options as the third argument then.
@tparam[opt] number opts.within accept any cell within this heuristic distance of the goal
(an attack range), 0 or more; the path ends at the first such cell a shortest path reaches
@tparam[opt=0] number opts.radius the unit is a disc of this radius in cells (0 or more): its
centre goes from cell centre to cell centre, and no step may bring it nearer than `radius` to
a blocked cell (@{Grid:walkable_line}); the start and goal must have room for it. The shortest
path for that unit; searched cell by cell (no jumps)
@tparam[opt] int|table opts.size a unit bigger than a cell: it covers the `size` x `size`
cells (or `{w, h}`: `w` columns, `h` rows; integers in [1, 64]) whose top-left cell is the
path's. Each of them is walkable wherever it stands (else the start or goal is `"blocked"`), and
a diagonal step needs its footprint to fit at the two orthogonal neighbours as the diagonal
policy needs a cell walkable there. A step costs what the cell it enters costs. Searched cell by
cell (no jumps); not with `radius`
@tparam[opt] Field opts.overlay a cost overlay (danger, influence, cover): a Field of a grid
of this size with no value below 0 (a @{Grid:distance_field|distance field}, or
@{Grid:to_field} of a grid of numbers); a step of length `len` into cell `v` then costs
`len * (cost(v) + overlay_scale * overlay(v))`, and cells the field did not reach are not
entered. Links are not affected. The shortest path under those costs, by A*: not with `"jps"`,
`"theta"` or `"lazy_theta"`
@tparam[opt=1] number opts.overlay_scale the overlay's factor, 0 or more
@treturn[1] Path the path
@treturn[2] nil
@treturn[2] string a message, e.g. `no path from (1, 1) to (10, 3)`
@treturn[2] string the code: `"no_path"`, `"blocked"` (the start or every goal is blocked)
or `"limit"`
@treturn[3] Path with `partial = true`, the path toward the goal
@treturn[3] string a message
@treturn[3] string `"partial"`
@usage
local grid = astar.grid.parse("S.#.\n..#G\n....", { ["."] = 1, S = 1, G = 1, ["#"] = false })
local path = assert(grid:find(1, 1, 4, 2))
print(#path, path:cost())                          --> 6 5.4142135623731
local p2 = grid:find(1, 1, { goals = { { 4, 1 }, { 1, 3 } } })
print(p2:stats().goal, #p2)                        --> 2 3
print(grid:find(1, 1, 3, 1))                       --> nil goal (3, 1) is blocked blocked
*/
static int grid_find(lua_State *L) { return astar_map_find(L, &GRID); }

/***
Starts a time-sliced search: @{Grid:find|find}'s arguments and options, plus `on_change`.
Nothing is searched until @{Query:step}; stepped to its end, the query gives what `find`
would have returned. Any number of queries may run on one grid at once.
@function Grid:query
@int sx start column
@int sy start row
@int gx goal column (or the options, with `goals`)
@int gy goal row
@tparam[opt] table opts every option of @{Grid:find|find}, and:
@tparam[opt="restart"] string opts.on_change what an edit of the grid during the query
that could change its answer does: `"restart"` (the next step starts the search again),
`"stale"` (the query ends with status `"stale"`) or `"continue"` (it goes on regardless);
edits that cannot change it are ignored (see @{Query:step})
@treturn Query
@usage
local grid = astar.grid(100, 100)
local q = grid:query(1, 1, 100, 100, { algorithm = "astar" })
local steps = 0
repeat steps = steps + 1 until q:step(50) ~= "running"   -- one step a frame
local path = assert(q:result())
print(#path, steps > 1)                                  --> 100 true
*/
static int grid_query(lua_State *L) { return astar_map_query(L, &GRID); }

/* core.grid_splice_options(opts, argn): checks grid:splice's options (find's
** but for goals, within and partial, plus ratio) with splice's messages. */
static int grid_splice_options(lua_State *L) {
  static const astar_optuse SPLICE_OPTS[] = {
    {ASTAR_OPT_ALGORITHM, ASTAR_OT_ENUM, ALGORITHMS}, {ASTAR_OPT_DIAGONAL, 0, NULL},
    {ASTAR_OPT_HEURISTIC, 0, HEURISTICS}, {ASTAR_OPT_COST, 0, NULL},
    {ASTAR_OPT_WEIGHT, 0, NULL}, {ASTAR_OPT_MAX_EXPANSIONS, 0, NULL},
    {ASTAR_OPT_MAX_COST, 0, NULL}, {ASTAR_OPT_RATIO, 0, NULL}, ASTAR_OPT_END
  };
  afn f;
  astar_opts o;
  f.name = "splice";
  f.self = 1 - (int)luaL_checkinteger(L, 2);        /* opts (index 1) is argument #argn */
  lua_settop(L, 1);
  astar_readopts(L, &f, 1, SPLICE_OPTS, &o);
  return 0;
}

/***
Whether a stored path is still good on this grid, in time proportional to
its length: every cell walkable, every step legal under the diagonal policy
the path was found with, and no cell's cost changed since then.
@function Grid:check
@tparam Path path a path found on this grid (or made by @{Grid:to_path|to_path})
@treturn[1] boolean true
@treturn[2] boolean false
@treturn[2] int the index of the first point that is no longer good
@treturn[2] string why: `"blocked"` (the cell, or a corner the step into it cuts) or
`"changed"` (its cost)
*/
static int grid_check(lua_State *L) {
  static const afn F_CHECK = {"check", 1};
  lgrid *lg = astar_checkgrid(L, &F_CHECK);
  size_t n, i;
  int *diag, W = astar_grid_width(lg->g), H = astar_grid_height(lg->g), px = 0, py = 0;
  const double *v = astar_path_grid(L, 2, &n, &diag);
  int policy;
  if (v == NULL)
    astar_argerror(L, &F_CHECK, 2, "astar.Path of a grid expected, got %s",
                   luaL_typename(L, 2));
  policy = *diag >= 0 ? *diag : ASTAR_DIAG_NO_CORNER_CUTTING;
  for (i = 0; i < n; i++)
    if (v[2 * i] < 1 || v[2 * i + 1] < 1 || v[2 * i] > W || v[2 * i + 1] > H)
      astar_argerror(L, &F_CHECK, 2, "the path does not fit this grid");
  for (i = 0; i < n; i++) {
    int x = (int)v[2 * i] - 1, y = (int)v[2 * i + 1] - 1;
    double c = astar_grid_get(lg->g, x, y), was = v[2 * n + i];
    const char *why = NULL;
    if (c <= 0) why = "blocked";
    else if (was == was && was != c) why = "changed";
    else if (i > 0 && astar_grid_step(lg->g, policy, px, py, x, y) != ASTAR_STEP_OK)
      why = "blocked";
    if (why != NULL) {
      lua_pushboolean(L, 0);
      lua_pushinteger(L, (lua_Integer)i + 1);
      lua_pushstring(L, why);
      return 3;
    }
    px = x; py = y;
  }
  lua_pushboolean(L, 1);
  return 1;
}

/***
A Path through the given cells, for routes made by hand or spliced together: each step
must go to one of the 8 neighbours (4 with `diagonal = "never"`) or along a @{Grid:link|link};
the cost is the grid's own (a step into a cell costs its length times the cell's cost, a link
its own cost, whichever is cheaper) or the `cost` callback's.
@function Grid:to_path
@tparam table points `{x1, y1, x2, y2, ...}`
@string[opt="no_corner_cutting"] diagonal the policy the steps must obey, as in
@{Grid:find|find}
@tparam[opt] function cost prices the steps, as `find`'s `cost` option
@treturn[1] Path
@treturn[2] nil
@treturn[2] string which point is blocked or which step cuts a blocked corner
@treturn[2] string "blocked"
*/
static const afn F_TO = {"to_path", 1};

/* to_path with the grid held: cost callbacks and finalizers may not edit or close it. */
static int topath_held(lua_State *L, void *ud) {
  lgrid *lg = (lgrid *)ud;
  int W = astar_grid_width(lg->g), H = astar_grid_height(lg->g), policy, len, i;
  int px = 0, py = 0;
  double cost = 0, *v;
  astar_stats st;
  int *diag;
  size_t n;
  int cb = !lua_isnoneornil(L, 4);
  if (lua_type(L, 2) != LUA_TTABLE)
    astar_argerror(L, &F_TO, 2, "table expected, got %s", luaL_typename(L, 2));
  if (cb && !astar_iscallable(L, 4))
    astar_argerror(L, &F_TO, 4, "function expected, got %s", luaL_typename(L, 4));
  policy = lua_isnoneornil(L, 3) ? ASTAR_DIAG_NO_CORNER_CUTTING
                                 : astar_checkenum(L, &F_TO, 3, "diagonal", astar_diagonals());
  len = (int)lua_rawlen(L, 2);
  if (len < 2 || len % 2 != 0)
    astar_argerror(L, &F_TO, 2, "expected {x1, y1, x2, y2, ...} with at least one point");
  n = (size_t)len / 2;
  memset(&st, 0, sizeof st);
  v = astar_newpath(L, n, ASTAR_PATH_GRID, 0, &st, "to_path", 0);
  for (i = 0; i < (int)n; i++) {
    int x, y;
    double c;
    lua_rawgeti(L, 2, 2 * i + 1);
    lua_rawgeti(L, 2, 2 * i + 2);
    {
      double dx = lua_type(L, -2) == LUA_TNUMBER ? (double)lua_tonumber(L, -2) : -1;
      double dy = lua_type(L, -1) == LUA_TNUMBER ? (double)lua_tonumber(L, -1) : -1;
      if (!(dx >= 1 && dy >= 1 && dx <= W && dy <= H) || dx != floor(dx) || dy != floor(dy))
        astar_argerror(L, &F_TO, 2, "point %d is not a cell of the grid", i + 1);
      x = (int)dx;
      y = (int)dy;
    }
    lua_pop(L, 2);
    x--; y--;
    c = astar_grid_get(lg->g, x, y);
    switch (i > 0 ? astar_grid_step(lg->g, policy, px, py, x, y) : c > 0 ? 0 : -1) {
      case ASTAR_STEP_FAR:
        astar_argerror(L, &F_TO, 2, "step %d -> %d is not a move to a neighbour", i, i + 1);
        break;
      case ASTAR_STEP_CORNER:
        return astar_outcome(L, "blocked", "step %d -> %d cuts a blocked corner", i, i + 1);
      case ASTAR_STEP_OK:
        break;
      default:
        return astar_outcome(L, "blocked", "point %d (%d, %d) is blocked", i + 1, x + 1, y + 1);
    }
    if (i > 0) {
      int link;
      double step = astar_grid_move_cost(lg->g, policy, px, py, x, y, &link);
      if (cb) {                     /* the caller's prices, as find's 'cost' option */
        lcall lc;
        lc.L = L; lc.cost = 4; lc.heur = 0;
        step = astar_grid_cost_cb(&lc, px, py, x, y, step);
        if (lg->g == NULL) astar_error(L, "attempt to use a closed grid");
        if (step < 0)
          return astar_outcome(L, "blocked", "step %d -> %d is forbidden by the cost callback",
                         i, i + 1);
      }
      cost += step;
    }
    v[2 * i] = x + 1;
    v[2 * i + 1] = y + 1;
    v[2 * n + (size_t)i] = c;
    px = x; py = y;
  }
  astar_path_grid(L, -1, &n, &diag);
  *diag = policy;
  lua_pushnumber(L, (lua_Number)cost);
  astar_path_setcost(L, -2);
  astar_path_marklinks(L, -1, lg->g, policy);
  return 1;
}

static int grid_to_path(lua_State *L) {
  lgrid *lg = astar_checkgrid(L, &F_TO);
  return astar_map_hold(L, &lg->m, topath_held, lg);
}

/* The Grid methods that other files define are documented here, so that the
** reference has one page for the Grid: render and splice (lua/astar.lua),
** replanner (replanner.c), distance_field and the components (field.c). */

/***
The grid as text, one line per row: `#` blocked, `.` cost 1, a digit for other costs
(rounded, 9 at most); with a path, `S` and `G` its ends and `*` its other cells.
@function Grid:render
@tparam[opt] Path path a path to draw
@treturn string
@usage
local grid = astar.grid.parse("....\n.##.\n....", { ["."] = 1, ["#"] = false })
print(grid:render(grid:find(1, 1, 4, 3)))
--> S***
--> .##*
--> ...G
*/

/***
Path splicing: after the map changed, re-plans only the next `n` steps of a stored path
and keeps the rest of it. The agent stands on point `at`; a detour goes from there to the
first walkable point at least `n` steps further, and the old path's tail follows (joined
where the detour meets it: no loops). Falls back to a full re-plan, a plain
@{Grid:find|find} to the path's goal, when no detour exists, when the detour is more than
`ratio` times longer than the steps it replaces, or when the kept tail is no longer
walkable.
@function Grid:splice
@tparam Path path a path found on this grid
@int[opt=1] at the index of the agent's point
@int[opt=8] n how many steps to re-plan
@tparam[opt] table opts the options of @{Grid:find|find} but `goals`, `within`, `partial`,
`radius`, `size` and `overlay` (for those, search afresh with `find`), and:
@tparam[opt=3] number opts.ratio the longest detour kept, in steps, as a multiple of the
steps it replaces (at least 1)
@return a Path (its `stats().algorithm` is `"to_path"` when spliced), or `nil, message, code`
@usage
local grid = astar.grid(20, 5)
local path = assert(grid:find(1, 3, 20, 3))
grid:set(5, 3, false)                            -- the way is blocked ahead
print(grid:check(path))                          --> false 5 blocked
local new = assert(grid:splice(path, 1, 8))
print(grid:check(new), new:get(-1))              --> true 20 3
*/

/***
An incremental re-planner (D* Lite, Koenig and Likhachev) for an agent at `(sx, sy)` going
to `(gx, gy)`: it keeps its search between calls and repairs the path after edits of the
grid instead of searching afresh. It reads the grid's built-in costs (no `cost` callback)
and keeps 20 bytes a cell.
@function Grid:replanner
@int sx the agent's column
@int sy the agent's row
@int gx goal column
@int gy goal row
@tparam[opt] table opts the options:
@tparam[opt="no_corner_cutting"] string opts.diagonal as in @{Grid:find|find}
@tparam[opt=0] number opts.radius the unit is a disc of this radius in cells, as in
@{Grid:find|find} (an edit repairs what lies within `ceil(r) + 2` cells of it)
@treturn Replanner
@usage
local grid = astar.grid(10, 10)
local r = grid:replanner(1, 1, 10, 10)
local path = assert(r:path())
r:move_to(path:get(2))                  -- the agent stepped on
grid:fill(3, 1, 1, 9, false)            -- a wall appeared
path = assert(r:path())                 -- repaired, not searched afresh
print(path:get(1))                      --> 2 2
*/

/***
A distance field (Dijkstra map) over the grid: for every cell, the cost of the cheapest
path from it to the nearest source, plus that source's value, and the next step of that
path. With the default options its costs are those of @{Grid:find|find}: when `s` is the
only source, with value 0, `f:distance(x, y)` is `grid:find(x, y, s.x, s.y):cost()`. The
field is a snapshot: later edits of the grid do not change it.

`sources` is a list `{{x, y}, {x, y, value}, ...}` (`value` a finite number, default 0,
may be negative; a cell listed twice keeps its smaller value; sources on blocked cells or
above `max_cost` are ignored; the list may not be empty), or a @{Field} of a grid of this
size: then every cell that field reached is a source of value `opts.scale * distance`. A
negative scale makes a flee map: @{Field:next} then leads away from the first field's
sources, around walls, toward cells far from them.
@function Grid:distance_field
@tparam table|Field sources
@tparam[opt] table opts the options; an unknown name is an error
@tparam[opt="no_corner_cutting"] string opts.diagonal as in @{Grid:find|find}
@tparam[opt] number opts.max_cost cells whose distance would exceed it (0 or more) stay
unreached (default: no limit)
@tparam[opt] function opts.cost `function(x1, y1, x2, y2, base)` as in `find`, called for
the forward step `(x1, y1) -> (x2, y2)`, toward the source
@tparam[opt] number opts.scale with a Field as `sources` only, and required then: the
factor applied to its distances (finite)
@tparam[opt=0] number opts.radius distances for a unit that is a disc of this radius, as
@{Grid:find|find}'s `radius`: steps it cannot make are not taken, and sources where it has no
room are dropped
@tparam[opt] int|table opts.size distances for a unit of this footprint, as
@{Grid:find|find}'s `size`: sources without room for it are dropped
@tparam[opt] Field opts.overlay a cost overlay as in @{Grid:find|find}, added to each step
toward the source
@tparam[opt=1] number opts.overlay_scale its factor, 0 or more
@treturn Field
@usage
local grid = astar.grid(10, 10)
local field = grid:distance_field({ { 10, 10 } })   -- the player is the source
print(field:next(1, 1))                             --> 2 2
print(field:distance(10, 1))                        --> 9
local flee = grid:distance_field(field, { scale = -1.2 })
print(flee:next(9, 9))                              --> 8 8
*/

/***
A Field holding this grid's cells as its values, 0 where blocked: a snapshot, for a numeric
layer (danger, influence, cover) built with @{Grid:set|set} and @{Grid:fill|fill} on a grid
of its own and added to step costs by the `overlay` option of @{Grid:find|find},
@{Grid:query|query} and @{Grid:distance_field|distance_field}. It holds values, not paths: its
@{Field:next|next} and @{Field:path_from|path_from} raise.
12 bytes a cell; later edits of the grid do not change it.
@function Grid:to_field
@treturn Field
@usage
local danger = astar.grid(5, 1, false)             -- 0 everywhere
danger:set(3, 1, 4)                                -- a watchtower's cell
local f = danger:to_field()
print(f:distance(3, 1), f:distance(1, 1))          --> 4.0 0.0
*/

/***
The number of connected components of walkable cells: groups of cells that paths join
under a diagonal policy. `"never"`, `"no_corner_cutting"` and `"one_obstacle"` give the
same, 4-connected, components; `"always"` also joins cells that touch at a corner.

The labels are computed on first use and kept current lazily: recomputed, in one pass over
the grid, only after a cell turned blocked or walkable. From the first call on,
@{Grid:find|find} answers a goal in another component than the start at once with
`nil, message, "no_path"` (not with `partial` or `within`).
@function Grid:components
@string[opt="no_corner_cutting"] diagonal the policy whose connectivity to use
@treturn int
@usage
local grid = astar.grid(5, 3)
grid:fill(3, 1, 1, 3, false)                           -- a wall across the grid
print(grid:components(), grid:same_component(1, 1, 5, 1))   --> 2 false
print(grid:component(5, 3), grid:component(3, 2))      --> 2 nil
*/

/***
The component of a cell: a label from 1 to @{Grid:components|components}`()`, numbered in
reading order of each component's first cell.
@function Grid:component
@int x column
@int y row
@string[opt="no_corner_cutting"] diagonal as in @{Grid:components|components}
@treturn int|nil the label, or `nil` if the cell is blocked
*/

/***
Whether a path joins two cells (both walkable, in the same component). O(1) once the
labels are current.
@function Grid:same_component
@int x1
@int y1
@int x2
@int y2
@string[opt="no_corner_cutting"] diagonal as in @{Grid:components|components}
@treturn boolean
*/

static const luaL_Reg grid_methods[] = {
  {"size", grid_size},
  {"get", grid_get},
  {"set", grid_set},
  {"fill", grid_fill},
  {"walkable", grid_walkable},
  {"clone", grid_clone},
  {"prepare", grid_prepare},
  {"stats", grid_stats},
  {"find", grid_find},
  {"query", grid_query},
  {"check", grid_check},
  {"to_path", grid_to_path},
  {"close", grid_close},
  {NULL, NULL}
};

static const luaL_Reg grid_meta[] = {
  {"__gc", astar_map_gc},
  {"__close", grid_close},   /* like close: refused while a search runs */
  {"__tostring", grid_tostring},
  {NULL, NULL}
};

static const luaL_Reg grid_funcs[] = {
  {"grid_new", grid_new},
  {"grid_splice_options", grid_splice_options},
  {NULL, NULL}
};

void astar_grid_open(lua_State *L) {
  astar_newclass(L, ASTAR_GRID_MT, "Grid", grid_meta, grid_methods);
  luaL_setfuncs(L, grid_funcs, 0);
}
