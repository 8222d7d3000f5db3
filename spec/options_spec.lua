-- Options are read from one table of rows (src/lua/options.c): the same bad value of the same
-- option gives the same message at every entry point that accepts the option, on every VM.
-- Each entry point is called with an options table that is good but for one option; the whole
-- message is checked, frame included ("bad argument #n to 'name' (...)").
local H = require "spec.helper"
local astar = require "astar"

local NAN, INF = 0 / 0, math.huge

-- The rules: option, bad value, the message's fragment.
local RULES = {
  { "weight", 0.5, "option 'weight': must be a finite number >= 1, got 0.5" },
  { "weight", NAN, "option 'weight': must be a finite number >= 1, got nan" },
  { "weight", "2", "option 'weight': number expected, got string" },
  { "max_expansions", -1, "option 'max_expansions': must be an integer in [0, 2^53], got -1" },
  { "max_expansions", 1.5, "option 'max_expansions': must be an integer in [0, 2^53], got 1.5" },
  { "max_cost", -1, "option 'max_cost': must be a non-negative number, got -1" },
  { "max_cost", NAN, "option 'max_cost': must be a non-negative number, got nan" },
  { "partial", 1, "option 'partial': boolean expected, got number" },
  { "cost", 5, "option 'cost': function expected, got number" },
  { "cost", "base", "option 'cost': function expected, got string" },
  { "diagonal", 3, "option 'diagonal': string expected, got number" },
  { "diagonal", "sometimes", "option 'diagonal': invalid value 'sometimes'" },
  { "algorithm", 1, "option 'algorithm': string expected, got number" },
  { "algorithm", "fast", "option 'algorithm': invalid value 'fast'" },
  { "heuristic", "magic", "option 'heuristic': invalid value 'magic'" },
  { "within", -1, "option 'within': must be a non-negative finite number, got -1" },
  { "within", INF, "option 'within': must be a non-negative finite number, got inf" },
  { "goals", 5, "option 'goals': table expected, got number" },
  { "on_change", "never", "option 'on_change': invalid value 'never'" },
  { "on_change", true, "option 'on_change': string expected, got boolean" },
  { "radius", -1, "option 'radius': must be a non-negative finite number, got -1" },
  { "radius", "1", "option 'radius': number expected, got string" },
  { "include", -1, "option 'include': flags must be an integer in [0, 2^32 - 1], got -1" },
  { "exclude", 0.5, "option 'exclude': flags must be an integer in [0, 2^32 - 1], got 0.5" },
  { "exclude", true, "option 'exclude': number expected, got boolean" },
  { "scale", INF, "option 'scale': must be a finite number, got inf" },
  { "tile", 0, "option 'tile': must be a positive finite number, got 0" },
  { "directed", 1, "option 'directed': boolean expected, got number" },
  { "bogus", 1, "unknown option 'bogus'" },
}

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

local function line(n, emit) if n < 5 then emit(n + 1, 1) end end

-- Entry points: the name in messages, the options argument's number, the options it accepts
-- (beyond 'bogus'), a base table of good options, and a call with an options table.
local FIND = { "algorithm", "diagonal", "heuristic", "cost", "weight", "max_expansions",
  "max_cost", "partial", "goals", "within" }
local GRAPH_FIND = { "algorithm", "heuristic", "cost", "weight", "max_expansions", "max_cost",
  "partial", "goals", "within" }
local MESH_FIND = { "algorithm", "heuristic", "cost", "weight", "max_expansions", "max_cost",
  "radius", "include", "exclude" }
