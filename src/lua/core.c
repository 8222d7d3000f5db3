/*
** core.c - luaopen_astar_core, and the argument checks every type shares.
*/
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "binding.h"

/* Errors carry no position: what luaL_error adds depends on how the C
** function was called (a tail call from Lua gets the caller's line on 5.4). */
int astar_error(lua_State *L, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  lua_pushvfstring(L, fmt, ap);
  va_end(ap);
  return lua_error(L);
}

int astar_argerror(lua_State *L, const afn *f, int idx, const char *fmt, ...) {
  va_list ap;
  int n = idx - f->self;
  va_start(ap, fmt);
  lua_pushvfstring(L, fmt, ap);
  va_end(ap);
  if (n <= 0)
    return astar_error(L, "calling '%s' on bad self (%s)", f->name, lua_tostring(L, -1));
  return astar_error(L, "bad argument #%d to '%s' (%s)", n, f->name, lua_tostring(L, -1));
}

void *astar_checkself(lua_State *L, const char *mt, const char *fname, const char *label) {
  void *p = luaL_testudata(L, 1, mt);
  if (p == NULL) {
    afn f;
    f.name = fname; f.self = 1;
    astar_argerror(L, &f, 1, "%s expected, got %s", label, luaL_typename(L, 1));
  }
  return p;
}

const char *astar_fmtnum(char *buf, double x) {
  if (x != x) return "nan";
  if (x == HUGE_VAL) return "inf";
  if (x == -HUGE_VAL) return "-inf";
  if (x == floor(x) && fabs(x) < 1e18) snprintf(buf, 32, "%.0f", x);   /* all digits */
  else snprintf(buf, 32, "%.14g", x);
  return buf;
}

double astar_checknumber(lua_State *L, const afn *f, int idx) {
  if (lua_type(L, idx) != LUA_TNUMBER)
    astar_argerror(L, f, idx, "number expected, got %s", luaL_typename(L, idx));
  return (double)lua_tonumber(L, idx);
}

int astar_checkint(lua_State *L, const afn *f, int idx) {
  double x = astar_checknumber(L, f, idx);
  if (x != floor(x) || x < -2147483647.0 || x > 2147483647.0) {
    char buf[32];
    astar_argerror(L, f, idx, "integer expected, got %s", astar_fmtnum(buf, x));
  }
  return (int)x;
}

int astar_checkrange(lua_State *L, const afn *f, int idx, const char *what, int lo,
                     int hi) {
  double x = astar_checknumber(L, f, idx);
  char buf[32];
  if (x != floor(x) || x == HUGE_VAL || x == -HUGE_VAL)
    astar_argerror(L, f, idx, "integer expected, got %s", astar_fmtnum(buf, x));
  if (x < lo || x > hi)
    astar_argerror(L, f, idx, "%s out of range: %s not in [%d, %d]", what,
                   astar_fmtnum(buf, x), lo, hi);
  return (int)x;
}

int astar_checkcoord(lua_State *L, const afn *f, int idx, const char *axis, int max) {
  return astar_checkrange(L, f, idx, axis, 1, max) - 1;
}

int astar_big(double v) {
  return isfinite(v) && fabs(v) > ASTAR_NUM_MAX;
}

void astar_checkbig(lua_State *L, const afn *f, int idx, const char *what, double v) {
  char buf[32];
  if (astar_big(v))
    astar_argerror(L, f, idx, "%s is too large: %s (" ASTAR_BIG ")", what, astar_fmtnum(buf, v));
}

double astar_tocost(lua_State *L, int idx) {
  switch (lua_type(L, idx)) {
    case LUA_TBOOLEAN: return lua_toboolean(L, idx) ? 1.0 : 0.0;
    case LUA_TNUMBER: {
      double c = (double)lua_tonumber(L, idx);
      return (c > 0 && c <= ASTAR_NUM_MAX) ? c : -1.0;
    }
    default: return -1.0;
  }
}

double astar_checkcost(lua_State *L, const afn *f, int idx) {
  double c = astar_tocost(L, idx);
  if (c < 0) {
    char buf[32];
    if (lua_type(L, idx) == LUA_TNUMBER)
      astar_checkbig(L, f, idx, "cost", (double)lua_tonumber(L, idx));
    if (lua_type(L, idx) == LUA_TNUMBER)
      astar_argerror(L, f, idx, "cost must be a positive finite number or false, got %s",
                     astar_fmtnum(buf, (double)lua_tonumber(L, idx)));
    astar_argerror(L, f, idx, "cost must be a positive finite number or false, got %s",
                   luaL_typename(L, idx));
  }
  return c;
}

int astar_outcome(lua_State *L, const char *code, const char *fmt, ...) {
  va_list ap;
  lua_pushnil(L);
  va_start(ap, fmt);
  lua_pushvfstring(L, fmt, ap);
  va_end(ap);
  lua_pushstring(L, code);
  return 3;
}

