/*
** graph.c - placeholder until this part of issue 3 lands.
*/
#include "binding.h"

void astar_graph_open(lua_State *L) {
  (void)L;
}
