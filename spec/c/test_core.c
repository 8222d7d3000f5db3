/*
** test_core.c - tests of the pure C core, without Lua. Built and run by
** `make ctest` under AddressSanitizer and UndefinedBehaviorSanitizer.
**
** The reference is a plain O(n^2) Dijkstra written here, independent of the
** engine. An allocator that fails its N-th allocation, for every N, checks
** that each failure is reported as ASTAR_ENOMEM, leaks nothing and leaves
** the objects usable.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "astar.h"

#include "harness.h"

/* ---- reference ---- */

static int diag_allowed(int policy, int a, int b) {
  if (policy == ASTAR_DIAG_NO_CORNER_CUTTING) return a && b;
  if (policy == ASTAR_DIAG_ONE_OBSTACLE) return a || b;
  return 1;
}

/* Cheapest cost from (sx, sy) to (gx, gy) on cells[y*w+x] (0 = blocked), or -1. */
static double ref_dijkstra(const double *cells, int w, int h, int sx, int sy,
                           int gx, int gy, int policy) {
  int n = w * h, i, k;
  double *dist = (double *)malloc(sizeof(double) * (size_t)n), res;
  char *done = (char *)calloc((size_t)n, 1);
  for (i = 0; i < n; i++) dist[i] = HUGE_VAL;
  dist[sy * w + sx] = 0;
  for (;;) {
    int u = -1, x, y, dx, dy;
    for (i = 0; i < n; i++)
      if (!done[i] && dist[i] < HUGE_VAL && (u < 0 || dist[i] < dist[u])) u = i;
    if (u < 0) break;
    done[u] = 1;
    x = u % w; y = u / w;
    for (dy = -1; dy <= 1; dy++)
      for (dx = -1; dx <= 1; dx++) {
        int nx = x + dx, ny = y + dy, v;
        double c;
        if ((dx == 0 && dy == 0) || nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
        v = ny * w + nx;
        if (cells[v] <= 0) continue;
        if (dx != 0 && dy != 0) {
          if (policy == ASTAR_DIAG_NEVER) continue;
          if (!diag_allowed(policy, cells[y * w + nx] > 0, cells[ny * w + x] > 0)) continue;
          c = cells[v] * sqrt(2.0);
        } else {
          c = cells[v];
        }
        if (dist[u] + c < dist[v]) dist[v] = dist[u] + c;
      }
  }
  k = gy * w + gx;
  res = dist[k] < HUGE_VAL ? dist[k] : -1;
  free(dist);
  free(done);
  return res;
}

/* ---- helpers ---- */

static unsigned long rng_state = 12345;
static unsigned long rnd(void) {
  rng_state = rng_state * 6364136223846793005UL + 1442695040888963407UL;
  return (rng_state >> 33);
}

static void random_cells(double *cells, int n) {
  static const double costs[] = {1, 1, 1, 2, 3, 0.5, 1.25};
  int i;
  for (i = 0; i < n; i++)
    cells[i] = (rnd() % 100 < 25) ? 0 : costs[rnd() % 7];
}

static astar_grid *grid_from(const double *cells, int w, int h, counting *c) {
  astar_grid *g;
  int x, y;
  if (astar_grid_new(&g, w, h, 1.0, test_alloc, c) != 0) return NULL;
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) astar_grid_set(g, x, y, cells[y * w + x]);
  return g;
}

/* Checks the path the search of prepared query q holds: ends, legal steps
** (between jump points, the cells astar_grid_toward walks), cost. */
static void check_path(astar_grid *g, astar_search *s, const astar_grid_query *q, int sx,
                       int sy, int gx, int gy, int policy, double want) {
  const uint32_t *nodes;
  double cost, sum = 0;
  long n = astar_search_path(s, &nodes, &cost), i = 1, steps = 0;
  int x0, y0, x1, y1, tx, ty;
  CHECK(n >= 1);
  if (n < 1) return;
  astar_grid_cell(g, nodes[0], &x0, &y0);
  CHECK(x0 == sx && y0 == sy);
  for (x1 = x0, y1 = y0; i < n; steps++) {
    int dx, dy;
    astar_grid_cell(g, nodes[i], &tx, &ty);
    astar_grid_toward(q, &x1, &y1, tx, ty);
    if (x1 == tx && y1 == ty) i++;
    CHECK(steps < 4 * 64 * 64);
    if (steps >= 4 * 64 * 64) return;
    dx = abs(x1 - x0); dy = abs(y1 - y0);
    CHECK(dx <= 1 && dy <= 1 && dx + dy > 0);
    CHECK(astar_grid_get(g, x1, y1) > 0);
    if (dx && dy) {
      CHECK(policy != ASTAR_DIAG_NEVER);
      CHECK(diag_allowed(policy, astar_grid_get(g, x1, y0) > 0, astar_grid_get(g, x0, y1) > 0));
      sum += astar_grid_get(g, x1, y1) * sqrt(2.0);
    } else {
      sum += astar_grid_get(g, x1, y1);
    }
    x0 = x1; y0 = y1;
  }
  CHECK(x0 == gx && y0 == gy);
  CHECK(fabs(sum - cost) <= 1e-9 * (1 + cost));
  if (want >= 0) CHECK(fabs(cost - want) <= 1e-9 * (1 + want));
}

