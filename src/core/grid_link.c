/*
** grid_link.c - links between cells (ladders, teleporters, jumps): directed
** edges of a fixed cost that searches take besides the steps to neighbours.
**
** STORAGE. One array of link records and, per padded cell, the heads of two
** singly linked lists: the links leaving the cell and those entering it
** (distance fields walk links backwards). Both head arrays exist only once
** the grid has had a link, so grids without links pay one NULL test per
** expansion. Removed records go on a free list and are reused.
*/
#include <string.h>
#include "grid_impl.h"

#define NONE ASTAR_NONE

static uint32_t node_of(const astar_grid *g, int x, int y) {
  return (uint32_t)((size_t)(y + 1) * g->stride + (size_t)(x + 1));
}

/* The record of the link from -> to, or NONE; *prev: the record before it in
** from's list (NONE if it heads the list). */
static uint32_t find(const astar_grid *g, uint32_t from, uint32_t to, uint32_t *prev) {
  uint32_t r, p = NONE;
  if (g->link_out == NULL) return NONE;
  for (r = g->link_out[from]; r != NONE; p = r, r = g->link[r].next_out)
    if (g->link[r].to == to) {
      if (prev != NULL) *prev = p;
      return r;
    }
  return NONE;
}

/* Makes the head arrays exist (all lists empty). */
static int heads(astar_grid *g) {
  size_t i;
  if (g->link_out != NULL) return 0;
  g->link_out = (uint32_t *)astar__alloc(&g->mem, g->ncell * sizeof(uint32_t));
  g->link_in = (uint32_t *)astar__alloc(&g->mem, g->ncell * sizeof(uint32_t));
  if (g->link_out == NULL || g->link_in == NULL) {
    astar__free(&g->mem, g->link_out, g->ncell * sizeof(uint32_t));
    astar__free(&g->mem, g->link_in, g->ncell * sizeof(uint32_t));
    g->link_out = g->link_in = NULL;
    return ASTAR_ENOMEM;
  }
  for (i = 0; i < g->ncell; i++) g->link_out[i] = g->link_in[i] = NONE;
  return 0;
}

int astar_grid_link(astar_grid *g, int x0, int y0, int x1, int y1, double cost) {
  uint32_t from, to, r;
  if (x0 < 0 || y0 < 0 || x1 < 0 || y1 < 0 || x0 >= g->w || x1 >= g->w || y0 >= g->h ||
      y1 >= g->h || (x0 == x1 && y0 == y1) || !(cost > 0 && cost <= ASTAR_NUM_MAX))
    return ASTAR_EINVAL;
  from = node_of(g, x0, y0);
  to = node_of(g, x1, y1);
  r = find(g, from, to, NULL);
  if (r == NONE) {
    if (g->link_free == NONE && g->nlinkrec >= (size_t)NONE - 1) return ASTAR_EINVAL;
    if (heads(g) != 0) return ASTAR_ENOMEM;
    if (g->link_free != NONE) {
      r = g->link_free;
      g->link_free = g->link[r].next_out;
    } else {
      if (astar__reserve(&g->mem, (void **)&g->link, &g->clink, g->nlinkrec + 1,
                         sizeof *g->link))
        return ASTAR_ENOMEM;
      r = (uint32_t)g->nlinkrec++;
    }
    g->link[r].from = from;
    g->link[r].to = to;
    g->link[r].next_out = g->link_out[from];
    g->link[r].next_in = g->link_in[to];
    g->link_out[from] = g->link_in[to] = r;
    g->nlinks++;
  }
  g->link[r].cost = cost;
  astar__grid_bits_rect(g, x0, y0, 1, 1);           /* its ends stop jumps */
  astar__grid_bits_rect(g, x1, y1, 1, 1);
  /* a link changes the heuristic's bound everywhere: the whole grid is edited */
  astar__grid_edited(g, 0, 0, g->w, g->h);
  return 0;
}

