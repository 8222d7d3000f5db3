/*
** grid_load.c - grids from text (astar.grid.parse) and from Lua tables
** (astar.grid.from_table); the Moving AI reader in lua/astar.lua builds on
** parse.
*/
/***
Grids from text and from Lua tables: constructors on the Grid's page (config.ld merges
this file's entries into the Grid of grid.c).
@classmod Grid
*/
#include <math.h>
#include <string.h>
#include "binding.h"

static const afn F_PARSE = {"parse", 0};
static const afn F_FROM = {"from_table", 0};

/***
A grid from text, one line per row, one character per cell. `\r\n` line ends and a final
newline are accepted; every row must have the same length.
@function astar.grid.parse
@string text the map
@tparam table legend maps each character to a cost (a number > 0, or `true` for 1) or
`false` for blocked; a character missing from it is an error
@treturn Grid
@usage
local grid = astar.grid.parse([[
S..#
.~.#
..~G]], { ["."] = 1, ["~"] = 3, ["#"] = false, S = 1, G = 1 })
print(grid:size())              --> 4 3
print(grid:get(2, 2), grid:get(4, 1))   --> 3 false
*/
static int grid_parse(lua_State *L) {
  size_t len, i, j, row = 0, col, width = 0;
  const char *text;
  double table[256];
  char defined[256];
  lgrid *lg;
  if (lua_type(L, 1) != LUA_TSTRING)
    astar_argerror(L, &F_PARSE, 1, "string expected, got %s", luaL_typename(L, 1));
  if (lua_type(L, 2) != LUA_TTABLE)
    astar_argerror(L, &F_PARSE, 2, "table expected, got %s", luaL_typename(L, 2));
  text = lua_tolstring(L, 1, &len);
  memset(defined, 0, sizeof defined);
  lua_pushnil(L);
  while (lua_next(L, 2)) {                           /* key value */
    size_t kl;
    const char *k;
    double c;
    if (lua_type(L, -2) != LUA_TSTRING || (lua_tolstring(L, -2, &kl), kl != 1)) {
      if (lua_type(L, -2) == LUA_TSTRING)
        astar_argerror(L, &F_PARSE, 2, "legend key must be a single character, got '%s'",
                       lua_tostring(L, -2));
      astar_argerror(L, &F_PARSE, 2, "legend key must be a single character, got %s",
                     luaL_typename(L, -2));
    }
    k = lua_tostring(L, -2);
    c = astar_tocost(L, -1);
    if (c < 0) {
      char buf[32];
      if (lua_type(L, -1) == LUA_TNUMBER && astar_big(lua_tonumber(L, -1)))
        astar_argerror(L, &F_PARSE, 2, "legend value for '%s' is too large: %s (" ASTAR_BIG
                       ")", k, astar_fmtnum(buf, lua_tonumber(L, -1)));
      if (lua_type(L, -1) == LUA_TNUMBER)
        astar_argerror(L, &F_PARSE, 2, "legend value for '%s' must be a positive finite "
                       "number or false, got %s", k, astar_fmtnum(buf, lua_tonumber(L, -1)));
      astar_argerror(L, &F_PARSE, 2, "legend value for '%s' must be a positive finite "
                     "number or false, got %s", k, luaL_typename(L, -1));
    }
    table[(unsigned char)k[0]] = c;
    defined[(unsigned char)k[0]] = 1;
    lua_pop(L, 1);                                   /* key */
  }
  /* first pass: check every row and character */
  for (i = 0; i < len; row++) {
    size_t end = i;
    while (end < len && text[end] != '\n') end++;
    col = end - i;
    if (col > 0 && text[end - 1] == '\r') col--;
    if (col == 0 && end >= len) break;   /* nothing after a final newline */
    for (j = 0; j < col; j++) {
      unsigned char ch = (unsigned char)text[i + j];
      if (!defined[ch]) {
        if (ch >= 32 && ch < 127)
          astar_argerror(L, &F_PARSE, 1, "unknown character '%c' at line %d, column %d",
                         (int)ch, (int)row + 1, (int)j + 1);
        astar_argerror(L, &F_PARSE, 1, "unknown character (byte %d) at line %d, column %d",
                       (int)ch, (int)row + 1, (int)j + 1);
      }
    }
    if (row == 0) width = col;
    else if (col != width)
      astar_argerror(L, &F_PARSE, 1, "line %d has %d characters, expected %d",
                     (int)row + 1, (int)col, (int)width);
    if (width == 0) astar_argerror(L, &F_PARSE, 1, "line 1 is empty");
    i = end + 1;
  }
  if (row == 0) astar_argerror(L, &F_PARSE, 1, "empty map");
  if (width > INT32_MAX || row > INT32_MAX)
    astar_argerror(L, &F_PARSE, 1, "map too large");
  lg = astar_newgrid(L, &F_PARSE, 1, (int)width, (int)row, 1.0);
  for (i = 0, j = 0; j < row; j++) {
    astar_grid_set_row(lg->g, (int)j, (const unsigned char *)text + i, table);
    while (i < len && text[i] != '\n') i++;
    i++;
  }
  astar_gc_settle(L);
  return 1;
}

