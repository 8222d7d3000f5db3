/*
** grid_line.c - the Lua side of straight lines over grids
** (src/core/grid_line.c): line of sight for a unit of some radius, and
** Pinter's path smoothing. Lua coordinates put the centre of cell (x, y) at
** the point (x, y), so its square is [x - 0.5, x + 0.5] x [y - 0.5, y + 0.5];
** the core's grid units are those less 0.5.
*/
/***
Straight lines over grids: methods on the Grid's page (config.ld merges this file's entries
into the Grid of grid.c).
@classmod Grid
*/
#include <math.h>
#include <string.h>
#include "binding.h"

static const afn F_LINE = {"walkable_line", 1};
static const afn F_SMOOTH = {"smooth", 1};

/* A coordinate at idx on the grid's area [0.5, max + 0.5], in grid units. */
static double coord(lua_State *L, const afn *f, int idx, const char *axis, int max) {
  double v = astar_checknumber(L, f, idx);
  char a[32], b[32];
  if (!(v >= 0.5 && v <= max + 0.5))
    astar_argerror(L, f, idx, "%s out of range: %s not in [0.5, %s]", axis, astar_fmtnum(a, v),
                   astar_fmtnum(b, max + 0.5));
  return v - 0.5;
}

/***
Whether a unit can move in a straight line from point `(x1, y1)` to `(x2, y2)` (the centre of
cell `(x, y)` is the point `(x, y)`; points may lie anywhere on the grid's area) without
touching a blocked cell: Pinter's Walkable(), exact, not sampled. With radius `r` the unit is
a disc, and every blocked cell must stay at least `r` from the segment: the disc may graze a
wall but never overlap one, so `r = 0.5` fits a corridor one cell wide. The segment itself may
not touch a blocked cell even at a corner (the rule of diagonal steps under
`"no_corner_cutting"`). The area outside the grid counts as blocked. When the way is clear,
also returns what the move costs: the length inside each cell times the cell's cost.
@function Grid:walkable_line
@number x1
@number y1
@number x2
@number y2
@number[opt=0] r the unit's radius in cells (0 or more)
@treturn boolean
@treturn number|nil the move's cost, when it is clear
@usage
local grid = astar.grid(10, 10)
grid:set(5, 5, false)
print(grid:walkable_line(1, 1, 10, 10))          --> false
print(grid:walkable_line(1, 1, 10, 3))           --> true 9.2195444572929
print(grid:walkable_line(1, 4, 10, 4, 0.5))      --> true 9
print(grid:walkable_line(1, 4, 10, 4, 0.6))      --> false
*/
static int grid_walkable_line(lua_State *L) {
  lgrid *lg = astar_checkgrid(L, &F_LINE);
  int w = astar_grid_width(lg->g), h = astar_grid_height(lg->g);
  double ax, ay;
  astar_grid_square(L, lg, "walkable_line");
  ax = coord(L, &F_LINE, 2, "x", w); ay = coord(L, &F_LINE, 3, "y", h);
  double bx = coord(L, &F_LINE, 4, "x", w), by = coord(L, &F_LINE, 5, "y", h);
  double r = lua_isnoneornil(L, 6) ? 0 : astar_checknumber(L, &F_LINE, 6);
  char buf[32];
  if (!(r >= 0 && r <= 1e6))
    astar_argerror(L, &F_LINE, 6, "radius must be a number from 0 to 1e6, got %s",
                   astar_fmtnum(buf, r));
  if (!astar_grid_line_clear(lg->g, ax, ay, bx, by, r)) {
    lua_pushboolean(L, 0);
    return 1;
  }
  lua_pushboolean(L, 1);
  lua_pushnumber(L, (lua_Number)astar_grid_line_integral(lg->g, ax, ay, bx, by));
  return 2;
}

/* The cost of the polyline of n points xy: links at their price, lines by
** the integral. */
static double polyline_cost(const astar_grid *g, const double *xy, size_t n,
                            const unsigned char *link, const double *price) {
  double cost = 0;
  size_t i;
  for (i = 1; i < n; i++)
    cost += link[i] ? price[i] : astar_grid_line_integral(g, xy[2 * i - 2], xy[2 * i - 1],
                                                          xy[2 * i], xy[2 * i + 1]);
  return cost;
}

/* Points a taut path copies to the C stack before the Lua allocation of
** its Path; longer ones go to a userdata of their own. */
#define TAUT_LOCAL 256

