/*
** navmesh_locate.c - points on a navmesh: the polygon holding a point, the
** nearest point, clearance to the walls, and raycasts.
*/
#include "navmesh_impl.h"

/* ------------------------------------------------------------------ */
/* Points                                                               */
/* ------------------------------------------------------------------ */

int astar__nm_allowed(const astar_navmesh *m, uint32_t p, uint32_t inc, uint32_t exc) {
  return (m->flags[p] & inc) != 0 && (m->flags[p] & exc) == 0;
}

static int inpoly(const astar_navmesh *m, uint32_t p, double x, double y) {
  uint32_t h, a = m->pstart[p], b = m->pstart[p + 1];
  for (h = a; h < b; h++) {
    uint32_t u = m->hv[h], v = m->hv[h + 1 < b ? h + 1 : a];
    double dx = VX(m, v) - VX(m, u), dy = VY(m, v) - VY(m, u);
    double c = cross2(dx, dy, x - VX(m, u), y - VY(m, u));
    if (c < 0 && c < -m->eps * hypot(dx, dy)) return 0;   /* the length only when it matters */
  }
  return 1;
}

/* The polygons holding (x, y), at most 'max' into out, through the bucket
** grid; with 'filter', only those the flags inc/exc allow. Returns how many. */
int astar__nm_holders(const astar_navmesh *m, double x, double y, int filter, uint32_t inc,
                   uint32_t exc, uint32_t *out, int max) {
  uint32_t bx, by, i;
  size_t b;
  int n = 0;
  if (!(x >= m->box[0] - m->eps && x <= m->box[2] + m->eps &&
        y >= m->box[1] - m->eps && y <= m->box[3] + m->eps)) return 0;
  astar__nm_brange(m, x, y, x, y, &bx, &by, &bx, &by);
  b = (size_t)by * m->bw + bx;
  for (i = m->bps[b]; i < m->bps[b + 1] && n < max; i++) {
    uint32_t p = m->bpl[i];
    if ((!filter || astar__nm_allowed(m, p, inc, exc)) && inpoly(m, p, x, y)) out[n++] = p;
  }
  return n;
}

/* The first polygon holding (x, y) that the flags allow. */
uint32_t astar__nm_locatef(const astar_navmesh *m, double x, double y, uint32_t inc, uint32_t exc) {
  uint32_t p;
  return astar__nm_holders(m, x, y, 1, inc, exc, &p, 1) ? p : NONE;
}

uint32_t astar_navmesh_locate(const astar_navmesh *m, double x, double y) {
  uint32_t p;
  return astar__nm_holders(m, x, y, 0, 0, 0, &p, 1) ? p : NONE;
}

/* The wall half-edge nearest to (x, y) within 'limit': ring search over the
** buckets. Returns the half-edge (NONE if none) and the point in *cx, *cy. */
static uint32_t nearestwall(const astar_navmesh *m, double x, double y, double limit,
                            double *best, double *cx, double *cy) {
  uint32_t bx, by, found = NONE;
  long r, rmax = (long)(m->bw > m->bh ? m->bw : m->bh);
  double outside, px, py;
  *best = limit;
  px = fmin(fmax(x, m->box[0]), m->box[2]); py = fmin(fmax(y, m->box[1]), m->box[3]);
  outside = hypot(x - px, y - py);
  astar__nm_brange(m, px, py, px, py, &bx, &by, &bx, &by);
  for (r = 0; r <= rmax; r++) {
    long ix, iy;
    /* walls in ring r are (r - 1) cells from the clamped point, which is the
    ** nearest point of the box to (x, y): at least the hypotenuse away */
    if (r > 0 && hypot(outside, (double)(r - 1) * m->cell) > *best) break;
    for (iy = (long)by - r; iy <= (long)by + r; iy++) {
      if (iy < 0 || iy >= (long)m->bh) continue;
      for (ix = (long)bx - r; ix <= (long)bx + r; ix++) {
        size_t b;
        uint32_t i;
        if (ix < 0 || ix >= (long)m->bw) continue;
        if (iy != (long)by - r && iy != (long)by + r && ix != (long)bx - r && ix != (long)bx + r)
          continue;                                    /* ring only */
        b = (size_t)iy * m->bw + (size_t)ix;
        for (i = m->bws[b]; i < m->bws[b + 1]; i++) {
          uint32_t h = m->bwl[i], u = m->hv[h], v = m->hv[nexthe(m, h)];
          double qx, qy, d = segdist(x, y, VX(m, u), VY(m, u), VX(m, v), VY(m, v), &qx, &qy);
          if (d < *best) { *best = d; found = h; *cx = qx; *cy = qy; }
        }
      }
    }
  }
  return found;
}

