/*
** grid_dir.c - the Lua side of Directional A* (src/core/grid_dir.c):
** grid:find(..., {algorithm = "directional", ...}) and grid:query, and the
** Paths of poses they return, whose moves are curves a unit can drive.
*/
/***
Paths of poses (Directional A\*, @{Grid:find} with `algorithm = "directional"`): methods on
the Path's page (config.ld merges this file's entries into the Path of path.c).
@classmod Path
*/
#include <math.h>
#include <string.h>
#include "binding.h"

#define TWO_PI 6.283185307179586

/* A move of a Path of poses (the user value's "moves", one per step i ->
** i + 1): its curve in the path's coordinates, headings where the unit
** faces (backing up, its segments go backward). */
typedef astar_curve lmove;

static const char *const DIR_ONLY[] = {"heading", "goal_heading", "turning", "headings",
                                       "neighborhood", "reverse", "turn_cost", NULL};
static const int DIR_IDS[] = {ASTAR_OPT_HEADING, ASTAR_OPT_GOAL_HEADING, ASTAR_OPT_TURNING,
                              ASTAR_OPT_HEADINGS, ASTAR_OPT_NEIGHBORHOOD, ASTAR_OPT_REVERSE,
                              ASTAR_OPT_TURN_COST};
/* The options that mean nothing to a directional search. */
static const char *const NOT_DIR[] = {"diagonal", "cost", "goals", "within", "size", "overlay",
                                      "overlay_scale", NULL};
static const int NOT_IDS[] = {ASTAR_OPT_DIAGONAL, ASTAR_OPT_COST, ASTAR_OPT_GOALS,
                              ASTAR_OPT_WITHIN, ASTAR_OPT_SIZE, ASTAR_OPT_OVERLAY,
                              ASTAR_OPT_OVERLAY_SCALE};

static void check_apart(lua_State *L, const afn *f, const astar_opts *o, int on) {
  int i;
  for (i = 0; DIR_ONLY[i] != NULL && !on; i++)
    if (o->given[DIR_IDS[i]])
      astar_opterror(L, f, o, "option '%s' needs algorithm 'directional' or 'hybrid'",
                     DIR_ONLY[i]);
  for (i = 0; NOT_DIR[i] != NULL && on; i++)
    if (o->given[NOT_IDS[i]])
      astar_opterror(L, f, o, "option '%s' cannot be used with algorithm '%s'", NOT_DIR[i],
                     on == 2 ? "hybrid" : "directional");
}

/* reverse = true (no extra cost) or a cost factor >= 1; false: forward only. */
static double opt_reverse(lua_State *L, const afn *f, const astar_opts *o) {
  int idx = o->fn[ASTAR_OPT_REVERSE];
  double v;
  char buf[32];
  if (!o->given[ASTAR_OPT_REVERSE]) return 0;
  if (lua_type(L, idx) == LUA_TBOOLEAN) return lua_toboolean(L, idx) ? 1 : 0;
  if (lua_type(L, idx) != LUA_TNUMBER)
    astar_opterror(L, f, o, "option 'reverse': boolean or number expected, got %s",
                   luaL_typename(L, idx));
  v = (double)lua_tonumber(L, idx);
  if (!(v >= 1 && v <= ASTAR_NUM_MAX))
    astar_opterror(L, f, o, "option 'reverse': a cost factor must be a number in [1, 1e+100], "
                   "got %s", astar_fmtnum(buf, v));
  return v;
}

/* An option that must be one of the integers in 'ok' (ending with 0). */
static int opt_oneof(lua_State *L, const afn *f, const astar_opts *o, int id, const char *name,
                     const int *ok, const char *words, int dflt) {
  double v = astar_opt(o, id, dflt);
  char buf[32];
  int i;
  for (i = 0; ok[i] != 0; i++)
    if (v == ok[i]) return i;
  return astar_opterror(L, f, o, "option '%s' must be %s, got %s", name, words,
                        astar_fmtnum(buf, v));
}

