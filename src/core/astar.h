/*
** astar.h - the pure C core of the astar pathfinding library.
**
** This header is the core's manual. The core is C99, has no globals, never
** includes a Lua header and never prints or aborts. Lua reaches it through
** src/lua/ (the binding); C programs can use it directly.
**
** MEMORY. Every object takes an allocator of lua_Alloc's shape (astar_alloc)
** and allocates through it alone. An allocation that fails makes the call
** return ASTAR_ENOMEM and leaves the object as it was before the call (still
** usable). Sizes are checked for overflow before any allocation.
**
** SEARCH. One engine serves every map kind. A map kind describes itself to
** the engine as an astar_domain: a node count, an `expand` function that
** writes a node's successors into a buffer the engine owns, and a heuristic.
** All scratch of a search (node records, open heap, path buffer) lives in an
** astar_search, which is reused from query to query: once its buffers have
** grown to the size a map needs, further queries allocate nothing. Node
** records are found through a sparse set (a dense `slot` array checked against
** the record it points to), so nothing is cleared between queries.
**
** CALLBACKS. A domain's expand and heuristic functions may call out to a
** scripting language that escapes with longjmp (a Lua error). The engine
** holds no allocation across those calls that the astar_search does not own,
** so such an escape leaks nothing; the interrupted search is simply abandoned
** and the next astar_search_begin starts afresh.
**
** COORDINATES in the core are 0-based; the Lua binding adds 1.
*/
#ifndef ASTAR_H
#define ASTAR_H

#include <stddef.h>
#include <stdint.h>

#define ASTAR_VERSION "0.1.0"

/* Allocator with lua_Alloc's contract: nsize == 0 frees ptr and returns NULL;
** otherwise returns a block of nsize bytes holding the first min(osize, nsize)
** bytes of ptr (ptr may be NULL, then osize is meaningless), or NULL on
** failure, in which case ptr is untouched. */
typedef void *(*astar_alloc)(void *ud, void *ptr, size_t osize, size_t nsize);

/* Status codes. Non-negative codes are search outcomes, negative ones errors. */
enum {
  ASTAR_FOUND    = 0,   /* a path to the goal was found */
  ASTAR_NO_PATH  = 1,   /* the goal cannot be reached */
  ASTAR_BLOCKED  = 2,   /* start or goal is blocked */
  ASTAR_LIMIT    = 3,   /* max_expansions or max_cost stopped the search */
  ASTAR_RUNNING  = 4,   /* astar_search_step: budget spent, not finished */
  ASTAR_ENOMEM   = -1,  /* the allocator failed; nothing was changed */
  ASTAR_EINVAL   = -2,  /* an argument is out of its documented range */
  ASTAR_ESTATE   = -3,  /* call not valid in the search's current state */
  ASTAR_ECALLBACK = -4  /* a domain callback reported failure */
};

/* Search algorithms (astar_params.algorithm). */
enum {
  ASTAR_ALG_ASTAR = 0,  /* f = g + weight*h; shortest with an admissible h and weight 1 */
  ASTAR_ALG_DIJKSTRA,   /* h ignored: f = g */
  ASTAR_ALG_BFS,        /* fewest edges; edge costs only summed for the result */
  ASTAR_ALG_GREEDY      /* f = h: best-first, fast, not shortest */
};

/* Returns a short English text for a status code (static storage). */
const char *astar_strstatus(int status);


/* ===================================================================== */
/* The search engine                                                     */
/* ===================================================================== */

/* A successor written by a domain's expand function. */
typedef struct astar_edge {
  uint32_t to;    /* node index, < astar_domain.nnodes */
  double cost;    /* > 0 and finite (the domain guarantees it) */
} astar_edge;

typedef struct astar_search astar_search;

/*
** A map kind as the engine sees it. Nodes are 0 .. nnodes-1; nnodes == 0
** means unbounded (implicit graphs number their nodes as they meet them).
** expand(self, node, s): writes the successors of 'node' into the buffer
**   returned by astar_search_edges(s, n) and returns how many it wrote, or a
**   negative status (ASTAR_ENOMEM, ASTAR_ECALLBACK) to abort the search.
** heuristic(self, node): an estimate of the cost from 'node' to the goal,
**   >= 0. Called once per node per search. NULL means 0 everywhere.
** is_goal(self, node): optional; when set it replaces 'node == goal' (several
**   goals, goal regions). Called when a node is about to be expanded.
** edge_cost(self, from, to, base): optional; the real cost of an edge the
**   domain wrote with cost 'base' (a user callback). Returns a cost >= 0, or
**   a negative number to forbid the step. The engine calls it only for edges
**   that can still matter: not for edges into nodes that are closed for good.
*/
typedef struct astar_domain {
  uint32_t nnodes;
  int (*expand)(void *self, uint32_t node, astar_search *s);
  double (*heuristic)(void *self, uint32_t node);
  int (*is_goal)(void *self, uint32_t node);
  double (*edge_cost)(void *self, uint32_t from, uint32_t to, double base);
  void *self;
} astar_domain;

