/*
** options.c - every option of every entry point, read from one table of
** rows: a rule has one message wherever the option is accepted, on every VM.
*/
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "binding.h"

/* What an option's value must be. */
enum {
  OT_ENUM = 1,      /* a string of a list */
  OT_NUMBER,        /* a number passing the row's range rule */
  OT_BOOLEAN,
  OT_FUNCTION,      /* callable: kept on the stack */
  OT_ENUM_OR_FUNC,  /* a string of a list, or callable (kept on the stack) */
  OT_TABLE,         /* kept on the stack */
  OT_ANY            /* any non-nil value, kept on the stack */
};

/* Number ranges, with the words of their message. */
enum { R_NONE, R_WEIGHT, R_COUNT, R_NONNEG, R_NONNEG_FINITE, R_FINITE, R_POS_FINITE,
       R_FLAGS, R_RATIO };
static const char *const RULES[] = {
  "", "must be a finite number >= 1", "must be an integer in [0, 2^53]",
  "must be a non-negative number", "must be a non-negative finite number",
  "must be a finite number", "must be a positive finite number",
  "flags must be an integer in [0, 2^32 - 1]", "must be a number >= 1"
};

static int inrange(int rule, double v) {
  switch (rule) {
    case R_WEIGHT: return v >= 1.0 && v < HUGE_VAL;
    case R_COUNT: return v >= 0 && v == floor(v) && v <= 9007199254740992.0;
    case R_NONNEG: return v >= 0;
    case R_NONNEG_FINITE: return v >= 0 && v < HUGE_VAL;
    case R_FINITE: return v > -HUGE_VAL && v < HUGE_VAL;
    case R_POS_FINITE: return v > 0 && v < HUGE_VAL;
    case R_FLAGS: return v >= 0 && v == floor(v) && v <= 4294967295.0;
    case R_RATIO: return v >= 1;
    default: return 1;
  }
}

static const char *const DIAGONALS[] = {"no_corner_cutting", "never", "always",
                                        "one_obstacle", NULL};
static const char *const CHANGES[] = {"restart", "stale", "continue", NULL};  /* ASTAR_ON_* */

typedef struct optrow {
  const char *name;
  unsigned char type, rule;
  const char *const *names;   /* OT_ENUM*: NULL when the entry point gives them */
} optrow;

/* One row per option, in the order of ASTAR_OPT_*. */
static const optrow ROWS[ASTAR_OPT_N] = {
  {"algorithm", OT_ENUM, R_NONE, NULL},
  {"diagonal", OT_ENUM, R_NONE, DIAGONALS},
  {"heuristic", OT_ENUM_OR_FUNC, R_NONE, NULL},
  {"cost", OT_FUNCTION, R_NONE, NULL},
  {"weight", OT_NUMBER, R_WEIGHT, NULL},
  {"max_expansions", OT_NUMBER, R_COUNT, NULL},
  {"max_cost", OT_NUMBER, R_NONNEG, NULL},
  {"partial", OT_BOOLEAN, R_NONE, NULL},
  {"goals", OT_TABLE, R_NONE, NULL},
  {"within", OT_NUMBER, R_NONNEG_FINITE, NULL},
  {"on_change", OT_ENUM, R_NONE, CHANGES},
  {"radius", OT_NUMBER, R_NONNEG_FINITE, NULL},
  {"include", OT_NUMBER, R_FLAGS, NULL},
  {"exclude", OT_NUMBER, R_FLAGS, NULL},
  {"scale", OT_NUMBER, R_FINITE, NULL},
  {"tile", OT_NUMBER, R_POS_FINITE, NULL},
  {"start", OT_ANY, R_NONE, NULL},
  {"goal", OT_ANY, R_NONE, NULL},
  {"neighbors", OT_FUNCTION, R_NONE, NULL},
  {"is_goal", OT_FUNCTION, R_NONE, NULL},
  {"key", OT_FUNCTION, R_NONE, NULL},
  {"directed", OT_BOOLEAN, R_NONE, NULL},
  {"ratio", OT_NUMBER, R_RATIO, NULL},
  {"oneway", OT_BOOLEAN, R_NONE, NULL},
  {"pull", OT_BOOLEAN, R_NONE, NULL},
  {"overlay", OT_ANY, R_NONE, NULL},
  {"overlay_scale", OT_NUMBER, R_NONNEG_FINITE, NULL},
  {"size", OT_ANY, R_NONE, NULL},
  {"heading", OT_NUMBER, R_FINITE, NULL},
  {"goal_heading", OT_NUMBER, R_FINITE, NULL},
  {"turning", OT_NUMBER, R_POS_FINITE, NULL},
  {"headings", OT_NUMBER, R_NONE, NULL},
  {"neighborhood", OT_NUMBER, R_NONE, NULL},
  {"reverse", OT_ANY, R_NONE, NULL},
  {"turn_cost", OT_NUMBER, R_NONNEG_FINITE, NULL},
  {"threads", OT_NUMBER, R_NONE, NULL},
  {"reserve", OT_ANY, R_NONE, NULL},
  {"unit", OT_NUMBER, R_NONE, NULL},
  {"start_time", OT_NUMBER, R_NONE, NULL},
  {"wait", OT_ANY, R_NONE, NULL},
  {"window", OT_NUMBER, R_NONE, NULL},
  {"claim", OT_BOOLEAN, R_NONE, NULL},
  {"refine", OT_BOOLEAN, R_NONE, NULL},
  {"cluster", OT_NUMBER, R_NONE, NULL},
  {"auto", OT_ANY, R_NONE, NULL}
};

