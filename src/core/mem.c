/*
** mem.c - every allocation of the core goes through here, so that it is
** counted (astar_stats.allocs) and checked for overflow.
*/
#include <stdint.h>
#include "core.h"

void *astar__alloc(astar_mem *m, size_t n) {
  void *p;
  if (n == 0) return NULL;
  p = m->fn(m->ud, NULL, 0, n);
  if (p != NULL) m->allocs++;
  return p;
}

void astar__free(astar_mem *m, void *p, size_t n) {
  if (p != NULL) m->fn(m->ud, p, n, 0);
}

int astar__reserve(astar_mem *m, void **p, size_t *cap, size_t need, size_t elem) {
  size_t ncap = *cap ? *cap : 16;
  void *np;
  if (need <= *cap) return 0;
  while (ncap < need) {
    if (ncap > SIZE_MAX / 2) { ncap = need; break; }
    ncap *= 2;
  }
  if (ncap > SIZE_MAX / elem) return ASTAR_ENOMEM;
  np = m->fn(m->ud, *p, *p ? *cap * elem : 0, ncap * elem);
  if (np == NULL) return ASTAR_ENOMEM;
  m->allocs++;
  *p = np;
  *cap = ncap;
  return 0;
}
