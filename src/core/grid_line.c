/*
** grid_line.c - straight lines over a grid: whether a unit of radius r can
** move along a segment without touching a blocked cell (Pinter's Walkable(),
** exact rather than sampled), what the move costs, Pinter's smoothing (the
** string pulling after it is grid_pull.c), and what a disc fits through.
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
double astar__grid_cell2(double ax, double ay, double bx, double by, long i, long j) {
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

/* The line test runs over lines of cells along one axis, in a frame where
** that axis is x: columns as they are (t = 0), or rows with x and y swapped
** (t = 1, the coordinates given swapped too). Distances do not change with
** the swap, so astar__grid_cell2 serves both. */

/* Is every blocked cell j0..j1 of line i (cell (i, j) in frame t) farther
** from segment a-b than the limit (squared: lim; touching, within TOUCH,
** never is)? From the bit lines of jump point search when the grid has them
** and the cells are in them (57 cells a load), else cell by cell. */
static int line_cells_clear(const astar_grid *g, int t, double ax, double ay, double bx,
                            double by, long i, long j0, long j1, double lim) {
  long j, ni = t ? g->h : g->w, nj = t ? g->w : g->h;
  if (g->cols != NULL && i >= -1 && i <= ni && j0 >= -1 && j1 <= nj) {
    const uint64_t *line = t ? g->rows + (size_t)(i + 1) * g->rw
                             : g->cols + (size_t)(i + 1) * g->cw;
    for (j = j0; j <= j1; j += ASTAR_WIN) {
      long m = j1 - j + 1 < ASTAR_WIN ? j1 - j + 1 : ASTAR_WIN;
      uint64_t bl = ~astar__window(line, j + 1) &
                    (m == 64 ? ~(uint64_t)0 : ((uint64_t)1 << m) - 1);
      for (; bl != 0; bl &= bl - 1) {
        double d2 = astar__grid_cell2(ax, ay, bx, by, i, j + astar__lowbit(bl));
        if (d2 <= TOUCH * TOUCH || d2 < lim) return 0;
      }
    }
    return 1;
  }
  for (j = j0; j <= j1; j++)
    if (astar__frame_blocked(g, t, i, j)) {
      double d2 = astar__grid_cell2(ax, ay, bx, by, i, j);
      if (d2 <= TOUCH * TOUCH || d2 < lim) return 0;
    }
  return 1;
}

/* The line test in frame t: each line of cells i the segment comes within
** r + TOUCH of, and in it the cells within r + TOUCH of the segment's piece
** over [i - r - TOUCH, i + 1 + r + TOUCH]. */
static int clear_in(const astar_grid *g, int t, double ax, double ay, double bx, double by,
                    double r) {
  double lim = r > TOUCH ? (r - TOUCH) * (r - TOUCH) : 0, e = r + TOUCH;
  double xa = ax < bx ? ax : bx, xb = ax < bx ? bx : ax;
  double k = xb > xa ? (by - ay) / (bx - ax) : 0;
  long i, i0 = astar__lfloor(xa - e), i1 = astar__lfloor(xb + e);
  for (i = i0; i <= i1; i++) {
    double lo = (double)i - e, hi = (double)i + 1 + e, ya = ay, yb = by;
    if (xb > xa) {
      ya = ay + ((lo > xa ? lo : xa) - ax) * k;
      yb = ay + ((hi < xb ? hi : xb) - ax) * k;
    }
    if (ya > yb) { double y = ya; ya = yb; yb = y; }
    if (!line_cells_clear(g, t, ax, ay, bx, by, i, astar__lfloor(ya - e),
                          astar__lfloor(yb + e), lim))
      return 0;
  }
  return 1;
}

int astar_grid_line_clear(const astar_grid *g, double ax, double ay, double bx, double by,
                          double r) {
  if (fabs(bx - ax) > fabs(by - ay)) return clear_in(g, 1, ay, ax, by, bx, r);   /* rows */
  return clear_in(g, 0, ax, ay, bx, by, r);
}

