/*
** grid_hier.c - hierarchical search on grids (HPA*, src/core/grid_hier.c):
** grid:hierarchy and find's algorithm "hierarchical".
*/
/***
Hierarchical search: methods on the Grid's page (config.ld merges this file's entries into
the Grid of grid.c).
@classmod Grid
*/
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "binding.h"

#define DEFAULT_CLUSTER 16
#define DEFAULT_AUTO 1024     /* cells: grid:hierarchy{auto = true} */

static const afn F_HIERARCHY = {"hierarchy", 1};

/* lg's abstraction with clusters of 'cluster' cells (0: the one find last
** used or was given for this policy, else DEFAULT_CLUSTER) for 'diagonal',
** made (on 'threads' threads) if it has none: moved to the front of the
** grid's list. 0,
** ASTAR_ENOMEM, or ASTAR_EINVAL when the list is full. */
static int get(lgrid *lg, int cluster, int diagonal, int threads, astar_hier **out, int *made) {
  int i = 0, n, rc;
  astar_hier *h = NULL;
  for (n = 0; n < ASTAR_GRID_HIERS && lg->hier[n] != NULL; n++) {
    if (h == NULL && astar_hier_diagonal(lg->hier[n]) == diagonal &&
        (cluster == 0 || astar_hier_cluster(lg->hier[n]) == cluster)) {
      h = lg->hier[n];
      i = n;
    }
  }
  if (h == NULL) {
    if (n == ASTAR_GRID_HIERS) return ASTAR_EINVAL;
    rc = astar_hier_new(&h, lg->g, cluster ? cluster : DEFAULT_CLUSTER, diagonal, threads);
    if (rc != 0) return rc;
    i = n;
    *made = 1;
  }
  for (; i > 0; i--) lg->hier[i] = lg->hier[i - 1];
  lg->hier[0] = h;
  *out = h;
  return 0;
}

void astar_ghier_free(lgrid *lg) {
  int i;
  for (i = 0; i < ASTAR_GRID_HIERS; i++) {
    astar_hier_free(lg->hier[i]);
    lg->hier[i] = NULL;
  }
}