local function plus(list, more)
  local t = {}
  for _, k in ipairs(list) do t[#t + 1] = k end
  for _, k in ipairs(more) do t[#t + 1] = k end
  return t
end

local ENTRIES = {
  { "find", 5, FIND, function(o) return grid():find(1, 1, 4, 3, o) end },
  { "query", 5, plus(FIND, { "on_change" }), function(o) return grid():query(1, 1, 4, 3, o) end },
  { "distance_field", 2, { "diagonal", "cost", "max_cost", "scale" },
    function(o) return grid():distance_field({ { 1, 1 } }, o) end },
  { "replanner", 5, { "diagonal" }, function(o) return grid():replanner(1, 1, 4, 3, o) end },
  { "find", 3, GRAPH_FIND, function(o) return graph():find(1, 3, o) end },
  { "query", 3, plus(GRAPH_FIND, { "on_change" }), function(o) return graph():query(1, 3, o) end },
  { "distance_field", 2, { "cost", "max_cost", "scale" }, function(o) return graph():distance_field({ 1 }, o) end },
  { "graph", 1, { "directed" }, function(o) return astar.graph(o) end },
  { "find", 5, MESH_FIND, function(o) return mesh():find(0.5, 0.5, 3.5, 2.5, o) end },
  { "query", 5, plus(MESH_FIND, { "on_change" }),
    function(o) return mesh():query(0.5, 0.5, 3.5, 2.5, o) end },
  { "raycast", 5, { "include", "exclude" }, function(o) return mesh():raycast(0.5, 0.5, 3.5, 2.5, o) end },
  { "from_grid", 2, { "tile" }, function(o) return astar.navmesh.from_grid(grid(), o) end },
  { "search", 1, { "algorithm", "cost", "weight", "max_expansions", "max_cost", "partial", "goals",
    "within" }, function(o)
      o.start = 1; o.neighbors = line
      if o.goals == nil then o.goal = 5 end
      return astar.search(o)
    end },
  { "query", 1, { "algorithm", "weight", "max_expansions", "max_cost", "partial", "goals", "within" },
    function(o)
      o.start = 1; o.neighbors = line
      if o.goals == nil then o.goal = 5 end
      return astar.query(o)
    end },
}

describe("options", function()
  it("give one message per rule at every entry point that accepts them", function()
    local checked, seen = 0, {}
    for _, e in ipairs(ENTRIES) do
      local name, argn, accepts, call = e[1], e[2], e[3], e[4]
      local ok = { bogus = true }
      for _, k in ipairs(accepts) do ok[k] = true end
      for _, r in ipairs(RULES) do
        local k, v, fragment = r[1], r[2], r[3]
        -- implicit searches take a heuristic function only; cost is not an implicit option
        if ok[k] and not (name == "search" and k == "cost") then
          H.checkerr(("bad argument #%d to '%s' (%s)"):format(argn, name, fragment), call, { [k] = v })
          checked = checked + 1
          seen[k] = (seen[k] or 0) + 1
        end
      end
    end
    assert.is_true(checked >= 120, "too few cases: " .. checked)
    for _, r in ipairs(RULES) do assert.is_truthy(seen[r[1]], r[1] .. " never checked") end
  end)

  it("refuse an options argument that is not a table, and keys that are not strings", function()
    for _, e in ipairs(ENTRIES) do
      local name, argn, call = e[1], e[2], e[4]
      if argn > 1 then
        H.checkerr(("bad argument #%d to '%s' (option names must be strings, got number)")
          :format(argn, name), call, { [1] = true })
      end
    end
    H.checkerr("bad argument #5 to 'find' (table expected, got number)", grid().find, grid(), 1, 1,
      4, 3, 7)
    H.checkerr("bad argument #2 to 'distance_field' (table expected, got string)",
      grid().distance_field, grid(), { { 1, 1 } }, "x")
    H.checkerr("bad argument #1 to 'search' (table expected, got no value)", astar.search)
  end)

  it("name a positional diagonal policy with the option's rule", function()
    local g = grid()
    H.checkerr("bad argument #1 to 'components' (diagonal: invalid value 'sometimes')",
      g.components, g, "sometimes")
    H.checkerr("bad argument #3 to 'component' (diagonal: string expected, got number)",
      g.component, g, 1, 1, 3)
    H.checkerr("bad argument #2 to 'to_path' (diagonal: invalid value 'sometimes')",
      g.to_path, g, { 1, 1, 2, 1 }, "sometimes")
  end)

  it("read an implicit heuristic as a function", function()
    H.checkerr("bad argument #1 to 'search' (option 'heuristic': function expected, got string)",
      astar.search, { start = 1, goal = 5, neighbors = line, heuristic = "magic" })
  end)
end)
