/*
** fuzz_grid_text.c - libFuzzer harness for the grid readers: astar.grid.parse
** (text, legend), astar.grid.parse_movingai (text), astar.parse_scenarios
** (text) and astar.grid.from_table (rows [, f]), then two grid:find on each
** grid made, against a plain Dijkstra.
**
** Input: byte 0 chooses the reader (mod 4); bytes 1-2 add one legend entry
** for parse (a character and a cost code, see extra()), or choose
** from_table's second argument; bytes 3-10 pick the two searches' ends among
** the walkable cells (four 16-bit indices); the rest is the text (for
** from_table: one row a line, one cell a byte, see cellvalue()).
**
** Findings (abort): a crash or sanitizer report; an error that is not the
** library's own message (fuzz_lua.c); parse or from_table accepting text,
** rows or a legend that the README's rules refuse, or refusing what they
** accept, or making other cells than the input says; parse_movingai making a
** grid unlike its map lines; parse_scenarios returning other entries than the
** text's lines or coordinates outside the map; a path that is not a legal
** 8-connected no-corner-cutting walk between the chosen cells, or whose cost
** differs from the reference's by more than 1e-9 relative; "no_path" where
** the reference finds one; render() not giving the grid's shape; the Lua
** stack left unbalanced.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"


#define HEADER 11
#define BASE_CHARS ".#~SGo2"

/* The base legend: '.' 1, '#' blocked, '~' 3, 'S' and 'G' 1, 'o' 0.5, '2' 2.25. */
static double basecost(int ch) {
  static const double costs[] = {1, 0, 3, 1, 1, 0.5, 2.25};
  const char *p = ch != 0 ? strchr(BASE_CHARS, ch) : NULL;
  return p != NULL ? costs[p - BASE_CHARS] : -1;
}

/* Pushes the extra legend value of 'code'; returns its cost (0 blocked) or
** -1 when the library must refuse it. */
static double extra(unsigned code) {
  if (code == 0) { lua_pushboolean(fz_L, 0); return 0; }
  if (code < 248) { lua_pushnumber(fz_L, code / 8.0); return code / 8.0; }
  switch (code) {
    case 248: lua_pushboolean(fz_L, 1); return 1;
    case 249: lua_pushnumber(fz_L, 0); return -1;
    case 250: lua_pushnumber(fz_L, -1); return -1;
    case 251: lua_pushnumber(fz_L, 1e101); return -1;
    case 252: lua_pushnumber(fz_L, NAN); return -1;
    case 253: lua_pushnumber(fz_L, 1e100); return 1e100;
    case 254: lua_pushliteral(fz_L, "x"); return -1;
    default: lua_pushnumber(fz_L, 1e-300); return 1e-300;
  }
}

/* Pushes the legend table; fills val[256] (cost, 0 blocked, -1 not in it).
** Returns 0 if the library must refuse the legend. */
static int legend(unsigned ch, unsigned code, double *val) {
  int i, ok = 1;
  double c;
  lua_createtable(fz_L, 0, 8);
  for (i = 0; i < 256; i++) val[i] = basecost(i);
  for (i = 0; BASE_CHARS[i] != '\0'; i++) {
    char k[2] = {BASE_CHARS[i], '\0'};
    if (basecost(k[0]) > 0) lua_pushnumber(fz_L, basecost(k[0]));
    else lua_pushboolean(fz_L, 0);
    lua_setfield(fz_L, -2, k);
  }
  c = extra(code);
  if (ch == 0) {                                     /* a key of two characters */
    lua_setfield(fz_L, -2, "ab");
    return 0;
  }
  {
    char k[2] = {(char)ch, '\0'};
    lua_setfield(fz_L, -2, k);
  }
  if (c < 0) ok = 0;
  val[ch] = c;
  return ok;
}

/* The cells grid.parse must make of the text (one line a row; a '\r' before
** '\n' and one final newline ignored; rows equal and not empty; every
** character in the legend): 1 and g filled, or 0 if it must refuse it. */
static int expect_parse(const char *t, size_t len, const double *val, fz_grid *g) {
  size_t i = 0, k = 0, width = 0, rows = 0;
  while (i <= len) {
    size_t end = i, col, j;
    while (end < len && t[end] != '\n') end++;
    col = end - i;
    if (col > 0 && t[end - 1] == '\r') col--;
    if (col == 0 && end >= len) break;
    if (col == 0 || (rows > 0 && col != width)) return 0;
    width = col;
    for (j = 0; j < col; j++) {
      double c = val[(unsigned char)t[i + j]];
      if (c < 0) return 0;
      g->cell[k++] = c;
    }
    rows++;
    i = end + 1;
  }
  if (rows == 0) return 0;
  g->w = (int)width;
  g->h = (int)rows;
  return 1;
}

