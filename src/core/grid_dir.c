/*
** grid_dir.c - Directional A* (Marco Pinter, "Toward More Realistic
** Pathfinding", 2001; seed 001): a search over poses, a cell and one of H
** headings, whose moves are the shortest forward (or reverse) Dubins curves
** from the centre of a cell to the centre of each cell up to 'reach' cells
** away, arriving with each heading. A move is legal when a disc of the
** unit's radius swept along it touches no blocked cell, by the rule of
** grid_line.c; so every path the search returns can be driven.
**
** The moves are the same from every cell, so the lattice works them out
** once (Pinter's hit-check tables): for each move, the cells its swept disc
** touches, as bit masks over rows of cells, and the length it runs in each
** cell (for grids of several costs). Turned around, per heading and cell
** near the pose, the set of moves that sweep it: an expansion reads the
** rows around the pose once from jps.c's walkability bits, and each blocked
** cell strikes its set from the moves (Directional-8: one word a cell). On
** a grid of one cost, moves that two shorter moves through a pose between
** replace (same cells, no longer, no more turning) are left out.
**
** Arcs are swept as chords that stray at most SAG from them, with the disc
** widened by SAG there: a turn that passes within SAG of a wall is refused
** (straights are swept exactly, so a unit of radius 0.5 fits a corridor one
** cell wide).
**
** Node numbering: pose (cell x, y; heading k) is (y * w + x) * H + k; two
** more nodes follow for a start and a goal whose headings are not among the
** H (their moves are worked out against the grid, not read from tables).
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "grid_impl.h"

#define TWO_PI 6.283185307179586
#define SAG    1e-3        /* how far a chord may stray from its arc */
#define SAG_PRICE 1e-4     /* the same for pricing moves (finer, at build time) */
#define TOUCH  1e-9        /* grid_line.c's rounding rule */
#define FRAME_ROWS 64
#define SQ(v) ((v) * (v))
#define KILL_MAX ((size_t)4 << 20)
#define NW_MAX 24          /* words of a set of moves: 48 targets, 16 headings, 2 ways */
#define SHOT_NEAR 5        /* hybrid: shots from poses within this many turning radii */
#define SHOT_MAX 32        /* (at most this many cells, at least the reach) */

typedef struct chunk {     /* the cells of row dj, columns di .. di + ASTAR_WIN - 1 */
  int32_t dj, di;
  uint64_t mask;
} chunk;

typedef struct trace {     /* the length a move runs in cell (di, dj) */
  int32_t di, dj;
  double len;
} trace;

typedef struct prim {
  int dx, dy, to;          /* the cell it ends in, and the heading there */
  int dir;                 /* 1 forward, -1 reverse */
  double len, turn;        /* its length, and the radians it turns */
  size_t chunk0, nchunk, trace0, ntrace;
} prim;

typedef struct hot {       /* what an expansion reads of a move */
  int32_t t, to;           /* its target (see astar_dir_query.toff), the heading there */
  double fixed;            /* on a grid of one cost c: it costs len * c + fixed */
  double len;              /* its length, times the reverse factor when backing up */
} hot;

struct astar_lattice {
  astar_mem mem;
  astar_dir_params p;
  int nt, nd;              /* targets, directions (1 or 2) */
  int tx[48], ty[48];
  /* per target, for the heuristic: the shortest move to it, and the cells
  ** every move to it sweeps (chunks tchunk0 .. + ntchunk) */
  double tmin[48];
  size_t tchunk0[48], ntchunk[48];
  size_t nprim;            /* H * nt * H * nd, in that order of nesting */
  prim *prim;
  hot *hot;                /* the same moves, what an expansion reads */
  /* sets of the moves from a heading, move j as bit j of nw words: 'lean'
  ** (per heading) those no pair of moves dominates, for grids of one cost */
  int nw;
  uint64_t *lean;
  /* the frame: when every move's cells lie within fw <= ASTAR_WIN columns
  ** from fx and nrows <= FRAME_ROWS rows from fy, and the table below is no
  ** more than KILL_MAX bytes (framed), an expansion reads each of the
  ** frame's rows once; 'uni' holds per heading and row the cells any of its
  ** moves sweeps, 'kill' per heading and cell of the frame the set of the
  ** moves that sweep it: the clear moves are those no blocked cell kills */
  int framed, nrows, fw;
  long fx, fy;
  uint64_t *uni;           /* H * nrows */
  uint64_t *kill;          /* H * nrows * fw sets */
  chunk *chunk;
  size_t nchunk, cchunk;
  trace *trace;
  size_t ntrace, ctrace;
  int refs;
};

/* Scratch while building: the points of a move, and a window of cells. */
typedef struct scratch {
  double *pt;
  size_t cpt, npt;
  unsigned char *arc;      /* per point: the chord ending there is on an arc */
  size_t carc;
  unsigned char *hit;
  double *len;
  size_t chit, clen;
  long x0, y0, cw, ch;     /* the window: cells x0 .. x0 + cw - 1 ... */
} scratch;

void astar_dir_params_init(astar_dir_params *p) {
  p->turn = 1;
  p->radius = 0;
  p->headings = 8;
  p->reach = 2;
  p->reverse = 0;
  p->turn_cost = 0;
}

static double heading_of(const astar_dir_params *p, int k) {
  return TWO_PI * k / p->headings;
}

/* The curve of a move from pose (x0, y0, h0) to (x1, y1, h1) driven in
** direction dir: a reverse move is a forward curve for a unit facing the
** other way. */
static void move_curve(astar_curve *c, double x0, double y0, double h0, double x1, double y1,
                       double h1, int dir, double turn) {
  double flip = dir < 0 ? TWO_PI / 2 : 0;
  astar_curve_dubins(c, x0, y0, h0 + flip, x1, y1, h1 + flip, turn);
  if (dir < 0) astar_curve_backward(c);
}

/* Calls fn for the points of curve c in order, its ends included, every
** chord of an arc within sag of it ('arc': the chord ending at the point
** is one); returns how many points. */
static long each_point(const astar_curve *c, double sag,
                       void (*fn)(void *ud, double x, double y, int arc), void *ud) {
  double step = c->r > sag ? 2 * acos(1 - sag / c->r) : TWO_PI / 4, at = 0, x, y, h;
  long n = 1, i, k;
  if (fn != NULL) fn(ud, c->x, c->y, 0);
  for (i = 0; i < c->n; i++) {
    long np = c->seg[i] <= 0 ? 0 : c->kind[i] == 'S' ? 1 : (long)ceil(c->seg[i] / step);
    for (k = 1; k <= np; k++, n++) {
      if (fn == NULL) continue;
      astar_curve_sample(c, (at + c->seg[i] * (double)k / (double)np) * c->r, &x, &y, &h);
      fn(ud, x, y, c->kind[i] != 'S');
    }
    at += c->seg[i];
  }
  return n;
}

static void put_point(void *ud, double x, double y, int arc) {
  scratch *s = (scratch *)ud;
  s->arc[s->npt / 2] = (unsigned char)arc;
  s->pt[s->npt++] = x;
  s->pt[s->npt++] = y;
}