void astar_newclass(lua_State *L, const char *tname, const char *name,
                    const luaL_Reg *meta, const luaL_Reg *methods) {
  luaL_newmetatable(L, tname);                       /* core mt */
  luaL_setfuncs(L, meta, 0);
  lua_newtable(L);                                   /* core mt methods */
  luaL_setfuncs(L, methods, 0);
  lua_pushvalue(L, -1);
  lua_setfield(L, -3, "__index");                    /* core mt methods */
  if (name == NULL) {
    lua_pop(L, 2);                                   /* core */
    return;
  }
  lua_setfield(L, -3, name);                         /* core mt */
  lua_pushfstring(L, "%s_mt", name);
  lua_insert(L, -2);                                 /* core "Name_mt" mt */
  lua_settable(L, -3);                               /* core */
}

void astar_addmethods(lua_State *L, const char *tname, const luaL_Reg *l) {
  luaL_getmetatable(L, tname);                       /* mt */
  lua_getfield(L, -1, "__index");                    /* mt methods */
  luaL_setfuncs(L, l, 0);
  lua_pop(L, 2);
}

int astar_iscallable(lua_State *L, int idx) {
  int ok;
  if (lua_type(L, idx) == LUA_TFUNCTION) return 1;
  if (!luaL_getmetafield(L, idx, "__call")) return 0;
  ok = lua_type(L, -1) == LUA_TFUNCTION;
  lua_pop(L, 1);
  return ok;
}

/* On LuaJIT the VM's own allocator serves GC objects from the low 2 GB of the
** address space (non-GC64 builds); large grids must not compete for it. Worker
** threads (workers.c) use it too: a Lua state's allocator is not thread-safe. */
void *astar_sysalloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  (void)ud; (void)osize;
  if (nsize == 0) { free(ptr); return NULL; }
  return realloc(ptr, nsize);
}

/*
** Memory the collector cannot see. Grids, meshes and search contexts live
** outside the Lua heap, so the collector, which paces itself by the heap,
** would let dropped big maps pile up. Every core allocation goes through
** acctalloc, which counts the bytes; astar_gc_settle, at the end of the
** methods that may allocate much, has the collector do a step of the same
** size. One account per state, in the registry (made once: the maps keep it).
*/
typedef struct acct {
  astar_alloc fn;
  void *ud;
  size_t pending;            /* bytes allocated since the last settle */
} acct;

static const char ACCT_KEY = 'a';           /* its address keys the account */

static void *acctalloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  acct *a = (acct *)ud;
  void *p = a->fn(a->ud, ptr, osize, nsize);
  size_t old = ptr != NULL ? osize : 0;
  if (p != NULL && nsize > old) a->pending += nsize - old;
  return p;
}

static acct *account(lua_State *L) {
  acct *a;
  lua_pushlightuserdata(L, (void *)&ACCT_KEY);
  lua_rawget(L, LUA_REGISTRYINDEX);
  a = (acct *)lua_touserdata(L, -1);
  lua_pop(L, 1);
  return a;
}

static void account_open(lua_State *L) {
  acct *a;
  if (account(L) != NULL) return;           /* loaded again: objects keep the old one */
  lua_pushlightuserdata(L, (void *)&ACCT_KEY);
  a = (acct *)lua_newuserdatauv(L, sizeof *a, 0);
#if LUA_VERSION_NUM < 502
  a->fn = astar_sysalloc;
  a->ud = NULL;
#else
  a->fn = (astar_alloc)lua_getallocf(L, &a->ud);
#endif
  a->pending = 0;
  lua_rawset(L, LUA_REGISTRYINDEX);
}

astar_alloc astar_allocator(lua_State *L, void **ud) {
  *ud = account(L);
  return acctalloc;
}

void astar_gc_settle(lua_State *L) {
  acct *a = account(L);
  size_t kb = a->pending >> 10;
  if (kb < 1024) return;                     /* under a megabyte: not worth a step */
  a->pending = 0;
  lua_gc(L, LUA_GCSTEP, kb > 1000000000 ? 1000000000 : (int)kb);
}

int astar_raise(lua_State *L, int status) {
  if (status == ASTAR_ENOMEM) return astar_error(L, "not enough memory");
  return astar_error(L, "astar: %s", astar_strstatus(status));
}

#if defined(__GNUC__)
#  define ASTAR_EXPORT __attribute__((visibility("default")))
#else
#  define ASTAR_EXPORT
#endif

ASTAR_EXPORT int luaopen_astar_core(lua_State *L);

int luaopen_astar_core(lua_State *L) {
  lua_newtable(L);                                   /* core */
  lua_pushliteral(L, ASTAR_VERSION);
  lua_setfield(L, -2, "version");
  account_open(L);
  astar_hold_open(L);
  astar_path_open(L);
  astar_grid_open(L);
  astar_grid_load_open(L);
  astar_grid_link_open(L);
  astar_grid_class_open(L);
  astar_grid_hex_open(L);
  astar_grid_wrap_open(L);
  astar_grid_line_open(L);
  astar_grid_dir_open(L);
  astar_grid_coop_open(L);
  astar_grid_world_open(L);
  astar_grid_hier_open(L);
  astar_graph_open(L);
  astar_field_open(L);
  astar_implicit_open(L);
  astar_navmesh_open(L);
  astar_navmesh_link_open(L);
  astar_query_open(L);
  astar_replanner_open(L);
  astar_curve_open(L);
  astar_workers_open(L);
  return 1;
}
