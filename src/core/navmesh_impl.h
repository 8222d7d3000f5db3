/*
** navmesh_impl.h - what the navmesh files of the core share (not installed):
** the mesh's layout, small geometry, the exact search's node, and the
** functions one concept offers the others.
**
** Geometry is in doubles. Tolerances are relative to the size of the mesh
** (m->eps = 1e-9 of its bounding box's larger side).
*/
#ifndef ASTAR_NAVMESH_IMPL_H
#define ASTAR_NAVMESH_IMPL_H

#include <float.h>
#include <math.h>
#include <string.h>
#include "core.h"
#define NONE ASTAR_NONE
#define ALLFLAGS 0xffffffffu
/* Arcs around a corner are drawn in pieces of at most ARC_STEP radians, on a
** circle of radius r / cos(ARC_STEP / 2): every chord then stays r away. */
#define ARC_STEP (3.14159265358979323846 / 12)

struct astar_navmesh {
  astar_mem mem;
  uint32_t nv, np, nh, nport, nwall;
  double *xy;            /* nv points */
  uint32_t *pstart;      /* np + 1: polygon p's half-edges are pstart[p] .. pstart[p+1]-1 */
  uint32_t *hv;          /* nh: the vertex a half-edge starts at (counter-clockwise) */
  double *hxy;           /* 2 nh: that vertex's point, in polygon order (the exact search) */
  uint32_t *hn;          /* nh: the polygon across it, or NONE (a wall) */
  uint32_t *hp;          /* nh: its portal, or NONE */
  uint32_t *hpoly;       /* nh: its polygon */
  uint32_t *htw;         /* nh: the same edge in the polygon across, or NONE */
  uint32_t *pport;       /* np: how many of the polygon's edges are portals */
  double *cost;          /* np */
  uint32_t *flags;       /* np */
  uint32_t flor, fland;  /* every polygon's flags or'ed, and'ed (fstale: to recompute) */
  int fstale;
  double mincost, maxcost;
  int minstale, maxstale;
  uint32_t *phe;         /* nport: the half-edge of each portal in its first polygon */
  unsigned char *vwall;  /* nv: the vertex ends a wall edge */
  uint32_t *vps, *vpl;   /* vertex -> polygons: vpl[vps[v] .. vps[v+1]-1] */
  double box[4], cell, eps;
  uint32_t bw, bh;       /* bucket grid */
  uint32_t *bps, *bpl;   /* bucket -> polygons */
  uint32_t *bws, *bwl;   /* bucket -> wall half-edges */
  double *lk;            /* off-mesh links (navmesh_link.c): ax, ay, bx, by, cost each */
  uint32_t nlk;
  size_t clk;            /* lk's room, in doubles */
  uint32_t *lks, *lkl;   /* polygon p -> the links starting in it: lkl[lks[p] .. lks[p+1]-1]
                         ** (NULL: to build, at the next search) */
  uint64_t lkver;        /* counts the edits of links */
  uint64_t version;
};

/* ------------------------------------------------------------------ */
/* Small geometry                                                       */
/* ------------------------------------------------------------------ */

static inline double cross2(double ax, double ay, double bx, double by) { return ax * by - ay * bx; }

/* |(dx, dy)|: sqrt of the sum of squares, not hypot, which guards against
** overflow at several times its cost (16 % of the exact search's time).
** Coordinates are at most 1e100 in magnitude (the binding refuses more), so
** the squares stay finite. */
static inline double len2d(double dx, double dy) { return sqrt(dx * dx + dy * dy); }

/* Distance from p to segment ab; the closest point into *cx, *cy. */
static inline double segdist(double px, double py, double ax, double ay, double bx, double by,
                      double *cx, double *cy) {
  double dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy, t = 0;
  if (l2 > 0) {
    t = ((px - ax) * dx + (py - ay) * dy) / l2;
    if (t < 0) t = 0; else if (t > 1) t = 1;
  }
  *cx = ax + t * dx; *cy = ay + t * dy;
  return hypot(px - *cx, py - *cy);
}

static inline double segseg(double ax, double ay, double bx, double by,
                     double cx, double cy, double dx, double dy) {
  double d1, d2, d3, d4, qx, qy, m;
  double o1 = cross2(bx - ax, by - ay, cx - ax, cy - ay);
  double o2 = cross2(bx - ax, by - ay, dx - ax, dy - ay);
  double o3 = cross2(dx - cx, dy - cy, ax - cx, ay - cy);
  double o4 = cross2(dx - cx, dy - cy, bx - cx, by - cy);
  if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0)))
    return 0;
  d1 = segdist(ax, ay, cx, cy, dx, dy, &qx, &qy);
  d2 = segdist(bx, by, cx, cy, dx, dy, &qx, &qy);
  d3 = segdist(cx, cy, ax, ay, bx, by, &qx, &qy);
  d4 = segdist(dx, dy, ax, ay, bx, by, &qx, &qy);
  m = d1 < d2 ? d1 : d2;
  if (d3 < m) m = d3;
  return d4 < m ? d4 : m;
}

