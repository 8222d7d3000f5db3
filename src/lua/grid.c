/*
** grid.c - the Grid userdata: construction, cells, and grid:find.
*/
/***
Grids: cells with costs, and `find`.
@classmod Grid
*/
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include "binding.h"

typedef struct lgrid {
  astar_grid *g;       /* NULL once closed */
  astar_search *s;     /* the grid's search context, created on first use */
  int busy;            /* a search on this grid is running */
} lgrid;

static const afn F_NEW = {"grid", 0};
static const afn F_PARSE = {"parse", 0};
static const afn F_FROM = {"from_table", 0};
static const afn F_FIND = {"find", 1};
static const afn F_GET = {"get", 1};
static const afn F_SET = {"set", 1};
static const afn F_FILL = {"fill", 1};
static const afn F_WALK = {"walkable", 1};
static const afn F_SIZE = {"size", 1};
static const afn F_CLONE = {"clone", 1};
static const afn F_STATS = {"stats", 1};

/* Pushes a new, empty grid userdata (closed state, metatable set). */
static lgrid *newgrid(lua_State *L) {
  lgrid *lg = (lgrid *)lua_newuserdatauv(L, sizeof(lgrid), 0);
  lg->g = NULL; lg->s = NULL; lg->busy = 0;
  luaL_setmetatable(L, ASTAR_GRID_MT);
  return lg;
}

/* Gives the empty userdata 'lg' a w x h core grid, raising on failure. */
static void makegrid(lua_State *L, lgrid *lg, const afn *f, int idx, int w, int h,
                     double cost) {
  void *ud;
  astar_alloc fn = astar_allocator(L, &ud);
  int rc;
  if ((uint64_t)w * (uint64_t)h > ASTAR_GRID_MAX_CELLS)
    astar_argerror(L, f, idx, "grid too large: %d x %d cells, at most %d in all", w, h,
                   (int)ASTAR_GRID_MAX_CELLS);
  rc = astar_grid_new(&lg->g, w, h, cost, fn, ud);
  if (rc != 0) astar_raise(L, rc);
}

/* The open grid at 'idx' (self). */
static lgrid *checkgrid(lua_State *L, const afn *f) {
  lgrid *lg = (lgrid *)luaL_testudata(L, 1, ASTAR_GRID_MT);
  if (lg == NULL)
    astar_argerror(L, f, 1, "astar.Grid expected, got %s", luaL_typename(L, 1));
  if (lg->g == NULL) astar_error(L, "attempt to use a closed grid");
  return lg;
}

static int checksize(lua_State *L, const afn *f, int idx, const char *what) {
  double n = astar_checknumber(L, f, idx);
  char buf[32];
  if (n != floor(n) || n == HUGE_VAL || n == -HUGE_VAL)
    astar_argerror(L, f, idx, "integer expected, got %s", astar_fmtnum(buf, n));
  if (n < 1) astar_argerror(L, f, idx, "%s must be at least 1, got %s", what,
                            astar_fmtnum(buf, n));
  if (n > (double)ASTAR_GRID_MAX_CELLS)
    astar_argerror(L, f, idx, "grid too large: %s %s, at most %d cells in all", what,
                   astar_fmtnum(buf, n), (int)ASTAR_GRID_MAX_CELLS);
  return (int)n;
}

/* astar.grid(w, h [, cost]) */
static int grid_new(lua_State *L) {
  int w = checksize(L, &F_NEW, 1, "width");
  int h = checksize(L, &F_NEW, 2, "height");
  double cost = lua_isnoneornil(L, 3) ? 1.0 : astar_checkcost(L, &F_NEW, 3);
  makegrid(L, newgrid(L), &F_NEW, 1, w, h, cost);
  return 1;
}

/* astar.grid.parse(text, legend) */
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
  lg = newgrid(L);
  makegrid(L, lg, &F_PARSE, 1, (int)width, (int)row, 1.0);
  for (i = 0, j = 0; j < row; j++) {
    astar_grid_set_row(lg->g, (int)j, (const unsigned char *)text + i, table);
    while (i < len && text[i] != '\n') i++;
    i++;
  }
  return 1;
}

