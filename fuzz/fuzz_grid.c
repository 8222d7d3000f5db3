/*
** fuzz_grid.c - the grid references of the harnesses: legal steps, step
** costs, a plain Dijkstra and a BFS, ported from spec/helper.lua (legal_step,
** step_cost, dijkstra_all, bfs_all), and a checker of the Paths grid:find
** returns. Nothing here calls the library to compute an expectation.
*/
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"

#define SQRT2 1.41421356237309504880

const char *fz_diagname(int diag) {
  static const char *const names[] = {"never", "always", "no_corner_cutting", "one_obstacle"};
  return names[diag & 3];
}

static int walk(const fz_grid *g, int x, int y) {
  return x >= 0 && y >= 0 && x < g->w && y < g->h && g->cell[(size_t)y * g->w + x] > 0;
}

int fz_legal(const fz_grid *g, int x, int y, int dx, int dy, int diag) {
  int a, b;
  if ((dx == 0 && dy == 0) || abs(dx) > 1 || abs(dy) > 1) return 0;
  if (!walk(g, x + dx, y + dy)) return 0;
  if (dx == 0 || dy == 0) return 1;
  if (diag == FZ_NEVER) return 0;
  if (diag == FZ_ALWAYS) return 1;
  a = walk(g, x + dx, y);
  b = walk(g, x, y + dy);
  return diag == FZ_NOCUT ? a && b : a || b;
}

double fz_stepcost(const fz_grid *g, int x2, int y2, int dx, int dy) {
  return (dx != 0 && dy != 0 ? SQRT2 : 1.0) * g->cell[(size_t)y2 * g->w + x2];
}

/* A binary min-heap of (key, cell) with duplicates (lazy deletion). */
typedef struct heap {
  double *k;
  int *v;
  size_t n, cap;
} heap;

