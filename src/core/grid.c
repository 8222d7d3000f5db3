/*
** grid.c - tile grids: cells with cost multipliers, and their search domain.
**
** Cells are stored with a one-cell border of blocked cells around the map, so
** that neighbour expansion needs no bounds checks: the engine node of cell
** (x, y) is (y + 1) * (w + 2) + (x + 1), and its eight neighbours are fixed
** offsets from it.
*/
#include <math.h>
#include <string.h>
#include "core.h"

#define SQRT2 1.4142135623730951

struct astar_grid {
  astar_mem mem;
  int w, h;
  size_t stride;       /* w + 2 */
  size_t ncell;        /* (w + 2) * (h + 2) */
  double *cell;        /* cost, 0 = blocked (the border is blocked) */
  double min_cost;     /* smallest walkable cost, valid unless min_dirty */
  int min_dirty;
  uint64_t version;
};

static int goodcost(double c) {
  return c == 0.0 || (c > 0.0 && c < HUGE_VAL);
}

static size_t at(const astar_grid *g, int x, int y) {
  return (size_t)(y + 1) * g->stride + (size_t)(x + 1);
}

int astar_grid_new(astar_grid **out, int w, int h, double cost,
                   astar_alloc alloc, void *ud) {
  astar_mem m;
  astar_grid *g;
  size_t ncell;
  int y;
  *out = NULL;
  if (w < 1 || h < 1 || (uint64_t)w * (uint64_t)h > ASTAR_GRID_MAX_CELLS ||
      !goodcost(cost))
    return ASTAR_EINVAL;
  ncell = ((size_t)w + 2) * ((size_t)h + 2);
  if (ncell > SIZE_MAX / sizeof(double)) return ASTAR_ENOMEM;
  m.fn = alloc; m.ud = ud; m.allocs = 0;
  g = (astar_grid *)astar__alloc(&m, sizeof *g);
  if (g == NULL) return ASTAR_ENOMEM;
  g->cell = (double *)astar__alloc(&m, ncell * sizeof(double));
  if (g->cell == NULL) {
    astar__free(&m, g, sizeof *g);
    return ASTAR_ENOMEM;
  }
  g->mem = m;
  g->w = w; g->h = h;
  g->stride = (size_t)w + 2;
  g->ncell = ncell;
  g->version = 0;
  memset(g->cell, 0, ncell * sizeof(double));
  for (y = 0; y < h; y++) {
    double *row = g->cell + at(g, 0, y);
    int x;
    for (x = 0; x < w; x++) row[x] = cost;
  }
  g->min_cost = cost > 0 ? cost : 1.0;
  g->min_dirty = 0;
  *out = g;
  return 0;
}

void astar_grid_free(astar_grid *g) {
  astar_mem m;
  if (g == NULL) return;
  m = g->mem;
  astar__free(&m, g->cell, g->ncell * sizeof(double));
  astar__free(&m, g, sizeof *g);
}

int astar_grid_clone(astar_grid **out, const astar_grid *src) {
  int rc = astar_grid_new(out, src->w, src->h, 0.0, src->mem.fn, src->mem.ud);
  if (rc != 0) return rc;
  memcpy((*out)->cell, src->cell, src->ncell * sizeof(double));
  (*out)->min_cost = src->min_cost;
  (*out)->min_dirty = src->min_dirty;
  return 0;
}

int astar_grid_width(const astar_grid *g) { return g->w; }
int astar_grid_height(const astar_grid *g) { return g->h; }
uint64_t astar_grid_version(const astar_grid *g) { return g->version; }
size_t astar_grid_allocs(const astar_grid *g) { return g->mem.allocs; }

double astar_grid_get(const astar_grid *g, int x, int y) {
  return g->cell[at(g, x, y)];
}

/* Keeps min_cost right when a cell goes from 'old' to 'c'. */
static void track_min(astar_grid *g, double old, double c) {
  if (g->min_dirty) return;
  if (c > 0 && c < g->min_cost) g->min_cost = c;
  else if (old == g->min_cost && c != old) g->min_dirty = 1;  /* rescan later */
}

void astar_grid_set(astar_grid *g, int x, int y, double c) {
  double *p = &g->cell[at(g, x, y)];
  track_min(g, *p, c);
  *p = c;
  g->version++;
}

void astar_grid_fill(astar_grid *g, int x, int y, int w, int h, double c) {
  int i, j;
  for (j = 0; j < h; j++) {
    double *row = g->cell + at(g, x, y + j);
    for (i = 0; i < w; i++) {
      track_min(g, row[i], c);
      row[i] = c;
    }
  }
  g->version++;
}

void astar_grid_set_row(astar_grid *g, int y, const unsigned char *bytes,
                        const double *table) {
  double *row = g->cell + at(g, 0, y);
  int x;
  for (x = 0; x < g->w; x++) {
    double c = table[bytes[x]];
    track_min(g, row[x], c);
    row[x] = c;
  }
  g->version++;
}