/* astar.grid.from_table(rows [, f]) */
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
    n = (int)lua_rawlen(L, -1);
    lua_pushnil(L);                                  /* no holes: '#' is ambiguous */
    while (lua_next(L, -2)) {                        /* row k v */
      double k = lua_type(L, -2) == LUA_TNUMBER ? (double)lua_tonumber(L, -2) : 0;
      lua_pop(L, 1);
      if (k > n && k == floor(k)) {
        lua_pop(L, 1);
        astar_argerror(L, &F_FROM, 1, "row %d has holes (nil before index %d)", y, (int)k);
      }
    }
    if (y == 1) {
      if (n < 1) astar_argerror(L, &F_FROM, 1, "row 1 is empty");
      w = n;
    } else if (n != w) {
      astar_argerror(L, &F_FROM, 1, "row %d has %d cells, expected %d", y, n, w);
    }
    lua_pop(L, 1);
  }
  lg = newgrid(L);                                   /* rows f grid */
  makegrid(L, lg, &F_FROM, 1, w, h, 1.0);
  for (y = 1; y <= h; y++) {
    lua_rawgeti(L, 1, y);                            /* rows f grid row */
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
  return 1;
}

/***
The grid's size.
@function Grid:size
@treturn int width (columns)
@treturn int height (rows)
*/
static int grid_size(lua_State *L) {
  lgrid *lg = checkgrid(L, &F_SIZE);
  lua_pushinteger(L, astar_grid_width(lg->g));
  lua_pushinteger(L, astar_grid_height(lg->g));
  return 2;
}

/***
A cell's cost.
@function Grid:get
@int x column, 1-based
@int y row, 1-based
@treturn number|boolean the cost, or `false` if the cell is blocked
*/
static int grid_get(lua_State *L) {
  lgrid *lg = checkgrid(L, &F_GET);
  int x = astar_checkcoord(L, &F_GET, 2, "x", astar_grid_width(lg->g));
  int y = astar_checkcoord(L, &F_GET, 3, "y", astar_grid_height(lg->g));
  double c = astar_grid_get(lg->g, x, y);
  if (c > 0) lua_pushnumber(L, (lua_Number)c);
  else lua_pushboolean(L, 0);
  return 1;
}

/***
Whether a cell may be entered.
@function Grid:walkable
@int x
@int y
@treturn boolean
*/
static int grid_walkable(lua_State *L) {
  lgrid *lg = checkgrid(L, &F_WALK);
  int x = astar_checkcoord(L, &F_WALK, 2, "x", astar_grid_width(lg->g));
  int y = astar_checkcoord(L, &F_WALK, 3, "y", astar_grid_height(lg->g));
  lua_pushboolean(L, astar_grid_get(lg->g, x, y) > 0);
  return 1;
}

/* Edits are refused while a search runs on the grid (from a callback). */
static void checkidle(lua_State *L, lgrid *lg, const char *what) {
  if (lg->busy) astar_error(L, "cannot %s: a search on this grid is running", what);
}

/***
Sets a cell.
@function Grid:set
@int x
@int y
@tparam number|boolean v a cost > 0, `false` (blocked) or `true` (cost 1)
*/
static int grid_set(lua_State *L) {
  lgrid *lg = checkgrid(L, &F_SET);
  int x = astar_checkcoord(L, &F_SET, 2, "x", astar_grid_width(lg->g));
  int y = astar_checkcoord(L, &F_SET, 3, "y", astar_grid_height(lg->g));
  double c = astar_checkcost(L, &F_SET, 4);
  checkidle(L, lg, "edit the grid");
  astar_grid_set(lg->g, x, y, c);
  return 0;
}

/***
Sets every cell of a rectangle, which must lie inside the grid.
@function Grid:fill
@int x left column
@int y top row
@int w width, >= 0
@int h height, >= 0
@tparam number|boolean v a cost > 0 or `false`
*/
static int grid_fill(lua_State *L) {
  lgrid *lg = checkgrid(L, &F_FILL);
  int W = astar_grid_width(lg->g), H = astar_grid_height(lg->g);
  int x = astar_checkcoord(L, &F_FILL, 2, "x", W);
  int y = astar_checkcoord(L, &F_FILL, 3, "y", H);
  int w = astar_checkrange(L, &F_FILL, 4, "width", 0, W - x);
  int h = astar_checkrange(L, &F_FILL, 5, "height", 0, H - y);
  double c = astar_checkcost(L, &F_FILL, 6);
  checkidle(L, lg, "edit the grid");
  astar_grid_fill(lg->g, x, y, w, h, c);
  return 0;
}

