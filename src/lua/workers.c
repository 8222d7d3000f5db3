/*
** workers.c - grid searches on worker threads: astar.batch and the
** astar.workers pool, over the core's thread pool (src/core/workers.c).
**
** No Lua runs on a worker. The Lua thread reads the options and the ends
** into a search record per request (grid.c's part), a worker runs the
** engine on it with its own context and copies the path out (malloc'd: a
** Lua state's allocator is not thread-safe), and the Lua thread turns that
** into a Path as grid:find does. What a worker searches never changes while
** it runs: astar.batch searches the grid itself, made ready beforehand
** (astar_grid_ready) while the Lua thread waits; the pool searches snapshots
** (astar_grid_snapshot), one per grid version, shared by the requests made
** of it and kept by the grid until it changes (copy on write).
*/
/***
Worker threads: grid searches off the Lua thread.

@{astar.batch} answers many searches on one grid with several threads and returns when
they are all done; @{astar.workers} makes a pool of threads that a game loop feeds with
`submit` and drains with `poll`. Workers run the same C engine as @{Grid:find} (each its
own search context) and no Lua: options that call Lua (`cost`, a `heuristic` function),
options whose tables live in Lua (`goals`, `overlay`), a `radius` or a `size` (their cache
is built during the search) and the `"directional"` and `"hybrid"` algorithms are refused.
Every other option of @{Grid:find} works, jump point search included.

Thread safety: a batch searches the grid itself, whose lazy tables (jump point bits,
component labels, @{Grid:prepare|prepared} jumps, the smallest cost) are made current
before the workers start; the grid cannot change meanwhile (the Lua thread waits), and the
workers only read it (what terrain's boundary cells keep is filled by searches on the Lua
thread). A pool
searches a read-only snapshot of the grid, copied on the first submit after each edit and
shared by every request made before the next one. A request whose grid was edited (or
closed) after it was submitted is answered `nil, message, "stale"` (or run again on
the new grid with `on_change = "restart"`).
@classmod Workers
*/
#include <math.h>
#include <string.h>
#include "binding.h"

#define ASTAR_WORKERS_MT "astar.Workers"

/* Expansions a worker makes between two looks at its cancel flag. */
#if !defined(ASTAR_WORK_SLICE)
#define ASTAR_WORK_SLICE 16384
#endif

#define JOB_CANCELLED (-100)   /* a worker's outcome: cancelled while it ran */

/* ---------------------------------------------------------------------- */
/* Snapshots: shared by a grid and the requests made of it                 */
/* ---------------------------------------------------------------------- */

typedef struct astar_gsnap {
  astar_grid *g;
  size_t refs;            /* the grid's, and one per request (Lua thread only) */
  astar_alloc fn;
  void *ud;
} gsnap;

static void snap_release(gsnap *s) {
  if (s == NULL || --s->refs > 0) return;
  astar_grid_free(s->g);
  s->fn(s->ud, s, sizeof *s, 0);
}

void astar_gsnap_drop(lgrid *lg) {
  snap_release(lg->snap);
  lg->snap = NULL;
}

/* lg's snapshot of its current state, made if need be; a new reference. */
static gsnap *snap_take(lua_State *L, lgrid *lg) {
  gsnap *s = lg->snap;
  void *ud;
  astar_alloc fn;
  int rc;
  if (s != NULL && astar_grid_snapshot_current(s->g, lg->g)) {
    s->refs++;
    return s;
  }
  astar_gsnap_drop(lg);
  fn = astar_allocator(L, &ud);
  s = (gsnap *)fn(ud, NULL, 0, sizeof *s);
  if (s == NULL) astar_raise(L, ASTAR_ENOMEM);
  s->fn = fn;
  s->ud = ud;
  rc = astar_grid_snapshot(&s->g, lg->g);
  if (rc != 0) {
    fn(ud, s, sizeof *s, 0);
    astar_raise(L, rc);
  }
  s->refs = 2;                                       /* the grid's and the caller's */
  lg->snap = s;
  return s;
}

