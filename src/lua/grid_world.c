/*
** grid_world.c - a grid's world frame: the size of a tile and where cell
** (1, 1) starts, so games convert between pixels (or metres) and cells in
** one call, and navmeshes built from the grid share its coordinates.
*/
/***
World coordinates: methods on the Grid's page (config.ld merges this file's entries into
the Grid of grid.c).
@classmod Grid
*/
#include <math.h>
#include <string.h>
#include "binding.h"

static const afn F_SET_WORLD = {"set_world", 1};
static const afn F_WORLD = {"world", 1};
static const afn F_TO_WORLD = {"to_world", 1};
static const afn F_TO_CELL = {"to_cell", 1};
static const afn F_WORLD_POINTS = {"world_points", 1};

/* The number at t[key] (or t[key][i] when i > 0) at stack index t; 'def' if
** nil. Raises naming the field when it is not a number. */
static double field(lua_State *L, const afn *f, int idx, const char *key, int i, double def) {
  double v = def;
  lua_getfield(L, idx, key);
  if (i > 0) {
    if (!lua_istable(L, -1))
      astar_argerror(L, f, idx, "'%s' must be a table {x, y}, got %s", key, luaL_typename(L, -1));
    lua_rawgeti(L, -1, i);
    lua_remove(L, -2);
  }
  if (lua_type(L, -1) == LUA_TNUMBER) v = (double)lua_tonumber(L, -1);
  else if (!lua_isnil(L, -1) || i > 0)
    astar_argerror(L, f, idx, "'%s'%s: number expected, got %s", key,
                   i == 0 ? "" : i == 1 ? " [1]" : " [2]", luaL_typename(L, -1));
  lua_pop(L, 1);
  return v;
}

static void checksize(lua_State *L, const afn *f, int idx, double t) {
  char buf[32];
  if (!(t >= 1e-100 && t <= ASTAR_NUM_MAX))
    astar_argerror(L, f, idx, "a tile's sides must be in [1e-100, 1e+100], got %s",
                   astar_fmtnum(buf, t));
}

/* Reads a frame table {tile = t | {tw, th}, origin = {ox, oy}} at idx into
** *fr, checking it for a w x h grid (the far corner within 1e100). */
static void readframe(lua_State *L, const afn *f, int idx, int w, int h, astar_frame *fr) {
  char buf[2][32];
  if (!lua_istable(L, idx))
    astar_argerror(L, f, idx, "table expected, got %s", luaL_typename(L, idx));
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
    if (k == NULL || (strcmp(k, "tile") != 0 && strcmp(k, "origin") != 0))
      astar_argerror(L, f, idx, "unknown field %s (expected 'tile' and 'origin')",
                     k ? k : luaL_typename(L, -2));
    lua_pop(L, 1);
  }
  lua_getfield(L, idx, "tile");
  if (lua_istable(L, -1)) {
    lua_pop(L, 1);
    fr->tw = field(L, f, idx, "tile", 1, 1);
    fr->th = field(L, f, idx, "tile", 2, 1);
  } else {
    lua_pop(L, 1);
    fr->tw = fr->th = field(L, f, idx, "tile", 0, 1);
  }
  checksize(L, f, idx, fr->tw);
  checksize(L, f, idx, fr->th);
  lua_getfield(L, idx, "origin");
  fr->ox = fr->oy = 0;
  if (!lua_isnil(L, -1)) {
    fr->ox = field(L, f, idx, "origin", 1, 0);
    fr->oy = field(L, f, idx, "origin", 2, 0);
  }
  lua_pop(L, 1);
  if (!(fabs(fr->ox) < 1e12 * fr->tw && fabs(fr->oy) < 1e12 * fr->th))   /* cells stay apart */
    astar_argerror(L, f, idx, "the origin (%s, %s) is more than 1e12 tiles from (0, 0): cell "
                   "corners would round together", astar_fmtnum(buf[0], fr->ox),
                   astar_fmtnum(buf[1], fr->oy));
  if (!(fabs(fr->ox) + w * fr->tw <= ASTAR_NUM_MAX && fabs(fr->oy) + h * fr->th <= ASTAR_NUM_MAX))
    astar_argerror(L, f, idx, "the grid would reach (%s, %s): the world must lie within 1e+100 "
                   "of (0, 0)", astar_fmtnum(buf[0], fr->ox + w * fr->tw),
                   astar_fmtnum(buf[1], fr->oy + h * fr->th));
}

