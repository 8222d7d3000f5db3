/*
** grid_class.c - movement classes: a grid that follows another through a
** table of costs, so that each kind of unit (boats, tanks, soldiers) has its
** own costs for the same terrain and every search runs on a plain grid.
**
** The class keeps only its table. Whoever edits the grid it follows calls
** astar_grid_class_sync with the rectangle edited; the class then records the
** same edit, so its searches, queries and caches see it as their own.
*/
#include <string.h>
#include "grid_impl.h"

/* The class's cost for cost c of the grid it follows: the table's, or c. */
static double mapped(const astar_grid *k, double c) {
  size_t lo = 0, hi = k->ncmap;
  while (lo < hi) {                                  /* the first pair >= c */
    size_t mid = lo + (hi - lo) / 2;
    if (k->cmap[2 * mid] < c) lo = mid + 1;
    else hi = mid;
  }
  return lo < k->ncmap && k->cmap[2 * lo] == c ? k->cmap[2 * lo + 1] : c;
}

static int goodpair(const double *p) {
  return p[0] >= 0 && p[0] <= ASTAR_NUM_MAX && p[1] >= 0 && p[1] <= ASTAR_NUM_MAX;
}

int astar_grid_class(astar_grid **out, const astar_grid *g, const double *pairs, size_t n) {
  astar_grid *k;
  size_t i, j, bytes;
  int rc, x, y;
  *out = NULL;
  if (n == 0 || n > ASTAR_GRID_CLASS_MAX) return ASTAR_EINVAL;
  for (i = 0; i < n; i++) {
    if (!goodpair(pairs + 2 * i)) return ASTAR_EINVAL;
    for (j = 0; j < i; j++)
      if (pairs[2 * j] == pairs[2 * i]) return ASTAR_EINVAL;
  }
  rc = astar_grid_new(&k, g->w, g->h, 0.0, g->mem.fn, g->mem.ud);
  if (rc != 0) return rc;
  k->hex = g->hex;
  k->wrap = g->wrap;
  bytes = 2 * n * sizeof(double);
  k->cmap = (double *)astar__alloc(&k->mem, bytes);
  if (k->cmap == NULL) {
    astar_grid_free(k);
    return ASTAR_ENOMEM;
  }
  for (i = 0; i < n; i++) {                          /* insertion sort: n is small */
    double a = pairs[2 * i], b = pairs[2 * i + 1];
    for (j = i; j > 0 && k->cmap[2 * (j - 1)] > a; j--) {
      k->cmap[2 * j] = k->cmap[2 * (j - 1)];
      k->cmap[2 * j + 1] = k->cmap[2 * (j - 1) + 1];
    }
    k->cmap[2 * j] = a;
    k->cmap[2 * j + 1] = b;
  }
  k->ncmap = n;
  for (y = 0; y < g->h; y++)
    for (x = 0; x < g->w; x++) {
      size_t node = (size_t)(y + 1) * g->stride + (size_t)(x + 1);
      astar__grid_put(k, node, mapped(k, g->cell[node]));
    }
  k->version = 0;                                    /* a new grid: nothing edited yet */
  k->topo = 0;
  *out = k;
  return 0;
}

int astar_grid_class_sync(astar_grid *k, const astar_grid *g, int x, int y, int w, int h) {
  int i, j;
  if (k->cmap == NULL || k->w != g->w || k->h != g->h || x < 0 || y < 0 || w < 0 ||
      h < 0 || x > g->w - w || y > g->h - h)
    return ASTAR_EINVAL;
  for (j = y; j < y + h; j++)
    for (i = x; i < x + w; i++) {
      size_t node = (size_t)(j + 1) * g->stride + (size_t)(i + 1);
      astar__grid_put(k, node, mapped(k, g->cell[node]));
    }
  astar__grid_bits_rect(k, x, y, w, h);
  astar__grid_edited(k, x, y, w, h);
  return 0;
}

size_t astar_grid_class_size(const astar_grid *k) { return k->ncmap; }

void astar__grid_class_free(astar_grid *g) {
  if (g->cmap == NULL) return;
  astar__free(&g->mem, g->cmap, 2 * g->ncmap * sizeof(double));
  g->cmap = NULL;
  g->ncmap = 0;
}
