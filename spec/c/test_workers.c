/*
** test_workers.c - the core's thread pool (src/core/workers.c) and grid
** searches from several threads (astar_grid_ready, astar_grid_snapshot),
** without Lua: under ASan and UBSan in `make ctest`, under ThreadSanitizer
** in `make tsan`.
**
** The reference is the same query run on the calling thread before any
** worker starts: the workers must give the same cost and the same nodes.
** While workers search a snapshot, the main thread edits the original,
** which TSan checks they never share. A failing allocator checks every
** ENOMEM of astar_workers_new. Last, the hierarchy's build on several
** threads against its build on one.
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

/* malloc's allocator: the workers call it from their threads. */
static void *sysalloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  (void)ud; (void)osize;
  if (nsize == 0) { free(ptr); return NULL; }
  return realloc(ptr, nsize);
}

#define NQ 300
#define MAXN 4096

typedef struct job {
  astar_job head;
  astar_grid *g;
  int sx, sy, gx, gy, diagonal, jump;
  int rc;
  long n;
  double cost;
  uint32_t first, last, mid;
} job;

static void fill_query(astar_grid_query *q, const job *j) {
  astar_grid_query_init(q);
  q->diagonal = j->diagonal;
  q->jump = j->jump;
}

/* The search of j on s, its outcome written into j. */
static void run(job *j, astar_search *s) {
  astar_grid_query q;
  const uint32_t *nodes;
  fill_query(&q, j);
  j->rc = astar_grid_find(j->g, s, &q, j->sx, j->sy, j->gx, j->gy);
  j->n = -1;
  if (j->rc == ASTAR_FOUND) {
    j->n = astar_search_path(s, &nodes, &j->cost);
    if (j->n > 0) {
      j->first = nodes[0];
      j->last = nodes[j->n - 1];
      j->mid = nodes[j->n / 2];
    }
  }
}

static void work(void *ud, astar_job *aj, astar_search *s, astar_workers *w) {
  (void)ud;
  (void)w;
  run((job *)aj, s);
}

static astar_grid *random_grid(counting *c, int w, int h, int costs) {
  astar_grid *g;
  int x, y;
  if (astar_grid_new(&g, w, h, 1.0, test_alloc, c) != 0) return NULL;
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      int r = rnd(100);
      astar_grid_set(g, x, y, r < 25 ? 0.0 : costs ? 1.0 + rnd(3) : 1.0);
    }
  return g;
}

/* Runs the jobs on a pool of 'threads', results into got[]: taken last
** first (mode 0), collected as they finish (1), or taken in order by a
** caller that helps while the next is not done (2, as astar.batch does). */
static void run_pool(job *jobs, int n, int threads, int mode) {
  astar_workers *w;
  int i, k = 0;
  CHECK(astar_workers_new(&w, threads, work, NULL, sysalloc, NULL) == 0);
  CHECK(astar_workers_threads(w) == threads);
  for (i = 0; i < n; i++) astar_workers_submit(w, &jobs[i].head);
  if (mode == 2) {
    for (i = 0; i < n; i++) {
      astar_workers_help(w, i % 2 ? &jobs[i].head : NULL);      /* or one at a time */
      while (astar_workers_peek(w, &jobs[i].head) != ASTAR_JOB_DONE && astar_workers_help(w, NULL)) {}
      CHECK(astar_workers_take(w, &jobs[i].head, 1) == ASTAR_JOB_DONE);
    }
    CHECK(astar_workers_help(w, NULL) == 0);
  } else if (mode == 1) {
    astar_job *j;
    while ((j = astar_workers_collect(w, 1)) != NULL) {
      CHECK(j->state == ASTAR_JOB_COLLECTED);
      k++;
    }
    CHECK(k == n);
  } else {
    for (i = n - 1; i >= 0; i--) CHECK(astar_workers_take(w, &jobs[i].head, 1) == ASTAR_JOB_DONE);
  }
  astar_workers_free(w);
}

static void same(const job *a, const job *b) {
  CHECK(a->rc == b->rc);
  CHECK(a->n == b->n);
  if (a->rc == ASTAR_FOUND && a->n == b->n) {
    CHECK(a->cost == b->cost);
    CHECK(a->first == b->first && a->last == b->last && a->mid == b->mid);
  }
}

