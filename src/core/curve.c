/*
** curve.c - the shortest way for a vehicle that turns no tighter than
** radius r, from one pose (x, y, heading) to another: forward only (Dubins,
** 1957), or forward and backward (Reeds and Shepp, 1990).
**
** Dubins: an arc, a straight or an arc, and an arc, one of the six words
** LSL, RSR, LSR, RSL, RLR, LRL. Pinter's four-case construction (seed 001)
** is the CSC half of it. Each word is solved in the frame where the start is
** at the origin, the goal on the positive x axis at distance d = D / r, and
** r = 1: with alpha and beta the headings measured from that axis, a word's
** three lengths (t, p, q) follow in closed form (Shkel and Lumelsky,
** "Classification of the Dubins set", 2001), and the shortest word that
** exists wins.
**
** Reeds-Shepp: the 48 words of the paper's nine families, from eight base
** words solved in closed form in the start's frame (r = 1) and their
** images under three symmetries (see rs_solve). Headings are in radians,
** counter-clockwise from +x: L turns toward larger headings when driving
** forward; an arc's centre is on the unit's left (L) or right (R) whichever
** way it drives.
*/
#include <math.h>
#include <string.h>
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

/* Checks the ends and r, sets c's start and radius, and *d: the distance over r. */
static int ends(astar_curve *c, double x0, double y0, double h0, double x1, double y1,
                double h1, double r, double *d) {
  if (!(r > 0) || !isfinite(r) || !isfinite(x0) || !isfinite(y0) || !isfinite(h0) ||
      !isfinite(x1) || !isfinite(y1) || !isfinite(h1))
    return ASTAR_EINVAL;
  *d = hypot(x1 - x0, y1 - y0) / r;
  if (!isfinite(*d) || *d > 1e15) return ASTAR_EINVAL;   /* no finite word to solve */
  c->x = x0; c->y = y0; c->h = mod2pi(h0); c->r = r;
  return 0;
}

int astar_curve_dubins(astar_curve *c, double x0, double y0, double h0, double x1, double y1,
                       double h1, double r) {
  double d, th, a, b, best = HUGE_VAL;
  int w, i, rc = ends(c, x0, y0, h0, x1, y1, h1, r, &d);
  if (rc != 0) return rc;
  th = d > 0 ? mod2pi(atan2(y1 - y0, x1 - x0)) : 0;
  a = mod2pi(h0 - th);
  b = mod2pi(h1 - th);
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
  c->n = 3;
  c->seg[3] = c->seg[4] = 0;
  for (i = 0; i < ASTAR_CURVE_SEGS; i++) c->dir[i] = 1;
  memcpy(c->kind, WORDS[c->word], 4);
  memcpy(c->name, WORDS[c->word], 4);
  c->length = best * r;
  return 0;
}

/* ---- Reeds-Shepp ---- */

#define PI 3.141592653589793
#define HALF_PI 1.5707963267948966

/* a in (-pi, pi]: an arc's shortest turn to the same pose. */
static double wrap(double a) {
  a = fmod(a, TWO_PI);
  if (a <= -PI) a += TWO_PI;
  else if (a > PI) a -= TWO_PI;
  return a;
}

/*
** The base words, from the start (0, 0, 0) to (x, y, phi) with r = 1. Each
** fills v with its segments' signed lengths (below 0: driven backward) and
** returns whether the word reaches the goal. A word's arcs turn about fixed
** centres, so each solve is a relation between two centres: the start's
** left one, (0, 1), and the goal's left one (x - sin phi, y + cos phi) or
** right one (x + sin phi, y - cos phi); (xi, eta) is the goal's less the
** start's, and the middle segments fix its length rho. No sign is required
** of a length: any solution is a path that reaches the goal, and the
** shortest of them all wins (the paper's sign conditions only pick which of
** them its theorem needs).
*/
typedef int (*rsfn)(double x, double y, double phi, double *v);

/* L S L: the straight joins the two left centres. */
static int rs_lsl(double x, double y, double phi, double *v) {
  double xi = x - sin(phi), eta = y - 1 + cos(phi);
  v[1] = hypot(xi, eta);
  v[0] = atan2(eta, xi);
  v[2] = wrap(phi - v[0]);
  return 1;
}

/* L S R: the goal's right centre is (u, -2) turned by t from the start's left one. */
static int rs_lsr(double x, double y, double phi, double *v) {
  double xi = x + sin(phi), eta = y - 1 - cos(phi), r2 = xi * xi + eta * eta;
  if (r2 < 4) return 0;
  v[1] = sqrt(r2 - 4);
  v[0] = wrap(atan2(eta, xi) + atan2(2.0, v[1]));
  v[2] = wrap(v[0] - phi);
  return 1;
}