/* The points of curve c into s->pt (x, y pairs); returns how many, or
** ASTAR_ENOMEM. */
static long points(astar_mem *m, scratch *s, const astar_curve *c, double sag) {
  long n = each_point(c, sag, NULL, NULL);
  if (astar__reserve(m, (void **)&s->pt, &s->cpt, 2 * (size_t)n, sizeof(double)) ||
      astar__reserve(m, (void **)&s->arc, &s->carc, (size_t)n, 1))
    return ASTAR_ENOMEM;
  s->npt = 0;
  return each_point(c, sag, put_point, s);
}

/* Is (i, j) within r of segment a-b, by grid_line.c's rule? */
static int near(double ax, double ay, double bx, double by, long i, long j, double r) {
  double d2 = astar__grid_cell2(ax, ay, bx, by, i, j);
  return d2 <= TOUCH * TOUCH || (r > TOUCH && d2 < (r - TOUCH) * (r - TOUCH));
}

/* Marks in the window the cells the disc of radius r0 (widened by SAG on
** arcs) touches along the n points. */
static void mark(scratch *s, long n, double r0) {
  long k, i, j;
  for (k = 0; k < n; k++) {
    const double *a = s->pt + 2 * (k > 0 ? k - 1 : 0), *b = s->pt + 2 * k;
    const double r = r0 + (s->arc[k] ? SAG : 0);
    long i0 = (long)floor((a[0] < b[0] ? a[0] : b[0]) - r - TOUCH);
    long i1 = (long)floor((a[0] < b[0] ? b[0] : a[0]) + r + TOUCH);
    long j0 = (long)floor((a[1] < b[1] ? a[1] : b[1]) - r - TOUCH);
    long j1 = (long)floor((a[1] < b[1] ? b[1] : a[1]) + r + TOUCH);
    for (j = j0; j <= j1; j++)
      for (i = i0; i <= i1; i++) {
        unsigned char *h = &s->hit[(j - s->y0) * s->cw + (i - s->x0)];
        if (!*h && near(a[0], a[1], b[0], b[1], i, j, r)) *h = 1;
      }
  }
}

/* Adds the length of each piece of the n points' polyline between cell
** sides (scaled to the curve's) to the cell the piece's middle lies in. */
static void lengths(scratch *s, long n, double scale) {
  long k;
  for (k = 1; k < n; k++) {
    const double *a = s->pt + 2 * (k - 1), *b = s->pt + 2 * k;
    double t = 0, len = hypot(b[0] - a[0], b[1] - a[1]) * scale;
    while (t < 1) {
      double nx = 1, ny = 1, u, mx, my;
      double px = a[0] + t * (b[0] - a[0]), py = a[1] + t * (b[1] - a[1]);
      if (b[0] != a[0]) nx = ((b[0] > a[0] ? floor(px) + 1 : ceil(px) - 1) - a[0]) / (b[0] - a[0]);
      if (b[1] != a[1]) ny = ((b[1] > a[1] ? floor(py) + 1 : ceil(py) - 1) - a[1]) / (b[1] - a[1]);
      u = nx < ny ? nx : ny;
      if (u > 1) u = 1;
      if (u <= t) u = t + 1e-12 > 1 ? 1 : t + 1e-12;
      mx = a[0] + (t + u) / 2 * (b[0] - a[0]);
      my = a[1] + (t + u) / 2 * (b[1] - a[1]);
      s->len[((long)floor(my) - s->y0) * s->cw + ((long)floor(mx) - s->x0)] += (u - t) * len;
      t = u;
    }
  }
}

/* Sizes the window to the points' box widened by r and clears it. */
static int window_fit(astar_mem *m, scratch *s, long n, double r) {
  double lx = HUGE_VAL, ly = HUGE_VAL, hx = -HUGE_VAL, hy = -HUGE_VAL;
  long k;
  size_t cells;
  for (k = 0; k < n; k++) {
    double x = s->pt[2 * k], y = s->pt[2 * k + 1];
    if (x < lx) lx = x;
    if (x > hx) hx = x;
    if (y < ly) ly = y;
    if (y > hy) hy = y;
  }
  s->x0 = (long)floor(lx - r) - 1;
  s->y0 = (long)floor(ly - r) - 1;
  s->cw = (long)floor(hx + r) + 2 - s->x0;
  s->ch = (long)floor(hy + r) + 2 - s->y0;
  cells = (size_t)s->cw * (size_t)s->ch;
  if (astar__reserve(m, (void **)&s->hit, &s->chit, cells, 1) ||
      astar__reserve(m, (void **)&s->len, &s->clen, cells, sizeof(double)))
    return ASTAR_ENOMEM;
  memset(s->hit, 0, cells);
  memset(s->len, 0, cells * sizeof(double));
  return 0;
}

/* Appends the window's marked cells as chunks and its lengths as traces. */
static int tables_add(astar_lattice *l, const scratch *s, prim *p) {
  long i, j;
  p->chunk0 = l->nchunk;
  p->trace0 = l->ntrace;
  for (j = 0; j < s->ch; j++)
    for (i = 0; i < s->cw; i++) {
      const size_t c = (size_t)(j * s->cw + i);
      if (s->len[c] > 0) {
        trace *t;
        if (astar__reserve(&l->mem, (void **)&l->trace, &l->ctrace, l->ntrace + 1, sizeof *t))
          return ASTAR_ENOMEM;
        t = &l->trace[l->ntrace++];
        t->di = (int32_t)(s->x0 + i); t->dj = (int32_t)(s->y0 + j); t->len = s->len[c];
      }
      if (s->hit[c]) {
        chunk *k = l->nchunk > p->chunk0 ? &l->chunk[l->nchunk - 1] : NULL;
        long col = s->x0 + i;
        if (k == NULL || k->dj != s->y0 + j || col - k->di >= ASTAR_WIN) {
          if (astar__reserve(&l->mem, (void **)&l->chunk, &l->cchunk, l->nchunk + 1, sizeof *k))
            return ASTAR_ENOMEM;
          k = &l->chunk[l->nchunk++];
          k->dj = (int32_t)(s->y0 + j); k->di = (int32_t)col; k->mask = 0;
        }
        k->mask |= (uint64_t)1 << (col - k->di);
      }
    }
  p->nchunk = l->nchunk - p->chunk0;
  p->ntrace = l->ntrace - p->trace0;
  return 0;
}

/* The length of the polyline of the n points in s. */
static double polyline(const scratch *s, long n) {
  double sum = 0;
  long k;
  for (k = 1; k < n; k++)
    sum += hypot(s->pt[2 * k] - s->pt[2 * k - 2], s->pt[2 * k + 1] - s->pt[2 * k - 1]);
  return sum;
}

/* The radians curve c turns. */
static double turned(const astar_curve *c) {
  int i;
  double t = 0;
  for (i = 0; i < c->n; i++)
    if (c->kind[i] != 'S') t += c->seg[i];
  return t;
}