/* No node: a goal of ASTAR_NONE is never reached (searches that exhaust the
** map, such as distance fields); also 'no parent'. */
#define ASTAR_NONE UINT32_MAX

/* Per-query parameters; astar_params_init sets the defaults. */
typedef struct astar_params {
  int algorithm;           /* ASTAR_ALG_*; default ASTAR_ALG_ASTAR */
  double weight;           /* >= 1, finite; default 1 */
  uint64_t max_expansions; /* default UINT64_MAX (no limit) */
  double max_cost;         /* paths costing more are not searched; default HUGE_VAL */
  int partial;             /* nonzero: on NO_PATH/LIMIT keep the best partial path */
} astar_params;

void astar_params_init(astar_params *p);

/* Statistics of the current or last search. */
typedef struct astar_stats {
  uint64_t expanded;    /* nodes whose successors were generated */
  uint64_t generated;   /* node records created */
  uint64_t reopened;    /* closed nodes put back on the open list */
  size_t allocs;        /* allocator calls that allocated, over the object's life */
} astar_stats;

/* Creates a reusable search context. Returns ASTAR_OK-like 0 or ASTAR_ENOMEM. */
int astar_search_new(astar_search **out, astar_alloc alloc, void *ud);
/* Frees the context and all its buffers. NULL is accepted. */
void astar_search_free(astar_search *s);

/*
** Starts a search from 'start' to 'goal' over domain 'd' (which must stay
** valid until the search ends). Resets the context; grows its buffers to
** d->nnodes if needed. Returns 0, ASTAR_EINVAL (bad node or params) or
** ASTAR_ENOMEM (the context keeps its old buffers and is idle).
*/
int astar_search_begin(astar_search *s, const astar_domain *d,
                       uint32_t start, uint32_t goal, const astar_params *p);

/*
** Expands at most 'budget' nodes. Returns ASTAR_RUNNING while unfinished,
** then the outcome: ASTAR_FOUND, ASTAR_NO_PATH or ASTAR_LIMIT (the same on
** every later call), or a negative error from the domain. With
** params.partial, NO_PATH and LIMIT still leave a path (to the expanded node
** with the smallest heuristic, ties to the smaller cost) for astar_search_path.
*/
int astar_search_step(astar_search *s, uint64_t budget);

/*
** Like astar_search_begin, with several start nodes, each with an initial
** cost g0[i] (NULL: all 0). Used by distance fields (flee maps start from
** negative values) and backward searches from several goals.
*/
int astar_search_begin_multi(astar_search *s, const astar_domain *d,
                             const uint32_t *starts, const double *g0, size_t n,
                             uint32_t goal, const astar_params *p);

/*
** What the last search knows of 'node': returns 1 and sets *g (cost from the
** nearest start) and *parent (ASTAR_NONE at a start) if the node was closed
** (its cost is final), 2 if it is only open (cost not final), 0 if unseen.
*/
int astar_search_node(const astar_search *s, uint32_t node, double *g, uint32_t *parent);

/* Calls fn(ud, node, g, parent) for every closed node of the last search. */
void astar_search_each_closed(const astar_search *s,
                              void (*fn)(void *ud, uint32_t node, double g, uint32_t parent),
                              void *ud);

/* The node the last search stopped at (the goal reached, or with 'partial'
** the closest node), or ASTAR_NONE. */
uint32_t astar_search_end(const astar_search *s);

/* begin + step until done. */
int astar_search_run(astar_search *s, const astar_domain *d, uint32_t start,
                     uint32_t goal, const astar_params *p);

/*
** The path of a finished search, start first: sets *nodes to a buffer owned
** by 's' (valid until the next begin) and returns its length, with the
** path's cost in *cost. Returns 0 when there is no path to report.
** May return ASTAR_ENOMEM (negative) if the path buffer cannot grow.
*/
long astar_search_path(astar_search *s, const uint32_t **nodes, double *cost);

/* Statistics of the current or last search (allocs: over the context's life). */
void astar_search_stats(const astar_search *s, astar_stats *st);

/*
** For expand functions: a buffer for at least n edges, owned by 's' and
** valid until the next call. NULL if it cannot grow (return ASTAR_ENOMEM).
*/
astar_edge *astar_search_edges(astar_search *s, size_t n);


/* ===================================================================== */
/* Grids                                                                 */
/* ===================================================================== */

/* Diagonal policies (astar_grid_query.diagonal). */
enum {
  ASTAR_DIAG_NO_CORNER_CUTTING = 0, /* both orthogonal neighbours walkable */
  ASTAR_DIAG_NEVER,                 /* 4-connected */
  ASTAR_DIAG_ALWAYS,                /* any diagonal into a walkable cell */
  ASTAR_DIAG_ONE_OBSTACLE           /* at most one orthogonal neighbour blocked */
};

/* Built-in grid heuristics, all multiplied by the grid's smallest cost. */
enum {
  ASTAR_H_OCTILE = 0, ASTAR_H_MANHATTAN, ASTAR_H_EUCLIDEAN,
  ASTAR_H_CHEBYSHEV, ASTAR_H_ZERO
};