/* ---------------------------------------------------------------------- */
/* Jobs                                                                     */
/* ---------------------------------------------------------------------- */

typedef struct wjob {
  astar_job head;         /* first: the core's job is the wjob */
  struct wjob *prev, *next;  /* the pool's list of live jobs */
  lua_Integer ticket;
  astar_grid *grid;       /* what the worker searches */
  gsnap *snap;            /* the reference that keeps it (NULL: a batch's live grid) */
  uint64_t version;       /* the grid's version when submitted */
  int on_change;          /* ASTAR_ON_RESTART or ASTAR_ON_STALE */
  /* written by the worker */
  int rc;
  long n;
  double cost;
  astar_stats st;
  uint32_t *nodes;        /* astar_sysalloc'd */
  double *g;
  double rec[1];          /* astar_grid_worksize() bytes (struct hack, aligned) */
} wjob;

static void job_clear(wjob *j) {
  astar_sysalloc(NULL, j->nodes, 0, 0);
  astar_sysalloc(NULL, j->g, 0, 0);
  j->nodes = NULL;
  j->g = NULL;
  j->n = 0;
}

/* On a worker thread: the search, then its path copied out. */
static void runjob(void *ud, astar_job *aj, astar_search *s, astar_workers *w) {
  wjob *j = (wjob *)aj;
  int rc = astar_grid_workbegin(j->grid, j->rec, s);
  (void)ud;
  job_clear(j);
  if (rc == 0) {
    do {
      if (astar_workers_cancelled(w, aj)) { rc = JOB_CANCELLED; break; }
      rc = astar_search_step(s, ASTAR_WORK_SLICE);
    } while (rc == ASTAR_RUNNING);
  }
  astar_search_stats(s, &j->st);
  if (rc >= 0 && astar_grid_workwants(j->rec, rc)) {
    const uint32_t *nodes;
    long n = astar_search_path(s, &nodes, &j->cost), i;
    if (n < 0) {
      rc = (int)n;
    } else {
      j->nodes = (uint32_t *)astar_sysalloc(NULL, NULL, 0, (size_t)(n + 1) * sizeof(uint32_t));
      j->g = (double *)astar_sysalloc(NULL, NULL, 0, (size_t)(n + 1) * sizeof(double));
      if (j->nodes == NULL || j->g == NULL) {
        job_clear(j);
        rc = ASTAR_ENOMEM;
      } else {
        for (i = 0; i < n; i++) {
          uint32_t parent;
          j->nodes[i] = nodes[i];
          if (astar_search_node(s, nodes[i], &j->g[i], &parent) == 0) j->g[i] = NAN;
        }
        j->n = n;
      }
    }
  }
  j->rc = rc;
}

/* ---------------------------------------------------------------------- */
/* The pool userdata                                                        */
/* ---------------------------------------------------------------------- */

typedef struct lpool {
  astar_workers *w;       /* NULL once closed */
  wjob *jobs;             /* every job not yet given to Lua or dropped */
  lua_Integer next;       /* the next ticket */
  size_t live;            /* jobs in the list */
  int busy;               /* delivering results (astar_hold) */
  astar_alloc fn;
  void *ud;
} lpool;

static size_t jobsize(void) { return offsetof(wjob, rec) + astar_grid_worksize(); }

/* Frees j (its worker is done with it, or never had it). */
static void job_free(lpool *p, wjob *j) {
  if (j->prev != NULL) j->prev->next = j->next;
  else p->jobs = j->next;
  if (j->next != NULL) j->next->prev = j->prev;
  p->live--;
  job_clear(j);
  snap_release(j->snap);
  p->fn(p->ud, j, jobsize(), 0);
}

