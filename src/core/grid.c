/*
** grid.c - tile grids: cells with cost multipliers, their search domain, the
** backward domain of distance fields, and connected-component labels.
**
** Cells are stored with a one-cell border of blocked cells around the map, so
** that neighbour expansion needs no bounds checks: the engine node of cell
** (x, y) is (y + 1) * (w + 2) + (x + 1), and its eight neighbours are fixed
** offsets from it. Component labels use the same padded layout.
*/
#include <math.h>
#include <string.h>
#include "grid_impl.h"


/* Records that the rectangle (x, y, w, h) is edited, and bumps the version. */
static void edited(astar_grid *g, int x, int y, int w, int h) {
  astar_rect *r = &g->edits[(g->version + 1) % ASTAR_GRID_LOG];
  r->x = x; r->y = y; r->w = w; r->h = h;
  g->version++;
  astar__grid_fit_forget(g, x, y, w, h);
  astar__keep_forget(g, x, y, w, h);
  g->frozen = 0;
}

void astar__grid_edited(astar_grid *g, int x, int y, int w, int h) { edited(g, x, y, w, h); }

const double *astar__grid_cells(const astar_grid *g) { return g->cell; }

long astar_grid_changes(const astar_grid *g, uint64_t since, astar_rect *out) {
  uint64_t v;
  long n = 0;
  if (since > g->version) return -1;
  if (g->version - since > ASTAR_GRID_LOG) return -1;
  for (v = since + 1; v <= g->version; v++) out[n++] = g->edits[v % ASTAR_GRID_LOG];
  return n;
}

static int goodcost(double c) {
  return c == 0.0 || (c > 0.0 && c <= ASTAR_NUM_MAX);
}

/*
** The reciprocal of the stride s for astar__grid_xy: with 2^l >= s, shift
** = 32 + l and mul = floor(2^shift / s) + 1 = 2^shift / s + e (0 < e <= 1),
** c * mul / 2^shift = c / s + c * e / 2^shift. A padded cell c is below
** 2^30 (w * h <= 2^28, so (w + 2) * (h + 2) < 3 * 2^28 + 8), so the excess
** is below 2^30 / 2^(32 + l) <= 1 / (4 s), which never carries c / s past
** the next integer (its fraction is at most (s - 1) / s): the floor is
** exact. And c * mul < 2^30 * (2^33 + 1) < 2^64.
*/
void astar__grid_reciprocal(astar_grid *g) {
  unsigned l = 0;
  while (((size_t)1 << l) < g->stride) l++;
  g->xy_shift = 32 + l;
  g->xy_mul = ((uint64_t)1 << g->xy_shift) / g->stride + 1;
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
  astar__grid_reciprocal(g);
  g->ncell = ncell;
  g->version = 0;
  g->topo = 0;
  g->label[0] = g->label[1] = NULL;
  g->lab_ok[0] = g->lab_ok[1] = 0;
  g->use_labels = 0;
  g->nwalk = cost > 0 ? (size_t)w * (size_t)h : 0;
  g->rows = g->cols = g->brows = g->bcols = NULL;
  g->rw = g->cw = 0;
  g->bnd_ver = 0;
  g->jt[0] = g->jt[1] = g->jt[2] = g->jt[3] = NULL;
  g->jt_fills = 0;
  g->keep[0] = g->keep[1] = g->keep[2] = g->keep[3] = NULL;
  g->frozen = 0;
  g->link = NULL;
  g->link_out = g->link_in = NULL;
  g->nlinkrec = g->clink = g->nlinks = 0;
  g->link_free = ASTAR_NONE;
  memset(g->fit, 0, sizeof g->fit);
  memset(g->fit_r, 0, sizeof g->fit_r);  /* no shape */
  memset(g->fit_used, 0, sizeof g->fit_used);
  g->fit_clock = 0;
  g->cmap = NULL;
  g->ncmap = 0;
  g->taut = NULL;
  g->ctaut = 0;
  g->hex = 0;
  g->wrap = 0;
  memset(g->cell, 0, ncell * sizeof(double));
  for (y = 0; y < h; y++) {
    double *row = g->cell + at(g, 0, y);
    int x;
    for (x = 0; x < w; x++) row[x] = cost;
  }
  /* a grid made blocked has no smallest cost yet: find it when it is needed */
  g->min_cost = cost > 0 ? cost : 1.0;
  g->min_count = cost > 0 ? (size_t)w * (size_t)h : 0;
  g->min_dirty = !(cost > 0);
  *out = g;
  return 0;
}

void astar_grid_free(astar_grid *g) {
  astar_mem m;
  if (g == NULL) return;
  m = g->mem;
  astar__free(&m, g->label[0], g->ncell * sizeof(uint32_t));
  astar__free(&m, g->label[1], g->ncell * sizeof(uint32_t));
  astar__grid_bits_free(g);
  astar__jt_free(g);
  astar__keep_free(g);
  astar__grid_links_free(g);
  astar__grid_fit_free(g);
  astar__grid_class_free(g);
  astar__free(&m, g->taut, g->ctaut * sizeof(double));
  astar__free(&m, g->cell, g->ncell * sizeof(double));
  astar__free(&m, g, sizeof *g);
}

int astar_grid_clone(astar_grid **out, const astar_grid *src) {
  int rc = astar_grid_new(out, src->w, src->h, 0.0, src->mem.fn, src->mem.ud);
  if (rc != 0) return rc;
  memcpy((*out)->cell, src->cell, src->ncell * sizeof(double));
  if (astar__grid_links_copy(*out, src) != 0) {
    astar_grid_free(*out);
    *out = NULL;
    return ASTAR_ENOMEM;
  }
  (*out)->min_cost = src->min_cost;
  (*out)->min_count = src->min_count;
  (*out)->min_dirty = src->min_dirty;
  (*out)->nwalk = src->nwalk;
  (*out)->hex = src->hex;
  (*out)->wrap = src->wrap;
  return 0;
}

int astar_grid_width(const astar_grid *g) { return g->w; }
int astar_grid_height(const astar_grid *g) { return g->h; }
uint64_t astar_grid_version(const astar_grid *g) { return g->version; }
size_t astar_grid_allocs(const astar_grid *g) { return g->mem.allocs; }

double astar_grid_get(const astar_grid *g, int x, int y) {
  return g->cell[at(g, x, y)];
}

/* Keeps min_cost and the topology counter right when a cell goes from 'old'
** to 'c'. Cost changes between walkable values keep component labels. */
static void track_min(astar_grid *g, double old, double c) {
  if ((old > 0) != (c > 0)) {
    g->topo++;
    if (c > 0) g->nwalk++;
    else g->nwalk--;
  }
  if (g->min_dirty) return;
  if (c > 0 && c < g->min_cost) {
    g->min_cost = c;
    g->min_count = 1;
    return;
  }
  if (old > 0 && old == g->min_cost) g->min_count--;
  if (c > 0 && c == g->min_cost) g->min_count++;
  if (g->min_count == 0) g->min_dirty = 1;   /* the last cheapest cell went: rescan later */
}

void astar__grid_put(astar_grid *g, size_t node, double c) {
  track_min(g, g->cell[node], c);
  g->cell[node] = c;
}

void astar_grid_set(astar_grid *g, int x, int y, double c) {
  double *p = &g->cell[at(g, x, y)];
  track_min(g, *p, c);
  *p = c;
  astar__grid_bits_rect(g, x, y, 1, 1);
  edited(g, x, y, 1, 1);
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
  astar__grid_bits_rect(g, x, y, w, h);
  edited(g, x, y, w, h);
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
  astar__grid_bits_rect(g, 0, y, g->w, 1);
  edited(g, 0, y, g->w, 1);
}

