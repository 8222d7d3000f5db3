/*
** find.c - the search pipeline every map kind shares: find, query, the
** protected run of Lua callbacks with the map busy, status -> results, and
** the userdata's lifetime. A kind (src/lua/grid.c, graph.c, navmesh.c)
** describes itself in an astar_kind record and adds its own methods.
**
**   map:find(...)  --args--> rec --begin/step (pcall if callbacks)--> status
**   map:query(...) --args--> rec in the Query; query.c steps it through
**                            MAP_QUERY below, with the same begin/step
**   status --astar_map_report--> Path | nil, message, code
*/
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include "binding.h"

static const afn F_FIND = {"find", 1};
static const afn F_QUERY = {"query", 1};

void astar_map_init(lmap *m, const astar_kind *k, void *rec) {
  m->kind = k;
  m->core = NULL;
  m->s = NULL;
  m->busy = 0;
  m->pool.n = 0;
  m->rec = rec;
}

lmap *astar_checkmap(lua_State *L, const astar_kind *k, const afn *f) {
  lmap *m = (lmap *)luaL_testudata(L, 1, k->mt);
  if (m == NULL) astar_argerror(L, f, 1, "%s expected, got %s", k->mt, luaL_typename(L, 1));
  if (m->core == NULL) astar_error(L, "attempt to use a closed %s", k->name);
  return m;
}

void astar_map_idle(lua_State *L, const lmap *m, const char *what) {
  if (m->busy)
    astar_error(L, "cannot %s the %s: a search on this %s is running", what, m->kind->name,
                m->kind->name);
}

void astar_map_alive(lua_State *L, const lmap *m) {
  if (m->core == NULL) astar_error(L, "attempt to use a closed %s", m->kind->name);
}

void astar_map_searchable(lua_State *L, const lmap *m) {
  if (m->busy)
    astar_error(L, "cannot search: a search on this %s is already running", m->kind->name);
}

int astar_map_stats(lua_State *L, lmap *m, size_t allocs, const astar_search *extra) {
  const astar_search *s[2];
  int i;
  uint64_t edits = m->kind->version(m);              /* read before allocating */
  s[0] = m->s;
  s[1] = extra;
  for (i = 0; i < 2; i++) {
    if (s[i] != NULL) {
      astar_stats st;
      astar_search_stats(s[i], &st);
      allocs += st.allocs;
    }
  }
  lua_createtable(L, 0, 2);
  lua_pushinteger(L, (lua_Integer)allocs);
  lua_setfield(L, -2, "allocations");
  lua_pushinteger(L, (lua_Integer)edits);
  lua_setfield(L, -2, "edits");
  return 1;
}

astar_search *astar_map_search(lua_State *L, lmap *m) {
  if (m->s == NULL) m->s = astar_pool_take(L, NULL);
  return m->s;
}

/* ---------------------------------------------------------------------- */
/* Arguments, options and callback results every kind shares               */
/* ---------------------------------------------------------------------- */

int astar_goalsform(lua_State *L, const afn *f, int idx, const astar_optuse *use,
                    astar_opts *o) {
  if (lua_type(L, idx) != LUA_TTABLE || lua_gettop(L) != idx) return 0;
  astar_readopts(L, f, idx, use, o);
  if (!o->given[ASTAR_OPT_GOALS])
    astar_argerror(L, f, idx, "number expected, got table (a table of options "
                   "here needs 'goals')");
  return 1;
}

/* The options after a goal given as arguments: 'goals' may not come too. */
void astar_goalopts(lua_State *L, const afn *f, int idx, const astar_optuse *use,
                    astar_opts *o) {
  astar_readopts(L, f, idx, use, o);
  if (o->given[ASTAR_OPT_GOALS])
    astar_argerror(L, f, idx, "option 'goals' cannot be combined with a goal argument");
}

/* Raises "<who> callback returned <value> for <what> (expected <rule>)". */
static void badresult(lua_State *L, const char *who, const char *rule, const char *fmt,
                      va_list ap) {
  char buf[32];
  const char *v = lua_type(L, -1) == LUA_TNUMBER
                      ? astar_fmtnum(buf, (double)lua_tonumber(L, -1))
                      : luaL_typename(L, -1);
  lua_pushvfstring(L, fmt, ap);
  astar_error(L, "%s callback returned %s for %s (expected %s)", who, v,
              lua_tostring(L, -1), rule);
}

