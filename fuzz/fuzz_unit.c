/*
** fuzz_unit.c - searches for a unit with a size, and any-angle ones, in the
** search harness: grid:find with 'radius' or 'size' (a footprint of 1..3 x
** 1..3 cells), algorithm "theta", and find on a hex grid of the same cells
** (astar.hexgrid, every layout), checked
** against references here that call nothing of the library: a segment's
** distance to each blocked cell's square (edge by edge), the cost of a
** segment clipped cell by cell, and a plain Dijkstra over the steps those
** allow.
**
** Findings (abort): a step of a radius path whose segment comes nearer than
** r to a blocked cell or touches one, or a cost other than the reference's
** shortest; a path where the reference has none, or none where it has one;
** a Theta* path with a segment that is neither a step of the policy nor
** clear, a cost other than the sum of its segments' costs, or above the best
** path of steps. Cases within 1e-7
** of a tie (the library may call them either way) are not judged. These
** searches are not made on grids with links (the references know none).
**
** path:smooth (README, Straight lines and smoothing): findings are smoothed
** points that are not the path's own, in order, from its start to its end;
** a segment that skips points but is not clear for the radius, skips a link,
** or costs more (1e-7 relative) than the moves it replaces; a link not kept
** as the path's step with its mark and price; a cost() other than the sum of
** its segments (a link at its cost, a walk priced along the segment), or
** above the original path priced the same way. (Priced the continuous way,
** a smoothed path may cost more than the original's cost(), which prices a
** step by the cell it enters: only the same pricing is compared.)
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

#define SQRT2 1.41421356237309504880

static double pseg(double px, double py, double ax, double ay, double bx, double by) {
  double dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy, t = 0;
  if (l2 > 0) t = fmax(0, fmin(1, ((px - ax) * dx + (py - ay) * dy) / l2));
  return hypot(ax + t * dx - px, ay + t * dy - py);
}

static double orient(double ax, double ay, double bx, double by, double cx, double cy) {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

static int crosses(double ax, double ay, double bx, double by, double cx, double cy,
                   double dx, double dy) {
  return orient(ax, ay, bx, by, cx, cy) * orient(ax, ay, bx, by, dx, dy) <= 0 &&
         orient(cx, cy, dx, dy, ax, ay) * orient(cx, cy, dx, dy, bx, by) <= 0 &&
         fmax(fmin(ax, bx), fmin(cx, dx)) <= fmin(fmax(ax, bx), fmax(cx, dx)) &&
         fmax(fmin(ay, by), fmin(cy, dy)) <= fmin(fmax(ay, by), fmax(cy, dy));
}

/* Distance from segment a-b to the square [x0, x1] x [y0, y1]. */
static double segsquare(double ax, double ay, double bx, double by, double x0, double y0,
                        double x1, double y1) {
  double e[4][4] = {{x0, y0, x1, y0}, {x1, y0, x1, y1}, {x1, y1, x0, y1}, {x0, y1, x0, y0}};
  double best = HUGE_VAL;
  int k;
  if ((ax >= x0 && ax <= x1 && ay >= y0 && ay <= y1) ||
      (bx >= x0 && bx <= x1 && by >= y0 && by <= y1))
    return 0;
  for (k = 0; k < 4; k++) {
    if (crosses(ax, ay, bx, by, e[k][0], e[k][1], e[k][2], e[k][3])) return 0;
    best = fmin(best, fmin(fmin(pseg(e[k][0], e[k][1], ax, ay, bx, by),
                                pseg(e[k][2], e[k][3], ax, ay, bx, by)),
                           fmin(pseg(ax, ay, e[k][0], e[k][1], e[k][2], e[k][3]),
                                pseg(bx, by, e[k][0], e[k][1], e[k][2], e[k][3]))));
  }
  return best;
}

static int walkable(const fz_grid *g, int x, int y) {
  return x >= 0 && y >= 0 && x < g->w && y < g->h && g->cell[y * g->w + x] > 0;
}

/* Cell (x, y)'s centre is (x, y), its square [x - .5, x + .5]^2. 1 clear, 0
** not, -1 too near a tie to call; *unsure is set on -1. */
static int clear(const fz_grid *g, double ax, double ay, double bx, double by, double r,
                 int *unsure) {
  int x, y, verdict = 1;
  for (y = -1; y <= g->h; y++)
    for (x = -1; x <= g->w; x++) {
      double d;
      if (walkable(g, x, y)) continue;
      d = segsquare(ax, ay, bx, by, x - 0.5, y - 0.5, x + 0.5, y + 0.5);
      if (d == 0 || d < r - 1e-7) return 0;
      if (fabs(d - r) < 1e-7 || d < 1e-7) verdict = -1;
    }
  if (verdict < 0) *unsure = 1;
  return verdict;
}