double astar_grid_min_cost(astar_grid *g) {
  if (g->min_dirty) {
    double m = HUGE_VAL;
    size_t i, n = 0;
    for (i = 0; i < g->ncell; i++) {
      if (g->cell[i] > 0 && g->cell[i] < m) { m = g->cell[i]; n = 0; }
      if (g->cell[i] == m) n++;
    }
    g->min_cost = m == HUGE_VAL ? 1.0 : m;
    g->min_count = n;
    g->min_dirty = 0;
  }
  return g->min_cost;
}

uint32_t astar_grid_node(const astar_grid *g, int x, int y) {
  return (uint32_t)at(g, x, y);
}

void astar_grid_cell(const astar_grid *g, uint32_t node, int *x, int *y) {
  long px, py;
  astar__grid_xy(g, node, &px, &py);
  *x = (int)px - 1;
  *y = (int)py - 1;
}

/* The layout: a border of blocked cells around the grid, row by row. */
size_t astar_grid_layout_nodes(int w, int h) { return ((size_t)w + 2) * ((size_t)h + 2); }

uint32_t astar_grid_layout_node(int w, int x, int y) {
  return (uint32_t)((size_t)(y + 1) * ((size_t)w + 2) + (size_t)(x + 1));
}

void astar_grid_layout_cell(int w, uint32_t node, int *x, int *y) {
  *y = (int)(node / ((uint32_t)w + 2)) - 1;
  *x = (int)(node % ((uint32_t)w + 2)) - 1;
}

/* The fit cache's key of the query's unit (0: none), or -1 if its shape is
** not one the grid knows. */
static double fitkey(const astar_grid_query *q) {
  int w = q->size_w, h = q->size_h;
  if (!(q->radius >= 0 && q->radius <= 1e6)) return -1;
  if (w == 0 && h == 0) return q->radius;
  if (w < 1 || h < 1 || w > ASTAR_GRID_SIZE_MAX || h > ASTAR_GRID_SIZE_MAX || q->radius > 0)
    return -1;
  return w == 1 && h == 1 ? 0 : FIT_BOX(w, h);
}

size_t astar_grid_sources_fit(astar_grid *g, const astar_grid_query *q, double *dist,
                              uint32_t *nodes, size_t n) {
  size_t i, k = 0;
  double key = fitkey(q);
  if (key == 0 || key == -1) return key == 0 ? n : 0;
  astar__grid_fit_prepare(g, key);
  for (i = 0; i < n; i++) {
    double v = dist[i];
    dist[i] = HUGE_VAL;
    if (!(astar__grid_fit(g, nodes[i], key) & FIT_HERE)) continue;
    nodes[k] = nodes[i];
    dist[k++] = v;
  }
  return k;
}

size_t astar_grid_sources(const astar_grid *g, double max_cost, double *dist,
                          uint32_t *nodes) {
  size_t i, k = 0, n = (size_t)g->ncell;
  for (i = 0; i < n; i++) {
    double v = dist[i];
    if (v == HUGE_VAL) continue;
    dist[i] = HUGE_VAL;
    if (!(v <= max_cost) || !(g->cell[i] > 0)) continue;
    nodes[k] = (uint32_t)i;
    dist[k++] = v;
  }
  return k;
}


/* ---------------------------------------------------------------------- */
/* The search domain                                                        */
/* ---------------------------------------------------------------------- */

void astar_grid_query_init(astar_grid_query *q) {
  memset(q, 0, sizeof *q);
  q->diagonal = ASTAR_DIAG_NO_CORNER_CUTTING;
  q->heuristic = -1;   /* resolved by astar_grid_prepare */
  q->within = -1;
  q->jump = ASTAR_JUMP_AUTO;
  q->overlay_scale = 1.0;
  astar_params_init(&q->params);
}

/* The octile distance of a move dx, dy cells apart (both >= 0). */
static double octile(double dx, double dy) {
  return dx < dy ? dy + (SQRT2 - 1.0) * dx : dx + (SQRT2 - 1.0) * dy;
}

/* The built-in heuristic distance between two engine nodes, unscaled. */
static double hdist(const astar_grid_query *q, uint32_t a, uint32_t b) {
  long ax, ay, bx, by;
  double dx, dy, hi;
  astar__grid_xy(q->grid, a, &ax, &ay);
  astar__grid_xy(q->grid, b, &bx, &by);
  if (q->grid->hex && q->heuristic != ASTAR_H_ZERO)
    return astar_grid_hex_distance(q->grid, (int)ax - 1, (int)ay - 1, (int)bx - 1, (int)by - 1);
  dx = fabs((double)(ax - bx));
  dy = fabs((double)(ay - by));
  hi = dx < dy ? dy : dx;
  if (q->grid->wrap) {                        /* the shorter way round */
    dx = astar__wrap_axis(q->grid, dx, 0);
    dy = astar__wrap_axis(q->grid, dy, 1);
    hi = dx < dy ? dy : dx;
  }
  switch (q->heuristic) {
    case ASTAR_H_OCTILE: return octile(dx, dy);
    case ASTAR_H_MANHATTAN: return dx + dy;
    case ASTAR_H_EUCLIDEAN: return sqrt(dx * dx + dy * dy);
    case ASTAR_H_CHEBYSHEV: return hi;
    default: return 0.0;
  }
}

/* The distance 'within' is measured in: the built-in heuristic's, or the
** octile (manhattan without diagonals) distance when that is "zero". */
static double rangedist(const astar_grid_query *q, uint32_t a, uint32_t b) {
  astar_grid_query m;
  if (q->heuristic != ASTAR_H_ZERO) return hdist(q, a, b);
  m = *q;
  m.heuristic = q->diagonal == ASTAR_DIAG_NEVER ? ASTAR_H_MANHATTAN : ASTAR_H_OCTILE;
  return hdist(&m, a, b);
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
      if (q->grid->cell[g] <= 0 && q->within < 0) continue;
      h = h_to(q, node, g);
      if (h < best) best = h;
    }
    return best;
  }
  return h_to(q, node, q->goal);
}

/* The common case of grid_h: one goal, the octile heuristic, no range. */
static double grid_h_octile(void *self, uint32_t node) {
  const astar_grid_query *q = (const astar_grid_query *)self;
  long x, y;
  astar__grid_xy(q->grid, node, &x, &y);
  return q->hscale * octile(fabs((double)(x - q->gx - 1)), fabs((double)(y - q->gy - 1)));
}

/*
** With links a path may jump ahead, and the heuristic alone could
** overestimate. A path from v either takes no link (>= h(v)) or walks to
** some link's cell a (>= the scaled distance d(v, a)), and after its last
** link j, which ends at b_j, walks on (>= c_j + h(b_j)): so
**   h'(v) = min(h(v), min_a d(v, a) + L),  L = min_j (c_j + h(b_j))
** never overestimates. It is consistent: each of the two terms changes by at
** most a step's cost along a step, and along a link v -> b of cost c,
** h'(v) <= L <= c + h(b) and L <= c + d(b, a) + L. When L >= h(v) the
** second term cannot win, which spares the loop over the links.
*/
static double grid_h_links(void *self, uint32_t node) {
  const astar_grid_query *q = (const astar_grid_query *)self;
  const astar_grid *g = q->grid;
  double h = q->h_base(self, node);
  size_t r;
  if (q->link_bound >= h) return h;
  for (r = 0; r < g->nlinkrec; r++) {
    uint32_t a = g->link[r].from;
    double d;
    if (a == ASTAR_NONE || g->cell[a] <= 0) continue;
    d = q->hscale * hdist(q, node, a) + q->link_bound;
    if (d < h) h = d;
  }
  return h;
}

