/*
** grid_hier.c - hierarchical search on grids: HPA* (A. Botea, M. Mueller and
** J. Schaeffer, "Near Optimal Hierarchical Path-Finding", 2004).
**
** The grid is cut into clusters of C x C cells. Where two side-by-side
** clusters share a run of cell pairs that are both walkable (an entrance),
** the cells at the run's ends (one cell in the middle of a run shorter than
** WIDE) become nodes of the abstract graph, on both sides. Any path that
** crosses the border steps across a run, and can reach its ends along the
** run's cells, so the abstract graph connects every pair of cells the grid
** does (policy ALWAYS also lets a path squeeze diagonally between two blocked
** cells: both ends of such a step are nodes too). A cluster's nodes
** are joined by its intra edges: the cost of the cheapest path between them
** that stays inside the cluster, worked out by a search of the cluster
** alone. Nodes in different clusters that are neighbours are joined by the
** step between them. A query links its start and goal to the nodes of their
** clusters by searches inside those clusters, made when the engine expands
** the start and the goal's cluster's nodes (and, when the two clusters touch,
** the start to the goal by one A* over both), searches the abstract graph on
** the engine, and fills each abstract edge in with the cluster search again
** (refinement).
**
** What the abstraction knows of a cluster depends only on the cells of the
** cluster and of the cells across its borders, so an edit of a rectangle
** changes only the clusters within one cell of it: astar_hier_update rebuilds
** those and nothing else, and the result equals a build from scratch
** (astar_hier_describe's digest says so in the specs).
**
** Cost: every abstract path is a legal path of the grid, but it passes
** through the nodes, so it may cost more than the shortest; the specs and
** the bench measure by how much. Engine nodes: cluster << kbits | the node's
** index among its cluster's, then the query's start and goal when they are
** not nodes themselves.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "grid_impl.h"

#define WIDE 6          /* a run this long or longer gets a node at both ends */
#define FINF HUGE_VALF

typedef struct hclus {
  int ox, oy;           /* its first cell */
  uint16_t k;           /* nodes */
  uint16_t *pos;        /* each node's index in the cluster (ly * C + lx), ascending */
  uint8_t *nb;          /* nb[i * 8 + d]: the node a step in direction d from node i enters
                           in another cluster (its index there), or NOB (clus_links) */
  float *d;             /* d[i * k + j]: cost from node i to node j inside the cluster */
} hclus;

#define NOB 0xff        /* no node (a cluster has at most 4 C - 4 < 255 nodes) */

/* The cells a search may enter: w x h from (ox, oy), a cell's index in it
** ly * W + lx (W = C for a cluster, 2C for a window of two). */
typedef struct hbox {
  int ox, oy, w, h, W;
} hbox;

typedef struct bent {   /* an entry of a bucket of the cluster search */
  int cell, next;
} bent;

typedef struct hent {   /* an entry of the cluster search's heap */
  double key;
  uint32_t at;
} hent;

/* A search's scratch (the one of the hierarchy, and one more for each
** further thread of a build): 4 C^2 each (a window of 2 x 2 clusters). */
typedef struct hscr {
  double *dist;
  uint16_t *par;
  uint8_t *done;
  uint16_t *hpos;
  int16_t *lidx;        /* C^2: during a search that counts nodes, each cell's node index or -1 */
  uint8_t *nmask;       /* C^2: while a cluster is built, each cell's moves (moves()) */
  uint16_t *cheap;      /* (C + 1)^2: while a cluster is built, cheap_sums() */
  int masked;           /* nmask holds the cluster being built */
  hent *heap;
  size_t nheap;
  int *bhead;           /* Dial's buckets (bucket_push): 2 C^2 heads, 8 C^2 + 1 entries */
  bent *bent;
  size_t nbent, bcur, bmax;
  double binv;          /* 1 / the bucket width; 0: the heap is the open list */
} hscr;

struct astar_hier {
  astar_mem *mem;       /* the grid's: its allocation count includes ours */
  astar_grid *g;        /* not owned */
  int C, diagonal;
  int threads;          /* a build's: see rebuild() */
  int kbits;            /* engine node ids: cluster << kbits | node index (room for 4C) */
  int ncx, ncy;         /* clusters across and down */
  hclus *cl;
  uint64_t version;     /* the grid version the clusters are current for */
  int stale;            /* an update ran out of memory: rebuild every cluster */
  size_t rebuilt;       /* clusters rebuilt by the last update */
  uint64_t gen;         /* counts the updates that rebuilt clusters */
  double hs;            /* the smallest cost of a walkable cell (refinement's A*) */
  hscr s;               /* the scratch of queries and of a build's first thread */
  uint8_t *lx, *ly;     /* the column and row in its cluster of each index (no division) */
  /* refinement's output: cells as (x, y) pairs */
  int *out;
  size_t cout;
};

static const int DX[8] = {0, -1, 1, 0, -1, 1, -1, 1};
static const int DY[8] = {-1, 0, 0, 1, -1, -1, 1, 1};

static size_t cell_at(const astar_grid *g, int x, int y) {
  return (size_t)(y + 1) * g->stride + (size_t)(x + 1);
}
static int walkable(const astar_grid *g, int x, int y) { return !astar__grid_blocked(g, x, y); }

/* Cluster c's first cell and size. */
static void cbox(const astar_hier *h, size_t c, int *ox, int *oy, int *cw, int *ch) {
  int C = h->C;
  *ox = (int)(c % (size_t)h->ncx) * C;
  *oy = (int)(c / (size_t)h->ncx) * C;
  *cw = h->g->w - *ox < C ? h->g->w - *ox : C;
  *ch = h->g->h - *oy < C ? h->g->h - *oy : C;
}

static size_t cluster_of(const astar_hier *h, int x, int y) {
  return (size_t)(y / h->C) * (size_t)h->ncx + (size_t)(x / h->C);
}

/* The index among cluster c's nodes of the cell at index l of the cluster,
** or -1 if it is not a node. */
static int node_index(const hclus *c, unsigned l) {
  int lo = 0, hi = (int)c->k - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    if (c->pos[mid] == l) return mid;
    if (c->pos[mid] < l) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/* ---------------------------------------------------------------------- */
/* The cluster search                                                     */
/* ---------------------------------------------------------------------- */

/* The cluster search's open list: a binary heap of cells, each at most once
** (hpos: its place + 1, 0 when out), so a cost that drops moves it up. */
static void heap_place(hscr *s, size_t i, hent e) {
  s->heap[i] = e;
  s->hpos[e.at] = (uint16_t)(i + 1);
}

static void heap_push(hscr *s, double key, uint32_t at) {
  size_t i = s->hpos[at] ? s->hpos[at] - 1u : s->nheap++;
  hent e;
  e.key = key;
  e.at = at;
  while (i > 0 && s->heap[(i - 1) / 2].key > key) {
    heap_place(s, i, s->heap[(i - 1) / 2]);
    i = (i - 1) / 2;
  }
  heap_place(s, i, e);
}

static uint32_t heap_pop(hscr *s) {
  hent top = s->heap[0], last = s->heap[--s->nheap];
  size_t i = 0, n = s->nheap;
  s->hpos[top.at] = 0;
  if (n == 0) return top.at;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && s->heap[c + 1].key < s->heap[c].key) c++;
    if (s->heap[c].key >= last.key) break;
    heap_place(s, i, s->heap[c]);
    i = c;
  }
  heap_place(s, i, last);
  return top.at;
}

