/*
** grid_link.c - the Lua side of grid links (src/core/grid_link.c): ladders,
** teleporters and jumps between any two cells, and the marks that tell a
** Path which of its steps take one.
*/
/***
Links between cells: methods on the Grid's page (config.ld merges this file's entries into
the Grid of grid.c).
@classmod Grid
*/
#include <math.h>
#include "binding.h"

static const afn F_LINK = {"link", 1};
static const afn F_UNLINK = {"unlink", 1};
static const afn F_LINKS = {"links", 1};

/* Reads the two cells at 2..5 (0-based into c[4]) and the options at 'optidx';
** returns whether the link goes one way only. */
static int ends(lua_State *L, const afn *f, lgrid *lg, int c[4], int optidx) {
  static const astar_optuse OPTS[] = {{ASTAR_OPT_ONEWAY, 0, NULL}, ASTAR_OPT_END};
  int w = astar_grid_width(lg->g), h = astar_grid_height(lg->g);
  astar_opts o;
  c[0] = astar_checkcoord(L, f, 2, "x", w);
  c[1] = astar_checkcoord(L, f, 3, "y", h);
  c[2] = astar_checkcoord(L, f, 4, "x", w);
  c[3] = astar_checkcoord(L, f, 5, "y", h);
  astar_readopts(L, f, optidx, OPTS, &o);
  return astar_opt(&o, ASTAR_OPT_ONEWAY, 0) != 0;
}

/***
Links two cells with a move of a fixed `cost`, besides the steps to neighbours: a ladder, a
door between floors, a teleporter, a jump. Both ways unless `oneway`; linking again sets the
cost. Every search takes links while both cells are walkable (the built-in heuristics stay
admissible: they allow for them), and so do distance fields, @{Grid:check|check} and
@{Grid:to_path|to_path}; @{Path:link} tells which steps of a path take one. Jump point
search stops at both ends of every link (not from @{Grid:prepare|prepare}'s tables); a grid's
@{Grid:replanner} refuses them, and components ignore them. Adding, re-pricing or removing a link is an edit of
the whole grid: live queries restart. Raises from a callback of a search running on the grid.
@function Grid:link
@int x1 column of one end
@int y1 row
@int x2 column of the other end (another cell, anywhere)
@int y2 row
@number cost what taking it costs: > 0, finite (not multiplied by cell costs)
@tparam[opt] table opts `oneway = true`: from `(x1, y1)` to `(x2, y2)` only
@usage
local grid = astar.grid(30, 10)
grid:fill(15, 1, 1, 10, false)                 -- a wall from top to bottom
grid:link(10, 5, 20, 5, 3)                     -- a door through it that costs 3
local path = grid:find(1, 5, 30, 5)
print(path:cost(), path:link(10))              --> 22 3
*/
static int grid_link(lua_State *L) {
  lgrid *lg = astar_checkgrid(L, &F_LINK);
  int c[4], oneway = ends(L, &F_LINK, lg, c, 7), rc;
  double cost = astar_checknumber(L, &F_LINK, 6), old;
  char buf[32];
  if (!(cost > 0) || cost == HUGE_VAL)
    astar_argerror(L, &F_LINK, 6, "cost must be a positive finite number, got %s",
                   astar_fmtnum(buf, cost));
  astar_checkbig(L, &F_LINK, 6, "cost", cost);
  if (c[0] == c[2] && c[1] == c[3])
    astar_argerror(L, &F_LINK, 4, "a link joins two different cells");
  astar_map_idle(L, &lg->m, "edit");
  old = astar_grid_link_cost(lg->g, c[0], c[1], c[2], c[3]);
  rc = astar_grid_link(lg->g, c[0], c[1], c[2], c[3], cost);
  if (rc == 0 && !oneway) {
    rc = astar_grid_link(lg->g, c[2], c[3], c[0], c[1], cost);
    if (rc != 0) {                      /* all or nothing: the first as it was */
      if (old > 0) astar_grid_link(lg->g, c[0], c[1], c[2], c[3], old);   /* allocates nothing */
      else astar_grid_unlink(lg->g, c[0], c[1], c[2], c[3]);
    }
  }
  if (rc != 0) astar_raise(L, rc);
  return 0;
}

