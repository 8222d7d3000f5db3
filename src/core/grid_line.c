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

/* floor(x) for the grid-sized numbers lines take (|x| < 2^52), without a
** call: the line test runs it for every column it crosses. */
static long lfloor(double x) {
  long i = (long)x;
  return i - ((double)i > x);
}

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

/* The y range of the segment's points whose x lies in [lo, hi] (which meets
** the segment's x range). */
static void yrange(double ax, double ay, double bx, double by, double lo, double hi,
                   double *ylo, double *yhi) {
  double xa = ax < bx ? ax : bx, xb = ax < bx ? bx : ax, ya, yb;
  if (lo < xa) lo = xa;
  if (hi > xb) hi = xb;
  if (xb == xa) {
    ya = ay; yb = by;
  } else {
    ya = ay + (lo - ax) * (by - ay) / (bx - ax);
    yb = ay + (hi - ax) * (by - ay) / (bx - ax);
  }
  *ylo = ya < yb ? ya : yb;
  *yhi = ya < yb ? yb : ya;
}

int astar_grid_line_clear(const astar_grid *g, double ax, double ay, double bx, double by,
                          double r) {
  double lim = r > TOUCH ? (r - TOUCH) * (r - TOUCH) : 0;
  long i, j, i0 = lfloor((ax < bx ? ax : bx) - r - TOUCH);
  long i1 = lfloor((ax < bx ? bx : ax) + r + TOUCH);
  for (i = i0; i <= i1; i++) {
    double ylo, yhi;
    long j0, j1;
    yrange(ax, ay, bx, by, (double)i - r - TOUCH, (double)i + 1 + r + TOUCH, &ylo, &yhi);
    j0 = lfloor(ylo - r - TOUCH);
    j1 = lfloor(yhi + r + TOUCH);
    for (j = j0; j <= j1; j++)
      if (blocked(g, i, j)) {
        double d2 = astar__grid_cell2(ax, ay, bx, by, i, j);
        if (d2 <= TOUCH * TOUCH || d2 < lim) return 0;
      }
  }
  return 1;
}

/* The cost of cell (i, j) for a piece of segment whose midpoint is (mx, my):
** a piece along a cell boundary pays the dearer cell beside it (blocked
** cells cost nothing here: a clear segment never runs along one). A piece
** merely near a boundary pays the cell it is in: where a segment crosses a
** boundary moves by rounding / slope, so even a segment 1e-7 off a boundary
** is priced to about 1e-9. */
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
/* String pulling                                                       */
/* ------------------------------------------------------------------ */

/* The cost of the segment a-b if it is clear for r, else -1. */
static double segcost(const astar_grid *g, const double *a, const double *b, double r) {
  if (!astar_grid_line_clear(g, a[0], a[1], b[0], b[1], r)) return -1;
  return astar_grid_line_integral(g, a[0], a[1], b[0], b[1]);
}

/* How much farther than r from every wall a moved point stays: a point that
** stopped within TOUCH of a wall line would leave no way on past it (every
** segment from it along the wall would touch), and the pull would stall. */
#define MARGIN 1e-7
/* and how much clearer than r the segments it makes keep: well above TOUCH,
** so that a point moved by rounding (x + 0.5 - 0.5) does not flip a line's
** verdict; below MARGIN, so that segments from points MARGIN off a wall pass */
#define SEGMARGIN 1e-8

/* Moves p (between a and b, whose two segments cost 'now') toward t, as far
** as bisection finds it MARGIN clear of r, both segments clear and together
** no dearer than now; returns what they cost afterwards. */
static double slide(const astar_grid *g, double r, const double *a, double *p, const double *b,
                    double tx, double ty, double now) {
  double lo = 0, hi = 1, best = now, q[2], c1, c2, d = hypot(tx - p[0], ty - p[1]);
  int k;
  for (k = 0; k < 40 && (hi - lo) * d > 1e-9; k++) {   /* to 1e-9 in distance */
    /* first the whole way, then 1e-7 of it (a point stuck at its corner stops there at
    ** once), then halving */
    double t = k == 0 ? 1 : k == 1 && d > 1e-7 ? 1e-7 / d : (lo + hi) / 2;
    q[0] = p[0] + t * (tx - p[0]);
    q[1] = p[1] + t * (ty - p[1]);
    c1 = astar_grid_line_clear(g, q[0], q[1], q[0], q[1], r + MARGIN)
             ? segcost(g, a, q, r + SEGMARGIN) : -1;
    c2 = c1 < 0 ? -1 : segcost(g, q, b, r + SEGMARGIN);
    if (c2 >= 0 && c1 + c2 <= now) {
      lo = t;
      best = c1 + c2;
      if (k == 0) break;
    } else if (k == 1) {
      break;                                   /* cannot move at all */
    } else hi = t;
  }
  if (lo > 0) {
    p[0] += lo * (tx - p[0]);
    p[1] += lo * (ty - p[1]);
  }
  return best;
}

