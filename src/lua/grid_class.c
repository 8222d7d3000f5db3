/*
** grid_class.c - the Lua side of movement classes (src/core/grid_class.c):
** grid:class, and the edits of a grid passed on to its classes.
**
** Which classes follow a grid is kept in Lua: a table in the registry, weak
** in its keys, maps each grid userdata to a table whose keys (weak too) are
** its classes. A class no longer referenced goes with the collector; a grid
** that goes takes its table with it. No C pointer joins the two userdata, so
** either may be closed or collected first.
*/
/***
Movement classes: methods on the Grid's page (config.ld merges this file's entries into
the Grid of grid.c).
@classmod Grid
*/
#include <math.h>
#include "binding.h"

static const afn F_CLASS = {"class", 1};

static const char CLASSES_KEY = 'c';    /* its address keys the table in the registry */

/* Pushes the table of lg's classes (the grid at index 'gi'), made if 'make';
** returns 0 and pushes nothing if there is none. */
static int pushclasses(lua_State *L, int gi, int make) {
  lua_pushlightuserdata(L, (void *)&CLASSES_KEY);
  lua_rawget(L, LUA_REGISTRYINDEX);                  /* all */
  lua_pushvalue(L, gi);
  lua_rawget(L, -2);                                 /* all t */
  if (lua_istable(L, -1)) {
    lua_remove(L, -2);
    return 1;
  }
  lua_pop(L, 1);
  if (!make) {
    lua_pop(L, 1);
    return 0;
  }
  lua_newtable(L);                                   /* all t */
  lua_createtable(L, 0, 1);
  lua_pushliteral(L, "k");
  lua_setfield(L, -2, "__mode");
  lua_setmetatable(L, -2);
  lua_pushvalue(L, gi);                              /* all t grid */
  lua_rawget(L, -3);                                 /* a finalizer may have made one */
  if (lua_istable(L, -1)) {                          /* all t t' */
    lua_remove(L, -2);
    lua_remove(L, -2);
    return 1;
  }
  lua_pop(L, 1);
  lua_pushvalue(L, gi);
  lua_pushvalue(L, -2);                              /* all t grid t */
  lua_rawset(L, -4);
  lua_remove(L, -2);
  return 1;
}

/* The class at the key on top of the stack: a grid (the registry is open to
** debug.getregistry, so the key is checked), or NULL. */
static lgrid *classat(lua_State *L, int idx) {
  lgrid *k = (lgrid *)luaL_testudata(L, idx, ASTAR_GRID_MT);
  return k != NULL && k->g != NULL && k->follows ? k : NULL;
}

/* Reads the table of costs at idx into pairs (cost in the grid, cost in the
** class); returns how many. Read in one pass (lua_next allocates nothing). */
static size_t readcosts(lua_State *L, int idx, double *pairs) {
  size_t n = 0, j;
  char buf[32], buf2[32];
  lua_pushnil(L);
  while (lua_next(L, idx)) {                         /* key value */
    double from = astar_tocost(L, -2), to = astar_tocost(L, -1);
    if (from < 0)
      astar_argerror(L, &F_CLASS, 2, "a key must be a cost (a number > 0, at most 1e+100), "
                     "true or false, got %s", lua_type(L, -2) == LUA_TNUMBER
                     ? astar_fmtnum(buf, (double)lua_tonumber(L, -2)) : luaL_typename(L, -2));
    if (to < 0)
      astar_argerror(L, &F_CLASS, 2, "the cost for %s must be a number > 0 (at most "
                     "1e+100), true or false, got %s", astar_fmtnum(buf, from),
                     lua_type(L, -1) == LUA_TNUMBER
                     ? astar_fmtnum(buf2, (double)lua_tonumber(L, -1))
                     : luaL_typename(L, -1));
    for (j = 0; j < n; j++)
      if (pairs[2 * j] == from)
        astar_argerror(L, &F_CLASS, 2, "cost %s is given twice", from > 0 ?
                       astar_fmtnum(buf, from) : "false");
    if (n == ASTAR_GRID_CLASS_MAX)
      astar_argerror(L, &F_CLASS, 2, "at most %d costs", ASTAR_GRID_CLASS_MAX);
    pairs[2 * n] = from;
    pairs[2 * n + 1] = to;
    n++;
    lua_pop(L, 1);
  }
  if (n == 0) astar_argerror(L, &F_CLASS, 2, "empty table of costs");
  return n;
}

