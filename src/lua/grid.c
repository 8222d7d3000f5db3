/*
** grid.c - the Grid userdata: construction, cells, and grid:find (text and
** tables become grids in grid_load.c).
*/
/***
Grids: cells with costs, and `find`.
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
  lg->g = NULL;
  luaL_setmetatable(L, ASTAR_GRID_MT);
  return lg;
}

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

/* astar.grid(w, h [, cost]) */
static int grid_new(lua_State *L) {
  int w = checksize(L, &F_NEW, 1, "width");
  int h = checksize(L, &F_NEW, 2, "height");
  double cost = lua_isnoneornil(L, 3) ? 1.0 : astar_checkcost(L, &F_NEW, 3);
  astar_newgrid(L, &F_NEW, 1, w, h, cost);
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
Whether a cell may be entered.
@function Grid:walkable
@int x
@int y
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
Sets a cell.
@function Grid:set
@int x
@int y
@tparam number|boolean v a cost > 0, `false` (blocked) or `true` (cost 1)
*/
static int grid_set(lua_State *L) {
  lgrid *lg = astar_checkgrid(L, &F_SET);
  int x = astar_checkcoord(L, &F_SET, 2, "x", astar_grid_width(lg->g));
  int y = astar_checkcoord(L, &F_SET, 3, "y", astar_grid_height(lg->g));
  double c = astar_checkcost(L, &F_SET, 4);
  astar_map_idle(L, &lg->m, "edit");
  astar_grid_set(lg->g, x, y, c);
  return 0;
}

/***
Sets every cell of a rectangle, which must lie inside the grid.
@function Grid:fill
@int x left column
@int y top row
@int w width, >= 0
@int h height, >= 0
@tparam number|boolean v a cost > 0 or `false`
*/
static int grid_fill(lua_State *L) {
  lgrid *lg = astar_checkgrid(L, &F_FILL);
  int W = astar_grid_width(lg->g), H = astar_grid_height(lg->g);
  int x = astar_checkcoord(L, &F_FILL, 2, "x", W);
  int y = astar_checkcoord(L, &F_FILL, 3, "y", H);
  int w = astar_checkrange(L, &F_FILL, 4, "width", 0, W - x);
  int h = astar_checkrange(L, &F_FILL, 5, "height", 0, H - y);
  double c = astar_checkcost(L, &F_FILL, 6);
  astar_map_idle(L, &lg->m, "edit");
  astar_grid_fill(lg->g, x, y, w, h, c);
  return 0;
}

/***
Precomputes jump point search for static maps (JPS+): how far every jump
from every cell goes, under `diagonal` ("no_corner_cutting", the default,
16 bytes a cell; or "never", 8 bytes a cell). Later jumping searches under
that policy read their jumps instead of scanning for them
(`stats().algorithm` is "jps+"). Edits that block or open cells make the
tables stale; the next such search rebuilds them, in time proportional to
the grid. Freed with the grid.
@function Grid:prepare
@string[opt] diagonal
@treturn int the bytes the tables take
*/
static int grid_prepare(lua_State *L) {
  static const afn F_PREPARE = {"prepare", 1};
  lgrid *lg = astar_checkgrid(L, &F_PREPARE);
  int policy = lua_isnoneornil(L, 2) ? ASTAR_DIAG_NO_CORNER_CUTTING
                                     : astar_checkenum(L, &F_PREPARE, 2, "diagonal", astar_diagonals());
  int rc;
  if (policy != ASTAR_DIAG_NO_CORNER_CUTTING && policy != ASTAR_DIAG_NEVER)
    astar_argerror(L, &F_PREPARE, 2, "diagonal: jumps are prepared for 'no_corner_cutting' or 'never'");
  astar_map_idle(L, &lg->m, "edit");
  rc = astar_grid_prepare_jumps(lg->g, policy);
  if (rc == ASTAR_EINVAL)
    astar_error(L, "prepare: a grid with a side of 32766 cells or more cannot be prepared");
  if (rc != 0) astar_raise(L, rc);
  lua_pushinteger(L, (lua_Integer)astar_grid_prepared(lg->g, policy));
  return 1;
}

/***
An independent copy of the grid.
@function Grid:clone
@treturn Grid
*/
static int grid_clone(lua_State *L) {
  lgrid *lg = astar_checkgrid(L, &F_CLONE);
  lgrid *copy = emptygrid(L);
  int rc = astar_grid_clone(&copy->g, lg->g);
  if (rc != 0) astar_raise(L, rc);
  copy->m.core = copy->g;
  return 1;
}

/***
Memory and edit counters: `{allocations = n, edits = m}`. `allocations`
counts the core's allocator calls for this grid and its search context over
their whole life, so a warm query that allocates nothing leaves it unchanged.
@function Grid:stats
@treturn table
*/
static int grid_stats(lua_State *L) {
  lgrid *lg = astar_checkgrid(L, &F_STATS);
  return astar_map_stats(L, &lg->m, astar_grid_allocs(lg->g), NULL);
}

/***
Frees the grid's memory now (also `__close` and `__gc`). Idempotent; paths
found earlier stay valid; any other later use raises
`attempt to use a closed grid`.
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
                                         "auto", NULL};
enum { ALG_JPS = 4, ALG_AUTO = 5 };
static const char *const HEURISTICS[] = {"octile", "manhattan", "euclidean",
                                         "chebyshev", "zero", NULL};

#define GRID_OPTS \
  {ASTAR_OPT_ALGORITHM, ASTAR_OT_ENUM, ALGORITHMS}, {ASTAR_OPT_DIAGONAL, 0, NULL}, \
  {ASTAR_OPT_HEURISTIC, 0, HEURISTICS}, {ASTAR_OPT_COST, 0, NULL}, \
  {ASTAR_OPT_WEIGHT, 0, NULL}, {ASTAR_OPT_MAX_EXPANSIONS, 0, NULL}, \
  {ASTAR_OPT_MAX_COST, 0, NULL}, {ASTAR_OPT_PARTIAL, 0, NULL}, \
  {ASTAR_OPT_GOALS, 0, NULL}, {ASTAR_OPT_WITHIN, 0, NULL}
static const astar_optuse FIND_OPTS[] = {GRID_OPTS, ASTAR_OPT_END};
static const astar_optuse QUERY_OPTS[] = {GRID_OPTS, {ASTAR_OPT_ON_CHANGE, 0, NULL},
                                          ASTAR_OPT_END};

/* A grid search record: the core query and the ends, 0-based. */
typedef struct grec {
  astar_grid_query q;
  int sx, sy, gx, gy;
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
  q->params.algorithm = q->jump ? ASTAR_ALG_ASTAR : alg;
  if (alg != ALG_JPS) return;
  if (o->given[ASTAR_OPT_COST])
    astar_opterror(L, f, o, "option 'cost' cannot be used with algorithm 'jps'");
  if (o->given[ASTAR_OPT_WITHIN])
    astar_opterror(L, f, o, "option 'within' cannot be used with algorithm 'jps'");
  if (astar_opt(o, ASTAR_OPT_PARTIAL, 0))
    astar_opterror(L, f, o, "option 'partial' cannot be used with algorithm 'jps'");
}

/* (sx, sy, gx, gy [, opts]) or (sx, sy, {goals = ...}) */
static int g_args(lua_State *L, const afn *f, lmap *m, void *rec, const astar_optuse *use,
                  astar_opts *o) {
  lgrid *lg = (lgrid *)m;
  grec *r = (grec *)rec;
  astar_grid_query *q = &r->q;
  int w = astar_grid_width(lg->g), h = astar_grid_height(lg->g);
  r->sx = astar_checkcoord(L, f, 2, "x", w);
  r->sy = astar_checkcoord(L, f, 3, "y", h);
  r->gx = r->gy = 0;
  if (astar_goalsform(L, f, 4, use, o) == 0) {
    r->gx = astar_checkcoord(L, f, 4, "x", w);
    r->gy = astar_checkcoord(L, f, 5, "y", h);
    astar_goalopts(L, f, 6, use, o);
  }
  astar_grid_query_init(q);
  setalgorithm(L, f, o, q);
  if (!o->fn[ASTAR_OPT_HEURISTIC])
    q->heuristic = (int)astar_opt(o, ASTAR_OPT_HEURISTIC, q->heuristic);
  q->within = astar_opt(o, ASTAR_OPT_WITHIN, q->within);
  astar_opt_params(o, &q->params);
  if (o->given[ASTAR_OPT_GOALS])
    return readgoals(L, f, o->idx, o->fn[ASTAR_OPT_GOALS], lg, q);
  return 0;
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
  int rc = astar_grid_prepare(((lgrid *)m)->g, &r->q, r->sx, r->sy, r->gx, r->gy,
                              &start, &goal);
  if (rc != 0) return rc;
  return astar_search_begin(s, &r->q.domain, start, goal, &r->q.params);
}

/* Pushes the path the search context holds, as a Path; 0 if none is wanted.
** A jump point search's nodes are joined by the cells between them. */
static int g_push(lua_State *L, void *rec, astar_search *s, int rc) {
  const astar_grid_query *q = &((grec *)rec)->q;
  const uint32_t *nodes;
  double cost, *xy;
  astar_stats st;
  long n, i, k, cells, goal = 0;
  int x = 0, y = 0, tx, ty;
  size_t len;
  int *diag;
  if (rc != ASTAR_FOUND && !q->params.partial) return 0;
  n = astar_search_path(s, &nodes, &cost);
  if (n < 0) astar_raise(L, (int)n);
  astar_search_stats(s, &st);
  if (q->goals != NULL && n > 0) goal = astar_grid_goal_index(q, nodes[n - 1]) + 1;
  if (n > 0) astar_grid_cell(q->grid, nodes[0], &x, &y);
  for (i = 1, cells = n > 0; i < n; i++) {          /* count the cells */
    astar_grid_cell(q->grid, nodes[i], &tx, &ty);
    for (; x != tx || y != ty; cells++) astar_grid_toward(q, &x, &y, tx, ty);
  }
  xy = astar_newpath(L, (size_t)cells, ASTAR_PATH_GRID, cost, &st,
                     q->jps ? (q->jps == 2 ? "jps+" : "jps") : ALGORITHMS[q->params.algorithm],
                     goal);
  if (n > 0) astar_grid_cell(q->grid, nodes[0], &x, &y);
  tx = x; ty = y;
  for (k = 0, i = 0; k < cells; k++) {
    while (x == tx && y == ty && i + 1 < n) astar_grid_cell(q->grid, nodes[++i], &tx, &ty);
    if (k > 0) astar_grid_toward(q, &x, &y, tx, ty);
    xy[2 * k] = x + 1;
    xy[2 * k + 1] = y + 1;
    xy[2 * cells + k] = astar_grid_get(q->grid, x, y);   /* for grid:check */
  }
  astar_path_grid(L, -1, &len, &diag);
  *diag = q->diagonal;
  return 1;
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
  if (r->q.blocked == 1)
    lua_pushfstring(L, "start (%d, %d) is blocked", r->sx + 1, r->sy + 1);
  else if (r->q.goals != NULL)
    lua_pushliteral(L, "every goal is blocked");
  else
    lua_pushfstring(L, "goal (%d, %d) is blocked", r->gx + 1, r->gy + 1);
}

static uint64_t g_version(const lmap *m) { return astar_grid_version(((const lgrid *)m)->g); }

static void g_release(lmap *m) {
  lgrid *lg = (lgrid *)m;
  astar_grid_free(lg->g);
  lg->g = NULL;
}

static const astar_kind GRID = {
  "grid", ASTAR_GRID_MT, FIND_OPTS, QUERY_OPTS, sizeof(grec),
  g_args, g_hook, g_begin, NULL, {g_push, g_blocked, g_endname}, g_version, NULL, NULL, g_release
};

/***
Finds a path from (sx, sy) to (gx, gy), or to the cheapest of several goals
with `grid:find(sx, sy, {goals = {{x, y}, ...}})`.
Options: `algorithm` ("astar", "dijkstra", "bfs", "greedy"), `diagonal`
("no_corner_cutting", "never", "always", "one_obstacle"), `heuristic`
("octile", "manhattan", "euclidean", "chebyshev", "zero", or a function
`(x, y, gx, gy)`), `cost` (a function `(x1, y1, x2, y2, base)`), `weight`
(>= 1), `max_expansions`, `max_cost`, `partial`, `goals`, `within`.
Defaults return shortest paths.
@function Grid:find
@int sx start column
@int sy start row
@int gx goal column
@int gy goal row
@tparam[opt] table opts
@treturn[1] Path the path
@treturn[2] nil
@treturn[2] string a message
@treturn[2] string the code: "no_path", "blocked" or "limit"
@treturn[3] Path with `partial = true`, the path toward the goal
@treturn[3] string a message
@treturn[3] string "partial"
*/
static int grid_find(lua_State *L) { return astar_map_find(L, &GRID); }

/***
Starts a time-sliced search: the same arguments and options as `find`, plus
`on_change = "restart"` (default: if the grid is edited while the query runs,
the search starts again) or `"stale"` (the query ends with status "stale").
Nothing is searched until `q:step(n)`.
@function Grid:query
@int sx
@int sy
@int gx
@int gy
@tparam[opt] table opts
@treturn Query
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
@tparam Path path a path found on this grid
@treturn[1] boolean true
@treturn[2] boolean false
@treturn[2] int the index of the first point that is no longer good
@treturn[2] string why: "blocked" (the cell, or a corner the step cuts) or "changed" (its cost)
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
A Path through the given cells, for routes made by hand or spliced
together: each step must go to one of the 8 (4 with `diagonal = "never"`)
neighbours; the cost is the grid's own (a step into a cell costs its length
times the cell's cost).
@function Grid:to_path
@tparam table points `{x1, y1, x2, y2, ...}`
@string[opt="no_corner_cutting"] diagonal the policy the steps must obey
@tparam[opt] function cost prices the steps, as `find`'s `cost` option
@treturn[1] Path
@treturn[2] nil
@treturn[2] string which point is blocked or which step cuts a blocked corner
@treturn[2] string "blocked"
*/
static int grid_to_path(lua_State *L) {
  static const afn F_TO = {"to_path", 1};
  lgrid *lg = astar_checkgrid(L, &F_TO);
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
      double step = (x != px && y != py) ? c * 1.4142135623730951 : c;
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
  return 1;
}

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
