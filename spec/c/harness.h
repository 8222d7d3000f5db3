/*
** harness.h - what the C tests of the core share: a CHECK that counts, and
** an allocator that counts live blocks and can fail its N-th allocation.
*/
#ifndef ASTAR_TEST_HARNESS_H
#define ASTAR_TEST_HARNESS_H

#include <stdio.h>
#include <stdlib.h>

static int failures = 0, checks = 0;

#define CHECK(cond) do { checks++; if (!(cond)) { failures++; \
  fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); } } while (0)

typedef struct counting {
  long calls;       /* allocations made so far */
  long fail_at;     /* fail the allocation with this number (1-based), 0 = never */
  long live;        /* blocks alive */
} counting;

static void *test_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  counting *c = (counting *)ud;
  (void)osize;
  if (nsize == 0) {
    if (ptr != NULL) c->live--;
    free(ptr);
    return NULL;
  }
  if (++c->calls == c->fail_at) return NULL;
  if (ptr == NULL) {
    void *p = malloc(nsize);
    if (p != NULL) c->live++;
    return p;
  }
  return realloc(ptr, nsize);
}

#endif
