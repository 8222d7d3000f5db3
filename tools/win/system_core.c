/*
** system_core.c - `system.core`, as much of it as busted uses: gettime, monotime, sleep
** (busted/core.lua). Only for running the spec suite with the interpreters tools/windows.sh
** builds (LuaJIT for Windows under wine, 32-bit LuaJIT for Linux); never shipped.
**
** Why not Debian's lua-system: its source package cannot be fetched here (the archive answers
** 404 for lua-system_0.2.1.orig.tar.gz), so these three functions are written against the
** Windows API and POSIX instead. Same names, same units (seconds, as numbers).
*/
#ifdef _WIN32
#  include <windows.h>
#else
#  define _POSIX_C_SOURCE 200809L
#  include <time.h>
#endif

#include "lua.h"
#include "lauxlib.h"

#ifdef _WIN32

/* Seconds since 1970-01-01 UTC. FILETIME counts 100 ns ticks since 1601-01-01. */
static int sys_gettime(lua_State *L) {
  FILETIME ft;
  ULARGE_INTEGER t;
  GetSystemTimeAsFileTime(&ft);
  t.LowPart = ft.dwLowDateTime;
  t.HighPart = ft.dwHighDateTime;
  lua_pushnumber(L, (double)(t.QuadPart - 116444736000000000ULL) * 1e-7);
  return 1;
}

/* Seconds on a clock that never goes back (its origin is arbitrary). */
static int sys_monotime(lua_State *L) {
  LARGE_INTEGER count, freq;
  QueryPerformanceCounter(&count);
  QueryPerformanceFrequency(&freq);
  lua_pushnumber(L, (double)count.QuadPart / (double)freq.QuadPart);
  return 1;
}

static int sys_sleep(lua_State *L) {
  double s = luaL_checknumber(L, 1);
  Sleep(s > 0 ? (DWORD)(s * 1000.0 + 0.5) : 0);
  return 0;
}

__declspec(dllexport) int luaopen_system_core(lua_State *L);

#else

static double seconds(clockid_t id) {
  struct timespec t;
  clock_gettime(id, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int sys_gettime(lua_State *L) {
  lua_pushnumber(L, seconds(CLOCK_REALTIME));
  return 1;
}

static int sys_monotime(lua_State *L) {
  lua_pushnumber(L, seconds(CLOCK_MONOTONIC));
  return 1;
}

static int sys_sleep(lua_State *L) {
  double s = luaL_checknumber(L, 1);
  struct timespec t;
  if (!(s > 0)) return 0;
  t.tv_sec = (time_t)s;
  t.tv_nsec = (long)((s - (double)t.tv_sec) * 1e9);
  nanosleep(&t, NULL);
  return 0;
}

int luaopen_system_core(lua_State *L);

#endif

int luaopen_system_core(lua_State *L) {
  lua_createtable(L, 0, 3);
  lua_pushcfunction(L, sys_gettime);
  lua_setfield(L, -2, "gettime");
  lua_pushcfunction(L, sys_monotime);
  lua_setfield(L, -2, "monotime");
  lua_pushcfunction(L, sys_sleep);
  lua_setfield(L, -2, "sleep");
  return 1;
}
