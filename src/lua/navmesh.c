/*
** navmesh.c - the NavMesh userdata: convex polygons, searched over their
** portals and straightened by the funnel algorithm (src/core/navmesh.c).
*/
/***
A navigation mesh: the walkable area as convex polygons, with any-angle paths across them
instead of paths from cell to cell.

Polygons are neighbours when they share a whole edge (a portal); an edge no other polygon
shares is a wall. Each polygon has a cost, a multiplier of the distance walked inside it
(default 1), and 32 flag bits (default 1) that searches filter with `include` and
`exclude`. The shape is fixed once built; costs and flags may change at any time.

Made by [astar.navmesh](#astar.navmesh), @{astar.navmesh.from_grid} and
@{astar.navmesh.from_polygons}.
The methods by topic:

- search: @{NavMesh:find|find}, @{NavMesh:query|query} (time-sliced)
- points: @{NavMesh:locate|locate}, @{NavMesh:nearest|nearest},
  @{NavMesh:clearance|clearance}, @{NavMesh:raycast|raycast}
- polygons: @{NavMesh:set_cost|set_cost}, @{NavMesh:cost|cost},
  @{NavMesh:set_flags|set_flags}, @{NavMesh:flags|flags}
- drawing: @{NavMesh:polygons|polygons}, @{NavMesh:polygon|polygon},
  @{NavMesh:vertices|vertices}, @{NavMesh:neighbours|neighbours}
- memory: @{NavMesh:stats|stats}, @{NavMesh:close|close}
@classmod NavMesh
*/
#include <math.h>
#include <string.h>
#include "binding.h"

/* The NavMesh userdata; find's search record (an nmrec) follows it. */
typedef struct lmesh {
  lmap map;                /* the pipeline's head (map.core == m) */
  astar_navmesh *m;        /* NULL once closed */
} lmesh;

/* A navmesh search record: the core query (its buffers are reused from
** find to find), the ends, and the straightened path. */
typedef struct nmrec {
  astar_navmesh_query q;
  double sx, sy, gx, gy;
  long n;                  /* points of the path (0: too narrow for the radius) */
  const double *pts;
  double cost;
} nmrec;

static const astar_kind NAVMESH;

static const afn F_NEW = {"navmesh", 0};
static const afn F_GRID = {"from_grid", 0};
static const afn F_LOCATE = {"locate", 1};
static const afn F_NEAREST = {"nearest", 1};
static const afn F_RAYCAST = {"raycast", 1};
static const afn F_CLEAR = {"clearance", 1};
static const afn F_SETCOST = {"set_cost", 1};
static const afn F_COST = {"cost", 1};
static const afn F_SETFLAGS = {"set_flags", 1};
static const afn F_FLAGS = {"flags", 1};
static const afn F_POLYS = {"polygons", 1};
static const afn F_POLY = {"polygon", 1};
static const afn F_VERTS = {"vertices", 1};
static const afn F_NEIGH = {"neighbours", 1};
static const afn F_STATS = {"stats", 1};

static lmesh *newmesh(lua_State *L) {
  size_t head = (sizeof(lmesh) + sizeof(double) - 1) / sizeof(double) * sizeof(double);
  lmesh *lm = (lmesh *)lua_newuserdatauv(L, head + sizeof(nmrec), 0);
  nmrec *r = (nmrec *)(void *)((char *)lm + head);
  astar_map_init(&lm->map, &NAVMESH, r);
  lm->m = NULL;
  memset(r, 0, sizeof *r);
  astar_navmesh_query_init(&r->q);
  luaL_setmetatable(L, ASTAR_NAVMESH_MT);
  return lm;
}

static lmesh *checkmesh(lua_State *L, const afn *f) {
  return (lmesh *)astar_checkmap(L, &NAVMESH, f);
}

astar_navmesh *astar_checknavmesh(lua_State *L, const afn *f, const lmap **map) {
  lmesh *lm = checkmesh(L, f);
  *map = &lm->map;
  return lm->m;
}

/***
Frees the mesh's memory now (also `__close` and `__gc`). Idempotent; paths found earlier
stay valid; any later use raises `attempt to use a closed navmesh`. Refused from a callback
of a search on this mesh.
@function NavMesh:close
*/
static int mesh_close(lua_State *L) { return astar_map_close(L, &NAVMESH); }

static int mesh_tostring(lua_State *L) {
  lmesh *lm = (lmesh *)luaL_testudata(L, 1, ASTAR_NAVMESH_MT);
  if (lm == NULL || lm->m == NULL) lua_pushliteral(L, "astar.NavMesh (closed)");
  else lua_pushfstring(L, "astar.NavMesh (%d polygons, %d vertices)",
                       (int)astar_navmesh_npolygons(lm->m), (int)astar_navmesh_nvertices(lm->m));
  return 1;
}

/* A 1-based polygon index of the mesh; returns it 0-based. */
static uint32_t checkpoly(lua_State *L, const afn *f, int idx, lmesh *lm) {
  return (uint32_t)astar_checkrange(L, f, idx, "polygon", 1,
                                    (int)astar_navmesh_npolygons(lm->m)) - 1;
}

/* A finite number. */
double astar_checkfinite(lua_State *L, const afn *f, int idx) {
  double v = astar_checknumber(L, f, idx);
  char buf[32];
  if (!isfinite(v)) astar_argerror(L, f, idx, "finite number expected, got %s",
                                   astar_fmtnum(buf, v));
  astar_checkbig(L, f, idx, "coordinate", v);
  return v;
}

/* Flags: an integer in [0, 2^32 - 1] (the rule of the include/exclude options). */
static uint32_t toflags(lua_State *L, const afn *f, int idx) {
  double v = astar_checknumber(L, f, idx);
  char buf[32];
  if (!(v >= 0 && v <= 4294967295.0 && v == floor(v)))
    astar_argerror(L, f, idx, "flags must be an integer in [0, 2^32 - 1], got %s",
                   astar_fmtnum(buf, v));
  return (uint32_t)v;
}

/* ---------------------------------------------------------------------- */
/* Construction                                                             */
/* ---------------------------------------------------------------------- */

