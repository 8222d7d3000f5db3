/*
** test_navmesh.c - tests of the core's navigation meshes (src/core/navmesh.c)
** without Lua, under ASan and UBSan: every validation error, exact answers
** on meshes small enough to work out by hand, paths on grid meshes checked
** against a grid Dijkstra written here (8-connected, no corner cutting: an
** any-angle path over the cells can only be shorter), and a failing
** allocator that makes every N-th allocation fail in construction and find.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "astar.h"

#include "harness.h"

static unsigned long rs = 4242;
static int rnd(int n) {
  rs = rs * 1103515245UL + 12345UL;
  return (int)((rs >> 16) % (unsigned long)n);
}

/* A mesh from a flat vertex list and polygons given as -1-terminated runs. */
static int build(astar_navmesh **m, const double *xy, uint32_t nv, const int *runs,
                 astar_navmesh_problem *pr, counting *c) {
  uint32_t start[32], idx[128], np = 0, n = 0;
  int i;
  start[0] = 0;
  for (i = 0; runs[i] != -2; i++) {
    if (runs[i] == -1) { start[++np] = n; continue; }
    idx[n++] = (uint32_t)runs[i];
  }
  return astar_navmesh_new(m, xy, nv, start, idx, np, pr, test_alloc, c);
}

/* What a search left: status, path (copied), cost, corridor, expansions. */
typedef struct outcome {
  int rc;
  long n;
  double cost, pts[2 * 256];
  size_t nc;
  uint32_t corr[256];
  uint64_t expanded;
} outcome;

static void outcome_of(astar_navmesh_query *q, astar_search *s, int rc, outcome *o) {
  const double *pts = NULL;
  astar_stats st;
  o->rc = rc; o->n = 0; o->cost = 0; o->nc = 0;
  if (rc == ASTAR_FOUND || rc == ASTAR_NO_PATH || rc == ASTAR_LIMIT)
    o->n = astar_navmesh_result(q, s, &pts, &o->cost);
  if (o->n > 0 && o->n <= 256) {
    const uint32_t *corr = astar_navmesh_corridor(q, &o->nc);
    memcpy(o->pts, pts, 2 * (size_t)o->n * sizeof(double));
    if (o->nc <= 256) memcpy(o->corr, corr, o->nc * sizeof(uint32_t));
  }
  astar_navmesh_stats(q, s, &st);
  o->expanded = st.expanded;
}

/* begin, then steps of 'budget' expansions (none may spend more) until the
** search ends. */
static int stepped(astar_navmesh *m, astar_search *s, astar_navmesh_query *q, uint64_t budget,
                   double sx, double sy, double gx, double gy) {
  uint64_t last = 0;
  long steps = 0;
  int rc = astar_navmesh_begin(m, s, q, sx, sy, gx, gy);
  if (rc != 0) return rc;
  do {
    astar_stats st;
    rc = astar_navmesh_step(m, s, q, budget);
    astar_navmesh_stats(q, s, &st);
    CHECK(st.expanded <= last + budget);   /* a radius' new search starts again at 0 */
    last = st.expanded;
  } while (rc == ASTAR_RUNNING && ++steps < 10000000);
  return rc;
}

/* find, then the same search in steps of 1: the same outcome throughout. */
static int same_stepped(astar_navmesh *m, astar_search *s, astar_navmesh_query *q,
                        double sx, double sy, double gx, double gy) {
  static outcome a, b;
  int rc = astar_navmesh_find(m, s, q, sx, sy, gx, gy);
  outcome_of(q, s, rc, &a);
  outcome_of(q, s, stepped(m, s, q, 1, sx, sy, gx, gy), &b);
  CHECK(a.rc == b.rc && a.n == b.n && a.cost == b.cost && a.nc == b.nc);
  CHECK(a.expanded == b.expanded);
  if (a.n == b.n && a.n > 0 && a.n <= 256)
    CHECK(memcmp(a.pts, b.pts, 2 * (size_t)a.n * sizeof(double)) == 0);
  if (a.nc == b.nc && a.nc <= 256) CHECK(memcmp(a.corr, b.corr, a.nc * sizeof(uint32_t)) == 0);
  return rc;
}