/* Works out move p: from the centre of cell (0, 0) facing a to cell (dx, dy)
** facing p->to. */
static int build_move(astar_lattice *l, scratch *s, prim *p, int a) {
  const astar_dir_params *q = &l->p;
  astar_curve c;
  double line, r = q->radius + SAG;
  long n;
  move_curve(&c, 0.5, 0.5, heading_of(q, a), p->dx + 0.5, p->dy + 0.5, heading_of(q, p->to),
             p->dir, q->turn);
  p->len = c.length;
  p->turn = turned(&c);
  n = points(&l->mem, s, &c, SAG);
  if (n < 0 || window_fit(&l->mem, s, n, r)) return ASTAR_ENOMEM;
  mark(s, n, q->radius);
  n = points(&l->mem, s, &c, SAG_PRICE);
  if (n < 0) return ASTAR_ENOMEM;
  line = polyline(s, n);
  lengths(s, n, line > 0 ? c.length / line : 1);
  return tables_add(l, s, p);
}

static void scratch_free(astar_mem *m, scratch *s) {
  astar__free(m, s->pt, s->cpt * sizeof(double));
  astar__free(m, s->arc, s->carc);
  astar__free(m, s->hit, s->chit);
  astar__free(m, s->len, s->clen * sizeof(double));
}

static int valid_params(const astar_dir_params *p) {
  return p->turn > 0 && p->turn <= ASTAR_DIR_TURN_MAX && p->radius >= 0 &&
         p->radius <= ASTAR_DIR_RADIUS_MAX && (p->headings == 8 || p->headings == 16) &&
         p->reach >= 1 && p->reach <= 3 && (p->reverse == 0 || (p->reverse >= 1 &&
         p->reverse <= ASTAR_NUM_MAX)) && p->turn_cost >= 0 && p->turn_cost <= ASTAR_NUM_MAX;
}

/* The cells di .. di + ASTAR_WIN - 1 of row dj that move p sweeps, as bits. */
static uint64_t covers(const astar_lattice *l, const prim *p, long dj, long di) {
  const chunk *k = l->chunk + p->chunk0, *end = k + p->nchunk;
  uint64_t bits = 0;
  for (; k < end; k++) {
    long shift = k->di - di;
    if (k->dj != dj || shift >= 64 || shift <= -64) continue;
    bits |= shift >= 0 ? k->mask << shift : k->mask >> -shift;
  }
  return bits;
}

/* Target t's shortest move and the cells all its moves sweep (as chunks). */
static int target_tables(astar_lattice *l, int t) {
  const size_t H = (size_t)l->p.headings, per = (size_t)l->nt * H * (size_t)l->nd;
  const size_t first = (size_t)t * H * (size_t)l->nd;        /* heading 0's moves to t */
  const prim *p0 = &l->prim[first];
  size_t a, m, c;
  l->tmin[t] = HUGE_VAL;
  l->tchunk0[t] = l->nchunk;
  for (a = 0; a < H; a++)
    for (m = 0; m < H * (size_t)l->nd; m++)
      if (l->prim[a * per + first + m].len < l->tmin[t]) l->tmin[t] = l->prim[a * per + first + m].len;
  for (c = 0; c < p0->nchunk; c++) {
    chunk k = l->chunk[p0->chunk0 + c];
    for (a = 0; a < H && k.mask; a++)
      for (m = 0; m < H * (size_t)l->nd && k.mask; m++)
        k.mask &= covers(l, &l->prim[a * per + first + m], k.dj, k.di);
    if (k.mask == 0) continue;
    if (astar__reserve(&l->mem, (void **)&l->chunk, &l->cchunk, l->nchunk + 1, sizeof k))
      return ASTAR_ENOMEM;
    l->chunk[l->nchunk++] = k;
  }
  l->ntchunk[t] = l->nchunk - l->tchunk0[t];
  return 0;
}

/* Are the cells move p sweeps from cell (ox, oy) all among those move m
** sweeps from (0, 0)? */
static int within(const astar_lattice *l, const prim *p, long ox, long oy, const prim *m) {
  const chunk *k = l->chunk + p->chunk0, *end = k + p->nchunk;
  for (; k < end; k++)
    if (k->mask & ~covers(l, m, k->dj + oy, k->di + ox)) return 0;
  return 1;
}

/* The index of the target at (dx, dy), -1 if none. */
static long target_of(const astar_lattice *l, long dx, long dy) {
  const long R = l->p.reach;
  long t;
  if (labs(dx) > R || labs(dy) > R || (dx == 0 && dy == 0)) return -1;
  t = (dy + R) * (2 * R + 1) + dx + R;
  return t > (2 * R + 1) * R + R ? t - 1 : t;             /* no (0, 0) */
}

/* Is move i dominated: two moves m1 then m2, through a pose in between,
** that sweep only cells move i sweeps, run no longer and turn no more? On
** a grid of one cost they then cost no more (for any turn_cost, and for any
** reverse factor f >= 1: a reverse move costs f times its length, and the
** pair at most that), and whenever move i is clear so are they: a search
** without move i finds paths as cheap. A forward move is replaced only by
** forward ones. Each of m1, m2 is at least a cell long, so shorter than
** move i: dropping every dominated move at once leaves each replaceable by
** moves kept. */
static int dominated(const astar_lattice *l, size_t i) {
  const size_t H = (size_t)l->p.headings, nd = (size_t)l->nd, per = (size_t)l->nt * H * nd;
  const prim *m = &l->prim[i];
  const prim *from = l->prim + i / per * per;
  size_t j, b;
  for (j = 0; j < per; j++) {
    const prim *m1 = &from[j];
    long t2 = target_of(l, m->dx - m1->dx, m->dy - m1->dy);
    if (t2 < 0 || m1->len >= m->len || (m->dir > 0 && m1->dir < 0)) continue;
    for (b = 0; b < nd; b++) {
      const prim *m2 = l->prim + (size_t)m1->to * per +
                       ((size_t)t2 * H + (size_t)m->to) * nd + b;
      if ((m->dir > 0 && m2->dir < 0) || m1->len + m2->len > m->len ||
          m1->turn + m2->turn > m->turn)
        continue;
      if (within(l, m1, 0, 0, m) && within(l, m2, m1->dx, m1->dy, m)) return 1;
    }
  }
  return 0;
}

static size_t lean_bytes(const astar_lattice *l) {
  return (size_t)l->p.headings * (size_t)l->nw * sizeof(uint64_t);
}

static size_t uni_bytes(const astar_lattice *l) {
  return (size_t)l->p.headings * (size_t)l->nrows * sizeof(uint64_t);
}

/* The lean sets of moves per heading. */
static int lean_build(astar_lattice *l) {
  const size_t H = (size_t)l->p.headings, per = l->nprim / H, nw = (size_t)l->nw;
  size_t a, j;
  l->lean = (uint64_t *)astar__alloc(&l->mem, lean_bytes(l));
  if (l->lean == NULL) return ASTAR_ENOMEM;
  memset(l->lean, 0, lean_bytes(l));
  for (a = 0; a < H; a++)
    for (j = 0; j < per; j++)
      if (!dominated(l, a * per + j)) l->lean[a * nw + j / 64] |= (uint64_t)1 << (j % 64);
  return 0;
}

