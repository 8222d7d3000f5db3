/*
** grid_impl.h - the grid's representation, shared by the files of the core
** that work on grids (grid.c, jps.c). Not installed.
*/
#ifndef ASTAR_GRID_IMPL_H
#define ASTAR_GRID_IMPL_H

#include <string.h>
#include "core.h"

#define SQRT2 1.4142135623730951

/* A link (grid_link.c): from == ASTAR_NONE on the free list, where next_out
** is the next free record. */
typedef struct astar_glink {
  uint32_t from, to;     /* padded cells */
  uint32_t next_out;     /* the next link leaving 'from' */
  uint32_t next_in;      /* the next link entering 'to' */
  double cost;
} astar_glink;

struct astar_grid {
  astar_mem mem;
  int w, h;
  size_t stride;       /* w + 2 */
  uint64_t xy_mul;     /* c / stride = c * xy_mul >> xy_shift (astar__grid_xy) */
  unsigned xy_shift;
  size_t ncell;        /* (w + 2) * (h + 2) */
  double *cell;        /* cost, 0 = blocked (the border is blocked) */
  double min_cost;     /* smallest walkable cost, valid unless min_dirty */
  size_t min_count;    /* walkable cells whose cost is min_cost */
  int min_dirty;
  uint64_t version;
  uint64_t topo;       /* bumped when a cell turns blocked or walkable */
  /* component labels per padded cell (0 = blocked), [0] 4-connected,
  ** [1] 8-connected; NULL until first asked for, current if lab_ok and
  ** lab_topo == topo */
  uint32_t *label[2];
  uint64_t lab_topo[2];
  uint32_t ncomp[2];
  int lab_ok[2];
  int use_labels;      /* components were asked for: find uses them */
  size_t nwalk;        /* walkable cells */
  /* walkability bits for jump point search (jps.c), NULL until a search
  ** first jumps, then kept in step with every edit: 'rows' holds h + 2 rows
  ** of 'rw' words, bit i of row r telling whether padded cell (i, r) is
  ** walkable; 'cols' the w + 2 columns of 'cw' words, the transpose.
  ** 'brows' and 'bcols' (in the same blocks, after them) mark the boundary
  ** cells: walkable cells with a walkable neighbour of another cost; there
  ** are nbnd of them; bnd_ver counts the changes to them. */
  uint64_t *rows, *cols, *brows, *bcols;
  size_t rw, cw, nbnd;
  uint64_t bnd_ver;
  /* jump distances of JPS+ (jps_plus.c), per padded cell, one table per
  ** policy (index ASTAR_DIAG_*): 4 directions under NEVER, else 8; NULL
  ** until prepared, current when jt_topo == topo and jt_bnd == bnd_ver
  ** (brought up to date otherwise: around the edits made since version
  ** jt_ver, or all again) */
  int16_t *jt[4];
  uint64_t jt_topo[4], jt_bnd[4], jt_ver[4];
  size_t jt_fills;     /* tables filled whole (the C tests tell them from patches) */
  /* what boundary cells keep (jps.c, keep_dirs), one table per policy, in
  ** rows: per padded cell and direction of entry (astar__jt_dir; 4 under
  ** NEVER, else 8), the directions a jumping search goes on in,
  ** KEEP_UNKNOWN until a search asks. keep[k] is NULL until the first
  ** jumping search of several costs under policy k, then h + 3 row
  ** pointers: the last row is KEEP_UNKNOWN throughout, and the h + 2 rows
  ** of the grid point to it until a search first answers for one of their
  ** cells; forgotten around every edit (astar__keep_forget) */
  unsigned char **keep[4];
  int frozen;          /* astar_grid_ready, and no edit or astar_grid_thaw
                       ** since: searches only read (several threads may) */
  /* the last edits, for incremental replanners: edit number v (the version
  ** it produced) is at edits[v % ASTAR_GRID_LOG] */
  astar_rect edits[ASTAR_GRID_LOG];
  /* links (grid_link.c): records, and per padded cell the first link
  ** leaving and entering it (ASTAR_NONE: none); the head arrays are NULL
  ** until the first link */
  astar_glink *link;
  size_t nlinkrec, clink, nlinks;
  uint32_t link_free;
  uint32_t *link_out, *link_in;
  /* what a unit of shape fit_r[i] (a disc's radius or a footprint: see
  ** FIT_BOX) may do from each padded cell, for FIT_SLOTS shapes at once
  ** (grid_line.c): FIT_KNOWN once worked out, FIT_HERE if it fits at the
  ** cell, bit d if it may step to neighbour d (astar__grid_fit); NULL until
  ** a search with that shape, then forgotten around every edit; the least
  ** recently prepared slot goes to a new shape */
#define FIT_SLOTS 4
  uint16_t *fit[FIT_SLOTS];
  double fit_r[FIT_SLOTS];
  uint64_t fit_used[FIT_SLOTS], fit_clock;
  /* a movement class (grid_class.c): the ncmap pairs (cost in the grid it
  ** follows, cost here), sorted by the first; NULL for a plain grid */
  double *cmap;
  size_t ncmap;
  /* scratch of astar_grid_taut (grid_pull.c), kept for the next call */
  double *taut;
  size_t ctaut;
  int hex;             /* ASTAR_HEX_*: 0 square, else a hexagonal layout */
  int wrap;            /* ASTAR_WRAP_* bits: the axes that wrap around */
};

