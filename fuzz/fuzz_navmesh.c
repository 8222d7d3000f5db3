/*
** fuzz_navmesh.c - libFuzzer harness for navigation meshes: the three
** builders (astar.navmesh{vertices =, polygons =, costs =},
** astar.navmesh.from_polygons(outline, holes) and astar.navmesh.from_grid)
** on descriptions decoded from the input, then mesh:find, raycast, locate,
** nearest and clearance between points decoded from the rest.
**
** Input: byte 0 chooses the builder (mod 3); build_list, build_polygons and
** build_grid say how they read what follows; the remaining bytes are up to
** MAXQ queries (query()).
**
** The library refusing a description with its own message is fine; so are
** "blocked", "no_path" and "limit" answers where the checks below allow them.
** Findings (abort): crashes and sanitizer reports; errors that are not the
** library's own messages (fuzz_lua.c); from_polygons handing the core a mesh
** it refuses ("navmesh: ..."), or polygons whose areas do not add up to the
** outline's less the holes'; from_grid refusing a grid with a walkable cell;
** an error from a query with valid arguments; a path that does not join the
** query points, has a segment raycast refuses, costs less than the straight
** line or whose corridor names no polygon; "blocked" when both ends are
** located (radius 0) or an answer when one is not; the exact search (one
** cost, no radius) giving a different answer backwards; on from_grid meshes,
** "no_path" exactly when the grid's no-corner-cutting Dijkstra finds none,
** and with one cost never longer than its path; raycast answering
** differently backwards or leaving off the segment; locate naming a polygon
** that does not hold the point, or nil for a point well inside one; nearest
** not giving the point itself on the mesh, or a point of its polygon no
** farther than the nearest vertex; the Lua stack left unbalanced.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"


#define MAXQ 8
#define MAXPTS 64

/* What the harness knows of the mesh at slot 'mesh': its polygons as
** fetched back (for containment checks), its extent and its costs. */
typedef struct scene {
  int mesh;
  double unit;               /* the input's lattice step */
  double x0, y0, x1, y1;     /* bounding box of the input's points */
  double mincost;
  int uniform;               /* one cost everywhere */
  int np, *start;            /* polygon p's points: xy[2 * start[p] ...] */
  double *xy;
  fz_grid grid;              /* from_grid: the grid, tile 'unit' */
  int fromgrid;
  int links;                 /* links made (both ways): find's checks allow for them */
} scene;

static double dist2(double ax, double ay, double bx, double by) {
  return (ax - bx) * (ax - bx) + (ay - by) * (ay - by);
}

static double extent(const scene *sc) {
  double w = sc->x1 - sc->x0, h = sc->y1 - sc->y0;
  return w > h ? w : h;
}

/* Twice the signed area of the ring xy[0 .. 2n). */
static double area2(const double *xy, int n) {
  double a = 0;
  int i;
  for (i = 0; i < n; i++) {
    int j = (i + 1) % n;
    a += xy[2 * i] * xy[2 * j + 1] - xy[2 * j] * xy[2 * i + 1];
  }
  return a;
}

/* Is (x, y) within 'tol' of convex polygon p (tol < 0: inside by -tol)? */
static int inpoly(const scene *sc, int p, double x, double y, double tol) {
  const double *v = sc->xy + 2 * sc->start[p];
  int n = sc->start[p + 1] - sc->start[p], i;
  double orient = area2(v, n) > 0 ? 1 : -1;
  for (i = 0; i < n; i++) {
    int j = (i + 1) % n;
    double ex = v[2 * j] - v[2 * i], ey = v[2 * j + 1] - v[2 * i + 1];
    double len = sqrt(ex * ex + ey * ey);
    double cross = ex * (y - v[2 * i + 1]) - ey * (x - v[2 * i]);
    if (len > 0 && orient * cross / len < -tol) return 0;
  }
  return 1;
}

/* Pushes a Lua list of the n numbers v. */
static void pushlist(const double *v, int n) {
  int i;
  lua_createtable(fz_L, n, 0);
  for (i = 0; i < n; i++) {
    lua_pushnumber(fz_L, v[i]);
    lua_rawseti(fz_L, -2, i + 1);
  }
}

