/*
** navmesh_funnel.c - from the portal search's nodes to a path: the polygon
** corridor, the funnel (string pulling, widened around corners for a radius),
** the path's cost and clearance, and closing portals too narrow for it.
*/
#include "navmesh_impl.h"

/* ------------------------------------------------------------------ */
/* Corridor, funnel, cost                                               */
/* ------------------------------------------------------------------ */

/* The polygon of half-edge h's portal that is not p. */
static uint32_t across(const astar_navmesh *m, uint32_t portal, uint32_t p) {
  uint32_t h = m->phe[portal];
  return m->hpoly[h] == p ? m->hn[h] : m->hpoly[h];
}

static int hasportal(const astar_navmesh *m, uint32_t p, uint32_t portal) {
  uint32_t h = m->phe[portal];
  return m->hpoly[h] == p || m->hn[h] == p;
}

/* Drops the loops of the corridor q->w->corr (polygons, then portals): when a
** polygon comes again, what lies between its two visits goes. A link (a
** portal NONE) starts afresh: a path may come back through one. */
int astar__nm_unloop(astar_navmesh_query *q) {
  size_t n = q->w->ncorr, c = 0, i, t, old = q->w->cppos, base = 0;
  uint32_t *poly = q->w->corr, *port = q->w->corr + n;
  if (astar__reserve(&q->w->mem, (void **)&q->w->ppos, &q->w->cppos, q->mesh->np,
                     sizeof(uint32_t)))
    return ASTAR_ENOMEM;
  if (q->w->cppos > old) memset(q->w->ppos + old, 0xff, (q->w->cppos - old) * sizeof(uint32_t));
  for (i = 0; i < n; i++) {
    uint32_t X = poly[i];
    if (i > 0 && port[i - 1] == NONE) {         /* after a link */
      for (t = base; t < c; t++) q->w->ppos[poly[t]] = NONE;
      base = c;
    }
    if (q->w->ppos[X] != NONE) {
      size_t j = q->w->ppos[X];
      for (t = j + 1; t < c; t++) q->w->ppos[poly[t]] = NONE;
      c = j + 1;
    } else {
      if (c > 0) port[c - 1] = port[i - 1];
      poly[c] = X; q->w->ppos[X] = (uint32_t)c; c++;
    }
  }
  for (i = base; i < c; i++) q->w->ppos[poly[i]] = NONE;
  memmove(poly + c, port, (c > 0 ? c - 1 : 0) * sizeof(uint32_t));
  q->w->ncorr = c;
  return 0;
}

/* Turns the engine's path (start, portals..., goal) into the corridor:
** q->w->corr[0 .. n-1] polygons, then q->w->corr[n .. 2n-2] the portal between
** polygons i and i+1. */
/* The corridor of the portal nodes[1 .. n-2] (nodes[n-1] is the goal), or
** of nodes[1 .. n-1] when 'partial' (the path ends on its last portal). */
static int corridor(astar_navmesh_query *q, const uint32_t *nodes, long n, int partial) {
  const astar_navmesh *m = q->mesh;
  uint32_t *poly, *port;
  long k, c = 1;
  if (astar__reserve(&q->w->mem, (void **)&q->w->corr, &q->w->ccorr, 2 * (size_t)n + 2,
                     sizeof(uint32_t)))
    return ASTAR_ENOMEM;
  poly = q->w->corr; port = q->w->corr + n + 1;           /* at most n polygons */
  poly[0] = q->w->spoly;
  for (k = 1; k < n - 1 + partial; k++) {
    uint32_t portal = nodes[k];
    if (!hasportal(m, poly[c - 1], portal) && c > 1) c--;   /* touched a portal, came back */
    port[c - 1] = portal;
    poly[c] = across(m, portal, poly[c - 1]);
    c++;
  }
  if (poly[c - 1] != q->w->gpoly && c > 1 && poly[c - 2] == q->w->gpoly) c--;
  memmove(poly + c, port, (size_t)(c - 1) * sizeof(uint32_t));
  q->w->ncorr = (size_t)c;
  return astar__nm_unloop(q);
}

