/*
** grid_coop.c - cooperative paths (Silver 2005): the space-time reservation
** table, and Cooperative A* / WHCA* as a domain of (cell, time) states that
** the engine searches like any other, its moves the grid query's own.
*/
#include <math.h>
#include <string.h>
#include "grid_impl.h"

#define NONE ASTAR_NONE
#define TOMB (ASTAR_NONE - 1)   /* a (cell, time) entry dropped by release */

/* ---------------------------------------------------------------------- */
/* The reservation table                                                    */
/* ---------------------------------------------------------------------- */

/* (x, y, t) -> unit; unit NONE: empty slot, TOMB: dropped. */
typedef struct sent {
  int32_t x, y, t;
  uint32_t unit;
} sent;

/* (x, y) -> what the cell's entries need: the latest time of any entry
** there (an upper bound: release keeps it), and the unit holding the cell
** forever from hold_t (NONE: none). used == 0: an empty slot. */
typedef struct cent {
  int32_t x, y, last, hold_t;
  uint32_t hold, used;
} cent;

struct astar_resv {
  astar_mem mem;
  sent *st;
  size_t cst, nst, ntomb;
  cent *ce;
  size_t cce, nce, nheld;
  long last;               /* the latest time named, -1 if none */
};

static size_t skey(const astar_resv *r, int x, int y, long t) {
  uint64_t k = ((uint64_t)(uint32_t)x << 32 | (uint32_t)y) ^
               ((uint64_t)(uint32_t)t * 0x9e3779b97f4a7c15ULL);
  return (size_t)astar__hash64(k) & (r->cst - 1);
}

static size_t ckey(const astar_resv *r, int x, int y) {
  return (size_t)astar__hash64((uint64_t)(uint32_t)x << 32 | (uint32_t)y) & (r->cce - 1);
}

/* The slot of entry (x, y, t), or NONE. */
static size_t sfind(const astar_resv *r, int x, int y, long t) {
  size_t i;
  if (r->nst == 0) return NONE;
  for (i = skey(r, x, y, t);; i = (i + 1) & (r->cst - 1)) {
    const sent *e = &r->st[i];
    if (e->unit == NONE) return NONE;
    if (e->unit != TOMB && e->x == x && e->y == y && e->t == t) return i;
  }
}

static cent *cfind(const astar_resv *r, int x, int y) {
  size_t i;
  if (r->nce == 0) return NULL;
  for (i = ckey(r, x, y);; i = (i + 1) & (r->cce - 1)) {
    cent *e = &r->ce[i];
    if (!e->used) return NULL;
    if (e->x == x && e->y == y) return e;
  }
}

/* Puts entry (x, y, t) -> unit (room ensured); an entry there is replaced. */
static void sput(astar_resv *r, int x, int y, long t, uint32_t unit) {
  size_t i, tomb = NONE;
  for (i = skey(r, x, y, t);; i = (i + 1) & (r->cst - 1)) {
    sent *e = &r->st[i];
    if (e->unit == NONE) break;
    if (e->unit == TOMB) { if (tomb == NONE) tomb = i; continue; }
    if (e->x == x && e->y == y && e->t == t) { e->unit = unit; return; }
  }
  if (tomb != NONE) { i = tomb; r->ntomb--; }
  r->st[i].x = x; r->st[i].y = y; r->st[i].t = (int32_t)t; r->st[i].unit = unit;
  r->nst++;
}

/* The record of cell (x, y), made if need be (room ensured). */
static cent *cget(astar_resv *r, int x, int y) {
  size_t i;
  for (i = ckey(r, x, y);; i = (i + 1) & (r->cce - 1)) {
    cent *e = &r->ce[i];
    if (!e->used) {
      e->used = 1; e->x = x; e->y = y; e->last = -1; e->hold = NONE; e->hold_t = 0;
      r->nce++;
      return e;
    }
    if (e->x == x && e->y == y) return e;
  }
}

