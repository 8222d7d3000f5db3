/*
** implicit.c - astar.search: the engine over a state space that Lua
** describes with callbacks (an implicit graph).
**
** Nodes are Lua values. The search gives them dense engine ids in the order
** it meets them (start first, then the goals, then as 'emit' reports them):
** a 'keys' table maps key -> id and a 'values' table maps id + 1 -> the
** first value met with that key. Both live on the stack of the protected
** frame that runs the search (and in the upvalues of its 'emit'), so a Lua
** error raised by any callback unwinds without leaking: the engine holds
** nothing its search context does not own, and the context belongs to a
** userdata.
**
** astar.query runs the same search a slice at a time (src/lua/query.c): the
** values astar.search keeps on its protected frame (the P_* slots) live in
** the Query's user value table between steps, and every step lays them out
** again on its own frame, 'base' slots higher (see pushstate).
**
** Context: one search context is cached in an upvalue of astar.search and
** reused by every call (no C allocation once warm). A call made from inside
** a callback finds it busy and gets a fresh one, freed when that call ends.
** The cached context is freed after any search that met more than
** ASTAR_IMPLICIT_KEEP nodes: an implicit space can be huge, and one large
** query should not pin its memory for the life of the state.
*/
/***
An implicit graph: any state space that Lua callbacks describe. It is searched by
[astar.search](#astar.search) and, time-sliced, by [astar.query](#astar.query); there is no
object: the graph exists only in the callbacks.

When the nodes are not cells or ids but states (a unit's position and heading, a puzzle
board, a position and the keys collected so far), `neighbors(node, emit)` lists each
node's successors and their costs. Nodes are any Lua values but `nil` and NaN; the search
numbers them in the order it meets them. Values with the same key (`opts.key(node)`, or the
node itself: numbers and strings by value, tables by identity) are one node, and the first
value met stands for it in callbacks and in the path.

Each expansion calls `neighbors` and each successor `emit`, so a search costs what its
callbacks cost: use a @{Grid} or a @{Graph} when the map is one. Callback errors propagate
unchanged and leak nothing; callbacks may not yield, and may call `astar.search` again.
@classmod Implicit
*/
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "binding.h"

#if !defined(ASTAR_IMPLICIT_KEEP)
/* nodes a cached context may have grown to and still be kept (about 60 bytes a node) */
#define ASTAR_IMPLICIT_KEEP 65536
#endif

#define ASTAR_SEARCHCTX_MT "astar.SearchContext"

static const afn F_SEARCH = {"search", 0};
static const afn F_QUERY = {"query", 0};
static const afn F_EMIT = {"emit", 0};

static const char *const ALGORITHMS[] = {"astar", "dijkstra", "bfs", "greedy", NULL};

/* A search context, and the heuristic cache of 'within'; owned by a userdata. */
typedef struct ictx {
  astar_search *s;     /* created on first use; NULL once released */
  double *hc;          /* raw heuristic by node id, -1 while unknown ('within') */
  size_t chc;
  astar_alloc alloc;
  void *ud;
  int busy;            /* a search is running on this context */
} ictx;

/* What the caller's frame hands to the protected frame (lives on the C stack
** of astar.search, which outlives the protected call). */
typedef struct irun {
  astar_params p;
  double within;       /* >= 0, or -1: off */
  ictx *cx;
} irun;

/* The state of one search: a userdata (no metatable) that is also the first
** upvalue of its 'emit', so a stale 'emit' can still tell it is stale. The
** caller's frame holds it too, to clear 'active' when a callback raised. */
typedef struct ijob {
  lua_State *L;        /* the thread of the protected frame */
  const irun *run;
  astar_search *s;     /* dereferenced only while 'active' */
  astar_domain d;
  const uint32_t *goalids;  /* 'goals' as node ids, or NULL */
  const uint32_t *gidx;     /* node id -> 1-based index in 'goals', 0 if none */
  size_t ngoals, ngidx;
  uint32_t goal;       /* the id of 'goal', or ASTAR_NONE */
  uint32_t nids;       /* ids given out so far */
  size_t nedges;       /* edges emitted by the running neighbors call */
  size_t nhc;          /* entries of run->cx->hc valid for this search */
  int base;            /* the P_* slots are at base + P_* on the frame of j->L */
  int busy;            /* astar.search: always 1; astar.query: a step of the
                       ** query is running (the query's busy flag) */
  int active;          /* a neighbors call of this search is running */
  int haskey;          /* a key callback */
  int usergoal;        /* an is_goal callback */
} ijob;