/* A funnel point: a centre, a signed radius (> 0: kept on the left), its
** mesh vertex (NONE: the start or goal) and side (1 left, -1 right). */
typedef struct fpt { double x, y, r; uint32_t v; int side; } fpt;

/* The direction (dx, dy) of the line leaving a (kept on side a.r) and
** touching b (on side b.r); 0 if the two are one point. */
static int tangent(const fpt *a, const fpt *b, double *dx, double *dy) {
  double Dx = b->x - a->x, Dy = b->y - a->y, L = hypot(Dx, Dy), s, c;
  if (L <= 1e-12 * (1 + fabs(a->x) + fabs(a->y))) return 0;
  s = (b->r - a->r) / L;
  if (s > 1) s = 1; else if (s < -1) s = -1;
  c = sqrt(1 - s * s);
  Dx /= L; Dy /= L;
  *dx = Dx * c + Dy * s; *dy = Dy * c - Dx * s;
  return 1;
}

static int pushpt(astar_navmesh_query *q, size_t *n, double x, double y) {
  if (*n > 0 && q->w->out[2 * *n - 2] == x && q->w->out[2 * *n - 1] == y) return 0;
  if (astar__reserve(&q->w->mem, (void **)&q->w->out, &q->w->cout, 2 * *n + 2, sizeof(double)))
    return ASTAR_ENOMEM;
  q->w->out[2 * *n] = x; q->w->out[2 * *n + 1] = y;
  (*n)++;
  return 0;
}

/* Writes the path around the corners c[0 .. nc-1]: tangents, and arcs in
** chords that stay r = R cos(ARC_STEP / 2) from the corner. */
static long emit(astar_navmesh_query *q, const fpt *c, size_t nc) {
  size_t n = 0, k;
  double pdx = 0, pdy = 0;
  for (k = 0; k < nc; k++) {
    double dx = 0, dy = 0, ix, iy, ox, oy;
    int has = k + 1 < nc && tangent(&c[k], &c[k + 1], &dx, &dy);
    ix = c[k].x + c[k].r * pdy; iy = c[k].y - c[k].r * pdx;   /* touch points */
    ox = c[k].x + c[k].r * dy;  oy = c[k].y - c[k].r * dx;
    if (c[k].r == 0 || k == 0 || !has) {
      if (pushpt(q, &n, k == 0 ? ox : ix, k == 0 ? oy : iy)) return ASTAR_ENOMEM;
    } else {
      double a0 = atan2(iy - c[k].y, ix - c[k].x), a1 = atan2(oy - c[k].y, ox - c[k].x);
      double sweep = c[k].r > 0 ? a1 - a0 : a0 - a1, R = fabs(c[k].r);
      int j, pieces;
      while (sweep < 0) sweep += 2 * 3.14159265358979323846;
      while (sweep >= 2 * 3.14159265358979323846) sweep -= 2 * 3.14159265358979323846;
      pieces = (int)ceil(sweep / ARC_STEP - 1e-9);
      if (pushpt(q, &n, ix, iy)) return ASTAR_ENOMEM;
      for (j = 1; j < pieces; j++) {
        double a = a0 + (c[k].r > 0 ? 1 : -1) * sweep * j / pieces;
        if (pushpt(q, &n, c[k].x + R * cos(a), c[k].y + R * sin(a))) return ASTAR_ENOMEM;
      }
      if (pushpt(q, &n, ox, oy)) return ASTAR_ENOMEM;
    }
    pdx = dx; pdy = dy;
  }
  return (long)n;
}

/* The sum of the angles at vertex w of the polygons the query may use:
** above pi, the walls around w poke into the walkable area. */
static int reflex(const astar_navmesh_query *q, uint32_t w) {
  const astar_navmesh *m = q->mesh;
  double sum = 0;
  uint32_t i;
  for (i = m->vps[w]; i < m->vps[w + 1]; i++) {
    uint32_t p = m->vpl[i], h, a = m->pstart[p], k = m->pstart[p + 1] - a;
    if (!astar__nm_allowed(m, p, q->include, q->exclude)) continue;
    for (h = 0; h < k && m->hv[a + h] != w; h++) {}
    if (h < k) {
      uint32_t u = m->hv[a + (h + k - 1) % k], v = m->hv[a + (h + 1) % k];
      double ax = VX(m, v) - VX(m, w), ay = VY(m, v) - VY(m, w);
      double bx = VX(m, u) - VX(m, w), by = VY(m, u) - VY(m, w);
      sum += atan2(fabs(cross2(ax, ay, bx, by)), ax * bx + ay * by);   /* convex: in [0, pi] */
    }
  }
  return sum > 3.14159265358979323846 * (1 + 1e-9);
}