/* Largest number of cells (w*h) a grid may have. */
#define ASTAR_GRID_MAX_CELLS ((uint64_t)1 << 28)

typedef struct astar_grid astar_grid;

/*
** Creates a w x h grid with every cell set to 'cost' (> 0, finite, or 0 for
** blocked). Returns 0, ASTAR_EINVAL (w or h < 1, w*h above
** ASTAR_GRID_MAX_CELLS, bad cost) or ASTAR_ENOMEM.
*/
int astar_grid_new(astar_grid **out, int w, int h, double cost,
                   astar_alloc alloc, void *ud);
void astar_grid_free(astar_grid *g);      /* NULL is accepted */
/* A deep copy (its own allocator is the original's). */
int astar_grid_clone(astar_grid **out, const astar_grid *g);

int astar_grid_width(const astar_grid *g);
int astar_grid_height(const astar_grid *g);

/* Cell cost at (x, y), 0 if blocked. The caller checks the range. */
double astar_grid_get(const astar_grid *g, int x, int y);
/* Sets a cell: cost > 0 and finite, or 0 for blocked. The caller checks
** the range and the value. */
void astar_grid_set(astar_grid *g, int x, int y, double cost);
/* Sets the w x h rectangle at (x, y), which the caller checks is inside. */
void astar_grid_fill(astar_grid *g, int x, int y, int w, int h, double cost);
/* Sets row y from 'w' bytes through a 256-entry cost table (0 = blocked). */
void astar_grid_set_row(astar_grid *g, int y, const unsigned char *bytes,
                        const double *table);
/* Smallest cost of a walkable cell (1 if none is walkable). */
double astar_grid_min_cost(astar_grid *g);
/* Allocations made by the grid over its life (astar_stats.allocs' sense). */
size_t astar_grid_allocs(const astar_grid *g);
/* Counter bumped by every edit; lets callers notice that a grid changed. */
uint64_t astar_grid_version(const astar_grid *g);

/*
** A user cost for the step (x1, y1) -> (x2, y2) (0-based) whose built-in
** cost is 'base': returns a cost >= 0, or a negative number to forbid it.
*/
typedef double (*astar_grid_cost_fn)(void *ud, int x1, int y1, int x2, int y2, double base);
/* A user heuristic from (x, y) to the goal (gx, gy), >= 0. */
typedef double (*astar_grid_h_fn)(void *ud, int x, int y, int gx, int gy);

/* A grid query: fill it with astar_grid_query_init, change what you need. */
typedef struct astar_grid_query {
  int diagonal;          /* ASTAR_DIAG_*; default NO_CORNER_CUTTING */
  int heuristic;         /* ASTAR_H_*; default OCTILE (MANHATTAN if NEVER) */
  astar_params params;
  astar_grid_cost_fn cost_fn;  /* optional user cost */
  void *cost_ud;
  astar_grid_h_fn h_fn;        /* optional user heuristic (replaces 'heuristic') */
  void *h_ud;
  /* Several goals: cells goals[2i], goals[2i+1] (0-based), i < ngoals; the
  ** search ends at the cheapest to reach. NULL: the single goal of prepare. */
  const int *goals;
  size_t ngoals;
  double within;         /* >= 0: any cell within this heuristic distance of a
                         ** goal is accepted (attack range); default -1, off */
  /* filled by astar_grid_prepare: */
  astar_domain domain;
  astar_grid *grid;
  uint32_t goal;
  int gx, gy;
  double hscale;
} astar_grid_query;

void astar_grid_query_init(astar_grid_query *q);

/*
** Makes q->domain describe a search on 'g' toward (gx, gy) (or toward
** q->goals when set; gx, gy are then ignored) and returns the start and goal
** as engine nodes in *start, *goal. Returns 0, ASTAR_BLOCKED (start blocked,
** or every goal blocked) or ASTAR_EINVAL (bad coordinates or options).
*/
int astar_grid_prepare(astar_grid *g, astar_grid_query *q, int sx, int sy,
                       int gx, int gy, uint32_t *start, uint32_t *goal);

/* Which goal of q->goals (index) the cell of engine node 'node' is, or the
** index of the goal it is 'within' range of; -1 if none. */
long astar_grid_goal_index(const astar_grid_query *q, uint32_t node);

/* Engine node <-> cell. */
uint32_t astar_grid_node(const astar_grid *g, int x, int y);
void astar_grid_cell(const astar_grid *g, uint32_t node, int *x, int *y);

/* prepare + astar_search_run. Returns a status as astar_search_step does,
** or ASTAR_BLOCKED, ASTAR_EINVAL, ASTAR_ENOMEM. */
int astar_grid_find(astar_grid *g, astar_search *s, astar_grid_query *q,
                    int sx, int sy, int gx, int gy);


/* ===================================================================== */
/* Graphs (src/core/graph.c)                                             */
/* ===================================================================== */


/* ===================================================================== */
/* Distance fields and components (src/core/grid.c, src/core/field.c)    */
/* ===================================================================== */


#endif
