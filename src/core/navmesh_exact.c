/*
** navmesh_exact.c - the exact search over intervals (Polyanya: Cui, Harabor
** and Grastien, IJCAI 2017) for meshes of uniform cost without a radius.
*/
#include "navmesh_impl.h"

/* ------------------------------------------------------------------ */
/* Exact search over intervals                                          */
/* ------------------------------------------------------------------ */
/*
** When every polygon costs the same, no radius and no callback: the search
** of Cui, Harabor and Grastien's Polyanya (IJCAI 2017), which is exact. A
** node is a root (the start, or a wall corner where the path bends) and an
** interval of an edge seen from it; g is the root's distance from the start
** and h the length of the shortest way from the root through the interval
** to the goal. Expanding a node projects its interval across the polygon
** behind it: the part of the far edges inside the cone keeps the root; the
** parts outside it get the interval's end as their root if that end is a
** wall corner. A root reached again at a larger g is not searched again.
*/



#define PN(q) ((pnode *)(q)->w->pn)

static int pless(const struct nm_hent *a, const struct nm_hent *b) {
  return (a->f < b->f) | ((a->f == b->f) & (a->g > b->g));   /* no branches: no mispredictions */
}

/* Puts record r on the open heap. */
static int pheap(astar_navmesh_query *q, uint32_t r) {
  struct nm_hent e, *hp;
  size_t i;
  if (q->w->nheap >= q->w->cheap &&
      astar__reserve(&q->w->mem, (void **)&q->w->heap, &q->w->cheap, q->w->nheap + 1,
                     sizeof *q->w->heap))
    return ASTAR_ENOMEM;
  hp = q->w->heap;
  e.f = PN(q)[r].f; e.r = r;
  e.g = PN(q)[r].g < FLT_MAX ? (float)PN(q)[r].g : FLT_MAX;   /* beyond: no float holds it */
  i = q->w->nheap++;
  while (i > 0 && pless(&e, &hp[(i - 1) / 2])) {
    hp[i] = hp[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  hp[i] = e;
  return 0;
}

static int pfinish(const astar_navmesh_query *q, pnode *n, const double *e);

/* Keeps a copy of node n among the query's nodes: its index, or NONE (out of
** memory). */
static uint32_t pstore(astar_navmesh_query *q, const pnode *n) {
  if (q->w->npn >= q->w->cpn &&
      astar__reserve(&q->w->mem, &q->w->pn, &q->w->cpn, q->w->npn + 1, sizeof(pnode)))
    return NONE;
  PN(q)[q->w->npn] = *n;
  return (uint32_t)q->w->npn++;
}

/* A new node: on the heap, or while a node is expanded (ndef >= 0) among its
** children in def, which exact_step puts on the heap afterwards (pflush).
** 'e': an interval node's edge, whose h is left for then (NULL: none). */
static int pdefer(astar_navmesh_query *q, const pnode *n, const double *e) {
  uint32_t r = pstore(q, n);
  if (r == NONE) return ASTAR_ENOMEM;
  q->w->st.generated++;
  if (q->w->ndef >= 0 && q->w->ndef < NM_DEFER) {
    struct nm_def *d = &q->w->def[q->w->ndef++];
    d->r = r; d->later = e != NULL;
    if (e != NULL) memcpy(d->e, e, sizeof d->e);
    return 0;
  }
  if (e != NULL && !pfinish(q, &PN(q)[r], e)) return 0;   /* no room to wait: f now */
  return pheap(q, r);
}

static int ppush(astar_navmesh_query *q, const pnode *n) { return pdefer(q, n, NULL); }

/* Takes the top off the heap: the hole it leaves goes down the smaller
** children to a leaf (one compare a level), then the last entry climbs back
** from there (seldom more than a level): fewer compares than sifting the
** last entry down from the top. */
static uint32_t ppop(astar_navmesh_query *q) {
  struct nm_hent *hp = q->w->heap, last = hp[--q->w->nheap];
  uint32_t top = hp[0].r;
  size_t i = 0, c, n = q->w->nheap;
  while ((c = 2 * i + 1) < n) {
    c += (c + 1 < n) & pless(&hp[c + 1], &hp[c]);   /* hp[n] is last's old place: readable */
    hp[i] = hp[c];
    i = c;
  }
  while (i > 0 && pless(&last, &hp[(i - 1) / 2])) {
    hp[i] = hp[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  if (n > 0) hp[i] = last;
  return top;
}

static int ingoal(const astar_navmesh_query *q, uint32_t p) {
  int i;
  for (i = 0; i < q->w->ngp; i++) if (q->w->gp[i] == p) return 1;
  return 0;
}

/* Was the root kept at 'slot' (a corner side, named by a half-edge leaving
** the corner: see fan; or 2 nh + a link, for the link's end) reached at less
** than g? */
static int beaten(const astar_navmesh_query *q, uint32_t slot, double g) {
  const struct nm_best *b = &q->w->vb[slot];
  return b->stamp == q->w->stamp && g > b->g * (1 + 1e-12) + 1e-12;
}

/* May the root at 'slot' be a root at cost g (not reached before at less)? */
static int fresh(astar_navmesh_query *q, uint32_t slot, double g) {
  if (beaten(q, slot, g)) return 0;
  q->w->vb[slot].stamp = q->w->stamp; q->w->vb[slot].g = g;
  return 1;
}

/* Was node n's root reached again, since n was made, at a smaller g? Then
** everything n would give comes cheaper from there (Polyanya's pruning of a
** root's dominated nodes, when they leave the heap). */
static int stale(const astar_navmesh_query *q, const pnode *n) {
  return n->slot != NONE && beaten(q, n->slot, n->g);
}

/* Was the corner side 'slot' already seen whole (pcorner) at a cost at most
** g? Then nothing rooted there at g can add to it. Kept in the upper half
** of vb (slots are half-edges, fewer than nh). */
static int seenwhole(astar_navmesh_query *q, uint32_t slot, double g, int mark) {
  uint32_t k = slot + q->mesh->nh;
  struct nm_best *b = &q->w->vb[k];
  if (b->stamp == q->w->stamp && g >= b->g * (1 - 1e-12) - 1e-12) return 1;
  if (mark) { b->stamp = q->w->stamp; b->g = g; }
  return 0;
}

/* Polyanya's dead-end pruning: an interval into a polygon whose only
** neighbour is the one it came from, with neither the goal nor a link's
** start in it, has nowhere to go. (With partial paths it is still kept, off
** the heap, in case it comes nearest the goal: see pchild.) */
static int deadend(const astar_navmesh_query *q, uint32_t p) {
  const astar_navmesh *m = q->mesh;
  return m->pport[p] == 1 && !ingoal(q, p) && (m->lks == NULL || m->lks[p] == m->lks[p + 1]);
}

static void keepbest(astar_navmesh_query *q, uint32_t ni);

/* The length of the shortest way from (rx, ry) through the interval [tl, tr]
** of the edge from e[0], e[1] to e[2], e[3] to (gx, gy), the h of a node:
** straight when the line to the goal (nm_crossing_xy) crosses the interval (one
** square root), else by the interval's nearer end. */
static double through(const double *e, double tl, double tr, double rx, double ry, double gx,
                      double gy) {
  nm_cross c;
  double x, y, t;
  nm_crossing_xy(e[0], e[1], e[2], e[3], rx, ry, gx, gy, &c);
  if (c.t > tl * c.l2 && c.t < tr * c.l2) return sqrt(c.d2 / c.l2);
  t = c.t > tl * c.l2 ? tr : tl;                   /* NaN: tl, as astar__nm_portalpoint */
  x = c.ax + t * c.dx; y = c.ay + t * c.dy;
  return len2d(x - rx, y - ry) + len2d(gx - x, gy - y);
}

/* A child's interval: on half-edge he of polygon Q, which runs from (e[0],
** e[1]) to (e[2], e[3]) (the caller has them: no loads of Q's records). */
typedef struct cedge { uint32_t he, Q; double e[4]; } cedge;

/* The child across edge h of the polygon (from p to w), which is its twin's. */
static void across(const astar_navmesh *m, uint32_t h, double px, double py, double wx,
                   double wy, cedge *c) {
  c->he = m->htw[h]; c->Q = m->hn[h];
  c->e[0] = wx; c->e[1] = wy; c->e[2] = px; c->e[3] = py;
}

/* Interval node n's f, its interval on the edge from (e[0], e[1]) to (e[2],
** e[3]); 0 if that is beyond max_cost. */
static int pfinish(const astar_navmesh_query *q, pnode *n, const double *e) {
  double w = q->params.algorithm == ASTAR_ALG_DIJKSTRA ? 0 : q->params.weight;
  double h = through(e, n->tl, n->tr, n->rx, n->ry, q->w->gx, q->w->gy);
  n->f = n->g + w * (q->w->lkK < h ? astar__nm_link_h(q, n->rx, n->ry, h) : h);  /* links */
  return !(n->f > q->params.max_cost);           /* as the other nodes: NaN is no limit */
}

/* Pushes the node (root, at cost g, its best g kept at 'slot'; interval [tl,
** tr] of the edge c). Its h waits while it is a child to defer (pdefer): a
** node expanded at once past the heap (exact_step's intermediate pruning)
** never needs one, as Polyanya's do not; but under a max_cost each node's f
** is checked as it is made, so that none beyond it is expanded (and none
** becomes a partial path's end). */
static int pchild(astar_navmesh_query *q, uint32_t parent, double rx, double ry, uint32_t root,
                  uint32_t slot, double g, const cedge *c, double tl, double tr) {
  pnode n;
  int dead = deadend(q, c->Q);
  if (dead && !q->params.partial) return 0;
  if (tl < 1e-9) tl = 0;                           /* ends at a vertex: exactly */
  if (tr > 1 - 1e-9) tr = 1;
  n.rx = rx; n.ry = ry; n.g = n.f = g;
  n.tl = tl; n.tr = tr; n.root = root; n.he = c->he; n.poly = c->Q; n.parent = parent;
  n.slot = slot; n.kind = PN_INTERVAL;
  if (!dead && !(q->params.max_cost < HUGE_VAL)) return pdefer(q, &n, c->e);
  if (!pfinish(q, &n, c->e)) return 0;
  if (dead) {                                      /* partial paths: only maybe nearest */
    uint32_t r = pstore(q, &n);
    if (r == NONE) return ASTAR_ENOMEM;
    keepbest(q, r);
    return 0;
  }
  return ppush(q, &n);
}

/* Puts a child the expansion deferred on the heap, with its f if it waited;
** not if that f is beyond max_cost. */
static int pflush(astar_navmesh_query *q, const struct nm_def *d) {
  if (d->later && !pfinish(q, &PN(q)[d->r], d->e)) return 0;
  return pheap(q, d->r);
}

/* May the edge h of the polygon be crossed? (allok: no polygon to ask.) */
static inline int open_edge(const astar_navmesh_query *q, uint32_t h) {
  uint32_t n = q->mesh->hn[h];
  return n != NONE && (q->w->allok || astar__nm_allowed(q->mesh, n, q->include, q->exclude)) &&
         !(q->w->nban > 0 && astar__nm_banned(q, q->mesh->hp[h]));
}

/* Is vertex v a corner a way may bend at (on a wall, or by a polygon the
** flags keep out)? */
static int corner(const astar_navmesh_query *q, uint32_t v) {
  return q->w->allok ? q->mesh->vwall[v] : astar__nm_wallvertex(q, v);
}

/* The half-edge before h in its polygon. */
static uint32_t prevhe(const astar_navmesh *m, uint32_t h) {
  uint32_t p = m->hpoly[h];
  return h > m->pstart[p] ? h - 1 : m->pstart[p + 1] - 1;
}

/* The polygons around corner z that polygon P reaches by turning around z
** through portals (at most FAN), where h0 is P's half-edge that starts at z:
** fan[0] = P; from[i] is the half-edge of fan[i] it was entered by and via[i]
** the fan index it came from. The walk goes round z one way, across each
** polygon's half-edge leaving z (twin's successor: the next one's), then the
** other way, across the half-edge arriving at z (twin: the next one's leaving
** half-edge), each until a wall, a polygon the flags refuse, or P again: a
** step per polygon, none scanning a polygon's sides. Returns how many, and in
** *slot the half-edge leaving z of its smallest polygon, which names this
** side of z: roots are pruned per side, as two regions that only touch at z
** are apart. */
#define FAN 32
static int fan(const astar_navmesh_query *q, uint32_t h0, uint32_t *fanp, uint32_t *from,
               int *via, uint32_t *slot) {
  const astar_navmesh *m = q->mesh;
  uint32_t P = m->hpoly[h0], rep = P;
  int nf = 1, dir;
  fanp[0] = P; from[0] = NONE; via[0] = -1; *slot = h0;
  for (dir = 0; dir < 2; dir++) {
    uint32_t h = h0;                               /* leaves z in the last polygon */
    int at = 0;
    while (nf < FAN) {
      uint32_t x = dir == 0 ? h : prevhe(m, h), R;
      if (!open_edge(q, x)) break;
      if ((R = m->hn[x]) == P) return nf;           /* all the way round */
      h = dir == 0 ? nexthe(m, m->htw[x]) : m->htw[x];
      fanp[nf] = R; from[nf] = m->htw[x]; via[nf] = at; at = nf++;
      if (R < rep) { rep = R; *slot = h; }
    }
  }
  return nf;
}

static uint32_t sideslot(const astar_navmesh_query *q, uint32_t h0) {
  uint32_t fanp[FAN], from[FAN], slot;
  int via[FAN];
  fan(q, h0, fanp, from, via, &slot);
  return slot;
}

/* A bend at corner z, where half-edge hz of polygon P leaves it (cost g),
** seen on the interval [tl, tr] of edge c; *slot: z's side (NONE until the
** first bend at z of an expansion finds it). */
static int pturn(astar_navmesh_query *q, uint32_t parent, uint32_t hz, double g, const cedge *c,
                 double tl, double tr, uint32_t *slotp) {
  const astar_navmesh *m = q->mesh;
  uint32_t z = m->hv[hz], slot = *slotp != NONE ? *slotp : (*slotp = sideslot(q, hz));
  if (seenwhole(q, slot, g, 0) || !fresh(q, slot, g)) return 0;
  return pchild(q, parent, VX(m, z), VY(m, z), z, slot, g, c, tl, tr);
}

static int pfinal(astar_navmesh_query *q, uint32_t parent, double rx, double ry,
                  uint32_t root, double g, uint32_t poly) {
  pnode n;
  n.rx = rx; n.ry = ry; n.root = root; n.g = g + len2d(q->w->gx - rx, q->w->gy - ry);
  n.f = n.g; n.tl = n.tr = 0; n.he = NONE; n.poly = poly; n.parent = parent;
  n.slot = NONE; n.kind = PN_FINAL;
  if (n.f > q->params.max_cost) return 0;
  return ppush(q, &n);
}


/* A bend at (x, y) (vertex 'root') on the way from 'parent', kept for the
** path and never expanded: its index, or NONE (out of memory). */
static uint32_t pway(astar_navmesh_query *q, uint32_t parent, double x, double y,
                     uint32_t root, double g, uint32_t P) {
  pnode n;
  n.rx = x; n.ry = y; n.g = n.f = g; n.tl = n.tr = 0; n.root = root; n.he = NONE;
  n.poly = P; n.parent = parent; n.slot = NONE; n.kind = PN_WAY;
  return pstore(q, &n);
}

/* A way to link i's start from (rx, ry) (a root or a corner, vertex 'root')
** at cost g: the link node at its end. A bend at the corner, if the way turns
** there first, is kept as a node for the path. */
static int plink(astar_navmesh_query *q, uint32_t parent, double rx, double ry,
                 uint32_t root, double g, uint32_t P, uint32_t i) {
  const astar_navmesh *m = q->mesh;
  const double *k = LK(m, i);
  double w = q->params.algorithm == ASTAR_ALG_DIJKSTRA ? 0 : q->params.weight;
  pnode n;
  if ((rx != PN(q)[parent].rx || ry != PN(q)[parent].ry) &&
      (parent = pway(q, parent, rx, ry, root, g, P)) == NONE)
    return ASTAR_ENOMEM;
  n.rx = k[2]; n.ry = k[3]; n.root = NONE; n.he = i; n.poly = P; n.parent = parent;
  n.g = g + len2d(k[0] - rx, k[1] - ry) + q->w->lkmul * k[4];
  n.f = n.g + w * astar__nm_link_h(q, n.rx, n.ry, len2d(q->w->gx - n.rx, q->w->gy - n.ry));
  n.tl = n.tr = 0; n.slot = NONE; n.kind = PN_LINK;
  if (n.f > q->params.max_cost) return 0;
  return ppush(q, &n);
}

/* Expands link node ni: its end, reached first at this g, sees all of every
** polygon holding it (a new start). */
static int plinkend(astar_navmesh_query *q, uint32_t ni) {
  const astar_navmesh *m = q->mesh;
  pnode n = PN(q)[ni];
  uint32_t hold[LK_HOLD], slot = 2 * m->nh + n.he;
  int k, nh, rc;
  if (!fresh(q, slot, n.g)) return 0;
  nh = astar__nm_holders(m, n.rx, n.ry, 1, q->include, q->exclude, hold, LK_HOLD);
  for (k = 0; k < nh; k++) {
    n.poly = hold[k]; n.he = NONE; n.parent = ni; n.slot = slot; n.kind = PN_POINT;
    if ((rc = ppush(q, &n)) != 0) return rc;
  }
  return 0;
}

/* Every link starting in P that the unit may take, seen from (rx, ry). */
static int plinks_from(astar_navmesh_query *q, uint32_t ni, double rx, double ry,
                       uint32_t root, double g, uint32_t P) {
  const astar_navmesh *m = q->mesh;
  uint32_t j;
  int rc;
  if (m->lks == NULL) return 0;
  for (j = m->lks[P]; j < m->lks[P + 1]; j++)
    if (astar__nm_linkok(q, m->lkl[j]) &&
        (rc = plink(q, ni, rx, ry, root, g, P, m->lkl[j])) != 0)
      return rc;
  return 0;
}

/* A bend at corner z (a wall vertex of polygon P, which the node 'parent'
** looks into; hz: P's half-edge leaving z) reached at cost g: z sees the
** whole of every polygon around it that can be reached from P by turning
** around z through portals (not across a wall: two regions that only touch
** at z stay apart). Each gets a
** node rooted at z that sees all of it; P itself not if 'skip0' (the way
** came to z through P along a wall line, and a taut way does not turn back
** into it: on the Moving AI maps seeing P again tripled the nodes). */
static int pcorner(astar_navmesh_query *q, uint32_t parent, uint32_t hz, double g, int skip0) {
  const astar_navmesh *m = q->mesh;
  uint32_t fanp[FAN], from[FAN], idx[FAN], slot, z = m->hv[hz];
  int via[FAN], nf = fan(q, hz, fanp, from, via, &slot), i, rc;
  double w = q->params.algorithm == ASTAR_ALG_DIJKSTRA ? 0 : q->params.weight;
  if (seenwhole(q, slot, g, 0) || !fresh(q, slot, g)) return 0;
  seenwhole(q, slot, g, 1);
  for (i = 0; i < nf; i++) {                       /* parents: the way round, for the corridor */
    pnode n;
    n.rx = VX(m, z); n.ry = VY(m, z); n.g = g; n.root = z; n.he = from[i]; n.poly = fanp[i];
    n.tl = n.tr = 0; n.parent = i > 0 ? idx[via[i]] : parent; n.slot = slot; n.kind = PN_POINT;
    n.f = g + w * astar__nm_link_h(q, n.rx, n.ry, len2d(q->w->gx - n.rx, q->w->gy - n.ry));
    if (n.f > q->params.max_cost) return 0;
    if (i == 0 && skip0) { idx[0] = parent; continue; }
    idx[i] = (uint32_t)q->w->npn;
    if ((rc = ppush(q, &n)) != 0) return rc;
  }
  return 0;
}

/* Along a wall: the point (x, y) (vertex 'at', or NONE), reached at cost g,
** lies on the line of edge h of polygon P. The way on goes straight to the
** edge's nearer end z, a corner, which sees every polygon round it that P
** reaches by turning about z (pcorner). When the path bends at 'at' first,
** a node records that bend. */
static int palong(astar_navmesh_query *q, uint32_t parent, double x, double y, uint32_t at,
                  double g, uint32_t h, uint32_t P) {
  const astar_navmesh *m = q->mesh;
  uint32_t p = m->hv[h], w = m->hv[nexthe(m, h)], z, hz;
  double dp = len2d(VX(m, p) - x, VY(m, p) - y), dw = len2d(VX(m, w) - x, VY(m, w) - y);
  z = dp <= dw ? p : w;
  hz = z == p ? h : nexthe(m, h);                  /* P's half-edge leaving z */
  if (z == at) return pcorner(q, parent, hz, g, 0);  /* the bend is at the edge's end */
  if (!corner(q, z)) return 0;
  if (at != NONE && at != z && at != PN(q)[parent].root &&      /* the bend at 'at' */
      (parent = pway(q, parent, x, y, at, g, P)) == NONE)
    return ASTAR_ENOMEM;
  /* z turns the way into every polygon round it, not only the one across h:
  ** the goal may lie in one that shares no edge with P (issue 15) */
  return pcorner(q, parent, hz, g + fmin(dp, dw), 1);
}

/* Where A + s (B - A) >= 0 for s in [0, 1]: [*lo, *hi] (empty: lo > hi). */
static void halfrange(double A, double B, double *lo, double *hi) {
  if (A >= 0 && B >= 0) { *lo = 0; *hi = 1; }
  else if (A < 0 && B < 0) { *lo = 1; *hi = 0; }
  else if (A < 0) { *lo = A / (A - B); *hi = 1; }
  else { *lo = 0; *hi = A / (A - B); }
}

/* The rest of [0, 1] outside the range [lo, hi] (one piece, as the range
** touches an end or is empty); 0 if it is (almost) nothing. */
static int outside(double lo, double hi, double *o0, double *o1) {
  if (lo > hi) { *o0 = 0; *o1 = 1; return 1; }
  if (lo > 1e-12) { *o0 = 0; *o1 = lo; return 1; }
  if (hi < 1 - 1e-12) { *o0 = hi; *o1 = 1; return 1; }
  return 0;
}

/* Expands a start or corner node 'ni': it sees all of its polygon. */
static int pseen(astar_navmesh_query *q, uint32_t ni, const pnode *np) {
  const astar_navmesh *m = q->mesh;
  pnode n = *np;
  uint32_t P = n.poly, a0 = m->pstart[P], k = m->pstart[P + 1] - a0, j;
  int rc;
  if (ingoal(q, P)) {
    if ((rc = pfinal(q, ni, n.rx, n.ry, n.root, n.g, P)) != 0) return rc;
    if (m->nlk == 0) return 0;                     /* straight there: nothing is shorter */
  }
  if ((rc = plinks_from(q, ni, n.rx, n.ry, n.root, n.g, P)) != 0) return rc;
  for (j = 0; j < k; j++) {
    uint32_t h = a0 + j, hw = j + 1 < k ? h + 1 : a0;
    double px = HX(m, h), py = HY(m, h), wx = HX(m, hw), wy = HY(m, hw);
    double dx = wx - px, dy = wy - py;
    cedge ce;
    if (!open_edge(q, h)) continue;
    if (fabs(cross2(dx, dy, n.rx - px, n.ry - py)) <= m->eps * len2d(dx, dy)) {
      /* on the edge's line: along it to its nearer end, a corner to turn at */
      double dp = len2d(px - n.rx, py - n.ry), dw = len2d(wx - n.rx, wy - n.ry);
      if (fmax(dp, dw) > len2d(dx, dy) + m->eps &&
          (rc = palong(q, ni, n.rx, n.ry, n.root, n.g, h, P)) != 0)
        return rc;
      continue;
    }
    across(m, h, px, py, wx, wy, &ce);
    if ((rc = pchild(q, ni, n.rx, n.ry, n.root, n.slot, n.g, &ce, 0, 1)) != 0) return rc;
  }
  return 0;
}

/* What an interval node sees: its ends (a toward u, b toward v), whether
** each is a corner to bend at; and a way reach() found: from root (rx, ry),
** vertex 'root', at cost g. */
typedef struct view {
  double ax, ay, bx, by, rx, ry, g;
  uint32_t u, v, root;
  int cornu, cornv;
  /* for the far edges (far_edge): the node's polygon, the half-edge after
  ** its own (leaving v), and pturn's slots for bends at u and at v */
  uint32_t poly, hv1, slotu, slotv;
} view;

/* Does node n reach the point (tx, ty) of its polygon: straight through its
** cone (a point within eps of a ray's line is in it: the ray was cast
** through a corner, and a straight way that grazes it is a way), or round an
** end of its interval that is a corner? Then the way into vw. */
static int reach(const astar_navmesh *m, const pnode *n, view *vw, double tx, double ty) {
  double oR = cross2(vw->bx - n->rx, vw->by - n->ry, tx - n->rx, ty - n->ry);
  double oL = cross2(vw->ax - n->rx, vw->ay - n->ry, tx - n->rx, ty - n->ry);
  double tR = m->eps * len2d(vw->bx - n->rx, vw->by - n->ry);
  double tL = m->eps * len2d(vw->ax - n->rx, vw->ay - n->ry);
  if (oR >= -tR && oL <= tL) {
    vw->rx = n->rx; vw->ry = n->ry; vw->root = n->root; vw->g = n->g;
  } else if (oR < 0 && vw->cornv) {
    vw->rx = vw->bx; vw->ry = vw->by; vw->root = vw->v;
    vw->g = n->g + len2d(vw->bx - n->rx, vw->by - n->ry);
  } else if (oL > 0 && vw->cornu) {
    vw->rx = vw->ax; vw->ry = vw->ay; vw->root = vw->u;
    vw->g = n->g + len2d(vw->ax - n->rx, vw->ay - n->ry);
  } else {
    return 0;
  }
  return 1;
}

/* The links starting in interval node n's polygon, each reached as the goal. */
static int pexpand_links(astar_navmesh_query *q, uint32_t ni, const pnode *n, view *vw) {
  const astar_navmesh *m = q->mesh;
  uint32_t j, i;
  int rc;
  for (j = m->lks[n->poly]; j < m->lks[n->poly + 1]; j++) {
    i = m->lkl[j];
    if (astar__nm_linkok(q, i) && reach(m, n, vw, LK(m, i)[0], LK(m, i)[1]) &&
        (rc = plink(q, ni, vw->rx, vw->ry, vw->root, vw->g, n->poly, i)) != 0)
      return rc;
  }
  return 0;
}

/* Which side of the ray from node n's root through s the start of half-edge
** h is: > 0 left of it, < 0 right (the cross product). */
static double side(const astar_navmesh *m, const pnode *n, const double *s, uint32_t h) {
  return cross2(s[0] - n->rx, s[1] - n->ry, HX(m, h) - n->rx, HY(m, h) - n->ry);
}

/* The half-edge of the polygon (first half-edge a0, k sides) that starts at
** V(j), counted from its half-edge a0 + e (0 <= e < k, 0 <= j <= k): no '%',
** which is a division. */
static inline uint32_t vat(uint32_t a0, uint32_t e, uint32_t k, uint32_t j) {
  return a0 + (e + j >= k ? e + j - k : e + j);
}

/* The far edges of polygon P that can give an interval node anything. Far
** edge j (1 <= j < k) runs from vertex V(j) to V(j + 1) of P, counted from
** the node's edge e (V(1) its right end, V(k) its left). An edge clearly
** right of the right ray (r to b) lies outside the cone, where only a bend at
** b would see it: it gives nothing, no part of it in the cone and, its ends
** more than eps times any edge's length from the ray's line, no way along it
** either (far_edge's tests), unless b is a corner. Such edges come first: if
** V(1) is clearly right (then b is inside e, no corner), the far chain of the
** convex polygon crosses the ray's line once, and the vertices clearly right
** are a prefix; if b = V(1) (on the line) is no corner and V(2) is clearly
** right, the distance from the line falls from V(1) into one valley and the
** vertices clearly right are a prefix from V(2), edge 1 with them (V(1) lies
** on the ray: the edge touches the cone only there). Bisection finds where
** they end. Likewise left of the left ray. Returns the first edge that may
** give something in *lo and the last in *hi. */
static void far_range(const astar_navmesh *m, const pnode *n, uint32_t a0, uint32_t k,
                      const double *a, const double *b, int cornu, int cornv, uint32_t *lo,
                      uint32_t *hi) {
  uint32_t e = n->he - a0, l, r, s;
  double t = m->eps * ((m->box[2] - m->box[0]) + (m->box[3] - m->box[1]));   /* >= any edge */
  *lo = 1; *hi = k - 1;
  s = side(m, n, b, vat(a0, e, k, 1)) < -t ? 1                       /* V(1) clearly right */
      : !cornv && side(m, n, b, vat(a0, e, k, 2)) < -t ? 2 : 0;   /* or V(2) */
  if (s > 0) {
    for (l = s, r = k - 1; l < r;) {           /* the first j with V(j + 1) not so */
      uint32_t mid = l + (r - l) / 2;
      if (side(m, n, b, vat(a0, e, k, mid + 1)) < -t) l = mid + 1; else r = mid;
    }
    *lo = l;
  }
  s = side(m, n, a, a0 + e) > t ? k - 1                              /* V(k) clearly left */
      : !cornu && side(m, n, a, vat(a0, e, k, k - 1)) > t ? k - 2 : 0;   /* V(k-1) */
  if (s > 0 && s >= *lo) {
    for (l = *lo, r = s; l < r;) {              /* the last j with V(j) not so */
      uint32_t mid = l + (r - l + 1) / 2;
      if (side(m, n, a, vat(a0, e, k, mid)) > t) r = mid - 1; else l = mid;
    }
    *hi = l;
  }
}

/* A far edge: half-edge h from (px, py) to the next one's start (wx, wy),
** hw; e2 = (eps |edge|)^2, so that |cross| <= eps |edge| needs no square
** root for the edges that are not near a line. */
typedef struct fedge {
  uint32_t h, hw;
  double px, py, wx, wy, e2;
} fedge;

/* Far edge f lies on the line of node n's root, within eps: if it lies in
** the cone, the way goes along it (palong, unless it starts at the root
** itself) and *done is set. */
static int along_root(astar_navmesh_query *q, uint32_t ni, const pnode *n, const view *vw,
                      const fedge *f, int *done) {
  const astar_navmesh *m = q->mesh;
  int nearp = (f->px - n->rx) * (f->px - n->rx) + (f->py - n->ry) * (f->py - n->ry) <=
              (f->wx - n->rx) * (f->wx - n->rx) + (f->wy - n->ry) * (f->wy - n->ry);
  double zx = nearp ? f->px : f->wx, zy = nearp ? f->py : f->wy;
  double len = len2d(f->wx - f->px, f->wy - f->py);
  *done = cross2(vw->bx - n->rx, vw->by - n->ry, zx - n->rx, zy - n->ry) >= -m->eps * len &&
          cross2(vw->ax - n->rx, vw->ay - n->ry, zx - n->rx, zy - n->ry) <= m->eps * len;
  if (*done && m->hv[nearp ? f->h : f->hw] != n->root)
    return palong(q, ni, n->rx, n->ry, n->root, n->g, f->h, vw->poly);
  return 0;
}

/* Far edge f outside the cone beyond the ray through the interval's left
** end ('left') or right end, which is a corner: the path bends there, along
** the edge if it lies on a line through the corner (palong: such an edge
** needs all its polygons), else into the part [o0, o1] of it (ce). */
static int bend(astar_navmesh_query *q, uint32_t ni, const pnode *n, view *vw, const fedge *f,
                const cedge *ce, double o0, double o1, int left) {
  double x = left ? vw->ax : vw->bx, y = left ? vw->ay : vw->by;
  double c = cross2(f->wx - f->px, f->wy - f->py, x - f->px, y - f->py);
  double g = n->g + len2d(x - n->rx, y - n->ry);
  if (c * c <= f->e2) return palong(q, ni, x, y, left ? vw->u : vw->v, g, f->h, vw->poly);
  return pturn(q, ni, left ? n->he : vw->hv1, g, ce, 1 - o1, 1 - o0,
               left ? &vw->slotu : &vw->slotv);
}

/* What far edge h (to the next half-edge hw) of node n's polygon gives: the
** part of it inside the cone as a child, or a way along it, and the parts
** outside the cone round a corner at either end of the interval (bend). */
static int far_edge(astar_navmesh_query *q, uint32_t ni, const pnode *n, view *vw, uint32_t h,
                    uint32_t hw) {
  const astar_navmesh *m = q->mesh;
  const double px = HX(m, h), py = HY(m, h), wx = HX(m, hw), wy = HY(m, hw);
  double A, B, C, D, lo, hi, r0, r1, l0, l1, o0, o1, c;
  fedge f;
  cedge ce;
  int rc, done;
  f.h = h; f.hw = hw; f.px = px; f.py = py; f.wx = wx; f.wy = wy;
  f.e2 = m->eps * m->eps * ((wx - px) * (wx - px) + (wy - py) * (wy - py));
  c = cross2(wx - px, wy - py, n->rx - px, n->ry - py);
  if (c * c <= f.e2) {
    if ((rc = along_root(q, ni, n, vw, &f, &done)) != 0 || done) return rc;
    /* on the root's line but outside the cone: all of it lies beyond one ray,
    ** where only a bend at that end of the interval sees it (below; issue 15) */
  }
  A = cross2(vw->bx - n->rx, vw->by - n->ry, px - n->rx, py - n->ry);  /* >= 0: left of right ray */
  B = cross2(vw->bx - n->rx, vw->by - n->ry, wx - n->rx, wy - n->ry);
  C = -cross2(vw->ax - n->rx, vw->ay - n->ry, px - n->rx, py - n->ry); /* >= 0: right of left ray */
  D = -cross2(vw->ax - n->rx, vw->ay - n->ry, wx - n->rx, wy - n->ry);
  across(m, h, px, py, wx, wy, &ce);
  halfrange(A, B, &r0, &r1);                     /* where the edge is inside each ray */
  halfrange(C, D, &l0, &l1);
  lo = r0 > l0 ? r0 : l0;                        /* not fmax/fmin: calls, and */
  hi = r1 < l1 ? r1 : l1;                        /* no NaN can come here */
  /* in the twin half-edge (w -> p) fractions are 1 - s */
  if (hi - lo > 1e-12 &&
      (rc = pchild(q, ni, n->rx, n->ry, n->root, n->slot, n->g, &ce, 1 - hi, 1 - lo)) != 0)
    return rc;
  if (vw->cornv && outside(r0, r1, &o0, &o1) && (rc = bend(q, ni, n, vw, &f, &ce, o0, o1, 0)) != 0)
    return rc;
  if (vw->cornu && outside(l0, l1, &o0, &o1)) return bend(q, ni, n, vw, &f, &ce, o0, o1, 1);
  return 0;
}

/* The interval node ni's view of its polygon: the ends of its interval,
** which of them are corners, and the rest of vw that the far edges read. */
static void view_of(const astar_navmesh_query *q, const pnode *n, uint32_t a0, uint32_t k,
                    view *vw) {
  const astar_navmesh *m = q->mesh;
  double ex, ey;
  vw->poly = n->poly;
  vw->hv1 = vat(a0, n->he - a0, k, 1);             /* the edge's next: P's leaving v */
  vw->u = m->hv[n->he]; vw->v = m->hv[vw->hv1];
  ex = HX(m, vw->hv1) - HX(m, n->he); ey = HY(m, vw->hv1) - HY(m, n->he);
  vw->ax = HX(m, n->he) + n->tl * ex; vw->ay = HY(m, n->he) + n->tl * ey;   /* left end (u) */
  vw->bx = HX(m, n->he) + n->tr * ex; vw->by = HY(m, n->he) + n->tr * ey;   /* right end (v) */
  if (n->tl == 0) vw->ax = HX(m, n->he), vw->ay = HY(m, n->he);
  if (n->tr == 1) vw->bx = HX(m, vw->hv1), vw->by = HY(m, vw->hv1);
  vw->cornu = n->tl == 0 && corner(q, vw->u);
  vw->cornv = n->tr == 1 && corner(q, vw->v);
  vw->slotu = vw->slotv = NONE;
}

static int pexpand(astar_navmesh_query *q, uint32_t ni) {
  const astar_navmesh *m = q->mesh;
  pnode n = PN(q)[ni];
  uint32_t P = n.poly, a0 = m->pstart[P], k = m->pstart[P + 1] - a0, j, jlo, jhi, h;
  view vw;
  int rc;
  if (n.kind == PN_POINT) return pseen(q, ni, &n);  /* a start or a corner */
  if (n.kind == PN_LINK) return plinkend(q, ni);
  view_of(q, &n, a0, k, &vw);
  if (ingoal(q, P)) {
    if (reach(m, &n, &vw, q->w->gx, q->w->gy) &&
        (rc = pfinal(q, ni, vw.rx, vw.ry, vw.root, vw.g, P)) != 0)
      return rc;
    /* a way that goes on out of the goal's polygon is longer than from
    ** where it enters straight to the goal (the polygon is convex) */
    if (m->nlk == 0) return 0;
  }
  if (m->lks != NULL && (rc = pexpand_links(q, ni, &n, &vw)) != 0) return rc;
  {
    double av[2], bv[2];
    av[0] = vw.ax; av[1] = vw.ay; bv[0] = vw.bx; bv[1] = vw.by;
    far_range(m, &n, a0, k, av, bv, vw.cornu, vw.cornv, &jlo, &jhi);
  }
  h = vat(a0, n.he - a0, k, jlo - 1);              /* far edge jlo - 1 */
  for (j = jlo; j <= jhi; j++) {                    /* the far edges, right to left */
    h = h + 1 < a0 + k ? h + 1 : a0;
    if (open_edge(q, h) && (rc = far_edge(q, ni, &n, &vw, h, h + 1 < a0 + k ? h + 1 : a0)) != 0)
      return rc;
  }
  return 0;
}

/* Node ni's point nearest the goal: its root, or on its interval. */
static double nearest_goal(const astar_navmesh_query *q, const pnode *n, double *x, double *y) {
  const astar_navmesh *m = q->mesh;
  *x = n->rx; *y = n->ry;
  if (n->kind == PN_INTERVAL) {
    uint32_t u = m->hv[n->he], v = m->hv[nexthe(m, n->he)];
    double ex = VX(m, v) - VX(m, u), ey = VY(m, v) - VY(m, u);
    segdist(q->w->gx, q->w->gy, VX(m, u) + n->tl * ex, VY(m, u) + n->tl * ey,
            VX(m, u) + n->tr * ex, VY(m, u) + n->tr * ey, x, y);
  }
  return len2d(q->w->gx - *x, q->w->gy - *y);
}

/* Keeps the expanded node that comes nearest the goal, for partial paths. */
static void keepbest(astar_navmesh_query *q, uint32_t ni) {
  double x, y, d = nearest_goal(q, &PN(q)[ni], &x, &y);
  struct astar_nm_work *w = q->w;
  if (w->pbest == NONE || d < w->pbd) { w->pbest = ni; w->pbx = x; w->pby = y; w->pbd = d; }
}

/* Starts the exact search: the start's polygons' nodes on the heap. */
int astar__nm_exact_begin(astar_navmesh_query *q) {
  astar_navmesh *m = q->mesh;
  astar_mem *mem = &q->w->mem;
  int i, rc;
  memset(&q->w->st, 0, sizeof q->w->st);
  q->w->npn = q->w->nheap = 0;
  q->w->pbest = NONE;
  q->w->ndef = -1;
  q->w->pend = NONE;
  {
    size_t old = q->w->cvb;
    size_t slots = 2 * (size_t)m->nh + m->nlk;     /* corners, corner sides, links */
    if (astar__reserve(mem, (void **)&q->w->vb, &q->w->cvb, slots, sizeof *q->w->vb))
      return ASTAR_ENOMEM;
    if (q->w->cvb > old) memset(q->w->vb + old, 0, (q->w->cvb - old) * sizeof *q->w->vb);
  }
  if (q->w->stamp == 0 || q->w->stamp == UINT32_MAX) {
    memset(q->w->vb, 0, q->w->cvb * sizeof *q->w->vb);
    q->w->stamp = 0;
  }
  q->w->stamp++;
  q->w->allok = astar__nm_allallowed(m, q->include, q->exclude);
  if ((rc = astar__nm_links_begin(q, 1 / astar__nm_mincost(m), 1)) != 0) return rc;
  q->w->nsp = astar__nm_holders(m, q->w->sx, q->w->sy, 1, q->include, q->exclude, q->w->sp, 8);
  q->w->ngp = astar__nm_holders(m, q->w->gx, q->w->gy, 1, q->include, q->exclude, q->w->gp, 8);
  for (i = 0; i < q->w->nsp; i++) {                   /* start nodes, expanded at once */
    pnode n;
    n.rx = q->w->sx; n.ry = q->w->sy; n.g = 0; n.f = 0; n.tl = n.tr = 0;
    n.root = NONE; n.he = NONE; n.poly = q->w->sp[i]; n.parent = NONE; n.slot = NONE;
    n.kind = PN_POINT;
    if ((rc = ppush(q, &n)) != 0) return rc;
  }
  if (q->w->npn > 0) keepbest(q, 0);                  /* a partial path is at least the start */
  return 0;
}

static int exact_path(astar_navmesh_query *q, uint32_t last, double ex, double ey, int found);

/* Why this ends. A corner becomes a root again only at a smaller g (fresh),
** and each g is the length of one of the finitely many taut ways to it. A
** root's interval nodes follow rays from it; a child lies on a far edge of
** the convex polygon behind its parent, so along every ray each polygon is
** crossed once and a root's chains are at most as long as there are
** polygons. A link's end becomes a start again only at a smaller g, too.
** NODE_CAP turns the impossible (a loop after all) into an error:
** on the Moving AI maps a query makes at most 1.1 nodes per vertex and
** portal side (tools/navmesh_sweep.lua prints the largest ratio). */
#define NODE_CAP(m) (256 * ((size_t)(m)->nh + (size_t)(m)->nv + (size_t)(m)->nlk + 64))

/* Polyanya's intermediate pruning: an interval node that is its parent's
** only child, looking into a polygon with neither the goal nor a link's
** start in it, is expanded at once instead of going through the heap: it
** would be next or nearly so. The result is the same: A* may expand a node
** early (nothing is closed but roots, and a root reached again at a smaller
** g is searched again); it still ends only when the goal's node is the
** cheapest on the heap. (Asking also that the polygon have two neighbours,
** as this did before, kept a node in four on the heap on Polyanya's meshes.) */
static int intermediate(const astar_navmesh_query *q, uint32_t c) {
  const astar_navmesh *m = q->mesh;
  const pnode *n = &PN(q)[c];
  return n->kind == PN_INTERVAL && !ingoal(q, n->poly) &&
         (m->lks == NULL || m->lks[n->poly] == m->lks[n->poly + 1]);
}

int astar__nm_exact_step(astar_navmesh_query *q, uint64_t budget) {
  uint64_t stop = q->w->st.expanded + budget < q->w->st.expanded ? UINT64_MAX
                                                           : q->w->st.expanded + budget;
  int rc;
  while (q->w->nheap > 0 || q->w->pend != NONE) {
    uint32_t ni = q->w->pend;
    if (q->w->npn > NODE_CAP(q->mesh)) return ASTAR_EINTERNAL;
    if (ni == NONE && PN(q)[q->w->heap[0].r].kind == PN_FINAL)         /* the goal */
      return exact_path(q, ppop(q), q->w->gx, q->w->gy, 1);
    if (q->w->st.expanded >= q->params.max_expansions) return ASTAR_LIMIT;
    if (q->w->st.expanded >= stop) return ASTAR_RUNNING;
    if (ni == NONE) ni = ppop(q);
    q->w->pend = NONE;
    for (;;) {
      int nc, k;
      if (stale(q, &PN(q)[ni])) break;
      q->w->st.expanded++;
      if (q->params.partial && PN(q)[ni].kind != PN_WAY && PN(q)[ni].kind != PN_LINK)
        keepbest(q, ni);                           /* a link's end: its polygons' nodes */
      q->w->ndef = 0;
      rc = pexpand(q, ni);
      nc = q->w->ndef;
      q->w->ndef = -1;
      if (rc != 0) return rc;
      if (nc == 1 && intermediate(q, q->w->def[0].r)) {   /* on at once, past the heap */
        ni = q->w->def[0].r;
        if (q->w->st.expanded < stop && q->w->st.expanded < q->params.max_expansions) continue;
        q->w->pend = ni;                           /* the next step starts there: steps of */
        break;                                     /* any size make the same search */
      }
      for (k = 0; k < nc; k++)
        if ((rc = pflush(q, &q->w->def[k])) != 0) return rc;
      break;
    }
  }
  return q->params.max_cost < HUGE_VAL ? ASTAR_LIMIT : ASTAR_NO_PATH;
}

long astar__nm_exact_partial(astar_navmesh_query *q) {
  int rc;
  if (q->w->pbest == NONE) return 0;
  rc = exact_path(q, q->w->pbest, q->w->pbx, q->w->pby, 0);
  return rc != ASTAR_FOUND ? rc : (long)q->w->nout;
}

/* Adds (x, y) to the path being collected backwards unless it repeats the
** last point; returns its index. */
static size_t addpt(double *out, size_t *np, double x, double y) {
  if (*np > 0 && out[2 * *np - 2] == x && out[2 * *np - 1] == y) return *np - 1;
  out[2 * *np] = x; out[2 * *np + 1] = y;
  return (*np)++;
}

/* The path through the roots of 'last' and its ancestors, ending at (ex, ey),
** into q->w->out, its link steps into q->w->steps, its cost into pcost. */
static int exact_points(astar_navmesh_query *q, uint32_t last, double ex, double ey) {
  const pnode *pn = PN(q);
  const astar_navmesh *m = q->mesh;
  size_t np = 1, k;
  uint32_t x;
  double len = 0, links = 0, *out, *st;
  for (x = last; x != NONE; x = pn[x].parent) np += pn[x].kind == PN_LINK ? 2 : 1;
  if (astar__reserve(&q->w->mem, (void **)&q->w->out, &q->w->cout, 2 * np, sizeof(double)) ||
      astar__reserve(&q->w->mem, (void **)&q->w->corr, &q->w->ccorr, 2 * np + 2, sizeof(uint32_t)) ||
      astar__nm_steps(q, np))
    return ASTAR_ENOMEM;
  out = q->w->out; st = q->w->steps;
  np = 0;
  addpt(out, &np, ex, ey);
  q->w->linked = 0;
  for (x = last; x != NONE; x = pn[x].parent) {     /* goal first; st[i]: the step i -> i-1 */
    size_t b = addpt(out, &np, pn[x].rx, pn[x].ry);
    if (pn[x].kind == PN_LINK) {
      const double *lk = LK(m, pn[x].he);
      size_t a = addpt(out, &np, lk[0], lk[1]);
      if (a != b) { st[a] = lk[4]; q->w->linked = 1; }
    }
  }
  for (k = 0; k < np / 2; k++) {                   /* start first */
    double tx = out[2 * k], ty = out[2 * k + 1], tc = st[k];
    out[2 * k] = out[2 * (np - 1 - k)]; out[2 * k + 1] = out[2 * (np - 1 - k) + 1];
    out[2 * (np - 1 - k)] = tx; out[2 * (np - 1 - k) + 1] = ty;
    st[k] = st[np - 1 - k]; st[np - 1 - k] = tc;    /* a link's start a, with b after */
  }
  for (k = 1; k < np; k++) {
    if (st[k - 1] >= 0) links += st[k - 1];
    else len += len2d(out[2 * k] - out[2 * k - 2], out[2 * k + 1] - out[2 * k - 1]);
  }
  q->w->nout = np;
  q->w->pcost = len * m->cost[pn[last].poly] + links;
  return 0;
}

static int exact_path(astar_navmesh_query *q, uint32_t last, double ex, double ey, int found) {
  const astar_navmesh *m = q->mesh;
  const pnode *pn;
  size_t nc = 0, npt = 0, cap, k;
  uint32_t x, prev = NONE, lastportal = NONE;
  int rc = exact_points(q, last, ex, ey);
  if (rc != 0) return rc;
  /* the corridor: the nodes' polygons (not twice in a row) and the portals
  ** they were entered by, collected backwards: polygons from the front,
  ** portals from the back of q->w->corr, then joined */
  pn = PN(q);
  cap = q->w->ccorr;
  for (x = found ? pn[last].parent : last; x != NONE; x = pn[x].parent) {
    uint32_t in = pn[x].kind != PN_LINK && pn[x].he != NONE ? m->hp[pn[x].he] : NONE;
    if (pn[x].kind == PN_WAY) continue;
    if (pn[x].poly == prev) {                 /* P's way in is its first node's */
      if (in != NONE) lastportal = in;
      continue;
    }
    if (prev != NONE) q->w->corr[cap - 1 - npt++] = lastportal;   /* NONE: a link */
    q->w->corr[nc++] = prev = pn[x].poly;
    lastportal = in;
  }
  for (k = 0; k < nc / 2; k++) {
    uint32_t t = q->w->corr[k]; q->w->corr[k] = q->w->corr[nc - 1 - k]; q->w->corr[nc - 1 - k] = t;
  }
  for (k = 0; k < npt; k++) q->w->corr[nc + k] = q->w->corr[cap - npt + k];
  q->w->ncorr = nc;
  if ((rc = astar__nm_unloop(q)) != 0) return rc;
  return ASTAR_FOUND;
}