/* Is corner k (between k-1 and k+1) taut: does the path turn around it on
** its side? */
static int taut(const fpt *c, size_t k) {
  double ix, iy, ox, oy;
  if (!tangent(&c[k - 1], &c[k], &ix, &iy) || !tangent(&c[k], &c[k + 1], &ox, &oy)) return 0;
  return c[k].side * cross2(ix, iy, ox, oy) >= -1e-12;
}

/* Which side of the line p -> e the walls at corner w are on (1 left, -1
** right): the side of w itself, or when w is on the line, of its walls. */
static int wallside(const astar_navmesh_query *q, uint32_t w, double px, double py,
                    double ex, double ey) {
  const astar_navmesh *m = q->mesh;
  double dx = ex - px, dy = ey - py, c = cross2(dx, dy, VX(m, w) - px, VY(m, w) - py), sum = 0;
  uint32_t i;
  if (fabs(c) > 1e-9 * (dx * dx + dy * dy)) return c > 0 ? 1 : -1;
  for (i = m->vps[w]; i < m->vps[w + 1]; i++) {
    uint32_t p = m->vpl[i], h;
    for (h = m->pstart[p]; h < m->pstart[p + 1]; h++) {
      uint32_t a = m->hv[h], b = m->hv[nexthe(m, h)], o;
      if ((a != w && b != w) || !astar__nm_walledge(q, h)) continue;
      o = a == w ? b : a;
      sum += cross2(dx, dy, VX(m, o) - px, VY(m, o) - py);
    }
  }
  return sum > 0 ? 1 : -1;
}

/* The wall corner closest to the line from c[k] to c[k+1] (nearer than R),
** or NONE; its side of the line into *side. */
static uint32_t intruder(const astar_navmesh_query *q, const fpt *c, size_t k, int *side) {
  const astar_navmesh *m = q->mesh;
  double dx, dy, px, py, ex, ey, best = q->w->R * (1 - 1e-7);
  uint32_t x, y, x0, y0, x1, y1, i, found = NONE;
  if (!tangent(&c[k], &c[k + 1], &dx, &dy)) return NONE;
  px = c[k].x + c[k].r * dy; py = c[k].y - c[k].r * dx;
  ex = c[k + 1].x + c[k + 1].r * dy; ey = c[k + 1].y - c[k + 1].r * dx;
  astar__nm_brange(m, fmin(px, ex) - q->w->R, fmin(py, ey) - q->w->R, fmax(px, ex) + q->w->R,
         fmax(py, ey) + q->w->R, &x0, &y0, &x1, &y1);
  for (y = y0; y <= y1; y++)
    for (x = x0; x <= x1; x++) {
      size_t b = (size_t)y * m->bw + x;
      for (i = m->bws[b]; i < m->bws[b + 1]; i++) {
        uint32_t h = m->bwl[i], ends[2], e;
        ends[0] = m->hv[h]; ends[1] = m->hv[nexthe(m, h)];
        for (e = 0; e < 2; e++) {
          uint32_t w = ends[e];
          double cx, cy, d;
          if (w == c[k].v || w == c[k + 1].v) continue;
          d = segdist(VX(m, w), VY(m, w), px, py, ex, ey, &cx, &cy);
          if (d < best && reflex(q, w)) {
            best = d; found = w;
            *side = wallside(q, w, px, py, ex, ey);
          }
        }
      }
    }
  return found;
}