/* ---- tests ---- */

static void test_random_against_reference(void) {
  counting c = {0, 0, 0};
  astar_search *s;
  int t;
  CHECK(astar_search_new(&s, test_alloc, &c) == 0);
  for (t = 0; t < 300; t++) {
    int w = 1 + (int)(rnd() % 24), h = 1 + (int)(rnd() % 24);
    double *cells = (double *)malloc(sizeof(double) * (size_t)(w * h));
    int policy = (int)(rnd() % 4), sx, sy, gx, gy, rc, alg;
    astar_grid *g;
    random_cells(cells, w * h);
    sx = (int)(rnd() % (unsigned)w); sy = (int)(rnd() % (unsigned)h);
    gx = (int)(rnd() % (unsigned)w); gy = (int)(rnd() % (unsigned)h);
    cells[sy * w + sx] = 1; cells[gy * w + gx] = 2;
    g = grid_from(cells, w, h, &c);
    CHECK(g != NULL);
    for (alg = ASTAR_ALG_ASTAR; alg <= ASTAR_ALG_DIJKSTRA; alg++) {
      double want = ref_dijkstra(cells, w, h, sx, sy, gx, gy, policy);
      astar_grid_query q;
      astar_grid_query_init(&q);
      q.diagonal = policy;
      q.params.algorithm = alg;
      rc = astar_grid_find(g, s, &q, sx, sy, gx, gy);
      if (want < 0) CHECK(rc == ASTAR_NO_PATH);
      else {
        CHECK(rc == ASTAR_FOUND);
        if (rc == ASTAR_FOUND) check_path(g, s, &q, sx, sy, gx, gy, policy, want);
      }
    }
    astar_grid_free(g);
    free(cells);
  }
  astar_search_free(s);
  CHECK(c.live == 0);
}

/* Stepping with a budget of 1 gives the same result as one run. */
static void test_stepping(void) {
  counting c = {0, 0, 0};
  double cells[30 * 20];
  astar_grid *g;
  astar_search *s;
  astar_grid_query q;
  uint32_t st, go;
  int rc, steps = 0;
  astar_stats a;
  random_cells(cells, 30 * 20);
  cells[0] = 1; cells[30 * 20 - 1] = 1;
  g = grid_from(cells, 30, 20, &c);
  CHECK(astar_search_new(&s, test_alloc, &c) == 0);
  astar_grid_query_init(&q);
  rc = astar_grid_prepare(g, &q, 0, 0, 29, 19, &st, &go);
  CHECK(rc == 0);
  CHECK(astar_search_begin(s, &q.domain, st, go, &q.params) == 0);
  while ((rc = astar_search_step(s, 1)) == ASTAR_RUNNING) steps++;
  astar_search_stats(s, &a);
  CHECK((uint64_t)steps == a.expanded || (uint64_t)steps + 1 == a.expanded);
  {
    double want = ref_dijkstra(cells, 30, 20, 0, 0, 29, 19, ASTAR_DIAG_NO_CORNER_CUTTING);
    if (want < 0) CHECK(rc == ASTAR_NO_PATH);
    else { CHECK(rc == ASTAR_FOUND); check_path(g, s, &q, 0, 0, 29, 19, 0, want); }
  }
  CHECK(astar_search_step(s, 5) == rc);   /* finished searches stay finished */
  astar_search_free(s);
  astar_grid_free(g);
  CHECK(c.live == 0);
}