static void bounds(scene *sc, const double *xy, int n) {
  int i;
  for (i = 0; i < n; i++) {
    double x = xy[2 * i], y = xy[2 * i + 1];
    if (i == 0 || x < sc->x0) sc->x0 = x;
    if (i == 0 || x > sc->x1) sc->x1 = x;
    if (i == 0 || y < sc->y0) sc->y0 = y;
    if (i == 0 || y > sc->y1) sc->y1 = y;
  }
}

/* The mesh's polygons into sc (mesh:polygons() and mesh:vertices()). */
static void fetch(scene *sc) {
  int p, k = 0, total = 0, verts;
  fz_method(fz_L, sc->mesh, "vertices");
  fz_pcall(fz_L, 1, 1);
  verts = lua_gettop(fz_L);
  fz_method(fz_L, sc->mesh, "polygons");
  fz_pcall(fz_L, 1, 1);                                 /* verts polys */
  sc->np = (int)lua_rawlen(fz_L, -1);
  for (p = 1; p <= sc->np; p++) {
    lua_rawgeti(fz_L, -1, p);
    total += (int)lua_rawlen(fz_L, -1);
    lua_pop(fz_L, 1);
  }
  sc->start = malloc((size_t)(sc->np + 1) * sizeof *sc->start);
  sc->xy = malloc((size_t)(2 * total + 1) * sizeof *sc->xy);
  if (sc->start == NULL || sc->xy == NULL) fz_fail("out of memory");
  for (p = 1; p <= sc->np; p++) {
    int i, n;
    lua_rawgeti(fz_L, -1, p);
    n = (int)lua_rawlen(fz_L, -1);
    sc->start[p - 1] = k;
    for (i = 1; i <= n; i++, k++) {
      lua_rawgeti(fz_L, -1, i);
      lua_rawgeti(fz_L, verts, 2 * lua_tointeger(fz_L, -1) - 1);
      lua_rawgeti(fz_L, verts, 2 * lua_tointeger(fz_L, -2));
      sc->xy[2 * k] = lua_tonumber(fz_L, -2);
      sc->xy[2 * k + 1] = lua_tonumber(fz_L, -1);
      lua_pop(fz_L, 3);
    }
    lua_pop(fz_L, 1);
  }
  sc->start[sc->np] = k;
  lua_pop(fz_L, 2);
}

/* ---------------------------------------------------------------------- */
/* Builders: each pushes a mesh and returns 1, or returns 0 (refused)       */
/* ---------------------------------------------------------------------- */

static double scaleof(unsigned b) {
  static const double scales[4] = {1, 0.125, 1000, 3e-6};
  return scales[b & 3];
}

/* astar.navmesh{...}: byte: scale and vertex count (3 .. 34), one byte a
** vertex (a 16x16 lattice), a byte of polygon count (1 .. 12), per polygon
** its size (3 .. 8) and indices (1 .. nv + 1), a byte asking for costs. */
static int build_list(scene *sc, fz_bytes *in) {
  double xy[2 * 40], costs[12];
  unsigned b = fz_byte(in);
  int nv = 3 + (int)(b >> 2) % 32, np = 1 + (int)fz_byte(in) % 12, i, p, c;
  sc->unit = scaleof(b);
  for (i = 0; i < nv; i++) {
    unsigned v = fz_byte(in);
    xy[2 * i] = (v & 15) * sc->unit;
    xy[2 * i + 1] = (v >> 4) * sc->unit;
  }
  bounds(sc, xy, nv);
  fz_getlib(fz_L, "navmesh");
  lua_createtable(fz_L, 0, 3);
  pushlist(xy, 2 * nv);
  lua_setfield(fz_L, -2, "vertices");
  lua_createtable(fz_L, np, 0);
  for (p = 1; p <= np; p++) {
    int k = 3 + (int)fz_byte(in) % 6;
    lua_createtable(fz_L, k, 0);
    for (i = 1; i <= k; i++) {
      lua_pushinteger(fz_L, 1 + (int)(fz_byte(in) % (unsigned)(nv + 1)));
      lua_rawseti(fz_L, -2, i);
    }
    lua_rawseti(fz_L, -2, p);
  }
  lua_setfield(fz_L, -2, "polygons");
  c = (int)fz_byte(in) & 1;
  sc->mincost = c ? HUGE_VAL : 1;
  for (p = 0; c && p < np; p++) {
    costs[p] = 0.5 + fz_byte(in) / 64.0;
    if (costs[p] < sc->mincost) sc->mincost = costs[p];
    if (costs[p] != costs[0]) sc->uniform = 0;
  }
  if (c) {
    pushlist(costs, np);
    lua_setfield(fz_L, -2, "costs");
  }
  if (fz_pcall(fz_L, 1, 1) == LUA_OK) return 1;
  lua_pop(fz_L, 1);
  return 0;
}