/* The convex wall corners (one blocked cell of the four around a grid
** point) within 'reach' cells of p, each as the point MARGIN out along the
** corner's diagonal, where a taut string bends round it for r = 0. */
static int corners(const astar_grid *g, const double *p, long reach, double (*out)[2]) {
  static const int DX[4] = {1, -1, 1, -1}, DY[4] = {1, 1, -1, -1};
  long X0 = (long)floor(p[0] + 0.5), Y0 = (long)floor(p[1] + 0.5), X, Y;
  int n = 0;
  for (Y = Y0 - reach; Y <= Y0 + reach; Y++)
    for (X = X0 - reach; X <= X0 + reach; X++) {
      int k, which = -1, nb = 0;
      for (k = 0; k < 4; k++)             /* cells (X-1, Y-1), (X, Y-1), (X-1, Y), (X, Y) */
        if (blocked(g, X - 1 + (k & 1), Y - 1 + (k >> 1))) { nb++; which = k; }
      if (nb != 1) continue;
      out[n][0] = (double)X + DX[which] * MARGIN;
      out[n][1] = (double)Y + DY[which] * MARGIN;
      n++;
    }
  return n;
}

#define REACH 2                           /* corners(..., REACH, ...) needs (2R+1)^2 */
#define NEAR ((2 * REACH + 1) * (2 * REACH + 1))

/* For r = 0: puts p on the corner near it that makes its two segments
** cheapest, if they are clear there and cost at most a hair (8 MARGIN of
** their length) more than 'now'. Sliding alone can stall a point a little off its corner when
** its neighbour sits just around another corner of the same wall; this lines
** them up. Returns the segments' cost. */
static double snap(const astar_grid *g, const double *a, double *p, const double *b,
                   double now) {
  double len = hypot(p[0] - a[0], p[1] - a[1]) + hypot(b[0] - p[0], b[1] - p[1]);
  double q[NEAR][2], best = now + 8 * MARGIN * (len > 0 ? now / len : 1);   /* cost a unit */
  int n = corners(g, p, 1, q), k, at = -1;
  for (k = 0; k < n; k++) {
    double c1 = segcost(g, a, q[k], SEGMARGIN);
    double c2 = c1 < 0 ? -1 : segcost(g, q[k], b, SEGMARGIN);
    if (c2 >= 0 && c1 + c2 < best) { best = c1 + c2; at = k; }
  }
  if (at < 0) return now;
  p[0] = q[at][0];
  p[1] = q[at][1];
  return best;
}

/* For r = 0: whether two corners near p (a, p, b costing 'now') make a
** cheaper way from a to b than p does: a string wrapping both ends of a wall
** bends twice where one point stands now. Sets q1, q2 and returns 1 if so. */
static int split(const astar_grid *g, const double *a, const double *p, const double *b,
                 double now, double *q1, double *q2) {
  double q[NEAR][2], ca[NEAR], cb[NEAR], best = now * (1 - 1e-12);
  int n = corners(g, p, REACH, q), j, l, found = 0;
  for (j = 0; j < n; j++) {
    ca[j] = segcost(g, a, q[j], SEGMARGIN);
    cb[j] = segcost(g, q[j], b, SEGMARGIN);
  }
  for (j = 0; j < n; j++)
    for (l = 0; l < n; l++) {
      double cm;
      if (j == l || ca[j] < 0 || cb[l] < 0 || ca[j] + cb[l] >= best) continue;
      cm = segcost(g, q[j], q[l], SEGMARGIN);
      if (cm < 0 || ca[j] + cm + cb[l] >= best) continue;
      best = ca[j] + cm + cb[l];
      q1[0] = q[j][0]; q1[1] = q[j][1]; q2[0] = q[l][0]; q2[1] = q[l][1];
      found = 1;
    }
  return found;
}

