/*
** grid_coop.c - the Lua side of cooperative paths (src/core/grid_coop.c):
** the Reservations table and grid:find(..., {reserve = table, ...})
** (Cooperative A* and WHCA*); path:time is in path.c, astar.cooperative in
** lua/astar.lua.
*/
/***
A space-time reservation table for cooperative paths (David Silver, "Cooperative
Pathfinding", 2005): which unit holds which cell at which time, so that units planned one
after another never meet. Made by `astar.reservations()`; filled by @{Grid:find} with
`reserve = table` (Cooperative A\* and WHCA\*), by `astar.cooperative`, or by hand.

Time counts steps: a unit at a cell at time `t` is at a neighbour, or at the same cell (a
wait), at time `t + 1`. Times are integers from 0 to 2^30 - 1. Units are integers from 1 to
2^31 - 2. A unit may also hold a cell from a time on forever: a unit parked at its goal.
A unit conflicts with the table when it enters a cell another unit holds at that time, or
swaps cells with another unit across an edge; crossing another unit's diagonal in a 2 x 2
block, or following it into the cell it leaves, is allowed. What a unit holds never blocks
itself. The table does not know the grid: one table can serve several grids that share
their coordinates.
@classmod Reservations
*/
#include <math.h>
#include <string.h>
#include "binding.h"

#define ASTAR_RESV_MT "astar.Reservations"

static const afn F_NEW = {"reservations", 0};

static lresv *checkresv(lua_State *L, const char *fname) {
  lresv *r = (lresv *)astar_checkself(L, ASTAR_RESV_MT, fname, "astar.Reservations");
  if (r->r == NULL) astar_error(L, "attempt to use a closed reservations table");
  return r;
}

/* A unit id: an integer in [1, ASTAR_COOP_UNIT_MAX]. */
static uint32_t checkunit(lua_State *L, const afn *f, int idx, const char *what) {
  return (uint32_t)astar_checkrange(L, f, idx, what, 1, (int)ASTAR_COOP_UNIT_MAX);
}

/* A time: an integer in [0, ASTAR_COOP_TMAX]. */
static long checktime(lua_State *L, const afn *f, int idx, const char *what) {
  return astar_checkrange(L, f, idx, what, 0, (int)ASTAR_COOP_TMAX);
}

/* A cell coordinate of the table: an integer in [1, 2^31 - 1]; 0-based. */
static int checkcell(lua_State *L, const afn *f, int idx, const char *axis) {
  return astar_checkrange(L, f, idx, axis, 1, 0x7fffffff) - 1;
}

/***
A new, empty reservation table.
@function astar.reservations
@treturn Reservations
@usage
local r = astar.reservations()
local grid = astar.grid(5, 1)
local a = assert(grid:find(1, 1, 5, 1, { reserve = r, unit = 1 }))
print(r:holder(3, 1, 2))                           --> 1
*/
static int resv_new(lua_State *L) {
  astar_alloc fn;
  void *ud;
  lresv *r;
  int rc;
  (void)F_NEW;
  r = (lresv *)lua_newuserdatauv(L, sizeof *r, 0);
  r->r = NULL;
  luaL_setmetatable(L, ASTAR_RESV_MT);
  fn = astar_allocator(L, &ud);
  if ((rc = astar_resv_new(&r->r, fn, ud)) != 0) astar_raise(L, rc);
  return 1;
}

/***
The unit holding cell `(x, y)` at time `t`, or `nil`.
@function Reservations:holder
@int x column
@int y row
@int t time
@treturn int|nil the unit
*/
static int resv_holder(lua_State *L) {
  static const afn F = {"holder", 1};
  lresv *r = checkresv(L, F.name);
  int x = checkcell(L, &F, 2, "x"), y = checkcell(L, &F, 3, "y");
  uint32_t u = astar_resv_holder(r->r, x, y, checktime(L, &F, 4, "time"));
  if (u == ASTAR_NONE) lua_pushnil(L);
  else lua_pushinteger(L, (lua_Integer)u);
  return 1;
}

/* Pushes the conflict outcome: nil, message, "conflict". */
static int conflict(lua_State *L, const int *xy, size_t at, long t, uint32_t who, int hold) {
  lua_pushnil(L);
  if (hold)
    lua_pushfstring(L, "cell (%d, %d) is held by unit %d after time %d", xy[0] + 1, xy[1] + 1,
                    (int)who, (int)t);
  else
    lua_pushfstring(L, "step %d: cell (%d, %d) at time %d conflicts with unit %d",
                    (int)at + 1, xy[0] + 1, xy[1] + 1, (int)t, (int)who);
  lua_pushliteral(L, "conflict");
  return 3;
}