/* Limits, partial paths, blocked ends, bad arguments. */
static void test_limits(void) {
  counting c = {0, 0, 0};
  astar_grid *g;
  astar_search *s;
  astar_grid_query q;
  astar_stats st;
  const uint32_t *nodes;
  double cost;
  long n;
  int x, y;
  CHECK(astar_grid_new(&g, 40, 40, 1.0, test_alloc, &c) == 0);
  CHECK(astar_search_new(&s, test_alloc, &c) == 0);
  astar_grid_fill(g, 30, 0, 1, 40, 0.0);          /* a wall: the goal side is cut off */
  astar_grid_query_init(&q);
  q.jump = 0;                                      /* cell by cell: 50 expansions */
  q.params.max_expansions = 50;
  CHECK(astar_grid_find(g, s, &q, 0, 0, 39, 39) == ASTAR_LIMIT);
  astar_search_stats(s, &st);
  CHECK(st.expanded == 50);
  CHECK(astar_search_path(s, &nodes, &cost) == 0);
  astar_grid_query_init(&q);
  q.params.partial = 1;
  CHECK(astar_grid_find(g, s, &q, 0, 0, 39, 39) == ASTAR_NO_PATH);
  n = astar_search_path(s, &nodes, &cost);
  CHECK(n > 0);
  astar_grid_cell(g, nodes[n - 1], &x, &y);
  CHECK(x == 29 && y == 39);                       /* the closest cell to the goal */
  astar_grid_query_init(&q);
  q.params.max_cost = 5;
  CHECK(astar_grid_find(g, s, &q, 0, 0, 20, 0) == ASTAR_LIMIT);
  astar_grid_query_init(&q);
  CHECK(astar_grid_find(g, s, &q, 0, 0, 30, 5) == ASTAR_BLOCKED);
  CHECK(astar_grid_find(g, s, &q, 0, 0, 40, 5) == ASTAR_EINVAL);
  astar_grid_query_init(&q);
  q.params.weight = 0.5;
  CHECK(astar_grid_find(g, s, &q, 0, 0, 3, 3) == ASTAR_EINVAL);
  astar_grid_query_init(&q);
  CHECK(astar_grid_find(g, s, &q, 3, 3, 3, 3) == ASTAR_FOUND);
  CHECK(astar_search_path(s, &nodes, &cost) == 1 && cost == 0);
  {
    astar_grid *bad = NULL;
    CHECK(astar_grid_new(&bad, 0, 5, 1.0, test_alloc, &c) == ASTAR_EINVAL);
    CHECK(astar_grid_new(&bad, 1 << 15, 1 << 15, 1.0, test_alloc, &c) == ASTAR_EINVAL);
    CHECK(astar_grid_new(&bad, 5, 5, -1.0, test_alloc, &c) == ASTAR_EINVAL);
    CHECK(bad == NULL);
  }
  astar_search_free(s);
  astar_grid_free(g);
  CHECK(c.live == 0);
}

/* A snapshot has the version of its grid and the log of the edits before
** it: astar_grid_changes answers for it as for the grid. */
static void test_snapshot_log(void) {
  counting c = {0, 0, 0};
  astar_grid *g, *s;
  astar_rect a[ASTAR_GRID_LOG], b[ASTAR_GRID_LOG];
  long n, i;
  int k;
  CHECK(astar_grid_new(&g, 20, 20, 1.0, test_alloc, &c) == 0);
  for (k = 0; k < 5; k++) astar_grid_fill(g, k, 2 * k, 1 + k, 3, k % 2 ? 0 : 2);
  CHECK(astar_grid_snapshot(&s, g) == 0);
  CHECK(astar_grid_version(s) == astar_grid_version(g));
  n = astar_grid_changes(g, astar_grid_version(g) - 5, a);
  CHECK(n == 5 && astar_grid_changes(s, astar_grid_version(s) - 5, b) == 5);
  for (i = 0; i < n; i++)
    CHECK(a[i].x == b[i].x && a[i].y == b[i].y && a[i].w == b[i].w && a[i].h == b[i].h);
  CHECK(b[4].x == 4 && b[4].y == 8 && b[4].w == 5 && b[4].h == 3);
  astar_grid_free(s);
  astar_grid_free(g);
  CHECK(c.live == 0);
}

