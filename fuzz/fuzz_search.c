/*
** fuzz_search.c - libFuzzer harness for searches: small grids (up to 16x16,
** costs from the input) under every algorithm, diagonal policy, heuristic and
** option, with edits, JPS+ tables, clones and time-sliced queries between
** them, D* Lite replanners through edits and moves, and searches for a unit
** with a radius and Theta* (fuzz_unit.c); links (grid:link, unlink, links)
** between any two cells, taken by every search and query; path:smooth
** (fuzz_unit.c); queries with on_change = "continue" through edits; and
** graphs built
** with add_node/add_edge and edited, searched by every algorithm. Every
** answer is checked against a plain Dijkstra (and BFS) here.
**
** Input, grid mode (byte 0 mod 4 != 3): width 1 + (byte 0 / 4) mod 16; byte
** 1: height 1 + its low nibble, cost palette and share of blocked cells from
** the high one; one byte per cell; then operations (gridop) to the end.
** Graph mode (byte 0 mod 4 == 3): byte 1 gives the node count and whether the
** graph is directed, one or two bytes per node for its position (or none),
** then operations (graphop).
**
** Findings (abort): crashes and sanitizer reports; errors that are not the
** library's own messages (fuzz_lua.c), or an error where the README promises
** an answer and none where it promises one; a path that is not a legal walk
** from the start to a goal under the policy, or whose cost() is not the sum
** of its steps; a cost other than the reference's when the search is
** shortest by contract (astar, dijkstra, jps, auto and bidirectional with
** weight 1 and an admissible heuristic), above weight times it for weighted
** A*, below it for any; more steps than BFS's for bfs; "no_path" or
** "blocked" or "limit" where the reference disagrees; a query that ends
** otherwise than find would on the map as it is at its end; a replanner's
** path other than a shortest one from the agent's cell on the map as it is;
** the Lua stack left unbalanced. With links: a step that is neither a legal
** step nor a link, a path:link(i) other than the link's cost where the move
** takes the link (the cheaper; a tie is a walk) or not nil elsewhere; a link
** accepted with a cost that is not positive and finite, or from a cell to
** itself, or refused otherwise; unlink's count or links() other than the
** model's; a replanner accepted on a grid with links. A "continue" query
** edited while it ran: a path not from the start to a goal by steps and
** links, or grid:check's verdict on it other than the reference's on the
** grid as it is (its cost may be stale: nothing is promised about it).
**
** Operation 7 (byte mod 8) chooses by its bits: 8 a replanner, 16 a unit
** search, else by byte >> 5: 0 a clone, 1-3 a link edit, 4-5 a smoothed
** find, 6-7 a "continue" query.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"


#define MAXOPS 24
#define SQRT2 1.4142135623730951

/* ---------------------------------------------------------------------- */
/* Grids                                                                    */
/* ---------------------------------------------------------------------- */

enum { A_AUTO, A_ASTAR, A_DIJKSTRA, A_JPS, A_BFS, A_GREEDY, A_N };
enum { H_DEFAULT, H_OCTILE, H_MANHATTAN, H_EUCLIDEAN, H_CHEBYSHEV, H_ZERO, H_N };

/* One grid search: its ends (cell indices) and options. */
typedef struct gsearch {
  int s, t;
  int alg, diag, diag_given, heur;
  double weight;             /* 0: not given */
  double max_cost;           /* < 0: not given */
  int max_exp;               /* < 0: not given */
  int partial;
  double within;             /* < 0: not given */
  int ngoals, goals[3];
} gsearch;

/* What the reference says about a search. */
typedef struct gref {
  double *dist;              /* Dijkstra from the start */
  int *steps;                /* BFS from the start */
  char *isgoal;              /* the cells that end the search */
  int blocked;               /* the start, or every goal, is blocked */
  double opt;                /* cheapest cost to a goal (HUGE_VAL: none) */
  int fewest;                /* fewest steps to a goal (-1: none) */
} gref;

static const char *algname(int a) {
  static const char *const n[] = {"auto", "astar", "dijkstra", "jps", "bfs", "greedy"};
  return n[a];
}

static const char *heurname(int h) {
  static const char *const n[] = {"default", "octile", "manhattan", "euclidean", "chebyshev",
                                  "zero"};
  return n[h];
}

static double palette(int p, unsigned b) {
  static const double pal[4][4] = {{1, 1, 1, 1}, {1, 1, 1, 2}, {0.5, 1, 3, 1.25},
                                   {1, 7, 0.25, 100}};
  return pal[p & 3][b & 3];
}

/* A cell value from byte 'b' under the input's palette and share of walls. */
static double cellvalue(int pal, int density, unsigned b) {
  static const unsigned walls[4] = {0, 40, 80, 140};
  return b < walls[density & 3] ? 0 : palette(pal, b >> 2);
}

/* Pushes a cell value for grid:set / fill (false for 0). */
static void pushcell(double v) {
  if (v > 0) lua_pushnumber(fz_L, v);
  else lua_pushboolean(fz_L, 0);
}

/* The value an edit writes: walls, palette costs, or others in [1, 16.9]. */
static double editvalue(int pal, unsigned b) {
  if (b < 64) return 0;
  if (b < 128) return palette(pal, b);
  return (b - 120) / 8.0;
}

/* A cell index of g from a byte. */
static int cellof(const fz_grid *g, unsigned b) {
  return (int)(b % (unsigned)(g->w * g->h));
}

static void decode_search(fz_bytes *in, const fz_grid *g, gsearch *q) {
  unsigned a = fz_byte(in), b = fz_byte(in), c = fz_byte(in);
  int i;
  q->s = cellof(g, fz_byte(in));
  q->t = cellof(g, fz_byte(in));
  q->alg = (int)(a % A_N);
  q->diag = (int)(a >> 3) & 3;
  q->diag_given = (a >> 5) & 1 || q->diag != FZ_NOCUT;
  q->heur = (int)(b % H_N);
  q->weight = ((b >> 3) & 3) == 0 ? 0 : ((b >> 3) & 3) == 1 ? 1 : ((b >> 3) & 3) == 2 ? 1.5 : 3;
  q->partial = (b >> 5) & 1;
  q->max_exp = (b >> 6) & 1 ? (int)fz_byte(in) : -1;
  q->max_cost = (c & 3) == 1 ? (c >> 2) / 4.0 : -1;
  q->within = (c & 3) == 3 ? ((c >> 2) % 8) / 2.0 : -1;
  q->ngoals = (c & 3) == 2 ? 1 + (int)(c >> 2) % 3 : 0;
  for (i = 0; i < q->ngoals; i++) q->goals[i] = cellof(g, fz_byte(in));
}

static void setnum(const char *k, double v) {
  lua_pushnumber(fz_L, v);
  lua_setfield(fz_L, -2, k);
}