/* Stack slots of astar.search's frame (1: the options; the others filled by
** readopts, nil when absent) and of the protected frame (1: the irun), which
** gets the same values at the same slots, then the job and its own tables.
** The hooks find them at j->base + P_* (astar.search: base 0). */
enum { O_START = 2, O_GOAL, O_GOALS, O_NEIGHBORS, O_HEUR, O_ISGOAL, O_KEY, O_LAST = O_KEY };
enum {
  P_RUN = 1, P_START, P_GOAL, P_GOALS, P_NEIGHBORS, P_HEUR, P_ISGOAL, P_KEY, P_JOB,
  P_KEYS, P_VALS, P_EMIT, P_SCRATCH
};



/* ---------------------------------------------------------------------- */
/* The context userdata                                                    */
/* ---------------------------------------------------------------------- */

static void ctx_release(ictx *cx) {
  astar_search_free(cx->s);
  cx->s = NULL;
  if (cx->hc != NULL) cx->alloc(cx->ud, cx->hc, cx->chc * sizeof *cx->hc, 0);
  cx->hc = NULL;
  cx->chc = 0;
}

static int ctx_gc(lua_State *L) {
  ictx *cx = (ictx *)lua_touserdata(L, 1);
  if (cx != NULL) ctx_release(cx);
  return 0;
}

/* Pushes a new, empty context userdata. */
static ictx *newctx(lua_State *L) {
  ictx *cx = (ictx *)lua_newuserdatauv(L, sizeof(ictx), 0);
  cx->s = NULL; cx->hc = NULL; cx->chc = 0; cx->busy = 0;
  cx->alloc = astar_allocator(L, &cx->ud);
  luaL_setmetatable(L, ASTAR_SEARCHCTX_MT);
  return cx;
}


/* ---------------------------------------------------------------------- */
/* Nodes                                                                   */
/* ---------------------------------------------------------------------- */

/* Raises unless the value at 'idx' may be a node: not nil, and not NaN
** unless a key callback turns it into a key. 'what' names it in messages. */
static void checknode(lua_State *L, const afn *f, int arg, int idx, int haskey,
                      const char *what) {
  if (lua_isnil(L, idx)) {
    if (f == &F_EMIT) astar_argerror(L, f, arg, "node expected, got nil");
    astar_argerror(L, f, arg, "%s is nil", what);
  }
  if (!haskey && lua_type(L, idx) == LUA_TNUMBER) {
    lua_Number x = lua_tonumber(L, idx);
    if (x != x) astar_argerror(L, f, arg, "%s is nan, which cannot be a key", what);
  }
}

/*
** The id of the node at 'idx', given one if it is new. 'keys', 'vals' and
** 'keyfn' (0: none) are indices of the key map, the value list and the key
** callback: stack slots or upvalues. May call the key callback.
*/
static uint32_t intern(lua_State *L, ijob *j, int idx, int keys, int vals, int keyfn) {
  uint32_t id;
  if (keyfn) {
    int t;
    lua_pushvalue(L, keyfn);
    lua_pushvalue(L, idx);
    lua_call(L, 1, 1);                               /* key */
    t = lua_type(L, -1);
    if (t != LUA_TSTRING) {
      char buf[32];
      lua_Number x = t == LUA_TNUMBER ? lua_tonumber(L, -1) : 0;
      if (t != LUA_TNUMBER || x != x)
        astar_error(L, "key callback returned %s (expected a number or a string)",
                    t == LUA_TNUMBER ? astar_fmtnum(buf, (double)x) : luaL_typename(L, -1));
    }
  } else {
    lua_pushvalue(L, idx);                           /* key */
  }
  lua_pushvalue(L, -1);
  lua_rawget(L, keys);                               /* key id|nil */
  if (lua_type(L, -1) == LUA_TNUMBER) {
    id = (uint32_t)lua_tonumber(L, -1);
    lua_pop(L, 2);
    return id;
  }
  lua_pop(L, 1);                                     /* key */
  if (j->nids >= 0x7ffffffe) astar_error(L, "too many nodes");
  id = j->nids++;
  /* the value first: if the key cannot be stored (out of memory, caught by a
  ** pcall in a callback), no key leads to an id without a value */
  lua_pushvalue(L, idx);
  lua_rawseti(L, vals, (int)id + 1);                 /* vals[id + 1] = node */
  lua_pushinteger(L, (lua_Integer)id);
  lua_rawset(L, keys);                               /* keys[key] = id */
  return id;
}


/* ---------------------------------------------------------------------- */
/* emit and the engine's hooks                                             */
/* ---------------------------------------------------------------------- */

