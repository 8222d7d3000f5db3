/*
** graph.c - graphs of nodes and weighted edges, and their search domain.
**
** Storage (see astar.h): a node array, a position array and an edge pool.
** Every edge record sits in two intrusive doubly linked lists: slot 0 links
** it into the list of its 'from' end, slot 1 into that of its 'to' end.
** Directed graphs give each node two lists (out: slot 0, in: slot 1);
** undirected ones a single list per node, which holds every edge touching
** it whichever end it is. Either way, walking the list of node v, the slot
** to follow is 0 if the edge's from end is v, else 1. A list's head keeps
** the tail in its 'prev', so appending (insertion order) and unlinking are
** O(1). Freed records are chained through next[0] and reused.
*/
#include <math.h>
#include <string.h>
#include "core.h"

#define NONE ASTAR_NONE

/* node flags */
#define F_POS      1u    /* has a position */
#define F_DISABLED 2u
#define F_REMOVED  4u

typedef struct gnode {
  uint32_t head[2];    /* first edge of the out / in list (undirected: head[0]) */
  uint32_t deg[2];     /* length of those lists */
  uint32_t flags;
} gnode;

typedef struct gedge {
  double cost;
  uint32_t end[2];     /* from, to; end[0] == NONE on the free list */
  uint32_t next[2];    /* next edge in end[k]'s list, NONE at the tail */
  uint32_t prev[2];    /* previous edge; the head's prev is the tail */
} gedge;

struct astar_graph {
  astar_mem mem;
  int directed;
  gnode *node;
  double *pos;         /* 3 a node: x, y, z (z = 0 for 2D) */
  size_t nnode, cnode, cpos;
  gedge *edge;
  size_t nedge, cedge; /* records used (live or free), capacity */
  uint32_t freelist;
  uint32_t live_nodes, live_edges;
  uint32_t unplaced;   /* live nodes without a position */
  uint64_t version;    /* every edit */
  /* the nodes the last edits touched: an edge's two ends, a node added or
  ** removed twice, a node enabled or disabled and NONE (its edges changed
  ** too); edit number v (the version it produced) is at
  ** touched[v % ASTAR_GRAPH_LOG] */
  uint32_t touched[ASTAR_GRAPH_LOG][2];
  uint64_t sversion;   /* structural edits only (what components depend on) */
  double ratio;        /* smallest cost / length over edges, valid unless ratio_dirty */
  int ratio_dirty;
  /* components */
  uint32_t *comp;      /* label per node (0: none), valid when comp_version == sversion */
  size_t ccomp;
  uint32_t ncomp;
  uint64_t comp_version;
  int comp_wanted;     /* astar_graph_components was called: keep them for find */
};

/* Records that the edit touched nodes a and b, and bumps the version. */
static void edited(astar_graph *g, uint32_t a, uint32_t b) {
  uint32_t *t = g->touched[(g->version + 1) % ASTAR_GRAPH_LOG];
  t[0] = a; t[1] = b;
  g->version++;
}

int astar_graph_new(astar_graph **out, int directed, astar_alloc alloc, void *ud) {
  astar_mem m;
  astar_graph *g;
  m.fn = alloc; m.ud = ud; m.allocs = 0;
  g = (astar_graph *)astar__alloc(&m, sizeof *g);
  *out = g;
  if (g == NULL) return ASTAR_ENOMEM;
  memset(g, 0, sizeof *g);
  g->mem = m;
  g->directed = directed != 0;
  g->freelist = NONE;
  g->ratio = HUGE_VAL;
  return 0;
}

void astar_graph_free(astar_graph *g) {
  astar_mem m;
  if (g == NULL) return;
  m = g->mem;
  astar__free(&m, g->node, g->cnode * sizeof *g->node);
  astar__free(&m, g->pos, g->cpos * 3 * sizeof *g->pos);
  astar__free(&m, g->edge, g->cedge * sizeof *g->edge);
  astar__free(&m, g->comp, g->ccomp * sizeof *g->comp);
  astar__free(&m, g, sizeof *g);
}