/* Room for 'need' more entries and cells at a load of at most 3/4: 0 or
** ASTAR_ENOMEM (nothing changed). Rehashing drops the tombstones. */
static int room(astar_resv *r, size_t need) {
  if ((r->nst + r->ntomb + need) * 4 > r->cst * 3) {
    size_t cap = 16, i, ocap;
    sent *t, *old = r->st;
    while (cap * 3 < (r->nst + need) * 8) {
      if (cap > SIZE_MAX / sizeof(sent) / 4) return ASTAR_ENOMEM;
      cap *= 2;
    }
    t = (sent *)astar__alloc(&r->mem, cap * sizeof *t);
    if (t == NULL) return ASTAR_ENOMEM;
    memset(t, 0xff, cap * sizeof *t);                /* unit NONE everywhere */
    ocap = r->cst;
    r->st = t;
    r->cst = cap;
    r->nst = r->ntomb = 0;
    for (i = 0; i < ocap; i++)
      if (old[i].unit != NONE && old[i].unit != TOMB)
        sput(r, old[i].x, old[i].y, old[i].t, old[i].unit);
    astar__free(&r->mem, old, ocap * sizeof *old);
  }
  if ((r->nce + need) * 4 > r->cce * 3) {
    size_t cap = 16, i, ocap = r->cce;
    cent *t, *old = r->ce;
    while (cap * 3 < (r->nce + need) * 8) {
      if (cap > SIZE_MAX / sizeof(cent) / 4) return ASTAR_ENOMEM;
      cap *= 2;
    }
    t = (cent *)astar__alloc(&r->mem, cap * sizeof *t);
    if (t == NULL) return ASTAR_ENOMEM;
    memset(t, 0, cap * sizeof *t);
    r->ce = t;
    r->cce = cap;
    r->nce = 0;
    for (i = 0; i < ocap; i++)
      if (old[i].used) *cget(r, old[i].x, old[i].y) = old[i];
    astar__free(&r->mem, old, ocap * sizeof *old);
  }
  return 0;
}

int astar_resv_new(astar_resv **out, astar_alloc alloc, void *ud) {
  astar_mem m;
  astar_resv *r;
  m.fn = alloc; m.ud = ud; m.allocs = 0;
  r = (astar_resv *)astar__alloc(&m, sizeof *r);
  *out = r;
  if (r == NULL) return ASTAR_ENOMEM;
  memset(r, 0, sizeof *r);
  r->mem = m;
  r->last = -1;
  return 0;
}

void astar_resv_free(astar_resv *r) {
  astar_mem m;
  if (r == NULL) return;
  m = r->mem;
  astar__free(&m, r->st, r->cst * sizeof *r->st);
  astar__free(&m, r->ce, r->cce * sizeof *r->ce);
  astar__free(&m, r, sizeof *r);
}

void astar_resv_clear(astar_resv *r) {
  if (r->st != NULL) memset(r->st, 0xff, r->cst * sizeof *r->st);
  if (r->ce != NULL) memset(r->ce, 0, r->cce * sizeof *r->ce);
  r->nst = r->ntomb = r->nce = r->nheld = 0;
  r->last = -1;
}

size_t astar_resv_allocs(const astar_resv *r) { return r->mem.allocs; }
long astar_resv_last(const astar_resv *r) { return r->last; }

size_t astar_resv_count(const astar_resv *r, size_t *held) {
  if (held != NULL) *held = r->nheld;
  return r->nst;
}

uint32_t astar_resv_holder(const astar_resv *r, int x, int y, long t) {
  size_t i = sfind(r, x, y, t);
  const cent *c;
  if (i != NONE) return r->st[i].unit;
  c = r->nheld > 0 ? cfind(r, x, y) : NULL;
  return c != NULL && c->hold != NONE && t >= c->hold_t ? c->hold : NONE;
}

/* Is the holder h another unit than u? */
#define OTHER(h, u) ((h) != NONE && (h) != (u))

/* Does a unit other than u hold (x, y) at some time after t? Sets *who. */
static int held_after(const astar_resv *r, int x, int y, long t, uint32_t u, uint32_t *who) {
  const cent *c = cfind(r, x, y);
  long k;
  if (c == NULL) return 0;
  if (OTHER(c->hold, u)) { *who = c->hold; return 1; }
  for (k = t + 1; k <= c->last; k++) {
    size_t i = sfind(r, x, y, k);
    if (i != NONE && OTHER(r->st[i].unit, u)) { *who = r->st[i].unit; return 1; }
  }
  return 0;
}

