/*
** search.c - the search engine: A*, weighted A*, Dijkstra, BFS and greedy
** best-first over any astar_domain, time-sliced, with reusable scratch.
*/
#include <float.h>
#include <math.h>
#include <string.h>
#include "core.h"

#define NONE    ASTAR_NONE   /* no parent / not on the open list */

/* Engine states besides the outcomes of astar.h. */
#define S_IDLE  (-100)

/* The sparse set's pages: 256 nodes (1 KB) each, so that a search's memory
** follows what it touches, not the size of the map (a query on a 1 M-cell
** map that touches a corner no longer holds 4 MB). Small pages also keep the
** bytes a search reports to the collector (astar_gc_settle) close to what
** they were, so the collector's pacing is unchanged; with 16 KB pages the
** finalizer specs on Lua 5.2 no longer saw a finalizer run inside a call. */
#define SLOT_BITS 8
#define SLOT_PAGE ((size_t)1 << SLOT_BITS)
/* The page of nodes no search has met: all record 0, which the sparse-set
** check refuses for them (record 0's node lives on a page of its own), so a
** lookup needs no test for a missing page. Read-only. */
static const uint32_t NOPAGE[SLOT_PAGE];

/* A node record; 'heap' is its index in the open heap, or NONE once closed. */
typedef struct node {
  double g;          /* cost of the best known path from the start */
  double h;          /* heuristic, computed once */
  uint32_t id;       /* domain node */
  uint32_t parent;   /* record index of the predecessor, or NONE */
  uint32_t heap;
  uint32_t depth;    /* edges from the start (the BFS key) */
} node;

/* An open-heap entry carries its keys, so comparisons touch only the heap. */
typedef struct hent {
  double f;
  float g;           /* for ties only (tiekey): 16 bytes an entry, not 24 */
  uint32_t rec;
} hent;

struct astar_search {
  astar_mem mem;
  const uint32_t **slot;  /* domain node -> record index (a sparse set), in pages of
                       ** SLOT_PAGE made when a node of theirs is first met (NOPAGE before) */
  size_t nslot;        /* pages the table has room for */
  node *pool;          /* records of this search, in creation order */
  size_t npool, cpool;
  hent *heap;
  size_t nheap, cheap;
  int hole;            /* heap[0] is the node being expanded, closed: see fill() */
  astar_edge *edges;
  size_t cedges;
  uint32_t *path;
  size_t cpath;
  /* the current search */
  const astar_domain *d;
  astar_params p;
  uint32_t goal;
  uint32_t found;      /* record of the goal, or NONE */
  uint32_t best;       /* record closest to the goal among those expanded */
  double bestp;        /* its progress (the domain's, or its h) */
  uint32_t cur;        /* record being expanded */
  int state;           /* S_IDLE, ASTAR_RUNNING or a final status */
  int reopen;          /* may closed records be reopened? */
  int useh;            /* is the heuristic part of f? */
  int needh;           /* is the heuristic computed at all? */
  int pruned;          /* did max_cost discard anything? */
  astar_stats st;
  /* bidirectional (astar_search_bidir), on the forward context only */
  astar_search *peer;  /* the backward context, or NULL */
  uint32_t meet;       /* record of the meeting node, or NONE */
};

const char *astar_strstatus(int status) {
  switch (status) {
    case ASTAR_FOUND: return "found";
    case ASTAR_NO_PATH: return "no path";
    case ASTAR_BLOCKED: return "start or goal blocked";
    case ASTAR_LIMIT: return "search limit reached";
    case ASTAR_RUNNING: return "running";
    case ASTAR_ENOMEM: return "not enough memory";
    case ASTAR_EINVAL: return "invalid argument";
    case ASTAR_ESTATE: return "invalid state";
    case ASTAR_ECALLBACK: return "callback failed";
    case ASTAR_EINTERNAL: return "internal error: a search passed its proven bound (please report)";
    default: return "unknown status";
  }
}

void astar_params_init(astar_params *p) {
  p->algorithm = ASTAR_ALG_ASTAR;
  p->weight = 1.0;
  p->max_expansions = UINT64_MAX;
  p->max_cost = HUGE_VAL;
  p->partial = 0;
}

int astar_search_new(astar_search **out, astar_alloc alloc, void *ud) {
  astar_mem m;
  astar_search *s;
  m.fn = alloc; m.ud = ud; m.allocs = 0;
  s = (astar_search *)astar__alloc(&m, sizeof *s);
  *out = s;
  if (s == NULL) return ASTAR_ENOMEM;
  memset(s, 0, sizeof *s);
  s->mem = m;
  s->state = S_IDLE;
  s->found = s->best = NONE;
  s->peer = NULL;
  s->meet = NONE;
  return 0;
}