/* The other open list, for Dijkstra on a grid of one cost w (Dial's): bucket
** b holds the cells whose cost is in [b w, (b + 1) w). Every step costs w or
** more, so the cells of the lowest bucket are final and leave it in any
** order; a cell re-entered at a lower cost leaves its old entry behind, met
** once settled and skipped. Costs inside a cluster stay below 2 C^2 w (a
** path passes each of its cells once, each step at most sqrt 2 w). */
static void bucket_push(hscr *s, double key, uint32_t at) {
  size_t b = (size_t)(key * s->binv), e = s->nbent++;
  s->bent[e].cell = (int)at;
  s->bent[e].next = s->bhead[b];
  s->bhead[b] = (int)e;
  if (b > s->bmax) s->bmax = b;
}

/* The next cell to settle from either list, or -1 when both are empty. */
static int open_pop(hscr *s) {
  if (s->binv == 0) return s->nheap > 0 ? (int)heap_pop(s) : -1;
  for (; s->bcur <= s->bmax; s->bcur++) {
    int e = s->bhead[s->bcur];
    if (e >= 0) {
      s->bhead[s->bcur] = s->bent[e].next;
      return s->bent[e].cell;
    }
  }
  return -1;
}

/* The moves out of cell (lx, ly) of box b (p: the cell in the grid's array)
** that stay in the box, enter a walkable cell and pass the diagonal policy:
** bit d for direction d. A diagonal's corner cells are the same both ways,
** so the set serves a backward search as well. */
static unsigned moves(const astar_hier *h, const hbox *b, int lx, int ly, const double *p) {
  const long S = (long)h->g->stride;
  unsigned m = 0;
  int d, nd = h->diagonal == ASTAR_DIAG_NEVER ? 4 : 8;
  for (d = 0; d < nd; d++) {
    int nx = lx + DX[d], ny = ly + DY[d];
    if (nx < 0 || ny < 0 || nx >= b->w || ny >= b->h || !(p[DY[d] * S + DX[d]] > 0)) continue;
    if (d >= 4 && !astar__diag_ok(h->diagonal, p[DX[d]] > 0, p[DY[d] * S] > 0)) continue;
    m |= 1u << d;
  }
  return m;
}

/*
** A search of box b with scratch s from its cell of index 'src' (forward:
** the cost of reaching each cell; back: the cost from each cell to src),
** into s->dist (HUGE_VAL where unreached) and s->par (the next cell toward
** src). With a 'target' index it is A* toward it (the octile distance times
** h->hs, which is at most the cost of any step) and stops once it is
** settled; with -1 it is Dijkstra, stopping once 'want' of the cells whose
** s->lidx is 'from' or more are settled (0: the whole box). Each cell enters
** the heap at most once before it is settled, and is settled once: the loop
** ends. On a grid of one cost a step's price is the same everywhere, and the
** cell itself (lx, ly, p) is needed only for its moves or a heuristic.
*/
static void bsearch_(const astar_hier *h, hscr *s, const hbox *b, int src, int back, int target,
                     int want, int from) {
  const double *cell = h->g->cell;
  const long S = (long)h->g->stride;
  int W = b->W, nd = h->diagonal == ASTAR_DIAG_NEVER ? 4 : 8, i, tx = 0, ty = 0;
  int one = astar__grid_one_cost(h->g), place = !s->masked || !one || target >= 0;
  const double *base = cell + cell_at(h->g, b->ox, b->oy);
  long off[8], loff[8];
  double step[8];
  for (i = 0; i < 8; i++) {
    off[i] = DY[i] * S + DX[i];
    loff[i] = DY[i] * W + DX[i];
    step[i] = (one ? base[(src / W) * S + src % W] : 1.0) * (i >= 4 ? SQRT2 : 1.0);
  }
  for (i = 0; i < W * b->h; i++) {
    s->dist[i] = HUGE_VAL;
    s->done[i] = 0;
    s->hpos[i] = 0;
  }
  for (i = 0; (size_t)i <= s->bmax; i++) s->bhead[i] = -1;
  s->bmax = s->bcur = s->nbent = s->nheap = 0;
  s->binv = target < 0 && one ? 1 / step[0] : 0;
  if (target >= 0) {
    tx = target % W;
    ty = target / W;
  }
  s->dist[src] = 0;
  s->par[src] = (uint16_t)src;
  if (s->binv > 0) bucket_push(s, 0, (uint32_t)src);
  else heap_push(s, 0, (uint32_t)src);
  for (;;) {
    int l = open_pop(s), lx = 0, ly = 0;
    unsigned m;
    const double *p = base;
    if (l < 0) break;
    if (s->done[l]) continue;              /* an old entry of a bucket */
    s->done[l] = 1;
    if (l == target) return;
    if (want > 0 && s->lidx[l] >= from && --want == 0) return;
    if (place) {
      ly = l / W;
      lx = l - ly * W;
      p = base + (long)ly * S + lx;
    }
    for (m = s->masked ? s->nmask[l] : moves(h, b, lx, ly, p); m != 0; m &= m - 1) {
      int d = astar__lowbit(m), n = l + (int)loff[d];
      double nv;
      if (s->done[n]) continue;
      /* back, the step enters l (cost *p); forward, n */
      nv = s->dist[l] + (one ? step[d] : (back ? *p : p[off[d]]) * step[d]);
      if (nv < s->dist[n]) {
        double key = nv;
        s->dist[n] = nv;
        s->par[n] = (uint16_t)l;
        if (target >= 0) {
          double dx = fabs((double)(lx + DX[d] - tx)), dy = fabs((double)(ly + DY[d] - ty));
          key += (nd == 4 ? dx + dy : dx > dy ? dx + (SQRT2 - 1) * dy
                                              : dy + (SQRT2 - 1) * dx) * h->hs;
        }
        if (s->binv > 0) bucket_push(s, key, (uint32_t)n);
        else heap_push(s, key, (uint32_t)n);
      }
    }
  }
}

static void csearch(astar_hier *h, hscr *s, size_t c, int src, int back, int target, int want,
                    int from) {
  const hclus *cc = &h->cl[c];
  hbox b;
  int i;
  cbox(h, c, &b.ox, &b.oy, &b.w, &b.h);
  b.W = h->C;
  for (i = 0; i < cc->k; i++) s->lidx[cc->pos[i]] = (int16_t)i;
  bsearch_(h, s, &b, src, back, target, want, from);
  for (i = 0; i < cc->k; i++) s->lidx[cc->pos[i]] = -1;
}