/* Pushes the options table of q. */
static void push_options(const fz_grid *g, const gsearch *q) {
  lua_createtable(fz_L, 0, 8);
  lua_pushstring(fz_L, algname(q->alg));
  lua_setfield(fz_L, -2, "algorithm");
  if (q->diag_given) {
    lua_pushstring(fz_L, fz_diagname(q->diag));
    lua_setfield(fz_L, -2, "diagonal");
  }
  if (q->heur != H_DEFAULT) {
    lua_pushstring(fz_L, heurname(q->heur));
    lua_setfield(fz_L, -2, "heuristic");
  }
  if (q->weight > 0) setnum("weight", q->weight);
  if (q->max_exp >= 0) setnum("max_expansions", q->max_exp);
  if (q->max_cost >= 0) setnum("max_cost", q->max_cost);
  if (q->within >= 0) setnum("within", q->within);
  if (q->partial) {
    lua_pushboolean(fz_L, 1);
    lua_setfield(fz_L, -2, "partial");
  }
  if (q->ngoals > 0) {
    int i;
    lua_createtable(fz_L, q->ngoals, 0);
    for (i = 0; i < q->ngoals; i++) {
      lua_createtable(fz_L, 2, 0);
      lua_pushinteger(fz_L, q->goals[i] % g->w + 1);
      lua_rawseti(fz_L, -2, 1);
      lua_pushinteger(fz_L, q->goals[i] / g->w + 1);
      lua_rawseti(fz_L, -2, 2);
      lua_rawseti(fz_L, -2, i + 1);
    }
    lua_setfield(fz_L, -2, "goals");
  }
}

/* Pushes the arguments of find/query after self: the ends and the options
** (the goals form when q has goals). Returns how many. */
static int push_args(const fz_grid *g, const gsearch *q) {
  lua_pushinteger(fz_L, q->s % g->w + 1);
  lua_pushinteger(fz_L, q->s / g->w + 1);
  if (q->ngoals > 0) {
    push_options(g, q);
    return 3;
  }
  lua_pushinteger(fz_L, q->t % g->w + 1);
  lua_pushinteger(fz_L, q->t / g->w + 1);
  push_options(g, q);
  return 5;
}

/* The heuristic a search uses (the default resolved). */
static int heuristic(const gsearch *q) {
  if (q->heur != H_DEFAULT) return q->heur;
  return q->diag == FZ_NEVER ? H_MANHATTAN : H_OCTILE;
}

/* The distance 'within' is measured in (src/core/grid.c's rangedist):
** the heuristic's, octile or manhattan for "zero". */
static double rangedist(const gsearch *q, int dx, int dy) {
  int h = heuristic(q);
  double x = abs(dx), y = abs(dy);
  if (h == H_ZERO) h = q->diag == FZ_NEVER ? H_MANHATTAN : H_OCTILE;
  switch (h) {
    case H_OCTILE: return x < y ? y + (SQRT2 - 1.0) * x : x + (SQRT2 - 1.0) * y;
    case H_MANHATTAN: return x + y;
    case H_EUCLIDEAN: return sqrt(x * x + y * y);
    default: return x > y ? x : y;
  }
}

/* Marks the cells that end search q in ref->isgoal. */
static void goalcells(const fz_grid *g, const gsearch *q, gref *ref) {
  int i, n = g->w * g->h;
  memset(ref->isgoal, 0, (size_t)n);
  if (q->ngoals > 0) {
    for (i = 0; i < q->ngoals; i++) ref->isgoal[q->goals[i]] = g->cell[q->goals[i]] > 0;
  } else if (q->within >= 0) {
    for (i = 0; i < n; i++)
      ref->isgoal[i] = g->cell[i] > 0 &&
                       rangedist(q, i % g->w - q->t % g->w, i / g->w - q->t / g->w) <= q->within;
  } else {
    ref->isgoal[q->t] = g->cell[q->t] > 0;
  }
}

static void reference(const fz_grid *g, const gsearch *q, gref *ref) {
  int i, n = g->w * g->h, anygoal = 0;
  fz_dijkstra(g, q->s % g->w, q->s / g->w, q->diag, ref->dist);
  if (q->alg == A_BFS) fz_bfs(g, q->s % g->w, q->s / g->w, q->diag, ref->steps);
  else memset(ref->steps, 0xff, (size_t)g->w * g->h * sizeof *ref->steps);   /* all -1 */
  goalcells(g, q, ref);
  ref->opt = HUGE_VAL;
  ref->fewest = -1;
  for (i = 0; i < n; i++) {
    if (!ref->isgoal[i]) continue;
    anygoal = 1;
    if (ref->dist[i] < ref->opt) ref->opt = ref->dist[i];
    if (ref->steps[i] >= 0 && (ref->fewest < 0 || ref->steps[i] < ref->fewest))
      ref->fewest = ref->steps[i];
  }
  ref->blocked = g->cell[q->s] <= 0 || (!anygoal && q->within < 0);
}

/* Does q's algorithm find shortest paths with its heuristic (weight aside)? */
static int admissible(const gsearch *q) {
  if (q->alg == A_BFS || q->alg == A_GREEDY) return 0;
  return q->alg == A_DIJKSTRA || q->diag == FZ_NEVER || heuristic(q) != H_MANHATTAN;
}

/* Is q shortest by contract: admissible and weight 1? */
static int exact(const gsearch *q) {
  return admissible(q) && q->weight <= 1;
}

/* Prints search q, for a finding's message. */
static void describe(const fz_grid *g, const gsearch *q) {
  int i;
  fprintf(stderr, "search (%d, %d) -> (%d, %d) on a %dx%d grid: algorithm %s, diagonal %s, "
          "heuristic %s, weight %g, max_expansions %d, max_cost %g, partial %d, within %g, "
          "goals", q->s % g->w + 1, q->s / g->w + 1, q->t % g->w + 1, q->t / g->w + 1, g->w,
          g->h, algname(q->alg), fz_diagname(q->diag), heurname(q->heur), q->weight,
          q->max_exp, q->max_cost, q->partial, q->within);
  for (i = 0; i < q->ngoals; i++)
    fprintf(stderr, " (%d, %d)", q->goals[i] % g->w + 1, q->goals[i] / g->w + 1);
  fputs("\ncells:\n", stderr);
  for (i = 0; i < g->w * g->h; i++)
    fprintf(stderr, "%g%s", g->cell[i], (i + 1) % g->w == 0 ? "\n" : " ");
  for (i = 0; i < g->nlink; i++)
    fprintf(stderr, "link (%d, %d) -> (%d, %d) cost %.17g\n", g->link[i].a % g->w + 1,
            g->link[i].a / g->w + 1, g->link[i].b % g->w + 1, g->link[i].b / g->w + 1,
            g->link[i].cost);
}

/* A path's end must be a goal, and stats().goal must name it. */
static int check_goal(int path, const fz_grid *g, const gsearch *q, const gref *ref,
                      const fz_gpath *p, char *why) {
  int end = p->ey * g->w + p->ex;
  double k;
  if (!ref->isgoal[end])
    return fz_why(why, "the path ends at (%d, %d), not a goal", p->ex + 1, p->ey + 1);
  if (q->ngoals == 0) return 1;
  fz_method(fz_L, path, "stats");
  fz_pcall(fz_L, 1, 1);
  k = fz_numfield(fz_L, -1, "goal");
  lua_pop(fz_L, 1);
  if (!(k >= 1 && k <= q->ngoals) || q->goals[(int)k - 1] != end)
    return fz_why(why, "stats().goal is %g, the path ends at (%d, %d)", k, p->ex + 1,
                  p->ey + 1);
  return 1;
}