/* L R L (C|C|C, C|CC): two left circles touching the middle right one; rho = 4 |sin(u/2)|. */
static int rs_lrl(double x, double y, double phi, double *v) {
  double xi = x - sin(phi), eta = y - 1 + cos(phi), rho = hypot(xi, eta);
  if (rho > 4) return 0;
  v[1] = -2 * asin(rho / 4);
  v[0] = wrap(atan2(eta, xi) + v[1] / 2 + PI);
  v[2] = wrap(phi - v[0] + v[1]);
  return 1;
}

/* L R L R with the middle two u and -u (CC|CC): rho = 2 |2 cos u - 1|, u in [0, pi/3]. */
static int rs_lrlr_cusp(double x, double y, double phi, double *v) {
  double xi = x + sin(phi), eta = y - 1 - cos(phi), k = (2 + hypot(xi, eta)) / 4, u;
  if (k > 1) return 0;
  u = acos(k);
  v[0] = wrap(atan2(eta, xi) - atan2(cos(u) - cos(2 * u) - 1, sin(u) - sin(2 * u)));
  v[1] = u;
  v[2] = -u;
  v[3] = wrap(v[0] - 2 * u - phi);
  return 1;
}

/* L R L R with the middle two both u (C|CC|C): rho^2 = 20 - 16 cos u. */
static int rs_lrlr_same(double x, double y, double phi, double *v) {
  double xi = x + sin(phi), eta = y - 1 - cos(phi), k = (20 - xi * xi - eta * eta) / 16, u;
  if (k < -1 || k > 1) return 0;
  u = -acos(k);
  v[0] = wrap(atan2(eta, xi) - atan2(cos(u) - 2, sin(u)));
  v[1] = v[2] = u;
  v[3] = wrap(v[0] - phi);
  return 1;
}

/* L R(-pi/2) S L (C|C[pi/2]SC): the goal's left centre is (-2, u - 2) turned by t. */
static int rs_lrsl(double x, double y, double phi, double *v) {
  double xi = x - sin(phi), eta = y - 1 + cos(phi), r2 = xi * xi + eta * eta;
  if (r2 < 4) return 0;
  v[2] = 2 - sqrt(r2 - 4);
  v[0] = wrap(atan2(eta, xi) - atan2(v[2] - 2, -2.0));
  v[1] = -HALF_PI;
  v[3] = wrap(phi - v[0] - HALF_PI);
  return 1;
}

/* L R(-pi/2) S R (C|C[pi/2]SC): the goal's right centre is (0, u - 2) turned by t. */
static int rs_lrsr(double x, double y, double phi, double *v) {
  double xi = x + sin(phi), eta = y - 1 - cos(phi);
  v[2] = 2 - hypot(xi, eta);
  v[0] = wrap(atan2(eta, xi) + HALF_PI);
  v[1] = -HALF_PI;
  v[3] = wrap(v[0] + HALF_PI - phi);
  return 1;
}

/* L R(-pi/2) S L(-pi/2) R (C|C[pi/2]SC[pi/2]|C): the goal's right centre is (-2, u - 4)
** turned by t. */
static int rs_lrslr(double x, double y, double phi, double *v) {
  double xi = x + sin(phi), eta = y - 1 - cos(phi), r2 = xi * xi + eta * eta;
  if (r2 < 4) return 0;
  v[2] = 4 - sqrt(r2 - 4);
  v[0] = wrap(atan2(eta, xi) - atan2(v[2] - 4, -2.0));
  v[1] = v[3] = -HALF_PI;
  v[4] = wrap(v[0] - phi);
  return 1;
}

typedef struct rsbase {
  const char *kinds;
  rsfn solve;
  int backward;    /* also the word read backward (its mirror images do not give it) */
} rsbase;

static const rsbase BASES[8] = {
  {"LSL", rs_lsl, 0}, {"LSR", rs_lsr, 0}, {"LRL", rs_lrl, 1}, {"LRLR", rs_lrlr_cusp, 0},
  {"LRLR", rs_lrlr_same, 0}, {"LRSL", rs_lrsl, 1}, {"LRSR", rs_lrsr, 1}, {"LRSLR", rs_lrslr, 0}
};

/* How many times the signed lengths v[0..n-1] change sign, lengths near 0 aside. */
static int signchanges(const double *v, int n) {
  int i, k = 0, prev = 0;
  for (i = 0; i < n; i++) {
    int d = v[i] > 1e-12 ? 1 : v[i] < -1e-12 ? -1 : 0;
    if (d != 0 && prev != 0 && d != prev) k++;
    if (d != 0) prev = d;
  }
  return k;
}

