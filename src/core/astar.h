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
/* An allocator and the number of allocations made through it. */
typedef struct astar_mem {
  astar_alloc fn;
  void *ud;
  size_t allocs;
} astar_mem;

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
  ASTAR_ECALLBACK = -4, /* a domain callback reported failure */
  ASTAR_EINTERNAL = -5  /* a bound the algorithm provably stays within was passed: a bug */
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
** shortcut(self, from, to): optional (any-angle searches, Theta*: Nash,
**   Daniel and Koenig); when relaxing an edge node -> to, the engine also
**   asks for a direct move from node's parent 'from' to 'to': its cost, or a
**   negative number if there is none; the cheaper way wins, and with it 'to'
**   gets 'from' as its parent.
** settle(self, s, node, &g, &parent): optional (Lazy Theta*: Nash, Koenig
**   and Tovey 2010, whose shortcut assumes the straight line is free). Called
**   when 'node' reaches the top of the open list, before it is tested or
**   expanded, with its g and its parent's id: returns 0 if they stand, or 1
**   with a better-founded g and parent (a node s has closed), after which
**   the engine re-sorts the open list and looks at its top again.
** progress(self, node): optional; how far the node still is from the goal,
**   for choosing a partial path's end (params.partial): the expanded node
**   with the least. NULL: the heuristic's value. For domains whose heuristic
**   is lowered for links (a link's start may look near a goal it cannot
**   reach), so that partial paths head for the goal itself.
*/
typedef struct astar_domain {
  uint32_t nnodes;
  int (*expand)(void *self, uint32_t node, astar_search *s);
  double (*heuristic)(void *self, uint32_t node);
  int (*is_goal)(void *self, uint32_t node);
  double (*edge_cost)(void *self, uint32_t from, uint32_t to, double base);
  double (*shortcut)(void *self, uint32_t from, uint32_t to);
  int (*settle)(void *self, const astar_search *s, uint32_t node, double *g, uint32_t *parent);
  double (*progress)(void *self, uint32_t node);
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

/*
** Calls fn(ud, node, g, parent) for every node of the last search that is
** closed (which & 1) or open (which & 2); which & 4 adds the backward side's
** of a bidirectional search. Records are visited in the order they were made.
*/
void astar_search_each(const astar_search *s, int which,
                       void (*fn)(void *ud, uint32_t node, double g, uint32_t parent),
                       void *ud);
/* Calls fn(ud, node, g, parent) for every closed node of the last search. */
void astar_search_each_closed(const astar_search *s,
                              void (*fn)(void *ud, uint32_t node, double g, uint32_t parent),
                              void *ud);

/* The node the last search stopped at (the goal reached, or with 'partial'
** the closest node), or ASTAR_NONE. */
uint32_t astar_search_end(const astar_search *s);

/*
** Resumes the search in s until 'node' is closed (Silver's reverse resumable
** A*: a backward search toward the unit, with ASTAR_NONE as its goal, asked
** for the true distance of each cell a forward search meets): returns 1 with
** its g in *g, 0 if the search ended without reaching it, or a negative
** error of the search (then s has finished).
*/
int astar_search_resume(astar_search *s, uint32_t node, double *g);

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
/* Ends the context's search with 'status' (ASTAR_NO_PATH, ASTAR_BLOCKED)
** without expanding anything, for a map kind that knew the outcome before
** searching: no path, zeroed statistics. */
void astar_search_finish(astar_search *s, int status);

/*
** For expand functions: a buffer for at least n edges, owned by 's' and
** valid until the next call. NULL if it cannot grow (return ASTAR_ENOMEM).
*/
astar_edge *astar_search_edges(astar_search *s, size_t n);
/* For expand functions: the node the node being expanded was reached from
** (its parent on the best path known), or ASTAR_NONE at a start. */
uint32_t astar_search_from(const astar_search *s);
/* For expand functions: the cost of the best path known to the node being
** expanded (what the engine adds an edge's cost to). */
double astar_search_cost(const astar_search *s);
/* For expand functions that have proved no open node leads to a goal: the
** open list is dropped, and after this expansion (whose edges must be none)
** the search ends with ASTAR_NO_PATH. */
void astar_search_drop_open(astar_search *s);


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
/* The largest cost, and coordinate magnitude, anything accepts (cells, edges,
** polygons, node positions, vertices, callbacks): with every term at most
** 1e100, no sum or distance over a path can overflow (2^53 steps of 1e100 are
** 9e115), so a path's cost is always a finite number. */
#define ASTAR_NUM_MAX 1e100

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
/* 1 if some cell is walkable and every walkable cell costs the same. */
int astar_grid_one_cost(astar_grid *g);
/* Allocations made by the grid over its life (astar_stats.allocs' sense). */
size_t astar_grid_allocs(const astar_grid *g);
/* A rectangle of cells, 0-based. */
typedef struct astar_rect { int x, y, w, h; } astar_rect;
/* How many edits a grid remembers for astar_grid_changes. */
#define ASTAR_GRID_LOG 64
/* The rectangles edited after version 'since' (one per edit, oldest first):
** writes them to 'out' (room for ASTAR_GRID_LOG) and returns how many, or -1
** if more edits happened since then than the grid remembers. */
long astar_grid_changes(const astar_grid *g, uint64_t since, astar_rect *out);
/* Counter bumped by every edit; lets callers notice that a grid changed. */
uint64_t astar_grid_version(const astar_grid *g);

/* Whether a unit may step from cell (x0, y0) to (x1, y1) (0-based, inside
** the grid) under a diagonal policy: ASTAR_STEP_OK, _FAR (not a move to one
** of the 8 neighbours, or 4 under NEVER), _BLOCKED (the cell (x1, y1)) or
** _CORNER (a diagonal step cutting a corner the policy forbids). */
enum { ASTAR_STEP_OK = 0, ASTAR_STEP_FAR, ASTAR_STEP_BLOCKED, ASTAR_STEP_CORNER };
int astar_grid_step(const astar_grid *g, int diagonal, int x0, int y0, int x1, int y1);
/* The cheaper of the policy's step and a link from (x0, y0) to (x1, y1)
** (*link = 1 if it is the link), or -1 if neither is allowed. */
double astar_grid_move_cost(const astar_grid *g, int diagonal, int x0, int y0, int x1, int y1,
                            int *link);

/*
** STRAIGHT LINES (src/core/grid_line.c), in grid units: cell (x, y) (0-based)
** is the closed square [x, x+1] x [y, y+1], its centre (x + 0.5, y + 0.5).
** astar_grid_line_clear: 1 if every blocked cell's square (and the blocked
**   border around the grid) lies at least r >= 0 from the segment a-b and
**   does not touch it (a disc of radius r may move along it, grazing walls
**   but never overlapping one), else 0. The segment may not touch a blocked
**   square even at a corner: the rule of diagonal steps under
**   NO_CORNER_CUTTING. Rounding within 1e-9 goes against the segment. Costs
**   time proportional to the cells within r of the segment.
** astar_grid_line_integral: the cost of moving along a clear segment a-b:
**   the length inside each cell times its cost (a stretch along a boundary
**   between two cells pays the dearer one); on a grid of one cost, the length
**   times that cost.
** astar_grid_line_cost: the integral if the segment is clear for r = 0,
**   else -1.
** astar_grid_smooth: Pinter's smoothing of a path of n points xy (grid
**   units), over its turning points: from each kept point, the path skips
**   to the end of each straight run in turn while the segment there is clear
**   for radius r and costs no more than the stretch it replaces, and in the
**   first run whose end it cannot reach, to the farthest point bisection
**   finds it can (stretch[k]: the cost from point 0 to point k, priced as
**   astar_grid_line_integral prices each step, or a link's cost; NULL on a
**   grid of one cost without links, where a straight line never costs more
**   than the steps it replaces); no step it replaces takes a link (link[k] nonzero: the step k-1 -> k does;
**   NULL: none). Writes the indices of the points it keeps (the first and
**   the last among them) to 'keep' (room for n) and returns how many.
*/
/*
** astar_grid_pull (src/core/grid_pull.c): string pulling after
**   astar_grid_smooth, on its n kept points xy (changed in place). For r = 0
**   on a grid of one cost, exact: each point between two others gives way to
**   the convex chain of the wall corners inside the triangle it makes with
**   them (each corner 1e-7 out along its diagonal), until every bend wraps
**   the corner it stands on; a chain that would not fit in 'cap' points, or
**   whose segments are not all clear (degenerate cases), falls back to what
**   follows. Otherwise each point between two others moves toward
**   the straight line between them, and along each of its segments, as far as
**   both segments stay clear for r and cost no more, or goes when the straight
**   segment does as well; passes repeat until they save nothing (at most 64).
**   The bends end within about 1e-7 of the corners they wrap. link[k] nonzero
**   marks the step k-1 -> k as a link, price[k] its cost: a link's ends stay,
**   and both arrays shift with the points. A point next to a segment that is
**   not clear (a corner-cutting step the policy allows) stays too. Returns
**   the new number of points; the cost never rises (beyond 1e-9 of it).
**   For r = 0, points also move onto the wall corners near them (just off
**   each corner, 1e-7 out along its diagonal), and one point may become two
**   corners where the string wraps both ends of a wall: the arrays have room
**   for 'cap' points (cap >= n). 'dirty' is scratch of cap bytes.
*/
/*
** astar_grid_taut (src/core/grid_pull.c): for r = 0 on a grid of one cost,
**   the path of n >= 2 cells, given by their centres v (cell (i, j)'s at
**   (i + 0.5 + shift, j + 0.5 + shift): shift 0.5 for Lua's numbering), each
**   a king's move from the one before (no links), pulled taut in one go: the
**   shortest way from its first point to its last with every wall on the
**   same side as the path has it, by the funnel through the runs of free
**   cells it crosses, whose bends are the wall corners it wraps (each 1e-7
**   out along its diagonal, as astar_grid_pull puts them); then where a
**   straight line from a bend passes a wall the path went round on its other
**   side, the wall goes and the string is pulled taut again. Sets *pts to
**   the points (grid units, in scratch the grid keeps until the next call)
**   and returns how many; 0 if the path is not such a path (a blocked cell,
**   a step that is not a king's move, a diagonal between two blocked cells),
**   a segment is not clear, or memory ran out: the caller then smooths it
**   another way. Time linear in the path's steps and in the cells of the
**   rows it crosses, plus the funnel's and the line tests'.
*/
size_t astar_grid_taut(astar_grid *g, const double *v, size_t n, double shift,
                       const double **pts);
size_t astar_grid_pull(const astar_grid *g, double *xy, size_t n, size_t cap, double r,
                       unsigned char *link, double *price, unsigned char *dirty);
int astar_grid_line_clear(const astar_grid *g, double ax, double ay, double bx, double by,
                          double r);
double astar_grid_line_integral(const astar_grid *g, double ax, double ay, double bx, double by);
double astar_grid_line_cost(const astar_grid *g, double ax, double ay, double bx, double by);
size_t astar_grid_smooth(const astar_grid *g, const double *xy, size_t n, double r,
                         const double *stretch, const unsigned char *link, size_t *keep);

/*
** HEXAGONAL GRIDS (src/core/grid_hex.c): a grid whose cells are hexagons in
** offset coordinates (0-based column x, row y): ODD_R shoves the odd rows
** half a cell right (pointy tops), EVEN_R the even rows, ODD_Q the odd
** columns half a cell down (flat tops), EVEN_Q the even columns. A cell has
** six neighbours; a step costs the cost of the cell it enters (every step
** has length 1); the heuristics are the hex distance (ZERO aside) times the
** smallest cost. Not for hex grids: the diagonal policies, jumps, Theta*,
** radius and size, lines, JPS+, the replanner, navmesh_from_grid (EINVAL).
** astar_grid_set_hex: 0 (square) or a layout; an edit of the whole grid.
** astar_grid_hex_adjacent: is (x1, y1) one of (x0, y0)'s neighbours?
** astar_grid_hex_axial / _offset: Amit Patel's axial coordinates (q, r) of
**   offset cell (x, y), and back; astar_grid_hex_distance: steps between two
**   cells with nothing in the way.
*/
enum { ASTAR_HEX_NONE = 0, ASTAR_HEX_ODD_R, ASTAR_HEX_EVEN_R, ASTAR_HEX_ODD_Q,
       ASTAR_HEX_EVEN_Q };
/*
** WRAPPING GRIDS (src/core/grid_wrap.c): square grids whose x axis (a
** cylinder), y axis or both (a torus) wrap around: a step off an edge enters
** the opposite edge, under the diagonal policy as anywhere else. The
** built-in heuristics measure a wrapped axis the shorter way round. Not for
** wrapping grids: jumps, Theta*, radius and size, lines, JPS+, the replanner,
** navmesh_from_grid (EINVAL); hex grids do not wrap.
** astar_grid_set_wrap: ASTAR_WRAP_X | ASTAR_WRAP_Y bits (0: none); an edit
** of the whole grid.
*/
enum { ASTAR_WRAP_X = 1, ASTAR_WRAP_Y = 2 };
int astar_grid_set_wrap(astar_grid *g, int wrap);
int astar_grid_wrap(const astar_grid *g);
int astar_grid_set_hex(astar_grid *g, int layout);
int astar_grid_hex(const astar_grid *g);
int astar_grid_hex_adjacent(const astar_grid *g, int x0, int y0, int x1, int y1);
void astar_grid_hex_axial(const astar_grid *g, int x, int y, int *q, int *r);
void astar_grid_hex_offset(const astar_grid *g, int q, int r, int *x, int *y);
int astar_grid_hex_distance(const astar_grid *g, int x0, int y0, int x1, int y1);

/*
** MOVEMENT CLASSES (src/core/grid_class.c): a class is a grid of g's size
** that follows g through a table of n pairs (cost in g, cost here), each
** cost >= 0 (0: blocked) and at most ASTAR_NUM_MAX, no cost twice; a cost
** of g the table does not name is kept. Searches take it as any grid.
** astar_grid_class: makes the class of g's current cells (allocated as g
**   is); 0, ASTAR_EINVAL (a bad table, n == 0 or n > ASTAR_GRID_CLASS_MAX)
**   or ASTAR_ENOMEM.
** astar_grid_class_sync: after an edit of g's w x h rectangle at (x, y),
**   makes the class's cells there g's, mapped, as one edit of the class;
**   0, or ASTAR_EINVAL (k is not a class, or not of g's size, or a bad
**   rectangle). The caller calls it for every class of g after each edit.
** astar_grid_class_size: the pairs of k's table, 0 if k is not a class.
** A class's own cells may be edited; the next sync of a rectangle overwrites
** them. Clones of a class are plain grids.
*/
#define ASTAR_GRID_CLASS_MAX 256
int astar_grid_class(astar_grid **out, const astar_grid *g, const double *pairs, size_t n);
int astar_grid_class_sync(astar_grid *k, const astar_grid *g, int x, int y, int w, int h);
size_t astar_grid_class_size(const astar_grid *k);

/*
** LINKS (src/core/grid_link.c): ladders, teleporters, jumps: a directed edge
** from cell (x0, y0) to (x1, y1), another cell anywhere, of a fixed cost
** (> 0, finite; not multiplied by cell costs), which every search, distance
** field and path check takes besides the steps to neighbours, while both
** cells are walkable. The built-in heuristic accounts for them (see
** grid.c); jump point search stops at both ends of every link (jps.c), and
** JPS+ tables are not used on a grid with links. Components (astar_grid_components) ignore links, and find no
** longer uses them to end early. Adding, re-pricing or removing a link is
** an edit of the whole grid (astar_grid_changes). A grid keeps 4 bytes a
** cell for them once it has had a link, and 24 bytes a link.
**
** astar_grid_link: adds the link or sets its cost; 0, ASTAR_EINVAL (a cell
**   outside, the same cell twice, a bad cost) or ASTAR_ENOMEM (nothing
**   changed).
** astar_grid_unlink: removes it; 1 if there was one, else 0.
** astar_grid_next_link: every link in turn: start with *cursor = 0; returns
**   1 and sets the cells and cost, or 0 at the end (no edits in between).
** astar_grid_link_cost: the link's cost, or -1 if there is none.
*/
int astar_grid_link(astar_grid *g, int x0, int y0, int x1, int y1, double cost);
int astar_grid_unlink(astar_grid *g, int x0, int y0, int x1, int y1);
size_t astar_grid_link_count(const astar_grid *g);
int astar_grid_next_link(const astar_grid *g, size_t *cursor, int *x0, int *y0, int *x1,
                         int *y1, double *cost);
double astar_grid_link_cost(const astar_grid *g, int x0, int y0, int x1, int y1);

/*
** A user cost for the step (x1, y1) -> (x2, y2) (0-based) whose built-in
** cost is 'base': returns a cost >= 0, or a negative number to forbid it.
*/
typedef double (*astar_grid_cost_fn)(void *ud, int x1, int y1, int x2, int y2, double base);
/* A user heuristic from (x, y) to the goal (gx, gy), >= 0. */
typedef double (*astar_grid_h_fn)(void *ud, int x, int y, int gx, int gy);

/* astar_grid_query.jump: never (cell by cell), where it is known to pay,
** or wherever it is shortest. */
enum { ASTAR_JUMP_NEVER = 0, ASTAR_JUMP_AUTO, ASTAR_JUMP_ALWAYS };

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
  int jump;              /* ASTAR_JUMP_*: jump point search where it applies
                         ** (see astar_grid_prepare); default AUTO */
  int theta;             /* 1: Theta*, 2: Lazy Theta*, any-angle (grid.c); params.algorithm
                         ** ASTAR_ALG_ASTAR, no cost_fn, heuristic EUCLIDEAN (the
                         ** default then), CHEBYSHEV, ZERO or h_fn */
  double radius;         /* >= 0: the unit is a disc of this radius (cells), which
                         ** must fit at every cell centre of the path and along
                         ** every step (astar_grid_line_clear); no jumps; default 0 */
  int size_w, size_h;    /* a unit that covers the size_w x size_h cells whose
                         ** top-left cell is the path's (each in 1 ..
                         ** ASTAR_GRID_SIZE_MAX; 0, 0 or 1, 1: one cell): each of
                         ** them walkable wherever it stands, and a diagonal step
                         ** needs its footprint to fit where the diagonal policy
                         ** needs a cell walkable; no jumps, not with a radius */
  /* A cost overlay (danger, influence): a step of length len into cell v
  ** costs len * (cost(v) + overlay_scale * overlay[v]), overlay indexed by
  ** engine node (astar_grid_node), every value >= 0 or HUGE_VAL (v is not
  ** entered); links are not affected. No jumps, no theta. NULL: none. */
  const double *overlay;
  double overlay_scale;  /* >= 0 and finite; default 1 */
  /* filled by astar_grid_prepare: */
  astar_domain domain;
  astar_grid *grid;
  uint32_t goal;
  int gx, gy;
  double hscale;
  int blocked;           /* after ASTAR_BLOCKED: 1 the start, 2 every goal */
  double (*h_base)(void *self, uint32_t node);  /* the heuristic before links */
  double link_bound;     /* the least a path pays after its last link */
  double fitkey;         /* the unit's shape for the fit cache (grid_line.c): 0
                         ** none, the radius, or a box (FIT_BOX) */
  int jps;               /* how the prepared search goes: 0 cell by cell,
                         ** 1 jumping, 2 reading prepared jumps (JPS+),
                         ** 3 jumping between cost boundaries */
} astar_grid_query;