/* grid_line.c: the fit bits of padded cell 'node' for radius r, worked out
** if need be (from the cache when r is the one it holds; it is not if
** another radius reset it, or there is none). Bits 0..7 the steps N, W, E,
** S, NW, NE, SW, SE; FIT_HERE the centre. */
#define FIT_HERE  0x100u
#define FIT_KNOWN 0x8000u
/* The cache is for one shape at a time, named by a key: a disc of radius
** r > 0 is r itself; a footprint of w x h cells (anchored at its top-left
** cell) is FIT_BOX(w, h), below 0. A footprint's bits say where it fits: at
** the cell (FIT_HERE) and at each neighbour (bit d); the diagonal policy
** then reads the two orthogonal bits (astar__grid_boxstep). */
#define FIT_BOX(w, h) (-(double)((w) * 65536 + (h)))
unsigned astar__grid_fit(astar_grid *g, uint32_t node, double r);
/* May a footprint whose fit bits are 'bits' step in direction d (0..7, as
** the bits) under the diagonal policy? */
int astar__grid_boxstep(unsigned bits, int d, int policy);
/* grid_line.c: makes the cache hold radius r (emptied if it held another;
** made if missing: without memory, nothing is cached). */
void astar__grid_fit_prepare(astar_grid *g, double r);
/* grid_line.c: forgets what an edit of the rectangle may have changed. */
void astar__grid_fit_forget(astar_grid *g, int x, int y, int w, int h);
void astar__grid_fit_free(astar_grid *g);

/* grid.c: sets padded cell 'node' to cost c, keeping the smallest cost and
** the counts right; the caller then updates the bits and records the edit. */
void astar__grid_put(astar_grid *g, size_t node, double c);
/* grid_hex.c: the six neighbours of padded cell 'node' of a hex grid (any
** may be the blocked border); returns 6. */
int astar__hex_neighbours(const astar_grid *g, uint32_t node, uint32_t out[6]);
/* grid_wrap.c: the eight neighbours of padded cell 'node' of a wrapping grid,
** N, W, E, S, NW, NE, SW, SE (across a seam where an axis wraps; the blocked
** border where it does not). */
void astar__wrap_neighbours(const astar_grid *g, uint32_t node, uint32_t out[8]);
/* grid_wrap.c: the step (dx, dy) from cell (x0, y0) to (x1, y1), across a
** seam where that is the neighbour. */
void astar__wrap_delta(const astar_grid *g, int x0, int y0, int x1, int y1, int *dx, int *dy);
/* grid_wrap.c: a distance d >= 0 along axis 0 (x) or 1 (y), the shorter way
** round where the axis wraps. */
double astar__wrap_axis(const astar_grid *g, double d, int axis);
/* jps.c: the cache of what boundary cells keep, for the policy (made if
** missing; without memory, nothing is cached), forgetting around an edit,
** and freeing every policy's. */
#define KEEP_UNKNOWN 0xffu
void astar__keep_make(astar_grid *g, int diagonal);
void astar__keep_forget(astar_grid *g, int x, int y, int w, int h);
void astar__keep_free(astar_grid *g);
/* grid_class.c: frees a class's table. */
void astar__grid_class_free(astar_grid *g);

