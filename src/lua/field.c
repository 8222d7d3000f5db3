/*
** field.c - the Field userdata (distance fields of grids and graphs), and the
** grid methods distance_field, components, component and same_component,
** which astar_field_open adds to the Grid method table.
**
** A Field is one Lua userdata: a header followed by its arrays, indexed by
** engine node (grids: the padded layout of src/core/grid.c; graphs: id - 1).
** Being a single GC object, its whole size is accounted to the collector,
** which matters for flow fields rebuilt every frame; it holds no other
** resource, so it needs no __gc and cannot be half-released.
*/
/***
A distance field (Dijkstra map, flow field): for every cell or node, the cost of the
cheapest path from it to the nearest source, plus that source's value, and the next step
of that path. One search serves any number of units: each follows @{Field:next} downhill.

Made by @{Grid:distance_field} and @{Graph:distance_field}; grid fields take `x, y`, graph
fields a node id. A field is a snapshot, one Lua userdata of 12 bytes a cell: it outlives
its map, and later edits do not change it.
@classmod Field
*/
#include <math.h>
#include <string.h>
#include "binding.h"

typedef struct lfield {
  int kind;              /* ASTAR_PATH_GRID or ASTAR_PATH_GRAPH */
  int w, h;              /* GRID: the grid's size */
  uint32_t nnodes;       /* engine nodes */
  size_t reached;        /* nodes with a finite distance */
  astar_stats st;        /* of the search that made the field */
  double *dist;          /* nnodes distances, HUGE_VAL where unreached */
  double *xy;            /* GRAPH: 2 * nnodes positions (NaN: none), or NULL */
  uint32_t *next;        /* nnodes: next node toward the source, ASTAR_NONE at
                         ** a source or where unreached */
  int diagonal;          /* GRID: the diagonal policy of its steps (for grid:check) */
  double lo, hi;         /* the smallest and largest finite distances (none:
                         ** HUGE_VAL, -HUGE_VAL) */
  int values;            /* made by grid:to_field: values, no paths */
} lfield;

#define NONE ASTAR_NONE

static const afn F_DIST = {"distance", 1};
static const afn F_NEXT = {"next", 1};
static const afn F_PATH = {"path_from", 1};
static const afn F_FSIZE = {"size", 1};
static const afn F_FSTATS = {"stats", 1};
static const afn F_FSTR = {"__tostring", 1};
static const afn F_DF = {"distance_field", 1};
static const afn F_COMPS = {"components", 1};
static const afn F_COMP = {"component", 1};
static const afn F_SAME = {"same_component", 1};


/* ---------------------------------------------------------------------- */
/* The Field userdata                                                       */
/* ---------------------------------------------------------------------- */

/* Empties f: nothing reached. */
static void clearfield(lfield *f) {
  uint32_t i;
  for (i = 0; i < f->nnodes; i++) {
    f->dist[i] = HUGE_VAL;
    f->next[i] = NONE;
  }
  f->reached = 0;
  f->lo = HUGE_VAL;
  f->hi = -HUGE_VAL;
  f->values = 0;
  memset(&f->st, 0, sizeof f->st);
}

/* Pushes a new Field shaped by 'spec', empty (its arrays are scratch the
** caller may use until it fills or clears them). */
static lfield *newfield(lua_State *L, const astar_fieldspec *spec) {
  const size_t hdr = (sizeof(lfield) + sizeof(double) - 1) / sizeof(double) * sizeof(double);
  const size_t n = spec->nnodes;
  const size_t nd = spec->kind == ASTAR_PATH_GRAPH && spec->xy != NULL ? 3 : 1;
  lfield *f;
  if (n > (((size_t)-1) - hdr) / (nd * sizeof(double) + sizeof(uint32_t)))
    astar_error(L, "not enough memory");
  f = (lfield *)lua_newuserdatauv(L, hdr + n * (nd * sizeof(double) + sizeof(uint32_t)), 0);
  f->kind = spec->kind;
  f->diagonal = -1;
  f->w = spec->w;
  f->h = spec->h;
  f->nnodes = spec->nnodes;
  f->dist = (double *)(void *)((char *)f + hdr);
  f->xy = nd == 3 ? f->dist + n : NULL;
  f->next = (uint32_t *)(void *)(f->dist + nd * n);
  if (f->xy != NULL) memcpy(f->xy, spec->xy, 2 * n * sizeof(double));
  clearfield(f);
  luaL_setmetatable(L, ASTAR_FIELD_MT);
  return f;
}

