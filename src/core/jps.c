/*
** jps.c - jump point search on grids, first on grids whose walkable cells
** all cost the same (Harabor & Grastien, "Online Graph Pruning for Pathfinding on Grid Maps",
** AAAI 2011, and "Improving Jump Point Search", ICAPS 2014).
**
** On such a grid many shortest paths are symmetric: they differ only in the
** order of the same straight and diagonal steps. JPS keeps one of them, the
** canonical one (diagonals first, then straight, 8-connected; vertical
** first, then horizontal, 4-connected), and searches over jump points, the
** cells where a canonical path may have to turn because an obstacle ends.
** The engine (search.c) runs A* over them unchanged; this file is only the
** domain's expand function, which from a node and the direction it was
** reached in writes the jump points it can see as successors, with their
** octile (or manhattan) distance times the cell cost.
**
** BLOCKS. Straight jumps read the grid as bit rows (and, for vertical
** jumps, bit columns: the transpose): a jump tests 55 cells per unaligned
** 8-byte load (62 per two-word read on big-endian machines) with a few
** shifts and one count of trailing zeros (the 2014 paper's block-based
** jumping). JPS+ (jps_plus.c) replaces the scans by table reads.
**
** INTERMEDIATE POINTS. A diagonal jump does not stop at a cell from which a
** straight jump finds a jump point; it adds that jump point as a successor
** of the node being expanded, and goes on diagonally (the 2014 paper's
** pruning of intermediate jump points). A successor is then reached by a
** diagonal run followed by a straight run, which astar_grid_toward walks.
**
** FORCED NEIGHBOURS under NO_CORNER_CUTTING: moving straight (east, say)
** into n, the cell north of n is forced when the cell north of n's
** predecessor is blocked and it is not; then n may turn north or north-east.
** Diagonal moves have no forced neighbours under this policy: every
** neighbour they would force is reached at no greater cost without them.
** Under NEVER (4-connected) vertical runs play the diagonals' part: a
** vertical jump walks cell by cell and jumps horizontally from each, and a
** horizontal jump stops where a vertical turn is forced, by the same rule.
** Under ALWAYS and ONE_OBSTACLE (corner cutting) the 2011 rules apply, over
** the same bit lines (below).
**
** SEVERAL COSTS. Jumps also stop at boundary cells (walkable, with a
** walkable neighbour of another cost), which expand as a start does, in
** every direction but those that cost-aware pruning drops (keep_dirs: a
** step some strictly cheaper way covers). Between two boundary cells a
** path crosses interior cells, whose eight neighbours all cost what they
** cost; so every cell a jump enters costs what its first cell costs, and
** the rules above, which hold on a grid of one cost, hold there.
**
** LINKS. Both ends of every link are boundary cells too: a path that takes
** a link is a path to its first end, the link, and a path on from its other
** end, each between boundary cells; the ends expand in every direction (a
** node reached by a link has no direction to prune by), plus their links.
*/
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "grid_impl.h"

/* The hot loops are written once and compiled once per direction (HOT:
** calls with constant directions are inlined, so each copy loses its
** branches). */

/* ---------------------------------------------------------------------- */
/* Walkability bits                                                         */
/* ---------------------------------------------------------------------- */

/* Words of a bit line of n cells: one guard word (all blocked) on either
** side, so that 64 cells can be read from any cell of the line -64 .. n. */
static size_t linewords(size_t n) { return n / 64 + 3; }

static void putbit(uint64_t *line, size_t i, int v) {
  size_t k = i + 64;
  uint64_t b = (uint64_t)1 << (k & 63);
  if (v) line[k >> 6] |= b;
  else line[k >> 6] &= ~b;
}

/* WIN cells of a bit line from cell i on: astar__window (grid_impl.h). */
#define WIN ASTAR_WIN
#define window astar__window

#define lowbit astar__lowbit

#define highbit astar__highbit

HOT int getbit(const uint64_t *line, size_t i) {
  size_t k = i + 64;
  return (int)((line[k >> 6] >> (k & 63)) & 1);
}

/* Is padded cell c a boundary cell: walkable, with a walkable neighbour
** (of the eight) of another cost, or an end of a link? */
static int boundary(const astar_grid *g, size_t c) {
  const double *w = g->cell, v = w[c];
  const size_t W = g->stride;
  const size_t nb[8] = {c - W - 1, c - W, c - W + 1, c - 1, c + 1, c + W - 1, c + W, c + W + 1};
  int i;
  if (!(v > 0)) return 0;
  if (g->link_out != NULL && (g->link_out[c] != ASTAR_NONE || g->link_in[c] != ASTAR_NONE))
    return 1;
  for (i = 0; i < 8; i++)
    if (w[nb[i]] > 0 && w[nb[i]] != v) return 1;
  return 0;
}

void astar__grid_bits_rect(astar_grid *g, int x, int y, int w, int h) {
  int i, j, x0 = x > 0 ? x - 1 : 0, y0 = y > 0 ? y - 1 : 0;
  int x1 = x + w < g->w ? x + w : g->w - 1, y1 = y + h < g->h ? y + h : g->h - 1;
  if (g->rows == NULL) return;
  for (j = 0; j < h; j++)
    for (i = 0; i < w; i++) {
      size_t px = (size_t)(x + 1 + i), py = (size_t)(y + 1 + j);
      int v = g->cell[py * g->stride + px] > 0;
      putbit(g->rows + py * g->rw, px, v);
      putbit(g->cols + px * g->cw, py, v);
    }
  for (j = y0; j <= y1; j++)           /* boundaries: the rectangle and its ring */
    for (i = x0; i <= x1; i++) {
      size_t px = (size_t)i + 1, py = (size_t)j + 1;
      int was = getbit(g->brows + py * g->rw, px), is = boundary(g, py * g->stride + px);
      if (was == is) continue;
      g->nbnd = is ? g->nbnd + 1 : g->nbnd - 1;
      g->bnd_ver++;
      putbit(g->brows + py * g->rw, px, is);
      putbit(g->bcols + px * g->cw, py, is);
    }
}

