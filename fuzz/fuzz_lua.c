/*
** fuzz_lua.c - the Lua 5.4 state the harnesses share, and what counts as a
** finding among Lua errors.
**
** The library's own errors are plain strings without a position: "bad
** argument #n to 'f' (...)", "navmesh: polygon 3 ...", "attempt to use a
** closed grid", "not enough memory". Everything else is a finding: a
** non-string error, a runtime error with a position (from the modules in lua/astar/),
** "attempt to index a nil value" and its kin raised without one (from C), an
** internal "astar: <status>", a stack overflow, and an error raised by a
** standard library function (string.format, table.concat, ...: the library's
** Lua code called it wrongly) -- the message handler sees which function
** raised before the stack unwinds.
**
** FUZZ_VERBOSE=1 in the environment prints the library's errors as they
** come, to see what an input does.
*/
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lualib.h"
#include "fuzz.h"

#if !defined(FUZZ_ROOT)
#  define FUZZ_ROOT "."          /* the Makefile passes the repository's absolute path */
#endif

/* Keys in the registry: the standard library's functions (a set), and the
** marker that starts a finding's message. */
#define STDFNS "fuzz.stdfns"
#define MARK "fuzz finding: "

unsigned fz_byte(fz_bytes *b) {
  if (b->n == 0) return 0;
  b->n--;
  return *b->p++;
}

unsigned fz_u16(fz_bytes *b) {
  unsigned lo = fz_byte(b);
  return lo | fz_byte(b) << 8;
}