/* The cost of cell (i, j) for a piece of segment whose midpoint is (mx, my):
** a piece along a cell boundary pays the dearer cell beside it (blocked
** cells cost nothing here: a clear segment never runs along one). A piece
** merely near a boundary pays the cell it is in: where a segment crosses a
** boundary moves by rounding / slope, so even a segment 1e-7 off a boundary
** is priced to about 1e-9. */
static double piece_cost(const astar_grid *g, double mx, double my) {
  long i = (long)floor(mx), j = (long)floor(my);
  double c = astar__grid_blocked(g, i, j) ? 0 : cost_at(g, i, j);
  if ((double)i == mx && !astar__grid_blocked(g, i - 1, j) && cost_at(g, i - 1, j) > c)
    c = cost_at(g, i - 1, j);
  if ((double)j == my && !astar__grid_blocked(g, i, j - 1) && cost_at(g, i, j - 1) > c)
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
  double dx = bx - ax, dy = by - ay, len = sqrt(dx * dx + dy * dy), total = 0, t = 0;
  if (len == 0) return 0;
  if (astar__grid_one_cost(g)) return len * g->min_cost;   /* no cell to tell apart */
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

/* Is point k (0 < k < n - 1) where the path turns, or an end of a link? */
static int turns(const double *xy, const unsigned char *link, size_t k) {
  const double *p = xy + 2 * k;
  if (link != NULL && (link[k] || link[k + 1])) return 1;
  return p[0] - p[-2] != p[2] - p[0] || p[1] - p[-1] != p[3] - p[1];
}

/* The first point after k where the path turns, or the last. */
static size_t next_turn(const double *xy, size_t n, const unsigned char *link, size_t k) {
  for (k++; k + 1 < n && !turns(xy, link, k); k++) {}
  return k;
}

/* May the path go straight from point i to point j, clear for r and no
** dearer than its steps (stretch NULL: it never is)? */
static int shortcut(const astar_grid *g, const double *xy, size_t i, size_t j, double r,
                    const double *stretch) {
  double c;
  if (!astar_grid_line_clear(g, xy[2 * i], xy[2 * i + 1], xy[2 * j], xy[2 * j + 1], r)) return 0;
  if (stretch == NULL) return 1;
  c = astar_grid_line_integral(g, xy[2 * i], xy[2 * i + 1], xy[2 * j], xy[2 * j + 1]);
  return c <= (stretch[j] - stretch[i]) * (1 + 1e-12);
}

/* Pinter's pass, from turning point to turning point: the points between
** two turns are one straight run, so from each kept point it tries the end
** of each run in turn, and in the first run whose end it cannot reach it
** bisects for the farthest point it can. */
size_t astar_grid_smooth(const astar_grid *g, const double *xy, size_t n, double r,
                         const double *stretch, const unsigned char *link, size_t *keep) {
  size_t i = 0, k = 0;
  if (n == 0) return 0;
  keep[k++] = 0;
  while (i + 1 < n) {
    size_t j = i + 1;
    while (j + 1 < n && !(link != NULL && (link[i + 1] || link[j + 1]))) {
      size_t t = next_turn(xy, n, link, j), lo = j;
      if (shortcut(g, xy, i, t, r, stretch)) {
        j = t;
        continue;
      }
      while (t - lo > 1) {                 /* lo passes (or is i's neighbour), t fails */
        size_t m = lo + (t - lo) / 2;
        if (shortcut(g, xy, i, m, r, stretch)) lo = m;
        else t = m;
      }
      j = lo;
      break;
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

/* Are the w x h cells from cell (x, y) (0-based, maybe outside) walkable? */
static int box_fits(const astar_grid *g, long x, long y, long w, long h) {
  long i, j;
  if (x < 0 || y < 0 || x + w > g->w || y + h > g->h) return 0;
  for (j = y; j < y + h; j++)
    for (i = x; i < x + w; i++)
      if (g->cell[(size_t)(j + 1) * g->stride + (size_t)(i + 1)] <= 0) return 0;
  return 1;
}

/* A footprint's bits (key FIT_BOX(w, h)): where it fits, here and next door. */
static unsigned box_bits(const astar_grid *g, uint32_t node, double key) {
  long k = (long)-key, w = k / 65536, h = k % 65536;
  long x, y;
  unsigned bits = FIT_KNOWN;
  int d;
  astar__grid_xy(g, node, &x, &y);
  x--;                                             /* unpadded */
  y--;
  if (!box_fits(g, x, y, w, h)) return bits;      /* no room here: no step either */
  bits |= FIT_HERE;
  for (d = 0; d < 8; d++)
    if (box_fits(g, x + FX[d], y + FY[d], w, h)) bits |= 1u << d;
  return bits;
}

int astar__grid_boxstep(unsigned bits, int d, int policy) {
  static const int ORTH[4][2] = {{0, 1}, {0, 2}, {3, 1}, {3, 2}};  /* NW, NE, SW, SE */
  int a, b;
  if (!(bits & (1u << d))) return 0;
  if (d < 4) return 1;
  a = (bits >> ORTH[d - 4][0]) & 1;
  b = (bits >> ORTH[d - 4][1]) & 1;
  switch (policy) {
    case ASTAR_DIAG_NO_CORNER_CUTTING: return a && b;
    case ASTAR_DIAG_ONE_OBSTACLE: return a || b;
    case ASTAR_DIAG_NEVER: return 0;
    default: return 1;
  }
}

static unsigned fit_bits(const astar_grid *g, uint32_t node, double r) {
  double x, y;
  unsigned bits = FIT_KNOWN;
  int d;
  if (r < 0) return box_bits(g, node, r);
  astar__grid_centre(g, node, &x, &y);
  if (!astar_grid_line_clear(g, x, y, x, y, r)) return bits;
  bits |= FIT_HERE;
  for (d = 0; d < 8; d++)
    if (astar_grid_line_clear(g, x, y, x + FX[d], y + FY[d], r)) bits |= 1u << d;
  return bits;
}

/* The slot that holds shape r, or -1. */
static int slot_of(const astar_grid *g, double r) {
  int i;
  for (i = 0; i < FIT_SLOTS; i++)
    if (g->fit[i] != NULL && g->fit_r[i] == r) return i;
  return -1;
}

unsigned astar__grid_fit(astar_grid *g, uint32_t node, double r) {
  int i = g->fit[0] != NULL && g->fit_r[0] == r ? 0 : slot_of(g, r);
  unsigned bits;
  if (i < 0) return fit_bits(g, node, r);
  if (g->fit[i][node] & FIT_KNOWN) return g->fit[i][node];
  bits = fit_bits(g, node, r);
  g->fit[i][node] = (uint16_t)bits;
  return bits;
}

void astar__grid_fit_prepare(astar_grid *g, double r) {
  int i = slot_of(g, r), k;
  if (i < 0) {                                   /* a new shape: a free slot, or the oldest */
    for (i = 0, k = 1; k < FIT_SLOTS; k++)
      if (g->fit[i] != NULL && (g->fit[k] == NULL || g->fit_used[k] < g->fit_used[i])) i = k;
    if (g->fit[i] == NULL) {
      g->fit[i] = (uint16_t *)astar__alloc(&g->mem, g->ncell * sizeof(uint16_t));
      if (g->fit[i] == NULL) return;             /* no cache: every check worked out */
    }
    memset(g->fit[i], 0, g->ncell * sizeof(uint16_t));
    g->fit_r[i] = r;
  }
  g->fit_used[i] = ++g->fit_clock;
  if (i != 0) {                                  /* the current shape first */
    uint16_t *f = g->fit[0]; double fr = g->fit_r[0]; uint64_t u = g->fit_used[0];
    g->fit[0] = g->fit[i]; g->fit_r[0] = g->fit_r[i]; g->fit_used[0] = g->fit_used[i];
    g->fit[i] = f; g->fit_r[i] = fr; g->fit_used[i] = u;
  }
}

/* A cell's bits read the blocked cells within r + 1.5 of its centre, or, for
** a footprint, the cells of its own and its neighbours' footprints. */
void astar__grid_fit_forget(astar_grid *g, int x, int y, int w, int h) {
  int s;
  for (s = 0; s < FIT_SLOTS; s++) {
    double r = g->fit_r[s];
    long k = r < 0 ? (long)-r : 0, bw = k / 65536, bh = k % 65536;
    long m = k ? (bw > bh ? bw : bh) + 1 : (long)ceil(r) + 2, i, j;
    long x0 = x - m < -1 ? -1 : x - m, y0 = y - m < -1 ? -1 : y - m;
    long x1 = x + w + m > g->w ? g->w : x + w + m, y1 = y + h + m > g->h ? g->h : y + h + m;
    uint16_t *f = g->fit[s];
    if (f == NULL) continue;
    if ((x1 - x0 + 1) * (y1 - y0 + 1) * 2 > (long)g->ncell) {
      memset(f, 0, g->ncell * sizeof(uint16_t));
      continue;
    }
    for (j = y0; j <= y1; j++)
      for (i = x0; i <= x1; i++) f[(size_t)(j + 1) * g->stride + (size_t)(i + 1)] = 0;
  }
}

void astar__grid_fit_free(astar_grid *g) {
  int s;
  for (s = 0; s < FIT_SLOTS; s++) {
    astar__free(&g->mem, g->fit[s], g->fit[s] != NULL ? g->ncell * sizeof(uint16_t) : 0);
    g->fit[s] = NULL;
  }
}