/***
A grid from a table of rows, `rows[y][x]`: every row a sequence of the same length,
without holes. Without `f`, each value is a cost: a number > 0, `true` (cost 1) or `false`
(blocked). If `f` is a function, `f(value, x, y)` returns the cost or `false`. Any other
`f` is the walkable value: cells equal to it cost 1, all others are blocked (Jumper's
convention, `from_table(map, 0)`).
@function astar.grid.from_table
@tparam table rows
@param[opt] f a function `f(value, x, y) -> cost or false`, or the walkable value
@treturn Grid
@usage
local rows = { { 0, 0, 1 },
               { 1, 0, 0 } }
local grid = astar.grid.from_table(rows, 0)     -- 0 is walkable, anything else blocked
print(grid:walkable(3, 1), #grid:find(1, 1, 3, 2))   --> false 4
local costs = astar.grid.from_table(rows, function(v) return v == 0 and 1 or 5 end)
print(costs:get(3, 1))                          --> 5
*/
/* The length of the row on top: its largest integer key, and no nil below it.
** Not '#', which may stop at any hole and does not stop at the same one on
** every VM: the message is the same everywhere. */
static int rowlength(lua_State *L, int y) {
  double kmax = 0;
  int i;
  lua_pushnil(L);
  while (lua_next(L, -2)) {                          /* row k v */
    double k = lua_type(L, -2) == LUA_TNUMBER ? (double)lua_tonumber(L, -2) : 0;
    lua_pop(L, 1);
    if (k > kmax && k == floor(k)) kmax = k;
  }
  if (kmax > INT32_MAX) astar_argerror(L, &F_FROM, 1, "row %d is too long", y);
  for (i = 1; i < (int)kmax; i++) {
    int hole;
    lua_rawgeti(L, -1, i);
    hole = lua_isnil(L, -1);
    lua_pop(L, 1);
    if (hole) astar_argerror(L, &F_FROM, 1, "row %d has holes (nil at index %d)", y, i);
  }
  return (int)kmax;
}