/* The share of a-b inside [x0, x1] x [y0, y1] (times its length: the length
** inside). */
static double clipped(double ax, double ay, double bx, double by, double x0, double y0,
                      double x1, double y1) {
  double t0 = 0, t1 = 1, p[4], q[4];
  int k;
  p[0] = ax - bx; q[0] = ax - x0; p[1] = bx - ax; q[1] = x1 - ax;
  p[2] = ay - by; q[2] = ay - y0; p[3] = by - ay; q[3] = y1 - ay;
  for (k = 0; k < 4; k++) {
    if (p[k] == 0) { if (q[k] < 0) return 0; continue; }
    if (p[k] < 0) t0 = fmax(t0, q[k] / p[k]);
    else t1 = fmin(t1, q[k] / p[k]);
  }
  return t1 > t0 ? t1 - t0 : 0;
}

static double segcost(const fz_grid *g, double ax, double ay, double bx, double by) {
  double sum = 0;
  int x, y;
  for (y = 0; y < g->h; y++)
    for (x = 0; x < g->w; x++)
      if (g->cell[y * g->w + x] > 0)
        sum += g->cell[y * g->w + x] * clipped(ax, ay, bx, by, x - 0.5, y - 0.5, x + 0.5, y + 0.5);
  return sum * hypot(bx - ax, by - ay);
}

/* Are the sw x sh cells from (x, y) walkable? */
static int fits(const fz_grid *g, int x, int y, int sw, int sh) {
  int i, j;
  for (j = y; j < y + sh; j++)
    for (i = x; i < x + sw; i++)
      if (!walkable(g, i, j)) return 0;
  return 1;
}

/* May the footprint step from (x, y) by (dx, dy)? It fits where it lands, and
** a diagonal needs it to fit at the orthogonal neighbours as the policy needs
** a cell walkable there (README, the 'size' option). */
static int boxstep(const fz_grid *g, int x, int y, int dx, int dy, int diag, int sw, int sh) {
  int a, b;
  if ((dx == 0 && dy == 0) || !fits(g, x + dx, y + dy, sw, sh)) return 0;
  if (dx == 0 || dy == 0) return 1;
  if (diag == FZ_NEVER) return 0;
  if (diag == FZ_ALWAYS) return 1;
  a = fits(g, x + dx, y, sw, sh);
  b = fits(g, x, y + dy, sw, sh);
  return diag == FZ_NOCUT ? a && b : a || b;
}

/* What a reference search moves: a disc of radius r (0: a point), Theta*
** pricing, a footprint of sw x sh cells (sw > 0), or a hex grid (hex: its
** layout 1..4, in the order of HEXNB below). */
typedef struct unit {
  int diag, theta, sw, sh, hex;
  double r;
} unit;