/* The path of n cells v (Lua's numbers) pulled taut in one go
** (astar_grid_taut) as a new Path on the stack, if it can be; else 0 and
** nothing pushed. The points leave the grid's scratch before any Lua
** allocation: a finalizer that runs there may close the grid, edit it or
** smooth another path with the same scratch. */
static int taut_path(lua_State *L, lgrid *lg, const double *v, size_t n,
                     const astar_stats *st, long goal) {
  double local[2 * TAUT_LOCAL], *src = local, cost = 0, *pts;
  const double *xy;
  size_t k = astar_grid_taut(lg->g, v, n, 0.5, &xy), i;
  if (k == 0) return 0;
  if (k > TAUT_LOCAL) {                 /* after the allocation, again from the grid as it is */
    src = (double *)lua_newuserdatauv(L, 2 * k * sizeof(double), 0);
    astar_map_alive(L, &lg->m);
    if (astar_grid_taut(lg->g, v, n, 0.5, &xy) != k) {
      lua_pop(L, 1);
      return 0;
    }
  }
  memcpy(src, xy, 2 * k * sizeof(double));
  for (i = 1; i < k; i++)
    cost += astar_grid_line_integral(lg->g, src[2 * i - 2], src[2 * i - 1], src[2 * i],
                                     src[2 * i + 1]);
  pts = astar_newpath(L, k, ASTAR_PATH_MESH, cost, st, "smoothed", goal);
  for (i = 0; i < 2 * k; i++) pts[i] = src[i] + 0.5;
  return 1;
}

/* A smoothed path in the making: n corner points xy (cell units, corners
** at integers), whether a link leads to each (link[i]) and then its price
** (price[i]), and the cost of the whole. */
typedef struct polyline {
  double *xy, *price, cost;
  unsigned char *link;
  size_t n;
} polyline;

/* path:smooth's path and grid (arguments 1 and 2): the path's n cells. */
static const double *smooth_args(lua_State *L, lgrid **plg, size_t *n, int *diag) {
  int *pdiag, w, h;
  const double *v = astar_path_grid(L, 1, n, &pdiag);
  lgrid *lg = (lgrid *)luaL_testudata(L, 2, ASTAR_GRID_MT);
  size_t i;
  if (v == NULL) {
    afn self;
    size_t m;
    self.name = "smooth"; self.self = 1;
    astar_argerror(L, &self, 1, "astar.Path of a grid expected, got %s",
                   astar_path_cellpoints(L, 1, &m) != NULL
                     ? "a smoothed or any-angle path (it is straight already)"
                     : luaL_typename(L, 1));
  }
  if (lg == NULL)
    astar_argerror(L, &F_SMOOTH, 2, "astar.Grid expected, got %s", luaL_typename(L, 2));
  if (lg->g == NULL) astar_error(L, "attempt to use a closed grid");
  astar_grid_square(L, lg, "smooth");
  w = astar_grid_width(lg->g); h = astar_grid_height(lg->g);
  for (i = 0; i < *n; i++)
    if (v[2 * i] < 1 || v[2 * i + 1] < 1 || v[2 * i] > w || v[2 * i + 1] > h)
      astar_argerror(L, &F_SMOOTH, 2, "the path does not fit this grid");
  *diag = *pdiag >= 0 ? *pdiag : ASTAR_DIAG_NO_CORNER_CUTTING;
  *plg = lg;
  return v;
}

/* Pinter's pass over the n cells v: the points it keeps, with the links
** it keeps and their prices, in pl. 'plain': a grid of one cost without
** links (no prices to compare). Its scratch is a userdata left on the
** stack: an error or a finalizer leaves nothing behind. */
static void pinter(lua_State *L, lgrid *lg, const double *v, size_t n, int diag, int plain,
                   double r, polyline *pl) {
  const size_t cap = n > 0 ? n : 1;
  const int links = !plain && astar_grid_link_count(lg->g) > 0;
  double *xy = (double *)lua_newuserdatauv(L, cap * (3 * sizeof(double) + sizeof(size_t) + 1), 0);
  double *stretch = xy + 2 * cap;
  size_t *keep = (size_t *)(void *)(stretch + cap), i, k;
  unsigned char *link = (unsigned char *)(keep + cap);
  astar_map_alive(L, &lg->m);
  for (i = 0; i < n; i++) {
    int via = 0;
    double c = 0;
    xy[2 * i] = v[2 * i] - 0.5;
    xy[2 * i + 1] = v[2 * i + 1] - 0.5;
    link[i] = 0;
    if (plain) continue;
    if (i > 0) {                        /* a link step keeps the link's price */
      if (links)
        c = astar_grid_move_cost(lg->g, diag, (int)v[2 * i - 2] - 1, (int)v[2 * i - 1] - 1,
                                 (int)v[2 * i] - 1, (int)v[2 * i + 1] - 1, &via);
      if (!via) c = astar_grid_line_integral(lg->g, xy[2 * i - 2], xy[2 * i - 1], xy[2 * i],
                                             xy[2 * i + 1]);
    }
    link[i] = (unsigned char)via;
    stretch[i] = i == 0 ? 0 : stretch[i - 1] + c;
  }
  k = astar_grid_smooth(lg->g, xy, n, r, plain ? NULL : stretch, link, keep);
  for (i = 0; i < k; i++) {             /* the kept points, their links and prices */
    size_t b = keep[i];
    int via = i > 0 && b == keep[i - 1] + 1 && link[b];
    stretch[i] = via ? astar_grid_move_cost(lg->g, diag, (int)v[2 * b - 2] - 1,
                                            (int)v[2 * b - 1] - 1, (int)v[2 * b] - 1,
                                            (int)v[2 * b + 1] - 1, &via)
                     : 0;               /* the link's own price, not a difference of sums */
    link[i] = (unsigned char)via;
    xy[2 * i] = xy[2 * b];
    xy[2 * i + 1] = xy[2 * b + 1];
  }
  pl->xy = xy; pl->price = stretch; pl->link = link; pl->n = k;
  pl->cost = polyline_cost(lg->g, xy, k, link, stretch);
}