/* A* from cell (ax, ay) to (bx, by) inside the smallest box of whole
** clusters holding both (their clusters touch: 1 x 1 to 2 x 2 clusters);
** the cost in h->s.dist at the returned index of b, the way back in h->s.par. */
static int wsearch(astar_hier *h, int ax, int ay, int bx, int by, hbox *b) {
  int C = h->C, x0 = (ax < bx ? ax : bx) / C * C, y0 = (ay < by ? ay : by) / C * C;
  int x1 = ((ax > bx ? ax : bx) / C + 1) * C, y1 = ((ay > by ? ay : by) / C + 1) * C;
  b->ox = x0;
  b->oy = y0;
  b->w = (x1 < h->g->w ? x1 : h->g->w) - x0;
  b->h = (y1 < h->g->h ? y1 : h->g->h) - y0;
  b->W = 2 * C;
  bsearch_(h, &h->s, b, (ay - y0) * b->W + ax - x0, 0, (by - y0) * b->W + bx - x0, 0, 0);
  return (by - y0) * b->W + bx - x0;
}

/* ---------------------------------------------------------------------- */
/* Building                                                               */
/* ---------------------------------------------------------------------- */

/* Marks (in 'mark', by index in cluster c at (ox, oy)) the nodes the border
** along cells (x0 + i*ex, y0 + i*ey), i < len, gives c, the cells across it
** being (.. + nx, .. + ny): the ends of each run of walkable pairs, its
** middle if the run is shorter than WIDE. */
static void border(const astar_hier *h, uint8_t *mark, int ox, int oy, int x0, int y0, int ex,
                   int ey, int len, int nx, int ny) {
  int i = 0, C = h->C;
  while (i < len) {
    int a;
    while (i < len && !(walkable(h->g, x0 + i * ex, y0 + i * ey) &&
                        walkable(h->g, x0 + i * ex + nx, y0 + i * ey + ny)))
      i++;
    if (i >= len) break;
    a = i;
    while (i < len && walkable(h->g, x0 + i * ex, y0 + i * ey) &&
           walkable(h->g, x0 + i * ex + nx, y0 + i * ey + ny))
      i++;
    if (i - a < WIDE) {
      int m = a + (i - 1 - a) / 2;
      mark[(y0 + m * ey - oy) * C + (x0 + m * ex - ox)] = 1;
    } else {
      mark[(y0 + a * ey - oy) * C + (x0 + a * ex - ox)] = 1;
      mark[(y0 + (i - 1) * ey - oy) * C + (x0 + (i - 1) * ex - ox)] = 1;
    }
  }
  if (h->diagonal != ASTAR_DIAG_ALWAYS) return;
  /* Only ALWAYS lets a diagonal step squeeze between two blocked cells, from
  ** a cell whose cell across is blocked to the cell across its blocked
  ** neighbour along the border (or past the border's end, into a cluster
  ** corner to corner): such a cell is a node too, and so is the one it steps
  ** to (the scan from that side finds it). */
  for (i = 0; i < len; i++) {
    int x = x0 + i * ex, y = y0 + i * ey, s;
    if (!walkable(h->g, x, y) || walkable(h->g, x + nx, y + ny)) continue;
    for (s = -1; s <= 1; s += 2)
      if (!walkable(h->g, x + s * ex, y + s * ey) && walkable(h->g, x + s * ex + nx, y + s * ey + ny))
        mark[(y - oy) * C + (x - ox)] = 1;
  }
}

/* Is every cell of the cw x ch cluster at (ox, oy) walkable, of one cost?
** Then the cheapest way between two of its cells is the octile line (a
** diagonal run and a straight one, inside their bounding box) and costs
** the octile distance times that cost. */
static int open_cluster(const astar_hier *h, int ox, int oy, int cw, int ch) {
  const double *row = h->g->cell + cell_at(h->g, ox, oy), c = row[0];
  int x, y;
  if (!(c > 0)) return 0;
  for (y = 0; y < ch; y++, row += h->g->stride)
    for (x = 0; x < cw; x++)
      if (row[x] != c) return 0;
  return 1;
}

/* The octile distance (Manhattan under NEVER) between the cells of index a
** and b of a cluster, times 'cost'. */
static float octile(const astar_hier *h, int a, int b, double cost) {
  int C = h->C;
  double dx = abs(a % C - b % C), dy = abs(a / C - b / C);
  return (float)(cost * (h->diagonal == ASTAR_DIAG_NEVER ? dx + dy
                         : dx > dy ? dx + (SQRT2 - 1) * dy : dy + (SQRT2 - 1) * dx));
}

/* Into s->cheap, for the cw x ch cluster at (ox, oy): at y * (C + 1) + x,
** how many of the cells in its first y rows and x columns are walkable at
** the grid's least cost (h->hs). Two cells whose bounding box holds only
** such cells are joined by their octile line, which no path undercuts:
** their cost needs no search. */
static void cheap_sums(const astar_hier *h, hscr *s, int ox, int oy, int cw, int ch) {
  int C1 = h->C + 1, x, y;
  for (x = 0; x <= cw; x++) s->cheap[x] = 0;
  for (y = 0; y < ch; y++) {
    const double *row = h->g->cell + cell_at(h->g, ox, oy + y);
    int run = 0;
    s->cheap[(y + 1) * C1] = 0;
    for (x = 0; x < cw; x++) {
      run += row[x] == h->hs;
      s->cheap[(y + 1) * C1 + x + 1] = (uint16_t)(s->cheap[y * C1 + x + 1] + run);
    }
  }
}

/* Is the bounding box of the cluster's cells of index a and b all cheap? */
static int cheap_box(const astar_hier *h, const hscr *s, int a, int b) {
  int C = h->C, C1 = C + 1;
  int x0 = a % C < b % C ? a % C : b % C, x1 = a % C + b % C - x0 + 1;
  int y0 = a / C < b / C ? a / C : b / C, y1 = a / C + b / C - y0 + 1;
  return s->cheap[y1 * C1 + x1] - s->cheap[y0 * C1 + x1] - s->cheap[y1 * C1 + x0] +
         s->cheap[y0 * C1 + x0] == (x1 - x0) * (y1 - y0);
}

/* The bytes of the block of a cluster of k nodes: pos, nb, then d (at
** *doff, aligned for floats). */
static size_t clus_bytes(size_t k, size_t *doff) {
  size_t off = (k * (sizeof(uint16_t) + 8) + sizeof(float) - 1) / sizeof(float) * sizeof(float);
  if (doff != NULL) *doff = off;
  return off + k * k * sizeof(float);
}