/* A warm context allocates nothing more. */
static void test_warm_allocs(void) {
  counting c = {0, 0, 0};
  astar_grid *g;
  astar_search *s;
  astar_grid_query q;
  astar_stats a, b;
  int i;
  CHECK(astar_grid_new(&g, 64, 64, 1.0, test_alloc, &c) == 0);
  CHECK(astar_search_new(&s, test_alloc, &c) == 0);
  astar_grid_query_init(&q);
  CHECK(astar_grid_find(g, s, &q, 0, 0, 63, 63) == ASTAR_FOUND);
  { const uint32_t *nd; double cost; CHECK(astar_search_path(s, &nd, &cost) > 0); }
  astar_search_stats(s, &a);
  for (i = 0; i < 100; i++) {
    const uint32_t *nd;
    double cost;
    astar_grid_query_init(&q);
    CHECK(astar_grid_find(g, s, &q, i % 64, 0, 63 - i % 64, 63) == ASTAR_FOUND);
    CHECK(astar_search_path(s, &nd, &cost) > 0);
  }
  astar_search_stats(s, &b);
  CHECK(a.allocs == b.allocs);
  astar_search_free(s);
  astar_grid_free(g);
  CHECK(c.live == 0);
}

/* Fail the N-th allocation for every N until a whole run succeeds; cell by
** cell (jump 0), then jumping (1: the walkability bits, growing successor
** lists), then with prepared jumps (2: their tables). */
static void test_oom(int jump) {
  long n;
  double cells[50 * 50], want;
  int i;
  for (i = 0; i < 50 * 50; i++) cells[i] = (i / 50 == 25 && i % 50 >= 5 && i % 50 < 45) ? 0 : 1;
  want = ref_dijkstra(cells, 50, 50, 25, 0, 25, 49, ASTAR_DIAG_NO_CORNER_CUTTING);
  for (n = 1; ; n++) {
    counting c = {0, 0, 0};
    astar_grid *g = NULL, *copy = NULL;
    astar_search *s = NULL;
    astar_grid_query q;
    int rc, failed = 0, x;
    c.fail_at = n;
    rc = astar_grid_new(&g, 50, 50, 1.0, test_alloc, &c);
    if (rc != 0) { CHECK(rc == ASTAR_ENOMEM && g == NULL); failed = 1; goto done; }
    for (x = 5; x < 45; x++) astar_grid_set(g, x, 25, 0.0);
    rc = astar_search_new(&s, test_alloc, &c);
    if (rc != 0) { CHECK(rc == ASTAR_ENOMEM && s == NULL); failed = 1; goto done; }
    if (jump == 2) {
      rc = astar_grid_prepare_jumps(g, ASTAR_DIAG_NO_CORNER_CUTTING);
      if (rc != 0) {
        CHECK(rc == ASTAR_ENOMEM && astar_grid_prepared(g, ASTAR_DIAG_NO_CORNER_CUTTING) == 0);
        failed = 1;
        c.fail_at = 0;
        CHECK(astar_grid_prepare_jumps(g, ASTAR_DIAG_NO_CORNER_CUTTING) == 0);
      }
    }
    astar_grid_query_init(&q);
    q.jump = jump != 0;
    rc = astar_grid_find(g, s, &q, 25, 0, 25, 49);
    if (rc == ASTAR_ENOMEM) {
      failed = 1;
      /* the context stays usable: retry without failures */
      c.fail_at = 0;
      astar_grid_query_init(&q);
      q.jump = jump != 0;
      rc = astar_grid_find(g, s, &q, 25, 0, 25, 49);
    }
    CHECK(q.jps == jump);
    CHECK(rc == ASTAR_FOUND);
    if (rc == ASTAR_FOUND) {
      const uint32_t *nd;
      double cost;
      long len = astar_search_path(s, &nd, &cost);
      if (len == ASTAR_ENOMEM) {
        failed = 1;
        c.fail_at = 0;
        len = astar_search_path(s, &nd, &cost);
      }
      CHECK(len > 0);
      CHECK(fabs(cost - want) < 1e-9);
    }
    rc = astar_grid_clone(&copy, g);
    if (rc != 0) { CHECK(rc == ASTAR_ENOMEM && copy == NULL); failed = 1; }
  done:
    astar_grid_free(copy);
    astar_search_free(s);
    astar_grid_free(g);
    CHECK(c.live == 0);
    if (!failed) break;
  }
  printf("oom (jump %d): failed each of the first %ld allocations in turn\n", jump, n - 1);
}