void astar_grid_query_init(astar_grid_query *q);

/*
** Makes q->domain describe a search on 'g' toward (gx, gy) (or toward
** q->goals when set; gx, gy are then ignored) and returns the start and goal
** as engine nodes in *start, *goal. Returns 0, ASTAR_BLOCKED (start blocked,
** or every goal blocked: see q->blocked), ASTAR_NO_PATH (components were
** asked for and no goal shares the start's; not with params.partial or
** 'within'), ASTAR_EINVAL (bad coordinates or options) or ASTAR_ENOMEM.
**
** JUMP POINT SEARCH (Harabor & Grastien 2011, 2014) replaces the expansion
** of every cell by jumps along straight lines and diagonals that stop only
** where a shortest path may turn; its paths cost what A*'s do. The prepared
** search jumps when q->jump is not NEVER, params.algorithm is
** ASTAR_ALG_ASTAR, there is no cost_fn, no 'within' and no params.partial
** (the cell nearest the goal is rarely a jump point), under every policy:
** q->jps = 1 if every walkable cell of the grid costs the same. On a grid
** of several costs or with links (q->jps = 3) jumps also stop at boundary
** cells, walkable cells with a walkable neighbour of another cost or a
** link's end, which expand in every direction: between two of them a
** shortest path crosses cells of one cost, where the rules of a uniform
** grid hold. One more (2, 4) when astar_grid_prepare_jumps was called for
** the policy: jumps are read from tables. On a grid of several costs
** ASTAR_JUMP_AUTO jumps only when fewer than three walkable cells in five
** are boundary cells (where it was measured to beat A*), ASTAR_JUMP_ALWAYS
** always; the grid keeps what each boundary cell keeps, a table per policy
** filled as searches ask (8 bytes a cell, 4 under NEVER, for each row a
** search has asked about; not while ready: see astar_grid_ready). A jumping search's nodes are jump points:
** params.max_expansions and the statistics count those, and consecutive
** nodes of its path are joined as astar_grid_toward walks. The first
** jumping search builds bit rows of the grid's walkability and boundaries
** (4 bits a cell), which later edits keep current.
*/
int astar_grid_prepare(astar_grid *g, astar_grid_query *q, int sx, int sy,
                       int gx, int gy, uint32_t *start, uint32_t *goal);

/* Which goal of q->goals (index) the cell of engine node 'node' is, or the
** index of the goal it is 'within' range of; -1 if none. */
long astar_grid_goal_index(const astar_grid_query *q, uint32_t node);