static int goodtime(long t) { return t >= 0 && t <= ASTAR_COOP_TMAX; }

static void named(astar_resv *r, cent *c, long t) {
  if (t > c->last) c->last = (int32_t)t;
  if (t > r->last) r->last = t;
}

int astar_resv_reserve(astar_resv *r, int x, int y, long t, uint32_t unit) {
  uint32_t h;
  if (!goodtime(t) || unit > ASTAR_COOP_UNIT_MAX) return ASTAR_EINVAL;
  h = astar_resv_holder(r, x, y, t);
  if (OTHER(h, unit)) return ASTAR_EINVAL;
  if (room(r, 1)) return ASTAR_ENOMEM;
  sput(r, x, y, t, unit);
  named(r, cget(r, x, y), t);
  return 0;
}

int astar_resv_hold(astar_resv *r, int x, int y, long t, uint32_t unit) {
  uint32_t who;
  cent *c;
  if (!goodtime(t) || unit > ASTAR_COOP_UNIT_MAX) return ASTAR_EINVAL;
  if (OTHER(astar_resv_holder(r, x, y, t), unit) || held_after(r, x, y, t, unit, &who))
    return ASTAR_EINVAL;
  if (room(r, 1)) return ASTAR_ENOMEM;
  c = cget(r, x, y);
  if (c->hold == NONE) r->nheld++;
  if (c->hold != unit || t < c->hold_t) c->hold_t = (int32_t)t;
  c->hold = unit;
  named(r, c, t);
  return 0;
}

/* A conflict for u moving from (ax, ay) at t - 1 to (bx, by) at t: 1 and
** the other unit in *who. */
static int conflict(const astar_resv *r, int ax, int ay, int bx, int by, long t, uint32_t u,
                    uint32_t *who) {
  uint32_t h = astar_resv_holder(r, bx, by, t);
  if (OTHER(h, u)) { *who = h; return 1; }
  if (ax == bx && ay == by) return 0;
  h = astar_resv_holder(r, bx, by, t - 1);           /* a swap: h goes b -> a */
  if (OTHER(h, u) && astar_resv_holder(r, ax, ay, t) == h) { *who = h; return 1; }
  return 0;
}

int astar_resv_check(const astar_resv *r, const int *xy, size_t n, long t0, int hold,
                     uint32_t unit, size_t *at, uint32_t *who) {
  size_t i;
  for (i = 0; i < n; i++) {
    const int *p = xy + 2 * i, *q = i > 0 ? p - 2 : p;
    if (conflict(r, q[0], q[1], p[0], p[1], t0 + (long)i, unit, who)) { *at = i; return ASTAR_NO_PATH; }
  }
  if (hold && n > 0 && held_after(r, xy[2 * n - 2], xy[2 * n - 1], t0 + (long)n - 1, unit, who)) {
    *at = n - 1;
    return ASTAR_NO_PATH;
  }
  return ASTAR_FOUND;
}

size_t astar_resv_release(astar_resv *r, uint32_t unit) {
  size_t i, k = 0;
  for (i = 0; i < r->cst && r->nst > 0; i++)
    if (r->st[i].unit == unit) { r->st[i].unit = TOMB; r->nst--; r->ntomb++; k++; }
  for (i = 0; i < r->cce && r->nheld > 0; i++)
    if (r->ce[i].used && r->ce[i].hold == unit) { r->ce[i].hold = NONE; r->nheld--; k++; }
  return k;
}

int astar_resv_take(astar_resv *r, const int *xy, size_t n, long t0, int hold, uint32_t unit) {
  size_t i;
  if (unit > ASTAR_COOP_UNIT_MAX || !goodtime(t0) || (n > 0 && !goodtime(t0 + (long)n - 1)))
    return ASTAR_EINVAL;
  if (n > (SIZE_MAX >> 4) || room(r, n + 1)) return ASTAR_ENOMEM;
  astar_resv_release(r, unit);
  for (i = 0; i < n; i++) {
    long t = t0 + (long)i;
    sput(r, xy[2 * i], xy[2 * i + 1], t, unit);
    named(r, cget(r, xy[2 * i], xy[2 * i + 1]), t);
  }
  if (hold && n > 0) {
    cent *c = cget(r, xy[2 * n - 2], xy[2 * n - 1]);
    if (c->hold == NONE) r->nheld++;
    c->hold = unit;
    c->hold_t = (int32_t)(t0 + (long)n - 1);
  }
  return 0;
}


