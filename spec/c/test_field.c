/*
** test_field.c - tests of the core's distance fields and component labels
** (src/core/grid.c), without Lua, under ASan and UBSan.
**
** References, written from astar.h's contract and independent of the core:
** components by a flood fill over the policy's own steps (seeds in row-major
** order, so the numbering must match exactly); distance fields by
** Bellman-Ford over FORWARD steps (d(v) = min(value(v), len * c(u) + d(u))
** until nothing changes). A failing allocator checks ENOMEM for every N.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "astar.h"

#include "harness.h"

static unsigned long rs = 12345;
static int rnd(int n) {
  rs = rs * 1103515245UL + 12345UL;
  return (int)((rs >> 16) % (unsigned long)n);
}

static int walk(const double *c, int w, int h, int x, int y) {
  return x >= 0 && y >= 0 && x < w && y < h && c[y * w + x] > 0;
}

/* May one step go from (x, y) by (dx, dy) under 'pol'? */
static int legal(const double *c, int w, int h, int x, int y, int dx, int dy, int pol) {
  int a, b;
  if (!walk(c, w, h, x, y) || !walk(c, w, h, x + dx, y + dy)) return 0;
  if (dx == 0 || dy == 0) return 1;
  if (pol == ASTAR_DIAG_NEVER) return 0;
  a = walk(c, w, h, x + dx, y);
  b = walk(c, w, h, x, y + dy);
  if (pol == ASTAR_DIAG_NO_CORNER_CUTTING) return a && b;
  if (pol == ASTAR_DIAG_ONE_OBSTACLE) return a || b;
  return 1;
}

static const int DX[8] = {1, -1, 0, 0, 1, 1, -1, -1};
static const int DY[8] = {0, 0, 1, -1, 1, -1, 1, -1};

/* Flood-fill labels in row-major seed order; returns the count. */
static unsigned ref_components(const double *c, int w, int h, int pol, unsigned *lab) {
  int *q = (int *)malloc(sizeof(int) * (size_t)(w * h));
  unsigned n = 0;
  int i;
  memset(lab, 0, sizeof(unsigned) * (size_t)(w * h));
  for (i = 0; i < w * h; i++) {
    int head = 0, tail = 0;
    if (!(c[i] > 0) || lab[i]) continue;
    lab[i] = ++n;
    q[tail++] = i;
    while (head < tail) {
      int u = q[head++], x = u % w, y = u / w, k;
      for (k = 0; k < 8; k++) {
        int v = (y + DY[k]) * w + x + DX[k];
        if (legal(c, w, h, x, y, DX[k], DY[k], pol) && !lab[v]) {
          lab[v] = n;
          q[tail++] = v;
        }
      }
    }
  }
  free(q);
  return n;
}

/* Bellman-Ford over forward steps: d(v) = min(src(v), len * c(u) + d(u)). */
static void ref_field(const double *c, int w, int h, int pol, const double *src, double *d) {
  int changed = 1, i;
  for (i = 0; i < w * h; i++) d[i] = c[i] > 0 ? src[i] : HUGE_VAL;
  while (changed) {
    changed = 0;
    for (i = 0; i < w * h; i++) {
      int x = i % w, y = i / w, k;
      for (k = 0; k < 8; k++) {
        int u = (y + DY[k]) * w + x + DX[k];
        double len = (DX[k] && DY[k]) ? sqrt(2.0) : 1.0, nd;
        if (!legal(c, w, h, x, y, DX[k], DY[k], pol) || d[u] == HUGE_VAL) continue;
        nd = d[u] + len * c[u];
        if (nd < d[i] - 1e-12) { d[i] = nd; changed = 1; }
      }
    }
  }
}

static void set_cells(astar_grid *g, const double *c, int w, int h) {
  int x, y;
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) astar_grid_set(g, x, y, c[y * w + x]);
}

static void random_cells(double *c, int w, int h, int pblocked) {
  static const double costs[4] = {1, 2, 0.5, 3};
  int i;
  for (i = 0; i < w * h; i++) c[i] = rnd(100) < pblocked ? 0 : costs[rnd(4)];
}