/* The cost of a path the search found, against the reference. */
static int check_cost(const gsearch *q, const gref *ref, const fz_gpath *p, char *why) {
  double c = p->cost, opt = ref->opt;
  if (opt == HUGE_VAL) return fz_why(why, "a path where the reference has none");
  if (q->max_cost >= 0 && c > q->max_cost && !fz_close(c, q->max_cost))
    return fz_why(why, "the path costs %.17g, above max_cost %g", c, q->max_cost);
  if (c < opt && !fz_close(c, opt))
    return fz_why(why, "the path costs %.17g, below the optimum %.17g", c, opt);
  if (exact(q) && !fz_close(c, opt))
    return fz_why(why, "the path costs %.17g, the optimum is %.17g", c, opt);
  if (q->weight > 1 && admissible(q) && c > q->weight * opt && !fz_close(c, q->weight * opt))
    return fz_why(why, "the path costs %.17g, above weight %g times the optimum %.17g", c,
                  q->weight, opt);
  if (q->alg == A_BFS && q->max_cost < 0 && p->n - 1 != ref->fewest)   /* max_cost prunes */
    return fz_why(why, "bfs: %d steps, the fewest are %d", p->n - 1, ref->fewest);
  return 1;
}

/* A partial path: only with 'partial', only when the goal is out of reach or
** a limit stopped the search; to an expanded cell by a cheapest way. */
static int check_partial(const fz_grid *g, const gsearch *q, const gref *ref,
                         const fz_gpath *p, char *why) {
  int end = p->ey * g->w + p->ex;
  if (!q->partial) return fz_why(why, "a partial path without option 'partial'");
  if (ref->opt < HUGE_VAL && q->max_exp < 0 && q->max_cost < 0)
    return fz_why(why, "a partial path where the reference reaches a goal (cost %.17g)",
                  ref->opt);
  if (exact(q) && !fz_close(p->cost, ref->dist[end]))
    return fz_why(why, "the partial path to (%d, %d) costs %.17g, the cheapest way %.17g",
                  p->ex + 1, p->ey + 1, p->cost, ref->dist[end]);
  return 1;
}

/* nil, message, code: the code must be what the reference allows. */
static int check_fail(const char *code, const gsearch *q, const gref *ref, char *why) {
  int limits = q->max_exp >= 0 || q->max_cost >= 0;
  if (ref->blocked != (strcmp(code, "blocked") == 0))
    return fz_why(why, "code '%s', the reference says %sblocked", code,
                  ref->blocked ? "" : "not ");
  if (ref->blocked) return 1;
  if (q->partial) return fz_why(why, "nil, code '%s', with option 'partial'", code);
  if (strcmp(code, "no_path") == 0) {
    if (ref->opt < HUGE_VAL) return fz_why(why, "no_path, the reference costs %.17g", ref->opt);
  } else if (strcmp(code, "limit") == 0) {
    if (!limits) return fz_why(why, "'limit' without a limit");
    if (q->max_exp < 0 && exact(q) && ref->opt <= q->max_cost && !fz_close(ref->opt, q->max_cost))
      return fz_why(why, "'limit' by max_cost %g, the optimum is %.17g", q->max_cost, ref->opt);
  } else {
    return fz_why(why, "unknown code '%s'", code);
  }
  return 1;
}

/* The three results at 'path' against the reference; 0 and why if wrong. */
static int verdict(int path, const fz_grid *g, const gsearch *q, const gref *ref, char *why) {
  fz_gpath p;
  if (lua_isnil(fz_L, path)) return check_fail(lua_tostring(fz_L, path + 2), q, ref, why);
  if (!fz_check_gpath(fz_L, path, g, q->diag, &p, why)) return 0;
  if (p.sy * g->w + p.sx != q->s) return fz_why(why, "the path does not start at the start");
  if (ref->blocked) return fz_why(why, "a path, the reference says blocked");
  if (lua_type(fz_L, path + 2) == LUA_TSTRING) return check_partial(g, q, ref, &p, why);
  return check_goal(path, g, q, ref, &p, why) && check_cost(q, ref, &p, why);
}

/* Checks the three results of find (or query:result) on top of the stack. */
static void check_result(const fz_grid *g, const gsearch *q) {
  int n = g->w * g->h;
  char why[256];
  gref ref;
  ref.dist = malloc((size_t)n * sizeof *ref.dist);
  ref.steps = malloc((size_t)n * sizeof *ref.steps);
  ref.isgoal = malloc((size_t)n);
  if (ref.dist == NULL || ref.steps == NULL || ref.isgoal == NULL) fz_fail("out of memory");
  reference(g, q, &ref);
  if (!verdict(lua_gettop(fz_L) - 2, g, q, &ref, why)) {
    describe(g, q);
    fz_fail("%s", why);
  }
  free(ref.dist);
  free(ref.steps);
  free(ref.isgoal);
}

/* Must find/query raise on q's options? (jps refuses within and partial) */
static int refused(const gsearch *q) {
  return q->alg == A_JPS && (q->within >= 0 || q->partial);
}

/* The call at the top (function, self and the arguments) went through
** fz_pcall with status st: an error must be expected, and the other way. */
static int expect_error(int st, const fz_grid *g, const gsearch *q) {
  if ((st != LUA_OK) != refused(q)) {
    describe(g, q);
    fz_fail("%s", st != LUA_OK ? lua_tostring(fz_L, -1) : "options accepted that must be refused");
  }
  if (st != LUA_OK) lua_pop(fz_L, 1);
  return st != LUA_OK;
}

static void op_find(int grid, const fz_grid *g, fz_bytes *in) {
  gsearch q;
  int n;
  decode_search(in, g, &q);
  fz_method(fz_L, grid, "find");
  n = push_args(g, &q);
  if (expect_error(fz_pcall(fz_L, n + 1, 3), g, &q)) return;
  check_result(g, &q);
  lua_pop(fz_L, 3);
}

/* grid:set(x, y, v) on the grid and the model. */
static void set_cell(int grid, fz_grid *g, int pal, int cell, unsigned b) {
  double v = editvalue(pal, b);
  fz_method(fz_L, grid, "set");
  lua_pushinteger(fz_L, cell % g->w + 1);
  lua_pushinteger(fz_L, cell / g->w + 1);
  pushcell(v);
  fz_pcall(fz_L, 4, 0);
  g->cell[cell] = v;
}

/* A query stepped to its end in steps of 1 + b % 16 expansions, a cell edited
** after the first step when the input says so: its result must be find's on
** the grid as it is at the end. */
static void op_query(int grid, fz_grid *g, int pal, fz_bytes *in) {
  gsearch q;
  unsigned b = fz_byte(in), edit = fz_byte(in), cell = fz_byte(in);
  int n, rounds = 0, running = 1;
  decode_search(in, g, &q);
  fz_method(fz_L, grid, "query");
  n = push_args(g, &q);
  if (expect_error(fz_pcall(fz_L, n + 1, 1), g, &q)) return;
  while (running) {
    fz_method(fz_L, -1, "step");
    lua_pushinteger(fz_L, 1 + b % 16);
    fz_pcall(fz_L, 2, 2);
    running = strcmp(lua_tostring(fz_L, -2), "running") == 0;
    lua_pop(fz_L, 2);
    if (running && rounds == 0 && edit & 1) set_cell(grid, g, pal, cellof(g, cell), edit >> 1);
    if (++rounds > 100000) fz_fail("the query is still running after 100000 steps");
  }
  fz_method(fz_L, -1, "result");
  fz_pcall(fz_L, 1, 3);
  check_result(g, &q);
  lua_pop(fz_L, 4);
}