/***
A movement class: a grid that follows this one through a table of costs, for units that
cross the same terrain at other costs (boats, tanks, flyers). Its cells are this grid's, each
cost `c` replaced by `costs[c]` (a cost the table does not name is kept; `false` names
blocked cells, so a flyer may cross walls); every later edit of this grid (@{Grid:set|set},
@{Grid:fill|fill}) is made to its classes too, as their own edit, so their live queries see
it. A class is a Grid for everything else: every algorithm, option and method, jump point
search and distance fields included, at the same speed (its own cells: 8 bytes a cell). It may
not be edited itself (edit the grid it follows); its links are its own; a clone of it is a
plain grid. It starts in this grid's world frame.
@function Grid:class
@tparam table costs `{[cost here] = cost in the class, ...}`: keys and values are costs
(numbers > 0), `true` (1) or `false` (blocked); at most 256 entries
@treturn Grid the class
@usage
local map = astar.grid.parse("..~~..\n..~~..", { ["."] = 1, ["~"] = 3 })
local boat = map:class({ [1] = false, [3] = 1 })     -- water only, and fast on it
local walker = map:class({ [3] = false })             -- never into water
print(boat:find(3, 1, 4, 2):cost())                   --> 1.4142135623731
print(walker:find(1, 1, 6, 1))                        --> nil no path from (1, 1) to (6, 1) no_path
map:fill(3, 2, 2, 1, 1)                               -- a bridge on the bottom row
print(walker:find(1, 1, 6, 1):cost())                 --> 5.8284271247462
*/
static int grid_class(lua_State *L) {
  lgrid *lg = astar_checkgrid(L, &F_CLASS), *k;
  double pairs[2 * ASTAR_GRID_CLASS_MAX];
  size_t n;
  int rc;
  if (lg->follows)
    astar_error(L, "a movement class has no classes of its own: make them from the grid it "
                "follows");
  if (lua_type(L, 2) != LUA_TTABLE)
    astar_argerror(L, &F_CLASS, 2, "table expected, got %s", luaL_typename(L, 2));
  lua_settop(L, 2);
  n = readcosts(L, 2, pairs);
  pushclasses(L, 1, 1);                              /* grid costs t */
  k = astar_pushgrid(L);                             /* grid costs t k (closed) */
  astar_map_alive(L, &lg->m);                        /* a finalizer may have closed it */
  rc = astar_grid_class(&k->g, lg->g, pairs, n);
  if (rc != 0) astar_raise(L, rc);
  k->m.core = k->g;
  k->world = lg->world;
  k->follows = 1;
  lua_pushvalue(L, -1);
  lua_pushboolean(L, 1);
  lua_rawset(L, -4);                                 /* t[k] = true */
  lg->classes = 1;
  astar_gc_settle(L);
  return 1;
}

void astar_grid_check_editable(lua_State *L, lgrid *lg) {
  astar_map_idle(L, &lg->m, "edit");
  if (lg->follows)
    astar_error(L, "cannot edit a movement class: edit the grid it follows (grid:class)");
  if (!lg->classes) return;
  if (!pushclasses(L, 1, 0)) return;
  lua_pushnil(L);
  while (lua_next(L, -2)) {                          /* t k true */
    lgrid *k = classat(L, -2);
    lua_pop(L, 1);
    if (k != NULL && k->m.busy)
      astar_error(L, "cannot edit the grid: a search on one of its movement classes is "
                  "running");
  }
  lua_pop(L, 1);
}

void astar_grid_sync_classes(lua_State *L, lgrid *lg, int x, int y, int w, int h) {
  if (!lg->classes || !pushclasses(L, 1, 0)) return;
  lua_pushnil(L);
  while (lua_next(L, -2)) {                          /* t k true */
    lgrid *k = classat(L, -2);
    lua_pop(L, 1);
    if (k != NULL) astar_grid_class_sync(k->g, lg->g, x, y, w, h);
  }
  lua_pop(L, 1);
}

static const luaL_Reg class_methods[] = {
  {"class", grid_class},
  {NULL, NULL}
};

void astar_grid_class_open(lua_State *L) {
  lua_pushlightuserdata(L, (void *)&CLASSES_KEY);
  lua_newtable(L);
  lua_createtable(L, 0, 1);
  lua_pushliteral(L, "k");
  lua_setfield(L, -2, "__mode");
  lua_setmetatable(L, -2);
  lua_rawset(L, LUA_REGISTRYINDEX);
  astar_addmethods(L, ASTAR_GRID_MT, class_methods);
}