/* A node of the exact search (see there). */
typedef struct pnode pnode;
struct pnode {
  double rx, ry;       /* the root */
  double g, f;         /* the root's g; f = g + weight * h (f = g in a node expanded
                       ** past the heap, which needs none: navmesh_exact.c) */
  double tl, tr;       /* the interval on half-edge 'he': fractions from its start */
  uint32_t root;       /* the root's vertex, NONE for the start */
  uint32_t he;         /* half-edge of 'poly'; NONE: a start or final node */
  uint32_t poly;       /* the polygon the node looks into */
  uint32_t parent;
  uint32_t slot;       /* where the root's best g is kept (navmesh_exact.c: fresh) */
  int kind;            /* PN_* */
};
enum { PN_INTERVAL, PN_POINT, PN_FINAL, PN_WAY, PN_LINK };
/* PN_POINT: sees all its polygon; PN_WAY: a bend, kept for the path; PN_LINK:
** at the end (rx, ry) of link 'he' (navmesh_link.c), taken from its polygon */

#define VX(m, v) ((m)->xy[2 * (size_t)(v)])
#define VY(m, v) ((m)->xy[2 * (size_t)(v) + 1])
#define HX(m, h) ((m)->hxy[2 * (size_t)(h)])
#define HY(m, h) ((m)->hxy[2 * (size_t)(h) + 1])

static inline uint32_t nexthe(const astar_navmesh *m, uint32_t h) {
  uint32_t p = m->hpoly[h];
  return h + 1 < m->pstart[p + 1] ? h + 1 : m->pstart[p];
}

/* Where the straight way from p to g crosses the line of half-edge h, g
** mirrored across that line when on p's side (the way must cross it): the
** edge's start (ax, ay) and direction (dx, dy), l2 = |(dx, dy)|^2, and, both
** times l2 so that no division is made for them, the crossing's fraction
** along the edge (t) and the way's squared length (d2). Shared by the portal
** search's point on a portal and the exact search's h. */
typedef struct nm_cross { double ax, ay, dx, dy, l2, t, d2; } nm_cross;
/* The same for the edge from (ax, ay) to (bx, by), when its ends are at hand. */
static inline void nm_crossing_xy(double ax, double ay, double bx, double by, double px,
                                  double py, double gx, double gy, nm_cross *c) {
  double sp, sg, dp, dg;
  c->ax = ax; c->ay = ay; c->dx = bx - ax; c->dy = by - ay;
  c->l2 = c->dx * c->dx + c->dy * c->dy;
  sp = cross2(c->dx, c->dy, px - c->ax, py - c->ay);
  sg = cross2(c->dx, c->dy, gx - c->ax, gy - c->ay);
  dp = (px - c->ax) * c->dx + (py - c->ay) * c->dy;
  dg = (gx - c->ax) * c->dx + (gy - c->ay) * c->dy;
  if ((sp > 0 && sg > 0) || (sp < 0 && sg < 0)) sg = -sg;   /* same side: mirror g */
  c->t = sp != sg ? dp + (dg - dp) * sp / (sp - sg) : (dp + dg) / 2;
  c->d2 = (dg - dp) * (dg - dp) + (sp - sg) * (sp - sg);
}
static inline void nm_crossing(const astar_navmesh *m, uint32_t h, double px, double py,
                               double gx, double gy, nm_cross *c) {
  uint32_t u = m->hv[h], v = m->hv[nexthe(m, h)];
  nm_crossing_xy(VX(m, u), VY(m, u), VX(m, v), VY(m, v), px, py, gx, gy, c);
}

/* An open node of the exact search: its keys beside its index, so that the
** heap's compares do not load the nodes; 16 bytes: g only breaks ties of f
** (larger first), and a float may merge g values a few 1e-8 apart; any
** order of equal f keeps the search exact (only which of equal-cost paths,
** and how many expansions, may differ). */
struct nm_hent { double f; float g; uint32_t r; };