void astar_search_free(astar_search *s) {
  astar_mem m;
  if (s == NULL) return;
  m = s->mem;
  {
    size_t i;
    for (i = 0; i < s->nslot; i++)
      if (s->slot[i] != NOPAGE) astar__free(&m, (void *)s->slot[i], SLOT_PAGE * sizeof **s->slot);
  }
  astar__free(&m, s->slot, s->nslot * sizeof *s->slot);
  astar__free(&m, s->pool, s->cpool * sizeof *s->pool);
  astar__free(&m, s->heap, s->cheap * sizeof *s->heap);
  astar__free(&m, s->edges, s->cedges * sizeof *s->edges);
  astar__free(&m, s->path, s->cpath * sizeof *s->path);
  astar__free(&m, s, sizeof *s);
}

double astar_search_cost(const astar_search *s) { return s->pool[s->cur].g; }

uint32_t astar_search_from(const astar_search *s) {
  uint32_t p = s->pool[s->cur].parent;
  return p == NONE ? NONE : s->pool[p].id;
}

astar_edge *astar_search_edges(astar_search *s, size_t n) {
  if (n > s->cedges &&
      astar__reserve(&s->mem, (void **)&s->edges, &s->cedges, n, sizeof *s->edges))
    return NULL;
  return s->edges;
}

void astar_search_finish(astar_search *s, int status) {
  s->state = status;
  s->found = s->best = NONE;
  s->peer = NULL;
  s->p.partial = 0;
  memset(&s->st, 0, sizeof s->st);
}

void astar_search_drop_open(astar_search *s) {
  size_t i;
  for (i = 0; i < s->nheap; i++) s->pool[s->heap[i].rec].heap = NONE;
  s->nheap = 0;
  s->hole = 0;
  s->pruned = 0;
}

void astar_search_stats(const astar_search *s, astar_stats *st) {
  *st = s->st;
  st->allocs = s->mem.allocs;
}


/* ---------------------------------------------------------------------- */
/* Open heap: f ascending, then g descending (deeper first), then creation  */
/* order. The record of each entry knows where it is (O(log n) decrease).   */
/* ---------------------------------------------------------------------- */

/* g as a heap entry keeps it: a float, clamped (a double beyond a float's
** range has no float). Two g closer than a float tells apart tie, and
** creation order decides: the order stays total and the same on every run.
** The smaller entry made the searches 5-15% faster. */
static float tiekey(double g) {
  return g > FLT_MAX ? FLT_MAX : g < -FLT_MAX ? -FLT_MAX : (float)g;
}

HOT int before(const hent *a, const hent *b) {
  if (a->f != b->f) return a->f < b->f;
  if (a->g != b->g) return a->g > b->g;
  return a->rec < b->rec;
}

/* before(b, a) as 0 or 1, without branches: which of two children is the
** smaller is a coin toss, which a branch predictor loses half the time. */
HOT size_t right_first(const hent *a, const hent *b) {
  return (size_t)((b->f < a->f) | ((b->f == a->f) & ((b->g > a->g) |
                                                     ((b->g == a->g) & (b->rec < a->rec)))));
}

static void siftup(astar_search *s, size_t i) {
  hent e = s->heap[i];
  while (i > 0) {
    size_t up = (i - 1) / 2;
    if (!before(&e, &s->heap[up])) break;
    s->heap[i] = s->heap[up];
    s->pool[s->heap[i].rec].heap = (uint32_t)i;
    i = up;
  }
  s->heap[i] = e;
  s->pool[e.rec].heap = (uint32_t)i;
}

static void siftdown(astar_search *s, size_t i) {
  hent e = s->heap[i];
  size_t n = s->nheap;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n) c += right_first(&s->heap[c], &s->heap[c + 1]);
    if (!before(&s->heap[c], &e)) break;
    s->heap[i] = s->heap[c];
    s->pool[s->heap[i].rec].heap = (uint32_t)i;
    i = c;
  }
  s->heap[i] = e;
  s->pool[e.rec].heap = (uint32_t)i;
}

/* Removes the top entry. The hole it leaves goes down to a leaf along the
** smaller child, and the last entry rises from there (Floyd's bottom-up
** sift): one comparison a level on the way down where a plain sift makes
** two, and the last entry, a large one, seldom rises far. */
static void pop(astar_search *s) {
  size_t n = --s->nheap, i = 0;
  if (n == 0) return;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n) c += right_first(&s->heap[c], &s->heap[c + 1]);
    s->heap[i] = s->heap[c];
    s->pool[s->heap[i].rec].heap = (uint32_t)i;
    i = c;
  }
  s->heap[i] = s->heap[n];
  siftup(s, i);
}