static void test_problems(void) {
  counting c = {0, 0, 0};
  astar_navmesh *m = NULL;
  astar_navmesh_problem pr;
  /* a 2 x 1 strip of unit squares, vertices 0..5 */
  static const double sq[] = {0, 0, 1, 0, 2, 0, 0, 1, 1, 1, 2, 1};
  static const int ok[] = {0, 1, 4, 3, -1, 1, 2, 5, 4, -1, -2};
  static const int cw[] = {3, 4, 1, 0, -1, 1, 2, 5, 4, -1, -2};      /* one clockwise */
  static const int few[] = {0, 1, -1, -2};
  static const int rep[] = {0, 1, 4, 1, -1, -2};
  static const int flat[] = {0, 1, 2, -1, -2};
  static const int dup[] = {0, 1, 4, 3, -1, 1, 4, 3, 0, -1, -2};
  static const int over[] = {0, 1, 4, 3, -1, 0, 1, 4, -1, -2};
  static const int tri3[] = {0, 1, 4, -1, 4, 1, 2, -1, 4, 1, 5, -1, -2};
  static const int bad[] = {0, 1, 9, -1, -2};
  /* a concave quad and a pentagram */
  static const double cq[] = {0, 0, 2, 0, 1, 0.5, 1, 2};
  static const int cqp[] = {0, 1, 2, 3, -1, -2};
  static const double star[] = {0, 3, 1.76, -2.43, -2.85, 0.93, 2.85, 0.93, -1.76, -2.43};
  static const int starp[] = {0, 1, 2, 3, 4, -1, -2};
  /* T-junction: a 2 x 2 square beside two unit squares, without the split */
  static const double tj[] = {0, 0, 2, 0, 2, 2, 0, 2, 3, 0, 3, 1, 2, 1, 3, 2};
  static const int tjp[] = {0, 1, 2, 3, -1, 1, 4, 5, 6, -1, 6, 5, 7, 2, -1, -2};
  static const int tjok[] = {0, 1, 6, 2, 3, -1, 1, 4, 5, 6, -1, 6, 5, 7, 2, -1, -2};
  double nan_xy[12];

  CHECK(build(&m, sq, 6, ok, &pr, &c) == 0 && m != NULL);
  if (m) {
    uint32_t n;
    const uint32_t *nb = astar_navmesh_neighbours(m, 0, &n);
    CHECK(n == 4 && nb[1] == 1 && nb[0] == ASTAR_NONE && nb[2] == ASTAR_NONE);
    CHECK(astar_navmesh_nportals(m) == 1);
    CHECK(astar_navmesh_locate(m, 0.5, 0.5) == 0 && astar_navmesh_locate(m, 1.5, 0.2) == 1);
    CHECK(astar_navmesh_locate(m, 2.5, 0.5) == ASTAR_NONE);
    CHECK(fabs(astar_navmesh_clearance(m, 1.5, 0.25) - 0.25) < 1e-12);
    astar_navmesh_free(m); m = NULL;
  }
  CHECK(build(&m, sq, 6, cw, &pr, &c) == 0);
  astar_navmesh_free(m); m = NULL;
#define BAD(xy, nv, runs, code) do { \
    CHECK(build(&m, xy, nv, runs, &pr, &c) == ASTAR_EINVAL && m == NULL); \
    CHECK(pr.why == (code)); } while (0)
  BAD(sq, 6, few, ASTAR_NM_FEW);
  BAD(sq, 6, rep, ASTAR_NM_REPEAT);
  CHECK(pr.polygon == 0 && pr.vertex == 1);
  BAD(sq, 6, flat, ASTAR_NM_DEGENERATE);
  BAD(sq, 6, dup, ASTAR_NM_DUPLICATE);
  CHECK(pr.polygon == 1 && pr.other == 0);
  BAD(sq, 6, over, ASTAR_NM_OVERLAP);
  BAD(sq, 6, tri3, ASTAR_NM_NONMANIFOLD);
  BAD(sq, 6, bad, ASTAR_NM_INDEX);
  CHECK(pr.vertex == 9);
  BAD(cq, 4, cqp, ASTAR_NM_CONCAVE);
  CHECK(pr.vertex == 2);
  BAD(star, 5, starp, ASTAR_NM_CONCAVE);
  BAD(tj, 8, tjp, ASTAR_NM_TJUNCTION);
  CHECK(pr.vertex == 6);
  CHECK(build(&m, tj, 8, tjok, &pr, &c) == 0);      /* split: accepted */
  astar_navmesh_free(m); m = NULL;
  memcpy(nan_xy, sq, sizeof nan_xy);
  nan_xy[7] = NAN;
  BAD(nan_xy, 6, ok, ASTAR_NM_COORD);
  CHECK(pr.vertex == 3);