static void fillone(void *ud, uint32_t node, double g, uint32_t parent) {
  lfield *f = (lfield *)ud;
  if (node >= f->nnodes) return;
  f->dist[node] = g;
  f->next[node] = parent;
  f->reached++;
  if (g < f->lo) f->lo = g;
  if (g > f->hi) f->hi = g;
}

/* Fills f from the closed nodes of the finished search s. */
static void fillfield(lfield *f, const astar_search *s) {
  clearfield(f);
  astar_search_each_closed(s, fillone, f);
  astar_search_stats(s, &f->st);
}

/* A NULL search makes an empty field (no source could be used). */
void astar_pushfield(lua_State *L, const astar_fieldspec *spec, const astar_search *s) {
  lfield *f = newfield(L, spec);
  if (s != NULL) fillfield(f, s);
}

int astar_tofield(lua_State *L, int idx, int *kind, uint32_t *nnodes, const double **dist) {
  lfield *f = (lfield *)luaL_testudata(L, idx, ASTAR_FIELD_MT);
  if (f == NULL) return 0;
  *kind = f->kind;
  *nnodes = f->nnodes;
  *dist = f->dist;
  return 1;
}

void astar_setoverlay(lua_State *L, const afn *fn, const astar_opts *o, int w, int h,
                      astar_grid_query *q) {
  int idx = o->fn[ASTAR_OPT_OVERLAY];
  const lfield *f;
  char buf[32];
  if (!o->given[ASTAR_OPT_OVERLAY]) {
    if (o->given[ASTAR_OPT_OVERLAY_SCALE])
      astar_opterror(L, fn, o, "option 'overlay_scale' needs option 'overlay'");
    return;
  }
  f = (const lfield *)luaL_testudata(L, idx, ASTAR_FIELD_MT);
  if (f == NULL && luaL_testudata(L, idx, ASTAR_GRID_MT) != NULL)
    astar_opterror(L, fn, o, "option 'overlay': astar.Field expected, got astar.Grid: make a "
                   "Field of it with grid:to_field()");
  if (f == NULL)
    astar_opterror(L, fn, o, "option 'overlay': astar.Field expected, got %s",
                   luaL_typename(L, idx));
  if (f->kind != ASTAR_PATH_GRID)
    astar_opterror(L, fn, o, "option 'overlay': a grid's Field expected, got a graph's");
  if (f->w != w || f->h != h)
    astar_opterror(L, fn, o, "option 'overlay': Field of a %dx%d grid, expected %dx%d",
                   f->w, f->h, w, h);
  if (f->lo < 0)
    astar_opterror(L, fn, o, "option 'overlay': the Field has values below 0 (%s)",
                   astar_fmtnum(buf, f->lo));
  if (astar_big(f->hi))
    astar_opterror(L, fn, o, "option 'overlay': the Field has values beyond 1e+100 (%s), so "
                   "that sums would not stay finite", astar_fmtnum(buf, f->hi));
  q->overlay = f->dist;
  q->overlay_scale = astar_opt(o, ASTAR_OPT_OVERLAY_SCALE, 1.0);
  if (astar_big(q->overlay_scale))
    astar_opterror(L, fn, o, "option 'overlay_scale' is too large: %s (" ASTAR_BIG ")",
                   astar_fmtnum(buf, q->overlay_scale));
}

static lfield *checkfield(lua_State *L, const afn *fn) {
  lfield *f = (lfield *)luaL_testudata(L, 1, ASTAR_FIELD_MT);
  if (f == NULL)
    astar_argerror(L, fn, 1, "astar.Field expected, got %s", luaL_typename(L, 1));
  return f;
}

/* The engine node named by the arguments from index 2 on: x, y (grid
** fields, checked as the grid checks them) or a node id (graph fields; a
** node added to the graph after the field was made is unknown to it). */
static uint32_t checknode(lua_State *L, const afn *fn, const lfield *f) {
  if (f->kind == ASTAR_PATH_GRID) {
    int x = astar_checkcoord(L, fn, 2, "x", f->w);
    int y = astar_checkcoord(L, fn, 3, "y", f->h);
    return astar_grid_layout_node(f->w, x, y);
  } else {
    int id = astar_checkint(L, fn, 2);
    if (id < 1 || (uint32_t)(id - 1) >= f->nnodes)
      astar_argerror(L, fn, 2, "unknown node %d", id);
    return (uint32_t)(id - 1);
  }
}