static void test_components(void) {
  int round, pol;
  for (round = 0; round < 300; round++) {
    int w = 1 + rnd(14), h = 1 + rnd(12), i, e;
    double *c = (double *)malloc(sizeof(double) * (size_t)(w * h));
    unsigned *lab = (unsigned *)malloc(sizeof(unsigned) * (size_t)(w * h));
    astar_grid *g;
    random_cells(c, w, h, rnd(70));
    {
      counting cnt = {0, 0, 0};
      CHECK(astar_grid_new(&g, w, h, 1.0, test_alloc, &cnt) == 0);
      for (e = 0; e < 4; e++) {          /* labels follow edits */
        set_cells(g, c, w, h);
        for (pol = 0; pol < 4; pol++) {
          uint32_t n = 0, l = 0;
          unsigned rn = ref_components(c, w, h, pol, lab);
          CHECK(astar_grid_components(g, pol, &n) == 0);
          CHECK(n == rn);
          for (i = 0; i < w * h; i++) {
            CHECK(astar_grid_component(g, pol, i % w, i / w, &l) == 0);
            CHECK(l == lab[i]);
          }
        }
        for (i = 0; i < 3; i++) {
          int k = rnd(w * h);
          c[k] = c[k] > 0 ? 0 : 1;
        }
      }
      CHECK(astar_grid_components(g, 7, NULL) == ASTAR_EINVAL);
      astar_grid_free(g);
      CHECK(cnt.live == 0);
    }
    free(c);
    free(lab);
  }
}

static void test_find_cut(void) {
  /* two rooms: find across ends before expanding anything */
  counting cnt = {0, 0, 0};
  astar_grid *g;
  astar_search *s;
  astar_grid_query q;
  astar_stats st;
  const uint32_t *nodes;
  double cost;
  uint32_t n;
  CHECK(astar_grid_new(&g, 9, 5, 1.0, test_alloc, &cnt) == 0);
  CHECK(astar_search_new(&s, test_alloc, &cnt) == 0);
  astar_grid_fill(g, 4, 0, 1, 5, 0.0);
  astar_grid_query_init(&q);
  q.jump = ASTAR_JUMP_NEVER;                         /* cell by cell: */
  CHECK(astar_grid_find(g, s, &q, 0, 0, 8, 4) == ASTAR_NO_PATH);
  astar_search_stats(s, &st);
  CHECK(st.expanded == 20);                          /* flooded its room */
  CHECK(astar_grid_components(g, ASTAR_DIAG_NO_CORNER_CUTTING, &n) == 0 && n == 2);
  astar_grid_query_init(&q);
  CHECK(astar_grid_find(g, s, &q, 0, 0, 8, 4) == ASTAR_NO_PATH);
  astar_search_stats(s, &st);
  CHECK(st.expanded == 0);                           /* known before searching */
  CHECK(astar_search_path(s, &nodes, &cost) == 0);
  astar_grid_query_init(&q);                         /* partial: the real search */
  q.params.partial = 1;
  CHECK(astar_grid_find(g, s, &q, 0, 0, 8, 4) == ASTAR_NO_PATH);
  CHECK(astar_search_path(s, &nodes, &cost) > 1);
  astar_grid_set(g, 4, 2, 1.0);                      /* a door: labels go stale */
  astar_grid_query_init(&q);
  CHECK(astar_grid_find(g, s, &q, 0, 0, 8, 4) == ASTAR_FOUND);
  astar_grid_set(g, 4, 2, 0.0);
  astar_grid_set(g, 4, 1, 5.0);                      /* ... and turned blocked again */
  astar_grid_set(g, 4, 1, 0.0);
  astar_grid_query_init(&q);
  q.diagonal = ASTAR_DIAG_ALWAYS;                    /* labels of the other connectivity */
  CHECK(astar_grid_find(g, s, &q, 0, 0, 8, 4) == ASTAR_NO_PATH);
  astar_search_stats(s, &st);
  CHECK(st.expanded == 0);
  astar_search_free(s);
  astar_grid_free(g);
  CHECK(cnt.live == 0);
}

