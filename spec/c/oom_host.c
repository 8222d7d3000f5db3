/*
** oom_host.c - out of memory at every allocation, through the Lua binding.
**
** Usage: oom_host script.lua ...   (Lua 5.4; package paths from LUA_PATH_5_4
** and LUA_CPATH_5_4 as usual)
**
** A script returns {setup = f, body = f, check = f}. For N = 1, 2, ... the
** host makes a fresh state, runs setup(), then body(state) with every
** allocation from the N-th on refused (Lua's own memory tests work the same
** way: the core allocates through the state's allocator, so its scratch
** fails too), then check(state) with memory back. It stops at the first N
** that body does not reach. Each run must end in one of two ways: body
** returns, or raises "not enough memory"; check must pass either way (the
** objects are whole and answer right), and closing the state must free every
** block (no leak, counted here; ASan watches the rest). Prints one line per
** script; exits 1 at the first failure, with its N.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"

typedef struct ctl {
  long count;       /* growing allocations since armed */
  long fail_from;   /* refuse growing allocations from this one on; 0 = never */
  long live;        /* blocks alive */
  int armed, refused;
} ctl;

static void *oom_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  ctl *c = (ctl *)ud;
  void *p;
  if (nsize == 0) {
    if (ptr != NULL) { c->live--; free(ptr); }
    return NULL;
  }
  /* Lua assumes shrinking never fails: only growth is refused */
  if (c->armed && (ptr == NULL || nsize > osize) && ++c->count >= c->fail_from) {
    c->refused = 1;
    return NULL;
  }
  p = realloc(ptr, nsize);
  if (p != NULL && ptr == NULL) c->live++;
  return p;
}

/* Calls field 'name' of the table at index 1 with the value at index 2 (if
** any) as argument; leaves its first result or its error on the stack. */
static int call(lua_State *L, const char *name, int witharg) {
  lua_getfield(L, 1, name);
  if (witharg) lua_pushvalue(L, 2);
  return lua_pcall(L, witharg, 1, 0);
}

/* One run with allocations refused from n on. Returns 0 if body did not
** reach allocation n (the script is done), 1 if it did and all was well,
** -1 on a failure (reported). */
static int run(const char *script, long n) {
  ctl c = {0, 0, 0, 0, 0};
  lua_State *L = lua_newstate(oom_alloc, &c);
  int st, reached;
  if (L == NULL) { fprintf(stderr, "%s: cannot make a state\n", script); return -1; }
  luaL_openlibs(L);
  if (luaL_dofile(L, script) != LUA_OK || !lua_istable(L, -1)) {
    fprintf(stderr, "%s: %s\n", script, lua_tostring(L, -1));
    lua_close(L);
    return -1;
  }
  lua_settop(L, 1);
  if (call(L, "setup", 0) != LUA_OK) {              /* 1: script, 2: state */
    fprintf(stderr, "%s: setup: %s\n", script, lua_tostring(L, -1));
    lua_close(L);
    return -1;
  }
  c.fail_from = n; c.count = 0; c.armed = 1;
  st = call(L, "body", 1);
  c.armed = 0;
  reached = c.refused;
  if (st != LUA_OK) {
    const char *msg = lua_tostring(L, -1);
    if (!reached || msg == NULL || strstr(msg, "not enough memory") == NULL) {
      fprintf(stderr, "%s, allocation %ld refused: body raised %s\n", script, n,
              msg != NULL ? msg : "a non-string error");
      lua_close(L);
      return -1;
    }
  }
  lua_settop(L, 2);
  if (call(L, "check", 1) != LUA_OK) {
    fprintf(stderr, "%s, allocation %ld refused (body %s): check failed: %s\n", script, n,
            st == LUA_OK ? "returned" : "raised", lua_tostring(L, -1));
    lua_close(L);
    return -1;
  }
  lua_close(L);
  if (c.live != 0) {
    fprintf(stderr, "%s, allocation %ld refused: %ld blocks not freed\n", script, n, c.live);
    return -1;
  }
  return reached;
}

int main(int argc, char **argv) {
  int i;
  for (i = 1; i < argc; i++) {
    long n;
    int r = 1;
    for (n = 1; r == 1; n++) {
      r = run(argv[i], n);
      if (r < 0) return 1;
      if (n > 2000000) { fprintf(stderr, "%s: body never ends\n", argv[i]); return 1; }
    }
    printf("%-32s every one of %ld allocations refused in turn: errors, whole objects, no leak\n",
           argv[i], n - 2);
  }
  return 0;
}