/* Jump point search on random grids of one cost, every policy (JPS+ on
** every other grid): the reference's cost, legal steps, stepping, and the
** bits following edits; then on two costs, with the tables if prepared. */
static void test_jps(void) {
  counting c = {0, 0, 0};
  astar_search *s;
  int t;
  CHECK(astar_search_new(&s, test_alloc, &c) == 0);
  for (t = 0; t < 400; t++) {
    int w = 1 + (int)(rnd() % 40), h = 1 + (int)(rnd() % 40), i, k;
    int policy = (int)(rnd() % 4), sx, sy, gx, gy, rc;
    double cost = (double)(1 + rnd() % 3), *cells = malloc(sizeof(double) * (size_t)(w * h));
    unsigned dens = (unsigned)(rnd() % 50);
    astar_grid *g;
    for (i = 0; i < w * h; i++) cells[i] = rnd() % 100 < dens ? 0 : cost;
    int prepared = t % 2;
    g = grid_from(cells, w, h, &c);
    CHECK(g != NULL);
    if (prepared) {                      /* JPS+, under any policy */
      CHECK(astar_grid_prepare_jumps(g, policy) == 0);
      CHECK(astar_grid_prepared(g, policy) == (size_t)(w + 2) * (size_t)(h + 2) *
            (policy == ASTAR_DIAG_NEVER ? 8u : 16u));
    }
    for (k = 0; k < 4; k++) {
      double want;
      astar_grid_query q;
      uint32_t st, go;
      if (k == 2) {                      /* an edit after the bits were built */
        int x = (int)(rnd() % (unsigned)w), y = (int)(rnd() % (unsigned)h);
        cells[y * w + x] = cells[y * w + x] > 0 ? 0 : cost;
        astar_grid_set(g, x, y, cells[y * w + x]);
      }
      sx = (int)(rnd() % (unsigned)w); sy = (int)(rnd() % (unsigned)h);
      gx = (int)(rnd() % (unsigned)w); gy = (int)(rnd() % (unsigned)h);
      want = ref_dijkstra(cells, w, h, sx, sy, gx, gy, policy);
      astar_grid_query_init(&q);
      q.diagonal = policy;
      rc = astar_grid_find(g, s, &q, sx, sy, gx, gy);
      if (rc == ASTAR_BLOCKED) { CHECK(cells[sy * w + sx] <= 0 || cells[gy * w + gx] <= 0); continue; }
      CHECK(q.jps == (prepared ? 2 : 1));
      if (want < 0) { CHECK(rc == ASTAR_NO_PATH); continue; }
      CHECK(rc == ASTAR_FOUND);
      if (rc == ASTAR_FOUND) check_path(g, s, &q, sx, sy, gx, gy, policy, want);
      /* stepping one jump point at a time ends the same */
      astar_grid_query_init(&q);
      q.diagonal = policy;
      CHECK(astar_grid_prepare(g, &q, sx, sy, gx, gy, &st, &go) == 0);
      CHECK(astar_search_begin(s, &q.domain, st, go, &q.params) == 0);
      while ((rc = astar_search_step(s, 1)) == ASTAR_RUNNING) {}
      CHECK(rc == ASTAR_FOUND);
      if (rc == ASTAR_FOUND) check_path(g, s, &q, sx, sy, gx, gy, policy, want);
    }
    for (i = 1, k = 0; i < w * h; i++) k |= cells[i] > 0;
    if (k) {                             /* two costs: the tables stop at boundaries */
      astar_grid_query q;
      double want;
      cells[0] = cost + 1;
      astar_grid_set(g, 0, 0, cost + 1);
      want = ref_dijkstra(cells, w, h, 0, 0, w - 1, h - 1, policy);
      astar_grid_query_init(&q);
      q.diagonal = policy;
      rc = astar_grid_find(g, s, &q, 0, 0, w - 1, h - 1);
      CHECK(q.jps == 0 || q.jps == (prepared ? 4 : 3));   /* auto: by the boundary share */
      if (rc == ASTAR_FOUND) check_path(g, s, &q, 0, 0, w - 1, h - 1, policy, want);
      else CHECK(want < 0 || rc == ASTAR_BLOCKED);
    }
    astar_grid_free(g);
    free(cells);
  }
  astar_search_free(s);
  CHECK(c.live == 0);
}