/* Turns the corners of the zero-radius path into the path of a disc of
** radius R: wall corners get discs; corners the path no longer wraps are
** dropped and wall corners it comes too close to are added, until neither
** happens (or a bound on the rounds is reached). */
static size_t widen(astar_navmesh_query *q, fpt *c, size_t nc, size_t cap) {
  size_t k, rounds = 4 * nc + 64;
  for (k = 1; k + 1 < nc; k++)
    c[k].r = astar__nm_wallvertex(q, c[k].v) ? c[k].side * q->w->R : 0;
  while (rounds-- > 0) {
    int changed = 0, side = 0;
    for (k = 1; k + 1 < nc && !changed; k++)
      if (!taut(c, k)) {
        memmove(c + k, c + k + 1, (nc - k - 1) * sizeof *c);
        nc--; changed = 1;
      }
    for (k = 0; k + 1 < nc && !changed && nc < cap; k++) {
      uint32_t w = intruder(q, c, k, &side);
      if (w != NONE) {
        memmove(c + k + 2, c + k + 1, (nc - k - 1) * sizeof *c);
        c[k + 1].x = VX(q->mesh, w); c[k + 1].y = VY(q->mesh, w);
        c[k + 1].v = w; c[k + 1].side = side; c[k + 1].r = side * q->w->R;
        nc++; changed = 1;
      }
    }
    if (!changed) break;
  }
  return nc;
}

/* The funnel (string pulling, funnel.c) over the corridor; with a radius,
** widened. */
static long funnel(astar_navmesh_query *q) {
  const astar_navmesh *m = q->mesh;
  size_t np = q->w->ncorr, i, nc, cap = np + 2 + 64;
  size_t need = (cap * sizeof(fpt) + 4 * (np + 1) * sizeof(double) +
                 (3 * np + 4) * sizeof(uint32_t)) / sizeof(double) + 1;
  const uint32_t *poly = q->w->corr, *port = q->w->corr + np;
  double (*L)[2], (*Rt)[2];
  uint32_t *vid, *code;                       /* per end (2 k left, 2 k + 1 right) */
  fpt *c;
  if (astar__reserve(&q->w->mem, (void **)&q->w->ctr, &q->w->cctr, need, sizeof(double)))
    return ASTAR_ENOMEM;
  c = (fpt *)(void *)q->w->ctr;
  L = (double (*)[2])(void *)(c + cap); Rt = L + (np + 1);
  vid = (uint32_t *)(void *)(Rt + (np + 1)); code = vid + 2 * (np + 1);
  /* portals as (left, right) ends: 0 the start, np the goal */
  L[0][0] = Rt[0][0] = q->w->sx; L[0][1] = Rt[0][1] = q->w->sy;
  L[np][0] = Rt[np][0] = q->w->gx; L[np][1] = Rt[np][1] = q->w->gy;
  vid[0] = vid[1] = vid[2 * np] = vid[2 * np + 1] = NONE;
  for (i = 1; i < np; i++) {
    uint32_t p = poly[i - 1], h = m->phe[port[i - 1]], u, v;
    if (m->hpoly[h] != p) h = m->htw[h];               /* the portal's side in p */
    u = m->hv[h]; v = m->hv[nexthe(m, h)];            /* leaving p: v on the left */
    L[i][0] = VX(m, v); L[i][1] = VY(m, v); vid[2 * i] = v;
    Rt[i][0] = VX(m, u); Rt[i][1] = VY(m, u); vid[2 * i + 1] = u;
  }
  nc = astar__funnel((const double (*)[2])L, (const double (*)[2])Rt, np, code);
  for (i = 0; i < nc; i++) {
    const double *e = code[i] & 1 ? Rt[code[i] >> 1] : L[code[i] >> 1];
    c[i].x = e[0]; c[i].y = e[1]; c[i].r = 0;
    c[i].v = vid[code[i]]; c[i].side = code[i] & 1 ? -1 : 1;
  }
  if (q->w->R > 0) nc = widen(q, c, nc, cap);
  return emit(q, c, nc);
}