void fz_fail(const char *fmt, ...) {
  va_list ap;
  fputs(MARK, stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  fflush(stderr);
  abort();
}

int fz_close(double a, double b) {
  double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
  return fabs(a - b) <= 1e-9 * (m > 1 ? m : 1);
}

double fz_numfield(lua_State *L, int idx, const char *k) {
  double v = lua_getfield(L, idx, k) == LUA_TNUMBER ? (double)lua_tonumber(L, -1) : NAN;
  lua_pop(L, 1);
  return v;
}

/* Does 'msg' start with a chunk position, "<something>.lua:<line>:"? */
static int positioned(const char *msg) {
  const char *p = strstr(msg, ".lua:"), *sp = strchr(msg, ' ');
  if (p == NULL || (sp != NULL && sp < p)) return 0;
  p += 5;
  if (!isdigit((unsigned char)*p)) return 0;
  while (isdigit((unsigned char)*p)) p++;
  return *p == ':';
}

static int startswith(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Is 'msg' (raised by a function that is not a standard one) one of the
** library's own messages? */
static int ownmessage(const char *msg) {
  if (positioned(msg) || startswith(msg, "astar: ")) return 0;
  if (startswith(msg, "attempt to ") && !startswith(msg, "attempt to use a closed")) return 0;
  return !startswith(msg, "stack overflow") && !startswith(msg, "C stack overflow") &&
         strstr(msg, "error in error handling") == NULL;
}

/* Did a standard library function raise the error being handled? Level 1 is
** the function that raised (level 0: this handler). */
static int stdraised(lua_State *L) {
  lua_Debug ar;
  int std;
  if (!lua_getstack(L, 1, &ar)) return 0;
  lua_getinfo(L, "f", &ar);                          /* msg fn */
  lua_getfield(L, LUA_REGISTRYINDEX, STDFNS);        /* msg fn set */
  lua_pushvalue(L, -2);
  std = lua_rawget(L, -2) != LUA_TNIL;               /* msg fn set v */
  lua_pop(L, 3);
  return std;
}

/* The message handler: the library's own messages pass unchanged; anything
** else becomes MARK, the message and a traceback. */
static int msgh(lua_State *L) {
  const char *msg = lua_tostring(L, 1);
  int own = lua_type(L, 1) == LUA_TSTRING && !stdraised(L) && ownmessage(msg);
  if (own) return 1;
  if (msg == NULL) msg = lua_pushfstring(L, "(a %s as error object)", luaL_typename(L, 1));
  lua_pushfstring(L, MARK "%s", msg);
  luaL_traceback(L, L, lua_tostring(L, -1), 1);
  return 1;
}

int fz_pcall(lua_State *L, int nargs, int nresults) {
  int st = lua_pcall(L, nargs, nresults, FZ_MSGH);
  const char *msg;
  if (st == LUA_OK) return st;
  msg = lua_tostring(L, -1);
  if (msg != NULL && startswith(msg, MARK)) fz_fail("%s", msg + strlen(MARK));
  if (st != LUA_ERRRUN && st != LUA_ERRMEM) fz_fail("lua_pcall status %d: %s", st,
                                                    msg != NULL ? msg : "?");
  if (getenv("FUZZ_VERBOSE") != NULL) fprintf(stderr, "library error: %s\n", msg);
  return st;
}

void fz_method(lua_State *L, int obj, const char *name) {
  obj = lua_absindex(L, obj);
  lua_getfield(L, obj, name);
  lua_pushvalue(L, obj);
}

void fz_getlib(lua_State *L, const char *dotted) {
  char key[64];
  const char *dot = strchr(dotted, '.');
  size_t n = dot != NULL ? (size_t)(dot - dotted) : strlen(dotted);
  if (n >= sizeof key) fz_fail("fz_getlib: name too long: %s", dotted);
  memcpy(key, dotted, n);
  key[n] = '\0';
  lua_getfield(L, FZ_ASTAR, key);
  if (dot != NULL) {
    lua_getfield(L, -1, dot + 1);
    lua_remove(L, -2);
  }
}

void fz_done(lua_State *L) {
  if (lua_gettop(L) != FZ_TOP) fz_fail("stack top %d after the input, expected %d",
                                       lua_gettop(L), FZ_TOP);
  if (lua_gc(L, LUA_GCCOUNT, 0) > 8 * 1024) lua_gc(L, LUA_GCCOLLECT, 0);
}

/* Adds every function of the table on top to the set below it. */
static void addfns(lua_State *L) {
  lua_pushnil(L);
  while (lua_next(L, -2)) {                          /* set t k v */
    if (lua_type(L, -1) == LUA_TFUNCTION) {
      lua_pushvalue(L, -1);
      lua_pushboolean(L, 1);
      lua_rawset(L, -6);                             /* set[v] = true */
    }
    lua_pop(L, 1);
  }
}

/* The set of standard functions, 'error' left out: the library raises its
** messages with error(msg, 0). */
static void stdfns(lua_State *L) {
  static const char *const libs[] = {"_G", "string", "table", "math", "utf8", "os", "io",
                                     "coroutine", "debug", "package", NULL};
  int i;
  lua_newtable(L);                                   /* set */
  for (i = 0; libs[i] != NULL; i++) {
    lua_getglobal(L, libs[i]);
    addfns(L);
    lua_pop(L, 1);
  }
  lua_getglobal(L, "error");
  lua_pushnil(L);
  lua_rawset(L, -3);
  lua_setfield(L, LUA_REGISTRYINDEX, STDFNS);
}

/* package.path at the repository's Lua files; only the preloaded core. */
static void paths(lua_State *L) {
  const char *root = getenv("ASTAR_ROOT");
  if (root == NULL || root[0] == '\0') root = FUZZ_ROOT;
  lua_getglobal(L, "package");                       /* package */
  lua_pushfstring(L, "%s/lua/?.lua;%s/lua/?/init.lua", root, root);
  lua_setfield(L, -2, "path");
  lua_pushliteral(L, "");
  lua_setfield(L, -2, "cpath");
  lua_getfield(L, -1, "preload");                    /* package preload */
  lua_pushcfunction(L, luaopen_astar_core);
  lua_setfield(L, -2, "astar.core");
  lua_pop(L, 2);
}

lua_State *fz_open(void) {
  lua_State *L = luaL_newstate();
  if (L == NULL) fz_fail("cannot make a Lua state");
  luaL_openlibs(L);
  stdfns(L);
  paths(L);
  lua_getglobal(L, "require");
  lua_pushliteral(L, "astar");
  if (lua_pcall(L, 1, 1, 0) != LUA_OK) fz_fail("require 'astar': %s", lua_tostring(L, -1));
  lua_pushcfunction(L, msgh);                        /* astar msgh */
  return L;
}

lua_State *fz_L;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  fz_L = fz_open();
  return 0;
}