/*
** JPS+: precomputes, for every cell and direction, how far a jump goes, so
** that jumping searches under 'diagonal' (NO_CORNER_CUTTING: 16 bytes a
** cell; NEVER: 8) read jumps instead of scanning for them (also on grids of
** several costs: the jumps stop at boundary cells). Edits that turn cells
** walkable or blocked, or make or unmake a boundary cell, make the tables
** stale; the next jumping search (or astar_grid_ready) patches them around
** the edits the grid's log holds (astar_grid_changes), in time about the
** rows and columns near them and the jumps through them; when the log has
** lost some, or they are too large, it fills them again, in time
** proportional to the grid. Returns 0,
** ASTAR_EINVAL (another policy, or a side of 32766 cells or more) or
** ASTAR_ENOMEM. astar_grid_prepared: the bytes the tables for 'diagonal'
** take, 0 if not prepared. They are freed with the grid.
*/
int astar_grid_prepare_jumps(astar_grid *g, int diagonal);
size_t astar_grid_prepared(const astar_grid *g, int diagonal);

/* Moves cell (*x, *y) one step toward cell (tx, ty) along a path of a
** prepared search q: onto it if it is a neighbour; between jump points,
** diagonally while both coordinates differ, then straight (under NEVER:
** vertically, then horizontally). Nothing moves if the cells are equal. */
void astar_grid_toward(const astar_grid_query *q, int *x, int *y, int tx, int ty);

/* The cells astar_grid_toward steps through from cell (x, y) (left out) to
** (tx, ty) (included): their 1-based coordinates as pairs in xy and their
** costs in cost; with xy NULL they are only counted. Returns how many. */
long astar_grid_walk(const astar_grid_query *q, int x, int y, int tx, int ty, double *xy,
                     double *cost);

/* Engine node <-> cell. */
uint32_t astar_grid_node(const astar_grid *g, int x, int y);
void astar_grid_cell(const astar_grid *g, uint32_t node, int *x, int *y);
/* The same numbering for a grid w cells wide, without the grid (for what
** outlives it: fields, stored paths), and the node count of a w x h grid. */
uint32_t astar_grid_layout_node(int w, int x, int y);
void astar_grid_layout_cell(int w, uint32_t node, int *x, int *y);
size_t astar_grid_layout_nodes(int w, int h);
/*
** The sources of a distance field that can start a path: dist holds a
** value per engine node (HUGE_VAL: not a source). Those on walkable cells
** and not above max_cost are compacted in place, in node order, into
** nodes[0 .. k) with their values in dist[0 .. k); every other entry of
** dist is HUGE_VAL again. Returns k (0: nothing can start a path).
*/
size_t astar_grid_sources(const astar_grid *g, double max_cost, double *dist,
                          uint32_t *nodes);
/* Keeps, of the n compacted sources, those where the unit of the query q
** fits (a disc of q->radius: astar_grid_line_clear at the centre; a
** footprint of q->size_w x q->size_h: every cell walkable), compacted again;
** the entries of dist it drops become HUGE_VAL. Returns how many remain. */
#define ASTAR_GRID_SIZE_MAX 64
size_t astar_grid_sources_fit(astar_grid *g, const astar_grid_query *q, double *dist,
                              uint32_t *nodes, size_t n);

/*
** Whether the edits made to g since version 'since' may change the answer of
** the search s that q (prepared from start (sx, sy)) began: 1 if they may
** (restart it), 0 if it can go on as though they had come before it began.
** They may if they touch a cell within one of a cell s expanded, the start or
** a goal, lower the smallest cost below q's heuristic scale, or are more than
** the grid remembers; every edit may change a jumping search (q->jps). Costs
** time proportional to the cells edited or to the search's records,
** whichever is smaller.
*/
int astar_grid_affected(astar_grid *g, const astar_grid_query *q, const astar_search *s,
                        uint64_t since, int sx, int sy);

/*
** SEARCHES FROM SEVERAL THREADS. astar_grid_prepare and the searches build
** some of the grid's tables on first use and refresh them after edits (the
** smallest cost, the walkability bits of jump point search, the component
** labels once astar_grid_components was called, the JPS+ tables of
** astar_grid_prepare_jumps, the fit cache of a radius or a size, what
** boundary cells keep). After astar_grid_ready, and until the next edit or
** astar_grid_thaw, astar_grid_prepare and the
** searches of queries without a radius or a size (q->radius 0, q->size_w and
** q->size_h 0 or 1) and without callbacks that write it only read the grid:
** several threads may then search it at once, each with its own context and
** query. Returns 0 or ASTAR_ENOMEM. The bits take 4 bits a cell.
** astar_grid_thaw: those searches are over; searches may fill the grid's
** caches again (what terrain's boundary cells keep: see astar_grid_prepare),
** as they may after an edit.
** astar_grid_snapshot: a copy of g for such searches while g goes on being
** edited (astar_grid_clone, plus g's JPS+ tables and its use of component
** labels, made ready); its version is g's at the time, and
** astar_grid_changes answers for it as for g. 0 or ASTAR_ENOMEM.
** astar_grid_snapshot_current: 1 while the snapshot s of g would answer
** every search as g does (g not edited, no tables prepared since), else 0.
*/
int astar_grid_ready(astar_grid *g);
void astar_grid_thaw(astar_grid *g);
int astar_grid_snapshot(astar_grid **out, const astar_grid *g);
int astar_grid_snapshot_current(const astar_grid *s, const astar_grid *g);

/* prepare + astar_search_run. Returns a status as astar_search_step does,
** or ASTAR_BLOCKED, ASTAR_EINVAL, ASTAR_ENOMEM. */
int astar_grid_find(astar_grid *g, astar_search *s, astar_grid_query *q,
                    int sx, int sy, int gx, int gy);


/* ===================================================================== */
/* Hierarchical search on grids (src/core/grid_hier.c)                   */
/* ===================================================================== */

/*
** HPA* (Botea, Mueller and Schaeffer 2004): an abstraction of a grid in
** clusters of C x C cells (ASTAR_HIER_CMIN <= C <= ASTAR_HIER_CMAX) for one
** diagonal policy, whose searches touch a few nodes per cluster crossed
** instead of every cell. Its paths are legal and may cost more than the
** shortest (they pass through the nodes placed on cluster borders). The
** abstraction reads the grid (which must outlive it, and have no links, hex
** layout or wrap) and takes its edits into account at astar_hier_update
** (called by astar_hier_prepare), rebuilding only the clusters within one
** cell of an edited rectangle. Memory: about (k * k * 4 + k * 2) bytes per
** cluster with k nodes.
*/
#define ASTAR_HIER_CMIN 4
#define ASTAR_HIER_CMAX 64
typedef struct astar_hier astar_hier;
/* Builds the abstraction of the whole grid, the costs inside its clusters
** on 'threads' threads (1 .. ASTAR_WORKERS_MAX; the calling thread is one
** of them; a big rebuild after edits uses them too). The abstraction equals
** the one of a single thread. 0, ASTAR_EINVAL or ASTAR_ENOMEM. */
int astar_hier_new(astar_hier **out, astar_grid *g, int cluster, int diagonal, int threads);
void astar_hier_free(astar_hier *h);       /* NULL is accepted */
/* The grid it abstracts, its cluster side and its diagonal policy. */
const astar_grid *astar_hier_grid(const astar_hier *h);
int astar_hier_cluster(const astar_hier *h);
int astar_hier_diagonal(const astar_hier *h);
/* Sets the threads of its next builds (clamped to 1 .. ASTAR_WORKERS_MAX). */
void astar_hier_threads(astar_hier *h, int threads);
/* Rebuilds what the grid's edits since the last update changed (all of it
** if the grid no longer remembers them). 0 or ASTAR_ENOMEM (then the next
** update rebuilds everything). */
int astar_hier_update(astar_hier *h);
/* What an abstraction holds; costs time proportional to its size (the digest). */
typedef struct astar_hier_info {
  int cluster, diagonal;
  size_t clusters, nodes, edges;  /* edges: inside clusters, one per direction */
  size_t rebuilt;                 /* clusters rebuilt by the last update (or build) */
  size_t bytes;                   /* memory held */
  uint64_t digest;                /* a hash of every node and edge cost */
} astar_hier_info;
void astar_hier_describe(const astar_hier *h, astar_hier_info *out);

/* A query on an abstraction: astar_hier_prepare fills it in. */
typedef struct astar_hier_query {
  astar_domain domain;
  astar_hier *h;
  int sx, sy, gx, gy;
  size_t cs, ct;                   /* the clusters of the ends */
  uint32_t snode, tnode;           /* the ends' own nodes, or ASTAR_NONE */
  uint32_t start, goal;            /* the ends as engine nodes */
  int touch;                       /* their clusters touch: a search of both joins them */
  uint64_t gen;                    /* the abstraction's generation it was prepared on */
  double hscale;
  int blocked;                     /* after ASTAR_BLOCKED: 1 the start, 2 the goal */
} astar_hier_query;
/* Updates h, then makes q->domain describe a search of h's abstract graph
** from (sx, sy) to (gx, gy) (0-based): run it with the engine from *start to
** *goal. Returns 0, ASTAR_BLOCKED, ASTAR_EINVAL (a cell outside, or the grid
** has links) or ASTAR_ENOMEM. */
int astar_hier_prepare(astar_hier *h, astar_hier_query *q, int sx, int sy, int gx, int gy,
                       uint32_t *start, uint32_t *goal);
/* The cells of the path the engine found (its n nodes) as 0-based (x, y)
** pairs in a buffer owned by h (valid until the next call on h): returns
** how many cells, ASTAR_ENOMEM, or ASTAR_ESTATE if an edit since the search
** began cut a leg of it. */
long astar_hier_refine(astar_hier *h, const astar_hier_query *q, const uint32_t *nodes, long n,
                       const int **cells);
/* The cell (0-based) of an engine node of the search q describes. */
void astar_hier_node_cell(const astar_hier_query *q, uint32_t node, int *x, int *y);


/* ===================================================================== */
/* Incremental re-planning on grids (src/core/dstar.c)                   */
/* ===================================================================== */

/*
** D* Lite: a path from a moving start to a fixed goal on a grid, repaired
** after edits by reusing earlier work. The planner reads the grid (which
** must outlive it) and learns of edits through astar_grid_changes; it keeps
** g and rhs values for every cell (20 bytes a cell).
*/
typedef struct astar_dstar astar_dstar;

/* A planner from (sx, sy) to (gx, gy) under a diagonal policy. Returns 0,
** ASTAR_EINVAL or ASTAR_ENOMEM. No search happens until compute. */
int astar_dstar_new(astar_dstar **out, astar_grid *g, int sx, int sy, int gx, int gy,
                    int diagonal, astar_alloc alloc, void *ud);