/* Jump point search between cost boundaries on random grids of several
** costs (noise or patches), asked for by name, against the reference; and
** after cost edits, which move the boundaries. */
static void test_jps_weighted(void) {
  counting c = {0, 0, 0};
  astar_search *s;
  int t;
  CHECK(astar_search_new(&s, test_alloc, &c) == 0);
  for (t = 0; t < 300; t++) {
    int w = 1 + (int)(rnd() % 40), h = 1 + (int)(rnd() % 40), i, k;
    int policy = (int)(rnd() % 4);
    double *cells = malloc(sizeof(double) * (size_t)(w * h));
    astar_grid *g;
    for (i = 0; i < w * h; i++) {
      int x = i % w, y = i / w;
      cells[i] = rnd() % 100 < 20 ? 0 : t % 2 ? (double)(1 + rnd() % 3)
                                             : (x / 5 + y / 7) % 3 == 0 ? 4.0 : 1.0;
    }
    g = grid_from(cells, w, h, &c);
    CHECK(g != NULL);
    for (k = 0; k < 4; k++) {
      int sx = (int)(rnd() % (unsigned)w), sy = (int)(rnd() % (unsigned)h);
      int gx = (int)(rnd() % (unsigned)w), gy = (int)(rnd() % (unsigned)h), rc;
      double want;
      astar_grid_query q;
      if (k >= 2) {                      /* a cost edit after the bits were built */
        int x = (int)(rnd() % (unsigned)w), y = (int)(rnd() % (unsigned)h);
        cells[y * w + x] = (double)(rnd() % 4);
        astar_grid_set(g, x, y, cells[y * w + x]);
      }
      want = ref_dijkstra(cells, w, h, sx, sy, gx, gy, policy);
      astar_grid_query_init(&q);
      q.diagonal = policy;
      q.jump = ASTAR_JUMP_ALWAYS;
      rc = astar_grid_find(g, s, &q, sx, sy, gx, gy);
      if (rc == ASTAR_BLOCKED) continue;
      CHECK(q.jps != 0);
      if (want < 0) { CHECK(rc == ASTAR_NO_PATH); continue; }
      CHECK(rc == ASTAR_FOUND);
      if (rc == ASTAR_FOUND) check_path(g, s, &q, sx, sy, gx, gy, policy, want);
    }
    astar_grid_free(g);
    free(cells);
  }
  astar_search_free(s);
  CHECK(c.live == 0);
}

/* D* Lite against the reference over random edits, then each allocation failed. */
static void test_dstar(void) {
  counting c = {0, 0, 0};
  int t;
  for (t = 0; t < 40; t++) {
    int w = 8 + (int)(rnd() % 16), h = 8 + (int)(rnd() % 16), step;
    int policy = (int)(rnd() % 4), sx, sy, gx, gy;
    double *cells = (double *)malloc(sizeof(double) * (size_t)(w * h));
    astar_grid *g;
    astar_dstar *d;
    uint32_t *buf = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)((w + 2) * (h + 2)));
    random_cells(cells, w * h);
    sx = (int)(rnd() % (unsigned)w); sy = (int)(rnd() % (unsigned)h);
    gx = (int)(rnd() % (unsigned)w); gy = (int)(rnd() % (unsigned)h);
    cells[sy * w + sx] = 1; cells[gy * w + gx] = 1;
    g = grid_from(cells, w, h, &c);
    CHECK(astar_dstar_new(&d, g, sx, sy, gx, gy, policy, test_alloc, &c) == 0);
    for (step = 0; step < 20; step++) {
      double want = ref_dijkstra(cells, w, h, sx, sy, gx, gy, policy), cost;
      int why, k;
      long n;
      CHECK(astar_dstar_compute(d) == 0);
      n = astar_dstar_path(d, buf, (size_t)((w + 2) * (h + 2)), &cost, &why);
      if (want < 0) CHECK(n == 0 && why == ASTAR_NO_PATH);
      else CHECK(n > 0 && fabs(cost - want) <= 1e-9 * (1 + want));
      if (n > 2 && rnd() % 2) {                      /* the agent steps on */
        astar_grid_cell(g, buf[1], &sx, &sy);
        astar_dstar_move(d, sx, sy);
      }
      for (k = 0; k < 3; k++) {                      /* and the map changes */
        int x = (int)(rnd() % (unsigned)w), y = (int)(rnd() % (unsigned)h);
        double v = (rnd() % 3 == 0) ? 0 : 1 + (double)(rnd() % 3);
        if ((x == sx && y == sy) || (x == gx && y == gy)) continue;
        cells[y * w + x] = v;
        astar_grid_set(g, x, y, v);
      }
    }
    astar_dstar_free(d);
    astar_grid_free(g);
    free(cells);
    free(buf);
  }
  CHECK(c.live == 0);
  {
    long n;
    for (n = 1; ; n++) {
      counting f = {0, 0, 0};
      astar_grid *g;
      astar_dstar *d = NULL;
      int rc, failed = 0;
      CHECK(astar_grid_new(&g, 30, 30, 1.0, test_alloc, &f) == 0);
      f.fail_at = f.calls + n;
      rc = astar_dstar_new(&d, g, 0, 0, 29, 29, 0, test_alloc, &f);
      if (rc != 0) { CHECK(rc == ASTAR_ENOMEM && d == NULL); failed = 1; }
      else {
        rc = astar_dstar_compute(d);
        if (rc != 0) { CHECK(rc == ASTAR_ENOMEM); failed = 1; f.fail_at = 0;
                       CHECK(astar_dstar_compute(d) == 0); }
      }
      astar_dstar_free(d);
      astar_grid_free(g);
      CHECK(f.live == 0);
      if (!failed) break;
    }
  }
}

