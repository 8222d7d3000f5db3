/*
** graph.c - the Graph userdata: nodes, edges, graph:find (A*-family and
** bidirectional), components and distance fields.
*/
/***
A graph of waypoints, roads or rooms: nodes joined by edges with costs > 0.

Nodes have integer ids, 1, 2, 3 and so on in the order they were added, and each an optional
2D or 3D position. Edges go both ways unless the graph was made with `directed = true`.

The default heuristic is the Euclidean distance between positions times the graph's
smallest ratio of edge cost to edge length, so the default options give shortest paths
whatever the costs; without positions the search is Dijkstra's. Give positions and let
costs be at least the lengths (the default) to get A*'s speed.

Made by @{astar.graph}. The methods by topic:

- nodes and edges: @{Graph:add_node|add_node}, @{Graph:add_edge|add_edge},
  @{Graph:remove_edge|remove_edge}, @{Graph:set_edge_cost|set_edge_cost},
  @{Graph:edge_cost|edge_cost}, @{Graph:remove_node|remove_node},
  @{Graph:disable_node|disable_node}, @{Graph:enable_node|enable_node},
  @{Graph:enabled|enabled}, @{Graph:neighbors|neighbors}, @{Graph:position|position},
  @{Graph:node_count|node_count}, @{Graph:edge_count|edge_count},
  @{Graph:directed|directed}
- search: @{Graph:find|find}, @{Graph:query|query} (time-sliced), @{Graph:check|check}
  (stored paths)
- many units, one target: @{Graph:distance_field|distance_field}; reachability:
  @{Graph:components|components}, @{Graph:component|component},
  @{Graph:same_component|same_component}
- memory: @{Graph:stats|stats}, @{Graph:close|close}

Methods taking node ids raise for ids that do not exist (`bad argument #1 to 'add_edge'
(unknown node 7)`) or were removed (`node 5 was removed`).
@classmod Graph
*/
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include "binding.h"

static const astar_kind GRAPH;

static const afn F_NEW = {"graph", 0};
static const afn F_ADDNODE = {"add_node", 1};
static const afn F_ADDEDGE = {"add_edge", 1};
static const afn F_REMEDGE = {"remove_edge", 1};
static const afn F_SETCOST = {"set_edge_cost", 1};
static const afn F_EDGECOST = {"edge_cost", 1};
static const afn F_DISABLE = {"disable_node", 1};
static const afn F_ENABLE = {"enable_node", 1};
static const afn F_REMNODE = {"remove_node", 1};
static const afn F_NEIGHBORS = {"neighbors", 1};
static const afn F_NODECOUNT = {"node_count", 1};
static const afn F_EDGECOUNT = {"edge_count", 1};
static const afn F_POSITION = {"position", 1};
static const afn F_ENABLED = {"enabled", 1};
static const afn F_COMPS = {"components", 1};
static const afn F_COMP = {"component", 1};
static const afn F_SAME = {"same_component", 1};
static const afn F_STATS = {"stats", 1};
static const afn F_DIRECTED = {"directed", 1};

lgraph *astar_checkgraph(lua_State *L, const afn *f) {
  return (lgraph *)astar_checkmap(L, &GRAPH, f);
}

/* What the value at idx is as a node id of 'g': 0 and *id (0-based) if a
** live or disabled node; else 1 (not an integer), 2 (unknown) or 3 (removed). */
int astar_graph_tonode(lua_State *L, const astar_graph *g, int idx, uint32_t *id) {
  double x;
  if (lua_type(L, idx) != LUA_TNUMBER) return 1;
  x = (double)lua_tonumber(L, idx);
  if (x != floor(x) || x == HUGE_VAL || x == -HUGE_VAL) return 1;
  if (x < 1 || x > (double)astar_graph_size(g)) return 2;
  *id = (uint32_t)x - 1;
  return astar_graph_node_state(g, *id) == ASTAR_GN_REMOVED ? 3 : 0;
}

/* A node id argument (live or disabled); returns it 0-based. */
static uint32_t checknode(lua_State *L, const afn *f, int idx, const lgraph *lg) {
  uint32_t id = 0;
  char buf[32];
  switch (astar_graph_tonode(L, lg->g, idx, &id)) {
    case 0: break;
    case 1:
      if (lua_type(L, idx) != LUA_TNUMBER)
        astar_argerror(L, f, idx, "number expected, got %s", luaL_typename(L, idx));
      astar_argerror(L, f, idx, "integer expected, got %s",
                     astar_fmtnum(buf, (double)lua_tonumber(L, idx)));
      break;
    case 2:
      astar_argerror(L, f, idx, "unknown node %s",
                     astar_fmtnum(buf, (double)lua_tonumber(L, idx)));
      break;
    default:
      astar_argerror(L, f, idx, "node %d was removed", (int)id + 1);
  }
  return id;
}