void astar_dstar_free(astar_dstar *d);          /* NULL is accepted */
/* Plans for a disc of radius r (0 <= r <= 1e6, in cells; 0: a point) from
** now on, as grid searches with a radius do; starts afresh. 0, ASTAR_EINVAL
** or ASTAR_ENOMEM. */
int astar_dstar_radius(astar_dstar *d, double r);
/* The agent is now at (x, y) (in range: the caller checks). */
void astar_dstar_move(astar_dstar *d, int x, int y);
/* Takes the grid's edits since the last call into account and repairs the
** shortest path from the current start. Returns 0 or ASTAR_ENOMEM (then the
** planner starts afresh on the next call). */
int astar_dstar_compute(astar_dstar *d);
/* After compute: the path from the start to the goal as engine nodes into
** 'out' (room for 'max'), its cost in *cost; returns its length (*why =
** ASTAR_FOUND), or 0 with *why = ASTAR_NO_PATH or ASTAR_BLOCKED (start or
** goal blocked). If rounding left a vertex on the way inconsistent, it first
** drains the open list (expanding more). Negative: ASTAR_ENOMEM, or
** ASTAR_ESTATE if 'max' is below the path's length even then. */
long astar_dstar_path(astar_dstar *d, uint32_t *out, size_t max, double *cost, int *why);
/* Vertices expanded by the last compute, over the planner's life, and how
** many times it had to start afresh (too many edits, or a cheaper cell). */
void astar_dstar_stats(const astar_dstar *d, uint64_t *expanded, uint64_t *total,
                       unsigned *resets);

/* ===================================================================== */
/* Graphs (src/core/graph.c)                                             */
/* ===================================================================== */

/*
** A graph of nodes 0 .. n-1 (ids in the order they were added; the Lua
** binding adds 1), each with an optional 2D or 3D position, and edges with
** costs > 0. Directed, or undirected (an undirected edge is one record that
** both ends can use).
**
** STORAGE. One node array, one position array and one edge pool; each node
** heads a doubly linked list of its outgoing and one of its incoming edges
** (undirected: a single list of the edges it touches). Freed edges go on a
** free list and are reused. So the graph makes no per-node or per-edge
** allocations: arrays grow geometrically, adding and removing edges is O(1)
** after the lookup, and the lookup of an edge a -> b walks the shorter of
** a's and b's lists. Removed nodes keep their id (never reused).
**
** Every edit bumps astar_graph_version. A failed allocation leaves the graph
** exactly as it was.
*/

/* Largest number of nodes a graph may have (ids fit a signed 32-bit int). */
#define ASTAR_GRAPH_MAX_NODES ((uint32_t)0x7fffffff)

/* The state of a node id (astar_graph_node_state). */
enum {
  ASTAR_GN_UNKNOWN = 0,  /* never added */
  ASTAR_GN_LIVE,         /* usable by searches */
  ASTAR_GN_DISABLED,     /* kept with its edges, but never entered nor left */
  ASTAR_GN_REMOVED       /* removed with its edges; the id stays taken */
};

typedef struct astar_graph astar_graph;

/* Creates an empty graph. Returns 0 or ASTAR_ENOMEM. */
int astar_graph_new(astar_graph **out, int directed, astar_alloc alloc, void *ud);
void astar_graph_free(astar_graph *g);      /* NULL is accepted */

int astar_graph_directed(const astar_graph *g);
/* Ids handed out so far (live, disabled and removed): valid ids are < this. */
uint32_t astar_graph_size(const astar_graph *g);
/* Nodes not removed (disabled ones included), and edges (an undirected edge
** counts once). */
uint32_t astar_graph_node_count(const astar_graph *g);
uint32_t astar_graph_edge_count(const astar_graph *g);
/* Counter bumped by every edit. */
uint64_t astar_graph_version(const astar_graph *g);
/* How many edits a graph remembers for astar_graph_affected. */
#define ASTAR_GRAPH_LOG 64
/* Allocations made by the graph over its life (astar_stats.allocs' sense). */
size_t astar_graph_allocs(const astar_graph *g);
/* ASTAR_GN_* of 'id' (ASTAR_GN_UNKNOWN for any id >= astar_graph_size). */
int astar_graph_node_state(const astar_graph *g, uint32_t id);

/*
** Adds a node at position pos[0 .. dim-1] (dim 0: no position, 2: x, y,
** 3: x, y, z; coordinates finite) and sets *id. Returns 0, ASTAR_EINVAL
** (bad dim or coordinate, or ASTAR_GRAPH_MAX_NODES reached) or ASTAR_ENOMEM.
*/
int astar_graph_add_node(astar_graph *g, const double *pos, int dim, uint32_t *id);
/* The position of a node in xyz[0..2] (z = 0 for 2D); returns its dim (0:
** no position, xyz untouched). The caller checks the id. */
int astar_graph_position(const astar_graph *g, uint32_t id, double *xyz);
/* Euclidean distance between two nodes, or -1 if either has no position. */
double astar_graph_distance(const astar_graph *g, uint32_t a, uint32_t b);

/*
** Adds the edge a -> b (undirected: a - b) with 'cost' (> 0, finite), or
** sets the cost of the existing one. Returns 0, ASTAR_EINVAL (a == b, an id
** unknown or removed, bad cost) or ASTAR_ENOMEM.
*/
int astar_graph_add_edge(astar_graph *g, uint32_t a, uint32_t b, double cost);
/* Removes the edge a -> b; returns 1 if there was one, else 0. */
int astar_graph_remove_edge(astar_graph *g, uint32_t a, uint32_t b);
/* Sets the cost of the edge a -> b (> 0, finite); returns 1, or 0 if there
** is no such edge (nothing changed). */
int astar_graph_set_edge_cost(astar_graph *g, uint32_t a, uint32_t b, double cost);
/* The cost of the edge a -> b, or -1 if there is none. */
double astar_graph_edge_cost(const astar_graph *g, uint32_t a, uint32_t b);
/* Disables (on = 0) or enables (on = 1) a live or disabled node. */
void astar_graph_set_enabled(astar_graph *g, uint32_t id, int on);
/* Removes a live or disabled node and all its edges. */
void astar_graph_remove_node(astar_graph *g, uint32_t id);

/*
** Iterates over the edges leaving 'id' (undirected: all its edges), in the
** order they were added, disabled ends included: start with *cursor =
** ASTAR_NONE; each call returns 1 and sets *to and *cost, or 0 at the end.
** The graph must not be edited between calls.
*/
int astar_graph_next_edge(const astar_graph *g, uint32_t id, uint32_t *cursor,
                          uint32_t *to, double *cost);

/*
** The scale of the built-in heuristic: the smallest cost/length ratio over
** all edges (edges of length 0 ignored), so that scale * distance never
** overestimates; 0 when some node has no position, or no edge has a length
** (then there is no built-in heuristic). Kept lazily: O(1) unless an edit
** removed or raised the edge that held the minimum (then one O(edges) scan).
*/
double astar_graph_hscale(astar_graph *g);

/*
** Components: weakly connected (edge directions ignored) among live nodes;
** disabled and removed nodes belong to none. astar_graph_components makes
** the labels current (one O(nodes + edges) pass if a structural edit came
** since; cost changes do not count) and sets *count. Returns 0 or
** ASTAR_ENOMEM (labels unavailable). From its first call on, the graph
** keeps them current lazily and astar_graph_prepare uses them.
*/
int astar_graph_components(astar_graph *g, uint32_t *count);
/* The label (1 .. count, numbered by smallest id) of a node after
** astar_graph_components, or 0 if it is disabled or removed. */
uint32_t astar_graph_component(const astar_graph *g, uint32_t id);

/* A user cost for the edge from -> to (always in the direction of travel,
** also in backward searches) whose built-in cost is 'base': >= 0, or
** negative to forbid it. */
typedef double (*astar_graph_cost_fn)(void *ud, uint32_t from, uint32_t to, double base);
/* A user heuristic from 'node' to 'goal', >= 0. Bidirectional searches also
** ask it for (node, start), as an estimate of the cost between start and
** node: there it must be a lower bound in both directions, and consistent. */
typedef double (*astar_graph_h_fn)(void *ud, uint32_t node, uint32_t goal);

/* Built-in graph heuristics. */
enum {
  ASTAR_GH_EUCLIDEAN = 0,  /* hscale * distance; none when hscale is 0 */
  ASTAR_GH_ZERO            /* none: Dijkstra */
};

/* A graph query: fill it with astar_graph_query_init, change what you need. */
typedef struct astar_graph_query {
  int heuristic;           /* ASTAR_GH_*; default EUCLIDEAN */
  int bidirectional;       /* nonzero: astar_graph_find searches from both ends */
  astar_params params;
  astar_graph_cost_fn cost_fn;  /* optional user cost */
  void *cost_ud;
  astar_graph_h_fn h_fn;        /* optional user heuristic (replaces 'heuristic') */
  void *h_ud;
  /* Several goals: node ids goals[i], i < ngoals; the search ends at the
  ** cheapest to reach. NULL: the single goal of prepare. */
  const uint32_t *goals;
  size_t ngoals;
  double within;           /* >= 0: any node within this Euclidean distance
                           ** of a goal is accepted; default -1, off */
  /* filled by astar_graph_prepare: */
  astar_domain domain;     /* forward: out-edges, heuristic toward the goals */
  astar_domain back;       /* backward: in-edges, heuristic from the start,
                           ** edge_cost still asked in the forward direction */
  astar_graph *graph;
  uint32_t start, goal;
  double hscale;           /* 0: no built-in heuristic */
  int blocked;             /* after ASTAR_BLOCKED: 1 the start, 2 every goal */
} astar_graph_query;

void astar_graph_query_init(astar_graph_query *q);

/*
** Whether the edits made to g since version 'since' may change the answer of
** the one-way search s that q began: 1 if they may (restart it), 0 if it can
** go on as though they had come before it began. They may if they touch a
** node s has a record of, the start or a goal, lower the heuristic's scale,
** or are more than the graph remembers; every edit may change a
** bidirectional search. O(edits).
*/
int astar_graph_affected(astar_graph *g, const astar_graph_query *q, const astar_search *s,
                         uint64_t since);

/*
** Makes q->domain and q->back describe searches on 'g' from 'start' toward
** 'goal' (or toward q->goals when set; goal is then ignored). Returns 0,
** ASTAR_BLOCKED (start disabled, or every goal disabled and no 'within':
** see q->blocked),
** ASTAR_NO_PATH (components are kept and no goal shares the start's; not
** with params.partial) or ASTAR_EINVAL (an id unknown or removed, bad
** options, 'within' with 'bidirectional'). With start == ASTAR_NONE it only
** fills the domains (for distance fields over q->back) and returns 0.
*/
int astar_graph_prepare(astar_graph *g, astar_graph_query *q, uint32_t start,
                        uint32_t goal);

/* Which goal of q->goals (index; 0 for the single goal) node 'node' is, or
** is 'within' range of; -1 if none. */
long astar_graph_goal_index(const astar_graph_query *q, uint32_t node);

/* The sources of a distance field that can start a path: live nodes whose
** value g0 is finite and not above max_cost, compacted in place (order
** kept); returns how many. */
size_t astar_graph_sources(const astar_graph *g, double max_cost, uint32_t *ids,
                           double *g0, size_t n);