#undef BAD
  CHECK(c.live == 0);
}

/* An L of three unit squares: the path bends at the inner corner (1, 1). */
static void test_l_shape(void) {
  counting c = {0, 0, 0};
  static const double xy[] = {0, 0, 1, 0, 2, 0, 0, 1, 1, 1, 2, 1, 0, 2, 1, 2};
  static const int runs[] = {0, 1, 4, 3, -1, 1, 2, 5, 4, -1, 3, 4, 7, 6, -1, -2};
  astar_navmesh *m = NULL;
  astar_search *s = NULL;
  astar_navmesh_query q;
  const double *pts;
  double cost, want = 2 * hypot(0.5, 0.9), hx, hy;
  uint32_t hp;
  long n;
  CHECK(build(&m, xy, 8, runs, NULL, &c) == 0);
  CHECK(astar_search_new(&s, test_alloc, &c) == 0);
  astar_navmesh_query_init(&q);
  CHECK(astar_navmesh_find(m, s, &q, 0.5, 1.9, 1.9, 0.5) == ASTAR_FOUND);
  n = astar_navmesh_result(&q, s, &pts, &cost);
  CHECK(n == 3 && fabs(cost - want) < 1e-12);
  if (n == 3) CHECK(pts[2] == 1 && pts[3] == 1);
  {
    size_t nc;
    const uint32_t *corr = astar_navmesh_corridor(&q, &nc);
    CHECK(nc == 3 && corr[0] == 2 && corr[1] == 0 && corr[2] == 1);
  }
  /* the straight line crosses the missing square: raycast stops at its wall */
  CHECK(astar_navmesh_raycast(m, 0.5, 1.9, 1.9, 0.5, ~0u, 0, &hx, &hy, &hp) == 0);
  CHECK(fabs(hx - 1) < 1e-12 && fabs(hy - 1.4) < 1e-12 && hp == 2);
  /* through the inner corner only: still on the (closed) mesh */
  CHECK(astar_navmesh_raycast(m, 0.5, 1.5, 1.5, 0.5, ~0u, 0, &hx, &hy, &hp) == 1);
  CHECK(astar_navmesh_raycast(m, 0.5, 0.5, 1.5, 0.5, ~0u, 0, &hx, &hy, &hp) == 1);
  /* close the corner square: no path; a doubled cost is priced in */
  astar_navmesh_set_flags(m, 0, 0);
  CHECK(astar_navmesh_find(m, s, &q, 0.5, 1.9, 1.9, 0.5) == ASTAR_NO_PATH);
  astar_navmesh_set_flags(m, 0, 1);
  astar_navmesh_set_cost(m, 2, 2);
  CHECK(astar_navmesh_find(m, s, &q, 0.5, 1.9, 1.9, 0.5) == ASTAR_FOUND);
  n = astar_navmesh_result(&q, s, &pts, &cost);
  CHECK(n == 3 && fabs(cost - 3 * hypot(0.5, 0.9)) < 1e-9);
  /* a radius the 1-wide arms cannot hold; a start off the mesh */
  q.radius = 0.6;
  CHECK(astar_navmesh_find(m, s, &q, 0.5, 1.5, 1.5, 0.5) == ASTAR_BLOCKED && q.blocked == 1);
  q.radius = 0;
  CHECK(astar_navmesh_find(m, s, &q, 1.5, 1.5, 1.5, 0.5) == ASTAR_BLOCKED && q.blocked == 1);
  CHECK(astar_navmesh_find(m, s, &q, 0.5, 0.5, NAN, 0.5) == ASTAR_EINVAL);
  astar_navmesh_query_free(&q);
  astar_search_free(s);
  astar_navmesh_free(m);
  CHECK(c.live == 0);
}