static int grid_from_table(lua_State *L) {
  int h, w = 0, x, y, mode;   /* mode 0: costs, 1: function, 2: walkable value */
  lgrid *lg;
  if (lua_type(L, 1) != LUA_TTABLE)
    astar_argerror(L, &F_FROM, 1, "table expected, got %s", luaL_typename(L, 1));
  mode = lua_isnoneornil(L, 2) ? 0 : lua_type(L, 2) == LUA_TFUNCTION ? 1 : 2;
  lua_settop(L, 2);
  h = (int)lua_rawlen(L, 1);
  if (h < 1) astar_argerror(L, &F_FROM, 1, "no rows");
  for (y = 1; y <= h; y++) {
    int n;
    lua_rawgeti(L, 1, y);
    if (lua_type(L, -1) != LUA_TTABLE)
      astar_argerror(L, &F_FROM, 1, "row %d is not a table", y);
    n = rowlength(L, y);
    if (y == 1) {
      if (n < 1) astar_argerror(L, &F_FROM, 1, "row 1 is empty");
      w = n;
    } else if (n != w) {
      astar_argerror(L, &F_FROM, 1, "row %d has %d cells, expected %d", y, n, w);
    }
    lua_pop(L, 1);
  }
  lg = astar_newgrid(L, &F_FROM, 1, w, h, 1.0);     /* rows f grid */
  for (y = 1; y <= h; y++) {
    lua_rawgeti(L, 1, y);                            /* rows f grid row */
    if (lua_type(L, -1) != LUA_TTABLE)               /* 'f' may have edited rows */
      astar_argerror(L, &F_FROM, 1, "row %d changed during from_table", y);
    for (x = 1; x <= w; x++) {
      double c;
      lua_rawgeti(L, 4, x);                          /* ... row v */
      if (mode == 1) {
        lua_pushvalue(L, 2);
        lua_insert(L, -2);                           /* ... row f v */
        lua_pushinteger(L, x);
        lua_pushinteger(L, y);
        lua_call(L, 3, 1);                           /* ... row c */
        c = astar_tocost(L, -1);
        if (c < 0 || lua_type(L, -1) == LUA_TNIL) {
          char buf[32];
          if (lua_type(L, -1) == LUA_TNUMBER && astar_big(lua_tonumber(L, -1)))
            astar_argerror(L, &F_FROM, 2, "function returned %s for cell (%d, %d): too large "
                           "(" ASTAR_BIG ")", astar_fmtnum(buf, lua_tonumber(L, -1)), x, y);
          if (lua_type(L, -1) == LUA_TNUMBER)
            astar_argerror(L, &F_FROM, 2, "function returned %s for cell (%d, %d); expected "
                           "a positive finite number or false",
                           astar_fmtnum(buf, lua_tonumber(L, -1)), x, y);
          astar_argerror(L, &F_FROM, 2, "function returned %s for cell (%d, %d); expected "
                         "a positive finite number or false", luaL_typename(L, -1), x, y);
        }
      } else if (mode == 2) {
        c = lua_rawequal(L, -1, 2) ? 1.0 : 0.0;
      } else {
        c = astar_tocost(L, -1);
        if (c < 0) {
          char buf[32];
          if (lua_type(L, -1) == LUA_TNUMBER && astar_big(lua_tonumber(L, -1)))
            astar_argerror(L, &F_FROM, 1, "cell (%d, %d): cost is too large: %s (" ASTAR_BIG
                           ")", x, y, astar_fmtnum(buf, lua_tonumber(L, -1)));
          if (lua_type(L, -1) == LUA_TNUMBER)
            astar_argerror(L, &F_FROM, 1, "cell (%d, %d): cost must be a positive finite "
                           "number or false, got %s", x, y,
                           astar_fmtnum(buf, lua_tonumber(L, -1)));
          astar_argerror(L, &F_FROM, 1, "cell (%d, %d): cost must be a positive finite "
                         "number or false, got %s", x, y, luaL_typename(L, -1));
        }
      }
      astar_grid_set(lg->g, x - 1, y - 1, c);
      lua_pop(L, 1);                                 /* rows f grid row */
    }
    lua_pop(L, 1);                                   /* rows f grid */
  }
  astar_gc_settle(L);
  return 1;
}

static const luaL_Reg load_funcs[] = {
  {"grid_parse", grid_parse},
  {"grid_from_table", grid_from_table},
  {NULL, NULL}
};

void astar_grid_load_open(lua_State *L) { luaL_setfuncs(L, load_funcs, 0); }