/* The frame of the moves' chunks (not the targets'), if they fit one. */
static int frame_build(astar_lattice *l) {
  const size_t H = (size_t)l->p.headings, per = l->nprim / H, nw = (size_t)l->nw;
  size_t a, j, k, sets, end = l->nprim > 0 ? l->prim[l->nprim - 1].chunk0 + l->prim[l->nprim - 1].nchunk : 0;
  long x0 = 0, x1 = 0, y0 = 0, y1 = 0;
  for (k = 0; k < end; k++) {
    const chunk *c = &l->chunk[k];
    long hi = c->di;
    uint64_t v = c->mask;
    while (v >>= 1) hi++;
    if (c->di < x0) x0 = c->di;
    if (hi > x1) x1 = hi;
    if (c->dj < y0) y0 = c->dj;
    if (c->dj > y1) y1 = c->dj;
  }
  sets = H * (size_t)(y1 - y0 + 1) * (size_t)(x1 - x0 + 1);
  l->framed = x1 - x0 < ASTAR_WIN && y1 - y0 < FRAME_ROWS && sets * nw * 8 <= KILL_MAX;
  if (!l->framed) return 0;
  l->fx = x0; l->fy = y0; l->nrows = (int)(y1 - y0 + 1); l->fw = (int)(x1 - x0 + 1);
  l->uni = (uint64_t *)astar__alloc(&l->mem, H * (size_t)l->nrows * sizeof(uint64_t));
  l->kill = (uint64_t *)astar__alloc(&l->mem, sets * nw * sizeof(uint64_t));
  if (l->uni == NULL || l->kill == NULL) return ASTAR_ENOMEM;
  memset(l->uni, 0, uni_bytes(l));
  memset(l->kill, 0, sets * nw * sizeof(uint64_t));
  for (a = 0; a < H; a++)
    for (j = 0; j < per; j++) {
      const prim *p = &l->prim[a * per + j];
      for (k = p->chunk0; k < p->chunk0 + p->nchunk; k++) {
        const chunk *c = &l->chunk[k];
        const size_t row = a * (size_t)l->nrows + (size_t)(c->dj - y0);
        uint64_t v = c->mask << (c->di - x0);
        l->uni[row] |= v;
        for (; v; v &= v - 1)
          l->kill[(row * (size_t)l->fw + (size_t)astar__lowbit(v)) * nw + j / 64] |=
              (uint64_t)1 << (j % 64);
      }
    }
  return 0;
}

static int lattice_build(astar_lattice *l) {
  const int H = l->p.headings;
  scratch s;
  size_t i;
  int rc = 0;
  memset(&s, 0, sizeof s);
  for (i = 0; i < l->nprim && rc == 0; i++) {
    prim *p = &l->prim[i];
    size_t r = i;
    p->dir = l->nd == 2 && r % 2 ? -1 : 1;
    r /= (size_t)l->nd;
    p->to = (int)(r % (size_t)H);
    r /= (size_t)H;
    p->dx = l->tx[r % (size_t)l->nt];
    p->dy = l->ty[r % (size_t)l->nt];
    rc = build_move(l, &s, p, (int)(r / (size_t)l->nt));
    l->hot[i].t = (int32_t)(r % (size_t)l->nt); l->hot[i].to = p->to;
    l->hot[i].len = p->len * (p->dir < 0 ? l->p.reverse : 1);
    l->hot[i].fixed = l->p.turn_cost * p->turn;
  }
  scratch_free(&l->mem, &s);
  for (i = 0; i < (size_t)l->nt && rc == 0; i++) rc = target_tables(l, (int)i);
  if (rc == 0) rc = lean_build(l);
  return rc == 0 ? frame_build(l) : rc;
}

int astar_lattice_new(astar_lattice **out, const astar_dir_params *p, astar_alloc alloc,
                      void *ud) {
  astar_mem m;
  astar_lattice *l;
  int dx, dy, rc;
  *out = NULL;
  if (!valid_params(p)) return ASTAR_EINVAL;
  m.fn = alloc; m.ud = ud; m.allocs = 0;
  l = (astar_lattice *)astar__alloc(&m, sizeof *l);
  if (l == NULL) return ASTAR_ENOMEM;
  memset(l, 0, sizeof *l);
  l->mem = m;
  l->p = *p;
  l->refs = 1;
  for (dy = -p->reach; dy <= p->reach; dy++)
    for (dx = -p->reach; dx <= p->reach; dx++)
      if (dx != 0 || dy != 0) { l->tx[l->nt] = dx; l->ty[l->nt++] = dy; }
  l->nd = p->reverse > 0 ? 2 : 1;
  l->nprim = (size_t)p->headings * (size_t)l->nt * (size_t)p->headings * (size_t)l->nd;
  l->nw = (int)((l->nprim / (size_t)p->headings + 63) / 64);
  l->prim = (prim *)astar__alloc(&l->mem, l->nprim * sizeof(prim));
  l->hot = (hot *)astar__alloc(&l->mem, l->nprim * sizeof(hot));
  rc = l->prim == NULL || l->hot == NULL ? ASTAR_ENOMEM : lattice_build(l);
  if (rc != 0) {
    astar_lattice_release(l);
    return rc;
  }
  *out = l;
  return 0;
}

void astar_lattice_retain(astar_lattice *l) { l->refs++; }


void astar_lattice_release(astar_lattice *l) {
  astar_mem m;
  if (l == NULL || --l->refs > 0) return;
  m = l->mem;
  astar__free(&m, l->prim, l->nprim * sizeof(prim));
  astar__free(&m, l->hot, l->nprim * sizeof(hot));
  astar__free(&m, l->chunk, l->cchunk * sizeof(chunk));
  astar__free(&m, l->trace, l->ctrace * sizeof(trace));
  astar__free(&m, l->lean, lean_bytes(l));
  astar__free(&m, l->uni, uni_bytes(l));
  astar__free(&m, l->kill, uni_bytes(l) * (size_t)l->fw * (size_t)l->nw);
  astar__free(&m, l, sizeof *l);
}

const astar_dir_params *astar_lattice_params(const astar_lattice *l) { return &l->p; }

size_t astar_lattice_bytes(const astar_lattice *l) {
  return sizeof *l + l->nprim * (sizeof(prim) + sizeof(hot)) + l->cchunk * sizeof(chunk) +
         l->ctrace * sizeof(trace) + (l->lean != NULL ? lean_bytes(l) : 0) +
         (l->uni != NULL ? uni_bytes(l) : 0) +
         (l->kill != NULL ? uni_bytes(l) * (size_t)l->fw * (size_t)l->nw : 0);
}


/* ---------------------------------------------------------------------- */
/* The search                                                               */
/* ---------------------------------------------------------------------- */

#define H_OF(q) ((uint32_t)(q)->lat->p.headings)

/* Is every cell move p sweeps from cell (x, y) walkable? */
static int move_clear(const astar_grid *g, const astar_lattice *l, const prim *p, long x,
                      long y) {
  const chunk *k = l->chunk + p->chunk0, *end = k + p->nchunk;
  for (; k < end; k++) {
    long row = y + k->dj + 1, col = x + k->di + 1;
    if (row < 0 || row >= (long)g->h + 2 || col < -64 || col > (long)g->stride) return 0;
    if (k->mask & ~astar__window(g->rows + (size_t)row * g->rw, col)) return 0;
  }
  return 1;
}

/* What a move of length len (priced 'priced': its length times the costs
** of the cells it runs through) turning 'turn' radians costs. */
static double price(const astar_dir_params *p, double priced, double turn, int dir) {
  return priced * (dir < 0 ? p->reverse : 1) + p->turn_cost * turn;
}