/* Grid Dijkstra, 8-connected without corner cutting, cell centres. */
static double grid_dist(const double *cell, int w, int h, int sx, int sy, int gx, int gy) {
  double *d = (double *)malloc(sizeof(double) * (size_t)(w * h));
  char *done = (char *)calloc((size_t)(w * h), 1);
  int i, k;
  double r;
  for (i = 0; i < w * h; i++) d[i] = HUGE_VAL;
  d[sy * w + sx] = 0;
  for (;;) {
    int u = -1, x, y;
    for (i = 0; i < w * h; i++) if (!done[i] && d[i] < HUGE_VAL && (u < 0 || d[i] < d[u])) u = i;
    if (u < 0) break;
    done[u] = 1;
    x = u % w; y = u / w;
    for (k = 0; k < 8; k++) {
      static const int DX[8] = {1, -1, 0, 0, 1, 1, -1, -1}, DY[8] = {0, 0, 1, -1, 1, -1, 1, -1};
      int nx = x + DX[k], ny = y + DY[k];
      if (nx < 0 || ny < 0 || nx >= w || ny >= h || cell[ny * w + nx] == 0) continue;
      if (DX[k] && DY[k] && (cell[y * w + nx] == 0 || cell[ny * w + x] == 0)) continue;
      if (d[u] + (DX[k] && DY[k] ? sqrt(2) : 1) < d[ny * w + nx])
        d[ny * w + nx] = d[u] + (DX[k] && DY[k] ? sqrt(2) : 1);
    }
  }
  r = d[gy * w + gx];
  free(d); free(done);
  return r;
}

static void test_grid(void) {
  counting c = {0, 0, 0};
  int round;
  for (round = 0; round < 30; round++) {
    int w = 4 + rnd(20), h = 4 + rnd(20), x, y, k, found = 0;
    double *cell = (double *)malloc(sizeof(double) * (size_t)(w * h));
    astar_grid *g = NULL;
    astar_navmesh *m = NULL;
    astar_search *s = NULL;
    astar_navmesh_query q;
    uint32_t *cp = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)(w * h));
    CHECK(astar_grid_new(&g, w, h, 1, test_alloc, &c) == 0);
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) {
        cell[y * w + x] = rnd(100) < 25 ? 0 : 1;
        astar_grid_set(g, x, y, cell[y * w + x]);
      }
    cell[0] = 1; astar_grid_set(g, 0, 0, 1);
    CHECK(astar_navmesh_from_grid(&m, g, NULL, cp, test_alloc, &c) == 0);
    CHECK(astar_search_new(&s, test_alloc, &c) == 0);
    astar_navmesh_query_init(&q);
    for (y = 0; y < h; y++)                  /* cells know their polygons */
      for (x = 0; x < w; x++)
        CHECK(cell[y * w + x] == 0 ? cp[y * w + x] == ASTAR_NONE
                                   : astar_navmesh_locate(m, x + 0.5, y + 0.5) == cp[y * w + x]);
    for (k = 0; k < 20; k++) {
      int sx = rnd(w), sy = rnd(h), gx = rnd(w), gy = rnd(h), rc;
      double want, cost;
      const double *pts;
      if (cell[sy * w + sx] == 0 || cell[gy * w + gx] == 0) continue;
      want = grid_dist(cell, w, h, sx, sy, gx, gy);
      rc = astar_navmesh_find(m, s, &q, sx + 0.5, sy + 0.5, gx + 0.5, gy + 0.5);
      CHECK(rc == (want < HUGE_VAL ? ASTAR_FOUND : ASTAR_NO_PATH));
      if (rc == ASTAR_FOUND) {
        long n = astar_navmesh_result(&q, s, &pts, &cost);
        CHECK(n >= 1 && cost <= want + 1e-9 && cost >= hypot(gx - sx, gy - sy) - 1e-9);
        if (!(cost <= want + 1e-9)) fprintf(stderr, "  %dx%d (%d,%d)->(%d,%d): %g > %g\n",
                                            w, h, sx, sy, gx, gy, cost, want);
        found++;
      }
    }
    (void)found;
    astar_navmesh_query_free(&q);
    astar_search_free(s);
    astar_navmesh_free(m);
    astar_grid_free(g);
    free(cell); free(cp);
  }
  CHECK(c.live == 0);
}

static double same_cost(void *ud, uint32_t poly, uint32_t next, double base) {
  (void)ud; (void)poly; (void)next;
  return base;
}