/* ---------------------------------------------------------------------- */
/* The space-time search                                                    */
/* ---------------------------------------------------------------------- */

/* A slot of the state table: (time offset << 32 | grid node) -> state id,
** valid when its stamp is the search's. */
typedef struct tslot {
  uint64_t key;
  uint32_t id, stamp;
} tslot;

typedef struct astar_coop_work {
  astar_mem mem;
  struct { uint32_t cell, tofs; } *st;   /* state id -> grid node, time - t0 */
  size_t cstate, nstate;
  tslot *tab;
  size_t ctab;
  uint32_t stamp;
  int *xy;                 /* the path's cells */
  size_t cxy;
  astar_grid_query bq;     /* the backward search's query */
  astar_grid_query fq;     /* WHCA*: the grid path's query */
  int *tail;               /* WHCA*: the grid path's cells from the target on */
  size_t ctail, ntail;
  double dq;               /* WHCA*: the cost from the target to the goal */
  uint32_t qnode;          /* WHCA*: the target, the backward search's start */
  long tfree;              /* the first time the unit may end at the goal */
  double tstep;            /* the least a step costs (0: unknown) */
} astar_coop_work;

void astar_coop_query_init(astar_coop_query *cq) {
  memset(cq, 0, sizeof *cq);
  astar_grid_query_init(&cq->q);
  cq->unit = NONE;
  cq->wait_cost = 1;
  cq->w = NULL;
}

void astar_coop_query_free(astar_coop_query *cq) {
  astar_coop_work *w = cq->w;
  astar_mem m;
  if (w == NULL) return;
  m = w->mem;
  astar__free(&m, w->st, w->cstate * sizeof *w->st);
  astar__free(&m, w->tab, w->ctab * sizeof *w->tab);
  astar__free(&m, w->xy, w->cxy * sizeof *w->xy);
  astar__free(&m, w->tail, w->ctail * sizeof *w->tail);
  astar__free(&m, w, sizeof *w);
  cq->w = NULL;
}

size_t astar_coop_allocs(const astar_coop_query *cq) {
  return cq->w != NULL ? cq->w->mem.allocs : 0;
}

static uint32_t tfind(const astar_coop_work *w, uint64_t key, size_t *slot) {
  size_t i = (size_t)astar__hash64(key) & (w->ctab - 1);
  while (w->tab[i].stamp == w->stamp) {
    if (w->tab[i].key == key) return w->tab[i].id;
    i = (i + 1) & (w->ctab - 1);
  }
  *slot = i;
  return NONE;
}

/* The id of state (node, ofs), numbered if new; NONE when out of memory. */
static uint32_t intern(astar_coop_work *w, uint32_t node, uint32_t ofs) {
  uint64_t key = (uint64_t)ofs << 32 | node;
  size_t slot = 0, i;
  uint32_t id = w->ctab > 0 ? tfind(w, key, &slot) : NONE;
  if (id != NONE) return id;
  if (w->nstate >= NONE - 2) return NONE;
  if (w->nstate == w->cstate &&
      astar__reserve(&w->mem, (void **)&w->st, &w->cstate, w->nstate + 1, sizeof *w->st))
    return NONE;
  if ((w->nstate + 1) * 2 > w->ctab) {             /* grow: number the states again */
    size_t cap = w->ctab ? w->ctab * 2 : 1024;
    tslot *t = (tslot *)astar__alloc(&w->mem, cap * sizeof *t);
    if (t == NULL) return NONE;
    memset(t, 0, cap * sizeof *t);
    astar__free(&w->mem, w->tab, w->ctab * sizeof *w->tab);
    w->tab = t;
    w->ctab = cap;
    w->stamp = 1;
    for (i = 0; i < w->nstate; i++) {
      uint64_t k = (uint64_t)w->st[i].tofs << 32 | w->st[i].cell;
      tfind(w, k, &slot);
      w->tab[slot].key = k;
      w->tab[slot].id = (uint32_t)i;
      w->tab[slot].stamp = w->stamp;
    }
    tfind(w, key, &slot);
  }
  id = (uint32_t)w->nstate++;
  w->st[id].cell = node;
  w->st[id].tofs = ofs;
  w->tab[slot].key = key;
  w->tab[slot].id = id;
  w->tab[slot].stamp = w->stamp;
  return id;
}