void astar__grid_bits_free(astar_grid *g) {
  astar__free(&g->mem, g->rows, 2 * ((size_t)g->h + 2) * g->rw * sizeof(uint64_t));
  astar__free(&g->mem, g->cols, 2 * g->stride * g->cw * sizeof(uint64_t));
  g->rows = g->cols = g->brows = g->bcols = NULL;
}

int astar__grid_bits(astar_grid *g) {
  size_t rw = linewords(g->stride), cw = linewords((size_t)g->h + 2);
  size_t nr = ((size_t)g->h + 2) * rw, nc = g->stride * cw;
  if (g->rows != NULL) return 0;
  if (nr > SIZE_MAX / 2 / sizeof(uint64_t) || nc > SIZE_MAX / 2 / sizeof(uint64_t))
    return ASTAR_ENOMEM;
  g->rows = (uint64_t *)astar__alloc(&g->mem, 2 * nr * sizeof(uint64_t));
  g->cols = (uint64_t *)astar__alloc(&g->mem, 2 * nc * sizeof(uint64_t));
  g->rw = rw;
  g->cw = cw;
  if (g->rows == NULL || g->cols == NULL) {
    astar__grid_bits_free(g);
    return ASTAR_ENOMEM;
  }
  memset(g->rows, 0, 2 * nr * sizeof(uint64_t));
  memset(g->cols, 0, 2 * nc * sizeof(uint64_t));
  g->brows = g->rows + nr;
  g->bcols = g->cols + nc;
  g->nbnd = 0;
  astar__grid_bits_rect(g, 0, 0, g->w, g->h);
  return 0;
}


/* ---------------------------------------------------------------------- */
/* Straight jumps over bit lines                                            */
/* ---------------------------------------------------------------------- */

/*
** Scans the bit line 'mid' from cell 'pos' up (scan_up: toward higher cells)
** or down, between the side lines 'a' and 'b'. Returns the distance to the first cell
** with a forced neighbour or marked in 'bnd' (boundary cells; NULL: none),
** or 0 if the line is blocked first; then *run is the number of walkable
** cells passed. A forced neighbour is a side cell walkable where the side
** cell before it is blocked; under corner cutting ('cut'), a side cell
** blocked where the one after it is walkable (the 2011 rule). The cut rule
** reads one cell further ahead, so its windows keep one cell fewer.
*/
HOT long scan_up(const uint64_t *mid, const uint64_t *a, const uint64_t *b,
                 const uint64_t *bnd, long pos, long *run, const int cut) {
  const uint64_t valid = WIN == 64 ? ~(uint64_t)0 : ((uint64_t)1 << (WIN % 64)) - 1;
  const uint64_t east = (cut ? valid >> 1 : valid) & ~(uint64_t)3;
  long base = pos;
  for (;;) {           /* bit k: cell base - 1 + k; cells of interest 2 <= k < WIN (- cut) */
    uint64_t m = window(mid, base - 1), sa = window(a, base - 1), sb = window(b, base - 1);
    uint64_t f = (cut ? ((sa >> 1) & ~sa) | ((sb >> 1) & ~sb)
                      : (sa & ~(sa << 1)) | (sb & ~(sb << 1))) & east, k = ~m & east;
    if (bnd != NULL) f |= window(bnd, base - 1) & east;
    if (f | k) {
      int i = f ? lowbit(f) : 64, j = k ? lowbit(k) : 64;
      if (i < j) return base - 1 + i - pos;
      *run = base - 2 + j - pos;
      return 0;
    }
    base += WIN - 2 - cut;
  }
}

HOT long scan_down(const uint64_t *mid, const uint64_t *a, const uint64_t *b,
                   const uint64_t *bnd, long pos, long *run, const int cut) {
  const uint64_t west = (((uint64_t)1 << (WIN - 2)) - 1) & ~(uint64_t)cut;
  long base = pos;
  for (;;) {           /* bit k: cell base - (WIN - 2) + k; of interest (cut <=) k < WIN - 2 */
    long lo = base - (WIN - 2);
    uint64_t m = window(mid, lo), sa = window(a, lo), sb = window(b, lo);
    uint64_t f = (cut ? ((sa << 1) & ~sa) | ((sb << 1) & ~sb)
                      : (sa & ~(sa >> 1)) | (sb & ~(sb >> 1))) & west, k = ~m & west;
    if (bnd != NULL) f |= window(bnd, lo) & west;
    if (f | k) {
      int i = f ? highbit(f) : -1, j = k ? highbit(k) : -1;
      if (i > j) return pos - (lo + i);
      *run = pos - (lo + j + 1);
      return 0;
    }
    base -= WIN - 2 - cut;
  }
}

/* scan_up (dir > 0) or scan_down. */
HOT long scan(const uint64_t *mid, const uint64_t *a, const uint64_t *b, const uint64_t *bnd,
              long pos, int dir, long *run, const int cut) {
  return dir > 0 ? scan_up(mid, a, b, bnd, pos, run, cut)
                 : scan_down(mid, a, b, bnd, pos, run, cut);
}

/* A jump's view of the query: the grid, where the goals are. */
typedef struct jumper {
  const astar_grid_query *q;
  const astar_grid *g;
  long stride;
  double cost;          /* of the cells the current jump enters (of every
                        ** walkable cell, unless weighted) */
  long gx, gy;          /* the goal, padded; gx = -1 with several goals */
  const int16_t *t;     /* JPS+ jump distances (jps_plus.c), or NULL */
  int weighted;         /* several costs: jumps stop at boundary cells */
  int cut;              /* ALWAYS or ONE_OBSTACLE (corner cutting), else 0 */
  long ts;              /* distances per cell */
  astar_search *s;
  astar_edge *e;        /* the successors written so far */
  size_t cap;
  int n;
} jumper;

