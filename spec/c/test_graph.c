/*
** test_graph.c - tests of the core's graphs, without Lua. Built and run by
** `make ctest` under AddressSanitizer and UndefinedBehaviorSanitizer.
**
** The reference is an adjacency matrix kept beside the graph and a plain
** O(n^2) Dijkstra over it. An allocator that fails its N-th allocation, for
** every N, checks that each failure is reported as ASTAR_ENOMEM, leaves the
** graph exactly as it was, and leaks nothing.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "astar.h"

#include "harness.h"

static unsigned long rng_state = 4242;
static unsigned long rnd(void) {
  rng_state = rng_state * 6364136223846793005UL + 1442695040888963407UL;
  return (rng_state >> 33) & 0x7fffffffUL;
}

/* ---- the reference: an adjacency matrix ---- */

#define MAXN 64

typedef struct model {
  int directed, n;
  double c[MAXN][MAXN];    /* cost of a -> b, 0 = no edge */
  int off[MAXN];           /* disabled or removed */
  double x[MAXN], y[MAXN];
} model;

static void m_edge(model *m, int a, int b, double c) {
  m->c[a][b] = c;
  if (!m->directed) m->c[b][a] = c;
}

/* Cheapest cost from s to t over usable nodes, or -1. */
static double ref_dijkstra(const model *m, int s, int t) {
  double d[MAXN];
  int done[MAXN], i;
  if (m->off[s] || m->off[t]) return -1;
  for (i = 0; i < m->n; i++) { d[i] = HUGE_VAL; done[i] = 0; }
  d[s] = 0;
  for (;;) {
    int u = -1, v;
    for (i = 0; i < m->n; i++)
      if (!done[i] && d[i] < HUGE_VAL && (u < 0 || d[i] < d[u])) u = i;
    if (u < 0) break;
    done[u] = 1;
    for (v = 0; v < m->n; v++)
      if (m->c[u][v] > 0 && !m->off[v] && d[u] + m->c[u][v] < d[v]) d[v] = d[u] + m->c[u][v];
  }
  return d[t] < HUGE_VAL ? d[t] : -1;
}

/* The graph's edges equal the model's. */
static void check_edges(const astar_graph *g, const model *m) {
  int a, b, count = 0;
  for (a = 0; a < m->n; a++) {
    uint32_t cur = ASTAR_NONE, to;
    double cost;
    int seen[MAXN] = {0};
    if (astar_graph_node_state(g, (uint32_t)a) == ASTAR_GN_REMOVED) continue;
    while (astar_graph_next_edge(g, (uint32_t)a, &cur, &to, &cost)) {
      CHECK(to < (uint32_t)m->n && !seen[to] && m->c[a][to] == cost);
      seen[to] = 1;
      count++;
    }
    for (b = 0; b < m->n; b++) {
      CHECK((m->c[a][b] > 0) == seen[b]);
      CHECK(astar_graph_edge_cost(g, (uint32_t)a, (uint32_t)b) ==
            (m->c[a][b] > 0 ? m->c[a][b] : -1.0));
    }
  }
  CHECK((uint32_t)(m->directed ? count : count / 2) == astar_graph_edge_count(g));
}

/* Random graph of n nodes (positions in a 100 x 100 square), costs >= lengths. */
static astar_graph *random_graph(model *m, int directed, int n, int deg, counting *c) {
  astar_graph *g;
  int a, k;
  memset(m, 0, sizeof *m);
  m->directed = directed;
  m->n = n;
  CHECK(astar_graph_new(&g, directed, test_alloc, c) == 0);
  for (a = 0; a < n; a++) {
    double p[2];
    uint32_t id;
    p[0] = m->x[a] = (double)(rnd() % 1000) / 10;
    p[1] = m->y[a] = (double)(rnd() % 1000) / 10;
    CHECK(astar_graph_add_node(g, p, 2, &id) == 0 && id == (uint32_t)a);
  }
  for (a = 0; a < n; a++)
    for (k = 0; k < deg; k++) {
      int b = (int)(rnd() % (unsigned long)n);
      double len = hypot(m->x[a] - m->x[b], m->y[a] - m->y[b]);
      double cost = len > 0 ? len * (1 + (double)(rnd() % 100) / 50) : 1;
      if (a == b) continue;
      CHECK(astar_graph_add_edge(g, (uint32_t)a, (uint32_t)b, cost) == 0);
      m_edge(m, a, b, cost);
    }
  return g;
}