/* A partial path (params.partial set, the search ended without the goal):
** result and partial agree, it starts at the start and ends no farther from
** the goal; stepped as found. */
static void check_partial(astar_navmesh *m, astar_search *s, astar_navmesh_query *q,
                          double sx, double sy, double gx, double gy) {
  const double *pts = NULL, *pts2 = NULL;
  double cost = -1, cost2 = -2;
  long n, n2;
  int rc = same_stepped(m, s, q, sx, sy, gx, gy);
  if (rc != ASTAR_NO_PATH && rc != ASTAR_LIMIT) return;
  n = astar_navmesh_result(q, s, &pts, &cost);
  n2 = astar_navmesh_partial(q, s, &pts2, &cost2);
  CHECK(n == n2 && (n <= 0 || cost == cost2));
  CHECK(n >= 1 || q->radius > 0);
  if (n >= 1) {
    CHECK(pts[0] == sx && pts[1] == sy && cost >= 0);
    CHECK(hypot(gx - pts[2 * n - 2], gy - pts[2 * n - 1]) <= hypot(gx - sx, gy - sy) + 1e-9);
  }
  q->params.partial = 0;                   /* without it: no path to read */
  rc = astar_navmesh_find(m, s, q, sx, sy, gx, gy);
  CHECK(rc == ASTAR_NO_PATH || rc == ASTAR_LIMIT);
  CHECK(astar_navmesh_result(q, s, &pts, &cost) == 0);
  q->params.partial = 1;
}

/* Time-sliced searches on the L: every budget gives find's path, cost and
** expansions, for the exact search, the portal search, a radius, limits. */
static void test_step(void) {
  counting c = {0, 0, 0};
  static const double xy[] = {0, 0, 1, 0, 2, 0, 0, 1, 1, 1, 2, 1, 0, 2, 1, 2};
  static const int runs[] = {0, 1, 4, 3, -1, 1, 2, 5, 4, -1, 3, 4, 7, 6, -1, -2};
  astar_navmesh *m = NULL;
  astar_search *s = NULL;
  astar_navmesh_query q;
  uint64_t budget;
  int mode;
  CHECK(build(&m, xy, 8, runs, NULL, &c) == 0);
  CHECK(astar_search_new(&s, test_alloc, &c) == 0);
  astar_navmesh_query_init(&q);
  CHECK(astar_navmesh_step(m, s, &q, 1) == ASTAR_ESTATE);      /* nothing begun */
  for (mode = 0; mode < 7; mode++) {
    astar_navmesh_query_init(&q);
    if (mode == 1) astar_navmesh_set_cost(m, 2, 2);              /* portal search */
    if (mode == 2) q.radius = 0.2;
    if (mode == 3) { q.cost_fn = same_cost; q.params.algorithm = ASTAR_ALG_DIJKSTRA; }
    if (mode == 4) q.params.algorithm = ASTAR_ALG_DIJKSTRA;
    if (mode == 5) q.params.weight = 2;
    if (mode == 6) q.params.max_expansions = 1;
    CHECK(same_stepped(m, s, &q, 0.5, 1.6, 1.6, 0.5) == (mode == 6 ? ASTAR_LIMIT : ASTAR_FOUND));
    CHECK(same_stepped(m, s, &q, 0.2, 0.3, 0.7, 0.6) == ASTAR_FOUND);   /* one polygon */
    for (budget = 2; budget < 5; budget++) {
      outcome a, b;
      outcome_of(&q, s, astar_navmesh_find(m, s, &q, 0.5, 1.6, 1.6, 0.5), &a);
      outcome_of(&q, s, stepped(m, s, &q, budget, 0.5, 1.6, 1.6, 0.5), &b);
      CHECK(a.rc == b.rc && a.n == b.n && a.cost == b.cost && a.expanded == b.expanded);
    }
    q.params.partial = 1;
    q.params.max_expansions = 1;
    check_partial(m, s, &q, 0.5, 1.6, 1.6, 0.5);
    q.params.max_expansions = 0;
    check_partial(m, s, &q, 0.5, 1.6, 1.6, 0.5);
    astar_navmesh_set_cost(m, 2, 1);
    astar_navmesh_query_free(&q);
  }
  /* blocked at begin; the query is freed and usable again */
  astar_navmesh_query_init(&q);
  CHECK(astar_navmesh_begin(m, s, &q, 1.5, 1.5, 1.5, 0.5) == ASTAR_BLOCKED && q.blocked == 1);
  {
    const double *pts;
    double cost;
    CHECK(astar_navmesh_result(&q, s, &pts, &cost) == 0);
    CHECK(astar_navmesh_find(m, s, &q, 0.5, 1.6, 1.5, 1.5) == ASTAR_BLOCKED && q.blocked == 2);
    CHECK(astar_navmesh_result(&q, s, &pts, &cost) == 0);
  }
  astar_navmesh_set_flags(m, 0, 0);                            /* the corner closed */
  q.params.partial = 1;
  check_partial(m, s, &q, 0.5, 1.6, 1.6, 0.5);
  q.cost_fn = same_cost;
  check_partial(m, s, &q, 0.5, 1.6, 1.6, 0.5);
  astar_navmesh_query_free(&q);
  astar_search_free(s);
  astar_navmesh_free(m);
  CHECK(c.live == 0);
}

