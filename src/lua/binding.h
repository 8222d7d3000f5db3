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
/* A method's self: the userdata of metatable 'mt' at index 1, or "calling
** 'fname' on bad self (<label> expected, got <type>)". */
void *astar_checkself(lua_State *L, const char *mt, const char *fname, const char *label);
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
/* Finite but beyond ASTAR_NUM_MAX: refused with its own words, ASTAR_BIG. */
int astar_big(double v);
#define ASTAR_BIG "at most 1e+100 in magnitude, so that sums stay finite"
/* Raises "bad argument #idx to 'f' (<what> is too large: v (ASTAR_BIG))" if astar_big(v). */
void astar_checkbig(lua_State *L, const afn *f, int idx, const char *what, double v);
/* A cell value: number > 0 and finite, true (1) or false (0 = blocked). */
double astar_checkcost(lua_State *L, const afn *f, int idx);
/* ---- options (src/lua/options.c): one row per option, one message per rule ---- */
enum {
  ASTAR_OPT_ALGORITHM, ASTAR_OPT_DIAGONAL, ASTAR_OPT_HEURISTIC, ASTAR_OPT_COST,
  ASTAR_OPT_WEIGHT, ASTAR_OPT_MAX_EXPANSIONS, ASTAR_OPT_MAX_COST, ASTAR_OPT_PARTIAL,
  ASTAR_OPT_GOALS, ASTAR_OPT_WITHIN, ASTAR_OPT_ON_CHANGE, ASTAR_OPT_RADIUS,
  ASTAR_OPT_INCLUDE, ASTAR_OPT_EXCLUDE, ASTAR_OPT_SCALE, ASTAR_OPT_TILE,
  ASTAR_OPT_START, ASTAR_OPT_GOAL, ASTAR_OPT_NEIGHBORS, ASTAR_OPT_IS_GOAL, ASTAR_OPT_KEY,
  ASTAR_OPT_DIRECTED, ASTAR_OPT_RATIO, ASTAR_OPT_ONEWAY, ASTAR_OPT_PULL,
  ASTAR_OPT_OVERLAY, ASTAR_OPT_OVERLAY_SCALE, ASTAR_OPT_SIZE,
  ASTAR_OPT_HEADING, ASTAR_OPT_GOAL_HEADING, ASTAR_OPT_TURNING, ASTAR_OPT_HEADINGS,
  ASTAR_OPT_NEIGHBORHOOD, ASTAR_OPT_REVERSE, ASTAR_OPT_TURN_COST, ASTAR_OPT_THREADS,
  ASTAR_OPT_RESERVE, ASTAR_OPT_UNIT, ASTAR_OPT_START_TIME, ASTAR_OPT_WAIT, ASTAR_OPT_WINDOW,
  ASTAR_OPT_CLAIM, ASTAR_OPT_REFINE, ASTAR_OPT_CLUSTER, ASTAR_OPT_AUTO,
  ASTAR_OPT_N
};
/* An option an entry point accepts: its id, and where the entry point
** narrows the row: 'type' (0: the row's; 1 OT_ENUM, 4 OT_FUNCTION as in
** options.c) and the enum's 'names' (NULL: the row's). Lists end with id -1. */
typedef struct astar_optuse {
  int id;
  int type;
  const char *const *names;
} astar_optuse;
#define ASTAR_OPT_END {-1, 0, NULL}
#define ASTAR_OT_ENUM 1
#define ASTAR_OT_FUNCTION 4
/* The options as read: given[id], their value v[id] (a number, an enum's
** index or a boolean), and fn[id], the stack index of a value kept on the
** stack (callbacks, tables; 0: none). idx: the options argument. */
typedef struct astar_opts {
  unsigned char given[ASTAR_OPT_N];
  double v[ASTAR_OPT_N];
  int fn[ASTAR_OPT_N];
  int idx;
} astar_opts;
/* Reads the options table at 'idx' (none or nil: no options) for an entry
** point accepting 'use'; raises with the row's message. */
void astar_readopts(lua_State *L, const afn *f, int idx, const astar_optuse *use,
                    astar_opts *o);