/* Unidirectional A*, Dijkstra and both bidirectional searches agree with the reference. */
static void test_random_against_reference(void) {
  int round;
  for (round = 0; round < 60; round++) {
    counting c = {0, 0, 0};
    model m;
    int n = 2 + (int)(rnd() % 60), q, k;
    astar_graph *g = random_graph(&m, round % 2, n, 1 + (int)(rnd() % 3), &c);
    astar_search *s, *b;
    CHECK(astar_search_new(&s, test_alloc, &c) == 0);
    CHECK(astar_search_new(&b, test_alloc, &c) == 0);
    for (k = 0; k < 2; k++) {
      int v = (int)(rnd() % (unsigned long)n);
      astar_graph_set_enabled(g, (uint32_t)v, 0);
      m.off[v] = 1;
    }
    check_edges(g, &m);
    for (q = 0; q < 20; q++) {
      int st = (int)(rnd() % (unsigned long)n), t = (int)(rnd() % (unsigned long)n), v;
      double ref = ref_dijkstra(&m, st, t);
      for (v = 0; v < 4; v++) {
        astar_graph_query gq;
        int rc;
        astar_graph_query_init(&gq);
        gq.bidirectional = v >= 2;
        if (v % 2) gq.heuristic = ASTAR_GH_ZERO;
        rc = astar_graph_find(g, s, b, &gq, (uint32_t)st, (uint32_t)t);
        if (m.off[st] || m.off[t]) {
          CHECK(rc == ASTAR_BLOCKED);
        } else if (ref < 0) {
          CHECK(rc == ASTAR_NO_PATH);
        } else {
          const uint32_t *nodes;
          double cost, walk = 0;
          long len = astar_search_path(s, &nodes, &cost), i;
          CHECK(rc == ASTAR_FOUND && len >= 1);
          CHECK(fabs(cost - ref) <= 1e-9 * (ref + 1));
          CHECK(len >= 1 && nodes[0] == (uint32_t)st && nodes[len - 1] == (uint32_t)t);
          for (i = 1; i < len; i++) walk += m.c[nodes[i - 1]][nodes[i]];
          CHECK(fabs(walk - ref) <= 1e-9 * (ref + 1));
          CHECK(astar_search_end(s) == (uint32_t)t);
        }
      }
    }
    astar_search_free(s);
    astar_search_free(b);
    astar_graph_free(g);
    CHECK(c.live == 0);
  }
}

/* Random edits keep the lists, counts, components and the heuristic scale right. */
static void test_edits(void) {
  int round;
  for (round = 0; round < 8; round++) {
    counting c = {0, 0, 0};
    model m;
    int n = 40, k;
    astar_graph *g = random_graph(&m, round % 2, n, 0, &c);
    for (k = 0; k < 4000; k++) {
      int a = (int)(rnd() % (unsigned long)n), b = (int)(rnd() % (unsigned long)n);
      int r = (int)(rnd() % 100);
      int dead = astar_graph_node_state(g, (uint32_t)a) == ASTAR_GN_REMOVED ||
                 astar_graph_node_state(g, (uint32_t)b) == ASTAR_GN_REMOVED;
      if (a == b || dead) {
        CHECK(astar_graph_add_edge(g, (uint32_t)a, (uint32_t)b, 1) == ASTAR_EINVAL);
      } else if (r < 50) {
        double cost = 0.5 + (double)(rnd() % 10);
        CHECK(astar_graph_add_edge(g, (uint32_t)a, (uint32_t)b, cost) == 0);
        m_edge(&m, a, b, cost);
      } else if (r < 85) {
        CHECK(astar_graph_remove_edge(g, (uint32_t)a, (uint32_t)b) == (m.c[a][b] > 0));
        m_edge(&m, a, b, 0);
      } else if (r < 97) {
        CHECK(astar_graph_set_edge_cost(g, (uint32_t)a, (uint32_t)b, 3) == (m.c[a][b] > 0));
        if (m.c[a][b] > 0) m_edge(&m, a, b, 3);
      } else {
        int v;
        astar_graph_remove_node(g, (uint32_t)a);
        for (v = 0; v < n; v++) m.c[a][v] = m.c[v][a] = 0;
        m.off[a] = 1;
      }
    }
    check_edges(g, &m);
    {
      /* the heuristic scale is the smallest cost / length over the edges */
      double want = HUGE_VAL;
      int a, b;
      for (a = 0; a < n; a++)
        for (b = 0; b < n; b++) {
          double dx = m.x[a] - m.x[b], dy = m.y[a] - m.y[b], len = sqrt(dx * dx + dy * dy);
          if (m.c[a][b] > 0 && len > 0 && m.c[a][b] / len < want) want = m.c[a][b] / len;
        }
      CHECK(astar_graph_hscale(g) == (want < HUGE_VAL ? want : 0));
      if (astar_graph_hscale(g) != (want < HUGE_VAL ? want : 0))
        fprintf(stderr, "  hscale %.17g, expected %.17g\n", astar_graph_hscale(g), want);
    }
    {
      /* components: two nodes share a label iff joined ignoring directions */
      uint32_t count;
      int a, b, i;
      int lab[MAXN];
      CHECK(astar_graph_components(g, &count) == 0);
      for (a = 0; a < n; a++) lab[a] = m.off[a] ? 0 : a + 1;
      for (i = 0; i < n; i++)                      /* propagate the smallest label */
        for (a = 0; a < n; a++)
          for (b = 0; b < n; b++)
            if ((m.c[a][b] > 0 || m.c[b][a] > 0) && lab[a] && lab[b]) {
              int lo = lab[a] < lab[b] ? lab[a] : lab[b];
              lab[a] = lab[b] = lo;
            }
      for (a = 0; a < n; a++)
        for (b = 0; b < n; b++)
          CHECK((lab[a] && lab[a] == lab[b]) ==
                (astar_graph_component(g, (uint32_t)a) != 0 &&
                 astar_graph_component(g, (uint32_t)a) == astar_graph_component(g, (uint32_t)b)));
    }
    astar_graph_free(g);
    CHECK(c.live == 0);
  }
}