int astar_graph_directed(const astar_graph *g) { return g->directed; }
uint32_t astar_graph_size(const astar_graph *g) { return (uint32_t)g->nnode; }
uint32_t astar_graph_node_count(const astar_graph *g) { return g->live_nodes; }
uint32_t astar_graph_edge_count(const astar_graph *g) { return g->live_edges; }
uint64_t astar_graph_version(const astar_graph *g) { return g->version; }
size_t astar_graph_allocs(const astar_graph *g) { return g->mem.allocs; }

int astar_graph_node_state(const astar_graph *g, uint32_t id) {
  uint32_t f;
  if (id >= g->nnode) return ASTAR_GN_UNKNOWN;
  f = g->node[id].flags;
  return (f & F_REMOVED) ? ASTAR_GN_REMOVED : (f & F_DISABLED) ? ASTAR_GN_DISABLED
                                                                : ASTAR_GN_LIVE;
}

static int usable(const astar_graph *g, uint32_t id) {
  return (g->node[id].flags & (F_DISABLED | F_REMOVED)) == 0;
}

static int exists(const astar_graph *g, uint32_t id) {
  return id < g->nnode && !(g->node[id].flags & F_REMOVED);
}


/* ---------------------------------------------------------------------- */
/* Nodes and positions                                                      */
/* ---------------------------------------------------------------------- */

int astar_graph_add_node(astar_graph *g, const double *pos, int dim, uint32_t *id) {
  gnode *n;
  double *p;
  int i;
  if (dim != 0 && dim != 2 && dim != 3) return ASTAR_EINVAL;
  for (i = 0; i < dim; i++)
    if (!(fabs(pos[i]) <= ASTAR_NUM_MAX)) return ASTAR_EINVAL;
  if (g->nnode >= ASTAR_GRAPH_MAX_NODES) return ASTAR_EINVAL;
  /* both arrays grow before anything changes; a larger capacity left by a
  ** failure of the second is harmless */
  if (astar__reserve(&g->mem, (void **)&g->node, &g->cnode, g->nnode + 1, sizeof *g->node) ||
      astar__reserve(&g->mem, (void **)&g->pos, &g->cpos, g->nnode + 1, 3 * sizeof *g->pos))
    return ASTAR_ENOMEM;
  n = &g->node[g->nnode];
  n->head[0] = n->head[1] = NONE;
  n->deg[0] = n->deg[1] = 0;
  n->flags = dim ? F_POS : 0;
  p = &g->pos[3 * g->nnode];
  p[0] = dim ? pos[0] : 0.0;
  p[1] = dim ? pos[1] : 0.0;
  p[2] = dim == 3 ? pos[2] : 0.0;
  if (!dim) g->unplaced++;
  *id = (uint32_t)g->nnode++;
  g->live_nodes++;
  edited(g, *id, *id);
  g->sversion++;
  return 0;
}

int astar_graph_position(const astar_graph *g, uint32_t id, double *xyz) {
  if (!(g->node[id].flags & F_POS)) return 0;
  memcpy(xyz, &g->pos[3 * (size_t)id], 3 * sizeof *xyz);
  return 3;
}

/* Euclidean distance between two placed nodes. */
static double dist(const astar_graph *g, uint32_t a, uint32_t b) {
  const double *p = &g->pos[3 * (size_t)a], *q = &g->pos[3 * (size_t)b];
  double dx = p[0] - q[0], dy = p[1] - q[1], dz = p[2] - q[2];
  return sqrt(dx * dx + dy * dy + dz * dz);
}

double astar_graph_distance(const astar_graph *g, uint32_t a, uint32_t b) {
  if (!(g->node[a].flags & g->node[b].flags & F_POS)) return -1.0;
  return dist(g, a, b);
}


/* ---------------------------------------------------------------------- */
/* Edge lists                                                               */
/* ---------------------------------------------------------------------- */

/* The list of node v that slot k of its edges links into. */
static uint32_t *listhead(astar_graph *g, uint32_t v, int k) {
  return &g->node[v].head[g->directed ? k : 0];
}

static uint32_t *listdeg(astar_graph *g, uint32_t v, int k) {
  return &g->node[v].deg[g->directed ? k : 0];
}