/* The value of option 'id', or 'dflt' when not given. */
double astar_opt(const astar_opts *o, int id, double dflt);
/* Option 'id' (a number option), 'dflt' when not given: raises unless it is
** an integer in [lo, hi]. */
int astar_opt_int(lua_State *L, const afn *f, const astar_opts *o, int id, int lo, int hi,
                  int dflt);
/* Copies weight, max_expansions, max_cost and partial into p. */
void astar_opt_params(const astar_opts *o, astar_params *p);
/* The option 'size' (a number n, or {w, h}; integers in [1, ASTAR_GRID_SIZE_MAX])
** into *w, *h; 0, 0 when not given. Raises with the option's message, also
** when 'radius' comes too. */
void astar_opt_size(lua_State *L, const afn *f, const astar_opts *o, int *w, int *h);
/* Raises "bad argument #<options> to 'f' (<formatted>)". */
int astar_opterror(lua_State *L, const afn *f, const astar_opts *o, const char *fmt, ...);
/* A positional enum argument: "<what>: string expected, got T" or
** "<what>: invalid value 'v'" (the same rule as the option's). */
int astar_checkenum(lua_State *L, const afn *f, int idx, const char *what,
                    const char *const *list);
/* "no_corner_cutting", "never", "always", "one_obstacle" (ASTAR_DIAG_*). */
const char *const *astar_diagonals(void);

/* Pushes nil, the formatted message and 'code' (an outcome); returns 3. */
int astar_outcome(lua_State *L, const char *code, const char *fmt, ...);
/* Converts a value at 'idx' to a cell cost; returns -1 if it is not one. */
double astar_tocost(lua_State *L, int idx);
/* The allocator the core gets, and its userdata: it counts the bytes. */
astar_alloc astar_allocator(lua_State *L, void **ud);
/* Has the collector do a step as large as what the core allocated since the
** last call (if a megabyte or more): the collector cannot see that memory.
** Call it where nothing is held, the results on the stack. */
void astar_gc_settle(lua_State *L);
/* Raises the Lua error that matches a negative core status. */
int astar_raise(lua_State *L, int status);