/*
** prepare + search: astar_search_run over q->domain with 's', or with
** q->bidirectional astar_search_bidir with 's' (forward) and 'back'. Returns
** a status as astar_search_step does, or ASTAR_BLOCKED, ASTAR_EINVAL,
** ASTAR_ENOMEM. The path is then astar_search_path(s, ...).
*/
int astar_graph_find(astar_graph *g, astar_search *s, astar_search *back,
                     astar_graph_query *q, uint32_t start, uint32_t goal);

/*
** Bidirectional search (src/core/search.c; any pair of domains). 'fwd'
** expands successors, 'bwd' predecessors (the edge u -> v written at v as
** v -> u with the same cost) over the same nodes. Both heuristics set: 'fwd'
** estimates the cost to the goals, 'bwd' the cost from 'start'; both must be
** consistent. The search is then A* both ways with the average potential
** p(v) = (h_fwd(v) - h_bwd(v)) / 2 (keys g + p forward, g - p backward);
** otherwise (either NULL) Dijkstra both ways. It stops when the two smallest
** keys sum to at least the best path met so far, which is then shortest.
** 'bwd' starts from all 'ngoals' goals at cost 0. p->algorithm must be
** ASTAR_ALG_ASTAR or ASTAR_ALG_DIJKSTRA (the latter ignores heuristics),
** weight 1; max_expansions counts both sides; partial gives the forward
** search's expanded node closest to the goals. Runs to the end (no time
** slicing). Afterwards astar_search_path(f), astar_search_end(f) (the goal
** reached) and astar_search_stats(f) (both sides) describe the whole search;
** astar_search_node(f) and (b) know one side each; 'b' is left finished
** with ASTAR_NO_PATH of its own (no path to read from it). Returns as
** astar_search_run (ASTAR_EINVAL also when f == b, for other algorithms or
** a weight other than 1). The cost of a path is g_f + g_b at the meeting
** node; with a user edge_cost the two sides must agree (same answer for the
** same edge).
*/
int astar_search_bidir(astar_search *f, astar_search *b, const astar_domain *fwd,
                       const astar_domain *bwd, uint32_t start,
                       const uint32_t *goals, size_t ngoals, const astar_params *p);


/* ===================================================================== */
/* Distance fields and components (src/core/grid.c, src/core/field.c)    */
/* ===================================================================== */

/*
** DISTANCE FIELDS (Dijkstra maps, flow fields). The distance of a cell is
** the cost of the cheapest path FROM it TO the nearest source, plus that
** source's value: min over sources s of cost(cell -> s) + value(s), with the
** grid's step costs (a step into cell b costs len * c(b)). The engine
** computes it with one Dijkstra search from all sources at once along
** reversed steps (the expansion of a cell u offers the cells from which a
** step into u is allowed, at len * c(u)). Values may be negative (flee
** maps); every step cost is > 0, so each closed cell's cost is final.
**
** astar_grid_field runs that search in 's'. Of 'q' it uses: diagonal,
** cost_fn / cost_ud (called with the FORWARD step: from the cell toward the
** source, (x1, y1) -> (x2, y2), and base len * c(x2, y2)),
** params.max_cost (cells whose distance would exceed it stay unreached) and
** params.max_expansions; it sets params.algorithm to ASTAR_ALG_DIJKSTRA and
** q->domain / q->grid; heuristic, goals and within are ignored.
** 'sources' are engine nodes (astar_grid_node) of WALKABLE cells, n >= 1,
** duplicates allowed (the cheaper wins); values[i] finite and <= max_cost
** (NULL: all 0). Callers drop the sources that do not qualify.
** Afterwards astar_search_node / astar_search_each_closed give, for every
** reached cell, g = its distance and parent = the next cell toward its
** source (ASTAR_NONE at a source); 's' keeps them until its next search.
** Returns 0 (every reachable cell reached), ASTAR_LIMIT (max_cost or
** max_expansions left some unreached; what was reached is final),
** ASTAR_EINVAL (bad policy, bad source or value, n == 0) or ASTAR_ENOMEM.
*/
int astar_grid_field(astar_grid *g, astar_search *s, astar_grid_query *q,
                     const uint32_t *sources, const double *values, size_t n);
/*
** astar_grid_back_begin begins (and does not run) the same backward search
** from the one walkable cell (gx, gy), as an A* toward cell (tx, ty) (the
** unit's start) with q's built-in heuristic (none on a grid with links) and
** no goal: resumed with astar_search_resume, it gives the exact cost from
** each cell it is asked about to (gx, gy), expanding little more than the
** cells between the two (Silver's reverse resumable A*), and each closed
** cell's parent is the next cell of a cheapest path to (gx, gy). Of q it
** uses diagonal, heuristic (not h_fn), cost_fn and overlay; it sets the rest
** (params: A*, weight 1, no limit). Returns 0, ASTAR_EINVAL (a cell outside,
** (gx, gy) blocked, bad options) or ASTAR_ENOMEM.
*/
int astar_grid_back_begin(astar_grid *g, astar_search *s, astar_grid_query *q, int gx,
                          int gy, int tx, int ty);

/*
** CONNECTED COMPONENTS. Two walkable cells are in the same component when a
** path joins them under the diagonal policy. Every step is reversible, and a
** diagonal step that NO_CORNER_CUTTING or ONE_OBSTACLE allows always has a
** walkable orthogonal cell through which the same two cells connect, so
** NEVER, NO_CORNER_CUTTING and ONE_OBSTACLE share the 4-connected labels,
** and ALWAYS uses 8-connected ones. Labels are 1 .. count, numbered in
** row-major order of each component's first cell; blocked cells have 0.
**
** The grid keeps one label array per connectivity (4 bytes a cell,
** allocated on first use, freed with the grid) and recomputes it lazily,
** in O(cells) without recursion or scratch memory, when a cell has turned
** blocked or walkable since (changes between two costs keep it).
**
** Once astar_grid_components or astar_grid_component has succeeded on a
** grid, astar_grid_find answers ASTAR_NO_PATH at once (after expanding only
** the start) when no goal lies in the start's component, using the labels
** of the query's policy (computed if stale; if that fails for lack of
** memory, the search runs as usual). Not with params.partial or 'within',
** which need the real search. User cost callbacks can only forbid steps, so
** the answer stays exact with them.
*/

/* Makes the labels of 'diagonal''s connectivity current and sets *count
** (may be NULL) to the number of components. Returns 0, ASTAR_EINVAL (bad
** policy) or ASTAR_ENOMEM (nothing changed). */
int astar_grid_components(astar_grid *g, int diagonal, uint32_t *count);

/* The label of cell (x, y) (0-based; 0 if blocked) under 'diagonal''s
** connectivity, in *label; recomputes the labels first if needed (then
** O(1)). Returns 0, ASTAR_EINVAL (bad cell or policy) or ASTAR_ENOMEM. */
int astar_grid_component(astar_grid *g, int diagonal, int x, int y, uint32_t *label);


/* ===================================================================== */
/* Navigation meshes (src/core/navmesh*.c)                               */
/* ===================================================================== */
/*
** A navigation mesh: convex polygons over shared vertices. Polygons are
** neighbours when they share a whole edge (a portal); an edge that no other
** polygon shares is a wall. Every polygon has a cost (a multiplier of the
** distance walked inside it, > 0) and 32 flag bits; a query uses a polygon
** when (flags & include) != 0 and (flags & exclude) == 0 (default flags 1,
** include all, exclude none: flags 0 closes a polygon).
**
** SEARCH. The engine searches the portals. A portal's node carries a point
** on the portal: the one that minimises (distance from the parent's point) +
** (distance to the goal), so the cost of a step is the length of a real
** straight segment inside the polygon crossed, times its cost. The found
** polygon corridor is then straightened by the funnel algorithm; with a
** radius every wall vertex of the corridor is a disc the path goes around
** (tangents and arcs), and portals and polygon crossings narrower than 2r
** are closed to the search.
*/
typedef struct astar_navmesh astar_navmesh;

/* Why a navmesh was rejected (astar_navmesh_new's 'why'); indices 0-based. */
enum {
  ASTAR_NM_FEW = 1,     /* polygon has fewer than 3 vertices */
  ASTAR_NM_INDEX,       /* polygon: vertex index out of range */
  ASTAR_NM_REPEAT,      /* polygon: vertex appears twice */
  ASTAR_NM_DEGENERATE,  /* polygon has (almost) no area */
  ASTAR_NM_CONCAVE,     /* polygon not convex at 'vertex' */
  ASTAR_NM_DUPLICATE,   /* polygon repeats polygon 'other' */
  ASTAR_NM_OVERLAP,     /* polygon and 'other' both have edge vertex -> vertex2:
                        ** they overlap */
  ASTAR_NM_NONMANIFOLD, /* edge vertex - vertex2 is shared by 3 or more polygons */
  ASTAR_NM_TJUNCTION,   /* 'vertex' of polygon 'other' lies inside the wall edge
                        ** vertex -> vertex2 of polygon along a collinear edge */
  ASTAR_NM_COORD        /* vertex coordinate not finite */
};
typedef struct astar_navmesh_problem {
  int why;
  uint32_t polygon, other, vertex, vertex2;
} astar_navmesh_problem;

/*
** Builds a mesh from nv vertices xy[2i], xy[2i+1] and np polygons; polygon
** p's vertex indices are idx[start[p] .. start[p+1]-1] (0-based, either
** orientation). Vertices with identical coordinates are one vertex. Returns
** 0, ASTAR_ENOMEM, or ASTAR_EINVAL with *problem saying why (problem may be
** NULL).
*/
int astar_navmesh_new(astar_navmesh **out, const double *xy, uint32_t nv,
                      const uint32_t *start, const uint32_t *idx, uint32_t np,
                      astar_navmesh_problem *problem, astar_alloc alloc, void *ud);
/*
** A mesh of the walkable cells of 'g': cells are merged greedily into
** rectangles of equal cost (each polygon's cost is its cells'), and each
** rectangle gets the corners of its neighbours that lie on its sides as
** vertices (no T-junctions). Cell (x, y) (0-based) covers [x, x+1] x [y, y+1]
** mapped through 'frame' (NULL: as is): [ox + x tw, ox + (x+1) tw] x
** [oy + y th, oy + (y+1) th]. If cell_poly is not NULL it receives w*h polygon
** indices (ASTAR_NONE for blocked cells), row by row.
*/
typedef struct astar_frame { double tw, th, ox, oy; } astar_frame;
int astar_navmesh_from_grid(astar_navmesh **out, const astar_grid *g, const astar_frame *frame,
                            uint32_t *cell_poly, astar_alloc alloc, void *ud);