/* The priority of record 'r' under the current algorithm. */
static double keyof(const astar_search *s, const node *r) {
  switch (s->p.algorithm) {
    case ASTAR_ALG_BFS: return (double)r->depth;
    case ASTAR_ALG_GREEDY: return r->h;
    case ASTAR_ALG_DIJKSTRA: return r->g;
    default: return s->useh ? r->g + s->p.weight * r->h : r->g;
  }
}

/*
** THE HOLE. The node expanded leaves the heap only when its successors are
** in: the first one pushed takes its place at the top and sinks (one sift
** where a pop and a push make two, and none at all when it is the next to
** expand, as a jump point ahead on the way to the goal mostly is). Until
** then heap[0] holds the closed node (s->hole), so anything else that
** moves entries first closes the hole (fill). The order is total (f, g,
** creation), so the nodes come off the heap in the same order either way.
*/
static void fill(astar_search *s) {
  if (s->hole) {
    s->hole = 0;
    pop(s);
  }
}

/* Puts record r (not on the heap) on the heap; capacity is ensured by the
** caller (the heap never holds more entries than there are records). */
static void push(astar_search *s, uint32_t r) {
  hent *e = &s->heap[s->hole ? 0 : s->nheap];
  e->f = keyof(s, &s->pool[r]);
  e->g = tiekey(s->pool[r].g);
  e->rec = r;
  if (s->hole) {
    s->hole = 0;
    siftdown(s, 0);
  } else {
    siftup(s, s->nheap++);
  }
}

/* Creates the record of domain node 'id'; returns its index or NONE (ENOMEM). */
static uint32_t newrec(astar_search *s, uint32_t id, double g, double h,
                       uint32_t parent, uint32_t depth) {
  node *r;
  if (s->npool >= NONE - 1) return NONE;
  /* the heap never holds more entries than there are records; if growing it
  ** failed last time, the pool may be ahead, so both are checked each time */
  if ((s->npool == s->cpool &&
       astar__reserve(&s->mem, (void **)&s->pool, &s->cpool, s->npool + 1, sizeof *s->pool)) ||
      (s->cheap < s->cpool &&
       astar__reserve(&s->mem, (void **)&s->heap, &s->cheap, s->cpool, sizeof *s->heap)))
    return NONE;
  if (s->slot[id >> SLOT_BITS] == NOPAGE) {
    uint32_t *pg = (uint32_t *)astar__alloc(&s->mem, SLOT_PAGE * sizeof *pg);
    if (pg == NULL) return NONE;
    memset(pg, 0, SLOT_PAGE * sizeof *pg);     /* defined contents for the sparse-set check */
    s->slot[id >> SLOT_BITS] = pg;
  }
  r = &s->pool[s->npool];
  r->g = g; r->h = h; r->id = id; r->parent = parent;
  r->heap = NONE; r->depth = depth;
  ((uint32_t *)s->slot[id >> SLOT_BITS])[id & (SLOT_PAGE - 1)] = (uint32_t)s->npool;
  s->st.generated++;
  return (uint32_t)s->npool++;
}

/* How far record r still is from the goal, for partial paths. */
static double progress(const astar_search *s, uint32_t r) {
  return s->d->progress != NULL ? s->d->progress(s->d->self, s->pool[r].id) : s->pool[r].h;
}

/* The record of domain node 'id' in this search, or NONE. */
HOT uint32_t lookup(const astar_search *s, uint32_t id) {
  uint32_t r;
  if ((id >> SLOT_BITS) >= s->nslot) return NONE;      /* unbounded domains: not met yet */
  r = s->slot[id >> SLOT_BITS][id & (SLOT_PAGE - 1)];
  return (r < s->npool && s->pool[r].id == id) ? r : NONE;
}

/* Makes the sparse set's page table cover nodes 0 .. n-1 (pages come later). */
static int cover(astar_search *s, size_t n) {
  size_t cap = s->nslot, need = (n + SLOT_PAGE - 1) >> SLOT_BITS;
  if (need <= s->nslot) return 0;
  if (astar__reserve(&s->mem, (void **)&s->slot, &cap, need, sizeof *s->slot))
    return ASTAR_ENOMEM;
  for (; s->nslot < cap; s->nslot++) s->slot[s->nslot] = NOPAGE;     /* no page yet */
  return 0;
}