/***
Reserves a path for `unit`, in place of whatever the unit held: its point `i` at time
`start_time + i - 1` (a path from @{Grid:find} with `reserve` knows its times: see
@{Path:time}), and with `hold`, its last cell from then on forever. Consecutive points are
taken as one step of the unit (a wait, a move, a link), whatever their distance. Nothing
changes on a conflict.
@function Reservations:reserve
@int unit the unit
@tparam Path path a grid path
@tparam[opt] table opts
@int[opt] opts.start_time the time of the first point (default: the path's own, else 0)
@tparam[opt] boolean opts.hold hold the last cell forever (default: what the cooperative
search said, `true` for other paths)
@treturn[1] boolean `true`
@treturn[2] nil
@treturn[2] string which step conflicts, with which unit
@treturn[2] string `"conflict"`
*/
static int resv_reserve(lua_State *L) {
  static const afn F = {"reserve", 1};
  lresv *r = checkresv(L, F.name);
  uint32_t unit = checkunit(L, &F, 2, "unit"), who;
  size_t n, i, at, planned = 0;
  long t0 = 0;
  int hold = 1, holds, *xy, rc;
  double *v = astar_path_grid(L, 3, &n, NULL);
  if (v == NULL)
    astar_argerror(L, &F, 3, "a grid Path expected, got %s",
                   luaL_testudata(L, 3, ASTAR_PATH_MT) ? "another kind of Path"
                                                       : luaL_typename(L, 3));
  if (astar_path_time(L, 3, &t0, &planned, &holds)) {
    hold = holds;
    n = planned;                        /* WHCA*: the way on was not planned */
  }
  if (!lua_isnoneornil(L, 4)) {
    luaL_checktype(L, 4, LUA_TTABLE);
    lua_getfield(L, 4, "start_time");
    if (!lua_isnil(L, -1)) t0 = checktime(L, &F, lua_gettop(L), "option 'start_time'");
    lua_getfield(L, 4, "hold");
    if (!lua_isnil(L, -1)) {
      if (lua_type(L, -1) != LUA_TBOOLEAN)
        astar_argerror(L, &F, 4, "option 'hold': boolean expected, got %s",
                       luaL_typename(L, -1));
      hold = lua_toboolean(L, -1);
    }
    lua_pop(L, 2);
  }
  if (n > 0 && t0 + (long)n - 1 > ASTAR_COOP_TMAX)
    astar_argerror(L, &F, 3, "the path ends after time %d", (int)ASTAR_COOP_TMAX);
  xy = (int *)lua_newuserdatauv(L, 2 * (n > 0 ? n : 1) * sizeof(int), 0);
  r = checkresv(L, F.name);             /* a finalizer may have closed it */
  for (i = 0; i < n; i++) {
    xy[2 * i] = (int)v[2 * i] - 1;
    xy[2 * i + 1] = (int)v[2 * i + 1] - 1;
  }
  if (astar_resv_check(r->r, xy, n, t0, 0, unit, &at, &who) != ASTAR_FOUND)
    return conflict(L, xy + 2 * at, at, t0 + (long)at, who, 0);
  if (astar_resv_check(r->r, xy, n, t0, hold, unit, &at, &who) != ASTAR_FOUND)
    return conflict(L, xy + 2 * at, at, t0 + (long)at, who, 1);
  if ((rc = astar_resv_take(r->r, xy, n, t0, hold, unit)) != 0) astar_raise(L, rc);
  lua_pushboolean(L, 1);
  return 1;
}

/***
Reserves cell `(x, y)` at time `t` for `unit` (one entry; the unit keeps what else it holds).
@function Reservations:take
@int unit the unit
@int x column
@int y row
@int t time
@treturn[1] boolean `true`
@treturn[2] nil
@treturn[2] string the unit holding the cell then
@treturn[2] string `"conflict"`
*/
static int resv_take(lua_State *L) {
  static const afn F = {"take", 1};
  lresv *r = checkresv(L, F.name);
  uint32_t unit = checkunit(L, &F, 2, "unit"), h;
  int x = checkcell(L, &F, 3, "x"), y = checkcell(L, &F, 4, "y"), rc;
  long t = checktime(L, &F, 5, "time");
  h = astar_resv_holder(r->r, x, y, t);
  if (h != ASTAR_NONE && h != unit) {
    lua_pushnil(L);
    lua_pushfstring(L, "cell (%d, %d) is held by unit %d at time %d", x + 1, y + 1, (int)h,
                    (int)t);
    lua_pushliteral(L, "conflict");
    return 3;
  }
  if ((rc = astar_resv_reserve(r->r, x, y, t, unit)) != 0) astar_raise(L, rc);
  lua_pushboolean(L, 1);
  return 1;
}