double astar_cbcost(lua_State *L, int zero_ok, const char *fmt, ...) {
  int t = lua_type(L, -1);
  double v;
  if (t == LUA_TNIL || (t == LUA_TBOOLEAN && !lua_toboolean(L, -1))) {
    lua_pop(L, 1);
    return -1.0;                                     /* forbidden */
  }
  v = t == LUA_TNUMBER ? (double)lua_tonumber(L, -1) : -1.0;
  if (astar_big(v)) {
    va_list ap;
    va_start(ap, fmt);
    badresult(L, "cost", ASTAR_BIG, fmt, ap);
    va_end(ap);
  }
  if (!((zero_ok ? v >= 0 : v > 0) && v < HUGE_VAL)) {
    va_list ap;
    va_start(ap, fmt);
    badresult(L, "cost", zero_ok ? "a non-negative finite number, or false or nil to "
                                   "forbid it"
                                 : "a positive finite number, or false or nil to forbid it",
              fmt, ap);
    va_end(ap);
  }
  lua_pop(L, 1);
  return v;
}

double astar_cbheur(lua_State *L, const char *fmt, ...) {
  double v = lua_type(L, -1) == LUA_TNUMBER ? (double)lua_tonumber(L, -1) : -1.0;
  if (!(v >= 0 && v < HUGE_VAL)) {
    va_list ap;
    va_start(ap, fmt);
    badresult(L, "heuristic", "a non-negative finite number", fmt, ap);
    va_end(ap);
  }
  lua_pop(L, 1);
  return v;
}

/* ---------------------------------------------------------------------- */
/* Running a search, protected when it calls Lua                           */
/* ---------------------------------------------------------------------- */

/*
** Holding a map. A method that reads the map after it allocates a Lua object
** (every result is one) holds it: any allocation may run finalizers, and a
** finalizer, like a callback, may try to close, edit or search the map. While
** held the map is busy, which refuses those (close and edits raise; Lua 5.4
** turns a finalizer's error into a warning, 5.1 and LuaJIT pass it on); the
** hold is a protected call, so busy is cleared however the method ends.
*/
typedef struct holdjob {
  int (*body)(lua_State *L, void *ud);
  void *ud;
} holdjob;

static const char HOLD_KEY = 'h';       /* its address keys 'held' in the registry */

static int held(lua_State *L) {
  holdjob *j = (holdjob *)lua_touserdata(L, -1);
  lua_pop(L, 1);
  return j->body(L, j->ud);
}

void astar_hold_open(lua_State *L) {
  lua_pushlightuserdata(L, (void *)&HOLD_KEY);
  lua_pushcfunction(L, held);             /* made once: 5.1 and LuaJIT allocate closures */
  lua_rawset(L, LUA_REGISTRYINDEX);
}

int astar_map_hold(lua_State *L, lmap *m, int (*body)(lua_State *L, void *ud), void *ud) {
  return astar_hold(L, &m->busy, NULL, body, ud);
}

int astar_hold(lua_State *L, int *busy, int *also, int (*body)(lua_State *L, void *ud),
               void *ud) {
  holdjob j;
  int st, n = lua_gettop(L);
  j.body = body;
  j.ud = ud;
  luaL_checkstack(L, 3, NULL);
  lua_pushlightuserdata(L, (void *)&HOLD_KEY);
  lua_rawget(L, LUA_REGISTRYINDEX);
  lua_insert(L, 1);                       /* held, the method's arguments */
  lua_pushlightuserdata(L, &j);
  ++*busy;
  if (also != NULL) ++*also;
  st = lua_pcall(L, n + 1, LUA_MULTRET, 0);
  --*busy;                                /* in userdata, which outlive any close */
  if (also != NULL) --*also;
  if (st != LUA_OK) return lua_error(L);  /* unchanged */
  astar_gc_settle(L);                     /* what the search may have grown */
  return lua_gettop(L);
}

/* kind->begin; an outcome known before searching ends the context too. */
static int begin(lmap *m, void *rec, astar_search *s) {
  int rc = m->kind->begin(m, rec, s);
  if (rc > 0) astar_search_finish(s, rc);
  return rc;
}

static int step(lmap *m, void *rec, astar_search *s, uint64_t budget) {
  if (m->kind->step != NULL) return m->kind->step(m, rec, s, budget);
  return astar_search_step(s, budget);
}

typedef struct findjob {
  lmap *m;
  int rc;
} findjob;

static void runfind(lcall *c, findjob *j) {
  lmap *m = j->m;
  m->kind->hook(m->rec, c);
  j->rc = begin(m, m->rec, m->s);
  if (j->rc == 0)
    do j->rc = step(m, m->rec, m->s, UINT64_MAX);    /* a kind may restart: navmesh bans */
    while (j->rc == ASTAR_RUNNING);
  if (c != NULL) m->kind->hook(m->rec, NULL);        /* c dies with this frame */
}