/***
A new empty graph.
@function astar.graph
@tparam[opt] table opts the options:
@tparam[opt=false] boolean opts.directed whether edges are one-way
@treturn Graph
@usage
local g = astar.graph()
local a, b, c = g:add_node(0, 0), g:add_node(3, 4), g:add_node(6, 0)
g:add_edge(a, b)                  -- cost 5, the distance between the positions
g:add_edge(b, c)
g:add_edge(a, c, 20)              -- an explicit cost
local path = assert(g:find(a, c))
print(path:cost(), table.concat(path:table(), " "))   --> 10 1 2 3
*/
static int graph_new(lua_State *L) {
  static const astar_optuse OPTS[] = {{ASTAR_OPT_DIRECTED, 0, NULL}, ASTAR_OPT_END};
  astar_opts o;
  int directed, rc;
  lgraph *lg;
  void *ud;
  astar_alloc fn;
  astar_readopts(L, &F_NEW, 1, OPTS, &o);
  directed = (int)astar_opt(&o, ASTAR_OPT_DIRECTED, 0);
  {
    size_t head = (sizeof(lgraph) + sizeof(double) - 1) / sizeof(double) * sizeof(double);
    lg = (lgraph *)lua_newuserdatauv(L, head + GRAPH.recsize, 0);
    astar_map_init(&lg->m, &GRAPH, (char *)lg + head);  /* safe before the metatable */
    lg->g = NULL;
    lg->back = NULL;
  }
  luaL_setmetatable(L, ASTAR_GRAPH_MT);
  fn = astar_allocator(L, &ud);
  rc = astar_graph_new(&lg->g, directed, fn, ud);
  if (rc != 0) astar_raise(L, rc);
  lg->m.core = lg->g;
  return 1;
}

/***
Adds a node, with a 2D or 3D position or none.
@function Graph:add_node
@number[opt] x
@number[opt] y (with `x`)
@number[opt] z
@treturn int the new node's id (1, 2, 3, ... in order)
*/
static int graph_add_node(lua_State *L) {
  lgraph *lg = astar_checkgraph(L, &F_ADDNODE);
  double pos[3];
  int dim = 0, i, rc;
  uint32_t id;
  if (!lua_isnoneornil(L, 2) || !lua_isnoneornil(L, 3) || !lua_isnoneornil(L, 4)) {
    dim = lua_isnoneornil(L, 4) ? 2 : 3;
    for (i = 0; i < dim; i++) {
      char buf[32];
      pos[i] = astar_checknumber(L, &F_ADDNODE, 2 + i);
      if (!(pos[i] > -HUGE_VAL && pos[i] < HUGE_VAL))
        astar_argerror(L, &F_ADDNODE, 2 + i, "%c must be a finite number, got %s",
                       "xyz"[i], astar_fmtnum(buf, pos[i]));
      buf[0] = "xyz"[i]; buf[1] = 0;
      astar_checkbig(L, &F_ADDNODE, 2 + i, buf, pos[i]);
    }
  }
  astar_map_idle(L, &lg->m, "edit");
  if (astar_graph_size(lg->g) >= ASTAR_GRAPH_MAX_NODES)
    astar_error(L, "graph full: at most %d nodes", (int)ASTAR_GRAPH_MAX_NODES);
  rc = astar_graph_add_node(lg->g, pos, dim, &id);
  if (rc != 0) astar_raise(L, rc);
  lua_pushinteger(L, (lua_Integer)id + 1);
  return 1;
}

/* A cost argument: a positive finite number. */
static double checkedgecost(lua_State *L, const afn *f, int idx) {
  double c = astar_checknumber(L, f, idx);
  astar_checkbig(L, f, idx, "cost", c);
  if (!(c > 0 && c < HUGE_VAL)) {
    char buf[32];
    astar_argerror(L, f, idx, "cost must be a positive finite number, got %s",
                   astar_fmtnum(buf, c));
  }
  return c;
}

/***
Adds the edge `a -> b` (both ways in an undirected graph), or replaces the cost of the
existing one (undirected: `add_edge(b, a, c)` is the same edge).
@function Graph:add_edge
@int a
@int b a node other than `a`
@number[opt] cost a number > 0; default: the Euclidean distance between the two positions
(an error if either has none, or they coincide)
*/
static int graph_add_edge(lua_State *L) {
  lgraph *lg = astar_checkgraph(L, &F_ADDEDGE);
  uint32_t a = checknode(L, &F_ADDEDGE, 2, lg), b = checknode(L, &F_ADDEDGE, 3, lg);
  double cost;
  int rc;
  if (a == b) astar_argerror(L, &F_ADDEDGE, 3, "an edge cannot join node %d to itself",
                             (int)a + 1);
  if (lua_isnoneornil(L, 4)) {
    double xyz[3];
    if (!astar_graph_position(lg->g, a, xyz) || !astar_graph_position(lg->g, b, xyz))
      astar_argerror(L, &F_ADDEDGE, 4, "a cost is needed: node %d has no position",
                     (int)(astar_graph_position(lg->g, a, xyz) ? b : a) + 1);
    cost = astar_graph_distance(lg->g, a, b);
    if (!(cost > 0))
      astar_argerror(L, &F_ADDEDGE, 4, "a cost is needed: nodes %d and %d are at the "
                     "same position", (int)a + 1, (int)b + 1);
    if (astar_big(cost)) {
      char buf[32];
      astar_argerror(L, &F_ADDEDGE, 4, "a cost is needed: nodes %d and %d are %s apart, too "
                     "far for a cost (" ASTAR_BIG ")", (int)a + 1, (int)b + 1,
                     astar_fmtnum(buf, cost));
    }
  } else {
    cost = checkedgecost(L, &F_ADDEDGE, 4);
  }
  astar_map_idle(L, &lg->m, "edit");
  rc = astar_graph_add_edge(lg->g, a, b, cost);
  if (rc != 0) astar_raise(L, rc);
  return 0;
}