/* emit(node, cost): upvalues job, keys, values, key callback (or nil). */
static int implicit_emit(lua_State *L) {
  ijob *j = (ijob *)lua_touserdata(L, lua_upvalueindex(1));
  astar_edge *e;
  uint32_t id;
  double c;
  if (!j->active || !j->busy) astar_error(L, "emit called outside of neighbors");
  checknode(L, &F_EMIT, 1, 1, j->haskey, "node");
  c = lua_type(L, 2) == LUA_TNUMBER ? (double)lua_tonumber(L, 2) : -1.0;
  astar_checkbig(L, &F_EMIT, 2, "cost", c);
  if (!(c > 0 && c < HUGE_VAL)) {
    char buf[32];
    astar_argerror(L, &F_EMIT, 2, "cost must be a positive finite number, got %s",
                   lua_type(L, 2) == LUA_TNUMBER ? astar_fmtnum(buf, (double)lua_tonumber(L, 2))
                                                 : luaL_typename(L, 2));
  }
  id = intern(L, j, 1, lua_upvalueindex(2), lua_upvalueindex(3),
              j->haskey ? lua_upvalueindex(4) : 0);
  if (j->nedges >= 0x7fffffff) astar_error(L, "too many edges from one node");
  e = astar_search_edges(j->s, j->nedges + 1);
  if (e == NULL) astar_raise(L, ASTAR_ENOMEM);
  e[j->nedges].to = id;
  e[j->nedges].cost = c;
  j->nedges++;
  return 0;
}

static int expand_cb(void *self, uint32_t node, astar_search *s) {
  ijob *j = (ijob *)self;
  lua_State *L = j->L;
  (void)s;
  lua_pushvalue(L, j->base + P_NEIGHBORS);
  lua_rawgeti(L, j->base + P_VALS, (int)node + 1);
  lua_pushvalue(L, j->base + P_EMIT);                /* neighbors node emit */
  j->nedges = 0;
  j->active = 1;
  lua_call(L, 2, 0);
  j->active = 0;
  return (int)j->nedges;
}

/* heuristic(node, goal): the goal is goals[gi + 1], or 'goal' if gi is ASTAR_NONE. */
static double callh(ijob *j, uint32_t node, uint32_t gi) {
  lua_State *L = j->L;
  double v;
  lua_pushvalue(L, j->base + P_HEUR);
  lua_rawgeti(L, j->base + P_VALS, (int)node + 1);
  if (gi == ASTAR_NONE) lua_pushvalue(L, j->base + P_GOAL);
  else lua_rawgeti(L, j->base + P_GOALS, (int)gi + 1);
  lua_call(L, 2, 1);
  v = lua_type(L, -1) == LUA_TNUMBER ? (double)lua_tonumber(L, -1) : -1.0;
  if (!(v >= 0 && v < HUGE_VAL)) {
    char buf[32];
    astar_error(L, "heuristic callback returned %s (expected a non-negative finite number)",
                lua_type(L, -1) == LUA_TNUMBER ? astar_fmtnum(buf, (double)lua_tonumber(L, -1))
                                               : luaL_typename(L, -1));
  }
  lua_pop(L, 1);
  return v;
}

/* The raw heuristic of 'node': the smallest over the goals. */
static double rawh(ijob *j, uint32_t node) {
  if (j->goalids != NULL) {
    double best = HUGE_VAL;
    size_t i;
    for (i = 0; i < j->ngoals; i++) {
      double h = callh(j, node, (uint32_t)i);
      if (h < best) best = h;
    }
    return best;
  }
  return callh(j, node, ASTAR_NONE);
}

/* The cache slot of node's raw heuristic ('within' only), grown on demand. */
static double *hslot(ijob *j, uint32_t node) {
  ictx *cx = j->run->cx;
  if (node >= j->nhc) {
    size_t need = j->nids, i;
    if (need > cx->chc) {
      size_t cap = cx->chc ? cx->chc : 64;
      double *p;
      while (cap < need) cap *= 2;
      p = (double *)cx->alloc(cx->ud, cx->hc, cx->chc * sizeof *cx->hc, cap * sizeof *p);
      if (p == NULL) astar_raise(j->L, ASTAR_ENOMEM);
      cx->hc = p;
      cx->chc = cap;
    }
    for (i = j->nhc; i < need; i++) cx->hc[i] = -1.0;
    j->nhc = need;
  }
  return &cx->hc[node];
}

static double heur_cb(void *self, uint32_t node) {
  ijob *j = (ijob *)self;
  double h = rawh(j, node), within = j->run->within;
  if (within >= 0) {
    /* a node within range ends the search: the goal region is 'within'
    ** nearer than the goal, and h - within stays admissible */
    *hslot(j, node) = h;
    h = h > within ? h - within : 0.0;
  }
  return h;
}