/* Appends edge e to the list of its end k. */
static void enlist(astar_graph *g, uint32_t e, int k) {
  gedge *E = g->edge;
  uint32_t v = E[e].end[k], *h = listhead(g, v, k);
  E[e].next[k] = NONE;
  if (*h == NONE) {
    *h = e;
    E[e].prev[k] = e;
  } else {
    uint32_t t = E[*h].prev[E[*h].end[0] == v ? 0 : 1];   /* the tail */
    E[t].next[E[t].end[0] == v ? 0 : 1] = e;
    E[e].prev[k] = t;
    E[*h].prev[E[*h].end[0] == v ? 0 : 1] = e;
  }
  (*listdeg(g, v, k))++;
}

/* Removes edge e from the list of its end k. */
static void delist(astar_graph *g, uint32_t e, int k) {
  gedge *E = g->edge;
  uint32_t v = E[e].end[k], *h = listhead(g, v, k);
  uint32_t nx = E[e].next[k], pv = E[e].prev[k];
  if (*h == e) {
    *h = nx;
    if (nx != NONE) E[nx].prev[E[nx].end[0] == v ? 0 : 1] = pv;   /* the tail */
  } else {
    E[pv].next[E[pv].end[0] == v ? 0 : 1] = nx;
    if (nx != NONE) E[nx].prev[E[nx].end[0] == v ? 0 : 1] = pv;
    else E[*h].prev[E[*h].end[0] == v ? 0 : 1] = pv;          /* e was the tail */
  }
  (*listdeg(g, v, k))--;
}

/* The edge a -> b (undirected: either way), or NONE. Walks the shorter of
** a's out list and b's in list. */
static uint32_t findedge(const astar_graph *g, uint32_t a, uint32_t b) {
  const gedge *E = g->edge;
  const gnode *na = &g->node[a], *nb = &g->node[b];
  uint32_t e;
  if (g->directed) {
    if (na->deg[0] <= nb->deg[1]) {
      for (e = na->head[0]; e != NONE; e = E[e].next[0])
        if (E[e].end[1] == b) return e;
    } else {
      for (e = nb->head[1]; e != NONE; e = E[e].next[1])
        if (E[e].end[0] == a) return e;
    }
  } else {
    uint32_t v = na->deg[0] <= nb->deg[0] ? a : b, w = v == a ? b : a;
    for (e = g->node[v].head[0]; e != NONE;) {
      int k = E[e].end[0] == v ? 0 : 1;
      if (E[e].end[1 - k] == w) return e;
      e = E[e].next[k];
    }
  }
  return NONE;
}

/* The cost / length ratio of edge e, or HUGE_VAL if it has no length. */
static double edgeratio(const astar_graph *g, uint32_t e) {
  const gedge *E = &g->edge[e];
  double len;
  if (!(g->node[E->end[0]].flags & g->node[E->end[1]].flags & F_POS)) return HUGE_VAL;
  len = dist(g, E->end[0], E->end[1]);
  return len > 0 ? E->cost / len : HUGE_VAL;
}

/* Keeps 'ratio' right when an edge's ratio goes from 'old' to 'r' (HUGE_VAL
** for no edge). */
static void track_ratio(astar_graph *g, double old, double r) {
  if (g->ratio_dirty) return;
  if (r < g->ratio) g->ratio = r;
  else if (old == g->ratio && r != old) g->ratio_dirty = 1;   /* rescan later */
}

static int goodcost(double c) {
  return c > 0 && c <= ASTAR_NUM_MAX;
}

int astar_graph_add_edge(astar_graph *g, uint32_t a, uint32_t b, double cost) {
  uint32_t e;
  double old;
  if (a == b || !exists(g, a) || !exists(g, b) || !goodcost(cost)) return ASTAR_EINVAL;
  e = findedge(g, a, b);
  if (e != NONE) {                       /* replace the cost */
    old = edgeratio(g, e);
    g->edge[e].cost = cost;
    track_ratio(g, old, edgeratio(g, e));
    edited(g, a, b);
    return 0;
  }
  if (g->freelist != NONE) {
    e = g->freelist;
    g->freelist = g->edge[e].next[0];
  } else {
    if (g->nedge >= (size_t)NONE - 1) return ASTAR_EINVAL;
    if (astar__reserve(&g->mem, (void **)&g->edge, &g->cedge, g->nedge + 1, sizeof *g->edge))
      return ASTAR_ENOMEM;
    e = (uint32_t)g->nedge++;
  }
  g->edge[e].cost = cost;
  g->edge[e].end[0] = a;
  g->edge[e].end[1] = b;
  enlist(g, e, 0);
  enlist(g, e, 1);
  track_ratio(g, HUGE_VAL, edgeratio(g, e));
  g->live_edges++;
  edited(g, a, b);
  g->sversion++;
  return 0;
}

