/*
** navmesh.c - navigation meshes: validation and construction (welding,
** twins and portals, the bucket grid), accessors and edits. The other
** concepts have their own files: navmesh_locate.c (points), navmesh_portal.c
** (the portal search), navmesh_funnel.c (corridor, funnel, radius, cost),
** navmesh_exact.c (the exact interval search), navmesh_grid.c (from_grid).
*/
#include "navmesh_impl.h"

/* ------------------------------------------------------------------ */
/* Construction                                                         */
/* ------------------------------------------------------------------ */

static void freemesh(astar_navmesh *m) {
  astar_mem *a = &m->mem;
  size_t nb = (size_t)m->bw * m->bh;
  astar__free(a, m->xy, 2 * (size_t)m->nv * sizeof(double));
  astar__free(a, m->pstart, ((size_t)m->np + 1) * sizeof(uint32_t));
  astar__free(a, m->hv, (size_t)m->nh * sizeof(uint32_t));
  astar__free(a, m->hxy, 2 * (size_t)m->nh * sizeof(double));
  astar__free(a, m->hn, (size_t)m->nh * sizeof(uint32_t));
  astar__free(a, m->hp, (size_t)m->nh * sizeof(uint32_t));
  astar__free(a, m->hpoly, (size_t)m->nh * sizeof(uint32_t));
  astar__free(a, m->htw, (size_t)m->nh * sizeof(uint32_t));
  astar__free(a, m->pport, (size_t)m->np * sizeof(uint32_t));
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
  if (m->lks != NULL) astar__free(a, m->lkl, (size_t)m->lks[m->np] * sizeof(uint32_t));
  astar__free(a, m->lks, ((size_t)m->np + 1) * sizeof(uint32_t));
  astar__free(a, m->lk, m->clk * sizeof(double));
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
  size_t i = (size_t)astar__hash64(key) & (t->cap - 1);
  while (t->val[i] != NONE && t->key[i] != key) i = (i + 1) & (t->cap - 1);
  return i;
}