/* The true distance from grid node 'node' to the goal (HUGE_VAL: none). */
static double dist(astar_coop_query *cq, uint32_t node) {
  double g;
  int rc;
  if (cq->err) return 0;
  rc = astar_search_resume(cq->back, node, &g);
  if (rc < 0) { cq->err = rc; return 0; }
  return rc == 1 ? g : HUGE_VAL;
}

static int coop_expand(void *self, uint32_t id, astar_search *s) {
  astar_coop_query *cq = (astar_coop_query *)self;
  astar_coop_work *w = cq->w;
  const astar_grid *g = cq->q.grid;
  const uint32_t node = w->st[id].cell, ofs = w->st[id].tofs;
  const long t = cq->t0 + (long)ofs, nt = t + 1;
  uint32_t nofs = cq->window == 0 && nt > cq->tcap ? ofs : ofs + 1, who;
  int n, i, k = 0, ax, ay;
  astar_edge *e;
  if (cq->err) return cq->err;
  n = cq->q.domain.expand(cq->q.domain.self, node, s);
  if (n < 0) return n;
  if ((e = astar_search_edges(s, (size_t)n + 1)) == NULL) return ASTAR_ENOMEM;
  astar_grid_cell(g, node, &ax, &ay);
  for (i = 0; i < n; i++) {
    int bx, by;
    uint32_t to;
    astar_grid_cell(g, e[i].to, &bx, &by);
    if (conflict(cq->resv, ax, ay, bx, by, nt, cq->unit, &who) || dist(cq, e[i].to) == HUGE_VAL)
      continue;
    if ((to = intern(w, e[i].to, nofs)) == NONE) return ASTAR_ENOMEM;
    e[k].to = to;
    e[k++].cost = e[i].cost;
  }
  if (cq->err) return cq->err;
  if (cq->wait_cost > 0 && nofs != ofs &&
      !OTHER(astar_resv_holder(cq->resv, ax, ay, nt), cq->unit)) {
    uint32_t to = intern(w, node, nofs);
    if (to == NONE) return ASTAR_ENOMEM;
    e[k].to = to;
    e[k++].cost = cq->wait_cost;
  }
  return k;
}

static double coop_h(void *self, uint32_t id) {
  astar_coop_query *cq = (astar_coop_query *)self;
  uint32_t c = cq->w->st[id].cell;
  double h, ht;
  if (cq->w->dq > 0 && c == cq->gnode) return 0;   /* WHCA*: the goal before the target */
  h = dist(cq, c) + cq->w->dq;
  /* without a window the path ends at the goal no sooner than tfree, and every
  ** step, move or wait, costs at least tstep: a bound that spares the search
  ** the waits it would otherwise try everywhere before the goal is free */
  ht = cq->window == 0 ? (double)(cq->w->tfree - cq->t0 - (long)cq->w->st[id].tofs) *
                         cq->w->tstep : 0;
  return ht > h ? ht : h;
}

/* How many steps along the grid path WHCA*'s target lies: beyond the window,
** so that the steps the window plans head where the path goes on. */
#define TARGET_STEPS(window) (2 * (window) + 8)

static int tailpush(astar_coop_work *w, int x, int y) {
  if (w->ntail + 2 > w->ctail &&
      astar__reserve(&w->mem, (void **)&w->tail, &w->ctail, w->ntail + 2, sizeof *w->tail))
    return ASTAR_ENOMEM;
  w->tail[w->ntail++] = x;
  w->tail[w->ntail++] = y;
  return 0;
}