/* Where segment a-b crosses segment c-d (fraction along a-b), or -1. */
static double crossing(double ax, double ay, double bx, double by,
                       double cx, double cy, double dx, double dy, double eps) {
  double ex = bx - ax, ey = by - ay, fx = dx - cx, fy = dy - cy;
  double den = cross2(ex, ey, fx, fy), t, u, tol, el = hypot(ex, ey);
  if (el == 0) return -1;
  if (fabs(den) <= 1e-12 * el * hypot(fx, fy)) {      /* parallel: along the portal? */
    double tc, td;
    if (fabs(cross2(ex, ey, cx - ax, cy - ay)) > eps * el) return -1;
    tc = ((cx - ax) * ex + (cy - ay) * ey) / (el * el);
    td = ((dx - ax) * ex + (dy - ay) * ey) / (el * el);
    if (fmax(tc, td) < -1e-9 || fmin(tc, td) > 1 + 1e-9) return -1;
    t = fmin(1, fmax(tc, td));                     /* leaves it at the far end */
    return t < 0 ? 0 : t;
  }
  t = cross2(cx - ax, cy - ay, fx, fy) / den;
  u = cross2(cx - ax, cy - ay, ex, ey) / den;
  tol = eps / (hypot(fx, fy) + eps);
  if (t < -1e-9 || t > 1 + 1e-9 || u < -tol || u > 1 + tol) return -1;
  return t < 0 ? 0 : t > 1 ? 1 : t;
}

/* The cost of the path: each polygon's stretch times its cost (or cost_fn). */
static double pathcost(astar_navmesh_query *q, const double *pt, size_t n) {
  const astar_navmesh *m = q->mesh;
  size_t k, seg = 0, nc = q->w->ncorr;
  const uint32_t *poly = q->w->corr, *port = q->w->corr + nc;
  double total = 0, cx = pt[0], cy = pt[1], len = 0;
  int uniform = q->cost_fn == NULL;
  for (k = 1; k < nc && uniform; k++) uniform = m->cost[poly[k]] == m->cost[poly[0]];
  if (uniform) {
    for (k = 1; k < n; k++) len += hypot(pt[2 * k] - pt[2 * k - 2], pt[2 * k + 1] - pt[2 * k - 1]);
    return len * m->cost[poly[0]];
  }
  for (k = 0; k < nc; k++) {
    double piece = 0, base;
    if (k + 1 < nc) {
      uint32_t h = m->phe[port[k]], u = m->hv[h], v = m->hv[nexthe(m, h)];
      size_t j;
      for (j = seg; j + 1 < n; j++) {
        double t = crossing(pt[2 * j], pt[2 * j + 1], pt[2 * j + 2], pt[2 * j + 3],
                            VX(m, u), VY(m, u), VX(m, v), VY(m, v), m->eps);
        if (t >= 0) {
          double x = pt[2 * j] + t * (pt[2 * j + 2] - pt[2 * j]);
          double y = pt[2 * j + 1] + t * (pt[2 * j + 3] - pt[2 * j + 1]);
          size_t i;
          for (i = seg; i < j; i++) {
            piece += hypot(pt[2 * i + 2] - cx, pt[2 * i + 3] - cy);
            cx = pt[2 * i + 2]; cy = pt[2 * i + 3];
          }
          piece += hypot(x - cx, y - cy);
          cx = x; cy = y; seg = j;
          break;
        }
      }
    } else {
      size_t i;
      for (i = seg; i + 1 < n; i++) {
        piece += hypot(pt[2 * i + 2] - cx, pt[2 * i + 3] - cy);
        cx = pt[2 * i + 2]; cy = pt[2 * i + 3];
      }
    }
    base = piece * m->cost[poly[k]];
    if (q->cost_fn != NULL) {
      double c = q->cost_fn(q->cost_ud, poly[k], k + 1 < nc ? poly[k + 1] : NONE, base);
      if (c >= 0) base = c;
    }
    total += base;
  }
  return total;
}