static int isgoal_cb(void *self, uint32_t node) {
  ijob *j = (ijob *)self;
  if (j->usergoal) {
    lua_State *L = j->L;
    int r;
    lua_pushvalue(L, j->base + P_ISGOAL);
    lua_rawgeti(L, j->base + P_VALS, (int)node + 1);
    lua_call(L, 1, 1);
    r = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return r;
  }
  if (node == j->goal || (node < j->ngidx && j->gidx[node] != 0)) return 1;
  if (j->run->within >= 0) {
    double *h = hslot(j, node);
    if (*h < 0) *h = rawh(j, node);
    return *h <= j->run->within;
  }
  return 0;
}


/* ---------------------------------------------------------------------- */
/* The protected frame                                                     */
/* ---------------------------------------------------------------------- */

/* Which goal of 'goals' (1-based) the search ended at: the node itself, or
** the first goal within range. 0 without a goals list. */
static long goalindex(ijob *j, uint32_t node) {
  size_t i;
  if (j->goalids == NULL) return 0;
  if (node < j->ngidx && j->gidx[node] != 0) return (long)j->gidx[node];
  for (i = 0; i < j->ngoals && j->run->within >= 0; i++)
    if (callh(j, node, (uint32_t)i) <= j->run->within) return (long)i + 1;
  return 0;
}

/* Pushes the path the context holds, as a Path whose points are node values. */
static void pushpath(lua_State *L, ijob *j, int found) {
  const uint32_t *nodes;
  double cost, *v;
  astar_stats st;
  long goal = found ? goalindex(j, astar_search_end(j->s)) : 0;   /* may call Lua */
  long n = astar_search_path(j->s, &nodes, &cost), i;
  if (n < 0) astar_raise(L, (int)n);
  astar_search_stats(j->s, &st);
  v = astar_newpath(L, (size_t)n, ASTAR_PATH_VALUES, cost, &st,
                    ALGORITHMS[j->run->p.algorithm], goal);
  lua_createtable(L, (int)n, 0);                     /* path values */
  for (i = 0; i < n; i++) {
    v[i] = (double)(i + 1);
    lua_rawgeti(L, j->base + P_VALS, (int)nodes[i] + 1);
    lua_rawseti(L, -2, (int)i + 1);
  }
  astar_compat_setuservalue(L, -2);                  /* path */
}

/* Pushes a copy of the list at 'idx' (safe from the callbacks). */
static void copylist(lua_State *L, int idx) {
  size_t n = lua_rawlen(L, idx), i;
  lua_createtable(L, (int)n, 0);
  for (i = 1; i <= n; i++) {
    lua_rawgeti(L, idx, (int)i);
    lua_rawseti(L, -2, (int)i);
  }
}

/*
** Prepares the run of job 'j' (zeroed but for L, run, s, base and busy) on
** the frame whose slots base + P_START .. base + P_JOB hold the options and
** the job: pushes the keys, the values, 'emit' and the goals' scratch, copies
** the goals, interns the start and the goals and fills the domain.
*/
static void setup(lua_State *L, ijob *j) {
  int b = j->base, haskey = !lua_isnil(L, b + P_KEY);
  int keyfn = haskey ? b + P_KEY : 0;
  luaL_checkstack(L, 12, "not enough stack space for the search");
  lua_settop(L, b + P_JOB);
  lua_newtable(L);                                   /* P_KEYS */
  lua_newtable(L);                                   /* P_VALS */
  j->goal = ASTAR_NONE;
  j->haskey = haskey;
  j->usergoal = !lua_isnil(L, b + P_ISGOAL);
  lua_pushvalue(L, b + P_JOB);
  lua_pushvalue(L, b + P_KEYS);
  lua_pushvalue(L, b + P_VALS);
  lua_pushvalue(L, b + P_KEY);
  lua_pushcclosure(L, implicit_emit, 4);             /* P_EMIT */
  if (!lua_isnil(L, b + P_GOALS)) {
    copylist(L, b + P_GOALS);
    lua_replace(L, b + P_GOALS);
  }
  /* the start is id 0; then the goals */
  intern(L, j, b + P_START, b + P_KEYS, b + P_VALS, keyfn);
  if (!lua_isnil(L, b + P_GOAL)) j->goal = intern(L, j, b + P_GOAL, b + P_KEYS, b + P_VALS, keyfn);
  if (!lua_isnil(L, b + P_GOALS)) {
    size_t n = lua_rawlen(L, b + P_GOALS), i;
    uint32_t *ids, *gidx;
    ids = (uint32_t *)lua_newuserdatauv(L, sizeof(uint32_t) * (2 * n + 1), 0);  /* P_SCRATCH */
    for (i = 0; i < n; i++) {
      lua_rawgeti(L, b + P_GOALS, (int)i + 1);
      ids[i] = intern(L, j, lua_gettop(L), b + P_KEYS, b + P_VALS, keyfn);
      lua_pop(L, 1);
    }
    gidx = ids + n;                                  /* ids so far: at most n + 1 */
    memset(gidx, 0, sizeof(uint32_t) * j->nids);
    for (i = n; i-- > 0;) gidx[ids[i]] = (uint32_t)i + 1;   /* the first of duplicates */
    j->goalids = ids;
    j->ngoals = n;
    j->gidx = gidx;
    j->ngidx = j->nids;
  }
  j->d.nnodes = 0;                                   /* unbounded: ids as met */
  j->d.expand = expand_cb;
  j->d.heuristic = lua_isnil(L, b + P_HEUR) ? NULL : heur_cb;
  j->d.is_goal = (j->usergoal || j->goalids != NULL || j->run->within >= 0) ? isgoal_cb : NULL;
  j->d.edge_cost = NULL;
  j->d.shortcut = NULL;
  j->d.settle = NULL;
  j->d.progress = NULL;
  j->d.self = j;
}