/* The cost of move p from cell (x, y), which move_clear passed. */
static double move_cost(const astar_dir_query *q, const prim *p, long x, long y) {
  const astar_grid *g = q->grid;
  const trace *t, *end;
  double sum = 0;
  if (q->uniform) {
    const hot *h = &q->lat->hot[p - q->lat->prim];
    return h->len * q->cost1 + h->fixed;
  }
  for (t = q->lat->trace + p->trace0, end = t + p->ntrace; t < end; t++)
    sum += t->len * g->cell[(size_t)(y + t->dj + 1) * g->stride + (size_t)(x + t->di + 1)];
  return price(&q->lat->p, sum, p->turn, p->dir);
}

/* A move worked out against the grid (the start or goal off the lattice's
** headings): each chord checked for the widened disc and priced. */
typedef struct flight {
  const astar_grid *g;
  double r, px, py, priced, line;
  int n, clear;
} flight;

static void fly_point(void *ud, double x, double y, int arc) {
  flight *f = (flight *)ud;
  if (f->clear && !astar_grid_line_clear(f->g, f->n ? f->px : x, f->n ? f->py : y, x, y,
                                         f->r + (arc ? SAG : 0)))
    f->clear = 0;
  if (f->clear && f->n) {
    f->priced += astar_grid_line_integral(f->g, f->px, f->py, x, y);
    f->line += hypot(x - f->px, y - f->py);
  }
  f->px = x; f->py = y; f->n++;
}

/* The cost of the move from pose (x0, y0, h0) to (x1, y1, h1) in direction
** dir, or -1 if the unit cannot make it. */
static double fly_curve(const astar_dir_query *q, const astar_curve *c, int dir) {
  const astar_dir_params *p = &q->lat->p;
  flight f;
  f.g = q->grid; f.r = p->radius; f.priced = f.line = 0; f.n = 0; f.clear = 1;
  each_point(c, SAG, fly_point, &f);
  if (!f.clear) return -1;
  return price(p, f.line > 0 ? f.priced * c->length / f.line : 0, turned(c), dir);
}

static double fly(const astar_dir_query *q, double x0, double y0, double h0, double x1,
                  double y1, double h1, int dir) {
  astar_curve c;
  move_curve(&c, x0, y0, h0, x1, y1, h1, dir, q->lat->p.turn);
  return fly_curve(q, &c, dir);
}

/* The heading at which the unit at (x, y) facing h, turning on side s (1
** left, -1 right) by radius r, leaves its circle straight for point (px,
** py); 0 if the point lies inside the circle. */
static int tangent(double x, double y, double h, double r, int s, double px, double py,
                   double *phi) {
  double cx = x - s * r * sin(h), cy = y + s * r * cos(h);
  double dx = px - cx, dy = py - cy, d = hypot(dx, dy), b = atan2(dy, dx), a, k;
  if (d <= r) return 0;
  for (k = -1; k <= 1; k += 2) {
    a = b + k * acos(r / d);                   /* the tangent point's angle on the circle */
    if ((px - cx - r * cos(a)) * -s * sin(a) + (py - cy - r * sin(a)) * s * cos(a) > 0) {
      *phi = a + s * TWO_PI / 4;
      return 1;
    }
  }
  return 0;
}

/* The analytic expansion of a hybrid search (Dolgov et al. 2008): the
** curve from pose (x, y, h), driven in direction dir, to the goal: to its
** pose if it has a heading, else to its centre by an arc and a straight
** (the shorter side). 0 if there is none. */
static int shot_curve(const astar_dir_query *q, double x, double y, double h, int dir,
                      astar_curve *c) {
  const double r = q->lat->p.turn, px = q->gx + 0.5, py = q->gy + 0.5;
  double hh = dir < 0 ? h + TWO_PI / 2 : h, phi;
  int s, found = 0;
  if (q->gh == q->gh) {
    move_curve(c, x, y, h, px, py, q->gh, dir, r);
    return 1;
  }
  for (s = 1; s >= -1; s -= 2) {
    astar_curve t;
    if (!tangent(x, y, hh, r, s, px, py, &phi)) continue;
    astar_curve_dubins(&t, x, y, hh, px, py, phi, r);
    if (!found || t.length < c->length) *c = t;
    found = 1;
  }
  if (found && dir < 0) astar_curve_backward(c);
  return found;
}

void astar_dir_pose(const astar_dir_query *q, uint32_t node, double *x, double *y, double *h) {
  const uint32_t H = H_OF(q);
  uint32_t cell = node / H;
  if (node == q->snode || node == q->gnode) {
    int s = node == q->snode;
    *x = (s ? q->sx : q->gx) + 0.5;
    *y = (s ? q->sy : q->gy) + 0.5;
    *h = s ? q->sh : q->gh;
    return;
  }
  *x = (double)(cell % (uint32_t)q->grid->w) + 0.5;
  *y = (double)(cell / (uint32_t)q->grid->w) + 0.5;
  *h = heading_of(&q->lat->p, (int)(node % H));
}

/* Adds the moves to the goal pose (off the lattice's headings) from pose
** 'node', if the goal is within reach; returns the new edge count. */
/* How far from the goal a hybrid search shoots: a pose shoots if its cell
** is this near (an off-lattice goal heading, without shots: if it is within
** reach). */
static double shot_range(const astar_dir_query *q) {
  double r = SHOT_NEAR * q->lat->p.turn, reach = q->lat->p.reach * SQRT2 + 1e-9;
  if (r > SHOT_MAX) r = SHOT_MAX;
  return r > reach ? r : reach;
}

static int to_goal(const astar_dir_query *q, uint32_t node, astar_edge *e, int n) {
  double x, y, h, c;
  int d, near;
  astar_curve cv;
  astar_dir_pose(q, node, &x, &y, &h);
  near = fabs(x - 0.5 - q->gx) <= q->lat->p.reach && fabs(y - 0.5 - q->gy) <= q->lat->p.reach;
  if (q->shots ? sqrt(SQ(x - 0.5 - q->gx) + SQ(y - 0.5 - q->gy)) > shot_range(q)
               : q->gnode == ASTAR_NONE || !near)
    return n;
  for (d = 1; d >= (q->lat->nd == 2 ? -1 : 1); d -= 2)
    if (shot_curve(q, x, y, h, d, &cv) && (c = fly_curve(q, &cv, d)) >= 0) {
      e[n].to = q->shot_to;
      e[n++].cost = c;
    }
  return n;
}

/* The moves from the start pose off the lattice's headings. */
static int from_start(const astar_dir_query *q, astar_edge *e) {
  const astar_lattice *l = q->lat;
  const uint32_t H = H_OF(q);
  int t, b, d, n = 0;
  for (t = 0; t < l->nt; t++) {
    int x = q->sx + l->tx[t], y = q->sy + l->ty[t];
    if (x < 0 || y < 0 || x >= q->grid->w || y >= q->grid->h) continue;
    for (b = 0; b < (int)H; b++)
      for (d = 1; d >= (l->nd == 2 ? -1 : 1); d -= 2) {
        double c = fly(q, q->sx + 0.5, q->sy + 0.5, q->sh, x + 0.5, y + 0.5,
                       heading_of(&l->p, b), d);
        if (c < 0) continue;
        e[n].to = ((uint32_t)y * (uint32_t)q->grid->w + (uint32_t)x) * H + (uint32_t)b;
        e[n++].cost = c;
      }
  }
  return to_goal(q, q->snode, e, n);
}

