/***
Incremental re-planning for an agent on a changing grid (D* Lite, Koenig and Likhachev):
the path from the agent's cell to a fixed goal, repaired after edits by reusing the work
of earlier searches. The search runs from the goal, so the agent may move without losing
work. Made by @{Grid:replanner}.

The grid remembers its last 64 edits (a @{Grid:fill} is one); a replanner that falls
further behind, or sees a cell made cheaper than the grid's smallest cost, starts afresh on
its next repair, which is always correct, just not incremental.
@classmod Replanner
*/
#include <string.h>
#include "binding.h"

#define ASTAR_REPLANNER_MT "astar.Replanner"

typedef struct lreplanner {
  astar_dstar *d;       /* NULL once closed */
  lgrid *lg;            /* the grid (kept alive by the user value) */
  int diagonal;
  uint32_t *buf;        /* path scratch, one entry a padded cell, made on first use */
  size_t nbuf;
  astar_alloc fn;
  void *ud;
  int busy;             /* path is building its result: close is refused */
} lreplanner;

static const afn F_NEW = {"replanner", 1};
static const afn F_MOVE = {"move_to", 1};

static lreplanner *checkrp(lua_State *L, const char *fname) {
  lreplanner *r = (lreplanner *)astar_checkself(L, ASTAR_REPLANNER_MT, fname, "astar.Replanner");
  if (r->d == NULL) astar_error(L, "attempt to use a closed replanner");
  if (r->lg->g == NULL) astar_error(L, "attempt to use a closed grid");
  return r;
}

/* D* Lite walks the 8 neighbours only: a grid with links needs find or query. */
static void nolinks(lua_State *L, const astar_grid *g) {
  if (astar_grid_link_count(g) > 0)
    astar_error(L, "the replanner does not follow links, and this grid has some "
                "(use grid:find or grid:query)");
}

/* grid:replanner(sx, sy, gx, gy [, opts]): documented in grid.c, with the Grid. */
static int grid_replanner(lua_State *L) {
  static const astar_optuse OPTS[] = {{ASTAR_OPT_DIAGONAL, 0, NULL}, {ASTAR_OPT_RADIUS, 0, NULL},
                                      ASTAR_OPT_END};
  lgrid *lg = astar_checkgrid(L, &F_NEW);
  astar_opts o;
  int w = astar_grid_width(lg->g), h = astar_grid_height(lg->g), diag = 0, rc;
  astar_grid_square(L, lg, "replanner");
  int sx = astar_checkcoord(L, &F_NEW, 2, "x", w);
  int sy = astar_checkcoord(L, &F_NEW, 3, "y", h);
  int gx = astar_checkcoord(L, &F_NEW, 4, "x", w);
  int gy = astar_checkcoord(L, &F_NEW, 5, "y", h);
  lreplanner *r;
  void *ud;
  astar_alloc fn;
  astar_readopts(L, &F_NEW, 6, OPTS, &o);
  nolinks(L, lg->g);
  diag = (int)astar_opt(&o, ASTAR_OPT_DIAGONAL, ASTAR_DIAG_NO_CORNER_CUTTING);
  r = (lreplanner *)lua_newuserdatauv(L, sizeof *r, 1);
  r->d = NULL; r->lg = lg; r->diagonal = diag; r->buf = NULL; r->nbuf = 0; r->busy = 0;
  luaL_setmetatable(L, ASTAR_REPLANNER_MT);
  lua_pushvalue(L, 1);                               /* keeps the grid alive */
  astar_compat_setuservalue(L, -2);
  fn = astar_allocator(L, &ud);
  r->fn = fn; r->ud = ud;
  astar_map_alive(L, &lg->m);                        /* a finalizer may have closed it */
  rc = astar_dstar_new(&r->d, lg->g, sx, sy, gx, gy, diag, fn, ud);
  if (rc == 0) rc = astar_dstar_radius(r->d, astar_opt(&o, ASTAR_OPT_RADIUS, 0));
  if (rc == ASTAR_EINVAL) astar_opterror(L, &F_NEW, &o, "option 'radius': must be at most 1e6");
  if (rc != 0) astar_raise(L, rc);
  astar_gc_settle(L);
  return 1;
}

/***
The agent moved to `(x, y)`, any cell, usually the next one of its path. Cheap: the next
@{Replanner:path|path} or @{Replanner:update|update} repairs what changed.
@function Replanner:move_to
@int x
@int y
*/
static int rp_move_to(lua_State *L) {
  lreplanner *r = checkrp(L, "move_to");
  int x = astar_checkcoord(L, &F_MOVE, 2, "x", astar_grid_width(r->lg->g));
  int y = astar_checkcoord(L, &F_MOVE, 3, "y", astar_grid_height(r->lg->g));
  astar_dstar_move(r->d, x, y);
  return 0;
}

/***
Takes the grid's edits since the last call into account and repairs the path, without
building a @{Path}.
@function Replanner:update
@treturn int the number of vertices this repair expanded
*/
static int rp_update(lua_State *L) {
  lreplanner *r = checkrp(L, "update");
  uint64_t e, t;
  unsigned resets;
  int rc;
  nolinks(L, r->lg->g);
  rc = astar_dstar_compute(r->d);
  if (rc != 0) astar_raise(L, rc);
  astar_dstar_stats(r->d, &e, &t, &resets);
  lua_pushinteger(L, (lua_Integer)e);
  return 1;
}

