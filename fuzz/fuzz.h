/*
** fuzz.h - what the libFuzzer harnesses of fuzz/ share: a byte reader, a Lua
** 5.4 state with the library statically linked (fuzz_lua.c), and a plain
** Dijkstra over grids written from the README's cost model (fuzz_grid.c).
**
** A finding is anything that is not the library answering: a sanitizer
** report, a Lua error that is not one of the library's own messages (a
** runtime error with a position, "attempt to ...", an internal "astar: "
** status), a result that disagrees with the references here, or a stack left
** unbalanced. Findings print what was seen and abort().
*/
#ifndef ASTAR_FUZZ_H
#define ASTAR_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "lua.h"
#include "lauxlib.h"

/* libFuzzer's entry points, and the binding's only export. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int luaopen_astar_core(lua_State *L);

/* ---- input bytes ---- */

typedef struct fz_bytes {
  const uint8_t *p;
  size_t n;
} fz_bytes;

/* The next byte, or 0 once the input is used up. */
unsigned fz_byte(fz_bytes *b);
/* The next two bytes as a little-endian number in [0, 65535]. */
unsigned fz_u16(fz_bytes *b);

/* ---- the Lua state ---- */

/* Stack slots every harness keeps between inputs: the table 'require
** "astar"' returns and the message handler. lua_gettop is FZ_TOP between
** inputs. */
#define FZ_ASTAR 1
#define FZ_MSGH 2
#define FZ_TOP 2

/* A fresh state: standard libraries, package.path at the repository's lua/
** (ASTAR_ROOT from the environment, else the FUZZ_ROOT the Makefile
** compiled in), no C modules from disk, "astar.core" preloaded from the
** binding linked in; "astar" required into slot FZ_ASTAR. */
lua_State *fz_open(void);

/* The one state every harness uses, made by LLVMFuzzerInitialize (fuzz_lua.c). */
extern lua_State *fz_L;

/* lua_pcall through the message handler. Returns LUA_OK, or an error status
** with the library's own message on the stack; any other error is a
** finding (printed with its traceback; abort). */
int fz_pcall(lua_State *L, int nargs, int nresults);

/* Pushes obj[name] and obj, ready for fz_pcall(L, nargs + 1, ...). */
void fz_method(lua_State *L, int obj, const char *name);

/* Pushes astar[field] (dotted: "grid.parse", "navmesh.from_polygons"). */
void fz_getlib(lua_State *L, const char *dotted);

/* At the end of an input: the stack must be back at FZ_TOP (a finding
** otherwise); collects fully when the heap has grown. */
void fz_done(lua_State *L);

/* Prints "fuzz finding: <formatted>" and aborts. */
void fz_fail(const char *fmt, ...);

/* |a - b| within 1e-9 of the larger magnitude (of 1 for small values). */
int fz_close(double a, double b);

/* Field 'k' of the table at 'idx' as a number (NaN when not a number). */
double fz_numfield(lua_State *L, int idx, const char *k);

/* ---- grids and the reference searches ---- */

enum { FZ_NEVER, FZ_ALWAYS, FZ_NOCUT, FZ_ONEOBS };
/* The option value of a policy: "never", "always", "no_corner_cutting", ... */
const char *fz_diagname(int diag);

/* A link (grid:link): a move of a fixed cost from cell a to cell b (indices
** y * w + x), taken while both are walkable. A two-way link is two of them. */
#define FZ_MAXLINK 8
typedef struct fz_link {
  int a, b;
  double cost;
} fz_link;

/* cell[y * w + x]: a cost > 0, or 0 for blocked (0-based coordinates); and
** nlink links (link may be NULL when nlink is 0). */
typedef struct fz_grid {
  int w, h;
  double *cell;
  int nlink;
  fz_link *link;
} fz_grid;

/* Is the step (x, y) -> (x + dx, y + dy) legal under 'diag' (spec/helper.lua's
** legal_step): the target in the grid and walkable, a diagonal allowed by the
** policy and its two orthogonal neighbours. */
int fz_legal(const fz_grid *g, int x, int y, int dx, int dy, int diag);

/* The cost of a legal step into (x2, y2): its length (1 or sqrt 2) times the
** cost of the cell entered. */
double fz_stepcost(const fz_grid *g, int x2, int y2, int dx, int dy);

/* The cost of the link from cell a to cell b (indices), or -1 if none. */
double fz_linkcost(const fz_grid *g, int a, int b);

/* The move from cell a to cell b as a search takes it (README, links): the
** cheaper of a legal step and a link whose cells are both walkable, a tie
** counting as a walk; -1 if neither. *vialink says whether it is the link. */
double fz_move(const fz_grid *g, int a, int b, int diag, int *vialink);

/* Cheapest cost from (sx, sy) to every cell into dist[w * h] (HUGE_VAL where
** unreachable; everything unreachable from a blocked start), links taken. */
void fz_dijkstra(const fz_grid *g, int sx, int sy, int diag, double *dist);

/* Fewest steps from (sx, sy) to every cell into steps[w * h] (-1 where
** unreachable), a link one step. */
void fz_bfs(const fz_grid *g, int sx, int sy, int diag, int *steps);

/* A grid path's points and what they add up to. */
typedef struct fz_gpath {
  int n;                 /* points */
  int sx, sy, ex, ey;    /* first and last point, 0-based */
  double cost;           /* the sum of its step costs */
} fz_gpath;

/* Checks the grid Path at 'idx': integral points inside the grid, walkable,
** each step legal under 'diag' or a link (fz_move), path:cost() equal to the
** sum of the moves' costs (within 1e-9), and with links path:link(i) the
** link's cost exactly where the move takes one. Fills *out and returns 1; or
** returns 0 with what is wrong in why[256]. */
int fz_check_gpath(lua_State *L, int idx, const fz_grid *g, int diag, fz_gpath *out,
                   char *why);

/* grid:find with a radius or algorithm "theta", from the input, checked
** against references of its own (fuzz_unit.c); 'grid' is the grid's stack
** index, g its model. */
void fz_unit_op(int grid, const fz_grid *g, fz_bytes *in);

/* path:smooth(grid, {radius = r}) of the grid Path at 'path' (already
** checked by fz_check_gpath), found under 'diag', checked against the
** references of fuzz_unit.c. */
void fz_smooth_check(int grid, int path, const fz_grid *g, int diag, double r);

/* snprintf into why[256]; returns 0, for 'return fz_why(why, ...)'. */
int fz_why(char *why, const char *fmt, ...);

#endif
