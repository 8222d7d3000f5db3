/*
** test_dir.c - Directional A* (src/core/grid_dir.c) without Lua: parameters
** refused, the allocator failing at every allocation of a lattice and of a
** search (nothing leaks, the objects stay usable), and searches whose cost is
** known in closed form (the independent lattice reference is
** spec/directional_spec.lua's), and the proof that no path exists. Built and run by `make ctest` under ASan and
** UBSan.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "astar.h"

#include "harness.h"

#define PI 3.141592653589793

static void test_params(void) {
  counting c = {0, 0, 0};
  astar_dir_params p;
  astar_lattice *l = NULL;
  astar_dir_params_init(&p);
  p.turn = 0;
  CHECK(astar_lattice_new(&l, &p, test_alloc, &c) == ASTAR_EINVAL && l == NULL);
  astar_dir_params_init(&p);
  p.headings = 12;
  CHECK(astar_lattice_new(&l, &p, test_alloc, &c) == ASTAR_EINVAL);
  astar_dir_params_init(&p);
  p.reach = 4;
  CHECK(astar_lattice_new(&l, &p, test_alloc, &c) == ASTAR_EINVAL);
  astar_dir_params_init(&p);
  p.reverse = 0.5;
  CHECK(astar_lattice_new(&l, &p, test_alloc, &c) == ASTAR_EINVAL);
  astar_dir_params_init(&p);
  p.radius = NAN;
  CHECK(astar_lattice_new(&l, &p, test_alloc, &c) == ASTAR_EINVAL);
  CHECK(c.live == 0);
}

/* A search on an open 20 x 9 grid from (2, 4) facing east to (15, 4)
** facing east: the straight line, 13 cells. Returns the status. */
static int straight(astar_alloc fn, counting *c, const astar_lattice *l, double *cost) {
  astar_grid *g = NULL;
  astar_search *s = NULL, *back = NULL;
  astar_dir_query q;
  uint32_t goal;
  const uint32_t *nodes;
  int rc = astar_grid_new(&g, 20, 9, 1, fn, c);
  if (rc == 0) rc = astar_search_new(&s, fn, c);
  if (rc == 0) rc = astar_search_new(&back, fn, c);
  astar_dir_query_init(&q);
  q.back = back;
  if (rc == 0) rc = astar_dir_prepare(g, l, &q, 2, 4, 0, 15, 4, 0, &goal);
  if (rc == 0) rc = astar_dir_begin(s, &q, goal);
  if (rc == 0) rc = astar_search_step(s, UINT64_MAX);
  if (rc == ASTAR_FOUND) {
    long n = astar_search_path(s, &nodes, cost);
    if (n < 0) rc = (int)n;
  }
  astar_search_free(back);
  astar_search_free(s);
  astar_grid_free(g);
  return rc;
}

static void test_oom(void) {
  astar_dir_params p;
  long k;
  int done = 0;
  astar_dir_params_init(&p);
  p.turn = 1.5;
  p.radius = 0.3;
  p.reach = 2;
  p.reverse = 2;
  for (k = 1; !done && k < 100000; k++) {     /* the lattice */
    counting c = {0, 0, 0};
    astar_lattice *l = NULL;
    int rc;
    c.fail_at = k;
    rc = astar_lattice_new(&l, &p, test_alloc, &c);
    CHECK(rc == 0 || (rc == ASTAR_ENOMEM && l == NULL));
    done = rc == 0;
    astar_lattice_release(l);
    CHECK(c.live == 0);
  }
  CHECK(done);
  {
    counting c = {0, 0, 0};
    astar_lattice *l = NULL;
    double cost = 0;
    CHECK(astar_lattice_new(&l, &p, test_alloc, &c) == 0);
    for (done = 0, k = 1; !done && k < 100000; k++) {   /* a search */
      counting d = {0, 0, 0};
      int rc;
      d.fail_at = k;
      rc = straight(test_alloc, &d, l, &cost);
      CHECK(rc == ASTAR_FOUND || rc == ASTAR_ENOMEM);
      done = rc == ASTAR_FOUND;
      CHECK(d.live == 0);
    }
    CHECK(done && fabs(cost - 13) < 1e-9);
    astar_lattice_retain(l);
    astar_lattice_release(l);
    CHECK(c.live > 0);                        /* one reference left */
    astar_lattice_release(l);
    CHECK(c.live == 0);
  }
}