/* Pushes the cell (x, y) or the node id of engine node v; returns how many. */
static int pushnode(lua_State *L, const lfield *f, uint32_t v) {
  if (f->kind == ASTAR_PATH_GRID) {
    int x, y;
    astar_grid_layout_cell(f->w, v, &x, &y);
    lua_pushinteger(L, (lua_Integer)x + 1);
    lua_pushinteger(L, (lua_Integer)y + 1);
    return 2;
  }
  lua_pushinteger(L, (lua_Integer)v + 1);
  return 1;
}

/***
The distance of a cell (grid fields) or node (graph fields): the cost of the cheapest path
from it to its nearest source, plus that source's value.
@function Field:distance
@int x column (grid fields), or the node id (graph fields)
@int[opt] y row (grid fields)
@treturn number|nil the distance, or `nil` if the cell was not reached (blocked, cut off,
or beyond `max_cost`)
*/
static int field_distance(lua_State *L) {
  lfield *f = checkfield(L, &F_DIST);
  uint32_t v = checknode(L, &F_DIST, f);
  if (f->dist[v] == HUGE_VAL) lua_pushnil(L);
  else lua_pushnumber(L, (lua_Number)f->dist[v]);
  return 1;
}

/***
The next step from a cell toward its nearest source: following `next` from any reached
cell walks a cheapest path down to a source (a flow field).
@function Field:next
@int x column (grid fields), or the node id (graph fields)
@int[opt] y row (grid fields)
@return `x, y` of the next cell (grid fields) or the next node id (graph fields); `nil` at
a source or where unreached
*/
/* Raises for a Field of values (grid:to_field): it has no paths. */
static void haspaths(lua_State *L, const lfield *f, const char *what) {
  if (f->values)
    astar_error(L, "%s: a Field of values (grid:to_field) has no paths", what);
}

static int field_next(lua_State *L) {
  lfield *f = checkfield(L, &F_NEXT);
  uint32_t v = checknode(L, &F_NEXT, f);
  haspaths(L, f, "next");
  if (f->next[v] == NONE) {
    lua_pushnil(L);
    return 1;
  }
  return pushnode(L, f, f->next[v]);
}

/***
The path from a cell (or node) to its nearest source, following @{Field:next|next}. Its
cost is the sum of its step costs: the cell's distance less the source's value. A source's
path has one point. On graph fields the points are node ids, with the graph's positions
for @{Path:flat}.
@function Field:path_from
@int x column (grid fields), or the node id (graph fields)
@int[opt] y row (grid fields)
@treturn[1] Path
@return[2] `nil, message, "no_path"` if the cell was not reached
*/
static int field_path_from(lua_State *L) {
  lfield *f = checkfield(L, &F_PATH);
  uint32_t v = checknode(L, &F_PATH, f), u, root;
  size_t n = 0, i;
  double *p;
  haspaths(L, f, "path_from");
  if (f->dist[v] == HUGE_VAL) {
    lua_pushnil(L);
    if (f->kind == ASTAR_PATH_GRID)
      lua_pushfstring(L, "no path from (%d, %d) to a source", (int)lua_tointeger(L, 2),
                      (int)lua_tointeger(L, 3));
    else
      lua_pushfstring(L, "no path from node %d to a source", (int)lua_tointeger(L, 2));
    lua_pushliteral(L, "no_path");
    return 3;
  }
  for (u = v;; u = f->next[u]) {   /* the parents form a tree: this ends */
    n++;
    if (f->next[u] == NONE || n > f->nnodes) break;
  }
  root = u;
  p = astar_newpath(L, n, f->kind, f->dist[v] - f->dist[root], &f->st, "dijkstra", 0);
  for (u = v, i = 0; i < n; u = f->next[u], i++) {
    if (f->kind == ASTAR_PATH_GRID) {
      int x, y;
      astar_grid_layout_cell(f->w, u, &x, &y);
      p[2 * i] = (double)x + 1;
      p[2 * i + 1] = (double)y + 1;
    } else {
      p[3 * i] = (double)u + 1;
      p[3 * i + 1] = f->xy != NULL ? f->xy[2 * (size_t)u] : (double)NAN;
      p[3 * i + 2] = f->xy != NULL ? f->xy[2 * (size_t)u + 1] : (double)NAN;
    }
  }
  if (f->kind == ASTAR_PATH_GRID) {          /* so that grid:check knows its rule */
    size_t len;
    int *diag;
    astar_path_grid(L, -1, &len, &diag);
    *diag = f->diagonal;
  }
  return 1;
}