static void clus_free(astar_hier *h, hclus *c) {
  if (c->k > 0) astar__free(h->mem, c->pos, clus_bytes(c->k, NULL));
  c->k = 0;
  c->pos = NULL;
  c->nb = NULL;
  c->d = NULL;
}

/* Marks (by negating its cost) each intra edge i -> j that another node m
** lies on: d(i, m) + d(m, j) = d(i, j) (to a float's rounding). Searches
** skip them. Every cost between two nodes is still the sum of kept edges:
** split a marked edge at its m, and again, each part costing less, until
** the parts are kept edges. Fewer edges to relax, the same abstract costs. */
static void prune(hclus *cc) {
  int k = cc->k, i, j, m;
  float *d = cc->d;
  for (i = 0; i < k; i++)
    for (j = 0; j < k; j++) {
      float dij = d[i * k + j];
      if (i == j || !(dij < FINF)) continue;
      for (m = 0; m < k; m++)
        if (m != i && m != j && fabsf(d[i * k + m]) + fabsf(d[m * k + j]) <= dij * (1 + 1e-6f)) {
          d[i * k + j] = -dij;
          break;
        }
    }
}

/* Works out cluster c's nodes and makes room for its costs; 0 or
** ASTAR_ENOMEM (then the cluster has no nodes, and the hierarchy is marked
** stale). The build's first part, on the calling thread: it allocates. */
static int clus_nodes(astar_hier *h, size_t c) {
  int ox, oy, cw, ch, C = h->C, i, k = 0;
  uint8_t *mark = h->s.done;            /* free between searches */
  hclus *cc = &h->cl[c];
  uint16_t tmp[4 * 64];
  cbox(h, c, &ox, &oy, &cw, &ch);
  clus_free(h, cc);
  memset(mark, 0, (size_t)C * (size_t)C);
  if (oy > 0) border(h, mark, ox, oy, ox, oy, 1, 0, cw, 0, -1);
  if (oy + ch < h->g->h) border(h, mark, ox, oy, ox, oy + ch - 1, 1, 0, cw, 0, 1);
  if (ox > 0) border(h, mark, ox, oy, ox, oy, 0, 1, ch, -1, 0);
  if (ox + cw < h->g->w) border(h, mark, ox, oy, ox + cw - 1, oy, 0, 1, ch, 1, 0);
  for (i = 0; i < C * C; i++)
    if (mark[i]) tmp[k++] = (uint16_t)i;
  if (k == 0) return 0;
  {
    size_t off, bytes = clus_bytes((size_t)k, &off);
    unsigned char *blk = (unsigned char *)astar__alloc(h->mem, bytes);
    if (blk == NULL) return ASTAR_ENOMEM;
    cc->pos = (uint16_t *)(void *)blk;
    cc->nb = blk + (size_t)k * sizeof *cc->pos;
    cc->d = (float *)(void *)(blk + off);
    cc->k = (uint16_t)k;
    memcpy(cc->pos, tmp, (size_t)k * sizeof *tmp);
  }
  return 0;
}

/* Into s->nmask, what moves() gives each cell of box b (a cluster), from
** rows of walkability bits (a cluster is at most 64 cells wide): bit x of
** r[y + 1] for cell (x, y), rows -1 and ch empty. */
static void clus_moves(const astar_hier *h, hscr *s, const hbox *b) {
  uint64_t r[ASTAR_HIER_CMAX + 2];
  int x, y, pol = h->diagonal;
  r[0] = r[b->h + 1] = 0;
  for (y = 0; y < b->h; y++) {
    const double *row = h->g->cell + cell_at(h->g, b->ox, b->oy + y);
    uint64_t m = 0;
    for (x = 0; x < b->w; x++) m |= (uint64_t)(row[x] > 0) << x;
    r[y + 1] = m;
  }
  for (y = 0; y < b->h; y++) {
    uint64_t up = r[y], cur = r[y + 1], dn = r[y + 2];
    for (x = 0; x < b->w; x++) {
      unsigned n = (unsigned)(up >> x & 1), w = x > 0 ? (unsigned)(cur >> (x - 1) & 1) : 0;
      int last = x + 1 == b->w;                 /* no shift by 64 */
      unsigned e = last ? 0 : (unsigned)(cur >> (x + 1) & 1), so = (unsigned)(dn >> x & 1), m;
      m = n | w << 1 | e << 2 | so << 3;
      if (pol != ASTAR_DIAG_NEVER) {
        unsigned nw = x > 0 ? (unsigned)(up >> (x - 1) & 1) : 0;
        unsigned ne = last ? 0 : (unsigned)(up >> (x + 1) & 1);
        unsigned sw = x > 0 ? (unsigned)(dn >> (x - 1) & 1) : 0;
        unsigned se = last ? 0 : (unsigned)(dn >> (x + 1) & 1);
        nw &= (unsigned)astar__diag_ok(pol, (int)w, (int)n);
        ne &= (unsigned)astar__diag_ok(pol, (int)e, (int)n);
        sw &= (unsigned)astar__diag_ok(pol, (int)w, (int)so);
        se &= (unsigned)astar__diag_ok(pol, (int)e, (int)so);
        m |= nw << 4 | ne << 5 | sw << 6 | se << 7;
      }
      s->nmask[y * h->C + x] = (uint8_t)m;
    }
  }
}

/* Works out the costs between cluster c's nodes with scratch s. The build's
** second part: it reads the grid and writes only the cluster's costs and s,
** so several threads can each do their own clusters. One search from each
** node (on a grid of one cost, where i -> j costs what j -> i does, to the
** nodes after it only), which stops once it has settled the nodes whose
** cost the octile line does not give (cheap_box). */
static void clus_costs(const astar_hier *h, hscr *s, size_t c) {
  int ox, oy, cw, ch, C = h->C, i, j, sym, want;
  hclus *cc = &h->cl[c];
  int k = cc->k;
  hbox b;
  if (k == 0) return;
  cbox(h, c, &ox, &oy, &cw, &ch);
  if (open_cluster(h, ox, oy, cw, ch)) {
    for (i = 0; i < k; i++)
      for (j = 0; j < k; j++) cc->d[i * k + j] = octile(h, cc->pos[i], cc->pos[j], h->hs);
    prune(cc);
    return;
  }
  sym = astar__grid_one_cost(h->g);
  cheap_sums(h, s, ox, oy, cw, ch);
  b.ox = ox; b.oy = oy; b.w = cw; b.h = ch; b.W = C;
  clus_moves(h, s, &b);
  s->masked = 1;
  for (i = 0; i < k; i++) {
    for (j = sym ? i + 1 : 0, want = 0; j < k; j++) {
      int easy = j == i || cheap_box(h, s, cc->pos[i], cc->pos[j]);
      if (easy) cc->d[i * k + j] = octile(h, cc->pos[i], cc->pos[j], h->hs);
      else s->lidx[cc->pos[j]] = 0;             /* bsearch_ counts these */
      want += !easy;
    }
    if (want > 0) bsearch_(h, s, &b, cc->pos[i], 0, -1, want, 0);
    for (j = sym ? i + 1 : 0; j < k; j++) {
      if (s->lidx[cc->pos[j]] == 0)
        cc->d[i * k + j] = s->dist[cc->pos[j]] < HUGE_VAL ? (float)s->dist[cc->pos[j]] : FINF;
      s->lidx[cc->pos[j]] = -1;
      if (sym) cc->d[j * k + i] = cc->d[i * k + j];
    }
  }
  s->masked = 0;
  for (i = 0; i < k; i++) cc->d[i * k + i] = 0;
  prune(cc);
}

