/*
** binding.h - what the files of the Lua binding share (not installed).
*/
#ifndef ASTAR_BINDING_H
#define ASTAR_BINDING_H

#include "compat.h"
#include "astar.h"

#define ASTAR_GRID_MT "astar.Grid"
#define ASTAR_PATH_MT "astar.Path"
#define ASTAR_GRAPH_MT "astar.Graph"
#define ASTAR_FIELD_MT "astar.Field"
#define ASTAR_NAVMESH_MT "astar.NavMesh"

/* Which function is checking its arguments, for error messages that are the
** same on every VM: 'self' is 1 for methods (self is not counted). */
typedef struct afn {
  const char *name;
  int self;
} afn;

/* Raises the formatted message, without position information. */
int astar_error(lua_State *L, const char *fmt, ...);
/* Raises "bad argument #n to 'name' (<formatted message>)". */
int astar_argerror(lua_State *L, const afn *f, int idx, const char *fmt, ...);
/* Formats a number the same way on every VM ("nan", "inf", "-inf", %.14g). */
const char *astar_fmtnum(char *buf, double x);
/* A number (not a string); raises "number expected, got <type>". */
double astar_checknumber(lua_State *L, const afn *f, int idx);
/* An integral number within int range; raises "integer expected, got 1.5". */
int astar_checkint(lua_State *L, const afn *f, int idx);
/* An integral number in [lo, hi]; raises "<what> out of range: X not in [lo, hi]". */
int astar_checkrange(lua_State *L, const afn *f, int idx, const char *what, int lo, int hi);
/* A 1-based coordinate on 'axis' ("x" or "y") in [1, max]; returns it 0-based. */
int astar_checkcoord(lua_State *L, const afn *f, int idx, const char *axis, int max);
/* A cell value: number > 0 and finite, true (1) or false (0 = blocked). */
double astar_checkcost(lua_State *L, const afn *f, int idx);
/* The option whose value is on top, for error messages about the options
** table at 'idx': a string of 'list' (returns its index), or a number. */
int astar_optenum(lua_State *L, const afn *f, int idx, const char *name,
                  const char *const list[]);
double astar_optnum(lua_State *L, const afn *f, int idx, const char *name);
/* Reads option 'k' (value on top) if it is one that every search shares:
** weight, max_expansions, max_cost, partial, and within (when 'within' is
** not NULL). Returns 1 if it was. */
int astar_readparam(lua_State *L, const afn *f, int idx, const char *k, astar_params *p,
                    double *within);
/* Pushes nil, the formatted message and 'code' (an outcome); returns 3. */
int astar_outcome(lua_State *L, const char *code, const char *fmt, ...);
/* Converts a value at 'idx' to a cell cost; returns -1 if it is not one. */
double astar_tocost(lua_State *L, int idx);
/* The allocator the core gets, and its userdata. */
astar_alloc astar_allocator(lua_State *L, void **ud);
/* Raises the Lua error that matches a negative core status. */
int astar_raise(lua_State *L, int status);

/* Path kinds: what a point is. */
enum {
  ASTAR_PATH_GRID = 0,   /* 2 numbers a point: x, y (1-based integers) */
  ASTAR_PATH_GRAPH,      /* 3 numbers a point: node id (1-based), x, y (NaN: no position) */
  ASTAR_PATH_VALUES,     /* 1 number a point: index into the path's user value table,
                         ** which holds the Lua node values (implicit graphs) */
  ASTAR_PATH_MESH        /* 2 numbers a point: x, y; the user value is the corridor,
                         ** a list of polygon indices (navmeshes) */
};

/*
** Pushes a new Path of n points of 'kind' and returns a pointer to its
** n * stride numbers to fill (stride 2, 3 or 1 as above). For
** ASTAR_PATH_VALUES the caller then sets the user value to a table of the
** nodes (astar_compat_setuservalue). 'goal' is the 1-based index of the goal
** reached among several goals, or 0.
*/
double *astar_newpath(lua_State *L, size_t n, int kind, double cost,
                      const astar_stats *st, const char *algorithm, long goal);

/* Idle search contexts a map keeps for its time-sliced queries. */
#define ASTAR_POOL 4
typedef struct astar_pool {
  astar_search *s[ASTAR_POOL];
  int n;
} astar_pool;
/* A context from the pool, or a new one (raises on ENOMEM). */
astar_search *astar_pool_take(lua_State *L, astar_pool *p);
/* Gives a context back (frees it if the pool is full or p is NULL). */
void astar_pool_give(astar_pool *p, astar_search *s);
void astar_pool_free(astar_pool *p);

/* The grid Path at idx: its 2n coordinates followed by n cell costs (NaN:
** unknown), its length in *n and its diagonal policy (-1: unknown); NULL if
** idx is not a grid path. */
double *astar_path_grid(lua_State *L, int idx, size_t *n, int **diagonal);

/* The graph Path at idx: 3n numbers (id, x, y), then n step costs (the cost
** of the edge into point i when found; NaN: unknown); NULL if not one. */
double *astar_path_graph(lua_State *L, int idx, size_t *n);

/* Sets the cost of the Path at idx to the number on top, and pops it. */
void astar_path_setcost(lua_State *L, int idx);