/***
Builds (or brings up to date) an abstraction of the grid for hierarchical search (HPA\*,
Botea, Müller and Schaeffer 2004), which @{Grid:find|find} and @{Grid:query|query} use with
`algorithm = "hierarchical"`. The grid is cut into clusters of `cluster` x `cluster` cells;
where two clusters share a run of walkable cells across their border, the run's ends (its
middle when it is shorter than 6) become nodes, and each cluster knows the cost between its
nodes. A search then crosses a cluster in one step instead of cell by cell: on big maps, long
paths cost a few nodes per cluster. Its paths are legal but **not always shortest**: they pass
through the nodes (the README gives the measured excess on the Moving AI maps). Edits are taken
into account at the next hierarchical search, or the next call of this method, by rebuilding
only the clusters within one cell of what changed. A grid keeps one abstraction per cluster
size and diagonal policy (up to 8), freed with it; not for hex or wrapping grids, nor grids
with links.
@function Grid:hierarchy
@tparam[opt] table opts
@tparam[opt=16] int opts.cluster the side of a cluster in cells, 4 to 64
@tparam[opt="no_corner_cutting"] string opts.diagonal the policy it is built for (find's
`diagonal`)
@tparam[opt] int opts.threads how many threads build it, the calling one included (1 to 64;
default the processors): the costs inside clusters are worked out on them, and the call
returns when all are done. The result is the same on any number. A rebuild after edits that
touch fewer than 256 clusters stays on the calling thread.
@tparam[opt] boolean|number opts.auto allows `"auto"` (find's default algorithm) to search
this abstraction (for its `diagonal` policy) when the ends are at least this many cells apart
(octile distance; `true`: 1024) and the search has no option it cannot take: then paths are
no longer always shortest. `false` takes it back; not given, it stays as it was
@treturn table `{cluster, diagonal, clusters, nodes, edges, rebuilt, bytes, digest, auto}`: `nodes`
the abstract nodes, `edges` the costs known inside clusters, `rebuilt` the clusters (re)built
by this call, `bytes` the memory held, `digest` a hash of every node and cost (a hex string:
two abstractions of equal grids have the same), `auto` the distance from which `"auto"`
searches it, or false
@usage
local grid = astar.grid(64, 64)
grid:fill(20, 1, 1, 60, false)
local info = grid:hierarchy{ cluster = 16 }
print(info.clusters, info.rebuilt)                                   --> 16 16
local path = grid:find(1, 1, 64, 1, { algorithm = "hierarchical" })
print(path:stats().algorithm, path:get(#path))       --> hierarchical 64 1
grid:set(40, 40, false)
print(grid:hierarchy{ cluster = 16 }.rebuilt)                        --> 1
*/
static int grid_hierarchy(lua_State *L) {
  static const astar_optuse USE[] = {{ASTAR_OPT_CLUSTER, 0, NULL}, {ASTAR_OPT_DIAGONAL, 0, NULL},
                                     {ASTAR_OPT_THREADS, 0, NULL}, {ASTAR_OPT_AUTO, 0, NULL},
                                     ASTAR_OPT_END};
  lgrid *lg = astar_checkgrid(L, &F_HIERARCHY);
  int cluster, diagonal, threads, rc, fresh, made = 0;
  double autod = -2;                         /* option 'auto' (-1 false; -2 not given) */
  astar_hier *h;
  astar_hier_info in;
  astar_opts o;
  char dg[20];
  astar_readopts(L, &F_HIERARCHY, 2, USE, &o);
  cluster = astar_opt_int(L, &F_HIERARCHY, &o, ASTAR_OPT_CLUSTER, ASTAR_HIER_CMIN,
                          ASTAR_HIER_CMAX, DEFAULT_CLUSTER);
  threads = astar_opt_int(L, &F_HIERARCHY, &o, ASTAR_OPT_THREADS, 1, ASTAR_WORKERS_MAX,
                          astar_workers_cpus());
  diagonal = (int)astar_opt(&o, ASTAR_OPT_DIAGONAL, ASTAR_DIAG_NO_CORNER_CUTTING);
  if (o.given[ASTAR_OPT_AUTO]) {             /* true, false or a distance */
    int t = lua_type(L, o.fn[ASTAR_OPT_AUTO]);
    double d = t == LUA_TNUMBER ? (double)lua_tonumber(L, o.fn[ASTAR_OPT_AUTO]) : -1;
    if (t == LUA_TBOOLEAN) autod = lua_toboolean(L, o.fn[ASTAR_OPT_AUTO]) ? DEFAULT_AUTO : -1;
    else if (d >= 0 && d < HUGE_VAL) autod = d;
    else
      astar_opterror(L, &F_HIERARCHY, &o, "option 'auto': true, false or a distance in cells "
                     "(a non-negative finite number) expected, got %s",
                     t == LUA_TNUMBER ? "a number out of range"
                                      : luaL_typename(L, o.fn[ASTAR_OPT_AUTO]));
  }
  astar_grid_square(L, lg, "hierarchy");
  astar_map_alive(L, &lg->m);
  if (astar_grid_link_count(lg->g) > 0)
    astar_error(L, "hierarchy: a grid with links cannot be abstracted");
  fresh = lg->hier[ASTAR_GRID_HIERS - 1] == NULL;
  rc = get(lg, cluster, diagonal, threads, &h, &made);
  if (rc == ASTAR_EINVAL && !fresh)
    astar_error(L, "hierarchy: a grid keeps at most %d abstractions", ASTAR_GRID_HIERS);
  if (rc == 0 && !made) {
    astar_hier_threads(h, threads);
    rc = astar_hier_update(h);
  }
  if (rc != 0) astar_raise(L, rc);
  if (autod > -2) {
    lg->hauto = autod;
    lg->hauto_diag = diagonal;
  }
  astar_hier_describe(h, &in);
  lua_createtable(L, 0, 9);
  if (lg->hauto >= 0 && lg->hauto_diag == diagonal) lua_pushnumber(L, (lua_Number)lg->hauto);
  else lua_pushboolean(L, 0);
  lua_setfield(L, -2, "auto");
  lua_pushinteger(L, in.cluster);
  lua_setfield(L, -2, "cluster");
  lua_pushstring(L, astar_diagonals()[in.diagonal]);
  lua_setfield(L, -2, "diagonal");
  lua_pushinteger(L, (lua_Integer)in.clusters);
  lua_setfield(L, -2, "clusters");
  lua_pushinteger(L, (lua_Integer)in.nodes);
  lua_setfield(L, -2, "nodes");
  lua_pushinteger(L, (lua_Integer)in.edges);
  lua_setfield(L, -2, "edges");
  lua_pushinteger(L, (lua_Integer)in.rebuilt);
  lua_setfield(L, -2, "rebuilt");
  lua_pushinteger(L, (lua_Integer)in.bytes);
  lua_setfield(L, -2, "bytes");
  snprintf(dg, sizeof dg, "%08lx%08lx", (unsigned long)(in.digest >> 32),
           (unsigned long)(in.digest & 0xffffffffUL));
  lua_pushstring(L, dg);
  lua_setfield(L, -2, "digest");
  astar_gc_settle(L);
  return 1;
}

