/*
** grid_line.c - straight lines over a grid: whether a unit of radius r can
** move along a segment without touching a blocked cell (Pinter's Walkable(),
** exact rather than sampled), what the move costs, and path smoothing.
**
** Coordinates are grid units with cell (i, j) (0-based) the closed square
** [i, i+1] x [j, j+1], so its centre is (i + 0.5, j + 0.5). A segment is
** clear for radius r if every blocked cell's square, the blocked border
** around the grid included, lies at least r from it and does not touch it:
** a disc of radius r swept along the segment may graze a wall but never
** overlap one (so r = 0.5 fits a corridor one cell wide), and the segment
** itself may not touch a blocked square even at a corner, which is the rule
** of diagonal steps under "no_corner_cutting". Rounding is resolved
** against the segment: within TOUCH of touching counts as touching, and
** within TOUCH of r as nearer than r.
*/
#include <math.h>
#include <string.h>
#include "grid_impl.h"

#define TOUCH 1e-9

/* Is cell (i, j), which may be the border or beyond, blocked? */
static int blocked(const astar_grid *g, long i, long j) {
  if (i < 0 || j < 0 || i >= g->w || j >= g->h) return 1;
  return g->cell[(size_t)(j + 1) * g->stride + (size_t)(i + 1)] <= 0;
}

static double cost_at(const astar_grid *g, long i, long j) {
  return g->cell[(size_t)(j + 1) * g->stride + (size_t)(i + 1)];
}

/* Squared distance from point (px, py) to the segment a-b. */
static double pseg2(double px, double py, double ax, double ay, double bx, double by) {
  double dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy, t = 0;
  if (l2 > 0) {
    t = ((px - ax) * dx + (py - ay) * dy) / l2;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
  }
  dx = ax + t * dx - px;
  dy = ay + t * dy - py;
  return dx * dx + dy * dy;
}

/* Squared distance from point (px, py) to the box [x0, x1] x [y0, y1]. */
static double pbox2(double px, double py, double x0, double y0, double x1, double y1) {
  double dx = px < x0 ? x0 - px : px > x1 ? px - x1 : 0;
  double dy = py < y0 ? y0 - py : py > y1 ? py - y1 : 0;
  return dx * dx + dy * dy;
}

/* Does the segment a-b meet the closed box (Liang-Barsky)? */
static int meets(double ax, double ay, double bx, double by, double x0, double y0,
                 double x1, double y1) {
  double t0 = 0, t1 = 1, p[4], q[4];
  int k;
  p[0] = ax - bx; q[0] = ax - x0;
  p[1] = bx - ax; q[1] = x1 - ax;
  p[2] = ay - by; q[2] = ay - y0;
  p[3] = by - ay; q[3] = y1 - ay;
  for (k = 0; k < 4; k++) {
    if (p[k] == 0) {
      if (q[k] < 0) return 0;
    } else {
      double t = q[k] / p[k];
      if (p[k] < 0) { if (t > t1) return 0; if (t > t0) t0 = t; }
      else { if (t < t0) return 0; if (t < t1) t1 = t; }
    }
  }
  return 1;
}

/* Distance from segment a-b to the square of cell (i, j), squared. */
static double cell2(double ax, double ay, double bx, double by, long i, long j) {
  double x0 = (double)i, y0 = (double)j, x1 = x0 + 1, y1 = y0 + 1, d, e;
  if (meets(ax, ay, bx, by, x0, y0, x1, y1)) return 0;
  d = pbox2(ax, ay, x0, y0, x1, y1);
  e = pbox2(bx, by, x0, y0, x1, y1); if (e < d) d = e;
  e = pseg2(x0, y0, ax, ay, bx, by); if (e < d) d = e;
  e = pseg2(x1, y0, ax, ay, bx, by); if (e < d) d = e;
  e = pseg2(x0, y1, ax, ay, bx, by); if (e < d) d = e;
  e = pseg2(x1, y1, ax, ay, bx, by); if (e < d) d = e;
  return d;
}