/* L of grid_h_links: the least a path pays from its last link on. */
static double link_bound(astar_grid_query *q) {
  const astar_grid *g = q->grid;
  double best = HUGE_VAL;
  size_t r;
  for (r = 0; r < g->nlinkrec; r++) {
    const astar_glink *k = &g->link[r];
    double b;
    if (k->from == ASTAR_NONE || g->cell[k->from] <= 0 || g->cell[k->to] <= 0) continue;
    b = k->cost + q->h_base(q, k->to);
    if (b < best) best = b;
  }
  return best;
}

long astar_grid_goal_index(const astar_grid_query *q, uint32_t node) {
  size_t i, n = q->goals != NULL ? q->ngoals : 1;
  for (i = 0; i < n; i++) {
    uint32_t g = q->goals != NULL
                 ? astar_grid_node(q->grid, q->goals[2 * i], q->goals[2 * i + 1]) : q->goal;
    if (q->goals != NULL && q->grid->cell[g] <= 0 && q->within < 0) continue;
    if (node == g || (q->within >= 0 && rangedist(q, node, g) <= q->within)) return (long)i;
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

/* A step to a neighbour under the policy, links aside. */
static int plain_step(const astar_grid *g, int diagonal, int x0, int y0, int x1, int y1) {
  int dx = x1 > x0 ? x1 - x0 : x0 - x1, dy = y1 > y0 ? y1 - y0 : y0 - y1;
  if (g->hex) {                           /* six neighbours, across seams too */
    if (!astar_grid_hex_adjacent(g, x0, y0, x1, y1)) return ASTAR_STEP_FAR;
    return g->cell[at(g, x1, y1)] <= 0 ? ASTAR_STEP_BLOCKED : ASTAR_STEP_OK;
  }
  if (g->wrap) {                          /* across a seam: the neighbour's step */
    int sx, sy;
    astar__wrap_delta(g, x0, y0, x1, y1, &sx, &sy);
    if (sx < -1 || sx > 1 || sy < -1 || sy > 1 || (sx == 0 && sy == 0) ||
        (sx && sy && diagonal == ASTAR_DIAG_NEVER))
      return ASTAR_STEP_FAR;
    if (g->cell[at(g, x1, y1)] <= 0) return ASTAR_STEP_BLOCKED;
    if (sx && sy) {
      int ox = (x0 + sx + g->w) % g->w, oy = (y0 + sy + g->h) % g->h;
      if (!astar__diag_ok(diagonal, g->cell[at(g, ox, y0)] > 0, g->cell[at(g, x0, oy)] > 0))
        return ASTAR_STEP_CORNER;
    }
    return ASTAR_STEP_OK;
  }
  if (dx > 1 || dy > 1 || dx + dy == 0 || (dx && dy && diagonal == ASTAR_DIAG_NEVER))
    return ASTAR_STEP_FAR;
  if (g->cell[at(g, x1, y1)] <= 0) return ASTAR_STEP_BLOCKED;
  if (dx && dy && !astar__diag_ok(diagonal, g->cell[at(g, x1, y0)] > 0, g->cell[at(g, x0, y1)] > 0))
    return ASTAR_STEP_CORNER;
  return ASTAR_STEP_OK;
}

int astar_grid_step(const astar_grid *g, int diagonal, int x0, int y0, int x1, int y1) {
  int rc = plain_step(g, diagonal, x0, y0, x1, y1);
  if (rc != ASTAR_STEP_OK && astar_grid_link_cost(g, x0, y0, x1, y1) > 0)
    return g->cell[at(g, x1, y1)] > 0 ? ASTAR_STEP_OK : ASTAR_STEP_BLOCKED;
  return rc;
}

double astar_grid_move_cost(const astar_grid *g, int diagonal, int x0, int y0, int x1, int y1,
                            int *link) {
  double c = -1.0, l = astar_grid_link_cost(g, x0, y0, x1, y1);
  *link = 0;
  if (g->cell[at(g, x1, y1)] <= 0) return -1.0;
  if (plain_step(g, diagonal, x0, y0, x1, y1) == ASTAR_STEP_OK)
    c = g->cell[at(g, x1, y1)] * (x0 != x1 && y0 != y1 && !g->hex ? SQRT2 : 1.0);
  if (l > 0 && (c < 0 || l < c)) {
    *link = 1;
    return l;
  }
  return c;
}

/* Adds the overlay to the k steps out of 'node' in e (costs: the cell's
** times the length): each becomes len * (cell + scale * overlay) of the cell
** it enters, or goes if the overlay there is infinite. */
static int add_overlay(const astar_grid_query *q, uint32_t node, astar_edge *e, int k) {
  const double *o = q->overlay, s = q->overlay_scale;
  const uint32_t W = (uint32_t)q->grid->stride;
  const double *c = q->grid->cell;
  int i, j = 0;
  for (i = 0; i < k; i++) {
    uint32_t to = e[i].to;
    int orth = q->grid->hex || to + 1 == node || to == node + 1 || to + W == node ||
               to == node + W;
    double v = c[to] + s * o[to];
    if (!(v < HUGE_VAL)) continue;
    e[j].to = to;
    e[j++].cost = orth ? v : v * SQRT2;
  }
  return j;
}

/* The steps to neighbours the policy allows out of 'node'. */
static int grid_steps(const astar_grid_query *q, uint32_t node, astar_search *s) {
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
    if ((d = c[n - 1]) > 0 && astar__diag_ok(pol, N, Wk)) {
      e[k].to = (uint32_t)(n - 1); e[k++].cost = d * SQRT2;
    }
    if ((d = c[n + 1]) > 0 && astar__diag_ok(pol, N, E)) {
      e[k].to = (uint32_t)(n + 1); e[k++].cost = d * SQRT2;
    }
    if ((d = c[so - 1]) > 0 && astar__diag_ok(pol, S, Wk)) {
      e[k].to = (uint32_t)(so - 1); e[k++].cost = d * SQRT2;
    }
    if ((d = c[so + 1]) > 0 && astar__diag_ok(pol, S, E)) {
      e[k].to = (uint32_t)(so + 1); e[k++].cost = d * SQRT2;
    }
  }
  return q->overlay != NULL ? add_overlay(q, node, e, k) : k;
}

/* The steps of a wrapping grid between 'node' and its neighbours (across a
** seam where an axis wraps), under the policy: forward (the cost of the cell
** entered) or back (the cost of 'node', which every step enters), the
** overlay added; then the links. */
static int wrap_steps(const astar_grid_query *q, uint32_t node, astar_search *s, int back) {
  const double *c = q->grid->cell, *o = q->overlay;
  astar_edge *e = astar_search_edges(s, 8);
  uint32_t nb[8];
  int d, k = 0, open[4];
  if (e == NULL) return ASTAR_ENOMEM;
  astar__wrap_neighbours(q->grid, node, nb);
  for (d = 0; d < 4; d++) open[d] = c[nb[d]] > 0;
  for (d = 0; d < 8; d++) {
    uint32_t to = nb[d], enters = back ? node : to;
    double v;
    if (!(c[to] > 0)) continue;
    if (d >= 4) {                               /* NW, NE, SW, SE: N or S, then W or E */
      int ns = d < 6 ? open[0] : open[3], we = d % 2 == 0 ? open[1] : open[2];
      if (q->diagonal == ASTAR_DIAG_NEVER || !astar__diag_ok(q->diagonal, ns, we)) continue;
    }
    v = c[enters] + (o != NULL ? q->overlay_scale * o[enters] : 0);
    if (!(v < HUGE_VAL)) continue;
    e[k].to = to;
    e[k++].cost = d >= 4 ? v * SQRT2 : v;
  }
  if (!back && q->grid->link_out != NULL && q->grid->link_out[node] != ASTAR_NONE)
    return astar__grid_link_edges(q->grid, node, 0, s, k);
  if (back && q->grid->link_in != NULL && q->grid->link_in[node] != ASTAR_NONE)
    return astar__grid_link_edges(q->grid, node, 1, s, k);
  return k;
}

static int wrap_expand(void *self, uint32_t node, astar_search *s) {
  return wrap_steps((const astar_grid_query *)self, node, s, 0);
}

static int wrap_expand_back(void *self, uint32_t node, astar_search *s) {
  return wrap_steps((const astar_grid_query *)self, node, s, 1);
}

/* The steps of a hex grid out of 'node' (each of length 1), and its links. */
static int hex_expand(void *self, uint32_t node, astar_search *s) {
  const astar_grid_query *q = (const astar_grid_query *)self;
  const double *c = q->grid->cell;
  astar_edge *e = astar_search_edges(s, 6);
  uint32_t nb[6];
  int i, k = 0;
  if (e == NULL) return ASTAR_ENOMEM;
  astar__hex_neighbours(q->grid, node, nb);
  for (i = 0; i < 6; i++)
    if (c[nb[i]] > 0) { e[k].to = nb[i]; e[k++].cost = c[nb[i]]; }
  if (q->overlay != NULL) k = add_overlay(q, node, e, k);
  if (q->grid->link_out != NULL && q->grid->link_out[node] != ASTAR_NONE)
    return astar__grid_link_edges(q->grid, node, 0, s, k);
  return k;
}

static int grid_expand(void *self, uint32_t node, astar_search *s) {
  const astar_grid_query *q = (const astar_grid_query *)self;
  int k = grid_steps(q, node, s);
  if (k >= 0 && q->grid->link_out != NULL && q->grid->link_out[node] != ASTAR_NONE)
    return astar__grid_link_edges(q->grid, node, 0, s, k);
  return k;
}

/* Does the query's unit (a disc, a footprint) fit at 'node'? */
static int fits(const astar_grid_query *q, uint32_t node) {
  return (astar__grid_fit(q->grid, node, q->fitkey) & FIT_HERE) != 0;
}

/* The index in the fit bits of the step node -> to, a neighbour. */
static int fitdir(size_t W, uint32_t node, uint32_t to) {
  if (to + W == node) return 0;
  if (to + 1 == node) return 1;
  if (to == node + 1) return 2;
  if (to == node + W) return 3;
  if (to + W + 1 == node) return 4;
  if (to + W == node + 1) return 5;
  return to + 1 == node + W ? 6 : 7;
}

/* The steps out of 'node' a unit of the query's radius makes without
** touching a blocked cell (the swept segment, exactly: astar__grid_fit). */
static int fit_steps(const astar_grid_query *q, uint32_t node, astar_search *s) {
  int n = grid_steps(q, node, s), i, k = 0;
  unsigned bits;
  astar_edge *e;
  if (n <= 0 || q->fitkey == 0) return n;
  bits = astar__grid_fit(q->grid, node, q->fitkey);
  e = astar_search_edges(s, 8);
  for (i = 0; i < n; i++) {
    int d = fitdir(q->grid->stride, node, e[i].to);
    if (q->fitkey < 0 ? astar__grid_boxstep(bits, d, q->diagonal) : (bits & (1u << d)) != 0)
      e[k++] = e[i];
  }
  return k;
}

/* Appends the links out of 'node' to the k edges written, to cells where a
** unit of the query's radius fits; the new count or ASTAR_ENOMEM. */
static int add_links(const astar_grid_query *q, uint32_t node, astar_search *s, int k) {
  int n, i, j = k;
  astar_edge *e;
  if (k < 0 || q->grid->link_out == NULL || q->grid->link_out[node] == ASTAR_NONE) return k;
  n = astar__grid_link_edges(q->grid, node, 0, s, k);
  if (n < 0 || q->fitkey == 0) return n;
  e = astar_search_edges(s, (size_t)n);
  for (i = k; i < n; i++)
    if (fits(q, e[i].to)) e[j++] = e[i];
  return j;
}

/* A unit of radius r > 0, or a footprint. */
static int grid_expand_radius(void *self, uint32_t node, astar_search *s) {
  const astar_grid_query *q = (const astar_grid_query *)self;
  return add_links(q, node, s, fit_steps(q, node, s));
}

/*
** Theta* (Nash, Daniel and Koenig 2007): the steps of A*, priced as straight
** moves are (the length inside each cell times its cost, so that a step and
** a line through the same cells cost alike), and the engine's shortcut from
** a node's parent straight to each successor the line of sight allows. Paths
** bend only at cell centres; they are not always the shortest any-angle
** paths, which pass by cell corners (the navmesh of from_grid finds those).
*/
static int grid_expand_theta(void *self, uint32_t node, astar_search *s) {
  const astar_grid_query *q = (const astar_grid_query *)self;
  int k = fit_steps(q, node, s), i;
  astar_edge *e = astar_search_edges(s, 8);
  double ax, ay, bx, by;
  if (k < 0) return k;
  astar__grid_centre(q->grid, node, &ax, &ay);
  for (i = 0; i < k; i++) {
    astar__grid_centre(q->grid, e[i].to, &bx, &by);
    e[i].cost = astar_grid_line_integral(q->grid, ax, ay, bx, by);
  }
  return add_links(q, node, s, k);
}

/* Lazy Theta*: the shortcut is taken on trust, and checked when the node
** comes to the top of the open list (grid_settle). */
static double grid_shortcut_lazy(void *self, uint32_t from, uint32_t to) {
  const astar_grid_query *q = (const astar_grid_query *)self;
  double ax, ay, bx, by;
  astar__grid_centre(q->grid, from, &ax, &ay);
  astar__grid_centre(q->grid, to, &bx, &by);
  return astar_grid_line_integral(q->grid, ax, ay, bx, by);
}

/* The cheapest way into 'node' from a closed node: a step of the policy the
** unit makes, or a link. Lazy Theta* falls back on it when the straight
** line from the parent it was given is not clear. */
static int grid_settle(void *self, const astar_search *s, uint32_t node, double *g,
                       uint32_t *parent) {
  const astar_grid_query *q = (const astar_grid_query *)self;
  const astar_grid *gr = q->grid;
  const size_t W = gr->stride;
  static const int DX[8] = {0, -1, 1, 0, -1, 1, -1, 1}, DY[8] = {-1, 0, 0, 1, -1, -1, 1, 1};
  double ax, ay, bx, by, best = HUGE_VAL, gv;
  uint32_t from = ASTAR_NONE, up, r;
  int d;
  astar__grid_centre(gr, *parent, &ax, &ay);
  astar__grid_centre(gr, node, &bx, &by);
  if (astar_grid_line_clear(gr, ax, ay, bx, by, q->radius)) return 0;
  for (d = 0; d < 8; d++) {                      /* the neighbours that step here */
    uint32_t nb = (uint32_t)((long)node - DX[d] - DY[d] * (long)W);
    int x0, y0, x1, y1;
    if (astar_search_node(s, nb, &gv, &up) != 1) continue;
    astar_grid_cell(gr, nb, &x0, &y0);
    astar_grid_cell(gr, node, &x1, &y1);
    if (plain_step(gr, q->diagonal, x0, y0, x1, y1) != ASTAR_STEP_OK) continue;
    if (q->radius > 0 && !(astar__grid_fit((astar_grid *)gr, nb, q->radius) &
                           (1u << fitdir(W, nb, node))))
      continue;
    astar__grid_centre(gr, nb, &ax, &ay);
    gv += astar_grid_line_integral(gr, ax, ay, bx, by);
    if (gv < best) { best = gv; from = nb; }
  }
  for (r = gr->link_in != NULL ? gr->link_in[node] : ASTAR_NONE; r != ASTAR_NONE;
       r = gr->link[r].next_in)                  /* and the links that end here */
    if (astar_search_node(s, gr->link[r].from, &gv, &up) == 1 && gv + gr->link[r].cost < best) {
      best = gv + gr->link[r].cost;
      from = gr->link[r].from;
    }
  if (from == ASTAR_NONE) return 0;
  *g = best;
  *parent = from;
  return 1;
}

static double grid_shortcut(void *self, uint32_t from, uint32_t to) {
  const astar_grid_query *q = (const astar_grid_query *)self;
  double ax, ay, bx, by;
  astar__grid_centre(q->grid, from, &ax, &ay);
  astar__grid_centre(q->grid, to, &bx, &by);
  if (!astar_grid_line_clear(q->grid, ax, ay, bx, by, q->radius)) return -1;
  return astar_grid_line_integral(q->grid, ax, ay, bx, by);
}

static int labels(astar_grid *g, int k);
static int conn_of(int diagonal);

/* On a grid of several costs, "auto" jumps when fewer than three walkable
** cells in five are boundary cells (measured, bench/README: with random
** cells of another cost, jumping takes 0.5x A*'s time at 33% boundary
** cells, 0.7x at 51%, 0.9-1.0x at 67%, 1.05x at 77%). */
static int jump_pays(const astar_grid *g) { return (double)g->nbnd * 5 < (double)g->nwalk * 3; }

int astar_grid_one_cost(astar_grid *g) {
  astar_grid_min_cost(g);
  return g->nwalk > 0 && g->min_count == g->nwalk;
}

/* Is some goal of the prepared query q in the component of 'start'? Answers
** 1 (or "don't know") unless labels were asked for and can be made current;
** goal regions ('within') and partial paths need the real search. */
static int may_reach(astar_grid *g, const astar_grid_query *q, uint32_t start,
                     uint32_t goal) {
  const uint32_t *lab;
  size_t i;
  if (!g->use_labels || g->nlinks > 0 || q->params.partial || q->within >= 0 ||
      labels(g, conn_of(q->diagonal)) != 0)
    return 1;
  lab = g->label[conn_of(q->diagonal)];
  if (q->goals == NULL) return lab[goal] == lab[start];
  for (i = 0; i < q->ngoals; i++)      /* blocked goals have label 0 */
    if (lab[astar_grid_node(g, q->goals[2 * i], q->goals[2 * i + 1])] == lab[start])
      return 1;
  return 0;
}

/* Are the query's ends and options ones the grid can search? With several
** goals, (gx, gy) becomes the first. */
static int query_valid(const astar_grid *g, const astar_grid_query *q, int sx, int sy,
                       int *gx, int *gy) {
  size_t i;
  if (q->goals != NULL) {
    if (q->ngoals == 0) return 0;
    *gx = q->goals[0]; *gy = q->goals[1];
    for (i = 0; i < q->ngoals; i++) {
      int x = q->goals[2 * i], y = q->goals[2 * i + 1];
      if (x < 0 || y < 0 || x >= g->w || y >= g->h) return 0;
    }
  }
  return !(sx < 0 || sy < 0 || *gx < 0 || *gy < 0 || sx >= g->w || *gx >= g->w ||
           sy >= g->h || *gy >= g->h || q->diagonal < ASTAR_DIAG_NO_CORNER_CUTTING ||
           q->diagonal > ASTAR_DIAG_ONE_OBSTACLE || q->heuristic < -1 ||
           q->heuristic > ASTAR_H_ZERO || q->within != q->within);
}

/* Do the query's options go together on this grid (q->fitkey set)? */
static int options_valid(const astar_grid *g, const astar_grid_query *q) {
  if (q->fitkey == -1 || (q->theta && q->fitkey < 0) ||
      ((g->hex || g->wrap) && (q->fitkey != 0 || q->theta)))
    return 0;
  if (q->theta && (q->cost_fn != NULL || q->heuristic == ASTAR_H_OCTILE ||
                   q->heuristic == ASTAR_H_MANHATTAN))
    return 0;                                    /* they overestimate straight lines */
  if (q->theta && q->overlay != NULL) return 0;  /* lines are priced by cells */
  return q->overlay == NULL || (q->overlay_scale >= 0 && q->overlay_scale <= ASTAR_NUM_MAX);
}

/* Whether the query jumps (q->jps: 0 no, 1 JPS, 2 JPS+, 3 between cost
** boundaries, 4 the same with tables), and what that needs of the grid. */
static int choose_jump(astar_grid *g, astar_grid_query *q) {
  q->jps = q->jump && q->params.algorithm == ASTAR_ALG_ASTAR && q->cost_fn == NULL &&
           q->within < 0 && !q->params.partial && q->fitkey == 0 && !q->theta &&
           q->overlay == NULL && !g->hex && !g->wrap;
  if (q->jps && astar__grid_bits(g) != 0) return ASTAR_ENOMEM;
  if (q->jps && (!astar_grid_one_cost(g) || g->nlinks > 0))  /* jump between boundaries (and links) */
    q->jps = q->jump == ASTAR_JUMP_ALWAYS || jump_pays(g) ? 3 : 0;
  if (q->jps && g->jt[q->diagonal] != NULL) {                    /* JPS+ */
    astar__jt_refresh(g, q->diagonal);
    q->jps++;
  }
  if (q->jps >= 3 && !g->frozen) astar__keep_make(g, q->diagonal);
  return 0;
}

/* The engine's view of the query: its functions over the grid. */
static void set_domain(astar_grid *g, astar_grid_query *q) {
  q->domain.nnodes = (uint32_t)g->ncell;
  q->domain.expand = g->hex ? hex_expand : g->wrap ? wrap_expand : q->jps ? astar__jps_expand
                     : q->theta ? grid_expand_theta
                     : q->fitkey != 0 ? grid_expand_radius : grid_expand;
  q->domain.shortcut = q->theta == 1 ? grid_shortcut : q->theta ? grid_shortcut_lazy : NULL;
  q->domain.settle = q->theta == 2 ? grid_settle : NULL;
  if (q->fitkey != 0) astar__grid_fit_prepare(g, q->fitkey);
  q->domain.heuristic =
      (q->heuristic == ASTAR_H_ZERO && q->h_fn == NULL) ? NULL : grid_h;
  if (q->heuristic == ASTAR_H_OCTILE && q->h_fn == NULL && q->goals == NULL && q->within < 0 &&
      !g->hex && !g->wrap)
    q->domain.heuristic = grid_h_octile;
  q->domain.progress = NULL;
  if (g->nlinks > 0 && q->domain.heuristic != NULL && q->h_fn == NULL) {
    q->h_base = q->domain.heuristic;
    q->link_bound = link_bound(q);
    q->domain.heuristic = grid_h_links;
    q->domain.progress = q->h_base;            /* partial paths: toward the goal itself */
  }
  q->domain.is_goal = (q->goals != NULL || q->within >= 0) ? grid_is_goal : NULL;
  q->domain.edge_cost = q->cost_fn != NULL ? grid_edge_cost : NULL;
  q->domain.self = q;
}

/* q->blocked: 1 if the start is blocked (or the unit does not fit there), 2
** if every goal is, else 0. */
static int ends_blocked(const astar_grid *g, astar_grid_query *q, uint32_t start,
                        uint32_t goal) {
  int any = 0;
  size_t i;
  if (q->goals != NULL) {
    for (i = 0; i < q->ngoals && !any; i++) {
      uint32_t gn = astar_grid_node(g, q->goals[2 * i], q->goals[2 * i + 1]);
      if ((g->cell[gn] > 0 && (q->fitkey == 0 || fits(q, gn))) || q->within >= 0) any = 1;
    }
  } else {
    any = (g->cell[goal] > 0 && (q->fitkey == 0 || fits(q, goal))) || q->within >= 0;
  }
  q->blocked = g->cell[start] <= 0 || (q->fitkey != 0 && !fits(q, start)) ? 1
               : !any ? 2 : 0;
  return q->blocked;
}

int astar_grid_prepare(astar_grid *g, astar_grid_query *q, int sx, int sy,
                       int gx, int gy, uint32_t *start, uint32_t *goal) {
  int rc;
  if (!query_valid(g, q, sx, sy, &gx, &gy)) return ASTAR_EINVAL;
  if (q->heuristic == -1)
    q->heuristic = q->theta ? ASTAR_H_EUCLIDEAN
                 : q->diagonal == ASTAR_DIAG_NEVER ? ASTAR_H_MANHATTAN : ASTAR_H_OCTILE;
  q->grid = g;
  q->gx = gx; q->gy = gy;
  q->goal = astar_grid_node(g, gx, gy);
  q->hscale = astar_grid_min_cost(g);
  q->fitkey = fitkey(q);
  if (!options_valid(g, q)) return ASTAR_EINVAL;
  if ((rc = choose_jump(g, q)) != 0) return rc;
  set_domain(g, q);
  *start = astar_grid_node(g, sx, sy);
  *goal = q->goals != NULL && q->domain.is_goal != NULL ? ASTAR_NONE : q->goal;
  if (ends_blocked(g, q, *start, q->goal)) return ASTAR_BLOCKED;
  return may_reach(g, q, *start, *goal) ? 0 : ASTAR_NO_PATH;
}

/* Whether search s has expanded a cell of the rectangle [x0, x1] x [y0, y1]
** (inclusive, inside the grid): by its cells or by its records, whichever
** are fewer. */
typedef struct rectscan { const astar_grid *g; int x0, y0, x1, y1, hit; } rectscan;

static void scan_closed(void *ud, uint32_t node, double gv, uint32_t parent) {
  rectscan *r = (rectscan *)ud;
  int x, y;
  (void)gv; (void)parent;
  astar_grid_cell(r->g, node, &x, &y);
  if (x >= r->x0 && x <= r->x1 && y >= r->y0 && y <= r->y1) r->hit = 1;
}

static int expanded_in(const astar_grid *g, const astar_search *s, int x0, int y0,
                       int x1, int y1) {
  rectscan r;
  astar_stats st;
  double gv;
  uint32_t parent;
  int x, y;
  astar_search_stats(s, &st);
  if ((uint64_t)(x1 - x0 + 1) * (uint64_t)(y1 - y0 + 1) <= st.generated) {
    for (y = y0; y <= y1; y++)
      for (x = x0; x <= x1; x++)
        if (astar_search_node(s, astar_grid_node(g, x, y), &gv, &parent) == 1) return 1;
    return 0;
  }
  r.g = g; r.x0 = x0; r.y0 = y0; r.x1 = x1; r.y1 = y1; r.hit = 0;
  astar_search_each_closed(s, scan_closed, &r);
  return r.hit;
}

static int holds(const astar_rect *r, int x, int y) {
  return x >= r->x && x < r->x + r->w && y >= r->y && y < r->y + r->h;
}

/*
** Every step the search has priced reads only cells within one of the cell
** it expanded (the cell entered, and the two a diagonal passes between), and
** every step it has yet to price reads the grid as it is then. So the edits
** cannot change its answer unless they touch a cell within one of an
** expanded cell, the start or a goal (blocked ends end a search at once), or
** lower the smallest cost below the heuristic's scale (which would then
** overestimate). A jumping search reads cells it never expands (a jump scans
** a whole line), and so do any-angle searches (a line from a parent) and
** links (a far cell, and the heuristic's bound), so every edit matters to
** them. A unit with a radius reads the cells within r + 1.5 of the centres
** it steps between, so its margin is that much wider.
*/
int astar_grid_affected(astar_grid *g, const astar_grid_query *q, const astar_search *s,
                        uint64_t since, int sx, int sy) {
  astar_rect edits[ASTAR_GRID_LOG];
  long n = astar_grid_changes(g, since, edits), i;
  int m = q->radius > 0 ? (int)ceil(q->radius) + 2
          : q->fitkey < 0 ? (q->size_w > q->size_h ? q->size_w : q->size_h) + 1 : 1;
  size_t k;
  if (n < 0 || q->jps || q->theta || g->nlinks > 0 || g->wrap ||
      astar_grid_min_cost(g) < q->hscale)
    return 1;
  for (i = 0; i < n; i++) {
    const astar_rect *r = &edits[i];
    if (holds(r, sx, sy) || (q->goals == NULL && holds(r, q->gx, q->gy))) return 1;
    for (k = 0; q->goals != NULL && k < q->ngoals; k++)
      if (holds(r, q->goals[2 * k], q->goals[2 * k + 1])) return 1;
    if (expanded_in(g, s, r->x > m ? r->x - m : 0, r->y > m ? r->y - m : 0,
                    r->x + r->w - 1 + m < g->w ? r->x + r->w - 1 + m : g->w - 1,
                    r->y + r->h - 1 + m < g->h ? r->y + r->h - 1 + m : g->h - 1))
      return 1;
  }
  return 0;
}

int astar_grid_find(astar_grid *g, astar_search *s, astar_grid_query *q,
                    int sx, int sy, int gx, int gy) {
  uint32_t start, goal;
  int rc = astar_grid_prepare(g, q, sx, sy, gx, gy, &start, &goal);
  if (rc > 0) astar_search_finish(s, rc);
  if (rc != 0) return rc;
  return astar_search_run(s, &q->domain, start, goal, &q->params);
}


/* ---------------------------------------------------------------------- */
/* Distance fields: the backward domain                                     */
/* ---------------------------------------------------------------------- */

/*
** The field is d(v) = min over sources s and paths P from cell v to s of
** cost(P) + value(s), where a forward step v -> u costs len(v, u) * c(u):
** the multiplier of the cell entered. So d(s) <= value(s) and, for every
** step v -> u the policy allows, d(v) <= len(v, u) * c(u) + d(u), and d is
** the least function satisfying both: a shortest-path problem on reversed
** steps. The engine starts at every source with g0 = value, and expanding a
** settled cell u offers each predecessor v (a walkable neighbour from which
** v -> u is allowed) at g(u) + len(v, u) * c(u). The multiplier charged is
** that of u -- the cell the backward search leaves, which the forward path
** enters -- never that of v: leaving v toward the source costs nothing for
** v itself. A diagonal's rule looks at the same two orthogonal cells from
** either end, so u's predecessors are exactly the cells grid_expand offers
** as u's successors; only the cost differs (c(u) instead of c(v)). Every
** step costs > 0, so Dijkstra settles each cell at its final d(v), whatever
** the sign of the values, and v's parent is the next cell on a cheapest path
** from v to its source.
*/
static int grid_back_steps(const astar_grid_query *q, uint32_t node, astar_search *s) {
  const double *c = q->grid->cell;
  const size_t W = q->grid->stride;
  astar_edge *e = astar_search_edges(s, 8);
  const size_t n = node - W, so = node + W, w = node - 1, ea = node + 1;
  const double cn = c[n], cs = c[so], cw = c[w], ce = c[ea];
  double cu = c[node], cd;                       /* u's multiplier, both lengths */
  int k = 0;
  if (e == NULL) return ASTAR_ENOMEM;
  if (q->overlay != NULL) {                     /* every step here enters 'node' */
    cu += q->overlay_scale * q->overlay[node];
    if (!(cu < HUGE_VAL)) return 0;
  }
  if (q->grid->hex) {                           /* six steps of length 1 */
    uint32_t nb[6];
    int i;
    astar__hex_neighbours(q->grid, node, nb);
    for (i = 0; i < 6; i++)
      if (c[nb[i]] > 0) { e[k].to = nb[i]; e[k++].cost = cu; }
    return k;
  }
  cd = cu * SQRT2;
  if (cn > 0) { e[k].to = (uint32_t)n; e[k++].cost = cu; }
  if (cw > 0) { e[k].to = (uint32_t)w; e[k++].cost = cu; }
  if (ce > 0) { e[k].to = (uint32_t)ea; e[k++].cost = cu; }
  if (cs > 0) { e[k].to = (uint32_t)so; e[k++].cost = cu; }
  if (q->diagonal != ASTAR_DIAG_NEVER) {
    const int pol = q->diagonal;
    const int N = cn > 0, S = cs > 0, Wk = cw > 0, E = ce > 0;
    if (c[n - 1] > 0 && astar__diag_ok(pol, N, Wk)) { e[k].to = (uint32_t)(n - 1); e[k++].cost = cd; }
    if (c[n + 1] > 0 && astar__diag_ok(pol, N, E)) { e[k].to = (uint32_t)(n + 1); e[k++].cost = cd; }
    if (c[so - 1] > 0 && astar__diag_ok(pol, S, Wk)) { e[k].to = (uint32_t)(so - 1); e[k++].cost = cd; }
    if (c[so + 1] > 0 && astar__diag_ok(pol, S, E)) { e[k].to = (uint32_t)(so + 1); e[k++].cost = cd; }
  }
  return k;
}

static int grid_expand_back(void *self, uint32_t node, astar_search *s) {
  const astar_grid_query *q = (const astar_grid_query *)self;
  int k = grid_back_steps(q, node, s);
  if (k >= 0 && q->grid->link_in != NULL && q->grid->link_in[node] != ASTAR_NONE)
    return astar__grid_link_edges(q->grid, node, 1, s, k);
  return k;
}

/* A disc of radius r > 0: the cells that reach 'node' in a step the disc
** makes (their fit bits toward it), and by links from cells where it fits. */
static int grid_expand_back_radius(void *self, uint32_t node, astar_search *s) {
  const astar_grid_query *q = (const astar_grid_query *)self;
  int n = grid_back_steps(q, node, s), i, k = 0;
  astar_edge *e = astar_search_edges(s, 8);
  if (n < 0) return n;
  for (i = 0; i < n; i++) {
    unsigned bits = astar__grid_fit(q->grid, e[i].to, q->fitkey);
    int d = fitdir(q->grid->stride, e[i].to, node);
    if (q->fitkey < 0 ? astar__grid_boxstep(bits, d, q->diagonal) : (bits & (1u << d)) != 0)
      e[k++] = e[i];
  }
  if (q->grid->link_in == NULL || q->grid->link_in[node] == ASTAR_NONE) return k;
  n = astar__grid_link_edges(q->grid, node, 1, s, k);
  if (n < 0) return n;
  e = astar_search_edges(s, (size_t)n);
  for (i = k; i < n; i++)
    if (fits(q, e[i].to)) e[k++] = e[i];
  return k;
}

/* The engine relaxes 'from' (settled, nearer the source) -> 'to'; the user
** sees the forward step to -> from. */
static double grid_edge_cost_back(void *self, uint32_t from, uint32_t to, double base) {
  return grid_edge_cost(self, to, from, base);
}

/* Makes q->domain the backward domain of q's options on g (the heuristic
** aside): 0 or ASTAR_EINVAL. */
static int back_domain(astar_grid *g, astar_grid_query *q) {
  q->fitkey = fitkey(q);
  if (q->fitkey == -1 || ((g->hex || g->wrap) && q->fitkey != 0)) return ASTAR_EINVAL;
  if (q->overlay != NULL && !(q->overlay_scale >= 0 && q->overlay_scale <= ASTAR_NUM_MAX))
    return ASTAR_EINVAL;
  q->grid = g;
  q->domain.nnodes = (uint32_t)g->ncell;
  q->domain.expand = g->wrap && !g->hex ? wrap_expand_back
                     : q->fitkey != 0 ? grid_expand_back_radius : grid_expand_back;
  if (q->fitkey != 0) astar__grid_fit_prepare(g, q->fitkey);
  q->domain.is_goal = NULL;
  q->domain.edge_cost = q->cost_fn != NULL ? grid_edge_cost_back : NULL;
  q->domain.shortcut = NULL;
  q->domain.settle = NULL;
  q->domain.progress = NULL;
  q->domain.self = q;
  return 0;
}

int astar_grid_field(astar_grid *g, astar_search *s, astar_grid_query *q,
                     const uint32_t *sources, const double *values, size_t n) {
  size_t i;
  int rc;
  if (n == 0 || q->diagonal < ASTAR_DIAG_NO_CORNER_CUTTING ||
      q->diagonal > ASTAR_DIAG_ONE_OBSTACLE)
    return ASTAR_EINVAL;
  for (i = 0; i < n; i++) {
    if (sources[i] >= g->ncell || !(g->cell[sources[i]] > 0)) return ASTAR_EINVAL;
    if (values != NULL && !(values[i] <= q->params.max_cost)) return ASTAR_EINVAL;
  }
  if ((rc = back_domain(g, q)) != 0) return rc;
  q->params.algorithm = ASTAR_ALG_DIJKSTRA;
  q->domain.heuristic = NULL;
  rc = astar_search_begin_multi(s, &q->domain, sources, values, n, ASTAR_NONE,
                                &q->params);
  if (rc != 0) return rc;
  rc = astar_search_step(s, UINT64_MAX);
  return rc == ASTAR_NO_PATH ? 0 : rc;
}

int astar_grid_back_begin(astar_grid *g, astar_search *s, astar_grid_query *q, int gx,
                          int gy, int tx, int ty) {
  uint32_t from;
  int rc;
  if (gx < 0 || gy < 0 || tx < 0 || ty < 0 || gx >= g->w || tx >= g->w || gy >= g->h ||
      ty >= g->h || q->diagonal < ASTAR_DIAG_NO_CORNER_CUTTING ||
      q->diagonal > ASTAR_DIAG_ONE_OBSTACLE || q->h_fn != NULL || q->heuristic < -1 ||
      q->heuristic > ASTAR_H_ZERO)
    return ASTAR_EINVAL;
  from = astar_grid_node(g, gx, gy);
  if (!(g->cell[from] > 0)) return ASTAR_EINVAL;
  if ((rc = back_domain(g, q)) != 0) return rc;
  if (q->heuristic == -1)
    q->heuristic = q->diagonal == ASTAR_DIAG_NEVER ? ASTAR_H_MANHATTAN : ASTAR_H_OCTILE;
  q->gx = tx; q->gy = ty;
  q->goal = astar_grid_node(g, tx, ty);
  q->hscale = astar_grid_min_cost(g);
  q->within = -1;
  q->goals = NULL;
  /* toward (tx, ty); links may shorten a path in ways the reversed steps'
  ** bound does not see: none then */
  q->domain.heuristic = q->heuristic == ASTAR_H_ZERO || g->nlinks > 0 ? NULL : grid_h;
  q->params.algorithm = ASTAR_ALG_ASTAR;
  q->params.weight = 1;
  q->params.partial = 0;
  q->params.max_expansions = UINT64_MAX;
  return astar_search_begin(s, &q->domain, from, ASTAR_NONE, &q->params);
}


/* ---------------------------------------------------------------------- */
/* Connected components                                                     */
/* ---------------------------------------------------------------------- */

/*
** Which labeling answers reachability under a diagonal policy: 0 for
** 4-connected components, 1 for 8-connected ones.
**
** Every step is reversible: both of its cells are walkable, and a diagonal's
** rule looks at the same two orthogonal cells from either end. So "b can be
** reached from a" is an equivalence, and its classes are the components of
** the graph of allowed steps. Under NEVER that graph is the 4-neighbour one.
** Under NO_CORNER_CUTTING and ONE_OBSTACLE it has the same components:
** a diagonal step a -> b (a = (x, y), b = (x+dx, y+dy)) is allowed only if at
** least one of o1 = (x+dx, y), o2 = (x, y+dy) is walkable (NO_CORNER_CUTTING
** even needs both); say o is. Then a -> o and o -> b are orthogonal steps
** between walkable cells, which every policy allows, so a and b are already
** 4-connected: adding those diagonals joins no two 4-components, and every
** path of the policy maps to a 4-connected one. Under ALWAYS a diagonal whose
** o1 and o2 are both blocked joins cells that may be in different
** 4-components, so ALWAYS needs the 8-neighbour components.
*/
static int conn_of(int diagonal) {
  return diagonal == ASTAR_DIAG_ALWAYS;
}

/* The root of i in the forest p, halving the path on the way. Links always
** point to a smaller index (p[i] <= i), so a root is the first cell of its
** set in row-major order. */
static uint32_t root(uint32_t *p, uint32_t i) {
  while (p[i] != i) {
    p[i] = p[p[i]];
    i = p[i];
  }
  return i;
}

/* Merges the sets of roots r (or NONE) and t; returns the merged root. */
static uint32_t join(uint32_t *p, uint32_t r, uint32_t t) {
  if (r == ASTAR_NONE || r == t) return t;
  if (r < t) { p[t] = r; return r; }
  p[r] = t;
  return t;
}

/*
** Labels the components of g into g->label[k], in place and without
** recursion or scratch memory: a raster pass builds a union-find forest in
** the label array (each walkable cell joins the sets of its walkable
** neighbours already scanned: W and N, and NW and NE when k = 1); a second
** raster pass replaces each parent link by a label. A cell whose link is
** itself is the first of its component in row-major order and gets the next
** label; any other cell links to a smaller index, already relabelled, and
** takes its label. So labels are 1, 2, ... in the order of the first cell of
** each component. The border stays 0 (allocated zeroed, never written).
*/
static void relabel(astar_grid *g, int k) {
  uint32_t *p = g->label[k];
  const double *c = g->cell;
  const size_t W = g->stride;
  uint32_t n = 0;
  int y;
  for (y = 0; y < g->h; y++) {
    size_t i = at(g, 0, y), end = i + (size_t)g->w;
    for (; i < end; i++) {
      uint32_t r = ASTAR_NONE;
      if (!(c[i] > 0)) { p[i] = 0; continue; }
      if (g->hex || g->wrap) {           /* the neighbours already scanned */
        uint32_t nb[8];
        int j, m = g->hex ? 6 : k ? 8 : 4;
        if (g->hex) astar__hex_neighbours(g, (uint32_t)i, nb);
        else astar__wrap_neighbours(g, (uint32_t)i, nb);
        for (j = 0; j < m; j++)
          if (nb[j] < i && c[nb[j]] > 0) r = join(p, r, root(p, nb[j]));
        p[i] = r == ASTAR_NONE ? (uint32_t)i : r;
        continue;
      }
      if (c[i - 1] > 0) r = root(p, (uint32_t)(i - 1));
      if (c[i - W] > 0) r = join(p, r, root(p, (uint32_t)(i - W)));
      if (k) {
        if (c[i - W - 1] > 0) r = join(p, r, root(p, (uint32_t)(i - W - 1)));
        if (c[i - W + 1] > 0) r = join(p, r, root(p, (uint32_t)(i - W + 1)));
      }
      p[i] = r == ASTAR_NONE ? (uint32_t)i : r;
    }
  }
  for (y = 0; y < g->h; y++) {
    size_t i = at(g, 0, y), end = i + (size_t)g->w;
    for (; i < end; i++)
      if (c[i] > 0) p[i] = p[i] == (uint32_t)i ? ++n : p[p[i]];
  }
  g->ncomp[k] = n;
  g->lab_topo[k] = g->topo;
  g->lab_ok[k] = 1;
}

/* Makes g->label[k] current; 0 or ASTAR_ENOMEM (labels unchanged). */
static int labels(astar_grid *g, int k) {
  if (g->label[k] == NULL) {
    uint32_t *p;
    if (g->ncell > SIZE_MAX / sizeof(uint32_t)) return ASTAR_ENOMEM;
    p = (uint32_t *)astar__alloc(&g->mem, g->ncell * sizeof(uint32_t));
    if (p == NULL) return ASTAR_ENOMEM;
    memset(p, 0, g->ncell * sizeof(uint32_t));
    g->label[k] = p;
    g->lab_ok[k] = 0;
  }
  if (!g->lab_ok[k] || g->lab_topo[k] != g->topo) relabel(g, k);
  return 0;
}

int astar_grid_components(astar_grid *g, int diagonal, uint32_t *count) {
  int k, rc;
  if (diagonal < ASTAR_DIAG_NO_CORNER_CUTTING || diagonal > ASTAR_DIAG_ONE_OBSTACLE)
    return ASTAR_EINVAL;
  k = conn_of(diagonal);
  rc = labels(g, k);
  if (rc != 0) return rc;
  g->use_labels = 1;
  if (count != NULL) *count = g->ncomp[k];
  return 0;
}

int astar_grid_component(astar_grid *g, int diagonal, int x, int y, uint32_t *label) {
  int rc;
  if (x < 0 || y < 0 || x >= g->w || y >= g->h) return ASTAR_EINVAL;
  rc = astar_grid_components(g, diagonal, NULL);
  if (rc != 0) return rc;
  *label = g->label[conn_of(diagonal)][at(g, x, y)];
  return 0;
}

/* ---------------------------------------------------------------------- */
/* Searches from several threads                                            */
/* ---------------------------------------------------------------------- */

int astar_grid_ready(astar_grid *g) {
  int k;
  astar_grid_min_cost(g);
  if (astar__grid_bits(g) != 0) return ASTAR_ENOMEM;
  for (k = 0; k < 2 && g->use_labels; k++)
    if (labels(g, k) != 0) return ASTAR_ENOMEM;
  for (k = 0; k < 4; k++) astar__jt_refresh(g, k);
  g->frozen = 1;
  return 0;
}

void astar_grid_thaw(astar_grid *g) { g->frozen = 0; }

int astar_grid_snapshot(astar_grid **out, const astar_grid *g) {
  int k, rc = astar_grid_clone(out, g);
  if (rc != 0) return rc;
  (*out)->version = g->version;              /* and the log of the edits before it */
  memcpy((*out)->edits, g->edits, sizeof g->edits);
  (*out)->use_labels = g->use_labels;
  for (k = 0; k < 4 && rc == 0; k++)
    if (g->jt[k] != NULL) rc = astar_grid_prepare_jumps(*out, k);
  if (rc == 0) rc = astar_grid_ready(*out);
  if (rc != 0) {
    astar_grid_free(*out);
    *out = NULL;
  }
  return rc;
}

int astar_grid_snapshot_current(const astar_grid *s, const astar_grid *g) {
  int k;
  if (s->version != g->version || s->use_labels != g->use_labels) return 0;
  for (k = 0; k < 4; k++)
    if ((s->jt[k] == NULL) != (g->jt[k] == NULL)) return 0;
  return 1;
}
