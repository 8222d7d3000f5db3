/*
** grid_pull.c - string pulling: the smoothed path of grid_line.c pulled taut,
** each bend moved onto the wall corner it wraps.
**
** On a grid of one cost with r = 0 the taut way from a to b round a bend p
** is exact: the convex chain of the wall corners inside the triangle a-p-b
** (taut_chain). Otherwise, and where that chain cannot be used, each bend
** slides by bisection toward the straight line and along its segments while
** both stay clear and cost no more (pull_one).
**
** Coordinates as in grid_line.c: cell (i, j) is the square [i, i+1] x
** [j, j+1].
*/
#include <math.h>
#include <string.h>
#include "grid_impl.h"

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

/* Lattice point (X, Y) moved MARGIN away from the blocked cells among the
** four around it, into q: along the diagonal from a convex corner's one
** cell, square off a straight wall. Returns how many of the four are
** blocked (1: a convex wall corner, where a taut string bends for r = 0). */
static int off_corner(const astar_grid *g, long X, long Y, double *q) {
  int k, sx = 0, sy = 0, nb = 0;
  for (k = 0; k < 4; k++)             /* cells (X-1, Y-1), (X, Y-1), (X-1, Y), (X, Y) */
    if (astar__grid_blocked(g, X - 1 + (k & 1), Y - 1 + (k >> 1))) {
      sx += k & 1 ? -1 : 1;
      sy += k >> 1 ? -1 : 1;
      nb++;
    }
  q[0] = (double)X + (sx > 0 ? MARGIN : sx < 0 ? -MARGIN : 0);
  q[1] = (double)Y + (sy > 0 ? MARGIN : sy < 0 ? -MARGIN : 0);
  return nb;
}