/* The y range of the segment's points whose x lies in [lo, hi] (which meets
** the segment's x range). */
static void yrange(double ax, double ay, double bx, double by, double lo, double hi,
                   double *ylo, double *yhi) {
  double xa = fmin(ax, bx), xb = fmax(ax, bx), ya, yb;
  if (lo < xa) lo = xa;
  if (hi > xb) hi = xb;
  if (xb == xa) {
    ya = ay; yb = by;
  } else {
    ya = ay + (lo - ax) * (by - ay) / (bx - ax);
    yb = ay + (hi - ax) * (by - ay) / (bx - ax);
  }
  *ylo = fmin(ya, yb);
  *yhi = fmax(ya, yb);
}

int astar_grid_line_clear(const astar_grid *g, double ax, double ay, double bx, double by,
                          double r) {
  double lim = r > TOUCH ? (r - TOUCH) * (r - TOUCH) : 0;
  long i, j, i0 = (long)floor(fmin(ax, bx) - r - TOUCH), i1 = (long)floor(fmax(ax, bx) + r + TOUCH);
  for (i = i0; i <= i1; i++) {
    double ylo, yhi;
    long j0, j1;
    yrange(ax, ay, bx, by, (double)i - r - TOUCH, (double)i + 1 + r + TOUCH, &ylo, &yhi);
    j0 = (long)floor(ylo - r - TOUCH);
    j1 = (long)floor(yhi + r + TOUCH);
    for (j = j0; j <= j1; j++)
      if (blocked(g, i, j)) {
        double d2 = cell2(ax, ay, bx, by, i, j);
        if (d2 <= TOUCH * TOUCH || d2 < lim) return 0;
      }
  }
  return 1;
}

/* The cost of cell (i, j) for a piece of segment whose midpoint is (mx, my):
** a piece along a cell boundary pays the dearer cell beside it (blocked
** cells cost nothing here: a clear segment never runs along one). */
static double piece_cost(const astar_grid *g, double mx, double my) {
  long i = (long)floor(mx), j = (long)floor(my);
  double c = blocked(g, i, j) ? 0 : cost_at(g, i, j);
  if ((double)i == mx && !blocked(g, i - 1, j) && cost_at(g, i - 1, j) > c)
    c = cost_at(g, i - 1, j);
  if ((double)j == my && !blocked(g, i, j - 1) && cost_at(g, i, j - 1) > c)
    c = cost_at(g, i, j - 1);
  return c;
}

/* The next parameter t in (t, 1] where the coordinate a + t (b - a) crosses
** an integer, or 2 if none. */
static double next_cross(double a, double b, double t) {
  double v, k;
  if (a == b) return 2;
  v = a + t * (b - a);
  k = b > a ? floor(v) + 1 : ceil(v) - 1;
  t = (k - a) / (b - a);
  return t <= 1 ? t : 2;
}

double astar_grid_line_integral(const astar_grid *g, double ax, double ay, double bx, double by) {
  double len = hypot(bx - ax, by - ay), total = 0, t = 0;
  if (len == 0) return 0;
  if (!g->min_dirty && g->nwalk > 0 && g->min_count == g->nwalk)
    return len * g->min_cost;                    /* one cost everywhere: no cell to tell apart */
  while (t < 1) {
    double tx = next_cross(ax, bx, t), ty = next_cross(ay, by, t);
    double u = fmin(fmin(tx, ty), 1), m;
    if (u <= t) u = fmin(t + 1e-12, 1);          /* rounding: never stand still */
    m = (t + u) / 2;
    total += (u - t) * len * piece_cost(g, ax + m * (bx - ax), ay + m * (by - ay));
    t = u;
  }
  return total;
}