/* A ring: a byte of points (3 .. max + 2), two bytes a point (256x256). */
static int ring(fz_bytes *in, double unit, int max, double *xy) {
  int n = 3 + (int)fz_byte(in) % max, i;
  for (i = 0; i < 2 * n; i++) xy[i] = fz_byte(in) * unit;
  return n;
}

/* Was the error on top from_polygons refusing its input (fine), or the core
** refusing what from_polygons made of it (a finding)? */
static void check_refusal(void) {
  const char *msg = lua_tostring(fz_L, -1);
  if (strncmp(msg, "bad argument #1 to 'from_polygons' (", 36) != 0 &&
      strncmp(msg, "bad argument #2 to 'from_polygons' (", 36) != 0 &&
      strncmp(msg, "from_polygons: triangulation failed", 35) != 0)
    fz_fail("from_polygons made a mesh the core refuses: %s", msg);
}

/* The mesh's area must be the outline's less the holes'. */
static void check_area(const scene *sc, double want) {
  double got = 0;
  int p;
  for (p = 0; p < sc->np; p++)
    got += fabs(area2(sc->xy + 2 * sc->start[p], sc->start[p + 1] - sc->start[p])) / 2;
  if (fabs(got - want) > 1e-9 * extent(sc) * extent(sc) * 64)
    fz_fail("from_polygons: the polygons cover %.17g, the outline less the holes %.17g", got,
            want);
}

/* astar.navmesh.from_polygons(outline, holes): byte: scale; the outline
** (3 .. 26 points), a byte of holes (0 .. 3), the holes (3 .. 12 points). */
static int build_polygons(scene *sc, fz_bytes *in) {
  double xy[2 * MAXPTS], want;
  int n, nh, h;
  sc->unit = scaleof(fz_byte(in));
  n = ring(in, sc->unit, 24, xy);
  bounds(sc, xy, n);
  want = fabs(area2(xy, n)) / 2;
  fz_getlib(fz_L, "navmesh.from_polygons");
  pushlist(xy, 2 * n);
  nh = (int)fz_byte(in) % 4;
  lua_createtable(fz_L, nh, 0);
  for (h = 1; h <= nh; h++) {
    n = ring(in, sc->unit, 10, xy);
    want -= fabs(area2(xy, n)) / 2;
    pushlist(xy, 2 * n);
    lua_rawseti(fz_L, -2, h);
  }
  if (fz_pcall(fz_L, 2, 1) != LUA_OK) {
    check_refusal();
    lua_pop(fz_L, 1);
    return 0;
  }
  sc->mesh = lua_gettop(fz_L);
  fetch(sc);
  check_area(sc, want);
  return 1;
}

/* Pushes astar.grid.parse(text) with '#' blocked and '1', '3', '5' costs. */
static void push_grid(const char *text, size_t len) {
  int i;
  fz_getlib(fz_L, "grid.parse");
  lua_pushlstring(fz_L, text, len);
  lua_createtable(fz_L, 0, 4);
  lua_pushboolean(fz_L, 0);
  lua_setfield(fz_L, -2, "#");
  for (i = 1; i <= 5; i += 2) {
    char key[2] = {(char)('0' + i), '\0'};
    lua_pushinteger(fz_L, i);
    lua_setfield(fz_L, -2, key);
  }
  fz_pcall(fz_L, 2, 1);
}