int astar_search_begin_multi(astar_search *s, const astar_domain *d,
                             const uint32_t *starts, const double *g0, size_t n,
                             uint32_t goal, const astar_params *p) {
  size_t i;
  if (d == NULL || d->expand == NULL || n == 0 || (d->nnodes && goal != NONE &&
      goal >= d->nnodes) || p->algorithm < ASTAR_ALG_ASTAR ||
      p->algorithm > ASTAR_ALG_GREEDY || !(p->weight >= 1.0) || p->weight == HUGE_VAL ||
      p->max_cost != p->max_cost)
    return ASTAR_EINVAL;
  for (i = 0; i < n; i++) {
    if ((d->nnodes && starts[i] >= d->nnodes) || starts[i] == NONE) return ASTAR_EINVAL;
    if (g0 != NULL && !(g0[i] > -HUGE_VAL && g0[i] < HUGE_VAL)) return ASTAR_EINVAL;
  }
  s->state = S_IDLE;
  if (cover(s, d->nnodes)) return ASTAR_ENOMEM;
  if (astar_search_edges(s, 8) == NULL) return ASTAR_ENOMEM;
  s->d = d;
  s->p = *p;
  s->goal = goal;
  s->found = s->best = NONE;
  s->peer = NULL;
  s->meet = NONE;
  s->npool = s->nheap = 0;
  s->hole = 0;
  s->pruned = 0;
  s->st.expanded = s->st.generated = s->st.reopened = 0;
  s->useh = d->heuristic != NULL &&
            (p->algorithm == ASTAR_ALG_ASTAR || p->algorithm == ASTAR_ALG_GREEDY);
  s->needh = d->heuristic != NULL && (s->useh || p->partial);
  /* Closed nodes are final when h is consistent (the built-in heuristics);
  ** Dijkstra and A* with weight 1 reopen anyway, so that a user heuristic
  ** that is admissible but not consistent still gives shortest paths. Not
  ** any-angle searches (a shortcut hook): a line found later can make a
  ** closed node cheaper there, and the nodes already given it as their
  ** parent by a line from it would keep their old costs, above the price of
  ** their own way back (the search fuzzer's finding, seed
  ** theta_reopened_parent). Theta* closes nodes for good; with a
  ** consistent h its paths still cost no more than the best path of steps. */
  s->reopen = ((p->algorithm == ASTAR_ALG_ASTAR && p->weight == 1.0) ||
               p->algorithm == ASTAR_ALG_DIJKSTRA) && d->shortcut == NULL;
  for (i = 0; i < n; i++) {
    double g = g0 != NULL ? g0[i] : 0.0, h;
    uint32_t r;
    if (cover(s, (size_t)starts[i] + 1)) { s->state = S_IDLE; return ASTAR_ENOMEM; }
    r = lookup(s, starts[i]);
    if (r != NONE) {                     /* the same start twice: keep the cheaper */
      if (g < s->pool[r].g) {
        s->pool[r].g = g;
        s->heap[s->pool[r].heap].f = keyof(s, &s->pool[r]);
        s->heap[s->pool[r].heap].g = tiekey(g);
        siftup(s, s->pool[r].heap);
        siftdown(s, s->pool[r].heap);
      }
      continue;
    }
    h = s->needh ? d->heuristic(d->self, starts[i]) : 0.0;
    r = newrec(s, starts[i], g, h, NONE, 0);
    if (r == NONE) { s->state = S_IDLE; return ASTAR_ENOMEM; }
    push(s, r);
    if (s->best == NONE) { s->best = r; s->bestp = progress(s, r); }
  }
  s->state = ASTAR_RUNNING;
  return 0;
}

int astar_search_begin(astar_search *s, const astar_domain *d,
                       uint32_t start, uint32_t goal, const astar_params *p) {
  return astar_search_begin_multi(s, d, &start, NULL, 1, goal, p);
}

int astar_search_node(const astar_search *s, uint32_t id, double *g, uint32_t *parent) {
  uint32_t r = s->state == S_IDLE ? NONE : lookup(s, id);
  if (r == NONE) return 0;
  *g = s->pool[r].g;
  *parent = s->pool[r].parent == NONE ? NONE : s->pool[s->pool[r].parent].id;
  return s->pool[r].heap == NONE ? 1 : 2;
}

void astar_search_each(const astar_search *s, int which,
                       void (*fn)(void *ud, uint32_t node, double g, uint32_t parent),
                       void *ud) {
  size_t i;
  if (s->state == S_IDLE) return;
  for (i = 0; i < s->npool; i++) {
    const node *r = &s->pool[i];
    if (which & (r->heap == NONE ? 1 : 2))
      fn(ud, r->id, r->g, r->parent == NONE ? NONE : s->pool[r->parent].id);
  }
  if (s->peer != NULL && (which & 4)) astar_search_each(s->peer, which & 3, fn, ud);
}