/* Sets the moves from heading a that a search takes: all of them, or on a
** grid of one cost the lean set. */
static void moves_of(const astar_dir_query *q, size_t a, uint64_t *set) {
  const astar_lattice *l = q->lat;
  const size_t per = l->nprim / (size_t)l->p.headings;
  int i;
  for (i = 0; i < l->nw; i++)
    set[i] = q->uniform ? l->lean[a * (size_t)l->nw + (size_t)i]
             : (size_t)(i + 1) * 64 <= per ? ~(uint64_t)0 : ((uint64_t)1 << (per % 64)) - 1;
}

/* Takes out of set the moves from heading a at cell (x, y) of a framed
** lattice that sweep a blocked cell: the frame's rows read once, each
** blocked cell a move from a sweeps striking the moves it kills. */
static void framed_clear(const astar_dir_query *q, size_t a, long x, long y, uint64_t *set) {
  const astar_lattice *l = q->lat;
  const astar_grid *g = q->grid;
  const size_t nw = (size_t)l->nw;
  int r;
  for (r = 0; r < l->nrows; r++) {
    const size_t row = a * (size_t)l->nrows + (size_t)r;
    const long gy = y + l->fy + r + 1;
    uint64_t v = l->uni[row];
    if (gy >= 0 && gy < (long)g->h + 2)
      v &= ~astar__window(g->rows + (size_t)gy * g->rw, x + l->fx + 1);
    for (; v; v &= v - 1) {
      const uint64_t *k = l->kill + (row * (size_t)l->fw + (size_t)astar__lowbit(v)) * nw;
      size_t i;
      for (i = 0; i < nw; i++) set[i] &= ~k[i];
    }
  }
}

/* Is g (at most the search's max_cost) cheaper than any cost known of the
** pose at 'cell' facing k (see astar_dir_seen)? Then it is now known. */
static int cheaper(astar_dir_seen *m, uint32_t cell, int k, uint32_t H, double g) {
  float *row = m->g + (size_t)cell * H, up;
  if (m->gen[cell] != m->cur) {
    uint32_t i;
    for (i = 0; i < H; i++) row[i] = HUGE_VALF;
    m->gen[cell] = m->cur;
  }
  if (g >= row[k]) return 0;
  up = (float)g;
  row[k] = (double)up < g ? nextafterf(up, HUGE_VALF) : up;
  return 1;
}

/* The proof that no start pose reaches the goal (see astar_dir_begin). */

static int is_start(const astar_dir_query *q, uint32_t cell, uint32_t k) {
  const uint32_t H = H_OF(q);
  return cell == (uint32_t)q->sy * (uint32_t)q->grid->w + (uint32_t)q->sx &&
         (q->nstarts == H || q->starts[0] % H == k);
}

/* Adds the poses with a move to pose 'node' that are not in the set yet.
** Returns 0, 1 if one is a start pose, -1 if the set holds cap poses. */
static int reach_into(const astar_dir_query *q, uint32_t node, size_t cap) {
  const astar_lattice *l = q->lat;
  const astar_grid *g = q->grid;
  const uint32_t H = H_OF(q), w = (uint32_t)g->w, to = node % H;
  astar_dir_seen *m = q->seen;
  const long x = (long)(node / H % w), y = (long)(node / H / w);
  int t, a, d;
  for (t = 0; t < l->nt; t++) {
    const long px = x - l->tx[t], py = y - l->ty[t];
    uint32_t cell;
    if (px < 0 || py < 0 || px >= g->w || py >= g->h ||
        !(g->cell[(size_t)(py + 1) * g->stride + (size_t)(px + 1)] > 0))
      continue;
    cell = (uint32_t)py * w + (uint32_t)px;
    for (a = 0; a < (int)H; a++) {
      const size_t j0 = (((size_t)a * (size_t)l->nt + (size_t)t) * H + to) * (size_t)l->nd;
      if (m->reach[cell] >> a & 1) continue;
      for (d = 0; d < l->nd && !move_clear(g, l, &l->prim[j0 + (size_t)d], px, py); d++) {}
      if (d == l->nd) continue;
      if (is_start(q, cell, (uint32_t)a)) return 1;
      if (m->rn >= cap) return -1;
      m->reach[cell] |= (uint16_t)(1u << a);
      m->rq[m->rn++] = cell * H + (uint32_t)a;
    }
  }
  return 0;
}

/* Grows the set of poses that reach the goal to at most 1 / reach_share of
** the expansions: 1 if it closed (no start pose can reach the goal), else
** 0; a start pose met, the proof is given up. */
static int unreachable(astar_dir_query *q) {
  astar_dir_seen *m = q->seen;
  uint64_t cap = q->expanded / (q->reach_share > 0 ? q->reach_share : 1);
  q->reach_at *= 2;
  if (cap > m->rcap) cap = m->rcap;
  for (; q->rhead < m->rn; q->rhead++) {
    int rc = reach_into(q, m->rq[q->rhead], (size_t)cap);
    if (rc != 0) {
      q->reach = rc < 0;
      return 0;
    }
  }
  return 1;
}

/* Starts the set with the goal poses, the last search's set cleared. */
static void reach_begin(astar_dir_query *q, uint32_t goal) {
  astar_dir_seen *m = q->seen;
  const uint32_t H = H_OF(q), gc = (uint32_t)q->gy * (uint32_t)q->grid->w + (uint32_t)q->gx;
  uint32_t k;
  size_t i;
  q->expanded = 0;
  q->reach_at = q->reach_first;
  q->rhead = 0;
  q->reach = 0;
  if (m == NULL || m->reach == NULL) return;
  for (i = 0; i < m->rn; i++) m->reach[m->rq[i] / m->rh] = 0;
  m->rn = 0;
  m->rh = H;
  if (q->shots || q->snode != ASTAR_NONE || q->gnode != ASTAR_NONE || q->params.partial ||
      m->rcap < H || is_start(q, gc, q->starts[0] % H))
    return;
  for (k = 0; k < H; k++)
    if (q->domain.is_goal != NULL || k == goal % H) {
      m->reach[gc] |= (uint16_t)(1u << k);
      m->rq[m->rn++] = gc * H + k;
    }
  q->reach = 1;
}