/* astar.navmesh.from_grid: byte: width (1 .. 12) and costs; byte: height
** and tile; one byte a cell (below 80: blocked). */
static int build_grid(scene *sc, fz_bytes *in) {
  static const double tiles[4] = {1, 0.5, 3, 1e-3};
  char text[12 * 13];
  unsigned a = fz_byte(in), b = fz_byte(in);
  int i, k = 0, costs = (a >> 4) & 1, open = 0, st;
  fz_grid *g = &sc->grid;
  g->w = 1 + (int)(a & 15) % 12;
  g->h = 1 + (int)(b & 15) % 12;
  sc->unit = tiles[(b >> 4) & 3];
  g->cell = malloc((size_t)(g->w * g->h) * sizeof *g->cell);
  if (g->cell == NULL) fz_fail("out of memory");
  sc->fromgrid = 1;
  for (i = 0; i < g->w * g->h; i++) {
    unsigned c = fz_byte(in);
    g->cell[i] = c < 80 ? 0 : costs ? (double)(1 + c % 3 * 2) : 1;   /* 1, 3, 5 */
    open += g->cell[i] > 0;
    if (g->cell[i] > 0 && g->cell[i] != 1) sc->uniform = 0;
    text[k++] = g->cell[i] > 0 ? (char)('0' + (int)g->cell[i]) : '#';
    if ((i + 1) % g->w == 0 && i + 1 < g->w * g->h) text[k++] = '\n';
  }
  sc->x0 = sc->y0 = 0;
  sc->x1 = g->w * sc->unit;
  sc->y1 = g->h * sc->unit;
  fz_getlib(fz_L, "navmesh.from_grid");
  push_grid(text, (size_t)k);                        /* from_grid grid */
  lua_createtable(fz_L, 0, 1);
  lua_pushnumber(fz_L, sc->unit);
  lua_setfield(fz_L, -2, "tile");
  st = fz_pcall(fz_L, 2, 1);
  if ((st == LUA_OK) != (open > 0))
    fz_fail("from_grid on a grid with %d walkable cells: %s", open,
            st ? lua_tostring(fz_L, -1) : "accepted");
  if (st == LUA_OK) return 1;
  lua_pop(fz_L, 1);
  return 0;
}

/* ---------------------------------------------------------------------- */
/* Queries                                                                  */
/* ---------------------------------------------------------------------- */

/* A point from two bytes: inside the bounding box grown by a tenth on each
** side; on from_grid meshes, a cell's centre. */
static void pointof(const scene *sc, fz_bytes *in, double *x, double *y) {
  unsigned a = fz_byte(in), b = fz_byte(in);
  if (sc->fromgrid) {
    const fz_grid *g = &sc->grid;
    int c = (int)((a | b << 8) % (unsigned)(g->w * g->h));
    *x = (c % g->w + 0.5) * sc->unit;
    *y = (c / g->w + 0.5) * sc->unit;
    return;
  }
  *x = sc->x0 + (sc->x1 - sc->x0) * (a / 212.5 - 0.1);
  *y = sc->y0 + (sc->y1 - sc->y0) * (b / 212.5 - 0.1);
}

/* Calls method 'name' of the mesh with (x, y [, x1, y1]); no error allowed. */
static void call(const scene *sc, const char *name, const double *pt, int n, int nres) {
  int i;
  fz_method(fz_L, sc->mesh, name);
  for (i = 0; i < n; i++) lua_pushnumber(fz_L, pt[i]);
  if (fz_pcall(fz_L, n + 1, nres) != LUA_OK)
    fz_fail("%s(%g, %g, ...): %s", name, pt[0], pt[1], lua_tostring(fz_L, -1));
}

/* The polygon locate gives for (x, y): 0-based, or -1. */
static int locate(const scene *sc, double x, double y) {
  double pt[2] = {x, y};
  int p;
  call(sc, "locate", pt, 2, 1);
  p = lua_isnil(fz_L, -1) ? -1 : (int)lua_tointeger(fz_L, -1) - 1;
  lua_pop(fz_L, 1);
  return p;
}