/***
Removes the edge `a -> b` (undirected: `a - b`).
@function Graph:remove_edge
@int a
@int b
@treturn boolean whether there was such an edge
*/
static int graph_remove_edge(lua_State *L) {
  lgraph *lg = astar_checkgraph(L, &F_REMEDGE);
  uint32_t a = checknode(L, &F_REMEDGE, 2, lg), b = checknode(L, &F_REMEDGE, 3, lg);
  astar_map_idle(L, &lg->m, "edit");
  lua_pushboolean(L, astar_graph_remove_edge(lg->g, a, b));
  return 1;
}

/***
Sets the cost of the existing edge `a -> b`; an error if there is none.
@function Graph:set_edge_cost
@int a
@int b
@number cost a number > 0
*/
static int graph_set_edge_cost(lua_State *L) {
  lgraph *lg = astar_checkgraph(L, &F_SETCOST);
  uint32_t a = checknode(L, &F_SETCOST, 2, lg), b = checknode(L, &F_SETCOST, 3, lg);
  double c = checkedgecost(L, &F_SETCOST, 4);
  astar_map_idle(L, &lg->m, "edit");
  if (!astar_graph_set_edge_cost(lg->g, a, b, c))
    astar_argerror(L, &F_SETCOST, 3, "no edge from node %d to node %d", (int)a + 1,
                   (int)b + 1);
  return 0;
}

/***
The cost of the edge `a -> b`.
@function Graph:edge_cost
@int a
@int b
@treturn number|nil the cost, or `nil` if there is no such edge
*/
static int graph_edge_cost(lua_State *L) {
  lgraph *lg = astar_checkgraph(L, &F_EDGECOST);
  uint32_t a = checknode(L, &F_EDGECOST, 2, lg), b = checknode(L, &F_EDGECOST, 3, lg);
  double c = astar_graph_edge_cost(lg->g, a, b);
  if (c < 0) lua_pushnil(L);
  else lua_pushnumber(L, (lua_Number)c);
  return 1;
}

/***
Disables a node: searches never enter nor leave it (a closed door, a destroyed bridge); its
edges stay.
@function Graph:disable_node
@int a
*/
static int graph_disable_node(lua_State *L) {
  lgraph *lg = astar_checkgraph(L, &F_DISABLE);
  uint32_t a = checknode(L, &F_DISABLE, 2, lg);
  astar_map_idle(L, &lg->m, "edit");
  astar_graph_set_enabled(lg->g, a, 0);
  return 0;
}

/***
Enables a disabled node again.
@function Graph:enable_node
@int a
*/
static int graph_enable_node(lua_State *L) {
  lgraph *lg = astar_checkgraph(L, &F_ENABLE);
  uint32_t a = checknode(L, &F_ENABLE, 2, lg);
  astar_map_idle(L, &lg->m, "edit");
  astar_graph_set_enabled(lg->g, a, 1);
  return 0;
}

/***
Whether a node is enabled.
@function Graph:enabled
@int a
@treturn boolean
*/
static int graph_enabled(lua_State *L) {
  lgraph *lg = astar_checkgraph(L, &F_ENABLED);
  uint32_t a = checknode(L, &F_ENABLED, 2, lg);
  lua_pushboolean(L, astar_graph_node_state(lg->g, a) == ASTAR_GN_LIVE);
  return 1;
}

/***
Removes a node and its edges. The other ids stay valid; this one is never reused, and
using it raises `node 3 was removed`.
@function Graph:remove_node
@int a
*/
static int graph_remove_node(lua_State *L) {
  lgraph *lg = astar_checkgraph(L, &F_REMNODE);
  uint32_t a = checknode(L, &F_REMNODE, 2, lg);
  astar_map_idle(L, &lg->m, "edit");
  astar_graph_remove_node(lg->g, a);
  return 0;
}

/* The iterator of neighbors; upvalues: graph, node, cursor, version. */
static int neighbors_iter(lua_State *L) {
  lgraph *lg = (lgraph *)lua_touserdata(L, lua_upvalueindex(1));
  uint32_t a = (uint32_t)lua_tonumber(L, lua_upvalueindex(2));
  uint32_t cursor = (uint32_t)lua_tonumber(L, lua_upvalueindex(3)), to;
  double cost;
  if (lg->g == NULL) return astar_error(L, "attempt to use a closed graph");
  if ((double)astar_graph_version(lg->g) != (double)lua_tonumber(L, lua_upvalueindex(4)))
    return astar_error(L, "neighbors: the graph was edited during the iteration");
  if (!astar_graph_next_edge(lg->g, a, &cursor, &to, &cost)) return 0;
  lua_pushnumber(L, (lua_Number)cursor);
  lua_replace(L, lua_upvalueindex(3));
  lua_pushinteger(L, (lua_Integer)to + 1);
  lua_pushnumber(L, (lua_Number)cost);
  return 2;
}

