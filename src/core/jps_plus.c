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
** straight passes come before the runs, which read them.
**
** EDITS mark the tables stale (the grid's topology counter, and the
** boundaries'); the next jumping search brings them up to date. A value
** reads the cells within two of its own (and boundary bits, which an edit
** changes within one of it), so an edit changes the values of the cells
** within two of it (the near cells) and of cells whose jumps go through
** a value that changed: the cells before it on its line. Those are found by
** walking back along the line while the values change (settle). A run also
** reads the straight values of the cell it steps to, which change only in
** the rows and columns near the edit; so runs are settled from every cell
** of those rows and columns, and walk back from there (patch). The grid's log of edits
** says where they were; when it has lost some, or they are too large to
** pay, every pass runs again, in time proportional to the grid.
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
  const long W = (long)g->stride, n = c + dy * W + dx;
  const int16_t *tn = t + (size_t)n * (size_t)ASTAR_JT_STRIDE(k);   /* n's values */
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
    if (tn[astar__jt_dir(dx, 0)] > 0 || tn[astar__jt_dir(0, dy)] > 0) return 1;
  } else if (on_bnd(g, n)) {
    return 1;
  } else if (k == ASTAR_DIAG_NEVER && dy != 0) {  /* a vertical run under NEVER */
    if (tn[0] > 0 || tn[1] > 0) return 1;
  } else {                                        /* straight: a forced neighbour at n */
    const long o = dx != 0 ? W : 1, ahead = n + dy * W + dx;
    if (cut ? (w[ahead - o] > 0 && !(w[n - o] > 0)) || (w[ahead + o] > 0 && !(w[n + o] > 0))
            : (w[n - o] > 0 && !(w[c - o] > 0)) || (w[n + o] > 0 && !(w[c + o] > 0)))
      return 1;
  }
  u = tn[astar__jt_dir(dx, dy)];
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
      if (g->cell[c] > 0) t[(size_t)c * st + d] = jump_value(g, t, k, c, dx, dy);
    }
  }
}

/* The directions in table order (astar__jt_dir): straight ones, then the
** runs (under NEVER, 2 and 3 are the vertical runs). */
static const int DIRS[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1},
                               {1, 1}, {-1, 1}, {1, -1}, {-1, -1}};

/* Does direction i of table k read other directions' values (a run)? */
static int is_run(int k, int i) { return i >= (k == ASTAR_DIAG_NEVER ? 2 : 4); }

/* Works out walkable cell c's value for (dx, dy) again; while it changes,
** the cell before it on the line (whose jump goes through it) follows. */
static void settle(const astar_grid *g, int16_t *t, int k, long c, int dx, int dy) {
  const size_t st = (size_t)ASTAR_JT_STRIDE(k), d = (size_t)astar__jt_dir(dx, dy);
  const long back = dy * (long)g->stride + dx;
  while (g->cell[c] > 0) {                  /* the border is blocked: walks end */
    int16_t v = jump_value(g, t, k, c, dx, dy), *at = t + (size_t)c * st + d;
    if (v == *at) return;
    *at = v;
    c -= back;
  }
}

