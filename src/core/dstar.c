/*
** dstar.c - incremental re-planning on grids: D* Lite (S. Koenig and
** M. Likhachev, "D* Lite", AAAI 2002), the version with a key modifier km.
**
** The search runs backward, from the goal: g(s) is the cost of the cheapest
** known path from s to the goal, rhs(s) its one-step lookahead
** min over successors s' of c(s, s') + g(s'). A vertex is consistent when
** g == rhs; the open list U holds the inconsistent ones, keyed by
** [min(g, rhs) + h(start, s) + km, min(g, rhs)]. Because the search is rooted
** at the goal, the agent may move (the start changes) without losing work:
** km grows by h(old start, new start) so old keys stay lower bounds. When
** cells change, only the vertices whose outgoing edges changed are updated
** (the cells of each edited rectangle and their neighbours: an edit changes
** the cost of entering a cell, its own moves, and the diagonals that pass its
** corners), and the search repairs the rest.
**
** Ties and rounding. g values are sums of step costs (sqrt 2 on diagonals)
** taken in different orders, so a key that is equal to the start's key in
** exact arithmetic can come out a few ulps above it, and the search would stop
** with that vertex still inconsistent - its g stale, lower than its true
** cost - and the walk down the g values could then circle it forever. So the
** search keeps going while the top key is within a relative TIE of the start's
** (processing more vertices never breaks D* Lite), and the walk takes a step
** only when it lowers g; if it cannot, the open list is drained (every vertex
** consistent, so g(u) = min c(u, v) + g(v) holds everywhere) and the walk
** starts over. Each walk takes at most one step per cell.
*/
#include <math.h>
#include <string.h>
#include "grid_impl.h"

#define SQRT2 1.4142135623730951
#define TIE 1e-9                  /* relative: far above rounding, far below a step */

typedef struct dent {
  double k1, k2;
  uint32_t node;
} dent;

struct astar_dstar {
  astar_mem mem;
  astar_grid *grid;       /* not owned */
  int diagonal;
  size_t stride, ncell;
  double *g, *rhs;        /* per padded cell */
  uint32_t *hidx;         /* heap index + 1; 0 when not in U */
  dent *heap;
  size_t nheap, cheap;
  uint32_t start, goal, last;
  double km, hscale;
  double r;               /* the unit's radius (0: a point): moves need its fit bits */
  uint64_t version;       /* the grid version the values are for */
  uint64_t expanded;      /* by the last compute */
  uint64_t total;         /* over the planner's life */
  unsigned resets;
};

/* The eight moves: 4 orthogonal first. */
static const int DX[8] = {0, -1, 1, 0, -1, 1, -1, 1};
static const int DY[8] = {-1, 0, 0, 1, -1, -1, 1, 1};

static double hval(const astar_dstar *d, uint32_t a, uint32_t b) {
  double dx = fabs((double)(a % d->stride) - (double)(b % d->stride));
  double dy = fabs((double)(a / d->stride) - (double)(b / d->stride));
  double lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
  if (d->diagonal == ASTAR_DIAG_NEVER) return d->hscale * (dx + dy);
  return d->hscale * (hi + (SQRT2 - 1.0) * lo);
}

/* The cost of the move k out of u (HUGE_VAL if not allowed). */
static double movecost(const astar_dstar *d, const double *c, uint32_t u, int k) {
  ptrdiff_t W = (ptrdiff_t)d->stride;
  size_t v = (size_t)((ptrdiff_t)u + DY[k] * W + DX[k]);
  if (c[u] <= 0 || c[v] <= 0) return HUGE_VAL;
  if (d->r > 0 && !(astar__grid_fit(d->grid, u, d->r) & (1u << k))) return HUGE_VAL;
  if (k < 4) return c[v];
  if (d->diagonal == ASTAR_DIAG_NEVER) return HUGE_VAL;
  {
    int a = c[(ptrdiff_t)u + DX[k]] > 0, b = c[(ptrdiff_t)u + DY[k] * W] > 0;
    if (d->diagonal == ASTAR_DIAG_NO_CORNER_CUTTING && !(a && b)) return HUGE_VAL;
    if (d->diagonal == ASTAR_DIAG_ONE_OBSTACLE && !(a || b)) return HUGE_VAL;
  }
  return c[v] * SQRT2;
}