/* The smallest distance between the path and a wall, looked for within 'r'
** of the path (HUGE_VAL if no wall is that close), and the point of the
** path where it is smallest in *wx, *wy. */
static double pathclear(const astar_navmesh *m, const double *pt, size_t n, double r,
                        double *wx, double *wy) {
  double best = HUGE_VAL;
  size_t k;
  for (k = 0; k + 1 < n; k++) {
    double ax = pt[2 * k], ay = pt[2 * k + 1], bx = pt[2 * k + 2], by = pt[2 * k + 3];
    uint32_t x, y, x0, y0, x1, y1, i;
    astar__nm_brange(m, fmin(ax, bx) - r, fmin(ay, by) - r, fmax(ax, bx) + r, fmax(ay, by) + r,
           &x0, &y0, &x1, &y1);
    for (y = y0; y <= y1; y++)
      for (x = x0; x <= x1; x++) {
        size_t b = (size_t)y * m->bw + x;
        for (i = m->bws[b]; i < m->bws[b + 1]; i++) {
          uint32_t h = m->bwl[i], u = m->hv[h], v = m->hv[nexthe(m, h)];
          double d = segseg(ax, ay, bx, by, VX(m, u), VY(m, u), VX(m, v), VY(m, v));
          if (d < best) {
            double cx, cy, du, dv;
            best = d;
            du = segdist(VX(m, u), VY(m, u), ax, ay, bx, by, &cx, &cy);
            *wx = cx; *wy = cy;
            dv = segdist(VX(m, v), VY(m, v), ax, ay, bx, by, &cx, &cy);
            if (dv < du) { *wx = cx; *wy = cy; }
            if (segdist(ax, ay, VX(m, u), VY(m, u), VX(m, v), VY(m, v), &cx, &cy) < fmin(du, dv))
              { *wx = ax; *wy = ay; }
            if (segdist(bx, by, VX(m, u), VY(m, u), VX(m, v), VY(m, v), &cx, &cy) < fmin(du, dv))
              { *wx = bx; *wy = by; }
          }
        }
      }
  }
  return best;
}

/* Does link i start in polygon P? */
static int holds(const astar_navmesh *m, uint32_t P, uint32_t i) {
  uint32_t j;
  for (j = m->lks[P]; j < m->lks[P + 1]; j++) if (m->lkl[j] == i) return 1;
  return 0;
}

/* Appends the piece just funnelled (q->w->out, np points; q->w->corr) to the
** path in acc/acorr (na points, nc corridor entries, polygons and portals
** interleaved), after the link of cost 'lc' (< 0: the first piece). */
static int append(astar_navmesh_query *q, long np, double lc, size_t *na, size_t *nc) {
  struct astar_nm_work *w = q->w;
  size_t k, n = w->ncorr;
  if (astar__reserve(&w->mem, (void **)&w->acc, &w->cacc, 2 * (*na + (size_t)np), sizeof(double)) ||
      astar__reserve(&w->mem, (void **)&w->steps, &w->csteps, *na + (size_t)np, sizeof(double)) ||
      astar__reserve(&w->mem, (void **)&w->acorr, &w->cacorr, *nc + 2 * n + 1, sizeof(uint32_t)))
    return ASTAR_ENOMEM;
  if (lc >= 0) { w->steps[*na - 1] = lc; w->acorr[(*nc)++] = NONE; }
  memcpy(w->acc + 2 * *na, w->out, 2 * (size_t)np * sizeof(double));
  for (k = 0; k < (size_t)np; k++) w->steps[*na + k] = -1;
  *na += (size_t)np;
  for (k = 0; k < n; k++) {
    w->acorr[(*nc)++] = w->corr[k];
    if (k + 1 < n) w->acorr[(*nc)++] = w->corr[n + k];
  }
  return 0;
}