/* locate, nearest and clearance at one point. */
static void probe(const scene *sc, double x, double y) {
  double tol = 1e-9 * extent(sc), pt[2] = {x, y}, nx, ny, best = HUGE_VAL;
  int p = locate(sc, x, y), q, i;
  if (p >= sc->np) fz_fail("locate(%g, %g) gives polygon %d of %d", x, y, p + 1, sc->np);
  if (p >= 0 && !inpoly(sc, p, x, y, tol))
    fz_fail("locate(%.17g, %.17g) gives polygon %d, which does not hold it", x, y, p + 1);
  for (i = 0; p < 0 && i < sc->np; i++)
    if (inpoly(sc, i, x, y, -1e-6 * extent(sc)))
      fz_fail("locate(%.17g, %.17g) gives nil, the point is inside polygon %d", x, y, i + 1);
  call(sc, "nearest", pt, 2, 3);
  nx = lua_tonumber(fz_L, -3);
  ny = lua_tonumber(fz_L, -2);
  q = (int)lua_tointeger(fz_L, -1) - 1;
  lua_pop(fz_L, 3);
  if (q < 0 || q >= sc->np || !inpoly(sc, q, nx, ny, 1e-6 * extent(sc)))
    fz_fail("nearest(%.17g, %.17g) gives (%.17g, %.17g) in polygon %d, not in it", x, y, nx,
            ny, q + 1);
  for (i = 0; i < sc->start[sc->np]; i++)
    if (dist2(x, y, sc->xy[2 * i], sc->xy[2 * i + 1]) < best)
      best = dist2(x, y, sc->xy[2 * i], sc->xy[2 * i + 1]);
  if (p >= 0 ? sqrt(dist2(x, y, nx, ny)) > 1e-6 * extent(sc)
             : sqrt(dist2(x, y, nx, ny)) > sqrt(best) + 1e-6 * extent(sc))
    fz_fail("nearest(%.17g, %.17g) gives (%.17g, %.17g), too far (located: %d)", x, y, nx, ny,
            p + 1);
  call(sc, "clearance", pt, 2, 1);
  if (!(lua_tonumber(fz_L, -1) >= 0)) fz_fail("clearance(%g, %g) is %g", x, y, lua_tonumber(fz_L, -1));
  lua_pop(fz_L, 1);
}

/* Distance from (px, py) to the segment a-b. */
static double segdist(double px, double py, double ax, double ay, double bx, double by) {
  double dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy, t = 0;
  if (len2 > 0) t = ((px - ax) * dx + (py - ay) * dy) / len2;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  return sqrt(dist2(px, py, ax + t * dx, ay + t * dy));
}

/* raycast(a, b): true, or false and a point of the segment; the same answer
** from b to a. Returns the answer. */
static int raycast(const scene *sc, const double *seg) {
  double back[4] = {seg[2], seg[3], seg[0], seg[1]};
  int fwd, bwd;
  call(sc, "raycast", seg, 4, 3);
  fwd = lua_toboolean(fz_L, -3);
  if (!fwd && lua_type(fz_L, -2) == LUA_TNUMBER &&
      segdist(lua_tonumber(fz_L, -2), lua_tonumber(fz_L, -1), seg[0], seg[1], seg[2], seg[3]) >
      1e-6 * extent(sc))
    fz_fail("raycast(%.17g, %.17g, %.17g, %.17g) leaves at (%.17g, %.17g), off the segment",
            seg[0], seg[1], seg[2], seg[3], lua_tonumber(fz_L, -2), lua_tonumber(fz_L, -1));
  lua_pop(fz_L, 3);
  call(sc, "raycast", back, 4, 1);
  bwd = lua_toboolean(fz_L, -1);
  lua_pop(fz_L, 1);
  if (fwd != bwd) fz_fail("raycast(%.17g, %.17g, %.17g, %.17g) is %d, backwards %d", seg[0],
                          seg[1], seg[2], seg[3], fwd, bwd);
  return fwd;
}

/* Options of one find. */
typedef struct fopts {
  double radius;
  int dijkstra, zero, partial, max_exp;
} fopts;