/***
The field's shape: `w, h` of its grid (grid fields), or the number of node ids it covers
(graph fields).
@function Field:size
@return `w, h` or `n`
*/
static int field_size(lua_State *L) {
  lfield *f = checkfield(L, &F_FSIZE);
  if (f->kind == ASTAR_PATH_GRID) {
    lua_pushinteger(L, f->w);
    lua_pushinteger(L, f->h);
    return 2;
  }
  lua_pushinteger(L, (lua_Integer)f->nnodes);
  return 1;
}

/***
Statistics of the search that made the field: `{reached =, expanded =, generated =}`,
`reached` counting the cells or nodes with a distance.
@function Field:stats
@treturn table
*/
static int field_stats(lua_State *L) {
  lfield *f = checkfield(L, &F_FSTATS);
  lua_createtable(L, 0, 3);
  lua_pushinteger(L, (lua_Integer)f->reached);
  lua_setfield(L, -2, "reached");
  lua_pushinteger(L, (lua_Integer)f->st.expanded);
  lua_setfield(L, -2, "expanded");
  lua_pushinteger(L, (lua_Integer)f->st.generated);
  lua_setfield(L, -2, "generated");
  return 1;
}

static int field_tostring(lua_State *L) {
  lfield *f = checkfield(L, &F_FSTR);
  if (f->kind == ASTAR_PATH_GRID)
    lua_pushfstring(L, "astar.Field (%dx%d grid, %d reached)", f->w, f->h, (int)f->reached);
  else
    lua_pushfstring(L, "astar.Field (%d nodes, %d reached)", (int)f->nnodes,
                    (int)f->reached);
  return 1;
}


/* ---------------------------------------------------------------------- */
/* grid:distance_field                                                      */
/* ---------------------------------------------------------------------- */

static const astar_optuse FIELD_OPTS[] = {
  {ASTAR_OPT_DIAGONAL, 0, NULL}, {ASTAR_OPT_COST, 0, NULL}, {ASTAR_OPT_MAX_COST, 0, NULL},
  {ASTAR_OPT_SCALE, 0, NULL}, {ASTAR_OPT_RADIUS, 0, NULL}, {ASTAR_OPT_OVERLAY, 0, NULL},
  {ASTAR_OPT_OVERLAY_SCALE, 0, NULL}, {ASTAR_OPT_SIZE, 0, NULL}, ASTAR_OPT_END
};

/* Fills f, whose arrays are empty past the n compacted sources, from the
** finished search s: cheaper than fillfield's full clear. */
static void fillcompacted(lfield *f, size_t n, const astar_search *s) {
  size_t k;
  for (k = 0; k < n; k++) {
    f->dist[k] = HUGE_VAL;
    f->next[k] = NONE;
  }
  f->reached = 0;
  f->lo = HUGE_VAL;
  f->hi = -HUGE_VAL;
  astar_search_each_closed(s, fillone, f);
  astar_search_stats(s, &f->st);
}

/* Reads the list {{x, y [, value]}, ...} at 'idx' into f->dist. */
static void readsources(lua_State *L, const afn *fn, int idx, lfield *f) {
  int n = (int)lua_rawlen(L, idx), i;
  if (n < 1) astar_argerror(L, fn, idx, "empty list of sources");
  for (i = 1; i <= n; i++) {
    double x, y, v = 0;
    uint32_t node;
    lua_rawgeti(L, idx, i);                          /* ... src */
    if (lua_type(L, -1) != LUA_TTABLE)
      astar_argerror(L, fn, idx, "source %d is not a table {x, y [, value]}", i);
    lua_rawgeti(L, -1, 1);
    lua_rawgeti(L, -2, 2);
    lua_rawgeti(L, -3, 3);                           /* ... src x y value */
    x = lua_type(L, -3) == LUA_TNUMBER ? (double)lua_tonumber(L, -3) : -1;
    y = lua_type(L, -2) == LUA_TNUMBER ? (double)lua_tonumber(L, -2) : -1;
    if (x != floor(x) || y != floor(y) || x < 1 || y < 1 || x > f->w || y > f->h)
      astar_argerror(L, fn, idx, "source %d is not a cell of the grid", i);
    if (!lua_isnil(L, -1)) {
      char buf[32];
      if (lua_type(L, -1) != LUA_TNUMBER)
        astar_argerror(L, fn, idx, "source %d: value must be a finite number, got %s", i,
                       luaL_typename(L, -1));
      v = (double)lua_tonumber(L, -1);
      if (!(v > -HUGE_VAL && v < HUGE_VAL))
        astar_argerror(L, fn, idx, "source %d: value must be a finite number, got %s", i,
                       astar_fmtnum(buf, v));
    }
    node = astar_grid_layout_node(f->w, (int)x - 1, (int)y - 1);
    if (v < f->dist[node]) f->dist[node] = v;
    lua_pop(L, 4);
  }
}