static void test_known(void) {
  counting c = {0, 0, 0};
  astar_dir_params p;
  astar_lattice *l = NULL;
  astar_grid *g = NULL;
  astar_search *s = NULL;
  astar_dir_query q;
  astar_curve cv;
  uint32_t goal;
  const uint32_t *nodes;
  double cost, x, y, h;
  long n;
  int dir;
  astar_dir_params_init(&p);
  p.turn = 2;
  p.reverse = 1;
  p.reach = 1;                        /* three moves of one cell */
  CHECK(astar_lattice_new(&l, &p, test_alloc, &c) == 0);
  CHECK(astar_grid_new(&g, 12, 5, 1, test_alloc, &c) == 0);
  CHECK(astar_search_new(&s, test_alloc, &c) == 0);
  /* straight back: facing east, the goal three cells west, facing east */
  astar_dir_query_init(&q);
  CHECK(astar_dir_prepare(g, l, &q, 6, 2, 0, 3, 2, 0, &goal) == 0);
  CHECK(astar_dir_begin(s, &q, goal) == 0);
  CHECK(astar_search_step(s, UINT64_MAX) == ASTAR_FOUND);
  n = astar_search_path(s, &nodes, &cost);
  CHECK(n == 4 && fabs(cost - 3) < 1e-9);
  CHECK(astar_dir_step(&q, nodes[0], nodes[1], &cv, &dir) >= 0 && dir == -1);
  astar_curve_sample(&cv, cv.length, &x, &y, &h);
  CHECK(fabs(x - 5.5) < 1e-9 && fabs(y - 2.5) < 1e-9 && fabs(h) < 1e-9);   /* still facing east */
  /* an end that does not fit, and a heading off the lattice kept exactly */
  astar_grid_set(g, 3, 2, 0);
  CHECK(astar_dir_prepare(g, l, &q, 6, 2, 0, 3, 2, 0, &goal) == ASTAR_BLOCKED && q.blocked == 2);
  CHECK(astar_dir_prepare(g, l, &q, 6, 2, 0.3, 9, 2, NAN, &goal) == 0);
  CHECK(astar_dir_begin(s, &q, goal) == 0);
  CHECK(astar_search_step(s, UINT64_MAX) == ASTAR_FOUND);
  n = astar_search_path(s, &nodes, &cost);
  astar_dir_pose(&q, nodes[0], &x, &y, &h);
  CHECK(n >= 2 && h == 0.3);
  CHECK(astar_dir_prepare(g, l, &q, 12, 2, 0, 3, 2, 0, &goal) == ASTAR_EINVAL);
  astar_search_free(s);
  astar_grid_free(g);
  astar_lattice_release(l);
  CHECK(c.live == 0);
}

/* One search of test_reach: its status, cost and expansions; with the
** proof that no path exists as eager as it gets (growing from the first
** expansion, as large as the expansions) or without it (m->reach NULL). */
typedef struct outcome { int rc, gave_up; double cost; uint64_t expanded; } outcome;

static outcome reach_run(astar_grid *g, const astar_lattice *l, astar_search *s,
                         astar_search *back, astar_dir_seen *m, int eager, const int *ends,
                         double sh, double gh) {
  astar_dir_query q;
  astar_stats st;
  outcome o = {0, 0, 0, 0};
  uint32_t goal;
  const uint32_t *nodes;
  uint16_t *reach = m->reach;
  astar_dir_query_init(&q);
  q.back = back;
  q.seen = m;
  q.reach_first = 1;
  q.reach_share = 1;
  if (!eager) m->reach = NULL;
  o.rc = astar_dir_prepare(g, l, &q, ends[0], ends[1], sh, ends[2], ends[3], gh, &goal);
  if (o.rc == 0) o.rc = astar_dir_begin(s, &q, goal);
  if (o.rc == 0) o.rc = astar_search_step(s, UINT64_MAX);
  if (o.rc == ASTAR_FOUND) CHECK(astar_search_path(s, &nodes, &o.cost) > 0);
  astar_search_stats(s, &st);
  o.expanded = st.expanded;
  o.gave_up = eager && q.reach == 0 && q.reach_at > 1;
  m->reach = reach;
  return o;
}