static int dir_expand(void *self, uint32_t node, astar_search *s) {
  astar_dir_query *q = (astar_dir_query *)self;
  const astar_lattice *l = q->lat;
  const uint32_t H = H_OF(q), w = (uint32_t)q->grid->w;
  const size_t per = l->nprim / H, a = node % H;
  astar_dir_seen *seen = q->params.algorithm != ASTAR_ALG_BFS ? q->seen : NULL;
  astar_edge *e = astar_search_edges(s, per + 2);
  double g0 = 0;
  uint64_t set[NW_MAX];
  uint32_t cell0;
  long x, y;
  int i, n = 0;
  if (e == NULL) return ASTAR_ENOMEM;
  if (++q->expanded >= q->reach_at && q->reach && unreachable(q)) {
    astar_search_drop_open(s);
    return 0;
  }
  if (node == q->snode) return from_start(q, e);
  if (node == q->gnode) return 0;
  cell0 = node / H;
  x = (long)(cell0 % w);
  y = (long)(cell0 / w);
  if (seen != NULL) g0 = astar_search_cost(s);
  moves_of(q, a, set);
  if (l->framed) framed_clear(q, a, x, y, set);
  for (i = 0; i < l->nw; i++) {
    uint64_t v;
    for (v = set[i]; v; v &= v - 1) {
      const size_t j = a * per + (size_t)i * 64 + (size_t)astar__lowbit(v);
      const hot *p = &l->hot[j];
      const uint32_t cell = cell0 + (uint32_t)q->toff[p->t];    /* (mod 2^32) */
      double c;
      if (!l->framed && !move_clear(q->grid, l, &l->prim[j], x, y)) continue;
      c = q->uniform ? p->len * q->cost1 + p->fixed : move_cost(q, &l->prim[j], x, y);
      if (seen != NULL && g0 + c <= q->params.max_cost && !cheaper(seen, cell, p->to, H, g0 + c))
        continue;                    /* (above max_cost: the engine prunes it) */
      e[n].to = cell * H + (uint32_t)p->to;
      e[n++].cost = c;
    }
  }
  return to_goal(q, node, e, n);
}

/* The relaxed graph's edges into the goal: from every walkable cell within
** reach, or within the shot range, at the straight distance. */
static int into_goal(const astar_dir_query *q, astar_search *s) {
  const astar_grid *g = q->grid;
  const double range = q->shots ? shot_range(q) : q->lat->p.reach * SQRT2 + 1e-9;
  const long R = (long)range;
  long x, y;
  int n = 0;
  astar_edge *e = astar_search_edges(s, (size_t)(2 * R + 1) * (size_t)(2 * R + 1));
  if (e == NULL) return ASTAR_ENOMEM;
  for (y = q->gy - R; y <= q->gy + R; y++)
    for (x = q->gx - R; x <= q->gx + R; x++) {
      double d = hypot((double)(x - q->gx), (double)(y - q->gy));
      if (x < 0 || y < 0 || x >= g->w || y >= g->h || d > range || d == 0 ||
          !(g->cell[(size_t)(y + 1) * g->stride + (size_t)(x + 1)] > 0))
        continue;
      e[n].to = (uint32_t)y * (uint32_t)g->w + (uint32_t)x;
      e[n++].cost = d * q->cost1;
    }
  return n;
}

/* The relaxed graph over cells, searched backward from the goal: the
** predecessors p = c - t of cell c for every target t, where the cells all
** moves to t sweep are walkable from p, at the shortest move's cost; into
** the goal also a straight line from any walkable cell within reach (the
** last move may be worked out to a heading of the goal's own), or with
** shots within their range. Every move or shot of a path is such an edge
** at no more than its cost, so the distances are a consistent lower bound. */
static int back_expand(void *self, uint32_t cell, astar_search *s) {
  const astar_dir_query *q = (const astar_dir_query *)self;
  const astar_lattice *l = q->lat;
  const astar_grid *g = q->grid;
  const uint32_t w = (uint32_t)g->w;
  long x = (long)(cell % w), y = (long)(cell / w);
  int t, n = 0;
  astar_edge *e;
  if (x == q->gx && y == q->gy) return into_goal(q, s);
  if ((e = astar_search_edges(s, (size_t)l->nt)) == NULL) return ASTAR_ENOMEM;
  for (t = 0; t < l->nt; t++) {
    long px = x - l->tx[t], py = y - l->ty[t];
    prim p;
    if (px < 0 || py < 0 || px >= g->w || py >= g->h) continue;
    p.chunk0 = l->tchunk0[t];
    p.nchunk = l->ntchunk[t];
    if (move_clear(g, l, &p, px, py)) {
      e[n].to = (uint32_t)py * w + (uint32_t)px;
      e[n++].cost = l->tmin[t] * q->cost1;
    }
  }
  return n;
}

/* Toward the start, which is where the search asks. */
static double back_heuristic(void *self, uint32_t cell) {
  const astar_dir_query *q = (const astar_dir_query *)self;
  const uint32_t w = (uint32_t)q->grid->w;
  return sqrt(SQ((double)(cell % w) - q->sx) + SQ((double)(cell / w) - q->sy)) * q->cost1;
}

/* The relaxed distance from cell to the goal, the backward search resumed
** until it has closed the cell (HUGE_VAL if it cannot reach it; 0 once it
** ran out of memory: the search goes on with the other bounds). */
static double back_distance(astar_dir_query *q, uint32_t cell) {
  double g;
  int rc;
  if (cell == q->bcell) return q->bdist;       /* the headings of a cell come together */
  rc = astar_search_resume(q->back, cell, &g);
  if (rc < 0) {                       /* out of memory: the other bounds will do */
    q->back = NULL;
    return 0;
  }
  q->bcell = cell;
  return q->bdist = rc == 1 ? g : HUGE_VAL;
}

static double dir_heuristic(void *self, uint32_t node) {
  astar_dir_query *q = (astar_dir_query *)self;
  double x, y, h, d;
  astar_dir_pose(q, node, &x, &y, &h);
  d = sqrt(SQ(q->gx + 0.5 - x) + SQ(q->gy + 0.5 - y));
  if (q->dubins) {
    astar_curve c;
    astar_curve_dubins(&c, x, y, h, q->gx + 0.5, q->gy + 0.5, q->gh, q->lat->p.turn);
    if (c.length > d) d = c.length;
  }
  d *= q->hscale;
  if (q->back != NULL && q->hscale > 0) {
    double b = back_distance(q, (uint32_t)floor(y) * (uint32_t)q->grid->w + (uint32_t)floor(x));
    if (b > d) d = b;
  }
  return d;
}

/* Any heading at the goal cell. */
static int dir_is_goal(void *self, uint32_t node) {
  const astar_dir_query *q = (const astar_dir_query *)self;
  double x, y, h;
  astar_dir_pose(q, node, &x, &y, &h);
  return (int)x == q->gx && (int)y == q->gy;
}

void astar_dir_query_init(astar_dir_query *q) {
  memset(q, 0, sizeof *q);
  astar_params_init(&q->params);
  q->heuristic = ASTAR_H_EUCLIDEAN;
  q->snode = q->gnode = ASTAR_NONE;
  q->reach_first = 64;
  q->reach_share = 8;
}

/* The lattice's heading index of h, -1 if it is none of them. */
static int lattice_heading(const astar_dir_params *p, double h) {
  double step = TWO_PI / p->headings, u = fmod(h, TWO_PI) / step;
  double k = floor(u + 0.5);
  if (u < 0) { u += p->headings; k = floor(u + 0.5); }
  if (fabs(u - k) * step > 1e-9) return -1;
  return (int)k % p->headings;
}

/* May a unit stand at the centre of cell (x, y)? */
static int fits(const astar_grid *g, const astar_dir_params *p, int x, int y) {
  return astar_grid_line_clear(g, x + 0.5, y + 0.5, x + 0.5, y + 0.5, p->radius);
}