/* The field search: the sources are f's first n entries (compacted). */
typedef struct dfjob {
  lgrid *lg;
  astar_grid_query q;
  lfield *f;
  size_t n;
  int rc;
} dfjob;

static void runfield(lua_State *L, lcall *c, void *ud) {
  dfjob *j = (dfjob *)ud;
  (void)L;
  j->q.cost_fn = c != NULL ? astar_grid_cost_cb : NULL;
  j->q.cost_ud = c;
  j->rc = astar_grid_field(j->lg->g, j->lg->m.s, &j->q, j->f->next, j->f->dist, j->n);
}

/* grid:distance_field(sources [, opts]), the grid held. */
static int gridfield_held(lua_State *L, void *ud) {
  lgrid *lg = (lgrid *)ud;
  lcall c;
  int w = astar_grid_width(lg->g), h = astar_grid_height(lg->g);
  int skind = 0;
  uint32_t snodes = 0;
  const double *sdist = NULL;
  const lfield *src = NULL;
  astar_fieldspec spec;
  astar_opts o;
  dfjob j;
  lfield *f;
  lua_settop(L, 3);
  if (astar_tofield(L, 2, &skind, &snodes, &sdist)) {
    src = (const lfield *)lua_touserdata(L, 2);
    if (skind != ASTAR_PATH_GRID)
      astar_argerror(L, &F_DF, 2, "a grid's Field expected, got a graph's");
    if (src->w != w || src->h != h)
      astar_argerror(L, &F_DF, 2, "Field of a %dx%d grid, expected %dx%d", src->w,
                     src->h, w, h);
  } else if (lua_type(L, 2) != LUA_TTABLE) {
    astar_argerror(L, &F_DF, 2, "table or astar.Field expected, got %s",
                   luaL_typename(L, 2));
  }
  astar_readopts(L, &F_DF, 3, FIELD_OPTS, &o);
  astar_grid_hexopts(L, &F_DF, lg, &o);
  if (src != NULL && !o.given[ASTAR_OPT_SCALE])
    astar_argerror(L, &F_DF, 3, "option 'scale' is required when the sources are a Field");
  if (src == NULL && o.given[ASTAR_OPT_SCALE])
    astar_argerror(L, &F_DF, 3, "option 'scale' is only for a Field as sources");
  astar_gridsearch(L, lg);
  memset(&j, 0, sizeof j);
  astar_grid_query_init(&j.q);
  j.q.diagonal = (int)astar_opt(&o, ASTAR_OPT_DIAGONAL, j.q.diagonal);
  j.q.radius = astar_opt(&o, ASTAR_OPT_RADIUS, 0);
  astar_opt_size(L, &F_DF, &o, &j.q.size_w, &j.q.size_h);
  astar_setoverlay(L, &F_DF, &o, w, h, &j.q);
  astar_opt_params(&o, &j.q.params);
  spec.kind = ASTAR_PATH_GRID;
  spec.w = w;
  spec.h = h;
  spec.nnodes = (uint32_t)astar_grid_layout_nodes(w, h);
  spec.xy = NULL;
  f = newfield(L, &spec);                            /* ... field */
  if (src != NULL) {
    uint32_t i;
    for (i = 0; i < f->nnodes; i++)
      if (sdist[i] < HUGE_VAL) {
        double v = o.v[ASTAR_OPT_SCALE] * sdist[i];
        if (v > -HUGE_VAL && v < HUGE_VAL) f->dist[i] = v;
      }
  } else {
    readsources(L, &F_DF, 2, f);
  }
  j.lg = lg; j.f = f;
  f->diagonal = j.q.diagonal;
  j.n = astar_grid_sources(lg->g, j.q.params.max_cost, f->dist, f->next);
  j.n = astar_grid_sources_fit(lg->g, &j.q, f->dist, f->next, j.n);
  if (j.n == 0) return 1;                            /* nothing can start a path */
  runfield(L, astar_lcall(L, &c, o.fn[ASTAR_OPT_COST], 0), &j);
  if (j.rc < 0) return astar_raise(L, j.rc);
  fillcompacted(f, j.n, lg->m.s);
  return 1;                                          /* the field */
}