/* Brings table k up to date after an edit of the cells of rect r, the
** table having been up to date before it. The near cells (x0..x1, y0..y1:
** padded, within the map) are those within two of the edit: a value reads
** cells within two of its own, and boundary bits of cells within one, which
** the edit changes within one of it. Straight values change in the near
** cells and before them on their lines, which settle walks; in rows within
** one of the edit (horizontal ones) and columns within one (vertical). So
** runs settle every near row and every near column: each cell whose own
** cells changed, or whose step reaches a straight value that may have
** (under NEVER the runs are vertical and read horizontal values: rows). Any
** order would do (a value that changes later settles the cells before it
** again); successors first, as the passes go, spares those walks. */
static void patch(const astar_grid *g, int k, const astar_rect *r) {
  int16_t *t = g->jt[k];
  const long W = (long)g->stride, w = g->w, h = g->h;
  const long x0 = r->x - 1 > 1 ? r->x - 1 : 1, x1 = r->x + r->w + 2 < w ? r->x + r->w + 2 : w;
  const long y0 = r->y - 1 > 1 ? r->y - 1 : 1, y1 = r->y + r->h + 2 < h ? r->y + r->h + 2 : h;
  int i;
  for (i = 0; i < ASTAR_JT_STRIDE(k); i++) {
    const int dx = DIRS[i][0], dy = DIRS[i][1], run = is_run(k, i);
    const int cols = run && k != ASTAR_DIAG_NEVER;   /* NEVER's runs read rows only */
    const long ylo = cols ? 1 : y0, yhi = cols ? h : y1;
    long j, n;
    for (j = 0; j <= yhi - ylo; j++) {
      const long y = dy > 0 ? yhi - j : ylo + j;
      const int all = run && y >= y0 && y <= y1;                      /* a near row */
      const long lo = all ? 1 : x0, hi = all ? w : x1;
      for (n = 0; n <= hi - lo; n++) settle(g, t, k, y * W + (dx > 0 ? hi - n : lo + n), dx, dy);
    }
  }
}

/* Table k is up to date with the grid as it is. */
static void stamp(astar_grid *g, int k) {
  g->jt_topo[k] = g->topo;
  g->jt_bnd[k] = g->bnd_ver;
  g->jt_ver[k] = g->version;
}

/* Every pass again. */
static void refill(astar_grid *g, int k) {
  int i;
  g->jt_fills++;
  for (i = 0; i < ASTAR_JT_STRIDE(k); i++) jump_pass(g, g->jt[k], k, DIRS[i][0], DIRS[i][1]);
  stamp(g, k);
}

/* Patches table k for the edits since it was last up to date, if the log
** still holds them and they are small enough to pay: the cells of the
** rows and columns the runs settle, added up, no more than the grid has
** (bench/prepare_bench.lua: on the Moving AI maps a one-cell edit costs
** 1/30 to 1/170 of the passes, and counts 1/24 to 1/100 of the grid's
** cells); returns 0 otherwise. */
static int patch_edits(const astar_grid *g, int k) {
  const uint64_t since = g->jt_ver[k];
  const double most = (double)g->w * (double)g->h;
  double work = 0;
  uint64_t v;
  if (g->version - since > ASTAR_GRID_LOG) return 0;
  for (v = since + 1; v <= g->version; v++) {
    const astar_rect *r = &g->edits[v % ASTAR_GRID_LOG];
    work += ((double)r->h + 4) * g->w + ((double)r->w + 4) * g->h;
    if (work > most) return 0;
  }
  for (v = since + 1; v <= g->version; v++) patch(g, k, &g->edits[v % ASTAR_GRID_LOG]);
  return 1;
}

/* Writes nothing when the table is current: after astar_grid_ready several
** threads may search the grid at once, and every jumping search calls it. */
void astar__jt_refresh(astar_grid *g, int k) {
  if (g->jt[k] == NULL ||
      (g->jt_topo[k] == g->topo && g->jt_bnd[k] == g->bnd_ver && g->jt_ver[k] == g->version))
    return;
  if ((g->jt_topo[k] != g->topo || g->jt_bnd[k] != g->bnd_ver) && !patch_edits(g, k))
    refill(g, k);
  else
    stamp(g, k);
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
  refill(g, k);
  return 0;
}

size_t astar_grid_prepared(const astar_grid *g, int diagonal) {
  const int k = diagonal;
  if (diagonal < ASTAR_DIAG_NO_CORNER_CUTTING || diagonal > ASTAR_DIAG_ONE_OBSTACLE) return 0;
  return g->jt[k] != NULL ? g->ncell * (size_t)ASTAR_JT_STRIDE(k) * sizeof(int16_t) : 0;
}
