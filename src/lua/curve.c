/*
** curve.c - the Lua side of turning-radius curves (src/core/curve.c).
*/
/***
The shortest way for a unit that drives forward and turns no tighter than a radius: a
Dubins curve, made by @{astar.curve}. Three segments, each an arc of the turning radius or a
straight: one of the words `"LSL"`, `"RSR"`, `"LSR"`, `"RSL"`, `"RLR"`, `"LRL"` (Marco
Pinter's four constructions are the first four). Headings are in radians, counter-clockwise
from the +x axis: `L` turns toward larger headings (on a screen whose y axis points down, that
looks clockwise). A curve is a small userdata of numbers; it holds no map.
@classmod Curve
*/
#include <math.h>
#include "binding.h"

#define ASTAR_CURVE_MT "astar.Curve"

static const afn F_CURVE = {"curve", 0};

static astar_curve *checkcurve(lua_State *L, const char *fname) {
  astar_curve *c = (astar_curve *)luaL_testudata(L, 1, ASTAR_CURVE_MT);
  if (c == NULL) {
    afn f;
    f.name = fname; f.self = 1;
    astar_argerror(L, &f, 1, "astar.Curve expected, got %s", luaL_typename(L, 1));
  }
  return c;
}

/***
The shortest curve from pose `(x0, y0, h0)` to `(x1, y1, h1)` for a unit whose turning radius
is `r` (Dubins): all six words are tried and the shortest kept.
@function astar.curve
@number x0 start
@number y0
@number h0 the start heading, radians
@number x1 goal
@number y1
@number h1 the goal heading, radians
@number r the turning radius, > 0
@treturn Curve
@usage
local c = astar.curve(0, 0, 0, 10, 0, math.pi, 2)    -- ahead 10, then facing back
print(c:word(), ("%.4f"):format(c:length()))          --> LSR 17.0944
local x, y, h = c:sample(c:length())
print(("%.3f %.3f %.3f"):format(x, math.abs(y), h))   --> 10.000 0.000 3.142
*/
static int curve_new(lua_State *L) {
  double v[7];
  int i, rc;
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
  c = (astar_curve *)lua_newuserdatauv(L, sizeof *c, 0);
  rc = astar_curve_dubins(c, v[0], v[1], v[2], v[3], v[4], v[5], v[6]);
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
Which of the six words the curve is: `"LSL"`, `"RSR"`, `"LSR"`, `"RSL"`, `"RLR"` or `"LRL"`.
@function Curve:word
@treturn string
*/
static int curve_word(lua_State *L) {
  lua_pushstring(L, astar_curve_word(checkcurve(L, "word")));
  return 1;
}

/***
The pose at distance `s` along the curve (clamped to `[0, length]`).
@function Curve:sample
@number s
@treturn number x
@treturn number y
@treturn number the heading, in `[0, 2 pi)`
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
The three segments: `{{"L", length}, {"S", length}, {"R", length}}` (lengths along the curve;
a segment may be 0 long).
@function Curve:segments
@treturn table
*/
static int curve_segments(lua_State *L) {
  astar_curve *c = checkcurve(L, "segments");
  const char *w = astar_curve_word(c);
  int i;
  lua_createtable(L, 3, 0);
  for (i = 0; i < 3; i++) {
    lua_createtable(L, 2, 0);
    lua_pushlstring(L, w + i, 1);
    lua_rawseti(L, -2, 1);
    lua_pushnumber(L, (lua_Number)(c->seg[i] * c->r));
    lua_rawseti(L, -2, 2);
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
  {NULL, NULL}
};

static const luaL_Reg curve_meta[] = {
  {"__tostring", curve_tostring},
  {NULL, NULL}
};

void astar_curve_open(lua_State *L) {
  astar_newclass(L, ASTAR_CURVE_MT, "Curve", curve_meta, curve_methods);
  lua_pushcfunction(L, curve_new);
  lua_setfield(L, -2, "curve");
}
