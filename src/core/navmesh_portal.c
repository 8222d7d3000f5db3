/*
** navmesh_portal.c - the search over portals: the engine's domain (a node
** per portal point, steps that are real segments), the ends, and the
** begin/step/find entry points that choose between it and the exact search.
*/
#include "navmesh_impl.h"

/* ------------------------------------------------------------------ */
/* Search over portals                                                  */
/* ------------------------------------------------------------------ */

void astar_navmesh_query_init(astar_navmesh_query *q) {
  memset(q, 0, sizeof *q);
  q->include = ALLFLAGS;
  astar_params_init(&q->params);
}

void astar_navmesh_query_free(astar_navmesh_query *q) {
  struct astar_nm_work *w = q->w;
  astar_mem a;
  if (w == NULL) return;
  a = w->mem;                          /* the allocator outlives the mesh */
  astar__free(&a, w->pt, w->cpt * sizeof(double));
  astar__free(&a, w->out, w->cout * sizeof(double));
  astar__free(&a, w->corr, w->ccorr * sizeof(uint32_t));
  astar__free(&a, w->ctr, w->cctr * sizeof(double));
  astar__free(&a, w->pn, w->cpn * sizeof(pnode));
  astar__free(&a, w->heap, w->cheap * sizeof *w->heap);
  astar__free(&a, w->vb, w->cvb * sizeof *w->vb);
  astar__free(&a, w->ppos, w->cppos * sizeof(uint32_t));
  astar__free(&a, w->lkok, w->clkok);
  astar__free(&a, w->steps, w->csteps * sizeof(double));
  astar__free(&a, w->acc, w->cacc * sizeof(double));
  astar__free(&a, w->acorr, w->cacorr * sizeof(uint32_t));
  astar__free(&a, w, sizeof *w);
  q->w = NULL;
  q->mesh = NULL;
}

/* The query's scratch for mesh m: made on first use, anew for another mesh. */
static int work(astar_navmesh *m, astar_navmesh_query *q) {
  if (q->w != NULL && q->mesh == m) return 0;
  astar_navmesh_query_free(q);
  q->w = (struct astar_nm_work *)astar__alloc(&m->mem, sizeof *q->w);
  if (q->w == NULL) return ASTAR_ENOMEM;
  memset(q->w, 0, sizeof *q->w);
  q->w->mem.fn = m->mem.fn;
  q->w->mem.ud = m->mem.ud;
  q->mesh = m;
  return 0;
}

const uint32_t *astar_navmesh_corridor(const astar_navmesh_query *q, size_t *n) {
  *n = q->w != NULL ? q->w->ncorr : 0;
  return q->w != NULL ? q->w->corr : NULL;
}

void astar_navmesh_stats(const astar_navmesh_query *q, const astar_search *s, astar_stats *st) {
  if (q->exact && q->w != NULL) *st = q->w->st;
  else astar_search_stats(s, st);
}

size_t astar_navmesh_query_allocs(const astar_navmesh_query *q) {
  return q->w != NULL ? q->w->mem.allocs : 0;
}

/* A vertex the agent must keep its distance from: it ends a wall edge, or
** touches a polygon the query may not enter. */
int astar__nm_wallvertex(const astar_navmesh_query *q, uint32_t v) {
  const astar_navmesh *m = q->mesh;
  uint32_t i;
  if (m->vwall[v]) return 1;
  for (i = m->vps[v]; i < m->vps[v + 1]; i++)
    if (!astar__nm_allowed(m, m->vpl[i], q->include, q->exclude)) return 1;
  return 0;
}

int astar__nm_walledge(const astar_navmesh_query *q, uint32_t h) {
  uint32_t n = q->mesh->hn[h];
  return n == NONE || !astar__nm_allowed(q->mesh, n, q->include, q->exclude);
}

/* The usable part [lo, hi] (fractions from u to v) of half-edge h's portal
** for the query's radius; 0 if it is narrower than the agent. */
static int usable(const astar_navmesh_query *q, uint32_t h, double *lo, double *hi) {
  const astar_navmesh *m = q->mesh;
  uint32_t u = m->hv[h], v = m->hv[nexthe(m, h)];
  double len;
  *lo = 0; *hi = 1;
  if (q->w->R <= 0) return 1;
  len = hypot(VX(m, v) - VX(m, u), VY(m, v) - VY(m, u));
  if (astar__nm_wallvertex(q, u)) *lo = q->w->R / len;
  if (astar__nm_wallvertex(q, v)) *hi = 1 - q->w->R / len;
  return *lo <= *hi;
}