/* The results of a finished search (astar_report): the path's points are
** node values; the goal is "the goal" unless there are several or a test. */
static int i_push(lua_State *L, void *rec, astar_search *s, int rc) {
  ijob *j = (ijob *)rec;
  (void)s;
  if (rc != ASTAR_FOUND && !j->run->p.partial) return 0;
  pushpath(L, j, rc == ASTAR_FOUND);
  return 1;
}

static void i_blocked(lua_State *L, void *rec) {
  (void)rec;
  lua_pushliteral(L, "the start is blocked");
}

static int i_endname(lua_State *L, void *rec, int which) {
  const ijob *j = (const ijob *)rec;
  if (which == 1 && (j->goalids != NULL || j->usergoal)) return 0;
  lua_pushstring(L, which ? "the goal" : "the start");
  return 1;
}

static const astar_reporter REPORT = {i_push, i_blocked, i_endname};

static int results(lua_State *L, ijob *j, int rc) {
  return astar_report(L, &REPORT, j, j->s, rc);
}

/* Runs the search; arguments: irun, the option slots, the job (see P_*). */
static int protected_search(lua_State *L) {
  const irun *run = (const irun *)lua_touserdata(L, P_RUN);
  ijob *j = (ijob *)lua_touserdata(L, P_JOB);
  int rc;
  j->L = L;
  j->run = run;
  j->s = run->cx->s;
  j->busy = 1;
  setup(L, j);
  rc = astar_search_run(j->s, &j->d, 0, j->goal, &run->p);
  j->active = 0;
  return results(L, j, rc);
}


/* ---------------------------------------------------------------------- */
/* Options                                                                 */
/* ---------------------------------------------------------------------- */

static const astar_optuse OPTS[] = {
  {ASTAR_OPT_START, 0, NULL}, {ASTAR_OPT_GOAL, 0, NULL}, {ASTAR_OPT_GOALS, 0, NULL},
  {ASTAR_OPT_NEIGHBORS, 0, NULL}, {ASTAR_OPT_HEURISTIC, ASTAR_OT_FUNCTION, NULL},
  {ASTAR_OPT_IS_GOAL, 0, NULL}, {ASTAR_OPT_KEY, 0, NULL},
  {ASTAR_OPT_ALGORITHM, ASTAR_OT_ENUM, ALGORITHMS}, {ASTAR_OPT_WEIGHT, 0, NULL},
  {ASTAR_OPT_MAX_EXPANSIONS, 0, NULL}, {ASTAR_OPT_MAX_COST, 0, NULL},
  {ASTAR_OPT_WITHIN, 0, NULL}, {ASTAR_OPT_PARTIAL, 0, NULL}, ASTAR_OPT_END
};