double astar_grid_line_cost(const astar_grid *g, double ax, double ay, double bx, double by) {
  if (!astar_grid_line_clear(g, ax, ay, bx, by, 0)) return -1;
  return astar_grid_line_integral(g, ax, ay, bx, by);
}

size_t astar_grid_smooth(const astar_grid *g, const double *xy, size_t n, double r,
                         const double *stretch, const unsigned char *link, size_t *keep) {
  size_t i = 0, k = 0;
  if (n == 0) return 0;
  keep[k++] = 0;
  while (i + 1 < n) {
    size_t j = i + 1;
    while (j + 1 < n && !(link != NULL && (link[i + 1] || link[j + 1]))) {
      double c;
      if (!astar_grid_line_clear(g, xy[2 * i], xy[2 * i + 1], xy[2 * j + 2], xy[2 * j + 3], r))
        break;
      c = astar_grid_line_integral(g, xy[2 * i], xy[2 * i + 1], xy[2 * j + 2], xy[2 * j + 3]);
      if (c > (stretch[j + 1] - stretch[i]) * (1 + 1e-12)) break;
      j++;
    }
    keep[k++] = j;
    i = j;
  }
  return k;
}


/* ------------------------------------------------------------------ */
/* What a disc fits through, cell by cell                               */
/* ------------------------------------------------------------------ */

static const int FX[8] = {0, -1, 1, 0, -1, 1, -1, 1};
static const int FY[8] = {-1, 0, 0, 1, -1, -1, 1, 1};

static unsigned fit_bits(const astar_grid *g, uint32_t node, double r) {
  double x = (double)(node % g->stride) - 0.5, y = (double)(node / g->stride) - 0.5;
  unsigned bits = FIT_KNOWN;
  int d;
  if (!astar_grid_line_clear(g, x, y, x, y, r)) return bits;
  bits |= FIT_HERE;
  for (d = 0; d < 8; d++)
    if (astar_grid_line_clear(g, x, y, x + FX[d], y + FY[d], r)) bits |= 1u << d;
  return bits;
}

unsigned astar__grid_fit(astar_grid *g, uint32_t node, double r) {
  unsigned bits;
  if (g->fit == NULL || g->fit_r != r) return fit_bits(g, node, r);
  if (g->fit[node] & FIT_KNOWN) return g->fit[node];
  bits = fit_bits(g, node, r);
  g->fit[node] = (uint16_t)bits;
  return bits;
}

void astar__grid_fit_prepare(astar_grid *g, double r) {
  if (g->fit != NULL && g->fit_r == r) return;
  if (g->fit == NULL) {
    g->fit = (uint16_t *)astar__alloc(&g->mem, g->ncell * sizeof(uint16_t));
    if (g->fit == NULL) return;                  /* no cache: every check worked out */
  }
  memset(g->fit, 0, g->ncell * sizeof(uint16_t));
  g->fit_r = r;
}

/* A cell's bits read the blocked cells within r + 1.5 of its centre. */
void astar__grid_fit_forget(astar_grid *g, int x, int y, int w, int h) {
  long m = (long)ceil(g->fit_r) + 2, i, j;
  long x0 = x - m < -1 ? -1 : x - m, y0 = y - m < -1 ? -1 : y - m;
  long x1 = x + w + m > g->w ? g->w : x + w + m, y1 = y + h + m > g->h ? g->h : y + h + m;
  if ((x1 - x0 + 1) * (y1 - y0 + 1) * 2 > (long)g->ncell) {
    memset(g->fit, 0, g->ncell * sizeof(uint16_t));
    return;
  }
  for (j = y0; j <= y1; j++)
    for (i = x0; i <= x1; i++) g->fit[(size_t)(j + 1) * g->stride + (size_t)(i + 1)] = 0;
}

void astar__grid_fit_free(astar_grid *g) {
  astar__free(&g->mem, g->fit, g->fit != NULL ? g->ncell * sizeof(uint16_t) : 0);
  g->fit = NULL;
}