void astar_gdir_args(lua_State *L, const afn *f, const astar_opts *o, int on, lgdir *d) {
  static const int HEADINGS[] = {8, 16, 0}, REACH[] = {8, 24, 48, 0};
  astar_dir_params *p = &d->p;
  char buf[32];
  check_apart(L, f, o, on);
  d->on = on;
  if (!on) return;
  astar_dir_params_init(p);
  p->turn = astar_opt(o, ASTAR_OPT_TURNING, 1);
  if (p->turn > ASTAR_DIR_TURN_MAX)
    astar_opterror(L, f, o, "option 'turning' must be at most %d cells, got %s",
                   ASTAR_DIR_TURN_MAX, astar_fmtnum(buf, p->turn));
  p->radius = astar_opt(o, ASTAR_OPT_RADIUS, 0);
  if (p->radius > ASTAR_DIR_RADIUS_MAX)
    astar_opterror(L, f, o, "option 'radius' must be at most %d cells with algorithm "
                   "'directional', got %s", ASTAR_DIR_RADIUS_MAX, astar_fmtnum(buf, p->radius));
  p->headings = HEADINGS[opt_oneof(L, f, o, ASTAR_OPT_HEADINGS, "headings", HEADINGS, "8 or 16",
                                   8)];
  p->reach = 1 + opt_oneof(L, f, o, ASTAR_OPT_NEIGHBORHOOD, "neighborhood", REACH,
                           "8, 24 or 48", 24);
  p->reverse = opt_reverse(L, f, o);
  p->turn_cost = astar_opt(o, ASTAR_OPT_TURN_COST, 0);
  astar_checkbig(L, f, o->idx, "option 'turn_cost'", p->turn_cost);
  d->sh = astar_opt(o, ASTAR_OPT_HEADING, NAN);
  d->gh = astar_opt(o, ASTAR_OPT_GOAL_HEADING, NAN);
  d->alloc = astar_allocator(L, &d->ud);
  astar_dir_query_init(&d->q);
  d->q.back = d->back;
  d->q.shots = on == 2;
  astar_opt_params(o, &d->q.params);
}

static int same_params(const astar_dir_params *a, const astar_dir_params *b) {
  return a->turn == b->turn && a->radius == b->radius && a->headings == b->headings &&
         a->reach == b->reach && a->reverse == b->reverse && a->turn_cost == b->turn_cost;
}

/* Points d at the grid's lattice for d's parameters, made (and cached on
** the grid in place of another) if need be. */
static int lattice(lgrid *lg, lgdir *d) {
  astar_lattice *l;
  int rc;
  if (d->lat != NULL && same_params(astar_lattice_params(d->lat), &d->p)) return 0;
  astar_lattice_release(d->lat);
  d->lat = NULL;
  if (lg->lat == NULL || !same_params(astar_lattice_params(lg->lat), &d->p)) {
    if ((rc = astar_lattice_new(&l, &d->p, d->alloc, d->ud)) != 0) return rc;
    astar_lattice_release(lg->lat);
    lg->lat = l;
  }
  astar_lattice_retain(lg->lat);
  d->lat = lg->lat;
  return 0;
}

/* Frees the arrays of m (d's allocator), leaving it empty. */
static void seen_free(lgdir *d, astar_dir_seen *m) {
  if (m->gen != NULL) d->alloc(d->ud, m->gen, m->cells * sizeof *m->gen, 0);
  if (m->g != NULL) d->alloc(d->ud, m->g, m->cells * 16 * sizeof *m->g, 0);
  if (m->reach != NULL) d->alloc(d->ud, m->reach, m->cells * sizeof *m->reach, 0);
  if (m->rq != NULL) d->alloc(d->ud, m->rq, m->rcap * sizeof *m->rq, 0);
  memset(m, 0, sizeof *m);
}

/* Makes d's seen costs fit a search on g. */
static int seen_fit(lgdir *d, const astar_grid *g) {
  astar_dir_seen *m = &d->seen;
  size_t n = astar_dir_seen_cells(g);
  astar_dir_seen k;
  if (m->cells >= n) return 0;
  if (n > (size_t)-1 / (16 * sizeof *k.g)) return ASTAR_ENOMEM;
  memset(&k, 0, sizeof k);
  k.cells = n;
  k.rcap = ASTAR_DIR_REACH_CAP;
  if ((k.gen = (uint16_t *)d->alloc(d->ud, NULL, 0, n * sizeof *k.gen)) == NULL ||
      (k.g = (float *)d->alloc(d->ud, NULL, 0, n * 16 * sizeof *k.g)) == NULL ||
      (k.reach = (uint16_t *)d->alloc(d->ud, NULL, 0, n * sizeof *k.reach)) == NULL ||
      (k.rq = (uint32_t *)d->alloc(d->ud, NULL, 0, k.rcap * sizeof *k.rq)) == NULL) {
    seen_free(d, &k);
    return ASTAR_ENOMEM;
  }
  seen_free(d, m);
  memset(k.gen, 0, n * sizeof *k.gen);
  memset(k.reach, 0, n * sizeof *k.reach);
  *m = k;
  return 0;
}