/* Reads the options table (argument 1) of function 'f' into 'r' and the stack
** slots O_* (the first seven rows of OPTS, in order). */
static void readopts(lua_State *L, const afn *f, irun *r) {
  astar_opts o;
  int i, haskey;
  if (lua_type(L, 1) != LUA_TTABLE)
    astar_argerror(L, f, 1, "table expected, got %s", luaL_typename(L, 1));
  lua_settop(L, 1);
  for (i = O_START; i <= O_LAST; i++) lua_pushnil(L);
  astar_readopts(L, f, 1, OPTS, &o);
  for (i = O_START; i <= O_LAST; i++) {
    int at = o.fn[OPTS[i - O_START].id];
    if (at) { lua_pushvalue(L, at); lua_replace(L, i); }
  }
  lua_settop(L, O_LAST);
  r->p.algorithm = (int)astar_opt(&o, ASTAR_OPT_ALGORITHM, r->p.algorithm);
  astar_opt_params(&o, &r->p);
  r->within = astar_opt(&o, ASTAR_OPT_WITHIN, r->within);
  /* what is required, and what does not go together */
  if (lua_isnil(L, O_START)) astar_argerror(L, f, 1, "option 'start' is required");
  if (lua_isnil(L, O_NEIGHBORS)) astar_argerror(L, f, 1, "option 'neighbors' is required");
  if (lua_isnil(L, O_GOAL) && lua_isnil(L, O_GOALS) && lua_isnil(L, O_ISGOAL))
    astar_argerror(L, f, 1, "one of the options 'goal', 'goals' and 'is_goal' is required");
  if (!lua_isnil(L, O_GOALS) && !lua_isnil(L, O_GOAL))
    astar_argerror(L, f, 1, "options 'goal' and 'goals' cannot be combined");
  if (!lua_isnil(L, O_GOALS) && !lua_isnil(L, O_ISGOAL))
    astar_argerror(L, f, 1, "options 'goals' and 'is_goal' cannot be combined");
  if (r->within >= 0) {
    if (!lua_isnil(L, O_ISGOAL))
      astar_argerror(L, f, 1, "options 'within' and 'is_goal' cannot be combined");
    if (lua_isnil(L, O_HEUR)) astar_argerror(L, f, 1, "option 'within' needs a 'heuristic'");
  }
  haskey = !lua_isnil(L, O_KEY);
  checknode(L, f, 1, O_START, haskey, "option 'start'");
  if (!lua_isnil(L, O_GOAL)) checknode(L, f, 1, O_GOAL, haskey, "option 'goal'");
  if (!lua_isnil(L, O_GOALS)) {
    int n = (int)lua_rawlen(L, O_GOALS);
    if (n < 1) astar_argerror(L, f, 1, "option 'goals': empty list");
    for (i = 1; i <= n; i++) {
      char what[64];
      lua_rawgeti(L, O_GOALS, i);
      snprintf(what, sizeof what, "option 'goals': goal %d", i);
      checknode(L, f, 1, lua_gettop(L), haskey, what);
      lua_pop(L, 1);
    }
  }
}

/***
Searches a graph that callbacks describe. The result is a @{Path} whose points are the node
values: `path:get(i)`, `path:points()` and `path:table()` give them (`path:flat()` raises:
they have no positions).
@function astar.search
@tparam table opts the search; an unknown name is an error
@param opts.start the first node, any value but `nil` or NaN (required)
@tparam function opts.neighbors `function(node, emit)`, required: calls `emit(next, cost)`
once for each successor of `node`, `cost` a finite number > 0; `emit` works only during
that call
@param[opt] opts.goal the node to reach; with `is_goal` too, `is_goal` decides and `goal`
is only passed to the heuristic
@tparam[opt] table opts.goals a list of nodes: go to the cheapest to reach;
`path:stats().goal` is its index (one of `goal`, `goals` and `is_goal` is required)
@tparam[opt] function opts.is_goal `function(node)`: a true value ends the search at `node`
(called when `node` is about to be expanded)
@tparam[opt] function opts.heuristic `function(node, goal)`: an estimate of at least 0 of
the cost from `node` to `goal` (`nil` with `is_goal` alone; with `goals`, the least over
them is used). It must not overestimate for the path to be shortest; without it the search
is Dijkstra's.
@tparam[opt] function opts.key `function(node)`: a number or a string naming the node,
for table nodes built afresh (`{x = 1, y = 2}` twice is two tables but one state); called
for every node `emit` gets, so keep it cheap
@tparam[opt="astar"] string opts.algorithm `"astar"`, `"dijkstra"`, `"bfs"` or `"greedy"`
@tparam[opt=1] number opts.weight as in @{Grid:find}
@tparam[opt] int opts.max_expansions as in @{Grid:find} (default: no limit)
@tparam[opt] number opts.max_cost as in @{Grid:find} (default: no limit)
@tparam[opt=false] boolean opts.partial as in @{Grid:find}: the path to the expanded node
with the smallest heuristic
@tparam[opt] number opts.within accept any node whose heuristic to the goal (or to one of
`goals`) is at most this; needs `heuristic` and `goal` or `goals`
@treturn[1] Path its points are the node values
@treturn[2] nil
@treturn[2] string a message, e.g. `no path from the start to the goal`
@treturn[2] string the code: `"no_path"` or `"limit"`
@treturn[3] Path with `partial = true`, the path toward the goal
@treturn[3] string a message
@treturn[3] string `"partial"`
@usage
local path = astar.search {
  start = 1, goal = 100,
  neighbors = function(n, emit) emit(n + 1, 1); emit(n * 2, 1) end,
}
print(table.concat(path:table(), " "))   --> 1 2 3 6 12 24 25 50 100

-- states as tables: a key makes fresh tables of one cell the same node
local open = { ["1,1"] = true, ["2,1"] = true, ["2,2"] = true, ["3,2"] = true }
local p = assert(astar.search {
  start = { x = 1, y = 1 }, goal = { x = 3, y = 2 },
  key = function(s) return s.x .. "," .. s.y end,
  neighbors = function(s, emit)
    for _, d in ipairs { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } } do
      local n = { x = s.x + d[1], y = s.y + d[2] }
      if open[n.x .. "," .. n.y] then emit(n, 1) end
    end
  end,
})
print(#p, p:cost(), p:get(-1).x)          --> 4 3 3
*/
static int implicit_search(lua_State *L) {
  ictx *cx = (ictx *)lua_touserdata(L, lua_upvalueindex(1));
  int fresh = 0, st, top, i;
  ijob *j;
  irun r;
  astar_params_init(&r.p);
  r.within = -1;
  readopts(L, &F_SEARCH, &r);
  if (cx->busy) {                                    /* called from one of its callbacks */
    cx = newctx(L);
    fresh = 1;
  }
  if (cx->s == NULL) {
    int rc = astar_search_new(&cx->s, cx->alloc, cx->ud);
    if (rc != 0) astar_raise(L, rc);
  }
  r.cx = cx;
  j = (ijob *)lua_newuserdatauv(L, sizeof(ijob), 0);
  memset(j, 0, sizeof *j);
  top = lua_gettop(L);
  lua_pushvalue(L, lua_upvalueindex(2));
  lua_pushlightuserdata(L, &r);
  for (i = O_START; i <= O_LAST; i++) lua_pushvalue(L, i);
  lua_pushvalue(L, top);                             /* the job */
  cx->busy = 1;
  st = lua_pcall(L, 1 + (O_LAST - O_START + 1) + 1, LUA_MULTRET, 0);
  cx->busy = 0;
  j->active = 0;                                     /* also when a callback raised */
  if (fresh) {
    ctx_release(cx);
  } else {
    astar_stats ss;
    astar_search_stats(cx->s, &ss);
    if (ss.generated > ASTAR_IMPLICIT_KEEP) ctx_release(cx);
  }
  if (st != 0) return lua_error(L);                  /* a callback's error, unchanged */
  return lua_gettop(L) - top;
}