void astar_search_each_closed(const astar_search *s,
                              void (*fn)(void *ud, uint32_t node, double g, uint32_t parent),
                              void *ud) {
  astar_search_each(s, 1, fn, ud);
}

/* Bidirectional: the record in the backward search of the meeting node. */
static uint32_t peer_meet(const astar_search *s) {
  return lookup(s->peer, s->pool[s->meet].id);
}

uint32_t astar_search_end(const astar_search *s) {
  if (s->state == ASTAR_FOUND && s->peer != NULL) {
    const astar_search *b = s->peer;
    uint32_t r = peer_meet(s);
    while (b->pool[r].parent != NONE) r = b->pool[r].parent;
    return b->pool[r].id;                /* the goal the backward side began at */
  }
  if (s->state == ASTAR_FOUND) return s->pool[s->found].id;
  if ((s->state == ASTAR_NO_PATH || s->state == ASTAR_LIMIT) && s->p.partial &&
      s->best != NONE)
    return s->pool[s->best].id;
  return NONE;
}

/* Is a way of cost g cheaper than the known one, g0, by more than rounding?
** Sums of the same steps in another order round differently (1 + sqrt 2 and
** sqrt 2 + 1 on a grid): taking such a way as cheaper reopened a closed node
** for one unit in the last place, 848 times a query on arena2's A* (13% of
** its expansions; on orz900d 710), every time for a gain below 1e-15 of the
** cost. So two costs within 2^-44 (6e-14) of each other count as one: a
** path may be that much above the best sum of doubles, which the sums' own
** rounding already blurs. */
static int cheaper(double g, double g0) {
  return g < g0 - fabs(g0) * 0x1p-44;
}

/* Relaxes the edges the domain wrote for record 'cur'; 'callback' and
** 'anyangle': has the domain an edge_cost and a shortcut? (constants in
** relax(), so that the plain copy has no branch on them) */
HOT int relax_as(astar_search *s, uint32_t cur, int n, const int callback, const int anyangle) {
  const astar_edge *e = s->edges;
  const astar_domain *d = s->d;    /* read once: the stores below may alias it */
  const int useh = s->needh, alg = s->p.algorithm;
  const double g0 = s->pool[cur].g, max_cost = s->p.max_cost;
  int i;
  for (i = 0; i < n; i++) {
    double g;
    uint32_t r = lookup(s, e[i].to), par = cur;
    if (callback) {       /* a user callback decides the cost */
      double c;
      if (r != NONE && s->pool[r].heap == NONE && (!s->reopen || alg == ASTAR_ALG_BFS))
        continue;                         /* closed for good: no need to ask */
      c = d->edge_cost(d->self, s->pool[cur].id, e[i].to, e[i].cost);
      if (c < 0) continue;                /* forbidden */
      g = g0 + c;
    } else {
      g = g0 + e[i].cost;
    }
    if (anyangle && s->pool[cur].parent != NONE &&
        (r == NONE || s->pool[r].heap != NONE)) {        /* any-angle; not into closed nodes */
      uint32_t gp = s->pool[cur].parent;
      double c = d->shortcut(d->self, s->pool[gp].id, e[i].to);
      if (c >= 0 && s->pool[gp].g + c <= g) { g = s->pool[gp].g + c; par = gp; }
    }
    if (g > max_cost) { s->pruned = 1; continue; }
    if (r == NONE) {
      double h;
      if ((e[i].to >> SLOT_BITS) >= s->nslot && cover(s, (size_t)e[i].to + 1))
        return ASTAR_ENOMEM;
      h = useh ? d->heuristic(d->self, e[i].to) : 0.0;
      r = newrec(s, e[i].to, g, h, par, s->pool[par].depth + 1);
      if (r == NONE) return ASTAR_ENOMEM;
      push(s, r);
    } else {
      node *rec = &s->pool[r];
      if (!cheaper(g, rec->g)) continue;
      if (alg == ASTAR_ALG_BFS &&        /* fewest edges; of two ways as short, the cheaper */
          (rec->heap == NONE || s->pool[par].depth + 1 != rec->depth))   /* (a walk, a link) */
        continue;
      if (rec->heap == NONE && !s->reopen) continue;   /* closed for good */
      rec->g = g; rec->parent = par; rec->depth = s->pool[par].depth + 1;
      if (rec->heap == NONE) {           /* closed: reopen */
        s->st.reopened++;
        push(s, r);
      } else {
        hent *he;
        fill(s);
        he = &s->heap[rec->heap];
        he->f = keyof(s, rec);
        he->g = tiekey(g);
        /* f usually falls and the entry rises; but greedy keeps f = h, and
        ** rounding can keep f, so the smaller g may also move it down */
        siftup(s, rec->heap);
        siftdown(s, rec->heap);
      }
    }
  }
  return 0;
}

