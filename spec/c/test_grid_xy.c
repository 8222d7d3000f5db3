/*
** test_grid_xy.c - a padded cell's column and row (astar__grid_xy), which
** every expansion and heuristic of a grid search works out by multiplying
** with the stride's reciprocal instead of dividing. Checked against the
** division: every stride up to 5000, and strides near each power of two up
** to the widest grid (2^28 cells in one row: widths 2^p - 2 .. 2^p + 2), at
** the cells either side of every row's start near the largest cell index a
** grid of that stride can have, and at random cells below it. Built and run
** by `make ctest`.
*/
#include <stdint.h>
#include <string.h>
#include "grid_impl.h"

#include "harness.h"

static uint64_t rng_state = 2026;
static uint64_t rnd(uint64_t n) {
  rng_state = rng_state * 6364136223846793005u + 1442695040888963407u;
  return (rng_state >> 11) % n;
}

/* Does astar__grid_xy differ from the division at cell c? */
static int off(const astar_grid *g, uint64_t c) {
  long x, y;
  astar__grid_xy(g, (size_t)c, &x, &y);
  return (uint64_t)y != c / g->stride || (uint64_t)x != c % g->stride;
}

/* Cells of a grid of this stride at which astar__grid_xy differs from the
** division; 'random' cells drawn besides the edges of rows. */
static long wrong(size_t stride, int random) {
  astar_grid g;
  const uint64_t w = stride - 2, rows = ((uint64_t)1 << 28) / w + 2;  /* w * (rows - 2) <= 2^28 */
  const uint64_t top = rows * stride;                                  /* cells of the tallest grid */
  long bad = 0;
  uint64_t r;
  int i;
  memset(&g, 0, sizeof g);
  g.stride = stride;
  astar__grid_reciprocal(&g);
  for (r = rows > 40 ? rows - 40 : 1; r <= rows; r++) {
    uint64_t c;
    for (c = r * stride - 2; c <= r * stride + 1 && c < top; c++) bad += off(&g, c);
  }
  for (i = 0; i < random; i++) bad += off(&g, rnd(top));
  return bad;
}

int main(void) {
  long bad = 0, strides = 0;
  size_t s;
  int p, d;
  (void)test_alloc;                       /* (the harness's; no grid is made here) */
  for (s = 3; s <= 5000; s++, strides++) bad += wrong(s, 20);
  for (p = 2; p <= 28; p++)
    for (d = -2; d <= 2; d++)
      if (((size_t)1 << p) + 2 + (size_t)d > 5000) {         /* stride - 2: the width */
        bad += wrong(((size_t)1 << p) + 2 + (size_t)d, 2000);
        strides++;
      }
  CHECK(bad == 0);
  printf("  %ld strides: %ld cells wrong\n", strides, bad);
  printf("%d passed, %d failed\n", checks - failures, failures);
  return failures != 0;
}