void astar_grid_setworld(lua_State *L, const afn *f, int idx, lgrid *lg) {
  astar_frame fr;
  readframe(L, f, idx, astar_grid_width(lg->g), astar_grid_height(lg->g), &fr);
  astar_map_alive(L, &lg->m);          /* a metamethod or finalizer may have closed it */
  lg->world = fr;
}

/***
Places the grid in the world: cell `(x, y)` covers the rectangle from
`ox + (x-1)*tw, oy + (y-1)*th` to `ox + x*tw, oy + y*th` (y grows downwards, as on screen).
@{Grid:to_world|to_world}, @{Grid:to_cell|to_cell}, @{Grid:world_points|world_points},
@{Grid:find_world|find_world} and `astar.navmesh.from_grid` use it, so a navmesh built from
the grid takes the same coordinates. Every grid starts with `tile = 1, origin = {0, 0}`
(cell `(x, y)` is `[x-1, x] x [y-1, y]`, the navmesh convention); `astar.grid(w, h, cost,
world)` sets it at once, and @{Grid:clone|clone} copies it. Not an edit: searches and live
queries are unaffected.
@function Grid:set_world
@tparam table world `tile = size` (square) or `{width, height}`, each in [1e-100, 1e+100],
default 1; `origin = {x, y}`: the world point of the grid's top-left corner, default `{0, 0}`
@treturn Grid the grid itself
@usage
local grid = astar.grid(40, 30):set_world{ tile = 32, origin = { 100, 50 } }
print(grid:to_cell(100, 50))          --> 1 1
print(grid:to_world(1, 1))            --> 116 66
*/
static int grid_set_world(lua_State *L) {
  lgrid *lg = astar_checkgrid(L, &F_SET_WORLD);
  astar_grid_square(L, lg, "set_world");
  astar_grid_setworld(L, &F_SET_WORLD, 2, lg);
  lua_settop(L, 1);
  return 1;
}

/***
The grid's world frame.
@function Grid:world
@treturn number the tile's width
@treturn number its height
@treturn number x of the grid's top-left corner
@treturn number y of it
*/
static int grid_world(lua_State *L) {
  lgrid *lg = astar_checkgrid(L, &F_WORLD);
  astar_grid_square(L, lg, "world");
  lua_pushnumber(L, (lua_Number)lg->world.tw);
  lua_pushnumber(L, (lua_Number)lg->world.th);
  lua_pushnumber(L, (lua_Number)lg->world.ox);
  lua_pushnumber(L, (lua_Number)lg->world.oy);
  return 4;
}

static double checkfinite(lua_State *L, const afn *f, int idx) {
  double v = astar_checknumber(L, f, idx);
  char buf[32];
  if (!(v > -HUGE_VAL && v < HUGE_VAL))
    astar_argerror(L, f, idx, "finite number expected, got %s", astar_fmtnum(buf, v));
  return v;
}

/***
The world point at the centre of cell `(x, y)`. Any finite numbers are accepted: the points
of a smoothed or any-angle path (cell numbers, centre at whole values) convert the same way.
@function Grid:to_world
@number x column (1-based)
@number y row
@treturn number world x: `ox + (x - 0.5) * tw`
@treturn number world y: `oy + (y - 0.5) * th`
*/
static int grid_to_world(lua_State *L) {
  lgrid *lg = astar_checkgrid(L, &F_TO_WORLD);
  astar_grid_square(L, lg, "to_world");
  double x = checkfinite(L, &F_TO_WORLD, 2), y = checkfinite(L, &F_TO_WORLD, 3);
  lua_pushnumber(L, (lua_Number)(lg->world.ox + (x - 0.5) * lg->world.tw));
  lua_pushnumber(L, (lua_Number)(lg->world.oy + (y - 0.5) * lg->world.th));
  return 2;
}

