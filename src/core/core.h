/*
** core.h - internals shared by the files of the core (not installed).
*/
#ifndef ASTAR_CORE_H
#define ASTAR_CORE_H

#include "astar.h"

/* For the few small functions of the hot loops that must be inlined, so
** that a call with constant arguments compiles to its own branch-free copy
** (the compilers' own choice declines them at some call sites). */
#if defined(__GNUC__) || defined(__clang__)
#define HOT static inline __attribute__((always_inline))
#else
#define HOT static inline
#endif

/*
** Ensures '*p' holds at least 'need' elements of 'elem' bytes, growing the
** capacity '*cap' geometrically. Returns 0, or ASTAR_ENOMEM with '*p' and
** '*cap' untouched (also when the byte size would overflow).
*/
int astar__reserve(astar_mem *m, void **p, size_t *cap, size_t need, size_t elem);
/* One block of n bytes (NULL on failure or overflow of n == 0). */
void *astar__alloc(astar_mem *m, size_t n);
void astar__free(astar_mem *m, void *p, size_t n);

/* workers.c: runs fn(arg, i) for i = 0 .. n - 1 (n <= ASTAR_WORKERS_MAX),
** 0 on the calling thread and the others on threads of their own, and
** returns when all are done; a share whose thread cannot start runs on the
** calling thread after its own. fn must not allocate through an astar_mem
** (a Lua state's allocator is not for other threads). */
void astar__parallel(int n, void (*fn)(void *, int), void *arg);

/* A 64-bit mixer (MurmurHash3's finaliser) for open-addressing tables. */
static inline uint64_t astar__hash64(uint64_t k) {
  k ^= k >> 33; k *= 0xff51afd7ed558ccdULL; k ^= k >> 33; k *= 0xc4ceb9fe1a85ec53ULL;
  return k ^ (k >> 33);
}

/* funnel.c: the string pulled taut through a corridor of np + 1 portals,
** l[k] and r[k] the left and right ends of portal k as the traveller sees
** them (portal 0 the start, np the goal, each a single point). Writes the
** corners it bends round to out (room for np + 2), as codes 2 k (left end of
** portal k) and 2 k + 1 (right end), from the start (code 0) to the goal
** (code 2 np), and returns how many. Collinear ends pass as they come: the
** nearer of two on one ray becomes the corner. */
size_t astar__funnel(const double (*l)[2], const double (*r)[2], size_t np, uint32_t *out);

/* The padded cell array of a grid (grid.c), for dstar.c. */
const double *astar__grid_cells(const astar_grid *g);

#endif