/* ---------------------------------------------------------------------- */
/* find's algorithm "hierarchical"                                          */
/* ---------------------------------------------------------------------- */

/* The options of find a hierarchical search cannot take. */
static const int REFUSED[] = {ASTAR_OPT_COST, ASTAR_OPT_HEURISTIC, ASTAR_OPT_GOALS,
                              ASTAR_OPT_WITHIN, ASTAR_OPT_RADIUS, ASTAR_OPT_SIZE,
                              ASTAR_OPT_OVERLAY, ASTAR_OPT_OVERLAY_SCALE, ASTAR_OPT_WEIGHT,
                              ASTAR_OPT_RESERVE};
static const char *const NAMES[] = {"cost", "heuristic", "goals", "within", "radius", "size",
                                    "overlay", "overlay_scale", "weight", "reserve"};

void astar_ghier_auto(lua_State *L, const afn *f, const astar_opts *o, const lgrid *lg,
                      lghier *r, int diagonal, int sx, int sy, int gx, int gy) {
  size_t i;
  double dx = fabs((double)(gx - sx)), dy = fabs((double)(gy - sy));
  const double R = 0.41421356237309515;               /* sqrt 2 - 1 */
  if (lg->hauto < 0 || diagonal != lg->hauto_diag || astar_opt(o, ASTAR_OPT_PARTIAL, 0) ||
      astar_grid_hex(lg->g) || astar_grid_wrap(lg->g) || astar_grid_link_count(lg->g) > 0 ||
      (dx > dy ? dx + R * dy : dy + R * dx) < lg->hauto)
    return;
  for (i = 0; i < sizeof REFUSED / sizeof *REFUSED; i++)
    if (o->given[REFUSED[i]]) return;
  astar_ghier_args(L, f, o, lg, r, diagonal);
}