double astar_grid_min_cost(astar_grid *g) {
  if (g->min_dirty) {
    double m = HUGE_VAL;
    size_t i;
    for (i = 0; i < g->ncell; i++)
      if (g->cell[i] > 0 && g->cell[i] < m) m = g->cell[i];
    g->min_cost = m == HUGE_VAL ? 1.0 : m;
    g->min_dirty = 0;
  }
  return g->min_cost;
}

uint32_t astar_grid_node(const astar_grid *g, int x, int y) {
  return (uint32_t)at(g, x, y);
}

void astar_grid_cell(const astar_grid *g, uint32_t node, int *x, int *y) {
  *y = (int)(node / g->stride) - 1;
  *x = (int)(node % g->stride) - 1;
}


/* ---------------------------------------------------------------------- */
/* The search domain                                                        */
/* ---------------------------------------------------------------------- */

void astar_grid_query_init(astar_grid_query *q) {
  memset(q, 0, sizeof *q);
  q->diagonal = ASTAR_DIAG_NO_CORNER_CUTTING;
  q->heuristic = -1;   /* resolved by astar_grid_prepare */
  q->within = -1;
  astar_params_init(&q->params);
}

/* The built-in heuristic distance between two engine nodes, unscaled. */
static double hdist(const astar_grid_query *q, uint32_t a, uint32_t b) {
  size_t stride = q->grid->stride;
  double dx = fabs((double)(a % stride) - (double)(b % stride));
  double dy = fabs((double)(a / stride) - (double)(b / stride));
  double lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
  switch (q->heuristic) {
    case ASTAR_H_OCTILE: return hi + (SQRT2 - 1.0) * lo;
    case ASTAR_H_MANHATTAN: return dx + dy;
    case ASTAR_H_EUCLIDEAN: return sqrt(dx * dx + dy * dy);
    case ASTAR_H_CHEBYSHEV: return hi;
    default: return 0.0;
  }
}

/* The heuristic toward goal node 'goal' (user or built-in), less the range
** 'within' (a goal region is reached sooner: still admissible, consistent). */
static double h_to(const astar_grid_query *q, uint32_t node, uint32_t goal) {
  double h;
  if (q->h_fn != NULL) {
    int x, y, gx, gy;
    astar_grid_cell(q->grid, node, &x, &y);
    astar_grid_cell(q->grid, goal, &gx, &gy);
    h = q->h_fn(q->h_ud, x, y, gx, gy);
  } else {
    h = q->hscale * hdist(q, node, goal);
  }
  if (q->within > 0) {
    h -= q->within * q->hscale;
    if (h < 0) h = 0;
  }
  return h;
}

static double grid_h(void *self, uint32_t node) {
  const astar_grid_query *q = (const astar_grid_query *)self;
  if (q->goals != NULL) {
    double best = HUGE_VAL;
    size_t i;
    for (i = 0; i < q->ngoals; i++) {
      uint32_t g = astar_grid_node(q->grid, q->goals[2 * i], q->goals[2 * i + 1]);
      double h;
      if (q->grid->cell[g] <= 0) continue;
      h = h_to(q, node, g);
      if (h < best) best = h;
    }
    return best;
  }
  return h_to(q, node, q->goal);
}

long astar_grid_goal_index(const astar_grid_query *q, uint32_t node) {
  size_t i, n = q->goals != NULL ? q->ngoals : 1;
  for (i = 0; i < n; i++) {
    uint32_t g = q->goals != NULL
                 ? astar_grid_node(q->grid, q->goals[2 * i], q->goals[2 * i + 1]) : q->goal;
    if (q->goals != NULL && q->grid->cell[g] <= 0) continue;
    if (node == g || (q->within >= 0 && hdist(q, node, g) <= q->within)) return (long)i;
  }
  return -1;
}

static int grid_is_goal(void *self, uint32_t node) {
  return astar_grid_goal_index((const astar_grid_query *)self, node) >= 0;
}

static double grid_edge_cost(void *self, uint32_t from, uint32_t to, double base) {
  const astar_grid_query *q = (const astar_grid_query *)self;
  int x1, y1, x2, y2;
  astar_grid_cell(q->grid, from, &x1, &y1);
  astar_grid_cell(q->grid, to, &x2, &y2);
  return q->cost_fn(q->cost_ud, x1, y1, x2, y2, base);
}

/* May a diagonal step pass between orthogonal neighbours whose walkability
** is 'a' and 'b'? */
static int diag_ok(int policy, int a, int b) {
  switch (policy) {
    case ASTAR_DIAG_NO_CORNER_CUTTING: return a && b;
    case ASTAR_DIAG_ONE_OBSTACLE: return a || b;
    default: return 1;
  }
}

