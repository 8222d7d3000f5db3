/*
** grid_hex.c - the Lua side of hexagonal grids (src/core/grid_hex.c):
** astar.hexgrid, the axial coordinates, and the refusals of what only
** square grids do.
*/
/***
Hexagonal grids: methods on the Grid's page (config.ld merges this file's entries into the
Grid of grid.c).
@classmod Grid
*/
#include <string.h>
#include "binding.h"

static const afn F_HEX = {"hexgrid", 0};
static const afn F_AXIAL = {"to_axial", 1};
static const afn F_OFFSET = {"from_axial", 1};
static const afn F_HEXDIST = {"hex_distance", 1};

/* ASTAR_HEX_* - 1 */
static const char *const LAYOUTS[] = {"odd-r", "even-r", "odd-q", "even-q", NULL};

void astar_grid_square(lua_State *L, const lgrid *lg, const char *what) {
  if (lg != NULL && lg->g != NULL && astar_grid_hex(lg->g))
    astar_error(L, "%s: not for a hex grid (square grids only)", what);
  if (lg != NULL && lg->g != NULL && astar_grid_wrap(lg->g))
    astar_error(L, "%s: not for a wrapping grid", what);
}

void astar_grid_hexopts(lua_State *L, const afn *f, const lgrid *lg, const astar_opts *o) {
  static const int SQUARE[] = {ASTAR_OPT_DIAGONAL, ASTAR_OPT_RADIUS, ASTAR_OPT_SIZE};
  static const char *const NAMES[] = {"diagonal", "radius", "size"};
  int i;
  if (astar_grid_wrap(lg->g)) {                      /* square, but no lines or discs */
    for (i = 1; i < 3; i++)
      if (o->given[SQUARE[i]])
        astar_opterror(L, f, o, "option '%s' does not apply to a wrapping grid", NAMES[i]);
    return;
  }
  if (!astar_grid_hex(lg->g)) return;
  for (i = 0; i < 3; i++)
    if (o->given[SQUARE[i]])
      astar_opterror(L, f, o, "option '%s' does not apply to a hex grid", NAMES[i]);
  if (o->given[ASTAR_OPT_HEURISTIC] && !o->fn[ASTAR_OPT_HEURISTIC] &&
      o->v[ASTAR_OPT_HEURISTIC] != ASTAR_H_ZERO)
    astar_opterror(L, f, o, "option 'heuristic': a hex grid takes the hex distance (the "
                   "default), 'zero' or a function");
}