/* grid:distance_field(sources [, opts]): documented in grid.c, with the Grid. */
static int grid_distance_field(lua_State *L) {
  lgrid *lg = astar_checkgrid(L, &F_DF);
  astar_map_searchable(L, &lg->m);
  return astar_map_hold(L, &lg->m, gridfield_held, lg);
}


/* ---------------------------------------------------------------------- */
/* graph:distance_field                                                     */
/* ---------------------------------------------------------------------- */

/* The sources, the query and the outcome of a distance_field. */
static const astar_optuse GRAPH_FIELD_OPTS[] = {
  {ASTAR_OPT_MAX_COST, 0, NULL}, {ASTAR_OPT_COST, 0, NULL}, {ASTAR_OPT_SCALE, 0, NULL},
  ASTAR_OPT_END
};

/* The sources, the query and the outcome of a graph's distance_field. */
typedef struct fieldjob {
  lgraph *lg;
  astar_graph_query q;
  const uint32_t *ids;
  const double *g0;
  size_t n;
  int rc;
} fieldjob;

static void rungraph(lua_State *L, lcall *c, void *ud) {
  fieldjob *j = (fieldjob *)ud;
  astar_graph_query *q = &j->q;
  astar_search *s = j->lg->m.s;
  (void)L;
  astar_graph_hook(q, c);
  j->rc = astar_graph_prepare(j->lg->g, q, ASTAR_NONE, ASTAR_NONE);
  if (j->rc == 0)
    j->rc = astar_search_begin_multi(s, &q->back, j->ids, j->g0, j->n, ASTAR_NONE, &q->params);
  if (j->rc == 0) j->rc = astar_search_step(s, UINT64_MAX);
}

/* The usable sources of distance_field, in scratch arrays (userdata). */
typedef struct sources {
  uint32_t *ids;
  double *g0;
  size_t n;
} sources;

/* Keeps source 'id' with value 'v' if it can start a path: enabled, and
** not above max_cost (a node listed twice keeps its smallest value: the
** engine's rule for repeated starts). */
static void addsource(sources *src, uint32_t id, double v) {
  src->ids[src->n] = id;
  src->g0[src->n++] = v;
}

static void graphsources(lua_State *L, lgraph *lg, const astar_opts *o, sources *src) {
  int kind;
  uint32_t nn, i;
  const double *dist;
  size_t cap;
  if (astar_tofield(L, 2, &kind, &nn, &dist)) {      /* every reached node of a field */
    if (kind != ASTAR_PATH_GRAPH)
      astar_argerror(L, &F_DF, 2, "a graph's Field expected, got a grid's");
    if (nn > astar_graph_size(lg->g))
      astar_argerror(L, &F_DF, 2, "Field of a graph of %d nodes, this one has %d",
                     (int)nn, (int)astar_graph_size(lg->g));
    if (!o->given[ASTAR_OPT_SCALE])
      astar_argerror(L, &F_DF, 3, "option 'scale' is required when the sources are "
                     "a Field");
    cap = nn > 0 ? nn : 1;
    src->ids = (uint32_t *)lua_newuserdatauv(L, cap * sizeof(uint32_t), 0);
    src->g0 = (double *)lua_newuserdatauv(L, cap * sizeof(double), 0);
    src->n = 0;
    for (i = 0; i < nn; i++)
      if (dist[i] < HUGE_VAL) addsource(src, i, o->v[ASTAR_OPT_SCALE] * dist[i]);
    return;
  }
  if (lua_type(L, 2) != LUA_TTABLE)
    astar_argerror(L, &F_DF, 2, "table or astar.Field expected, got %s",
                   luaL_typename(L, 2));
  if (o->given[ASTAR_OPT_SCALE])
    astar_argerror(L, &F_DF, 3, "option 'scale' is only for a Field as sources");
  cap = lua_rawlen(L, 2);
  if (cap == 0) astar_argerror(L, &F_DF, 2, "empty list of sources");
  src->ids = (uint32_t *)lua_newuserdatauv(L, cap * sizeof(uint32_t), 0);
  src->g0 = (double *)lua_newuserdatauv(L, cap * sizeof(double), 0);
  src->n = 0;
  for (i = 1; i <= cap; i++) {
    uint32_t id = 0;
    double v = 0;
    int st;
    char buf[32];
    lua_rawgeti(L, 2, (int)i);                       /* ... source */
    if (lua_type(L, -1) == LUA_TTABLE) {             /* {id [, value]} */
      lua_rawgeti(L, -1, 2);                         /* ... source value */
      if (!lua_isnil(L, -1)) {
        if (lua_type(L, -1) != LUA_TNUMBER)
          astar_argerror(L, &F_DF, 2, "source %d: value must be a finite number, got %s",
                         (int)i, luaL_typename(L, -1));
        v = (double)lua_tonumber(L, -1);
        if (!(v > -HUGE_VAL && v < HUGE_VAL))
          astar_argerror(L, &F_DF, 2, "source %d: value must be a finite number, got %s",
                         (int)i, astar_fmtnum(buf, v));
      }
      lua_pop(L, 1);
      lua_rawgeti(L, -1, 1);                         /* ... source id */
      lua_remove(L, -2);                             /* ... id */
    }
    st = astar_graph_tonode(L, lg->g, -1, &id);
    if (st == 1)
      astar_argerror(L, &F_DF, 2, "source %d is not a node id or {id [, value]}", (int)i);
    if (st == 2)
      astar_argerror(L, &F_DF, 2, "source %d: unknown node %s", (int)i,
                     astar_fmtnum(buf, (double)lua_tonumber(L, -1)));
    if (st == 3)
      astar_argerror(L, &F_DF, 2, "source %d: node %d was removed", (int)i, (int)id + 1);
    lua_pop(L, 1);
    addsource(src, id, v);
  }
}