void astar_navmesh_free(astar_navmesh *m);      /* NULL is accepted */
uint32_t astar_navmesh_npolygons(const astar_navmesh *m);
uint32_t astar_navmesh_nvertices(const astar_navmesh *m);
uint32_t astar_navmesh_nportals(const astar_navmesh *m);
const double *astar_navmesh_xy(const astar_navmesh *m);
/* Polygon p's vertices (counter-clockwise: x right, y up) as *n indices. */
const uint32_t *astar_navmesh_polygon(const astar_navmesh *m, uint32_t p, uint32_t *n);
/* Polygon p's neighbours across its edges (edge i goes from vertex i to
** i+1): ASTAR_NONE for walls; *n of them. */
const uint32_t *astar_navmesh_neighbours(const astar_navmesh *m, uint32_t p, uint32_t *n);
double astar_navmesh_cost(const astar_navmesh *m, uint32_t p);
uint32_t astar_navmesh_flags(const astar_navmesh *m, uint32_t p);
void astar_navmesh_set_cost(astar_navmesh *m, uint32_t p, double cost);  /* > 0, finite */
void astar_navmesh_set_flags(astar_navmesh *m, uint32_t p, uint32_t flags);
uint64_t astar_navmesh_version(const astar_navmesh *m);
size_t astar_navmesh_allocs(const astar_navmesh *m);
void astar_navmesh_bounds(const astar_navmesh *m, double *box);   /* x0, y0, x1, y1 */
/* The polygon that contains (x, y) (on an edge: one of the two), through a
** bucket grid over the polygons' boxes; ASTAR_NONE if none. */
uint32_t astar_navmesh_locate(const astar_navmesh *m, double x, double y);
/* The point of the mesh closest to (x, y) into *nx, *ny; returns its polygon
** (ASTAR_NONE only for an empty mesh). */
uint32_t astar_navmesh_nearest(const astar_navmesh *m, double x, double y,
                               double *nx, double *ny);
/* Distance from (x, y) to the nearest wall edge (HUGE_VAL if none). */
double astar_navmesh_clearance(const astar_navmesh *m, double x, double y);
/*
** Walks the segment (x0, y0) -> (x1, y1) across the mesh from the polygon of
** (x0, y0), through polygons allowed by include/exclude. Returns 1 if the
** whole segment stays on them; 0 with the point where it leaves in *hx, *hy
** and the last polygon in *hpoly; -1 if (x0, y0) is not on an allowed
** polygon.
*/
int astar_navmesh_raycast(const astar_navmesh *m, double x0, double y0, double x1,
                          double y1, uint32_t include, uint32_t exclude,
                          double *hx, double *hy, uint32_t *hpoly);

/*
** OFF-MESH LINKS (src/core/navmesh_link.c): ladders, jumps, teleporters,
** doors between floors: a directed move from one point of the mesh to
** another (anywhere, not across a portal) for a fixed cost (not multiplied by
** polygon costs). Every search takes a link while both ends lie on polygons
** the query's flags allow (and, with a radius, while the unit fits at both
** ends); the heuristics stay admissible by allowing for them (the least a
** path pays after its last link). The exact search treats a link's start as
** a target it may reach (through the cone of an interval, or round one of its
** ends, as the goal) and its end as a new start. Adding, re-pricing or
** removing a link is an edit of the whole mesh: a search begun before it begins
** again at its next step (astar_navmesh_step), whatever the caller does. 40
** bytes a link, and an index of the polygons holding link starts.
** astar_navmesh_link: adds the link or sets its cost; 0, ASTAR_EINVAL (an
**   end off the mesh, both ends the same point, a coordinate not finite, cost
**   not > 0 and finite) or ASTAR_ENOMEM.
** astar_navmesh_unlink: removes it; 1 if there was one, else 0.
** astar_navmesh_next_link: every link in turn, in the order they were
**   added: start with *cursor = 0; returns 0 after the last.
** astar_navmesh_link_cost: the link's cost, or -1 if there is none.
** astar_navmesh_steplinks (below, with the query): which steps of a path
**   take a link.
*/
int astar_navmesh_link(astar_navmesh *m, double x0, double y0, double x1, double y1,
                       double cost);
int astar_navmesh_unlink(astar_navmesh *m, double x0, double y0, double x1, double y1);
size_t astar_navmesh_link_count(const astar_navmesh *m);
int astar_navmesh_next_link(const astar_navmesh *m, size_t *cursor, double *x0, double *y0,
                            double *x1, double *y1, double *cost);
double astar_navmesh_link_cost(const astar_navmesh *m, double x0, double y0, double x1,
                               double y1);

/* A user cost for crossing polygon 'poly' toward 'next' (ASTAR_NONE: the
** goal is in 'poly'), whose built-in cost is 'base' (length * polygon cost):
** returns a cost >= 0, or a negative number to forbid the step. */
typedef double (*astar_navmesh_cost_fn)(void *ud, uint32_t poly, uint32_t next, double base);

/* How many times find searches again, each time closing the portal where
** the path came closer than the radius to a wall. */
#define ASTAR_NM_BANS 8

/* A navmesh query: the options, then what prepare and the search fill. */
typedef struct astar_navmesh_query {
  double radius;           /* >= 0, finite; default 0 */
  uint32_t include, exclude;
  astar_params params;
  astar_navmesh_cost_fn cost_fn;  /* optional user cost */
  void *cost_ud;
  /* filled by prepare and the search: */
  astar_domain domain;
  astar_navmesh *mesh;
  int blocked;             /* after ASTAR_BLOCKED: 1 start, 2 goal */
  int blocked_why;         /* 0 off the mesh, 1 closed by flags, 2 too close to a wall */
  int exact;               /* the last search was the exact interval search */
  struct astar_nm_work *w; /* the core's scratch, made by the first prepare */
} astar_navmesh_query;

/* Fill a query with astar_navmesh_query_init; free its scratch (kept from
** search to search) with astar_navmesh_query_free, also after the mesh. */
void astar_navmesh_query_init(astar_navmesh_query *q);
void astar_navmesh_query_free(astar_navmesh_query *q);
/* After a path (result or partial): its polygon corridor, *n polygons. */
const uint32_t *astar_navmesh_corridor(const astar_navmesh_query *q, size_t *n);
/* After a result: NULL if the path takes no link, else for each of its points
** k the cost of the link its step k -> k+1 takes, or -1 for a walk. */
const double *astar_navmesh_steplinks(const astar_navmesh_query *q);
/* The statistics of the last search: the exact search's own, else s's. */
void astar_navmesh_stats(const astar_navmesh_query *q, const astar_search *s, astar_stats *st);
/* Allocations the query's scratch has made. */
size_t astar_navmesh_query_allocs(const astar_navmesh_query *q);
/*
** Makes q->domain describe a search on 'm' from (sx, sy) to (gx, gy) and
** sets the engine's start and goal nodes. Returns 0, ASTAR_BLOCKED (start
** or goal off the allowed mesh, or closer than the radius to a wall: see
** q->blocked), ASTAR_EINVAL or ASTAR_ENOMEM.
*/
int astar_navmesh_prepare(astar_navmesh *m, astar_navmesh_query *q, double sx, double sy,
                          double gx, double gy, uint32_t *start, uint32_t *goal);
/*
** Starts a search on 'm' from (sx, sy) to (gx, gy) for time-sliced steps:
** prepare, then the exact interval search (uniform polygon costs, no
** radius, no cost_fn) or the portal search in 's'. Returns 0, or
** ASTAR_BLOCKED (see q->blocked), ASTAR_EINVAL, ASTAR_ENOMEM.
*/
int astar_navmesh_begin(astar_navmesh *m, astar_search *s, astar_navmesh_query *q,
                        double sx, double sy, double gx, double gy);
/*
** At most 'budget' expansions of the search begun by astar_navmesh_begin:
** ASTAR_RUNNING, or a final status as astar_search_step's. With a radius a
** path found too close to a wall closes the portal there and searches again
** (at most ASTAR_NM_BANS times), within the same steps. The exact search
** keeps its own open list in q (not in s): its statistics are read with
** astar_navmesh_stats. ASTAR_ESTATE if q has not been begun on 'm'.
*/
int astar_navmesh_step(astar_navmesh *m, astar_search *s, astar_navmesh_query *q,
                       uint64_t budget);
/* begin + step until the search ends. */
int astar_navmesh_find(astar_navmesh *m, astar_search *s, astar_navmesh_query *q,
                       double sx, double sy, double gx, double gy);
/*
** After a search that found the goal: the straightened path into *pts
** (2 doubles a point, start first, owned by q) and its cost into *cost
** (lengths inside each polygon times its cost, or what cost_fn says);
** astar_navmesh_corridor then gives its polygon corridor. After one that
** ended with ASTAR_NO_PATH or ASTAR_LIMIT: with params.partial set, the
** partial path of astar_navmesh_partial, else 0 (no path). Returns the
** number of points, or ASTAR_ENOMEM / ASTAR_ECALLBACK (negative).
*/
long astar_navmesh_result(astar_navmesh_query *q, astar_search *s, const double **pts,
                          double *cost);
/*
** After a search that ended with ASTAR_NO_PATH or ASTAR_LIMIT and had
** params.partial set: a path toward the goal, as astar_navmesh_result gives
** one: from the start to the reached point nearest the goal (a portal point
** the portal search reached, or the point of an interval the exact search
** saw). Returns its number of points (0: none, e.g. too narrow for the
** radius), or ASTAR_ENOMEM.
*/
long astar_navmesh_partial(astar_navmesh_query *q, astar_search *s, const double **pts,
                           double *cost);


/* ===================================================================== */
/* Turning radius (src/core/curve.c)                                     */
/* ===================================================================== */

/*
** The shortest path with curvature at most 1/r between two poses: arcs of
** radius r (L: the turn's centre on the unit's left, so driving forward it
** turns toward larger headings; R: on its right) and straights (S).
** Headings in radians, counter-clockwise from +x. Allocation-free: a curve
** is a plain struct of numbers.
** astar_curve_dubins: forward only (Dubins): three segments, one of LSL,
**   RSR, LSR, RSL, RLR, LRL.
** astar_curve_reeds_shepp: forward and backward (Reeds and Shepp, 1990): 3
**   to 5 segments, one of the 48 words of the paper's nine families (CSC,
**   C|C|C, CC|C, C|CC, CC|CC, C|CC|C, C|CSC, CSC|C, C|CSC|C), each segment
**   driven forward (dir +1) or backward (dir -1). The unit keeps facing its
**   heading: driving backward it moves opposite to where it faces.
** Both fill c and return 0, or ASTAR_EINVAL (r <= 0, a coordinate or
** heading not finite, or the ends more than 1e15 radii apart).
** astar_curve_word: Dubins "LSL" ...; Reeds-Shepp each segment's kind and
**   direction, "L+S+R-" ... (a segment 0 long takes the direction of the one
**   before it, the first that of the first that moves).
** astar_curve_cusps: how many times the curve changes direction (0 for
**   Dubins, at most 2), not counting segments 0 long.
** astar_curve_sample: the pose at distance s along the curve (clamped to
**   [0, length]; backward distance counts as distance), heading in
**   [0, 2 pi): where the unit faces, not where it moves.
*/
#define ASTAR_CURVE_SEGS 5
typedef struct astar_curve {
  double x, y, h, r;     /* the start pose and the radius */
  double seg[ASTAR_CURVE_SEGS];   /* segment i's length over r (arcs: the angle turned), >= 0 */
  double length;         /* the sum of the segments, times r */
  int word;              /* Dubins: 0..5, in the order above; Reeds-Shepp: -1 */
  int n;                 /* segments: 3 (Dubins), 3 to 5 (Reeds-Shepp) */
  signed char dir[ASTAR_CURVE_SEGS];   /* +1 forward, -1 backward (Dubins: all +1) */
  char kind[ASTAR_CURVE_SEGS + 1];     /* the segments' kinds, 'L', 'S' or 'R' */
  char name[2 * ASTAR_CURVE_SEGS + 1]; /* what astar_curve_word gives */
} astar_curve;