/* The lines of 'text' as lua/astar/movingai.lua's lines_of splits them:
** pieces between '\n', one trailing '\r' off each, a last empty one dropped.
** Fills start[] and length[] (at most 'max'); returns the count. */
static size_t lines(const char *t, size_t len, size_t *start, size_t *length, size_t max) {
  size_t i = 0, n = 0;
  while (i <= len && n < max) {
    size_t end = i;
    while (end < len && t[end] != '\n') end++;
    start[n] = i;
    length[n] = end - i;
    if (length[n] > 0 && t[end - 1] == '\r') length[n]--;
    n++;
    i = end + 1;
  }
  if (n > 0 && length[n - 1] == 0) n--;
  return n;
}

/* The cells of a Moving AI map that parse_movingai accepted: every line after
** the first "map" line is a row. 0 if there is no such line. */
static int expect_movingai(const char *t, size_t len, fz_grid *g) {
  size_t *st = malloc((len + 2) * sizeof *st), *ln = malloc((len + 2) * sizeof *ln);
  size_t n, m, y, x, k = 0;
  int ok = 0;
  if (st == NULL || ln == NULL) fz_fail("out of memory");
  n = lines(t, len, st, ln, len + 2);
  for (m = 0; m < n && !(ln[m] == 3 && memcmp(t + st[m], "map", 3) == 0); m++) {}
  if (m + 1 < n) {
    g->h = (int)(n - m - 1);
    g->w = (int)ln[m + 1];
    ok = 1;
    for (y = m + 1; y < n; y++) {
      if (ln[y] != (size_t)g->w) fz_fail("parse_movingai accepted rows of different lengths");
      for (x = 0; x < ln[y]; x++) g->cell[k++] = strchr(".GS", t[st[y] + x]) ? 1 : 0;
    }
  }
  free(st);
  free(ln);
  return ok;
}

/* Compares the grid at 'idx' with g, cell by cell. */
static void compare(int idx, const fz_grid *g, const char *what) {
  int x, y;
  fz_method(fz_L, idx, "size");
  fz_pcall(fz_L, 1, 2);
  if (lua_tointeger(fz_L, -2) != g->w || lua_tointeger(fz_L, -1) != g->h)
    fz_fail("%s made a %dx%d grid, the text has %dx%d", what, (int)lua_tointeger(fz_L, -2),
            (int)lua_tointeger(fz_L, -1), g->w, g->h);
  lua_pop(fz_L, 2);
  for (y = 0; y < g->h; y++)
    for (x = 0; x < g->w; x++) {
      double want = g->cell[y * g->w + x], got;
      fz_method(fz_L, idx, "get");
      lua_pushinteger(fz_L, x + 1);
      lua_pushinteger(fz_L, y + 1);
      fz_pcall(fz_L, 3, 1);
      got = lua_type(fz_L, -1) == LUA_TNUMBER ? lua_tonumber(fz_L, -1) : lua_toboolean(fz_L, -1) ? -1 : 0;
      lua_pop(fz_L, 1);
      if (got != want) fz_fail("%s: cell (%d, %d) is %g, the text says %g", what, x + 1, y + 1,
                               got, want);
    }
}

/* The walkable cell number k (mod their count) of g, as an index; -1 if none. */
static int walkable(const fz_grid *g, unsigned k) {
  int i, n = 0, total = g->w * g->h;
  for (i = 0; i < total; i++) n += g->cell[i] > 0;
  if (n == 0) return -1;
  k %= (unsigned)n;
  for (i = 0; i < total; i++)
    if (g->cell[i] > 0 && k-- == 0) return i;
  return -1;
}

/* grid:render(path) must give h lines of w characters. */
static void render(int grid, int path, const fz_grid *g) {
  size_t len;
  const char *s;
  int lines_seen = 1;
  fz_method(fz_L, grid, "render");
  lua_pushvalue(fz_L, path);
  fz_pcall(fz_L, 2, 1);
  s = lua_tolstring(fz_L, -1, &len);
  if (s == NULL || len != (size_t)g->w * g->h + g->h - 1) fz_fail("render: wrong length");
  for (; *s != '\0'; s++) lines_seen += *s == '\n';
  if (lines_seen != g->h) fz_fail("render: %d lines for %d rows", lines_seen, g->h);
  lua_pop(fz_L, 1);
}