/* Is padded cell (x, y) walkable? Read from the bit rows: they stay in cache
** where the cost array (64 times larger) does not. */
HOT int walkable(const jumper *j, long x, long y) {
  return getbit(j->g->rows + (size_t)y * j->g->rw, (size_t)x);
}

/* Is padded cell (x, y) a boundary cell (grids of several costs)? */
HOT int on_boundary(const jumper *j, long x, long y) {
  return getbit(j->g->brows + (size_t)y * j->g->rw, (size_t)x);
}

/* The distance along the ray from padded cell (x, y) in direction (dx, dy)
** (one of them 0) to the nearest goal within 'lim' cells, or 0. */
HOT long goal_on_ray(const jumper *j, long x, long y, int dx, int dy, long lim) {
  const astar_grid_query *q = j->q;
  size_t i;
  long best = 0;
  if (j->gx >= 0) {
    long d = dx ? (j->gx - x) * dx : (j->gy - y) * dy;
    return (dx ? j->gy == y : j->gx == x) && d > 0 && d <= lim ? d : 0;
  }
  for (i = 0; i < q->ngoals; i++) {
    long gx = q->goals[2 * i] + 1, gy = q->goals[2 * i + 1] + 1;
    long d = dx ? (gx - x) * dx : (gy - y) * dy;
    if ((dx ? gy != y : gx != x) || d <= 0 || d > lim) continue;
    if (best == 0 || d < best) best = d;
  }
  return best;
}

HOT int is_goal(const jumper *j, long x, long y) {
  if (j->gx >= 0) return x == j->gx && y == j->gy;
  return goal_on_ray(j, x - 1, y, 1, 0, 1) == 1;
}

/* straight() on JPS+: the jump read from the table. */
HOT long straight_table(const jumper *j, long x, long y, int dx, int dy) {
  long v = j->t[(size_t)(y * j->stride + x) * (size_t)j->ts + (size_t)astar__jt_dir(dx, dy)];
  long g = goal_on_ray(j, x, y, dx, dy, v > 0 ? v : -v);
  return g ? g : v > 0 ? v : 0;
}

/* A straight jump from padded cell (x, y) along (dx, dy): the distance to
** the jump point it reaches, or 0. */
static long straight(const jumper *j, long x, long y, int dx, int dy) {
  const astar_grid *g = j->g;
  const uint64_t *line, *bline = NULL;
  size_t lw;
  long run = 0, d;
  if (j->t != NULL) return straight_table(j, x, y, dx, dy);
  if (!walkable(j, x + dx, y + dy)) return 0;
  if (dx) {
    lw = g->rw;
    line = g->rows + (size_t)y * lw;
    if (j->weighted) bline = g->brows + (size_t)y * lw;
  } else {
    lw = g->cw;
    line = g->cols + (size_t)x * lw;
    if (j->weighted) bline = g->bcols + (size_t)x * lw;
  }
  d = j->cut ? scan(line, line - lw, line + lw, bline, dx ? x : y, dx ? dx : dy, &run, 1)
             : scan(line, line - lw, line + lw, bline, dx ? x : y, dx ? dx : dy, &run, 0);
  run = goal_on_ray(j, x, y, dx, dy, d ? d : run);
  return run ? run : d;
}

/* Writes the successor at padded cell (x, y), 'len' cells of path away. */
static int add(jumper *j, long x, long y, double len) {
  if ((size_t)j->n == j->cap) {
    j->e = astar_search_edges(j->s, j->cap * 2);
    if (j->e == NULL) return ASTAR_ENOMEM;
    j->cap *= 2;
  }
  j->e[j->n].to = (uint32_t)(y * j->stride + x);
  j->e[j->n++].cost = len * j->cost;
  return 0;
}

/* A jump is about to enter padded cell (x, y) from the node expanded: every
** cell it enters costs what this one costs (on a grid of several costs,
** the cells a jump passes are not boundary cells, so their neighbours cost
** the same as they do). */
static void enter(jumper *j, long x, long y) {
  if (j->weighted) j->cost = j->g->cell[y * j->stride + x];
}

/* Jumps straight from (x, y) along (dx, dy), 'len' cells already walked
** (0: from the node expanded itself; more: out of a run). */
static inline int jump_straight(jumper *j, long x, long y, int dx, int dy, double len) {
  long d;
  if (j->weighted && len == 0) enter(j, x + dx, y + dy);
  d = straight(j, x, y, dx, dy);
  return d ? add(j, x + dx * d, y + dy * d, len + (double)d) : 0;
}

/* Under corner cutting, has padded cell (x, y), entered along the diagonal
** (dx, dy), a forced neighbour (a cell behind it beside the run blocked,
** the one past that walkable: the 2011 rule)? Then it is a jump point. */
HOT int forced_diag(const jumper *j, long x, long y, int dx, int dy) {
  return (walkable(j, x - dx, y + dy) && !walkable(j, x - dx, y)) ||
         (walkable(j, x + dx, y - dy) && !walkable(j, x, y - dy));
}

/* jump_straight() from inside a JPS+ run ('len' > 0). */
HOT int table_ray(jumper *j, long x, long y, const int dx, const int dy, double len) {
  long d = straight_table(j, x, y, dx, dy);
  return d ? add(j, x + dx * d, y + dy * d, len + (double)d) : 0;
}