/* Path kinds: what a point is. */
enum {
  ASTAR_PATH_GRID = 0,   /* 2 numbers a point: x, y (1-based integers) */
  ASTAR_PATH_GRAPH,      /* 3 numbers a point: node id (1-based), x, y (NaN: no position) */
  ASTAR_PATH_VALUES,     /* 1 number a point: index into the path's user value table,
                         ** which holds the Lua node values (implicit graphs) */
  ASTAR_PATH_MESH,       /* 2 numbers a point: x, y; the user value is the corridor,
                         ** a list of polygon indices (navmeshes) */
  ASTAR_PATH_POSE        /* 3 numbers a point: x, y, heading; the user value holds
                         ** the moves between them (src/lua/grid_dir.c) */
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
/* Pops a table {[i] = cost} of the steps i -> i + 1 that take a link and
** gives it to the grid (or smoothed, or any-angle) Path at idx (Path:link). */
void astar_path_setlinks(lua_State *L, int idx);
/* Pops the list of polygons a navmesh Path at idx crosses and gives it to
** the path (Path:corridor). */
void astar_path_setcorridor(lua_State *L, int idx);
/* Pops the table of moves (src/lua/grid_dir.c) and gives it to the Path of
** poses at idx. */
void astar_path_setposes(lua_State *L, int idx);
/* The 3n numbers (x, y, heading) of the Path of poses at idx, and n; or NULL. */
double *astar_path_poses(lua_State *L, int idx, size_t *n);
/* curve.c: pushes a Curve, a copy of c. */
void astar_pushcurve(lua_State *L, const astar_curve *c);
/* grid_dir.c: pushes the points every 'step' along the moves of the Path of
** poses at index 1, as a flat list. */
int astar_path_pose_flat(lua_State *L, double step);
/* The statistics, algorithm and goal index of the Path at idx (any kind). */
void astar_path_info(lua_State *L, int idx, astar_stats *st, long *goal);
/* Marks which steps of the grid Path at idx take one of g's links (the
** cheaper move when a step could also walk; src/lua/grid_link.c). */
void astar_path_marklinks(lua_State *L, int idx, const astar_grid *g, int diagonal);
/* The same for an any-angle Path of cell centres (Theta*) whose segments are
** straight lines clear for radius r, or links: a segment is the link when
** its line is not clear or costs more (src/lua/grid_link.c). */
void astar_path_marklinks_lines(lua_State *L, int idx, const astar_grid *g, double r);
/* Sets [k] = cost in the table of link marks on top of the stack, which the
** first call (*made == 0) pushes; astar_path_setlinks then hands it over. */
void astar_linkmark(lua_State *L, int *made, size_t k, double cost);

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
/* The points x, y of a Path of points (navmesh, smoothed, any-angle) at idx,
** or NULL. */
double *astar_path_mesh(lua_State *L, int idx, size_t *n);

/* The points x, y of a Path in cell numbers (a grid path, or a smoothed or
** any-angle one: not a navmesh path), or NULL. */
double *astar_path_cellpoints(lua_State *L, int idx, size_t *n);

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

/* ---- the search pipeline (src/lua/find.c): one find/query for every map kind ---- */
typedef struct astar_kind astar_kind;

/* The head of every map userdata (Grid, Graph, NavMesh): what the pipeline
** needs of a map, whatever its kind. */
typedef struct lmap {
  const astar_kind *kind;
  void *core;            /* the core map; NULL once closed */
  astar_search *s;       /* find's search context, made on first use */
  int busy;              /* how many holds: a method builds results or runs
                         ** callbacks; meanwhile the map may not be searched,
                         ** edited or closed (astar_map_hold) */
  astar_pool pool;       /* idle contexts for queries */
  void *rec;             /* find's search record (kind->recsize bytes) */
} lmap;

/* How a search's outcome becomes results (astar_report): 'rec' is the
** search record the functions get. */
typedef struct astar_reporter {
  /* Pushes the Path of a search that ended with status rc: FOUND, or
  ** NO_PATH / LIMIT when a partial path was asked for. Returns the number
  ** of results: 0 (pushes nothing) when no partial path was asked for. */
  int (*push)(lua_State *L, void *rec, astar_search *s, int rc);
  /* Pushes the message of ASTAR_BLOCKED (which end, and why). */
  void (*blocked)(lua_State *L, void *rec);
  /* Pushes end 'which' (0 start, 1 goal) as messages name it, "(3, 4)" or
  ** "node 3"; for a goal list pushes nothing and returns 0 ("any goal"). */
  int (*endname)(lua_State *L, void *rec, int which);
} astar_reporter;
/* Pushes the results for the final status rc: a Path; nil, message, code;
** or a partial Path, message, "partial". Raises for an error status. */
int astar_report(lua_State *L, const astar_reporter *r, void *rec, astar_search *s, int rc);

/*
** A map kind. 'rec' is the kind's search record: the core query (options,
** domain), the ends, and whatever the report needs. find uses the map's
** own (lmap.rec); a query has its own inside the Query userdata.
*/
struct astar_kind {
  const char *name;                /* "grid": messages */
  const char *mt;                  /* its metatable */
  const astar_optuse *find_opts;   /* the options of find */
  const astar_optuse *query_opts;  /* the options of query (find's + on_change) */
  size_t recsize;
  /* Reads the ends (arguments 2..) and the options ('use') into rec, which
  ** it resets. Returns the stack index of a value rec points into (a goal
  ** list) that a query must keep alive, or 0. */
  int (*args)(lua_State *L, const afn *f, lmap *m, void *rec, const astar_optuse *use,
              astar_opts *o);
  /* Points rec's callback hooks at the trampolines reading 'c' (NULL: none). */
  void (*hook)(void *rec, lcall *c);
  /* Prepares rec's domain and begins the search in s: 0, or the status
  ** that ends it at once (ASTAR_BLOCKED, ASTAR_NO_PATH ...). */
  int (*begin)(lmap *m, void *rec, astar_search *s);
  /* At most 'budget' expansions (NULL: astar_search_step). */
  int (*step)(lmap *m, void *rec, astar_search *s, uint64_t budget);
  astar_reporter report;            /* the results of a finished search */
  uint64_t (*version)(const lmap *m);
  /* The statistics of the search on rec (NULL: those of its context). */
  void (*stats)(void *rec, astar_search *s, astar_stats *st);
  void (*recfree)(void *rec);      /* frees what a rec owns (NULL: nothing) */
  void (*release)(lmap *m);        /* frees the core map and the kind's own data */
  /* Whether the edits since version 'since' may change the answer of the
  ** running search on rec (NULL: every edit may). */
  int (*affected)(lmap *m, void *rec, astar_search *s, uint64_t since);
  /* A search node as Lua sees it: sets out[] and returns how many numbers
  ** (a grid: x, y; a graph: the node id). NULL: its nodes are not listed. */
  int (*node)(const lmap *m, uint32_t id, double out[2]);
};

/* Sets up the userdata's head (before its metatable is set). */
void astar_map_init(lmap *m, const astar_kind *k, void *rec);
/* The open map of kind k at index 1 (self of a method). */
lmap *astar_checkmap(lua_State *L, const astar_kind *k, const afn *f);
/* Raises "cannot <what> the <kind>: ..." while a search runs on the map. */
void astar_map_idle(lua_State *L, const lmap *m, const char *what);
/* After a Lua allocation in a method that does not hold the map (a
** finalizer may have closed it): raises "attempt to use a closed <kind>". */
void astar_map_alive(lua_State *L, const lmap *m);
/* Raises "cannot search: a search on this <kind> is already running". */
void astar_map_searchable(lua_State *L, const lmap *m);
/* Pushes {allocations = , edits = }: 'allocs' of the core map plus those of
** the map's context and of 'extra' (NULL: none); edits, the kind's version. */
int astar_map_stats(lua_State *L, lmap *m, size_t allocs, const astar_search *extra);
/* The map's own search context, made if needed (raises on ENOMEM). */
astar_search *astar_map_search(lua_State *L, lmap *m);
/* find and query of a kind: the whole Lua function. */
int astar_map_find(lua_State *L, const astar_kind *k);
int astar_map_query(lua_State *L, const astar_kind *k);
/* __gc of every kind (releases unless a search runs on the map). */
int astar_map_gc(lua_State *L);
/* close and __close of kind k: idempotent; raises while a search runs. */
int astar_map_close(lua_State *L, const astar_kind *k);
/* Runs body(L, ud) with the map held: busy, so that callbacks and the
** finalizers any Lua allocation may run cannot close, edit or search it,
** under lua_pcall, so that busy is cleared however body ends (an error
** propagates unchanged). body sees the method's stack as it was (same
** indices) and returns its results; so does this. Call it last. */
int astar_map_hold(lua_State *L, lmap *m, int (*body)(lua_State *L, void *ud), void *ud);
/* The same with any busy counter, and a second one ('also', or NULL). */
int astar_hold(lua_State *L, int *busy, int *also, int (*body)(lua_State *L, void *ud),
               void *ud);
/* Registers what astar_map_hold needs (luaopen). */
void astar_hold_open(lua_State *L);
/* Fills c for the callbacks at stack indices cost and heur (0: none);
** returns c, or NULL when there are none. */
lcall *astar_lcall(lua_State *L, lcall *c, int cost, int heur);
/* The form (start..., {goals = ...}): if argument idx is a table and the
** last, reads it as the options (raising unless it has 'goals') and
** returns 1; else returns 0 and reads nothing. */
int astar_goalsform(lua_State *L, const afn *f, int idx, const astar_optuse *use,
                    astar_opts *o);
/* Reads the options at idx that follow a goal given as arguments; raises if
** they hold 'goals' too. */
void astar_goalopts(lua_State *L, const afn *f, int idx, const astar_optuse *use,
                    astar_opts *o);
/* Validates a cost callback's result on top and pops it: the cost, or -1
** for nil/false (forbidden); raises "cost callback returned X for <what>
** (expected ...)" with <what> formatted from fmt. zero_ok: 0 is a cost. */
double astar_cbcost(lua_State *L, int zero_ok, const char *fmt, ...);
/* The same for a heuristic callback's result (>= 0, finite). */
double astar_cbheur(lua_State *L, const char *fmt, ...);

/* A path a search found, as the grid's Path maker reads it: its nodes, cost
** and statistics, and each node's cost from the start in g (NULL: read them
** from the search context s). */
typedef struct astar_found {
  const uint32_t *nodes;
  long n;
  double cost;
  astar_stats st;
  const double *g;
  const astar_search *s;
} astar_found;

/* The Grid userdata (src/lua/grid.c); find's search record follows it. */
typedef struct lgrid {
  lmap m;              /* the pipeline's head (m.core == g) */
  astar_grid *g;       /* NULL once closed */
  astar_lattice *lat;  /* the last directional search's moves (grid_dir.c), or NULL */
  astar_frame world;   /* cell (x, y) in world units (grid_world.c); {1, 1, 0, 0} */
  int follows;         /* a movement class (grid_class.c): not edited directly */
  int classes;         /* classes were made of it: its edits go to them */
  struct astar_gsnap *snap;  /* the last snapshot for worker threads (workers.c), or NULL */
#define ASTAR_GRID_HIERS 8
  astar_hier *hier[ASTAR_GRID_HIERS];  /* abstractions (grid_hier.c), the last used first */
  double hauto;        /* "auto" searches the abstraction for ends this far apart; < 0: never */
  int hauto_diag;      /* ... for this policy (grid:hierarchy{auto = ...}) */
} lgrid;

/* ---- grid searches on worker threads (src/lua/workers.c; grid.c's part) ---- */
/* A grid search record for a worker (astar_grid_worksize() bytes, aligned as
** a double): find's options at idx ('which': 0 find's, 1 with 'threads' (batch),
** 2 with 'on_change' (submit)) read into rec, refusing what a worker cannot run:
** Lua callbacks and tables, a radius or a size, the directional algorithms. */
size_t astar_grid_worksize(void);
void astar_grid_workopts(lua_State *L, const afn *f, lgrid *lg, int idx, int which,
                         astar_opts *o, void *rec);
/* Sets the ends (0-based) of a worker's record. */
void astar_grid_workends(void *rec, int sx, int sy, int gx, int gy);
/* On a worker thread: prepares rec's query on g (ready: astar_grid_ready) and
** begins the search in s; 0 or the status that ends it. */
int astar_grid_workbegin(astar_grid *g, void *rec, astar_search *s);
/* Whether a search that ended with rc gives a path (found, or partial). */
int astar_grid_workwants(const void *rec, int rc);
/* Pushes the results of a worker's search that ended with rc (res: its path
** when astar_grid_workwants) as grid:find does. */
int astar_grid_workreport(lua_State *L, void *rec, const astar_found *res, int rc);
/* A snapshot shared by the grid and the requests searching it (workers.c):
** drops the grid's reference. */
void astar_gsnap_drop(lgrid *lg);
/* malloc's allocator (thread-safe, unlike a Lua state's) */
void *astar_sysalloc(void *ud, void *ptr, size_t osize, size_t nsize);

/* A directional search (src/lua/grid_dir.c), part of the grid's search record. */
typedef struct lgdir {
  int on;                  /* algorithm "directional" (1) or "hybrid" (2) */
  astar_dir_params p;
  astar_dir_query q;
  astar_lattice *lat;      /* held from begin until the next begin or astar_gdir_free */
  astar_search *back;      /* the heuristic's backward search (grid_dir.c), or NULL */
  astar_dir_seen seen;     /* the costs the search met (grid_dir.c) */
  double sh, gh;           /* the headings asked for (NaN: any) */
  astar_alloc alloc;
  void *ud;
} lgdir;
/* Reads the directional options (on: the algorithm is "directional"; else
** raises if any is given, and when on for the options that mean nothing). */
void astar_gdir_args(lua_State *L, const afn *f, const astar_opts *o, int on, lgdir *d);
/* The grid kind's begin, push and recfree for a directional search. */
int astar_gdir_begin(lgrid *lg, lgdir *d, int sx, int sy, int gx, int gy, astar_search *s);
int astar_gdir_push(lua_State *L, lgdir *d, astar_search *s, int rc);
void astar_gdir_free(lgdir *d);

/* A hierarchical search (src/lua/grid_hier.c), part of the grid's search record. */
typedef struct lghier {
  int on;                  /* algorithm "hierarchical" */
  int refine;              /* option 'refine': fill the path in (else: its nodes' cells) */
  int diagonal;
  astar_params params;
  astar_hier_query q;
} lghier;
/* Reads what find's options mean for a hierarchical search (raising for
** those it cannot take) into r, and turns it on. */
void astar_ghier_args(lua_State *L, const afn *f, const astar_opts *o, const lgrid *lg,
                      lghier *r, int diagonal);
/* For a search under algorithm "auto" (given or not): turns r on as
** astar_ghier_args would if lg's user allowed it (grid:hierarchy{auto = d}) for this policy,
** the ends are at least d apart, and no option it cannot take was given. */
void astar_ghier_auto(lua_State *L, const afn *f, const astar_opts *o, const lgrid *lg,
                      lghier *r, int diagonal, int sx, int sy, int gx, int gy);
/* The grid kind's begin and push for it; the abstractions' release. */
int astar_ghier_begin(lgrid *lg, lghier *r, int sx, int sy, int gx, int gy, astar_search *s);
int astar_ghier_push(lua_State *L, lghier *r, astar_search *s, int rc);
void astar_ghier_free(lgrid *lg);

/* Cooperative paths (src/lua/grid_coop.c), part of the grid's search record. */
typedef struct lresv {
  astar_resv *r;           /* NULL once closed */
} lresv;
typedef struct lcoop {
  int on;                  /* option 'reserve' given */
  int claim;               /* reserve the path found for the unit */
  astar_coop_query cq;
  astar_search *back;      /* the heuristic's backward search, or NULL */
  lresv *lr;               /* the table (the options keep it on the stack) */
} lcoop;
/* Reads the cooperative options (raises for those that need 'reserve'
** without it, and for the options that do not combine with it). */
void astar_gcoop_args(lua_State *L, const afn *f, const astar_opts *o, lgrid *lg, lcoop *c,
                      const astar_grid_query *q);
/* The grid kind's begin, push, blocked message and recfree for them. */
int astar_gcoop_begin(lgrid *lg, lcoop *c, int sx, int sy, int gx, int gy, astar_search *s);
int astar_gcoop_push(lua_State *L, lcoop *c, astar_search *s, int rc);
void astar_gcoop_blocked(lua_State *L, const lcoop *c);
void astar_gcoop_free(lcoop *c);
/* path.c: the time of a grid Path's first point, the points the search
** planned (the rest: WHCA*'s way on) and whether the unit then holds its
** goal; astar_path_time: 1 and those if the Path at idx has times, else 0. */
void astar_path_settime(lua_State *L, int idx, long t0, size_t planned, int holds);
int astar_path_time(lua_State *L, int idx, long *t0, size_t *planned, int *holds);
void astar_grid_coop_open(lua_State *L);   /* src/lua/grid_coop.c (after grid and path) */

/* Pushes a new grid of the size and cost at 1..3 (astar.grid's rules; f names the
** function, 'world' is the index of a world table to skip, or 0). */
lgrid *astar_grid_construct(lua_State *L, const afn *f, int world);
/* grid_hex.c: raises "<what>: not for a hex grid" when lg is one. */
void astar_grid_square(lua_State *L, const lgrid *lg, const char *what);
/* grid_hex.c: raises for the options a hex grid has no use for (lg at index 1). */
void astar_grid_hexopts(lua_State *L, const afn *f, const lgrid *lg, const astar_opts *o);
/* Pushes a new grid userdata, closed (g NULL) until the caller gives it a core grid. */
lgrid *astar_pushgrid(lua_State *L);
/* grid_class.c: raises unless the grid at index 1 (lg) may be edited now: not
** busy, not a class, none of its classes busy. */
void astar_grid_check_editable(lua_State *L, lgrid *lg);
/* grid_class.c: makes the edit of lg's rectangle to each of its classes. */
void astar_grid_sync_classes(lua_State *L, lgrid *lg, int x, int y, int w, int h);

/* The open, idle-or-busy grid at stack index 1 (self of a method). */
lgrid *astar_checkgrid(lua_State *L, const afn *f);
/* Pushes a new grid userdata of w x h cells of 'cost' (errors name argument
** idx of f). */
lgrid *astar_newgrid(lua_State *L, const afn *f, int idx, int w, int h, double cost);
/* Creates the grid's search context if needed (raises on ENOMEM). */
astar_search *astar_gridsearch(lua_State *L, lgrid *lg);

/* Makes the metatable 'tname' with 'meta' and the method table 'methods'
** (its __index); with a 'name', sets core[name] = methods and
** core[name .. "_mt"] = the metatable (core on top of the stack). */
void astar_newclass(lua_State *L, const char *tname, const char *name,
                    const luaL_Reg *meta, const luaL_Reg *methods);
/* Adds methods to the method table (__index) of the metatable 'tname'. */
void astar_addmethods(lua_State *L, const char *tname, const luaL_Reg *l);

/* Is the value at idx callable (a function, or has a __call metamethod)? */
int astar_iscallable(lua_State *L, int idx);

/* The Graph userdata; find's search record follows it. */
typedef struct lgraph {
  lmap m;              /* the pipeline's head (m.core == g) */
  astar_graph *g;      /* NULL once closed */
  astar_search *back;  /* the backward context of bidirectional finds */
} lgraph;

/* The open graph at stack index 1 (self of a method). */
lgraph *astar_checkgraph(lua_State *L, const afn *f);
/* What the value at idx is as a node id of 'g': 0 and *id (0-based) if a
** live or disabled node; else 1 (not an integer), 2 (unknown) or 3 (removed). */
int astar_graph_tonode(lua_State *L, const astar_graph *g, int idx, uint32_t *id);
/* Points q's callback hooks at the graph trampolines reading c (NULL: none). */
void astar_graph_hook(astar_graph_query *q, lcall *c);

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
/* The options' overlay (a grid Field of a w x h grid, no value below 0) into q's
** overlay and overlay_scale; raises with the option's message. */
void astar_setoverlay(lua_State *L, const afn *f, const astar_opts *o, int w, int h,
                      astar_grid_query *q);

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
  /* at most 'budget' expansions (NULL: astar_search_step) */
  int (*step)(lquery *q, uint64_t budget);
  void (*free)(lquery *q);                      /* at __gc (NULL: nothing) */
  void (*stats)(lquery *q, astar_stats *st);    /* NULL: the context's */
  /* whether the edits since version 'since' may change the running search's
  ** answer (NULL: every edit may) */
  int (*affected)(lquery *q, uint64_t since);
  /* a node of the search as numbers (astar_kind.node); 0: not listed, -1:
  ** the map was closed */
  int (*node)(lquery *q, uint32_t id, double out[2]);
} astar_queryops;