/* One grid:find between walkable cells s and t (indices), against Dijkstra. */
static void search(int grid, const fz_grid *g, int s, int t, const char *algorithm) {
  double *dist = malloc((size_t)g->w * g->h * sizeof *dist);
  int sx = s % g->w, sy = s / g->w, tx = t % g->w, ty = t / g->w;
  if (dist == NULL) fz_fail("out of memory");
  fz_dijkstra(g, sx, sy, FZ_NOCUT, dist);
  fz_method(fz_L, grid, "find");
  lua_pushinteger(fz_L, sx + 1);
  lua_pushinteger(fz_L, sy + 1);
  lua_pushinteger(fz_L, tx + 1);
  lua_pushinteger(fz_L, ty + 1);
  lua_createtable(fz_L, 0, 1);
  lua_pushstring(fz_L, algorithm);
  lua_setfield(fz_L, -2, "algorithm");
  fz_pcall(fz_L, 6, 3);                                 /* path msg code */
  if (lua_isnil(fz_L, -3)) {
    if (dist[t] < HUGE_VAL || strcmp(lua_tostring(fz_L, -1), "no_path") != 0)
      fz_fail("find (%d, %d) -> (%d, %d) [%s]: %s (%s), the reference costs %.17g", sx + 1,
              sy + 1, tx + 1, ty + 1, algorithm, lua_tostring(fz_L, -2), lua_tostring(fz_L, -1),
              dist[t]);
  } else {
    fz_gpath p;
    char why[256];
    if (!fz_check_gpath(fz_L, -3, g, FZ_NOCUT, &p, why))
      fz_fail("find (%d, %d) -> (%d, %d) [%s]: %s", sx + 1, sy + 1, tx + 1, ty + 1, algorithm,
              why);
    if (p.sx != sx || p.sy != sy || p.ex != tx || p.ey != ty)
      fz_fail("find (%d, %d) -> (%d, %d): the path runs (%d, %d) -> (%d, %d)", sx + 1, sy + 1,
              tx + 1, ty + 1, p.sx + 1, p.sy + 1, p.ex + 1, p.ey + 1);
    if (!fz_close(p.cost, dist[t]))
      fz_fail("find (%d, %d) -> (%d, %d) [%s] costs %.17g, the reference %.17g", sx + 1,
              sy + 1, tx + 1, ty + 1, algorithm, p.cost, dist[t]);
    render(grid, lua_gettop(fz_L) - 2, g);
  }
  lua_pop(fz_L, 3);
  free(dist);
}

/* The searches of the input on the grid at 'grid', then closes it. */
static void searches(int grid, const fz_grid *g, fz_bytes *q) {
  static const char *const algs[] = {"auto", "astar"};
  int i;
  for (i = 0; i < 2; i++) {
    int s = walkable(g, fz_u16(q)), t = walkable(g, fz_u16(q));
    if (s >= 0 && t >= 0) search(grid, g, s, t, algs[i]);
  }
  fz_method(fz_L, grid, "close");
  fz_pcall(fz_L, 1, 0);
}

static void run_parse(const char *t, size_t len, unsigned ch, unsigned code, fz_bytes *q) {
  double val[256];
  fz_grid g = {0, 0, NULL, 0, NULL};
  int valid;
  g.cell = malloc((len + 1) * sizeof *g.cell);
  if (g.cell == NULL) fz_fail("out of memory");
  fz_getlib(fz_L, "grid.parse");
  lua_pushlstring(fz_L, t, len);
  valid = legend(ch, code, val);
  valid = expect_parse(t, len, val, &g) && valid;
  if (fz_pcall(fz_L, 2, 1) != LUA_OK) {
    if (valid) fz_fail("parse refused a valid map: %s", lua_tostring(fz_L, -1));
  } else {
    if (!valid) fz_fail("parse accepted a map the README's rules refuse");
    compare(-1, &g, "parse");
    searches(lua_gettop(fz_L), &g, q);
  }
  lua_pop(fz_L, 1);
  free(g.cell);
}