/* The six neighbour offsets (dx, dy) of the four offset layouts (odd-r,
** even-r, odd-q, even-q), by the parity of the row (-r) or column (-q):
** Amit Patel's hexagon guide, written here afresh. */
static const int HEXNB[4][2][6][2] = {
  {{{1, 0}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}, {0, 1}},
   {{1, 0}, {1, -1}, {0, -1}, {-1, 0}, {0, 1}, {1, 1}}},
  {{{1, 0}, {1, -1}, {0, -1}, {-1, 0}, {0, 1}, {1, 1}},
   {{1, 0}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}, {0, 1}}},
  {{{1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {0, 1}},
   {{1, 1}, {1, 0}, {0, -1}, {-1, 0}, {-1, 1}, {0, 1}}},
  {{{1, 1}, {1, 0}, {0, -1}, {-1, 0}, {-1, 1}, {0, 1}},
   {{1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {0, 1}}},
};

/* Can the unit stand on cell (x, y)? */
static int stands(const fz_grid *g, const unit *u, int x, int y, int *unsure) {
  if (u->sw > 0) return fits(g, x, y, u->sw, u->sh);
  return walkable(g, x, y) && (u->hex || clear(g, x, y, x, y, u->r, unsure) != 0);
}

/* The unit's k-th possible step out of (x, y) (k < 9): 1 with its cell and
** cost, or 0 if it may not make it. */
static int step(const fz_grid *g, const unit *u, int x, int y, int k, int *vx, int *vy,
                double *c, int *unsure) {
  int dx = k % 3 - 1, dy = k / 3 - 1;
  if (u->hex) {
    if (k >= 6) return 0;
    dx = HEXNB[u->hex - 1][(u->hex <= 2 ? y : x) & 1][k][0];
    dy = HEXNB[u->hex - 1][(u->hex <= 2 ? y : x) & 1][k][1];
    if (!walkable(g, x + dx, y + dy)) return 0;
    *c = g->cell[(y + dy) * g->w + x + dx];
  } else {
    if (u->sw > 0 ? !boxstep(g, x, y, dx, dy, u->diag, u->sw, u->sh)
                  : !fz_legal(g, x, y, dx, dy, u->diag) ||
                    (u->r > 0 && clear(g, x, y, x + dx, y + dy, u->r, unsure) == 0))
      return 0;
    *c = u->theta ? segcost(g, x, y, x + dx, y + dy) : fz_stepcost(g, x + dx, y + dy, dx, dy);
  }
  *vx = x + dx;
  *vy = y + dy;
  return 1;
}

/* The cheapest way from s to t by the unit's steps (for a disc, those clear
** for r; Theta*: priced along the segment); HUGE_VAL if none. */
static double reference(const fz_grid *g, const unit *un, int s, int t, int *unsure) {
  int n = g->w * g->h, i, k;
  double *dist = malloc((size_t)n * sizeof *dist), best;
  char *done = calloc((size_t)n, 1);
  if (dist == NULL || done == NULL) fz_fail("out of memory");
  for (i = 0; i < n; i++) dist[i] = HUGE_VAL;
  if (stands(g, un, s % g->w, s / g->w, unsure)) dist[s] = 0;
  for (;;) {
    int u = -1, x, y;
    for (i = 0; i < n; i++)
      if (!done[i] && dist[i] < HUGE_VAL && (u < 0 || dist[i] < dist[u])) u = i;
    if (u < 0) break;
    done[u] = 1;
    x = u % g->w; y = u / g->w;
    for (k = 0; k < 9; k++) {
      int vx, vy, v;
      double c;
      if (!step(g, un, x, y, k, &vx, &vy, &c, unsure)) continue;
      v = vy * g->w + vx;
      if (!done[v] && dist[u] + c < dist[v]) dist[v] = dist[u] + c;
    }
  }
  best = stands(g, un, t % g->w, t / g->w, unsure) ? dist[t] : HUGE_VAL;
  free(dist);
  free(done);
  return best;
}

/* The points of the Path at idx (path:flat()), 0-based, into pts (2 a point);
** returns how many. */
static int points(int idx, double *pts, int cap) {
  int n, i;
  fz_method(fz_L, idx, "flat");
  fz_pcall(fz_L, 1, 1);
  n = (int)lua_rawlen(fz_L, -1) / 2;
  if (n > cap) fz_fail("a path of %d points on a grid of %d cells", n, cap);
  for (i = 0; i < 2 * n; i++) {
    lua_rawgeti(fz_L, -1, i + 1);
    pts[i] = lua_tonumber(fz_L, -1) - 1;
    lua_pop(fz_L, 1);
  }
  lua_pop(fz_L, 1);
  return n;
}

/* Pushes grid:find from cell s to cell t with the algorithm and diagonal
** policy (none if diag < 0); the options table is left on top for the
** caller's other options, then find_run calls it. */
static void find_push(int grid, const fz_grid *g, int s, int t, const char *alg, int diag) {
  fz_method(fz_L, grid, "find");
  lua_pushinteger(fz_L, s % g->w + 1);
  lua_pushinteger(fz_L, s / g->w + 1);
  lua_pushinteger(fz_L, t % g->w + 1);
  lua_pushinteger(fz_L, t / g->w + 1);
  lua_createtable(fz_L, 0, 3);
  lua_pushstring(fz_L, alg);
  lua_setfield(fz_L, -2, "algorithm");
  if (diag < 0) return;
  lua_pushstring(fz_L, fz_diagname(diag));
  lua_setfield(fz_L, -2, "diagonal");
}

/* Calls the find find_push made ('what' names it in findings) and judges
** whether there is a path against the reference's 'want' (HUGE_VAL: none;
** NaN: too near a tie to judge). Returns the path's points into pts (*n of
** them, from s to t, checked) and leaves find's 3 results on the stack; or
** returns 0 with the stack as before find_push. */
static int find_run(const fz_grid *g, int s, int t, double want, const char *what, double *pts,
                    int *n) {
  int path;
  if (fz_pcall(fz_L, 6, 3) != LUA_OK) fz_fail("%s: %s", what, lua_tostring(fz_L, -1));
  path = lua_gettop(fz_L) - 2;
  if (want != want) {
    lua_pop(fz_L, 3);
    return 0;
  }
  if (lua_isnil(fz_L, path) != (want == HUGE_VAL))
    fz_fail("%s from %d to %d: %s, the reference %s", what, s, t,
            lua_isnil(fz_L, path) ? lua_tostring(fz_L, path + 1) : "a path",
            want == HUGE_VAL ? "none" : "a way");
  if (lua_isnil(fz_L, path)) {
    lua_pop(fz_L, 3);
    return 0;
  }
  *n = points(path, pts, g->w * g->h);
  if (*n < 1 || pts[0] != s % g->w || pts[1] != s / g->w || pts[2 * *n - 2] != t % g->w ||
      pts[2 * *n - 1] != t / g->w)
    fz_fail("the path does not run from the start to the goal");
  return path;
}

/* The cost() of the Path at idx. */
static double pathcost(int idx) {
  double c;
  fz_method(fz_L, idx, "cost");
  fz_pcall(fz_L, 1, 1);
  c = lua_tonumber(fz_L, -1);
  lua_pop(fz_L, 1);
  return c;
}

/* ---- units bigger than a cell (the 'size' option) ---- */

/* grid:find with size = {sw, sh}: a finding is a step the footprint may not
** make, a cost other than its steps' or the reference's, or a path where the
** reference has none (or none where it has one). */
static void size_op(int grid, const fz_grid *g, int s, int t, int diag, const char *alg,
                    unsigned b) {
  int sw = 1 + (int)(b % 3), sh = 1 + (int)(b / 3 % 3), n, i, path;
  int unsure = 0;
  unit u = {0, 0, 0, 0, 0, 0};
  double want, pts[2 * 256], sum = 0, cost;
  u.diag = diag; u.sw = sw; u.sh = sh;
  want = reference(g, &u, s, t, &unsure);
  find_push(grid, g, s, t, alg, diag);
  lua_createtable(fz_L, 2, 0);
  lua_pushinteger(fz_L, sw);
  lua_rawseti(fz_L, -2, 1);
  lua_pushinteger(fz_L, sh);
  lua_rawseti(fz_L, -2, 2);
  lua_setfield(fz_L, -2, "size");
  if ((path = find_run(g, s, t, want, "find with a size", pts, &n)) == 0) return;
  for (i = 1; i < n; i++) {
    int ax = (int)pts[2 * i - 2], ay = (int)pts[2 * i - 1], dx = (int)pts[2 * i] - ax;
    int dy = (int)pts[2 * i + 1] - ay;
    if (abs(dx) > 1 || abs(dy) > 1 || !boxstep(g, ax, ay, dx, dy, diag, sw, sh))
      fz_fail("step %d of a %dx%d path is not one the footprint may make", i, sw, sh);
    sum += fz_stepcost(g, ax + dx, ay + dy, dx, dy);
  }
  cost = pathcost(path);
  if (!fz_close(cost, sum)) fz_fail("cost() %.17g, its steps %.17g", cost, sum);
  if (!fz_close(cost, want)) fz_fail("size %dx%d: cost %.17g, the reference %.17g", sw, sh,
                                     cost, want);
  lua_pop(fz_L, 3);
}

/* ---- hexagonal grids ---- */

/* Is (x1, y1) a neighbour of (x0, y0) in layout k (0..3)? */
static int hexnb(int k, int x0, int y0, int x1, int y1) {
  const int (*d)[2] = HEXNB[k][(k < 2 ? y0 : x0) & 1];
  int i;
  for (i = 0; i < 6; i++)
    if (x0 + d[i][0] == x1 && y0 + d[i][1] == y1) return 1;
  return 0;
}

/* astar.hexgrid with g's cells, in layout k: find from s to t against the
** reference; a finding is a step that is not to one of the six neighbours,
** a cost other than its steps' or the reference's, or a path where the
** reference has none (or none where it has one). */
static void hex_op(const fz_grid *g, int k, int s, int t, const char *alg) {
  static const char *const LAYOUT[4] = {"odd-r", "even-r", "odd-q", "even-q"};
  int hex, path, n, i;
  unit u = {0, 0, 0, 0, 0, 0};
  int unsure = 0;
  double want, pts[2 * 256], sum = 0, cost;
  u.hex = k + 1;
  want = reference(g, &u, s, t, &unsure);
  fz_getlib(fz_L, "hexgrid");
  lua_pushinteger(fz_L, g->w);
  lua_pushinteger(fz_L, g->h);
  lua_createtable(fz_L, 0, 1);
  lua_pushstring(fz_L, LAYOUT[k]);
  lua_setfield(fz_L, -2, "layout");
  if (fz_pcall(fz_L, 3, 1) != LUA_OK) fz_fail("hexgrid: %s", lua_tostring(fz_L, -1));
  hex = lua_gettop(fz_L);
  for (i = 0; i < g->w * g->h; i++) {
    fz_method(fz_L, hex, "set");
    lua_pushinteger(fz_L, i % g->w + 1);
    lua_pushinteger(fz_L, i / g->w + 1);
    if (g->cell[i] > 0) lua_pushnumber(fz_L, g->cell[i]);
    else lua_pushboolean(fz_L, 0);
    if (fz_pcall(fz_L, 4, 0) != LUA_OK) fz_fail("hex set: %s", lua_tostring(fz_L, -1));
  }
  find_push(hex, g, s, t, alg, -1);
  if ((path = find_run(g, s, t, want, "find on a hex grid", pts, &n)) != 0) {
    for (i = 1; i < n; i++) {
      int ax = (int)pts[2 * i - 2], ay = (int)pts[2 * i - 1];
      int bx = (int)pts[2 * i], by = (int)pts[2 * i + 1];
      if (!hexnb(k, ax, ay, bx, by) || !walkable(g, bx, by))
        fz_fail("step %d of a %s path is not to a walkable neighbour", i, LAYOUT[k]);
      sum += g->cell[by * g->w + bx];
    }
    cost = pathcost(path);
    if (!fz_close(cost, sum)) fz_fail("hex cost() %.17g, its steps %.17g", cost, sum);
    if (!fz_close(cost, want)) fz_fail("%s: cost %.17g, the reference %.17g", LAYOUT[k], cost,
                                       want);
    lua_pop(fz_L, 3);
  }
  fz_method(fz_L, hex, "close");
  fz_pcall(fz_L, 1, 0);
  lua_pop(fz_L, 1);
}

void fz_unit_op(int grid, const fz_grid *g, fz_bytes *in) {
  static const double RADII[5] = {0, 0.2, 0.35, 0.5, 0.7};
  static const char *const ALGS[3] = {"astar", "dijkstra", "auto"};
  unsigned a = fz_byte(in);
  int s = (int)(fz_byte(in) % (unsigned)(g->w * g->h));
  int t = (int)(fz_byte(in) % (unsigned)(g->w * g->h));
  int theta = a & 1, lazy = (int)(a >> 6) & 1, diag = (int)(a >> 4) & 3, unsure = 0, n, i;
  double r = RADII[(a >> 1) % 5], want, pts[2 * 256], sum = 0, cost;
  unit un = {0, 0, 0, 0, 0, 0};
  int path;
  if (g->nlink > 0) return;             /* the references here know no links */
  if (theta && lazy && (a >> 1) % 5 == 4) {   /* a hex grid of the same cells */
    hex_op(g, (int)(a >> 4) & 3, s, t, ALGS[fz_byte(in) % 3]);
    return;
  }
  if (!theta && r == 0) {               /* a footprint instead of a disc */
    size_op(grid, g, s, t, diag, ALGS[(a >> 6) % 3], fz_byte(in));
    return;
  }
  find_push(grid, g, s, t, theta ? (lazy ? "lazy_theta" : "theta") : ALGS[(a >> 6) % 3], diag);
  lua_pushnumber(fz_L, r);
  lua_setfield(fz_L, -2, "radius");
  un.diag = diag; un.r = r; un.theta = theta;
  want = reference(g, &un, s, t, &unsure);
  if ((path = find_run(g, s, t, unsure ? NAN : want, theta ? "theta" : "find with a radius",
                       pts, &n)) == 0)
    return;
  for (i = 1; i < n; i++) {
    double ax = pts[2 * i - 2], ay = pts[2 * i - 1], bx = pts[2 * i], by = pts[2 * i + 1];
    int dx = (int)(bx - ax), dy = (int)(by - ay);
    int step = fabs(bx - ax) <= 1 && fabs(by - ay) <= 1 && fz_legal(g, (int)ax, (int)ay, dx, dy,
                                                                      diag);
    /* a step of the policy may cut a corner it allows; longer segments need a clear line */
    if ((r > 0 || !step) && clear(g, ax, ay, bx, by, r, &unsure) == 0)
      fz_fail("segment %d of the path passes nearer than %g to a blocked cell", i, r);
    if (theta) sum += segcost(g, ax, ay, bx, by);
    else if (!fz_legal(g, (int)ax, (int)ay, dx, dy, diag))
      fz_fail("step %d of the path is not a step of the policy", i);
    else sum += fz_stepcost(g, (int)bx, (int)by, dx, dy);
  }
  cost = pathcost(path);
  if (!fz_close(cost, sum)) fz_fail("cost() %.17g, its steps %.17g", cost, sum);
  if (theta ? cost > want * (1 + 1e-9) + 1e-9 : !fz_close(cost, want))
    fz_fail("%s radius %g: cost %.17g, the reference %.17g", theta ? "theta" : "find", r, cost,
            want);
  lua_pop(fz_L, 3);
}

/* ---- path:smooth ---- */

/* What a smoothed path is checked against: the original's points (0-based),
** its moves (cost of the step into point k, and whether it is a link) and
** their continuous prices (a link at its cost, a walk priced along the
** segment), and the smoothed points with their indices into the original. */
typedef struct smooth {
  int n, m, keep[256];
  double pts[2 * 256], spts[2 * 256], price[256];
  char link[256];
} smooth;

/* Link marks and continuous prices of the original path's moves. */
static void prices(const fz_grid *g, int diag, smooth *sm) {
  int k;
  sm->price[0] = 0;
  sm->link[0] = 0;
  for (k = 1; k < sm->n; k++) {
    int a = (int)sm->pts[2 * k - 1] * g->w + (int)sm->pts[2 * k - 2];
    int b = (int)sm->pts[2 * k + 1] * g->w + (int)sm->pts[2 * k], via;
    double c = fz_move(g, a, b, diag, &via);
    sm->link[k] = (char)via;
    sm->price[k] = via ? c : segcost(g, sm->pts[2 * k - 2], sm->pts[2 * k - 1], sm->pts[2 * k],
                                     sm->pts[2 * k + 1]);
  }
}

/* Matches the smoothed points to the original's, in order: keep[j] is the
** index of smoothed point j; the ends must be the original's. */
static void match(smooth *sm) {
  int j, k = 0;
  for (j = 0; j < sm->m; j++, k++) {
    while (k < sm->n && (sm->pts[2 * k] != sm->spts[2 * j] ||
                         sm->pts[2 * k + 1] != sm->spts[2 * j + 1]))
      k++;
    if (k == sm->n) fz_fail("smoothed point %d (%g, %g) is none of the path's points after "
                            "the previous one", j + 1, sm->spts[2 * j] + 1, sm->spts[2 * j + 1] + 1);
    sm->keep[j] = k;
  }
  if (sm->m < 1 || sm->keep[0] != 0 || sm->keep[sm->m - 1] != sm->n - 1)
    fz_fail("the smoothed path does not run from the path's start to its end");
}

/* path:link(j) of the Path at 'idx': its number, or -1 for nil. */
static double linkof(int idx, int j) {
  double c;
  fz_method(fz_L, idx, "link");
  lua_pushinteger(fz_L, j);
  fz_pcall(fz_L, 2, 1);
  c = lua_isnil(fz_L, -1) ? -1 : lua_tonumber(fz_L, -1);
  lua_pop(fz_L, 1);
  return c;
}

/* Segment j (from smoothed point j - 1 to j, 0-based) of the smoothed Path
** at 'sp': an original move kept (a link keeps its mark and price), or a
** line over moves without links, clear for r, costing no more than the moves
** it replaces. Returns its price; sets *unsure near a tie. */
static double segment(const fz_grid *g, const smooth *sm, int sp, int j, double r,
                      int *unsure) {
  int a = sm->keep[j - 1], b = sm->keep[j], k;
  double mark = linkof(sp, j), c, stretch = 0;
  const double *p = sm->pts;
  if (b == a + 1 && sm->link[b]) {     /* the mark is a difference of running sums: 1e-9 */
    if (mark < 0 || !fz_close(mark, sm->price[b]))
      fz_fail("smoothed segment %d keeps a link of cost %.17g, path:link says %.17g", j,
              sm->price[b], mark);
    return sm->price[b];
  }
  if (mark >= 0) fz_fail("smoothed segment %d is a walk, path:link says %g", j, mark);
  c = segcost(g, p[2 * a], p[2 * a + 1], p[2 * b], p[2 * b + 1]);
  if (b == a + 1) return c;                      /* a step kept: it may cut what it allows */
  for (k = a + 1; k <= b; k++) {
    if (sm->link[k]) fz_fail("smoothed segment %d skips the link into path point %d", j, k + 1);
    stretch += sm->price[k];
  }
  if (clear(g, p[2 * a], p[2 * a + 1], p[2 * b], p[2 * b + 1], r, unsure) == 0)
    fz_fail("smoothed segment %d, (%g, %g) -> (%g, %g), is not clear for radius %g", j,
            p[2 * a] + 1, p[2 * a + 1] + 1, p[2 * b] + 1, p[2 * b + 1] + 1, r);
  if (c > stretch * (1 + 1e-7) + 1e-7)
    fz_fail("smoothed segment %d costs %.17g, the moves it replaces %.17g", j, c, stretch);
  return c;
}

/* Pushes path:smooth(grid, {radius = r, pull = pull}) of the Path at 'path'. */
static int smoothed(int grid, int path, double r, int pull) {
  fz_method(fz_L, path, "smooth");
  lua_pushvalue(fz_L, grid);
  lua_createtable(fz_L, 0, 2);
  lua_pushnumber(fz_L, r);
  lua_setfield(fz_L, -2, "radius");
  lua_pushboolean(fz_L, pull);
  lua_setfield(fz_L, -2, "pull");
  if (fz_pcall(fz_L, 3, 1) != LUA_OK) fz_fail("path:smooth: %s", lua_tostring(fz_L, -1));
  return lua_gettop(fz_L);
}


/* The cheapest and dearest price of a-b cut at every cell boundary: a piece
** pays the cell its midpoint is in, or, within 1e-8 of a boundary, either
** cell beside it (where a segment that close to a line crosses it moves with
** rounding: the library may read it either way). */
static void pricerange(const fz_grid *g, double ax, double ay, double bx, double by,
                       double *lo, double *hi) {
  double ts[1024], len = hypot(bx - ax, by - ay);
  int n = 2, i, k, e;
  ts[0] = 0; ts[1] = 1;
  for (e = 0; e < 2; e++) {
    double a = e ? ay : ax, b = e ? by : bx;
    if (a == b) continue;
    for (k = (int)ceil(fmin(a, b) - 0.5); k <= (int)floor(fmax(a, b) - 0.5) && n < 1024; k++) {
      double t = (k + 0.5 - a) / (b - a);
      if (t > 0 && t < 1) ts[n++] = t;
    }
  }
  for (i = 1; i < n; i++)                 /* insertion sort: a few dozen */
    for (k = i; k > 0 && ts[k - 1] > ts[k]; k--) { double t = ts[k]; ts[k] = ts[k - 1]; ts[k - 1] = t; }
  *lo = *hi = 0;
  for (i = 1; i < n; i++) {
    double t = (ts[i - 1] + ts[i]) / 2, mx = ax + t * (bx - ax), my = ay + t * (by - ay);
    int x = (int)floor(mx + 0.5), y = (int)floor(my + 0.5), d;
    double c = walkable(g, x, y) ? g->cell[y * g->w + x] : 0, cmin = c, cmax = c;
    static const int DX[4] = {-1, 1, 0, 0}, DY[4] = {0, 0, -1, 1};
    double off[4];
    off[0] = fabs(mx + 0.5 - x); off[1] = fabs(mx + 0.5 - x - 1);
    off[2] = fabs(my + 0.5 - y); off[3] = fabs(my + 0.5 - y - 1);
    for (d = 0; d < 4; d++)
      if (off[d] < 1e-8 && walkable(g, x + DX[d], y + DY[d])) {
        double o = g->cell[(y + DY[d]) * g->w + x + DX[d]];
        cmin = fmin(cmin, o); cmax = fmax(cmax, o);
      }
    *lo += (ts[i] - ts[i - 1]) * len * cmin;
    *hi += (ts[i] - ts[i - 1]) * len * cmax;
  }
}

/* Do all the walkable cells of g cost the same? */
static int one_cost(const fz_grid *g) {
  double c = 0;
  int i;
  for (i = 0; i < g->w * g->h; i++) {
    if (!(g->cell[i] > 0)) continue;
    if (c > 0 && g->cell[i] != c) return 0;
    c = g->cell[i];
  }
  return 1;
}

/* The pulled path (README: Pinter's pass, then the string pulled taut): the
** same ends; each segment a link of the path (its ends two points of the path
** the link joins, marked with its price), a move of the path kept, or a line
** clear for r; cost() within their prices' range, and no more than Pinter's
** pass 'pinter'. On a grid of one cost with r = 0 the string is pulled taut
** around the walls the path passes, where Pinter's lines may pass one on its
** other side (README: the one guarantee given up): there no more than the
** path's own price 'orig'. */
static void pulled_check(int grid, int path, const fz_grid *g, const smooth *sm, double r,
                         double pinter, double orig) {
  static double q[2 * 512];
  int sp = smoothed(grid, path, r, 1), m = points(sp, q, 512), j, k, unsure = 0;
  double sum = 0, top = 0, cost = pathcost(sp), lo, hi;
  if (m < 1 || q[0] != sm->pts[0] || q[1] != sm->pts[1] || q[2 * m - 2] != sm->pts[2 * sm->n - 2]
      || q[2 * m - 1] != sm->pts[2 * sm->n - 1])
    fz_fail("the pulled path does not run from the path's start to its end");
  for (j = 1; j < m; j++) {
    const double *a = q + 2 * j - 2, *b = q + 2 * j;
    double mark = linkof(sp, j);
    for (k = 1; k < sm->n; k++)           /* a move of the path, kept as it was? */
      if (sm->pts[2 * k - 2] == a[0] && sm->pts[2 * k - 1] == a[1] && sm->pts[2 * k] == b[0] &&
          sm->pts[2 * k + 1] == b[1])
        break;
    if (mark >= 0) {
      if (k == sm->n || !sm->link[k] || !fz_close(mark, sm->price[k]))
        fz_fail("pulled segment %d is marked a link of cost %.17g that the path has not", j,
                mark);
      sum += mark;
      top += mark;
      continue;
    }
    if (k < sm->n && sm->link[k]) fz_fail("pulled segment %d takes a link unmarked", j);
    if (k == sm->n && clear(g, a[0], a[1], b[0], b[1], r, &unsure) == 0)
      fz_fail("pulled segment %d, (%.17g, %.17g) -> (%.17g, %.17g), is not clear for radius %g",
              j, a[0] + 1, a[1] + 1, b[0] + 1, b[1] + 1, r);
    pricerange(g, a[0], a[1], b[0], b[1], &lo, &hi);
    sum += lo;
    top += hi;
  }
  lua_pop(fz_L, 1);
  /* 1e-7: where a line 1e-8 off a boundary crosses it moves by ~1e-8 with rounding (seed
  ** pulled_price_rounding: 1.3e-9 above the dearest reading) */
  if (cost < sum * (1 - 1e-7) - 1e-7 || cost > top * (1 + 1e-7) + 1e-7)
    fz_fail("pulled cost() %.17g, its segments %.17g to %.17g", cost, sum, top);
  if (r == 0 && one_cost(g)) {
    if (cost > orig * (1 + 1e-7) + 1e-7)
      fz_fail("pulled cost %.17g, above the path's %.17g (priced the same way)", cost, orig);
  } else if (cost > pinter * (1 + 1e-9) + 1e-12) {
    fz_fail("pulled cost %.17g, above Pinter's pass alone %.17g", cost, pinter);
  }
}

void fz_smooth_check(int grid, int path, const fz_grid *g, int diag, double r) {
  static smooth sm;
  int j, unsure = 0, sp;
  double sum = 0, orig = 0, cost;
  sm.n = points(path, sm.pts, g->w * g->h);
  prices(g, diag, &sm);
  sp = smoothed(grid, path, r, 0);
  sm.m = points(sp, sm.spts, sm.n);
  match(&sm);
  for (j = 1; j < sm.m; j++) sum += segment(g, &sm, sp, j, r, &unsure);
  for (j = 1; j < sm.n; j++) orig += sm.price[j];
  cost = pathcost(sp);
  lua_pop(fz_L, 1);
  if (!fz_close(cost, sum)) fz_fail("smoothed cost() %.17g, its segments %.17g", cost, sum);
  if (cost > orig * (1 + 1e-7) + 1e-7)
    fz_fail("smoothed cost %.17g, above the path's %.17g (priced the same way)", cost, orig);
  pulled_check(grid, path, g, &sm, r, cost, orig);
}