/***
The cell under a world point (a cell owns its left and top edges), or `nil` if the point is
off the grid. NaN raises; infinities are off the grid.
@function Grid:to_cell
@number wx
@number wy
@treturn int|nil column
@treturn int row
@usage
local grid = astar.grid(20, 15, 1, { tile = 16 })
print(grid:to_cell(40, 17))           --> 3 2
print(grid:to_cell(-1, 5))            --> nil
*/
static int grid_to_cell(lua_State *L) {
  lgrid *lg = astar_checkgrid(L, &F_TO_CELL);
  astar_grid_square(L, lg, "to_cell");
  double wx = astar_checknumber(L, &F_TO_CELL, 2), wy = astar_checknumber(L, &F_TO_CELL, 3);
  double x = floor((wx - lg->world.ox) / lg->world.tw) + 1;
  double y = floor((wy - lg->world.oy) / lg->world.th) + 1;
  if (wx != wx || wy != wy)
    astar_argerror(L, &F_TO_CELL, wx != wx ? 2 : 3, "number expected, got nan");
  if (!(x >= 1 && x <= astar_grid_width(lg->g) && y >= 1 && y <= astar_grid_height(lg->g))) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushinteger(L, (lua_Integer)x);
  lua_pushinteger(L, (lua_Integer)y);
  return 2;
}

/***
A path's points in world coordinates, as one flat list `{x1, y1, x2, y2, ...}` that
`love.graphics.line` takes: the centres of a grid path's cells, or the points of a smoothed or
any-angle path. (A navmesh path is in world coordinates already.)
@function Grid:world_points
@tparam Path path found on this grid (or on one of the same frame)
@tparam[opt] table into a table to fill and return instead of a new one (entries after the
last point are cleared): a unit redrawing its path every frame makes no garbage
@treturn table
@usage
local grid = astar.grid(10, 10, 1, { tile = 32 })
local pts = grid:world_points(grid:find(1, 1, 3, 1))
print(#pts, pts[1], pts[2], pts[5])   --> 6 16 16 80
*/
static int grid_world_points(lua_State *L) {
  lgrid *lg = astar_checkgrid(L, &F_WORLD_POINTS);
  astar_grid_square(L, lg, "world_points");
  size_t n = 0, i;
  const double *v = astar_path_cellpoints(L, 2, &n);
  lua_Integer k, old;
  astar_frame fr = lg->world;
  if (v == NULL)
    astar_argerror(L, &F_WORLD_POINTS, 2, "a Path in cells (a grid, smoothed or any-angle "
                   "path) expected, got %s", luaL_typename(L, 2));
  if (lua_isnoneornil(L, 3)) lua_createtable(L, (int)(2 * n), 0);
  else if (!lua_istable(L, 3))
    astar_argerror(L, &F_WORLD_POINTS, 3, "table expected, got %s", luaL_typename(L, 3));
  else lua_settop(L, 3);
  for (i = 0; i < n; i++) {
    lua_pushnumber(L, (lua_Number)(fr.ox + (v[2 * i] - 0.5) * fr.tw));
    lua_rawseti(L, -2, (int)(2 * i + 1));
    lua_pushnumber(L, (lua_Number)(fr.oy + (v[2 * i + 1] - 0.5) * fr.th));
    lua_rawseti(L, -2, (int)(2 * i + 2));
  }
  old = (lua_Integer)lua_rawlen(L, -1);
  for (k = (lua_Integer)(2 * n) + 1; k <= old; k++) {
    lua_pushnil(L);
    lua_rawseti(L, -2, (int)k);
  }
  return 1;
}

/***
@{Grid:find} between two world points: the cells under them (@{Grid:to_cell|to_cell}), and the
path's points in world coordinates (@{Grid:world_points|world_points}). A world point off the
grid raises.
@function Grid:find_world
@number wx0 start, in world units
@number wy0
@number wx1 goal
@number wy1
@tparam[opt] table opts as for @{Grid:find|find}
@treturn[1] table the path's points `{x1, y1, x2, y2, ...}`, cell centres in world units
@treturn[1] Path the path in cells (its cost, stats, links)
@return[2] nil, message, code as @{Grid:find|find}
@usage
local grid = astar.grid(20, 15, { tile = 32 })
grid:fill(5, 1, 1, 14, false)
local pts, path = grid:find_world(10, 10, 300, 20)
print(#pts == 2 * #path, pts[1], pts[2])   --> true 16 16
*/

static const luaL_Reg world_methods[] = {
  {"set_world", grid_set_world},
  {"world", grid_world},
  {"to_world", grid_to_world},
  {"to_cell", grid_to_cell},
  {"world_points", grid_world_points},
  {NULL, NULL}
};

void astar_grid_world_open(lua_State *L) { astar_addmethods(L, ASTAR_GRID_MT, world_methods); }
