/***
A time-sliced search: it runs a bounded number of node expansions per call, so that a game
can spread a long search over several frames. Made by @{Grid:query}, @{Graph:query},
@{NavMesh:query} and [astar.query](../classes/Implicit.html#astar.query);
@{astar.scheduler} shares a budget between many.

Any number of queries may be live on one map; each has its own search context, taken from
a small pool the map keeps and given back when the query ends, so a game that keeps issuing
queries allocates no new scratch once warm. A query keeps its map alive; stepping a query
whose map was closed raises.
@classmod Query
*/
#include <stddef.h>
#include <string.h>
#include "binding.h"

enum { Q_RUNNING, Q_FOUND, Q_PARTIAL, Q_NONE, Q_STALE, Q_CANCELLED };
static const char *const QSTATUS[] = {"running", "found", "partial", "none", "stale",
                                      "cancelled", NULL};

/* Query bookkeeping that the kinds need not see. */
typedef struct qstate {
  uint64_t spent;        /* expansions done by the last step call */
  int began;             /* the search has been started once */
  int dirty;             /* a callback error interrupted a step: restart */
  int stepping;          /* inside q:step (callbacks may not cancel or close q) */
  astar_stats st;        /* statistics as of the last step */
} qstate;

/* The bookkeeping lives in the same userdata, just before the lquery the
** kinds see (astar_newquery lays it out). */
#define QS(q) ((qstate *)((char *)(q) - sizeof(qstate)))

astar_search *astar_pool_take(lua_State *L, astar_pool *p) {
  astar_search *s;
  void *ud;
  astar_alloc fn;
  int rc;
  if (p != NULL && p->n > 0) return p->s[--p->n];
  fn = astar_allocator(L, &ud);
  rc = astar_search_new(&s, fn, ud);
  if (rc != 0) astar_raise(L, rc);
  return s;
}

void astar_pool_give(astar_pool *p, astar_search *s) {
  if (s == NULL) return;
  if (p != NULL && p->n < ASTAR_POOL) p->s[p->n++] = s;
  else astar_search_free(s);
}

void astar_pool_free(astar_pool *p) {
  while (p->n > 0) astar_search_free(p->s[--p->n]);
}

lquery *astar_newquery(lua_State *L, const astar_queryops *ops, size_t extra, int map,
                       int cost, int heur) {
  size_t size = sizeof(qstate) + offsetof(lquery, kind) +
                (extra > sizeof(double) ? extra : sizeof(double));
  char *mem;
  lquery *q;
  map = lua_absindex(L, map);
  if (cost) cost = lua_absindex(L, cost);
  if (heur) heur = lua_absindex(L, heur);
  mem = (char *)lua_newuserdatauv(L, size, 1);
  memset(mem, 0, size);
  q = (lquery *)(mem + sizeof(qstate));
  q->ops = ops;
  q->what = ops->what;
  q->status = Q_RUNNING;
  q->has_cb = cost != 0 || heur != 0;
  luaL_setmetatable(L, ASTAR_QUERY_MT);
  lua_createtable(L, 4, 0);                          /* query uv */
  lua_pushvalue(L, map);
  lua_rawseti(L, -2, 1);
  if (cost) { lua_pushvalue(L, cost); lua_rawseti(L, -2, 2); }
  if (heur) { lua_pushvalue(L, heur); lua_rawseti(L, -2, 3); }
  astar_compat_setuservalue(L, -2);                  /* query */
  return q;
}

void astar_query_keep(lua_State *L, int qi, int cost, int heur, int keep) {
  lquery *q = (lquery *)((char *)lua_touserdata(L, qi) + sizeof(qstate));
  qi = lua_absindex(L, qi);
  astar_compat_getuservalue(L, qi);                  /* uv */
  if (cost) { lua_pushvalue(L, cost); lua_rawseti(L, -2, 2); }
  if (heur) { lua_pushvalue(L, heur); lua_rawseti(L, -2, 3); }
  if (keep) { lua_pushvalue(L, keep); lua_rawseti(L, -2, 5); }
  lua_pop(L, 1);
  q->has_cb = cost != 0 || heur != 0;
}

static lquery *checkquery(lua_State *L, const char *fname) {
  char *mem = (char *)astar_checkself(L, ASTAR_QUERY_MT, fname, "astar.Query");
  return (lquery *)(mem + sizeof(qstate));
}