/***
Makes `unit` hold cell `(x, y)` from time `t` on, forever (a unit standing still, a parked
unit); it keeps what else it holds.
@function Reservations:hold
@int unit the unit
@int x column
@int y row
@int[opt=0] t from this time
@treturn[1] boolean `true`
@treturn[2] nil
@treturn[2] string the unit the cell is held by then or later
@treturn[2] string `"conflict"`
*/
static int resv_hold(lua_State *L) {
  static const afn F = {"hold", 1};
  lresv *r = checkresv(L, F.name);
  uint32_t unit = checkunit(L, &F, 2, "unit");
  int x = checkcell(L, &F, 3, "x"), y = checkcell(L, &F, 4, "y"), rc;
  long t = lua_isnoneornil(L, 5) ? 0 : checktime(L, &F, 5, "time");
  rc = astar_resv_hold(r->r, x, y, t, unit);
  if (rc == ASTAR_EINVAL) {
    lua_pushnil(L);
    lua_pushfstring(L, "cell (%d, %d) is held by another unit at time %d or later", x + 1,
                    y + 1, (int)t);
    lua_pushliteral(L, "conflict");
    return 3;
  }
  if (rc != 0) astar_raise(L, rc);
  lua_pushboolean(L, 1);
  return 1;
}

/***
Drops everything `unit` holds.
@function Reservations:release
@int unit the unit
@treturn int how many entries (a cell at a time, or a cell held forever) it held
*/
static int resv_release(lua_State *L) {
  static const afn F = {"release", 1};
  lresv *r = checkresv(L, F.name);
  uint32_t unit = checkunit(L, &F, 2, "unit");
  lua_pushinteger(L, (lua_Integer)astar_resv_release(r->r, unit));
  return 1;
}

/***
Empties the table (it keeps its memory).
@function Reservations:clear
@treturn Reservations the table
*/
static int resv_clear(lua_State *L) {
  lresv *r = checkresv(L, "clear");
  astar_resv_clear(r->r);
  lua_settop(L, 1);
  return 1;
}

/***
What the table holds.
@function Reservations:count
@treturn int entries: a cell at a time
@treturn int cells held forever
@treturn int the latest time any of them names (-1 when empty)
*/
static int resv_count(lua_State *L) {
  lresv *r = checkresv(L, "count");
  size_t held, n = astar_resv_count(r->r, &held);
  lua_pushinteger(L, (lua_Integer)n);
  lua_pushinteger(L, (lua_Integer)held);
  lua_pushinteger(L, (lua_Integer)astar_resv_last(r->r));
  return 3;
}

/***
Frees the table's memory now (also `__close` and `__gc`); idempotent. Any later use raises.
@function Reservations:close
*/
static int resv_free(lua_State *L) {
  lresv *r = (lresv *)luaL_testudata(L, 1, ASTAR_RESV_MT);
  if (r != NULL) {
    astar_resv_free(r->r);
    r->r = NULL;
  }
  return 0;
}

static int resv_close(lua_State *L) {
  astar_checkself(L, ASTAR_RESV_MT, "close", "astar.Reservations");
  return resv_free(L);
}

static int resv_tostring(lua_State *L) {
  lresv *r = (lresv *)luaL_testudata(L, 1, ASTAR_RESV_MT);
  if (r == NULL || r->r == NULL) {
    lua_pushliteral(L, "astar.Reservations (closed)");
  } else {
    size_t held, n = astar_resv_count(r->r, &held);
    lua_pushfstring(L, "astar.Reservations (%d entries, %d held)", (int)n, (int)held);
  }
  return 1;
}


/* ---------------------------------------------------------------------- */
/* grid:find(..., {reserve = table}): the grid kind's cooperative search    */
/* ---------------------------------------------------------------------- */

static const char *const COOP_ONLY[] = {"unit", "start_time", "wait", "window", "claim", NULL};
static const int COOP_IDS[] = {ASTAR_OPT_UNIT, ASTAR_OPT_START_TIME, ASTAR_OPT_WAIT,
                               ASTAR_OPT_WINDOW, ASTAR_OPT_CLAIM};
