/*
** compat.h - what the binding needs from Lua 5.2+ on Lua 5.1 / LuaJIT 2.1,
** and from 5.4 on 5.2 / 5.3. Version-gated, static, and named so that nothing
** can collide with what LuaJIT itself exports. PUC 5.1's headers (Defold's
** HTML5 target, Solar2D) lack more than LuaJIT's: LUA_OK, luaL_setmetatable,
** luaL_testudata, luaL_setfuncs, luaL_newlib - LuaJIT 2.1 defines the last
** four itself, hence the luaL_newlib test.
*/
#ifndef ASTAR_COMPAT_H
#define ASTAR_COMPAT_H

#include "lua.h"
#include "lauxlib.h"

#if LUA_VERSION_NUM < 502
#  define lua_rawlen(L, i)              lua_objlen((L), (i))
#  define lua_newuserdatauv(L, sz, nuv) lua_newuserdata((L), (sz))
#  define lua_absindex(L, i) \
     (((i) > 0 || (i) <= LUA_REGISTRYINDEX) ? (i) : lua_gettop(L) + (i) + 1)
#  define astar_compat_setuservalue(L, i) lua_setfenv((L), (i))
#  define astar_compat_getuservalue(L, i) lua_getfenv((L), (i))
#  ifndef LUA_OK
#    define LUA_OK 0
#  endif
#  ifndef luaL_newlib            /* PUC 5.1 headers; LuaJIT 2.1 has these */
#    define luaL_newlibtable(L, l) \
       lua_createtable((L), 0, (int)(sizeof(l) / sizeof((l)[0]) - 1))
#    define luaL_newlib(L, l) (luaL_newlibtable((L), (l)), luaL_setfuncs((L), (l), 0))
#    define luaL_setfuncs(L, l, n) astar_compat_setfuncs((L), (l), (n))
#    define luaL_testudata(L, i, t) astar_compat_testudata((L), (i), (t))
#    define luaL_setmetatable(L, t) (luaL_getmetatable((L), (t)), lua_setmetatable((L), -2))
static inline void astar_compat_setfuncs(lua_State *L, const luaL_Reg *l, int nup) {
  luaL_checkstack(L, nup + 1, "too many upvalues");
  for (; l->name != NULL; l++) {
    int i;
    for (i = 0; i < nup; i++) lua_pushvalue(L, -nup);
    lua_pushcclosure(L, l->func, nup);
    lua_setfield(L, -(nup + 2), l->name);
  }
  lua_pop(L, nup);
}
static inline void *astar_compat_testudata(lua_State *L, int i, const char *tname) {
  void *p = lua_touserdata(L, i);
  if (p == NULL || !lua_getmetatable(L, i)) return NULL;
  luaL_getmetatable(L, tname);
  if (!lua_rawequal(L, -1, -2)) p = NULL;
  lua_pop(L, 2);
  return p;
}
#  endif
#else
#  if LUA_VERSION_NUM < 504
#    define lua_newuserdatauv(L, sz, nuv) lua_newuserdata((L), (sz))
#  endif
#  define astar_compat_setuservalue(L, i) lua_setuservalue((L), (i))
#  define astar_compat_getuservalue(L, i) lua_getuservalue((L), (i))
#endif

#endif