static void test_fields(void) {
  int round;
  for (round = 0; round < 200; round++) {
    int w = 1 + rnd(10), h = 1 + rnd(9), pol = rnd(4), i, ns = 0;
    size_t cells = (size_t)(w * h);
    double *c = (double *)malloc(sizeof(double) * cells);
    double *src = (double *)malloc(sizeof(double) * cells);
    double *d = (double *)malloc(sizeof(double) * cells);
    uint32_t nodes[4];
    double vals[4];
    counting cnt = {0, 0, 0};
    astar_grid *g;
    astar_search *s;
    astar_grid_query q;
    random_cells(c, w, h, 30);
    for (i = 0; i < (int)cells; i++) src[i] = HUGE_VAL;
    for (i = 0; i < 4; i++) {
      int k = rnd(w * h);
      double v = (double)(rnd(11) - 5);
      if (!(c[k] > 0)) continue;
      nodes[ns] = (uint32_t)((k / w + 1) * (w + 2) + (k % w + 1));
      vals[ns++] = v;
      if (v < src[k]) src[k] = v;
    }
    ref_field(c, w, h, pol, src, d);
    CHECK(astar_grid_new(&g, w, h, 1.0, test_alloc, &cnt) == 0);
    CHECK(astar_search_new(&s, test_alloc, &cnt) == 0);
    set_cells(g, c, w, h);
    astar_grid_query_init(&q);
    q.diagonal = pol;
    if (ns == 0) {
      CHECK(astar_grid_field(g, s, &q, nodes, vals, 0) == ASTAR_EINVAL);
    } else {
      CHECK(astar_grid_field(g, s, &q, nodes, vals, (size_t)ns) == 0);
      for (i = 0; i < (int)cells; i++) {
        double gv;
        uint32_t parent, node = astar_grid_node(g, i % w, i / w);
        int r = astar_search_node(s, node, &gv, &parent);
        if (d[i] == HUGE_VAL) { CHECK(r == 0); continue; }
        CHECK(r == 1 && fabs(gv - d[i]) < 1e-9);
        if (r == 1 && parent != ASTAR_NONE) {        /* parent: one step nearer */
          int px, py;
          double pg, len;
          uint32_t pp;
          astar_grid_cell(g, parent, &px, &py);
          CHECK(legal(c, w, h, i % w, i / w, px - i % w, py - i / w, pol));
          len = (px != i % w && py != i / w) ? sqrt(2.0) : 1.0;
          CHECK(astar_search_node(s, parent, &pg, &pp) == 1);
          CHECK(fabs(gv - (pg + len * c[py * w + px])) < 1e-9);
        }
      }
    }
    /* a blocked source or one above max_cost is refused */
    for (i = 0; i < (int)cells; i++)
      if (!(c[i] > 0)) {
        uint32_t b = (uint32_t)((i / w + 1) * (w + 2) + (i % w + 1));
        CHECK(astar_grid_field(g, s, &q, &b, NULL, 1) == ASTAR_EINVAL);
        break;
      }
    if (ns > 0) {
      double big = 10;
      q.params.max_cost = 5;
      CHECK(astar_grid_field(g, s, &q, nodes, &big, 1) == ASTAR_EINVAL);
    }
    astar_search_free(s);
    astar_grid_free(g);
    CHECK(cnt.live == 0);
    free(c); free(src); free(d);
  }
}

/* Every allocation the labels or a field make, failed in turn. */
static void test_oom(void) {
  long n;
  int done_labels = 0, done_field = 0;
  for (n = 1; n < 64 && !(done_labels && done_field); n++) {
    counting cnt = {0, 0, 0};
    astar_grid *g;
    astar_search *s;
    astar_grid_query q;
    uint32_t count = 0, src;
    int rc;
    CHECK(astar_grid_new(&g, 30, 20, 1.0, test_alloc, &cnt) == 0);
    CHECK(astar_search_new(&s, test_alloc, &cnt) == 0);
    astar_grid_fill(g, 10, 0, 1, 20, 0.0);
    cnt.fail_at = cnt.calls + n;
    rc = astar_grid_components(g, ASTAR_DIAG_ALWAYS, &count);
    CHECK(rc == 0 || rc == ASTAR_ENOMEM);
    if (rc == 0) { CHECK(count == 2); done_labels = 1; }
    /* the grid still answers: with labels cut at once, without them by search */
    astar_grid_query_init(&q);
    q.diagonal = ASTAR_DIAG_NEVER;
    rc = astar_grid_find(g, s, &q, 0, 0, 29, 19);
    CHECK(rc == ASTAR_NO_PATH || rc == ASTAR_ENOMEM);
    cnt.fail_at = cnt.calls + n;
    astar_grid_query_init(&q);
    src = astar_grid_node(g, 29, 19);
    rc = astar_grid_field(g, s, &q, &src, NULL, 1);
    CHECK(rc == 0 || rc == ASTAR_ENOMEM);
    if (rc == 0) {
      double gv;
      uint32_t p;
      CHECK(astar_search_node(s, astar_grid_node(g, 11, 0), &gv, &p) == 1);
      CHECK(astar_search_node(s, astar_grid_node(g, 9, 0), &gv, &p) == 0);
      done_field = 1;
    }
    cnt.fail_at = 0;
    rc = astar_grid_field(g, s, &q, &src, NULL, 1);    /* usable after the failure */
    CHECK(rc == 0);
    astar_search_free(s);
    astar_grid_free(g);
    CHECK(cnt.live == 0);
  }
  CHECK(done_labels && done_field);
}

int main(void) {
  test_components();
  test_find_cut();
  test_fields();
  test_oom();
  printf("test_field: %d checks, %d failures\n", checks, failures);
  return failures != 0;
}