/***
Removes the link between two cells (both ways unless `oneway`).
@function Grid:unlink
@int x1
@int y1
@int x2
@int y2
@tparam[opt] table opts `oneway = true`: only the link from `(x1, y1)` to `(x2, y2)`
@treturn int how many links it removed (0, 1 or 2)
*/
static int grid_unlink(lua_State *L) {
  lgrid *lg = astar_checkgrid(L, &F_UNLINK);
  int c[4], oneway = ends(L, &F_UNLINK, lg, c, 6), n;
  astar_map_idle(L, &lg->m, "edit");
  n = astar_grid_unlink(lg->g, c[0], c[1], c[2], c[3]);
  if (!oneway) n += astar_grid_unlink(lg->g, c[2], c[3], c[0], c[1]);
  lua_pushinteger(L, n);
  return 1;
}

/***
The grid's links, one entry per direction: `{{x1, y1, x2, y2, cost}, ...}`, a new table.
@function Grid:links
@treturn table
*/
static int grid_links(lua_State *L) {
  lgrid *lg = astar_checkgrid(L, &F_LINKS);
  size_t cursor = 0, n = astar_grid_link_count(lg->g);
  int i = 0, c[4];
  double cost;
  lua_createtable(L, (int)n, 0);
  astar_map_alive(L, &lg->m);                        /* a finalizer may have closed it */
  while (astar_grid_next_link(lg->g, &cursor, &c[0], &c[1], &c[2], &c[3], &cost)) {
    int k;
    lua_createtable(L, 5, 0);
    astar_map_alive(L, &lg->m);
    for (k = 0; k < 4; k++) {
      lua_pushinteger(L, c[k] + 1);
      lua_rawseti(L, -2, k + 1);
    }
    lua_pushnumber(L, (lua_Number)cost);
    lua_rawseti(L, -2, 5);
    lua_rawseti(L, -2, ++i);
  }
  return 1;
}

void astar_linkmark(lua_State *L, int *made, size_t k, double cost) {
  if (!*made) {
    lua_newtable(L);
    *made = 1;
  }
  lua_pushnumber(L, (lua_Number)cost);
  lua_rawseti(L, -2, (int)k);
}

/* The link cost of step k of the path points v (cells, 1-based), or -1 for a
** walk: under 'diagonal' (a grid path) or, with lines, a clear straight line
** for radius r (any-angle), whichever the search would take. */
static double linkstep(const astar_grid *g, const double *v, size_t k, int lines, int diagonal,
                       double r) {
  int x0 = (int)v[2 * k - 2] - 1, y0 = (int)v[2 * k - 1] - 1;
  int x1 = (int)v[2 * k] - 1, y1 = (int)v[2 * k + 1] - 1, link;
  double c;
  if (!lines) {
    c = astar_grid_move_cost(g, diagonal, x0, y0, x1, y1, &link);
    return link ? c : -1;
  }
  c = astar_grid_link_cost(g, x0, y0, x1, y1);
  if (c >= 0 && astar_grid_line_clear(g, x0 + 0.5, y0 + 0.5, x1 + 0.5, y1 + 0.5, r) &&
      astar_grid_line_integral(g, x0 + 0.5, y0 + 0.5, x1 + 0.5, y1 + 0.5) <= c)
    return -1;                          /* the cheaper of the link and a clear line */
  return c;
}

static void marklinks(lua_State *L, int idx, const astar_grid *g, int lines, int diagonal,
                      double r) {
  size_t n, k;
  const double *v;
  int made = 0;
  if (astar_grid_link_count(g) == 0) return;
  idx = lua_absindex(L, idx);
  v = lines ? astar_path_mesh(L, idx, &n) : astar_path_grid(L, idx, &n, NULL);
  if (v == NULL) return;
  for (k = 1; k < n; k++) {
    double c = linkstep(g, v, k, lines, diagonal, r);
    if (c >= 0) astar_linkmark(L, &made, k, c);
  }
  if (made) astar_path_setlinks(L, idx);
}

void astar_path_marklinks(lua_State *L, int idx, const astar_grid *g, int diagonal) {
  marklinks(L, idx, g, 0, diagonal, 0);
}

void astar_path_marklinks_lines(lua_State *L, int idx, const astar_grid *g, double r) {
  marklinks(L, idx, g, 1, 0, r);
}

static const luaL_Reg link_methods[] = {
  {"link", grid_link},
  {"unlink", grid_unlink},
  {"links", grid_links},
  {NULL, NULL}
};

void astar_grid_link_open(lua_State *L) { astar_addmethods(L, ASTAR_GRID_MT, link_methods); }