/* Whether an agent of radius R fits through polygon p from its edge 'in' to
** its edge 'out' (local indices): the walls on the two sides of the way
** must stay 2R apart. */
static int fits(const astar_navmesh_query *q, uint32_t p, uint32_t in, uint32_t out) {
  const astar_navmesh *m = q->mesh;
  uint32_t a = m->pstart[p], k = m->pstart[p + 1] - a, i, j;
  double need = 2 * q->w->R;
  /* side 1: vertices in+1 .. out, edges in+1 .. out-1; side 2: out+1 .. in */
  for (i = (in + 1) % k;; i = (i + 1) % k) {           /* vertex i of side 1 */
    int wv = astar__nm_wallvertex(q, m->hv[a + i]);
    for (j = (out + 1) % k;; j = (j + 1) % k) {       /* vertex j of side 2 */
      uint32_t vi = m->hv[a + i], vj = m->hv[a + j];
      double cx, cy;
      if (wv && astar__nm_wallvertex(q, vj) &&
          hypot(VX(m, vi) - VX(m, vj), VY(m, vi) - VY(m, vj)) < need) return 0;
      if (j != in && astar__nm_walledge(q, a + j) && wv) {      /* edge j -> j+1 of side 2 */
        uint32_t w = m->hv[a + (j + 1) % k];
        if (segdist(VX(m, vi), VY(m, vi), VX(m, vj), VY(m, vj), VX(m, w), VY(m, w), &cx, &cy)
            < need) return 0;
      }
      /* edge i -> i+1, side 1 */
      if (i != out && astar__nm_walledge(q, a + i) && astar__nm_wallvertex(q, vj)) {
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
void astar__nm_portalpoint(const astar_navmesh *m, uint32_t h, double lo, double hi,
                        double px, double py, double gx, double gy, double *x, double *y) {
  nm_cross c;
  double t;
  nm_crossing(m, h, px, py, gx, gy, &c);
  t = c.t / c.l2;
  if (!(t > lo)) t = lo;
  if (t > hi) t = hi;
  *x = c.ax + t * c.dx; *y = c.ay + t * c.dy;
}

int astar__nm_banned(const astar_navmesh_query *q, uint32_t portal) {
  size_t i;
  for (i = 0; i < q->w->nban; i++) if (q->w->ban[i] == portal) return 1;
  return 0;
}

/* The edges from point (px, py) of polygon p to the starts of the links in
** it, each to the link's node (its end) for the walk and the link's cost. */
static uint32_t linkedges(astar_navmesh_query *q, uint32_t p, double px, double py,
                          astar_edge *e) {
  const astar_navmesh *m = q->mesh;
  uint32_t j, n = 0;
  for (j = m->lks[p]; j < m->lks[p + 1]; j++) {
    uint32_t i = m->lkl[j];
    const double *k = LK(m, i);
    double base = hypot(k[0] - px, k[1] - py) * m->cost[p];
    if (!astar__nm_linkok(q, i)) continue;
    if (q->cost_fn != NULL && (base = q->cost_fn(q->cost_ud, p, NONE, base)) < 0) continue;
    e[n].to = m->nport + 2 + i; e[n].cost = base + k[4]; n++;
  }
  return n;
}

/* The engine's nodes: portals 0 .. nport-1, then the start and the goal, then
** a node per link (at its end). */
static int nm_expand(void *self, uint32_t node, astar_search *s) {
  astar_navmesh_query *q = (astar_navmesh_query *)self;
  const astar_navmesh *m = q->mesh;
  uint32_t snode = m->nport, gnode = m->nport + 1, side, n = 0, pl[2], npl, nl = 0;
  double px, py;
  astar_edge *e;
  if (node == gnode) return 0;
  if (node == snode) {
    px = q->w->sx; py = q->w->sy; pl[0] = q->w->spoly; npl = 1;
  } else if (node > gnode) {                      /* a link's end: a new start */
    px = LK(m, node - gnode - 1)[2]; py = LK(m, node - gnode - 1)[3];
    pl[0] = astar__nm_locatef(m, px, py, q->include, q->exclude); npl = 1;
    if (pl[0] == NONE) return 0;
  } else {
    double g, lo, hi, ppx, ppy;
    uint32_t parent, h = m->phe[node];
    astar_search_node(s, node, &g, &parent);
    ppx = q->w->pt[2 * (size_t)parent]; ppy = q->w->pt[2 * (size_t)parent + 1];
    usable(q, h, &lo, &hi);
    astar__nm_portalpoint(m, h, lo, hi, ppx, ppy, q->w->gx, q->w->gy, &px, &py);
    pl[0] = m->hpoly[h]; pl[1] = m->hn[h]; npl = 2;
  }
  q->w->pt[2 * (size_t)node] = px; q->w->pt[2 * (size_t)node + 1] = py;
  if (m->lks != NULL)
    for (side = 0; side < npl; side++) nl += m->lks[pl[side] + 1] - m->lks[pl[side]];
  e = astar_search_edges(s, (size_t)(m->pstart[pl[0] + 1] - m->pstart[pl[0]]) +
                             (npl > 1 ? m->pstart[pl[1] + 1] - m->pstart[pl[1]] : 0) + 2 + nl);
  if (e == NULL) return ASTAR_ENOMEM;
  for (side = 0; side < npl; side++) {
    uint32_t p = pl[side], a = m->pstart[p], k = m->pstart[p + 1] - a, i, in = NONE;
    double c = m->cost[p];
    if (!astar__nm_allowed(m, p, q->include, q->exclude)) continue;
    if (node < snode) {                           /* the portal's side in p */
      uint32_t h = m->phe[node];
      in = (m->hpoly[h] == p ? h : m->htw[h]) - a;
    }
    for (i = 0; i < k; i++) {
      uint32_t h = a + i, to = m->hp[h];
      double lo, hi, x, y, base;
      if (to == NONE || i == in || !astar__nm_allowed(m, m->hn[h], q->include, q->exclude))
        continue;
      if (q->w->nban > 0 && astar__nm_banned(q, to)) continue;
      if (!usable(q, h, &lo, &hi)) continue;
      if (q->w->R > 0 && in != NONE && !fits(q, p, in, i)) continue;
      astar__nm_portalpoint(m, h, lo, hi, px, py, q->w->gx, q->w->gy, &x, &y);
      base = hypot(x - px, y - py) * c;
      if (q->cost_fn != NULL) {
        base = q->cost_fn(q->cost_ud, p, m->hn[h], base);
        if (base < 0) continue;
      }
      e[n].to = to; e[n].cost = base; n++;
    }
    if (p == q->w->gpoly) {
      double base = hypot(q->w->gx - px, q->w->gy - py) * c;
      if (q->cost_fn != NULL) base = q->cost_fn(q->cost_ud, p, NONE, base);
      if (base >= 0) { e[n].to = gnode; e[n].cost = base; n++; }
    }
    if (m->lks != NULL) n += linkedges(q, p, px, py, e + n);
  }
  return (int)n;
}

static double nm_hplain(const astar_navmesh_query *q, uint32_t node, int links);

/* The heuristic: the plain one, lowered for links (navmesh_link.c). */
static double nm_heuristic(void *self, uint32_t node) {
  return nm_hplain((const astar_navmesh_query *)self, node, 1);
}

/* Partial paths: the plain heuristic, so that they head for the goal. */
static double nm_progress(void *self, uint32_t node) {
  return nm_hplain((const astar_navmesh_query *)self, node, 0);
}

/* The least a path from node on to the goal can cost: without links, or
** lowered for them ('links'). */
static double nm_hplain(const astar_navmesh_query *q, uint32_t node, int links) {
  const astar_navmesh *m = q->mesh;
  double lo, hi, cx, cy, h0;
  uint32_t h, u, v;
  if (node == m->nport + 1) return 0;
  if (node >= m->nport) {                          /* the start, a link's end */
    double x = node == m->nport ? q->w->sx : LK(m, node - m->nport - 2)[2];
    double y = node == m->nport ? q->w->sy : LK(m, node - m->nport - 2)[3];
    h0 = q->w->hscale * hypot(q->w->gx - x, q->w->gy - y);
    return links ? astar__nm_link_h(q, x, y, h0) : h0;
  }
  h = m->phe[node]; u = m->hv[h]; v = m->hv[nexthe(m, h)];
  usable(q, h, &lo, &hi);
  if (lo > hi) lo = hi = 0.5;
  {
    double ax = VX(m, u), ay = VY(m, u), dx = VX(m, v) - ax, dy = VY(m, v) - ay;
    double x0 = ax + lo * dx, y0 = ay + lo * dy, x1 = ax + hi * dx, y1 = ay + hi * dy;
    h0 = q->w->hscale * segdist(q->w->gx, q->w->gy, x0, y0, x1, y1, &cx, &cy);
    return links ? astar__nm_link_hseg(q, x0, y0, x1, y1, h0) : h0;
  }
}

/* The start or goal polygon; sets q->blocked_why on failure. */
static uint32_t endpoint(astar_navmesh_query *q, double x, double y) {
  const astar_navmesh *m = q->mesh;
  uint32_t p = astar__nm_locatef(m, x, y, q->include, q->exclude);
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
  size_t need = 2 * ((size_t)m->nport + 2 + m->nlk);
  if (!(q->radius >= 0 && q->radius < HUGE_VAL) || !isfinite(sx) || !isfinite(sy) ||
      !isfinite(gx) || !isfinite(gy))
    return ASTAR_EINVAL;
  if (work(m, q) != 0) return ASTAR_ENOMEM;
  q->w->sx = sx; q->w->sy = sy; q->w->gx = gx; q->w->gy = gy;
  q->w->R = q->radius / cos(ARC_STEP / 2);
  q->blocked = 0; q->w->ncorr = 0; q->w->nban = 0; q->w->ready = 0; q->w->nout = 0;
  q->w->status = 0; q->w->linked = 0;
  if (astar__reserve(&q->w->mem, (void **)&q->w->pt, &q->w->cpt, need, sizeof(double)))
    return ASTAR_ENOMEM;
  /* the start node's point before any expansion: a partial path after none is the start */
  q->w->pt[2 * (size_t)m->nport] = sx; q->w->pt[2 * (size_t)m->nport + 1] = sy;
  q->w->spoly = endpoint(q, sx, sy);
  if (q->w->spoly != NONE) q->w->gpoly = endpoint(q, gx, gy);
  if (q->w->spoly == NONE || q->w->gpoly == NONE) {
    q->blocked = q->w->spoly == NONE ? 1 : 2;
    q->w->status = ASTAR_BLOCKED;
    return ASTAR_BLOCKED;
  }
  q->w->hscale = astar__nm_mincost(m);
  if (q->params.algorithm == ASTAR_ALG_DIJKSTRA) q->w->hscale = 0;
  if (astar__nm_links_begin(q, 1, q->w->hscale) != 0) return ASTAR_ENOMEM;
  q->domain.nnodes = m->nport + 2 + m->nlk;
  q->domain.expand = nm_expand;
  q->domain.heuristic = nm_heuristic;
  q->domain.is_goal = NULL;
  q->domain.edge_cost = NULL;
  q->domain.shortcut = NULL;
  q->domain.settle = NULL;
  q->domain.progress = m->nlk > 0 ? nm_progress : NULL;
  q->domain.self = q;
  *start = m->nport; *goal = m->nport + 1;
  return 0;
}


int astar_navmesh_begin(astar_navmesh *m, astar_search *s, astar_navmesh_query *q,
                        double sx, double sy, double gx, double gy) {
  uint32_t st, go;
  int rc = astar_navmesh_prepare(m, q, sx, sy, gx, gy, &st, &go);
  if (rc) return rc;
  q->w->snode = st;
  q->w->gnode = go;
  q->exact = q->radius == 0 && q->cost_fn == NULL && m->mincost == m->maxcost;
  if (q->exact) return astar__nm_exact_begin(q);
  return astar_search_begin(s, &q->domain, q->w->snode, q->w->gnode, &q->params);
}

/* The portal search's steps; a path too close to a wall for the radius
** closes the portal there and searches again. This ends: each new search
** closes one more portal of the corridor, at most ASTAR_NM_BANS of them,
** and a corridor with no portal to close (one polygon) is the end. */
static int portal_step(astar_search *s, astar_navmesh_query *q, uint64_t budget) {
  double wx = 0, wy = 0;
  int rc = astar_search_step(s, budget);
  if (rc != ASTAR_FOUND) return rc;
  rc = astar__nm_straighten(q, s, &wx, &wy);
  if (rc <= 0) { q->w->ready = rc == 0; return rc < 0 ? rc : ASTAR_FOUND; }
  if (!astar__nm_ban(q, wx, wy)) return ASTAR_NO_PATH;
  rc = astar_search_begin(s, &q->domain, q->w->snode, q->w->gnode, &q->params);
  return rc != 0 ? rc : ASTAR_RUNNING;
}

int astar_navmesh_step(astar_navmesh *m, astar_search *s, astar_navmesh_query *q,
                       uint64_t budget) {
  int rc;
  if (q->w == NULL || q->mesh != m) return ASTAR_ESTATE;
  if (q->w->lkver != m->lkver) {          /* the links changed: what the search holds was */
    rc = astar_navmesh_begin(m, s, q, q->w->sx, q->w->sy, q->w->gx, q->w->gy);  /* sized */
    if (rc != 0) {                         /* for them, so it begins again, whatever the */
      q->w->status = rc;                   /* caller's on_change says */
      return rc;
    }
  }
  if (q->exact) {
    rc = astar__nm_exact_step(q, budget);
    q->w->ready = rc == ASTAR_FOUND;
  } else {
    rc = portal_step(s, q, budget);
  }
  if (rc != ASTAR_RUNNING) q->w->status = rc;
  return rc;
}

int astar_navmesh_find(astar_navmesh *m, astar_search *s, astar_navmesh_query *q,
                       double sx, double sy, double gx, double gy) {
  int rc = astar_navmesh_begin(m, s, q, sx, sy, gx, gy);
  if (rc) return rc;
  do rc = astar_navmesh_step(m, s, q, UINT64_MAX); while (rc == ASTAR_RUNNING);
  return rc;
}