/* Random grid meshes: stepping with budget 1 gives find's outcome for the
** exact search, the portal search (a cost callback) and a radius; partial
** paths after no path and after a limit. */
static void test_step_grid(void) {
  counting c = {0, 0, 0};
  int round;
  for (round = 0; round < 20; round++) {
    int w = 4 + rnd(16), h = 4 + rnd(16), x, y, k;
    astar_grid *g = NULL;
    astar_navmesh *m = NULL;
    astar_search *s = NULL;
    astar_navmesh_query q;
    CHECK(astar_grid_new(&g, w, h, 1, test_alloc, &c) == 0);
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) astar_grid_set(g, x, y, rnd(100) < 30 ? 0 : 1 + (round % 4 == 3));
    CHECK(astar_navmesh_from_grid(&m, g, NULL, NULL, test_alloc, &c) == 0);
    CHECK(astar_search_new(&s, test_alloc, &c) == 0);
    for (k = 0; k < 12; k++) {
      int sx = rnd(w), sy = rnd(h), gx = rnd(w), gy = rnd(h), mode;
      if (astar_grid_get(g, sx, sy) == 0 || astar_grid_get(g, gx, gy) == 0) continue;
      for (mode = 0; mode < 3; mode++) {
        astar_navmesh_query_init(&q);
        if (mode == 1) q.cost_fn = same_cost;
        if (mode == 2) q.radius = 0.25;
        same_stepped(m, s, &q, sx + 0.5, sy + 0.5, gx + 0.5, gy + 0.5);
        q.params.partial = 1;
        check_partial(m, s, &q, sx + 0.5, sy + 0.5, gx + 0.5, gy + 0.5);
        q.params.max_expansions = (uint64_t)rnd(4);
        check_partial(m, s, &q, sx + 0.5, sy + 0.5, gx + 0.5, gy + 0.5);
        astar_navmesh_query_free(&q);
      }
    }
    astar_search_free(s);
    astar_navmesh_free(m);
    astar_grid_free(g);
  }
  CHECK(c.live == 0);
}

/* Every allocation of a time-sliced search and of reading its path fails
** once: the exact search stepped (mode 0), the portal search with a radius
** stepped (1), partial paths after a limit, exact (2) and portal (3). */
static void oom_steps(const double *xy, const int *runs, int mode) {
  long n;
  int done = 0;
  for (n = 1; !done && n < 300; n++) {
    counting c = {0, 0, 0};
    astar_navmesh *m = NULL;
    astar_search *s = NULL;
    astar_navmesh_query q;
    const double *pts;
    double cost;
    long np = 0;
    int rc, want = mode >= 2 ? ASTAR_LIMIT : ASTAR_FOUND;
    CHECK(build(&m, xy, 8, runs, NULL, &c) == 0);
    CHECK(astar_search_new(&s, test_alloc, &c) == 0);
    astar_navmesh_query_init(&q);
    if (mode == 1) q.radius = 0.5;
    if (mode == 3) q.cost_fn = same_cost;
    if (mode >= 2) { q.params.partial = 1; q.params.max_expansions = 2; }
    c.fail_at = c.calls + n;
    rc = stepped(m, s, &q, 1, 1, 7, 7, 1);
    CHECK(rc == want || rc == ASTAR_ENOMEM);
    if (rc == want) {
      np = astar_navmesh_result(&q, s, &pts, &cost);
      CHECK(np >= 1 || np == ASTAR_ENOMEM);
      done = np >= 1 && c.calls < c.fail_at;
    }
    c.fail_at = 0;                            /* usable again afterwards */
    CHECK(stepped(m, s, &q, 1, 1, 7, 7, 1) == want);
    CHECK(astar_navmesh_result(&q, s, &pts, &cost) >= 1);
    astar_navmesh_query_free(&q);
    astar_search_free(s);
    astar_navmesh_free(m);
    CHECK(c.live == 0);
  }
  CHECK(done);
}