/*
** WHCA*: the shortest grid path from (sx, sy) to (gx, gy) (jumping where the
** grid allows: few expansions), searched in cq->back; its cell TARGET_STEPS
** steps on (or the goal) becomes the target: w->tail gets the cells from it
** to the goal, w->dq their cost, w->qnode the target. The window's search
** then needs true distances to the target only, from a backward search that
** goes no further than it (Silver's WHCA* takes them to the goal, which costs
** a whole search from the goal). Returns 0 or a status.
*/
static int window_target(astar_grid *g, astar_coop_query *cq, int sx, int sy, int gx, int gy) {
  astar_coop_work *w = cq->w;
  const uint32_t *nodes;
  double total, ga = 0, gb, gq = 0;
  uint32_t parent;
  long n, i, steps = 0, k = -1;
  int rc, x, y;
  w->fq = cq->q;
  w->fq.jump = ASTAR_JUMP_AUTO;
  astar_params_init(&w->fq.params);
  rc = astar_grid_find(g, cq->back, &w->fq, sx, sy, gx, gy);
  if (rc != ASTAR_FOUND) return rc;
  n = astar_search_path(cq->back, &nodes, &total);
  if (n <= 0) return n < 0 ? (int)n : ASTAR_NO_PATH;
  /* walk the path to the target, then keep the cells from it on */
  w->ntail = 0;
  astar_grid_cell(g, nodes[0], &x, &y);
  for (i = 1; i < n && k < 0; i++) {
    int bx, by;
    double c;
    astar_grid_cell(g, nodes[i], &bx, &by);
    astar_search_node(cq->back, nodes[i], &gb, &parent);
    c = astar_grid_link_cost(g, x, y, bx, by);
    while ((x != bx || y != by) && k < 0) {
      int px = x, py = y;
      if (!w->fq.jps || (c > 0 && ga + c == gb)) {           /* one step (or a link) */
        x = bx; y = by; ga = gb;
      } else {
        astar_grid_toward(&w->fq, &x, &y, bx, by);
        ga += (x != px && y != py ? SQRT2 : 1.0) * astar_grid_get(g, x, y);
        if (x == bx && y == by) ga = gb;
      }
      if (++steps >= TARGET_STEPS(cq->window)) { k = i; gq = ga; }
    }
  }
  if (k < 0) { x = gx; y = gy; gq = total; }
  w->qnode = astar_grid_node(g, x, y);
  w->dq = total - gq;
  /* the tail: the target, the cells to the node after it, then the rest */
  if (tailpush(w, x, y)) return ASTAR_ENOMEM;
  for (i = k < 0 ? n : k; i < n; i++) {
    int bx, by;
    astar_grid_cell(g, nodes[i], &bx, &by);
    while (x != bx || y != by) {
      if (!w->fq.jps || astar_grid_link_cost(g, x, y, bx, by) > 0) { x = bx; y = by; }
      else astar_grid_toward(&w->fq, &x, &y, bx, by);
      if (tailpush(w, x, y)) return ASTAR_ENOMEM;
    }
  }
  w->ntail /= 2;
  return 0;
}

/* Can the unit stay at the goal from time t on? */
static int stays(const astar_coop_query *cq, long t) {
  uint32_t who;
  return !held_after(cq->resv, cq->gx, cq->gy, t, cq->unit, &who);
}

static int coop_is_goal(void *self, uint32_t id) {
  const astar_coop_query *cq = (const astar_coop_query *)self;
  const astar_coop_work *w = cq->w;
  if (cq->window > 0 && w->st[id].tofs >= (uint32_t)cq->window) return 1;
  return w->st[id].cell == cq->gnode && stays(cq, cq->t0 + (long)w->st[id].tofs);
}

static double coop_edge_cost(void *self, uint32_t from, uint32_t to, double base) {
  astar_coop_query *cq = (astar_coop_query *)self;
  uint32_t a = cq->w->st[from].cell, b = cq->w->st[to].cell;
  if (a == b) return base;                           /* a wait */
  return cq->q.domain.edge_cost(cq->q.domain.self, a, b, base);
}