static wjob *job_new(lua_State *L, lpool *p) {
  wjob *j = (wjob *)p->fn(p->ud, NULL, 0, jobsize());
  if (j == NULL) astar_raise(L, ASTAR_ENOMEM);
  memset(j, 0, jobsize());
  j->prev = NULL;
  j->next = p->jobs;
  if (p->jobs != NULL) p->jobs->prev = j;
  p->jobs = j;
  p->live++;
  return j;
}

/* Stops the threads, then frees every job. */
static void pool_release(lpool *p) {
  astar_workers_free(p->w);
  p->w = NULL;
  while (p->jobs != NULL) job_free(p, p->jobs);
}

static lpool *topool(lua_State *L, int idx) {
  return (lpool *)luaL_testudata(L, idx, ASTAR_WORKERS_MT);
}

static lpool *checkpool(lua_State *L, const char *name) {
  lpool *p = (lpool *)astar_checkself(L, ASTAR_WORKERS_MT, name, ASTAR_WORKERS_MT);
  if (p->w == NULL) astar_error(L, "attempt to use a closed pool");
  return p;
}

/* The 'threads' option of o (dflt if not given), checked. */
/* Pushes a new pool of 'threads' workers, its table of requests as user value. */
static lpool *newpool(lua_State *L, int threads) {
  lpool *p = (lpool *)lua_newuserdatauv(L, sizeof(lpool), 1);
  int rc;
  p->w = NULL;
  p->jobs = NULL;
  p->next = 1;
  p->live = 0;
  p->busy = 0;
  p->fn = astar_allocator(L, &p->ud);
  luaL_setmetatable(L, ASTAR_WORKERS_MT);
  lua_newtable(L);                                   /* [ticket] = job, [-ticket] = grid */
  astar_compat_setuservalue(L, -2);
  rc = astar_workers_new(&p->w, threads, runjob, NULL, astar_sysalloc, NULL);
  if (rc == ASTAR_ENOMEM)
    astar_error(L, "not enough memory (or threads) for %d worker threads", threads);
  if (rc != 0) astar_raise(L, rc);
  return p;
}

/* Queues job j of the grid at 'gidx' under a new ticket, remembered in the
** pool's table (the pool at index 1). */
static void enqueue(lua_State *L, lpool *p, wjob *j, int gidx) {
  j->ticket = p->next++;
  astar_compat_getuservalue(L, 1);
  lua_pushlightuserdata(L, j);
  lua_rawseti(L, -2, (lua_Integer)j->ticket);
  lua_pushvalue(L, gidx);
  lua_rawseti(L, -2, -(lua_Integer)j->ticket);
  lua_pop(L, 1);
  astar_workers_submit(p->w, &j->head);
}

/* Forgets ticket t in the pool's table (the pool at index 1). */
static void forget(lua_State *L, lua_Integer t) {
  astar_compat_getuservalue(L, 1);
  lua_pushnil(L);
  lua_rawseti(L, -2, t);
  lua_pushnil(L);
  lua_rawseti(L, -2, -t);
  lua_pop(L, 1);
}

/* The job of ticket argument 2 (NULL if unknown: delivered, cancelled or never made). */
static wjob *findjob(lua_State *L, const afn *f, lua_Integer *t) {
  wjob *j;
  double v = astar_checknumber(L, f, 2);
  char buf[32];
  if (v != floor(v) || !(v >= -9007199254740992.0 && v <= 9007199254740992.0))
    astar_argerror(L, f, 2, "integer expected, got %s", astar_fmtnum(buf, v));
  *t = (lua_Integer)v;
  astar_compat_getuservalue(L, 1);
  lua_rawgeti(L, -1, *t);
  j = (wjob *)lua_touserdata(L, -1);
  lua_pop(L, 2);
  return j;
}

/* ---------------------------------------------------------------------- */
/* Results                                                                  */
/* ---------------------------------------------------------------------- */