int astar_curve_dubins(astar_curve *c, double x0, double y0, double h0, double x1, double y1,
                       double h1, double r);
int astar_curve_reeds_shepp(astar_curve *c, double x0, double y0, double h0, double x1,
                            double y1, double h1, double r);
const char *astar_curve_word(const astar_curve *c);
int astar_curve_cusps(const astar_curve *c);
/* The same path driven the other way round by a unit facing the other way:
** the start heading turns by pi, each segment's direction flips, L and R
** swap (a forward Dubins curve for heading h + pi becomes the curve a unit
** facing h backs along); the word then has directions ("R-S-L-"). */
void astar_curve_backward(astar_curve *c);
void astar_curve_sample(const astar_curve *c, double s, double *x, double *y, double *h);


/* ===================================================================== */
/* Cooperative paths on grids (src/core/grid_coop.c)                     */
/* ===================================================================== */

/*
** Cooperative A* and WHCA* (Silver 2005, "Cooperative Pathfinding"): units
** plan one after another through a RESERVATION TABLE of space and time, each
** avoiding the cells the units before it hold.
**
** TIME is counted in steps: a unit at cell c at time t is at a neighbour of
** c, or still at c (a wait), at time t + 1. Times are integers in
** [0, ASTAR_COOP_TMAX].
**
** THE TABLE (astar_resv) maps (x, y, t) to the unit holding the cell then
** (units are numbers 0 .. ASTAR_COOP_UNIT_MAX), and (x, y) to the unit that
** HOLDS it from a time on forever (a unit parked at its goal). It does not
** know the grids it is used with: cells are plain coordinates. A unit u
** conflicts with the table when, for a move from a at t to b at t + 1, another
** unit holds b at t + 1 (a vertex conflict), or one unit v holds b at t and a
** at t + 1 (a swap across the edge: v moves b -> a meanwhile); swaps are
** read from the cells held, so no edge is stored. Two units crossing the
** diagonals of a 2 x 2 block, and a unit following another into the cell it
** leaves, are not conflicts. Cells held by u itself never block u.
** Memory: 16 bytes a (cell, time) and 24 a cell held, in open-addressing
** tables that grow by doubling (through the table's allocator) and never
** shrink until astar_resv_clear.
*/
#define ASTAR_COOP_TMAX 0x3fffffffL
#define ASTAR_COOP_UNIT_MAX 0x7ffffffeu
typedef struct astar_resv astar_resv;
int astar_resv_new(astar_resv **out, astar_alloc alloc, void *ud);
void astar_resv_free(astar_resv *r);                 /* NULL is accepted */
/* Forgets everything (keeps its memory). */
void astar_resv_clear(astar_resv *r);
/* The unit holding (x, y) at time t, or ASTAR_NONE. */
uint32_t astar_resv_holder(const astar_resv *r, int x, int y, long t);
/* Reserves (x, y) at time t for 'unit': 0, ASTAR_EINVAL (a bad time or unit,
** or the cell is held then by another unit) or ASTAR_ENOMEM (unchanged). */
int astar_resv_reserve(astar_resv *r, int x, int y, long t, uint32_t unit);
/* Makes 'unit' hold (x, y) from time t on: 0, ASTAR_EINVAL (a bad time or
** unit, or another unit holds the cell at t or later) or ASTAR_ENOMEM. */
int astar_resv_hold(astar_resv *r, int x, int y, long t, uint32_t unit);
/* Whether 'unit' may take the n cells xy (x, y pairs, 0-based) at times t0,
** t0 + 1, ... (each a neighbour of the last or the same cell: the caller
** checks) and then hold the last one forever if 'hold': ASTAR_FOUND (0) if
** so, else ASTAR_NO_PATH with the first conflict's step in *at and the other
** unit in *who. */
int astar_resv_check(const astar_resv *r, const int *xy, size_t n, long t0, int hold,
                     uint32_t unit, size_t *at, uint32_t *who);
/* Replaces what 'unit' holds by the n cells xy at times t0, t0 + 1, ... and,
** if 'hold', the last cell from t0 + n - 1 on: 0, ASTAR_EINVAL (a bad time
** or unit) or ASTAR_ENOMEM (the table is unchanged). Conflicts are not
** checked (astar_resv_check). */
int astar_resv_take(astar_resv *r, const int *xy, size_t n, long t0, int hold, uint32_t unit);
/* Drops everything 'unit' holds; returns how many (cell, time) entries and
** cells held forever it dropped. */
size_t astar_resv_release(astar_resv *r, uint32_t unit);
/* The number of (cell, time) entries and of cells held forever. */
size_t astar_resv_count(const astar_resv *r, size_t *held);
/* The latest time any entry or hold names (-1 for an empty table). */
long astar_resv_last(const astar_resv *r);
size_t astar_resv_allocs(const astar_resv *r);

/*
** A COOPERATIVE SEARCH on grid g for 'unit' from (sx, sy) at time t0 to
** (gx, gy): the engine's A* over (cell, time) states (numbered as the search
** meets them: an unbounded domain), whose moves are the steps the grid
** query q allows (its diagonal policy, hex or wrapping layout, links, cost
** callback; each takes one time unit and costs what it costs on the grid)
** and, if wait_cost > 0, a wait in place costing wait_cost; no state
** conflicts with the table. Its heuristic is the true distance to the goal
** on the grid alone, from a reverse resumable search in 'back' (Silver).
** Without a window (window 0) the path ends at the goal at a time from which
** no other unit ever holds the goal, so the unit can stay there (Cooperative
** A*); the heuristic is also at least the least step cost times the steps
** left until the goal is free for good; the search space is finite: after
** the table's last time nothing changes, so later times are one. With a
** window w >= 1 (WHCA*) the first w steps are conflict-free and the search
** ends at the goal (held as above) or at time t0 + w, wherever the cost so
** far plus the distance on is least; astar_coop_path then goes on along a
** shortest grid path, not checked against the table. The distance on is
** taken through a target 2w + 8 steps down the grid's shortest path (found
** first, in 'back', by jumps where the grid allows): the exact distance to
** the target, from the reverse search started there, plus the path's cost
** from it, so that the reverse search stays near the window (alone in the
** table, the unit's path is still a shortest path).
** q: a grid query (astar_grid_query_init) with diagonal, cost_fn and params
** (weight, max_expansions, max_cost, partial); jump, theta, radius, size,
** goals, within, overlay and h_fn must be off (EINVAL). The unit's start
** must be free at t0 (else ASTAR_BLOCKED, cq->blocked 1), its goal not held
** forever by another unit (ASTAR_BLOCKED, cq->blocked 2).
*/
typedef struct astar_coop_query {
  astar_grid_query q;      /* the grid's moves and the engine's params */
  astar_resv *resv;
  uint32_t unit;           /* ASTAR_NONE: no unit (every entry blocks) */
  long t0;                 /* start time, in [0, ASTAR_COOP_TMAX - window - 1] */
  long window;             /* 0: none; else 1 .. ASTAR_COOP_TMAX */
  double wait_cost;        /* 0: no waits; else > 0 and finite */
  astar_search *back;      /* the heuristic's backward search (its own context) */
  astar_alloc alloc;       /* for the scratch (states, path) */
  void *ud;
  /* filled by astar_coop_begin: */
  astar_domain domain;
  int blocked;             /* after ASTAR_BLOCKED: 1 the start, 2 the goal */
  uint32_t blocker;        /* the unit that blocks it */
  int sx, sy, gx, gy;
  long tcap;               /* later times are this one (no window) */
  uint32_t gnode;          /* the goal's grid node */
  int err;                 /* a failure of the backward search, or 0 */
  struct astar_coop_work *w;   /* the states and the path (grown, kept) */
} astar_coop_query;
void astar_coop_query_init(astar_coop_query *cq);
void astar_coop_query_free(astar_coop_query *cq);   /* its scratch; not back */
/* Begins the search in s: 0, ASTAR_BLOCKED, ASTAR_NO_PATH (the goal cannot
** be reached on the grid), ASTAR_EINVAL or ASTAR_ENOMEM. */
int astar_coop_begin(astar_grid *g, astar_search *s, astar_coop_query *cq, int sx, int sy,
                     int gx, int gy);
/* After the search (found, or a partial path): the path's cells (x, y pairs,
** 0-based, owned by cq), one a time step from t0, *planned of them from the
** search (conflict-free; the rest, with a window, the grid path on), its
** cost in *cost, and whether it ends held at the goal in *holds. Returns
** the number of cells, 0 if there is no path, or ASTAR_ENOMEM. */
long astar_coop_path(astar_coop_query *cq, astar_search *s, const int **xy, size_t *planned,
                     double *cost, int *holds);
/* Statistics: allocations of cq's scratch. */
size_t astar_coop_allocs(const astar_coop_query *cq);

/* ===================================================================== */
/* Directional A* on grids (src/core/grid_dir.c)                         */
/* ===================================================================== */

/*
** Directional A* (Pinter 2001): a search over poses, a cell of a square grid
** and one of 8 or 16 headings (k * 2 pi / H, counter-clockwise from +x, the
** grid's y axis pointing down), whose moves are the shortest Dubins curves
** of turning radius 'turn' from the centre of a cell to the centre of every
** cell up to 'reach' cells away (reach 1, 2, 3: Pinter's Directional-8, -24,
** -48), arriving with every heading; with 'reverse', the same curves driven
** backward too, their cost times 'reverse'. A move is legal when a disc of
** 'radius' swept along it touches no blocked cell (astar_grid_line_clear's
** rule, arcs within 1e-3 of it). A move costs the length it runs in each
** cell times that cell's cost, plus turn_cost per radian turned. The
** paths found are the cheapest of the lattice: shortest among the paths
** made of such moves, not among all drivable paths.
**
** A LATTICE holds the moves for one set of parameters (Pinter's hit-check
** tables), built once (time and memory grow with headings^2, reach^2 and
** the turning radius: 8 headings, reach 1, turn 2: 512 moves, about 40 KB),
** shared by reference count: astar_lattice_new makes one (ASTAR_EINVAL for
** parameters out of range, ASTAR_ENOMEM) with one reference; retain and
** release count them, the last release frees it.
*/
#define ASTAR_DIR_TURN_MAX 16
#define ASTAR_DIR_RADIUS_MAX 4
typedef struct astar_dir_params {
  double turn;        /* turning radius in cells, (0, ASTAR_DIR_TURN_MAX]; default 1 */
  double radius;      /* the unit's radius in cells, [0, ASTAR_DIR_RADIUS_MAX]; default 0 */
  int headings;       /* 8 or 16; default 8 */
  int reach;          /* 1, 2 or 3; default 2 */
  double reverse;     /* 0 (default): forward only; >= 1: reversing allowed, cost factor */
  double turn_cost;   /* >= 0: cost per radian turned; default 0 */
} astar_dir_params;
void astar_dir_params_init(astar_dir_params *p);