static void run_movingai(const char *t, size_t len, fz_bytes *q) {
  fz_grid g = {0, 0, NULL, 0, NULL};
  g.cell = malloc((len + 1) * sizeof *g.cell);
  if (g.cell == NULL) fz_fail("out of memory");
  fz_getlib(fz_L, "grid.parse_movingai");
  lua_pushlstring(fz_L, t, len);
  if (fz_pcall(fz_L, 1, 1) == LUA_OK) {
    if (!expect_movingai(t, len, &g)) fz_fail("parse_movingai accepted a map without rows");
    compare(-1, &g, "parse_movingai");
    searches(lua_gettop(fz_L), &g, q);
  }
  lua_pop(fz_L, 1);
  free(g.cell);
}

/* Does line [s, s + n) hold a character other than Lua's %s (C isspace)? */
static int nonblank(const char *s, size_t n) {
  while (n-- > 0)
    if (strchr(" \t\n\v\f\r", *s++) == NULL) return 1;
  return 0;
}

/* One entry of parse_scenarios' list: fields in range. */
static void check_entry(int idx, int i) {
  double w = fz_numfield(fz_L, idx, "width"), h = fz_numfield(fz_L, idx, "height");
  double sx = fz_numfield(fz_L, idx, "sx"), sy = fz_numfield(fz_L, idx, "sy");
  double gx = fz_numfield(fz_L, idx, "gx"), gy = fz_numfield(fz_L, idx, "gy");
  double opt = fz_numfield(fz_L, idx, "optimal"), bucket = fz_numfield(fz_L, idx, "bucket");
  int ok = w >= 1 && h >= 1 && w == floor(w) && h == floor(h) && opt >= 0 && bucket == bucket;
  ok = ok && sx >= 1 && sx <= w && gx >= 1 && gx <= w && sx == floor(sx) && gx == floor(gx);
  ok = ok && sy >= 1 && sy <= h && gy >= 1 && gy <= h && sy == floor(sy) && gy == floor(gy);
  if (lua_getfield(fz_L, idx, "map") != LUA_TSTRING) ok = 0;
  lua_pop(fz_L, 1);
  if (!ok || !isfinite(opt))
    fz_fail("parse_scenarios entry %d: %gx%g, (%g, %g) -> (%g, %g), optimal %g", i, w, h, sx,
            sy, gx, gy, opt);
}

static void run_scenarios(const char *t, size_t len) {
  fz_getlib(fz_L, "parse_scenarios");
  lua_pushlstring(fz_L, t, len);
  if (fz_pcall(fz_L, 1, 1) == LUA_OK) {
    size_t *st = malloc((len + 2) * sizeof *st), *ln = malloc((len + 2) * sizeof *ln);
    size_t n, k, want = 0;
    int i, got = (int)lua_rawlen(fz_L, -1);
    if (st == NULL || ln == NULL) fz_fail("out of memory");
    n = lines(t, len, st, ln, len + 2);
    for (k = 1; k < n; k++) want += nonblank(t + st[k], ln[k]);
    if ((size_t)got != want) fz_fail("parse_scenarios: %d entries, %d lines", got, (int)want);
    for (i = 1; i <= got; i++) {
      lua_rawgeti(fz_L, -1, i);
      check_entry(lua_gettop(fz_L), i);
      lua_pop(fz_L, 1);
    }
    free(st);
    free(ln);
  }
  lua_pop(fz_L, 1);
}

/* A from_table cell from byte ch: '#' false, 't' true, '.' the integer 1,
** '1'..'9' half of it, 'z' 0, 'b' 1e101, 's' a string, 'n' a hole (nothing),
** any other byte the number byte / 16. Pushes it (not a hole). */
static void pushvalue(int ch) {
  switch (ch) {
    case '#': lua_pushboolean(fz_L, 0); break;
    case 't': lua_pushboolean(fz_L, 1); break;
    case '.': lua_pushinteger(fz_L, 1); break;
    case 'z': lua_pushinteger(fz_L, 0); break;
    case 'b': lua_pushnumber(fz_L, 1e101); break;
    case 's': lua_pushliteral(fz_L, "s"); break;
    default:
      lua_pushnumber(fz_L, ch >= '1' && ch <= '9' ? (ch - '0') / 2.0 : ch / 16.0);
      break;
  }
}