/* Unlinks and frees edge e. */
static void dropedge(astar_graph *g, uint32_t e) {
  track_ratio(g, edgeratio(g, e), HUGE_VAL);
  delist(g, e, 0);
  delist(g, e, 1);
  g->edge[e].end[0] = g->edge[e].end[1] = NONE;
  g->edge[e].next[0] = g->freelist;
  g->freelist = e;
  g->live_edges--;
}

int astar_graph_remove_edge(astar_graph *g, uint32_t a, uint32_t b) {
  uint32_t e;
  if (a == b || !exists(g, a) || !exists(g, b)) return 0;
  e = findedge(g, a, b);
  if (e == NONE) return 0;
  dropedge(g, e);
  edited(g, a, b);
  g->sversion++;
  return 1;
}

int astar_graph_set_edge_cost(astar_graph *g, uint32_t a, uint32_t b, double cost) {
  uint32_t e;
  double old;
  if (a == b || !exists(g, a) || !exists(g, b) || !goodcost(cost)) return 0;
  e = findedge(g, a, b);
  if (e == NONE) return 0;
  old = edgeratio(g, e);
  g->edge[e].cost = cost;
  track_ratio(g, old, edgeratio(g, e));
  edited(g, a, b);
  return 1;
}

double astar_graph_edge_cost(const astar_graph *g, uint32_t a, uint32_t b) {
  uint32_t e;
  if (a == b || !exists(g, a) || !exists(g, b)) return -1.0;
  e = findedge(g, a, b);
  return e == NONE ? -1.0 : g->edge[e].cost;
}

void astar_graph_set_enabled(astar_graph *g, uint32_t id, int on) {
  uint32_t f;
  if (!exists(g, id)) return;
  f = on ? (g->node[id].flags & ~F_DISABLED) : (g->node[id].flags | F_DISABLED);
  if (f == g->node[id].flags) return;
  g->node[id].flags = f;
  edited(g, id, NONE);
  g->sversion++;
}

void astar_graph_remove_node(astar_graph *g, uint32_t id) {
  gnode *n;
  if (!exists(g, id)) return;
  n = &g->node[id];
  while (n->head[0] != NONE) dropedge(g, n->head[0]);
  while (n->head[1] != NONE) dropedge(g, n->head[1]);   /* directed: in-edges */
  if (!(n->flags & F_POS)) g->unplaced--;
  n->flags = F_REMOVED;
  g->live_nodes--;
  edited(g, id, id);
  g->sversion++;
}

int astar_graph_next_edge(const astar_graph *g, uint32_t id, uint32_t *cursor,
                          uint32_t *to, double *cost) {
  const gedge *E = g->edge;
  uint32_t e = *cursor;
  int k;
  if (e == NONE) e = g->node[id].head[0];
  else e = E[e].next[E[e].end[0] == id ? 0 : 1];
  *cursor = e;
  if (e == NONE) return 0;
  k = E[e].end[0] == id ? 0 : 1;
  *to = E[e].end[1 - k];
  *cost = E[e].cost;
  return 1;
}

double astar_graph_hscale(astar_graph *g) {
  if (g->ratio_dirty) {
    double m = HUGE_VAL;
    size_t e;
    for (e = 0; e < g->nedge; e++) {
      if (g->edge[e].end[0] != NONE) {
        double r = edgeratio(g, (uint32_t)e);
        if (r < m) m = r;
      }
    }
    g->ratio = m;
    g->ratio_dirty = 0;
  }
  if (g->unplaced > 0 || !(g->ratio < HUGE_VAL)) return 0.0;
  return g->ratio;
}


/* ---------------------------------------------------------------------- */
/* Components: union-find over one label array                              */
/* ---------------------------------------------------------------------- */