/* Pushes the results of finished job j, as grid:find would. */
static int report(lua_State *L, wjob *j) {
  astar_found res;
  if (j->rc == JOB_CANCELLED)
    return astar_outcome(L, "cancelled", "the request was cancelled");
  res.nodes = j->nodes;
  res.n = j->n;
  res.cost = j->cost;
  res.st = j->st;
  res.g = j->g;
  res.s = NULL;
  return astar_grid_workreport(L, j->rec, &res, j->rc);
}

/* Whether job j (a pool's) searched a grid since edited or closed. */
static int stale(lgrid *lg, const wjob *j) {
  return lg->g == NULL || astar_grid_version(lg->g) != j->version;
}

/* Delivers collected job j of the pool at index 1 (the stack holds nothing
** else): pushes the ticket (if 'ticket') and its results and returns their
** number, or 0 if it was queued again (stale, on_change = "restart"): the
** stack then holds the pool alone. */
typedef struct dlv { lpool *p; wjob *j; int ticket, again; } dlv;

static int deliverheld(lua_State *L, void *ud) {
  dlv *d = (dlv *)ud;
  lpool *p = d->p;
  wjob *j = d->j;
  lgrid *lg;
  int top;
  astar_compat_getuservalue(L, 1);
  lua_rawgeti(L, -1, -(lua_Integer)j->ticket);       /* the grid */
  lg = (lgrid *)lua_touserdata(L, -1);
  if (lg != NULL && stale(lg, j) && j->on_change == ASTAR_ON_RESTART && lg->g != NULL) {
    gsnap *s = snap_take(L, lg);
    snap_release(j->snap);
    j->snap = s;
    j->grid = s->g;
    j->version = astar_grid_version(lg->g);
    job_clear(j);
    astar_workers_submit(p->w, &j->head);
    d->again = 1;
    lua_pushvalue(L, 1);                             /* the pool, for the caller's loop */
    return 1;
  }
  top = lua_gettop(L);
  forget(L, j->ticket);
  if (d->ticket) lua_pushinteger(L, (lua_Integer)j->ticket);
  j->ticket = 0;                       /* forgotten: if the results raise, close frees it */
  if (lg != NULL && stale(lg, j))
    astar_outcome(L, "stale", lg->g == NULL ? "the grid was closed during the search"
                                            : "the grid changed during the search");
  else
    report(L, j);
  job_free(p, j);
  return lua_gettop(L) - top;
}

static int deliver(lua_State *L, lpool *p, wjob *j, int ticket) {
  dlv d;
  int n;
  d.p = p; d.j = j; d.ticket = ticket; d.again = 0;
  n = astar_hold(L, &p->busy, NULL, deliverheld, &d);
  return d.again ? 0 : n;
}

/* ---------------------------------------------------------------------- */
/* astar.workers                                                            */
/* ---------------------------------------------------------------------- */

static const afn F_WORKERS = {"workers", 0};
static const afn F_SUBMIT = {"submit", 1};
static const afn F_RESULT = {"result", 1};
static const afn F_CANCEL = {"cancel", 1};
static const afn F_STATUS = {"status", 1};

/***
Makes a pool of worker threads for @{Workers:submit|submit} and @{Workers:poll|poll}.
One pool serves any number of grids; make one per Lua state (a LÖVE thread has its own).
@function astar.workers
@tparam[opt] table opts `threads`: how many (1 to 64; default one less than the processors,
at least 1, leaving a core to the game loop)
@treturn Workers
@usage
local pool = astar.workers { threads = 2 }
local grid = astar.grid(20, 20)
local t = pool:submit(grid, 1, 1, 20, 20)
print(#pool:result(t, true))     --> 20
pool:close()
*/
static int workers_new(lua_State *L) {
  static const astar_optuse USE[] = {{ASTAR_OPT_THREADS, 0, NULL}, ASTAR_OPT_END};
  astar_opts o;
  int cpus = astar_workers_cpus(), threads;
  astar_readopts(L, &F_WORKERS, 1, USE, &o);
  threads = astar_opt_int(L, &F_WORKERS, &o, ASTAR_OPT_THREADS, 1, ASTAR_WORKERS_MAX,
                          cpus > 1 ? cpus - 1 : 1);
  newpool(L, threads);
  return 1;
}