/***
Iterates over the edges leaving a node (all its edges in an undirected graph), in the
order they were added, disabled neighbours included. The graph must not be edited during
the loop (that raises).
@function Graph:neighbors
@int a
@treturn function an iterator giving `b, cost` for each edge `a -> b`
@usage
local g = astar.graph()
local a, b = g:add_node(0, 0), g:add_node(1, 0)
g:add_edge(a, b, 2)
for n, cost in g:neighbors(a) do print(n, cost) end   --> 2 2
*/
static int graph_neighbors(lua_State *L) {
  lgraph *lg = astar_checkgraph(L, &F_NEIGHBORS);
  uint32_t a = checknode(L, &F_NEIGHBORS, 2, lg);
  lua_pushvalue(L, 1);
  lua_pushnumber(L, (lua_Number)a);
  lua_pushnumber(L, (lua_Number)ASTAR_NONE);
  lua_pushnumber(L, (lua_Number)astar_graph_version(lg->g));
  lua_pushcclosure(L, neighbors_iter, 4);
  return 1;
}

/***
The number of nodes (removed ones excluded, disabled ones included).
@function Graph:node_count
@treturn int
*/
static int graph_node_count(lua_State *L) {
  lgraph *lg = astar_checkgraph(L, &F_NODECOUNT);
  lua_pushinteger(L, (lua_Integer)astar_graph_node_count(lg->g));
  return 1;
}

/***
The number of edges (an undirected edge counts once).
@function Graph:edge_count
@treturn int
*/
static int graph_edge_count(lua_State *L) {
  lgraph *lg = astar_checkgraph(L, &F_EDGECOUNT);
  lua_pushinteger(L, (lua_Integer)astar_graph_edge_count(lg->g));
  return 1;
}

/***
Whether the graph is directed.
@function Graph:directed
@treturn boolean
*/
static int graph_directed(lua_State *L) {
  lgraph *lg = astar_checkgraph(L, &F_DIRECTED);
  lua_pushboolean(L, astar_graph_directed(lg->g));
  return 1;
}

/***
A node's position.
@function Graph:position
@int a
@treturn number|nil x, or `nil` if the node has no position
@treturn number y
@treturn number z (0 for nodes given in 2D)
*/
static int graph_position(lua_State *L) {
  lgraph *lg = astar_checkgraph(L, &F_POSITION);
  uint32_t a = checknode(L, &F_POSITION, 2, lg);
  double xyz[3];
  if (!astar_graph_position(lg->g, a, xyz)) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushnumber(L, (lua_Number)xyz[0]);
  lua_pushnumber(L, (lua_Number)xyz[1]);
  lua_pushnumber(L, (lua_Number)xyz[2]);
  return 3;
}

/***
Memory and edit counters: `{allocations = n, edits = m}`, as @{Grid:stats}.
@function Graph:stats
@treturn table
*/
static int graph_stats(lua_State *L) {
  lgraph *lg = astar_checkgraph(L, &F_STATS);
  return astar_map_stats(L, &lg->m, astar_graph_allocs(lg->g), lg->back);
}

/***
Frees the graph's memory now (also `__close` and `__gc`). Idempotent; paths found earlier
stay valid; any other later use raises `attempt to use a closed graph`. Refused from a
callback of a search on this graph.
@function Graph:close
*/
static int graph_close(lua_State *L) { return astar_map_close(L, &GRAPH); }

static int graph_tostring(lua_State *L) {
  lgraph *lg = (lgraph *)luaL_testudata(L, 1, ASTAR_GRAPH_MT);
  if (lg == NULL || lg->g == NULL) lua_pushliteral(L, "astar.Graph (closed)");
  else lua_pushfstring(L, "astar.Graph (%d nodes, %d edges)",
                       (int)astar_graph_node_count(lg->g), (int)astar_graph_edge_count(lg->g));
  return 1;
}


/* ---------------------------------------------------------------------- */
/* Components                                                               */
/* ---------------------------------------------------------------------- */

static uint32_t comps(lua_State *L, lgraph *lg) {
  uint32_t n;
  int rc = astar_graph_components(lg->g, &n);
  if (rc != 0) astar_raise(L, rc);
  return n;
}

/***
The number of weakly connected components (edge directions ignored; disabled nodes belong
to none). From the first call on, the graph keeps the labels current (recomputed lazily,
after edits that add or remove nodes or edges or disable or enable a node), and
@{Graph:find|find} answers a goal in another component at once with `"no_path"` (not with
`partial` or `within`).
@function Graph:components
@treturn int
*/
static int graph_components(lua_State *L) {
  lgraph *lg = astar_checkgraph(L, &F_COMPS);
  lua_pushinteger(L, (lua_Integer)comps(L, lg));
  return 1;
}

/***
A node's component label.
@function Graph:component
@int a
@treturn int|nil the label, from 1 to @{Graph:components|components}`()`, numbered by
smallest id; or `nil` if the node is disabled
*/
static int graph_component(lua_State *L) {
  lgraph *lg = astar_checkgraph(L, &F_COMP);
  uint32_t a = checknode(L, &F_COMP, 2, lg), c;
  comps(L, lg);
  c = astar_graph_component(lg->g, a);
  if (c == 0) lua_pushnil(L);
  else lua_pushinteger(L, (lua_Integer)c);
  return 1;
}