const char *const *astar_diagonals(void) { return DIAGONALS; }

/* The type of option 'id' for the entry point's use 'u'. */
static int typeof_opt(const astar_optuse *u) {
  return u->type ? u->type : ROWS[u->id].type;
}

/* The index of string v in list, or -1. */
static int findenum(const char *const *list, const char *v) {
  int i;
  for (i = 0; list[i] != NULL; i++)
    if (strcmp(list[i], v) == 0) return i;
  return -1;
}

/* The error for a string 'v' that is none of an enumeration's values. */
static int badvalue(lua_State *L, const afn *f, int idx, const char *what, const char *v) {
  return astar_argerror(L, f, idx, "%s: invalid value '%s'", what, v);
}

int astar_checkenum(lua_State *L, const afn *f, int idx, const char *what,
                    const char *const *list) {
  int i;
  if (lua_type(L, idx) != LUA_TSTRING)
    astar_argerror(L, f, idx, "%s: string expected, got %s", what, luaL_typename(L, idx));
  i = findenum(list, lua_tostring(L, idx));
  return i >= 0 ? i : badvalue(L, f, idx, what, lua_tostring(L, idx));
}

/* Checks the value on top as option 'u' of the table at 'idx' into o. */
static void readone(lua_State *L, const afn *f, int idx, const astar_optuse *u, astar_opts *o) {
  const optrow *r = &ROWS[u->id];
  int type = typeof_opt(u), t = lua_type(L, -1);
  char what[40], buf[32];
  /* the words "option 'name'", made only for a message: most calls need none */
#define WHAT (snprintf(what, sizeof what, "option '%s'", r->name), what)
  switch (type) {
    case OT_ENUM_OR_FUNC:
      if (astar_iscallable(L, -1)) { o->fn[u->id] = 1; break; }
      /* FALLTHROUGH */
    case OT_ENUM:
      if (t != LUA_TSTRING)
        astar_argerror(L, f, idx, "%s: string expected, got %s", WHAT, luaL_typename(L, -1));
      o->v[u->id] = findenum(u->names ? u->names : r->names, lua_tostring(L, -1));
      if (o->v[u->id] < 0)
        badvalue(L, f, idx, WHAT, lua_tostring(L, -1));
      break;
    case OT_NUMBER:
      if (t != LUA_TNUMBER)
        astar_argerror(L, f, idx, "%s: number expected, got %s", WHAT, luaL_typename(L, -1));
      o->v[u->id] = (double)lua_tonumber(L, -1);
      if (!inrange(r->rule, o->v[u->id]))
        astar_argerror(L, f, idx, "%s: %s, got %s", WHAT, RULES[r->rule],
                       astar_fmtnum(buf, o->v[u->id]));
      break;
    case OT_BOOLEAN:
      if (t != LUA_TBOOLEAN)
        astar_argerror(L, f, idx, "%s: boolean expected, got %s", WHAT, luaL_typename(L, -1));
      o->v[u->id] = lua_toboolean(L, -1);
      break;
    case OT_FUNCTION:
      if (!astar_iscallable(L, -1))
        astar_argerror(L, f, idx, "%s: function expected, got %s", WHAT, luaL_typename(L, -1));
      o->fn[u->id] = 1;
      break;
    case OT_TABLE:
      if (t != LUA_TTABLE)
        astar_argerror(L, f, idx, "%s: table expected, got %s", WHAT, luaL_typename(L, -1));
      o->fn[u->id] = 1;
      break;
    default:
      o->fn[u->id] = 1;
  }
  o->given[u->id] = 1;
#undef WHAT
}