/* Queries on g from several threads equal those run on this thread. */
static void test_shared(int costs, int jump, int prepared) {
  counting c = {0, 0, 0};
  static job ref[NQ], got[NQ];
  astar_search *s;
  astar_grid *g = random_grid(&c, 90, 70, costs), *copy;
  int i;
  CHECK(g != NULL);
  if (prepared) CHECK(astar_grid_prepare_jumps(g, ASTAR_DIAG_NO_CORNER_CUTTING) == 0);
  /* the reference searches a copy: g's lazy tables are left to astar_grid_ready */
  CHECK(astar_grid_clone(&copy, g) == 0);
  if (prepared) CHECK(astar_grid_prepare_jumps(copy, ASTAR_DIAG_NO_CORNER_CUTTING) == 0);
  CHECK(astar_search_new(&s, sysalloc, NULL) == 0);
  for (i = 0; i < NQ; i++) {
    memset(&ref[i], 0, sizeof ref[i]);
    ref[i].g = copy;
    ref[i].sx = rnd(90); ref[i].sy = rnd(70); ref[i].gx = rnd(90); ref[i].gy = rnd(70);
    ref[i].diagonal = prepared ? ASTAR_DIAG_NO_CORNER_CUTTING : rnd(4);
    ref[i].jump = jump;
    got[i] = ref[i];
    got[i].g = g;
    run(&ref[i], s);
  }
  astar_search_free(s);
  CHECK(astar_grid_ready(g) == 0);
  run_pool(got, NQ, 3, jump == ASTAR_JUMP_AUTO);
  for (i = 0; i < NQ; i++) same(&got[i], &ref[i]);
  for (i = 0; i < NQ; i++) got[i].rc = 12345;              /* nothing left of that run */
  run_pool(got, NQ, jump == ASTAR_JUMP_AUTO ? 0 : 1, 2);   /* the caller alone, or with one */
  for (i = 0; i < NQ; i++) same(&got[i], &ref[i]);
  astar_grid_free(copy);
  astar_grid_free(g);
  CHECK(c.live == 0);
}

/* On a grid of several costs, jumping searches keep what boundary cells keep
** in a cache of the grid's, which this thread fills; after astar_grid_ready
** the workers only read it (make tsan), and the searches make no cache until
** an edit or astar_grid_thaw. */
static void test_frozen(void) {
  counting c = {0, 0, 0};
  static job ref[NQ], got[NQ];
  astar_search *s;
  astar_grid *g = random_grid(&c, 90, 70, 1), *copy;
  long before;
  int i, k;
  CHECK(g != NULL);
  CHECK(astar_grid_clone(&copy, g) == 0);
  CHECK(astar_search_new(&s, sysalloc, NULL) == 0);
  for (i = 0; i < NQ; i++) {
    memset(&ref[i], 0, sizeof ref[i]);
    ref[i].g = copy;
    ref[i].sx = rnd(90); ref[i].sy = rnd(70); ref[i].gx = rnd(90); ref[i].gy = rnd(70);
    ref[i].diagonal = ASTAR_DIAG_NO_CORNER_CUTTING;
    ref[i].jump = ASTAR_JUMP_NEVER;                 /* the reference: A* */
    got[i] = ref[i];
    got[i].g = g;
    got[i].jump = ASTAR_JUMP_ALWAYS;
    run(&ref[i], s);
    if (i % 2 == 0) run(&got[i], s);                /* fills part of g's cache */
  }
  CHECK(astar_grid_ready(g) == 0);
  run_pool(got, NQ, 3, 1);
  for (i = 0; i < NQ; i++) {
    CHECK(got[i].rc == ref[i].rc);
    if (got[i].rc == ASTAR_FOUND) CHECK(fabs(got[i].cost - ref[i].cost) <= 1e-9 * ref[i].cost);
  }
  /* a policy whose cache is not made yet: none while the grid is ready */
  for (k = 0; k < NQ - 1 && ref[k].rc != ASTAR_FOUND; k++) {}
  CHECK(ref[k].rc == ASTAR_FOUND);
  got[k].diagonal = ASTAR_DIAG_NEVER;
  before = c.calls;
  run(&got[k], s);
  CHECK(c.calls == before);
  astar_grid_thaw(g);
  run(&got[k], s);
  CHECK(c.calls > before);                          /* the cache for NEVER, its rows */
  before = c.calls;
  run(&got[k], s);
  CHECK(c.calls == before);                         /* a warm query */
  CHECK(astar_grid_ready(g) == 0);
  got[k].diagonal = ASTAR_DIAG_ALWAYS;
  run(&got[k], s);
  CHECK(c.calls == before);
  astar_grid_set(g, got[k].sx, got[k].sy, 2.0);      /* an edit thaws it too */
  run(&got[k], s);
  CHECK(got[k].rc == ASTAR_FOUND);
  CHECK(c.calls > before);
  astar_search_free(s);
  astar_grid_free(copy);
  astar_grid_free(g);
  CHECK(c.live == 0);
}