static void decode_fopts(const scene *sc, fz_bytes *in, fopts *o) {
  unsigned b = fz_byte(in);
  o->radius = ((b >> 2) & 3) == 2 ? 0.05 * sc->unit : ((b >> 2) & 3) == 3 ? 0.3 * sc->unit : 0;
  o->dijkstra = (b >> 4) & 1;
  o->zero = (b >> 5) & 1;
  o->partial = (b >> 6) & 1;
  o->max_exp = (b >> 7) & 1 ? (int)fz_byte(in) : -1;
}

/* mesh:find(seg, o): leaves path, message, code on the stack. */
static void find(const scene *sc, const double *seg, const fopts *o) {
  int i;
  fz_method(fz_L, sc->mesh, "find");
  for (i = 0; i < 4; i++) lua_pushnumber(fz_L, seg[i]);
  lua_createtable(fz_L, 0, 5);
  if (o->radius > 0) {
    lua_pushnumber(fz_L, o->radius);
    lua_setfield(fz_L, -2, "radius");
  }
  lua_pushstring(fz_L, o->dijkstra ? "dijkstra" : "astar");
  lua_setfield(fz_L, -2, "algorithm");
  lua_pushstring(fz_L, o->zero ? "zero" : "euclidean");
  lua_setfield(fz_L, -2, "heuristic");
  lua_pushboolean(fz_L, o->partial);
  lua_setfield(fz_L, -2, "partial");
  if (o->max_exp >= 0) {
    lua_pushinteger(fz_L, o->max_exp);
    lua_setfield(fz_L, -2, "max_expansions");
  }
  if (fz_pcall(fz_L, 6, 3) != LUA_OK)
    fz_fail("find(%.17g, %.17g, %.17g, %.17g): %s", seg[0], seg[1], seg[2], seg[3],
            lua_tostring(fz_L, -1));
}

/* The corridor of the path at 'path': polygon ids of the mesh. */
static void check_corridor(const scene *sc, int path) {
  int i, n;
  fz_method(fz_L, path, "corridor");
  fz_pcall(fz_L, 1, 1);
  n = (int)lua_rawlen(fz_L, -1);
  for (i = 1; i <= n; i++) {
    lua_Integer p;
    lua_rawgeti(fz_L, -1, i);
    p = lua_tointeger(fz_L, -1);
    lua_pop(fz_L, 1);
    if (p < 1 || p > sc->np) fz_fail("corridor item %d is %d, not a polygon", i, (int)p);
  }
  lua_pop(fz_L, 1);
}

/* Does step i of the path at 'path' take a link (path:link(i) > 0)? */
static int linkstep(int path, int i) {
  double c;
  fz_method(fz_L, path, "link");
  lua_pushinteger(fz_L, i);
  fz_pcall(fz_L, 2, 1);
  if (lua_isnil(fz_L, -1)) { lua_pop(fz_L, 1); return 0; }
  c = lua_tonumber(fz_L, -1);
  lua_pop(fz_L, 1);
  if (!(c > 0)) fz_fail("path:link(%d) is %.17g", i, c);
  return 1;
}

/* mesh:link between two points: made when both are on the mesh and differ,
** else refused with an argument error. Links go both ways, so a path and
** its reverse still cost the same. */
static void query_link(scene *sc, fz_bytes *in) {
  double pt[5];
  int on, ok;
  pointof(sc, in, &pt[0], &pt[1]);
  pointof(sc, in, &pt[2], &pt[3]);
  pt[4] = 0.25 * sc->unit * (1 + fz_byte(in) % 64);
  on = locate(sc, pt[0], pt[1]) >= 0 && locate(sc, pt[2], pt[3]) >= 0 &&
       (pt[0] != pt[2] || pt[1] != pt[3]);
  fz_method(fz_L, sc->mesh, "link");
  lua_pushnumber(fz_L, pt[0]); lua_pushnumber(fz_L, pt[1]);
  lua_pushnumber(fz_L, pt[2]); lua_pushnumber(fz_L, pt[3]); lua_pushnumber(fz_L, pt[4]);
  ok = fz_pcall(fz_L, 6, 0) == LUA_OK;
  if (ok != on)
    fz_fail("link(%.17g, %.17g, %.17g, %.17g): %s", pt[0], pt[1], pt[2], pt[3],
            ok ? "made off the mesh" : lua_tostring(fz_L, -1));
  if (!ok) {
    if (strstr(lua_tostring(fz_L, -1), "bad argument") == NULL) fz_fail("link: %s", lua_tostring(fz_L, -1));
    lua_pop(fz_L, 1);
  }
  sc->links += ok;
}