/* JPS+: where a run of step length 'step' from (x, y) along (dx, dy), 'k'
** steps done and 'seg' more possible, crosses a goal's row or column: if
** the goal is on the run, or a straight jump from there reaches it, it is a
** successor. 'stop': the cell 'seg' steps on is a boundary cell or a jump
** point of its own (corner cutting), where the run ends (no jumps from it). */
static int run_goals(jumper *j, long x, long y, int dx, int dy, long k, long seg,
                     double step, int stop) {
  size_t i, n = j->gx >= 0 ? 1 : j->q->ngoals;
  int rc;
  for (i = 0; i < n; i++) {
    long gx = j->gx >= 0 ? j->gx : j->q->goals[2 * i] + 1;
    long gy = j->gx >= 0 ? j->gy : j->q->goals[2 * i + 1] + 1;
    long ax = (gx - x) * dx, ay = (gy - y) * dy, at, cx, cy, r;
    if (dx == 0 ? ay <= 0 : ax <= 0 || ay <= 0) continue;     /* not ahead */
    at = dx == 0 || ay < ax ? ay : ax;            /* steps to the goal's row or column */
    if (at > seg) continue;
    cx = x + at * dx;
    cy = y + at * dy;
    r = labs(gx - cx) + labs(gy - cy);            /* the rest is straight */
    if (r > 0 && stop && at == seg) continue;
    if (r > 0 && straight(j, cx, cy, gx == cx ? 0 : gx > cx ? 1 : -1,
                          gx == cx ? (gy > cy ? 1 : -1) : 0) != r)
      continue;
    if ((rc = add(j, gx, gy, (double)(k + at) * step + (double)r)) != 0) return rc;
  }
  return 0;
}

/* JPS+: a run read from the table, from one cell whose straight jumps find
** jump points to the next. */
HOT int sweep_table(jumper *j, long x, long y, const int dx, const int dy) {
  const int four = dx == 0, d = astar__jt_dir(dx, dy);
  const double step = four ? 1.0 : SQRT2;
  long k = 0, at = 0;     /* steps to where the run meets the one goal's row or column */
  int rc;
  enter(j, x + dx, y + dy);
  if (j->gx >= 0) {       /* (several goals: each segment asks run_goals) */
    long ax = (j->gx - x) * dx, ay = (j->gy - y) * dy;
    at = four ? (ay > 0 ? ay : LONG_MAX) : ax > 0 && ay > 0 ? (ax < ay ? ax : ay) : LONG_MAX;
  }
  for (;;) {
    long v = j->t[(size_t)(y * j->stride + x) * (size_t)j->ts + (size_t)d], seg = v > 0 ? v : -v;
    int stop = v > 0 && ((j->weighted && on_boundary(j, x + v * dx, y + v * dy)) ||
                         (j->cut && forced_diag(j, x + v * dx, y + v * dy, dx, dy)));
    if (k + seg >= at) {
      if ((rc = run_goals(j, x, y, dx, dy, k, seg, step, stop)) != 0) return rc;
      if (j->gx >= 0) at = LONG_MAX;                /* passed */
    }
    if (v <= 0) return 0;
    x += v * dx;
    y += v * dy;
    k += v;
    if (stop) return add(j, x, y, (double)k * step);
    if (four) {
      if ((rc = table_ray(j, x, y, 1, 0, (double)k)) != 0) return rc;
      if ((rc = table_ray(j, x, y, -1, 0, (double)k)) != 0) return rc;
    } else {
      if ((rc = table_ray(j, x, y, dx, 0, (double)k * SQRT2)) != 0) return rc;
      if ((rc = table_ray(j, x, y, 0, dy, (double)k * SQRT2)) != 0) return rc;
    }
  }
}

/* A jump from inside a run: from padded cell 'pos' of bit line 'line' (lw
** words a line; the boundary line 'bline', NULL on a grid of one cost)
** along 'dir', the next cell known walkable. (x, y) is the cell, (dx, dy)
** the jump's direction, 'len' the run's length so far, 'cut' as in scan(). */
HOT int ray(jumper *j, const uint64_t *line, size_t lw, const uint64_t *bline, long x, long y,
            const int dx, const int dy, double len, const int cut) {
  long run = 0, d = scan(line, line - lw, line + lw, bline, dx ? x : y, dx ? dx : dy, &run, cut);
  run = goal_on_ray(j, x, y, dx, dy, d ? d : run);
  if (run) d = run;
  return d ? add(j, x + dx * d, y + dy * d, len + (double)d) : 0;
}

/* A diagonal run from (x, y) along (dx, dy), or under NEVER a vertical one
** (dx = 0), over the bit lines ('wt': a grid of several costs): every cell
** it enters is a source of straight jumps (horizontal under NEVER), whose
** jump points are successors. Stops at a goal or a boundary cell, and
** under corner cutting ('cut') at a cell with a forced neighbour
** (forced_diag), which is a jump point of its own. Inlined with constant arguments
** (BY_DIR below): one copy per direction. */
HOT int run_bits(jumper *j, long x, long y, const int dx, const int dy, const int wt,
                 const int cut) {
  const astar_grid *g = j->g;
  const size_t rw = g->rw, cw = g->cw;
  const uint64_t *row = g->rows + (size_t)y * rw, *col = g->cols + (size_t)x * cw;
  const uint64_t *brow = wt ? g->brows + (size_t)y * rw : NULL;
  const uint64_t *bcol = wt ? g->bcols + (size_t)x * cw : NULL;
  double len = 0;
  int h, v, rc;
  enter(j, x + dx, y + dy);
  if (dx == 0) {                                   /* NEVER */
    while (getbit(col, (size_t)(y + dy))) {
      y += dy;
      row = dy > 0 ? row + rw : row - rw;
      if (wt) brow = dy > 0 ? brow + rw : brow - rw;
      len += 1.0;
      if (is_goal(j, x, y) || (wt && getbit(brow, (size_t)x))) return add(j, x, y, len);
      if (getbit(row, (size_t)(x + 1)) && (rc = ray(j, row, rw, brow, x, y, 1, 0, len, 0)) != 0)
        return rc;
      if (getbit(row, (size_t)(x - 1)) && (rc = ray(j, row, rw, brow, x, y, -1, 0, len, 0)) != 0)
        return rc;
    }
    return 0;
  }
  h = getbit(row, (size_t)(x + dx));
  v = getbit(col, (size_t)(y + dy));
  while ((cut ? h || v || j->cut == ASTAR_DIAG_ALWAYS : h && v) &&
         getbit(dy > 0 ? row + rw : row - rw, (size_t)(x + dx))) {            /* a legal step */
    x += dx;
    y += dy;
    row = dy > 0 ? row + rw : row - rw;
    col = dx > 0 ? col + cw : col - cw;
    if (wt) {
      brow = dy > 0 ? brow + rw : brow - rw;
      bcol = dx > 0 ? bcol + cw : bcol - cw;
    }
    len += SQRT2;
    if (is_goal(j, x, y) || (wt && getbit(brow, (size_t)x))) return add(j, x, y, len);
    if (cut && forced_diag(j, x, y, dx, dy)) return add(j, x, y, len);
    h = getbit(row, (size_t)(x + dx));
    v = getbit(col, (size_t)(y + dy));
    if (h && (rc = ray(j, row, rw, brow, x, y, dx, 0, len, cut)) != 0) return rc;
    if (v && (rc = ray(j, col, cw, bcol, x, y, 0, dy, len, cut)) != 0) return rc;
  }
  return 0;
}