/* graph:distance_field(sources [, opts]), the graph held. */
static int graphfield_held(lua_State *L, void *ud) {
  lgraph *lg = (lgraph *)ud;
  lcall c;
  astar_opts o;
  fieldjob j;
  sources src;
  astar_fieldspec spec;
  double *xy;
  uint32_t i, n;
  lua_settop(L, 3);
  if (lua_type(L, 2) != LUA_TTABLE && luaL_testudata(L, 2, ASTAR_FIELD_MT) == NULL)
    astar_argerror(L, &F_DF, 2, "table or astar.Field expected, got %s",
                   luaL_typename(L, 2));
  astar_readopts(L, &F_DF, 3, GRAPH_FIELD_OPTS, &o);
  memset(&j, 0, sizeof j);
  astar_graph_query_init(&j.q);
  astar_opt_params(&o, &j.q.params);
  j.q.params.algorithm = ASTAR_ALG_DIJKSTRA;
  graphsources(L, lg, &o, &src);
  src.n = astar_graph_sources(lg->g, j.q.params.max_cost, src.ids, src.g0, src.n);
  astar_map_search(L, &lg->m);
  n = astar_graph_size(lg->g);
  xy = (double *)lua_newuserdatauv(L, 2 * (size_t)(n > 0 ? n : 1) * sizeof(double), 0);
  for (i = 0; i < n; i++) {
    double p[3];
    if (astar_graph_position(lg->g, i, p)) { xy[2 * i] = p[0]; xy[2 * i + 1] = p[1]; }
    else xy[2 * i] = xy[2 * i + 1] = NAN;
  }
  memset(&spec, 0, sizeof spec);
  spec.kind = ASTAR_PATH_GRAPH;
  spec.nnodes = n;
  spec.xy = xy;
  if (src.n == 0) {                                  /* nothing can start a path */
    astar_pushfield(L, &spec, NULL);
    return 1;
  }
  j.lg = lg;
  j.ids = src.ids; j.g0 = src.g0; j.n = src.n;
  rungraph(L, astar_lcall(L, &c, o.fn[ASTAR_OPT_COST], 0), &j);
  if (j.rc < 0) astar_raise(L, j.rc);
  astar_pushfield(L, &spec, lg->m.s);
  return 1;
}

/* graph:distance_field(sources [, opts]): documented in graph.c, with the Graph. */
static int graph_distance_field(lua_State *L) {
  lgraph *lg = astar_checkgraph(L, &F_DF);
  astar_map_searchable(L, &lg->m);
  return astar_map_hold(L, &lg->m, graphfield_held, lg);
}

/* ---------------------------------------------------------------------- */
/* Components                                                               */
/* ---------------------------------------------------------------------- */

/* The optional diagonal policy at 'idx' (default "no_corner_cutting"). */
static int checkdiag(lua_State *L, const afn *fn, int idx) {
  if (lua_isnoneornil(L, idx)) return ASTAR_DIAG_NO_CORNER_CUTTING;
  return astar_checkenum(L, fn, idx, "diagonal", astar_diagonals());
}