static uint32_t nbr(const astar_dstar *d, uint32_t u, int k) {
  return (uint32_t)((ptrdiff_t)u + DY[k] * (ptrdiff_t)d->stride + DX[k]);
}

/* ---- the open list U: a binary heap with positions ---- */

static int less(const dent *a, const dent *b) {
  if (a->k1 != b->k1) return a->k1 < b->k1;
  if (a->k2 != b->k2) return a->k2 < b->k2;
  return a->node < b->node;
}

static void place(astar_dstar *d, size_t i, dent e) {
  d->heap[i] = e;
  d->hidx[e.node] = (uint32_t)i + 1;
}

static void up(astar_dstar *d, size_t i) {
  dent e = d->heap[i];
  while (i > 0 && less(&e, &d->heap[(i - 1) / 2])) {
    place(d, i, d->heap[(i - 1) / 2]);
    i = (i - 1) / 2;
  }
  place(d, i, e);
}

static void down(astar_dstar *d, size_t i) {
  dent e = d->heap[i];
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= d->nheap) break;
    if (c + 1 < d->nheap && less(&d->heap[c + 1], &d->heap[c])) c++;
    if (!less(&d->heap[c], &e)) break;
    place(d, i, d->heap[c]);
    i = c;
  }
  place(d, i, e);
}

static void heap_remove(astar_dstar *d, uint32_t u) {
  size_t i = d->hidx[u] - 1;
  dent e;
  d->hidx[u] = 0;
  if (i + 1 == d->nheap) { d->nheap--; return; }
  e = d->heap[--d->nheap];
  place(d, i, e);
  up(d, i);
  down(d, d->hidx[e.node] - 1);
}

static void keyof(const astar_dstar *d, uint32_t u, double *k1, double *k2) {
  double m = d->g[u] < d->rhs[u] ? d->g[u] : d->rhs[u];
  *k1 = m + hval(d, d->start, u) + d->km;
  *k2 = m;
}

/* Puts u in U with its current key (or updates it). */
static int heap_set(astar_dstar *d, uint32_t u) {
  dent e;
  keyof(d, u, &e.k1, &e.k2);
  e.node = u;
  if (d->hidx[u]) {
    size_t i = d->hidx[u] - 1;
    d->heap[i] = e;
    up(d, i);
    down(d, d->hidx[u] - 1);
    return 0;
  }
  if (astar__reserve(&d->mem, (void **)&d->heap, &d->cheap, d->nheap + 1, sizeof *d->heap))
    return ASTAR_ENOMEM;
  place(d, d->nheap, e);
  up(d, d->nheap++);
  return 0;
}

static int update_vertex(astar_dstar *d, const double *c, uint32_t u) {
  if (u != d->goal) {
    double best = HUGE_VAL;
    int k, nk = d->diagonal == ASTAR_DIAG_NEVER ? 4 : 8;
    for (k = 0; k < nk; k++) {
      double m = movecost(d, c, u, k);
      if (m < HUGE_VAL) {
        double v = m + d->g[nbr(d, u, k)];
        if (v < best) best = v;
      }
    }
    d->rhs[u] = best;
  }
  if (d->g[u] != d->rhs[u]) return heap_set(d, u);
  if (d->hidx[u]) heap_remove(d, u);
  return 0;
}

/* Forgets everything: the values are for no grid version yet. */
static int reset(astar_dstar *d) {
  size_t i;
  for (i = 0; i < d->ncell; i++) {
    d->g[i] = d->rhs[i] = HUGE_VAL;
    d->hidx[i] = 0;
  }
  d->nheap = 0;
  d->km = 0;
  d->last = d->start;
  d->hscale = astar_grid_min_cost(d->grid);
  d->version = astar_grid_version(d->grid);
  d->rhs[d->goal] = 0;
  d->resets++;
  return heap_set(d, d->goal);
}