/***
Queues a search of `grid` from `(x0, y0)` to `(x1, y1)` for the workers; they search a
snapshot of the grid as it is now.
@function Workers:submit
@tparam Grid grid
@int x0
@int y0
@int x1
@int y1
@tparam[opt] table opts @{Grid:find}'s options that workers can run (see the module), and
`on_change`: `"stale"` (default: an edit of the grid before the result is taken makes it
`nil, message, "stale"`) or `"restart"` (the request is run again on the edited grid)
@treturn int the request's ticket
*/
static int workers_submit(lua_State *L) {
  lpool *p = checkpool(L, "submit");
  lgrid *lg = (lgrid *)luaL_testudata(L, 2, ASTAR_GRID_MT);
  astar_opts o;
  int w, h, sx, sy, gx, gy;
  wjob *j;
  gsnap *s;
  if (lg == NULL)
    astar_argerror(L, &F_SUBMIT, 2, "%s expected, got %s", ASTAR_GRID_MT, luaL_typename(L, 2));
  if (lg->g == NULL) astar_error(L, "attempt to use a closed grid");
  w = astar_grid_width(lg->g);
  h = astar_grid_height(lg->g);
  sx = astar_checkcoord(L, &F_SUBMIT, 3, "x", w);
  sy = astar_checkcoord(L, &F_SUBMIT, 4, "y", h);
  gx = astar_checkcoord(L, &F_SUBMIT, 5, "x", w);
  gy = astar_checkcoord(L, &F_SUBMIT, 6, "y", h);
  j = job_new(L, p);                  /* in the pool's list: freed with it if we raise */
  astar_grid_workopts(L, &F_SUBMIT, lg, 7, 2, &o, j->rec);
  astar_grid_workends(j->rec, sx, sy, gx, gy);
  j->on_change = (int)astar_opt(&o, ASTAR_OPT_ON_CHANGE, ASTAR_ON_STALE);
  if (lg->g == NULL) astar_error(L, "attempt to use a closed grid");   /* a finalizer */
  s = snap_take(L, lg);
  j->snap = s;
  j->grid = s->g;
  j->version = astar_grid_version(lg->g);
  enqueue(L, p, j, 2);
  lua_pushinteger(L, (lua_Integer)j->ticket);
  return 1;
}

/***
The results of a finished request, if any: its ticket followed by what @{Grid:find}
returns (a Path, or `nil, message, code`; `"stale"` when the grid changed, see
@{Workers:submit|submit}). Each result is given once. Returns nothing when no request has
finished; never waits.
@function Workers:poll
@treturn int|nil the ticket
@return the results
@usage
local pool = astar.workers()
local grid = astar.grid(10, 10)
pool:submit(grid, 1, 1, 10, 10)
local ticket, path
repeat ticket, path = pool:poll() until ticket   -- a game polls once a frame
print(ticket, path:cost() > 0)                   --> 1 true
*/
static int workers_poll(lua_State *L) {
  lpool *p = checkpool(L, "poll");
  for (;;) {
    astar_job *aj = astar_workers_collect(p->w, 0);
    int n;
    if (aj == NULL) return 0;
    if (((wjob *)aj)->ticket == 0) {                 /* cancelled while it ran */
      job_free(p, (wjob *)aj);
      continue;
    }
    lua_settop(L, 1);
    n = deliver(L, p, (wjob *)aj, 1);
    if (n > 0) return n;
  }
}