/* Root of x, halving the path. Roots are the smallest id of their set, so
** every parent is smaller than its child. */
static uint32_t findroot(uint32_t *p, uint32_t x) {
  while (p[x] != x) {
    p[x] = p[p[x]];
    x = p[x];
  }
  return x;
}

int astar_graph_components(astar_graph *g, uint32_t *count) {
  uint32_t *p, k = 0;
  size_t v, e;
  g->comp_wanted = 1;
  if (g->comp_version == g->sversion && g->comp != NULL) {
    *count = g->ncomp;
    return 0;
  }
  if (g->nnode > 0 &&
      astar__reserve(&g->mem, (void **)&g->comp, &g->ccomp, g->nnode, sizeof *g->comp))
    return ASTAR_ENOMEM;
  p = g->comp;
  for (v = 0; v < g->nnode; v++) p[v] = (uint32_t)v;
  for (e = 0; e < g->nedge; e++) {
    uint32_t a = g->edge[e].end[0], b = g->edge[e].end[1], ra, rb;
    if (a == NONE || !usable(g, a) || !usable(g, b)) continue;
    ra = findroot(p, a);
    rb = findroot(p, b);
    if (ra < rb) p[rb] = ra;
    else if (rb < ra) p[ra] = rb;
  }
  /* In increasing id order each node's parent, smaller, already holds its
  ** label; a node that is its own parent is a root and takes a new one.
  ** Unusable nodes joined nothing, so they are roots nobody points to. */
  for (v = 0; v < g->nnode; v++) {
    if (!usable(g, (uint32_t)v)) p[v] = 0;
    else if (p[v] == v) p[v] = ++k;
    else p[v] = p[p[v]];
  }
  g->ncomp = k;
  g->comp_version = g->sversion;
  *count = k;
  return 0;
}

uint32_t astar_graph_component(const astar_graph *g, uint32_t id) {
  if (g->comp == NULL || g->comp_version != g->sversion || id >= g->nnode) return 0;
  return g->comp[id];
}


/* ---------------------------------------------------------------------- */
/* The search domain                                                        */
/* ---------------------------------------------------------------------- */

void astar_graph_query_init(astar_graph_query *q) {
  memset(q, 0, sizeof *q);
  q->heuristic = ASTAR_GH_EUCLIDEAN;
  q->within = -1;
  q->start = q->goal = NONE;
  astar_params_init(&q->params);
}

/* Writes the usable ends of the edges in v's list 'k' (0: out, 1: in). */
static int expand_list(const astar_graph *g, uint32_t v, int k, astar_search *s) {
  const gedge *E = g->edge;
  const gnode *n = &g->node[v];
  const int kk = g->directed ? k : 0;
  astar_edge *out;
  uint32_t e;
  int m = 0;
  if (!usable(g, v)) return 0;          /* disabled nodes are never left */
  out = astar_search_edges(s, n->deg[kk] ? n->deg[kk] : 1);
  if (out == NULL) return ASTAR_ENOMEM;
  for (e = n->head[kk]; e != NONE;) {
    const int side = E[e].end[0] == v ? 0 : 1;
    const uint32_t w = E[e].end[1 - side];
    if (usable(g, w)) {
      out[m].to = w;
      out[m++].cost = E[e].cost;
    }
    e = E[e].next[side];
  }
  return m;
}

static int graph_expand(void *self, uint32_t v, astar_search *s) {
  const astar_graph_query *q = (const astar_graph_query *)self;
  return expand_list(q->graph, v, 0, s);
}

static int graph_expand_in(void *self, uint32_t v, astar_search *s) {
  const astar_graph_query *q = (const astar_graph_query *)self;
  return expand_list(q->graph, v, 1, s);
}

/* The heuristic from 'v' toward 'goal' (user or built-in), less the range
** 'within' (still admissible and consistent). */
static double h_to(const astar_graph_query *q, uint32_t v, uint32_t goal) {
  double h = q->h_fn != NULL ? q->h_fn(q->h_ud, v, goal) : q->hscale * dist(q->graph, v, goal);
  if (q->within > 0) {
    h -= q->within * q->hscale;
    if (h < 0) h = 0;
  }
  return h;
}