/***
Whether two nodes are in the same component (`false` if either is disabled). O(1) once
the labels are current.
@function Graph:same_component
@int a
@int b
@treturn boolean
*/
static int graph_same_component(lua_State *L) {
  lgraph *lg = astar_checkgraph(L, &F_SAME);
  uint32_t a = checknode(L, &F_SAME, 2, lg), b = checknode(L, &F_SAME, 3, lg), c;
  comps(L, lg);
  c = astar_graph_component(lg->g, a);
  lua_pushboolean(L, c != 0 && c == astar_graph_component(lg->g, b));
  return 1;
}


/* ---------------------------------------------------------------------- */
/* find and query: the graph's part of the pipeline (src/lua/find.c)       */
/* ---------------------------------------------------------------------- */

#define ALG_BIDIR 4
static const char *const ALGORITHMS[] = {"astar", "dijkstra", "bfs", "greedy",
                                         "bidirectional", NULL};
static const char *const HEURISTICS[] = {"euclidean", "zero", NULL};

#define GRAPH_OPTS \
  {ASTAR_OPT_ALGORITHM, ASTAR_OT_ENUM, ALGORITHMS}, {ASTAR_OPT_HEURISTIC, 0, HEURISTICS}, \
  {ASTAR_OPT_COST, 0, NULL}, {ASTAR_OPT_WEIGHT, 0, NULL}, \
  {ASTAR_OPT_MAX_EXPANSIONS, 0, NULL}, {ASTAR_OPT_MAX_COST, 0, NULL}, \
  {ASTAR_OPT_PARTIAL, 0, NULL}, {ASTAR_OPT_GOALS, 0, NULL}, {ASTAR_OPT_WITHIN, 0, NULL}
static const astar_optuse FIND_OPTS[] = {GRAPH_OPTS, ASTAR_OPT_END};
static const astar_optuse QUERY_OPTS[] = {GRAPH_OPTS, {ASTAR_OPT_ON_CHANGE, 0, NULL},
                                          ASTAR_OPT_END};

/* A graph search record: the core query, the ends (0-based) and the
** algorithm's name. */
typedef struct grrec {
  astar_graph_query q;
  uint32_t a, b;
  int alg;                /* index in ALGORITHMS */
} grrec;

/* Reads the goals list {id, ...} at 'gidx' into a scratch userdata (garbage
** collected, so an error later leaks nothing); returns its index. */
static int readgoals(lua_State *L, const afn *f, int optidx, int gidx, lgraph *lg,
                     astar_graph_query *q) {
  int n = (int)lua_rawlen(L, gidx), i;
  uint32_t *ids;
  if (n < 1) astar_argerror(L, f, optidx, "option 'goals': empty list");
  ids = (uint32_t *)lua_newuserdatauv(L, sizeof(uint32_t) * (size_t)n, 0);
  for (i = 1; i <= n; i++) {
    char buf[32];
    lua_rawgeti(L, gidx, i);                         /* ... goal */
    switch (astar_graph_tonode(L, lg->g, -1, &ids[i - 1])) {
      case 0: break;
      case 1:
        astar_argerror(L, f, optidx, "option 'goals': goal %d is not a node id", i);
        break;
      case 2:
        astar_argerror(L, f, optidx, "option 'goals': unknown node %s",
                       astar_fmtnum(buf, (double)lua_tonumber(L, -1)));
        break;
      default:
        astar_argerror(L, f, optidx, "option 'goals': node %d was removed",
                       (int)ids[i - 1] + 1);
    }
    lua_pop(L, 1);
  }
  q->goals = ids;
  q->ngoals = (size_t)n;
  return lua_gettop(L);
}

/* The options of find, query and distance_field into q. */
static void setopts(lua_State *L, const afn *f, const astar_opts *o, astar_graph_query *q) {
  q->params.algorithm = (int)astar_opt(o, ASTAR_OPT_ALGORITHM, ASTAR_ALG_ASTAR);
  if (q->params.algorithm == ALG_BIDIR) {
    q->bidirectional = 1;
    q->params.algorithm = ASTAR_ALG_ASTAR;
    if (o->given[ASTAR_OPT_WITHIN])
      astar_opterror(L, f, o, "option 'within' cannot be used with algorithm 'bidirectional'");
    if (astar_opt(o, ASTAR_OPT_WEIGHT, 1) != 1)
      astar_opterror(L, f, o, "option 'weight' cannot be used with algorithm 'bidirectional'");
  }
  if (!o->fn[ASTAR_OPT_HEURISTIC])
    q->heuristic = (int)astar_opt(o, ASTAR_OPT_HEURISTIC, q->heuristic);
  q->within = astar_opt(o, ASTAR_OPT_WITHIN, q->within);
  astar_opt_params(o, &q->params);
}