/* Pulls point i (0 < i < n-1, both its segments clear): drops it when the
** straight segment does as well, else slides it toward the chord and along
** each of its segments, and for r = 0 snaps it to a corner. Returns the cost
** saved (a snap may cost a hair: a little below 0); *gone = 1 if it went. */
static double pull_one(const astar_grid *g, double r, double *xy, size_t i, int *gone) {
  double *a = xy + 2 * (i - 1), *p = xy + 2 * i, *b = xy + 2 * (i + 1);
  double c1 = segcost(g, a, p, r), c2 = c1 < 0 ? -1 : segcost(g, p, b, r), now, c, dx, dy,
         l2, t;
  if (c2 < 0) return 0;                         /* a step the policy allows, not a line */
  now = c1 + c2;
  c = segcost(g, a, b, r + SEGMARGIN);
  if (c >= 0 && c <= now) {
    *gone = 1;
    return now - c;
  }
  dx = b[0] - a[0]; dy = b[1] - a[1]; l2 = dx * dx + dy * dy;
  t = l2 > 0 ? ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l2 : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  c = slide(g, r, a, p, b, a[0] + t * dx, a[1] + t * dy, now);
  c = slide(g, r, a, p, b, a[0], a[1], c);
  c = slide(g, r, a, p, b, b[0], b[1], c);
  if (r == 0) c = snap(g, a, p, b, c);
  return now - c;
}

/* Moves the points from i on one place (dir 1: toward the end, making room
** at i; -1: over point i) with their link marks and prices. */
static void shift(double *xy, unsigned char *link, double *price, size_t n, size_t i, int dir) {
  size_t from = dir > 0 ? i : i + 1, to = dir > 0 ? i + 1 : i, m = n - from;
  memmove(xy + 2 * to, xy + 2 * from, 2 * m * sizeof(double));
  memmove(link + to, link + from, m * sizeof *link);
  memmove(price + to, price + from, m * sizeof *price);
}

size_t astar_grid_pull(const astar_grid *g, double *xy, size_t n, size_t cap, double r,
                       unsigned char *link, double *price, unsigned char *dirty) {
  int pass;
  memset(dirty, 1, cap);
  for (pass = 0; pass < 64; pass++) {
    double saved = 0, total = 1e-300, q1[2], q2[2];
    size_t i;
    for (i = 1; i + 1 < n; i++) {
      double *a = xy + 2 * (i - 1), *b = xy + 2 * (i + 1), s, c1, c2;
      int gone = 0;
      if (link[i] || link[i + 1] || !(dirty[i] & 1)) continue;   /* a link's ends stay */
      dirty[i] &= 2;                        /* bit 1: look again; bit 2: moved this pass */
      s = pull_one(g, r, xy, i, &gone);
      saved += s;
      if (gone) {                           /* the rest moves up one */
        shift(xy, link, price, n--, i, -1);
        memmove(dirty + i, dirty + i + 1, n - i);
        dirty[i - 1] |= 2; dirty[i] |= 2;
        saved += 1;                         /* one more pass at least */
        i--;
        continue;
      }
      if (s != 0) dirty[i - 1] |= 2, dirty[i] |= 2, dirty[i + 1] |= 2;
      c1 = r == 0 ? segcost(g, a, xy + 2 * i, 0) : -1;
      c2 = c1 < 0 ? -1 : segcost(g, xy + 2 * i, b, 0);
      if (r == 0 && n < cap && fabs(s) <= 1e-12 * (c1 + c2) && c2 >= 0 &&
          split(g, a, xy + 2 * i, b, c1 + c2, q1, q2)) {   /* stalled: two corners? */
        shift(xy, link, price, n++, i + 1, 1);
        memmove(dirty + i + 2, dirty + i + 1, n - i - 2);
        xy[2 * i] = q1[0]; xy[2 * i + 1] = q1[1];
        xy[2 * i + 2] = q2[0]; xy[2 * i + 3] = q2[1];
        link[i + 1] = 0;
        dirty[i - 1] |= 2; dirty[i] |= 2; dirty[i + 1] = 2; dirty[i + 2] |= 2;
        saved += 1;
        i++;
      }
      total += hypot(xy[2 * i] - xy[2 * i - 2], xy[2 * i + 1] - xy[2 * i - 1]);
    }
    for (i = 0; i < n; i++) dirty[i] >>= 1;  /* next pass: what moved, or whose neighbour did */
    if (fabs(saved) <= 1e-9 * total) break;
  }
  return n;
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
  long x = (long)(node % g->stride) - 1, y = (long)(node / g->stride) - 1;
  unsigned bits = FIT_KNOWN;
  int d;
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
  double x = (double)(node % g->stride) - 0.5, y = (double)(node / g->stride) - 0.5;
  unsigned bits = FIT_KNOWN;
  int d;
  if (r < 0) return box_bits(g, node, r);
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