/* Can query cq run as a cooperative search on 's'? */
static int coop_valid(const astar_coop_query *cq, const astar_search *s) {
  const astar_grid_query *q = &cq->q;
  return !(cq->resv == NULL || cq->back == NULL || cq->back == s || q->theta || q->radius != 0 ||
           q->size_w > 1 || q->size_h > 1 || q->goals != NULL || q->within >= 0 ||
           q->overlay != NULL || q->h_fn != NULL || !goodtime(cq->t0) || cq->window < 0 ||
           cq->window > ASTAR_COOP_TMAX - cq->t0 - 1 || !(cq->wait_cost >= 0) ||
           !(cq->wait_cost <= ASTAR_NUM_MAX) ||
           (cq->unit > ASTAR_COOP_UNIT_MAX && cq->unit != NONE));
}

/* The query's working memory, made by its first search. */
static int coop_work(astar_coop_query *cq) {
  astar_coop_work *w;
  astar_mem m;
  if (cq->w != NULL) return 0;
  m.fn = cq->alloc; m.ud = cq->ud; m.allocs = 0;
  if (m.fn == NULL) return ASTAR_EINVAL;
  w = (astar_coop_work *)astar__alloc(&m, sizeof *w);
  if (w == NULL) return ASTAR_ENOMEM;
  memset(w, 0, sizeof *w);
  w->mem = m;
  cq->w = w;
  return 0;
}

/* ASTAR_BLOCKED if another unit holds the start at t0 (cq->blocked 1) or
** the goal for good (2), naming it in cq->blocker; else 0. */
static int ends_held(astar_coop_query *cq, int sx, int sy, int gx, int gy) {
  uint32_t who = astar_resv_holder(cq->resv, sx, sy, cq->t0);
  const cent *c;
  if (OTHER(who, cq->unit)) { cq->blocked = 1; cq->blocker = who; return ASTAR_BLOCKED; }
  c = cfind(cq->resv, gx, gy);
  if (c != NULL && OTHER(c->hold, cq->unit)) {
    cq->blocked = 2; cq->blocker = c->hold;
    return ASTAR_BLOCKED;
  }
  return 0;
}

/* The backward search that gives the heuristic: q's moves, reversed, from
** the goal (WHCA*: from a target on the grid path). */
static int coop_back(astar_grid *g, astar_coop_query *cq, int sx, int sy, int gx, int gy,
                     uint32_t goal) {
  astar_coop_work *w = cq->w;
  int qx, qy, rc;
  w->dq = 0;
  w->qnode = goal;
  w->ntail = 0;
  if (cq->window > 0 && (rc = window_target(g, cq, sx, sy, gx, gy)) != 0) return rc;
  w->bq = cq->q;
  w->bq.params.max_cost = HUGE_VAL;
  astar_grid_cell(g, w->qnode, &qx, &qy);
  return astar_grid_back_begin(g, cq->back, &w->bq, qx, qy, sx, sy);
}

/* When the goal is free for good (after the last time another unit is
** there), the least a step costs, and the last time the table knows. */
static void coop_times(astar_grid *g, astar_coop_query *cq, int gx, int gy) {
  astar_coop_work *w = cq->w;
  const cent *c = cfind(cq->resv, gx, gy);
  long t;
  w->tfree = cq->t0;
  for (t = c != NULL ? c->last : -1; t > cq->t0; t--) {
    size_t i = sfind(cq->resv, gx, gy, t);
    if (i != NONE && OTHER(cq->resv->st[i].unit, cq->unit)) { w->tfree = t + 1; break; }
  }
  w->tstep = g->nlinks > 0 || cq->q.domain.edge_cost != NULL ? 0 : astar_grid_min_cost(g);
  if (cq->wait_cost < w->tstep) w->tstep = cq->wait_cost;
  /* after the table's last time nothing changes: later times are one */
  cq->tcap = astar_resv_last(cq->resv) + 1;
  if (cq->tcap < cq->t0) cq->tcap = cq->t0;
}