/* Every allocation of construction and of find (with a radius) fails once. */
static void test_oom(void) {
  static const double xy[] = {0, 0, 4, 0, 8, 0, 0, 4, 4, 4, 8, 4, 0, 8, 4, 8};
  static const int runs[] = {0, 1, 4, 3, -1, 1, 2, 5, 4, -1, 3, 4, 7, 6, -1, -2};
  long n;
  int done = 0, mode;
  for (n = 1; !done && n < 200; n++) {
    counting c = {0, 0, 0};
    astar_navmesh *m = NULL;
    int rc;
    c.fail_at = n;
    rc = build(&m, xy, 8, runs, NULL, &c);
    CHECK(rc == 0 || rc == ASTAR_ENOMEM);
    if (rc == 0) done = 1;
    astar_navmesh_free(m);
    CHECK(c.live == 0);
  }
  CHECK(done);
  for (done = 0, n = 1; !done && n < 200; n++) {
    counting c = {0, 0, 0};
    astar_navmesh *m = NULL;
    astar_search *s = NULL;
    astar_navmesh_query q;
    const double *pts;
    double cost;
    int rc;
    CHECK(build(&m, xy, 8, runs, NULL, &c) == 0);
    CHECK(astar_search_new(&s, test_alloc, &c) == 0);
    astar_navmesh_query_init(&q);
    q.radius = 0.5;
    c.fail_at = c.calls + n;
    rc = astar_navmesh_find(m, s, &q, 1, 7, 7, 1);
    CHECK(rc == ASTAR_FOUND || rc == ASTAR_ENOMEM);
    if (rc == ASTAR_FOUND) {
      CHECK(astar_navmesh_result(&q, s, &pts, &cost) > 2);
      done = 1;
    }
    c.fail_at = 0;                            /* usable again afterwards */
    CHECK(astar_navmesh_find(m, s, &q, 1, 7, 7, 1) == ASTAR_FOUND);
    astar_navmesh_query_free(&q);
    astar_search_free(s);
    astar_navmesh_free(m);
    CHECK(c.live == 0);
  }
  CHECK(done);
  for (mode = 0; mode < 4; mode++) oom_steps(xy, runs, mode);
  for (done = 0, n = 1; !done && n < 200; n++) {
    counting c = {0, 0, 0};
    astar_grid *g = NULL;
    astar_navmesh *m = NULL;
    astar_frame frame = {2, 2, 0, 0};
    int rc;
    CHECK(astar_grid_new(&g, 9, 7, 1, test_alloc, &c) == 0);
    astar_grid_set(g, 4, 3, 0);
    astar_grid_set(g, 2, 5, 2);
    c.fail_at = c.calls + n;
    rc = astar_navmesh_from_grid(&m, g, &frame, NULL, test_alloc, &c);
    CHECK(rc == 0 || rc == ASTAR_ENOMEM);
    if (rc == 0) {
      CHECK(astar_navmesh_cost(m, astar_navmesh_locate(m, 5, 11)) == 2);
      CHECK(astar_navmesh_locate(m, 9, 7) == ASTAR_NONE);
      done = 1;
    }
    astar_navmesh_free(m);
    astar_grid_free(g);
    CHECK(c.live == 0);
  }
  CHECK(done);
}

int main(void) {
  test_problems();
  test_l_shape();
  test_grid();
  test_step();
  test_step_grid();
  test_oom();
  printf("test_navmesh: %d checks, %d failures\n", checks, failures);
  return failures != 0;
}