static void op_fill(int grid, fz_grid *g, int pal, fz_bytes *in) {
  int x = (int)(fz_byte(in) % (unsigned)g->w), y = (int)(fz_byte(in) % (unsigned)g->h);
  int fw = (int)(fz_byte(in) % (unsigned)(g->w - x + 1));
  int fh = (int)(fz_byte(in) % (unsigned)(g->h - y + 1)), i, j;
  double v = editvalue(pal, fz_byte(in));
  fz_method(fz_L, grid, "fill");
  lua_pushinteger(fz_L, x + 1);
  lua_pushinteger(fz_L, y + 1);
  lua_pushinteger(fz_L, fw);
  lua_pushinteger(fz_L, fh);
  pushcell(v);
  fz_pcall(fz_L, 6, 0);
  for (j = y; j < y + fh; j++)
    for (i = x; i < x + fw; i++) g->cell[j * g->w + i] = v;
}

/* grid:prepare(diagonal): JPS+ tables for any policy; later searches
** under it read them (the harness's reference checks every answer). */
static void op_prepare(int grid, fz_bytes *in) {
  int diag = (int)fz_byte(in) & 3;
  fz_method(fz_L, grid, "prepare");
  lua_pushstring(fz_L, fz_diagname(diag));
  if (fz_pcall(fz_L, 2, 1) != LUA_OK)
    fz_fail("prepare('%s'): %s", fz_diagname(diag), lua_tostring(fz_L, -1));
  lua_pop(fz_L, 1);
}

/* r:path() on top of the replanner at 'r' for an agent at cell 'at' and a
** goal at 't' under 'diag': the shortest path on the grid as it is now.
** Returns the path's second cell (the agent's next), or -1. */
static int replanned(int r, const fz_grid *g, int at, int t, int diag) {
  double *dist = malloc((size_t)(g->w * g->h) * sizeof *dist);
  int next = -1;
  char why[256];
  if (dist == NULL) fz_fail("out of memory");
  fz_dijkstra(g, at % g->w, at / g->w, diag, dist);
  fz_method(fz_L, r, "path");
  fz_pcall(fz_L, 1, 3);
  if (lua_isnil(fz_L, -3)) {
    int blocked = g->cell[at] <= 0 || g->cell[t] <= 0;
    const char *code = lua_tostring(fz_L, -1);
    if (strcmp(code, blocked ? "blocked" : "no_path") != 0 || (!blocked && dist[t] < HUGE_VAL))
      fz_fail("replanner (%d, %d) -> (%d, %d) '%s': %s, the reference %.17g", at % g->w + 1,
              at / g->w + 1, t % g->w + 1, t / g->w + 1, fz_diagname(diag), code, dist[t]);
  } else {
    fz_gpath p;
    if (!fz_check_gpath(fz_L, -3, g, diag, &p, why) || p.sy * g->w + p.sx != at ||
        p.ey * g->w + p.ex != t || !fz_close(p.cost, dist[t]))
      fz_fail("replanner (%d, %d) -> (%d, %d) '%s': path %s, cost %.17g, the reference %.17g",
              at % g->w + 1, at / g->w + 1, t % g->w + 1, t / g->w + 1, fz_diagname(diag),
              why, p.cost, dist[t]);
    if (p.n > 1) {
      fz_method(fz_L, -3, "get");
      lua_pushinteger(fz_L, 2);
      fz_pcall(fz_L, 2, 2);
      next = (int)(lua_tointeger(fz_L, -1) - 1) * g->w + (int)lua_tointeger(fz_L, -2) - 1;
      lua_pop(fz_L, 2);
    }
  }
  lua_pop(fz_L, 3);
  free(dist);
  return next;
}

/* A D* Lite replanner from cell s to t, asked for its path up to four times,
** with an edit and a move between: along its path, or to a cell from the
** input. */
static void op_replanner(int grid, fz_grid *g, int pal, fz_bytes *in) {
  unsigned b = fz_byte(in);
  int s = cellof(g, fz_byte(in)), t = cellof(g, fz_byte(in)), diag = (int)b & 3, i, r;
  fz_method(fz_L, grid, "replanner");
  lua_pushinteger(fz_L, s % g->w + 1);
  lua_pushinteger(fz_L, s / g->w + 1);
  lua_pushinteger(fz_L, t % g->w + 1);
  lua_pushinteger(fz_L, t / g->w + 1);
  lua_createtable(fz_L, 0, 1);
  lua_pushstring(fz_L, fz_diagname(diag));
  lua_setfield(fz_L, -2, "diagonal");
  if ((fz_pcall(fz_L, 6, 1) != LUA_OK) != (g->nlink > 0))   /* it refuses links */
    fz_fail("replanner on a grid with %d links: %s", g->nlink,
            g->nlink ? "accepted" : lua_tostring(fz_L, -1));
  if (g->nlink > 0) {
    lua_pop(fz_L, 1);
    return;
  }
  r = lua_gettop(fz_L);
  for (i = 0; i <= (int)(b >> 2) % 4; i++) {
    int next = replanned(r, g, s, t, diag);
    unsigned e = fz_byte(in), c = fz_byte(in);
    if (e & 1) set_cell(grid, g, pal, cellof(g, c), e >> 1);
    s = (e & 2) && next >= 0 ? next : (e & 4) ? cellof(g, fz_byte(in)) : s;
    fz_method(fz_L, r, "move_to");
    lua_pushinteger(fz_L, s % g->w + 1);
    lua_pushinteger(fz_L, s / g->w + 1);
    fz_pcall(fz_L, 3, 0);
  }
  replanned(r, g, s, t, diag);
  fz_method(fz_L, r, "close");
  fz_pcall(fz_L, 1, 0);
  lua_pop(fz_L, 1);
}

/* ---- links ---- */

static double linkcost(unsigned c) {
  static const double pal[8] = {0.25, 1, SQRT2, 2, 3.5, 0.5, 10, 0.1};
  return pal[c % 8];
}

/* Costs grid:link must refuse. */
static double badcost(unsigned c) {
  switch (c % 5) {
    case 0: return 0;
    case 1: return -1;
    case 2: return HUGE_VAL;
    case 3: return -HUGE_VAL;
    default: return NAN;
  }
}

/* Sets the model's link a -> b to cost c; 0 if the model is full. */
static int setlink(fz_grid *g, int a, int b, double c) {
  int i;
  for (i = 0; i < g->nlink; i++)
    if (g->link[i].a == a && g->link[i].b == b) break;
  if (i == FZ_MAXLINK) return 0;
  if (i == g->nlink) g->nlink++;
  g->link[i].a = a;
  g->link[i].b = b;
  g->link[i].cost = c;
  return 1;
}

/* Removes the model's link a -> b; returns 1 if there was one. */
static int droplink(fz_grid *g, int a, int b) {
  int i;
  for (i = 0; i < g->nlink; i++)
    if (g->link[i].a == a && g->link[i].b == b) {
      g->link[i] = g->link[--g->nlink];
      return 1;
    }
  return 0;
}

