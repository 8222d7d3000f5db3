-- One message per option rule: every entry point that takes options reads them from one table of
-- rows (src/lua/options.c), so the same bad value of the same option gives the same message
-- wherever the option is accepted, on every VM. The canonical messages are grid:find's.
--
-- Data-driven: ENTRIES (how to call each entry point with an options table, the options
-- argument's number, the options it accepts) x RULES (option, bad value, message fragment).
-- Every case is its own test and checks the whole message: bad argument #N to 'fname' (fragment).
local astar = require "astar"

local NAN, INF = 0 / 0, math.huge

-- The rules: option, bad value, the fragment after "option '<name>': ".
local RULES = {
  { "algorithm", 1, "string expected, got number" },
  { "algorithm", true, "string expected, got boolean" },
  { "algorithm", "fast", "invalid value 'fast'" },
  { "diagonal", 3, "string expected, got number" },
  { "diagonal", {}, "string expected, got table" },
  { "diagonal", "sometimes", "invalid value 'sometimes'" },
  { "diagonal", "NEVER", "invalid value 'NEVER'" },
  { "heuristic", 5, "string expected, got number" },
  { "heuristic", true, "string expected, got boolean" },
  { "heuristic", "magic", "invalid value 'magic'" },
  { "cost", 5, "function expected, got number" },
  { "cost", "base", "function expected, got string" },
  { "cost", {}, "function expected, got table" },
  { "weight", "2", "number expected, got string" },
  { "weight", {}, "number expected, got table" },
  { "weight", 0.5, "must be a finite number >= 1, got 0.5" },
  { "weight", 0, "must be a finite number >= 1, got 0" },
  { "weight", -1, "must be a finite number >= 1, got -1" },
  { "weight", NAN, "must be a finite number >= 1, got nan" },
  { "weight", INF, "must be a finite number >= 1, got inf" },
  { "max_expansions", "10", "number expected, got string" },
  { "max_expansions", true, "number expected, got boolean" },
  { "max_expansions", -1, "must be an integer in [0, 2^53], got -1" },
  { "max_expansions", 0.5, "must be an integer in [0, 2^53], got 0.5" },
  { "max_expansions", NAN, "must be an integer in [0, 2^53], got nan" },
  { "max_expansions", INF, "must be an integer in [0, 2^53], got inf" },
  { "max_cost", "1", "number expected, got string" },
  { "max_cost", -1, "must be a non-negative number, got -1" },
  { "max_cost", NAN, "must be a non-negative number, got nan" },
  { "max_cost", -INF, "must be a non-negative number, got -inf" },
  { "partial", 1, "boolean expected, got number" },
  { "partial", "yes", "boolean expected, got string" },
  { "partial", {}, "boolean expected, got table" },
  { "goals", 5, "table expected, got number" },
  { "goals", "x", "table expected, got string" },
  { "within", "1", "number expected, got string" },
  { "within", -1, "must be a non-negative finite number, got -1" },
  { "within", NAN, "must be a non-negative finite number, got nan" },
  { "within", INF, "must be a non-negative finite number, got inf" },
  { "on_change", true, "string expected, got boolean" },
  { "on_change", 1, "string expected, got number" },
  { "on_change", "never", "invalid value 'never'" },
  { "radius", "1", "number expected, got string" },
  { "radius", -1, "must be a non-negative finite number, got -1" },
  { "radius", NAN, "must be a non-negative finite number, got nan" },
  { "radius", INF, "must be a non-negative finite number, got inf" },
  { "overlay", 5, "astar.Field expected, got number" },
  { "overlay", "f", "astar.Field expected, got string" },
  { "overlay", {}, "astar.Field expected, got table" },
  { "overlay_scale", "1", "number expected, got string" },
  { "overlay_scale", -1, "must be a non-negative finite number, got -1" },
  { "overlay_scale", NAN, "must be a non-negative finite number, got nan" },
  { "overlay_scale", INF, "must be a non-negative finite number, got inf" },
  { "size", "2", "a number or a table {w, h} expected, got string" },
  { "size", 0, "its side must be an integer in [1, 64], got 0" },
  { "size", NAN, "its side must be an integer in [1, 64], got nan" },
  { "size", { 2, 0.5 }, "h must be an integer in [1, 64], got 0.5" },
  { "include", true, "number expected, got boolean" },
  { "include", -1, "flags must be an integer in [0, 2^32 - 1], got -1" },
  { "include", 0.5, "flags must be an integer in [0, 2^32 - 1], got 0.5" },
  { "include", 2 ^ 32, "flags must be an integer in [0, 2^32 - 1], got 4294967296" },
  { "exclude", true, "number expected, got boolean" },
  { "exclude", 0.5, "flags must be an integer in [0, 2^32 - 1], got 0.5" },
  { "exclude", NAN, "flags must be an integer in [0, 2^32 - 1], got nan" },
  { "scale", "1", "number expected, got string" },
  { "scale", INF, "must be a finite number, got inf" },
  { "scale", NAN, "must be a finite number, got nan" },
  { "tile", "1", "number expected, got string" },
  { "tile", 0, "must be a positive finite number, got 0" },
  { "tile", -1, "must be a positive finite number, got -1" },
  { "tile", INF, "must be a positive finite number, got inf" },
  { "directed", 1, "boolean expected, got number" },
  { "directed", "yes", "boolean expected, got string" },
  { "ratio", "2", "number expected, got string" },
  { "ratio", 0.5, "must be a number >= 1, got 0.5" },
  { "ratio", NAN, "must be a number >= 1, got nan" },
}

-- Every option some entry point accepts: any other entry point answers "unknown option".
local ALL = {}
for _, r in ipairs(RULES) do
  if not ALL[r[1]] then ALL[#ALL + 1] = r[1]; ALL[r[1]] = true end
end

-- Small maps: a 4x3 grid with (2, 2) blocked, a 3-node line graph, a 4x3 navmesh.
local function grid()
  local g = astar.grid(4, 3)
  g:set(2, 2, false)
  return g
end

local function graph()
  local g = astar.graph()
  g:add_node(0, 0); g:add_node(1, 0); g:add_node(2, 0)
  g:add_edge(1, 2); g:add_edge(2, 3)
  return g
end

local function mesh() return astar.navmesh.from_grid(astar.grid(4, 3)) end

-- astar.search / astar.query: a line 1 - 2 - ... - 5; the good parts join the options tested.
local function line(n, emit) if n < 5 then emit(n + 1, 1) end end
local function implicit(fn)
  return function(o)
    if type(o) == "table" then
      o.start = 1; o.neighbors = line
      if o.goals == nil then o.goal = 5 end
    end
    return fn(o)
  end
end

local function splice(o)
  local g = grid()
  return g:splice(g:find(1, 1, 4, 3), 1, 1, o)
end

local FIND = { "algorithm", "diagonal", "heuristic", "cost", "weight", "max_expansions", "max_cost",
  "partial", "goals", "within", "radius", "overlay", "overlay_scale", "size" }
local GRAPH_FIND = { "algorithm", "heuristic", "cost", "weight", "max_expansions", "max_cost",
  "partial", "goals", "within" }
local MESH_FIND = { "algorithm", "heuristic", "cost", "weight", "max_expansions", "max_cost",
  "partial", "radius", "include", "exclude" }
local IMPLICIT = { "algorithm", "heuristic", "weight", "max_expansions", "max_cost", "partial",
  "goals", "within" }
local function plus(list, ...)
  local t = {}
  for _, l in ipairs({ list, ... }) do
    for _, k in ipairs(l) do t[#t + 1] = k end
  end
  return t
end

-- Rules of one entry point only, where the option's domain differs there: 'replace' rows stand
-- for all the shared rows of their option, 'extra' rows add enum values valid elsewhere.
local HEURISTIC_FN = {
  { "heuristic", 5, "function expected, got number" },
  { "heuristic", "magic", "function expected, got string" },
  { "heuristic", "euclidean", "function expected, got string" },
}
local NOT_SPLICE = {
  { "goals", { { 4, 3 } }, "does not apply to splice", bare = true },
  { "within", 1, "does not apply to splice", bare = true },
  { "partial", true, "does not apply to splice", bare = true },
}
local GRID_ENUMS = { { "algorithm", "bidirectional", "invalid value 'bidirectional'" } }
local GRAPH_ENUMS = {
  { "algorithm", "jps", "invalid value 'jps'" },
  { "heuristic", "octile", "invalid value 'octile'" },
}
local MESH_ENUMS = {
  { "algorithm", "bfs", "invalid value 'bfs'" },
  { "algorithm", "bidirectional", "invalid value 'bidirectional'" },
  { "heuristic", "octile", "invalid value 'octile'" },
}

-- The entry points: label, name in messages, the options argument's number, the options it
-- accepts, a call with an options table (or any value in its place), own rules.
local ENTRIES = {
  { label = "grid:find", name = "find", argn = 5, accepts = FIND, extra = GRID_ENUMS,
    call = function(o) return grid():find(1, 1, 4, 3, o) end },
  { label = "grid:query", name = "query", argn = 5, accepts = plus(FIND, { "on_change" }),
    extra = GRID_ENUMS, call = function(o) return grid():query(1, 1, 4, 3, o) end },
  { label = "grid:distance_field", name = "distance_field", argn = 2,
    accepts = { "diagonal", "cost", "max_cost", "scale", "radius", "overlay", "overlay_scale",
      "size" },
    call = function(o) return grid():distance_field({ { 1, 1 } }, o) end },
  { label = "grid:replanner", name = "replanner", argn = 5, accepts = { "diagonal", "radius" },
    call = function(o) return grid():replanner(1, 1, 4, 3, o) end },
  { label = "grid:splice", name = "splice", argn = 4, call = splice, extra = GRID_ENUMS,
    accepts = { "algorithm", "diagonal", "heuristic", "cost", "weight", "max_expansions",
      "max_cost", "ratio", "goals", "within", "partial" }, replace = NOT_SPLICE },
  { label = "graph:find", name = "find", argn = 3, accepts = GRAPH_FIND, extra = GRAPH_ENUMS,
    call = function(o) return graph():find(1, 3, o) end },
  { label = "graph:query", name = "query", argn = 3, accepts = plus(GRAPH_FIND, { "on_change" }),
    extra = GRAPH_ENUMS, call = function(o) return graph():query(1, 3, o) end },
  { label = "graph:distance_field", name = "distance_field", argn = 2,
    accepts = { "cost", "max_cost", "scale" },
    call = function(o) return graph():distance_field({ 1 }, o) end },
  { label = "astar.graph", name = "graph", argn = 1, accepts = { "directed" },
    call = function(o) return astar.graph(o) end },
  { label = "mesh:find", name = "find", argn = 5, accepts = MESH_FIND, extra = MESH_ENUMS,
    call = function(o) return mesh():find(0.5, 0.5, 3.5, 2.5, o) end },
  { label = "mesh:query", name = "query", argn = 5, accepts = plus(MESH_FIND, { "on_change" }),
    extra = MESH_ENUMS, call = function(o) return mesh():query(0.5, 0.5, 3.5, 2.5, o) end },
  { label = "mesh:raycast", name = "raycast", argn = 5, accepts = { "include", "exclude" },
    call = function(o) return mesh():raycast(0.5, 0.5, 3.5, 2.5, o) end },
  { label = "navmesh.from_grid", name = "from_grid", argn = 2, accepts = { "tile" },
    call = function(o) return astar.navmesh.from_grid(grid(), o) end },
  { label = "astar.search", name = "search", argn = 1, accepts = IMPLICIT, replace = HEURISTIC_FN,
    call = implicit(astar.search) },
  { label = "astar.query", name = "query", argn = 1, accepts = IMPLICIT, replace = HEURISTIC_FN,
    call = implicit(astar.query) },
}

-- Entry points that take a diagonal policy positionally: label, name, argument number, call.
-- The same rule gives the same text, its subject being the argument ("diagonal: ...").
local POSITIONAL = {
  { "grid:components", "components", 1, function(d) local g = grid(); return g:components(d) end },
  { "grid:component", "component", 3, function(d) local g = grid(); return g:component(1, 1, d) end },
  { "grid:same_component", "same_component", 5,
    function(d) local g = grid(); return g:same_component(1, 1, 4, 3, d) end },
  { "grid:to_path", "to_path", 2, function(d) local g = grid(); return g:to_path({ 1, 1, 2, 1 }, d) end },
}

local function show(v)
  if type(v) == "string" then return ("%q"):format(v) end
  if type(v) == "table" then return "{...}" end
  if v ~= v then return "nan" end
  return tostring(v)
end

-- The message of f(...), position info (if any) stripped.
local function message(f, ...)
  local ok, msg = pcall(f, ...)
  if ok then return nil end
  return (tostring(msg):gsub("^[^%s:]+:%d+: ", ""))
end

local function expect(want, f, ...)
  local got = message(f, ...)
  assert(got ~= nil, ("expected error %q, but the call succeeded"):format(want))
  assert(got == want, ("wrong error message\n  expected: %s\n  actual:   %s"):format(want, got))
end

local function frame(argn, fname, fragment)
  return ("bad argument #%d to '%s' (%s)"):format(argn, fname, fragment)
end

local function option_fragment(r)
  return r.bare and ("option '%s' %s"):format(r[1], r[3]) or ("option '%s': %s"):format(r[1], r[3])
end

-- The cases of an entry point: the shared rows of every option it accepts (but those its own
-- 'replace' rows stand for), then its own rows.
local function cases_of(e)
  local accepts, replaced, cases = {}, {}, {}
  for _, k in ipairs(e.accepts) do accepts[k] = true end
  for _, r in ipairs(e.replace or {}) do replaced[r[1]] = true end
  for _, r in ipairs(RULES) do
    if accepts[r[1]] and not replaced[r[1]] then cases[#cases + 1] = r end
  end
  for _, r in ipairs(plus(e.replace or {}, e.extra or {})) do cases[#cases + 1] = r end
  return cases
end

describe("options: one message per rule at every entry point", function()
  local count = 0
  for _, e in ipairs(ENTRIES) do
    local fname, argn, call = e.name, e.argn, e.call
    describe(e.label, function()
      for _, r in ipairs(cases_of(e)) do
        count = count + 1
        it(("%s = %s"):format(r[1], show(r[2])), function()
          expect(frame(argn, fname, option_fragment(r)), call, { [r[1]] = r[2] })
        end)
      end

      -- options it does not accept are unknown (this also checks the lists above)
      local ok = {}
      for _, k in ipairs(e.accepts) do ok[k] = true end
      for _, k in ipairs(plus(ALL, { "bogus", "wieght" })) do
        if not ok[k] then
          count = count + 1
          it(("%s is unknown"):format(k), function()
            expect(frame(argn, fname, ("unknown option '%s'"):format(k)), call, { [k] = 1 })
          end)
        end
      end

      for _, bad in ipairs({ 7, "x", true }) do
        count = count + 1
        it(("an options argument %s"):format(show(bad)), function()
          expect(frame(argn, fname, ("table expected, got %s"):format(type(bad))), call, bad)
        end)
      end
      count = count + 1
      it("an option name that is not a string", function()
        expect(frame(argn, fname, "option names must be strings, got number"), call, { [1] = true })
      end)
    end)
  end

  describe("a positional diagonal policy", function()
    for _, p in ipairs(POSITIONAL) do
      local label, fname, argn, call = p[1], p[2], p[3], p[4]
      for _, r in ipairs(RULES) do
        if r[1] == "diagonal" then
          count = count + 1
          it(("%s: %s"):format(label, show(r[2])), function()
            expect(frame(argn, fname, "diagonal: " .. r[3]), call, r[2])
          end)
        end
      end
    end
  end)

  it("covers every rule at least once and enough cases", function()
    local seen = {}
    for _, e in ipairs(ENTRIES) do
      for _, r in ipairs(cases_of(e)) do seen[r] = true end
    end
    for _, r in ipairs(RULES) do
      assert(seen[r], ("rule %s = %s is never checked"):format(r[1], show(r[2])))
    end
    assert(count >= 400, "too few cases: " .. count)
  end)
end)
