/*
** binding.h - what the files of the Lua binding share (not installed).
*/
#ifndef ASTAR_BINDING_H
#define ASTAR_BINDING_H

#include "compat.h"
#include "astar.h"

#define ASTAR_GRID_MT "astar.Grid"
#define ASTAR_PATH_MT "astar.Path"

/* Which function is checking its arguments, for error messages that are the
** same on every VM: 'self' is 1 for methods (self is not counted). */
typedef struct afn {
  const char *name;
  int self;
} afn;

/* Raises the formatted message, without position information. */
int astar_error(lua_State *L, const char *fmt, ...);
/* Raises "bad argument #n to 'name' (<formatted message>)". */
int astar_argerror(lua_State *L, const afn *f, int idx, const char *fmt, ...);
/* Formats a number the same way on every VM ("nan", "inf", "-inf", %.14g). */
const char *astar_fmtnum(char *buf, double x);
/* A number (not a string); raises "number expected, got <type>". */
double astar_checknumber(lua_State *L, const afn *f, int idx);
/* An integral number within int range; raises "integer expected, got 1.5". */
int astar_checkint(lua_State *L, const afn *f, int idx);
/* An integral number in [lo, hi]; raises "<what> out of range: X not in [lo, hi]". */
int astar_checkrange(lua_State *L, const afn *f, int idx, const char *what, int lo, int hi);
/* A 1-based coordinate on 'axis' ("x" or "y") in [1, max]; returns it 0-based. */
int astar_checkcoord(lua_State *L, const afn *f, int idx, const char *axis, int max);
/* A cell value: number > 0 and finite, true (1) or false (0 = blocked). */
double astar_checkcost(lua_State *L, const afn *f, int idx);
/* Converts a value at 'idx' to a cell cost; returns -1 if it is not one. */
double astar_tocost(lua_State *L, int idx);
/* The allocator the core gets, and its userdata. */
astar_alloc astar_allocator(lua_State *L, void **ud);
/* Raises the Lua error that matches a negative core status. */
int astar_raise(lua_State *L, int status);

/* Pushes a new Path of n points (2 coordinates each, integers when 'ints'),
** and returns a pointer to its 2n coordinates to fill. */
typedef struct lpath lpath;
double *astar_newpath(lua_State *L, size_t n, int ints, double cost,
                      const astar_stats *st, const char *algorithm);

void astar_grid_open(lua_State *L);
void astar_path_open(lua_State *L);

#endif