/* Pushes grid:name(x1, y1, x2, y2 ...) for cells a and b. */
static void push_ends(int grid, const fz_grid *g, const char *name, int a, int b) {
  fz_method(fz_L, grid, name);
  lua_pushinteger(fz_L, a % g->w + 1);
  lua_pushinteger(fz_L, a / g->w + 1);
  lua_pushinteger(fz_L, b % g->w + 1);
  lua_pushinteger(fz_L, b / g->w + 1);
}

static void push_oneway(void) {
  lua_createtable(fz_L, 0, 1);
  lua_pushboolean(fz_L, 1);
  lua_setfield(fz_L, -2, "oneway");
}

/* grid:link(a, b, cost [, {oneway = true}]), a cost from the palette or one
** it must refuse; a link of a cell to itself is refused too. */
static void op_link(int grid, fz_grid *g, unsigned f, int a, int b, unsigned c) {
  int oneway = (f >> 2) & 1, bad = ((f >> 3) & 7) == 7, ok = !bad && a != b, st;
  double cost = bad ? badcost(c) : linkcost(c);
  if (ok && g->nlink + 2 > FZ_MAXLINK) return;          /* the model is full */
  push_ends(grid, g, "link", a, b);
  lua_pushnumber(fz_L, cost);
  if (oneway) push_oneway();
  st = fz_pcall(fz_L, oneway ? 7 : 6, 0);
  if ((st == LUA_OK) != ok)
    fz_fail("link (%d, %d) -> (%d, %d) cost %g: %s", a % g->w + 1, a / g->w + 1, b % g->w + 1,
            b / g->w + 1, cost, st ? lua_tostring(fz_L, -1) : "accepted");
  if (st != LUA_OK) {
    lua_pop(fz_L, 1);
    return;
  }
  setlink(g, a, b, cost);
  if (!oneway) setlink(g, b, a, cost);
}

/* grid:unlink(a, b [, {oneway = true}]): how many it removed. */
static void op_unlink(int grid, fz_grid *g, unsigned f, int a, int b) {
  int oneway = (f >> 2) & 1, want = droplink(g, a, b), got;
  if (!oneway) want += droplink(g, b, a);
  push_ends(grid, g, "unlink", a, b);
  if (oneway) push_oneway();
  fz_pcall(fz_L, oneway ? 6 : 5, 1);
  got = (int)lua_tointeger(fz_L, -1);
  if (got != want) fz_fail("unlink (%d, %d) -> (%d, %d): %d removed, the model %d",
                           a % g->w + 1, a / g->w + 1, b % g->w + 1, b / g->w + 1, got, want);
  lua_pop(fz_L, 1);
}

/* grid:links(): the model's links, each once, with their costs. */
static void op_links(int grid, const fz_grid *g) {
  int i, n;
  fz_method(fz_L, grid, "links");
  fz_pcall(fz_L, 1, 1);
  n = (int)lua_rawlen(fz_L, -1);
  if (n != g->nlink) fz_fail("links() lists %d, the model has %d", n, g->nlink);
  for (i = 1; i <= n; i++) {
    int v[4], k;
    double c;
    lua_rawgeti(fz_L, -1, i);
    for (k = 0; k < 4; k++) {
      lua_rawgeti(fz_L, -1, k + 1);
      v[k] = (int)lua_tointeger(fz_L, -1) - 1;
      lua_pop(fz_L, 1);
    }
    lua_rawgeti(fz_L, -1, 5);
    c = lua_tonumber(fz_L, -1);
    lua_pop(fz_L, 2);
    if (fz_linkcost(g, v[1] * g->w + v[0], v[3] * g->w + v[2]) != c)
      fz_fail("links()[%d] is (%d, %d) -> (%d, %d) cost %g, not in the model", i, v[0] + 1,
              v[1] + 1, v[2] + 1, v[3] + 1, c);
  }
  lua_pop(fz_L, 1);
}

/* A link, an unlink or the list, from the input. */
static void op_links_edit(int grid, fz_grid *g, fz_bytes *in) {
  unsigned f = fz_byte(in);
  int a = cellof(g, fz_byte(in)), b = cellof(g, fz_byte(in));
  switch (f & 3) {
    case 0: case 1: op_link(grid, g, f, a, b, fz_byte(in)); break;
    case 2: op_unlink(grid, g, f, a, b); break;
    default: op_links(grid, g); break;
  }
}

/* ---- smoothing ---- */

/* A find whose path (when there is one) is smoothed for a radius. */
static void op_smooth(int grid, const fz_grid *g, fz_bytes *in) {
  static const double RADII[5] = {0, 0.2, 0.35, 0.5, 0.7};
  double r = RADII[fz_byte(in) % 5];
  gsearch q;
  int n;
  decode_search(in, g, &q);
  fz_method(fz_L, grid, "find");
  n = push_args(g, &q);
  if (expect_error(fz_pcall(fz_L, n + 1, 3), g, &q)) return;
  check_result(g, &q);
  if (!lua_isnil(fz_L, -3)) fz_smooth_check(grid, lua_gettop(fz_L) - 2, g, q.diag, r);
  lua_pop(fz_L, 3);
}

/* ---- queries that continue through edits ---- */

/* Is cell c a goal of q by position (walkable or not)? */
static int goal_at(const fz_grid *g, const gsearch *q, int c) {
  int i;
  if (q->ngoals > 0) {
    for (i = 0; i < q->ngoals; i++)
      if (q->goals[i] == c) return 1;
    return 0;
  }
  if (q->within >= 0)
    return rangedist(q, c % g->w - q->t % g->w, c / g->w - q->t / g->w) <= q->within;
  return c == q->t;
}

/* The first point (1-based) grid:check must report blocked on the grid as it
** is, or 0: a blocked cell, or a step neither legal nor a link. */
static int first_blocked(const fz_grid *g, const int *cells, int n, int diag) {
  int i, via;
  for (i = 0; i < n; i++)
    if (g->cell[cells[i]] <= 0 || (i > 0 && fz_move(g, cells[i - 1], cells[i], diag, &via) < 0))
      return i + 1;
  return 0;
}

/* The cells of the grid Path at 'idx' into cells[256]; returns how many. */
static int path_cells(int idx, const fz_grid *g, int *cells) {
  int n, i;
  fz_method(fz_L, idx, "flat");
  fz_pcall(fz_L, 1, 1);
  n = (int)lua_rawlen(fz_L, -1) / 2;
  if (n < 1 || n > g->w * g->h) fz_fail("a continued query's path of %d points", n);
  for (i = 0; i < n; i++) {
    lua_rawgeti(fz_L, -1, 2 * i + 1);
    lua_rawgeti(fz_L, -2, 2 * i + 2);
    cells[i] = ((int)lua_tointeger(fz_L, -1) - 1) * g->w + (int)lua_tointeger(fz_L, -2) - 1;
    lua_pop(fz_L, 2);
  }
  lua_pop(fz_L, 1);
  return n;
}

/* Each step moves to a neighbour the policy's geometry allows, or along a
** link (none changed while the query ran). */
static void check_moves(const fz_grid *g, const int *cells, int n, int diag) {
  int i;
  for (i = 1; i < n; i++) {
    int dx = abs(cells[i] % g->w - cells[i - 1] % g->w);
    int dy = abs(cells[i] / g->w - cells[i - 1] / g->w);
    int step = dx <= 1 && dy <= 1 && dx + dy > 0 && (diag != FZ_NEVER || dx + dy == 1);
    if (!step && fz_linkcost(g, cells[i - 1], cells[i]) < 0)
      fz_fail("continued query: step %d of its path is neither a step nor a link", i);
  }
}