/* Calls F(dx, dy) with the run's direction made a constant. */
#define BY_DIR(F) \
  switch ((dx + 1) * 3 + dy + 1) { \
  case 0: return F(-1, -1); \
  case 2: return F(-1, 1); \
  case 3: return F(0, -1); \
  case 5: return F(0, 1); \
  case 6: return F(1, -1); \
  default: return F(1, 1); \
  }
#define RUN_ONE(a, b) run_bits(j, x, y, a, b, 0, 0)
#define RUN_WEIGHTED(a, b) run_bits(j, x, y, a, b, 1, 0)
#define RUN_CUT(a, b) run_bits(j, x, y, a, b, j->weighted, 1)
#define RUN_TABLE(a, b) sweep_table(j, x, y, a, b)

static int runs_one_cost(jumper *j, long x, long y, int dx, int dy) { BY_DIR(RUN_ONE) }
static int runs_weighted(jumper *j, long x, long y, int dx, int dy) { BY_DIR(RUN_WEIGHTED) }
static int runs_table(jumper *j, long x, long y, int dx, int dy) { BY_DIR(RUN_TABLE) }
static int runs_cut(jumper *j, long x, long y, int dx, int dy) { BY_DIR(RUN_CUT) }

/* A diagonal (under NEVER vertical) run from (x, y) along (dx, dy). */
static int sweep(jumper *j, long x, long y, int dx, int dy) {
  if (j->t != NULL) return runs_table(j, x, y, dx, dy);
  if (j->cut) return runs_cut(j, x, y, dx, dy);
  return j->weighted ? runs_weighted(j, x, y, dx, dy) : runs_one_cost(j, x, y, dx, dy);
}

static int sign(long v) { return (v > 0) - (v < 0); }

/* The eight directions in the order of astar__jt_dir: E, W, S, N, then the
** diagonals. */
static const int DIR[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1},
                              {1, 1}, {-1, 1}, {1, -1}, {-1, -1}};

/* The cost of a step from padded cell (x0, y0) to its neighbour (x1, y1)
** under the query's policy, or 0 if it is not a legal step. */
HOT double step_cost(const jumper *j, long x0, long y0, long x1, long y1) {
  const double *cell = j->g->cell, c = cell[y1 * j->stride + x1];
  const int pol = j->q->diagonal;
  int a, b;
  if (!(c > 0)) return 0;
  if (x0 == x1 || y0 == y1) return c;
  if (pol == ASTAR_DIAG_NEVER) return 0;
  a = cell[y0 * j->stride + x1] > 0;
  b = cell[y1 * j->stride + x0] > 0;
  return astar__diag_ok(pol, a, b) ? SQRT2 * c : 0;
}

/* The successors of a start, or of a boundary cell: the directions of
** 'keep' (bit k: DIR[k]), each a jump or a run whose paths begin with that
** step. A neighbour that is a boundary cell is where that jump would stop:
** it is added without one. */
static int from_start(jumper *j, long x, long y, int four, unsigned keep) {
  int k, rc = 0;
  for (k = 0; k < (four ? 4 : 8) && rc == 0; k++) {
    const int dx = DIR[k][0], dy = DIR[k][1];
    if (!(keep >> k & 1)) continue;
    if (j->weighted && on_boundary(j, x + dx, y + dy)) {
      if (step_cost(j, x, y, x + dx, y + dy) > 0) {
        enter(j, x + dx, y + dy);
        rc = add(j, x + dx, y + dy, dx && dy ? SQRT2 : 1.0);
      }
    } else if (four ? k < 2 : k < 4) {
      rc = jump_straight(j, x, y, dx, dy, 0);
    } else {
      rc = sweep(j, x, y, four ? 0 : dx, dy);
    }
  }
  return rc;
}

/* Is the way from padded cell (px, py) through its neighbour (ax, ay) to
** (mx, my) legal and strictly cheaper than 'via' (tie: or as cheap)? */
HOT int via2(const jumper *j, long px, long py, long ax, long ay, long mx, long my, double via,
             int tie) {
  double a = step_cost(j, px, py, ax, ay), b = a > 0 ? step_cost(j, ax, ay, mx, my) : 0;
  return b > 0 && (tie ? a + b <= via : a + b < via * (1.0 - 1e-9));
}