int astar_dstar_new(astar_dstar **out, astar_grid *g, int sx, int sy, int gx, int gy,
                    int diagonal, astar_alloc alloc, void *ud) {
  astar_mem m;
  astar_dstar *d;
  size_t n;
  int w = astar_grid_width(g), h = astar_grid_height(g);
  *out = NULL;
  if (sx < 0 || sy < 0 || gx < 0 || gy < 0 || sx >= w || gx >= w || sy >= h || gy >= h ||
      diagonal < ASTAR_DIAG_NO_CORNER_CUTTING || diagonal > ASTAR_DIAG_ONE_OBSTACLE ||
      astar_grid_hex(g) || astar_grid_wrap(g))
    return ASTAR_EINVAL;
  n = ((size_t)w + 2) * ((size_t)h + 2);
  if (n > SIZE_MAX / sizeof(double)) return ASTAR_ENOMEM;
  m.fn = alloc; m.ud = ud; m.allocs = 0;
  d = (astar_dstar *)astar__alloc(&m, sizeof *d);
  if (d == NULL) return ASTAR_ENOMEM;
  memset(d, 0, sizeof *d);
  d->mem = m;
  d->g = (double *)astar__alloc(&d->mem, n * sizeof(double));
  d->rhs = (double *)astar__alloc(&d->mem, n * sizeof(double));
  d->hidx = (uint32_t *)astar__alloc(&d->mem, n * sizeof(uint32_t));
  d->grid = g;
  d->diagonal = diagonal;
  d->stride = (size_t)w + 2;
  d->ncell = n;
  d->start = astar_grid_node(g, sx, sy);
  d->goal = astar_grid_node(g, gx, gy);
  if (d->g == NULL || d->rhs == NULL || d->hidx == NULL || reset(d) != 0) {
    astar_dstar_free(d);
    return ASTAR_ENOMEM;
  }
  d->resets = 0;
  *out = d;
  return 0;
}

void astar_dstar_free(astar_dstar *d) {
  astar_mem m;
  if (d == NULL) return;
  m = d->mem;
  astar__free(&m, d->g, d->ncell * sizeof(double));
  astar__free(&m, d->rhs, d->ncell * sizeof(double));
  astar__free(&m, d->hidx, d->ncell * sizeof(uint32_t));
  astar__free(&m, d->heap, d->cheap * sizeof *d->heap);
  astar__free(&m, d, sizeof *d);
}

int astar_dstar_radius(astar_dstar *d, double r) {
  if (!(r >= 0 && r <= 1e6)) return ASTAR_EINVAL;
  int rc;
  d->r = r;
  if (r > 0) astar__grid_fit_prepare(d->grid, r);
  rc = reset(d);
  d->resets--;                          /* a new plan, not a start over */
  return rc;
}

void astar_dstar_move(astar_dstar *d, int x, int y) {
  d->start = astar_grid_node(d->grid, x, y);
}

/* Brings the values up to the grid's current version. */
static int sync(astar_dstar *d, const double *c) {
  astar_rect r[ASTAR_GRID_LOG];
  long n, i;
  if (d->version == astar_grid_version(d->grid)) return 0;
  n = astar_grid_changes(d->grid, d->version, r);
  /* too many edits to replay, or a cheaper cell that would make the
  ** heuristic overestimate: start over */
  if (n < 0 || astar_grid_min_cost(d->grid) < d->hscale) return reset(d);
  d->km += hval(d, d->last, d->start);
  d->last = d->start;
  for (i = 0; i < n; i++) {           /* a disc's moves read the cells within r + 1.5 */
    int x, y, W = astar_grid_width(d->grid), H = astar_grid_height(d->grid);
    int m = d->r > 0 ? (int)ceil(d->r) + 2 : 1;
    for (y = r[i].y - m; y < r[i].y + r[i].h + m; y++)
      for (x = r[i].x - m; x < r[i].x + r[i].w + m; x++)
        if (x >= 0 && y >= 0 && x < W && y < H) {
          int rc = update_vertex(d, c, astar_grid_node(d->grid, x, y));
          if (rc) return rc;
        }
  }
  d->version = astar_grid_version(d->grid);
  return 0;
}

static int compute(astar_dstar *d);

int astar_dstar_compute(astar_dstar *d) {
  int rc = compute(d);
  if (rc != 0) d->version = UINT64_MAX;  /* half-updated: start afresh next time */
  return rc;
}

/* Is key (k1, k2) below the start's (s1, s2), counting near-ties as below? */
static int below(double k1, double k2, double s1, double s2) {
  double t1 = TIE * (fabs(s1) > 1 ? fabs(s1) : 1), t2 = TIE * (fabs(s2) > 1 ? fabs(s2) : 1);
  return k1 < s1 - t1 || (k1 <= s1 + t1 && k2 <= s2 + t2);
}

