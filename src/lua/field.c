/*
** field.c - placeholder until this part of issue 3 lands.
*/
#include "binding.h"

void astar_field_open(lua_State *L) {
  (void)L;
}