/* The cost from_table reads from the value of byte ch without a function:
** -1 refused (0, too large, a string). */
static double valuecost(int ch) {
  switch (ch) {
    case '#': return 0;
    case 't': case '.': return 1;
    case 'z': case 'b': case 's': return -1;
    default: return ch >= '1' && ch <= '9' ? (ch - '0') / 2.0 : ch > 0 ? ch / 16.0 : -1;
  }
}

/* What from_table makes of the cell of byte ch at 1-based (x, y) in 'mode':
** 0 costs, 1 the walkable value 1 (numbers equal to 1 cost 1, the rest is
** blocked), 2 the function of TABLEFN. */
static double tablecell(int ch, int mode, int x, int y) {
  if (mode == 1) return ch != 't' && valuecost(ch) == 1 ? 1 : 0;
  if (mode == 2 && ch == 't') return (x + y) % 3 + 1;
  return valuecost(ch);
}

/* The function from_table gets in mode 2: true becomes a cost from the
** cell's place, everything else passes as it is. */
#define TABLEFN "return function(v, x, y) if v == true then return (x + y) % 3 + 1 end " \
                "return v end"

/* Pushes row y (1-based) of n bytes as a table, its cells into g->cell from
** *k. Returns its length (up to its last cell that is not a hole), or -1 if
** from_table must refuse it (a hole before a cell, a refused value). */
static int table_row(const char *t, size_t n, int mode, int y, fz_grid *g, int *k) {
  size_t j;
  int len = 0, hole = 0, bad = 0;
  lua_createtable(fz_L, (int)n, 0);
  for (j = 0; j < n; j++) {
    int ch = (unsigned char)t[j];
    double c;
    if (ch == 'n') {
      hole = 1;
      continue;
    }
    c = tablecell(ch, mode, (int)j + 1, y);
    bad = bad || hole || c < 0;
    pushvalue(ch);
    lua_rawseti(fz_L, -2, (int)j + 1);
    g->cell[(*k)++] = c;
    len = (int)j + 1;
  }
  return bad ? -1 : len;
}

/* Pushes the rows of the text (one line a row) and fills g with the cells
** from_table must make; returns 0 when it must refuse them. */
static int table_rows(const char *t, size_t len, int mode, fz_grid *g) {
  size_t i = 0;
  int ok = 1, k = 0;
  lua_newtable(fz_L);
  g->w = -1;
  g->h = 0;
  while (i < len) {
    size_t end = i;
    int n;
    while (end < len && t[end] != '\n') end++;
    n = table_row(t + i, end - i, mode, g->h + 1, g, &k);
    if (n <= 0 || (g->w >= 0 && n != g->w)) ok = 0;
    g->w = n;
    lua_rawseti(fz_L, -2, ++g->h);
    i = end + 1;
  }
  return ok && g->h > 0;
}

static void run_table(const char *t, size_t len, unsigned how, fz_bytes *q) {
  fz_grid g = {0, 0, NULL, 0, NULL};
  int mode = (int)(how % 3), valid, st;
  g.cell = malloc((len + 1) * sizeof *g.cell);
  if (g.cell == NULL) fz_fail("out of memory");
  fz_getlib(fz_L, "grid.from_table");
  valid = table_rows(t, len, mode, &g);
  if (mode == 1) lua_pushinteger(fz_L, 1);
  if (mode == 2 && luaL_loadstring(fz_L, TABLEFN) == LUA_OK) lua_call(fz_L, 0, 1);
  st = fz_pcall(fz_L, mode ? 2 : 1, 1);
  if ((st == LUA_OK) != valid)
    fz_fail("from_table (mode %d) %s", mode,
            st ? lua_tostring(fz_L, -1) : "accepted rows it must refuse");
  if (st == LUA_OK) {
    compare(-1, &g, "from_table");
    searches(lua_gettop(fz_L), &g, q);
  }
  lua_pop(fz_L, 1);
  free(g.cell);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_bytes in = {data, size}, q;
  unsigned sel = fz_byte(&in), ch = fz_byte(&in), code = fz_byte(&in);
  const char *text;
  size_t len;
  if (size < HEADER) return 0;
  q.p = data + 3;
  q.n = HEADER - 3;
  text = (const char *)data + HEADER;
  len = size - HEADER;
  switch (sel % 4) {
    case 0: run_parse(text, len, ch, code, &q); break;
    case 1: run_movingai(text, len, &q); break;
    case 2: run_scenarios(text, len); break;
    default: run_table(text, len, ch, &q); break;
  }
  fz_done(fz_L);
  return 0;
}