/***
The current shortest path from the agent's cell to the goal, after repairing it as
@{Replanner:update|update} does.
@function Replanner:path
@treturn[1] Path
@treturn[2] nil
@treturn[2] string a message
@treturn[2] string the code: `"no_path"` or `"blocked"`
*/
static int path_held(lua_State *L, void *ud) {
  lreplanner *r = (lreplanner *)ud;
  int w = astar_grid_width(r->lg->g), h = astar_grid_height(r->lg->g), rc;
  size_t max = astar_grid_layout_nodes(w, h);
  uint32_t *nodes;
  double cost, *v;
  long n, i;
  int why;
  astar_stats st;
  uint64_t e, t;
  unsigned resets;
  nolinks(L, r->lg->g);
  rc = astar_dstar_compute(r->d);
  if (rc != 0) astar_raise(L, rc);
  if (r->nbuf < max) {
    void *nb = r->fn(r->ud, r->buf, r->nbuf * sizeof(uint32_t), max * sizeof(uint32_t));
    if (nb == NULL) astar_error(L, "not enough memory");
    r->buf = (uint32_t *)nb;
    r->nbuf = max;
  }
  nodes = r->buf;
  n = astar_dstar_path(r->d, nodes, max, &cost, &why);
  if (n == 0) {
    lua_pushnil(L);
    lua_pushstring(L, why == ASTAR_BLOCKED ? "start or goal is blocked" : "no path to the goal");
    lua_pushstring(L, why == ASTAR_BLOCKED ? "blocked" : "no_path");
    return 3;
  }
  if (n < 0) astar_raise(L, (int)n);
  memset(&st, 0, sizeof st);
  astar_dstar_stats(r->d, &e, &t, &resets);
  st.expanded = e;
  v = astar_newpath(L, (size_t)n, ASTAR_PATH_GRID, cost, &st, "dstar_lite", 0);
  for (i = 0; i < n; i++) {
    int x, y;
    astar_grid_cell(r->lg->g, nodes[i], &x, &y);
    v[2 * i] = x + 1;
    v[2 * i + 1] = y + 1;
    v[2 * n + i] = astar_grid_get(r->lg->g, x, y);
  }
  {
    size_t len;
    int *diag;
    astar_path_grid(L, -1, &len, &diag);
    *diag = r->diagonal;
  }
  return 1;
}

/* Holds the grid and the replanner: finalizers may not close either meanwhile. */
static int rp_path(lua_State *L) {
  lreplanner *r = checkrp(L, "path");
  astar_map_idle(L, &r->lg->m, "search");
  return astar_hold(L, &r->lg->m.busy, &r->busy, path_held, r);
}

/***
`{expanded =, total =, resets =}`: the vertices expanded by the last repair and over the
replanner's life, and how often it had to start afresh (more edits between repairs than the
grid remembers, or a cell made cheaper than the grid's smallest cost).
@function Replanner:stats
@treturn table
*/
static int rp_stats(lua_State *L) {
  lreplanner *r = checkrp(L, "stats");
  uint64_t e, t;
  unsigned resets;
  astar_dstar_stats(r->d, &e, &t, &resets);
  lua_createtable(L, 0, 3);
  lua_pushinteger(L, (lua_Integer)e);
  lua_setfield(L, -2, "expanded");
  lua_pushinteger(L, (lua_Integer)t);
  lua_setfield(L, -2, "total");
  lua_pushinteger(L, (lua_Integer)resets);
  lua_setfield(L, -2, "resets");
  return 1;
}

/***
Frees the replanner's memory now (also `__close` and `__gc`); idempotent.
@function Replanner:close
*/
static int rp_free(lua_State *L) {
  lreplanner *r = (lreplanner *)luaL_testudata(L, 1, ASTAR_REPLANNER_MT);
  if (r != NULL && r->busy) astar_error(L, "cannot close the replanner: its path is being built");
  if (r != NULL) {
    astar_dstar_free(r->d);
    r->d = NULL;
    if (r->buf != NULL) r->fn(r->ud, r->buf, r->nbuf * sizeof(uint32_t), 0);
    r->buf = NULL;
    r->nbuf = 0;
  }
  return 0;
}

static int rp_close(lua_State *L) {
  astar_checkself(L, ASTAR_REPLANNER_MT, "close", "astar.Replanner");
  return rp_free(L);
}

static int rp_tostring(lua_State *L) {
  lreplanner *r = (lreplanner *)luaL_testudata(L, 1, ASTAR_REPLANNER_MT);
  lua_pushstring(L, r != NULL && r->d != NULL ? "astar.Replanner" : "astar.Replanner (closed)");
  return 1;
}

static const luaL_Reg replanner_methods[] = {
  {"move_to", rp_move_to},
  {"update", rp_update},
  {"path", rp_path},
  {"stats", rp_stats},
  {"close", rp_close},
  {NULL, NULL}
};

static const luaL_Reg rp_meta[] = {
  {"__gc", rp_free},
  {"__close", rp_close},
  {"__tostring", rp_tostring},
  {NULL, NULL}
};

static const luaL_Reg grid_extra[] = {
  {"replanner", grid_replanner},
  {NULL, NULL}
};

void astar_replanner_open(lua_State *L) {
  astar_newclass(L, ASTAR_REPLANNER_MT, NULL, rp_meta, replanner_methods);
  astar_addmethods(L, ASTAR_GRID_MT, grid_extra);
}