void astar_ghier_args(lua_State *L, const afn *f, const astar_opts *o, const lgrid *lg,
                      lghier *r, int diagonal) {
  size_t i;
  for (i = 0; i < sizeof REFUSED / sizeof *REFUSED; i++)
    if (o->given[REFUSED[i]])
      astar_opterror(L, f, o, "option '%s' cannot be used with algorithm 'hierarchical'",
                     NAMES[i]);
  if (astar_opt(o, ASTAR_OPT_PARTIAL, 0))
    astar_opterror(L, f, o, "option 'partial' cannot be used with algorithm 'hierarchical'");
  if (astar_grid_hex(lg->g) || astar_grid_wrap(lg->g))
    astar_opterror(L, f, o, "option 'algorithm': 'hierarchical' does not apply to a %s grid",
                   astar_grid_hex(lg->g) ? "hex" : "wrapping");
  if (astar_grid_link_count(lg->g) > 0)
    astar_opterror(L, f, o, "option 'algorithm': 'hierarchical' does not apply to a grid "
                   "with links");
  if (lg->hier[ASTAR_GRID_HIERS - 1] != NULL) {    /* full: find could not make one */
    int j, found = 0;
    for (j = 0; j < ASTAR_GRID_HIERS; j++) found |= astar_hier_diagonal(lg->hier[j]) == diagonal;
    if (!found)
      astar_opterror(L, f, o, "option 'algorithm': the grid keeps %d abstractions "
                     "(grid:hierarchy), none for diagonal '%s'", ASTAR_GRID_HIERS,
                     astar_diagonals()[diagonal]);
  }
  r->on = 1;
  r->refine = (int)astar_opt(o, ASTAR_OPT_REFINE, 1);
  r->diagonal = diagonal;
  astar_params_init(&r->params);
  astar_opt_params(o, &r->params);
  r->params.algorithm = ASTAR_ALG_ASTAR;
  r->params.partial = 0;
}

int astar_ghier_begin(lgrid *lg, lghier *r, int sx, int sy, int gx, int gy, astar_search *s) {
  astar_hier *h;
  uint32_t start, goal;
  int made = 0, rc = ASTAR_EINVAL;
  if (astar_grid_link_count(lg->g) == 0)
    rc = get(lg, 0, r->diagonal, astar_workers_cpus(), &h, &made);
  r->q.blocked = 0;
  if (rc == 0) rc = astar_hier_prepare(h, &r->q, sx, sy, gx, gy, &start, &goal);
  if (rc != 0) return rc;
  return astar_search_begin(s, &r->q.domain, start, goal, &r->params);
}

int astar_ghier_push(lua_State *L, lghier *r, astar_search *s, int rc) {
  const uint32_t *nodes;
  const int *cells;
  double cost = 0, *xy;
  astar_stats st;
  const astar_grid *g;
  long n, k, i;
  size_t len;
  int *diag, link;
  if (rc != ASTAR_FOUND) return 0;
  n = astar_search_path(s, &nodes, &cost);
  if (n < 0) astar_raise(L, (int)n);
  astar_search_stats(s, &st);
  if (!r->refine) {                   /* the abstract path: its nodes' cells, as points */
    xy = astar_newpath(L, (size_t)n, ASTAR_PATH_MESH, cost, &st, "hierarchical", 0);
    for (i = 0; i < n; i++) {
      int x, y;
      astar_hier_node_cell(&r->q, nodes[i], &x, &y);
      xy[2 * i] = x + 1;
      xy[2 * i + 1] = y + 1;
    }
    return 1;
  }
  k = astar_hier_refine(r->q.h, &r->q, nodes, n, &cells);
  if (k == ASTAR_ESTATE) return 0;
  if (k < 0) astar_raise(L, (int)k);
  xy = astar_newpath(L, (size_t)k, ASTAR_PATH_GRID, 0, &st, "hierarchical", 0);
  for (i = 0, cost = 0; i < k; i++) {
    xy[2 * i] = cells[2 * i] + 1;
    xy[2 * i + 1] = cells[2 * i + 1] + 1;
  }
  g = astar_hier_grid(r->q.h);
  for (i = 0; i < k; i++) {
    xy[2 * k + i] = astar_grid_get(g, cells[2 * i], cells[2 * i + 1]);
    if (i > 0)
      cost += astar_grid_move_cost(g, r->diagonal, cells[2 * i - 2], cells[2 * i - 1],
                                   cells[2 * i], cells[2 * i + 1], &link);
  }
  lua_pushnumber(L, (lua_Number)cost);
  astar_path_setcost(L, -2);
  astar_path_grid(L, -1, &len, &diag);
  *diag = r->diagonal;
  return 1;
}

static const luaL_Reg hier_methods[] = {
  {"hierarchy", grid_hierarchy},
  {NULL, NULL}
};

void astar_grid_hier_open(lua_State *L) { astar_addmethods(L, ASTAR_GRID_MT, hier_methods); }