/* (a, b [, opts]) or (a, {goals = ...}) */
static int gr_args(lua_State *L, const afn *f, lmap *m, void *rec, const astar_optuse *use,
                   astar_opts *o) {
  lgraph *lg = (lgraph *)m;
  grrec *r = (grrec *)rec;
  r->a = checknode(L, f, 2, lg);
  r->b = 0;
  if (astar_goalsform(L, f, 3, use, o) == 0) {
    r->b = checknode(L, f, 3, lg);
    astar_goalopts(L, f, 4, use, o);
  }
  astar_graph_query_init(&r->q);
  setopts(L, f, o, &r->q);
  r->alg = (int)astar_opt(o, ASTAR_OPT_ALGORITHM, ASTAR_ALG_ASTAR);
  if (r->q.bidirectional) {
    if (use == QUERY_OPTS)
      astar_opterror(L, f, o, "option 'algorithm': bidirectional searches cannot be "
                     "time-sliced");
    if (lg->back == NULL) lg->back = astar_pool_take(L, NULL);
  }
  if (o->given[ASTAR_OPT_GOALS])
    return readgoals(L, f, o->idx, o->fn[ASTAR_OPT_GOALS], lg, &r->q);
  return 0;
}

/* Trampolines: Lua errors escape from here by longjmp, through the core,
** which holds nothing that its search contexts do not own. */
static double cost_cb(void *ud, uint32_t from, uint32_t to, double base) {
  const lcall *c = (const lcall *)ud;
  lua_State *L = c->L;
  lua_pushvalue(L, c->cost);
  lua_pushinteger(L, (lua_Integer)from + 1);
  lua_pushinteger(L, (lua_Integer)to + 1);
  lua_pushnumber(L, (lua_Number)base);
  lua_call(L, 3, 1);
  return astar_cbcost(L, 0, "the edge %d -> %d", (int)from + 1, (int)to + 1);
}

static double heur_cb(void *ud, uint32_t v, uint32_t goal) {
  const lcall *c = (const lcall *)ud;
  lua_State *L = c->L;
  lua_pushvalue(L, c->heur);
  lua_pushinteger(L, (lua_Integer)v + 1);
  lua_pushinteger(L, (lua_Integer)goal + 1);
  lua_call(L, 2, 1);
  return astar_cbheur(L, "node %d", (int)v + 1);
}

void astar_graph_hook(astar_graph_query *q, lcall *c) {
  q->cost_fn = c != NULL && c->cost ? cost_cb : NULL;
  q->h_fn = c != NULL && c->heur ? heur_cb : NULL;
  q->cost_ud = q->h_ud = c;
}

static void gr_hook(void *rec, lcall *c) { astar_graph_hook(&((grrec *)rec)->q, c); }

static int gr_begin(lmap *m, void *rec, astar_search *s) {
  grrec *r = (grrec *)rec;
  astar_graph_query *q = &r->q;
  int rc = astar_graph_prepare(((lgraph *)m)->g, q, r->a, r->b);
  if (rc != 0 || q->bidirectional) return rc;        /* bidirectional: all in step */
  return astar_search_begin(s, &q->domain, r->a,
                            q->domain.is_goal != NULL ? ASTAR_NONE : q->goal, &q->params);
}

static int gr_step(lmap *m, void *rec, astar_search *s, uint64_t budget) {
  grrec *r = (grrec *)rec;
  astar_graph_query *q = &r->q;
  uint32_t one = q->goal;
  if (!q->bidirectional) return astar_search_step(s, budget);
  /* a disabled goal may start the backward side: it is never left, and the
  ** forward side never enters it, so it only costs one pop */
  return astar_search_bidir(s, ((lgraph *)m)->back, &q->domain, &q->back, r->a,
                            q->goals != NULL ? q->goals : &one,
                            q->goals != NULL ? q->ngoals : 1, &q->params);
}

/* Pushes the path the forward context holds, as a Path; 0 if none is wanted. */
static int gr_push(lua_State *L, void *rec, astar_search *s, int rc) {
  const grrec *r = (const grrec *)rec;
  const astar_graph *g = r->q.graph;
  const uint32_t *nodes;
  double cost, *v;
  astar_stats st;
  long n, i, goal = 0;
  if (rc != ASTAR_FOUND && !r->q.params.partial) return 0;
  n = astar_search_path(s, &nodes, &cost);
  if (n < 0) astar_raise(L, (int)n);
  astar_search_stats(s, &st);
  if (r->q.goals != NULL && n > 0) goal = astar_graph_goal_index(&r->q, nodes[n - 1]) + 1;
  v = astar_newpath(L, (size_t)n, ASTAR_PATH_GRAPH, cost, &st, ALGORITHMS[r->alg], goal);
  for (i = 0; i < n; i++) {
    double xyz[3];
    if (i > 0) v[3 * n + i] = astar_graph_edge_cost(g, nodes[i - 1], nodes[i]);
    v[3 * i] = (double)nodes[i] + 1;
    if (astar_graph_position(g, nodes[i], xyz)) {
      v[3 * i + 1] = xyz[0];
      v[3 * i + 2] = xyz[1];
    } else {
      v[3 * i + 1] = v[3 * i + 2] = NAN;
    }
  }
  return 1;
}

static int gr_endname(lua_State *L, void *rec, int which) {
  const grrec *r = (const grrec *)rec;
  if (which == 0) lua_pushfstring(L, "node %d", (int)r->a + 1);
  else if (r->q.goals != NULL) return 0;
  else lua_pushfstring(L, "node %d", (int)r->b + 1);
  return 1;
}

