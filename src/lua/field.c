/*
** field.c - placeholder until this part of issue 3 lands.
*/
#include "binding.h"

void astar_pushfield(lua_State *L, const astar_fieldspec *spec, const astar_search *s) {
  (void)spec; (void)s;
  astar_error(L, "distance fields are not available yet");
}

int astar_tofield(lua_State *L, int idx, int *kind, uint32_t *nnodes, const double **dist) {
  (void)L; (void)idx; (void)kind; (void)nnodes; (void)dist;
  return 0;
}

void astar_field_open(lua_State *L) {
  (void)L;
}