/***
The results of request `ticket`: what @{Grid:find} returns; if it has not finished,
`nil, message, "pending"` (or, with `wait`, the results once it has). Each result is given
once: an unknown ticket (taken, cancelled, never made) raises.
@function Workers:result
@int ticket
@bool[opt=false] wait
@return a Path, or `nil, message, code`
*/
static int workers_result(lua_State *L) {
  lpool *p = checkpool(L, "result");
  lua_Integer t;
  wjob *j = findjob(L, &F_RESULT, &t);
  int wait = lua_toboolean(L, 3);
  if (j == NULL) astar_argerror(L, &F_RESULT, 2, "unknown ticket %d", (int)t);
  for (;;) {
    int st = astar_workers_take(p->w, &j->head, wait), n;
    if (st != ASTAR_JOB_DONE)
      return astar_outcome(L, "pending", "request %d has not finished", (int)t);
    lua_settop(L, 1);
    n = deliver(L, p, j, 0);
    if (n > 0) return n;
  }
}

/***
Cancels request `ticket`: it will not be given by @{Workers:poll|poll} nor
@{Workers:result|result} (a running search stops within a few thousand expansions).
@function Workers:cancel
@int ticket
@treturn bool whether the request was pending (false: unknown or already given)
*/
static int workers_cancel(lua_State *L) {
  lpool *p = checkpool(L, "cancel");
  lua_Integer t;
  wjob *j = findjob(L, &F_CANCEL, &t);
  int st;
  if (j == NULL) {
    lua_pushboolean(L, 0);
    return 1;
  }
  st = astar_workers_cancel(p->w, &j->head);
  forget(L, t);
  if (st != ASTAR_JOB_RUNNING) job_free(p, j);
  else j->ticket = 0;                  /* dropped when a worker hands it back (poll) */
  lua_pushboolean(L, 1);
  return 1;
}

/***
Where request `ticket` is: `"queued"`, `"running"`, `"done"` (its results wait to be
taken), or nil if the ticket is unknown.
@function Workers:status
@int ticket
@treturn string|nil
*/
static int workers_status(lua_State *L) {
  static const char *const NAMES[] = {"", "queued", "running", "done", "done", "done"};
  lpool *p = checkpool(L, "status");
  lua_Integer t;
  wjob *j = findjob(L, &F_STATUS, &t);
  int st;
  if (j == NULL) return 0;
  st = astar_workers_peek(p->w, &j->head);
  lua_pushstring(L, NAMES[st]);
  return 1;
}

/***
The number of requests submitted and not yet given or cancelled, and the pool's threads.
@function Workers:pending
@treturn int requests
@treturn int threads
*/
static int workers_pending(lua_State *L) {
  lpool *p = checkpool(L, "pending");
  size_t dead = 0;
  wjob *j;
  for (j = p->jobs; j != NULL; j = j->next) dead += j->ticket == 0;
  lua_pushinteger(L, (lua_Integer)(p->live - dead));
  lua_pushinteger(L, astar_workers_threads(p->w));
  return 2;
}

/***
Stops the workers (a running search stops within a few thousand expansions) and forgets
every request. Idempotent; also done when the pool is collected, or at the end of its
scope with Lua 5.4's `<close>`.
@function Workers:close
*/
static int workers_close(lua_State *L) {
  lpool *p = (lpool *)astar_checkself(L, ASTAR_WORKERS_MT, "close", ASTAR_WORKERS_MT);
  if (p->busy) astar_error(L, "cannot close the pool: it is giving results");
  pool_release(p);
  return 0;
}

static int workers_gc(lua_State *L) {
  lpool *p = (lpool *)lua_touserdata(L, 1);
  if (p != NULL && !p->busy) pool_release(p);
  return 0;
}

static int workers_tostring(lua_State *L) {
  lpool *p = topool(L, 1);
  if (p == NULL || p->w == NULL) lua_pushliteral(L, "astar.Workers (closed)");
  else lua_pushfstring(L, "astar.Workers (%d threads, %d pending)", astar_workers_threads(p->w),
                       (int)p->live);
  return 1;
}

/* ---------------------------------------------------------------------- */
/* astar.batch                                                              */
/* ---------------------------------------------------------------------- */

static const afn F_BATCH = {"batch", 0};

