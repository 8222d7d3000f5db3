/*
** curve.c - the shortest way for a vehicle that only drives forward and
** turns no tighter than radius r, from one pose (x, y, heading) to another
** (Dubins, 1957): an arc, a straight or an arc, and an arc, one of the six
** words LSL, RSR, LSR, RSL, RLR, LRL. Pinter's four-case construction (seed
** 001) is the CSC half of it.
**
** Each word is solved in the frame where the start is at the origin, the
** goal on the positive x axis at distance d = D / r, and r = 1: with alpha
** and beta the headings measured from that axis, a word's three lengths
** (t, p, q) follow in closed form (Shkel and Lumelsky, "Classification of the
** Dubins set", 2001), and the shortest word that exists wins. Headings are in
** radians, counter-clockwise from +x: L turns toward larger headings.
*/
#include <math.h>
#include "core.h"

#define TWO_PI 6.283185307179586

static double mod2pi(double a) {
  double m = fmod(a, TWO_PI);
  return m < 0 ? m + TWO_PI : m;
}

/* The word's letters, 'L', 'S' or 'R'. */
static const char *const WORDS[6] = {"LSL", "RSR", "LSR", "RSL", "RLR", "LRL"};

/* Word w's lengths for (alpha, beta, d); 0 if it does not exist. */
static int solve(int w, double a, double b, double d, double *t, double *p, double *q) {
  double sa = sin(a), sb = sin(b), ca = cos(a), cb = cos(b), cab = cos(a - b), p2, tmp;
  switch (w) {
    case 0:                                               /* LSL */
      p2 = 2 + d * d - 2 * cab + 2 * d * (sa - sb);
      if (p2 < 0) return 0;
      tmp = atan2(cb - ca, d + sa - sb);
      *t = mod2pi(tmp - a); *p = sqrt(p2); *q = mod2pi(b - tmp);
      return 1;
    case 1:                                               /* RSR */
      p2 = 2 + d * d - 2 * cab + 2 * d * (sb - sa);
      if (p2 < 0) return 0;
      tmp = atan2(ca - cb, d - sa + sb);
      *t = mod2pi(a - tmp); *p = sqrt(p2); *q = mod2pi(tmp - b);
      return 1;
    case 2:                                               /* LSR */
      p2 = -2 + d * d + 2 * cab + 2 * d * (sa + sb);
      if (p2 < 0) return 0;
      *p = sqrt(p2);
      tmp = atan2(-ca - cb, d + sa + sb) - atan2(-2.0, *p);
      *t = mod2pi(tmp - a); *q = mod2pi(tmp - mod2pi(b));
      return 1;
    case 3:                                               /* RSL */
      p2 = -2 + d * d + 2 * cab - 2 * d * (sa + sb);
      if (p2 < 0) return 0;
      *p = sqrt(p2);
      tmp = atan2(ca + cb, d - sa - sb) - atan2(2.0, *p);
      *t = mod2pi(a - tmp); *q = mod2pi(b - tmp);
      return 1;
    case 4:                                               /* RLR */
      tmp = (6 - d * d + 2 * cab + 2 * d * (sa - sb)) / 8;
      if (fabs(tmp) > 1) return 0;
      *p = mod2pi(TWO_PI - acos(tmp));
      *t = mod2pi(a - atan2(ca - cb, d - sa + sb) + *p / 2);
      *q = mod2pi(a - b - *t + *p);
      return 1;
    default:                                              /* LRL */
      tmp = (6 - d * d + 2 * cab + 2 * d * (sb - sa)) / 8;
      if (fabs(tmp) > 1) return 0;
      *p = mod2pi(TWO_PI - acos(tmp));
      *t = mod2pi(-a - atan2(ca - cb, d + sa - sb) + *p / 2);
      *q = mod2pi(mod2pi(b) - a - *t + *p);
      return 1;
  }
}

int astar_curve_dubins(astar_curve *c, double x0, double y0, double h0, double x1, double y1,
                       double h1, double r) {
  double dx = x1 - x0, dy = y1 - y0, d, th, a, b, best = HUGE_VAL;
  int w;
  if (!(r > 0) || !isfinite(r) || !isfinite(x0) || !isfinite(y0) || !isfinite(h0) ||
      !isfinite(x1) || !isfinite(y1) || !isfinite(h1))
    return ASTAR_EINVAL;
  d = hypot(dx, dy) / r;
  if (!isfinite(d) || d > 1e15) return ASTAR_EINVAL;   /* no finite word to solve */
  th = d > 0 ? mod2pi(atan2(dy, dx)) : 0;
  a = mod2pi(h0 - th);
  b = mod2pi(h1 - th);
  c->x = x0; c->y = y0; c->h = mod2pi(h0); c->r = r;
  c->word = -1;
  for (w = 0; w < 6; w++) {
    double t, p, q;
    if (solve(w, a, b, d, &t, &p, &q) && t + p + q < best) {
      best = t + p + q;
      c->word = w;
      c->seg[0] = t; c->seg[1] = p; c->seg[2] = q;
    }
  }
  if (c->word < 0) return ASTAR_EINTERNAL;       /* some CSC word always exists */
  c->length = best * r;
  return 0;
}

const char *astar_curve_word(const astar_curve *c) { return WORDS[c->word]; }

/* Moves the unit-radius pose (x, y, h) along a segment of kind k by t. */
static void advance(char k, double t, double *x, double *y, double *h) {
  if (k == 'L') {
    *x += sin(*h + t) - sin(*h);
    *y += cos(*h) - cos(*h + t);
    *h += t;
  } else if (k == 'R') {
    *x += sin(*h) - sin(*h - t);
    *y += cos(*h - t) - cos(*h);
    *h -= t;
  } else {
    *x += t * cos(*h);
    *y += t * sin(*h);
  }
}

void astar_curve_sample(const astar_curve *c, double s, double *x, double *y, double *h) {
  const char *w = WORDS[c->word];
  double u = s / c->r, px = 0, py = 0, ph = c->h;
  int i;
  if (u < 0) u = 0;
  for (i = 0; i < 3 && u > 0; i++) {
    double t = u < c->seg[i] ? u : c->seg[i];
    advance(w[i], t, &px, &py, &ph);
    u -= t;
  }
  *x = c->x + px * c->r;
  *y = c->y + py * c->r;
  *h = mod2pi(ph);
}