/*
** The straightened path of the engine's path nodes[0 .. n-1] that takes a
** link: each piece between the start or a link's end and a link's start or
** the last node (the goal; with 'partial' the last portal reached, or a
** link's end) is funnelled, priced and checked on its own, and the pieces
** joined with the links between them. Returns 0, ASTAR_NO_PATH when a piece
** comes closer than the radius to a wall (*wx, *wy where; q->w->corr that
** piece's corridor), or ASTAR_ENOMEM.
*/
static int pieces(astar_navmesh_query *q, const uint32_t *nodes, long n, int partial,
                  double *wx, double *wy) {
  struct astar_nm_work *w = q->w;
  const astar_navmesh *m = q->mesh;
  double sx = w->sx, sy = w->sy, gx = w->gx, gy = w->gy, lc = -1, cost = 0;
  uint32_t spoly = w->spoly, gpoly = w->gpoly, first = m->nport + 2;
  size_t na = 0, nc = 0, k0 = 0, k;
  int rc = 0;
  w->clear = HUGE_VAL;
  for (k = 1; k < (size_t)n && rc == 0; k++) {
    int islink = nodes[k] >= first, last = k + 1 == (size_t)n;
    long np;
    if (!islink && !last) continue;
    if (islink) {                                  /* to the link's start, in the way's polygon */
      uint32_t i = nodes[k] - first, prev = nodes[k - 1];
      w->gx = LK(m, i)[0]; w->gy = LK(m, i)[1];
      w->gpoly = w->spoly;
      if (k - 1 > k0) {
        uint32_t h = m->phe[prev];
        w->gpoly = holds(m, m->hpoly[h], i) ? m->hpoly[h] : m->hn[h];
      }
    } else if (partial) {
      w->gx = w->pt[2 * (size_t)nodes[k]]; w->gy = w->pt[2 * (size_t)nodes[k] + 1];
      w->gpoly = NONE;
    } else {
      w->gx = gx; w->gy = gy; w->gpoly = gpoly;
    }
    rc = corridor(q, nodes + k0, (long)(k - k0 + 1), partial && !islink);
    np = rc != 0 ? rc : funnel(q);
    if (np < 0) { rc = (int)np; break; }
    cost += pathcost(q, w->out, (size_t)np) + (lc >= 0 ? lc : 0);
    if (q->radius > 0) {
      double c = pathclear(m, w->out, (size_t)np, w->R, wx, wy);
      if (c < w->clear) w->clear = c;
      if (c < q->radius * (1 - 1e-9)) { rc = ASTAR_NO_PATH; break; }
    }
    if ((rc = append(q, np, lc, &na, &nc)) != 0) break;
    if (islink) {                                  /* the next piece starts at its end */
      const double *lk = LK(m, nodes[k] - first);
      lc = lk[4]; k0 = k;
      w->sx = lk[2]; w->sy = lk[3];
      w->spoly = astar__nm_locatef(m, w->sx, w->sy, q->include, q->exclude);
      if (last) {                                  /* a partial path ends there */
        w->out[0] = w->out[2] = w->sx; w->out[1] = w->out[3] = w->sy;
        w->corr[0] = w->spoly; w->ncorr = 1;
        cost += lc;
        rc = append(q, 1, lc, &na, &nc);
      }
    }
  }
  w->sx = sx; w->sy = sy; w->gx = gx; w->gy = gy; w->spoly = spoly; w->gpoly = gpoly;
  if (rc != 0) return rc;
  /* the joined path into out, its corridor into corr: polygons, then portals */
  if (astar__reserve(&w->mem, (void **)&w->out, &w->cout, 2 * na, sizeof(double)) ||
      astar__reserve(&w->mem, (void **)&w->corr, &w->ccorr, nc + 1, sizeof(uint32_t)))
    return ASTAR_ENOMEM;
  memcpy(w->out, w->acc, 2 * na * sizeof(double));
  w->nout = na;
  w->ncorr = (nc + 1) / 2;
  for (k = 0; k < w->ncorr; k++) w->corr[k] = w->acorr[2 * k];
  for (k = 0; k + 1 < w->ncorr; k++) w->corr[w->ncorr + k] = w->acorr[2 * k + 1];
  w->pcost = cost;
  w->linked = 1;
  return 0;
}

static int haslink(const astar_navmesh_query *q, const uint32_t *nodes, long n) {
  long k;
  for (k = 0; k < n; k++) if (nodes[k] >= q->mesh->nport + 2) return 1;
  return 0;
}

/* Straightens the path the search found into q->w->out (q->w->nout points) and
** prices it. Returns 0, ASTAR_NO_PATH if it passes closer than the radius
** to a wall (then *wx, *wy is where), or ASTAR_ENOMEM. */
int astar__nm_straighten(astar_navmesh_query *q, astar_search *s, double *wx, double *wy) {
  const uint32_t *nodes;
  double scost;
  long n = astar_search_path(s, &nodes, &scost), np;
  int rc;
  if (n <= 0) return n < 0 ? (int)n : ASTAR_NO_PATH;
  if (haslink(q, nodes, n)) return pieces(q, nodes, n, 0, wx, wy);
  if ((rc = corridor(q, nodes, n, 0)) != 0) return rc;
  np = funnel(q);
  if (np < 0) return (int)np;
  q->w->nout = (size_t)np;
  q->w->pcost = pathcost(q, q->w->out, (size_t)np);
  q->w->clear = q->radius > 0 ? pathclear(q->mesh, q->w->out, (size_t)np, q->w->R, wx, wy)
                              : HUGE_VAL;
  return q->w->clear < q->radius * (1 - 1e-9) ? ASTAR_NO_PATH : 0;
}

