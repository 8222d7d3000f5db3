/*
** curve.c - the Lua side of turning-radius curves (src/core/curve.c).
*/
/***
The shortest way for a unit that turns no tighter than a radius, made by @{astar.curve}.
Forward only (Dubins): three segments, each an arc of the turning radius or a straight, one of
the words `"LSL"`, `"RSR"`, `"LSR"`, `"RSL"`, `"RLR"`, `"LRL"` (Marco Pinter's four
constructions are the first four). With `reverse = true`, forward and backward (Reeds-Shepp):
three to five segments, each with its direction, a word such as `"L+R-L+"` or
`"L+R-S-L-R+"` (`+` forward, `-` backward). Headings are in radians, counter-clockwise from
the +x axis: driving forward, `L` turns toward larger headings (on a screen whose y axis points
down, that looks clockwise); an `L` arc's centre is on the unit's left whichever way it drives.
A unit driving backward keeps facing ahead: the heading @{Curve:sample} gives is where it faces.
A curve is a small userdata of numbers; it holds no map.
@classmod Curve
*/
#include <math.h>
#include <string.h>
#include "binding.h"

#define ASTAR_CURVE_MT "astar.Curve"

static const afn F_CURVE = {"curve", 0};

static astar_curve *checkcurve(lua_State *L, const char *fname) {
  return (astar_curve *)astar_checkself(L, ASTAR_CURVE_MT, fname, "astar.Curve");
}

/* The options of astar.curve at 'idx' (none, nil or a table): whether it may reverse.
** The messages are options.c's. */
static int curve_opts(lua_State *L, int idx) {
  int reverse = 0;
  if (lua_isnoneornil(L, idx)) return 0;
  if (lua_type(L, idx) != LUA_TTABLE)
    astar_argerror(L, &F_CURVE, idx, "table expected, got %s", luaL_typename(L, idx));
  lua_pushnil(L);
  while (lua_next(L, idx)) {                         /* key value */
    if (lua_type(L, -2) != LUA_TSTRING)
      astar_argerror(L, &F_CURVE, idx, "option names must be strings, got %s",
                     luaL_typename(L, -2));
    if (strcmp(lua_tostring(L, -2), "reverse") != 0)
      astar_argerror(L, &F_CURVE, idx, "unknown option '%s'", lua_tostring(L, -2));
    if (lua_type(L, -1) != LUA_TBOOLEAN)
      astar_argerror(L, &F_CURVE, idx, "option 'reverse': boolean expected, got %s",
                     luaL_typename(L, -1));
    reverse = lua_toboolean(L, -1);
    lua_pop(L, 1);                                   /* key */
  }
  return reverse;
}

/***
The shortest curve from pose `(x0, y0, h0)` to `(x1, y1, h1)` for a unit whose turning radius
is `r`: driving forward only (Dubins: all six words are tried and the shortest kept), or with
`reverse = true` forward and backward (Reeds-Shepp: all 48 words of the nine families).
@function astar.curve
@number x0 start
@number y0
@number h0 the start heading, radians
@number x1 goal
@number y1
@number h1 the goal heading, radians
@number r the turning radius, > 0
@tab[opt] opts `reverse = true`: the unit may also drive backward (default false)
@treturn Curve
@usage
local c = astar.curve(0, 0, 0, 10, 0, math.pi, 2)    -- ahead 10, then facing back
print(c:word(), ("%.4f"):format(c:length()))          --> LSR 17.0944
local x, y, h = c:sample(c:length())
print(("%.3f %.3f %.3f"):format(x, math.abs(y), h))   --> 10.000 0.000 3.142
local p = astar.curve(0, 0, 0, 0, 2, 0, 1, {reverse = true})  -- 2 to the left, same heading
print(p:word(), p:cusps(), ("%.4f"):format(p:length()))      --> R+L-R-L+ 2 3.6470
*/
static int curve_new(lua_State *L) {
  double v[7];
  int i, rc, reverse;
  astar_curve *c;
  static const char *const NAMES[7] = {"x0", "y0", "h0", "x1", "y1", "h1", "r"};
  for (i = 0; i < 7; i++) {
    char buf[32];
    v[i] = astar_checknumber(L, &F_CURVE, i + 1);
    if (!isfinite(v[i]) || fabs(v[i]) > 1e100 || (i == 6 && !(v[i] > 0)))
      astar_argerror(L, &F_CURVE, i + 1, i == 6 ? "%s must be a positive finite number, got %s"
                                                : "%s must be a finite number, got %s",
                     NAMES[i], astar_fmtnum(buf, v[i]));
  }
  reverse = curve_opts(L, 8);
  c = (astar_curve *)lua_newuserdatauv(L, sizeof *c, 0);
  rc = (reverse ? astar_curve_reeds_shepp : astar_curve_dubins)(c, v[0], v[1], v[2], v[3], v[4],
                                                                 v[5], v[6]);
  if (rc == ASTAR_EINVAL)
    astar_argerror(L, &F_CURVE, 7, "r too small for the distance: the ends are more than "
                   "1e15 radii apart");
  if (rc != 0) astar_raise(L, rc);
  luaL_setmetatable(L, ASTAR_CURVE_MT);
  return 1;
}

/***
The curve's length.
@function Curve:length
@treturn number
*/
static int curve_length(lua_State *L) {
  lua_pushnumber(L, (lua_Number)checkcurve(L, "length")->length);
  return 1;
}