/* The label of (x, y) under policy 'diag' (0 if blocked); raises on ENOMEM. */
static uint32_t labelof(lua_State *L, lgrid *lg, int diag, int x, int y) {
  uint32_t lab = 0;
  int rc = astar_grid_component(lg->g, diag, x, y, &lab);
  if (rc != 0) astar_raise(L, rc);
  return lab;
}

/* grid:components([diagonal]): documented in grid.c, with the Grid. */
static int grid_components(lua_State *L) {
  lgrid *lg = astar_checkgrid(L, &F_COMPS);
  int diag = checkdiag(L, &F_COMPS, 2);
  uint32_t n = 0;
  int rc = astar_grid_components(lg->g, diag, &n);
  if (rc != 0) astar_raise(L, rc);
  lua_pushinteger(L, (lua_Integer)n);
  return 1;
}

/* grid:component(x, y [, diagonal]): documented in grid.c. */
static int grid_component(lua_State *L) {
  lgrid *lg = astar_checkgrid(L, &F_COMP);
  int x = astar_checkcoord(L, &F_COMP, 2, "x", astar_grid_width(lg->g));
  int y = astar_checkcoord(L, &F_COMP, 3, "y", astar_grid_height(lg->g));
  uint32_t lab = labelof(L, lg, checkdiag(L, &F_COMP, 4), x, y);
  if (lab == 0) lua_pushnil(L);
  else lua_pushinteger(L, (lua_Integer)lab);
  return 1;
}

/* grid:same_component(x1, y1, x2, y2 [, diagonal]): documented in grid.c. */
static int grid_same_component(lua_State *L) {
  lgrid *lg = astar_checkgrid(L, &F_SAME);
  int w = astar_grid_width(lg->g), h = astar_grid_height(lg->g);
  int x1 = astar_checkcoord(L, &F_SAME, 2, "x", w);
  int y1 = astar_checkcoord(L, &F_SAME, 3, "y", h);
  int x2 = astar_checkcoord(L, &F_SAME, 4, "x", w);
  int y2 = astar_checkcoord(L, &F_SAME, 5, "y", h);
  int diag = checkdiag(L, &F_SAME, 6);
  uint32_t a = labelof(L, lg, diag, x1, y1);
  lua_pushboolean(L, a != 0 && a == labelof(L, lg, diag, x2, y2));
  return 1;
}

/* grid:to_field(): documented in grid.c, with the Grid. */
static int grid_to_field(lua_State *L) {
  static const afn F_TOFIELD = {"to_field", 1};
  lgrid *lg = astar_checkgrid(L, &F_TOFIELD);
  int w = astar_grid_width(lg->g), h = astar_grid_height(lg->g), x, y;
  astar_fieldspec spec;
  lfield *f;
  spec.kind = ASTAR_PATH_GRID;
  spec.w = w;
  spec.h = h;
  spec.nnodes = (uint32_t)astar_grid_layout_nodes(w, h);
  spec.xy = NULL;
  f = newfield(L, &spec);                            /* self field */
  astar_map_alive(L, &lg->m);                        /* a finalizer may have closed it */
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      double v = astar_grid_get(lg->g, x, y);
      f->dist[astar_grid_layout_node(w, x, y)] = v;
      if (v < f->lo) f->lo = v;
      if (v > f->hi) f->hi = v;
    }
  f->reached = (size_t)w * (size_t)h;
  f->values = 1;
  return 1;
}

static const luaL_Reg field_methods[] = {
  {"distance", field_distance},
  {"next", field_next},
  {"path_from", field_path_from},
  {"size", field_size},
  {"stats", field_stats},
  {NULL, NULL}
};

static const luaL_Reg field_meta[] = {
  {"__tostring", field_tostring},
  {NULL, NULL}
};

/* Added to the Grid's methods. */
static const luaL_Reg grid_methods[] = {
  {"distance_field", grid_distance_field},
  {"components", grid_components},
  {"component", grid_component},
  {"same_component", grid_same_component},
  {"to_field", grid_to_field},
  {NULL, NULL}
};

static const luaL_Reg graph_methods[] = {
  {"distance_field", graph_distance_field},
  {NULL, NULL}
};

void astar_field_open(lua_State *L) {
  astar_newclass(L, ASTAR_FIELD_MT, "Field", field_meta, field_methods);
  astar_addmethods(L, ASTAR_GRID_MT, grid_methods);
  astar_addmethods(L, ASTAR_GRAPH_MT, graph_methods);
}