int astar_gdir_begin(lgrid *lg, lgdir *d, int sx, int sy, int gx, int gy, astar_search *s) {
  uint32_t goal;
  int rc = lattice(lg, d);
  if (rc == 0 && d->back == NULL) rc = astar_search_new(&d->back, d->alloc, d->ud);
  if (rc == 0) rc = seen_fit(d, lg->g);
  d->q.back = d->back;
  d->q.seen = &d->seen;
  if (rc == 0) rc = astar_dir_prepare(lg->g, d->lat, &d->q, sx, sy, d->sh, gx, gy, d->gh, &goal);
  if (rc != 0) return rc;
  return astar_dir_begin(s, &d->q, goal);
}

void astar_gdir_free(lgdir *d) {
  seen_free(d, &d->seen);
  astar_lattice_release(d->lat);
  d->lat = NULL;
  astar_search_free(d->back);
  d->back = NULL;
}

static double mod2pi(double h) {
  h = fmod(h, TWO_PI);
  return h < 0 ? h + TWO_PI : h;
}

int astar_gdir_push(lua_State *L, lgdir *d, astar_search *s, int rc) {
  const uint32_t *nodes;
  double cost, *v;
  astar_stats st;
  lmove *m;
  long n, i;
  if (rc != ASTAR_FOUND && !d->q.params.partial) return 0;
  n = astar_search_path(s, &nodes, &cost);
  if (n < 0) astar_raise(L, (int)n);
  astar_search_stats(s, &st);
  v = astar_newpath(L, (size_t)n, ASTAR_PATH_POSE, cost, &st,
                    d->q.shots ? "hybrid" : "directional", 0);
  for (i = 0; i < n; i++) {
    astar_dir_pose(&d->q, nodes[i], &v[3 * i], &v[3 * i + 1], &v[3 * i + 2]);
    v[3 * i] += 0.5;                 /* cell (x, y) is the point (x + 1, y + 1) */
    v[3 * i + 1] += 0.5;
    v[3 * i + 2] = mod2pi(v[3 * i + 2]);
  }
  lua_createtable(L, 0, 1);
  m = (lmove *)lua_newuserdatauv(L, (n > 1 ? (size_t)(n - 1) : 1) * sizeof(lmove), 0);
  for (i = 0; i + 1 < n; i++) {
    int dir;
    astar_dir_step(&d->q, nodes[i], nodes[i + 1], &m[i], &dir);
    m[i].x += 0.5;
    m[i].y += 0.5;
  }
  if (n > 1 && v[3 * n - 1] != v[3 * n - 1]) {     /* a shot to a goal of any heading */
    double x, y;
    astar_curve_sample(&m[n - 2], m[n - 2].length, &x, &y, &v[3 * n - 1]);
  }
  lua_setfield(L, -2, "moves");
  astar_path_setposes(L, -2);
  return 1;
}


/* ---------------------------------------------------------------------- */
/* Paths of poses                                                           */
/* ---------------------------------------------------------------------- */

/* The moves of the Path of poses at index 1, and their number. */
static const lmove *moves(lua_State *L, const char *fname, size_t *n) {
  const lmove *m;
  if (astar_path_poses(L, 1, n) == NULL)
    astar_error(L, "%s: only a path of poses has moves (algorithm 'directional')", fname);
  astar_compat_getuservalue(L, 1);
  lua_getfield(L, -1, "moves");
  m = (const lmove *)lua_touserdata(L, -1);
  lua_pop(L, 2);                     /* the path holds them */
  *n = *n > 0 ? *n - 1 : 0;
  return m;
}

/* The pose at distance s along moves m[0 .. n) (first: the first pose). */
static void pose_at(const lmove *m, size_t n, const double *first, double s, double *x,
                    double *y, double *h) {
  size_t i;
  *x = first[0]; *y = first[1]; *h = first[2];
  for (i = 0; i < n; i++) {
    if (s <= m[i].length || i + 1 == n) {
      astar_curve_sample(&m[i], s, x, y, h);
      return;
    }
    s -= m[i].length;
  }
}

static double total(const lmove *m, size_t n) {
  double sum = 0;
  size_t i;
  for (i = 0; i < n; i++) sum += m[i].length;
  return sum;
}

