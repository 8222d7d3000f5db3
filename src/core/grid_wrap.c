/*
** grid_wrap.c - grids that wrap around: east-west (a cylinder), north-south,
** or both (a torus). A step off one edge enters the cell on the opposite
** edge. Everything else is the square grid's: cells, costs, policies, links.
**
** The padded layout stays as it is; the steps across a seam are worked out
** here instead of read from fixed offsets. The built-in heuristics measure
** each wrapped axis the shorter way round, so they stay admissible.
*/
#include "grid_impl.h"

/* Neighbour order of astar__wrap_neighbours: N, W, E, S, NW, NE, SW, SE. */
static const int DX[8] = {0, -1, 1, 0, -1, 1, -1, 1};
static const int DY[8] = {-1, 0, 0, 1, -1, -1, 1, 1};

void astar__wrap_neighbours(const astar_grid *g, uint32_t node, uint32_t out[8]) {
  long cx, cy;
  int x, y, k;
  astar__grid_xy(g, node, &cx, &cy);
  x = (int)cx - 1;
  y = (int)cy - 1;
  for (k = 0; k < 8; k++) {
    int nx = x + DX[k], ny = y + DY[k];
    if (g->wrap & ASTAR_WRAP_X) nx = (nx + g->w) % g->w;
    if (g->wrap & ASTAR_WRAP_Y) ny = (ny + g->h) % g->h;
    out[k] = (uint32_t)((size_t)(ny + 1) * g->stride + (size_t)(nx + 1));
  }
}

/* The signed step d along an axis of n cells, the shorter way round when it
** wraps: -1, 0 or 1 for neighbours (n > 2), else as it is. */
static int around(int d, int n, int wraps) {
  if (!wraps || n <= 2) return d;
  if (d == n - 1) return -1;
  if (d == 1 - n) return 1;
  return d;
}

void astar__wrap_delta(const astar_grid *g, int x0, int y0, int x1, int y1, int *dx, int *dy) {
  *dx = around(x1 - x0, g->w, g->wrap & ASTAR_WRAP_X);
  *dy = around(y1 - y0, g->h, g->wrap & ASTAR_WRAP_Y);
}

double astar__wrap_axis(const astar_grid *g, double d, int axis) {
  double n = axis ? g->h : g->w;
  if (!(g->wrap & (axis ? ASTAR_WRAP_Y : ASTAR_WRAP_X))) return d;
  return d < n - d ? d : n - d;
}

int astar_grid_set_wrap(astar_grid *g, int wrap) {
  if (wrap < 0 || wrap > (ASTAR_WRAP_X | ASTAR_WRAP_Y) ||
      !astar__hex_wraps(g->hex, wrap, g->w, g->h))
    return ASTAR_EINVAL;
  if (g->wrap != wrap) {
    g->wrap = wrap;
    g->lab_ok[0] = g->lab_ok[1] = 0;                 /* other steps: other components */
    astar__grid_edited(g, 0, 0, g->w, g->h);
  }
  return 0;
}

int astar_grid_wrap(const astar_grid *g) { return g->wrap; }