/* Gives the context back; the statistics were taken after every step (a
** pooled context still holds those of whatever search it ran last). */
static void release(lquery *q, astar_pool *pool) {
  if (q->s != NULL) {
    astar_pool_give(pool, q->s);
    q->s = NULL;
  }
}

/* Ends the query with outcome rc: stores what find would return. */
static void finish(lua_State *L, lquery *q, int rc) {
  int n, i, base;
  lua_settop(L, 3);
  base = lua_gettop(L);
  n = q->ops->report(L, q, rc);                      /* ... results */
  lua_createtable(L, n, 1);                          /* ... results t */
  for (i = 1; i <= n; i++) {
    lua_pushvalue(L, base + i);
    lua_rawseti(L, -2, i);
  }
  lua_pushinteger(L, n);
  lua_setfield(L, -2, "n");
  astar_compat_getuservalue(L, 1);                   /* ... t uv */
  lua_insert(L, -2);
  lua_rawseti(L, -2, 4);                             /* uv[4] = t */
  q->status = rc == ASTAR_FOUND ? Q_FOUND : lua_isnil(L, base + 1) ? Q_NONE : Q_PARTIAL;
  release(q, q->ops->pool(q));
}

static void stats(lquery *q, astar_stats *st) {
  if (q->ops->stats != NULL) q->ops->stats(q, st);
  else astar_search_stats(q->s, st);
}

/* The body of q:step, protected: 1 query, 2 cost, 3 heuristic, 4 budget. */
static int protected_step(lua_State *L) {
  lquery *q = (lquery *)((char *)lua_touserdata(L, 1) + sizeof(qstate));
  qstate *qs = QS(q);
  double budget = (double)lua_tonumber(L, 4);
  uint64_t ver = q->ops->open(L, q), before;
  int rc;
  qs->spent = 0;
  if (qs->began && !qs->dirty && ver != q->version &&
      (q->on_change == ASTAR_ON_CONTINUE ||
       (q->ops->affected != NULL && !q->ops->affected(q, q->version))))
    q->version = ver;                      /* edits that leave its answer as it is */
  if (!qs->began || qs->dirty || ver != q->version) {
    if (qs->began && ver != q->version && q->on_change == ASTAR_ON_STALE) {
      q->status = Q_STALE;
      release(q, q->ops->pool(q));
      return 0;
    }
    if (qs->began) q->restarts++;           /* after an edit or a callback error */
    if (q->s == NULL) q->s = astar_pool_take(L, q->ops->pool(q));
    qs->began = 1;
    qs->dirty = 0;
    q->version = ver;
    q->ops->bind(L, q);
    memset(&qs->st, 0, sizeof qs->st);
    rc = q->ops->begin(L, q);
    if (rc != 0) {                       /* ended before any expansion */
      finish(L, q, rc);
      return 0;
    }
  }
  q->ops->bind(L, q);
  stats(q, &qs->st);
  before = qs->st.expanded;
  rc = q->ops->step != NULL ? q->ops->step(q, (uint64_t)budget)
                            : astar_search_step(q->s, (uint64_t)budget);
  stats(q, &qs->st);
  qs->spent = qs->st.expanded - before;
  if (rc != ASTAR_RUNNING) finish(L, q, rc);
  return 0;
}