/*
** COST-AWARE PRUNING at a boundary cell n = (x, y) reached from its
** neighbour p = (x - dx, y - dy) on an optimal path: the step to neighbour
** m is dropped when a way from p to m avoiding n is strictly cheaper than
** p, n, m. Then no shortest path takes that step after p, n (it could be
** made strictly shorter), and none takes it after another way into n
** either: each such path is as long as the one through p (n is expanded at
** its least cost), which cannot be shortest. The ways tried: one step from
** p (every step back, against the way in, is one straight step from p; a
** step to the side of a straight one is one diagonal), and after a
** diagonal the two straight steps to either side diagonal. Ties within
** 1e-9 of the cost are kept (the sums are rounded). The other ways of two
** steps prune a few more, but checking them cost more than they saved on
** the terrain benchmark.
**
** One tie is broken, the way JPS breaks it on a grid of one cost: after a
** straight step in (horizontal under NEVER), the step on diagonally ahead
** (vertically) is dropped when the two steps swapped, the diagonal first,
** cost no more. Of the shortest paths, those that take a diagonal as soon
** as they can lose nothing to it, and those are the paths the jumps
** between boundary cells follow (diagonals first, then straight). JPSW
** (Carlson et al., AAAI 2023) breaks its ties the same way ("orthogonal
** last"). On terrain patches this is the step that counts: along the edge
** of a patch every cell is a boundary cell, and each used to start a
** diagonal run on the side the patch is not (bench/README: 1.75x faster on
** arena2 at one patch per 400 cells). Returns the directions kept, as bits
** of DIR.
*/
static unsigned keep_dirs(const jumper *j, long x, long y, int dx, int dy, int four) {
  const long px = x - dx, py = y - dy;
  const double in = step_cost(j, px, py, x, y);
  unsigned keep = 0;
  int k;
  for (k = 0; k < (four ? 4 : 8); k++) {
    const long mx = x + DIR[k][0], my = y + DIR[k][1];
    double out, alt;
    if (DIR[k][0] * dx + DIR[k][1] * dy < 0 || (out = step_cost(j, x, y, mx, my)) == 0)
      continue;
    if (labs(mx - px) <= 1 && labs(my - py) <= 1 &&
        (alt = step_cost(j, px, py, mx, my)) > 0 && alt < (in + out) * (1.0 - 1e-9))
      continue;                                     /* p reaches m in one step */
    if (dx && dy && DIR[k][0] && DIR[k][1] && DIR[k][0] * dx + DIR[k][1] * dy == 0 &&
        via2(j, px, py, px + (DIR[k][0] + dx) / 2, py + (DIR[k][1] + dy) / 2, mx, my, in + out,
             0))
      continue;
    if ((four ? dy == 0 && DIR[k][0] == 0 : (dx == 0 || dy == 0) && DIR[k][0] && DIR[k][1]) &&
        via2(j, px, py, px + DIR[k][0], py + DIR[k][1], mx, my, in + out, 1))
      continue;                                     /* the canonical order: swapped */
    keep |= 1u << k;
  }
  return keep;
}

/* keep_dirs() for padded cell (x, y), through the grid's cache of its
** answers. An answer depends on the policy and the costs of the 3x3 block
** around the cell (the cells before it and after it are neighbours, and a
** step's cost reads only cells whose coordinates are theirs), so an edit
** forgets the answers of its rectangle and the ring around it
** (astar__keep_forget). A row's answers are made when a search first asks
** about one of its cells, so the memory follows the rows searched. While
** several threads may search the grid (astar_grid_ready), searches only
** read it; without memory for a row, its answers are worked out each time. */
static unsigned kept(const jumper *j, long x, long y, int dx, int dy, int four) {
  astar_grid *g = j->q->grid;
  unsigned char **rows = g->keep[j->q->diagonal], *c;
  const size_t at = (size_t)x * (size_t)j->ts + (size_t)astar__jt_dir(dx, dy);
  unsigned k;
  if (rows == NULL) return keep_dirs(j, x, y, dx, dy, four);
  if (rows[y][at] != KEEP_UNKNOWN) return rows[y][at];
  k = keep_dirs(j, x, y, dx, dy, four);     /* never every direction: not KEEP_UNKNOWN */
  if (g->frozen) return k;
  if (rows[y] == rows[g->h + 2]) {          /* the row nobody asked about yet */
    const size_t n = g->stride * (size_t)j->ts;
    if ((c = (unsigned char *)astar__alloc(&g->mem, n)) == NULL) return k;
    memset(c, KEEP_UNKNOWN, n);
    rows[y] = c;
  }
  rows[y][at] = (unsigned char)k;
  return k;
}

/* The table of a policy: h + 2 rows, and one more (h + 2) that every row
** points to until its first answer: KEEP_UNKNOWN throughout, read only. */
void astar__keep_make(astar_grid *g, int diagonal) {
  const size_t n = (size_t)g->h + 3, row = g->stride * ASTAR_JT_STRIDE(diagonal);
  unsigned char **t;
  size_t r;
  if (g->keep[diagonal] != NULL) return;
  t = (unsigned char **)astar__alloc(&g->mem, n * sizeof(unsigned char *));
  if (t == NULL) return;
  t[n - 1] = (unsigned char *)astar__alloc(&g->mem, row);
  if (t[n - 1] == NULL) {
    astar__free(&g->mem, t, n * sizeof(unsigned char *));
    return;
  }
  memset(t[n - 1], KEEP_UNKNOWN, row);
  for (r = 0; r < n - 1; r++) t[r] = t[n - 1];
  g->keep[diagonal] = t;
}

void astar__keep_forget(astar_grid *g, int x, int y, int w, int h) {
  /* cells x .. x + w - 1 are padded x + 1 .. x + w; one more either side */
  const long x0 = x, y0 = y, x1 = (long)x + w + 1, y1 = (long)y + h + 1;
  int k;
  for (k = 0; k < 4; k++) {
    const size_t ts = (size_t)ASTAR_JT_STRIDE(k);
    unsigned char **t = g->keep[k];
    long r;
    if (t == NULL) continue;
    for (r = y0; r <= y1; r++)
      if (t[r] != t[g->h + 2])
        memset(t[r] + (size_t)x0 * ts, KEEP_UNKNOWN, (size_t)(x1 - x0 + 1) * ts);
  }
}

void astar__keep_free(astar_grid *g) {
  const size_t n = (size_t)g->h + 3;
  int k;
  for (k = 0; k < 4; k++) {
    unsigned char **t = g->keep[k];
    size_t r;
    if (t == NULL) continue;
    for (r = 0; r < n; r++)
      if (r == n - 1 || t[r] != t[n - 1])
        astar__free(&g->mem, t[r], g->stride * ASTAR_JT_STRIDE(k));
    astar__free(&g->mem, t, n * sizeof(unsigned char *));
    g->keep[k] = NULL;
  }
}