struct lquery {
  const astar_queryops *ops;
  const char *what;      /* the map's kind, for messages (ops->what) */
  astar_search *s;       /* NULL when finished or cancelled */
  int status;            /* Q_* in query.c */
  int on_change;         /* ASTAR_ON_* */
  int has_cb;            /* callbacks to run under protection */
  uint64_t version;      /* the map's version the search has taken in: when it
                         ** (re)started, or when later edits proved harmless */
  unsigned restarts;
  double kind[1];        /* kind-specific data (struct hack, aligned) */
};

/* on_change: what an edit that may change a running query's answer does
** (edits that cannot are ignored, and "continue" ignores them all). */
enum { ASTAR_ON_RESTART = 0, ASTAR_ON_STALE, ASTAR_ON_CONTINUE };

/*
** Pushes a new Query for 'ops' with 'extra' bytes of kind data (q->kind),
** whose user value table holds [1] the map (stack index 'map'), [2] cost,
** [3] heuristic callbacks (stack indices, or 0).
*/
lquery *astar_newquery(lua_State *L, const astar_queryops *ops, size_t extra, int map,
                       int cost, int heur);
/* Keeps the callbacks at stack indices cost and heur (0: none) and the
** value at 'keep' (0: none) with the Query at 'qi'. */
void astar_query_keep(lua_State *L, int qi, int cost, int heur, int keep);