static int grid_expand(void *self, uint32_t node, astar_search *s) {
  const astar_grid_query *q = (const astar_grid_query *)self;
  const double *c = q->grid->cell;
  const size_t W = q->grid->stride;
  astar_edge *e = astar_search_edges(s, 8);
  const size_t n = node - W, so = node + W, w = node - 1, ea = node + 1;
  const double cn = c[n], cs = c[so], cw = c[w], ce = c[ea];
  int k = 0;
  if (e == NULL) return ASTAR_ENOMEM;
  if (cn > 0) { e[k].to = (uint32_t)n; e[k++].cost = cn; }
  if (cw > 0) { e[k].to = (uint32_t)w; e[k++].cost = cw; }
  if (ce > 0) { e[k].to = (uint32_t)ea; e[k++].cost = ce; }
  if (cs > 0) { e[k].to = (uint32_t)so; e[k++].cost = cs; }
  if (q->diagonal != ASTAR_DIAG_NEVER) {
    const int pol = q->diagonal;
    const int N = cn > 0, S = cs > 0, Wk = cw > 0, E = ce > 0;
    double d;
    if ((d = c[n - 1]) > 0 && diag_ok(pol, N, Wk)) {
      e[k].to = (uint32_t)(n - 1); e[k++].cost = d * SQRT2;
    }
    if ((d = c[n + 1]) > 0 && diag_ok(pol, N, E)) {
      e[k].to = (uint32_t)(n + 1); e[k++].cost = d * SQRT2;
    }
    if ((d = c[so - 1]) > 0 && diag_ok(pol, S, Wk)) {
      e[k].to = (uint32_t)(so - 1); e[k++].cost = d * SQRT2;
    }
    if ((d = c[so + 1]) > 0 && diag_ok(pol, S, E)) {
      e[k].to = (uint32_t)(so + 1); e[k++].cost = d * SQRT2;
    }
  }
  return k;
}

int astar_grid_prepare(astar_grid *g, astar_grid_query *q, int sx, int sy,
                       int gx, int gy, uint32_t *start, uint32_t *goal) {
  size_t i;
  int any = 0;
  if (q->goals != NULL) {
    if (q->ngoals == 0) return ASTAR_EINVAL;
    gx = q->goals[0]; gy = q->goals[1];
    for (i = 0; i < q->ngoals; i++) {
      int x = q->goals[2 * i], y = q->goals[2 * i + 1];
      if (x < 0 || y < 0 || x >= g->w || y >= g->h) return ASTAR_EINVAL;
    }
  }
  if (sx < 0 || sy < 0 || gx < 0 || gy < 0 || sx >= g->w || gx >= g->w ||
      sy >= g->h || gy >= g->h || q->diagonal < ASTAR_DIAG_NO_CORNER_CUTTING ||
      q->diagonal > ASTAR_DIAG_ONE_OBSTACLE || q->heuristic < -1 ||
      q->heuristic > ASTAR_H_ZERO || q->within != q->within)
    return ASTAR_EINVAL;
  if (q->heuristic == -1)
    q->heuristic = q->diagonal == ASTAR_DIAG_NEVER ? ASTAR_H_MANHATTAN : ASTAR_H_OCTILE;
  q->grid = g;
  q->gx = gx; q->gy = gy;
  q->goal = astar_grid_node(g, gx, gy);
  q->hscale = astar_grid_min_cost(g);
  q->domain.nnodes = (uint32_t)g->ncell;
  q->domain.expand = grid_expand;
  q->domain.heuristic =
      (q->heuristic == ASTAR_H_ZERO && q->h_fn == NULL) ? NULL : grid_h;
  q->domain.is_goal = (q->goals != NULL || q->within >= 0) ? grid_is_goal : NULL;
  q->domain.edge_cost = q->cost_fn != NULL ? grid_edge_cost : NULL;
  q->domain.self = q;
  *start = astar_grid_node(g, sx, sy);
  *goal = q->goal;
  if (q->goals != NULL) {
    for (i = 0; i < q->ngoals; i++)
      if (g->cell[astar_grid_node(g, q->goals[2 * i], q->goals[2 * i + 1])] > 0) any = 1;
    if (q->domain.is_goal != NULL) *goal = ASTAR_NONE;
  } else {
    any = g->cell[*goal] > 0 || q->within >= 0;
  }
  if (g->cell[*start] <= 0 || !any) return ASTAR_BLOCKED;
  return 0;
}

int astar_grid_find(astar_grid *g, astar_search *s, astar_grid_query *q,
                    int sx, int sy, int gx, int gy) {
  uint32_t start, goal;
  int rc = astar_grid_prepare(g, q, sx, sy, gx, gy, &start, &goal);
  if (rc != 0) return rc;
  return astar_search_run(s, &q->domain, start, goal, &q->params);
}