/***
Expands at most `n` nodes of the search.

The status is `"running"` while unfinished, then `"found"`, `"partial"` (with the `partial`
option), `"none"` (no path, blocked ends, or a limit), `"stale"` (the map changed and the
query was made with `on_change = "stale"`) or `"cancelled"`; a finished query keeps
answering its final status. When the map was edited since the last step in a way that could
change the answer (on grids and graphs: near what the search has expanded, an end, or the
heuristic's scale; on navigation meshes: any change), the search restarts from scratch
(`on_change = "restart"`, the default); other edits, and every edit under
`on_change = "continue"`, let it go on. An error raised by a callback during a
step propagates unchanged; the next step then restarts the search.
@function Query:step
@int n the most node expansions this call may do (0 or more)
@treturn string the status
@treturn int the expansions this call did
*/
static int query_step(lua_State *L) {
  static const afn F = {"step", 1};
  lquery *q = checkquery(L, "step");
  int n = astar_checkrange(L, &F, 2, "n", 0, 2147483647), st, *busy;
  if (q->status == Q_RUNNING) {
    busy = q->ops->busy(q);
    if (*busy) astar_error(L, "cannot step: a search on this %s is already running",
                           q->what);
    lua_settop(L, 1);
    lua_pushcfunction(L, protected_step);            /* q f */
    lua_pushvalue(L, 1);                             /* q f q */
    astar_compat_getuservalue(L, 1);                 /* q f q uv */
    lua_rawgeti(L, -1, 2);                           /* q f q uv cost */
    lua_rawgeti(L, -2, 3);                           /* q f q uv cost heur */
    lua_remove(L, -3);                               /* q f q cost heur */
    lua_pushinteger(L, n);                           /* q f q cost heur n */
    (*busy)++;
    QS(q)->stepping = 1;
    st = lua_pcall(L, 4, 0, 0);
    QS(q)->stepping = 0;
    (*busy)--;
    if (st != LUA_OK) {
      QS(q)->dirty = 1;
      return lua_error(L);                           /* unchanged */
    }
  }
  lua_pushstring(L, QSTATUS[q->status]);
  lua_pushinteger(L, (lua_Integer)QS(q)->spent);
  QS(q)->spent = 0;
  return 2;
}

/***
What `find` would have returned: a @{Path}, or `nil, message, code`. While the query runs,
`nil, "query still running", "running"`; after @{Query:cancel|cancel},
`nil, "query cancelled", "cancelled"`; when stale,
`nil, "the map changed during the query", "stale"`.
@function Query:result
@return a Path, or `nil, message, code`
*/
static int query_result(lua_State *L) {
  lquery *q = checkquery(L, "result");
  int i, n;
  switch (q->status) {
    case Q_RUNNING:
      lua_pushnil(L); lua_pushliteral(L, "query still running");
      lua_pushliteral(L, "running");
      return 3;
    case Q_CANCELLED:
      lua_pushnil(L); lua_pushliteral(L, "query cancelled");
      lua_pushliteral(L, "cancelled");
      return 3;
    case Q_STALE:
      lua_pushnil(L); lua_pushliteral(L, "the map changed during the query");
      lua_pushliteral(L, "stale");
      return 3;
    default:
      break;
  }
  astar_compat_getuservalue(L, 1);
  lua_rawgeti(L, -1, 4);                             /* uv t */
  lua_getfield(L, -1, "n");
  n = (int)lua_tointeger(L, -1);
  lua_pop(L, 1);
  for (i = 1; i <= n; i++) lua_rawgeti(L, -i, i);
  return n;
}

/***
Stops the query and gives its scratch memory back to the map. Idempotent; a finished query
stays finished. Not from inside its own step's callbacks.
@function Query:cancel
*/
static int query_cancel(lua_State *L) {
  lquery *q = checkquery(L, "cancel");
  if (QS(q)->stepping) astar_error(L, "cannot cancel the query: it is being stepped");
  if (q->status == Q_RUNNING) {
    q->status = Q_CANCELLED;
    release(q, q->ops->pool(q));
  }
  return 0;
}

typedef struct lister {
  lua_State *L;
  lquery *q;
  int table;            /* stack index of the list being filled; 0: counting */
  lua_Integer n;
} lister;

static void listone(void *ud, uint32_t node, double g, uint32_t parent) {
  lister *li = (lister *)ud;
  double v[2];
  int k = li->q->ops->node(li->q, node, v), i;
  (void)g; (void)parent;
  for (i = 0; i < k; i++) {
    li->n++;
    if (li->table == 0) continue;
    lua_pushinteger(li->L, (lua_Integer)v[i]);      /* cells and ids */
    lua_rawseti(li->L, li->table, (int)li->n);
  }
}

/* How many numbers the lists of 'which' (1 closed, 2 open) take. */
static lua_Integer listsize(lua_State *L, lquery *q, int which) {
  lister li;
  li.L = L; li.q = q; li.table = 0; li.n = 0;
  if (q->s != NULL) astar_search_each(q->s, which | 4, listone, &li);
  return li.n;
}