/* The string pulled around the corners of pl, on a copy (a userdata left
** on the stack), which replaces pl if it is no dearer. */
static void pull(lua_State *L, lgrid *lg, double r, polyline *pl) {
  /* room for the corners the string wraps (measured on the DAO maps: under twice
  ** Pinter's points); where there is none left, a bend stays as it is */
  const size_t k = pl->n, cap = 4 * k + 64;
  double *xy = (double *)lua_newuserdatauv(L, cap * (3 * sizeof(double) + 2), 0), cost;
  double *price = xy + 2 * cap;
  unsigned char *link = (unsigned char *)(price + cap);
  size_t n;
  memcpy(xy, pl->xy, 2 * k * sizeof(double));
  memcpy(price, pl->price, k * sizeof(double));
  memcpy(link, pl->link, k);
  n = astar_grid_pull(lg->g, xy, k, cap, r, link, price, link + cap);
  cost = polyline_cost(lg->g, xy, n, link, price);
  if (cost <= pl->cost) {
    pl->xy = xy; pl->price = price; pl->link = link; pl->n = n; pl->cost = cost;
  }
}

/* path:smooth(grid [, opts]), documented with Path (src/lua/path.c). */
static int path_smooth(lua_State *L) {
  static const astar_optuse OPTS[] = {{ASTAR_OPT_RADIUS, 0, NULL}, {ASTAR_OPT_PULL, 0, NULL},
                                      ASTAR_OPT_END};
  size_t n, i;
  lgrid *lg;
  int diag, marks = 0, plain;
  const double *v = smooth_args(L, &lg, &n, &diag);
  double *out, r;
  polyline pl;
  astar_opts o;
  astar_stats st;
  long goal;
  astar_readopts(L, &F_SMOOTH, 3, OPTS, &o);
  r = astar_opt(&o, ASTAR_OPT_RADIUS, 0);
  astar_path_info(L, 1, &st, &goal);
  plain = astar_grid_link_count(lg->g) == 0 && astar_grid_one_cost(lg->g);
  if (plain && r == 0 && astar_opt(&o, ASTAR_OPT_PULL, 1) && taut_path(L, lg, v, n, &st, goal))
    return 1;                           /* the whole path pulled taut at once */
  pinter(L, lg, v, n, diag, plain, r, &pl);
  if (astar_opt(&o, ASTAR_OPT_PULL, 1)) pull(L, lg, r, &pl);
  out = astar_newpath(L, pl.n, ASTAR_PATH_MESH, pl.cost, &st, "smoothed", goal);
  for (i = 0; i < pl.n; i++) {
    out[2 * i] = pl.xy[2 * i] + 0.5;
    out[2 * i + 1] = pl.xy[2 * i + 1] + 0.5;
  }
  for (i = 1; i < pl.n; i++)            /* the links it kept, for Path:link */
    if (pl.link[i]) astar_linkmark(L, &marks, i, pl.price[i]);
  if (marks) astar_path_setlinks(L, -2);
  return 1;
}

static const luaL_Reg line_methods[] = {
  {"walkable_line", grid_walkable_line},
  {NULL, NULL}
};

static const luaL_Reg path_methods[] = {
  {"smooth", path_smooth},
  {NULL, NULL}
};

void astar_grid_line_open(lua_State *L) {
  astar_addmethods(L, ASTAR_GRID_MT, line_methods);
  astar_addmethods(L, ASTAR_PATH_MT, path_methods);
}
