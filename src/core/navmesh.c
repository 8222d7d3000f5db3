/*
** navmesh.c - navigation meshes: convex polygons joined by portals, a bucket
** grid to find the polygon of a point, and a search over the portals whose
** steps are real straight segments, straightened by the funnel algorithm.
**
** Geometry is in doubles. Tolerances are relative to the size of the mesh
** (m->eps = 1e-9 of its bounding box's larger side).
*/
#include <math.h>
#include <string.h>
#include "core.h"

#define NONE ASTAR_NONE
#define ALLFLAGS 0xffffffffu
/* Arcs around a corner are drawn in pieces of at most ARC_STEP radians, on a
** circle of radius r / cos(ARC_STEP / 2): every chord then stays r away. */
#define ARC_STEP (3.14159265358979323846 / 12)

struct astar_navmesh {
  astar_mem mem;
  uint32_t nv, np, nh, nport, nwall;
  double *xy;            /* nv points */
  uint32_t *pstart;      /* np + 1: polygon p's half-edges are pstart[p] .. pstart[p+1]-1 */
  uint32_t *hv;          /* nh: the vertex a half-edge starts at (counter-clockwise) */
  uint32_t *hn;          /* nh: the polygon across it, or NONE (a wall) */
  uint32_t *hp;          /* nh: its portal, or NONE */
  uint32_t *hpoly;       /* nh: its polygon */
  uint32_t *htw;         /* nh: the same edge in the polygon across, or NONE */
  double *cost;          /* np */
  uint32_t *flags;       /* np */
  double mincost, maxcost;
  int minstale, maxstale;
  uint32_t *phe;         /* nport: the half-edge of each portal in its first polygon */
  unsigned char *vwall;  /* nv: the vertex ends a wall edge */
  uint32_t *vps, *vpl;   /* vertex -> polygons: vpl[vps[v] .. vps[v+1]-1] */
  double box[4], cell, eps;
  uint32_t bw, bh;       /* bucket grid */
  uint32_t *bps, *bpl;   /* bucket -> polygons */
  uint32_t *bws, *bwl;   /* bucket -> wall half-edges */
  uint64_t version;
};

/* ------------------------------------------------------------------ */
/* Small geometry                                                       */
/* ------------------------------------------------------------------ */

static double cross2(double ax, double ay, double bx, double by) { return ax * by - ay * bx; }

/* Distance from p to segment ab; the closest point into *cx, *cy. */
static double segdist(double px, double py, double ax, double ay, double bx, double by,
                      double *cx, double *cy) {
  double dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy, t = 0;
  if (l2 > 0) {
    t = ((px - ax) * dx + (py - ay) * dy) / l2;
    if (t < 0) t = 0; else if (t > 1) t = 1;
  }
  *cx = ax + t * dx; *cy = ay + t * dy;
  return hypot(px - *cx, py - *cy);
}

static double segseg(double ax, double ay, double bx, double by,
                     double cx, double cy, double dx, double dy) {
  double d1, d2, d3, d4, qx, qy, m;
  double o1 = cross2(bx - ax, by - ay, cx - ax, cy - ay);
  double o2 = cross2(bx - ax, by - ay, dx - ax, dy - ay);
  double o3 = cross2(dx - cx, dy - cy, ax - cx, ay - cy);
  double o4 = cross2(dx - cx, dy - cy, bx - cx, by - cy);
  if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0)))
    return 0;
  d1 = segdist(ax, ay, cx, cy, dx, dy, &qx, &qy);
  d2 = segdist(bx, by, cx, cy, dx, dy, &qx, &qy);
  d3 = segdist(cx, cy, ax, ay, bx, by, &qx, &qy);
  d4 = segdist(dx, dy, ax, ay, bx, by, &qx, &qy);
  m = d1 < d2 ? d1 : d2;
  if (d3 < m) m = d3;
  return d4 < m ? d4 : m;
}

/* A node of the exact search (see there). */
typedef struct pnode pnode;
struct pnode {
  double rx, ry;       /* the root */
  double g, f;         /* the root's g; f = g + weight * h */
  double tl, tr;       /* the interval on half-edge 'he': fractions from its start */
  uint32_t root;       /* the root's vertex, NONE for the start */
  uint32_t he;         /* half-edge of 'poly'; NONE: a start or final node */
  uint32_t poly;       /* the polygon the node looks into */
  uint32_t parent;
  int kind;            /* PN_* */
};
enum { PN_INTERVAL, PN_POINT, PN_FINAL, PN_WAY };  /* PN_POINT: sees all its polygon;
                                                  ** PN_WAY: a bend, kept for the path */

#define VX(m, v) ((m)->xy[2 * (size_t)(v)])
#define VY(m, v) ((m)->xy[2 * (size_t)(v) + 1])

static uint32_t nexthe(const astar_navmesh *m, uint32_t h) {
  uint32_t p = m->hpoly[h];
  return h + 1 < m->pstart[p + 1] ? h + 1 : m->pstart[p];
}

/* ------------------------------------------------------------------ */
/* Construction                                                         */
/* ------------------------------------------------------------------ */

static void freemesh(astar_navmesh *m) {
  astar_mem *a = &m->mem;
  size_t nb = (size_t)m->bw * m->bh;
  astar__free(a, m->xy, 2 * (size_t)m->nv * sizeof(double));
  astar__free(a, m->pstart, ((size_t)m->np + 1) * sizeof(uint32_t));
  astar__free(a, m->hv, (size_t)m->nh * sizeof(uint32_t));
  astar__free(a, m->hn, (size_t)m->nh * sizeof(uint32_t));
  astar__free(a, m->hp, (size_t)m->nh * sizeof(uint32_t));
  astar__free(a, m->hpoly, (size_t)m->nh * sizeof(uint32_t));
  astar__free(a, m->htw, (size_t)m->nh * sizeof(uint32_t));
  astar__free(a, m->cost, (size_t)m->np * sizeof(double));
  astar__free(a, m->flags, (size_t)m->np * sizeof(uint32_t));
  astar__free(a, m->phe, (size_t)m->nport * sizeof(uint32_t));
  astar__free(a, m->vwall, (size_t)m->nv);
  astar__free(a, m->vps, ((size_t)m->nv + 1) * sizeof(uint32_t));
  astar__free(a, m->vpl, (size_t)m->nh * sizeof(uint32_t));
  if (m->bps != NULL) astar__free(a, m->bpl, (size_t)m->bps[nb] * sizeof(uint32_t));
  astar__free(a, m->bps, (nb + 1) * sizeof(uint32_t));
  if (m->bws != NULL) astar__free(a, m->bwl, (size_t)m->bws[nb] * sizeof(uint32_t));
  astar__free(a, m->bws, (nb + 1) * sizeof(uint32_t));
  astar__free(a, m, sizeof *m);
}

void astar_navmesh_free(astar_navmesh *m) {
  if (m != NULL) freemesh(m);
}

static void problem(astar_navmesh_problem *pr, int why, uint32_t p, uint32_t other,
                    uint32_t v, uint32_t v2) {
  if (pr == NULL) return;
  pr->why = why; pr->polygon = p; pr->other = other; pr->vertex = v; pr->vertex2 = v2;
}

static uint64_t hash64(uint64_t k) {
  k ^= k >> 33; k *= 0xff51afd7ed558ccdULL; k ^= k >> 33; k *= 0xc4ceb9fe1a85ec53ULL;
  return k ^ (k >> 33);
}

static uint64_t dbits(double d) {
  uint64_t u;
  if (d == 0) d = 0;       /* -0 and 0 are one coordinate */
  memcpy(&u, &d, sizeof u);
  return u;
}

/* Open-addressing table scratch for welding and edge matching. */
typedef struct htab { uint64_t *key; uint32_t *val; size_t cap; } htab;

static int htab_new(astar_mem *a, htab *t, size_t n) {
  size_t cap = 16;
  while (cap < 2 * n) cap *= 2;
  t->cap = cap;
  t->key = (uint64_t *)astar__alloc(a, cap * sizeof(uint64_t));
  t->val = (uint32_t *)astar__alloc(a, cap * sizeof(uint32_t));
  if (t->key == NULL || t->val == NULL) return ASTAR_ENOMEM;
  memset(t->val, 0xff, cap * sizeof(uint32_t));
  return 0;
}

static void htab_free(astar_mem *a, htab *t) {
  astar__free(a, t->key, t->cap * sizeof(uint64_t));
  astar__free(a, t->val, t->cap * sizeof(uint32_t));
}

/* The slot of 'key' (val NONE if absent). */
static size_t htab_slot(const htab *t, uint64_t key) {
  size_t i = (size_t)hash64(key) & (t->cap - 1);
  while (t->val[i] != NONE && t->key[i] != key) i = (i + 1) & (t->cap - 1);
  return i;
}

/* Bucket range of a box. */
static void brange(const astar_navmesh *m, double x0, double y0, double x1, double y1,
                   uint32_t *bx0, uint32_t *by0, uint32_t *bx1, uint32_t *by1) {
  double fx0 = floor((x0 - m->box[0]) / m->cell), fy0 = floor((y0 - m->box[1]) / m->cell);
  double fx1 = floor((x1 - m->box[0]) / m->cell), fy1 = floor((y1 - m->box[1]) / m->cell);
  double mx = (double)m->bw - 1, my = (double)m->bh - 1;
  fx0 = fx0 < 0 ? 0 : fx0 > mx ? mx : fx0;  fy0 = fy0 < 0 ? 0 : fy0 > my ? my : fy0;
  fx1 = fx1 < 0 ? 0 : fx1 > mx ? mx : fx1;  fy1 = fy1 < 0 ? 0 : fy1 > my ? my : fy1;
  *bx0 = (uint32_t)fx0; *by0 = (uint32_t)fy0; *bx1 = (uint32_t)fx1; *by1 = (uint32_t)fy1;
}

static void polybox(const astar_navmesh *m, uint32_t p, double *b) {
  uint32_t h;
  b[0] = b[1] = HUGE_VAL; b[2] = b[3] = -HUGE_VAL;
  for (h = m->pstart[p]; h < m->pstart[p + 1]; h++) {
    double x = VX(m, m->hv[h]), y = VY(m, m->hv[h]);
    if (x < b[0]) b[0] = x;
    if (y < b[1]) b[1] = y;
    if (x > b[2]) b[2] = x;
    if (y > b[3]) b[3] = y;
  }
}

static void hebox(const astar_navmesh *m, uint32_t h, double *b) {
  uint32_t u = m->hv[h], v = m->hv[nexthe(m, h)];
  b[0] = fmin(VX(m, u), VX(m, v)); b[1] = fmin(VY(m, u), VY(m, v));
  b[2] = fmax(VX(m, u), VX(m, v)); b[3] = fmax(VY(m, u), VY(m, v));
}