static int relax(astar_search *s, uint32_t cur, int n) {
  const astar_domain *d = s->d;
  if (d->edge_cost == NULL && d->shortcut == NULL) return relax_as(s, cur, n, 0, 0);
  return relax_as(s, cur, n, d->edge_cost != NULL, d->shortcut != NULL);
}

static int finish(astar_search *s, int status) {
  s->state = status;
  return status;
}

int astar_search_step(astar_search *s, uint64_t budget) {
  uint64_t spent = 0;
  if (s->state != ASTAR_RUNNING) return s->state == S_IDLE ? ASTAR_ESTATE : s->state;
  for (;;) {
    uint32_t cur;
    int n, rc;
    if (s->nheap == 0) return finish(s, s->pruned ? ASTAR_LIMIT : ASTAR_NO_PATH);
    cur = s->heap[0].rec;
    if (s->d->settle != NULL && s->pool[cur].parent != NONE) {       /* lazy any-angle */
      node *r = &s->pool[cur];
      double g = r->g;
      uint32_t pid = s->pool[r->parent].id, pr;
      if (s->d->settle(s->d->self, s, r->id, &g, &pid) && (pr = lookup(s, pid)) != NONE &&
          (g != r->g || pr != r->parent)) {
        r->g = g; r->parent = pr; r->depth = s->pool[pr].depth + 1;
        s->heap[0].f = keyof(s, r);
        s->heap[0].g = tiekey(g);
        siftdown(s, 0);
        continue;
      }
    }
    if (s->d->is_goal != NULL ? s->d->is_goal(s->d->self, s->pool[cur].id)
                              : s->pool[cur].id == s->goal) {
      s->found = cur;
      return finish(s, ASTAR_FOUND);
    }
    if (s->st.expanded >= s->p.max_expansions) return finish(s, ASTAR_LIMIT);
    if (spent >= budget) return ASTAR_RUNNING;
    /* close; it leaves the heap when a successor takes its place (the hole) */
    s->pool[cur].heap = NONE;
    s->hole = 1;
    if (s->p.partial) {                  /* the best is read only for a partial path */
      double pr = progress(s, cur);
      if (pr < s->bestp || (pr == s->bestp && s->pool[cur].g < s->pool[s->best].g)) {
        s->best = cur;
        s->bestp = pr;
      }
    }
    s->st.expanded++;
    spent++;
    s->cur = cur;
    n = s->d->expand(s->d->self, s->pool[cur].id, s);
    rc = n < 0 ? n : relax(s, cur, n);
    fill(s);
    if (rc < 0) return finish(s, rc);
  }
}

int astar_search_resume(astar_search *s, uint32_t id, double *g) {
  uint32_t parent;
  int rc;
  while (astar_search_node(s, id, g, &parent) != 1) {
    if ((rc = astar_search_step(s, 16)) == ASTAR_RUNNING) continue;
    if (rc < 0) return rc;
    return astar_search_node(s, id, g, &parent) == 1;
  }
  return 1;
}

int astar_search_run(astar_search *s, const astar_domain *d, uint32_t start,
                     uint32_t goal, const astar_params *p) {
  int rc = astar_search_begin(s, d, start, goal, p);
  if (rc != 0) return rc;
  return astar_search_step(s, UINT64_MAX);
}

/* The path of a finished bidirectional search: the forward tree's branch to
** the meeting node, then the backward tree's branch from it to its goal. */
static long bidir_path(astar_search *s, const uint32_t **nodes, double *cost) {
  const astar_search *b = s->peer;
  uint32_t r, rb = peer_meet(s);
  size_t nf = 0, n, i;
  for (r = s->meet; r != NONE; r = s->pool[r].parent) nf++;
  n = nf;
  for (r = b->pool[rb].parent; r != NONE; r = b->pool[r].parent) n++;
  if (astar__reserve(&s->mem, (void **)&s->path, &s->cpath, n, sizeof *s->path))
    return ASTAR_ENOMEM;
  for (r = s->meet, i = nf; r != NONE; r = s->pool[r].parent) s->path[--i] = s->pool[r].id;
  for (r = b->pool[rb].parent, i = nf; r != NONE; r = b->pool[r].parent)
    s->path[i++] = b->pool[r].id;
  *nodes = s->path;
  *cost = s->pool[s->meet].g + b->pool[rb].g;
  return (long)n;
}