/* The callbacks the options parked on the stack (0: none). */
static int cbcost(const astar_opts *o) { return o->fn[ASTAR_OPT_COST]; }
static int cbheur(const astar_opts *o) {
  return o->given[ASTAR_OPT_HEURISTIC] ? o->fn[ASTAR_OPT_HEURISTIC] : 0;
}

lcall *astar_lcall(lua_State *L, lcall *c, int cost, int heur) {
  c->L = L;
  c->cost = cost;
  c->heur = heur;
  return cost || heur ? c : NULL;
}

/* find, with its map held: arguments, search, results. */
static int findheld(lua_State *L, void *ud) {
  lmap *m = (lmap *)ud;
  const astar_kind *k = m->kind;
  astar_opts o;
  findjob j;
  lcall c;
  k->args(L, &F_FIND, m, m->rec, k->find_opts, &o);
  astar_map_search(L, m);
  j.m = m;
  j.rc = 0;
  runfind(astar_lcall(L, &c, cbcost(&o), cbheur(&o)), &j);
  if (j.rc < 0 && j.rc != ASTAR_ECALLBACK) astar_raise(L, j.rc);
  return astar_report(L, &k->report, m->rec, m->s, j.rc);
}

int astar_map_find(lua_State *L, const astar_kind *k) {
  lmap *m = astar_checkmap(L, k, &F_FIND);
  astar_map_searchable(L, m);
  return astar_map_hold(L, m, findheld, m);
}

/* ---------------------------------------------------------------------- */
/* Results                                                                  */
/* ---------------------------------------------------------------------- */

int astar_report(lua_State *L, const astar_reporter *r, void *rec, astar_search *s, int rc) {
  switch (rc) {
    case ASTAR_FOUND:
      return r->push(L, rec, s, rc);
    case ASTAR_BLOCKED:
      lua_pushnil(L);
      r->blocked(L, rec);
      lua_pushliteral(L, "blocked");
      return 3;
    case ASTAR_NO_PATH:
    case ASTAR_LIMIT:
      break;
    default:
      return astar_raise(L, rc);
  }
  if (r->push(L, rec, s, rc) > 0) {              /* a partial path (partial = true) */
    lua_pushstring(L, rc == ASTAR_NO_PATH ? "no path: partial path toward the goal"
                                          : "search limit reached: partial path toward "
                                            "the goal");
    lua_pushliteral(L, "partial");
    return 3;
  }
  {
    int top = lua_gettop(L), n;
    const char *msg;
    if (!r->endname(L, rec, 1))                  /* top+1: the goal */
      msg = rc == ASTAR_NO_PATH ? "no path to any goal"
                                : "search limit reached before a goal was found";
    else if (rc == ASTAR_LIMIT)
      msg = lua_pushfstring(L, "search limit reached before %s was found",
                            lua_tostring(L, top + 1));
    else if (r->endname(L, rec, 0))              /* top+2: the start */
      msg = lua_pushfstring(L, "no path from %s to %s", lua_tostring(L, top + 2),
                            lua_tostring(L, top + 1));
    else
      msg = "no path";
    lua_pushnil(L);
    lua_pushstring(L, msg);
    for (n = lua_gettop(L) - top - 2; n > 0; n--) lua_remove(L, top + 1);
  }
  lua_pushstring(L, rc == ASTAR_NO_PATH ? "no_path" : "limit");
  return 3;
}

/* ---------------------------------------------------------------------- */
/* Time-sliced queries: the map kinds' side of query.c                     */
/* ---------------------------------------------------------------------- */

/* A map query's data inside the Query userdata (stable addresses). */
typedef struct mquery {
  lmap *m;
  lcall c;
  double rec[1];          /* kind->recsize bytes (struct hack, aligned) */
} mquery;

#define MQ(q) ((mquery *)(void *)(q)->kind)

static uint64_t mq_open(lua_State *L, lquery *q) {
  lmap *m = MQ(q)->m;
  if (m->core == NULL) astar_error(L, "attempt to use a closed %s", m->kind->name);
  return m->kind->version(m);
}

static void mq_bind(lua_State *L, lquery *q) {
  mquery *mq = MQ(q);
  mq->c.L = L;
  mq->c.cost = lua_isnil(L, 2) ? 0 : 2;
  mq->c.heur = lua_isnil(L, 3) ? 0 : 3;
}

static int mq_begin(lua_State *L, lquery *q) {
  mquery *mq = MQ(q);
  int rc;
  mq->m->kind->hook(mq->rec, (mq->c.cost || mq->c.heur) ? &mq->c : NULL);
  rc = begin(mq->m, mq->rec, q->s);
  if (rc < 0) astar_raise(L, rc);
  return rc;
}

