/*
** navmesh_link.c - off-mesh links: ladders, jumps, teleporters between two
** points of a navigation mesh, kept as directed links (a two-way link is two
** of them); the index of the polygons their starts lie in, which both
** searches read; what each query allows for them in its heuristic.
*/
#include "navmesh_impl.h"

/* ------------------------------------------------------------------ */
/* The links                                                            */
/* ------------------------------------------------------------------ */

static uint32_t findlink(const astar_navmesh *m, double x0, double y0, double x1, double y1) {
  uint32_t i;
  for (i = 0; i < m->nlk; i++) {
    const double *k = LK(m, i);
    if (k[0] == x0 && k[1] == y0 && k[2] == x1 && k[3] == y1) return i;
  }
  return NONE;
}

/* Drops the polygon index: the next search builds it again. */
static void stale(astar_navmesh *m) {
  if (m->lks != NULL) {
    astar__free(&m->mem, m->lkl, (size_t)m->lks[m->np] * sizeof(uint32_t));
    astar__free(&m->mem, m->lks, ((size_t)m->np + 1) * sizeof(uint32_t));
  }
  m->lks = m->lkl = NULL;
  m->version++;
  m->lkver++;
}

int astar_navmesh_link(astar_navmesh *m, double x0, double y0, double x1, double y1,
                       double cost) {
  uint32_t i;
  if (!isfinite(x0) || !isfinite(y0) || !isfinite(x1) || !isfinite(y1) || !(cost > 0) ||
      cost == HUGE_VAL || (x0 == x1 && y0 == y1) || astar_navmesh_locate(m, x0, y0) == NONE ||
      astar_navmesh_locate(m, x1, y1) == NONE)
    return ASTAR_EINVAL;
  i = findlink(m, x0, y0, x1, y1);
  if (i == NONE) {
    if (m->nlk == UINT32_MAX - 1 ||
        astar__reserve(&m->mem, (void **)&m->lk, &m->clk, 5 * ((size_t)m->nlk + 1),
                       sizeof(double)))
      return ASTAR_ENOMEM;
    i = m->nlk++;
    LK(m, i)[0] = x0; LK(m, i)[1] = y0; LK(m, i)[2] = x1; LK(m, i)[3] = y1;
  }
  LK(m, i)[4] = cost;
  stale(m);
  return 0;
}

int astar_navmesh_unlink(astar_navmesh *m, double x0, double y0, double x1, double y1) {
  uint32_t i = findlink(m, x0, y0, x1, y1);
  if (i == NONE) return 0;
  memmove(LK(m, i), LK(m, i + 1), 5 * (size_t)(m->nlk - i - 1) * sizeof(double));
  m->nlk--;
  stale(m);
  return 1;
}

size_t astar_navmesh_link_count(const astar_navmesh *m) { return m->nlk; }

int astar_navmesh_next_link(const astar_navmesh *m, size_t *cursor, double *x0, double *y0,
                            double *x1, double *y1, double *cost) {
  const double *k;
  if (*cursor >= m->nlk) return 0;
  k = LK(m, *cursor);
  *x0 = k[0]; *y0 = k[1]; *x1 = k[2]; *y1 = k[3]; *cost = k[4];
  ++*cursor;
  return 1;
}

double astar_navmesh_link_cost(const astar_navmesh *m, double x0, double y0, double x1,
                               double y1) {
  uint32_t i = findlink(m, x0, y0, x1, y1);
  return i == NONE ? -1 : LK(m, i)[4];
}

/* ------------------------------------------------------------------ */
/* What a search reads                                                  */
/* ------------------------------------------------------------------ */