/* A query's scratch (astar_navmesh_query.w), private to the core. */
#define NM_DEFER 64
struct astar_nm_work {
  double sx, sy, gx, gy, R, hscale;
  uint32_t spoly, gpoly;
  uint32_t snode, gnode;   /* the portal search's start and goal nodes */
  uint32_t pbest;          /* partial paths of the exact search: the expanded */
  double pbx, pby, pbd;    /* node nearest the goal, that point, its distance */
  astar_mem mem;           /* the mesh's allocator, copied: the buffers below
                           ** can be freed after the mesh was */
  double *pt;  size_t cpt;     /* a point per node (2 doubles) */
  double *out; size_t cout;    /* result points, 2 doubles each */
  uint32_t *corr; size_t ccorr; /* result corridor (polygons), then portals */
  size_t ncorr;
  double clear;                 /* with a radius: the path's distance to the walls */
  double pcost;                 /* the path's cost */
  size_t nout;                  /* its points */
  int ready;                    /* find has straightened it */
  int status;                   /* the last search's final status; 0 while none */
  size_t nban;                  /* portals closed after a path came too close to a wall */
  uint32_t ban[ASTAR_NM_BANS];
  double *ctr; size_t cctr;     /* funnel scratch */
  astar_stats st;               /* its statistics */
  void *pn; size_t cpn, npn;    /* its nodes */
  struct nm_hent *heap; size_t cheap, nheap;   /* the exact search's open nodes */
  struct nm_best { double g; uint32_t stamp; } *vb; size_t cvb;   /* best g of each root slot */
  uint32_t stamp;
  int allok;                    /* the exact search: every polygon allowed by the flags */
  uint32_t *ppos; size_t cppos; /* a polygon's place in the corridor (NONE: not in it) */
  struct nm_def {               /* the children of the node being expanded: */
    uint32_t r;                 /* the node; */
    int later;                  /* an interval node whose h waits (f = g till then) */
    double e[4];                /* for it: its edge's ends */
  } def[NM_DEFER];
  int ndef;                     /* how many (-1: push straight onto the heap) */
  uint32_t pend;                /* an intermediate node the last step left to expand next */
  uint32_t sp[8], gp[8];        /* polygons holding the start, the goal */
  int nsp, ngp;
  /* off-mesh links (navmesh_link.c) */
  double lkK;                   /* the least a path pays after its last link (g's units) */
  double lkmul, lkhs;           /* g per unit of link cost; g per unit of length (heuristic) */
  uint64_t lkver;               /* the mesh's lkver when the search began */
  unsigned char *lkok; size_t clkok;  /* the unit fits at both ends of link i */
  double *steps; size_t csteps; /* per result point: the link its step takes (cost), -1 */
  int linked;                   /* the result takes a link: steps is filled */
  double *acc; size_t cacc;     /* piecewise straightening: points, */
  uint32_t *acorr; size_t cacorr;  /* polygons and portals */
};

/* What one concept offers the others (each in the file named above it). */

/* navmesh.c */
void astar__nm_brange(const astar_navmesh *m, double x0, double y0, double x1, double y1,
                      uint32_t *bx0, uint32_t *by0, uint32_t *bx1, uint32_t *by1);
double astar__nm_mincost(astar_navmesh *m);
int astar__nm_allallowed(astar_navmesh *m, uint32_t inc, uint32_t exc);

/* navmesh_locate.c */
int astar__nm_allowed(const astar_navmesh *m, uint32_t p, uint32_t inc, uint32_t exc);
int astar__nm_holders(const astar_navmesh *m, double x, double y, int filter, uint32_t inc,
                      uint32_t exc, uint32_t *out, int max);
uint32_t astar__nm_locatef(const astar_navmesh *m, double x, double y, uint32_t inc,
                           uint32_t exc);

/* navmesh_portal.c */
int astar__nm_wallvertex(const astar_navmesh_query *q, uint32_t v);
int astar__nm_walledge(const astar_navmesh_query *q, uint32_t h);
int astar__nm_banned(const astar_navmesh_query *q, uint32_t portal);
void astar__nm_portalpoint(const astar_navmesh *m, uint32_t h, double lo, double hi,
                           double px, double py, double gx, double gy, double *x, double *y);

/* navmesh_funnel.c */
int astar__nm_straighten(astar_navmesh_query *q, astar_search *s, double *wx, double *wy);
int astar__nm_ban(astar_navmesh_query *q, double x, double y);
int astar__nm_unloop(astar_navmesh_query *q);

/* navmesh_link.c */
#define LK(m, i) ((m)->lk + 5 * (size_t)(i))
/* The polygons a link's end may lie in at once (a vertex shared by more: the
** first LK_HOLD of them take it). */
#define LK_HOLD 32
int astar__nm_links_begin(astar_navmesh_query *q, double lkmul, double hs);
int astar__nm_linkok(const astar_navmesh_query *q, uint32_t i);
double astar__nm_link_h(const astar_navmesh_query *q, double x, double y, double h);
double astar__nm_link_hseg(const astar_navmesh_query *q, double ax, double ay, double bx,
                           double by, double h);
int astar__nm_steps(astar_navmesh_query *q, size_t n);

/* navmesh_exact.c */
int astar__nm_exact_begin(astar_navmesh_query *q);
int astar__nm_exact_step(astar_navmesh_query *q, uint64_t budget);
long astar__nm_exact_partial(astar_navmesh_query *q);

#endif
