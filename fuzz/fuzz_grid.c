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

double fz_linkcost(const fz_grid *g, int a, int b) {
  int i;
  for (i = 0; i < g->nlink; i++)
    if (g->link[i].a == a && g->link[i].b == b) return g->link[i].cost;
  return -1;
}

double fz_move(const fz_grid *g, int a, int b, int diag, int *vialink) {
  int x = a % g->w, y = a / g->w, dx = b % g->w - x, dy = b / g->w - y;
  double step = -1, l = fz_linkcost(g, a, b);
  *vialink = 0;
  if (fz_legal(g, x, y, dx, dy, diag)) step = fz_stepcost(g, x + dx, y + dy, dx, dy);
  if (l > 0 && g->cell[a] > 0 && g->cell[b] > 0 && (step < 0 || l < step)) {
    *vialink = 1;
    return l;
  }
  return step;
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
  for (k = 0; k < g->nlink; k++) {              /* links, while both ends are walkable */
    const fz_link *l = &g->link[k];
    if (l->a == u && walk(g, l->b % g->w, l->b / g->w) && d + l->cost < dist[l->b]) {
      dist[l->b] = d + l->cost;
      push(hp, dist[l->b], l->b);
    }
  }
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
  hp.cap = (8 + (size_t)g->nlink) * n + 1;
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
    for (k = 0; k < 8 + g->nlink; k++) {
      int v = k < 8 ? (y + DY[k]) * g->w + x + DX[k] : g->link[k - 8].b;
      if (k < 8 ? k >= (diag == FZ_NEVER ? 4 : 8) || !fz_legal(g, x, y, DX[k], DY[k], diag)
                : g->link[k - 8].a != u || !walk(g, v % g->w, v / g->w))
        continue;
      if (steps[v] >= 0) continue;
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
    int vialink;
    double c;
    if (!point(L, flat, g, i, &x, &y, why)) return 0;
    c = fz_move(g, py * g->w + px, y * g->w + x, diag, &vialink);
    if (c < 0)
      return fz_why(why, "path step %d: (%d, %d) -> (%d, %d) is not legal under '%s'", i - 1,
                    px + 1, py + 1, x + 1, y + 1, fz_diagname(diag));
    out->cost += c;
  }
  out->ex = px;
  out->ey = py;
  return 1;
}

/* path:link(i) of the Path at 'idx' for each step of the flat list on top:
** the link's cost where fz_move takes a link, nil elsewhere. */
static int linkmarks(lua_State *L, int idx, const fz_grid *g, int diag, char *why) {
  int i, n = (int)lua_rawlen(L, -1) / 2, a, b, vialink, ok = 1;
  for (i = 1; i < n && ok; i++) {
    double c;
    lua_rawgeti(L, -1, 2 * i - 1);
    lua_rawgeti(L, -2, 2 * i);
    lua_rawgeti(L, -3, 2 * i + 1);
    lua_rawgeti(L, -4, 2 * i + 2);
    a = ((int)lua_tointeger(L, -3) - 1) * g->w + (int)lua_tointeger(L, -4) - 1;
    b = ((int)lua_tointeger(L, -1) - 1) * g->w + (int)lua_tointeger(L, -2) - 1;
    lua_pop(L, 4);
    c = fz_move(g, a, b, diag, &vialink);
    fz_method(L, idx, "link");
    lua_pushinteger(L, i);
    fz_pcall(L, 2, 1);
    if (vialink ? lua_tonumber(L, -1) != c : !lua_isnil(L, -1))
      ok = fz_why(why, "path:link(%d) is %s, the step (%d, %d) -> (%d, %d) %s %g", i,
                  luaL_tolstring(L, -1, NULL), a % g->w + 1, a / g->w + 1, b % g->w + 1,
                  b / g->w + 1, vialink ? "takes a link of cost" : "is a walk of cost", c);
    lua_settop(L, lua_gettop(L) - (ok ? 1 : 2));
  }
  return ok;
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
  if (ok && g->nlink > 0) ok = linkmarks(L, idx, g, diag, why);
  lua_pop(L, 2);
  if (ok && !fz_close(out->cost, reported))
    return fz_why(why, "path:cost() is %.17g, its steps add up to %.17g", reported, out->cost);
  return ok;
}