static int mq_step(lquery *q, uint64_t budget) {
  mquery *mq = MQ(q);
  return step(mq->m, mq->rec, q->s, budget);
}

static int mq_report(lua_State *L, lquery *q, int rc) {
  mquery *mq = MQ(q);
  if (rc < 0) astar_raise(L, rc);
  return astar_report(L, &mq->m->kind->report, mq->rec, q->s, rc);
}

static void mq_stats(lquery *q, astar_stats *st) {
  mquery *mq = MQ(q);
  if (mq->m->kind->stats != NULL) mq->m->kind->stats(mq->rec, q->s, st);
  else astar_search_stats(q->s, st);
}

static int *mq_busy(lquery *q) { return &MQ(q)->m->busy; }

static astar_pool *mq_pool(lquery *q) {
  lmap *m = MQ(q)->m;
  return m->core != NULL ? &m->pool : NULL;
}

static void mq_free(lquery *q) {
  mquery *mq = MQ(q);
  /* m is NULL if memory ran out while astar_newquery made the query */
  if (mq->m != NULL && mq->m->kind->recfree != NULL) mq->m->kind->recfree(mq->rec);
}

static int mq_affected(lquery *q, uint64_t since) {
  mquery *mq = MQ(q);
  const astar_kind *k = mq->m->kind;
  return k->affected == NULL || k->affected(mq->m, mq->rec, q->s, since);
}

static int mq_node(lquery *q, uint32_t id, double out[2]) {
  lmap *m = MQ(q)->m;
  if (m->kind->node == NULL) return 0;
  return m->core != NULL ? m->kind->node(m, id, out) : -1;
}

static const astar_queryops MAP_QUERY = {
  "map", mq_open, mq_begin, mq_report, mq_busy, mq_pool, mq_bind, mq_step, mq_free, mq_stats,
  mq_affected, mq_node
};

/* Arguments are read into a record on the C stack first: the Query
** userdata pushed before would sit among them. */
#if !defined(ASTAR_REC_MAX)
#define ASTAR_REC_MAX 2048    /* bytes; the largest kind's record is far smaller */
#endif

int astar_map_query(lua_State *L, const astar_kind *k) {
  lmap *m = astar_checkmap(L, k, &F_QUERY);
  union { double d; void *p; char c[ASTAR_REC_MAX]; } rec;
  astar_opts o;
  lquery *q;
  mquery *mq;
  int keep;
  if (k->recsize > sizeof rec) return astar_error(L, "astar: record of %s too large", k->name);
  memset(&rec, 0, k->recsize);                       /* no buffers yet */
  keep = k->args(L, &F_QUERY, m, &rec, k->query_opts, &o);
  q = astar_newquery(L, &MAP_QUERY, offsetof(mquery, rec) + k->recsize, 1, 0, 0);
  q->what = k->name;
  q->on_change = (int)astar_opt(&o, ASTAR_OPT_ON_CHANGE, ASTAR_ON_RESTART);
  mq = MQ(q);
  mq->m = m;
  memcpy(mq->rec, &rec, k->recsize);
  astar_query_keep(L, -1, cbcost(&o), cbheur(&o), keep);
  return 1;
}

/* ---------------------------------------------------------------------- */
/* Lifetime                                                                 */
/* ---------------------------------------------------------------------- */

static void release(lmap *m) {
  if (m->kind->recfree != NULL) m->kind->recfree(m->rec);
  astar_search_free(m->s);
  m->s = NULL;
  astar_pool_free(&m->pool);
  m->kind->release(m);
  m->core = NULL;
}

/* __gc: frees the core map and its contexts (not while a search runs on
** it: the map is then still on that search's stack). */
int astar_map_gc(lua_State *L) {
  lmap *m = (lmap *)lua_touserdata(L, 1);
  if (m != NULL && m->core != NULL && !m->busy) release(m);
  return 0;
}

/* close and __close: idempotent; raises from a callback of its own search. */
int astar_map_close(lua_State *L, const astar_kind *k) {
  lmap *m = (lmap *)luaL_testudata(L, 1, k->mt);
  if (m == NULL) {
    afn f;
    f.name = "close"; f.self = 1;
    astar_argerror(L, &f, 1, "%s expected, got %s", k->mt, luaL_typename(L, 1));
  }
  if (m->core == NULL) return 0;
  if (m->busy) astar_error(L, "cannot close the %s: a search on it is running", k->name);
  release(m);
  return 0;
}