int astar_coop_begin(astar_grid *g, astar_search *s, astar_coop_query *cq, int sx, int sy,
                     int gx, int gy) {
  astar_grid_query *q = &cq->q;
  astar_coop_work *w;
  uint32_t start, goal;
  double d;
  int rc;
  cq->blocked = 0;
  cq->blocker = NONE;
  cq->err = 0;
  if (!coop_valid(cq, s)) return ASTAR_EINVAL;
  if ((rc = coop_work(cq)) != 0) return rc;
  w = cq->w;
  q->jump = ASTAR_JUMP_NEVER;
  cq->sx = sx; cq->sy = sy; cq->gx = gx; cq->gy = gy;
  rc = astar_grid_prepare(g, q, sx, sy, gx, gy, &start, &goal);
  if (rc == ASTAR_BLOCKED) cq->blocked = q->blocked;
  if (rc != 0) return rc;
  cq->gnode = goal;
  if ((rc = ends_held(cq, sx, sy, gx, gy)) != 0 ||
      (rc = coop_back(g, cq, sx, sy, gx, gy, goal)) != 0)
    return rc;
  d = dist(cq, start);
  if (cq->err) return cq->err;
  if (d == HUGE_VAL) return ASTAR_NO_PATH;
  coop_times(g, cq, gx, gy);
  /* a new numbering of states (the table keeps its memory) */
  w->nstate = 0;
  if (++w->stamp == 0) {
    if (w->tab != NULL) memset(w->tab, 0, w->ctab * sizeof *w->tab);
    w->stamp = 1;
  }
  if ((start = intern(w, start, 0)) == NONE) return ASTAR_ENOMEM;
  cq->domain.nnodes = 0;                             /* unbounded: states as met */
  cq->domain.expand = coop_expand;
  cq->domain.heuristic = coop_h;
  cq->domain.is_goal = coop_is_goal;
  cq->domain.edge_cost = q->domain.edge_cost != NULL ? coop_edge_cost : NULL;
  cq->domain.shortcut = NULL;
  cq->domain.settle = NULL;
  cq->domain.progress = NULL;
  cq->domain.self = cq;
  return astar_search_begin(s, &cq->domain, start, ASTAR_NONE, &q->params);
}

long astar_coop_path(astar_coop_query *cq, astar_search *s, const int **xy, size_t *planned,
                     double *cost, int *holds) {
  astar_coop_work *w = cq->w;
  const astar_grid *g = cq->q.grid;
  const uint32_t *nodes;
  long n = astar_search_path(s, &nodes, cost), i;
  size_t total, k;
  uint32_t c, parent;
  double dg;
  int found = astar_search_end(s) != NONE && w != NULL && n > 0;
  *xy = NULL; *planned = 0; *holds = 0;
  if (n <= 0 || !found) return n < 0 ? n : 0;
  total = (size_t)n;
  c = w->st[nodes[n - 1]].cell;
  /* WHCA*: on from the window's end along the backward search's tree to the
  ** target, then the grid path's tail */
  int on = cq->window > 0 && w->st[nodes[n - 1]].tofs >= (uint32_t)cq->window &&
           c != cq->gnode && astar_search_node(cq->back, c, &dg, &parent) == 1;
  if (on) {
    *cost += dg + w->dq;
    for (; parent != NONE; astar_search_node(cq->back, parent, &dg, &parent)) total++;
    total += w->ntail > 0 ? w->ntail - 1 : 0;
  }
  if (total > SIZE_MAX / 2 ||
      astar__reserve(&w->mem, (void **)&w->xy, &w->cxy, 2 * total, sizeof *w->xy))
    return ASTAR_ENOMEM;
  for (i = 0; i < n; i++) astar_grid_cell(g, w->st[nodes[i]].cell, &w->xy[2 * i], &w->xy[2 * i + 1]);
  for (k = (size_t)n; on && c != w->qnode; k++) {
    astar_search_node(cq->back, c, &dg, &parent);
    c = parent;
    astar_grid_cell(g, c, &w->xy[2 * k], &w->xy[2 * k + 1]);
  }
  for (i = 1; on && (size_t)i < w->ntail; i++, k++) {
    w->xy[2 * k] = w->tail[2 * i];
    w->xy[2 * k + 1] = w->tail[2 * i + 1];
  }
  *xy = w->xy;
  *planned = (size_t)n;
  *holds = w->st[nodes[n - 1]].cell == cq->gnode && stays(cq, cq->t0 + n - 1);
  return (long)total;
}