static const char *const PROBLEMS[] = {
  "", "has fewer than 3 vertices", "refers to vertex %d, which does not exist",
  "lists vertex %d twice", "has no area (its vertices are collinear or too close)",
  "is not convex (at vertex %d)", "repeats polygon %d", "overlaps polygon %d",
  "shares an edge with two other polygons", "meets polygon %d in a T-junction", ""
};

static int meshproblem(lua_State *L, const astar_navmesh_problem *pr) {
  char msg[160];
  int why = pr->why;
  if (why == ASTAR_NM_COORD)
    return astar_error(L, "navmesh: vertex %d has a coordinate that is not a finite number",
                       (int)pr->vertex + 1);
  switch (why) {
    case ASTAR_NM_INDEX: case ASTAR_NM_REPEAT: case ASTAR_NM_CONCAVE:
      snprintf(msg, sizeof msg, PROBLEMS[why], (int)pr->vertex + 1); break;
    case ASTAR_NM_DUPLICATE: case ASTAR_NM_OVERLAP:
      snprintf(msg, sizeof msg, PROBLEMS[why], (int)pr->other + 1); break;
    case ASTAR_NM_TJUNCTION:
      snprintf(msg, sizeof msg, "meets polygon %d in a T-junction at vertex %d (split the "
               "longer edge there)", (int)pr->other + 1, (int)pr->vertex + 1); break;
    case ASTAR_NM_NONMANIFOLD:
      snprintf(msg, sizeof msg, "shares its edge %d-%d with more than one other polygon",
               (int)pr->vertex + 1, (int)pr->vertex2 + 1); break;
    default:
      snprintf(msg, sizeof msg, "%s", why > 0 && why <= ASTAR_NM_COORD ? PROBLEMS[why]
                                                                        : "is invalid");
  }
  if (why == ASTAR_NM_OVERLAP && pr->vertex != ASTAR_NONE && pr->vertex2 != ASTAR_NONE)
    return astar_error(L, "navmesh: polygon %d %s (both have the edge %d-%d in the same "
                       "direction)", (int)pr->polygon + 1, msg, (int)pr->vertex + 1,
                       (int)pr->vertex2 + 1);
  return astar_error(L, "navmesh: polygon %d %s", (int)pr->polygon + 1, msg);
}

/* Reads the list field 'name' of the table at 1 onto the stack. */
static size_t getlist(lua_State *L, const char *name) {
  lua_getfield(L, 1, name);
  if (lua_type(L, -1) != LUA_TTABLE)
    astar_argerror(L, &F_NEW, 1, "field '%s': table expected, got %s", name,
                   luaL_typename(L, -1));
  return (size_t)lua_rawlen(L, -1);
}

/* Raises unless the table at 1 has only the fields astar.navmesh knows. */
static void checkfields(lua_State *L) {
  lua_pushnil(L);
  while (lua_next(L, 1)) {                            /* key value */
    const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
    if (k == NULL || (strcmp(k, "vertices") && strcmp(k, "polygons") && strcmp(k, "costs") &&
                      strcmp(k, "flags")))
      astar_argerror(L, &F_NEW, 1, "unknown field %s%s%s (expected vertices, polygons, costs, "
                     "flags)", k ? "'" : "", k ? k : luaL_typename(L, -2), k ? "'" : "");
    lua_pop(L, 1);
  }
}

/* The vertex list at 2 into a scratch userdata (an error leaks nothing). */
static double *readvertices(lua_State *L, size_t nv2) {
  double *xy = (double *)lua_newuserdatauv(L, nv2 * sizeof(double), 0);
  size_t i;
  char buf[32];
  for (i = 0; i < nv2; i++) {
    lua_rawgeti(L, 2, (int)i + 1);
    if (lua_type(L, -1) != LUA_TNUMBER)
      astar_argerror(L, &F_NEW, 1, "field 'vertices': item %d is %s, not a number",
                     (int)i + 1, luaL_typename(L, -1));
    xy[i] = (double)lua_tonumber(L, -1);
    if (!isfinite(xy[i]))
      astar_argerror(L, &F_NEW, 1, "field 'vertices': item %d is %s, not a finite number",
                     (int)i + 1, astar_fmtnum(buf, xy[i]));
    if (astar_big(xy[i]))
      astar_argerror(L, &F_NEW, 1, "field 'vertices': item %d is too large: %s (" ASTAR_BIG ")",
                     (int)i + 1, astar_fmtnum(buf, xy[i]));
    lua_pop(L, 1);
  }
  return xy;
}

/* Polygon i's vertex indices (the list on top) into idx from *total, at
** most cap in all (a list that grew since it was measured is an error). */
static void readpolygon(lua_State *L, size_t i, size_t nv, uint32_t *idx, size_t *total,
                        size_t cap) {
  size_t k, n = (size_t)lua_rawlen(L, -1);
  char buf[32];
  if (n < 3) astar_error(L, "navmesh: polygon %d has fewer than 3 vertices", (int)i + 1);
  if (n > cap - *total) astar_error(L, "navmesh: polygon %d changed during the call", (int)i + 1);
  for (k = 1; k <= n; k++) {
    double v;
    lua_rawgeti(L, -1, (int)k);
    v = lua_type(L, -1) == LUA_TNUMBER ? (double)lua_tonumber(L, -1) : -1;
    if (lua_type(L, -1) != LUA_TNUMBER || v != floor(v))
      astar_error(L, "navmesh: polygon %d: item %d is not a vertex index (got %s)",
                  (int)i + 1, (int)k, lua_type(L, -1) == LUA_TNUMBER
                  ? astar_fmtnum(buf, v) : luaL_typename(L, -1));
    if (!(v >= 1 && v <= (double)nv))
      astar_error(L, "navmesh: polygon %d refers to vertex %s, which does not exist "
                  "(there are %d)", (int)i + 1, astar_fmtnum(buf, v), (int)nv);
    idx[(*total)++] = (uint32_t)v - 1;
    lua_pop(L, 1);
  }
}