/* What on_change = "continue" promises after edits: a path from the start to
** a goal made of steps and links, which grid:check judges as the grid is
** now; or nil and one of the codes. */
static void check_continued(int grid, const fz_grid *g, const gsearch *q) {
  static int cells[256];
  int path = lua_gettop(fz_L) - 2, n, want, got;
  const char *code = lua_tostring(fz_L, path + 2);
  if (lua_isnil(fz_L, path)) {
    if (strcmp(code, "no_path") && strcmp(code, "blocked") && strcmp(code, "limit"))
      fz_fail("continued query: code %s", code);
    return;
  }
  n = path_cells(path, g, cells);
  if (cells[0] != q->s) fz_fail("continued query: the path does not start at the start");
  if (code == NULL && !goal_at(g, q, cells[n - 1]))
    fz_fail("continued query: the path ends at (%d, %d), not a goal", cells[n - 1] % g->w + 1,
            cells[n - 1] / g->w + 1);
  check_moves(g, cells, n, q->diag);
  want = first_blocked(g, cells, n, q->diag);
  fz_method(fz_L, grid, "check");
  lua_pushvalue(fz_L, path);
  fz_pcall(fz_L, 2, 3);
  got = lua_toboolean(fz_L, -3) ? 0 : (int)lua_tointeger(fz_L, -2);
  if (got != want || (got && strcmp(lua_tostring(fz_L, -1), "blocked") != 0))
    fz_fail("continued query: grid:check says point %d (%s), the reference %d", got,
            got ? lua_tostring(fz_L, -1) : "all clear", want);
  lua_pop(fz_L, 3);
}

/* Steps the query on top by n expansions; returns whether it is running. */
static int step_query(unsigned n) {
  int running;
  fz_method(fz_L, -1, "step");
  lua_pushinteger(fz_L, n);
  fz_pcall(fz_L, 2, 2);
  running = strcmp(lua_tostring(fz_L, -2), "running") == 0;
  lua_pop(fz_L, 2);
  return running;
}

/* A query with on_change = "continue" stepped in steps of 1 + b % 16
** expansions, with up to 1 + (b >> 4) % 4 cell edits after its first steps.
** Without edits it must end as find would. */
static void op_query_continue(int grid, fz_grid *g, int pal, fz_bytes *in) {
  gsearch q;
  unsigned b = fz_byte(in);
  int n, edits = 0, rounds = 0, most = 1 + (int)(b >> 4) % 4;
  decode_search(in, g, &q);
  fz_method(fz_L, grid, "query");
  n = push_args(g, &q);
  lua_pushstring(fz_L, "continue");
  lua_setfield(fz_L, -2, "on_change");
  if (expect_error(fz_pcall(fz_L, n + 1, 1), g, &q)) return;
  while (step_query(1 + b % 16)) {
    if (edits < most && in->n > 0) {
      int cell = cellof(g, fz_byte(in));
      set_cell(grid, g, pal, cell, fz_byte(in));
      edits++;
    }
    if (++rounds > 100000) fz_fail("the query is still running after 100000 steps");
  }
  fz_method(fz_L, -1, "result");
  fz_pcall(fz_L, 1, 3);
  if (edits == 0) check_result(g, &q);
  else check_continued(grid, g, &q);
  lua_pop(fz_L, 4);
}

/* Replaces the grid in slot 'grid' by its clone, closing the original. */
static void op_clone(int grid) {
  fz_method(fz_L, grid, "clone");
  fz_pcall(fz_L, 1, 1);                                 /* ... clone */
  fz_method(fz_L, grid, "close");
  fz_pcall(fz_L, 1, 0);
  lua_replace(fz_L, grid);
}

static void gridop(int grid, fz_grid *g, int pal, fz_bytes *in) {
  unsigned op = fz_byte(in);
  switch (op % 8) {
    case 0: case 1: case 2: op_find(grid, g, in); break;
    case 3: {
      int cell = cellof(g, fz_byte(in));
      set_cell(grid, g, pal, cell, fz_byte(in));
      break;
    }
    case 4: op_fill(grid, g, pal, in); break;
    case 5: op_prepare(grid, in); break;
    case 6: op_query(grid, g, pal, in); break;
    default:
      if (op >> 3 & 1) op_replanner(grid, g, pal, in);
      else if (op >> 4 & 1) fz_unit_op(grid, g, in);
      else if (op >> 5 == 0) op_clone(grid);
      else if (op >> 5 <= 3) op_links_edit(grid, g, in);
      else if (op >> 5 <= 5) op_smooth(grid, g, in);
      else op_query_continue(grid, g, pal, in);
      break;
  }
}

/* Makes the grid with astar.grid.parse: one character a cell, '#' for walls
** and 'a' .. 'd' for the palette's costs. Leaves it on the stack. */
static void make_grid(fz_grid *g, int pal, int density, fz_bytes *in) {
  char text[16 * 17];
  int i, k = 0;
  for (i = 0; i < g->w * g->h; i++) {
    unsigned b = fz_byte(in);
    g->cell[i] = cellvalue(pal, density, b);
    text[k++] = g->cell[i] > 0 ? (char)('a' + (b >> 2 & 3)) : '#';
    if ((i + 1) % g->w == 0 && i + 1 < g->w * g->h) text[k++] = '\n';
  }
  fz_getlib(fz_L, "grid.parse");
  lua_pushlstring(fz_L, text, (size_t)k);
  lua_createtable(fz_L, 0, 5);
  lua_pushboolean(fz_L, 0);
  lua_setfield(fz_L, -2, "#");
  for (i = 0; i < 4; i++) {
    char key[2] = {(char)('a' + i), '\0'};
    lua_pushnumber(fz_L, palette(pal, (unsigned)i));
    lua_setfield(fz_L, -2, key);
  }
  fz_pcall(fz_L, 2, 1);
}

static void run_grid(unsigned b0, fz_bytes *in) {
  double cells[256];
  fz_link links[FZ_MAXLINK];
  fz_grid g;
  unsigned b1 = fz_byte(in);
  int pal = (int)(b1 >> 4) & 3, grid, ops;
  g.w = 1 + (int)(b0 >> 2) % 16;
  g.h = 1 + (int)(b1 & 15);
  g.cell = cells;
  g.nlink = 0;
  g.link = links;
  make_grid(&g, pal, (int)(b1 >> 6), in);
  grid = lua_gettop(fz_L);
  for (ops = 0; in->n > 0 && ops < MAXOPS; ops++) gridop(grid, &g, pal, in);
  fz_method(fz_L, grid, "close");
  fz_pcall(fz_L, 1, 0);
  lua_pop(fz_L, 1);
}

/* ---------------------------------------------------------------------- */
/* Graphs                                                                   */
/* ---------------------------------------------------------------------- */

#define MAXN 16

/* The model: cost[a][b] of the edge a -> b (0: none), 1-based ids. */
typedef struct gmodel {
  int n, directed;
  int alive[MAXN + 2], disabled[MAXN + 2], haspos[MAXN + 2];
  double x[MAXN + 2], y[MAXN + 2];
  double cost[MAXN + 2][MAXN + 2];
} gmodel;