/***
Which word the curve is. Dubins: `"LSL"`, `"RSR"`, `"LSR"`, `"RSL"`, `"RLR"` or `"LRL"`.
Reeds-Shepp: each segment's kind followed by its direction, `+` forward or `-` backward, such
as `"L+S+R+"`, `"L+R-L+"` or `"R-L+S+R+L-"` (a segment 0 long takes the direction of the one
before it; the first, that of the first that moves).
@function Curve:word
@treturn string
*/
static int curve_word(lua_State *L) {
  lua_pushstring(L, astar_curve_word(checkcurve(L, "word")));
  return 1;
}

/***
How many times the curve changes between forward and backward: 0 for a Dubins curve and for a
Reeds-Shepp curve that never reverses, at most 2 (segments 0 long do not count).
@function Curve:cusps
@treturn integer
*/
static int curve_cusps(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)astar_curve_cusps(checkcurve(L, "cusps")));
  return 1;
}

/***
The pose at distance `s` along the curve (clamped to `[0, length]`; distance driven backward
counts as distance).
@function Curve:sample
@number s
@treturn number x
@treturn number y
@treturn number the heading, in `[0, 2 pi)`: where the unit faces (driving backward, the
opposite of where it moves)
*/
static int curve_sample(lua_State *L) {
  static const afn F = {"sample", 1};
  astar_curve *c = checkcurve(L, "sample");
  double s = astar_checknumber(L, &F, 2), x, y, h;
  char buf[32];
  if (s != s) astar_argerror(L, &F, 2, "s must be a number, got %s", astar_fmtnum(buf, s));
  astar_curve_sample(c, s, &x, &y, &h);
  lua_pushnumber(L, (lua_Number)x);
  lua_pushnumber(L, (lua_Number)y);
  lua_pushnumber(L, (lua_Number)h);
  return 3;
}

/***
Points along the curve every `step` of length, the start and the end included, as one flat
list `{x1, y1, x2, y2, ...}` (what `love.graphics.line` takes).
@function Curve:points
@number step the distance between points, > 0; at most a million points
@treturn table
*/
static int curve_points(lua_State *L) {
  static const afn F = {"points", 1};
  astar_curve *c = checkcurve(L, "points");
  double step = astar_checknumber(L, &F, 2), n, x, y, h;
  int i, k;
  char buf[32];
  if (!(step > 0) || !isfinite(step))
    astar_argerror(L, &F, 2, "step must be a positive finite number, got %s",
                   astar_fmtnum(buf, step));
  n = ceil(c->length / step);
  if (n > 1e6) astar_argerror(L, &F, 2, "step too small: more than a million points");
  k = (int)n;
  lua_createtable(L, 2 * (k + 1), 0);
  for (i = 0; i <= k; i++) {
    astar_curve_sample(c, i < k ? i * step : c->length, &x, &y, &h);
    lua_pushnumber(L, (lua_Number)x);
    lua_rawseti(L, -2, 2 * i + 1);
    lua_pushnumber(L, (lua_Number)y);
    lua_rawseti(L, -2, 2 * i + 2);
  }
  return 1;
}

/***
The segments, in order: `{{"L", length, 1}, {"S", length, 1}, {"R", length, -1}, ...}`, each
its kind, its length along the curve (a segment may be 0 long) and its direction, `1` forward
or `-1` backward. Three for a Dubins curve (all forward), three to five for a Reeds-Shepp one.
@function Curve:segments
@treturn table
*/
static int curve_segments(lua_State *L) {
  astar_curve *c = checkcurve(L, "segments");
  int i;
  lua_createtable(L, c->n, 0);
  for (i = 0; i < c->n; i++) {
    lua_createtable(L, 3, 0);
    lua_pushlstring(L, c->kind + i, 1);
    lua_rawseti(L, -2, 1);
    lua_pushnumber(L, (lua_Number)(c->seg[i] * c->r));
    lua_rawseti(L, -2, 2);
    lua_pushinteger(L, (lua_Integer)c->dir[i]);
    lua_rawseti(L, -2, 3);
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

static int curve_tostring(lua_State *L) {
  astar_curve *c = checkcurve(L, "__tostring");
  char buf[32];
  lua_pushfstring(L, "astar.Curve (%s, length %s)", astar_curve_word(c),
                  astar_fmtnum(buf, c->length));
  return 1;
}

static const luaL_Reg curve_methods[] = {
  {"length", curve_length},
  {"word", curve_word},
  {"sample", curve_sample},
  {"points", curve_points},
  {"segments", curve_segments},
  {"cusps", curve_cusps},
  {NULL, NULL}
};

static const luaL_Reg curve_meta[] = {
  {"__tostring", curve_tostring},
  {NULL, NULL}
};

void astar_pushcurve(lua_State *L, const astar_curve *c) {
  astar_curve *u = (astar_curve *)lua_newuserdatauv(L, sizeof *u, 0);
  *u = *c;
  luaL_setmetatable(L, ASTAR_CURVE_MT);
}

void astar_curve_open(lua_State *L) {
  astar_newclass(L, ASTAR_CURVE_MT, "Curve", curve_meta, curve_methods);
  lua_pushcfunction(L, curve_new);
  lua_setfield(L, -2, "curve");
}