int astar_grid_unlink(astar_grid *g, int x0, int y0, int x1, int y1) {
  uint32_t from, to, r, p, *q;
  if (x0 < 0 || y0 < 0 || x1 < 0 || y1 < 0 || x0 >= g->w || x1 >= g->w || y0 >= g->h ||
      y1 >= g->h)
    return 0;
  from = node_of(g, x0, y0);
  to = node_of(g, x1, y1);
  r = find(g, from, to, &p);
  if (r == NONE) return 0;
  if (p == NONE) g->link_out[from] = g->link[r].next_out;
  else g->link[p].next_out = g->link[r].next_out;
  for (q = &g->link_in[to]; *q != r; q = &g->link[*q].next_in) {}
  *q = g->link[r].next_in;
  g->link[r].from = g->link[r].to = NONE;
  g->link[r].next_out = g->link_free;
  g->link_free = r;
  g->nlinks--;
  astar__grid_bits_rect(g, x0, y0, 1, 1);
  astar__grid_bits_rect(g, x1, y1, 1, 1);
  astar__grid_edited(g, 0, 0, g->w, g->h);
  return 1;
}

size_t astar_grid_link_count(const astar_grid *g) { return g->nlinks; }

int astar_grid_next_link(const astar_grid *g, size_t *cursor, int *x0, int *y0, int *x1,
                         int *y1, double *cost) {
  for (; *cursor < g->nlinkrec; (*cursor)++) {
    const astar_glink *k = &g->link[*cursor];
    if (k->from == NONE) continue;
    astar_grid_cell(g, k->from, x0, y0);
    astar_grid_cell(g, k->to, x1, y1);
    *cost = k->cost;
    (*cursor)++;
    return 1;
  }
  return 0;
}

double astar_grid_link_cost(const astar_grid *g, int x0, int y0, int x1, int y1) {
  uint32_t r;
  if (g->nlinks == 0 || x0 < 0 || y0 < 0 || x1 < 0 || y1 < 0 || x0 >= g->w || x1 >= g->w ||
      y0 >= g->h || y1 >= g->h)
    return -1.0;
  r = find(g, node_of(g, x0, y0), node_of(g, x1, y1), NULL);
  return r == NONE ? -1.0 : g->link[r].cost;
}

int astar__grid_link_edges(const astar_grid *g, uint32_t node, int back, astar_search *s,
                           int k) {
  uint32_t r;
  int n = 0;
  astar_edge *e;
  for (r = back ? g->link_in[node] : g->link_out[node]; r != NONE;
       r = back ? g->link[r].next_in : g->link[r].next_out)
    n++;
  e = astar_search_edges(s, (size_t)k + (size_t)n);
  if (e == NULL) return ASTAR_ENOMEM;
  for (r = back ? g->link_in[node] : g->link_out[node]; r != NONE;
       r = back ? g->link[r].next_in : g->link[r].next_out) {
    uint32_t other = back ? g->link[r].from : g->link[r].to;
    if (g->cell[other] > 0) {
      e[k].to = other;
      e[k++].cost = g->link[r].cost;
    }
  }
  return k;
}

int astar__grid_links_copy(astar_grid *dst, const astar_grid *src) {
  if (src->link_out == NULL) return 0;
  if (heads(dst) != 0 ||
      (src->nlinkrec > 0 && astar__reserve(&dst->mem, (void **)&dst->link, &dst->clink,
                                           src->nlinkrec, sizeof *dst->link)))
    return ASTAR_ENOMEM;
  memcpy(dst->link_out, src->link_out, src->ncell * sizeof(uint32_t));
  memcpy(dst->link_in, src->link_in, src->ncell * sizeof(uint32_t));
  if (src->nlinkrec > 0) memcpy(dst->link, src->link, src->nlinkrec * sizeof *src->link);
  dst->nlinkrec = src->nlinkrec;
  dst->nlinks = src->nlinks;
  dst->link_free = src->link_free;
  return 0;
}

void astar__grid_links_free(astar_grid *g) {
  astar__free(&g->mem, g->link_out, g->link_out != NULL ? g->ncell * sizeof(uint32_t) : 0);
  astar__free(&g->mem, g->link_in, g->link_in != NULL ? g->ncell * sizeof(uint32_t) : 0);
  astar__free(&g->mem, g->link, g->clink * sizeof *g->link);
  g->link_out = g->link_in = NULL;
  g->link = NULL;
  g->clink = g->nlinkrec = g->nlinks = 0;
  g->link_free = NONE;
}
