/*
** test_coop.c - the reservation table and the cooperative search of
** src/core/grid_coop.c without Lua: the table against a plain array model
** through thousands of random reserve / hold / take / release operations
** (tombstones, rehashing), conflicts (vertex, swap, holding), the allocator
** failing at every allocation of a table and of a search (nothing leaks, a
** failed take changes nothing), and a passing-bay scenario whose schedule is
** known. The Lua-level checker is spec/cooperative_spec.lua's. Built and run by
** `make ctest` under ASan and UBSan.
*/
#include <string.h>
#include "astar.h"

#include "harness.h"

#define N 6            /* cells 0 .. N-1 on each axis */
#define T 40           /* times 0 .. T-1 */
#define NONE ASTAR_NONE

/* The model: who holds (x, y) at t, and who holds each cell forever from when. */
typedef struct model {
  uint32_t at[N][N][T];
  uint32_t hold[N][N];
  long hold_t[N][N];
} model;

static uint32_t mholder(const model *m, int x, int y, long t) {
  if (m->at[x][y][t] != NONE) return m->at[x][y][t];
  return m->hold[x][y] != NONE && t >= m->hold_t[x][y] ? m->hold[x][y] : NONE;
}

static void mrelease(model *m, uint32_t u) {
  int x, y, t;
  for (x = 0; x < N; x++)
    for (y = 0; y < N; y++) {
      for (t = 0; t < T; t++) if (m->at[x][y][t] == u) m->at[x][y][t] = NONE;
      if (m->hold[x][y] == u) m->hold[x][y] = NONE;
    }
}

static unsigned long seed = 12345;
static int rnd(int n) {
  seed = seed * 6364136223846793005UL + 1442695040888963407UL;
  return (int)((seed >> 33) % (unsigned long)n);
}

static void same(const astar_resv *r, const model *m) {
  int x, y, t, bad = 0;
  for (x = 0; x < N; x++)
    for (y = 0; y < N; y++)
      for (t = 0; t < T + 5; t++)
        if (astar_resv_holder(r, x, y, t) != mholder(m, x, y, t < T ? t : T - 1) &&
            !(t >= T && m->hold[x][y] == NONE))
          bad++;
  CHECK(bad == 0);
}

static void test_model(void) {
  counting c = {0, 0, 0};
  astar_resv *r = NULL;
  model m;
  int i, x, y;
  memset(&m, 0xff, sizeof m);
  for (x = 0; x < N; x++) for (y = 0; y < N; y++) m.hold_t[x][y] = 0;
  CHECK(astar_resv_new(&r, test_alloc, &c) == 0);
  for (i = 0; i < 4000; i++) {
    int op = rnd(10);
    uint32_t u = (uint32_t)rnd(6) + 1;
    if (op < 5) {                               /* take a random walk for u */
      int xy[2 * 12], n = 1 + rnd(12), k, hold = rnd(2);
      long t0 = rnd(T - 12);
      xy[0] = rnd(N); xy[1] = rnd(N);
      for (k = 1; k < n; k++) {
        int nx = xy[2 * k - 2] + rnd(3) - 1, ny = xy[2 * k - 1] + rnd(3) - 1;
        xy[2 * k] = nx < 0 ? 0 : nx >= N ? N - 1 : nx;
        xy[2 * k + 1] = ny < 0 ? 0 : ny >= N ? N - 1 : ny;
      }
      {
        size_t at;
        uint32_t who;
        int ok = astar_resv_check(r, xy, (size_t)n, t0, hold, u, &at, &who) == ASTAR_FOUND;
        int mok = 1;
        for (k = 0; k < n && mok; k++) {        /* the model's verdict */
          uint32_t h = mholder(&m, xy[2 * k], xy[2 * k + 1], t0 + k), v;
          if (h != NONE && h != u) mok = 0;
          if (k > 0 && (xy[2 * k] != xy[2 * k - 2] || xy[2 * k + 1] != xy[2 * k - 1])) {
            v = mholder(&m, xy[2 * k], xy[2 * k + 1], t0 + k - 1);
            if (v != NONE && v != u && mholder(&m, xy[2 * k - 2], xy[2 * k - 1], t0 + k) == v)
              mok = 0;
          }
        }
        if (mok && hold) {
          long t;
          int lx = xy[2 * n - 2], ly = xy[2 * n - 1];
          if (m.hold[lx][ly] != NONE && m.hold[lx][ly] != u) mok = 0;
          for (t = t0 + n; t < T; t++)
            if (m.at[lx][ly][t] != NONE && m.at[lx][ly][t] != u) mok = 0;
        }
        CHECK(ok == mok);
        if (ok) {
          CHECK(astar_resv_take(r, xy, (size_t)n, t0, hold, u) == 0);
          mrelease(&m, u);
          for (k = 0; k < n; k++) m.at[xy[2 * k]][xy[2 * k + 1]][t0 + k] = u;
          if (hold) {
            m.hold[xy[2 * n - 2]][xy[2 * n - 1]] = u;
            m.hold_t[xy[2 * n - 2]][xy[2 * n - 1]] = t0 + n - 1;
          }
        }
      }
    } else if (op < 7) {
      mrelease(&m, u);
      astar_resv_release(r, u);
    } else if (op < 9) {
      int rx = rnd(N), ry = rnd(N), rc;
      long t = rnd(T);
      uint32_t h = mholder(&m, rx, ry, t);
      rc = astar_resv_reserve(r, rx, ry, t, u);
      CHECK((rc == 0) == (h == NONE || h == u));
      if (rc == 0) m.at[rx][ry][t] = u;
    } else if (rnd(20) == 0) {
      astar_resv_clear(r);
      memset(&m, 0xff, sizeof m);
    }
    if (i % 97 == 0) same(r, &m);
  }
  same(r, &m);
  CHECK(astar_resv_reserve(r, 0, 0, -1, 1) == ASTAR_EINVAL);
  CHECK(astar_resv_reserve(r, 0, 0, 0, ASTAR_COOP_UNIT_MAX + 1) == ASTAR_EINVAL);
  astar_resv_free(r);
  CHECK(c.live == 0);
}