/***
An independent copy of the grid.
@function Grid:clone
@treturn Grid
*/
static int grid_clone(lua_State *L) {
  lgrid *lg = checkgrid(L, &F_CLONE);
  lgrid *copy = newgrid(L);
  int rc = astar_grid_clone(&copy->g, lg->g);
  if (rc != 0) astar_raise(L, rc);
  return 1;
}

/***
Memory and edit counters: `{allocations = n, edits = m}`. `allocations`
counts the core's allocator calls for this grid and its search context over
their whole life, so a warm query that allocates nothing leaves it unchanged.
@function Grid:stats
@treturn table
*/
static int grid_stats(lua_State *L) {
  lgrid *lg = checkgrid(L, &F_STATS);
  size_t n = astar_grid_allocs(lg->g);
  if (lg->s != NULL) {
    astar_stats st;
    astar_search_stats(lg->s, &st);
    n += st.allocs;
  }
  lua_createtable(L, 0, 2);
  lua_pushinteger(L, (lua_Integer)n);
  lua_setfield(L, -2, "allocations");
  lua_pushinteger(L, (lua_Integer)astar_grid_version(lg->g));
  lua_setfield(L, -2, "edits");
  return 1;
}

static void release(lgrid *lg) {
  astar_search_free(lg->s);
  astar_grid_free(lg->g);
  lg->s = NULL;
  lg->g = NULL;
}

/***
Frees the grid's memory now (also `__close` and `__gc`). Idempotent; paths
found earlier stay valid; any other later use raises
`attempt to use a closed grid`.
@function Grid:close
*/
static int grid_close(lua_State *L) {
  lgrid *lg = (lgrid *)luaL_testudata(L, 1, ASTAR_GRID_MT);
  if (lg == NULL) {
    afn f; f.name = "close"; f.self = 1;
    astar_argerror(L, &f, 1, "astar.Grid expected, got %s", luaL_typename(L, 1));
  }
  if (lg->busy) astar_error(L, "cannot close the grid: a search on it is running");
  release(lg);
  return 0;
}

static int grid_gc(lua_State *L) {
  lgrid *lg = (lgrid *)lua_touserdata(L, 1);
  if (lg != NULL) release(lg);
  return 0;
}

static int grid_tostring(lua_State *L) {
  lgrid *lg = (lgrid *)luaL_testudata(L, 1, ASTAR_GRID_MT);
  if (lg == NULL || lg->g == NULL) lua_pushliteral(L, "astar.Grid (closed)");
  else lua_pushfstring(L, "astar.Grid (%dx%d)", astar_grid_width(lg->g),
                       astar_grid_height(lg->g));
  return 1;
}


/* ---------------------------------------------------------------------- */
/* find                                                                     */
/* ---------------------------------------------------------------------- */

static const char *const ALGORITHMS[] = {"astar", "dijkstra", "bfs", "greedy", NULL};
static const char *const DIAGONALS[] = {"no_corner_cutting", "never", "always",
                                        "one_obstacle", NULL};
static const char *const HEURISTICS[] = {"octile", "manhattan", "euclidean",
                                         "chebyshev", "zero", NULL};

static int optenum(lua_State *L, const afn *f, int idx, const char *name,
                   const char *const list[]) {
  int i;
  const char *v;
  if (lua_type(L, -1) != LUA_TSTRING)
    astar_argerror(L, f, idx, "option '%s': string expected, got %s", name,
                   luaL_typename(L, -1));
  v = lua_tostring(L, -1);
  for (i = 0; list[i] != NULL; i++)
    if (strcmp(list[i], v) == 0) return i;
  return astar_argerror(L, f, idx, "option '%s': invalid value '%s'", name, v);
}