/* Workers search a snapshot while this thread edits the original. */
static void test_snapshot(void) {
  counting c = {0, 0, 0};
  static job ref[NQ], got[NQ];
  astar_search *s;
  astar_workers *w;
  astar_grid *g = random_grid(&c, 80, 80, 1), *snap;
  int i, k;
  CHECK(g != NULL);
  CHECK(astar_grid_components(g, ASTAR_DIAG_NEVER, NULL) == 0);   /* labels, used by find */
  CHECK(astar_search_new(&s, sysalloc, NULL) == 0);
  for (i = 0; i < NQ; i++) {
    memset(&ref[i], 0, sizeof ref[i]);
    ref[i].g = g;
    ref[i].sx = rnd(80); ref[i].sy = rnd(80); ref[i].gx = rnd(80); ref[i].gy = rnd(80);
    ref[i].diagonal = rnd(4);
    ref[i].jump = rnd(3);
    run(&ref[i], s);
  }
  CHECK(astar_grid_snapshot(&snap, g) == 0);
  CHECK(astar_grid_snapshot_current(snap, g) == 1);
  for (i = 0; i < NQ; i++) {
    got[i] = ref[i];
    got[i].g = snap;
  }
  CHECK(astar_workers_new(&w, 2, work, NULL, sysalloc, NULL) == 0);
  for (i = 0; i < NQ; i++) astar_workers_submit(w, &got[i].head);
  for (k = 0; k < 2000; k++) {                   /* edit, and search, the original meanwhile */
    astar_grid_query q;
    astar_grid_set(g, rnd(80), rnd(80), rnd(3) ? 1.0 + rnd(2) : 0.0);
    if (k % 100 == 0) {
      astar_grid_query_init(&q);
      astar_grid_find(g, s, &q, rnd(80), rnd(80), rnd(80), rnd(80));
    }
  }
  CHECK(astar_grid_snapshot_current(snap, g) == 0);
  for (i = 0; i < NQ; i++) CHECK(astar_workers_take(w, &got[i].head, 1) == ASTAR_JOB_DONE);
  astar_workers_free(w);
  for (i = 0; i < NQ; i++) same(&got[i], &ref[i]);
  astar_grid_free(snap);
  astar_search_free(s);
  astar_grid_free(g);
  CHECK(c.live == 0);
}

/* A job that runs until cancelled (or the pool closes). */
static void spin(void *ud, astar_job *aj, astar_search *s, astar_workers *w) {
  (void)ud; (void)s;
  while (!astar_workers_cancelled(w, aj)) {}
}

static void test_cancel(void) {
  astar_workers *w;
  astar_job j[5];
  size_t q, r, d;
  int i;
  CHECK(astar_workers_new(&w, 1, spin, NULL, sysalloc, NULL) == 0);
  for (i = 0; i < 5; i++) astar_workers_submit(w, &j[i]);
  while (astar_workers_peek(w, &j[0]) != ASTAR_JOB_RUNNING) {}
  astar_workers_state(w, &q, &r, &d);
  CHECK(q == 4 && r == 1 && d == 0);
  CHECK(astar_workers_cancel(w, &j[2]) == ASTAR_JOB_QUEUED);
  CHECK(astar_workers_peek(w, &j[2]) == ASTAR_JOB_CANCELLED);
  CHECK(astar_workers_take(w, &j[1], 0) == ASTAR_JOB_QUEUED);
  CHECK(astar_workers_collect(w, 0) == NULL);
  CHECK(astar_workers_cancel(w, &j[0]) == ASTAR_JOB_RUNNING);
  CHECK(astar_workers_take(w, &j[0], 1) == ASTAR_JOB_DONE);   /* it saw the flag */
  while (astar_workers_peek(w, &j[1]) != ASTAR_JOB_RUNNING) {}
  astar_workers_free(w);                         /* j[1] running, j[3], j[4] queued */
  CHECK(j[3].state == ASTAR_JOB_CANCELLED && j[4].state == ASTAR_JOB_CANCELLED);
  CHECK(j[1].state == ASTAR_JOB_DONE);
  astar_workers_free(NULL);
}