/* The successors of (x, y) reached moving straight along (dx, dy): on, and
** where a side cell is forced, that way (and diagonally, 8-connected). */
static int from_straight(jumper *j, long x, long y, int dx, int dy, int four) {
  int side, rc = jump_straight(j, x, y, dx, dy, 0);
  for (side = -1; side <= 1 && rc == 0; side += 2) {
    long sx = dx ? x : x + side, sy = dx ? y + side : y;   /* the side cell */
    if (!walkable(j, sx, sy) || walkable(j, sx - dx, sy - dy)) continue;
    if (four) rc = sweep(j, x, y, 0, side);                   /* dx != 0 under NEVER */
    else if (dx) rc = sweep(j, x, y, dx, side);
    else rc = sweep(j, x, y, side, dy);
    if (rc == 0 && !four) rc = jump_straight(j, x, y, sx - x, sy - y, 0);
  }
  return rc;
}

/* ---------------------------------------------------------------------- */
/* Corner cutting (ALWAYS, ONE_OBSTACLE): the 2011 paper's rules, where a   */
/* diagonal move may pass a blocked corner. Straight moves are forced by a  */
/* blocked side cell whose next cell ahead is open, diagonal moves by a     */
/* blocked cell behind them beside an open one; scan() and run_bits() read  */
/* them from the bit lines as they do the other rules.                     */
/* ---------------------------------------------------------------------- */

/* The successors of (x, y) reached along (dx, dy) (a diagonal, or straight
** with the other 0): on that way, its components, and the forced turns. */
static int from_cut(jumper *j, long x, long y, int dx, int dy) {
  int rc, side;
  if (dx != 0 && dy != 0) {
    if ((rc = sweep(j, x, y, dx, dy)) != 0 || (rc = jump_straight(j, x, y, dx, 0, 0)) != 0 ||
        (rc = jump_straight(j, x, y, 0, dy, 0)) != 0)
      return rc;
    if (!walkable(j, x - dx, y) && (rc = sweep(j, x, y, -dx, dy)) != 0) return rc;
    return walkable(j, x, y - dy) ? 0 : sweep(j, x, y, dx, -dy);
  }
  if ((rc = jump_straight(j, x, y, dx, dy, 0)) != 0) return rc;
  for (side = -1; side <= 1; side += 2) {
    long sx = dx ? x : x + side, sy = dx ? y + side : y;   /* the side cell */
    if (!walkable(j, sx, sy) && (rc = sweep(j, x, y, dx ? dx : side, dy ? dy : side)) != 0)
      return rc;
  }
  return 0;
}

/* ---------------------------------------------------------------------- */
/* The goal in sight of the start                                           */
/* ---------------------------------------------------------------------- */

/* Are the n cells of bit line 'line' from cell lo on all walkable? */
static int all_free(const uint64_t *line, long lo, long n) {
  while (n > 0) {
    long k = n < WIN ? n : WIN;
    uint64_t want = k == 64 ? ~(uint64_t)0 : ((uint64_t)1 << k) - 1;
    if ((window(line, lo) & want) != want) return 0;
    lo += k;
    n -= k;
  }
  return 1;
}

/* Are the n steps from padded cell (x, y) along (dx, dy) all legal (a
** diagonal step cuts no corner)? With JPS+, chained reads of the table:
** each value is how far the line goes at least (jps_plus.c). */
static int clear(const jumper *j, long x, long y, int dx, int dy, long n) {
  const astar_grid *g = j->g;
  long i;
  if (j->t != NULL) {
    const long step = dy * j->stride + dx;
    const int d = astar__jt_dir(dx, dy);
    long c = y * j->stride + x;
    while (n > 0) {
      long v = j->t[(size_t)c * (size_t)j->ts + (size_t)d];
      if (v <= 0) return -v >= n;
      n -= v;
      c += v * step;
    }
    return 1;
  }
  if (dx == 0) return all_free(g->cols + (size_t)x * g->cw, dy > 0 ? y + 1 : y - n, n);
  if (dy == 0) return all_free(g->rows + (size_t)y * g->rw, dx > 0 ? x + 1 : x - n, n);
  for (i = 0; i < n; i++, x += dx, y += dy)
    if (!walkable(j, x + dx, y) || !walkable(j, x, y + dy) || !walkable(j, x + dx, y + dy))
      return 0;
  return 1;
}

/*
** GOAL IN SIGHT. On a grid of one cost, without corner cutting, when the
** line astar_grid_toward walks from (x, y) to the one goal is free
** (diagonal steps, then straight ones; under NEVER vertical, then
** horizontal), it is as long as the octile (manhattan) distance h: the goal
** is then the node's only successor, at f = g + h, the least f open, so
** already the shortest path's cost. Returns 1 if so (the goal written), 0
** if not, or an error. Only the start asks: tried at every node it cost
** more than it saved on the Moving AI maps, with JPS+ too (its table reads
** along a long diagonal cost more than the jumps' own goal checks).
*/
static int goal_in_sight(jumper *j, long x, long y, int four) {
  long ax = labs(j->gx - x), ay = labs(j->gy - y), k = four ? ay : ax < ay ? ax : ay, r;
  int sx = (j->gx > x) - (j->gx < x), sy = (j->gy > y) - (j->gy < y), rc;
  if (!clear(j, x, y, four ? 0 : sx, sy, k)) return 0;
  if (!four) x += sx * k;
  y += sy * k;
  r = labs(j->gx - x) + labs(j->gy - y);          /* the rest is straight */
  if (!(j->gx != x ? clear(j, x, y, sx, 0, r) : clear(j, x, y, 0, sy, r))) return 0;
  rc = add(j, j->gx, j->gy, (double)k * (four ? 1.0 : SQRT2) + (double)r);
  return rc != 0 ? rc : 1;
}