/* ---------------------------------------------------------------------- */
/* astar.query                                                             */
/* ---------------------------------------------------------------------- */

/* An implicit query's own data, inside the Query userdata (stable address:
** its job points at 'run'). The query owns its search context (no pool: it
** is freed when the query ends) and, in its user value [1], the context
** userdata whose heuristic cache 'within' uses. */
typedef struct iquery {
  irun run;
  ijob *j;             /* the job, also in the user value (U_STATE + P_JOB) */
} iquery;

#define IQ(q) ((iquery *)(void *)(q)->kind)

/* The user value of a query holds slot P_* of the search at U_STATE + P_*. */
enum { U_STATE = 4 };

/* Lays out the P_* slots at base + 1 .. base + P_SCRATCH (top is 'base';
** stack index 1 is the query) and points the job at this frame. */
static void pushstate(lua_State *L, lquery *q, int base) {
  ijob *j = IQ(q)->j;
  int p;
  luaL_checkstack(L, P_SCRATCH + 14, "not enough stack space for the search");
  lua_settop(L, base);
  astar_compat_getuservalue(L, 1);                   /* uv */
  for (p = P_RUN; p <= P_SCRATCH; p++) lua_rawgeti(L, base + 1, U_STATE + p);
  lua_remove(L, base + 1);
  j->L = L;
  j->base = base;
}

/* Ends the 'emit' of the query's last run, if any: an 'emit' a callback kept
** must not feed a later run (its tables are not that run's). */
static void killemit(lua_State *L) {
  astar_compat_getuservalue(L, 1);                   /* uv */
  lua_rawgeti(L, -1, U_STATE + P_EMIT);              /* uv emit|nil */
  if (lua_type(L, -1) == LUA_TFUNCTION) {
    memset(lua_newuserdatauv(L, sizeof(ijob), 0), 0, sizeof(ijob));   /* never active */
    lua_setupvalue(L, -2, 1);
  }
  lua_pop(L, 2);
}

static uint64_t iq_open(lua_State *L, lquery *q) {
  (void)L; (void)q;
  return 0;                                          /* nothing to edit */
}

static void iq_bind(lua_State *L, lquery *q) {
  pushstate(L, q, 4);                                /* over query, cost, heur, budget */
}