/* Field k (1..4) of request i (the table on top), a coordinate in [1, max], 0-based. */
static int reqcoord(lua_State *L, int i, int k, int max) {
  double v;
  char buf[32];
  lua_rawgeti(L, -1, k);
  if (lua_type(L, -1) != LUA_TNUMBER)
    astar_argerror(L, &F_BATCH, 2, "request %d: %s expected a number, got %s", i,
                   k == 1 ? "x0" : k == 2 ? "y0" : k == 3 ? "x1" : "y1", luaL_typename(L, -1));
  v = (double)lua_tonumber(L, -1);
  lua_pop(L, 1);
  if (v != floor(v) || v < 1 || v > max)
    astar_argerror(L, &F_BATCH, 2, "request %d: %s out of range: %s not in [1, %d]", i,
                   k == 1 ? "x0" : k == 2 ? "y0" : k == 3 ? "x1" : "y1", astar_fmtnum(buf, v),
                   max);
  return (int)v - 1;
}

typedef struct bjob { lgrid *lg; lpool *p; wjob **jobs; int n; } bjob;

/* The results of a batch, made while the workers search (they only read the
** grid, and so does this): takes the jobs in order, pushes the three lists. */
static int batchresults(lua_State *L) {
  bjob *b = (bjob *)lua_touserdata(L, 1);
  int i, lidx;
  lua_createtable(L, b->n, 0);                       /* paths */
  lidx = lua_gettop(L);
  lua_createtable(L, 0, 0);                          /* codes */
  lua_createtable(L, 0, 0);                          /* messages */
  for (i = 0; i < b->n; i++) {
    int n;
    /* this thread searches too, while the request it needs next is not done */
    astar_workers_help(b->p->w, &b->jobs[i]->head);
    astar_workers_take(b->p->w, &b->jobs[i]->head, 1);
    n = report(L, b->jobs[i]);                       /* Path | nil, message, code */
    if (n == 1) {
      lua_rawseti(L, lidx, i + 1);
    } else if (lua_isnil(L, -3)) {
      lua_rawseti(L, lidx + 1, i + 1);               /* code */
      lua_rawseti(L, lidx + 2, i + 1);               /* message */
      lua_pop(L, 1);
      lua_pushboolean(L, 0);
      lua_rawseti(L, lidx, i + 1);
    } else {                                         /* partial: Path, message, "partial" */
      lua_rawseti(L, lidx + 1, i + 1);
      lua_rawseti(L, lidx + 2, i + 1);
      lua_rawseti(L, lidx, i + 1);
    }
    job_clear(b->jobs[i]);
  }
  return 3;
}

static int batchheld(lua_State *L, void *ud) {
  bjob *b = (bjob *)ud;
  lgrid *lg = b->lg;
  void *tmpl;
  astar_opts o;
  int i, rc, w = astar_grid_width(lg->g), h = astar_grid_height(lg->g);
  tmpl = lua_newuserdatauv(L, astar_grid_worksize(), 0);   /* the options, read once */
  astar_grid_workopts(L, &F_BATCH, lg, 3, 1, &o, tmpl);
  b->p = newpool(L, astar_opt_int(L, &F_BATCH, &o, ASTAR_OPT_THREADS, 1, ASTAR_WORKERS_MAX,
                                   astar_workers_cpus()) - 1);   /* and this thread */
  b->jobs = (wjob **)lua_newuserdatauv(L, (size_t)(b->n > 0 ? b->n : 1) * sizeof(wjob *), 0);
  for (i = 1; i <= b->n; i++) {                      /* every request read before any runs */
    wjob *j;
    int sx, sy, gx, gy;
    lua_rawgeti(L, 2, i);
    if (lua_type(L, -1) != LUA_TTABLE)
      astar_argerror(L, &F_BATCH, 2, "request %d: table {x0, y0, x1, y1} expected, got %s", i,
                     luaL_typename(L, -1));
    sx = reqcoord(L, i, 1, w);
    sy = reqcoord(L, i, 2, h);
    gx = reqcoord(L, i, 3, w);
    gy = reqcoord(L, i, 4, h);
    lua_pop(L, 1);
    j = job_new(L, b->p);
    memcpy(j->rec, tmpl, astar_grid_worksize());
    astar_grid_workends(j->rec, sx, sy, gx, gy);
    j->grid = lg->g;
    j->ticket = i;
    b->jobs[i - 1] = j;
  }
  rc = astar_grid_ready(lg->g);                      /* nothing lazy left for the workers */
  if (rc != 0) astar_raise(L, rc);
  for (i = 0; i < b->n; i++) astar_workers_submit(b->p->w, &b->jobs[i]->head);
  /* from here until the workers are stopped nothing may raise past this frame: the
  ** grid is the batch's (held) only while it runs */
  lua_pushcfunction(L, batchresults);
  lua_pushlightuserdata(L, b);
  rc = lua_pcall(L, 1, 3, 0);
  pool_release(b->p);                                /* joined: nothing else reads the grid */
  astar_grid_thaw(lg->g);                            /* searches may fill its caches again */
  if (rc != LUA_OK) return lua_error(L);
  return 3;
}