/* Fills cluster c's nb: for each node and direction, the node of another
** cluster a legal step enters. It reads the nodes of the clusters around c,
** so it runs again when one of them is rebuilt (their indices shift). */
static void clus_links(const astar_hier *h, size_t c) {
  hclus *cc = &h->cl[c];
  int i, d, link, nd = h->diagonal == ASTAR_DIAG_NEVER ? 4 : 8;
  for (i = 0; i < cc->k; i++) {
    int x = cc->ox + h->lx[cc->pos[i]], y = cc->oy + h->ly[cc->pos[i]];
    for (d = 0; d < 8; d++) {
      int nx = x + DX[d], ny = y + DY[d], j = -1;
      size_t nc;
      cc->nb[i * 8 + d] = NOB;
      if (d >= nd || nx < 0 || ny < 0 || nx >= h->g->w || ny >= h->g->h ||
          (nc = cluster_of(h, nx, ny)) == c)
        continue;
      j = node_index(&h->cl[nc], (unsigned)((ny % h->C) * h->C + nx % h->C));
      if (j >= 0 && astar_grid_move_cost(h->g, h->diagonal, x, y, nx, ny, &link) >= 0)
        cc->nb[i * 8 + d] = (uint8_t)j;
    }
  }
}

static void scr_free(astar_mem *m, hscr *s, int C) {
  size_t C2 = (size_t)C * (size_t)C;
  astar__free(m, s->dist, 4 * C2 * sizeof *s->dist);
  astar__free(m, s->par, 4 * C2 * sizeof *s->par);
  astar__free(m, s->done, 4 * C2);
  astar__free(m, s->hpos, 4 * C2 * sizeof *s->hpos);
  astar__free(m, s->lidx, C2 * sizeof *s->lidx);
  astar__free(m, s->nmask, C2);
  astar__free(m, s->cheap, (size_t)(C + 1) * (size_t)(C + 1) * sizeof *s->cheap);
  astar__free(m, s->heap, 4 * C2 * sizeof *s->heap);
  astar__free(m, s->bhead, 2 * C2 * sizeof *s->bhead);
  astar__free(m, s->bent, (8 * C2 + 1) * sizeof *s->bent);
  memset(s, 0, sizeof *s);
}

/* The bytes of one scratch. */
static size_t scr_bytes(int C) {
  const hscr *s = NULL;
  size_t C2 = (size_t)C * (size_t)C;
  return C2 * (4 * (sizeof *s->dist + sizeof *s->par + 1 + sizeof *s->hpos + sizeof *s->heap) +
               sizeof *s->lidx + 1 + 2 * sizeof *s->bhead + 8 * sizeof *s->bent) +
         sizeof *s->bent + (size_t)(C + 1) * (size_t)(C + 1) * sizeof *s->cheap;
}

static int scr_new(astar_mem *m, hscr *s, int C) {
  size_t C2 = (size_t)C * (size_t)C;
  memset(s, 0, sizeof *s);
  s->dist = (double *)astar__alloc(m, 4 * C2 * sizeof *s->dist);
  s->par = (uint16_t *)astar__alloc(m, 4 * C2 * sizeof *s->par);
  s->done = (uint8_t *)astar__alloc(m, 4 * C2);
  s->hpos = (uint16_t *)astar__alloc(m, 4 * C2 * sizeof *s->hpos);
  s->lidx = (int16_t *)astar__alloc(m, C2 * sizeof *s->lidx);
  s->nmask = (uint8_t *)astar__alloc(m, C2);
  s->cheap = (uint16_t *)astar__alloc(m, (size_t)(C + 1) * (size_t)(C + 1) * sizeof *s->cheap);
  s->heap = (hent *)astar__alloc(m, 4 * C2 * sizeof *s->heap);
  s->bhead = (int *)astar__alloc(m, 2 * C2 * sizeof *s->bhead);
  s->bent = (bent *)astar__alloc(m, (8 * C2 + 1) * sizeof *s->bent);
  if (s->dist == NULL || s->par == NULL || s->done == NULL || s->hpos == NULL ||
      s->lidx == NULL || s->nmask == NULL || s->cheap == NULL || s->heap == NULL ||
      s->bhead == NULL || s->bent == NULL) {
    scr_free(m, s, C);
    return ASTAR_ENOMEM;
  }
  memset(s->lidx, 0xff, C2 * sizeof *s->lidx);
  memset(s->bhead, 0xff, 2 * C2 * sizeof *s->bhead);
  return 0;
}

/* The clusters of a build: those marked in dirty (NULL: all), their costs
** shared among n threads, each with its scratch, in runs of CHUNK clusters
** (neighbours are alike, so the shares are even; a thread writes the
** blocks of its run while reading the nodes of the clusters around, which
** rarely lie in the run another thread is writing). */
#define CHUNK 64
typedef struct hwork {
  const astar_hier *h;
  const uint8_t *dirty;
  hscr *s;
  int n;
} hwork;

static void costs_share(void *arg, int t) {
  const hwork *w = (const hwork *)arg;
  size_t c, ncl = (size_t)w->h->ncx * (size_t)w->h->ncy;
  hscr s = w->s[t];          /* on this thread's stack: the threads' counters share no line */
  for (c = (size_t)t * CHUNK; c < ncl; c += (size_t)w->n * CHUNK) {
    size_t e = c + CHUNK < ncl ? c + CHUNK : ncl, i;
    for (i = c; i < e; i++)
      if (w->dirty == NULL || w->dirty[i]) {
        clus_costs(w->h, &s, i);
        clus_links(w->h, i);
      }
  }
  w->s[t] = s;
}

/* Below this many clusters a build stays on the calling thread (starting a
** thread costs about as much as building a few clusters). */
#define PAR_MIN 256