/* The convex wall corners within 'reach' cells of p, each MARGIN out along
** its diagonal (off_corner). */
static int corners(const astar_grid *g, const double *p, long reach, double (*out)[2]) {
  long X0 = (long)floor(p[0] + 0.5), Y0 = (long)floor(p[1] + 0.5), X, Y;
  int n = 0;
  for (Y = Y0 - reach; Y <= Y0 + reach; Y++)
    for (X = X0 - reach; X <= X0 + reach; X++)
      if (off_corner(g, X, Y, out[n]) == 1) n++;
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

/* ------------------------------------------------------------------ */
/* The exact taut chain: r = 0 on a grid of one cost                    */
/* ------------------------------------------------------------------ */

static double cross3(const double *o, const double *a, const double *b) {
  return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

/* The convex hull of the points added, in (y, x) order, by Andrew's
** monotone chain: one chain turning each way, from the first point added to
** the last. A convex polygon of lattice points in a box N cells across has
** at most about 3.5 N^(2/3) corners (1400 at N = 8192), the wall corners of
** real maps far fewer; 'full' says a chain ran out of room, and the bend
** then slides instead. */
#define HULL_MAX 512
typedef struct hull {
  double c[2][HULL_MAX][2];
  int n[2], full;
} hull;

static void hull_add(hull *h, const double *q) {
  int s;
  for (s = 0; s < 2; s++) {
    double (*c)[2] = h->c[s];
    int *n = &h->n[s];
    if (*n > 0 && c[*n - 1][0] == q[0] && c[*n - 1][1] == q[1]) continue;
    while (*n >= 2 && (s ? -1 : 1) * cross3(c[*n - 2], c[*n - 1], q) >= 0) --*n;
    if (*n == HULL_MAX) { h->full = 1; return; }
    c[*n][0] = q[0];
    c[*n][1] = q[1];
    ++*n;
  }
}

/* Adds q after the ends a and b (sorted: e[0] before e[1]) that come before it. */
static void hull_feed(hull *h, const double *q, const double *const *e, int *ne) {
  while (*ne < 2 && (e[*ne][1] < q[1] || (e[*ne][1] == q[1] && e[*ne][0] <= q[0])))
    hull_add(h, e[(*ne)++]);
  hull_add(h, q);
}

/* A triangle a-b-p: its corners in order and its orientation (sg = 1 if
** counterclockwise, else -1); for its x range on a line y = l, its corners
** by y (lo, mid, hi) and the x run per unit of y of its sides lo-hi, lo-mid
** and mid-hi (0 for a level side). */
typedef struct tri {
  const double *v[3], *lo, *mid, *hi;
  double sg, run[3];
} tri;

static double run_of(const double *u, const double *w) {
  return u[1] == w[1] ? 0 : (w[0] - u[0]) / (w[1] - u[1]);
}

static void tri_init(tri *t, const double *a, const double *b, const double *p, double sg) {
  const double *u;
  t->v[0] = a; t->v[1] = b; t->v[2] = p;
  t->sg = sg;
  t->lo = a; t->mid = b; t->hi = p;
  if (t->mid[1] < t->lo[1]) u = t->lo, t->lo = t->mid, t->mid = u;
  if (t->hi[1] < t->mid[1]) u = t->mid, t->mid = t->hi, t->hi = u;
  if (t->mid[1] < t->lo[1]) u = t->lo, t->lo = t->mid, t->mid = u;
  t->run[0] = run_of(t->lo, t->hi);
  t->run[1] = run_of(t->lo, t->mid);
  t->run[2] = run_of(t->mid, t->hi);
}

/* Is q inside the triangle (or on its sides)? */
static int tri_has(const tri *t, const double *q) {
  return t->sg * cross3(t->v[0], t->v[1], q) >= 0 && t->sg * cross3(t->v[1], t->v[2], q) >= 0 &&
         t->sg * cross3(t->v[2], t->v[0], q) >= 0;
}

/* Widens [*xl, *xr] (empty while *xl > *xr) to the triangle's x range on
** the line y = l: between its long side lo-hi and the two short ones. */
static void tri_span(const tri *t, double l, double *xl, double *xr) {
  double x0, x1;
  if (l < t->lo[1] || l > t->hi[1]) return;
  x0 = t->lo[0] + (l - t->lo[1]) * t->run[0];
  x1 = l < t->mid[1] ? t->lo[0] + (l - t->lo[1]) * t->run[1]
                     : t->mid[0] + (l - t->mid[1]) * t->run[2];
  if (x1 < x0) { double x = x0; x0 = x1; x1 = x; }
  if (*xl > *xr) { *xl = x0; *xr = x1; return; }
  if (x0 < *xl) *xl = x0;
  if (x1 > *xr) *xr = x1;
}

/* The leftmost and rightmost wall corners of a level y = const (x[0] > x[1]
** while none). */
typedef struct level { double y, x[2]; } level;

static void level_put(level *l, double x) {
  if (l->x[0] > l->x[1]) l->x[0] = l->x[1] = x;
  else if (x < l->x[0]) l->x[0] = x;
  else if (x > l->x[1]) l->x[1] = x;
}

static void level_feed(hull *h, const level *l, const double *const *e, int *ne) {
  double q[2];
  int k;
  for (k = 0; k < 2 && l->x[0] <= l->x[1]; k++) {
    if (k == 1 && l->x[1] == l->x[0]) break;
    q[0] = l->x[k]; q[1] = l->y;
    hull_feed(h, q, e, ne);
  }
}

/* Corners are numbered k: dx = k & 1 (0 the cell's left side, 1 its right),
** dy = k >> 1 (0 its lower side, 1 its upper). Is corner k of cell (i, j)
** of frame f a convex wall corner: the cell blocked, the two cells beside
** it across the cell's sides free (so the border's cells have none)? */
static int convex(const astar_grid *g, int f, long i, long j, int k) {
  return astar__frame_blocked(g, f, i, j) &&
         !astar__frame_blocked(g, f, k & 1 ? i + 1 : i - 1, j) &&
         !astar__frame_blocked(g, f, i, k >> 1 ? j + 1 : j - 1);
}

/* Does the cell of corner k of cell (i, j) reach into triangle t there: does
** the corner moved MARGIN into the cell lie in t? (The corner itself may lie
** on t's sides while its cell lies outside, as where the bend p stands on the
** corner of a wall its string does not wrap; where p does wrap it, the
** cell's quarter of the plane at p lies inside t's angle.) */
static int reaches(const tri *t, long i, long j, int k) {
  double in[2];
  in[0] = (double)(i + (k & 1)) + (k & 1 ? -MARGIN : MARGIN);
  in[1] = (double)(j + (k >> 1)) + (k >> 1 ? -MARGIN : MARGIN);
  return tri_has(t, in);
}

/* Corner k of blocked cell (i, j), MARGIN out along its diagonal, into its
** level if its cell reaches into triangle t. */
static void corner_put(const tri *t, level *lv, long i, long j, int k) {
  if (reaches(t, i, j, k))
    level_put(&lv[k >> 1], (double)(i + (k & 1)) + (k & 1 ? MARGIN : -MARGIN));
}

/* Line j of cells of frame f (0 <= j < its height): the convex wall corners
** of its blocked cells inside triangle t, into the levels of its lower (y =
** j - MARGIN) and upper edge. From the bit lines of jump point search when
** the grid has them (the rule of convex() on 55 cells at once), else cell by
** cell. */
static void line_corners(const astar_grid *g, int f, const tri *t, long j, level *lv) {
  double lo = 1, hi = 0;
  long i, i0, i1, w = f ? g->h : g->w;
  int k;
  for (k = 0; k < 2; k++) {
    lv[k].x[0] = 1; lv[k].x[1] = 0;
    lv[k].y = (double)(j + k) + (k ? MARGIN : -MARGIN);
    tri_span(t, lv[k].y, &lo, &hi);
  }
  if (hi < lo) return;
  i0 = astar__lfloor(lo - 1 - MARGIN);
  i1 = astar__lfloor(hi + MARGIN);
  if (i0 < 0) i0 = 0;
  if (i1 > w - 1) i1 = w - 1;
  if (g->rows != NULL) {
    /* padded lines j, j + 1, j + 2: cell lines j - 1, j, j + 1; bit b of a
    ** window from padded cell i is cell i - 1 + b */
    size_t lw = f ? g->cw : g->rw;
    const uint64_t *lm = (f ? g->cols : g->rows) + (size_t)j * lw, *l0 = lm + lw, *lp = l0 + lw;
    for (i = i0; i <= i1; i += ASTAR_WIN - 2) {
      long c = i1 - i + 1 < ASTAR_WIN - 2 ? i1 - i + 1 : ASTAR_WIN - 2;
      uint64_t wm = astar__window(lm, i), w0 = astar__window(l0, i), wp = astar__window(lp, i);
      uint64_t bl = ~w0 & ((((uint64_t)1 << c) - 1) << 1);
      uint64_t side[2], m;
      side[0] = bl & (w0 << 1);                  /* free on the left */
      side[1] = bl & (w0 >> 1);                  /* on the right */
      for (k = 0; k < 4; k++)
        for (m = side[k & 1] & (k >> 1 ? wp : wm); m != 0; m &= m - 1)
          corner_put(t, lv, i - 1 + astar__lowbit(m), j, k);
    }
    return;
  }
  for (i = i0; i <= i1; i++)
    for (k = 0; k < 4; k++)
      if (convex(g, f, i, j, k)) corner_put(t, lv, i, j, k);
}

/* The hull of a, b and the wall corners inside triangle t (a-b-p in frame
** f), line by line of cells. */
static void hull_scan(const astar_grid *g, int f, const tri *t, const double *a,
                      const double *b, hull *h) {
  const double *e[2];
  level lv[2], top;
  long j, j0 = astar__lfloor(t->lo[1] - 1 - MARGIN), j1 = astar__lfloor(t->hi[1] + MARGIN);
  int ne = 0;
  e[0] = a[1] < b[1] || (a[1] == b[1] && a[0] <= b[0]) ? a : b;
  e[1] = e[0] == a ? b : a;
  h->n[0] = h->n[1] = h->full = 0;
  top.x[0] = 1; top.x[1] = 0; top.y = 0;
  if (j0 < 0) j0 = 0;
  if (j1 > (f ? g->w : g->h) - 1) j1 = (f ? g->w : g->h) - 1;
  for (j = j0; j <= j1; j++) {                 /* levels in order: j - M, then j + M */
    line_corners(g, f, t, j, lv);
    level_feed(h, &lv[0], e, &ne);
    level_feed(h, &top, e, &ne);
    top = lv[1];
  }
  level_feed(h, &top, e, &ne);
  while (ne < 2) hull_add(h, e[ne++]);
}

/* Of the hull's two arcs from a to b, the one with corners, which must all
** lie on p's side of a-b (sg: that side): its corners from a's end into out
** (room for cap), back in the grid's frame from frame f. Returns how many,
** or -1 if the hull is not that. */
static int hull_arc(hull *h, const double *a, const double *b, double sg, int f,
                    double (*out)[2], int cap) {
  double (*cyc)[2] = h->c[0];
  int m = h->n[0], k, ia = -1, ib = -1, len, dir = 1;
  if (h->full) return -1;
  for (k = h->n[1] - 2; k >= 1; k--) {         /* the cycle: chain 0, then chain 1 back */
    if (m == HULL_MAX) return -1;
    cyc[m][0] = h->c[1][k][0]; cyc[m][1] = h->c[1][k][1];
    m++;
  }
  for (k = 0; k < m; k++) {
    if (cyc[k][0] == a[0] && cyc[k][1] == a[1]) ia = k;
    if (cyc[k][0] == b[0] && cyc[k][1] == b[1]) ib = k;
  }
  if (ia < 0 || ib < 0 || ia == ib) return -1;
  len = (ib - ia + m) % m - 1;
  if (len == 0) { len = m - 2; dir = -1; }
  else if (len != m - 2) return -1;
  if (len > cap) return -1;
  for (k = 0; k < len; k++) {
    const double *v = cyc[((ia + dir * (k + 1)) % m + m) % m];
    if (sg * cross3(a, b, v) <= 0) return -1;
    out[k][f] = v[0];
    out[k][!f] = v[1];
  }
  return len;
}

/* The way from a to b round the bend p pulled taut, for r = 0 on a grid of
** one cost: the arc of the convex hull of a, b and the wall corners inside
** the triangle a-p-b that faces p (the shortest way that keeps every wall
** of the triangle on the same side as the bend does). Writes its corners,
** from a's end, to out (room for cap) and returns how many (0: straight), or
** -1 if the triangle is flat or the chain does not fit. The triangle is
** scanned along the axis across which it has fewer lines of cells. */
static int taut_chain(const astar_grid *g, const double *a0, const double *p0,
                      const double *b0, double (*out)[2], int cap) {
  int f = fabs(fmax(a0[0], fmax(b0[0], p0[0])) - fmin(a0[0], fmin(b0[0], p0[0]))) <
          fabs(fmax(a0[1], fmax(b0[1], p0[1])) - fmin(a0[1], fmin(b0[1], p0[1])));
  double a[2], p[2], b[2], s;
  tri t;
  hull h;
  a[0] = a0[f]; a[1] = a0[!f];
  p[0] = p0[f]; p[1] = p0[!f];
  b[0] = b0[f]; b[1] = b0[!f];
  s = cross3(a, b, p);
  if (s == 0) return -1;
  tri_init(&t, a, b, p, s > 0 ? 1 : -1);
  hull_scan(g, f, &t, a, b, &h);
  return hull_arc(&h, a, b, t.sg, f, out, cap);
}

#define CHAIN_OUT 64

/* Is p a wall corner (MARGIN out along its diagonal, as taut_chain puts
** them) whose cell reaches into the triangle a-p-b? Then p is on the taut
** chain, and the chain is the two sides a-p and p-b (they are clear): the
** bend is taut, and no scan need say so. */
static int wraps_corner(const astar_grid *g, const double *a, const double *p,
                        const double *b) {
  double X = floor(p[0] + 0.5), Y = floor(p[1] + 0.5), s = cross3(a, b, p);
  int k = (p[0] > X) | (p[1] > Y) << 1;
  long i = (long)X - (k & 1), j = (long)Y - (k >> 1);
  tri t;
  if (fabs(fabs(p[0] - X) - MARGIN) > MARGIN / 8 || fabs(fabs(p[1] - Y) - MARGIN) > MARGIN / 8 ||
      s == 0 || !convex(g, 0, i, j, k))
    return 0;
  tri_init(&t, a, b, p, s > 0 ? 1 : -1);
  return reaches(&t, i, j, k);
}

#define TAUT (-2)

/* For r = 0 on a grid of one cost: the taut chain replacing point i, into q
** (room for CHAIN_OUT), if every segment of it is clear and the arrays have
** room for it (n points of cap); the number of its points, TAUT if the bend
** is taut already, else -1. */
static int taut_pull(const astar_grid *g, const double *xy, size_t n, size_t cap, size_t i,
                     double (*q)[2]) {
  const double *a = xy + 2 * (i - 1), *p = xy + 2 * i, *b = xy + 2 * (i + 1), *u = a;
  int k, l;
  if (wraps_corner(g, a, p, b)) return TAUT;
  k = taut_chain(g, a, p, b, q, CHAIN_OUT);
  if (k == 1 && q[0][0] == p[0] && q[0][1] == p[1]) return TAUT;
  if (k < 0 || n - 1 + (size_t)k > cap) return -1;
  for (l = 0; l <= k; l++) {
    const double *v = l < k ? q[l] : b;
    if (!astar_grid_line_clear(g, u[0], u[1], v[0], v[1], SEGMARGIN)) return -1;
    u = v;
  }
  return k;
}

/* The length of the polyline a, q[0..k-1], b. */
static double chain_len(const double *a, const double (*q)[2], int k, const double *b) {
  double len = 0;
  const double *u = a;
  int l;
  for (l = 0; l <= k; l++) {
    const double *v = l < k ? q[l] : b;
    len += hypot(v[0] - u[0], v[1] - u[1]);
    u = v;
  }
  return len;
}

/* ------------------------------------------------------------------ */

/* Replaces point i of n by the k points q (k >= 0; lines, not links),
** moving the rest with their link marks, prices and dirty bits; marks the
** neighbours to look at again: the one before in the next pass, the one
** after in the next pass or, if 'taut', in this one (it comes next); and
** unless 'taut', the new points (a taut chain's corners are taut already).
** Returns the new number of points (the arrays have room). */
static size_t splice(double *xy, unsigned char *link, double *price, unsigned char *dirty,
                     size_t n, size_t i, const double (*q)[2], size_t k, int taut) {
  size_t m = n - i - 1, l;
  memmove(xy + 2 * (i + k), xy + 2 * (i + 1), 2 * m * sizeof(double));
  memmove(link + i + k, link + i + 1, m);
  memmove(price + i + k, price + i + 1, m * sizeof *price);
  memmove(dirty + i + k, dirty + i + 1, m);
  for (l = 0; l < k; l++) {
    xy[2 * (i + l)] = q[l][0];
    xy[2 * (i + l) + 1] = q[l][1];
    link[i + l] = 0;
    price[i + l] = 0;
    dirty[i + l] = taut ? 0 : 2;
  }
  dirty[i - 1] |= 2;
  dirty[i + k] |= taut ? 1 : 2;
  return n + k - 1;
}

size_t astar_grid_pull(const astar_grid *g, double *xy, size_t n, size_t cap, double r,
                       unsigned char *link, double *price, unsigned char *dirty) {
  int pass, taut = r == 0 && astar__grid_one_cost(g);
  memset(dirty, 1, cap);
  for (pass = 0; pass < 64; pass++) {
    double saved = 0, total = 1e-300, q[CHAIN_OUT][2];
    size_t i;
    for (i = 1; i + 1 < n; i++) {
      double *a = xy + 2 * (i - 1), *b = xy + 2 * (i + 1), s, c1, c2;
      int gone = 0, k;
      if (link[i] || link[i + 1] || !(dirty[i] & 1)) continue;   /* a link's ends stay */
      dirty[i] &= 2;                        /* bit 1: look again; bit 2: moved this pass */
      k = taut ? taut_pull(g, xy, n, cap, i, q) : -1;
      if (k == TAUT) continue;
      if (k >= 0) {
        saved += chain_len(a, (const double (*)[2])(xy + 2 * i), 1, b) -
                 chain_len(a, (const double (*)[2])q, k, b) + 1;   /* one more pass at least */
        n = splice(xy, link, price, dirty, n, i, (const double (*)[2])q, (size_t)k, 1);
        i = i + (size_t)k - 1;
        continue;
      }
      s = pull_one(g, r, xy, i, &gone);
      saved += s;
      if (gone) {                           /* the rest moves up one */
        n = splice(xy, link, price, dirty, n, i, NULL, 0, 0);
        saved += 1;                         /* one more pass at least */
        i--;
        continue;
      }
      if (s != 0) dirty[i - 1] |= 2, dirty[i] |= 2, dirty[i + 1] |= 2;
      c1 = r == 0 ? segcost(g, a, xy + 2 * i, 0) : -1;
      c2 = c1 < 0 ? -1 : segcost(g, xy + 2 * i, b, 0);
      if (r == 0 && n < cap && fabs(s) <= 1e-12 * (c1 + c2) && c2 >= 0 &&
          split(g, a, xy + 2 * i, b, c1 + c2, q[0], q[1])) {   /* stalled: two corners? */
        n = splice(xy, link, price, dirty, n, i, (const double (*)[2])q, 2, 0);
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
/* The whole path at once: the funnel through the runs of free cells    */
/* ------------------------------------------------------------------ */

/* Seen as a navmesh, the free cells of each row fall into runs (maximal
** horizontal stretches of free cells), each a rectangle, and two runs of
** neighbouring rows meet along a portal: the stretch of the line between
** the rows where both cells are free. Both ends of a portal are wall corners
** (or the border), so each portal cuts the walkable plane in two; the runs a
** path crosses, less the crossings it takes back at once, are then the only
** corridor that holds the shortest way with the walls on the path's sides,
** and the funnel through their portals (funnel.c) is that way. */

/* Is cell (i, j) of frame f free? */
static int cell_free(const astar_grid *g, int f, long i, long j) {
  return !astar__frame_blocked(g, f, i, j);
}

/* The portal crossed at column c between rows j and j + 1 of frame f (both
** cells free): the stretch [*x0, *x1] (grid units) of the line y = j + 1
** where the cells on either side are free. From the bit lines of jump point
** search when the grid has them (56 cells a load), else cell by cell. */
static void portal_at(const astar_grid *g, int f, long c, long j, long *x0, long *x1) {
  if (g->rows != NULL) {
    size_t lw = f ? g->cw : g->rw;
    const uint64_t *la = (f ? g->cols : g->rows) + (size_t)(j + 1) * lw, *lb = la + lw;
    const uint64_t below = ((uint64_t)1 << (ASTAR_WIN - 1)) - 1;   /* bits under cell c */
    long i;
    for (i = c;; i -= ASTAR_WIN - 1) {       /* bit ASTAR_WIN - 1 of the window: cell i */
      long s = i - (ASTAR_WIN - 1);
      uint64_t m = ~(astar__window(la, s + 1) & astar__window(lb, s + 1)) & below;
      if (m != 0) { *x0 = s + astar__highbit(m) + 1; break; }
    }
    for (i = c;; i += ASTAR_WIN - 1) {       /* bit 0: cell i */
      uint64_t m = ~(astar__window(la, i + 1) & astar__window(lb, i + 1)) & (below << 1);
      if (m != 0) { *x1 = i + astar__lowbit(m); break; }
    }
    return;
  }
  for (*x0 = c; cell_free(g, f, *x0 - 1, j) && cell_free(g, f, *x0 - 1, j + 1); --*x0) {}
  for (*x1 = c + 1; cell_free(g, f, *x1, j) && cell_free(g, f, *x1, j + 1); ++*x1) {}
}

/* Portal of the step from cell (x0, y0) to (x1, y1) of frame f (a king's
** move to the next row, both cells free) into l, r (as the traveller sees
** them, in frame f); 0 if it cannot be: a diagonal between two blocked
** cells, which no line may take. */
static int step_portal(const astar_grid *g, int f, long x0, long y0, long x1, long y1,
                       double *l, double *r) {
  long c = x0, j = y0 < y1 ? y0 : y1, a, b;
  if (x1 != x0) {                      /* along the row first, or across it first */
    if (cell_free(g, f, x1, y0)) c = x1;
    else if (!cell_free(g, f, x0, y1)) return 0;
  }
  portal_at(g, f, c, j, &a, &b);
  l[1] = r[1] = (double)(j + 1);
  l[0] = (double)(y1 > y0 ? a : b);    /* going up (y grows), the left end has the lower x */
  r[0] = (double)(y1 > y0 ? b : a);
  return 1;
}

/* Is the segment from point a to point b of xy clear (for r = 0, SEGMARGIN)? */
static int seg_clear(const astar_grid *g, const double *xy, size_t a, size_t b) {
  return astar_grid_line_clear(g, xy[2 * a], xy[2 * a + 1], xy[2 * b], xy[2 * b + 1], SEGMARGIN);
}

/* Is the segment from point a to point c of xy clear, where b is the bend
** between them? First the piece of it within 2 of the point nearest b,
** where the wall the path bends round usually meets it, then the whole. */
static int chord_clear(const astar_grid *g, const double *xy, size_t a, size_t b, size_t c) {
  const double *A = xy + 2 * a, *B = xy + 2 * b, *C = xy + 2 * c;
  double dx = C[0] - A[0], dy = C[1] - A[1], l2 = dx * dx + dy * dy, t, t0, t1, e;
  if (l2 > 16) {
    t = ((B[0] - A[0]) * dx + (B[1] - A[1]) * dy) / l2;
    e = 2 / sqrt(l2);
    t0 = t - e < 0 ? 0 : t - e;
    t1 = t + e > 1 ? 1 : t + e;
    if (t0 < t1 && !astar_grid_line_clear(g, A[0] + t0 * dx, A[1] + t0 * dy, A[0] + t1 * dx,
                                          A[1] + t1 * dy, SEGMARGIN))
      return 0;
  }
  return seg_clear(g, xy, a, c);
}

/* The wall corners that the segment from A to B (each a funnel's point:
** a lattice point 1e-7 off, or a cell's centre) meets exactly between them,
** each moved off as the funnel's corners are, into out (room for max; NULL:
** only counted); returns how many. The funnel keeps a corner in line with the
** last one only where the string turns, but a string that touches several
** corners on one line (a diagonal through a door one cell wide) must stand
** off each of them. */
static size_t on_line(const astar_grid *g, const double *A, const double *B, double *out,
                      size_t max) {
  long ax = (long)floor(2 * A[0] + 0.5), ay = (long)floor(2 * A[1] + 0.5);   /* half cells */
  long dx = (long)floor(2 * B[0] + 0.5) - ax, dy = (long)floor(2 * B[1] + 0.5) - ay;
  long u = dx < 0 ? -dx : dx, w = dy < 0 ? -dy : dy, t;
  size_t k = 0;
  while (w != 0) { long x = u % w; u = w; w = x; }          /* u = gcd(|dx|, |dy|) */
  for (t = 1; t < u; t++) {
    long px = ax + t * (dx / u), py = ay + t * (dy / u);
    double q[2];
    if ((px | py) & 1 || off_corner(g, px / 2, py / 2, q) == 0) continue;   /* no wall there */
    if (out != NULL && k < max) { out[2 * k] = q[0]; out[2 * k + 1] = q[1]; }
    k++;
  }
  return k;
}

/* The funnel's n points xy (room for cap) checked and freed of the walls
** the path went round that a straight line passes on the other side: from
** each kept point, a corner goes while the segment to the corner after it
** is clear (Pinter's pass over the corners), and where any went, the string
** is pulled taut again (astar_grid_pull; 'work': scratch of 2 cap
** doubles). Returns the number of points, or 0 if a segment of the funnel's
** is not clear. */
static size_t islands(const astar_grid *g, double *xy, size_t n, size_t cap, double *work) {
  size_t i, a = 0, m = 1, gone = 0;
  int known = 0;                      /* the segment from a to i was found clear */
  for (i = 1; i < n; i++) {
    if (i + 1 < n && chord_clear(g, xy, a, i, i + 1)) {
      known = 1;
      gone++;
      continue;
    }
    if (!known && !seg_clear(g, xy, a, i)) {   /* stand off the corners on the way */
      size_t add = on_line(g, xy + 2 * a, xy + 2 * i, NULL, 0);
      if (add == 0 || n + add > cap) return 0;
      memmove(xy + 2 * (i + add), xy + 2 * i, 2 * (n - i) * sizeof(double));
      on_line(g, xy + 2 * a, xy + 2 * (i + add), xy + 2 * i, add);
      n += add;
      i--;                             /* again from the first of them */
      continue;
    }
    xy[2 * m] = xy[2 * i]; xy[2 * m + 1] = xy[2 * i + 1];
    a = m++;
    known = 0;
  }
  if (gone > 0) {
    unsigned char *link = (unsigned char *)(work + cap);
    memset(link, 0, cap);
    memset(work, 0, cap * sizeof(double));
    m = astar_grid_pull(g, xy, m, cap, 0, link, work, link + cap);
  }
  return m;
}

size_t astar_grid_taut(astar_grid *g, const double *v, size_t n, double shift,
                       const double **pts) {
  double (*l)[2], (*r)[2], *out;
  uint32_t *code;
  size_t np = 0, k, nc, across[2] = {0, 0};
  double px, py;
  int f;
  if (n < 2 || n > UINT32_MAX / 2 - 2 || n > ((size_t)-1 / sizeof(double) - 8) / 7 - 2 ||
      astar__reserve(&g->mem, (void **)&g->taut, &g->ctaut, 7 * (n + 2), sizeof(double)))
    return 0;
  out = g->taut;
  l = (double (*)[2])(out + 2 * (n + 2)); r = l + (n + 1);
  code = (uint32_t *)(void *)(r + (n + 1));
  for (k = 1; k < n; k += 3) {         /* steps that change x, and y (every third) */
    across[0] += v[2 * k] != v[2 * k - 2];
    across[1] += v[2 * k + 1] != v[2 * k - 1];
  }
  f = across[0] < across[1];           /* runs along the axis the path crosses less */
  l[0][0] = r[0][0] = v[f] - shift; l[0][1] = r[0][1] = v[!f] - shift;
  px = v[f]; py = v[!f];
  for (k = 1; k < n; k++) {
    double qx = v[2 * k + f], qy = v[2 * k + !f];
    if (qy == py) {                    /* along the row: one cell */
      if (fabs(qx - px) != 1) return 0;
      px = qx;
      continue;
    }
    if (fabs(qy - py) != 1 || fabs(qx - px) > 1 ||
        !step_portal(g, f, (long)(px - shift), (long)(py - shift), (long)(qx - shift),
                     (long)(qy - shift), l[np + 1], r[np + 1]))
      return 0;
    px = qx; py = qy;
    if (np > 0 && l[np][0] == r[np + 1][0] && r[np][0] == l[np + 1][0] &&
        l[np][1] == l[np + 1][1])
      np--;                            /* back through the portal it came by */
    else
      np++;
  }
  np++;                                /* the goal */
  l[np][0] = r[np][0] = v[2 * n - 2 + f] - shift;
  l[np][1] = r[np][1] = v[2 * n - 1 - f] - shift;
  nc = astar__funnel((const double (*)[2])l, (const double (*)[2])r, np, code);
  for (k = 0; k < nc; k++) {            /* back in the grid's frame */
    const double *e = code[k] & 1 ? r[code[k] >> 1] : l[code[k] >> 1];
    if (k == 0 || k + 1 == nc) {
      out[2 * k] = e[f]; out[2 * k + 1] = e[!f];
    } else
      off_corner(g, (long)e[f], (long)e[!f], out + 2 * k);
  }
  *pts = out;
  return islands(g, out, nc, n + 2, (double *)l);
}