/***
A path of poses (@{Grid:find} with `algorithm = "directional"`): the length driven along its
moves, forward and backward alike.
@function Path:length
@treturn number
*/
static int path_length(lua_State *L) {
  size_t n;
  const lmove *m = moves(L, "length", &n);
  lua_pushnumber(L, (lua_Number)total(m, n));
  return 1;
}

/***
A path of poses: where the unit is after driving distance `s` along it (clamped to
`[0, length()]`), and the way it faces (radians, counter-clockwise from +x in grid
coordinates, whose y axis points down; backing up, it faces against its motion).
@function Path:sample
@number s
@treturn number x
@treturn number y
@treturn number heading, in `[0, 2 pi)`
*/
static int path_sample(lua_State *L) {
  static const afn F = {"sample", 1};
  size_t n, np;
  const lmove *m = moves(L, "sample", &n);
  const double *v = astar_path_poses(L, 1, &np);
  double s = astar_checknumber(L, &F, 2), x, y, h;
  char buf[32];
  if (s != s) astar_argerror(L, &F, 2, "s must be a number, got %s", astar_fmtnum(buf, s));
  pose_at(m, n, v, s < 0 ? 0 : s, &x, &y, &h);
  lua_pushnumber(L, (lua_Number)x);
  lua_pushnumber(L, (lua_Number)y);
  lua_pushnumber(L, (lua_Number)h);
  return 3;
}

/***
A path of poses: its moves, one per step from point `i` to `i + 1`:
`{{word, length, direction}, ...}`, the word of the move's curve (a Dubins word such as
`"LSR"` forward; backing up, `"R-S-L-"`), the length driven, and 1 forward or -1 backing up.
@{Path:curve} gives the curve itself.
@function Path:segments
@treturn table
*/
static int path_segments(lua_State *L) {
  size_t n, i;
  const lmove *m = moves(L, "segments", &n);
  lua_createtable(L, (int)n, 0);
  for (i = 0; i < n; i++) {
    lua_createtable(L, 3, 0);
    lua_pushstring(L, astar_curve_word(&m[i]));
    lua_rawseti(L, -2, 1);
    lua_pushnumber(L, (lua_Number)m[i].length);
    lua_rawseti(L, -2, 2);
    lua_pushinteger(L, m[i].dir[0]);
    lua_rawseti(L, -2, 3);
    lua_rawseti(L, -2, (int)(i + 1));
  }
  return 1;
}

/***
A path of poses: the curve of the move from point `i` to point `i + 1` (a @{Curve}: its
`sample` gives where the unit is and faces along the move).
@function Path:curve
@int i 1 to `#path - 1`
@treturn Curve
*/
static int path_curve(lua_State *L) {
  static const afn F = {"curve", 1};
  size_t n;
  const lmove *m = moves(L, "curve", &n);
  int i = astar_checkint(L, &F, 2);
  if (i < 1 || (size_t)i > n)
    astar_argerror(L, &F, 2, "move %d out of range: the path has %d", i, (int)n);
  astar_pushcurve(L, &m[i - 1]);
  return 1;
}

/* Pushes the path of poses' points every 'step' along its moves, as a flat list. */
int astar_path_pose_flat(lua_State *L, double step) {
  size_t n, np, i, k = 0;
  const lmove *m = moves(L, "flat", &n);
  const double *v = astar_path_poses(L, 1, &np);
  double len = total(m, n), x, y, h;
  size_t count = (size_t)ceil(len / step);
  if (len / step > 1e6) astar_error(L, "flat: step too small: more than a million points");
  lua_createtable(L, 2 * (int)(count + 1), 0);
  for (i = 0; i <= count && np > 0; i++) {
    pose_at(m, n, v, i < count ? (double)i * step : len, &x, &y, &h);
    lua_pushnumber(L, (lua_Number)x);
    lua_rawseti(L, -2, (int)++k);
    lua_pushnumber(L, (lua_Number)y);
    lua_rawseti(L, -2, (int)++k);
  }
  return 1;
}

static const luaL_Reg pose_methods[] = {
  {"length", path_length},
  {"sample", path_sample},
  {"segments", path_segments},
  {"curve", path_curve},
  {NULL, NULL}
};

void astar_grid_dir_open(lua_State *L) {
  astar_addmethods(L, ASTAR_PATH_MT, pose_methods);
}