/* Fills a CSR bucket list of n items (polygons or wall half-edges). */
static int buckets(astar_navmesh *m, uint32_t n, const uint32_t *items, int walls,
                   uint32_t **ps, uint32_t **pl) {
  size_t nb = (size_t)m->bw * m->bh, total = 0, i;
  uint32_t k, bx, by, bx0, by0, bx1, by1, *s, *l;
  double b[4];
  s = (uint32_t *)astar__alloc(&m->mem, (nb + 1) * sizeof(uint32_t));
  if (s == NULL) return ASTAR_ENOMEM;
  memset(s, 0, (nb + 1) * sizeof(uint32_t));
  *ps = s;
  for (k = 0; k < n; k++) {
    uint32_t it = items != NULL ? items[k] : k;
    if (walls) hebox(m, it, b); else polybox(m, it, b);
    brange(m, b[0], b[1], b[2], b[3], &bx0, &by0, &bx1, &by1);
    for (by = by0; by <= by1; by++)
      for (bx = bx0; bx <= bx1; bx++) s[(size_t)by * m->bw + bx + 1]++;
    total += (size_t)(bx1 - bx0 + 1) * (by1 - by0 + 1);
    if (total > UINT32_MAX) { s[nb] = 0; return ASTAR_ENOMEM; }
  }
  for (i = 0; i < nb; i++) s[i + 1] += s[i];
  l = (uint32_t *)astar__alloc(&m->mem, (total ? total : 1) * sizeof(uint32_t));
  if (l == NULL) { s[nb] = 0; return ASTAR_ENOMEM; }
  if (total == 0) { astar__free(&m->mem, l, sizeof(uint32_t)); l = NULL; }
  *pl = l;
  for (k = 0; k < n; k++) {
    uint32_t it = items != NULL ? items[k] : k;
    if (walls) hebox(m, it, b); else polybox(m, it, b);
    brange(m, b[0], b[1], b[2], b[3], &bx0, &by0, &bx1, &by1);
    for (by = by0; by <= by1; by++)
      for (bx = bx0; bx <= bx1; bx++) l[s[(size_t)by * m->bw + bx]++] = it;
  }
  for (i = nb; i > 0; i--) s[i] = s[i - 1];
  s[0] = 0;
  return 0;
}

/* Checks polygon p (its half-edges already hold welded vertices in the
** caller's order), reverses it to counter-clockwise if needed. */
static int checkpoly(astar_navmesh *m, uint32_t p, const uint32_t *uidx,
                     astar_navmesh_problem *pr) {
  uint32_t a = m->pstart[p], k = m->pstart[p + 1] - a, i;
  double area = 0, turn = 0, ext = 0, x0 = VX(m, m->hv[a]), y0 = VY(m, m->hv[a]);
  for (i = 0; i < k; i++) {
    uint32_t u = m->hv[a + i], v = m->hv[a + (i + 1) % k];
    area += cross2(VX(m, u) - x0, VY(m, u) - y0, VX(m, v) - x0, VY(m, v) - y0);
    ext = fmax(ext, fmax(fabs(VX(m, u) - x0), fabs(VY(m, u) - y0)));
  }
  if (!(fabs(area) > 1e-12 * ext * ext) || ext == 0) {
    problem(pr, ASTAR_NM_DEGENERATE, p, NONE, NONE, NONE);
    return ASTAR_EINVAL;
  }
  if (area < 0) {          /* clockwise: reverse (and the caller's indices) */
    uint32_t *h = m->hv + a;
    for (i = 0; i < k / 2; i++) { uint32_t t = h[i]; h[i] = h[k - 1 - i]; h[k - 1 - i] = t; }
  }
  for (i = 0; i < k; i++) {
    uint32_t u = m->hv[a + (i + k - 1) % k], v = m->hv[a + i], w = m->hv[a + (i + 1) % k];
    double ax = VX(m, v) - VX(m, u), ay = VY(m, v) - VY(m, u);
    double bx = VX(m, w) - VX(m, v), by = VY(m, w) - VY(m, v);
    double c = cross2(ax, ay, bx, by), d = ax * bx + ay * by;
    double tol = 1e-9 * hypot(ax, ay) * hypot(bx, by);
    if (c < -tol || (c <= tol && d < 0)) {
      uint32_t j = area < 0 ? k - 1 - i : i;   /* position in the caller's order */
      problem(pr, ASTAR_NM_CONCAVE, p, NONE, uidx[j], NONE);
      return ASTAR_EINVAL;
    }
    turn += atan2(c, d);
  }
  if (turn > 3 * 3.14159265358979323846) {     /* winds around twice (a star) */
    problem(pr, ASTAR_NM_CONCAVE, p, NONE, uidx[0], NONE);
    return ASTAR_EINVAL;
  }
  return 0;
}

static int samepoly(const astar_navmesh *m, uint32_t p, uint32_t q) {
  uint32_t a = m->pstart[p], k = m->pstart[p + 1] - a, b = m->pstart[q], i, j;
  if (m->pstart[q + 1] - b != k) return 0;
  for (j = 0; j < k && m->hv[b + j] != m->hv[a]; j++) {}
  if (j == k) return 0;
  for (i = 0; i < k; i++)
    if (m->hv[a + i] != m->hv[b + (j + i) % k]) return 0;
  return 1;
}

/* Links twins, finds portals and walls. */
static int linkedges(astar_navmesh *m, astar_navmesh_problem *pr) {
  htab t;
  uint32_t h;
  int rc = htab_new(&m->mem, &t, m->nh);
  if (rc) { htab_free(&m->mem, &t); return rc; }
  for (h = 0; h < m->nh; h++) {
    uint32_t u = m->hv[h], v = m->hv[nexthe(m, h)];
    uint64_t key = u < v ? ((uint64_t)u << 32 | v) : ((uint64_t)v << 32 | u);
    size_t i = htab_slot(&t, key);
    m->hn[h] = NONE; m->hp[h] = NONE; m->htw[h] = NONE;
    if (t.val[i] == NONE) { t.key[i] = key; t.val[i] = h; continue; }
    {
      uint32_t o = t.val[i], p = m->hpoly[h], q = m->hpoly[o];
      if (m->hv[o] == u) {
        problem(pr, samepoly(m, p, q) ? ASTAR_NM_DUPLICATE : ASTAR_NM_OVERLAP, p, q, u, v);
        rc = ASTAR_EINVAL; break;
      }
      if (m->hn[o] != NONE) {
        problem(pr, ASTAR_NM_NONMANIFOLD, p, q, u, v);
        rc = ASTAR_EINVAL; break;
      }
      m->hn[o] = p; m->hn[h] = q; m->htw[o] = h; m->htw[h] = o;
      m->hp[o] = m->hp[h] = m->nport++;
    }
  }
  htab_free(&m->mem, &t);
  return rc;
}

/* Two wall edges along one line that overlap: a T-junction (opposite
** directions) or overlapping polygons (same direction). */
static int tjunctions(astar_navmesh *m, astar_navmesh_problem *pr) {
  uint32_t h;
  for (h = 0; h < m->nh; h++) {
    uint32_t u, v, bx, by, bx0, by0, bx1, by1, i;
    double b[4], ux, uy, dx, dy, len;
    if (m->hn[h] != NONE) continue;
    u = m->hv[h]; v = m->hv[nexthe(m, h)];
    ux = VX(m, u); uy = VY(m, u); dx = VX(m, v) - ux; dy = VY(m, v) - uy;
    len = hypot(dx, dy);
    hebox(m, h, b);
    brange(m, b[0], b[1], b[2], b[3], &bx0, &by0, &bx1, &by1);
    for (by = by0; by <= by1; by++)
      for (bx = bx0; bx <= bx1; bx++) {
        size_t bk = (size_t)by * m->bw + bx;
        for (i = m->bws[bk]; i < m->bws[bk + 1]; i++) {
          uint32_t g = m->bwl[i], w = m->hv[g], x = m->hv[nexthe(m, g)];
          double sw, sx, tw, tx, lo, hi;
          if (g == h) continue;
          sw = cross2(dx, dy, VX(m, w) - ux, VY(m, w) - uy) / len;
          sx = cross2(dx, dy, VX(m, x) - ux, VY(m, x) - uy) / len;
          if (fabs(sw) > m->eps || fabs(sx) > m->eps) continue;
          tw = ((VX(m, w) - ux) * dx + (VY(m, w) - uy) * dy) / len;
          tx = ((VX(m, x) - ux) * dx + (VY(m, x) - uy) * dy) / len;
          lo = fmax(0, fmin(tw, tx)); hi = fmin(len, fmax(tw, tx));
          if (hi - lo <= m->eps) continue;              /* touch at a point at most */
          if (tx < tw) {                                /* opposite: a T-junction */
            uint32_t in = (tw > m->eps && tw < len - m->eps) ? w
                        : (tx > m->eps && tx < len - m->eps) ? x
                        : (w != v && w != u) ? w : x;
            problem(pr, ASTAR_NM_TJUNCTION, m->hpoly[h], m->hpoly[g], in, NONE);
            return ASTAR_EINVAL;
          }
          problem(pr, ASTAR_NM_OVERLAP, m->hpoly[h], m->hpoly[g], u, v);
          return ASTAR_EINVAL;
        }
      }
  }
  return 0;
}