/* The path at 'path' joins seg's ends (the goal unless partial), each of its
** segments passes raycast, it costs at least the straight line. Returns its
** cost. */
static double check_path(const scene *sc, int path, const double *seg, int partial) {
  double cost, tol = 1e-9 * extent(sc), *pts;
  int n, i;
  fz_method(fz_L, path, "cost");
  fz_pcall(fz_L, 1, 1);
  cost = lua_tonumber(fz_L, -1);
  fz_method(fz_L, path, "flat");
  fz_pcall(fz_L, 1, 1);                                 /* cost flat */
  n = (int)lua_rawlen(fz_L, -1) / 2;
  pts = malloc((size_t)(2 * n + 1) * sizeof *pts);
  if (pts == NULL) fz_fail("out of memory");
  for (i = 0; i < 2 * n; i++) {
    lua_rawgeti(fz_L, -1, i + 1);
    pts[i] = lua_tonumber(fz_L, -1);
    lua_pop(fz_L, 1);
  }
  lua_pop(fz_L, 2);
  if (n < 1 || sqrt(dist2(pts[0], pts[1], seg[0], seg[1])) > tol ||
      (!partial && sqrt(dist2(pts[2 * n - 2], pts[2 * n - 1], seg[2], seg[3])) > tol))
    fz_fail("the path of %d points does not join (%.17g, %.17g) to (%.17g, %.17g)", n, seg[0],
            seg[1], seg[2], seg[3]);
  for (i = 0; i + 1 < n; i++)
    if (!linkstep(path, i + 1) && !raycast(sc, pts + 2 * i))
      fz_fail("segment %d of the path, (%.17g, %.17g) -> (%.17g, %.17g), leaves the mesh",
              i + 1, pts[2 * i], pts[2 * i + 1], pts[2 * i + 2], pts[2 * i + 3]);
  if (!partial && sc->links == 0 &&
      cost < sc->mincost * sqrt(dist2(seg[0], seg[1], seg[2], seg[3])) - tol)
    fz_fail("the path costs %.17g, less than the straight line", cost);
  free(pts);
  check_corridor(sc, path);
  return cost;
}

/* On from_grid meshes, between two cell centres: the grid's reference. */
static void check_grid(const scene *sc, const double *seg, int found, double cost) {
  const fz_grid *g = &sc->grid;
  int s = (int)(seg[1] / sc->unit) * g->w + (int)(seg[0] / sc->unit);
  int t = (int)(seg[3] / sc->unit) * g->w + (int)(seg[2] / sc->unit);
  double *dist = malloc((size_t)(g->w * g->h) * sizeof *dist), best;
  if (dist == NULL) fz_fail("out of memory");
  fz_dijkstra(g, s % g->w, s / g->w, FZ_NOCUT, dist);
  best = dist[t] * sc->unit;
  free(dist);
  if (g->cell[s] <= 0 || g->cell[t] <= 0) return;
  if (found != (best < HUGE_VAL))
    fz_fail("from_grid: %s from cell %d to %d, the grid's Dijkstra %.17g",
            found ? "a path" : "no path", s + 1, t + 1, best);
  if (found && sc->uniform && cost > best && !fz_close(cost, best))
    fz_fail("from_grid: the path costs %.17g, the grid's 8-connected optimum %.17g", cost, best);
}