/***
A hexagonal grid: `w` columns and `h` rows of hexagons in offset coordinates, the layouts
of Amit Patel's hexagon guide. `"odd-r"` (pointy tops) shoves every second row (rows 2, 4, ...
counting from 1) half a cell right, `"even-r"` the others (rows 1, 3, ...); `"odd-q"` (flat
tops) shoves columns 2, 4, ... half a cell down, `"even-q"` columns 1, 3, .... A cell has six
neighbours, and a step costs the cost of the cell it enters. It is a @{Grid}: `get`, `set`,
`fill`, `find` (A\*, Dijkstra, BFS, greedy; `goals`, `within` in hex steps, `partial`, limits,
`cost` and `heuristic` functions, `overlay`), `query`, `distance_field` (ranges: every cell
within a cost, with `max_cost`), components, links, classes, `check`, `to_path`, `splice`;
the heuristic is the hex distance times the smallest cost. What only square grids have
raises: the `diagonal`, `radius` and `size` options, jump point search, Theta\*, lines and
smoothing, `prepare`, the replanner, world coordinates, `navmesh.from_grid`.
@function astar.hexgrid
@int w columns, at least 1
@int h rows, at least 1
@tparam[opt=1] number|boolean cost every cell's cost, or `false` for blocked
@tparam[opt] table opts `layout = "odd-r"` (the default), `"even-r"`, `"odd-q"` or `"even-q"`
(may come third, without a cost)
@treturn Grid
@usage
local hex = astar.hexgrid(8, 6)
hex:fill(4, 1, 1, 5, false)                    -- a wall, open at the bottom row
local path = assert(hex:find(1, 1, 8, 1))
print(#path - 1, hex:hex_distance(1, 1, 8, 1))   --> 12 7
print(hex:to_axial(3, 2))                      --> 2 1
*/
/* The layout (ASTAR_HEX_*) the options table at 'optidx' (0: none) names. */
static int layoutof(lua_State *L, const afn *f, int optidx) {
  int layout = 0;
  if (optidx == 0) return ASTAR_HEX_ODD_R;
  if (lua_type(L, optidx) != LUA_TTABLE)
    astar_argerror(L, f, optidx, "table expected, got %s", luaL_typename(L, optidx));
  lua_getfield(L, optidx, "layout");
  if (!lua_isnil(L, -1)) {
    if (lua_type(L, -1) != LUA_TSTRING)
      astar_argerror(L, f, optidx, "option 'layout': string expected, got %s",
                     luaL_typename(L, -1));
    for (layout = 0; LAYOUTS[layout] != NULL &&
                     strcmp(LAYOUTS[layout], lua_tostring(L, -1)) != 0; layout++) {}
    if (LAYOUTS[layout] == NULL)
      astar_argerror(L, f, optidx, "option 'layout': invalid value '%s'", lua_tostring(L, -1));
  }
  lua_pop(L, 1);
  lua_pushnil(L);
  while (lua_next(L, optidx)) {
    if (lua_type(L, -2) != LUA_TSTRING || strcmp(lua_tostring(L, -2), "layout") != 0)
      astar_argerror(L, f, optidx, "unknown option '%s'",
                     lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?");
    lua_pop(L, 1);
  }
  return layout + 1;
}

static void makehex(lua_State *L, lgrid *lg, int layout) {
  int rc = astar_grid_set_hex(lg->g, layout);
  if (rc != 0) astar_raise(L, rc);
}

static int hex_new(lua_State *L) {
  int optidx = lua_istable(L, 3) ? 3 : lua_istable(L, 4) ? 4 : 0, layout;
  lgrid *lg;
  if (optidx == 3 && !lua_isnoneornil(L, 4))
    astar_argerror(L, &F_HEX, 4, "nothing expected after the options, got %s",
                   luaL_typename(L, 4));
  layout = layoutof(L, &F_HEX, optidx);
  lg = astar_grid_construct(L, &F_HEX, optidx);
  makehex(L, lg, layout);
  astar_gc_settle(L);
  return 1;
}

/***
A hex grid from text, one line per row, as @{astar.grid.parse} reads it; `opts.layout` as
@{astar.hexgrid}'s.
@function astar.hexgrid.parse
@string text
@tparam table legend each character's cost or `false`
@tparam[opt] table opts `layout = "odd-r"` (the default), `"even-r"`, `"odd-q"` or `"even-q"`
@treturn Grid
@usage
local hex = astar.hexgrid.parse("..#..\n..#..\n.....", { ["."] = 1, ["#"] = false },
  { layout = "odd-q" })
print(hex:hex(), hex:find(1, 1, 5, 1):cost())     --> odd-q 6.0
*/

/***
A hex grid from `rows[y][x]`, as @{astar.grid.from_table} reads it (with its optional `f`);
`opts.layout` as @{astar.hexgrid}'s.
@function astar.hexgrid.from_table
@tparam table rows
@param[opt] f as @{astar.grid.from_table}'s
@tparam[opt] table opts `layout`
@treturn Grid
@usage
local hex = astar.hexgrid.from_table({ { 1, 1, 1 }, { 1, false, 1 } }, nil, { layout = "even-r" })
print(hex:hex(), hex:walkable(2, 2))             --> even-r false
*/

/* core.hexgrid_of(grid, opts, name, argn): makes the grid just built by a
** square constructor a hex grid with the layout of opts (argument argn of
** 'name' in messages). */
static int hex_of(lua_State *L) {
  afn f;
  lgrid *lg = (lgrid *)luaL_checkudata(L, 1, ASTAR_GRID_MT);
  f.name = luaL_checkstring(L, 3);
  f.self = 2 - (int)luaL_checkinteger(L, 4);        /* opts (index 2) is argument #argn */
  makehex(L, lg, layoutof(L, &f, lua_isnoneornil(L, 2) ? 0 : 2));
  lua_settop(L, 1);
  return 1;
}

/* The hex grid at 1 and a cell at 2, 3 (0-based into *x, *y). */
static lgrid *hexcell(lua_State *L, const afn *f, int idx, int *x, int *y) {
  lgrid *lg = astar_checkgrid(L, f);
  if (!astar_grid_hex(lg->g)) astar_error(L, "%s: a hex grid's method", f->name);
  *x = astar_checkcoord(L, f, idx, "x", astar_grid_width(lg->g));
  *y = astar_checkcoord(L, f, idx + 1, "y", astar_grid_height(lg->g));
  return lg;
}

/***
A hex grid's cell in axial coordinates (Amit Patel's `q, r`): cell `(1, 1)` is `(0, 0)`; `q`
grows to the east, `r` to the south-east (pointy tops) or south (flat tops).
@function Grid:to_axial
@int x column
@int y row
@treturn int q
@treturn int r
*/
static int hex_to_axial(lua_State *L) {
  int x, y, q, r;
  lgrid *lg = hexcell(L, &F_AXIAL, 2, &x, &y);
  astar_grid_hex_axial(lg->g, x, y, &q, &r);
  lua_pushinteger(L, q);
  lua_pushinteger(L, r);
  return 2;
}

/***
The cell of axial coordinates `q, r` (@{Grid:to_axial}), or `nil` if it lies outside the grid.
@function Grid:from_axial
@int q
@int r
@treturn[1] int x column
@treturn[1] int y row
@return[2] nil
*/
static int hex_from_axial(lua_State *L) {
  lgrid *lg = astar_checkgrid(L, &F_OFFSET);
  int q, r, x, y;
  if (!astar_grid_hex(lg->g)) astar_error(L, "from_axial: a hex grid's method");
  q = astar_checkrange(L, &F_OFFSET, 2, "q", -(1 << 28), 1 << 28);
  r = astar_checkrange(L, &F_OFFSET, 3, "r", -(1 << 28), 1 << 28);
  astar_grid_hex_offset(lg->g, q, r, &x, &y);
  if (x < 0 || y < 0 || x >= astar_grid_width(lg->g) || y >= astar_grid_height(lg->g)) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushinteger(L, x + 1);
  lua_pushinteger(L, y + 1);
  return 2;
}

/***
The number of steps between two cells of a hex grid with nothing in the way.
@function Grid:hex_distance
@int x1
@int y1
@int x2
@int y2
@treturn int
*/
static int hex_distance(lua_State *L) {
  int x1, y1, x2, y2;
  lgrid *lg = hexcell(L, &F_HEXDIST, 2, &x1, &y1);
  hexcell(L, &F_HEXDIST, 4, &x2, &y2);
  lua_pushinteger(L, astar_grid_hex_distance(lg->g, x1, y1, x2, y2));
  return 1;
}

/***
A hex grid's layout: `"odd-r"`, `"even-r"`, `"odd-q"` or `"even-q"`; `nil` for a square grid.
@function Grid:hex
@treturn string|nil
*/
static int grid_hex(lua_State *L) {
  static const afn F = {"hex", 1};
  lgrid *lg = astar_checkgrid(L, &F);
  int k = astar_grid_hex(lg->g);
  if (k == 0) lua_pushnil(L);
  else lua_pushstring(L, LAYOUTS[k - 1]);
  return 1;
}

static const luaL_Reg hex_methods[] = {
  {"to_axial", hex_to_axial},
  {"from_axial", hex_from_axial},
  {"hex_distance", hex_distance},
  {"hex", grid_hex},
  {NULL, NULL}
};

static const luaL_Reg hex_funcs[] = {
  {"hexgrid_new", hex_new},
  {"hexgrid_of", hex_of},
  {NULL, NULL}
};

void astar_grid_hex_open(lua_State *L) {
  astar_addmethods(L, ASTAR_GRID_MT, hex_methods);
  luaL_setfuncs(L, hex_funcs, 0);
}