enum { GA_ASTAR, GA_DIJKSTRA, GA_BFS, GA_GREEDY, GA_BIDIR, GA_N };

static const char *galgname(int a) {
  static const char *const n[] = {"astar", "dijkstra", "bfs", "greedy", "bidirectional"};
  return n[a];
}

static int usable(const gmodel *m, int a) {
  return a >= 1 && a <= m->n && m->alive[a] && !m->disabled[a];
}

/* Node ids from bytes: 1 .. n, and now and then n + 1 (unknown). */
static int nodeof(const gmodel *m, unsigned b) {
  return 1 + (int)(b % (unsigned)(m->n + 1));
}

static int live(const gmodel *m, int a) {
  return a >= 1 && a <= m->n && m->alive[a];
}

/* An edge cost code: 0 the default (the distance), else code / 16. */
static double edgecost(const gmodel *m, int a, int b, unsigned code) {
  if (code != 0) return code / 16.0;
  if (!m->haspos[a] || !m->haspos[b]) return -1;
  return sqrt((m->x[a] - m->x[b]) * (m->x[a] - m->x[b]) +
              (m->y[a] - m->y[b]) * (m->y[a] - m->y[b]));
}

/* Calls graph:name(a, b [, cost]); 'ok' says whether the model allows it. */
static int graphcall(int graph, const char *name, int a, int b, double cost, int ok,
                     int nres) {
  int st;
  fz_method(fz_L, graph, name);
  lua_pushinteger(fz_L, a);
  lua_pushinteger(fz_L, b);
  if (cost > 0) lua_pushnumber(fz_L, cost);
  st = fz_pcall(fz_L, cost > 0 ? 4 : 3, nres);
  if ((st == LUA_OK) != ok)
    fz_fail("%s(%d, %d, %g): %s", name, a, b, cost, st ? lua_tostring(fz_L, -1) : "accepted");
  if (st != LUA_OK) lua_pop(fz_L, 1);
  return st == LUA_OK;
}

static void setedge(gmodel *m, int a, int b, double c) {
  m->cost[a][b] = c;
  if (!m->directed) m->cost[b][a] = c;
}

static void op_add_edge(int graph, gmodel *m, fz_bytes *in) {
  int a = nodeof(m, fz_byte(in)), b = nodeof(m, fz_byte(in));
  unsigned code = fz_byte(in);
  double c = live(m, a) && live(m, b) ? edgecost(m, a, b, code) : -1;
  int ok = live(m, a) && live(m, b) && a != b && c > 0;
  if (graphcall(graph, "add_edge", a, b, code != 0 ? code / 16.0 : 0, ok, 0)) setedge(m, a, b, c);
}

static void op_remove_edge(int graph, gmodel *m, fz_bytes *in) {
  int a = nodeof(m, fz_byte(in)), b = nodeof(m, fz_byte(in));
  if (a == b) return;
  if (graphcall(graph, "remove_edge", a, b, 0, live(m, a) && live(m, b), 1)) {
    if (lua_toboolean(fz_L, -1) != (m->cost[a][b] > 0))
      fz_fail("remove_edge(%d, %d) says %d", a, b, lua_toboolean(fz_L, -1));
    lua_pop(fz_L, 1);
    setedge(m, a, b, 0);
  }
}

static void op_set_cost(int graph, gmodel *m, fz_bytes *in) {
  int a = nodeof(m, fz_byte(in)), b = nodeof(m, fz_byte(in));
  double c = 1 + fz_byte(in) / 16.0;
  int ok = live(m, a) && live(m, b) && a != b && m->cost[a][b] > 0;
  if (graphcall(graph, "set_edge_cost", a, b, c, ok, 0)) setedge(m, a, b, c);
}

/* disable_node, enable_node or remove_node on node a. */
static void op_node(int graph, gmodel *m, unsigned how, fz_bytes *in) {
  static const char *const names[] = {"disable_node", "enable_node", "remove_node"};
  int a = nodeof(m, fz_byte(in)), st, i;
  fz_method(fz_L, graph, names[how]);
  lua_pushinteger(fz_L, a);
  st = fz_pcall(fz_L, 2, 0);
  if ((st == LUA_OK) != live(m, a))
    fz_fail("%s(%d): %s", names[how], a, st ? lua_tostring(fz_L, -1) : "accepted");
  if (st != LUA_OK) {
    lua_pop(fz_L, 1);
    return;
  }
  if (how < 2) m->disabled[a] = how == 0;
  if (how < 2) return;
  m->alive[a] = 0;
  for (i = 1; i <= m->n; i++) m->cost[a][i] = m->cost[i][a] = 0;
}

/* Dijkstra (O(n^2)) and BFS from s over the usable nodes. */
static void graph_reference(const gmodel *m, int s, double *dist, int *steps) {
  int done[MAXN + 2] = {0}, i, k;
  for (i = 0; i <= m->n; i++) {
    dist[i] = HUGE_VAL;
    steps[i] = -1;
  }
  if (!usable(m, s)) return;
  dist[s] = 0;
  steps[s] = 0;
  for (k = 0; k < m->n; k++) {
    int u = 0;
    for (i = 1; i <= m->n; i++)
      if (!done[i] && dist[i] < HUGE_VAL && (u == 0 || dist[i] < dist[u])) u = i;
    if (u == 0) break;
    done[u] = 1;
    for (i = 1; i <= m->n; i++)
      if (m->cost[u][i] > 0 && usable(m, i) && dist[u] + m->cost[u][i] < dist[i])
        dist[i] = dist[u] + m->cost[u][i];
  }
  for (k = 0; k < m->n; k++)                         /* BFS by rounds */
    for (i = 1; i <= m->n; i++) {
      int j;
      if (steps[i] != k) continue;
      for (j = 1; j <= m->n; j++)
        if (m->cost[i][j] > 0 && usable(m, j) && steps[j] < 0) steps[j] = k + 1;
    }
}

/* Checks the graph Path at 'path' from s to one of the goals. Returns its
** cost; *edges gets its length in edges. */
static double check_graph_path(int path, const gmodel *m, int s, const char *isgoal, int *edges) {
  int n, i, prev = 0, seen[MAXN + 2] = {0};
  double sum = 0, reported;
  fz_method(fz_L, path, "cost");
  fz_pcall(fz_L, 1, 1);
  reported = lua_tonumber(fz_L, -1);
  fz_method(fz_L, path, "table");
  fz_pcall(fz_L, 1, 1);                                 /* cost ids */
  n = (int)lua_rawlen(fz_L, -1);
  for (i = 1; i <= n; i++) {
    int id;
    lua_rawgeti(fz_L, -1, i);
    id = (int)lua_tointeger(fz_L, -1);
    lua_pop(fz_L, 1);
    if (!usable(m, id) || seen[id]) fz_fail("path point %d: node %d unusable or repeated", i, id);
    seen[id] = 1;
    if (i == 1 && id != s) fz_fail("the path starts at node %d, not %d", id, s);
    if (i > 1 && !(m->cost[prev][id] > 0)) fz_fail("no edge %d -> %d in the path", prev, id);
    if (i > 1) sum += m->cost[prev][id];
    prev = id;
  }
  if (n < 1 || !isgoal[prev]) fz_fail("the path ends at node %d, not a goal", prev);
  if (!fz_close(sum, reported)) fz_fail("path:cost() %.17g, the edges add up to %.17g",
                                        reported, sum);
  lua_pop(fz_L, 2);
  *edges = n - 1;
  return sum;
}