static double graph_h(void *self, uint32_t v) {
  const astar_graph_query *q = (const astar_graph_query *)self;
  if (q->goals != NULL) {
    double best = HUGE_VAL;
    size_t i;
    for (i = 0; i < q->ngoals; i++) {
      double h;
      if (!usable(q->graph, q->goals[i]) && q->within < 0) continue;
      h = h_to(q, v, q->goals[i]);
      if (h < best) best = h;
    }
    return best;
  }
  return h_to(q, v, q->goal);
}

/* The backward side's heuristic: an estimate of the cost from the start. */
static double graph_h_back(void *self, uint32_t v) {
  const astar_graph_query *q = (const astar_graph_query *)self;
  return q->h_fn != NULL ? q->h_fn(q->h_ud, v, q->start)
                         : q->hscale * dist(q->graph, v, q->start);
}

long astar_graph_goal_index(const astar_graph_query *q, uint32_t v) {
  const astar_graph *g = q->graph;
  size_t i, n = q->goals != NULL ? q->ngoals : 1;
  for (i = 0; i < n; i++) {
    uint32_t t = q->goals != NULL ? q->goals[i] : q->goal;
    if (v == t) return (long)i;
    if (q->within >= 0 && (g->node[v].flags & g->node[t].flags & F_POS) &&
        dist(g, v, t) <= q->within)
      return (long)i;
  }
  return -1;
}

static int graph_is_goal(void *self, uint32_t v) {
  return astar_graph_goal_index((const astar_graph_query *)self, v) >= 0;
}

static double graph_edge_cost(void *self, uint32_t from, uint32_t to, double base) {
  const astar_graph_query *q = (const astar_graph_query *)self;
  return q->cost_fn(q->cost_ud, from, to, base);
}

/* Backward searches meet the edge from -> to at 'to': ask in travel order. */
static double graph_edge_cost_back(void *self, uint32_t at, uint32_t from, double base) {
  const astar_graph_query *q = (const astar_graph_query *)self;
  return q->cost_fn(q->cost_ud, from, at, base);
}

int astar_graph_prepare(astar_graph *g, astar_graph_query *q, uint32_t start,
                        uint32_t goal) {
  size_t i;
  int any = 0, haveh;
  if (q->heuristic < ASTAR_GH_EUCLIDEAN || q->heuristic > ASTAR_GH_ZERO ||
      q->within != q->within || (q->goals != NULL && q->ngoals == 0) ||
      (q->bidirectional && q->within >= 0))
    return ASTAR_EINVAL;
  q->graph = g;
  q->start = start;
  q->hscale = astar_graph_hscale(g);
  haveh = q->h_fn != NULL || (q->heuristic == ASTAR_GH_EUCLIDEAN && q->hscale > 0);
  q->domain.nnodes = q->back.nnodes = g->nnode > 0 ? (uint32_t)g->nnode : 1;
  q->domain.expand = graph_expand;
  q->back.expand = graph_expand_in;
  q->domain.heuristic = haveh ? graph_h : NULL;
  q->back.heuristic = haveh ? graph_h_back : NULL;
  q->domain.is_goal = (q->goals != NULL || q->within >= 0) ? graph_is_goal : NULL;
  q->back.is_goal = NULL;
  q->domain.edge_cost = q->cost_fn != NULL ? graph_edge_cost : NULL;
  q->back.edge_cost = q->cost_fn != NULL ? graph_edge_cost_back : NULL;
  q->domain.shortcut = q->back.shortcut = NULL;
  q->domain.settle = q->back.settle = NULL;
  q->domain.progress = q->back.progress = NULL;
  q->domain.self = q->back.self = q;
  if (start == NONE) return 0;
  if (!exists(g, start)) return ASTAR_EINVAL;
  if (q->goals != NULL) {
    for (i = 0; i < q->ngoals; i++) {
      if (!exists(g, q->goals[i])) return ASTAR_EINVAL;
      if (usable(g, q->goals[i])) any = 1;
    }
    q->goal = q->goals[0];
  } else {
    if (!exists(g, goal)) return ASTAR_EINVAL;
    q->goal = goal;
    any = usable(g, goal);
  }
  q->blocked = !usable(g, start) ? 1 : !(any || q->within >= 0) ? 2 : 0;
  if (q->blocked) return ASTAR_BLOCKED;
  /* components, once asked for: a goal elsewhere cannot be reached (with
  ** 'within' a nearby node might, so no shortcut then) */
  if (g->comp_wanted && !q->params.partial && q->within < 0) {
    uint32_t n, cs;
    if (astar_graph_components(g, &n) == 0) {
      cs = g->comp[start];
      any = 0;
      for (i = 0; i < (q->goals != NULL ? q->ngoals : 1); i++)
        if (g->comp[q->goals != NULL ? q->goals[i] : q->goal] == cs) any = 1;
      if (!any) return ASTAR_NO_PATH;
    }
  }
  return 0;
}