static int prepare_ends(astar_dir_query *q, uint32_t *goal) {
  const astar_dir_params *p = &q->lat->p;
  const uint32_t H = (uint32_t)p->headings, w = (uint32_t)q->grid->w;
  uint32_t sc = (uint32_t)q->sy * w + (uint32_t)q->sx, gc = (uint32_t)q->gy * w + (uint32_t)q->gx;
  uint32_t base = (uint32_t)q->grid->w * (uint32_t)q->grid->h * H;
  int k = q->sh == q->sh ? lattice_heading(p, q->sh) : -2;
  q->nstarts = 0;
  if (k == -2)
    for (k = 0; k < (int)H; k++) q->starts[q->nstarts++] = sc * H + (uint32_t)k;
  else if (k >= 0) q->starts[q->nstarts++] = sc * H + (uint32_t)k;
  else q->starts[q->nstarts++] = q->snode = base;
  q->domain.is_goal = NULL;
  k = q->gh == q->gh ? lattice_heading(p, q->gh) : -2;
  if (k == -2) {
    *goal = gc * H;
    q->domain.is_goal = dir_is_goal;
    if (q->shots) q->gnode = base + 1;      /* where shots arrive, facing as they do */
  } else if (k >= 0) {
    *goal = gc * H + (uint32_t)k;
  } else {
    *goal = q->gnode = base + 1;
  }
  q->shot_to = q->gnode != ASTAR_NONE ? q->gnode : *goal;
  return 0;
}

int astar_dir_prepare(astar_grid *g, const astar_lattice *l, astar_dir_query *q, int sx,
                      int sy, double sh, int gx, int gy, double gh, uint32_t *goal) {
  const astar_dir_params *p = &l->p;
  double cells = (double)g->w * (double)g->h;
  int rc, t;
  if (sx < 0 || sy < 0 || gx < 0 || gy < 0 || sx >= g->w || sy >= g->h || gx >= g->w ||
      gy >= g->h || g->hex || g->wrap || isinf(sh) || isinf(gh) ||
      cells * p->headings + 2 > (double)UINT32_MAX ||
      (q->heuristic != ASTAR_H_EUCLIDEAN && q->heuristic != ASTAR_H_ZERO))
    return ASTAR_EINVAL;
  if ((rc = astar__grid_bits(g)) != 0) return rc;
  q->grid = g; q->lat = l;
  q->sx = sx; q->sy = sy; q->sh = sh; q->gx = gx; q->gy = gy; q->gh = gh;
  q->snode = q->gnode = ASTAR_NONE;
  q->blocked = !fits(g, p, sx, sy) ? 1 : !fits(g, p, gx, gy) ? 2 : 0;
  if (q->blocked) return ASTAR_BLOCKED;
  q->cost1 = astar_grid_min_cost(g);
  q->uniform = g->min_count == g->nwalk;
  q->hscale = q->heuristic == ASTAR_H_ZERO ? 0 : q->cost1;
  q->dubins = gh == gh && p->reverse == 0;
  for (t = 0; t < l->nt; t++) q->toff[t] = (int32_t)(l->ty[t] * g->w + l->tx[t]);
  q->domain.nnodes = (uint32_t)(cells * p->headings + 2);
  q->domain.expand = dir_expand;
  q->domain.heuristic = dir_heuristic;
  q->domain.edge_cost = NULL;
  q->domain.shortcut = NULL;
  q->domain.settle = NULL;
  q->domain.progress = NULL;
  q->domain.self = q;
  return prepare_ends(q, goal);
}

size_t astar_dir_seen_cells(const astar_grid *g) { return (size_t)g->w * (size_t)g->h; }

int astar_dir_begin(astar_search *s, astar_dir_query *q, uint32_t goal) {
  if (q->seen != NULL) {
    astar_dir_seen *m = q->seen;
    if (m->cells < astar_dir_seen_cells(q->grid)) return ASTAR_EINVAL;
    if (++m->cur == 0) {             /* a new search's rows are those of another gen */
      memset(m->gen, 0, m->cells * sizeof *m->gen);
      m->cur = 1;
    }
  }
  q->bcell = ASTAR_NONE;
  reach_begin(q, goal);
  if (q->back != NULL && q->hscale > 0) {
    astar_params p;
    int rc;
    astar_params_init(&p);
    memset(&q->bdomain, 0, sizeof q->bdomain);
    q->bdomain.nnodes = (uint32_t)q->grid->w * (uint32_t)q->grid->h;
    q->bdomain.expand = back_expand;
    q->bdomain.heuristic = back_heuristic;
    q->bdomain.self = q;
    rc = astar_search_begin(q->back, &q->bdomain,
                            (uint32_t)q->gy * (uint32_t)q->grid->w + (uint32_t)q->gx,
                            ASTAR_NONE, &p);
    if (rc != 0) return rc;
  }
  return astar_search_begin_multi(s, &q->domain, q->starts, NULL, q->nstarts, goal, &q->params);
}

/* The cost of the move from node a to b in direction d on the lattice (or
** worked out, from or to a pose off it), its curve in *c; -1 if not clear. */
static double step_move(const astar_dir_query *q, uint32_t a, uint32_t b, int d,
                        astar_curve *c) {
  const astar_lattice *l = q->lat;
  const uint32_t H = H_OF(q), w = (uint32_t)q->grid->w;
  double x0, y0, h0, x1, y1, h1;
  long dx, dy, t;
  const prim *p;
  astar_dir_pose(q, a, &x0, &y0, &h0);
  astar_dir_pose(q, b, &x1, &y1, &h1);
  move_curve(c, x0, y0, h0, x1, y1, h1, d, l->p.turn);
  dx = (long)floor(x1) - (long)floor(x0);
  dy = (long)floor(y1) - (long)floor(y0);
  if (a == q->snode || (t = target_of(l, dx, dy)) < 0) return fly_curve(q, c, d);
  p = l->prim + (((a % H) * (size_t)l->nt + (size_t)t) * H + b % H) * (size_t)l->nd + (d < 0);
  return move_clear(q->grid, l, p, (long)(a / H % w), (long)(a / H / w))
         ? move_cost(q, p, (long)(a / H % w), (long)(a / H / w)) : -1;
}

double astar_dir_step(const astar_dir_query *q, uint32_t a, uint32_t b, astar_curve *c,
                      int *dir) {
  double best = -1, x, y, h;
  int d;
  astar_dir_pose(q, a, &x, &y, &h);
  *dir = 1;
  for (d = 1; d >= (q->lat->nd == 2 ? -1 : 1); d -= 2) {
    astar_curve cv;
    double cost;
    if (b != q->gnode && (cost = step_move(q, a, b, d, &cv)) >= 0 &&
        (best < 0 || cost < best)) {
      best = cost; *dir = d; *c = cv;
    }
    if (b == q->shot_to && (q->shots || b == q->gnode) && shot_curve(q, x, y, h, d, &cv) &&
        (cost = fly_curve(q, &cv, d)) >= 0 && (best < 0 || cost < best)) {
      best = cost; *dir = d; *c = cv;
    }
  }
  if (best < 0) step_move(q, a, b, 1, c);         /* no longer clear: the forward curve */
  return best;
}