long astar_search_path(astar_search *s, const uint32_t **nodes, double *cost) {
  uint32_t end = NONE, r;
  size_t n = 0, i;
  if (s->state == ASTAR_FOUND && s->peer != NULL) return bidir_path(s, nodes, cost);
  if (s->state == ASTAR_FOUND) end = s->found;
  else if ((s->state == ASTAR_NO_PATH || s->state == ASTAR_LIMIT) && s->p.partial)
    end = s->best;
  *nodes = NULL;
  *cost = 0;
  if (end == NONE) return 0;
  for (r = end; r != NONE; r = s->pool[r].parent) n++;
  if (astar__reserve(&s->mem, (void **)&s->path, &s->cpath, n, sizeof *s->path))
    return ASTAR_ENOMEM;
  for (r = end, i = n; r != NONE; r = s->pool[r].parent) s->path[--i] = s->pool[r].id;
  *nodes = s->path;
  *cost = s->pool[end].g;
  return (long)n;
}


/* ---------------------------------------------------------------------- */
/* Bidirectional search                                                     */
/* ---------------------------------------------------------------------- */

/* A caller's domain as one side of a bidirectional search sees it: the same
** expansion and edge costs, and the average potential as its heuristic. */
typedef struct biside {
  astar_domain d;              /* what the engine is given */
  const astar_domain *inner;   /* the caller's domain of this side */
  const astar_domain *fwd, *bwd;
  double sign;                 /* +1 forward, -1 backward */
  int lastn;                   /* edges the last expansion wrote (in s->edges) */
} biside;

static int bi_expand(void *self, uint32_t id, astar_search *s) {
  biside *w = (biside *)self;
  int n = w->inner->expand(w->inner->self, id, s);
  w->lastn = n > 0 ? n : 0;
  return n;
}

static double bi_cost(void *self, uint32_t from, uint32_t to, double base) {
  const biside *w = (const biside *)self;
  return w->inner->edge_cost(w->inner->self, from, to, base);
}

/* p(v) = (h_fwd(v) - h_bwd(v)) / 2 forward, -p(v) backward. */
static double bi_h(void *self, uint32_t id) {
  const biside *w = (const biside *)self;
  double ht = w->fwd->heuristic(w->fwd->self, id);
  double hs = w->bwd->heuristic(w->bwd->self, id);
  return w->sign * 0.5 * (ht - hs);
}

static void biside_init(biside *w, const astar_domain *inner, const astar_domain *fwd,
                        const astar_domain *bwd, int pot, double sign) {
  w->inner = inner; w->fwd = fwd; w->bwd = bwd; w->sign = sign; w->lastn = 0;
  w->d.nnodes = inner->nnodes;
  w->d.expand = bi_expand;
  w->d.heuristic = pot ? bi_h : NULL;
  w->d.is_goal = NULL;
  w->d.edge_cost = inner->edge_cost != NULL ? bi_cost : NULL;
  w->d.shortcut = NULL;
  w->d.settle = NULL;
  w->d.progress = NULL;
  w->d.self = w;
}

/* After side 'x' expanded a node and wrote 'n' edges: every successor that
** both sides have reached closes a path; keeps the cheapest in *mu, *meet
** (a domain node). Checking at every edge scan is enough: a node's g only
** falls through an edge scan of its own side. */
static void meetcheck(const astar_search *x, const astar_search *y, int n,
                      double *mu, uint32_t *meet) {
  int i;
  for (i = 0; i < n; i++) {
    uint32_t id = x->edges[i].to, rx = lookup(x, id), ry;
    double c;
    if (rx == NONE || (ry = lookup(y, id)) == NONE) continue;
    c = x->pool[rx].g + y->pool[ry].g;
    if (c < *mu) { *mu = c; *meet = id; }
  }
}