/* The outcome at 'path' (path or nil, message, code) of find(seg, o). */
static double outcome(const scene *sc, int path, const double *seg, const fopts *o, int *found) {
  const char *code = lua_tostring(fz_L, path + 2);
  int partial = code != NULL && strcmp(code, "partial") == 0, offmesh;
  *found = !lua_isnil(fz_L, path) && !partial;
  if (!lua_isnil(fz_L, path)) return check_path(sc, path, seg, partial);
  offmesh = locate(sc, seg[0], seg[1]) < 0 || locate(sc, seg[2], seg[3]) < 0;
  if (code == NULL) fz_fail("find gave nil without a code");
  if (strcmp(code, "limit") == 0 ? o->max_exp < 0
      : strcmp(code, "blocked") == 0 ? !offmesh && o->radius == 0
      : strcmp(code, "no_path") != 0)
    fz_fail("find(%.17g, %.17g, %.17g, %.17g): '%s' (%s)", seg[0], seg[1], seg[2], seg[3],
            code, lua_tostring(fz_L, path + 1));
  if (offmesh && strcmp(code, "blocked") != 0)
    fz_fail("find from or to a point off the mesh: '%s'", code);
  return HUGE_VAL;
}

/* find(a, b), checked; for the exact search also find(b, a). */
static void query_find(const scene *sc, fz_bytes *in) {
  double seg[4], back[4], cost, bcost;
  fopts o;
  int found, bfound;
  pointof(sc, in, &seg[0], &seg[1]);
  pointof(sc, in, &seg[2], &seg[3]);
  decode_fopts(sc, in, &o);
  find(sc, seg, &o);
  cost = outcome(sc, lua_gettop(fz_L) - 2, seg, &o, &found);
  lua_pop(fz_L, 3);
  if (sc->fromgrid && o.radius == 0 && o.max_exp < 0 && sc->links == 0)
    check_grid(sc, seg, found, cost);
  if (!sc->uniform || o.radius > 0 || o.max_exp >= 0) return;
  back[0] = seg[2];
  back[1] = seg[3];
  back[2] = seg[0];
  back[3] = seg[1];
  find(sc, back, &o);
  bcost = outcome(sc, lua_gettop(fz_L) - 2, back, &o, &bfound);
  lua_pop(fz_L, 3);
  if (found != bfound || (found && !fz_close(cost, bcost)))
    fz_fail("find(%.17g, %.17g, %.17g, %.17g) %s %.17g, backwards %s %.17g", seg[0], seg[1],
            seg[2], seg[3], found ? "costs" : "fails", cost, bfound ? "costs" : "fails", bcost);
}

static void query(scene *sc, fz_bytes *in) {
  unsigned op = fz_byte(in);
  double seg[4];
  switch (op % 5) {
    case 0: case 1: query_find(sc, in); break;
    case 4: query_link(sc, in); break;
    case 2:
      pointof(sc, in, &seg[0], &seg[1]);
      pointof(sc, in, &seg[2], &seg[3]);
      raycast(sc, seg);
      break;
    default:
      pointof(sc, in, &seg[0], &seg[1]);
      probe(sc, seg[0], seg[1]);
      break;
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_bytes in = {data, size};
  unsigned mode = fz_byte(&in) % 3;
  scene sc;
  int built, q;
  memset(&sc, 0, sizeof sc);
  sc.uniform = 1;
  sc.mincost = 1;
  built = mode == 0 ? build_list(&sc, &in) : mode == 1 ? build_polygons(&sc, &in)
                                                       : build_grid(&sc, &in);
  if (built) {
    sc.mesh = lua_gettop(fz_L);
    if (sc.start == NULL) fetch(&sc);
    if (sc.fromgrid) {
      int i;
      sc.mincost = HUGE_VAL;
      for (i = 0; i < sc.grid.w * sc.grid.h; i++)
        if (sc.grid.cell[i] > 0 && sc.grid.cell[i] < sc.mincost) sc.mincost = sc.grid.cell[i];
    }
    for (q = 0; q < MAXQ && in.n > 0; q++) query(&sc, &in);
    fz_method(fz_L, sc.mesh, "close");
    fz_pcall(fz_L, 1, 0);
    lua_pop(fz_L, 1);
  }
  free(sc.start);
  free(sc.xy);
  free(sc.grid.cell);
  fz_done(fz_L);
  return 0;
}