/* One graph search: its start, goals (ng 0: a goal argument), algorithm
** and heuristic (0 default, 1 "zero", 2 "euclidean"). */
typedef struct gfind {
  int a, ng, goals[3], alg, heur;
} gfind;

/* Pushes graph:find's arguments for f after self; returns how many. */
static int push_gfind(const gfind *f) {
  int i;
  lua_pushinteger(fz_L, f->a);
  if (f->ng == 0) lua_pushinteger(fz_L, f->goals[0]);
  lua_createtable(fz_L, 0, 3);
  lua_pushstring(fz_L, galgname(f->alg));
  lua_setfield(fz_L, -2, "algorithm");
  if (f->heur > 0) {
    lua_pushstring(fz_L, f->heur == 1 ? "zero" : "euclidean");
    lua_setfield(fz_L, -2, "heuristic");
  }
  if (f->ng > 0) {
    lua_createtable(fz_L, f->ng, 0);
    for (i = 0; i < f->ng; i++) {
      lua_pushinteger(fz_L, f->goals[i]);
      lua_rawseti(fz_L, -2, i + 1);
    }
    lua_setfield(fz_L, -2, "goals");
  }
  return f->ng ? 2 : 3;
}

/* The reference answer of f: isgoal[], the cheapest cost and fewest edges to
** a usable goal; returns whether any goal is usable. */
static int graph_expect(const gmodel *m, const gfind *f, char *isgoal, double *opt,
                        int *fewest) {
  double dist[MAXN + 2];
  int steps[MAXN + 2], i, any = 0;
  graph_reference(m, f->a, dist, steps);
  *opt = HUGE_VAL;
  *fewest = -1;
  for (i = 0; i < (f->ng ? f->ng : 1); i++) {
    int g = f->goals[i];
    if (!usable(m, g)) continue;
    any = isgoal[g] = 1;
    if (dist[g] < *opt) *opt = dist[g];
    if (steps[g] >= 0 && (*fewest < 0 || steps[g] < *fewest)) *fewest = steps[g];
  }
  return any;
}

/* The three results of graph:find on top, against the reference. */
static void check_gfind(const gmodel *m, const gfind *f) {
  char isgoal[MAXN + 2] = {0};
  double opt, c;
  int fewest, any = graph_expect(m, f, isgoal, &opt, &fewest), edges;
  const char *name = galgname(f->alg);
  if (lua_isnil(fz_L, -3)) {
    const char *code = lua_tostring(fz_L, -1);
    int blocked = !usable(m, f->a) || !any;
    if (blocked != (strcmp(code, "blocked") == 0) || (!blocked && strcmp(code, "no_path") != 0))
      fz_fail("graph %s from %d: %s, the reference: %s, cost %.17g", name, f->a, code,
              blocked ? "blocked" : "not blocked", opt);
    if (!blocked && opt < HUGE_VAL)
      fz_fail("graph %s from %d: no_path, the reference %.17g", name, f->a, opt);
    return;
  }
  c = check_graph_path(lua_gettop(fz_L) - 2, m, f->a, isgoal, &edges);
  if (f->alg == GA_BFS ? edges != fewest
      : f->alg == GA_GREEDY ? c < opt && !fz_close(c, opt) : !fz_close(c, opt))
    fz_fail("graph %s from %d: cost %.17g in %d edges, the reference %.17g in %d", name, f->a,
            c, edges, opt, fewest);
}

/* One graph:find(a, b) or find(a, {goals = ...}) with an algorithm and a
** heuristic from the input. */
static void op_graph_find(int graph, const gmodel *m, fz_bytes *in) {
  unsigned o = fz_byte(in);
  gfind f;
  int i, st, ok;
  f.a = nodeof(m, fz_byte(in));
  f.ng = (int)(o >> 5) & 3;
  f.alg = (int)(o % GA_N);
  f.heur = (int)(o >> 3) & 3;
  for (i = 0; i < (f.ng ? f.ng : 1); i++) f.goals[i] = nodeof(m, fz_byte(in));
  for (i = 0, ok = live(m, f.a); i < (f.ng ? f.ng : 1); i++) ok = ok && live(m, f.goals[i]);
  fz_method(fz_L, graph, "find");
  st = fz_pcall(fz_L, push_gfind(&f) + 1, 3);
  if ((st == LUA_OK) != ok)
    fz_fail("graph find from %d: %s", f.a, st ? lua_tostring(fz_L, -1) : "accepted");
  if (st != LUA_OK) {
    lua_pop(fz_L, 1);
    return;
  }
  check_gfind(m, &f);
  lua_pop(fz_L, 3);
}

static void graphop(int graph, gmodel *m, fz_bytes *in) {
  unsigned o = fz_byte(in);
  switch (o % 8) {
    case 0: case 1: op_add_edge(graph, m, in); break;
    case 2: op_remove_edge(graph, m, in); break;
    case 3: op_set_cost(graph, m, in); break;
    case 4: op_node(graph, m, (o >> 3) % 3, in); break;
    default: op_graph_find(graph, m, in); break;
  }
}

/* The nodes: a byte below 32 adds one without position, others one at
** (byte mod 16, next byte mod 16). */
static void add_nodes(int graph, gmodel *m, fz_bytes *in) {
  int i;
  for (i = 1; i <= m->n; i++) {
    unsigned p = fz_byte(in);
    fz_method(fz_L, graph, "add_node");
    m->alive[i] = 1;
    m->disabled[i] = 0;
    m->haspos[i] = p >= 32;
    if (m->haspos[i]) {
      m->x[i] = p % 16;
      m->y[i] = fz_byte(in) % 16;
      lua_pushnumber(fz_L, m->x[i]);
      lua_pushnumber(fz_L, m->y[i]);
    }
    fz_pcall(fz_L, m->haspos[i] ? 3 : 1, 1);
    if (lua_tointeger(fz_L, -1) != i) fz_fail("add_node gave id %d, expected %d",
                                           (int)lua_tointeger(fz_L, -1), i);
    lua_pop(fz_L, 1);
  }
}

static void run_graph(fz_bytes *in) {
  gmodel m;
  unsigned b = fz_byte(in);
  int graph, ops;
  memset(&m, 0, sizeof m);
  m.n = 2 + (int)(b & 15) % 15;
  m.directed = (b >> 4) & 1;
  fz_getlib(fz_L, "graph");
  lua_createtable(fz_L, 0, 1);
  lua_pushboolean(fz_L, m.directed);
  lua_setfield(fz_L, -2, "directed");
  fz_pcall(fz_L, 1, 1);
  graph = lua_gettop(fz_L);
  add_nodes(graph, &m, in);
  for (ops = 0; in->n > 0 && ops < 4 * MAXOPS; ops++) graphop(graph, &m, in);
  fz_method(fz_L, graph, "close");
  fz_pcall(fz_L, 1, 0);
  lua_pop(fz_L, 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_bytes in = {data, size};
  unsigned b0 = fz_byte(&in);
  if (size < 2) return 0;
  if ((b0 & 3) == 3) run_graph(&in);
  else run_grid(b0, &in);
  fz_done(fz_L);
  return 0;
}