/*
** Why the stopping rule is right. Let p be the potential (0 without
** heuristics). With consistent h_fwd and h_bwd, the reduced cost
** c'(u, v) = c(u, v) - p(u) + p(v) >= 0 (each half of p moves by at most
** c(u, v) / 2), so each side is Dijkstra on reduced costs, and its keys are
** reduced distances shifted by a constant: forward key = g_f(v) + p(v) =
** d'(s, v) + p(s), backward key = g_b(v) - p(v) = d'(v, t) - p(t). A path
** through v costs g_f(v) + g_b(v) = mu, reduced mu' = mu - p(s) + p(t).
** Invariant: mu is the cost of the best path through a node both sides
** have reached. Classic bidirectional Dijkstra may stop once
** top'_f + top'_b >= mu' (no path seen by neither side's closed sets can be
** shorter); substituting, the constants cancel: stop when
** top_f + top_b >= mu, on the keys the heaps hold. With several goals the
** backward side starts from all of them, as from one super-goal joined to
** each by a 0-cost edge (any p of the super-goal at least the largest p(t)
** keeps that edge's reduced cost >= 0; it cancels the same way).
** If one side runs out of open nodes, it has closed every node it can
** reach with final g, including the other side's starts when reachable:
** mu is then final too.
*/
int astar_search_bidir(astar_search *f, astar_search *b, const astar_domain *fwd,
                       const astar_domain *bwd, uint32_t start,
                       const uint32_t *goals, size_t ngoals, const astar_params *p) {
  biside wf, wb;
  astar_params q;
  double mu = HUGE_VAL;
  uint32_t meet = NONE;
  size_t i;
  int rc, pot = fwd->heuristic != NULL && bwd->heuristic != NULL &&
                p->algorithm == ASTAR_ALG_ASTAR;
  if (f == b || fwd->nnodes != bwd->nnodes || ngoals == 0 || p->weight != 1.0 ||
      (p->algorithm != ASTAR_ALG_ASTAR && p->algorithm != ASTAR_ALG_DIJKSTRA) ||
      (fwd->edge_cost == NULL) != (bwd->edge_cost == NULL))
    return ASTAR_EINVAL;
  biside_init(&wf, fwd, fwd, bwd, pot, 1.0);
  biside_init(&wb, bwd, fwd, bwd, pot, -1.0);
  q = *p;
  q.algorithm = pot ? ASTAR_ALG_ASTAR : ASTAR_ALG_DIJKSTRA;
  q.max_expansions = UINT64_MAX;     /* counted here, over both sides */
  q.partial = 0;                     /* chosen here, by h_fwd */
  rc = astar_search_begin(f, &wf.d, start, NONE, &q);
  if (rc != 0) return rc;
  rc = astar_search_begin_multi(b, &wb.d, goals, NULL, ngoals, NONE, &q);
  if (rc != 0) { f->state = S_IDLE; return rc; }
  f->peer = b;
  if (lookup(b, start) != NONE) { mu = 0.0; meet = start; }    /* start is a goal */
  for (;;) {
    astar_search *x, *y;
    biside *w;
    int st;
    if (f->nheap == 0 || b->nheap == 0) break;
    if (f->heap[0].f + b->heap[0].f >= mu) break;
    if (f->st.expanded + b->st.expanded >= p->max_expansions) {
      rc = ASTAR_LIMIT;
      break;
    }
    if (f->heap[0].f <= b->heap[0].f) { x = f; y = b; w = &wf; }
    else { x = b; y = f; w = &wb; }
    /* exactly one expansion (its goal test never succeeds: the goal is
    ** NONE); the side may finish when its heap empties, which ends the loop */
    w->lastn = 0;
    st = astar_search_step(x, 1);
    if (st < 0) { rc = st; break; }
    meetcheck(x, y, w->lastn, &mu, &meet);
  }
  f->st.expanded += b->st.expanded;
  f->st.generated += b->st.generated;
  f->st.reopened += b->st.reopened;
  finish(b, ASTAR_NO_PATH);          /* its records stay readable; no path of its own */
  if (rc < 0) return finish(f, rc);
  if (rc == 0 && meet != NONE && mu <= p->max_cost) {   /* the rule stopped it: shortest */
    f->meet = lookup(f, meet);
    f->found = f->meet;
    return finish(f, ASTAR_FOUND);
  }
  if (rc != ASTAR_LIMIT)
    rc = (meet != NONE || f->pruned || b->pruned) ? ASTAR_LIMIT : ASTAR_NO_PATH;
  if (p->partial) {                  /* the expanded node closest to the goals */
    uint32_t best = lookup(f, start);
    double bh = fwd->heuristic != NULL ? fwd->heuristic(fwd->self, start) : 0.0;
    for (i = 0; i < f->npool && fwd->heuristic != NULL; i++) {
      const node *r = &f->pool[i];
      double h;
      if (r->heap != NONE) continue;
      h = fwd->heuristic(fwd->self, r->id);
      if (h < bh || (h == bh && r->g < f->pool[best].g)) { bh = h; best = (uint32_t)i; }
    }
    f->best = best;
    f->p.partial = 1;
  }
  return finish(f, rc);
}