/* Rebuilds the 'count' clusters marked in dirty (NULL: all): their nodes on
** this thread, then their costs and links on up to h->threads threads
** (fewer if their scratch cannot be had), then the links of the clusters
** around them (whose neighbours' node indices may have shifted). 0 or
** ASTAR_ENOMEM (the hierarchy stale). */
static int rebuild(astar_hier *h, const uint8_t *dirty, size_t count) {
  size_t ncl = (size_t)h->ncx * (size_t)h->ncy, c;
  hscr s[ASTAR_WORKERS_MAX];
  hwork w;
  int n = count >= PAR_MIN ? h->threads : 1, i;
  h->hs = astar_grid_min_cost(h->g);     /* current, for the threads to read */
  for (c = 0; c < ncl; c++)
    if ((dirty == NULL || dirty[c]) && clus_nodes(h, c) != 0) {
      h->stale = 1;
      h->gen++;
      return ASTAR_ENOMEM;
    }
  s[0] = h->s;
  for (i = 1; i < n; i++)
    if (scr_new(h->mem, &s[i], h->C) != 0) break;
  w.h = h;
  w.dirty = dirty;
  w.s = s;
  w.n = i;
  if (i > 1) astar__parallel(i, costs_share, &w);
  else costs_share(&w, 0);
  h->s = s[0];
  while (--i > 0) scr_free(h->mem, &s[i], h->C);
  for (c = 0; dirty != NULL && c < ncl; c++) {   /* the clusters around rebuilt ones */
    long cx = (long)(c % (size_t)h->ncx), cy = (long)(c / (size_t)h->ncx), dx, dy;
    if (!dirty[c]) continue;
    for (dy = -1; dy <= 1; dy++)
      for (dx = -1; dx <= 1; dx++)
        if (cx + dx >= 0 && cy + dy >= 0 && cx + dx < h->ncx && cy + dy < h->ncy &&
            !dirty[(size_t)((cy + dy) * h->ncx + cx + dx)])
          clus_links(h, (size_t)((cy + dy) * h->ncx + cx + dx));
  }
  h->rebuilt = count;
  h->gen += count > 0;
  return 0;
}

int astar_hier_new(astar_hier **out, astar_grid *g, int cluster, int diagonal, int threads) {
  astar_hier *h;
  size_t ncl, C2;
  *out = NULL;
  if (cluster < ASTAR_HIER_CMIN || cluster > ASTAR_HIER_CMAX || diagonal < 0 || diagonal > 3 ||
      threads < 1 || threads > ASTAR_WORKERS_MAX || g->hex || g->wrap)
    return ASTAR_EINVAL;
  h = (astar_hier *)astar__alloc(&g->mem, sizeof *h);
  if (h == NULL) return ASTAR_ENOMEM;
  memset(h, 0, sizeof *h);
  h->mem = &g->mem;
  h->g = g;
  h->C = cluster;
  h->diagonal = diagonal;
  h->threads = threads;
  while ((1 << h->kbits) < 4 * cluster) h->kbits++;
  h->ncx = (g->w + cluster - 1) / cluster;
  h->ncy = (g->h + cluster - 1) / cluster;
  ncl = (size_t)h->ncx * (size_t)h->ncy;
  C2 = (size_t)cluster * (size_t)cluster;
  h->cl = (hclus *)astar__alloc(h->mem, ncl * sizeof *h->cl);
  if (h->cl != NULL) memset(h->cl, 0, ncl * sizeof *h->cl);
  h->lx = (uint8_t *)astar__alloc(h->mem, 2 * C2);
  if (h->cl == NULL || h->lx == NULL || scr_new(h->mem, &h->s, cluster) != 0) {
    astar_hier_free(h);
    return ASTAR_ENOMEM;
  }
  h->ly = h->lx + C2;
  {
    size_t l, c;
    for (l = 0; l < C2; l++) {
      h->lx[l] = (uint8_t)(l % (size_t)cluster);
      h->ly[l] = (uint8_t)(l / (size_t)cluster);
    }
    for (c = 0; c < ncl; c++) {
      h->cl[c].ox = (int)(c % (size_t)h->ncx) * cluster;
      h->cl[c].oy = (int)(c / (size_t)h->ncx) * cluster;
    }
  }
  h->version = astar_grid_version(g);
  if (rebuild(h, NULL, ncl) != 0) {
    astar_hier_free(h);
    return ASTAR_ENOMEM;
  }
  h->gen = 0;
  *out = h;
  return 0;
}

void astar_hier_free(astar_hier *h) {
  size_t c, ncl;
  astar_mem *m;
  if (h == NULL) return;
  m = h->mem;
  ncl = (size_t)h->ncx * (size_t)h->ncy;
  if (h->cl != NULL)
    for (c = 0; c < ncl; c++) clus_free(h, &h->cl[c]);
  astar__free(m, h->cl, ncl * sizeof *h->cl);
  astar__free(m, h->lx, 2 * (size_t)h->C * (size_t)h->C);
  scr_free(m, &h->s, h->C);
  astar__free(m, h->out, h->cout * 2 * sizeof *h->out);
  astar__free(m, h, sizeof *h);
}

const astar_grid *astar_hier_grid(const astar_hier *h) { return h->g; }
int astar_hier_cluster(const astar_hier *h) { return h->C; }
int astar_hier_diagonal(const astar_hier *h) { return h->diagonal; }
void astar_hier_threads(astar_hier *h, int threads) {
  h->threads = threads < 1 ? 1 : threads > ASTAR_WORKERS_MAX ? ASTAR_WORKERS_MAX : threads;
}

/* Marks in 'dirty' the clusters within one cell of rectangle r. */
static void mark_rect(const astar_hier *h, uint8_t *dirty, const astar_rect *r) {
  int x0 = r->x - 1 < 0 ? 0 : r->x - 1, y0 = r->y - 1 < 0 ? 0 : r->y - 1;
  int x1 = r->x + r->w >= h->g->w ? h->g->w - 1 : r->x + r->w;
  int y1 = r->y + r->h >= h->g->h ? h->g->h - 1 : r->y + r->h;
  int cx, cy;
  for (cy = y0 / h->C; cy <= y1 / h->C; cy++)
    for (cx = x0 / h->C; cx <= x1 / h->C; cx++) dirty[(size_t)cy * (size_t)h->ncx + (size_t)cx] = 1;
}

int astar_hier_update(astar_hier *h) {
  astar_rect r[ASTAR_GRID_LOG];
  size_t ncl = (size_t)h->ncx * (size_t)h->ncy, c, count = 0;
  uint64_t v = astar_grid_version(h->g);
  long n, i;
  uint8_t *dirty;
  int rc;
  h->rebuilt = 0;
  if (v == h->version && !h->stale) return 0;
  dirty = (uint8_t *)astar__alloc(h->mem, ncl);
  if (dirty == NULL) return ASTAR_ENOMEM;
  n = h->stale ? -1 : astar_grid_changes(h->g, h->version, r);
  memset(dirty, n < 0, ncl);
  for (i = 0; i < n; i++) mark_rect(h, dirty, &r[i]);
  for (c = 0; c < ncl; c++) count += dirty[c];
  rc = rebuild(h, dirty, count);
  astar__free(h->mem, dirty, ncl);
  if (rc != 0) return rc;
  h->version = v;
  h->stale = 0;
  return 0;
}