/*
** The shortest word to (x, y, phi), r = 1, into c's n and kind and the
** signed lengths best[]; returns its length. Each base word is solved for
** the goal as three symmetries see it, and the answer mapped back: driving
** every segment the other way mirrors the goal in the y axis,
** (-x, y, -phi); swapping L and R mirrors it in the x axis, (x, -y, -phi);
** and the word read backward (last segment first) reaches
** (x cos phi + y sin phi, x sin phi - y cos phi, phi). Together they give
** the paper's 48 words. Of words as long (to rounding), the one with the
** fewest cusps wins: without the paper's sign conditions a word with three
** can tie the optimum, and the theorem promises one with at most two.
*/
static double rs_solve(astar_curve *c, double x, double y, double phi, double *best) {
  double len = HUGE_VAL;
  int b, back, m, cusps = 0;
  for (b = 0; b < 8; b++)
    for (back = 0; back <= BASES[b].backward; back++)
      for (m = 0; m < 4; m++) {
        double gx = x, gy = y, gp = phi, v[5], sum = 0, tie;
        int n = (int)strlen(BASES[b].kinds), i, k;
        if (back) {
          gx = x * cos(phi) + y * sin(phi);
          gy = x * sin(phi) - y * cos(phi);
        }
        if (m & 1) { gx = -gx; gp = -gp; }
        if (m & 2) { gy = -gy; gp = -gp; }
        if (!BASES[b].solve(gx, gy, gp, v)) continue;
        for (i = 0; i < n; i++) sum += fabs(v[i]);
        tie = 1e-10 * (len < HUGE_VAL ? (len > 1 ? len : 1) : 0);
        if (!(sum < len + tie)) continue;
        k = signchanges(v, n);
        if (!(sum < len - tie) && k >= cusps) continue;
        len = sum;
        cusps = k;
        c->n = n;
        for (i = 0; i < n; i++) {
          int j = back ? n - 1 - i : i;
          char kd = BASES[b].kinds[j];
          if ((m & 2) && kd != 'S') kd = kd == 'L' ? 'R' : 'L';
          c->kind[i] = kd;
          best[i] = (m & 1) ? -v[j] : v[j];
        }
      }
  return len;
}

int astar_curve_reeds_shepp(astar_curve *c, double x0, double y0, double h0, double x1,
                            double y1, double h1, double r) {
  double d, v[5], x, y, len, ch, sh;
  int i, prev = 1, rc = ends(c, x0, y0, h0, x1, y1, h1, r, &d);
  if (rc != 0) return rc;
  ch = cos(h0); sh = sin(h0);
  x = ((x1 - x0) * ch + (y1 - y0) * sh) / r;      /* the goal in the start's frame */
  y = ((y1 - y0) * ch - (x1 - x0) * sh) / r;
  len = rs_solve(c, x, y, h1 - h0, v);
  if (!(len < HUGE_VAL)) return ASTAR_EINTERNAL;  /* L S L always exists */
  c->word = -1;
  c->kind[c->n] = '\0';
  /* a segment of no length drives as the one before it (the first: the first that moves) */
  for (i = c->n - 1; i >= 0; i--)
    if (fabs(v[i]) > 1e-12) prev = v[i] < 0 ? -1 : 1;
  for (i = 0; i < 5; i++) {
    if (i >= c->n) { c->seg[i] = 0; c->dir[i] = 1; continue; }
    if (fabs(v[i]) <= 1e-12) v[i] = 0;
    else prev = v[i] < 0 ? -1 : 1;
    c->seg[i] = fabs(v[i]);
    c->dir[i] = (signed char)prev;
    c->name[2 * i] = c->kind[i];
    c->name[2 * i + 1] = prev > 0 ? '+' : '-';
  }
  c->name[2 * c->n] = '\0';
  c->length = 0;
  for (i = 0; i < c->n; i++) c->length += c->seg[i];
  c->length *= r;
  return 0;
}

int astar_curve_cusps(const astar_curve *c) {
  int i, k = 0, prev = 0;
  for (i = 0; i < c->n; i++) {
    if (c->seg[i] == 0) continue;
    if (prev != 0 && c->dir[i] != prev) k++;
    prev = c->dir[i];
  }
  return k;
}

void astar_curve_backward(astar_curve *c) {
  int i;
  c->h = mod2pi(c->h + TWO_PI / 2);
  c->word = -1;
  for (i = 0; i < c->n; i++) {
    c->kind[i] = c->kind[i] == 'L' ? 'R' : c->kind[i] == 'R' ? 'L' : 'S';
    c->dir[i] = (signed char)-c->dir[i];
    c->name[2 * i] = c->kind[i];
    c->name[2 * i + 1] = c->dir[i] > 0 ? '+' : '-';
  }
  c->name[2 * c->n] = '\0';
}

const char *astar_curve_word(const astar_curve *c) { return c->name; }

/* Moves the unit-radius pose (x, y, h) along a segment of kind k by t (below 0: backward). */
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
  double u = s >= c->length ? HUGE_VAL : s / c->r, px = 0, py = 0, ph = c->h;
  int i;
  if (u < 0) u = 0;                            /* (and the end: every segment whole) */
  for (i = 0; i < c->n && u > 0; i++) {
    double t = u < c->seg[i] ? u : c->seg[i];
    advance(c->kind[i], c->dir[i] < 0 ? -t : t, &px, &py, &ph);
    u -= t;
  }
  *x = c->x + px * c->r;
  *y = c->y + py * c->r;
  *h = mod2pi(ph);
}
