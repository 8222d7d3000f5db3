/*
** navmesh_link.c - the Lua side of off-mesh links (src/core/navmesh_link.c):
** ladders, jumps and teleporters between two points of a navigation mesh,
** and the marks that tell a Path which of its steps take one.
*/
/***
Off-mesh links: methods on the NavMesh's page (config.ld merges this file's entries into
the NavMesh of navmesh.c).
@classmod NavMesh
*/
#include <math.h>
#include "binding.h"

static const afn F_LINK = {"link", 1};
static const afn F_UNLINK = {"unlink", 1};
static const afn F_LINKS = {"links", 1};

/* Reads the two points at 2..5 into c[4] and the options at 'optidx'; returns
** whether the link goes one way only. */
static int ends(lua_State *L, const afn *f, double c[4], int optidx) {
  static const astar_optuse OPTS[] = {{ASTAR_OPT_ONEWAY, 0, NULL}, ASTAR_OPT_END};
  astar_opts o;
  int k;
  for (k = 0; k < 4; k++) c[k] = astar_checkfinite(L, f, k + 2);
  astar_readopts(L, f, optidx, OPTS, &o);
  return astar_opt(&o, ASTAR_OPT_ONEWAY, 0) != 0;
}

/***
Links two points of the mesh with a move of a fixed `cost`: a ladder, a jump down a ledge, a
door between floors, a teleporter (an off-mesh link). Both ways unless `oneway`; linking the
same points again sets the cost. Every search takes a link while the polygons at both ends
are ones the query's flags allow (and, with `radius`, while the unit fits at both ends), the
exact search included, so paths through links are still the shortest; the built-in heuristic
allows for them and stays admissible. @{Path:link} tells which steps of a path take one.
Adding, re-pricing or removing a link is an edit of the whole mesh: live queries restart.
Raises from a callback of a search running on the mesh.
@function NavMesh:link
@number x1 one end (a point on the mesh)
@number y1
@number x2 the other end (another point on the mesh, anywhere)
@number y2
@number cost what taking it costs: > 0, finite (not multiplied by polygon costs)
@tparam[opt] table opts `oneway = true`: from `(x1, y1)` to `(x2, y2)` only
@usage
local mesh = astar.navmesh{vertices = {0,0, 10,0, 10,10, 0,10, 20,0, 30,0, 30,10, 20,10},
                           polygons = {{1, 2, 3, 4}, {5, 6, 7, 8}}}   -- two rooms apart
mesh:link(9, 5, 21, 5, 4)                                  -- a bridge that costs 4
local path = mesh:find(1, 5, 29, 5)
print(path:cost(), #path, path:link(2))                    --> 20 4 4
*/
static int mesh_link(lua_State *L) {
  const lmap *map;
  astar_navmesh *m = astar_checknavmesh(L, &F_LINK, &map);
  double c[4], cost, old;
  int oneway = ends(L, &F_LINK, c, 7), rc, k;
  char buf[32], b2[32];
  astar_map_alive(L, map);                     /* the options' metamethods may close it */
  cost = astar_checknumber(L, &F_LINK, 6);
  if (!(cost > 0) || cost == HUGE_VAL)
    astar_argerror(L, &F_LINK, 6, "cost must be a positive finite number, got %s",
                   astar_fmtnum(buf, cost));
  astar_checkbig(L, &F_LINK, 6, "cost", cost);
  if (c[0] == c[2] && c[1] == c[3])
    astar_argerror(L, &F_LINK, 4, "a link joins two different points");
  for (k = 0; k < 4; k += 2)
    if (astar_navmesh_locate(m, c[k], c[k + 1]) == ASTAR_NONE)
      astar_argerror(L, &F_LINK, k + 2, "(%s, %s) is not on the navmesh",
                     astar_fmtnum(buf, c[k]), astar_fmtnum(b2, c[k + 1]));
  astar_map_idle(L, map, "edit");
  old = astar_navmesh_link_cost(m, c[0], c[1], c[2], c[3]);
  rc = astar_navmesh_link(m, c[0], c[1], c[2], c[3], cost);
  if (rc == 0 && !oneway) {
    rc = astar_navmesh_link(m, c[2], c[3], c[0], c[1], cost);
    if (rc != 0) {                      /* all or nothing: the first as it was */
      if (old > 0) astar_navmesh_link(m, c[0], c[1], c[2], c[3], old);  /* allocates nothing */
      else astar_navmesh_unlink(m, c[0], c[1], c[2], c[3]);
    }
  }
  if (rc != 0) astar_raise(L, rc);
  return 0;
}

/***
Removes the link between two points (both ways unless `oneway`).
@function NavMesh:unlink
@number x1
@number y1
@number x2
@number y2
@tparam[opt] table opts `oneway = true`: only the link from `(x1, y1)` to `(x2, y2)`
@treturn int how many links it removed (0, 1 or 2)
*/
static int mesh_unlink(lua_State *L) {
  const lmap *map;
  astar_navmesh *m = astar_checknavmesh(L, &F_UNLINK, &map);
  double c[4];
  int oneway = ends(L, &F_UNLINK, c, 6), n;
  astar_map_alive(L, map);
  astar_map_idle(L, map, "edit");
  n = astar_navmesh_unlink(m, c[0], c[1], c[2], c[3]);
  if (!oneway) n += astar_navmesh_unlink(m, c[2], c[3], c[0], c[1]);
  lua_pushinteger(L, n);
  return 1;
}

/***
The mesh's links, one entry per direction, in the order they were made:
`{{x1, y1, x2, y2, cost}, ...}`, a new table.
@function NavMesh:links
@treturn table
*/
static int mesh_links(lua_State *L) {
  const lmap *map;
  astar_navmesh *m = astar_checknavmesh(L, &F_LINKS, &map);
  size_t cursor = 0;
  double c[5];
  int i = 0;
  lua_createtable(L, (int)astar_navmesh_link_count(m), 0);
  for (;;) {
    int k;
    astar_map_alive(L, map);                   /* a finalizer may have closed it */
    if (!astar_navmesh_next_link(m, &cursor, &c[0], &c[1], &c[2], &c[3], &c[4])) break;
    lua_createtable(L, 5, 0);
    for (k = 0; k < 5; k++) {
      lua_pushnumber(L, (lua_Number)c[k]);
      lua_rawseti(L, -2, k + 1);
    }
    lua_rawseti(L, -2, ++i);
  }
  return 1;
}

void astar_path_meshlinks(lua_State *L, int idx, const double *steps, size_t n) {
  size_t k;
  int made = 0;
  if (steps == NULL) return;
  idx = lua_absindex(L, idx);
  for (k = 0; k + 1 < n; k++)
    if (steps[k] >= 0) astar_linkmark(L, &made, k + 1, steps[k]);
  if (made) astar_path_setlinks(L, idx);
}

static const luaL_Reg link_methods[] = {
  {"link", mesh_link},
  {"unlink", mesh_unlink},
  {"links", mesh_links},
  {NULL, NULL}
};

void astar_navmesh_link_open(lua_State *L) {
  astar_addmethods(L, ASTAR_NAVMESH_MT, link_methods);
}