void astar_hier_describe(const astar_hier *h, astar_hier_info *out) {
  size_t ncl = (size_t)h->ncx * (size_t)h->ncy, c, i;
  uint64_t dg = 14695981039346656037ULL;
  memset(out, 0, sizeof *out);
  out->cluster = h->C;
  out->diagonal = h->diagonal;
  out->clusters = ncl;
  out->rebuilt = h->rebuilt;
  out->bytes = sizeof *h + ncl * sizeof *h->cl + 2 * (size_t)h->C * (size_t)h->C +
               scr_bytes(h->C);
  for (c = 0; c < ncl; c++) {
    const hclus *cc = &h->cl[c];
    size_t k = cc->k;
    out->nodes += k;
    out->bytes += k ? clus_bytes(k, NULL) : 0;
    dg = (dg ^ (uint64_t)(c * 65536 + k)) * 1099511628211ULL;
    for (i = 0; i < k; i++) dg = (dg ^ cc->pos[i]) * 1099511628211ULL;
    for (i = 0; i < 8 * k; i++) dg = (dg ^ cc->nb[i]) * 1099511628211ULL;
    for (i = 0; i < k * k; i++) {
      uint32_t b;
      memcpy(&b, &cc->d[i], sizeof b);
      out->edges += i / k != i % k && cc->d[i] > 0 && cc->d[i] < FINF;
      dg = (dg ^ b) * 1099511628211ULL;
    }
  }
  out->digest = dg;
}

/* ---------------------------------------------------------------------- */
/* Queries                                                                */
/* ---------------------------------------------------------------------- */

/* Engine node i of cluster c: c << kbits | i (kbits: room for 4C nodes). */
static uint32_t node_id(const astar_hier *h, size_t c, int i) {
  return (uint32_t)(c << h->kbits | (size_t)i);
}

/* The cell of engine node 'node' (one whose cluster an edit has since
** rebuilt reads as the cluster's first cell; see the generation check). */
void astar_hier_node_cell(const astar_hier_query *q, uint32_t node, int *x, int *y) {
  const astar_hier *h = q->h;
  size_t c = node >> h->kbits;
  unsigned i = node & ((1u << h->kbits) - 1), l;
  if (node == q->snode) { *x = q->sx; *y = q->sy; return; }
  if (node == q->tnode) { *x = q->gx; *y = q->gy; return; }
  l = i < h->cl[c].k ? h->cl[c].pos[i] : 0;
  *x = h->cl[c].ox + h->lx[l];
  *y = h->cl[c].oy + h->ly[l];
}

/* The engine node of cell (x, y) if it is a node of its cluster, else ASTAR_NONE. */
static uint32_t cell_node(const astar_hier *h, int x, int y) {
  size_t c = cluster_of(h, x, y);
  int i = node_index(&h->cl[c], (unsigned)((y % h->C) * h->C + x % h->C));
  return i < 0 ? ASTAR_NONE : node_id(h, c, i);
}

static double hq_heuristic(void *self, uint32_t node) {
  const astar_hier_query *q = (const astar_hier_query *)self;
  int x, y;
  double dx, dy;
  astar_hier_node_cell(q, node, &x, &y);
  dx = fabs((double)(x - q->gx));
  dy = fabs((double)(y - q->gy));
  if (q->h->diagonal == ASTAR_DIAG_NEVER) return (dx + dy) * q->hscale;
  return (dx > dy ? dx + (SQRT2 - 1) * dy : dy + (SQRT2 - 1) * dx) * q->hscale;
}

/* The index in its cluster of cell (x, y). */
static int local_of(const astar_hier *h, int x, int y) { return (y % h->C) * h->C + x % h->C; }

/* Expands the start or a node. The start's edges (when it is no node) and
** a goal cluster's node's edge to the goal (when the goal is no node) come
** from a search of the cluster made then, so a query holds nothing but its
** ends. */
static int hq_expand(void *self, uint32_t node, astar_search *s) {
  const astar_hier_query *q = (const astar_hier_query *)self;
  astar_hier *h = q->h;
  size_t c;
  const hclus *cc;
  astar_edge *e;
  int n = 0, i, j, k, d, nd = h->diagonal == ASTAR_DIAG_NEVER ? 4 : 8, C = h->C;
  int tl = local_of(h, q->gx, q->gy), cx, cy, cw, ch, lx, ly, x, y, one;
  double near = HUGE_VAL;            /* start to goal inside their clusters, if they touch */
  if (q->gen != h->gen) return 0;    /* rebuilt in an edit the query let pass */
  if (node == q->start && q->touch && q->start != q->goal) {
    hbox b;
    near = h->s.dist[wsearch(h, q->sx, q->sy, q->gx, q->gy, &b)];
  }
  if (node == q->snode) {              /* the start, when it is no node */
    cc = &h->cl[q->cs];
    e = astar_search_edges(s, (size_t)cc->k + 1);
    if (e == NULL) return ASTAR_ENOMEM;
    csearch(h, &h->s, q->cs, local_of(h, q->sx, q->sy), 0, -1, cc->k, 0);
    for (j = 0; j < cc->k; j++)
      if (h->s.dist[cc->pos[j]] < HUGE_VAL) {
        e[n].to = node_id(h, q->cs, j);
        e[n++].cost = h->s.dist[cc->pos[j]];
      }
    if (near < HUGE_VAL) {
      e[n].to = q->goal;
      e[n++].cost = near;
    }
    return n;
  }
  c = node >> h->kbits;
  cc = &h->cl[c];
  k = cc->k;
  i = (int)(node & ((1u << h->kbits) - 1));
  e = astar_search_edges(s, (size_t)k + 10);
  if (e == NULL) return ASTAR_ENOMEM;
  if (near < HUGE_VAL) {
    e[n].to = q->goal;
    e[n++].cost = near;
  }
  for (j = 0; j < k; j++)                         /* inside the cluster */
    if (j != i && cc->d[i * k + j] > 0 && cc->d[i * k + j] < FINF) {
      e[n].to = node_id(h, c, j);
      e[n++].cost = cc->d[i * k + j];
    }
  if (c == q->ct && q->tnode != ASTAR_NONE) {    /* to the goal, in its cluster */
    csearch(h, &h->s, c, cc->pos[i], 0, tl, 0, 0);
    if (h->s.dist[tl] < HUGE_VAL) {
      e[n].to = q->tnode;
      e[n++].cost = h->s.dist[tl];
    }
  }
  cx = cc->ox;
  cy = cc->oy;
  cw = h->g->w - cx < C ? h->g->w - cx : C;
  ch = h->g->h - cy < C ? h->g->h - cy : C;
  lx = h->lx[cc->pos[i]];
  ly = h->ly[cc->pos[i]];
  x = cx + lx;
  y = cy + ly;
  one = astar__grid_one_cost(h->g);   /* then no need to read the cell (a cache miss) */
  for (d = 0; d < nd; d++) {                      /* steps into other clusters */
    int jn = cc->nb[i * 8 + d];
    long sx = lx + DX[d] < 0 ? -1 : lx + DX[d] >= cw, sy = ly + DY[d] < 0 ? -1 : ly + DY[d] >= ch;
    if (jn == NOB) continue;                      /* clus_links: legal, onto a node */
    e[n].to = node_id(h, (size_t)((long)c + sy * (long)h->ncx + sx), jn);
    e[n++].cost = (one ? q->hscale : h->g->cell[cell_at(h->g, x + DX[d], y + DY[d])]) *
                  (d >= 4 ? SQRT2 : 1.0);
  }
  return n;
}