static void nothing(void *ud, astar_job *aj, astar_search *s, astar_workers *w) {
  (void)ud; (void)aj; (void)s; (void)w;
}

static void test_new(void) {
  astar_workers *w = (astar_workers *)&w;
  long n;
  CHECK(astar_workers_new(&w, -1, nothing, NULL, sysalloc, NULL) == ASTAR_EINVAL && w == NULL);
  CHECK(astar_workers_new(&w, ASTAR_WORKERS_MAX + 1, nothing, NULL, sysalloc, NULL) ==
        ASTAR_EINVAL);
  CHECK(astar_workers_new(&w, 2, NULL, NULL, sysalloc, NULL) == ASTAR_EINVAL);
  CHECK(astar_workers_cpus() >= 1 && astar_workers_cpus() <= ASTAR_WORKERS_MAX);
  for (n = 1; n < 40; n++) {                     /* every allocation of new refused */
    counting c = {0, 0, 0};
    int rc;
    c.fail_at = n;
    rc = astar_workers_new(&w, 3, nothing, NULL, test_alloc, &c);
    if (rc == 0) {
      astar_workers_free(w);
      CHECK(c.live == 0);
      break;
    }
    CHECK(rc == ASTAR_ENOMEM && w == NULL && c.live == 0);
  }
  CHECK(n > 3 && n < 40);
}

/* An abstraction for hierarchical search built on several threads
** (astar_hier_new, src/core/grid_hier.c) equals the one of a single thread,
** also after edits that rebuild every cluster (more than the grid's log
** remembers). The threads must not allocate: the counting allocator is not
** for threads, and TSan says so if they do. */
static void test_hier(void) {
  int costs, threads, i;
  for (costs = 0; costs < 2; costs++) {
    counting c = {0, 0, 0};
    astar_grid *g = random_grid(&c, 200, 150, costs);
    astar_hier *one = NULL, *many = NULL;
    astar_hier_info a, b;
    CHECK(g != NULL);
    if (g == NULL) return;
    CHECK(astar_hier_new(&one, g, 8, ASTAR_DIAG_NO_CORNER_CUTTING, 1) == 0);
    for (threads = 2; threads <= 4 && one != NULL; threads++) {
      CHECK(astar_hier_new(&many, g, 8, ASTAR_DIAG_NO_CORNER_CUTTING, threads) == 0);
      if (many == NULL) break;
      astar_hier_describe(one, &a);
      astar_hier_describe(many, &b);
      CHECK(a.digest == b.digest && a.nodes == b.nodes && a.edges == b.edges && a.nodes > 1000);
      CHECK(b.rebuilt == b.clusters && b.clusters == 25 * 19);
      for (i = 0; i < 100; i++) astar_grid_set(g, rnd(200), rnd(150), rnd(2) ? 0.0 : 1.0);
      CHECK(astar_hier_update(many) == 0 && astar_hier_update(one) == 0);
      astar_hier_describe(one, &a);
      astar_hier_describe(many, &b);
      CHECK(a.digest == b.digest && b.rebuilt == b.clusters);
      astar_hier_free(many);
    }
    astar_hier_free(one);
    astar_grid_free(g);
    CHECK(c.live == 0);
  }
}

int main(void) {
  test_new();
  test_shared(0, ASTAR_JUMP_NEVER, 0);
  test_shared(1, ASTAR_JUMP_AUTO, 0);
  test_shared(0, ASTAR_JUMP_ALWAYS, 1);
  test_frozen();
  test_snapshot();
  test_cancel();
  test_hier();
  printf("test_workers: %d checks, %d failures\n", checks, failures);
  return failures != 0;
}