/* grid.c: records an edit of the w x h rectangle at (x, y), bumping the version. */
void astar__grid_edited(astar_grid *g, int x, int y, int w, int h);
/* grid_link.c: appends to the search's edges, after the k already written,
** the links leaving 'node' (back: entering it, toward the cell they leave)
** whose other cell is walkable; returns the new count or ASTAR_ENOMEM. */
int astar__grid_link_edges(const astar_grid *g, uint32_t node, int back, astar_search *s,
                           int k);
/* grid_link.c: copies src's links into dst, which has none; 0 or ASTAR_ENOMEM. */
int astar__grid_links_copy(astar_grid *dst, const astar_grid *src);
void astar__grid_links_free(astar_grid *g);

/* jps.c: keeps the walkability bits of the w x h rectangle at (x, y) in
** step with the cells after an edit (nothing if they were never built). */
void astar__grid_bits_rect(astar_grid *g, int x, int y, int w, int h);
/* Bit lines (jps.c's walkability bits): cell i of a line is bit i + 64, one
** guard word (all blocked) on either side. astar__window: ASTAR_WIN cells of
** the line from cell i on (-64 <= i <= the line's length): bit k is cell
** i + k, k < ASTAR_WIN. Little-endian machines read 8 bytes from the byte
** holding cell i (one load: 57 cells or more); others join two words. */
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ASTAR_WIN 57
HOT uint64_t astar__window(const uint64_t *line, long i) {
  size_t k = (size_t)(i + 64);
  uint64_t v;
  memcpy(&v, (const unsigned char *)line + (k >> 3), sizeof v);
  return v >> (k & 7);
}
#else
#define ASTAR_WIN 64
HOT uint64_t astar__window(const uint64_t *line, long i) {
  size_t k = (size_t)(i + 64), w = k >> 6;
  unsigned sh = (unsigned)(k & 63);
  return sh ? (line[w] >> sh) | (line[w + 1] << (64 - sh)) : line[w];
}
#endif
/* The index of the lowest set bit of v (v != 0). */
HOT int astar__lowbit(uint64_t v) {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_ctzll(v);
#else
  int i = 0;
  while (!(v & 1)) { v >>= 1; i++; }
  return i;
#endif
}
/* The index of the highest set bit of v (v != 0). */
HOT int astar__highbit(uint64_t v) {
#if defined(__GNUC__) || defined(__clang__)
  return 63 - __builtin_clzll(v);
#else
  int i = 63;
  while (!(v >> 63)) { v <<= 1; i--; }
  return i;
#endif
}
/* floor(x) for the grid-sized numbers lines take (|x| < 2^52), without a
** call: line tests run it for every line of cells they cross. */
static inline long astar__lfloor(double x) {
  long i = (long)x;
  return i - ((double)i > x);
}
/* Does every walkable cell cost the same, as far as the grid knows without
** a rescan (a stale minimum says no)? */
static inline int astar__grid_one_cost(const astar_grid *g) {
  return !g->min_dirty && g->nwalk > 0 && g->min_count == g->nwalk;
}
/* Is cell (i, j) (0-based; the border or beyond too) blocked? */
static inline int astar__grid_blocked(const astar_grid *g, long i, long j) {
  if (i < 0 || j < 0 || i >= g->w || j >= g->h) return 1;
  return g->cell[(size_t)(j + 1) * g->stride + (size_t)(i + 1)] <= 0;
}
/* Is cell (i, j) of frame f blocked? Frame 0 is the grid; frame 1 its
** transpose (x and y swapped), where the lines of cells are its columns:
** the line tests and the taut chains of grid_line.c and grid_pull.c run
** along either axis with one code. */
static inline int astar__frame_blocked(const astar_grid *g, int f, long i, long j) {
  return f ? astar__grid_blocked(g, j, i) : astar__grid_blocked(g, i, j);
}
/* grid_line.c: the squared distance from segment a-b to the square of cell
** (i, j) (0 if they meet), in grid units. */
double astar__grid_cell2(double ax, double ay, double bx, double by, long i, long j);
/* grid_hex.c: can a grid of this hex layout (0: square) and size wrap so?
** Along the shoved axis only with an even count of lines. */
int astar__hex_wraps(int layout, int wrap, int w, int h);
/* jps.c: frees the walkability bits. */
void astar__grid_bits_free(astar_grid *g);
/* jps.c: the expand function of a jump point search (self: the query). */
int astar__jps_expand(void *self, uint32_t node, astar_search *s);
/* jps.c: builds the walkability bits if needed; 0 or ASTAR_ENOMEM. */
int astar__grid_bits(astar_grid *g);
/* May a diagonal step pass between orthogonal neighbours whose walkability
** is 'a' and 'b' under the policy (grid.c's searches, jps.c's pruning)? */
static inline int astar__diag_ok(int policy, int a, int b) {
  switch (policy) {
    case ASTAR_DIAG_NO_CORNER_CUTTING: return a && b;
    case ASTAR_DIAG_ONE_OBSTACLE: return a || b;
    default: return 1;
  }
}