/* The proof that no path exists (astar_dir_begin): on random maps, with it
** as eager as can be, every search ends as it does without it (the search
** that directional_spec.lua checks against an independent one), and it
** ends searches early, and gives up on meeting a start, many times. */
static void test_reach(void) {
  static const double turn[4] = {1, 1.5, 1, 2}, radius[4] = {0, 0.3, 0, 0};
  static const double reverse[4] = {0, 2, 0, 1.5};
  static const int reach[4] = {1, 1, 2, 1};
  counting c = {0, 0, 0};
  astar_search *s = NULL, *back = NULL;
  astar_dir_seen m;
  uint64_t rng = 20261127;
  int v, trial, proved = 0, gave_up = 0, none = 0, found = 0;
  memset(&m, 0, sizeof m);
  m.cells = 16 * 16;
  m.rcap = ASTAR_DIR_REACH_CAP;
  m.gen = (uint16_t *)calloc(m.cells, sizeof *m.gen);
  m.g = (float *)calloc(m.cells * 16, sizeof *m.g);
  m.reach = (uint16_t *)calloc(m.cells, sizeof *m.reach);
  m.rq = (uint32_t *)calloc(m.rcap, sizeof *m.rq);
  CHECK(m.gen && m.g && m.reach && m.rq);
  CHECK(astar_search_new(&s, test_alloc, &c) == 0 && astar_search_new(&back, test_alloc, &c) == 0);
  for (v = 0; v < 4; v++) {
    astar_dir_params p;
    astar_lattice *l = NULL;
    astar_dir_params_init(&p);
    p.turn = turn[v]; p.radius = radius[v]; p.reverse = reverse[v]; p.reach = reach[v];
    CHECK(astar_lattice_new(&l, &p, test_alloc, &c) == 0);
    for (trial = 0; trial < 150 && l != NULL; trial++) {
      astar_grid *g = NULL;
      int w, h, x, y, k, ends[4];
      double sh, gh, density;
#define RND(n) ((int)((rng = rng * 6364136223846793005ULL + 1442695040888963407ULL) >> 33) % (n))
      w = 6 + RND(11); h = 6 + RND(11);
      density = 0.1 + 0.05 * RND(7);
      CHECK(astar_grid_new(&g, w, h, 1, test_alloc, &c) == 0);
      for (y = 0; y < h; y++)
        for (x = 0; x < w; x++)
          if (RND(1000) < density * 1000) astar_grid_set(g, x, y, 0);
      for (k = 0; k < 4; k++) ends[k] = RND(k % 2 ? h : w);
      astar_grid_set(g, ends[0], ends[1], 1);
      astar_grid_set(g, ends[2], ends[3], 1);
      sh = RND(3) ? NAN : RND(8) * PI / 4;
      gh = RND(3) ? NAN : RND(8) * PI / 4;
      {
        outcome a = reach_run(g, l, s, back, &m, 1, ends, sh, gh);
        outcome b = reach_run(g, l, s, back, &m, 0, ends, sh, gh);
        CHECK(a.rc == b.rc && a.cost == b.cost);
        if (a.rc != b.rc || a.cost != b.cost)
          fprintf(stderr, "lattice %d, trial %d: %d (%g) with the proof, %d (%g) without\n", v,
                  trial, a.rc, a.cost, b.rc, b.cost);
        proved += a.rc == ASTAR_NO_PATH && a.expanded < b.expanded;
        gave_up += a.gave_up;
        none += b.rc == ASTAR_NO_PATH;
        found += b.rc == ASTAR_FOUND;
      }
#undef RND
      astar_grid_free(g);
    }
    astar_lattice_release(l);
  }
  CHECK(proved >= 30 && gave_up >= 10 && found >= 150 && none >= 60);
  printf("test_dir: proof: %d no-path searches ended early (of %d), gave up in %d of %d found\n",
         proved, none, gave_up, found);
  astar_search_free(back);
  astar_search_free(s);
  free(m.gen); free(m.g); free(m.reach); free(m.rq);
  CHECK(c.live == 0);
}

int main(void) {
  test_params();
  test_oom();
  test_known();
  test_reach();
  printf("test_dir: %d checks, %d failures\n", checks, failures);
  return failures != 0;
}