static void gr_blocked(lua_State *L, void *rec) {
  const grrec *r = (const grrec *)rec;
  if (r->q.blocked == 1) lua_pushfstring(L, "start node %d is disabled", (int)r->a + 1);
  else if (r->q.goals != NULL) lua_pushliteral(L, "every goal is disabled");
  else lua_pushfstring(L, "goal node %d is disabled", (int)r->b + 1);
}

static uint64_t gr_version(const lmap *m) {
  return astar_graph_version(((const lgraph *)m)->g);
}

static void gr_release(lmap *m) {
  lgraph *lg = (lgraph *)m;
  astar_search_free(lg->back);
  astar_graph_free(lg->g);
  lg->back = NULL;
  lg->g = NULL;
}

static int gr_affected(lmap *m, void *rec, astar_search *s, uint64_t since) {
  return astar_graph_affected(((lgraph *)m)->g, &((grrec *)rec)->q, s, since);
}

static int gr_node(const lmap *m, uint32_t id, double out[2]) {
  (void)m;
  out[0] = (double)id + 1;
  return 1;
}

static const astar_kind GRAPH = {
  "graph", ASTAR_GRAPH_MT, FIND_OPTS, QUERY_OPTS, sizeof(grrec),
  gr_args, gr_hook, gr_begin, gr_step, {gr_push, gr_blocked, gr_endname}, gr_version, NULL, NULL,
  gr_release, gr_affected, gr_node
};

/***
Finds a path from node `a` to node `b`, or with `graph:find(a, {goals = {b, c}})` to the
cheapest to reach of several goals. The default options return a shortest path.

`algorithm = "bidirectional"` searches from the start along edges and from the goals
against them, and stops when the two frontiers prove no shorter path exists: always a
shortest path. Without a heuristic it is bidirectional Dijkstra; with one, A* both ways with
the average potential, and a `heuristic` function is then also called as
`heuristic(node, start)`, so it must be a lower bound both ways. It pays off when the
heuristic is weak or absent; it cannot be combined with `within` or a `weight` other than 1.
@function Graph:find
@int a start node
@tparam int|table b goal node, or the options with `goals`
@tparam[opt] table opts the options; an unknown name is an error
@tparam[opt="astar"] string opts.algorithm `"astar"`, `"dijkstra"`, `"bfs"` (fewest edges),
`"greedy"` or `"bidirectional"`
@tparam[opt="euclidean"] string|function opts.heuristic `"euclidean"` (3D when positions
have a `z`; none when a node has no position), `"zero"`, or `function(node, goal)`
returning an estimate of at least 0
@tparam[opt] function opts.cost `function(from, to, base)`: the cost of the edge
`from -> to` whose stored cost is `base`, always in the direction of travel; a number > 0,
or `false` or `nil` to forbid the edge
@tparam[opt=1] number opts.weight as in @{Grid:find}
@tparam[opt] int opts.max_expansions as in @{Grid:find} (default: no limit)
@tparam[opt] number opts.max_cost as in @{Grid:find} (default: no limit)
@tparam[opt=false] boolean opts.partial as in @{Grid:find}
@tparam[opt] table opts.goals a list of node ids (disabled ones are skipped): go to the
cheapest to reach; `path:stats().goal` is its index
@tparam[opt] number opts.within accept any enabled node whose Euclidean distance to the
goal (or to one of `goals`) is at most this (nodes with positions only)
@treturn[1] Path its points are node ids
@treturn[2] nil
@treturn[2] string a message, e.g. `no path from node 1 to node 3`
@treturn[2] string the code: `"no_path"`, `"blocked"` (the start or every goal is
disabled) or `"limit"`
@treturn[3] Path with `partial = true`, the path toward the goal
@treturn[3] string a message
@treturn[3] string `"partial"`
@usage
local g = astar.graph { directed = true }
for i = 1, 4 do g:add_node(i, 0) end
g:add_edge(1, 2); g:add_edge(2, 3); g:add_edge(3, 4); g:add_edge(1, 3, 5)
print(table.concat(g:find(1, 4):table(), " "))                     --> 1 2 3 4
print(g:find(1, 4, { algorithm = "bidirectional" }):cost())        --> 3
print(g:find(4, 1))                              --> nil no path from node 4 to node 1 no_path
print(g:find(1, { goals = { 4, 3 } }):stats().goal)               --> 2
*/
static int graph_find(lua_State *L) { return astar_map_find(L, &GRAPH); }

/***
Starts a time-sliced search: @{Graph:find|find}'s arguments and options (but
`algorithm = "bidirectional"`), plus `on_change`. Nothing is searched until
@{Query:step}; stepped to its end, the query gives what `find` would have returned.
@function Graph:query
@int a start node
@tparam int|table b goal node, or the options with `goals`
@tparam[opt] table opts every option of @{Graph:find|find}, and:
@tparam[opt="restart"] string opts.on_change what an edit of the graph during the query
that could change its answer does: `"restart"` (the next step starts the search again),
`"stale"` (the query ends with status `"stale"`) or `"continue"` (it goes on regardless);
edits that cannot change it are ignored (see @{Query:step})
@treturn Query
@usage
local g = astar.graph()
for i = 1, 100 do g:add_node(i, 0) end
for i = 1, 99 do g:add_edge(i, i + 1) end
local q = g:query(1, 100)
while q:step(10) == "running" do end
print(#q:result(), q:stats().expanded)          --> 100 99
*/
static int graph_query(lua_State *L) { return astar_map_query(L, &GRAPH); }