/* grid.c: sets g->xy_mul and g->xy_shift for g->stride. */
void astar__grid_reciprocal(astar_grid *g);
/* Padded cell c's column *x and row *y. A division of 64 bits costs 40-90
** cycles on some machines, and every expansion and heuristic does one: a
** multiplication by the reciprocal instead (astar__grid_reciprocal), exact
** for every cell of a grid. */
static inline void astar__grid_xy(const astar_grid *g, size_t c, long *x, long *y) {
  size_t q = (size_t)(((uint64_t)c * g->xy_mul) >> g->xy_shift);
  *x = (long)(c - q * g->stride);
  *y = (long)q;
}

/* The centre of padded cell c in grid units (cell (1, 1) spans 0 .. 1). */
static inline void astar__grid_centre(const astar_grid *g, size_t c, double *x, double *y) {
  long cx, cy;
  astar__grid_xy(g, c, &cx, &cy);
  *x = (double)cx - 0.5;
  *y = (double)cy - 0.5;
}

/* The index of direction (dx, dy) in a cell's JPS+ jump distances (jps_plus.c):
** E, W, S, N (0..3; under NEVER 2 and 3 are the vertical runs), then the
** diagonals 4 + (dx < 0) + 2 (dy < 0). */
static inline int astar__jt_dir(int dx, int dy) {
  if (dx != 0 && dy != 0) return 4 + (dx < 0) + 2 * (dy < 0);
  return dx != 0 ? dx < 0 : 2 + (dy < 0);
}
/* jps_plus.c: distances per cell of table k (8 or 4). */
#define ASTAR_JT_STRIDE(k) ((k) == ASTAR_DIAG_NEVER ? 4 : 8)
/* jps_plus.c: makes table k current (rebuilt in place after edits). */
void astar__jt_refresh(astar_grid *g, int k);
void astar__jt_free(astar_grid *g);

#endif