/***
The nodes the search has met so far, for drawing it as it grows: `closed, open`, two flat
lists. On a grid `{x1, y1, x2, y2, ...}` (cells), on a graph `{id1, id2, ...}`. Closed nodes
were expanded (their cost is final), open ones wait on the open list. Both lists are empty
before the first step and once the query has finished (it gave its memory back: keep the last
lists you took), and also if a finalizer run by the call steps or cancels the query meanwhile.
Navigation meshes and implicit graphs do not list their nodes (an error).
@function Query:explored
@treturn table closed nodes
@treturn table open nodes
@usage
local grid = astar.grid(20, 20)
local q = grid:query(1, 1, 20, 20, { algorithm = "astar" })
q:step(10)
local closed, open = q:explored()
print(#closed == 2 * 10, #open > 0)   --> true true
*/
static int query_explored(lua_State *L) {
  lquery *q = checkquery(L, "explored");
  lua_Integer n[2];
  double probe[2];
  int k = q->ops->node != NULL ? q->ops->node(q, 0, probe) : 0, which;
  if (k < 0) astar_error(L, "attempt to use a closed %s", q->what);
  if (k == 0) astar_error(L, "explored: the nodes of %s queries are not listed", q->what);
  n[0] = listsize(L, q, 1);
  n[1] = listsize(L, q, 2);
  lua_settop(L, 1);
  lua_createtable(L, (int)n[0], 0);        /* may run finalizers: they may cancel q, */
  lua_createtable(L, (int)n[1], 0);        /* close the map or step the query */
  if (q->ops->node(q, 0, probe) < 0) astar_error(L, "attempt to use a closed %s", q->what);
  if (listsize(L, q, 1) != n[0] || listsize(L, q, 2) != n[1]) return 2;   /* empty */
  for (which = 1; which <= 2; which++) {   /* no allocation: the arrays have room */
    lister li;
    li.L = L; li.q = q; li.table = which + 1; li.n = 0;
    if (q->s != NULL) astar_search_each(q->s, which | 4, listone, &li);
  }
  return 2;
}

/***
Statistics: `{status =, expanded =, generated =, restarts =}`; `restarts` counts the times
the search started again (after an edit of the map, or after a callback error interrupted
a step).
@function Query:stats
@treturn table
*/
static int query_stats(lua_State *L) {
  lquery *q = checkquery(L, "stats");
  const astar_stats *st = &QS(q)->st;
  lua_createtable(L, 0, 4);
  lua_pushstring(L, QSTATUS[q->status]);
  lua_setfield(L, -2, "status");
  lua_pushinteger(L, (lua_Integer)st->expanded);
  lua_setfield(L, -2, "expanded");
  lua_pushinteger(L, (lua_Integer)st->generated);
  lua_setfield(L, -2, "generated");
  lua_pushinteger(L, (lua_Integer)q->restarts);
  lua_setfield(L, -2, "restarts");
  return 1;
}

static int query_gc(lua_State *L) {
  char *mem = (char *)luaL_testudata(L, 1, ASTAR_QUERY_MT);
  lquery *q;
  if (mem == NULL) return 0;
  q = (lquery *)(mem + sizeof(qstate));
  if (QS(q)->stepping) astar_error(L, "cannot close the query: it is being stepped");
  /* the map may be finalized in the same cycle: never touch its pool here */
  if (q->ops->free != NULL) q->ops->free(q);
  astar_search_free(q->s);
  q->s = NULL;
  if (q->status == Q_RUNNING) q->status = Q_CANCELLED;
  return 0;
}

static int query_tostring(lua_State *L) {
  lquery *q = checkquery(L, "__tostring");
  lua_pushfstring(L, "astar.Query (%s, %s)", q->what, QSTATUS[q->status]);
  return 1;
}

static const luaL_Reg query_methods[] = {
  {"step", query_step},
  {"result", query_result},
  {"cancel", query_cancel},
  {"stats", query_stats},
  {"explored", query_explored},
  {NULL, NULL}
};

static const luaL_Reg query_meta[] = {
  {"__gc", query_gc},
  {"__close", query_gc},
  {"__tostring", query_tostring},
  {NULL, NULL}
};

void astar_query_open(lua_State *L) {
  astar_newclass(L, ASTAR_QUERY_MT, "Query", query_meta, query_methods);
}