static double optnum(lua_State *L, const afn *f, int idx, const char *name) {
  if (lua_type(L, -1) != LUA_TNUMBER)
    astar_argerror(L, f, idx, "option '%s': number expected, got %s", name,
                   luaL_typename(L, -1));
  return (double)lua_tonumber(L, -1);
}

/* Reads the options table at 'idx' into q; unknown names are errors. */
static void readopts(lua_State *L, const afn *f, int idx, astar_grid_query *q) {
  if (lua_isnoneornil(L, idx)) return;
  if (lua_type(L, idx) != LUA_TTABLE)
    astar_argerror(L, f, idx, "table expected, got %s", luaL_typename(L, idx));
  lua_pushnil(L);
  while (lua_next(L, idx)) {                         /* key value */
    const char *k;
    char buf[32];
    if (lua_type(L, -2) != LUA_TSTRING)
      astar_argerror(L, f, idx, "option names must be strings, got %s",
                     luaL_typename(L, -2));
    k = lua_tostring(L, -2);
    if (strcmp(k, "algorithm") == 0) {
      q->params.algorithm = optenum(L, f, idx, k, ALGORITHMS);
    } else if (strcmp(k, "diagonal") == 0) {
      q->diagonal = optenum(L, f, idx, k, DIAGONALS);
    } else if (strcmp(k, "heuristic") == 0) {
      q->heuristic = optenum(L, f, idx, k, HEURISTICS);
    } else if (strcmp(k, "weight") == 0) {
      double w = optnum(L, f, idx, k);
      if (!(w >= 1.0 && w < HUGE_VAL))
        astar_argerror(L, f, idx, "option 'weight': must be a finite number >= 1, got %s",
                       astar_fmtnum(buf, w));
      q->params.weight = w;
    } else if (strcmp(k, "max_expansions") == 0) {
      double n = optnum(L, f, idx, k);
      if (!(n >= 0 && n == floor(n) && n < 9007199254740992.0))
        astar_argerror(L, f, idx, "option 'max_expansions': must be a non-negative "
                       "integer, got %s", astar_fmtnum(buf, n));
      q->params.max_expansions = (uint64_t)n;
    } else if (strcmp(k, "max_cost") == 0) {
      double c = optnum(L, f, idx, k);
      if (!(c >= 0))
        astar_argerror(L, f, idx, "option 'max_cost': must be a non-negative number, "
                       "got %s", astar_fmtnum(buf, c));
      q->params.max_cost = c;
    } else if (strcmp(k, "partial") == 0) {
      if (lua_type(L, -1) != LUA_TBOOLEAN)
        astar_argerror(L, f, idx, "option 'partial': boolean expected, got %s",
                       luaL_typename(L, -1));
      q->params.partial = lua_toboolean(L, -1);
    } else {
      astar_argerror(L, f, idx, "unknown option '%s'", k);
    }
    lua_pop(L, 1);                                   /* key */
  }
}

/* Pushes the path the search context holds, as a Path. */
static void pushpath(lua_State *L, lgrid *lg, const astar_grid_query *q) {
  const uint32_t *nodes;
  double cost, *xy;
  astar_stats st;
  long n = astar_search_path(lg->s, &nodes, &cost), i;
  if (n < 0) astar_raise(L, (int)n);
  astar_search_stats(lg->s, &st);
  xy = astar_newpath(L, (size_t)n, 1, cost, &st, ALGORITHMS[q->params.algorithm]);
  for (i = 0; i < n; i++) {
    int x, y;
    astar_grid_cell(lg->g, nodes[i], &x, &y);
    xy[2 * i] = x + 1;
    xy[2 * i + 1] = y + 1;
  }
}

static int outcome(lua_State *L, const char *code, const char *fmt, ...) {
  va_list ap;
  lua_pushnil(L);
  va_start(ap, fmt);
  lua_pushvfstring(L, fmt, ap);
  va_end(ap);
  lua_pushstring(L, code);
  return 3;
}