/* The options that do not combine with 'reserve'. */
static const char *const NOT_COOP[] = {"heuristic", "cost", "goals", "within", "radius", "size",
                                       "overlay", "overlay_scale", NULL};
static const int NOT_IDS[] = {ASTAR_OPT_HEURISTIC, ASTAR_OPT_COST, ASTAR_OPT_GOALS,
                              ASTAR_OPT_WITHIN, ASTAR_OPT_RADIUS, ASTAR_OPT_SIZE,
                              ASTAR_OPT_OVERLAY, ASTAR_OPT_OVERLAY_SCALE};

void astar_gcoop_args(lua_State *L, const afn *f, const astar_opts *o, lgrid *lg, lcoop *c,
                      const astar_grid_query *q) {
  int i, idx;
  char buf[32];
  double v;
  c->on = o->given[ASTAR_OPT_RESERVE];
  for (i = 0; COOP_ONLY[i] != NULL && !c->on; i++)
    if (o->given[COOP_IDS[i]])
      astar_opterror(L, f, o, "option '%s' needs option 'reserve'", COOP_ONLY[i]);
  if (!c->on) return;
  for (i = 0; NOT_COOP[i] != NULL; i++)
    if (o->given[NOT_IDS[i]])
      astar_opterror(L, f, o, "option '%s' cannot be used with 'reserve'", NOT_COOP[i]);
  if (o->given[ASTAR_OPT_ALGORITHM] && o->v[ASTAR_OPT_ALGORITHM] != ASTAR_ALG_ASTAR)
    astar_opterror(L, f, o, "option 'reserve' needs algorithm 'astar' (the default with it)");
  idx = o->fn[ASTAR_OPT_RESERVE];
  c->lr = (lresv *)luaL_testudata(L, idx, ASTAR_RESV_MT);
  if (c->lr == NULL)
    astar_opterror(L, f, o, "option 'reserve': astar.Reservations expected, got %s",
                   luaL_typename(L, idx));
  if (c->lr->r == NULL) astar_error(L, "attempt to use a closed reservations table");
  c->cq.q = *q;
  c->cq.q.params.algorithm = ASTAR_ALG_ASTAR;
  c->cq.q.jump = ASTAR_JUMP_NEVER;
  c->cq.q.heuristic = -1;
  c->cq.resv = c->lr->r;
  c->cq.unit = ASTAR_NONE;
  if (o->given[ASTAR_OPT_UNIT]) {
    v = o->v[ASTAR_OPT_UNIT];
    if (!(v >= 1 && v <= ASTAR_COOP_UNIT_MAX && v == floor(v)))
      astar_opterror(L, f, o, "option 'unit' must be an integer in [1, %d], got %s",
                     (int)ASTAR_COOP_UNIT_MAX, astar_fmtnum(buf, v));
    c->cq.unit = (uint32_t)v;
  }
  c->claim = (int)astar_opt(o, ASTAR_OPT_CLAIM, 1);
  if (c->claim && c->cq.unit == ASTAR_NONE)
    astar_opterror(L, f, o, "option 'unit' is needed to claim the path (or claim = false)");
  v = astar_opt(o, ASTAR_OPT_START_TIME, 0);
  if (!(v >= 0 && v <= ASTAR_COOP_TMAX && v == floor(v)))
    astar_opterror(L, f, o, "option 'start_time' must be an integer in [0, %d], got %s",
                   (int)ASTAR_COOP_TMAX, astar_fmtnum(buf, v));
  c->cq.t0 = (long)v;
  c->cq.window = 0;
  if (o->given[ASTAR_OPT_WINDOW]) {
    v = o->v[ASTAR_OPT_WINDOW];
    if (!(v >= 1 && v <= ASTAR_COOP_TMAX - c->cq.t0 - 1 && v == floor(v)))
      astar_opterror(L, f, o, "option 'window' must be an integer in [1, %d], got %s",
                     (int)(ASTAR_COOP_TMAX - c->cq.t0 - 1), astar_fmtnum(buf, v));
    c->cq.window = (long)v;
  }
  c->cq.wait_cost = -1;                /* true: the grid's smallest cost, at begin */
  if (o->given[ASTAR_OPT_WAIT]) {
    idx = o->fn[ASTAR_OPT_WAIT];
    if (lua_type(L, idx) == LUA_TBOOLEAN) {
      if (!lua_toboolean(L, idx)) c->cq.wait_cost = 0;
    } else if (lua_type(L, idx) == LUA_TNUMBER) {
      v = (double)lua_tonumber(L, idx);
      if (!(v > 0 && v <= ASTAR_NUM_MAX))
        astar_opterror(L, f, o, "option 'wait': a cost must be a number in (0, 1e+100], got %s",
                       astar_fmtnum(buf, v));
      c->cq.wait_cost = v;
    } else {
      astar_opterror(L, f, o, "option 'wait': boolean or number expected, got %s",
                     luaL_typename(L, idx));
    }
  }
  if (c->cq.alloc == NULL) c->cq.alloc = astar_allocator(L, &c->cq.ud);
  (void)lg;
}