int astar_navmesh_new(astar_navmesh **out, const double *xy, uint32_t nv,
                      const uint32_t *start, const uint32_t *idx, uint32_t np,
                      astar_navmesh_problem *pr, astar_alloc alloc, void *ud) {
  astar_mem a;
  astar_navmesh *m;
  htab t;
  uint32_t *weld = NULL, *stamp = NULL, *walls = NULL, i, p, h, nw = 0;
  size_t nh;
  double bw, bh;
  int rc = 0;
  *out = NULL;
  if (pr != NULL) problem(pr, 0, NONE, NONE, NONE, NONE);
  if (np == 0 || nv == 0 || start[0] != 0) return ASTAR_EINVAL;
  for (p = 0; p < np; p++) {
    uint32_t k = start[p + 1] - start[p];
    if (start[p + 1] < start[p] || k < 3) { problem(pr, ASTAR_NM_FEW, p, NONE, NONE, NONE);
                                            return ASTAR_EINVAL; }
    for (i = start[p]; i < start[p + 1]; i++)
      if (idx[i] >= nv) { problem(pr, ASTAR_NM_INDEX, p, NONE, idx[i], NONE);
                          return ASTAR_EINVAL; }
  }
  for (i = 0; i < 2 * nv; i++)
    if (!isfinite(xy[i])) { problem(pr, ASTAR_NM_COORD, NONE, NONE, i / 2, NONE);
                            return ASTAR_EINVAL; }
  nh = start[np];
  if (nh >= UINT32_MAX / 2) return ASTAR_EINVAL;
  a.fn = alloc; a.ud = ud; a.allocs = 0;
  m = (astar_navmesh *)astar__alloc(&a, sizeof *m);
  if (m == NULL) return ASTAR_ENOMEM;
  memset(m, 0, sizeof *m);
  m->mem = a;
  m->np = np; m->nh = (uint32_t)nh;
  /* weld vertices with the same coordinates */
  weld = (uint32_t *)astar__alloc(&m->mem, (size_t)nv * sizeof(uint32_t));
  t.key = NULL; t.val = NULL; t.cap = 0;
  if (weld == NULL || htab_new(&m->mem, &t, nv)) {
    htab_free(&m->mem, &t);
    rc = ASTAR_ENOMEM; goto done;
  }
  for (i = 0; i < nv; i++) {
    uint64_t key = hash64(dbits(xy[2 * i])) ^ dbits(xy[2 * i + 1]);
    size_t s = (size_t)hash64(key) & (t.cap - 1);
    while (t.val[s] != NONE &&
           !(xy[2 * t.val[s]] == xy[2 * i] && xy[2 * t.val[s] + 1] == xy[2 * i + 1]))
      s = (s + 1) & (t.cap - 1);
    if (t.val[s] == NONE) { t.val[s] = i; t.key[s] = key; weld[i] = m->nv++; }
    else weld[i] = weld[t.val[s]];
  }
  htab_free(&m->mem, &t);
  m->xy = (double *)astar__alloc(&m->mem, 2 * (size_t)m->nv * sizeof(double));
  m->pstart = (uint32_t *)astar__alloc(&m->mem, ((size_t)np + 1) * sizeof(uint32_t));
  m->hv = (uint32_t *)astar__alloc(&m->mem, nh * sizeof(uint32_t));
  m->hn = (uint32_t *)astar__alloc(&m->mem, nh * sizeof(uint32_t));
  m->hp = (uint32_t *)astar__alloc(&m->mem, nh * sizeof(uint32_t));
  m->hpoly = (uint32_t *)astar__alloc(&m->mem, nh * sizeof(uint32_t));
  m->htw = (uint32_t *)astar__alloc(&m->mem, nh * sizeof(uint32_t));
  m->cost = (double *)astar__alloc(&m->mem, (size_t)np * sizeof(double));
  m->flags = (uint32_t *)astar__alloc(&m->mem, (size_t)np * sizeof(uint32_t));
  m->vwall = (unsigned char *)astar__alloc(&m->mem, m->nv);
  m->vps = (uint32_t *)astar__alloc(&m->mem, ((size_t)m->nv + 1) * sizeof(uint32_t));
  m->vpl = (uint32_t *)astar__alloc(&m->mem, nh * sizeof(uint32_t));
  stamp = (uint32_t *)astar__alloc(&m->mem, (size_t)m->nv * sizeof(uint32_t));
  if (!m->xy || !m->pstart || !m->hv || !m->hn || !m->hp || !m->hpoly || !m->htw || !m->cost ||
      !m->flags || !m->vwall || !m->vps || !m->vpl || !stamp) { rc = ASTAR_ENOMEM; goto done; }
  for (i = 0; i < nv; i++) { m->xy[2 * weld[i]] = xy[2 * i]; m->xy[2 * weld[i] + 1] = xy[2 * i + 1]; }
  memset(stamp, 0xff, (size_t)m->nv * sizeof(uint32_t));
  for (p = 0; p < np; p++) {
    m->pstart[p] = start[p];
    m->cost[p] = 1; m->flags[p] = 1;
    for (i = start[p]; i < start[p + 1]; i++) {
      uint32_t v = weld[idx[i]];
      if (stamp[v] == p) { problem(pr, ASTAR_NM_REPEAT, p, NONE, idx[i], NONE);
                           rc = ASTAR_EINVAL; goto done; }
      stamp[v] = p;
      m->hv[i] = v; m->hpoly[i] = p;
    }
  }
  m->pstart[np] = (uint32_t)nh;
  m->mincost = m->maxcost = 1;
  /* bounding box and tolerance */
  m->box[0] = m->box[1] = HUGE_VAL; m->box[2] = m->box[3] = -HUGE_VAL;
  for (i = 0; i < m->nv; i++) {
    m->box[0] = fmin(m->box[0], VX(m, i)); m->box[1] = fmin(m->box[1], VY(m, i));
    m->box[2] = fmax(m->box[2], VX(m, i)); m->box[3] = fmax(m->box[3], VY(m, i));
  }
  bw = m->box[2] - m->box[0]; bh = m->box[3] - m->box[1];
  m->eps = 1e-9 * fmax(bw, bh);
  for (p = 0; p < np; p++)
    if ((rc = checkpoly(m, p, idx + start[p], pr)) != 0) goto done;
  if ((rc = linkedges(m, pr)) != 0) goto done;
  /* walls, vertex -> polygons */
  memset(m->vwall, 0, m->nv);
  memset(m->vps, 0, ((size_t)m->nv + 1) * sizeof(uint32_t));
  for (h = 0; h < nh; h++) {
    m->vps[m->hv[h] + 1]++;
    if (m->hn[h] == NONE) { m->vwall[m->hv[h]] = 1; m->vwall[m->hv[nexthe(m, h)]] = 1; nw++; }
  }
  for (i = 0; i < m->nv; i++) m->vps[i + 1] += m->vps[i];
  for (h = 0; h < nh; h++) m->vpl[m->vps[m->hv[h]]++] = m->hpoly[h];
  for (i = m->nv; i > 0; i--) m->vps[i] = m->vps[i - 1];
  m->vps[0] = 0;
  m->nwall = nw;
  m->phe = (uint32_t *)astar__alloc(&m->mem, (m->nport ? m->nport : 1) * sizeof(uint32_t));
  walls = (uint32_t *)astar__alloc(&m->mem, (nw ? nw : 1) * sizeof(uint32_t));
  if (m->phe == NULL || walls == NULL) { rc = ASTAR_ENOMEM; goto done; }
  if (m->nport == 0) { astar__free(&m->mem, m->phe, sizeof(uint32_t)); m->phe = NULL; }
  for (nw = 0, h = 0; h < nh; h++) {
    if (m->hn[h] == NONE) walls[nw++] = h;
    else if (m->hpoly[h] < m->hn[h]) m->phe[m->hp[h]] = h;
  }
  /* buckets: about one polygon per bucket, at most 2^22 buckets */
  {
    double cells = np < 4 ? 4 : (double)np, side = fmax(bw, bh), c;
    c = sqrt(fmax(bw * bh, side * side / cells) / cells);
    if (!(c > 0)) c = side > 0 ? side : 1;
    while ((bw / c + 1) * (bh / c + 1) > 4194304.0) c *= 2;
    m->cell = c;
    m->bw = (uint32_t)(bw / c) + 1; m->bh = (uint32_t)(bh / c) + 1;
  }
  if ((rc = buckets(m, np, NULL, 0, &m->bps, &m->bpl)) != 0 ||
      (rc = buckets(m, nw, walls, 1, &m->bws, &m->bwl)) != 0)
    goto done;
  rc = tjunctions(m, pr);
done:
  if (rc == ASTAR_EINVAL && pr != NULL && weld != NULL &&
      (pr->why == ASTAR_NM_OVERLAP || pr->why == ASTAR_NM_DUPLICATE ||
       pr->why == ASTAR_NM_NONMANIFOLD || pr->why == ASTAR_NM_TJUNCTION)) {
    uint32_t v = pr->vertex, v2 = pr->vertex2;       /* welded -> the caller's indices */
    for (i = nv; i-- > 0;) {
      if (weld[i] == v) pr->vertex = i;
      if (weld[i] == v2) pr->vertex2 = i;
    }
  }
  astar__free(&m->mem, weld, (size_t)nv * sizeof(uint32_t));
  astar__free(&m->mem, stamp, (size_t)m->nv * sizeof(uint32_t));
  astar__free(&m->mem, walls, (nw ? nw : 1) * sizeof(uint32_t));
  if (rc) { freemesh(m); return rc; }
  *out = m;
  return 0;
}

/* ------------------------------------------------------------------ */
/* Accessors and edits                                                  */
/* ------------------------------------------------------------------ */

uint32_t astar_navmesh_npolygons(const astar_navmesh *m) { return m->np; }
uint32_t astar_navmesh_nvertices(const astar_navmesh *m) { return m->nv; }
uint32_t astar_navmesh_nportals(const astar_navmesh *m) { return m->nport; }
const double *astar_navmesh_xy(const astar_navmesh *m) { return m->xy; }
uint64_t astar_navmesh_version(const astar_navmesh *m) { return m->version; }
size_t astar_navmesh_allocs(const astar_navmesh *m) { return m->mem.allocs; }
double astar_navmesh_cost(const astar_navmesh *m, uint32_t p) { return m->cost[p]; }
uint32_t astar_navmesh_flags(const astar_navmesh *m, uint32_t p) { return m->flags[p]; }

void astar_navmesh_bounds(const astar_navmesh *m, double *box) {
  memcpy(box, m->box, sizeof m->box);
}

const uint32_t *astar_navmesh_polygon(const astar_navmesh *m, uint32_t p, uint32_t *n) {
  *n = m->pstart[p + 1] - m->pstart[p];
  return m->hv + m->pstart[p];
}

const uint32_t *astar_navmesh_neighbours(const astar_navmesh *m, uint32_t p, uint32_t *n) {
  *n = m->pstart[p + 1] - m->pstart[p];
  return m->hn + m->pstart[p];
}

void astar_navmesh_set_cost(astar_navmesh *m, uint32_t p, double cost) {
  if (cost < m->mincost) m->mincost = cost;
  else if (m->cost[p] == m->mincost && cost > m->cost[p]) m->minstale = 1;
  if (cost > m->maxcost) m->maxcost = cost;
  else if (m->cost[p] == m->maxcost && cost < m->cost[p]) m->maxstale = 1;
  m->cost[p] = cost;
  m->version++;
}

void astar_navmesh_set_flags(astar_navmesh *m, uint32_t p, uint32_t flags) {
  m->flags[p] = flags;
  m->version++;
}

static double mincost(astar_navmesh *m) {
  if (m->minstale || m->maxstale) {
    uint32_t p;
    m->mincost = HUGE_VAL; m->maxcost = 0;
    for (p = 0; p < m->np; p++) {
      if (m->cost[p] < m->mincost) m->mincost = m->cost[p];
      if (m->cost[p] > m->maxcost) m->maxcost = m->cost[p];
    }
    m->minstale = m->maxstale = 0;
  }
  return m->mincost;
}

/* ------------------------------------------------------------------ */
/* Points                                                               */
/* ------------------------------------------------------------------ */

static int allowed(const astar_navmesh *m, uint32_t p, uint32_t inc, uint32_t exc) {
  return (m->flags[p] & inc) != 0 && (m->flags[p] & exc) == 0;
}

static int inpoly(const astar_navmesh *m, uint32_t p, double x, double y) {
  uint32_t h;
  for (h = m->pstart[p]; h < m->pstart[p + 1]; h++) {
    uint32_t u = m->hv[h], v = m->hv[nexthe(m, h)];
    double dx = VX(m, v) - VX(m, u), dy = VY(m, v) - VY(m, u);
    if (cross2(dx, dy, x - VX(m, u), y - VY(m, u)) < -m->eps * hypot(dx, dy)) return 0;
  }
  return 1;
}

/* The polygons holding (x, y), at most 'max' into out, through the bucket
** grid; with 'filter', only those the flags inc/exc allow. Returns how many. */
static int holders(const astar_navmesh *m, double x, double y, int filter, uint32_t inc,
                   uint32_t exc, uint32_t *out, int max) {
  uint32_t bx, by, i;
  size_t b;
  int n = 0;
  if (!(x >= m->box[0] - m->eps && x <= m->box[2] + m->eps &&
        y >= m->box[1] - m->eps && y <= m->box[3] + m->eps)) return 0;
  brange(m, x, y, x, y, &bx, &by, &bx, &by);
  b = (size_t)by * m->bw + bx;
  for (i = m->bps[b]; i < m->bps[b + 1] && n < max; i++) {
    uint32_t p = m->bpl[i];
    if ((!filter || allowed(m, p, inc, exc)) && inpoly(m, p, x, y)) out[n++] = p;
  }
  return n;
}

/* The first polygon holding (x, y) that the flags allow. */
static uint32_t locatef(const astar_navmesh *m, double x, double y, uint32_t inc, uint32_t exc) {
  uint32_t p;
  return holders(m, x, y, 1, inc, exc, &p, 1) ? p : NONE;
}

