/*
** navmesh_grid.c - a navmesh of a grid's walkable cells: greedy rectangles of
** equal cost (two ways, the one with fewer kept), with the corners of their
** neighbours on their sides.
*/
#include "navmesh_impl.h"

/* ------------------------------------------------------------------ */
/* From a grid                                                          */
/* ------------------------------------------------------------------ */

typedef struct grect { int x, y, w, h; double c; } grect;

/* May cell (x, y) join a rectangle of cost c (same cost, not yet taken)? */
static int takes(const astar_grid *g, const uint32_t *own, int x, int y, double c) {
  int W = astar_grid_width(g);
  return x >= 0 && x < W && y >= 0 && y < astar_grid_height(g) &&
         own[(size_t)y * W + x] == NONE && astar_grid_get(g, x, y) == c;
}

/* Greedy rectangles of equal cost: from each cell not yet taken, as wide as
** the row allows, then as tall as possible; with 'narrow', a rectangle also
** stops above a row whose run of such cells around it is more than twice
** (plus two) as wide: a door one cell wide then stays a cell, not a strip
** down the middle of the room behind it. Fills own (NONE first) and *r. */
static int greedy(const astar_grid *g, uint32_t *own, int narrow, astar_mem *a, grect **r,
                  size_t *nr, size_t *cr) {
  int W = astar_grid_width(g), H = astar_grid_height(g), x, y;
  memset(own, 0xff, (size_t)W * H * sizeof(uint32_t));
  *nr = 0;
  for (y = 0; y < H; y++)
    for (x = 0; x < W; x++) {
      double c = astar_grid_get(g, x, y);
      int w = 1, h = 1, j;
      if (c == 0 || own[(size_t)y * W + x] != NONE) continue;
      while (takes(g, own, x + w, y, c)) w++;
      for (; y + h < H; h++) {
        int lo = x, hi = x + w - 1;
        for (j = 0; j < w && takes(g, own, x + j, y + h, c); j++) {}
        if (j < w) break;
        if (!narrow) continue;
        while (takes(g, own, lo - 1, y + h, c) && hi - lo + 1 <= 2 * w + 2) lo--;
        while (takes(g, own, hi + 1, y + h, c) && hi - lo + 1 <= 2 * w + 2) hi++;
        if (hi - lo + 1 > 2 * w + 2) break;
      }
      if (*nr >= UINT32_MAX - 1) return ASTAR_EINVAL;
      if (astar__reserve(a, (void **)r, cr, *nr + 1, sizeof **r)) return ASTAR_ENOMEM;
      (*r)[*nr].x = x; (*r)[*nr].y = y; (*r)[*nr].w = w; (*r)[*nr].h = h; (*r)[*nr].c = c;
      for (j = 0; j < h; j++) {
        int t;
        for (t = 0; t < w; t++) own[(size_t)(y + j) * W + x + t] = (uint32_t)*nr;
      }
      ++*nr;
    }
  return 0;
}

