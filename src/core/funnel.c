/*
** funnel.c - the funnel (string pulling through a corridor of portals),
** shared by the navmesh's paths (navmesh_funnel.c) and the taut strings of
** grid paths (grid_pull.c).
**
** The corridor is a chain of convex regions, portal k the segment from
** region k - 1 into region k, given by its ends as seen by the traveller
** (left, right); portal 0 is the start and portal np the goal, both one
** point. The funnel keeps the apex (the last corner the string bends round)
** and the two sides, the lines from the apex to the latest left and right
** ends that still narrow it. An end that would cross the other side makes
** that side's end the next corner, and the scan starts again from it.
**
** Termination: each corner is an end of a later portal than the one before
** it (a side that crosses was narrowed after the apex was set, since a side
** still on the apex never crosses), so there are at most np + 1 corners and
** at most np + 1 scans of at most np portals.
*/
#include <math.h>
#include "core.h"

typedef const double (*ends)[2];

/* (b - o) x (c - o): > 0 if c is left of the line o -> b. */
static double turn(const double *o, const double *b, const double *c) {
  return (b[0] - o[0]) * (c[1] - o[1]) - (b[1] - o[1]) * (c[0] - o[0]);
}

/* The squared distance from a to b. */
static double dist2(const double *a, const double *b) {
  return (b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1]);
}

/* The funnel: the apex (its point A, its code, and e2: how near to A a point
** is one with it as far as directions from A go), and per side (1 right, 0
** left) the end it runs to (point and code). */
typedef struct funnel {
  const double *A, *S[2];
  uint32_t apex, side[2];
  double e2;
} funnel;

static void set_apex(funnel *f, const double *A, uint32_t code) {
  double e = 1e-12 * (1 + fabs(A[0]) + fabs(A[1]));
  f->A = f->S[0] = f->S[1] = A;
  f->apex = f->side[0] = f->side[1] = code;
  f->e2 = e * e;
}

/* Offers end N (code c) on side s to the funnel; returns 1 if it made a
** corner (the apex moved, the sides reset to it), else 0. */
static int offer(funnel *f, const double *N, uint32_t c, int s) {
  const double *A = f->A, *M = f->S[s], *O = f->S[!s];
  double sg = s ? 1 : -1, x;
  if (dist2(A, N) <= f->e2 || (M[0] == N[0] && M[1] == N[1])) {
    f->S[s] = N; f->side[s] = c;       /* no direction: the end is the side */
    return 0;
  }
  if (dist2(A, M) > f->e2 && sg * turn(A, M, N) < 0) return 0;   /* widens: the side stays */
  x = dist2(A, O) <= f->e2 ? 1 : sg * turn(A, N, O);
  if (x > 0) {                         /* narrows, still inside the other side */
    f->S[s] = N; f->side[s] = c;
    return 0;
  }
  if (x == 0 && dist2(A, N) < dist2(A, O)) {   /* one ray: its nearer end is the corner */
    f->S[!s] = N; f->side[!s] = c;
  }
  set_apex(f, f->S[!s], f->side[!s]);
  return 1;
}

size_t astar__funnel(const double (*l)[2], const double (*r)[2], size_t np, uint32_t *out) {
  funnel f;
  uint32_t i;
  size_t n = 0;
  set_apex(&f, l[0], 0);
  out[n++] = 0;
  for (i = 1; i <= np; i++)
    if (offer(&f, r[i], 2 * i + 1, 1) || offer(&f, l[i], 2 * i, 0)) {
      out[n++] = f.apex;
      i = f.apex >> 1;                 /* again from the portal after the corner */
    }
  if (f.A[0] == l[np][0] && f.A[1] == l[np][1]) n--;
  out[n++] = 2 * (uint32_t)np;
  return n;
}
