/*
** grid_wrap.c - the Lua side of wrapping grids (src/core/grid_wrap.c):
** grid:set_wrap and grid:wrap.
*/
/***
Wrapping grids: methods on the Grid's page (config.ld merges this file's entries into the
Grid of grid.c).
@classmod Grid
*/
#include "binding.h"

/* ASTAR_WRAP_* bits, by index */
static const char *const MODES[] = {"none", "x", "y", "xy", NULL};

/***
Makes the grid wrap around: `"x"` joins its east and west edges (a cylinder, like a planet's
longitudes), `"y"` its north and south edges, `"xy"` both (a torus), `"none"` neither (the
default). A step off one edge then enters the cell on the opposite edge, under the diagonal
policy as anywhere else; the built-in heuristics measure a wrapped axis the shorter way round,
so searches stay shortest. An edit of the whole grid (live queries restart). Every search,
query, distance field, component, link, class, overlay, `check` and `to_path` take the
seams; what follows straight lines or jumps does not, and raises: the `radius` and `size`
options, `"jps"`, `"theta"` and `"lazy_theta"`, `walkable_line`, `path:smooth`, `prepare`,
the replanner and `navmesh.from_grid`. Hex grids wrap too (their six steps cross the seams,
`hex_distance` goes the shorter way round), along the axis whose lines are shoved (rows for
`"odd-r"` and `"even-r"`, columns for the `-q` layouts) only with an even count of them, or
the shove would not match across the seam: that raises. Raises from a callback of a
search running on the grid.
@function Grid:set_wrap
@string mode `"x"`, `"y"`, `"xy"` or `"none"`
@treturn Grid the grid
@usage
local world = astar.grid(10, 3)
world:fill(5, 1, 1, 3, false)                  -- a wall down the middle
print(world:find(3, 2, 8, 2))                  --> nil no path from (3, 2) to (8, 2) no_path
world:set_wrap("x")
print(world:find(3, 2, 8, 2):cost())           --> 5.0
*/
static int grid_set_wrap(lua_State *L) {
  static const afn F = {"set_wrap", 1};
  lgrid *lg = astar_checkgrid(L, &F);
  int mode = astar_checkenum(L, &F, 2, "mode", MODES), rc;
  int hex = astar_grid_hex(lg->g), byrow = hex == ASTAR_HEX_ODD_R || hex == ASTAR_HEX_EVEN_R;
  if (hex && (mode & (byrow ? ASTAR_WRAP_Y : ASTAR_WRAP_X)) &&
      (byrow ? astar_grid_height(lg->g) : astar_grid_width(lg->g)) % 2 != 0)
    astar_error(L, "set_wrap: a hex grid whose %s are shoved (%s) wraps %s only with an even "
                "%s", byrow ? "rows" : "columns", byrow ? "odd-r, even-r" : "odd-q, even-q",
                byrow ? "north-south" : "east-west", byrow ? "height" : "width");
  astar_grid_check_editable(L, lg);
  rc = astar_grid_set_wrap(lg->g, mode);
  if (rc != 0) astar_raise(L, rc);
  lua_settop(L, 1);
  return 1;
}

/***
How the grid wraps: `"x"`, `"y"` or `"xy"`; `nil` if it does not.
@function Grid:wrap
@treturn string|nil
*/
static int grid_wrap(lua_State *L) {
  static const afn F = {"wrap", 1};
  lgrid *lg = astar_checkgrid(L, &F);
  int mode = astar_grid_wrap(lg->g);
  if (mode == 0) lua_pushnil(L);
  else lua_pushstring(L, MODES[mode]);
  return 1;
}

static const luaL_Reg wrap_methods[] = {
  {"set_wrap", grid_set_wrap},
  {"wrap", grid_wrap},
  {NULL, NULL}
};

void astar_grid_wrap_open(lua_State *L) { astar_addmethods(L, ASTAR_GRID_MT, wrap_methods); }