int astar_navmesh_from_grid(astar_navmesh **out, const astar_grid *g, const astar_frame *frame,
                            uint32_t *cell_poly, astar_alloc alloc, void *ud) {
  static const astar_frame UNIT = {1, 1, 0, 0};
  const astar_frame *f = frame ? frame : &UNIT;
  astar_mem a;
  int W = astar_grid_width(g), H = astar_grid_height(g), x, y, rc = 0;
  size_t cells = (size_t)W * H, lat = (size_t)(W + 1) * (H + 1), nr = 0, cr = 0, i;
  size_t nidx = 0, cidx = 0;
  uint32_t *own = cell_poly, *vid = NULL, *start = NULL, *idx = NULL, nv = 0, k;
  double *xy = NULL;
  grect *r = NULL;
  *out = NULL;
  if (!(f->tw > 0 && f->tw < HUGE_VAL && f->th > 0 && f->th < HUGE_VAL &&
        fabs(f->ox) < HUGE_VAL && fabs(f->oy) < HUGE_VAL) || astar_grid_hex(g) ||
      astar_grid_wrap(g))
    return ASTAR_EINVAL;
  a.fn = alloc; a.ud = ud; a.allocs = 0;
  if (own == NULL && (own = (uint32_t *)astar__alloc(&a, cells * sizeof(uint32_t))) == NULL)
    return ASTAR_ENOMEM;
  vid = (uint32_t *)astar__alloc(&a, lat * sizeof(uint32_t));
  if (vid == NULL) { rc = ASTAR_ENOMEM; goto done; }
  /* the narrow rule helps maps of rooms and doors and costs polygons on open
  ** ones: both, and the one with fewer rectangles (the plain one on a tie) */
  if ((rc = greedy(g, own, 1, &a, &r, &nr, &cr)) != 0) goto done;
  {
    size_t n1 = nr;
    if ((rc = greedy(g, own, 0, &a, &r, &nr, &cr)) != 0) goto done;
    if (n1 < nr && (rc = greedy(g, own, 1, &a, &r, &nr, &cr)) != 0) goto done;
  }
  memset(vid, 0xff, lat * sizeof(uint32_t));
  for (i = 0; i < nr; i++) {
    int x0 = r[i].x, y0 = r[i].y, x1 = x0 + r[i].w, y1 = y0 + r[i].h;
    vid[(size_t)y0 * (W + 1) + x0] = vid[(size_t)y0 * (W + 1) + x1] = 0;
    vid[(size_t)y1 * (W + 1) + x0] = vid[(size_t)y1 * (W + 1) + x1] = 0;
  }
  if (nr == 0) { rc = ASTAR_EINVAL; goto done; }
  for (i = 0; i < lat; i++) if (vid[i] == 0) nv++;
  xy = (double *)astar__alloc(&a, 2 * (size_t)nv * sizeof(double));
  start = (uint32_t *)astar__alloc(&a, (nr + 1) * sizeof(uint32_t));
  if (xy == NULL || start == NULL) { rc = ASTAR_ENOMEM; goto done; }
  for (nv = 0, i = 0; i < lat; i++)
    if (vid[i] == 0) {
      vid[i] = nv;
      xy[2 * (size_t)nv] = f->ox + (double)(i % (size_t)(W + 1)) * f->tw;
      xy[2 * (size_t)nv + 1] = f->oy + (double)(i / (size_t)(W + 1)) * f->th;
      nv++;
    } else vid[i] = NONE;
  /* each rectangle: its corners and the corners of others on its sides */
  for (i = 0; i < nr; i++) {
    int x0 = r[i].x, y0 = r[i].y, x1 = x0 + r[i].w, y1 = y0 + r[i].h;
    size_t need = nidx + 2 * ((size_t)r[i].w + r[i].h);
    if (astar__reserve(&a, (void **)&idx, &cidx, need, sizeof(uint32_t))) {
      rc = ASTAR_ENOMEM; goto done;
    }
    start[i] = (uint32_t)nidx;
#define LATV(px, py) vid[(size_t)(py) * (W + 1) + (px)]
#define TAKE(px, py) do { if (LATV(px, py) != NONE) idx[nidx++] = LATV(px, py); } while (0)
    for (x = x0; x < x1; x++) TAKE(x, y0);
    for (y = y0; y < y1; y++) TAKE(x1, y);
    for (x = x1; x > x0; x--) TAKE(x, y1);
    for (y = y1; y > y0; y--) TAKE(x0, y);
#undef TAKE
#undef LATV
  }
  start[nr] = (uint32_t)nidx;
  rc = astar_navmesh_new(out, xy, nv, start, idx, (uint32_t)nr, NULL, alloc, ud);
  if (rc == 0) {
    for (k = 0; k < nr; k++) (*out)->cost[k] = r[k].c;
    (*out)->minstale = (*out)->maxstale = 1;
  }
done:
  if (own != cell_poly) astar__free(&a, own, cells * sizeof(uint32_t));
  else if (rc != 0) memset(own, 0xff, cells * sizeof(uint32_t));
  astar__free(&a, vid, lat * sizeof(uint32_t));
  astar__free(&a, xy, 2 * (size_t)nv * sizeof(double));
  astar__free(&a, start, (nr + 1) * sizeof(uint32_t));
  astar__free(&a, idx, cidx * sizeof(uint32_t));
  astar__free(&a, r, cr * sizeof *r);
  return rc;
}