size_t astar_graph_sources(const astar_graph *g, double max_cost, uint32_t *ids,
                           double *g0, size_t n) {
  size_t i, k = 0;
  for (i = 0; i < n; i++) {
    if (astar_graph_node_state(g, ids[i]) != ASTAR_GN_LIVE || !(g0[i] <= max_cost) ||
        !(g0[i] > -HUGE_VAL))
      continue;
    ids[k] = ids[i];
    g0[k++] = g0[i];
  }
  return k;
}

static int is_end(const astar_graph_query *q, uint32_t v) {
  size_t i;
  if (v == q->start || (q->goals == NULL && v == q->goal)) return 1;
  for (i = 0; q->goals != NULL && i < q->ngoals; i++)
    if (q->goals[i] == v) return 1;
  return 0;
}

/* Whether search s has a record of v or of a node at the other end of one of
** v's edges. */
static int near_seen(const astar_graph *g, uint32_t v, const astar_search *s) {
  double gv;
  uint32_t parent, e;
  int k;
  if (astar_search_node(s, v, &gv, &parent)) return 1;
  for (k = 0; k < (g->directed ? 2 : 1); k++)
    for (e = g->node[v].head[k]; e != NONE; e = g->edge[e].next[g->edge[e].end[0] == v ? 0 : 1])
      if (astar_search_node(s, g->edge[e].end[g->edge[e].end[0] == v], &gv, &parent)) return 1;
  return 0;
}

/*
** A search prices the edges of the nodes it expands, so an edit of an edge
** between two nodes it has no record of, or of such a node, changes nothing
** it has done: it will read the edit when it gets there. A node enabled or
** disabled changes its edges too: what matters there is whether the search
** has a record of it or of a neighbour (which may have skipped it). Edits that lower
** the heuristic's scale (a cheaper edge per unit of length, a node without a
** position) would make what it computed overestimate; those of an end may
** block it.
*/
int astar_graph_affected(astar_graph *g, const astar_graph_query *q, const astar_search *s,
                         uint64_t since) {
  uint64_t v;
  double gv;
  uint32_t parent;
  int k;
  if (since > g->version || g->version - since > ASTAR_GRAPH_LOG || q->bidirectional ||
      astar_graph_hscale(g) < q->hscale)
    return 1;
  for (v = since + 1; v <= g->version; v++) {
    const uint32_t *t = g->touched[v % ASTAR_GRAPH_LOG];
    if (t[1] == NONE) {
      if (is_end(q, t[0]) || near_seen(g, t[0], s)) return 1;
      continue;
    }
    for (k = 0; k < 2; k++)
      if (is_end(q, t[k]) || astar_search_node(s, t[k], &gv, &parent) != 0) return 1;
  }
  return 0;
}

int astar_graph_find(astar_graph *g, astar_search *s, astar_search *back,
                     astar_graph_query *q, uint32_t start, uint32_t goal) {
  int rc = astar_graph_prepare(g, q, start, goal);
  if (rc > 0) astar_search_finish(s, rc);
  if (rc != 0) return rc;
  if (q->bidirectional) {
    uint32_t one = q->goal;
    const uint32_t *goals = q->goals != NULL ? q->goals : &one;
    /* a disabled goal may start the backward side: it is never left, and
    ** the forward side never enters it, so it only costs one pop */
    return astar_search_bidir(s, back, &q->domain, &q->back, start, goals,
                              q->goals != NULL ? q->ngoals : 1, &q->params);
  }
  return astar_search_run(s, &q->domain, start, q->domain.is_goal != NULL ? NONE : q->goal,
                          &q->params);
}