typedef struct astar_lattice astar_lattice;
int astar_lattice_new(astar_lattice **out, const astar_dir_params *p, astar_alloc alloc,
                      void *ud);
void astar_lattice_retain(astar_lattice *l);
void astar_lattice_release(astar_lattice *l);          /* NULL is accepted */
const astar_dir_params *astar_lattice_params(const astar_lattice *l);
size_t astar_lattice_bytes(const astar_lattice *l);

/* A directional query: astar_dir_query_init, then set params, heuristic
** and back. The heuristic ASTAR_H_EUCLIDEAN (the default) is the largest of
** the straight distance, the Dubins curve's length when the goal heading is
** given and the unit never reverses, and, when 'back' is a search context
** (it must outlive the query's search), the cell's distance to the goal in
** a relaxed graph over cells (an edge for every reach a move has, costing
** the shortest such move, where the cells every such move sweeps are
** walkable), which a reverse resumable search (Silver 2005) in 'back'
** works out as far as the search asks; each times the grid's smallest cost,
** so never above the cost of a path. ASTAR_H_ZERO: Dijkstra.
** 'seen' (optional; it must outlive the query's search, and serve one
** search at a time): where the search keeps, per pose, the cheapest cost
** it has met (rounded up to a float), so as to write no move that costs
** that or more: the engine would only find it no better, after a lookup
** that waits on memory (a pose has dozens of moves, most into poses met
** before). Its arrays have room for astar_dir_seen_cells cells; the rest is
** the search's. */
typedef struct astar_dir_seen {
  uint16_t *gen;            /* per cell: the search its row is from (0: none) */
  float *g;                 /* per cell, a row of 16 costs (H with H headings) */
  size_t cells;             /* the cells gen, g and reach have room for */
  uint16_t cur;
  /* optional (NULL): the poses found to reach the goal (see astar_dir_begin) */
  uint16_t *reach;          /* per cell, as bits: its headings found so far */
  uint32_t *rq;             /* those poses, in the order found; room for rcap */
  size_t rn, rcap;
  uint32_t rh;              /* the headings of the search that found them */
} astar_dir_seen;
#define ASTAR_DIR_REACH_CAP 65536   /* what astar_dir_seen.rcap need not pass */
size_t astar_dir_seen_cells(const astar_grid *g);
typedef struct astar_dir_query {
  astar_params params;
  int heuristic;
  astar_search *back;
  astar_dir_seen *seen;     /* NULL, or room for astar_dir_seen_cells(grid) */
  /* filled by astar_dir_prepare: */
  astar_domain domain;
  astar_grid *grid;
  const astar_lattice *lat;
  int sx, sy, gx, gy;
  double sh, gh;            /* the headings asked for; NaN: any */
  uint32_t starts[16];      /* the start poses */
  size_t nstarts;
  uint32_t snode, gnode;    /* the start / goal pose off the lattice, or ASTAR_NONE */
  int blocked;              /* after ASTAR_BLOCKED: 1 the start, 2 the goal */
  int uniform, dubins;
  double cost1, hscale;
  int32_t toff[48];         /* per target of the lattice, its cell's offset */
  astar_domain bdomain;     /* the relaxed graph, searched backward in 'back' */
  uint32_t bcell;           /* the cell whose distance back_distance gave last, */
  double bdist;             /* and that distance */
  int shots;                /* hybrid: set before astar_dir_prepare (see below) */
  uint32_t shot_to;         /* the node shots arrive at */
  /* the proof that no start pose reaches the goal (see astar_dir_begin):
  ** when it first grows, and the share of the expansions it may hold
  ** (astar_dir_query_init: 64 and 1/8; tests set 1 and 1/1) */
  uint64_t reach_first;
  unsigned reach_share;
  uint64_t expanded;        /* poses expanded, and when the proof */
  uint64_t reach_at;        /* grows next */
  size_t rhead;             /* the next pose the proof expands (seen->rq) */
  int reach;                /* is it still worth growing? */
} astar_dir_query;
void astar_dir_query_init(astar_dir_query *q);

/*
** Prepares q for a search on g with lattice l (both must outlive it) from
** the centre of cell (sx, sy) facing sh to the centre of (gx, gy) facing gh
** (radians, any finite value; NaN: any heading), and sets *goal. Returns 0,
** ASTAR_BLOCKED (the unit does not fit at an end: q->blocked), ASTAR_EINVAL
** (a cell outside, an infinite heading, a hex or wrapping grid, a heuristic
** other than the two, more than 2^32 - 2 poses) or ASTAR_ENOMEM. A heading
** that is none of the lattice's is kept exactly: the moves from the start,
** and to the goal from the cells within reach, are then worked out against
** the grid (not from the tables).
** HYBRID (q->shots = 1; Dolgov, Thrun, Montemerlo and Diebel 2008, whose
** analytic expansion this borrows): besides its moves, every pose within 5
** turning radii of the goal (at most 32 cells, at least the reach) tries a
** shot, the curve straight to the goal (to its pose, or with any goal
** heading an arc and a straight to its centre); a clear shot is one more
** edge into the goal, and the relaxed graph of the heuristic has one from
** each cell in range. The search stays A*: the path is the cheapest of
** moves and shots, never costlier than the directional search's.
** astar_dir_begin: begins the search (astar_search_begin's results).
**   A goal a unit cannot reach costs the forward search every pose it can
**   reach, which is most of the map when the goal sits in a pocket the
**   unit cannot turn into. So when seen->reach is given (and the search
**   has lattice headings at both ends, no shots, no partial path), from
**   q->reach_first expansions on, each time they double, the search also
**   grows the set of poses that reach the goal (breadth first, backward
**   over the moves) to 1 / q->reach_share of its expansions: if that set
**   closes without a start pose in it, no path exists and the search ends
**   with NO_PATH. (It gives up on meeting a start pose.)
** astar_dir_pose: the pose of engine node 'node' (x, y the point in grid
**   units: a cell's centre is its coordinates plus 0.5).
** astar_dir_step: the move from node a to node b, consecutive on a path:
**   its curve in *c (headings where the unit faces: a move backing up is a
**   curve whose segments go backward, astar_curve_backward), *dir 1 forward
**   or -1 backing up, and its cost (-1 if the grid no longer allows it).
*/
int astar_dir_prepare(astar_grid *g, const astar_lattice *l, astar_dir_query *q, int sx,
                      int sy, double sh, int gx, int gy, double gh, uint32_t *goal);
int astar_dir_begin(astar_search *s, astar_dir_query *q, uint32_t goal);
void astar_dir_pose(const astar_dir_query *q, uint32_t node, double *x, double *y, double *h);
double astar_dir_step(const astar_dir_query *q, uint32_t a, uint32_t b, astar_curve *c,
                      int *dir);

/* ===================================================================== */
/* Worker threads (src/core/workers.c)                                   */
/* ===================================================================== */

/*
** A pool of threads that run jobs off the caller's thread: POSIX threads,
** or Win32 threads on Windows (Vista and later). Each worker owns a search
** context made with the pool's allocator, which the workers call from
** their own threads: it must be thread-safe (malloc's is; a Lua state's is
** not). The job function runs on a worker thread and may use that context;
** it must only read what other threads may touch meanwhile (a grid, for
** one, after astar_grid_ready or astar_grid_snapshot; see there).
**
** JOBS are the caller's memory: a struct that starts with an astar_job
** (or holds one and finds its way back). A submitted job belongs to the
** pool until astar_workers_collect or astar_workers_take hands it back
** (state COLLECTED), or astar_workers_cancel removes it (CANCELLED); the
** pool's mutex orders what the worker wrote before the caller reads it.
** One thread, the owner, calls every function below but the job function's
** astar_workers_cancelled.
*/
#define ASTAR_WORKERS_MAX 64

enum {
  ASTAR_JOB_QUEUED = 1, ASTAR_JOB_RUNNING, ASTAR_JOB_DONE, ASTAR_JOB_COLLECTED,
  ASTAR_JOB_CANCELLED
};

typedef struct astar_job {
  struct astar_job *next;   /* the pool's */
  int state;                /* ASTAR_JOB_*: read it only through the functions below */
  int cancel;               /* the pool's */
} astar_job;

typedef struct astar_workers astar_workers;
/* Runs job j on a worker thread with the worker's context s; ud is the
** pool's. It should poll astar_workers_cancelled(w, j) now and then. */
typedef void (*astar_work_fn)(void *ud, astar_job *j, astar_search *s, astar_workers *w);

/* The number of processors online (1 if unknown), at most ASTAR_WORKERS_MAX. */
int astar_workers_cpus(void);
/* Starts 'threads' workers (0 .. ASTAR_WORKERS_MAX; with 0, only
** astar_workers_help runs the jobs). Returns 0, ASTAR_EINVAL or ASTAR_ENOMEM
** (also when a thread cannot be started). */
int astar_workers_new(astar_workers **out, int threads, astar_work_fn fn, void *ud,
                      astar_alloc alloc, void *aud);
int astar_workers_threads(const astar_workers *w);
/* Queues job j (its next/state/cancel are overwritten). */
void astar_workers_submit(astar_workers *w, astar_job *j);
/* The oldest finished job, handed back, or NULL; with 'wait', blocks until
** one finishes unless none is queued or running. */
astar_job *astar_workers_collect(astar_workers *w, int wait);
/* Job j's state; if DONE, hands j back (it is COLLECTED then, but the
** return value says DONE). With 'wait', waits while it is queued or running. */
int astar_workers_take(astar_workers *w, astar_job *j, int wait);
/* Runs queued jobs on the calling thread (with a context of the pool's own
** for it), oldest first, as a worker would: until job 'until' is done, or
** just one if 'until' is NULL, and while any is queued. Returns how many ran.
** For a caller that would otherwise wait for 'until': it works too. */
long astar_workers_help(astar_workers *w, const astar_job *until);
/* Cancels j: a queued or finished job is handed back at once (CANCELLED);
** a running one is flagged (astar_workers_cancelled) and finishes as usual.
** Returns the state j had. */
int astar_workers_cancel(astar_workers *w, astar_job *j);
/* Job j's state, without handing it back. */
int astar_workers_peek(astar_workers *w, const astar_job *j);
/* For the job function: whether j was cancelled or the pool is closing. */
int astar_workers_cancelled(astar_workers *w, const astar_job *j);
/* How many jobs are queued, running, and finished but not collected (any
** pointer may be NULL). */
void astar_workers_state(astar_workers *w, size_t *queued, size_t *running, size_t *done);
/* Stops the pool: queued jobs become CANCELLED (handed back), running ones
** are flagged and waited for, the threads joined, the contexts freed. Every
** job is the caller's again. NULL is accepted. */
void astar_workers_free(astar_workers *w);

#endif
