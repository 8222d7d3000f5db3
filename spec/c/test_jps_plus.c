/*
** test_jps_plus.c - JPS+ tables after edits. jps_plus.c brings a table up to
** date by patching it around the edits made since it last was; here every
** patched table is compared, value for value, with the table filled whole
** on a copy of the edited grid: random grids of one cost and of several
** (whose boundary cells end jumps), every policy, walls opened and closed,
** costs changed, single cells and small rectangles; and every policy's
** table on one grid, each brought up to date at its own moments. Built and run by
** `make ctest` under AddressSanitizer and UndefinedBehaviorSanitizer. Reads
** the grid's representation (grid_impl.h): the tables are not public.
*/
#include <stdio.h>
#include <stdlib.h>
#include "grid_impl.h"

#include "harness.h"

static unsigned long rng_state = 2026;
static int rnd(int n) {
  rng_state = rng_state * 6364136223846793005UL + 1442695040888963407UL;
  return (int)((rng_state >> 33) % (unsigned long)n);
}

/* The values of walkable cells in table k of g that differ from those of
** the table filled whole on a copy of g (blocked cells' values are never
** read, and the passes leave them as they were). */
static long differ(const astar_grid *g, int k) {
  const size_t st = ASTAR_JT_STRIDE(k);
  astar_grid *copy;
  long bad = 0;
  size_t i, d;
  if (astar_grid_clone(&copy, g) != 0 || astar_grid_prepare_jumps(copy, k) != 0) {
    CHECK(!"a copy and its table");
    return 1;
  }
  for (i = 0; i < g->ncell; i++)
    for (d = 0; d < st && g->cell[i] > 0; d++) bad += g->jt[k][i * st + d] != copy->jt[k][i * st + d];
  astar_grid_free(copy);
  return bad;
}

/* One edit: a cell or a rectangle of up to 3x3 made a wall, opened, or
** (several costs) given another cost. */
static void edit(astar_grid *g, int costs) {
  const int x = rnd(g->w), y = rnd(g->h), w = 1 + rnd(3), h = 1 + rnd(3);
  const double v = rnd(3) == 0 ? 0 : costs > 1 ? 1 + rnd(costs) : 1;
  if (rnd(2)) astar_grid_set(g, x, y, v);
  else astar_grid_fill(g, x, y, x + w <= g->w ? w : g->w - x, y + h <= g->h ? h : g->h - y, v);
}

static void test_patches(void) {
  counting c = {0, 0, 0};
  long bad = 0, patched = 0, filled = 0;
  int t;
  for (t = 0; t < 48; t++) {
    const int w = 80 + rnd(80), h = 80 + rnd(80), k = t % 4, costs = t % 3 == 0 ? 3 : 1;
    const int walls = rnd(45);
    astar_grid *g;
    int x, y, e;
    if (astar_grid_new(&g, w, h, 1.0, test_alloc, &c) != 0) {
      CHECK(!"a grid");
      continue;
    }
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++)
        if (rnd(100) < walls) astar_grid_set(g, x, y, 0);
    for (e = 0; costs > 1 && e < 40; e++)        /* patches of other costs */
      astar_grid_fill(g, rnd(w - 8), rnd(h - 8), 1 + rnd(8), 1 + rnd(8), 1 + rnd(costs));
    CHECK(astar_grid_prepare_jumps(g, k) == 0);
    for (e = 0; e < 18; e++) {
      const size_t fills = g->jt_fills;
      int n = e == 8 ? ASTAR_GRID_LOG + 1 : 1 + rnd(2);
      if (e == 16)                                /* too large to patch */
        astar_grid_fill(g, 0, rnd(h / 2), w, h / 2, costs > 1 ? 2 : rnd(2));
      while (e != 16 && n-- > 0) edit(g, costs);  /* e == 8: more than the log holds */
      astar__jt_refresh(g, k);
      if (e == 8 || e == 16) {
        CHECK(g->jt_fills == fills + 1);
        filled++;
      } else {
        CHECK(g->jt_fills == fills);              /* small edits are patched */
        patched++;
      }
      bad += differ(g, k);
    }
    astar_grid_free(g);
  }
  CHECK(bad == 0);
  CHECK(c.live == 0);
  printf("  %ld tables patched, %ld filled whole, %ld values wrong\n", patched, filled, bad);
}

/* Every policy's table on one grid, each brought up to date at its own
** moments (a search under that policy, or astar_grid_ready for all), so
** that each patches its own stretch of the log; edits biased to the map's
** edge, and edits that change nothing. */
static void test_tables_apart(void) {
  counting c = {0, 0, 0};
  long bad = 0, patched = 0;
  int t;
  for (t = 0; t < 40; t++) {
    const int w = 30 + rnd(60), h = 30 + rnd(60), costs = t % 2 ? 3 : 1;
    astar_grid *g;
    int x, y, k, e;
    if (astar_grid_new(&g, w, h, 1.0, test_alloc, &c) != 0) {
      CHECK(!"a grid");
      continue;
    }
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) astar_grid_set(g, x, y, rnd(4) == 0 ? 0 : 1 + rnd(costs));
    for (k = 0; k < 4; k++) CHECK(astar_grid_prepare_jumps(g, k) == 0);
    for (e = 0; e < 60; e++) {
      const int ex = rnd(4) ? rnd(w) : rnd(2) * (w - 1), ey = rnd(4) ? rnd(h) : rnd(2) * (h - 1);
      if (rnd(8) == 0) astar_grid_set(g, ex, ey, astar_grid_get(g, ex, ey));   /* no change */
      else astar_grid_set(g, ex, ey, rnd(3) == 0 ? 0 : 1 + rnd(costs));
      if (rnd(12) == 0) {
        CHECK(astar_grid_ready(g) == 0);
        for (k = 0; k < 4; k++) bad += differ(g, k);
      }
      for (k = 0; k < 4; k++) {
        const size_t fills = g->jt_fills;
        if (rnd(5) != 0) continue;
        astar__jt_refresh(g, k);
        patched += g->jt_fills == fills;
        bad += differ(g, k);
      }
    }
    astar_grid_free(g);
  }
  CHECK(bad == 0);
  CHECK(patched > 600);
  CHECK(c.live == 0);
  printf("  apart: %ld tables patched, %ld values wrong\n", patched, bad);
}

int main(void) {
  test_patches();
  test_tables_apart();
  printf("%d passed, %d failed\n", checks - failures, failures);
  return failures != 0;
}