/*
** Every allocation of a script of edits and searches fails once in turn:
** the failing call reports ASTAR_ENOMEM and changes nothing (same counts,
** version and edges); the script then goes on, and at the end the graph and
** its searches are right and nothing leaked.
*/
static void test_oom(void) {
  long n;
  for (n = 1; n < 400; n++) {
    counting c = {0, 0, 0};
    astar_graph *g = NULL;
    astar_search *s = NULL, *b = NULL;
    model m;
    int i, hit = 0, rc;
    memset(&m, 0, sizeof m);
    m.directed = (int)(n % 2);
    c.fail_at = n;
    while ((rc = astar_graph_new(&g, m.directed, test_alloc, &c)) != 0) {
      CHECK(rc == ASTAR_ENOMEM && g == NULL);
      hit = 1;
    }
    for (i = 0; i < 40; i++) {
      double p[2];
      uint32_t id, before = astar_graph_size(g);
      uint64_t v = astar_graph_version(g);
      p[0] = m.x[i] = (double)(i % 7);
      p[1] = m.y[i] = (double)(i / 7);
      while ((rc = astar_graph_add_node(g, p, 2, &id)) != 0) {
        CHECK(rc == ASTAR_ENOMEM && astar_graph_size(g) == before &&
              astar_graph_version(g) == v);
        hit = 1;
      }
      m.n++;
    }
    for (i = 0; i < 120; i++) {
      int a = (int)(rnd() % 40), bb = (int)(rnd() % 40);
      uint32_t ec = astar_graph_edge_count(g);
      uint64_t v = astar_graph_version(g);
      if (a == bb) continue;
      while ((rc = astar_graph_add_edge(g, (uint32_t)a, (uint32_t)bb, 1 + i % 3)) != 0) {
        CHECK(rc == ASTAR_ENOMEM && astar_graph_edge_count(g) == ec &&
              astar_graph_version(g) == v);
        hit = 1;
      }
      m_edge(&m, a, bb, 1 + i % 3);
      if (i % 5 == 0) {
        astar_graph_remove_edge(g, (uint32_t)a, (uint32_t)bb);
        m_edge(&m, a, bb, 0);
      }
    }
    check_edges(g, &m);
    {
      uint32_t count;
      uint64_t v = astar_graph_version(g);
      while ((rc = astar_graph_components(g, &count)) != 0) {
        CHECK(rc == ASTAR_ENOMEM && astar_graph_version(g) == v);
        hit = 1;
      }
    }
    while (astar_search_new(&s, test_alloc, &c) != 0) hit = 1;
    while (astar_search_new(&b, test_alloc, &c) != 0) hit = 1;
    for (i = 0; i < 10; i++) {
      int st = (int)(rnd() % 40), t = (int)(rnd() % 40);
      double ref = ref_dijkstra(&m, st, t);
      int bi;
      for (bi = 0; bi < 2; bi++) {
        astar_graph_query q;
        const uint32_t *nodes;
        double cost;
        long len;
        astar_graph_query_init(&q);
        q.bidirectional = bi;
        while ((rc = astar_graph_find(g, s, b, &q, (uint32_t)st, (uint32_t)t)) == ASTAR_ENOMEM)
          hit = 1;
        if (ref < 0) {
          CHECK(rc == ASTAR_NO_PATH);
          continue;
        }
        CHECK(rc == ASTAR_FOUND);
        while ((len = astar_search_path(s, &nodes, &cost)) == ASTAR_ENOMEM) hit = 1;
        CHECK(len >= 1 && fabs(cost - ref) <= 1e-9 * (ref + 1));
      }
    }
    check_edges(g, &m);
    astar_search_free(s);
    astar_search_free(b);
    astar_graph_free(g);
    CHECK(c.live == 0);
    if (!hit) break;                 /* n is past the script's last allocation */
  }
  CHECK(n > 10);
}

int main(void) {
  test_random_against_reference();
  test_edits();
  test_oom();
  printf("test_graph: %d checks, %d failures\n", checks, failures);
  return failures != 0;
}