int astar__jps_expand(void *self, uint32_t node, astar_search *s) {
  const astar_grid_query *q = (const astar_grid_query *)self;
  const int four = q->diagonal == ASTAR_DIAG_NEVER;
  uint32_t from = astar_search_from(s);
  jumper j;
  long x, y, dx, dy;
  int rc;
  j.q = q;
  j.g = q->grid;
  j.stride = (long)q->grid->stride;
  j.cost = q->hscale;
  j.weighted = q->jps >= 3;
  j.cut = q->diagonal == ASTAR_DIAG_ALWAYS || q->diagonal == ASTAR_DIAG_ONE_OBSTACLE
          ? q->diagonal : 0;
  j.gx = q->goals != NULL ? -1 : q->gx + 1;
  j.gy = q->gy + 1;
  j.t = q->jps == 2 || q->jps == 4 ? q->grid->jt[q->diagonal] : NULL;
  j.ts = ASTAR_JT_STRIDE(q->diagonal);
  j.s = s;
  j.cap = 8;
  j.n = 0;
  j.e = astar_search_edges(s, j.cap);
  if (j.e == NULL) return ASTAR_ENOMEM;
  astar__grid_xy(j.g, node, &x, &y);
  dx = dy = 0;
  if (from != ASTAR_NONE) {
    astar__grid_xy(j.g, from, &dx, &dy);
    dx = x - dx;
    dy = y - dy;
  }
  /* the last run into the node: the longer axis, both when they are equal
  ** (a goal on a diagonal); under NEVER the horizontal one if it moved */
  if (four ? dx != 0 : labs(dx) > labs(dy)) dy = 0;
  else if (four || labs(dy) > labs(dx)) dx = 0;
  if (from == ASTAR_NONE && j.gx >= 0 && !j.weighted && !j.cut &&
      (rc = goal_in_sight(&j, x, y, four)) != 0)
    return rc < 0 ? rc : j.n;
  if (from == ASTAR_NONE || (j.weighted && on_boundary(&j, x, y))) {
    /* a link end has no step before it to prune by */
    int lnk = j.g->link_out != NULL &&
              (j.g->link_out[node] != ASTAR_NONE || j.g->link_in[node] != ASTAR_NONE);
    rc = from_start(&j, x, y, four, from == ASTAR_NONE || lnk ? 0xffu
                    : kept(&j, x, y, sign(dx), sign(dy), four));
    if (rc == 0 && j.g->link_out != NULL && j.g->link_out[node] != ASTAR_NONE)
      return astar__grid_link_edges(j.g, node, 0, s, j.n);
    return rc != 0 ? rc : j.n;
  }
  if (j.cut) {
    rc = from_cut(&j, x, y, sign(dx), sign(dy));
  } else if (dx != 0 && dy != 0) {
    rc = sweep(&j, x, y, sign(dx), sign(dy));
    if (rc == 0) rc = jump_straight(&j, x, y, sign(dx), 0, 0);
    if (rc == 0) rc = jump_straight(&j, x, y, 0, sign(dy), 0);
  } else if (four && dx == 0) {
    rc = sweep(&j, x, y, 0, sign(dy));
    if (rc == 0) rc = jump_straight(&j, x, y, 1, 0, 0);
    if (rc == 0) rc = jump_straight(&j, x, y, -1, 0, 0);
  } else {
    rc = from_straight(&j, x, y, sign(dx), sign(dy), four);
  }
  if (rc == 0 && j.g->link_out != NULL && j.g->link_out[node] != ASTAR_NONE)
    return astar__grid_link_edges(j.g, node, 0, s, j.n);
  return rc != 0 ? rc : j.n;
}

HOT void toward(const astar_grid_query *q, int *x, int *y, int tx, int ty) {
  int dx = (tx > *x) - (tx < *x), dy = (ty > *y) - (ty < *y);
  if (q->diagonal == ASTAR_DIAG_NEVER && dy != 0) dx = 0;
  *x += dx;
  *y += dy;
}

void astar_grid_toward(const astar_grid_query *q, int *x, int *y, int tx, int ty) {
  toward(q, x, y, tx, ty);
}

/* Writes the 'steps' cells from (*x, *y) along (dx, dy) into xy and cost
** from entry n on, and moves (*x, *y) to the last; returns n + steps. */
static long leg(const astar_grid *g, long n, int *x, int *y, int dx, int dy, long steps,
                double *xy, double *cost) {
  const long step = dy * (long)g->stride + dx;
  const double *c = g->cell + (size_t)(*y + 1) * g->stride + (size_t)(*x + 1);
  double px = *x + 1, py = *y + 1;
  long i;
  for (i = 0; i < steps; i++, n++) {
    px += dx;
    py += dy;
    c += step;
    xy[2 * n] = px;
    xy[2 * n + 1] = py;
    cost[n] = *c;
  }
  *x += dx * (int)steps;
  *y += dy * (int)steps;
  return n;
}

/* The cells astar_grid_toward steps through, in legs of one direction:
** diagonal, then straight (under NEVER vertical, then horizontal). */
long astar_grid_walk(const astar_grid_query *q, int x, int y, int tx, int ty, double *xy,
                     double *cost) {
  const astar_grid *g = q->grid;
  const int sx = (tx > x) - (tx < x), sy = (ty > y) - (ty < y);
  long ax = labs((long)tx - x), ay = labs((long)ty - y), k = ax < ay ? ax : ay, n;
  if (q->diagonal == ASTAR_DIAG_NEVER) {
    if (xy == NULL) return ax + ay;
    n = leg(g, 0, &x, &y, 0, sy, ay, xy, cost);
    return leg(g, n, &x, &y, sx, 0, ax, xy, cost);
  }
  if (xy == NULL) return ax > ay ? ax : ay;
  n = leg(g, 0, &x, &y, sx, sy, k, xy, cost);
  return ax > ay ? leg(g, n, &x, &y, sx, 0, ax - k, xy, cost)
                 : leg(g, n, &x, &y, 0, sy, ay - k, xy, cost);
}