static int iq_begin(lua_State *L, lquery *q) {
  iquery *iq = IQ(q);
  ijob *j = iq->j;
  int busy = j->busy, base = j->base, p, rc;
  killemit(L);
  memset(j, 0, sizeof *j);
  j->L = L;
  j->run = &iq->run;
  j->s = q->s;
  j->base = base;
  j->busy = busy;
  setup(L, j);
  astar_compat_getuservalue(L, 1);                   /* ... uv */
  for (p = P_GOALS; p <= P_SCRATCH; p++) {           /* the copy of goals, the new tables */
    if (base + p <= lua_gettop(L) - 1) lua_pushvalue(L, base + p);
    else lua_pushnil(L);
    lua_rawseti(L, -2, U_STATE + p);
  }
  lua_pop(L, 1);
  rc = astar_search_begin(q->s, &j->d, 0, j->goal, &iq->run.p);
  if (rc != 0) astar_raise(L, rc);
  return 0;
}

static int iq_report(lua_State *L, lquery *q, int rc) {
  iquery *iq = IQ(q);
  int base = lua_gettop(L), n, p;
  pushstate(L, q, base);
  iq->j->active = 0;
  n = results(L, iq->j, rc);
  for (p = P_RUN; p <= P_SCRATCH; p++) lua_remove(L, base + 1);
  /* what only the search needed can go */
  killemit(L);
  astar_compat_getuservalue(L, 1);
  for (p = P_KEYS; p <= P_SCRATCH; p++) {
    lua_pushnil(L);
    lua_rawseti(L, -2, U_STATE + p);
  }
  lua_pop(L, 1);
  ctx_release(iq->run.cx);
  return n;
}

static int *iq_busy(lquery *q) { return &IQ(q)->j->busy; }

static astar_pool *iq_pool(lquery *q) {
  (void)q;
  return NULL;                                       /* a context of its own */
}

static const astar_queryops IMPLICIT_QUERY = {
  "implicit graph", iq_open, iq_begin, iq_report, iq_busy, iq_pool, iq_bind, NULL, NULL, NULL,
  NULL, NULL
};

/***
A time-sliced [astar.search](#astar.search): the same options (no `on_change`: there is no
map to edit). Nothing is searched until @{Query:step}; stepped to its end, the query gives
the path, cost and statistics `astar.search` would have given. Each query owns its search context,
freed when it ends, is cancelled or is collected; `goals` is copied when the query is made.
A callback of a query may call `astar.search` or step other queries, not its own.
@function astar.query
@tparam table opts the options of [astar.search](#astar.search)
@treturn Query
@usage
local function neighbors(n, emit) emit(n + 1, 1); emit(n * 2, 1) end
local q = astar.query { start = 1, goal = 100, neighbors = neighbors }
repeat local status = q:step(5) until status ~= "running"   -- one step a frame
local path, message, code = q:result()
print(path:cost(), message, code)                            --> 8 nil nil
*/
static int implicit_query(lua_State *L) {
  irun r;
  ictx *cx;
  ijob *j;
  lquery *q;
  iquery *iq;
  int p;
  astar_params_init(&r.p);
  r.within = -1;
  readopts(L, &F_QUERY, &r);                         /* opts O_START .. O_KEY */
  if (!lua_isnil(L, O_GOALS)) {                      /* the goals as they are now */
    copylist(L, O_GOALS);
    lua_replace(L, O_GOALS);
  }
  cx = newctx(L);                                    /* opts O_* cx */
  j = (ijob *)lua_newuserdatauv(L, sizeof(ijob), 0); /* opts O_* cx job */
  memset(j, 0, sizeof *j);
  q = astar_newquery(L, &IMPLICIT_QUERY, sizeof(iquery), O_LAST + 1, 0, 0);
  iq = IQ(q);
  iq->run = r;
  iq->run.cx = cx;
  iq->j = j;
  j->run = &iq->run;
  astar_compat_getuservalue(L, -1);                  /* ... q uv */
  for (p = P_START; p <= P_KEY; p++) {
    lua_pushvalue(L, p);                             /* O_* and P_* agree */
    lua_rawseti(L, -2, U_STATE + p);
  }
  lua_pushvalue(L, O_LAST + 2);
  lua_rawseti(L, -2, U_STATE + P_JOB);
  lua_pop(L, 1);                                     /* ... q */
  return 1;
}

void astar_implicit_open(lua_State *L) {
  luaL_newmetatable(L, ASTAR_SEARCHCTX_MT);          /* core mt */
  lua_pushcfunction(L, ctx_gc);
  lua_setfield(L, -2, "__gc");
  lua_pop(L, 1);                                     /* core */
  newctx(L);                                         /* core ctx */
  lua_pushcfunction(L, protected_search);            /* core ctx fn */
  lua_pushcclosure(L, implicit_search, 2);           /* core search */
  lua_setfield(L, -2, "search");
  lua_pushcfunction(L, implicit_query);
  lua_setfield(L, -2, "query");
}