static void push(heap *hp, double key, int val) {
  size_t i = hp->n++;
  if (hp->n > hp->cap) fz_fail("reference heap overflow");
  while (i > 0 && hp->k[(i - 1) / 2] > key) {
    hp->k[i] = hp->k[(i - 1) / 2];
    hp->v[i] = hp->v[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  hp->k[i] = key;
  hp->v[i] = val;
}

static int pop(heap *hp, double *key) {
  int top = hp->v[0];
  double lk = hp->k[--hp->n];
  int lv = hp->v[hp->n];
  size_t i = 0, c;
  *key = hp->k[0];
  while ((c = 2 * i + 1) < hp->n) {
    if (c + 1 < hp->n && hp->k[c + 1] < hp->k[c]) c++;
    if (hp->k[c] >= lk) break;
    hp->k[i] = hp->k[c];
    hp->v[i] = hp->v[c];
    i = c;
  }
  hp->k[i] = lk;
  hp->v[i] = lv;
  return top;
}

static const int DX[8] = {1, -1, 0, 0, 1, 1, -1, -1};
static const int DY[8] = {0, 0, 1, -1, 1, -1, 1, -1};

/* Relaxes the steps out of settled cell u (at distance d). */
static void relax(const fz_grid *g, int diag, int u, double d, double *dist, heap *hp) {
  int k, x = u % g->w, y = u / g->w;
  for (k = 0; k < (diag == FZ_NEVER ? 4 : 8); k++) {
    int v;
    double nd;
    if (!fz_legal(g, x, y, DX[k], DY[k], diag)) continue;
    v = (y + DY[k]) * g->w + x + DX[k];
    nd = d + fz_stepcost(g, x + DX[k], y + DY[k], DX[k], DY[k]);
    if (nd < dist[v]) {
      dist[v] = nd;
      push(hp, nd, v);
    }
  }
}

void fz_dijkstra(const fz_grid *g, int sx, int sy, int diag, double *dist) {
  size_t n = (size_t)g->w * g->h, i;
  heap hp;
  char *done;
  for (i = 0; i < n; i++) dist[i] = HUGE_VAL;
  if (!walk(g, sx, sy)) return;
  hp.cap = 8 * n + 1;
  hp.n = 0;
  hp.k = malloc(hp.cap * sizeof *hp.k);
  hp.v = malloc(hp.cap * sizeof *hp.v);
  done = calloc(n, 1);
  if (hp.k == NULL || hp.v == NULL || done == NULL) fz_fail("out of memory");
  dist[sy * g->w + sx] = 0;
  push(&hp, 0, sy * g->w + sx);
  while (hp.n > 0) {
    double d;
    int u = pop(&hp, &d);
    if (done[u] || d != dist[u]) continue;
    done[u] = 1;
    relax(g, diag, u, d, dist, &hp);
  }
  free(hp.k);
  free(hp.v);
  free(done);
}

void fz_bfs(const fz_grid *g, int sx, int sy, int diag, int *steps) {
  size_t n = (size_t)g->w * g->h, i, head = 0, tail = 0;
  int *q;
  for (i = 0; i < n; i++) steps[i] = -1;
  if (!walk(g, sx, sy)) return;
  q = malloc(n * sizeof *q);
  if (q == NULL) fz_fail("out of memory");
  steps[sy * g->w + sx] = 0;
  q[tail++] = sy * g->w + sx;
  while (head < tail) {
    int u = q[head++], k, x, y;
    x = u % g->w;
    y = u / g->w;
    for (k = 0; k < (diag == FZ_NEVER ? 4 : 8); k++) {
      int v = (y + DY[k]) * g->w + x + DX[k];
      if (!fz_legal(g, x, y, DX[k], DY[k], diag) || steps[v] >= 0) continue;
      steps[v] = steps[u] + 1;
      q[tail++] = v;
    }
  }
  free(q);
}

int fz_why(char *why, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, 256, fmt, ap);
  va_end(ap);
  return 0;
}

/* Point i (1-based) of the flat list at 'idx', 0-based; 0 unless it is an
** integral cell of g. */
static int point(lua_State *L, int idx, const fz_grid *g, int i, int *x, int *y, char *why) {
  double fx, fy;
  lua_rawgeti(L, idx, 2 * i - 1);
  lua_rawgeti(L, idx, 2 * i);
  fx = lua_tonumber(L, -2);
  fy = lua_tonumber(L, -1);
  lua_pop(L, 2);
  if (fx != floor(fx) || fy != floor(fy) || fx < 1 || fy < 1 || fx > g->w || fy > g->h)
    return fz_why(why, "path point %d is (%g, %g), not a cell of the %dx%d grid", i, fx, fy,
                  g->w, g->h);
  *x = (int)fx - 1;
  *y = (int)fy - 1;
  return 1;
}

/* The points of the flat list at 'flat' (on top) against g. */
static int walkpath(lua_State *L, int flat, const fz_grid *g, int diag, fz_gpath *out,
                    char *why) {
  int i, x = 0, y = 0, px, py;
  out->n = (int)lua_rawlen(L, flat) / 2;
  if (out->n < 1 || lua_rawlen(L, flat) % 2 != 0)
    return fz_why(why, "path:flat() has %d numbers", (int)lua_rawlen(L, flat));
  out->cost = 0;
  if (!point(L, flat, g, 1, &px, &py, why)) return 0;
  if (!walk(g, px, py)) return fz_why(why, "path starts on blocked cell (%d, %d)", px + 1, py + 1);
  out->sx = px;
  out->sy = py;
  for (i = 2; i <= out->n; i++, px = x, py = y) {
    if (!point(L, flat, g, i, &x, &y, why)) return 0;
    if (!fz_legal(g, px, py, x - px, y - py, diag))
      return fz_why(why, "path step %d: (%d, %d) -> (%d, %d) is not legal under '%s'", i - 1,
                    px + 1, py + 1, x + 1, y + 1, fz_diagname(diag));
    out->cost += fz_stepcost(g, x, y, x - px, y - py);
  }
  out->ex = px;
  out->ey = py;
  return 1;
}

int fz_check_gpath(lua_State *L, int idx, const fz_grid *g, int diag, fz_gpath *out,
                   char *why) {
  double reported;
  int ok;
  idx = lua_absindex(L, idx);
  fz_method(L, idx, "cost");
  fz_pcall(L, 1, 1);
  reported = lua_tonumber(L, -1);
  fz_method(L, idx, "flat");
  fz_pcall(L, 1, 1);                                 /* cost flat */
  ok = walkpath(L, lua_gettop(L), g, diag, out, why);
  lua_pop(L, 2);
  if (ok && !fz_close(out->cost, reported))
    return fz_why(why, "path:cost() is %.17g, its steps add up to %.17g", reported, out->cost);
  return ok;
}
