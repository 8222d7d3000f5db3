/*
** path.c - the Path userdata: a compact array of points and the statistics
** of the search that found it. Paths own their memory (they are one Lua
** userdata), so they outlive the map they came from.
*/
/***
Paths: compact arrays of points, with the statistics of their search.
@classmod Path
*/
#include <stdio.h>
#include <string.h>
#include "binding.h"

struct lpath {
  size_t n;              /* points */
  int ints;              /* coordinates are integers (grid cells) */
  double cost;
  astar_stats st;
  const char *algorithm; /* a static string */
  double xy[1];          /* 2n coordinates (struct hack sized at creation) */
};

static const afn F_GET = {"get", 1};

double *astar_newpath(lua_State *L, size_t n, int ints, double cost,
                      const astar_stats *st, const char *algorithm) {
  size_t sz = sizeof(lpath) + (n > 0 ? 2 * n - 1 : 0) * sizeof(double);
  lpath *p = (lpath *)lua_newuserdatauv(L, sz, 0);
  p->n = n; p->ints = ints; p->cost = cost; p->st = *st;
  p->algorithm = algorithm;
  luaL_setmetatable(L, ASTAR_PATH_MT);
  return p->xy;
}

static lpath *checkpath(lua_State *L, const char *fname) {
  lpath *p = (lpath *)luaL_testudata(L, 1, ASTAR_PATH_MT);
  if (p == NULL) {
    afn f; f.name = fname; f.self = 1;
    astar_argerror(L, &f, 1, "astar.Path expected, got %s", luaL_typename(L, 1));
  }
  return p;
}

static void pushcoord(lua_State *L, const lpath *p, double v) {
  if (p->ints) lua_pushinteger(L, (lua_Integer)v);
  else lua_pushnumber(L, (lua_Number)v);
}

/***
The number of points (`#path`), start and goal included.
@function Path:__len
@treturn int
*/
static int path_len(lua_State *L) {
  lpath *p = checkpath(L, "__len");
  lua_pushinteger(L, (lua_Integer)p->n);
  return 1;
}

/***
Point i. Negative indices count from the end (-1 is the goal).
@function Path:get
@int i
@treturn number x
@treturn number y
*/
static int path_get(lua_State *L) {
  lpath *p = checkpath(L, "get");
  int i = astar_checkint(L, &F_GET, 2);
  long n = (long)p->n;
  long k = i < 0 ? n + i + 1 : i;
  if (i == 0 || k < 1 || k > n)
    astar_argerror(L, &F_GET, 2, "index out of range: %d not in [1, %d] or [-%d, -1]",
                   i, (int)n, (int)n);
  pushcoord(L, p, p->xy[2 * (k - 1)]);
  pushcoord(L, p, p->xy[2 * (k - 1) + 1]);
  return 2;
}

static int path_iter(lua_State *L) {
  lpath *p = (lpath *)lua_touserdata(L, 1);
  lua_Integer i = lua_tointeger(L, 2) + 1;
  if (i < 1 || (size_t)i > p->n) return 0;
  lua_pushinteger(L, i);
  pushcoord(L, p, p->xy[2 * (i - 1)]);
  pushcoord(L, p, p->xy[2 * (i - 1) + 1]);
  return 3;
}

/***
Iterates over the points: `for i, x, y in path:points() do ... end`.
@function Path:points
@treturn function
*/
static int path_points(lua_State *L) {
  checkpath(L, "points");
  lua_pushcfunction(L, path_iter);
  lua_pushvalue(L, 1);
  lua_pushinteger(L, 0);
  return 3;
}

/***
The path's total cost (the sum of its step costs).
@function Path:cost
@treturn number
*/
static int path_cost(lua_State *L) {
  lpath *p = checkpath(L, "cost");
  lua_pushnumber(L, (lua_Number)p->cost);
  return 1;
}

/***
The points as one flat list `{x1, y1, x2, y2, ...}` (for `love.graphics.line`).
@function Path:flat
@treturn table
*/
static int path_flat(lua_State *L) {
  lpath *p = checkpath(L, "flat");
  size_t i;
  lua_createtable(L, (int)(2 * p->n), 0);
  for (i = 0; i < 2 * p->n; i++) {
    pushcoord(L, p, p->xy[i]);
    lua_rawseti(L, -2, (int)(i + 1));
  }
  return 1;
}

/***
The points as a list of `{x = , y = }` tables.
@function Path:table
@treturn table
*/
static int path_table(lua_State *L) {
  lpath *p = checkpath(L, "table");
  size_t i;
  lua_createtable(L, (int)p->n, 0);
  for (i = 0; i < p->n; i++) {
    lua_createtable(L, 0, 2);
    pushcoord(L, p, p->xy[2 * i]);
    lua_setfield(L, -2, "x");
    pushcoord(L, p, p->xy[2 * i + 1]);
    lua_setfield(L, -2, "y");
    lua_rawseti(L, -2, (int)(i + 1));
  }
  return 1;
}

/***
Statistics of the search that found the path:
`{expanded = , generated = , reopened = , algorithm = }`.
@function Path:stats
@treturn table
*/
static int path_stats(lua_State *L) {
  lpath *p = checkpath(L, "stats");
  lua_createtable(L, 0, 4);
  lua_pushinteger(L, (lua_Integer)p->st.expanded);
  lua_setfield(L, -2, "expanded");
  lua_pushinteger(L, (lua_Integer)p->st.generated);
  lua_setfield(L, -2, "generated");
  lua_pushinteger(L, (lua_Integer)p->st.reopened);
  lua_setfield(L, -2, "reopened");
  lua_pushstring(L, p->algorithm);
  lua_setfield(L, -2, "algorithm");
  return 1;
}

static int path_tostring(lua_State *L) {
  lpath *p = checkpath(L, "__tostring");
  char buf[32];
  lua_pushfstring(L, "astar.Path (%d points, cost %s)", (int)p->n,
                  astar_fmtnum(buf, p->cost));
  return 1;
}

static const luaL_Reg path_methods[] = {
  {"get", path_get},
  {"points", path_points},
  {"cost", path_cost},
  {"flat", path_flat},
  {"table", path_table},
  {"stats", path_stats},
  {NULL, NULL}
};

static const luaL_Reg path_meta[] = {
  {"__len", path_len},
  {"__tostring", path_tostring},
  {NULL, NULL}
};

void astar_path_open(lua_State *L) {
  luaL_newmetatable(L, ASTAR_PATH_MT);               /* core mt */
  luaL_setfuncs(L, path_meta, 0);
  luaL_newlib(L, path_methods);                      /* core mt methods */
  lua_pushvalue(L, -1);                              /* core mt methods methods */
  lua_setfield(L, -3, "__index");                    /* core mt methods */
  lua_setfield(L, -3, "Path");                       /* core mt */
  lua_setfield(L, -2, "Path_mt");                    /* core */
}