/* Closes the corridor's portal nearest to (x, y) to the next searches.
** Returns 0 if there is none to close (a corridor of one polygon, or all
** ASTAR_NM_BANS used): then no other way is left to try. */
int astar__nm_ban(astar_navmesh_query *q, double x, double y) {
  const astar_navmesh *m = q->mesh;
  size_t i;
  double best = HUGE_VAL, cx, cy;
  uint32_t pick = NONE;
  for (i = 0; i + 1 < q->w->ncorr; i++) {
    uint32_t portal = q->w->corr[q->w->ncorr + i], h = m->phe[portal], u = m->hv[h];
    uint32_t v = m->hv[nexthe(m, h)];
    double d = segdist(x, y, VX(m, u), VY(m, u), VX(m, v), VY(m, v), &cx, &cy);
    if (d < best) { best = d; pick = portal; }
  }
  if (pick == NONE || q->w->nban >= ASTAR_NM_BANS) return 0;
  q->w->ban[q->w->nban++] = pick;
  return 1;
}

long astar_navmesh_result(astar_navmesh_query *q, astar_search *s, const double **pts,
                          double *cost) {
  double wx, wy;
  if (q->w == NULL) return 0;
  if (q->w->status == ASTAR_NO_PATH || q->w->status == ASTAR_LIMIT)
    return q->params.partial ? astar_navmesh_partial(q, s, pts, cost) : 0;
  if (!q->w->ready) {
    if (q->exact || (q->w->status != 0 && q->w->status != ASTAR_FOUND)) return 0;
    int rc = astar__nm_straighten(q, s, &wx, &wy);
    if (rc < 0) return rc;
    if (rc > 0) return 0;
  }
  *pts = q->w->out;
  *cost = q->w->pcost;
  return (long)q->w->nout;
}

/* The portal search's partial path: funnelled to the point of the last
** portal it reached, which stands in for the goal meanwhile. */
static long portal_partial(astar_navmesh_query *q, astar_search *s) {
  const uint32_t *nodes;
  double scost, gx = q->w->gx, gy = q->w->gy, wx, wy;
  uint32_t gpoly = q->w->gpoly;
  long n = astar_search_path(s, &nodes, &scost), np;
  int rc;
  if (n <= 0) return n;
  if (haslink(q, nodes, n)) {
    rc = pieces(q, nodes, n, 1, &wx, &wy);
    return rc == ASTAR_NO_PATH ? 0 : rc < 0 ? rc : (long)q->w->nout;
  }
  q->w->gx = q->w->pt[2 * (size_t)nodes[n - 1]];
  q->w->gy = q->w->pt[2 * (size_t)nodes[n - 1] + 1];
  q->w->gpoly = NONE;
  rc = corridor(q, nodes, n, 1);
  np = rc != 0 ? rc : funnel(q);
  if (np > 0) {
    q->w->nout = (size_t)np;
    q->w->pcost = pathcost(q, q->w->out, (size_t)np);
    q->w->clear = q->radius > 0 ? pathclear(q->mesh, q->w->out, (size_t)np, q->w->R, &wx, &wy)
                             : HUGE_VAL;
    if (q->w->clear < q->radius * (1 - 1e-9)) np = 0;          /* too narrow */
  }
  q->w->gx = gx; q->w->gy = gy; q->w->gpoly = gpoly;
  return np;
}

long astar_navmesh_partial(astar_navmesh_query *q, astar_search *s, const double **pts,
                           double *cost) {
  long n;
  if (q->w == NULL) return 0;
  n = q->exact ? astar__nm_exact_partial(q) : portal_partial(q, s);
  if (n > 0) { *pts = q->w->out; *cost = q->w->pcost; }
  return n;
}