/***
Searches `grid` for every request with `threads` threads, the calling one among them (it
searches too, while it waits for the next answer, and makes the Paths), and returns when all
are done. The answers are those of @{Grid:find} with the same options, in the requests' order.
@function astar.batch
@tparam Grid grid
@tparam {{int,...},...} requests a list of `{x0, y0, x1, y1}`
@tparam[opt] table opts `threads` (1 to 64; default the number of processors) and the
options of @{Grid:find} that workers can run (see the module)
@treturn {Path|false,...} paths: the Path of each request, or false
@treturn {string,...} codes: for each request without a full path, the code @{Grid:find}
gives (`"no_path"`, `"blocked"`, `"limit"`, or `"partial"` with a partial Path)
@treturn {string,...} messages: its message
@usage
local grid = astar.grid(10, 10)
grid:set(5, 5, false)
local paths, codes = astar.batch(grid, {{1, 1, 10, 10}, {1, 1, 5, 5}}, {threads = 2})
print(#paths[1], paths[2], codes[2])     --> 12 false blocked
*/
static int batch(lua_State *L) {
  lgrid *lg = (lgrid *)luaL_testudata(L, 1, ASTAR_GRID_MT);
  bjob b;
  if (lg == NULL)
    astar_argerror(L, &F_BATCH, 1, "%s expected, got %s", ASTAR_GRID_MT, luaL_typename(L, 1));
  if (lg->g == NULL) astar_error(L, "attempt to use a closed grid");
  astar_map_searchable(L, &lg->m);
  if (lua_type(L, 2) != LUA_TTABLE)
    astar_argerror(L, &F_BATCH, 2, "table expected, got %s", luaL_typename(L, 2));
  lua_settop(L, 3);
  b.lg = lg;
  b.n = (int)lua_rawlen(L, 2);
  return astar_map_hold(L, &lg->m, batchheld, &b);
}

static const luaL_Reg workers_methods[] = {
  {"submit", workers_submit},
  {"poll", workers_poll},
  {"result", workers_result},
  {"cancel", workers_cancel},
  {"status", workers_status},
  {"pending", workers_pending},
  {"close", workers_close},
  {NULL, NULL}
};

static const luaL_Reg workers_meta[] = {
  {"__gc", workers_gc},
  {"__close", workers_gc},
  {"__tostring", workers_tostring},
  {NULL, NULL}
};

void astar_workers_open(lua_State *L) {
  astar_newclass(L, ASTAR_WORKERS_MT, "Workers", workers_meta, workers_methods);
  lua_pushcfunction(L, workers_new);
  lua_setfield(L, -2, "workers");
  lua_pushcfunction(L, batch);
  lua_setfield(L, -2, "batch");
}