/* Bucket range of a box. */
void astar__nm_brange(const astar_navmesh *m, double x0, double y0, double x1, double y1,
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
    astar__nm_brange(m, b[0], b[1], b[2], b[3], &bx0, &by0, &bx1, &by1);
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
    astar__nm_brange(m, b[0], b[1], b[2], b[3], &bx0, &by0, &bx1, &by1);
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

/* Do convex polygons p and q share interior (more than a touch of eps)? No
** separating axis among their edge normals (the separating axis theorem). */
static int sharearea(const astar_navmesh *m, uint32_t p, uint32_t q) {
  uint32_t pass, h;
  for (pass = 0; pass < 2; pass++) {
    uint32_t a = pass ? q : p, b = pass ? p : q;
    for (h = m->pstart[a]; h < m->pstart[a + 1]; h++) {
      uint32_t u = m->hv[h], v = m->hv[nexthe(m, h)], g;
      double nx = VY(m, v) - VY(m, u), ny = VX(m, u) - VX(m, v), len = hypot(nx, ny);
      double lo = HUGE_VAL, at = nx * VX(m, u) + ny * VY(m, u);
      for (g = m->pstart[b]; g < m->pstart[b + 1]; g++) {
        double t = nx * VX(m, m->hv[g]) + ny * VY(m, m->hv[g]);
        if (t < lo) lo = t;
      }
      /* a is on the inner side of its edge (counter-clockwise: normal points out) */
      if (lo >= at - m->eps * len) return 0;
    }
  }
  return 1;
}

/* Polygons that overlap without sharing an edge (the edge checks see the
** rest). Each pair of polygons in a bucket is tested once: in the bucket that
** holds the low corner of their bounding boxes' intersection. */
static int overlaps(astar_navmesh *m, astar_navmesh_problem *pr) {
  size_t bk, nb = (size_t)m->bw * m->bh;
  uint32_t p;
  int rc = 0;
  double *box = (double *)astar__alloc(&m->mem, (size_t)m->np * 4 * sizeof(double));
  if (box == NULL) return ASTAR_ENOMEM;
  for (p = 0; p < m->np; p++) polybox(m, p, box + 4 * (size_t)p);
  for (bk = 0; bk < nb && rc == 0; bk++) {
    uint32_t i, j;
    for (i = m->bps[bk]; i < m->bps[bk + 1] && rc == 0; i++)
      for (j = i + 1; j < m->bps[bk + 1]; j++) {
        uint32_t q = m->bpl[j], bx, by, x1, y1;
        const double *a, *b;
        double lx, ly;
        p = m->bpl[i];
        a = box + 4 * (size_t)p;
        b = box + 4 * (size_t)q;
        lx = fmax(a[0], b[0]);
        ly = fmax(a[1], b[1]);
        if (lx > fmin(a[2], b[2]) || ly > fmin(a[3], b[3])) continue;
        astar__nm_brange(m, lx, ly, lx, ly, &bx, &by, &x1, &y1);
        if ((size_t)by * m->bw + bx != bk || !sharearea(m, p, q)) continue;
        problem(pr, ASTAR_NM_OVERLAP, p > q ? p : q, p > q ? q : p, NONE, NONE);
        rc = ASTAR_EINVAL;
        break;
      }
  }
  astar__free(&m->mem, box, (size_t)m->np * 4 * sizeof(double));
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
    astar__nm_brange(m, b[0], b[1], b[2], b[3], &bx0, &by0, &bx1, &by1);
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

/* The polygons' sizes and vertex indices and the coordinates, before
** anything is made of them. */
static int check_input(const double *xy, uint32_t nv, const uint32_t *start,
                       const uint32_t *idx, uint32_t np, astar_navmesh_problem *pr) {
  uint32_t i, p;
  if (np == 0 || nv == 0 || start[0] != 0) return ASTAR_EINVAL;
  for (p = 0; p < np; p++) {
    if (start[p + 1] < start[p] || start[p + 1] - start[p] < 3) {
      problem(pr, ASTAR_NM_FEW, p, NONE, NONE, NONE);
      return ASTAR_EINVAL;
    }
    for (i = start[p]; i < start[p + 1]; i++)
      if (idx[i] >= nv) {
        problem(pr, ASTAR_NM_INDEX, p, NONE, idx[i], NONE);
        return ASTAR_EINVAL;
      }
  }
  for (i = 0; i < 2 * nv; i++)
    if (!(fabs(xy[i]) <= ASTAR_NUM_MAX)) {
      problem(pr, ASTAR_NM_COORD, NONE, NONE, i / 2, NONE);
      return ASTAR_EINVAL;
    }
  return start[np] >= UINT32_MAX / 2 ? ASTAR_EINVAL : 0;
}

/* Welds the caller's vertices with the same coordinates: weld[i] is the
** mesh's number of vertex i; m->nv counts them. */
static int weldverts(astar_navmesh *m, const double *xy, uint32_t nv, uint32_t *weld) {
  htab t;
  uint32_t i;
  t.key = NULL; t.val = NULL; t.cap = 0;
  if (htab_new(&m->mem, &t, nv)) {
    htab_free(&m->mem, &t);
    return ASTAR_ENOMEM;
  }
  for (i = 0; i < nv; i++) {
    uint64_t key = astar__hash64(dbits(xy[2 * i])) ^ dbits(xy[2 * i + 1]);
    size_t s = (size_t)astar__hash64(key) & (t.cap - 1);
    while (t.val[s] != NONE &&
           !(xy[2 * t.val[s]] == xy[2 * i] && xy[2 * t.val[s] + 1] == xy[2 * i + 1]))
      s = (s + 1) & (t.cap - 1);
    if (t.val[s] == NONE) { t.val[s] = i; t.key[s] = key; weld[i] = m->nv++; }
    else weld[i] = weld[t.val[s]];
  }
  htab_free(&m->mem, &t);
  return 0;
}

/* The arrays of a mesh of m->nv vertices, m->nh half-edges, m->np polygons. */
static int allocmesh(astar_navmesh *m) {
  const size_t nh = m->nh, np = m->np, nv = m->nv;
  m->xy = (double *)astar__alloc(&m->mem, 2 * nv * sizeof(double));
  m->pstart = (uint32_t *)astar__alloc(&m->mem, (np + 1) * sizeof(uint32_t));
  m->hv = (uint32_t *)astar__alloc(&m->mem, nh * sizeof(uint32_t));
  m->hxy = (double *)astar__alloc(&m->mem, 2 * nh * sizeof(double));
  m->hn = (uint32_t *)astar__alloc(&m->mem, nh * sizeof(uint32_t));
  m->hp = (uint32_t *)astar__alloc(&m->mem, nh * sizeof(uint32_t));
  m->hpoly = (uint32_t *)astar__alloc(&m->mem, nh * sizeof(uint32_t));
  m->htw = (uint32_t *)astar__alloc(&m->mem, nh * sizeof(uint32_t));
  m->cost = (double *)astar__alloc(&m->mem, np * sizeof(double));
  m->flags = (uint32_t *)astar__alloc(&m->mem, np * sizeof(uint32_t));
  m->pport = (uint32_t *)astar__alloc(&m->mem, np * sizeof(uint32_t));
  m->vwall = (unsigned char *)astar__alloc(&m->mem, nv);
  m->vps = (uint32_t *)astar__alloc(&m->mem, (nv + 1) * sizeof(uint32_t));
  m->vpl = (uint32_t *)astar__alloc(&m->mem, nh * sizeof(uint32_t));
  return !m->xy || !m->pstart || !m->hv || !m->hxy || !m->hn || !m->hp || !m->hpoly ||
                 !m->htw || !m->cost || !m->flags || !m->pport || !m->vwall || !m->vps || !m->vpl
             ? ASTAR_ENOMEM : 0;
}

/* Copies the welded vertices and polygons into the mesh; a polygon that
** names a vertex twice (after welding) is an error. */
static int copypolys(astar_navmesh *m, const double *xy, uint32_t nv, const uint32_t *start,
                     const uint32_t *idx, const uint32_t *weld, astar_navmesh_problem *pr) {
  uint32_t *stamp = (uint32_t *)astar__alloc(&m->mem, (size_t)m->nv * sizeof(uint32_t));
  uint32_t i, p;
  int rc = 0;
  if (stamp == NULL) return ASTAR_ENOMEM;
  for (i = 0; i < nv; i++) {
    m->xy[2 * weld[i]] = xy[2 * i];
    m->xy[2 * weld[i] + 1] = xy[2 * i + 1];
  }
  memset(stamp, 0xff, (size_t)m->nv * sizeof(uint32_t));
  for (p = 0; p < m->np && rc == 0; p++) {
    m->pstart[p] = start[p];
    m->cost[p] = 1; m->flags[p] = 1;
    for (i = start[p]; i < start[p + 1]; i++) {
      uint32_t v = weld[idx[i]];
      if (stamp[v] == p) {
        problem(pr, ASTAR_NM_REPEAT, p, NONE, idx[i], NONE);
        rc = ASTAR_EINVAL;
        break;
      }
      stamp[v] = p;
      m->hv[i] = v; m->hpoly[i] = p;
    }
  }
  m->pstart[m->np] = m->nh;
  astar__free(&m->mem, stamp, (size_t)m->nv * sizeof(uint32_t));
  return rc;
}

/* The bounding box, and the tolerance that goes with its size. */
static void bound(astar_navmesh *m) {
  uint32_t i;
  m->box[0] = m->box[1] = HUGE_VAL; m->box[2] = m->box[3] = -HUGE_VAL;
  for (i = 0; i < m->nv; i++) {
    m->box[0] = fmin(m->box[0], VX(m, i)); m->box[1] = fmin(m->box[1], VY(m, i));
    m->box[2] = fmax(m->box[2], VX(m, i)); m->box[3] = fmax(m->box[3], VY(m, i));
  }
  m->eps = 1e-9 * fmax(m->box[2] - m->box[0], m->box[3] - m->box[1]);
}

/* Once the half-edges are linked: their coordinates, which vertices are on
** a wall, each vertex's polygons (vps/vpl), each polygon's ports. Returns
** the number of walls. */
static uint32_t vertexindex(astar_navmesh *m) {
  uint32_t i, h, p, nw = 0;
  memset(m->vwall, 0, m->nv);
  memset(m->vps, 0, ((size_t)m->nv + 1) * sizeof(uint32_t));
  for (h = 0; h < m->nh; h++) {
    m->hxy[2 * h] = VX(m, m->hv[h]); m->hxy[2 * h + 1] = VY(m, m->hv[h]);   /* final order */
    m->vps[m->hv[h] + 1]++;
    if (m->hn[h] == NONE) { m->vwall[m->hv[h]] = 1; m->vwall[m->hv[nexthe(m, h)]] = 1; nw++; }
  }
  for (i = 0; i < m->nv; i++) m->vps[i + 1] += m->vps[i];
  for (h = 0; h < m->nh; h++) m->vpl[m->vps[m->hv[h]]++] = m->hpoly[h];
  for (i = m->nv; i > 0; i--) m->vps[i] = m->vps[i - 1];
  m->vps[0] = 0;
  for (p = 0; p < m->np; p++) {
    m->pport[p] = 0;
    for (h = m->pstart[p]; h < m->pstart[p + 1]; h++) m->pport[p] += m->hn[h] != NONE;
  }
  m->nwall = nw;
  return nw;
}

/* Lists the walls' half-edges in 'walls' (m->nwall of them) and each
** port's half-edge from its lower-numbered polygon in m->phe. */
static int listedges(astar_navmesh *m, uint32_t *walls) {
  uint32_t h, nw = 0;
  m->phe = (uint32_t *)astar__alloc(&m->mem, (m->nport ? m->nport : 1) * sizeof(uint32_t));
  if (m->phe == NULL) return ASTAR_ENOMEM;
  if (m->nport == 0) { astar__free(&m->mem, m->phe, sizeof(uint32_t)); m->phe = NULL; }
  for (h = 0; h < m->nh; h++) {
    if (m->hn[h] == NONE) walls[nw++] = h;
    else if (m->hpoly[h] < m->hn[h]) m->phe[m->hp[h]] = h;
  }
  return 0;
}

/* The buckets' side: about one polygon per bucket, at most 2^22 buckets. */
static void bucketsize(astar_navmesh *m) {
  const double bw = m->box[2] - m->box[0], bh = m->box[3] - m->box[1];
  const double cells = m->np < 4 ? 4 : (double)m->np, side = fmax(bw, bh);
  double c = sqrt(fmax(bw * bh, side * side / cells) / cells);
  if (!(c > 0)) c = side > 0 ? side : 1;
  while ((bw / c + 1) * (bh / c + 1) > 4194304.0) c *= 2;
  m->cell = c;
  m->bw = (uint32_t)(bw / c) + 1; m->bh = (uint32_t)(bh / c) + 1;
}

/* A problem found on the welded mesh names the caller's vertices. */
static void unweld(astar_navmesh_problem *pr, const uint32_t *weld, uint32_t nv) {
  uint32_t i, v = pr->vertex, v2 = pr->vertex2;
  for (i = nv; i-- > 0;) {
    if (weld[i] == v) pr->vertex = i;
    if (weld[i] == v2) pr->vertex2 = i;
  }
}

int astar_navmesh_new(astar_navmesh **out, const double *xy, uint32_t nv,
                      const uint32_t *start, const uint32_t *idx, uint32_t np,
                      astar_navmesh_problem *pr, astar_alloc alloc, void *ud) {
  astar_mem a;
  astar_navmesh *m;
  uint32_t *weld, *walls = NULL, p, nw = 0;
  int rc;
  *out = NULL;
  if (pr != NULL) problem(pr, 0, NONE, NONE, NONE, NONE);
  if ((rc = check_input(xy, nv, start, idx, np, pr)) != 0) return rc;
  a.fn = alloc; a.ud = ud; a.allocs = 0;
  m = (astar_navmesh *)astar__alloc(&a, sizeof *m);
  if (m == NULL) return ASTAR_ENOMEM;
  memset(m, 0, sizeof *m);
  m->mem = a;
  m->np = np; m->nh = start[np];
  weld = (uint32_t *)astar__alloc(&m->mem, (size_t)nv * sizeof(uint32_t));
  if (weld == NULL) { rc = ASTAR_ENOMEM; goto done; }
  if ((rc = weldverts(m, xy, nv, weld)) != 0 || (rc = allocmesh(m)) != 0 ||
      (rc = copypolys(m, xy, nv, start, idx, weld, pr)) != 0)
    goto done;
  m->mincost = m->maxcost = 1;
  m->flor = m->fland = 1;
  bound(m);
  for (p = 0; p < np; p++)
    if ((rc = checkpoly(m, p, idx + start[p], pr)) != 0) goto done;
  if ((rc = linkedges(m, pr)) != 0) goto done;
  nw = vertexindex(m);
  walls = (uint32_t *)astar__alloc(&m->mem, (nw ? nw : 1) * sizeof(uint32_t));
  if (walls == NULL) { rc = ASTAR_ENOMEM; goto done; }
  if ((rc = listedges(m, walls)) != 0) goto done;
  bucketsize(m);
  if ((rc = buckets(m, np, NULL, 0, &m->bps, &m->bpl)) != 0 ||
      (rc = buckets(m, nw, walls, 1, &m->bws, &m->bwl)) != 0)
    goto done;
  if ((rc = tjunctions(m, pr)) == 0) rc = overlaps(m, pr);
done:
  if (rc == ASTAR_EINVAL && pr != NULL && weld != NULL &&
      (pr->why == ASTAR_NM_OVERLAP || pr->why == ASTAR_NM_DUPLICATE ||
       pr->why == ASTAR_NM_NONMANIFOLD || pr->why == ASTAR_NM_TJUNCTION))
    unweld(pr, weld, nv);
  astar__free(&m->mem, weld, (size_t)nv * sizeof(uint32_t));
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
  m->fstale = 1;
  m->version++;
}

double astar__nm_mincost(astar_navmesh *m) {
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


/* Does every polygon pass the flags inc/exc? (A yes is certain; a no means
** perhaps not: each polygon must then be asked.) */
int astar__nm_allallowed(astar_navmesh *m, uint32_t inc, uint32_t exc) {
  if (m->fstale) {
    uint32_t p;
    m->flor = 0; m->fland = ALLFLAGS;
    for (p = 0; p < m->np; p++) { m->flor |= m->flags[p]; m->fland &= m->flags[p]; }
    m->fstale = 0;
  }
  return (m->fland & inc) != 0 && (m->flor & exc) == 0;
}