double astar_navmesh_clearance(const astar_navmesh *m, double x, double y) {
  double d, cx, cy;
  nearestwall(m, x, y, HUGE_VAL, &d, &cx, &cy);
  return d;
}

uint32_t astar_navmesh_nearest(const astar_navmesh *m, double x, double y,
                               double *nx, double *ny) {
  double d;
  uint32_t p = astar_navmesh_locate(m, x, y), h;
  if (p != NONE) { *nx = x; *ny = y; return p; }
  h = nearestwall(m, x, y, HUGE_VAL, &d, nx, ny);
  return h == NONE ? NONE : m->hpoly[h];
}

/* The parameter along (x0, y0) + t (dx, dy) where the segment leaves the
** convex polygon p (edges it runs along do not count: p is closed): where it
** crosses an edge's line, or with 'tol' gets 'tol' beyond it (inpoly's
** closed polygons: a segment grazing a wall from a point on it stays). */
static double leaves(const astar_navmesh *m, uint32_t p, double x0, double y0, double dx,
                     double dy, double tol) {
  uint32_t h;
  double texit = HUGE_VAL;
  for (h = m->pstart[p]; h < m->pstart[p + 1]; h++) {
    uint32_t u = m->hv[h], v = m->hv[nexthe(m, h)];
    double ex = VX(m, v) - VX(m, u), ey = VY(m, v) - VY(m, u);
    double den = cross2(ex, ey, dx, dy);
    if (den < 0) {
      double te = (cross2(ex, ey, x0 - VX(m, u), y0 - VY(m, u)) + tol * hypot(ex, ey)) / -den;
      if (te < texit) texit = te;
    }
  }
  return texit;
}

/*
** The segment is on the mesh when the closed allowed polygons cover it. The
** walk does not follow adjacency (a segment along a wall line, or through a
** vertex, has a choice of polygons there, and which one the adjacency picks
** depends on the direction): at each point it reached, it looks up every
** allowed polygon holding the point a hair further on, and jumps to where the
** one reaching furthest lets the segment go (eps beyond its walls, as inpoly
** holds points: from a point on a wall line, a segment running out along it at
** a grazing angle stays). So the answer does not depend on the direction, and
** a path's segments (along walls, through corners) pass. Each step reaches a
** new polygon (at most np + 1 steps; capped all the same). Where it leaves is
** where it crosses the last polygon's wall line, no earlier than it entered.
*/
int astar_navmesh_raycast(const astar_navmesh *m, double x0, double y0, double x1,
                          double y1, uint32_t inc, uint32_t exc,
                          double *hx, double *hy, uint32_t *hpoly) {
  double dx = x1 - x0, dy = y1 - y0, len = hypot(dx, dy), t = 0, hair;
  double entry = 0;                 /* where the walk took polygon p */
  uint32_t p = astar__nm_locatef(m, x0, y0, inc, exc), steps = 0;
  if (p == NONE) return -1;
  if (!(len > 0)) return 1;
  hair = 8 * m->eps / len;
  for (;;) {
    uint32_t q[16];
    double ta = t + hair < 1 ? t + hair : 1, best = t;
    int i, n = astar__nm_holders(m, x0 + dx * ta, y0 + dy * ta, 1, inc, exc, q, 16);
    for (i = 0; i < n; i++) {
      double te = leaves(m, q[i], x0, y0, dx, dy, m->eps);
      if (te > best) { best = te; p = q[i]; entry = t; }
    }
    if (best >= 1) return 1;
    if (!(best > t + hair / 2) || ++steps > 4 * m->np + 8) {
      double tx = fmin(fmax(leaves(m, p, x0, y0, dx, dy, 0), entry), t);
      *hx = x0 + dx * tx; *hy = y0 + dy * tx; *hpoly = p;
      return 0;
    }
    t = best;
  }
}