uint32_t astar_navmesh_locate(const astar_navmesh *m, double x, double y) {
  uint32_t p;
  return holders(m, x, y, 0, 0, 0, &p, 1) ? p : NONE;
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
  brange(m, px, py, px, py, &bx, &by, &bx, &by);
  for (r = 0; r <= rmax; r++) {
    long ix, iy;
    if (r > 0 && outside + (double)(r - 1) * m->cell > *best) break;
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

int astar_navmesh_raycast(const astar_navmesh *m, double x0, double y0, double x1,
                          double y1, uint32_t inc, uint32_t exc,
                          double *hx, double *hy, uint32_t *hpoly) {
  double dx = x1 - x0, dy = y1 - y0, t = 0;
  uint32_t p = locatef(m, x0, y0, inc, exc), steps = 0, prev = NONE;
  if (p == NONE) return -1;
  for (;;) {
    uint32_t h, exit = NONE;
    double texit = HUGE_VAL, ex0, ey0;
    for (h = m->pstart[p]; h < m->pstart[p + 1]; h++) {   /* where the ray leaves p */
      uint32_t u = m->hv[h], v = m->hv[nexthe(m, h)];
      double ex = VX(m, v) - VX(m, u), ey = VY(m, v) - VY(m, u);
      double den = cross2(ex, ey, dx, dy);
      if (den < 0) {
        double te = cross2(ex, ey, x0 - VX(m, u), y0 - VY(m, u)) / -den;
        if (te < texit) texit = te;
      }
    }
    if (texit >= 1) return 1;
    ex0 = x0 + dx * texit; ey0 = y0 + dy * texit;
    /* the edge holding that point (collinear edges share the line; through
    ** a vertex, prefer an edge into an allowed polygon not just left) */
    for (h = m->pstart[p]; h < m->pstart[p + 1]; h++) {
      uint32_t u = m->hv[h], v = m->hv[nexthe(m, h)];
      double cx, cy;
      if (cross2(VX(m, v) - VX(m, u), VY(m, v) - VY(m, u), dx, dy) >= 0) continue;
      if (segdist(ex0, ey0, VX(m, u), VY(m, u), VX(m, v), VY(m, v), &cx, &cy) > 4 * m->eps)
        continue;
      if (exit == NONE || (m->hn[h] != NONE && m->hn[h] != prev &&
                           allowed(m, m->hn[h], inc, exc))) exit = h;
    }
    if (texit < t) texit = t;
    t = texit;
    if (exit == NONE || m->hn[exit] == NONE || !allowed(m, m->hn[exit], inc, exc) || ++steps > 4 * m->np + 8) {
      /* through a vertex into a polygon that only touches this one? */
      uint32_t q = locatef(m, x0 + dx * (t + 1e-9), y0 + dy * (t + 1e-9), inc, exc);
      if (q == NONE || q == p || steps > 4 * m->np + 8) {
        *hx = x0 + dx * t; *hy = y0 + dy * t; *hpoly = p;
        return 0;
      }
      prev = p; p = q;
      continue;
    }
    prev = p;
    p = m->hn[exit];
  }
}

/* ------------------------------------------------------------------ */
/* Search over portals                                                  */
/* ------------------------------------------------------------------ */

void astar_navmesh_query_init(astar_navmesh_query *q) {
  memset(q, 0, sizeof *q);
  q->include = ALLFLAGS;
  astar_params_init(&q->params);
}

void astar_navmesh_query_free(astar_navmesh_query *q) {
  if (q->mem.fn != NULL) {
    astar_mem *a = &q->mem;
    astar__free(a, q->pt, q->cpt * sizeof(double));
    astar__free(a, q->out, q->cout * sizeof(double));
    astar__free(a, q->corr, q->ccorr * sizeof(uint32_t));
    astar__free(a, q->ctr, q->cctr * sizeof(double));
    astar__free(a, q->pn, q->cpn * sizeof(pnode));
    astar__free(a, q->heap, q->cheap * sizeof(uint32_t));
    astar__free(a, q->vg, q->cvg * sizeof(double));
    astar__free(a, q->vs, q->cvs * sizeof(uint32_t));
    astar__free(a, q->ppos, q->cppos * sizeof(uint32_t));
  }
  q->pt = q->out = q->ctr = NULL; q->corr = NULL;
  q->cpt = q->cout = q->ccorr = q->cctr = 0;
  q->pn = NULL; q->heap = NULL; q->vg = NULL; q->vs = NULL; q->ppos = NULL; q->cppos = 0;
  q->cpn = q->cheap = q->cvg = q->cvs = 0; q->npn = q->nheap = 0; q->stamp = 0;
}

/* A vertex the agent must keep its distance from: it ends a wall edge, or
** touches a polygon the query may not enter. */
static int wallvertex(const astar_navmesh_query *q, uint32_t v) {
  const astar_navmesh *m = q->mesh;
  uint32_t i;
  if (m->vwall[v]) return 1;
  for (i = m->vps[v]; i < m->vps[v + 1]; i++)
    if (!allowed(m, m->vpl[i], q->include, q->exclude)) return 1;
  return 0;
}

static int walledge(const astar_navmesh_query *q, uint32_t h) {
  uint32_t n = q->mesh->hn[h];
  return n == NONE || !allowed(q->mesh, n, q->include, q->exclude);
}

/* The usable part [lo, hi] (fractions from u to v) of half-edge h's portal
** for the query's radius; 0 if it is narrower than the agent. */
static int usable(const astar_navmesh_query *q, uint32_t h, double *lo, double *hi) {
  const astar_navmesh *m = q->mesh;
  uint32_t u = m->hv[h], v = m->hv[nexthe(m, h)];
  double len;
  *lo = 0; *hi = 1;
  if (q->R <= 0) return 1;
  len = hypot(VX(m, v) - VX(m, u), VY(m, v) - VY(m, u));
  if (wallvertex(q, u)) *lo = q->R / len;
  if (wallvertex(q, v)) *hi = 1 - q->R / len;
  return *lo <= *hi;
}

/* Whether an agent of radius R fits through polygon p from its edge 'in' to
** its edge 'out' (local indices): the walls on the two sides of the way
** must stay 2R apart. */
static int fits(const astar_navmesh_query *q, uint32_t p, uint32_t in, uint32_t out) {
  const astar_navmesh *m = q->mesh;
  uint32_t a = m->pstart[p], k = m->pstart[p + 1] - a, i, j;
  double need = 2 * q->R;
  /* side 1: vertices in+1 .. out, edges in+1 .. out-1; side 2: out+1 .. in */
  for (i = (in + 1) % k;; i = (i + 1) % k) {           /* vertex i of side 1 */
    int wv = wallvertex(q, m->hv[a + i]);
    for (j = (out + 1) % k;; j = (j + 1) % k) {       /* vertex j of side 2 */
      uint32_t vi = m->hv[a + i], vj = m->hv[a + j];
      double cx, cy;
      if (wv && wallvertex(q, vj) &&
          hypot(VX(m, vi) - VX(m, vj), VY(m, vi) - VY(m, vj)) < need) return 0;
      if (j != in && walledge(q, a + j) && wv) {      /* edge j -> j+1 of side 2 */
        uint32_t w = m->hv[a + (j + 1) % k];
        if (segdist(VX(m, vi), VY(m, vi), VX(m, vj), VY(m, vj), VX(m, w), VY(m, w), &cx, &cy)
            < need) return 0;
      }
      if (i != out && walledge(q, a + i) && wallvertex(q, vj)) {   /* edge i -> i+1, side 1 */
        uint32_t w = m->hv[a + (i + 1) % k];
        if (segdist(VX(m, vj), VY(m, vj), VX(m, vi), VY(m, vi), VX(m, w), VY(m, w), &cx, &cy)
            < need) return 0;
      }
      if (j == in) break;
    }
    if (i == out) break;
  }
  return 1;
}

/* The point of half-edge h's usable part [lo, hi] that minimises the walk
** from p to it and on to g. */
static void portalpoint(const astar_navmesh *m, uint32_t h, double lo, double hi,
                        double px, double py, double gx, double gy, double *x, double *y) {
  uint32_t u = m->hv[h], v = m->hv[nexthe(m, h)];
  double ax = VX(m, u), ay = VY(m, u), dx = VX(m, v) - ax, dy = VY(m, v) - ay;
  double l2 = dx * dx + dy * dy, sp, sg, tp, tg, t;
  sp = cross2(dx, dy, px - ax, py - ay);
  sg = cross2(dx, dy, gx - ax, gy - ay);
  tp = ((px - ax) * dx + (py - ay) * dy) / l2;
  tg = ((gx - ax) * dx + (gy - ay) * dy) / l2;
  if ((sp > 0 && sg > 0) || (sp < 0 && sg < 0)) sg = -sg;   /* same side: mirror g */
  t = sp != sg ? tp + (tg - tp) * sp / (sp - sg) : (tp + tg) / 2;
  if (!(t > lo)) t = lo;
  if (t > hi) t = hi;
  *x = ax + t * dx; *y = ay + t * dy;
}

static int banned(const astar_navmesh_query *q, uint32_t portal) {
  size_t i;
  for (i = 0; i < q->nban; i++) if (q->ban[i] == portal) return 1;
  return 0;
}

/* The engine's nodes: portals 0 .. nport-1, then the start and the goal. */
static int nm_expand(void *self, uint32_t node, astar_search *s) {
  astar_navmesh_query *q = (astar_navmesh_query *)self;
  const astar_navmesh *m = q->mesh;
  uint32_t snode = m->nport, gnode = m->nport + 1, side, n = 0, pl[2], npl;
  double px, py;
  astar_edge *e;
  if (node == gnode) return 0;
  if (node == snode) {
    px = q->sx; py = q->sy; pl[0] = q->spoly; npl = 1;
  } else {
    double g, lo, hi, ppx, ppy;
    uint32_t parent, h = m->phe[node];
    astar_search_node(s, node, &g, &parent);
    ppx = q->pt[2 * (size_t)parent]; ppy = q->pt[2 * (size_t)parent + 1];
    usable(q, h, &lo, &hi);
    portalpoint(m, h, lo, hi, ppx, ppy, q->gx, q->gy, &px, &py);
    pl[0] = m->hpoly[h]; pl[1] = m->hn[h]; npl = 2;
  }
  q->pt[2 * (size_t)node] = px; q->pt[2 * (size_t)node + 1] = py;
  e = astar_search_edges(s, (size_t)(m->pstart[pl[0] + 1] - m->pstart[pl[0]]) +
                             (npl > 1 ? m->pstart[pl[1] + 1] - m->pstart[pl[1]] : 0) + 2);
  if (e == NULL) return ASTAR_ENOMEM;
  for (side = 0; side < npl; side++) {
    uint32_t p = pl[side], a = m->pstart[p], k = m->pstart[p + 1] - a, i, in = NONE;
    double c = m->cost[p];
    if (!allowed(m, p, q->include, q->exclude)) continue;
    if (node != snode) {                          /* the portal's side in p */
      uint32_t h = m->phe[node];
      in = (m->hpoly[h] == p ? h : m->htw[h]) - a;
    }
    for (i = 0; i < k; i++) {
      uint32_t h = a + i, to = m->hp[h];
      double lo, hi, x, y, base;
      if (to == NONE || i == in || !allowed(m, m->hn[h], q->include, q->exclude)) continue;
      if (q->nban > 0 && banned(q, to)) continue;
      if (!usable(q, h, &lo, &hi)) continue;
      if (q->R > 0 && in != NONE && !fits(q, p, in, i)) continue;
      portalpoint(m, h, lo, hi, px, py, q->gx, q->gy, &x, &y);
      base = hypot(x - px, y - py) * c;
      if (q->cost_fn != NULL) {
        base = q->cost_fn(q->cost_ud, p, m->hn[h], base);
        if (base < 0) continue;
      }
      e[n].to = to; e[n].cost = base; n++;
    }
    if (p == q->gpoly) {
      double base = hypot(q->gx - px, q->gy - py) * c;
      if (q->cost_fn != NULL) base = q->cost_fn(q->cost_ud, p, NONE, base);
      if (base >= 0) { e[n].to = gnode; e[n].cost = base; n++; }
    }
  }
  return (int)n;
}

static double nm_heuristic(void *self, uint32_t node) {
  const astar_navmesh_query *q = (const astar_navmesh_query *)self;
  const astar_navmesh *m = q->mesh;
  double lo, hi, cx, cy;
  uint32_t h, u, v;
  if (node == m->nport + 1) return 0;
  if (node == m->nport) return q->hscale * hypot(q->gx - q->sx, q->gy - q->sy);
  h = m->phe[node]; u = m->hv[h]; v = m->hv[nexthe(m, h)];
  usable(q, h, &lo, &hi);
  if (lo > hi) lo = hi = 0.5;
  {
    double ax = VX(m, u), ay = VY(m, u), dx = VX(m, v) - ax, dy = VY(m, v) - ay;
    return q->hscale * segdist(q->gx, q->gy, ax + lo * dx, ay + lo * dy, ax + hi * dx,
                               ay + hi * dy, &cx, &cy);
  }
}

/* The start or goal polygon; sets q->blocked_why on failure. */
static uint32_t endpoint(astar_navmesh_query *q, double x, double y) {
  const astar_navmesh *m = q->mesh;
  uint32_t p = locatef(m, x, y, q->include, q->exclude);
  if (p == NONE) {
    q->blocked_why = astar_navmesh_locate(m, x, y) == NONE ? 0 : 1;
    return NONE;
  }
  if (q->radius > 0 && astar_navmesh_clearance(m, x, y) < q->radius * (1 - 1e-9)) {
    q->blocked_why = 2;
    return NONE;
  }
  return p;
}

int astar_navmesh_prepare(astar_navmesh *m, astar_navmesh_query *q, double sx, double sy,
                          double gx, double gy, uint32_t *start, uint32_t *goal) {
  size_t need = 2 * ((size_t)m->nport + 2);
  if (!(q->radius >= 0 && q->radius < HUGE_VAL) || !isfinite(sx) || !isfinite(sy) ||
      !isfinite(gx) || !isfinite(gy))
    return ASTAR_EINVAL;
  if (q->mesh != m) {                  /* buffers from another mesh's allocator */
    astar_navmesh_query_free(q);
    q->mem.fn = m->mem.fn;
    q->mem.ud = m->mem.ud;
  }
  q->mesh = m;
  q->sx = sx; q->sy = sy; q->gx = gx; q->gy = gy;
  q->R = q->radius / cos(ARC_STEP / 2);
  q->blocked = 0; q->ncorr = 0; q->nban = 0; q->ready = 0; q->nout = 0;
  if (astar__reserve(&q->mem, (void **)&q->pt, &q->cpt, need, sizeof(double)))
    return ASTAR_ENOMEM;
  q->spoly = endpoint(q, sx, sy);
  if (q->spoly == NONE) { q->blocked = 1; return ASTAR_BLOCKED; }
  q->gpoly = endpoint(q, gx, gy);
  if (q->gpoly == NONE) { q->blocked = 2; return ASTAR_BLOCKED; }
  q->hscale = mincost(m);
  if (q->params.algorithm == ASTAR_ALG_DIJKSTRA) q->hscale = 0;
  q->domain.nnodes = m->nport + 2;
  q->domain.expand = nm_expand;
  q->domain.heuristic = nm_heuristic;
  q->domain.is_goal = NULL;
  q->domain.edge_cost = NULL;
  q->domain.self = q;
  *start = m->nport; *goal = m->nport + 1;
  return 0;
}

static int straighten(astar_navmesh_query *q, astar_search *s, double *wx, double *wy);
static void ban(astar_navmesh_query *q, double x, double y);
static int exact_begin(astar_navmesh_query *q);
static int exact_step(astar_navmesh_query *q, uint64_t budget);

int astar_navmesh_begin(astar_navmesh *m, astar_search *s, astar_navmesh_query *q,
                        double sx, double sy, double gx, double gy) {
  int rc = astar_navmesh_prepare(m, q, sx, sy, gx, gy, &q->snode, &q->gnode);
  if (rc) return rc;
  q->exact = q->radius == 0 && q->cost_fn == NULL && m->mincost == m->maxcost;
  if (q->exact) return exact_begin(q);
  return astar_search_begin(s, &q->domain, q->snode, q->gnode, &q->params);
}

int astar_navmesh_step(astar_navmesh *m, astar_search *s, astar_navmesh_query *q,
                       uint64_t budget) {
  double wx = 0, wy = 0;
  int rc;
  (void)m;
  if (q->exact) {
    rc = exact_step(q, budget);
    q->ready = rc == ASTAR_FOUND;
    return rc;
  }
  rc = astar_search_step(s, budget);
  if (rc != ASTAR_FOUND) return rc;
  rc = straighten(q, s, &wx, &wy);
  if (rc <= 0) { q->ready = rc == 0; return rc < 0 ? rc : ASTAR_FOUND; }
  /* too close to a wall for the radius: close the portal there, search again */
  if (q->nban >= ASTAR_NM_BANS) return ASTAR_NO_PATH;
  ban(q, wx, wy);
  rc = astar_search_begin(s, &q->domain, q->snode, q->gnode, &q->params);
  return rc != 0 ? rc : ASTAR_RUNNING;
}

int astar_navmesh_find(astar_navmesh *m, astar_search *s, astar_navmesh_query *q,
                       double sx, double sy, double gx, double gy) {
  int rc = astar_navmesh_begin(m, s, q, sx, sy, gx, gy);
  if (rc) return rc;
  do rc = astar_navmesh_step(m, s, q, UINT64_MAX); while (rc == ASTAR_RUNNING);
  return rc;
}

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

/* Drops the loops of the corridor q->corr (polygons, then portals): when a
** polygon comes again, what lies between its two visits goes. */
static int unloop(astar_navmesh_query *q) {
  size_t n = q->ncorr, c = 0, i, old = q->cppos;
  uint32_t *poly = q->corr, *port = q->corr + n;
  if (astar__reserve(&q->mem, (void **)&q->ppos, &q->cppos, q->mesh->np,
                     sizeof(uint32_t)))
    return ASTAR_ENOMEM;
  if (q->cppos > old) memset(q->ppos + old, 0xff, (q->cppos - old) * sizeof(uint32_t));
  for (i = 0; i < n; i++) {
    uint32_t X = poly[i];
    if (q->ppos[X] != NONE) {
      size_t j = q->ppos[X], t;
      for (t = j + 1; t < c; t++) q->ppos[poly[t]] = NONE;
      c = j + 1;
    } else {
      if (c > 0) port[c - 1] = port[i - 1];
      poly[c] = X; q->ppos[X] = (uint32_t)c; c++;
    }
  }
  for (i = 0; i < c; i++) q->ppos[poly[i]] = NONE;
  memmove(poly + c, port, (c > 0 ? c - 1 : 0) * sizeof(uint32_t));
  q->ncorr = c;
  return 0;
}

/* Turns the engine's path (start, portals..., goal) into the corridor:
** q->corr[0 .. n-1] polygons, then q->corr[n .. 2n-2] the portal between
** polygons i and i+1. */
static int corridor(astar_navmesh_query *q, const uint32_t *nodes, long n) {
  const astar_navmesh *m = q->mesh;
  uint32_t *poly, *port;
  long k, c = 1;
  if (astar__reserve(&q->mem, (void **)&q->corr, &q->ccorr, 2 * (size_t)n + 2,
                     sizeof(uint32_t)))
    return ASTAR_ENOMEM;
  poly = q->corr; port = q->corr + n + 1;           /* at most n polygons */
  poly[0] = q->spoly;
  for (k = 1; k < n - 1; k++) {
    uint32_t portal = nodes[k];
    if (!hasportal(m, poly[c - 1], portal) && c > 1) c--;   /* touched a portal, came back */
    port[c - 1] = portal;
    poly[c] = across(m, portal, poly[c - 1]);
    c++;
  }
  if (poly[c - 1] != q->gpoly && c > 1 && poly[c - 2] == q->gpoly) c--;
  memmove(poly + c, port, (size_t)(c - 1) * sizeof(uint32_t));
  q->ncorr = (size_t)c;
  return unloop(q);
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

static int samefpt(const fpt *a, const fpt *b) { return a->x == b->x && a->y == b->y; }

/* Is a nearer to o than b is? */
static int nearer(const fpt *o, const fpt *a, const fpt *b) {
  return hypot(a->x - o->x, a->y - o->y) < hypot(b->x - o->x, b->y - o->y);
}

static int pushpt(astar_navmesh_query *q, size_t *n, double x, double y) {
  if (*n > 0 && q->out[2 * *n - 2] == x && q->out[2 * *n - 1] == y) return 0;
  if (astar__reserve(&q->mem, (void **)&q->out, &q->cout, 2 * *n + 2, sizeof(double)))
    return ASTAR_ENOMEM;
  q->out[2 * *n] = x; q->out[2 * *n + 1] = y;
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
    if (!allowed(m, p, q->include, q->exclude)) continue;
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
      if ((a != w && b != w) || !walledge(q, h)) continue;
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
  double dx, dy, px, py, ex, ey, best = q->R * (1 - 1e-7);
  uint32_t x, y, x0, y0, x1, y1, i, found = NONE;
  if (!tangent(&c[k], &c[k + 1], &dx, &dy)) return NONE;
  px = c[k].x + c[k].r * dy; py = c[k].y - c[k].r * dx;
  ex = c[k + 1].x + c[k + 1].r * dy; ey = c[k + 1].y - c[k + 1].r * dx;
  brange(m, fmin(px, ex) - q->R, fmin(py, ey) - q->R, fmax(px, ex) + q->R,
         fmax(py, ey) + q->R, &x0, &y0, &x1, &y1);
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
    c[k].r = wallvertex(q, c[k].v) ? c[k].side * q->R : 0;
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
        c[k + 1].v = w; c[k + 1].side = side; c[k + 1].r = side * q->R;
        nc++; changed = 1;
      }
    }
    if (!changed) break;
  }
  return nc;
}