/***
Whether a stored path is still good on this graph, in time proportional to its length:
every node still there and enabled, every edge still there with the cost it had when the
path was found.
@function Graph:check
@tparam Path path a path found on this graph
@treturn[1] boolean `true`
@treturn[2] boolean `false`
@treturn[2] int the index of the first point that is no longer good
@treturn[2] string why: `"blocked"` (the node is gone or disabled, or the edge into it is
gone) or `"changed"` (that edge's cost)
*/
static int graph_check(lua_State *L) {
  static const afn F_CHECK = {"check", 1};
  lgraph *lg = astar_checkgraph(L, &F_CHECK);
  size_t n, i;
  const double *v = astar_path_graph(L, 2, &n);
  if (v == NULL)
    astar_argerror(L, &F_CHECK, 2, "astar.Path of a graph expected, got %s",
                   luaL_typename(L, 2));
  for (i = 0; i < n; i++)
    if (astar_graph_node_state(lg->g, (uint32_t)v[3 * i] - 1) == ASTAR_GN_UNKNOWN)
      astar_argerror(L, &F_CHECK, 2, "the path does not fit this graph");
  for (i = 0; i < n; i++) {
    uint32_t id = (uint32_t)v[3 * i] - 1;
    const char *why = NULL;
    if (astar_graph_node_state(lg->g, id) != ASTAR_GN_LIVE) why = "blocked";
    else if (i > 0) {
      double c = astar_graph_edge_cost(lg->g, (uint32_t)v[3 * (i - 1)] - 1, id);
      double was = v[3 * n + i];
      if (c < 0) why = "blocked";
      else if (was == was && was != c) why = "changed";
    }
    if (why != NULL) {
      lua_pushboolean(L, 0);
      lua_pushinteger(L, (lua_Integer)i + 1);
      lua_pushstring(L, why);
      return 3;
    }
  }
  lua_pushboolean(L, 1);
  return 1;
}

/* graph:distance_field is defined in field.c and documented here, with the Graph. */

/***
A distance field (Dijkstra map) over the graph: for every node, the cost of the cheapest
path from it to the nearest source, along edge directions, plus that source's value, and
the next node of that path. Its costs agree with @{Graph:find|find}'s.

`sources` is a list of node ids and `{id, value}` pairs (`value` a finite number, default
0, may be negative; a node listed twice keeps its smaller value; disabled sources and
sources above `max_cost` are ignored; the list may not be empty), or a @{Field} of this
graph: then every node it reached is a source of value `opts.scale * distance` (a negative
scale makes a flee map).
@function Graph:distance_field
@tparam table|Field sources
@tparam[opt] table opts the options; an unknown name is an error
@tparam[opt] number opts.max_cost nodes whose distance would exceed it stay unreached
(default: no limit)
@tparam[opt] function opts.cost `function(from, to, base)` as in `find`, called for the
edge in its direction of travel, toward the source
@tparam[opt] number opts.scale with a Field as `sources` only, and required then: the
factor applied to its distances (finite)
@treturn Field
@usage
local g = astar.graph()
for i = 1, 5 do g:add_node(i, 0) end
for i = 1, 4 do g:add_edge(i, i + 1) end
local field = g:distance_field({ 5, { 1, 1.5 } })   -- two sources, one worth 1.5
print(field:distance(2), field:next(2))            --> 2.5 1
print(field:distance(4), field:next(4))            --> 1 5
*/

static const luaL_Reg graph_methods[] = {
  {"query", graph_query},
  {"check", graph_check},
  {"add_node", graph_add_node},
  {"add_edge", graph_add_edge},
  {"remove_edge", graph_remove_edge},
  {"set_edge_cost", graph_set_edge_cost},
  {"edge_cost", graph_edge_cost},
  {"disable_node", graph_disable_node},
  {"enable_node", graph_enable_node},
  {"enabled", graph_enabled},
  {"remove_node", graph_remove_node},
  {"neighbors", graph_neighbors},
  {"node_count", graph_node_count},
  {"edge_count", graph_edge_count},
  {"directed", graph_directed},
  {"position", graph_position},
  {"find", graph_find},
  {"components", graph_components},
  {"component", graph_component},
  {"same_component", graph_same_component},
  {"stats", graph_stats},
  {"close", graph_close},
  {NULL, NULL}
};

static const luaL_Reg graph_meta[] = {
  {"__gc", astar_map_gc},
  {"__close", graph_close},       /* not __gc: a <close> variable may end in a callback */
  {"__tostring", graph_tostring},
  {NULL, NULL}
};

void astar_graph_open(lua_State *L) {
  astar_newclass(L, ASTAR_GRAPH_MT, "Graph", graph_meta, graph_methods);
  lua_pushcfunction(L, graph_new);
  lua_setfield(L, -2, "graph_new");
}