int astar_gcoop_begin(lgrid *lg, lcoop *c, int sx, int sy, int gx, int gy, astar_search *s) {
  int rc;
  if (c->lr->r == NULL) return ASTAR_ESTATE;
  c->cq.resv = c->lr->r;
  if (c->back == NULL && (rc = astar_search_new(&c->back, c->cq.alloc, c->cq.ud)) != 0)
    return rc;
  c->cq.back = c->back;
  if (c->cq.wait_cost < 0) c->cq.wait_cost = astar_grid_min_cost(lg->g);
  return astar_coop_begin(lg->g, s, &c->cq, sx, sy, gx, gy);
}

int astar_gcoop_push(lua_State *L, lcoop *c, astar_search *s, int rc) {
  const int *xy;
  size_t planned, len;
  double cost, *v;
  astar_stats st;
  long n, i;
  int holds, *diag;
  const astar_grid *g = c->cq.q.grid;
  if (rc != ASTAR_FOUND && !c->cq.q.params.partial) return 0;
  n = astar_coop_path(&c->cq, s, &xy, &planned, &cost, &holds);
  if (n < 0) astar_raise(L, (int)n);
  astar_search_stats(s, &st);
  v = astar_newpath(L, (size_t)n, ASTAR_PATH_GRID, cost, &st,
                    c->cq.window > 0 ? "whca" : "cooperative", 0);
  for (i = 0; i < n; i++) {
    v[2 * i] = xy[2 * i] + 1;
    v[2 * i + 1] = xy[2 * i + 1] + 1;
    v[2 * n + i] = astar_grid_get(g, xy[2 * i], xy[2 * i + 1]);
  }
  astar_path_grid(L, -1, &len, &diag);
  *diag = c->cq.q.diagonal;
  astar_path_settime(L, -1, c->cq.t0, planned, holds);
  if (c->claim && rc == ASTAR_FOUND) {
    int e;
    if (c->lr->r == NULL) astar_error(L, "attempt to use a closed reservations table");
    if ((e = astar_resv_take(c->lr->r, xy, planned, c->cq.t0, holds, c->cq.unit)) != 0)
      astar_raise(L, e);
  }
  astar_path_marklinks(L, -1, g, c->cq.q.diagonal);
  return 1;
}

void astar_gcoop_blocked(lua_State *L, const lcoop *c) {
  const astar_coop_query *cq = &c->cq;
  int x = cq->blocked == 1 ? cq->sx : cq->gx, y = cq->blocked == 1 ? cq->sy : cq->gy;
  if (cq->blocker == ASTAR_NONE)
    lua_pushfstring(L, "%s (%d, %d) is blocked", cq->blocked == 1 ? "start" : "goal", x + 1,
                    y + 1);
  else if (cq->blocked == 1)
    lua_pushfstring(L, "start (%d, %d) is held by unit %d at time %d", x + 1, y + 1,
                    (int)cq->blocker, (int)cq->t0);
  else
    lua_pushfstring(L, "goal (%d, %d) is held by unit %d for good", x + 1, y + 1,
                    (int)cq->blocker);
}

void astar_gcoop_free(lcoop *c) {
  astar_coop_query_free(&c->cq);
  astar_search_free(c->back);
  c->back = NULL;
}


static const luaL_Reg resv_methods[] = {
  {"holder", resv_holder},
  {"reserve", resv_reserve},
  {"hold", resv_hold},
  {"take", resv_take},
  {"release", resv_release},
  {"clear", resv_clear},
  {"count", resv_count},
  {"close", resv_close},
  {NULL, NULL}
};

static const luaL_Reg resv_meta[] = {
  {"__gc", resv_free},
  {"__close", resv_close},
  {"__tostring", resv_tostring},
  {NULL, NULL}
};

void astar_grid_coop_open(lua_State *L) {
  astar_newclass(L, ASTAR_RESV_MT, "Reservations", resv_meta, resv_methods);
  lua_pushcfunction(L, resv_new);
  lua_setfield(L, -2, "reservations");
}
