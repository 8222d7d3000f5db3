/*
** test_curve.c - the turning-radius curves of the core (src/core/curve.c)
** without Lua: bad arguments, a few known lengths, and on random poses the
** properties a Reeds-Shepp curve must have whatever its word (the lengths
** against an independent reference are spec/curve_spec.lua's job). Built and
** run by `make ctest` under ASan and UBSan.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "astar.h"

#include "harness.h"

#define PI 3.141592653589793

/* A fixed linear congruential generator: uniform in [lo, hi). */
static double rnd(unsigned long *s, double lo, double hi) {
  *s = (*s * 1103515245UL + 12345UL) & 0x7fffffffUL;
  return lo + (hi - lo) * (double)*s / 2147483648.0;
}

static int same_heading(double a, double b) {
  double d = fmod(a - b, 2 * PI);
  if (d < 0) d += 2 * PI;
  return d < 1e-9 || 2 * PI - d < 1e-9;
}

static void test_invalid(void) {
  astar_curve c;
  CHECK(astar_curve_reeds_shepp(&c, 0, 0, 0, 1, 1, 0, 0) == ASTAR_EINVAL);
  CHECK(astar_curve_reeds_shepp(&c, 0, 0, 0, 1, 1, 0, -1) == ASTAR_EINVAL);
  CHECK(astar_curve_reeds_shepp(&c, 0, 0, NAN, 1, 1, 0, 1) == ASTAR_EINVAL);
  CHECK(astar_curve_reeds_shepp(&c, 0, 0, 0, INFINITY, 1, 0, 1) == ASTAR_EINVAL);
  CHECK(astar_curve_reeds_shepp(&c, 0, 0, 0, 1, 1, 0, INFINITY) == ASTAR_EINVAL);
  CHECK(astar_curve_reeds_shepp(&c, 0, 0, 0, 1e100, 0, 0, 1e-100) == ASTAR_EINVAL);
  CHECK(astar_curve_dubins(&c, 0, 0, 0, 1e100, 0, 0, 1e-100) == ASTAR_EINVAL);
}

static void test_known(void) {
  astar_curve c;
  double x, y, h;
  int i;
  /* straight back: one straight driven backward, arcs of 0 backward too */
  CHECK(astar_curve_reeds_shepp(&c, 0, 0, 0, -5, 0, 0, 1) == 0);
  CHECK(fabs(c.length - 5) < 1e-12);
  CHECK(astar_curve_cusps(&c) == 0);
  for (i = 0; i < c.n; i++) CHECK(c.dir[i] == -1);
  astar_curve_sample(&c, 2, &x, &y, &h);
  CHECK(fabs(x + 2) < 1e-12 && fabs(y) < 1e-12 && same_heading(h, 0));   /* still facing +x */
  /* turning round on the spot: three arcs of 60 degrees, forward, back, forward */
  CHECK(astar_curve_reeds_shepp(&c, 0, 0, 0, 0, 0, PI, 2) == 0);
  CHECK(fabs(c.length - 2 * PI) < 1e-9);
  CHECK(c.n == 3 && astar_curve_cusps(&c) == 2);
  for (i = 0; i < 3; i++) CHECK(fabs(c.seg[i] - PI / 3) < 1e-9);
  /* two radii to the left (spec/curve_spec.lua's numerical reference: 3.64695316387395) */
  CHECK(astar_curve_reeds_shepp(&c, 0, 0, 0, 0, 2, 0, 1) == 0);
  CHECK(fabs(c.length - 3.64695316387395) < 1e-12);
  /* Dubins keeps three forward segments and its words */
  CHECK(astar_curve_dubins(&c, 0, 0, 0, 10, 0, PI, 2) == 0);
  CHECK(strcmp(astar_curve_word(&c), "LSR") == 0 || strcmp(astar_curve_word(&c), "RSL") == 0);
  CHECK(c.n == 3 && astar_curve_cusps(&c) == 0);
  for (i = 0; i < 3; i++) CHECK(c.dir[i] == 1);
}

static void test_random(void) {
  unsigned long s = 12345;
  int k;
  for (k = 0; k < 20000; k++) {
    astar_curve c, d, b;
    double x0 = rnd(&s, -10, 10), y0 = rnd(&s, -10, 10), h0 = rnd(&s, -7, 7);
    double x1 = rnd(&s, -10, 10), y1 = rnd(&s, -10, 10), h1 = rnd(&s, -7, 7);
    double r = rnd(&s, 0.2, 4), x, y, h, sum = 0, eps;
    const char *w;
    int i;
    if (k % 2) { x1 = x0 + rnd(&s, -3, 3); y1 = y0 + rnd(&s, -3, 3); }
    CHECK(astar_curve_reeds_shepp(&c, x0, y0, h0, x1, y1, h1, r) == 0);
    CHECK(astar_curve_dubins(&d, x0, y0, h0, x1, y1, h1, r) == 0);
    CHECK(astar_curve_reeds_shepp(&b, x1, y1, h1, x0, y0, h0, r) == 0);
    eps = 1e-9 * (d.length > 1 ? d.length : 1);
    CHECK(c.length <= d.length + eps);
    CHECK(c.length >= hypot(x1 - x0, y1 - y0) - eps);
    CHECK(fabs(c.length - b.length) <= eps);
    CHECK(c.n >= 3 && c.n <= ASTAR_CURVE_SEGS);
    CHECK(astar_curve_cusps(&c) <= 2);
    w = astar_curve_word(&c);
    CHECK((int)strlen(w) == 2 * c.n);
    for (i = 0; i < c.n; i++) {
      CHECK(c.seg[i] >= 0 && (c.dir[i] == 1 || c.dir[i] == -1));
      CHECK(w[2 * i] == c.kind[i] && w[2 * i + 1] == (c.dir[i] > 0 ? '+' : '-'));
      sum += c.seg[i];
    }
    CHECK(fabs(sum * r - c.length) <= 1e-12 * (c.length > 1 ? c.length : 1));
    astar_curve_sample(&c, c.length, &x, &y, &h);
    CHECK(fabs(x - x1) < 1e-9 * 20 && fabs(y - y1) < 1e-9 * 20 && same_heading(h, h1));
    astar_curve_sample(&c, -1, &x, &y, &h);
    CHECK(x == x0 && y == y0 && same_heading(h, h0));
  }
}

int main(void) {
  (void)test_alloc;                /* harness.h's allocator: a curve allocates nothing */
  test_invalid();
  test_known();
  test_random();
  printf("%d passed, %d failed\n", checks - failures, failures);
  return failures != 0;
}