/* The funnel (string pulling) over the corridor; with a radius, widened. */
static long funnel(astar_navmesh_query *q) {
  const astar_navmesh *m = q->mesh;
  size_t np = q->ncorr, i, nc = 0, ai = 0, li = 0, ri = 0;
  size_t cap = np + 2 + 64, need = (2 * (np + 1) + cap) * sizeof(fpt) / sizeof(double) + 1;
  const uint32_t *poly = q->corr, *port = q->corr + np;
  fpt *L, *Rt, apex, left, right, *c;
  if (astar__reserve(&q->mem, (void **)&q->ctr, &q->cctr, need, sizeof(double)))
    return ASTAR_ENOMEM;
  L = (fpt *)(void *)q->ctr; Rt = L + (np + 1); c = Rt + (np + 1);
  /* portals as (left, right) ends: 0 the start, np the goal */
  L[0].x = Rt[0].x = q->sx; L[0].y = Rt[0].y = q->sy;
  L[np].x = Rt[np].x = q->gx; L[np].y = Rt[np].y = q->gy;
  L[0].v = Rt[0].v = L[np].v = Rt[np].v = NONE;
  for (i = 1; i < np; i++) {
    uint32_t p = poly[i - 1], h = m->phe[port[i - 1]], u, v;
    if (m->hpoly[h] != p) h = m->htw[h];               /* the portal's side in p */
    u = m->hv[h]; v = m->hv[nexthe(m, h)];            /* leaving p: v on the left */
    L[i].x = VX(m, v); L[i].y = VY(m, v); L[i].v = v;
    Rt[i].x = VX(m, u); Rt[i].y = VY(m, u); Rt[i].v = u;
  }
  for (i = 0; i <= np; i++) { L[i].r = Rt[i].r = 0; L[i].side = 1; Rt[i].side = -1; }
  apex = L[0]; left = L[0]; right = Rt[0];
  c[nc++] = apex;
  for (i = 1; i <= np; i++) {
    double rdx, rdy, ndx, ndy, ldx, ldy;
    if (!tangent(&apex, &Rt[i], &ndx, &ndy) || samefpt(&right, &Rt[i])) {   /* right side */
      right = Rt[i]; ri = i;
    } else {
      int hasr = !samefpt(&apex, &right) && tangent(&apex, &right, &rdx, &rdy);
      if (!hasr || cross2(rdx, rdy, ndx, ndy) >= 0) {          /* tightens */
        int hasl = !samefpt(&apex, &left) && tangent(&apex, &left, &ldx, &ldy);
        if (!hasl || cross2(ndx, ndy, ldx, ldy) > 0) {
          right = Rt[i]; ri = i;
        } else {                                                /* over the left: a corner */
          if (cross2(ndx, ndy, ldx, ldy) == 0 && nearer(&apex, &Rt[i], &left)) {
            left = Rt[i]; li = i;                  /* one ray: the nearer end is the corner */
          }
          apex = left; c[nc++] = apex; ai = li;
          left = right = apex; li = ri = ai;
          i = ai;
          continue;
        }
      }
    }
    if (!tangent(&apex, &L[i], &ndx, &ndy) || samefpt(&left, &L[i])) {      /* left side */
      left = L[i]; li = i;
    } else {
      int hasl = !samefpt(&apex, &left) && tangent(&apex, &left, &ldx, &ldy);
      if (!hasl || cross2(ndx, ndy, ldx, ldy) >= 0) {
        int hasr = !samefpt(&apex, &right) && tangent(&apex, &right, &rdx, &rdy);
        if (!hasr || cross2(rdx, rdy, ndx, ndy) > 0) {
          left = L[i]; li = i;
        } else {
          if (cross2(rdx, rdy, ndx, ndy) == 0 && nearer(&apex, &L[i], &right)) {
            right = L[i]; ri = i;
          }
          apex = right; c[nc++] = apex; ai = ri;
          left = right = apex; li = ri = ai;
          i = ai;
          continue;
        }
      }
    }
  }
  if (!samefpt(&c[nc - 1], &L[np])) c[nc++] = L[np];
  else c[nc - 1] = L[np];
  if (q->R > 0) nc = widen(q, c, nc, cap);
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
  size_t k, seg = 0, nc = q->ncorr;
  const uint32_t *poly = q->corr, *port = q->corr + nc;
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
    brange(m, fmin(ax, bx) - r, fmin(ay, by) - r, fmax(ax, bx) + r, fmax(ay, by) + r,
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

/* Straightens the path the search found into q->out (q->nout points) and
** prices it. Returns 0, ASTAR_NO_PATH if it passes closer than the radius
** to a wall (then *wx, *wy is where), or ASTAR_ENOMEM. */
static int straighten(astar_navmesh_query *q, astar_search *s, double *wx, double *wy) {
  const uint32_t *nodes;
  double scost;
  long n = astar_search_path(s, &nodes, &scost), np;
  int rc;
  if (n <= 0) return n < 0 ? (int)n : ASTAR_NO_PATH;
  if ((rc = corridor(q, nodes, n)) != 0) return rc;
  np = funnel(q);
  if (np < 0) return (int)np;
  q->nout = (size_t)np;
  q->pcost = pathcost(q, q->out, (size_t)np);
  q->clear = q->radius > 0 ? pathclear(q->mesh, q->out, (size_t)np, q->R, wx, wy) : HUGE_VAL;
  return q->clear < q->radius * (1 - 1e-9) ? ASTAR_NO_PATH : 0;
}

/* Closes the corridor's portal nearest to (x, y) to the next searches. */
static void ban(astar_navmesh_query *q, double x, double y) {
  const astar_navmesh *m = q->mesh;
  size_t i;
  double best = HUGE_VAL, cx, cy;
  uint32_t pick = NONE;
  for (i = 0; i + 1 < q->ncorr; i++) {
    uint32_t portal = q->corr[q->ncorr + i], h = m->phe[portal], u = m->hv[h];
    uint32_t v = m->hv[nexthe(m, h)];
    double d = segdist(x, y, VX(m, u), VY(m, u), VX(m, v), VY(m, v), &cx, &cy);
    if (d < best) { best = d; pick = portal; }
  }
  if (pick != NONE && q->nban < ASTAR_NM_BANS) q->ban[q->nban++] = pick;
}

long astar_navmesh_result(astar_navmesh_query *q, astar_search *s, const double **pts,
                          double *cost) {
  double wx, wy;
  if (!q->ready) {
    int rc = straighten(q, s, &wx, &wy);
    if (rc < 0) return rc;
    if (rc > 0) return 0;
  }
  *pts = q->out;
  *cost = q->pcost;
  return (long)q->nout;
}

/* ------------------------------------------------------------------ */
/* Exact search over intervals                                          */
/* ------------------------------------------------------------------ */
/*
** When every polygon costs the same, no radius and no callback: the search
** of Cui, Harabor and Grastien's Polyanya (IJCAI 2017), which is exact. A
** node is a root (the start, or a wall corner where the path bends) and an
** interval of an edge seen from it; g is the root's distance from the start
** and h the length of the shortest way from the root through the interval
** to the goal. Expanding a node projects its interval across the polygon
** behind it: the part of the far edges inside the cone keeps the root; the
** parts outside it get the interval's end as their root if that end is a
** wall corner. A root reached again at a larger g is not searched again.
*/



#define PN(q) ((pnode *)(q)->pn)

static int pless(const pnode *a, const pnode *b) {
  return a->f < b->f || (a->f == b->f && a->g > b->g);
}

static int ppush(astar_navmesh_query *q, const pnode *n) {
  astar_mem *mem = &q->mem;
  size_t i;
  pnode *pn;
  if (astar__reserve(mem, &q->pn, &q->cpn, q->npn + 1, sizeof(pnode)) ||
      astar__reserve(mem, (void **)&q->heap, &q->cheap, q->nheap + 1, sizeof(uint32_t)))
    return ASTAR_ENOMEM;
  pn = PN(q);
  pn[q->npn] = *n;
  i = q->nheap++;
  while (i > 0 && pless(&pn[q->npn], &pn[q->heap[(i - 1) / 2]])) {
    q->heap[i] = q->heap[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  q->heap[i] = (uint32_t)q->npn++;
  q->st.generated++;
  return 0;
}

static uint32_t ppop(astar_navmesh_query *q) {
  pnode *pn = PN(q);
  uint32_t top = q->heap[0], last = q->heap[--q->nheap];
  size_t i = 0, n = q->nheap;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && pless(&pn[q->heap[c + 1]], &pn[q->heap[c]])) c++;
    if (!pless(&pn[q->heap[c]], &pn[last])) break;
    q->heap[i] = q->heap[c];
    i = c;
  }
  if (n > 0) q->heap[i] = last;
  return top;
}

static int ingoal(const astar_navmesh_query *q, uint32_t p) {
  int i;
  for (i = 0; i < q->ngp; i++) if (q->gp[i] == p) return 1;
  return 0;
}

/* May the corner at incidence 'slot' (vertex, polygon) be a root at cost g
** (not reached before at less)? */
static int fresh(astar_navmesh_query *q, uint32_t slot, double g) {
  if (q->vs[slot] == q->stamp && g > q->vg[slot] * (1 + 1e-12) + 1e-12) return 0;
  q->vs[slot] = q->stamp; q->vg[slot] = g;
  return 1;
}

/* Pushes the node (root, interval on half-edge he of polygon Q) with its f. */
static int pchild(astar_navmesh_query *q, uint32_t parent, double rx, double ry,
                  uint32_t root, double g, uint32_t he, double tl, double tr) {
  const astar_navmesh *m = q->mesh;
  pnode n;
  double x, y, w = q->params.algorithm == ASTAR_ALG_DIJKSTRA ? 0 : q->params.weight;
  if (tl < 1e-9) tl = 0;                           /* ends at a vertex: exactly */
  if (tr > 1 - 1e-9) tr = 1;
  portalpoint(m, he, tl, tr, rx, ry, q->gx, q->gy, &x, &y);
  n.rx = rx; n.ry = ry; n.g = g;
  n.f = g + w * (hypot(x - rx, y - ry) + hypot(q->gx - x, q->gy - y));
  if (n.f > q->params.max_cost) return 0;
  n.tl = tl; n.tr = tr; n.root = root; n.he = he; n.poly = m->hpoly[he]; n.parent = parent;
  n.kind = PN_INTERVAL;
  return ppush(q, &n);
}

/* Which way may the edge h of the polygon be entered from the node? */
static int open_edge(const astar_navmesh_query *q, uint32_t h) {
  uint32_t n = q->mesh->hn[h];
  return n != NONE && allowed(q->mesh, n, q->include, q->exclude) &&
         !(q->nban > 0 && banned(q, q->mesh->hp[h]));
}

/* The polygons around corner z that polygon P reaches by turning around z
** through portals (at most FAN): fan[0] = P; from[i] is the half-edge of
** fan[i] it was entered by and via[i] the fan index it came from. Returns
** how many, and in *slot the incidence (z, polygon) that names this side of
** z (its smallest polygon): roots are pruned per side, as two regions that
** only touch at z are apart. */
#define FAN 32
static int fan(const astar_navmesh_query *q, uint32_t z, uint32_t P, uint32_t *fanp,
               uint32_t *from, int *via, uint32_t *slot) {
  const astar_navmesh *m = q->mesh;
  uint32_t rep = P, s;
  int nf = 1, i;
  fanp[0] = P; from[0] = NONE; via[0] = -1;
  for (i = 0; i < nf; i++) {
    uint32_t Q = fanp[i], h;
    for (h = m->pstart[Q]; h < m->pstart[Q + 1]; h++) {
      uint32_t R;
      int j;
      if ((m->hv[h] != z && m->hv[nexthe(m, h)] != z) || !open_edge(q, h)) continue;
      R = m->hn[h];
      for (j = 0; j < nf && fanp[j] != R; j++) {}
      if (j < nf || nf == FAN) continue;
      fanp[nf] = R; from[nf] = m->htw[h]; via[nf] = i; nf++;
      if (R < rep) rep = R;
    }
  }
  for (s = m->vps[z]; s < m->vps[z + 1] && m->vpl[s] != rep; s++) {}
  *slot = s;
  return nf;
}

static uint32_t sideslot(const astar_navmesh_query *q, uint32_t z, uint32_t P) {
  uint32_t fanp[FAN], from[FAN], slot;
  int via[FAN];
  fan(q, z, P, fanp, from, via, &slot);
  return slot;
}

/* A bend at corner z of polygon P (cost g), seen on through half-edge he. */
static int pturn(astar_navmesh_query *q, uint32_t parent, uint32_t z, double g, uint32_t P,
                 uint32_t he, double tl, double tr) {
  const astar_navmesh *m = q->mesh;
  if (!fresh(q, sideslot(q, z, P), g)) return 0;
  return pchild(q, parent, VX(m, z), VY(m, z), z, g, he, tl, tr);
}

static int pfinal(astar_navmesh_query *q, uint32_t parent, double rx, double ry,
                  uint32_t root, double g, uint32_t poly) {
  pnode n;
  n.rx = rx; n.ry = ry; n.root = root; n.g = g + hypot(q->gx - rx, q->gy - ry);
  n.f = n.g; n.tl = n.tr = 0; n.he = NONE; n.poly = poly; n.parent = parent;
  n.kind = PN_FINAL;
  if (n.f > q->params.max_cost) return 0;
  return ppush(q, &n);
}


/* A bend at corner z (a wall vertex of polygon P, which the node 'parent'
** looks into) reached at cost g: z sees the whole of every polygon around
** it that can be reached from P by turning around z through portals (not
** across a wall: two regions that only touch at z stay apart). Each gets a
** node rooted at z that sees all of it. */
static int pcorner(astar_navmesh_query *q, uint32_t parent, uint32_t z, double g, uint32_t P) {
  const astar_navmesh *m = q->mesh;
  uint32_t fanp[FAN], from[FAN], idx[FAN], slot;
  int via[FAN], nf = fan(q, z, P, fanp, from, via, &slot), i, rc;
  double w = q->params.algorithm == ASTAR_ALG_DIJKSTRA ? 0 : q->params.weight;
  if (!fresh(q, slot, g)) return 0;
  for (i = 0; i < nf; i++) {                       /* parents: the way round, for the corridor */
    pnode n;
    n.rx = VX(m, z); n.ry = VY(m, z); n.g = g; n.root = z; n.he = from[i]; n.poly = fanp[i];
    n.tl = n.tr = 0; n.parent = i > 0 ? idx[via[i]] : parent; n.kind = PN_POINT;
    n.f = g + w * hypot(q->gx - n.rx, q->gy - n.ry);
    if (n.f > q->params.max_cost) return 0;
    idx[i] = (uint32_t)q->npn;
    if ((rc = ppush(q, &n)) != 0) return rc;
  }
  return 0;
}

/* Along a wall: the point (x, y) (vertex 'at', or NONE), reached at cost g,
** lies on the line of edge h of polygon P. The way on goes straight to the
** edge's nearer end z, a corner, which sees the polygon across h whole.
** When the path bends at 'at' first, a node records that bend. */
static int palong(astar_navmesh_query *q, uint32_t parent, double x, double y, uint32_t at,
                  double g, uint32_t h, uint32_t P) {
  const astar_navmesh *m = q->mesh;
  uint32_t p = m->hv[h], w = m->hv[nexthe(m, h)], z;
  double dp = hypot(VX(m, p) - x, VY(m, p) - y), dw = hypot(VX(m, w) - x, VY(m, w) - y);
  double wt = q->params.algorithm == ASTAR_ALG_DIJKSTRA ? 0 : q->params.weight;
  pnode n;
  z = dp <= dw ? p : w;
  if (z == at) return pcorner(q, parent, z, g, P);   /* the bend is at the edge's end */
  if (!wallvertex(q, z)) return 0;
  if (at != NONE && at != z && at != PN(q)[parent].root) {     /* the bend at 'at' */
    n.rx = x; n.ry = y; n.g = n.f = g; n.tl = n.tr = 0; n.root = at; n.he = NONE;
    n.poly = P; n.parent = parent; n.kind = PN_WAY;
    if (astar__reserve(&q->mem, &q->pn, &q->cpn, q->npn + 1, sizeof(pnode)))
      return ASTAR_ENOMEM;
    PN(q)[q->npn] = n;
    parent = (uint32_t)q->npn++;
  }
  g += fmin(dp, dw);
  if (!fresh(q, sideslot(q, z, P), g)) return 0;
  n.rx = VX(m, z); n.ry = VY(m, z); n.g = g; n.root = z; n.he = m->htw[h]; n.poly = m->hn[h];
  n.tl = n.tr = 0; n.parent = parent; n.kind = PN_POINT;
  n.f = g + wt * hypot(q->gx - n.rx, q->gy - n.ry);
  if (n.f > q->params.max_cost) return 0;
  return ppush(q, &n);
}

/* Where A + s (B - A) >= 0 for s in [0, 1]: [*lo, *hi] (empty: lo > hi). */
static void halfrange(double A, double B, double *lo, double *hi) {
  if (A >= 0 && B >= 0) { *lo = 0; *hi = 1; }
  else if (A < 0 && B < 0) { *lo = 1; *hi = 0; }
  else if (A < 0) { *lo = A / (A - B); *hi = 1; }
  else { *lo = 0; *hi = A / (A - B); }
}

/* The rest of [0, 1] outside the range [lo, hi] (one piece, as the range
** touches an end or is empty); 0 if it is (almost) nothing. */
static int outside(double lo, double hi, double *o0, double *o1) {
  if (lo > hi) { *o0 = 0; *o1 = 1; return 1; }
  if (lo > 1e-12) { *o0 = 0; *o1 = lo; return 1; }
  if (hi < 1 - 1e-12) { *o0 = hi; *o1 = 1; return 1; }
  return 0;
}

static int pexpand(astar_navmesh_query *q, uint32_t ni) {
  const astar_navmesh *m = q->mesh;
  pnode n = PN(q)[ni];
  uint32_t P = n.poly, a0 = m->pstart[P], k = m->pstart[P + 1] - a0, in, j;
  uint32_t u, v;
  double ax, ay, bx, by, ex, ey;
  int cornu, cornv, rc;
  if (n.kind == PN_POINT) {                        /* a start or a corner: all is seen */
    if (ingoal(q, P) && (rc = pfinal(q, ni, n.rx, n.ry, n.root, n.g, P)) != 0) return rc;
    for (j = 0; j < k; j++) {
      uint32_t h = a0 + j, p = m->hv[h], w = m->hv[nexthe(m, h)];
      double dx = VX(m, w) - VX(m, p), dy = VY(m, w) - VY(m, p);
      if (!open_edge(q, h)) continue;
      if (fabs(cross2(dx, dy, n.rx - VX(m, p), n.ry - VY(m, p))) <= m->eps * hypot(dx, dy)) {
        /* on the edge's line: along it to its nearer end, a corner to turn at */
        double dp = hypot(VX(m, p) - n.rx, VY(m, p) - n.ry);
        double dw = hypot(VX(m, w) - n.rx, VY(m, w) - n.ry);
        if (fmax(dp, dw) > hypot(dx, dy) + m->eps &&
            (rc = palong(q, ni, n.rx, n.ry, n.root, n.g, h, P)) != 0)
          return rc;
        continue;
      }
      if ((rc = pchild(q, ni, n.rx, n.ry, n.root, n.g, m->htw[h], 0, 1)) != 0) return rc;
    }
    return 0;
  }
  in = n.he - a0;
  u = m->hv[n.he]; v = m->hv[nexthe(m, n.he)];
  ex = VX(m, v) - VX(m, u); ey = VY(m, v) - VY(m, u);
  ax = VX(m, u) + n.tl * ex; ay = VY(m, u) + n.tl * ey;     /* left end (toward u) */
  bx = VX(m, u) + n.tr * ex; by = VY(m, u) + n.tr * ey;     /* right end (toward v) */
  if (n.tl == 0) ax = VX(m, u), ay = VY(m, u);
  if (n.tr == 1) bx = VX(m, v), by = VY(m, v);
  cornu = n.tl == 0 && wallvertex(q, u);
  cornv = n.tr == 1 && wallvertex(q, v);
  if (ingoal(q, P)) {                              /* the goal: through the cone or an end */
    double oR = cross2(bx - n.rx, by - n.ry, q->gx - n.rx, q->gy - n.ry);
    double oL = cross2(ax - n.rx, ay - n.ry, q->gx - n.rx, q->gy - n.ry);
    if (oR >= 0 && oL <= 0) rc = pfinal(q, ni, n.rx, n.ry, n.root, n.g, P);
    else if (oR < 0 && cornv)
      rc = pfinal(q, ni, bx, by, v, n.g + hypot(bx - n.rx, by - n.ry), P);
    else if (oL > 0 && cornu)
      rc = pfinal(q, ni, ax, ay, u, n.g + hypot(ax - n.rx, ay - n.ry), P);
    else rc = 0;
    if (rc) return rc;
  }
  for (j = 1; j < k; j++) {                        /* the far edges, right to left */
    uint32_t h = a0 + (in + j) % k, p = m->hv[h], w = m->hv[nexthe(m, h)];
    double px = VX(m, p), py = VY(m, p), wx = VX(m, w), wy = VY(m, w);
    double A, B, C, D, lo, hi, r0, r1, l0, l1, o0, o1, len = hypot(wx - px, wy - py);
    if (!open_edge(q, h)) continue;
    if (fabs(cross2(wx - px, wy - py, n.rx - px, n.ry - py)) <= m->eps * len) {
      int nearp = hypot(px - n.rx, py - n.ry) <= hypot(wx - n.rx, wy - n.ry);
      double zx = nearp ? px : wx, zy = nearp ? py : wy;
      if (cross2(bx - n.rx, by - n.ry, zx - n.rx, zy - n.ry) >= -m->eps * len &&
          cross2(ax - n.rx, ay - n.ry, zx - n.rx, zy - n.ry) <= m->eps * len &&
          (nearp ? p : w) != n.root &&
          (rc = palong(q, ni, n.rx, n.ry, n.root, n.g, h, P)) != 0)
        return rc;
      continue;                                    /* along the root's line */
    }
    A = cross2(bx - n.rx, by - n.ry, px - n.rx, py - n.ry);    /* >= 0: left of right ray */
    B = cross2(bx - n.rx, by - n.ry, wx - n.rx, wy - n.ry);
    C = -cross2(ax - n.rx, ay - n.ry, px - n.rx, py - n.ry);   /* >= 0: right of left ray */
    D = -cross2(ax - n.rx, ay - n.ry, wx - n.rx, wy - n.ry);
    halfrange(A, B, &r0, &r1);                     /* where the edge is inside each ray */
    halfrange(C, D, &l0, &l1);
    lo = fmax(r0, l0); hi = fmin(r1, l1);
    /* in the twin half-edge (w -> p) fractions are 1 - s */
    if (hi - lo > 1e-12 &&
        (rc = pchild(q, ni, n.rx, n.ry, n.root, n.g, m->htw[h], 1 - hi, 1 - lo)) != 0)
      return rc;
    /* outside the cone: the path bends at the interval's end, if it is a corner; an
    ** edge on a line through that corner needs all its polygons (pcorner) */
    if (cornv && outside(r0, r1, &o0, &o1)) {
      if (fabs(cross2(wx - px, wy - py, bx - px, by - py)) <= m->eps * len) {
        if ((rc = palong(q, ni, bx, by, v, n.g + hypot(bx - n.rx, by - n.ry), h, P)) != 0)
          return rc;
      } else if ((rc = pturn(q, ni, v, n.g + hypot(bx - n.rx, by - n.ry), P, m->htw[h],
                           1 - o1, 1 - o0)) != 0) return rc;
    }
    if (cornu && outside(l0, l1, &o0, &o1)) {
      if (fabs(cross2(wx - px, wy - py, ax - px, ay - py)) <= m->eps * len) {
        if ((rc = palong(q, ni, ax, ay, u, n.g + hypot(ax - n.rx, ay - n.ry), h, P)) != 0)
          return rc;
      } else if ((rc = pturn(q, ni, u, n.g + hypot(ax - n.rx, ay - n.ry), P, m->htw[h],
                           0 + (1 - o1), 1 - o0)) != 0) return rc;
    }
  }
  return 0;
}

/* The exact search; on success the path is in q->out (q->nout points) and
** the corridor in q->corr. */
/* Starts the exact search: the start's polygons' nodes on the heap. */
static int exact_begin(astar_navmesh_query *q) {
  astar_navmesh *m = q->mesh;
  astar_mem *mem = &q->mem;
  int i, rc;
  memset(&q->st, 0, sizeof q->st);
  q->npn = q->nheap = 0;
  {
    size_t old = q->cvs;
    if (astar__reserve(mem, (void **)&q->vg, &q->cvg, 2 * (size_t)m->nh, sizeof(double)) ||
        astar__reserve(mem, (void **)&q->vs, &q->cvs, 2 * (size_t)m->nh, sizeof(uint32_t)))
      return ASTAR_ENOMEM;
    if (q->cvs > old) memset(q->vs + old, 0, (q->cvs - old) * sizeof(uint32_t));
  }
  if (q->stamp == 0 || q->stamp == UINT32_MAX) {
    memset(q->vs, 0, q->cvs * sizeof(uint32_t));
    q->stamp = 0;
  }
  q->stamp++;
  q->nsp = holders(m, q->sx, q->sy, 1, q->include, q->exclude, q->sp, 8);
  q->ngp = holders(m, q->gx, q->gy, 1, q->include, q->exclude, q->gp, 8);
  for (i = 0; i < q->nsp; i++) {                   /* start nodes, expanded at once */
    pnode n;
    n.rx = q->sx; n.ry = q->sy; n.g = 0; n.f = 0; n.tl = n.tr = 0;
    n.root = NONE; n.he = NONE; n.poly = q->sp[i]; n.parent = NONE; n.kind = PN_POINT;
    if ((rc = ppush(q, &n)) != 0) return rc;
  }
  return 0;
}

static int exact_path(astar_navmesh_query *q, uint32_t fin);

/* At most 'budget' expansions of the exact search. */
static int exact_step(astar_navmesh_query *q, uint64_t budget) {
  uint64_t stop = q->st.expanded + budget < q->st.expanded ? UINT64_MAX
                                                           : q->st.expanded + budget;
  int rc;
  while (q->nheap > 0) {
    uint32_t ni;
    if (PN(q)[q->heap[0]].kind == PN_FINAL) return exact_path(q, ppop(q));   /* the goal */
    if (q->st.expanded >= q->params.max_expansions) return ASTAR_LIMIT;
    if (q->st.expanded >= stop) return ASTAR_RUNNING;
    ni = ppop(q);
    q->st.expanded++;
    if ((rc = pexpand(q, ni)) != 0) return rc;
  }
  return q->params.max_cost < HUGE_VAL ? ASTAR_LIMIT : ASTAR_NO_PATH;
}

/* The path of the exact search that popped the goal's node 'fin'. */
static int exact_path(astar_navmesh_query *q, uint32_t fin) {
  astar_navmesh *m = q->mesh;
  astar_mem *mem = &q->mem;
  int rc;
  {
    /* the path: the goal, then the roots back to the start */
    const pnode *pn = PN(q);
    size_t np = 1, nc = 0, k;
    uint32_t x;
    double len = 0;
    for (x = fin; x != NONE; x = pn[x].parent) { np++; nc++; }
    if (astar__reserve(mem, (void **)&q->out, &q->cout, 2 * np, sizeof(double)) ||
        astar__reserve(mem, (void **)&q->corr, &q->ccorr, 2 * nc + 2, sizeof(uint32_t)))
      return ASTAR_ENOMEM;
    q->out[0] = q->gx; q->out[1] = q->gy; np = 1;
    for (x = fin; x != NONE; x = pn[x].parent) {
      double rx = pn[x].rx, ry = pn[x].ry;
      if (rx != q->out[2 * np - 2] || ry != q->out[2 * np - 1]) {
        q->out[2 * np] = rx; q->out[2 * np + 1] = ry; np++;
      }
    }
    for (k = 0; k < np / 2; k++) {                 /* start first */
      double tx = q->out[2 * k], ty = q->out[2 * k + 1];
      q->out[2 * k] = q->out[2 * (np - 1 - k)]; q->out[2 * k + 1] = q->out[2 * (np - 1 - k) + 1];
      q->out[2 * (np - 1 - k)] = tx; q->out[2 * (np - 1 - k) + 1] = ty;
    }
    for (k = 1; k < np; k++)
      len += hypot(q->out[2 * k] - q->out[2 * k - 2], q->out[2 * k + 1] - q->out[2 * k - 1]);
    q->nout = np;
    q->pcost = len * m->cost[pn[fin].poly];
    /* the corridor: the nodes' polygons (not twice in a row) and the portals
    ** they were entered by, collected backwards: polygons from the front,
    ** portals from the back of q->corr, then joined */
    nc = 0;
    {
      size_t npt = 0, cap = q->ccorr;
      uint32_t last = NONE, lastportal = NONE;
      for (x = pn[fin].parent; x != NONE; x = pn[x].parent) {
        if (pn[x].kind == PN_WAY || pn[x].poly == last) continue;
        if (last != NONE) q->corr[cap - 1 - npt++] = lastportal;
        q->corr[nc++] = last = pn[x].poly;
        lastportal = pn[x].he != NONE ? m->hp[pn[x].he] : NONE;
      }
      for (k = 0; k < nc / 2; k++) {
        uint32_t t = q->corr[k]; q->corr[k] = q->corr[nc - 1 - k]; q->corr[nc - 1 - k] = t;
      }
      for (k = 0; k < npt; k++) q->corr[nc + k] = q->corr[cap - npt + k];
    }
    q->ncorr = nc;
    if ((rc = unloop(q)) != 0) return rc;
  }
  return ASTAR_FOUND;
}

/* ------------------------------------------------------------------ */
/* From a grid                                                          */
/* ------------------------------------------------------------------ */

typedef struct grect { int x, y, w, h; double c; } grect;

int astar_navmesh_from_grid(astar_navmesh **out, const astar_grid *g, double tile,
                            uint32_t *cell_poly, astar_alloc alloc, void *ud) {
  astar_mem a;
  int W = astar_grid_width(g), H = astar_grid_height(g), x, y, rc = 0;
  size_t cells = (size_t)W * H, lat = (size_t)(W + 1) * (H + 1), nr = 0, cr = 0, i;
  size_t nidx = 0, cidx = 0;
  uint32_t *own = cell_poly, *vid = NULL, *start = NULL, *idx = NULL, nv = 0, k;
  double *xy = NULL;
  grect *r = NULL;
  *out = NULL;
  if (!(tile > 0 && tile < HUGE_VAL)) return ASTAR_EINVAL;
  a.fn = alloc; a.ud = ud; a.allocs = 0;
  if (own == NULL && (own = (uint32_t *)astar__alloc(&a, cells * sizeof(uint32_t))) == NULL)
    return ASTAR_ENOMEM;
  vid = (uint32_t *)astar__alloc(&a, lat * sizeof(uint32_t));
  if (vid == NULL) { rc = ASTAR_ENOMEM; goto done; }
  memset(own, 0xff, cells * sizeof(uint32_t));
  memset(vid, 0xff, lat * sizeof(uint32_t));
  /* greedy rectangles: as wide as the row allows, then as tall as possible */
  for (y = 0; y < H; y++)
    for (x = 0; x < W; x++) {
      double c = astar_grid_get(g, x, y);
      int w = 1, h = 1, j;
      if (c == 0 || own[(size_t)y * W + x] != NONE) continue;
      while (x + w < W && astar_grid_get(g, x + w, y) == c && own[(size_t)y * W + x + w] == NONE)
        w++;
      for (; y + h < H; h++) {
        for (j = 0; j < w; j++)
          if (astar_grid_get(g, x + j, y + h) != c || own[(size_t)(y + h) * W + x + j] != NONE)
            break;
        if (j < w) break;
      }
      if (nr >= UINT32_MAX - 1) { rc = ASTAR_EINVAL; goto done; }
      if (astar__reserve(&a, (void **)&r, &cr, nr + 1, sizeof *r)) { rc = ASTAR_ENOMEM; goto done; }
      r[nr].x = x; r[nr].y = y; r[nr].w = w; r[nr].h = h; r[nr].c = c;
      for (j = 0; j < h; j++) {
        int t;
        for (t = 0; t < w; t++) own[(size_t)(y + j) * W + x + t] = (uint32_t)nr;
      }
      vid[(size_t)y * (W + 1) + x] = vid[(size_t)y * (W + 1) + x + w] = 0;
      vid[(size_t)(y + h) * (W + 1) + x] = vid[(size_t)(y + h) * (W + 1) + x + w] = 0;
      nr++;
    }
  if (nr == 0) { rc = ASTAR_EINVAL; goto done; }
  for (i = 0; i < lat; i++) if (vid[i] == 0) nv++;
  xy = (double *)astar__alloc(&a, 2 * (size_t)nv * sizeof(double));
  start = (uint32_t *)astar__alloc(&a, (nr + 1) * sizeof(uint32_t));
  if (xy == NULL || start == NULL) { rc = ASTAR_ENOMEM; goto done; }
  for (nv = 0, i = 0; i < lat; i++)
    if (vid[i] == 0) {
      vid[i] = nv;
      xy[2 * (size_t)nv] = (double)(i % (size_t)(W + 1)) * tile;
      xy[2 * (size_t)nv + 1] = (double)(i / (size_t)(W + 1)) * tile;
      nv++;
    } else vid[i] = NONE;
  /* each rectangle: its corners and the corners of others on its sides */
  for (i = 0; i < nr; i++) {
    int x0 = r[i].x, y0 = r[i].y, x1 = x0 + r[i].w, y1 = y0 + r[i].h;
    size_t need = nidx + 2 * ((size_t)r[i].w + r[i].h);
    if (astar__reserve(&a, (void **)&idx, &cidx, need, sizeof(uint32_t))) {
      rc = ASTAR_ENOMEM; goto done;
    }
    start[i] = (uint32_t)nidx;
#define LATV(px, py) vid[(size_t)(py) * (W + 1) + (px)]
#define TAKE(px, py) do { if (LATV(px, py) != NONE) idx[nidx++] = LATV(px, py); } while (0)
    for (x = x0; x < x1; x++) TAKE(x, y0);
    for (y = y0; y < y1; y++) TAKE(x1, y);
    for (x = x1; x > x0; x--) TAKE(x, y1);
    for (y = y1; y > y0; y--) TAKE(x0, y);
#undef TAKE
#undef LATV
  }
  start[nr] = (uint32_t)nidx;
  rc = astar_navmesh_new(out, xy, nv, start, idx, (uint32_t)nr, NULL, alloc, ud);
  if (rc == 0) {
    for (k = 0; k < nr; k++) (*out)->cost[k] = r[k].c;
    (*out)->minstale = (*out)->maxstale = 1;
  }
done:
  if (own != cell_poly) astar__free(&a, own, cells * sizeof(uint32_t));
  else if (rc != 0) memset(own, 0xff, cells * sizeof(uint32_t));
  astar__free(&a, vid, lat * sizeof(uint32_t));
  astar__free(&a, xy, 2 * (size_t)nv * sizeof(double));
  astar__free(&a, start, (nr + 1) * sizeof(uint32_t));
  astar__free(&a, idx, cidx * sizeof(uint32_t));
  astar__free(&a, r, cr * sizeof *r);
  return rc;
}
