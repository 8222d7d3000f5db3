/*
** grid_hex.c - hexagonal grids: a grid whose cells are hexagons laid out in
** rows or columns shoved by half a cell ("offset coordinates", as Amit
** Patel's hexagon guide names them), with six neighbours each. The cells,
** costs, edits, links, classes and search records are the square grid's;
** only the steps, the distance and the components' joins differ.
**
** Layouts, 0-based column c and row r: ODD_R shoves the odd rows half a cell
** right (pointy tops), EVEN_R the even rows; ODD_Q shoves the odd columns
** half a cell down (flat tops), EVEN_Q the even columns. Every neighbour is
** at most one column and one row away, so the blocked border of the padded
** layout bounds the steps as it does on square grids.
**
** A hex grid may wrap (grid_wrap.c) around either axis: a step off one edge
** enters the opposite one. Along the axis whose lines are shoved (rows for
** -r layouts, columns for -q) it needs an even count of them, or the
** neighbours across the seam would disagree with the shove; the distance
** then is the least over the copies of the goal one period away.
*/
#include "grid_impl.h"

/* The six (dx, dy) neighbour offsets of a cell, by layout (ODD_R..EVEN_Q,
** 1..4) and by the parity of its row (-r layouts) or column (-q layouts). */
static const signed char NB[4][2][6][2] = {
  {{{1, 0}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}, {0, 1}},       /* odd-r, even row */
   {{1, 0}, {1, -1}, {0, -1}, {-1, 0}, {0, 1}, {1, 1}}},        /* odd row */
  {{{1, 0}, {1, -1}, {0, -1}, {-1, 0}, {0, 1}, {1, 1}},         /* even-r, even row */
   {{1, 0}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}, {0, 1}}},      /* odd row */
  {{{1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {0, 1}},       /* odd-q, even column */
   {{1, 1}, {1, 0}, {0, -1}, {-1, 0}, {-1, 1}, {0, 1}}},        /* odd column */
  {{{1, 1}, {1, 0}, {0, -1}, {-1, 0}, {-1, 1}, {0, 1}},         /* even-q, even column */
   {{1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {0, 1}}},      /* odd column */
};

/* The offsets of 0-based cell (x, y)'s neighbours. */
static const signed char (*offsets(const astar_grid *g, int x, int y))[2] {
  int byrow = g->hex <= ASTAR_HEX_EVEN_R;
  return NB[g->hex - 1][(byrow ? y : x) & 1];
}

/* Neighbour k of 0-based cell (x, y) into (*nx, *ny), across a seam if the
** grid wraps there (else possibly off the grid, onto its blocked border). */
static void neighbour(const astar_grid *g, int x, int y, int k, int *nx, int *ny) {
  const signed char (*d)[2] = offsets(g, x, y);
  *nx = x + d[k][0];
  *ny = y + d[k][1];
  if (g->wrap & ASTAR_WRAP_X) *nx = (*nx + g->w) % g->w;
  if (g->wrap & ASTAR_WRAP_Y) *ny = (*ny + g->h) % g->h;
}

int astar__hex_neighbours(const astar_grid *g, uint32_t node, uint32_t out[6]) {
  long cx, cy;
  int x, y, k, nx, ny;
  astar__grid_xy(g, node, &cx, &cy);
  x = (int)cx - 1;
  y = (int)cy - 1;
  for (k = 0; k < 6; k++) {
    neighbour(g, x, y, k, &nx, &ny);
    out[k] = (uint32_t)((size_t)(ny + 1) * g->stride + (size_t)(nx + 1));
  }
  return 6;
}

int astar_grid_hex_adjacent(const astar_grid *g, int x0, int y0, int x1, int y1) {
  int k, nx, ny;
  for (k = 0; k < 6; k++) {
    neighbour(g, x0, y0, k, &nx, &ny);
    if (nx == x1 && ny == y1) return 1;
  }
  return 0;
}

int astar__hex_wraps(int layout, int wrap, int w, int h) {
  int byrow = layout <= ASTAR_HEX_EVEN_R;
  if (layout == 0) return 1;
  return !(wrap & (byrow ? ASTAR_WRAP_Y : ASTAR_WRAP_X)) || (byrow ? h : w) % 2 == 0;
}

void astar_grid_hex_axial(const astar_grid *g, int x, int y, int *q, int *r) {
  switch (g->hex) {
    case ASTAR_HEX_ODD_R: *q = x - (y - (y & 1)) / 2; *r = y; break;
    case ASTAR_HEX_EVEN_R: *q = x - (y + (y & 1)) / 2; *r = y; break;
    case ASTAR_HEX_ODD_Q: *q = x; *r = y - (x - (x & 1)) / 2; break;
    default: *q = x; *r = y - (x + (x & 1)) / 2; break;
  }
}

void astar_grid_hex_offset(const astar_grid *g, int q, int r, int *x, int *y) {
  switch (g->hex) {
    case ASTAR_HEX_ODD_R: *x = q + (r - (r & 1)) / 2; *y = r; break;
    case ASTAR_HEX_EVEN_R: *x = q + (r + (r & 1)) / 2; *y = r; break;
    case ASTAR_HEX_ODD_Q: *x = q; *y = r + (q - (q & 1)) / 2; break;
    default: *x = q; *y = r + (q + (q & 1)) / 2; break;
  }
}

/* The hex distance between two cells of offset coordinates (any integers
** of the layout: the shove follows their parity). */
static int distance(const astar_grid *g, int x0, int y0, int x1, int y1) {
  int q0, r0, q1, r1, dq, dr, ds;
  astar_grid_hex_axial(g, x0, y0, &q0, &r0);
  astar_grid_hex_axial(g, x1, y1, &q1, &r1);
  dq = q1 - q0; dr = r1 - r0; ds = dq + dr;
  return ((dq < 0 ? -dq : dq) + (dr < 0 ? -dr : dr) + (ds < 0 ? -ds : ds)) / 2;
}

int astar_grid_hex_distance(const astar_grid *g, int x0, int y0, int x1, int y1) {
  int best = distance(g, x0, y0, x1, y1), i, j;
  int ni = g->wrap & ASTAR_WRAP_X ? 1 : 0, nj = g->wrap & ASTAR_WRAP_Y ? 1 : 0;
  for (i = -ni; i <= ni; i++)                       /* the goal's copies a period away */
    for (j = -nj; j <= nj; j++) {
      int d = distance(g, x0, y0, x1 + i * g->w, y1 + j * g->h);
      if (d < best) best = d;
    }
  return best;
}

int astar_grid_set_hex(astar_grid *g, int layout) {
  if (layout < 0 || layout > ASTAR_HEX_EVEN_Q || !astar__hex_wraps(layout, g->wrap, g->w, g->h))
    return ASTAR_EINVAL;
  if (g->hex != layout) {
    g->hex = layout;
    g->lab_ok[0] = g->lab_ok[1] = 0;                 /* other neighbours: other components */
    astar__grid_edited(g, 0, 0, g->w, g->h);
  }
  return 0;
}

int astar_grid_hex(const astar_grid *g) { return g->hex; }