/* The polygons holding each link's start (at most LK_HOLD each): lks/lkl, made
** with their exact sizes (stale() frees lkl as lks[np] entries). */
static int buildindex(astar_navmesh *m) {
  size_t n = 0;
  uint32_t i, p, hold[LK_HOLD];
  if (m->lks != NULL || m->nlk == 0) return 0;
  m->lks = (uint32_t *)astar__alloc(&m->mem, ((size_t)m->np + 1) * sizeof(uint32_t));
  if (m->lks == NULL) return ASTAR_ENOMEM;
  memset(m->lks, 0, ((size_t)m->np + 1) * sizeof(uint32_t));
  for (i = 0; i < m->nlk; i++) {
    int k, nh = astar__nm_holders(m, LK(m, i)[0], LK(m, i)[1], 0, 0, 0, hold, LK_HOLD);
    for (k = 0; k < nh; k++) m->lks[hold[k] + 1]++;
    n += (size_t)nh;
  }
  for (p = 0; p < m->np; p++) m->lks[p + 1] += m->lks[p];
  m->lkl = n > 0 ? (uint32_t *)astar__alloc(&m->mem, n * sizeof(uint32_t)) : NULL;
  if (n > 0 && m->lkl == NULL) {
    astar__free(&m->mem, m->lks, ((size_t)m->np + 1) * sizeof(uint32_t));
    m->lks = NULL;
    return ASTAR_ENOMEM;
  }
  for (i = 0; i < m->nlk; i++) {        /* fill, moving each polygon's start up by one */
    int k, nh = astar__nm_holders(m, LK(m, i)[0], LK(m, i)[1], 0, 0, 0, hold, LK_HOLD);
    for (k = 0; k < nh; k++) m->lkl[m->lks[hold[k]]++] = i;
  }
  for (p = m->np; p > 0; p--) m->lks[p] = m->lks[p - 1];
  m->lks[0] = 0;
  return 0;
}

/*
** Readies q's allowance for links: 'lkmul' turns a link's cost into g and
** 'hs' a length into the heuristic's units. A path that takes a link walks
** to some link's start, and after its last link j walks on from j's end, so
** what is left from a point x is at least
**   min over starts a of hs * |x - a|  +  K,  K = min over j of (lkmul * cost_j + hs * |end_j - goal|),
** and min(h, that) stays admissible (and consistent: both are).
*/
int astar__nm_links_begin(astar_navmesh_query *q, double lkmul, double hs) {
  astar_navmesh *m = q->mesh;
  struct astar_nm_work *w = q->w;
  uint32_t i;
  w->lkK = HUGE_VAL; w->lkmul = lkmul; w->lkhs = hs; w->linked = 0; w->lkver = m->lkver;
  if (m->nlk == 0) return 0;
  if (buildindex(m) != 0 ||
      astar__reserve(&w->mem, (void **)&w->lkok, &w->clkok, m->nlk, 1))
    return ASTAR_ENOMEM;
  for (i = 0; i < m->nlk; i++) {
    const double *k = LK(m, i);
    double lim = q->radius * (1 - 1e-9);
    w->lkok[i] = astar__nm_locatef(m, k[2], k[3], q->include, q->exclude) != NONE &&
                 (q->radius == 0 || (astar_navmesh_clearance(m, k[0], k[1]) >= lim &&
                                     astar_navmesh_clearance(m, k[2], k[3]) >= lim));
    if (w->lkok[i])
      w->lkK = fmin(w->lkK, lkmul * k[4] + hs * hypot(w->gx - k[2], w->gy - k[3]));
  }
  return 0;
}

int astar__nm_linkok(const astar_navmesh_query *q, uint32_t i) { return q->w->lkok[i]; }

double astar__nm_link_h(const astar_navmesh_query *q, double x, double y, double h) {
  const astar_navmesh *m = q->mesh;
  uint32_t i;
  double best = HUGE_VAL;
  if (!(q->w->lkK < h)) return h;
  for (i = 0; i < m->nlk; i++)
    if (q->w->lkok[i]) best = fmin(best, hypot(x - LK(m, i)[0], y - LK(m, i)[1]));
  return fmin(h, q->w->lkhs * best + q->w->lkK);
}

double astar__nm_link_hseg(const astar_navmesh_query *q, double ax, double ay, double bx,
                           double by, double h) {
  const astar_navmesh *m = q->mesh;
  uint32_t i;
  double best = HUGE_VAL, cx, cy;
  if (!(q->w->lkK < h)) return h;
  for (i = 0; i < m->nlk; i++)
    if (q->w->lkok[i]) best = fmin(best, segdist(LK(m, i)[0], LK(m, i)[1], ax, ay, bx, by, &cx, &cy));
  return fmin(h, q->w->lkhs * best + q->w->lkK);
}

/* Room for n step marks, all walks. */
int astar__nm_steps(astar_navmesh_query *q, size_t n) {
  size_t k;
  if (astar__reserve(&q->w->mem, (void **)&q->w->steps, &q->w->csteps, n > 0 ? n : 1,
                     sizeof(double)))
    return ASTAR_ENOMEM;
  for (k = 0; k < n; k++) q->w->steps[k] = -1;
  return 0;
}

const double *astar_navmesh_steplinks(const astar_navmesh_query *q) {
  return q->w != NULL && q->w->linked ? q->w->steps : NULL;
}