/* A take that fails for memory changes nothing; every allocation may fail. */
static void test_oom_table(void) {
  long k;
  int done = 0;
  for (k = 1; !done && k < 10000; k++) {
    counting c = {0, 0, 0};
    astar_resv *r = NULL;
    int xy[2 * 40], i, rc;
    c.fail_at = k;
    for (i = 0; i < 40; i++) { xy[2 * i] = i; xy[2 * i + 1] = 0; }
    rc = astar_resv_new(&r, test_alloc, &c);
    if (rc == 0) rc = astar_resv_take(r, xy, 20, 0, 1, 1);
    if (rc == 0) {
      rc = astar_resv_take(r, xy, 40, 3, 1, 2);
      if (rc == ASTAR_ENOMEM) {               /* unit 1's entries are untouched */
        CHECK(astar_resv_holder(r, 5, 0, 5) == 1 && astar_resv_holder(r, 19, 0, 99) == 1);
        CHECK(astar_resv_holder(r, 39, 0, 42) == NONE);
      }
    }
    CHECK(rc == 0 || rc == ASTAR_ENOMEM);
    done = rc == 0;
    if (done) CHECK(astar_resv_holder(r, 39, 0, 42) == 2 && astar_resv_count(r, NULL) == 60);
    astar_resv_free(r);
    CHECK(c.live == 0);
  }
  CHECK(done);
}

/* The corridor "###.###" over "......." (bay at (3, 0)): unit 1 from (0, 1) to
** (6, 1), then unit 2 from (4, 1) to (0, 1) must step into the bay and wait:
** 6 moves and a wait, cost 7. Returns the status; *cost, *waits. */
static int corridor(astar_alloc fn, counting *c, double *cost, int *waits) {
  astar_grid *g = NULL;
  astar_search *s = NULL, *back = NULL;
  astar_resv *r = NULL;
  astar_coop_query cq;
  const int *xy;
  size_t planned;
  int holds, rc = astar_grid_new(&g, 7, 2, 1, fn, c), x;
  astar_coop_query_init(&cq);
  if (rc == 0) {
    for (x = 0; x < 7; x++) if (x != 3) astar_grid_set(g, x, 0, 0);
    rc = astar_search_new(&s, fn, c);
  }
  if (rc == 0) rc = astar_search_new(&back, fn, c);
  if (rc == 0) rc = astar_resv_new(&r, fn, c);
  cq.alloc = fn; cq.ud = c; cq.back = back; cq.resv = r;
  cq.unit = 1;
  if (rc == 0) rc = astar_coop_begin(g, s, &cq, 0, 1, 6, 1);
  if (rc == 0) rc = astar_search_step(s, UINT64_MAX);
  if (rc == ASTAR_FOUND) {
    long n = astar_coop_path(&cq, s, &xy, &planned, cost, &holds);
    rc = n < 0 ? (int)n : astar_resv_take(r, xy, planned, 0, holds, 1);
  }
  cq.unit = 2;
  if (rc == 0) rc = astar_coop_begin(g, s, &cq, 4, 1, 0, 1);
  if (rc == 0) rc = astar_search_step(s, UINT64_MAX);
  if (rc == ASTAR_FOUND) {
    long n = astar_coop_path(&cq, s, &xy, &planned, cost, &holds), i;
    if (n < 0) rc = (int)n;
    for (i = 1, *waits = 0; i < n; i++)
      if (xy[2 * i] == xy[2 * i - 2] && xy[2 * i + 1] == xy[2 * i - 1]) ++*waits;
    if (n > 0) CHECK(holds && (size_t)n == planned && xy[2 * n - 2] == 0);
  }
  astar_coop_query_free(&cq);
  astar_resv_free(r);
  astar_search_free(back);
  astar_search_free(s);
  astar_grid_free(g);
  return rc;
}

static void test_corridor(void) {
  long k;
  int done = 0, waits = 0;
  double cost = 0;
  counting c = {0, 0, 0};
  CHECK(corridor(test_alloc, &c, &cost, &waits) == ASTAR_FOUND);
  CHECK(cost == 7 && waits == 1 && c.live == 0);
  for (k = 1; !done && k < 100000; k++) {
    counting d = {0, 0, 0};
    int rc;
    d.fail_at = k;
    rc = corridor(test_alloc, &d, &cost, &waits);
    CHECK(rc == ASTAR_FOUND || rc == ASTAR_ENOMEM);
    done = rc == ASTAR_FOUND;
    CHECK(d.live == 0);
  }
  CHECK(done && cost == 7);
}

int main(void) {
  test_model();
  test_oom_table();
  test_corridor();
  if (failures) {
    fprintf(stderr, "test_coop: %d of %d checks failed\n", failures, checks);
    return 1;
  }
  printf("test_coop: %d checks passed\n", checks);
  return 0;
}