void astar_path_open(lua_State *L);
void astar_query_open(lua_State *L);     /* src/lua/query.c */
void astar_replanner_open(lua_State *L); /* src/lua/replanner.c (after grid) */
void astar_grid_open(lua_State *L);
void astar_grid_load_open(lua_State *L); /* src/lua/grid_load.c */
void astar_grid_class_open(lua_State *L); /* src/lua/grid_class.c */
void astar_grid_hex_open(lua_State *L);   /* src/lua/grid_hex.c */
void astar_grid_wrap_open(lua_State *L);  /* src/lua/grid_wrap.c */
void astar_grid_link_open(lua_State *L); /* src/lua/grid_link.c (after grid) */
/* The NavMesh at 1 (raises if it is not one or is closed), its map head into
** *map (src/lua/navmesh.c). */
astar_navmesh *astar_checknavmesh(lua_State *L, const afn *f, const lmap **map);
/* A finite number within ASTAR_BIG (a navmesh coordinate; src/lua/navmesh.c). */
double astar_checkfinite(lua_State *L, const afn *f, int idx);
void astar_navmesh_link_open(lua_State *L); /* src/lua/navmesh_link.c (after navmesh) */
/* Gives the navmesh Path at idx the link marks 'steps' (n of them, as
** astar_navmesh_steplinks; NULL: none) for Path:link (src/lua/navmesh_link.c). */
void astar_path_meshlinks(lua_State *L, int idx, const double *steps, size_t n);
void astar_grid_line_open(lua_State *L); /* src/lua/grid_line.c (after grid and path) */
void astar_grid_dir_open(lua_State *L);  /* src/lua/grid_dir.c (after path) */
void astar_grid_world_open(lua_State *L); /* src/lua/grid_world.c (after grid) */
void astar_grid_hier_open(lua_State *L);  /* src/lua/grid_hier.c (after grid) */
/* Sets lg's world frame from the table at idx (Grid:set_world's rules). */
void astar_grid_setworld(lua_State *L, const afn *f, int idx, lgrid *lg);
void astar_curve_open(lua_State *L);     /* src/lua/curve.c */
void astar_workers_open(lua_State *L);   /* src/lua/workers.c (after grid and path) */
void astar_graph_open(lua_State *L);     /* src/lua/graph.c */
void astar_field_open(lua_State *L);     /* src/lua/field.c */
void astar_implicit_open(lua_State *L);  /* src/lua/implicit.c */
void astar_navmesh_open(lua_State *L);   /* src/lua/navmesh.c */

#endif