/* astar_grid_taut: a path round the end of a wall comes out as the string
** round the wall's two corners (lengths worked out by hand); what is not a
** path of king's moves, or a diagonal no line may take, is refused; the
** scratch stays with the grid (no allocation when warm, none left after). */
static void test_taut(void) {
  static const int P[][2] = {{0, 5}, {1, 4}, {2, 3}, {3, 2}, {4, 1}, {5, 0}, {6, 1}, {7, 2},
                             {8, 3}, {9, 4}, {10, 5}, {11, 5}};
  const int n = (int)(sizeof P / sizeof P[0]);
  double v[2 * 12], len = 0, want = sqrt(2 * 4.5 * 4.5) + 1 + sqrt(5.5 * 5.5 + 4.5 * 4.5);
  const double *pts;
  counting c = {0, 0, 0};
  astar_grid *g;
  size_t k, i;
  long calls;
  int y;
  CHECK(astar_grid_new(&g, 12, 12, 1.0, test_alloc, &c) == 0);
  for (y = 1; y <= 10; y++) astar_grid_set(g, 5, y, 0);
  for (i = 0; i < (size_t)n; i++) { v[2 * i] = P[i][0] + 0.5; v[2 * i + 1] = P[i][1] + 0.5; }
  k = astar_grid_taut(g, v, (size_t)n, 0, &pts);
  CHECK(k == 4);
  for (i = 1; i < k; i++) len += hypot(pts[2 * i] - pts[2 * i - 2], pts[2 * i + 1] - pts[2 * i - 1]);
  CHECK(fabs(len - want) < 1e-6);
  CHECK(k == 4 && fabs(pts[2] - 5) < 1e-6 && fabs(pts[3] - 1) < 1e-6);   /* the wall's end */
  CHECK(k == 4 && fabs(pts[4] - 6) < 1e-6 && fabs(pts[5] - 1) < 1e-6);
  calls = c.calls;
  CHECK(astar_grid_taut(g, v, (size_t)n, 0, &pts) == 4 && c.calls == calls);   /* warm */
  v[2 * 6] += 1;                                   /* a jump of two cells */
  CHECK(astar_grid_taut(g, v, (size_t)n, 0, &pts) == 0);
  v[2 * 6] -= 1;
  astar_grid_set(g, 4, 0, 0);                      /* (4, 1) -> (5, 0) between two walls */
  CHECK(astar_grid_taut(g, v, (size_t)n, 0, &pts) == 0);
  astar_grid_free(g);
  CHECK(c.live == 0);
  c.calls = 0; c.fail_at = 3;                      /* grid, cells, then the scratch */
  CHECK(astar_grid_new(&g, 12, 12, 1.0, test_alloc, &c) == 0);
  CHECK(astar_grid_taut(g, v, (size_t)n, 0, &pts) == 0);
  CHECK(astar_grid_taut(g, v, (size_t)n, 0, &pts) == 2);   /* no walls: straight */
  astar_grid_free(g);
  CHECK(c.live == 0);
}

int main(void) {
  test_random_against_reference();
  test_stepping();
  test_limits();
  test_warm_allocs();
  test_snapshot_log();
  test_jps();
  test_jps_weighted();
  test_oom(0);
  test_oom(1);
  test_oom(2);
  test_dstar();
  test_taut();
  printf("%d passed, %d failed\n", checks - failures, failures);
  return failures != 0;
}