void astar_readopts(lua_State *L, const afn *f, int idx, const astar_optuse *use,
                    astar_opts *o) {
  int id;
  memset(o, 0, sizeof *o);
  o->idx = idx;
  if (lua_isnoneornil(L, idx)) return;
  if (lua_type(L, idx) != LUA_TTABLE)
    astar_argerror(L, f, idx, "table expected, got %s", luaL_typename(L, idx));
  lua_pushnil(L);
  while (lua_next(L, idx)) {                         /* key value */
    const astar_optuse *u;
    const char *k;
    if (lua_type(L, -2) != LUA_TSTRING)
      astar_argerror(L, f, idx, "option names must be strings, got %s",
                     luaL_typename(L, -2));
    k = lua_tostring(L, -2);
    for (u = use; u->id >= 0 && strcmp(ROWS[u->id].name, k) != 0; u++) {}
    if (u->id < 0) astar_argerror(L, f, idx, "unknown option '%s'", k);
    readone(L, f, idx, u, o);
    lua_pop(L, 1);                                   /* key */
  }
  /* park the values kept on the stack (raw: the table was read raw) */
  for (id = 0; id < ASTAR_OPT_N; id++) {
    if (!o->fn[id]) continue;
    lua_pushstring(L, ROWS[id].name);
    lua_rawget(L, idx);
    o->fn[id] = lua_gettop(L);
  }
}

double astar_opt(const astar_opts *o, int id, double dflt) {
  return o->given[id] ? o->v[id] : dflt;
}

void astar_opt_params(const astar_opts *o, astar_params *p) {
  p->weight = astar_opt(o, ASTAR_OPT_WEIGHT, p->weight);
  if (o->given[ASTAR_OPT_MAX_EXPANSIONS])
    p->max_expansions = (uint64_t)o->v[ASTAR_OPT_MAX_EXPANSIONS];
  p->max_cost = astar_opt(o, ASTAR_OPT_MAX_COST, p->max_cost);
  p->partial = (int)astar_opt(o, ASTAR_OPT_PARTIAL, p->partial);
}

int astar_opt_int(lua_State *L, const afn *f, const astar_opts *o, int id, int lo, int hi,
                  int dflt) {
  double v = astar_opt(o, id, dflt);
  char buf[32];
  if (!(v >= lo && v <= hi && v == floor(v)))
    astar_opterror(L, f, o, "option '%s': must be an integer in [%d, %d], got %s", ROWS[id].name,
                   lo, hi, astar_fmtnum(buf, v));
  return (int)v;
}

/* One side of the option 'size', the value on top (popped). */
static int sizeside(lua_State *L, const afn *f, const astar_opts *o, const char *what) {
  double v = lua_type(L, -1) == LUA_TNUMBER ? (double)lua_tonumber(L, -1) : -1;
  char buf[32];
  if (!(v >= 1 && v <= ASTAR_GRID_SIZE_MAX && v == floor(v)))
    astar_opterror(L, f, o, "option 'size': %s must be an integer in [1, %d], got %s", what,
                   ASTAR_GRID_SIZE_MAX, lua_type(L, -1) == LUA_TNUMBER ? astar_fmtnum(buf, v)
                                                                       : luaL_typename(L, -1));
  lua_pop(L, 1);
  return (int)v;
}

void astar_opt_size(lua_State *L, const afn *f, const astar_opts *o, int *w, int *h) {
  int idx = o->fn[ASTAR_OPT_SIZE];
  *w = *h = 0;
  if (!o->given[ASTAR_OPT_SIZE]) return;
  if (o->given[ASTAR_OPT_RADIUS])
    astar_opterror(L, f, o, "options 'radius' and 'size' cannot be combined");
  if (lua_type(L, idx) == LUA_TNUMBER) {
    lua_pushvalue(L, idx);
    *w = *h = sizeside(L, f, o, "its side");
    return;
  }
  if (lua_type(L, idx) != LUA_TTABLE)
    astar_opterror(L, f, o, "option 'size': a number or a table {w, h} expected, got %s",
                   luaL_typename(L, idx));
  lua_rawgeti(L, idx, 1);
  *w = sizeside(L, f, o, "w");
  lua_rawgeti(L, idx, 2);
  *h = sizeside(L, f, o, "h");
}

int astar_opterror(lua_State *L, const afn *f, const astar_opts *o, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  lua_pushvfstring(L, fmt, ap);
  va_end(ap);
  return astar_argerror(L, f, o->idx, "%s", lua_tostring(L, -1));
}
