/*
** jps_plus.c - JPS+: jump point search with precomputed jumps (Harabor &
** Grastien, "Improving Jump Point Search", ICAPS 2014; Rabin's JPS+).
**
** For every walkable cell and direction the table holds how far the jump
** from that cell goes: v > 0, a jump point v cells away; v <= 0, no jump
** point before the line ends -v cells away. Straight directions hold what
** a straight jump (jps.c's scan) finds; a diagonal (under NEVER, vertical)
** direction holds the distance to the next cell of the run from which one
** of its straight component jumps finds a jump point. The online search of
** jps.c then reads a jump instead of scanning for it, and a run skips from
** one such cell to the next; the goal, which the table knows nothing of,
** is found where the run crosses its row or column (jps.c).
**
** SEVERAL COSTS. On a grid of several costs (or with links) boundary cells
** end jumps and runs, as in the online search: a straight jump stops on
** one as on a jump point, a run stops on one and adds it (jps.c).
**
** Each table is filled by dynamic programming, one pass per direction, in
** the order that visits a cell's successor first: the jump from c along d
** is one step to n = c + d, then either a stop at n or n's own jump. The
** straight passes come before the runs, which read them. Edits only mark
** the tables stale (the grid's topology counter, and the boundaries'); the
** next jumping search rebuilds them in place, in time proportional to the
** grid.
*/
#include <string.h>
#include "grid_impl.h"

/* Is padded cell c a boundary cell (jps.c's bits)? */
static int on_bnd(const astar_grid *g, long c) {
  size_t x = (size_t)c % g->stride + 64, y = (size_t)c / g->stride;
  return g->brows != NULL && (int)((g->brows[y * g->rw + (x >> 6)] >> (x & 63)) & 1);
}

/* The value of cell c for direction (dx, dy) of table k (a policy), given
** its successor's values. 'o' is the side offset of straight moves. A
** boundary cell ends every jump and run that reaches it; under corner
** cutting, so does a cell with a forced neighbour (jps.c's rules). */
static int16_t jump_value(const astar_grid *g, const int16_t *t, int k, long c,
                          int dx, int dy) {
  const long W = (long)g->stride, st = ASTAR_JT_STRIDE(k), n = c + dy * W + dx;
  const double *w = g->cell;
  const int cut = k == ASTAR_DIAG_ALWAYS || k == ASTAR_DIAG_ONE_OBSTACLE;
  int16_t u;
  if (!(w[n] > 0)) return 0;
  if (dx != 0 && dy != 0) {                       /* a diagonal step */
    int a = w[c + dx] > 0, b = w[c + dy * W] > 0;
    if (cut ? !(a || b || k == ASTAR_DIAG_ALWAYS) : !(a && b)) return 0;
    if (on_bnd(g, n)) return 1;
    if (cut && ((w[n - dx + dy * W] > 0 && !(w[n - dx] > 0)) ||
                (w[n + dx - dy * W] > 0 && !(w[n - dy * W] > 0))))
      return 1;
    if (t[n * st + astar__jt_dir(dx, 0)] > 0 || t[n * st + astar__jt_dir(0, dy)] > 0) return 1;
  } else if (on_bnd(g, n)) {
    return 1;
  } else if (k == ASTAR_DIAG_NEVER && dy != 0) {  /* a vertical run under NEVER */
    if (t[n * st] > 0 || t[n * st + 1] > 0) return 1;
  } else {                                        /* straight: a forced neighbour at n */
    const long o = dx != 0 ? W : 1, ahead = n + dy * W + dx;
    if (cut ? (w[ahead - o] > 0 && !(w[n - o] > 0)) || (w[ahead + o] > 0 && !(w[n + o] > 0))
            : (w[n - o] > 0 && !(w[c - o] > 0)) || (w[n + o] > 0 && !(w[c + o] > 0)))
      return 1;
  }
  u = t[n * st + astar__jt_dir(dx, dy)];
  return (int16_t)(u > 0 ? u + 1 : u - 1);
}

/* One pass: every walkable cell's value for (dx, dy), successors first. */
static void jump_pass(const astar_grid *g, int16_t *t, int k, int dx, int dy) {
  const long W = (long)g->stride, st = ASTAR_JT_STRIDE(k), d = astar__jt_dir(dx, dy);
  long i, j;
  for (j = 0; j < g->h; j++) {
    long y = dy > 0 ? g->h - j : j + 1;
    for (i = 0; i < g->w; i++) {
      long x = dx > 0 ? g->w - i : i + 1, c = y * W + x;
      if (g->cell[c] > 0) t[c * st + d] = jump_value(g, t, k, c, dx, dy);
    }
  }
}

void astar__jt_refresh(astar_grid *g, int k) {
  static const int dirs[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1},
                                 {1, 1}, {-1, 1}, {1, -1}, {-1, -1}};
  int i;
  if (g->jt[k] == NULL || (g->jt_topo[k] == g->topo && g->jt_bnd[k] == g->bnd_ver)) return;
  for (i = 0; i < ASTAR_JT_STRIDE(k); i++) jump_pass(g, g->jt[k], k, dirs[i][0], dirs[i][1]);
  g->jt_topo[k] = g->topo;
  g->jt_bnd[k] = g->bnd_ver;
}

void astar__jt_free(astar_grid *g) {
  int k;
  for (k = 0; k < 4; k++) {
    astar__free(&g->mem, g->jt[k], g->ncell * ASTAR_JT_STRIDE(k) * sizeof(int16_t));
    g->jt[k] = NULL;
  }
}

int astar_grid_prepare_jumps(astar_grid *g, int diagonal) {
  const int k = diagonal;
  size_t n;
  if (diagonal < ASTAR_DIAG_NO_CORNER_CUTTING || diagonal > ASTAR_DIAG_ONE_OBSTACLE ||
      g->stride > 32767 || (size_t)g->h + 2 > 32767 || g->hex || g->wrap)
    return ASTAR_EINVAL;
  if (g->jt[k] != NULL) return 0;
  if (astar__grid_bits(g) != 0) return ASTAR_ENOMEM;       /* the boundaries */
  n = g->ncell * (size_t)ASTAR_JT_STRIDE(k);
  if (n > SIZE_MAX / sizeof(int16_t)) return ASTAR_ENOMEM;
  g->jt[k] = (int16_t *)astar__alloc(&g->mem, n * sizeof(int16_t));
  if (g->jt[k] == NULL) return ASTAR_ENOMEM;
  memset(g->jt[k], 0, n * sizeof(int16_t));
  g->jt_topo[k] = g->topo + 1;                    /* stale: filled now */
  astar__jt_refresh(g, k);
  return 0;
}

size_t astar_grid_prepared(const astar_grid *g, int diagonal) {
  const int k = diagonal;
  if (diagonal < ASTAR_DIAG_NO_CORNER_CUTTING || diagonal > ASTAR_DIAG_ONE_OBSTACLE) return 0;
  return g->jt[k] != NULL ? g->ncell * (size_t)ASTAR_JT_STRIDE(k) * sizeof(int16_t) : 0;
}