/* The optional per-polygon list field 'name' ("costs" or "flags"). */
static void perpolygon(lua_State *L, lmesh *lm, size_t np, const char *name) {
  int costs = name[0] == 'c';
  size_t i;
  lua_getfield(L, 1, name);
  if (!lua_isnil(L, -1)) {
    if (lua_type(L, -1) != LUA_TTABLE || (size_t)lua_rawlen(L, -1) != np)
      astar_argerror(L, &F_NEW, 1, "field '%s': expected a list of %d %s", name, (int)np,
                     costs ? "numbers" : "integers");
    for (i = 0; i < np; i++) {
      double v;
      lua_rawgeti(L, -1, (int)i + 1);
      v = lua_type(L, -1) == LUA_TNUMBER ? (double)lua_tonumber(L, -1) : -1;
      if (costs && astar_big(v))
        astar_argerror(L, &F_NEW, 1, "field 'costs': item %d is too large (" ASTAR_BIG ")",
                       (int)i + 1);
      if (costs && !(v > 0 && v < HUGE_VAL))
        astar_argerror(L, &F_NEW, 1, "field 'costs': item %d must be a positive finite "
                       "number", (int)i + 1);
      if (!costs && !(v >= 0 && v <= 4294967295.0 && v == floor(v)))
        astar_argerror(L, &F_NEW, 1, "field 'flags': item %d must be an integer in "
                       "[0, 2^32 - 1]", (int)i + 1);
      if (costs) astar_navmesh_set_cost(lm->m, (uint32_t)i, v);
      else astar_navmesh_set_flags(lm->m, (uint32_t)i, (uint32_t)v);
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
}

/***
A navigation mesh from convex polygons over shared vertices. Polygons may list their
vertices in either orientation; consecutive collinear vertices are fine; points with
identical coordinates are one vertex. Invalid meshes raise an error that names the polygon
and the problem, e.g. `navmesh: polygon 3 is not convex (at vertex 7)`. T-junctions are
rejected: where one polygon's edge runs along part of another's, the longer edge must
carry the other's vertex. Also `astar.navmesh.new`.
@function astar.navmesh
@tparam table t the mesh:
@tparam table t.vertices `{x1, y1, x2, y2, ...}`
@tparam table t.polygons `{{1, 2, 3}, ...}`: each polygon's vertex indices, 1-based
@tparam[opt] table t.costs one cost per polygon, each > 0 (default: all 1)
@tparam[opt] table t.flags one flag word per polygon, integers in `[0, 2^32 - 1]` (default:
all 1)
@treturn NavMesh
@usage
local mesh = astar.navmesh {
  vertices = { 0, 0,  10, 0,  10, 10,  0, 10,  20, 0,  20, 10 },
  polygons = { { 1, 2, 3, 4 }, { 2, 5, 6, 3 } },   -- two squares side by side
}
local path = assert(mesh:find(1, 1, 19, 9))
print(#path, path:cost())                     --> 2 19.697715603592
print(table.concat(path:corridor(), " "))     --> 1 2
*/
static int mesh_new(lua_State *L) {
  size_t nv2, np, i, total = 0, cap;
  double *xy;
  uint32_t *start, *idx;
  lmesh *lm;
  astar_navmesh_problem pr;
  void *ud;
  astar_alloc fn = astar_allocator(L, &ud);
  int rc;
  if (lua_type(L, 1) != LUA_TTABLE)
    astar_argerror(L, &F_NEW, 1, "table expected, got %s", luaL_typename(L, 1));
  lua_settop(L, 1);
  checkfields(L);
  nv2 = getlist(L, "vertices");                       /* 2 */
  np = getlist(L, "polygons");                        /* 3 */
  if (nv2 < 6 || nv2 % 2 != 0)
    astar_argerror(L, &F_NEW, 1, "field 'vertices': expected a list of x, y pairs "
                   "{x1, y1, x2, y2, ...} of at least 3 points, got %d numbers", (int)nv2);
  if (np < 1) astar_argerror(L, &F_NEW, 1, "field 'polygons': empty list");
  if (nv2 / 2 > 0x7fffffff || np > 0x7fffffff) astar_error(L, "navmesh: too many vertices");
  for (i = 1; i <= np; i++) {
    lua_rawgeti(L, 3, (int)i);
    if (lua_type(L, -1) != LUA_TTABLE)
      astar_argerror(L, &F_NEW, 1, "field 'polygons': polygon %d is %s, not a list of "
                     "vertex indices", (int)i, luaL_typename(L, -1));
    total += (size_t)lua_rawlen(L, -1);
    lua_pop(L, 1);
    if (total > 0x7fffffff) astar_error(L, "navmesh: too many vertices");
  }
  /* scratch in userdata: an error below leaks nothing */
  xy = readvertices(L, nv2);                                                     /* 4 */
  start = (uint32_t *)lua_newuserdatauv(L, (np + 1) * sizeof(uint32_t), 0);    /* 5 */
  cap = total ? total : 1;
  idx = (uint32_t *)lua_newuserdatauv(L, cap * sizeof(uint32_t), 0);           /* 6 */
  total = 0;
  for (i = 0; i < np; i++) {
    start[i] = (uint32_t)total;
    lua_rawgeti(L, 3, (int)i + 1);
    if (lua_type(L, -1) != LUA_TTABLE)
      astar_error(L, "navmesh: polygon %d changed during the call", (int)i + 1);
    readpolygon(L, i, nv2 / 2, idx, &total, cap);
    lua_pop(L, 1);
  }
  start[np] = (uint32_t)total;
  lm = newmesh(L);                                    /* 7 */
  rc = astar_navmesh_new(&lm->m, xy, (uint32_t)(nv2 / 2), start, idx, (uint32_t)np, &pr, fn, ud);
  if (rc == ASTAR_EINVAL) return meshproblem(L, &pr);
  if (rc) return astar_raise(L, rc);
  lm->map.core = lm->m;
  perpolygon(L, lm, np, "costs");
  perpolygon(L, lm, np, "flags");
  astar_gc_settle(L);
  return 1;
}

/***
A mesh of a grid's walkable cells, merged into rectangles of equal cost. Each row run is as
wide as it goes, then as tall as it stays the same; this is done twice, the second time with
each rectangle also stopping above a row whose run around it is more than twice as wide (a
door one cell wide then stays one cell, not a strip down the room behind it), and the way
with fewer rectangles is kept. Rectangles get the corners of their
neighbours on their sides as extra vertices, so there are no T-junctions. The mesh is in the
grid's world coordinates (@{Grid:set_world}): cell `(x, y)` covers the rectangle whose centre
is `grid:to_world(x, y)`; with the default frame that is `[x-1, x] x [y-1, y]`, centre
`(x - 0.5, y - 0.5)`. Polygon costs are the cells' costs. An error if the grid has no
walkable cell.
@function astar.navmesh.from_grid
@tparam Grid grid
@tparam[opt] table opts the options:
@tparam[opt] number opts.tile square cells of this size from `(0, 0)` instead of the grid's
world frame, > 0
@treturn NavMesh
@usage
local grid = astar.grid.parse("....\n.##.\n....", { ["."] = 1, ["#"] = false })
local mesh = astar.navmesh.from_grid(grid)
print(mesh:stats().polygons, mesh:locate(3.5, 0.5))   --> 4 1
local path = assert(mesh:find(0.5, 0.5, 3.5, 2.5))    -- cell centres
print(#path, path:cost() < grid:find(1, 1, 4, 3):cost())   --> 3 true
*/

/***
A mesh of the area inside `outline` and outside every hole. Ear clipping, each hole first
joined to the outline by a bridge to a vertex it can see, then the triangles merged into
convex polygons while the union stays convex (Hertel-Mehlhorn: at most 4 times the fewest
convex pieces). Only the input points become vertices. The outline and the holes must be
simple polygons, the holes strictly inside the outline and apart from each other; errors
name the ring and the problem, e.g. `bad argument #2 to 'from_polygons' (hole 2 overlaps
hole 3)`. The work grows with the square of the points: 0.006 s for 500, 0.5 s for 5000
on Lua 5.4. The builder is in Lua: `require("astar.navmesh").from_polygons` gives the
description this function passes to `astar.navmesh` (@{astar.navmesh|the astar.navmesh
module}).
@function astar.navmesh.from_polygons
@tparam table outline `{x1, y1, x2, y2, ...}`, either orientation (a Tiled object layer's
polygon, for instance)
@tparam[opt] table holes a list of such lists
@treturn NavMesh
@usage
local mesh = astar.navmesh.from_polygons(
  { 0, 0, 10, 0, 10, 10, 0, 10 },         -- a room
  { { 4, 4, 6, 4, 6, 6, 4, 6 } })         -- a pillar in the middle
local path = assert(mesh:find(1, 5, 9, 5))
print(#path, mesh:locate(5, 5))           --> 4 nil
*/
static int mesh_from_grid(lua_State *L) {
  static const astar_optuse TILE_OPTS[] = {{ASTAR_OPT_TILE, 0, NULL}, ASTAR_OPT_END};
  lgrid *lg = (lgrid *)luaL_testudata(L, 1, ASTAR_GRID_MT);
  astar_opts o;
  astar_frame frame;
  astar_grid_square(L, lg, "from_grid");
  lmesh *lm;
  void *ud;
  astar_alloc fn = astar_allocator(L, &ud);
  int rc;
  if (lg == NULL) astar_argerror(L, &F_GRID, 1, "astar.Grid expected, got %s",
                                 luaL_typename(L, 1));
  if (lg->g == NULL) astar_error(L, "attempt to use a closed grid");
  astar_readopts(L, &F_GRID, 2, TILE_OPTS, &o);
  frame = lg->world;                      /* Grid:set_world checked its extent */
  if (astar_opt(&o, ASTAR_OPT_TILE, 0) > 0) {          /* the old way: square, from (0, 0) */
    int side = astar_grid_width(lg->g) > astar_grid_height(lg->g) ? astar_grid_width(lg->g)
                                                                  : astar_grid_height(lg->g);
    double tile = astar_opt(&o, ASTAR_OPT_TILE, 1);
    char buf[48];
    if (tile < 1e-100 || tile * side > ASTAR_NUM_MAX)   /* areas underflow, sides overflow */
      astar_opterror(L, &F_GRID, &o, "option 'tile': %s makes the mesh %s units across; the "
                     "tile must be at least 1e-100, the mesh at most 1e+100 across",
                     astar_fmtnum(buf, tile), astar_fmtnum(buf + 16, tile * side));
    frame.tw = frame.th = tile;
    frame.ox = frame.oy = 0;
  }
  lm = newmesh(L);
  astar_map_alive(L, &lg->m);                        /* a finalizer may have closed it */
  rc = astar_navmesh_from_grid(&lm->m, lg->g, &frame, NULL, fn, ud);
  if (rc == ASTAR_EINVAL) astar_error(L, "from_grid: the grid has no walkable cell");
  if (rc) return astar_raise(L, rc);
  lm->map.core = lm->m;
  astar_gc_settle(L);
  return 1;
}

/* ---------------------------------------------------------------------- */
/* find: the navmesh's part of the pipeline (src/lua/find.c)               */
/* ---------------------------------------------------------------------- */

static const char *const ALGORITHMS[] = {"astar", "dijkstra", NULL};
static const char *const HEURISTICS[] = {"euclidean", "zero", NULL};

#define MESH_OPTS \
  {ASTAR_OPT_ALGORITHM, ASTAR_OT_ENUM, ALGORITHMS}, \
  {ASTAR_OPT_HEURISTIC, ASTAR_OT_ENUM, HEURISTICS}, {ASTAR_OPT_COST, 0, NULL}, \
  {ASTAR_OPT_WEIGHT, 0, NULL}, {ASTAR_OPT_MAX_EXPANSIONS, 0, NULL}, \
  {ASTAR_OPT_MAX_COST, 0, NULL}, {ASTAR_OPT_PARTIAL, 0, NULL}, \
  {ASTAR_OPT_RADIUS, 0, NULL}, {ASTAR_OPT_INCLUDE, 0, NULL}, {ASTAR_OPT_EXCLUDE, 0, NULL}
static const astar_optuse FIND_OPTS[] = {MESH_OPTS, ASTAR_OPT_END};
static const astar_optuse QUERY_OPTS[] = {MESH_OPTS, {ASTAR_OPT_ON_CHANGE, 0, NULL},
                                          ASTAR_OPT_END};

/* (x0, y0, x1, y1 [, opts]); the core query's buffers stay (reused). */
static int nm_args(lua_State *L, const afn *f, lmap *m, void *rec, const astar_optuse *use,
                   astar_opts *o) {
  nmrec *r = (nmrec *)rec;
  astar_navmesh_query *q = &r->q;
  (void)m;
  r->sx = astar_checkfinite(L, f, 2);
  r->sy = astar_checkfinite(L, f, 3);
  r->gx = astar_checkfinite(L, f, 4);
  r->gy = astar_checkfinite(L, f, 5);
  astar_readopts(L, f, 6, use, o);
  q->radius = astar_opt(o, ASTAR_OPT_RADIUS, 0);
  q->include = (uint32_t)astar_opt(o, ASTAR_OPT_INCLUDE, 4294967295.0);
  q->exclude = (uint32_t)astar_opt(o, ASTAR_OPT_EXCLUDE, 0);
  astar_params_init(&q->params);
  astar_opt_params(o, &q->params);
  q->params.algorithm = (int)astar_opt(o, ASTAR_OPT_ALGORITHM, ASTAR_ALG_ASTAR);
  if (astar_opt(o, ASTAR_OPT_HEURISTIC, 0) == 1) q->params.algorithm = ASTAR_ALG_DIJKSTRA;
  q->cost_fn = NULL;
  q->cost_ud = NULL;
  return 0;
}

/* The cost trampoline: cost(poly, next, base), 1-based; next is nil at the goal. */
static double cost_cb(void *ud, uint32_t poly, uint32_t next, double base) {
  const lcall *c = (const lcall *)ud;
  lua_State *L = c->L;
  lua_pushvalue(L, c->cost);
  lua_pushinteger(L, (lua_Integer)poly + 1);
  if (next == ASTAR_NONE) lua_pushnil(L); else lua_pushinteger(L, (lua_Integer)next + 1);
  lua_pushnumber(L, (lua_Number)base);
  lua_call(L, 3, 1);
  return astar_cbcost(L, 1, "polygon %d", (int)poly + 1);
}

static void nm_hook(void *rec, lcall *c) {
  astar_navmesh_query *q = &((nmrec *)rec)->q;
  q->cost_fn = c != NULL && c->cost ? cost_cb : NULL;
  q->cost_ud = c;
}

static int nm_begin(lmap *m, void *rec, astar_search *s) {
  nmrec *r = (nmrec *)rec;
  r->n = 0;
  return astar_navmesh_begin(((lmesh *)m)->m, s, &r->q, r->sx, r->sy, r->gx, r->gy);
}

/* Steps the search; once found, the straightened path (the cost callback
** prices it, so it runs here, under the protection of the step). */
static int nm_step(lmap *m, void *rec, astar_search *s, uint64_t budget) {
  nmrec *r = (nmrec *)rec;
  int rc = astar_navmesh_step(((lmesh *)m)->m, s, &r->q, budget);
  if (rc == ASTAR_FOUND)
    r->n = astar_navmesh_result(&r->q, s, &r->pts, &r->cost);
  else if ((rc == ASTAR_NO_PATH || rc == ASTAR_LIMIT) && r->q.params.partial)
    r->n = astar_navmesh_partial(&r->q, s, &r->pts, &r->cost);
  return r->n < 0 ? (int)r->n : rc;
}

static void nm_stats(void *rec, astar_search *s, astar_stats *st) {
  const astar_navmesh_query *q = &((nmrec *)rec)->q;
  astar_navmesh_stats(q, s, st);
}

static int nm_push(lua_State *L, void *rec, astar_search *s, int rc) {
  const nmrec *r = (const nmrec *)rec;
  const astar_navmesh_query *q = &r->q;
  const uint32_t *corr;
  size_t ncorr;
  astar_stats st;
  double *v;
  long i;
  char buf[32];
  if (rc != ASTAR_FOUND && (!q->params.partial || r->n <= 0)) return 0;
  if (r->n == 0)
    return astar_outcome(L, "no_path", "no path for radius %s: the way found is too narrow",
                         astar_fmtnum(buf, q->radius));
  nm_stats(rec, s, &st);
  v = astar_newpath(L, (size_t)r->n, ASTAR_PATH_MESH, r->cost, &st,
                    ALGORITHMS[q->params.algorithm == ASTAR_ALG_DIJKSTRA], 0);
  memcpy(v, r->pts, 2 * (size_t)r->n * sizeof(double));
  corr = astar_navmesh_corridor(q, &ncorr);
  lua_createtable(L, (int)ncorr, 0);
  for (i = 0; i < (long)ncorr; i++) {
    lua_pushinteger(L, (lua_Integer)corr[i] + 1);
    lua_rawseti(L, -2, (int)i + 1);
  }
  astar_path_setcorridor(L, -2);
  astar_path_meshlinks(L, -1, astar_navmesh_steplinks(q), (size_t)r->n);
  return 1;
}

static int nm_endname(lua_State *L, void *rec, int which) {
  const nmrec *r = (const nmrec *)rec;
  char b1[32], b2[32];
  lua_pushfstring(L, "(%s, %s)", astar_fmtnum(b1, which ? r->gx : r->sx),
                  astar_fmtnum(b2, which ? r->gy : r->sy));
  return 1;
}

static void nm_blocked(lua_State *L, void *rec) {
  static const char *const WHY[] = {"is not on the navmesh",
                                    "is on a polygon the flags exclude",
                                    "is closer than the radius to a wall"};
  const nmrec *r = (const nmrec *)rec;
  int goal = r->q.blocked != 1;
  nm_endname(L, rec, goal);
  lua_pushfstring(L, "%s %s %s", goal ? "goal" : "start", lua_tostring(L, -1),
                  WHY[r->q.blocked_why]);
  lua_remove(L, -2);
}

static uint64_t nm_version(const lmap *m) {
  return astar_navmesh_version(((const lmesh *)m)->m);
}

static void nm_recfree(void *rec) { astar_navmesh_query_free(&((nmrec *)rec)->q); }

static void nm_release(lmap *m) {
  lmesh *lm = (lmesh *)m;
  astar_navmesh_free(lm->m);
  lm->m = NULL;
}

static const astar_kind NAVMESH = {
  "navmesh", ASTAR_NAVMESH_MT, FIND_OPTS, QUERY_OPTS, sizeof(nmrec),
  nm_args, nm_hook, nm_begin, nm_step, {nm_push, nm_blocked, nm_endname}, nm_version,
  nm_stats, nm_recfree, nm_release, NULL,    /* every change restarts its searches */
  NULL                                       /* its nodes are (root, interval) pairs */
};

/***
Finds a path from `(x0, y0)` to `(x1, y1)`: its points are straight-line corners, start and
goal included; @{Path:corridor} lists the polygons it crosses; its cost is the length
inside each polygon times that polygon's cost.

When every polygon costs the same and there is no `radius` and no `cost` callback, an
exact interval search (Polyanya, Cui, Harabor and Grastien) returns the true Euclidean
shortest path. Otherwise A* runs over the portals and the funnel algorithm straightens the
corridor it finds: good paths, not guaranteed cheapest when polygon costs differ. With
`radius = r` the whole path keeps at least `r` from every wall, and passages narrower than
`2r` are never used.
@function NavMesh:find
@number x0 start
@number y0
@number x1 goal
@number y1
@tparam[opt] table opts the options; an unknown name is an error
@tparam[opt=0] number opts.radius the agent's radius: keep this far from walls (0 or more)
@tparam[opt] int opts.include use only polygons whose flags share a bit with this mask
(default: all bits)
@tparam[opt=0] int opts.exclude never use polygons whose flags share a bit with this mask
@tparam[opt] function opts.cost `function(polygon, next, base)`, called for each polygon
the search crosses: `next` is the polygon it enters (`nil` in the goal's polygon), `base`
the straight-line length inside the polygon times its cost; return a cost of at least 0,
or `false` or `nil` to forbid it
@tparam[opt="euclidean"] string opts.heuristic `"euclidean"` (times the smallest polygon
cost, so that it never overestimates) or `"zero"` (Dijkstra)
@tparam[opt="astar"] string opts.algorithm `"astar"` or `"dijkstra"`
@tparam[opt=1] number opts.weight as in @{Grid:find}
@tparam[opt] int opts.max_expansions as in @{Grid:find} (default: no limit)
@tparam[opt] number opts.max_cost as in @{Grid:find} (default: no limit)
@tparam[opt=false] boolean opts.partial when the goal cannot be reached, the path to the
reached point nearest it, as `path, message, "partial"`
@treturn[1] Path the path
@treturn[2] nil
@treturn[2] string a message, e.g. `start (3, 4) is not on the navmesh`
@treturn[2] string the code: `"blocked"` (the start or the goal is off the mesh, on an
excluded polygon or closer than `radius` to a wall), `"no_path"` or `"limit"`
@treturn[3] Path with `partial = true`, the path toward the goal
@treturn[3] string a message
@treturn[3] string `"partial"`
@usage
local mesh = astar.navmesh {
  vertices = { 0, 0,  10, 0,  10, 10,  0, 10,  20, 0,  20, 10 },
  polygons = { { 1, 2, 3, 4 }, { 2, 5, 6, 3 } },
  flags = { 1, 2 },                                -- polygon 2 is water
}
print(#assert(mesh:find(1, 1, 19, 9, { radius = 0.5 })))  --> 2
local path, message, code = mesh:find(1, 1, 19, 9, { exclude = 2 })
print(path, code)                                --> nil blocked
print(message)                   --> goal (19, 9) is on a polygon the flags exclude
*/
static int mesh_find(lua_State *L) { return astar_map_find(L, &NAVMESH); }

/***
Starts a time-sliced search: @{NavMesh:find|find}'s arguments and options, plus
`on_change`. Nothing is searched until @{Query:step}, which expands at most `n` nodes of
either search (a radius re-search included); stepped to its end, the query gives what
`find` would have returned.
@function NavMesh:query
@number x0 start
@number y0
@number x1 goal
@number y1
@tparam[opt] table opts every option of @{NavMesh:find|find}, and:
@tparam[opt="restart"] string opts.on_change what a change of the mesh's costs, flags or
links during the query does: `"restart"` (the next step starts the search again), `"stale"`
(the query ends with status `"stale"`) or `"continue"` (it goes on regardless; but a change
of links always restarts it: what the search holds is sized for them)
@treturn Query
@usage
local mesh = astar.navmesh.from_grid(astar.grid(20, 20))
local q = mesh:query(0.5, 0.5, 19.5, 19.5)
while q:step(10) == "running" do end
print(#assert(q:result()))                     --> 2
*/
static int mesh_query(lua_State *L) { return astar_map_query(L, &NAVMESH); }

/***
The polygon that contains `(x, y)` (on a shared edge, one of the two), or `nil`; found
through a bucket grid over the polygons, not a scan.
@function NavMesh:locate
@number x
@number y
@treturn int|nil
*/
static int mesh_locate(lua_State *L) {
  lmesh *lm = checkmesh(L, &F_LOCATE);
  double x = astar_checkfinite(L, &F_LOCATE, 2), y = astar_checkfinite(L, &F_LOCATE, 3);
  uint32_t p = astar_navmesh_locate(lm->m, x, y);
  if (p == ASTAR_NONE) lua_pushnil(L); else lua_pushinteger(L, (lua_Integer)p + 1);
  return 1;
}

/***
The point of the mesh closest to `(x, y)`: the point itself when it is on the mesh. For
clicks outside the mesh.
@function NavMesh:nearest
@number x
@number y
@treturn number x
@treturn number y
@treturn int its polygon
*/
static int mesh_nearest(lua_State *L) {
  lmesh *lm = checkmesh(L, &F_NEAREST);
  double x = astar_checkfinite(L, &F_NEAREST, 2), y = astar_checkfinite(L, &F_NEAREST, 3), nx, ny;
  uint32_t p = astar_navmesh_nearest(lm->m, x, y, &nx, &ny);
  lua_pushnumber(L, (lua_Number)nx);
  lua_pushnumber(L, (lua_Number)ny);
  lua_pushinteger(L, (lua_Integer)p + 1);
  return 3;
}

/***
The distance from `(x, y)` to the nearest wall (an edge no other polygon shares).
@function NavMesh:clearance
@number x
@number y
@treturn number
*/
static int mesh_clearance(lua_State *L) {
  lmesh *lm = checkmesh(L, &F_CLEAR);
  double x = astar_checkfinite(L, &F_CLEAR, 2), y = astar_checkfinite(L, &F_CLEAR, 3);
  lua_pushnumber(L, (lua_Number)astar_navmesh_clearance(lm->m, x, y));
  return 1;
}

/***
Whether the segment `(x0, y0) - (x1, y1)` stays on the mesh, on polygons the flags allow.
@function NavMesh:raycast
@number x0
@number y0
@number x1
@number y1
@tparam[opt] table opts the options:
@tparam[opt] int opts.include as in @{NavMesh:find|find} (default: all bits)
@tparam[opt=0] int opts.exclude as in @{NavMesh:find|find}
@treturn[1] boolean `true`: the whole segment is on the mesh
@treturn[2] boolean `false`
@treturn[2] number x where it leaves the mesh
@treturn[2] number y
@treturn[2] int the last polygon it crossed, or `nil` if `(x0, y0)` is off the mesh
*/
static int mesh_raycast(lua_State *L) {
  lmesh *lm = checkmesh(L, &F_RAYCAST);
  double x0 = astar_checkfinite(L, &F_RAYCAST, 2), y0 = astar_checkfinite(L, &F_RAYCAST, 3);
  double x1 = astar_checkfinite(L, &F_RAYCAST, 4), y1 = astar_checkfinite(L, &F_RAYCAST, 5), hx, hy;
  static const astar_optuse FLAG_OPTS[] = {
    {ASTAR_OPT_INCLUDE, 0, NULL}, {ASTAR_OPT_EXCLUDE, 0, NULL}, ASTAR_OPT_END
  };
  astar_opts o;
  uint32_t hp, inc, exc;
  int rc;
  astar_readopts(L, &F_RAYCAST, 6, FLAG_OPTS, &o);
  inc = (uint32_t)astar_opt(&o, ASTAR_OPT_INCLUDE, 4294967295.0);
  exc = (uint32_t)astar_opt(&o, ASTAR_OPT_EXCLUDE, 0);
  rc = astar_navmesh_raycast(lm->m, x0, y0, x1, y1, inc, exc, &hx, &hy, &hp);
  if (rc == 1) { lua_pushboolean(L, 1); return 1; }
  lua_pushboolean(L, 0);
  if (rc < 0) {
    lua_pushnumber(L, (lua_Number)x0);
    lua_pushnumber(L, (lua_Number)y0);
    lua_pushnil(L);
    return 4;
  }
  lua_pushnumber(L, (lua_Number)hx);
  lua_pushnumber(L, (lua_Number)hy);
  lua_pushinteger(L, (lua_Integer)hp + 1);
  return 4;
}

/***
Sets the cost of walking inside polygon `p`: a multiplier of the distance, a number > 0.
To close a polygon, clear its flags (`set_flags(p, 0)`).
@function NavMesh:set_cost
@int p
@number cost
*/
static int mesh_set_cost(lua_State *L) {
  lmesh *lm = checkmesh(L, &F_SETCOST);
  uint32_t p = checkpoly(L, &F_SETCOST, 2, lm);
  double c = astar_checknumber(L, &F_SETCOST, 3);
  char buf[32];
  astar_checkbig(L, &F_SETCOST, 3, "cost", c);
  if (!(c > 0 && c < HUGE_VAL))
    astar_argerror(L, &F_SETCOST, 3, "cost must be a positive finite number, got %s (close a "
                   "polygon with set_flags(p, 0))", astar_fmtnum(buf, c));
  astar_map_idle(L, &lm->map, "edit");
  astar_navmesh_set_cost(lm->m, p, c);
  return 0;
}

/***
The cost of polygon `p`.
@function NavMesh:cost
@int p
@treturn number
*/
static int mesh_cost(lua_State *L) {
  lmesh *lm = checkmesh(L, &F_COST);
  lua_pushnumber(L, (lua_Number)astar_navmesh_cost(lm->m, checkpoly(L, &F_COST, 2, lm)));
  return 1;
}

/***
Sets polygon `p`'s flags, 32 bits (default 1). A search uses a polygon when
`flags & include ~= 0` and `flags & exclude == 0`: flags 0 close it (a locked door).
@function NavMesh:set_flags
@int p
@int flags an integer in `[0, 2^32 - 1]`
*/
static int mesh_set_flags(lua_State *L) {
  lmesh *lm = checkmesh(L, &F_SETFLAGS);
  uint32_t p = checkpoly(L, &F_SETFLAGS, 2, lm), fl;
  lua_settop(L, 3);
  fl = toflags(L, &F_SETFLAGS, 3);
  astar_map_idle(L, &lm->map, "edit");
  astar_navmesh_set_flags(lm->m, p, fl);
  return 0;
}

/***
Polygon `p`'s flags.
@function NavMesh:flags
@int p
@treturn int
*/
static int mesh_flags(lua_State *L) {
  lmesh *lm = checkmesh(L, &F_FLAGS);
  uint32_t fl = astar_navmesh_flags(lm->m, checkpoly(L, &F_FLAGS, 2, lm));
  /* 32-bit LuaJIT (LOVE for 32-bit Windows) has a 32-bit lua_Integer: 2^32 - 1 would be -1 */
  if (sizeof(lua_Integer) > sizeof fl) lua_pushinteger(L, (lua_Integer)fl);
  else lua_pushnumber(L, (lua_Number)fl);
  return 1;
}

/***
Every polygon as a list of vertex indices into @{NavMesh:vertices|vertices}`()`,
counter-clockwise (x right, y up): `{{1, 2, 3}, ...}`.
@function NavMesh:polygons
@treturn table
*/
static int mesh_polygons(lua_State *L) {
  lmesh *lm = checkmesh(L, &F_POLYS);
  uint32_t np = astar_navmesh_npolygons(lm->m), p, n, i;
  lua_createtable(L, (int)np, 0);
  for (p = 0; p < np; p++) {
    const uint32_t *v;
    astar_map_alive(L, &lm->map);                    /* a finalizer may have closed it */
    astar_navmesh_polygon(lm->m, p, &n);
    lua_createtable(L, (int)n, 0);
    astar_map_alive(L, &lm->map);
    v = astar_navmesh_polygon(lm->m, p, &n);
    for (i = 0; i < n; i++) {
      lua_pushinteger(L, (lua_Integer)v[i] + 1);
      lua_rawseti(L, -2, (int)i + 1);
    }
    lua_rawseti(L, -2, (int)p + 1);
  }
  return 1;
}

/***
Polygon `p`'s corners as a flat list `{x1, y1, x2, y2, ...}`, what
`love.graphics.polygon("line", ...)` takes.
@function NavMesh:polygon
@int p
@treturn table
*/
static int mesh_polygon(lua_State *L) {
  lmesh *lm = checkmesh(L, &F_POLY);
  uint32_t p = checkpoly(L, &F_POLY, 2, lm), n, i;
  const uint32_t *v;
  const double *xy;
  astar_navmesh_polygon(lm->m, p, &n);
  lua_createtable(L, (int)(2 * n), 0);
  astar_map_alive(L, &lm->map);                      /* a finalizer may have closed it */
  v = astar_navmesh_polygon(lm->m, p, &n);
  xy = astar_navmesh_xy(lm->m);
  for (i = 0; i < n; i++) {
    lua_pushnumber(L, (lua_Number)xy[2 * (size_t)v[i]]);
    lua_rawseti(L, -2, (int)(2 * i + 1));
    lua_pushnumber(L, (lua_Number)xy[2 * (size_t)v[i] + 1]);
    lua_rawseti(L, -2, (int)(2 * i + 2));
  }
  return 1;
}

/***
The vertices as a flat list `{x1, y1, x2, y2, ...}` (points with identical
coordinates in the input are one vertex here).
@function NavMesh:vertices
@treturn table
*/
static int mesh_vertices(lua_State *L) {
  lmesh *lm = checkmesh(L, &F_VERTS);
  uint32_t nv = astar_navmesh_nvertices(lm->m), i;
  const double *xy;
  lua_createtable(L, (int)(2 * nv), 0);
  astar_map_alive(L, &lm->map);                      /* a finalizer may have closed it */
  xy = astar_navmesh_xy(lm->m);
  for (i = 0; i < 2 * nv; i++) {
    lua_pushnumber(L, (lua_Number)xy[i]);
    lua_rawseti(L, -2, (int)i + 1);
  }
  return 1;
}

/***
Polygon `p`'s neighbours, one per edge (edge `i` joins its vertices `i` and `i + 1`): a
polygon index, or `false` for a wall.
@function NavMesh:neighbours
@int p
@treturn table
*/
static int mesh_neighbours(lua_State *L) {
  lmesh *lm = checkmesh(L, &F_NEIGH);
  uint32_t p = checkpoly(L, &F_NEIGH, 2, lm), n, i;
  const uint32_t *nb;
  astar_navmesh_neighbours(lm->m, p, &n);
  lua_createtable(L, (int)n, 0);
  astar_map_alive(L, &lm->map);                      /* a finalizer may have closed it */
  nb = astar_navmesh_neighbours(lm->m, p, &n);
  for (i = 0; i < n; i++) {
    if (nb[i] == ASTAR_NONE) lua_pushboolean(L, 0);
    else lua_pushinteger(L, (lua_Integer)nb[i] + 1);
    lua_rawseti(L, -2, (int)i + 1);
  }
  return 1;
}

/***
Sizes and bounds: `{polygons =, vertices =, portals =, allocs =, x0 =, y0 =, x1 =, y1 =}`,
`allocs` counting the allocator calls of the mesh and its searches, and `x0, y0, x1, y1`
the bounding box.
@function NavMesh:stats
@treturn table
*/
static int mesh_stats(lua_State *L) {
  lmesh *lm = checkmesh(L, &F_STATS);
  double box[4];
  size_t counts[3];
  size_t allocs = astar_navmesh_allocs(lm->m) +
                  astar_navmesh_query_allocs(&((nmrec *)lm->map.rec)->q);
  if (lm->map.s != NULL) {
    astar_stats st;
    astar_search_stats(lm->map.s, &st);
    allocs += st.allocs;
  }
  astar_navmesh_bounds(lm->m, box);
  counts[0] = astar_navmesh_npolygons(lm->m);        /* all read before allocating */
  counts[1] = astar_navmesh_nvertices(lm->m);
  counts[2] = astar_navmesh_nportals(lm->m);
  lua_createtable(L, 0, 8);
  lua_pushinteger(L, (lua_Integer)counts[0]);
  lua_setfield(L, -2, "polygons");
  lua_pushinteger(L, (lua_Integer)counts[1]);
  lua_setfield(L, -2, "vertices");
  lua_pushinteger(L, (lua_Integer)counts[2]);
  lua_setfield(L, -2, "portals");
  lua_pushinteger(L, (lua_Integer)allocs);
  lua_setfield(L, -2, "allocs");
  lua_pushnumber(L, (lua_Number)box[0]); lua_setfield(L, -2, "x0");
  lua_pushnumber(L, (lua_Number)box[1]); lua_setfield(L, -2, "y0");
  lua_pushnumber(L, (lua_Number)box[2]); lua_setfield(L, -2, "x1");
  lua_pushnumber(L, (lua_Number)box[3]); lua_setfield(L, -2, "y1");
  return 1;
}

static const luaL_Reg navMesh_methods[] = {
  {"find", mesh_find},
  {"query", mesh_query},
  {"locate", mesh_locate},
  {"nearest", mesh_nearest},
  {"clearance", mesh_clearance},
  {"raycast", mesh_raycast},
  {"set_cost", mesh_set_cost},
  {"cost", mesh_cost},
  {"set_flags", mesh_set_flags},
  {"flags", mesh_flags},
  {"polygons", mesh_polygons},
  {"polygon", mesh_polygon},
  {"vertices", mesh_vertices},
  {"neighbours", mesh_neighbours},
  {"stats", mesh_stats},
  {"close", mesh_close},
  {NULL, NULL}
};

static const luaL_Reg mesh_meta[] = {
  {"__gc", astar_map_gc},
  {"__close", mesh_close},
  {"__tostring", mesh_tostring},
  {NULL, NULL}
};

static const luaL_Reg mesh_funcs[] = {
  {"navmesh_new", mesh_new},
  {"navmesh_from_grid", mesh_from_grid},
  {NULL, NULL}
};

void astar_navmesh_open(lua_State *L) {
  astar_newclass(L, ASTAR_NAVMESH_MT, "NavMesh", mesh_meta, navMesh_methods);
  luaL_setfuncs(L, mesh_funcs, 0);
}