int astar_hier_prepare(astar_hier *h, astar_hier_query *q, int sx, int sy, int gx, int gy,
                       uint32_t *start, uint32_t *goal) {
  size_t S = ((size_t)h->ncx * (size_t)h->ncy) << h->kbits;
  int rc;
  if (sx < 0 || sy < 0 || gx < 0 || gy < 0 || sx >= h->g->w || gx >= h->g->w ||
      sy >= h->g->h || gy >= h->g->h || astar_grid_link_count(h->g) > 0)
    return ASTAR_EINVAL;
  if ((rc = astar_hier_update(h)) != 0) return rc;
  q->h = h;
  q->sx = sx; q->sy = sy; q->gx = gx; q->gy = gy;
  q->blocked = !walkable(h->g, sx, sy) ? 1 : !walkable(h->g, gx, gy) ? 2 : 0;
  if (q->blocked) return ASTAR_BLOCKED;
  q->hscale = h->hs = astar_grid_min_cost(h->g);
  q->cs = cluster_of(h, sx, sy);
  q->ct = cluster_of(h, gx, gy);
  *start = cell_node(h, sx, sy);
  *goal = cell_node(h, gx, gy);
  q->snode = q->tnode = ASTAR_NONE;   /* the ends are nodes: no node of their own */
  if (*goal == ASTAR_NONE) *goal = q->tnode = (uint32_t)(S + 1);
  if (*start == ASTAR_NONE) *start = q->snode = (uint32_t)S;
  if (sx == gx && sy == gy) *goal = *start;
  q->start = *start;
  q->goal = *goal;
  {
    long dcx = (long)(q->cs % (size_t)h->ncx) - (long)(q->ct % (size_t)h->ncx);
    long dcy = (long)(q->cs / (size_t)h->ncx) - (long)(q->ct / (size_t)h->ncx);
    q->touch = dcx >= -1 && dcx <= 1 && dcy >= -1 && dcy <= 1;
  }
  memset(&q->domain, 0, sizeof q->domain);   /* no optional hooks */
  q->domain.nnodes = (uint32_t)(S + 2);
  q->gen = h->gen;
  q->domain.expand = hq_expand;
  q->domain.heuristic = hq_heuristic;
  q->domain.self = q;
  return 0;
}

/* Appends the cells of the shortest way inside their cluster from (ax, ay)
** (left out) to (bx, by); 0 or ASTAR_ENOMEM. */
/* Appends the cells of the way the last search of box b found from index
** src (left out) to dst; 0, ASTAR_ENOMEM, or ASTAR_ESTATE if it found none
** (an edit the query let pass). */
static int append_way(astar_hier *h, size_t *n, const hbox *b, int src, int dst) {
  size_t m = 0, i;
  int l;
  if (!(h->s.dist[dst] < HUGE_VAL)) return ASTAR_ESTATE;
  for (l = dst; l != src; l = h->s.par[l]) m++;
  if (*n + m > h->cout &&
      astar__reserve(h->mem, (void **)&h->out, &h->cout, *n + m, 2 * sizeof *h->out))
    return ASTAR_ENOMEM;
  for (l = dst, i = m; l != src; l = h->s.par[l]) {
    i--;
    h->out[2 * (*n + i)] = b->ox + l % b->W;
    h->out[2 * (*n + i) + 1] = b->oy + l / b->W;
  }
  *n += m;
  return 0;
}

/* Appends the cells of the shortest way inside their cluster from (ax, ay)
** (left out) to (bx, by), or the step between them when they are in two
** clusters; 0, ASTAR_ENOMEM or ASTAR_ESTATE. */
static int refine_leg(astar_hier *h, size_t *n, int ax, int ay, int bx, int by) {
  size_t c = cluster_of(h, ax, ay);
  int src = local_of(h, ax, ay), dst = local_of(h, bx, by);
  hbox b;
  if (cluster_of(h, bx, by) != c) {                     /* a step between clusters */
    if (*n + 1 > h->cout &&
        astar__reserve(h->mem, (void **)&h->out, &h->cout, *n + 1, 2 * sizeof *h->out))
      return ASTAR_ENOMEM;
    h->out[2 * *n] = bx;
    h->out[2 * *n + 1] = by;
    ++*n;
    return 0;
  }
  cbox(h, c, &b.ox, &b.oy, &b.w, &b.h);
  b.W = h->C;
  csearch(h, &h->s, c, src, 0, dst, 0, 0);
  return append_way(h, n, &b, src, dst);
}

/* The refined path visits no cell twice: each leg is a shortest way inside
** one cluster, and two legs through a cell of the same cluster would make a
** loop that the intra edge from the first leg's start to the second leg's end
** undercuts, so the abstract search would not have taken them. */
long astar_hier_refine(astar_hier *h, const astar_hier_query *q, const uint32_t *nodes, long n,
                       const int **cells) {
  size_t k = 0;
  long i;
  int ax, ay, rc;
  *cells = NULL;
  if (q->gen != h->gen) return ASTAR_ESTATE;
  if (n <= 0) return 0;
  if (h->cout < 1 && astar__reserve(h->mem, (void **)&h->out, &h->cout, 1, 2 * sizeof *h->out))
    return ASTAR_ENOMEM;
  astar_hier_node_cell(q, nodes[0], &ax, &ay);
  h->out[0] = ax;
  h->out[1] = ay;
  k = 1;
  if (n == 2 && q->touch && q->start != q->goal) {   /* the edge of the window search */
    hbox b;
    int at = wsearch(h, q->sx, q->sy, q->gx, q->gy, &b);
    if ((rc = append_way(h, &k, &b, (q->sy - b.oy) * b.W + q->sx - b.ox, at)) != 0) return rc;
    *cells = h->out;
    return (long)k;
  }
  for (i = 1; i < n; i++) {
    int bx, by;
    astar_hier_node_cell(q, nodes[i], &bx, &by);
    if ((rc = refine_leg(h, &k, ax, ay, bx, by)) != 0) return rc;
    ax = bx;
    ay = by;
  }
  *cells = h->out;
  return (long)k;
}