/* A search's Lua callbacks: their thread and stack indices (0: none). */
typedef struct lcall {
  lua_State *L;
  int cost;
  int heur;
} lcall;
/* The grid cost trampoline (ud: an lcall): calls the cost callback for the
** step (x1, y1) -> (x2, y2), 0-based; -1 if it forbids the step; raises on a
** bad result. */
double astar_grid_cost_cb(void *ud, int x1, int y1, int x2, int y2, double base);

/* The Grid userdata (src/lua/grid.c). */
typedef struct lgrid {
  astar_grid *g;       /* NULL once closed */
  astar_search *s;     /* the grid's search context, created on first use */
  int busy;            /* a search on this grid is running (callbacks may not
                       ** search, edit or close it) */
  astar_pool pool;     /* contexts for grid:query */
} lgrid;

/* The open, idle-or-busy grid at stack index 1 (self of a method). */
lgrid *astar_checkgrid(lua_State *L, const afn *f);
/* Raises unless no search runs on the grid (edits from callbacks). */
void astar_checkidle(lua_State *L, lgrid *lg, const char *what);
/* Creates the grid's search context if needed (raises on ENOMEM). */
astar_search *astar_gridsearch(lua_State *L, lgrid *lg);

/* Adds methods to the method table (__index) of the metatable 'tname'. */
void astar_addmethods(lua_State *L, const char *tname, const luaL_Reg *l);

/* Is the value at idx callable (a function, or has a __call metamethod)? */
int astar_iscallable(lua_State *L, int idx);

/* ---- distance fields (src/lua/field.c) ---- */
typedef struct astar_fieldspec {
  int kind;              /* ASTAR_PATH_GRID or ASTAR_PATH_GRAPH */
  int w, h;              /* kind GRID: the grid's size; engine node of cell (x, y),
                         ** 0-based, is (y + 1) * (w + 2) + (x + 1) */
  uint32_t nnodes;       /* engine node count (GRAPH: node id - 1 is the engine node) */
  const double *xy;      /* GRAPH: 2 * nnodes positions, NaN for none (copied), or NULL */
} astar_fieldspec;
/* Pushes a new Field holding, for every closed node of the finished search
** 's' (a search from the sources along reversed edges), its distance and the
** next node toward the nearest source (the node's parent in 's'). */
void astar_pushfield(lua_State *L, const astar_fieldspec *spec, const astar_search *s);
/* The Field at idx or NULL; if not NULL, *kind, *nnodes and *dist (per engine
** node, HUGE_VAL where unreached) describe it. */
int astar_tofield(lua_State *L, int idx, int *kind, uint32_t *nnodes, const double **dist);

/* ---- time-sliced queries (src/lua/query.c) ---- */
#define ASTAR_QUERY_MT "astar.Query"
typedef struct lquery lquery;
/*
** What a map kind provides for its queries. Each runs in a protected frame
** whose stack holds: 1 the query, 2 the cost callback or nil, 3 the heuristic
** callback or nil (see astar_query_callbacks).
** open(L, q): raises if the map was closed; returns its edit version.
** begin(L, q): prepares the kind's domain and calls astar_search_begin*.
**   Returns 0, or a status (ASTAR_BLOCKED ...) that ends the query at once.
** report(L, q, rc): pushes what find would return for outcome rc; returns
**   the number of values (the search context is still attached).
** busy(q): the map's busy flag.
** bind(L, q): points the kind's callback hooks at this frame (called before
**   begin and before every step: the thread and the frame change).
*/
typedef struct astar_queryops {
  const char *what;                              /* "grid", "graph", ... */
  uint64_t (*open)(lua_State *L, lquery *q);
  int (*begin)(lua_State *L, lquery *q);
  int (*report)(lua_State *L, lquery *q, int rc);
  int *(*busy)(lquery *q);
  astar_pool *(*pool)(lquery *q);               /* NULL once the map is closed */
  void (*bind)(lua_State *L, lquery *q);
} astar_queryops;

struct lquery {
  const astar_queryops *ops;
  astar_search *s;       /* NULL when finished or cancelled */
  int status;            /* Q_* in query.c */
  int stale_mode;        /* on_change = "stale" */
  int has_cb;            /* callbacks to run under protection */
  uint64_t version;      /* the map's version when the search (re)started */
  unsigned restarts;
  double kind[1];        /* kind-specific data (struct hack, aligned) */
};

/*
** Pushes a new Query for 'ops' with 'extra' bytes of kind data (q->kind),
** whose user value table holds [1] the map (stack index 'map'), [2] cost,
** [3] heuristic callbacks (stack indices, or 0).
*/
lquery *astar_newquery(lua_State *L, const astar_queryops *ops, size_t extra, int map,
                       int cost, int heur);

void astar_path_open(lua_State *L);
void astar_query_open(lua_State *L);     /* src/lua/query.c */
void astar_replanner_open(lua_State *L); /* src/lua/replanner.c (after grid) */
void astar_grid_open(lua_State *L);
void astar_graph_open(lua_State *L);     /* src/lua/graph.c */
void astar_field_open(lua_State *L);     /* src/lua/field.c */
void astar_implicit_open(lua_State *L);  /* src/lua/implicit.c */
void astar_navmesh_open(lua_State *L);   /* src/lua/navmesh.c */

#endif