/***
Finds a path from (sx, sy) to (gx, gy).
Options: `algorithm` ("astar", "dijkstra", "bfs", "greedy"), `diagonal`
("no_corner_cutting", "never", "always", "one_obstacle"), `heuristic`
("octile", "manhattan", "euclidean", "chebyshev", "zero"), `weight` (>= 1),
`max_expansions`, `max_cost`, `partial`. Defaults return shortest paths.
@function Grid:find
@int sx start column
@int sy start row
@int gx goal column
@int gy goal row
@tparam[opt] table opts
@treturn[1] Path the path
@treturn[2] nil
@treturn[2] string a message
@treturn[2] string the code: "no_path", "blocked" or "limit"
@treturn[3] Path with `partial = true`, the path toward the goal
@treturn[3] string a message
@treturn[3] string "partial"
*/
/* grid:find(sx, sy, gx, gy [, opts]) */
static int grid_find(lua_State *L) {
  lgrid *lg = checkgrid(L, &F_FIND);
  int w = astar_grid_width(lg->g), h = astar_grid_height(lg->g);
  int sx = astar_checkcoord(L, &F_FIND, 2, "x", w);
  int sy = astar_checkcoord(L, &F_FIND, 3, "y", h);
  int gx = astar_checkcoord(L, &F_FIND, 4, "x", w);
  int gy = astar_checkcoord(L, &F_FIND, 5, "y", h);
  astar_grid_query q;
  int rc;
  astar_grid_query_init(&q);
  readopts(L, &F_FIND, 6, &q);
  if (lg->busy) astar_error(L, "cannot search: a search on this grid is already running");
  if (lg->s == NULL) {
    void *ud;
    astar_alloc fn = astar_allocator(L, &ud);
    rc = astar_search_new(&lg->s, fn, ud);
    if (rc != 0) astar_raise(L, rc);
  }
  rc = astar_grid_find(lg->g, lg->s, &q, sx, sy, gx, gy);
  switch (rc) {
    case ASTAR_FOUND:
      pushpath(L, lg, &q);
      return 1;
    case ASTAR_BLOCKED:
      if (astar_grid_get(lg->g, sx, sy) <= 0)
        return outcome(L, "blocked", "start (%d, %d) is blocked", sx + 1, sy + 1);
      return outcome(L, "blocked", "goal (%d, %d) is blocked", gx + 1, gy + 1);
    case ASTAR_NO_PATH:
    case ASTAR_LIMIT: {
      const char *code = rc == ASTAR_NO_PATH ? "no_path" : "limit";
      if (q.params.partial) {
        pushpath(L, lg, &q);
        lua_pushfstring(L, "%s: partial path toward (%d, %d)",
                        rc == ASTAR_NO_PATH ? "no path" : "search limit reached",
                        gx + 1, gy + 1);
        lua_pushliteral(L, "partial");
        return 3;
      }
      if (rc == ASTAR_NO_PATH)
        return outcome(L, code, "no path from (%d, %d) to (%d, %d)", sx + 1, sy + 1,
                       gx + 1, gy + 1);
      return outcome(L, code, "search limit reached before (%d, %d) was found",
                     gx + 1, gy + 1);
    }
    default:
      return astar_raise(L, rc);
  }
}

static const luaL_Reg grid_methods[] = {
  {"size", grid_size},
  {"get", grid_get},
  {"set", grid_set},
  {"fill", grid_fill},
  {"walkable", grid_walkable},
  {"clone", grid_clone},
  {"stats", grid_stats},
  {"find", grid_find},
  {"close", grid_close},
  {NULL, NULL}
};

static const luaL_Reg grid_meta[] = {
  {"__gc", grid_gc},
  {"__close", grid_gc},
  {"__tostring", grid_tostring},
  {NULL, NULL}
};

static const luaL_Reg grid_funcs[] = {
  {"grid_new", grid_new},
  {"grid_parse", grid_parse},
  {"grid_from_table", grid_from_table},
  {NULL, NULL}
};

void astar_grid_open(lua_State *L) {
  luaL_newmetatable(L, ASTAR_GRID_MT);               /* core mt */
  luaL_setfuncs(L, grid_meta, 0);
  luaL_newlib(L, grid_methods);                      /* core mt methods */
  lua_pushvalue(L, -1);
  lua_setfield(L, -3, "__index");                    /* core mt methods */
  lua_setfield(L, -3, "Grid");                       /* core mt */
  lua_setfield(L, -2, "Grid_mt");                    /* core */
  luaL_setfuncs(L, grid_funcs, 0);
}