/* Processes the open list until the start is consistent and no key is below
** its own (drain: until the list is empty). */
static int process(astar_dstar *d, const double *c, int drain) {
  int rc, k, nk = d->diagonal == ASTAR_DIAG_NEVER ? 4 : 8;
  while (d->nheap > 0) {
    dent top = d->heap[0];
    uint32_t u = top.node;
    double n1, n2;
    if (!drain) {
      double s1, s2;
      keyof(d, d->start, &s1, &s2);
      if (!below(top.k1, top.k2, s1, s2) && d->rhs[d->start] == d->g[d->start]) break;
    }
    d->expanded++;
    keyof(d, u, &n1, &n2);
    if (top.k1 < n1 || (top.k1 == n1 && top.k2 < n2)) {   /* stale key */
      if ((rc = heap_set(d, u)) != 0) return rc;
      continue;
    }
    if (d->g[u] > d->rhs[u]) {          /* overconsistent: settle */
      d->g[u] = d->rhs[u];
      heap_remove(d, u);
      for (k = 0; k < nk; k++)
        if ((rc = update_vertex(d, c, nbr(d, u, k))) != 0) return rc;
    } else {                            /* underconsistent: raise, then repair */
      d->g[u] = HUGE_VAL;
      for (k = 0; k < nk; k++)
        if ((rc = update_vertex(d, c, nbr(d, u, k))) != 0) return rc;
      if ((rc = update_vertex(d, c, u)) != 0) return rc;
    }
  }
  return 0;
}

static int compute(astar_dstar *d) {
  const double *c = astar__grid_cells(d->grid);
  int rc = sync(d, c);
  if (rc) return rc;
  if (d->start != d->last) {             /* the agent moved: keep keys lower bounds */
    d->km += hval(d, d->last, d->start);
    d->last = d->start;
  }
  d->expanded = 0;
  rc = process(d, c, 0);
  d->total += d->expanded;
  return rc;
}

/* One walk down the g values from the start: the number of cells, 0 with *why
** set, or -1 when a step would not lower g (some vertex still inconsistent). */
static long walk(astar_dstar *d, const double *c, uint32_t *out, size_t max, double *cost,
                 int *why) {
  uint32_t u = d->start;
  size_t n = 0;
  int nk = d->diagonal == ASTAR_DIAG_NEVER ? 4 : 8;
  *cost = 0;
  if (!(d->g[u] < HUGE_VAL)) { *why = ASTAR_NO_PATH; return 0; }
  for (;;) {
    int k, bk = -1;
    double best = HUGE_VAL, step = 0;
    if (n == max) return -1;
    out[n++] = u;
    if (u == d->goal) return (long)n;
    for (k = 0; k < nk; k++) {
      double m = movecost(d, c, u, k);
      if (m < HUGE_VAL && m + d->g[nbr(d, u, k)] < best) {
        best = m + d->g[nbr(d, u, k)];
        bk = k;
        step = m;
      }
    }
    if (bk < 0) { *why = ASTAR_NO_PATH; return 0; }
    if (!(d->g[nbr(d, u, bk)] < d->g[u])) return -1;
    *cost += step;
    u = nbr(d, u, bk);
  }
}

long astar_dstar_path(astar_dstar *d, uint32_t *out, size_t max, double *cost, int *why) {
  const double *c = astar__grid_cells(d->grid);
  long n;
  int rc;
  uint64_t before;
  *cost = 0;
  *why = ASTAR_FOUND;
  if (c[d->start] <= 0 || c[d->goal] <= 0 ||
      (d->r > 0 && !((astar__grid_fit(d->grid, d->start, d->r) &
                      astar__grid_fit(d->grid, d->goal, d->r)) & FIT_HERE))) {
    *why = ASTAR_BLOCKED;
    return 0;
  }
  if (max > d->ncell) max = d->ncell;
  before = d->expanded;
  n = walk(d, c, out, max, cost, why);
  if (n >= 0) return n;
  rc = process(d, c, 1);                 /* drain: every vertex consistent */
  d->total += d->expanded - before;
  if (rc != 0) { d->version = UINT64_MAX; return rc; }
  n = walk(d, c, out, max, cost, why);
  return n >= 0 ? n : ASTAR_ESTATE;
}

void astar_dstar_stats(const astar_dstar *d, uint64_t *expanded, uint64_t *total,
                       unsigned *resets) {
  *expanded = d->expanded;
  *total = d->total;
  *resets = d->resets;
}
