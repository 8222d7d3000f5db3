-- One pipeline for every map kind: on grids, graphs, navmeshes and implicit graphs a time-sliced
-- query, stepped with any budget, ends exactly as find does (outcome, message, code, cost,
-- points, ends, expansions), the component shortcut included; found costs equal an independent
-- reference (spec/helper.lua's Dijkstras and visibility-graph oracle), never the code's own output.
--
-- Data-driven: per kind, a list of cases {name, args, want}; `want` holds the outcome (ok, code,
-- msg), the reference cost `ref`, and `expanded` where the expansions are known beforehand.
local H = require "spec.helper"
local astar = require "astar"

local BUDGETS = { 1, 7, 1000 }

-- A result as a comparable summary (cost apart: compared to 1e-9).
local function outcome(p, msg, code)
  if p == nil then return { ok = false, msg = msg, code = code } end
  return { ok = true, msg = msg, code = code, n = #p, cost = p:cost(), expanded = p:stats().expanded,
    first = { p:get(1) }, last = { p:get(-1) } }
end

local function without_cost(o)
  local t = {}
  for k, v in pairs(o) do if k ~= "cost" then t[k] = v end end
  return t
end

-- Steps q with 'budget' until it ends; returns the final status and the expansions spent.
local function stepped(q, budget)
  local steps, spent = 0, 0
  while true do
    local st, n = q:step(budget)
    assert(n <= budget, "a step expanded more than its budget")
    spent = spent + n
    steps = steps + 1
    assert(steps < 1e6, "query never ends")
    if st ~= "running" then return st, spent end
  end
end

-- Runs find(...) once and query(...) with each budget; asserts they agree; returns find's
-- summary, plus `spent`: the expansions of the query (equal for every budget).
local function agree(find, query, ...)
  local want = outcome(find(...))
  local spent_by
  for _, budget in ipairs(BUDGETS) do
    local q = query(...)
    local st, spent = stepped(q, budget)
    local got = outcome(q:result())
    assert.are.same(without_cost(want), without_cost(got), "budget " .. budget)
    if want.ok then
      assert(H.close(want.cost, got.cost, 1e-9), ("cost: find %.17g, query %.17g (budget %d)")
        :format(want.cost, got.cost, budget))
      assert.are.equal(want.expanded, spent, "find's expansions vs the query's, budget " .. budget)
    end
    local status = want.ok and (want.code == "partial" and "partial" or "found") or "none"
    assert.are.equal(status, st, "status, budget " .. budget)
    assert.are.equal(spent, q:stats().expanded, "steps' expansions vs stats, budget " .. budget)
    assert.are.equal(spent_by or spent, spent, "expansions depend on the budget")
    spent_by = spent
  end
  want.spent = spent_by
  return want
end

-- A reference cost that must exist (the reference finds a path).
local function must(cost, what)
  assert(type(cost) == "number", "the reference finds no path " .. what)
  return cost
end

-- Checks a case's summary against its `want`.
local function check(r, want)
  assert.are.equal(want.ok, r.ok, "found?")
  assert.are.equal(want.code, r.code, "code")
  if want.msg then assert.are.equal(want.msg, r.msg) end
  if want.ref then
    assert(r.ok, "no path, but the reference has one")
    assert(H.close(want.ref, r.cost, 1e-9), ("cost %.17g, reference %.17g"):format(r.cost, want.ref))
  end
  if want.expanded then
    assert.are.equal(want.expanded, r.spent, "the query's expansions (find's, for a path)")
  end
  if want.n then assert.are.equal(want.n, r.n, "points") end
end

-- Declares one test per case of a kind. `setup()` returns find, query, and a table of
-- references the cases' `want` functions read.
local function cases(kind, setup, list)
  describe(kind, function()
    for _, c in ipairs(list) do
      it(c[1], function()
        local find, query, env = setup(c.edit)
        local args = type(c[2]) == "function" and c[2](env) or c[2]
        check(agree(find, query, H.unpack(args, 1, args.n or #args)), c[3](env))
      end)
    end
  end)
end

local function methods(map)
  return function(...) return map:find(...) end, function(...) return map:query(...) end
end

-- Grids -----------------------------------------------------------------------------------------

-- Two rooms joined by a door at (5, 3); (9, 5) blocked; '~' costs 3.
local ROOMS = [[
....#....
.~~.#....
.........
....#.~~.
....#...#]]
local W, HT = 9, 5
local NCC = "no_corner_cutting"

-- edit: nil, "shut" (the door shuts), or "shut+components" (then g:components() is called).
local function grid_setup(edit)
  local cells = H.cells_from_text(ROOMS, { ["."] = 1, ["~"] = 3, ["#"] = false })
  if edit then cells[3][5] = false end
  local g = astar.grid(W, HT)
  for y = 1, HT do
    for x = 1, W do g:set(x, y, cells[y][x]) end
  end
  if edit == "shut+components" then g:components() end
  local env = {
    ref = function(sx, sy, gx, gy, diagonal)
      return must(H.dijkstra(cells, W, HT, sx, sy, gx, gy, diagonal or NCC), "on the grid")
    end,
    reach = function(sx, sy)
      local n = 0
      for _ in pairs(H.dijkstra_all(cells, W, HT, sx, sy, NCC)) do n = n + 1 end
      return n
    end,
  }
  local find, query = methods(g)
  return find, query, env
end

cases("on grids", grid_setup, {
  { "found", { 1, 1, 9, 4 }, function(e) return { ok = true, ref = e.ref(1, 1, 9, 4) } end },
  { "found, diagonal = 'never'", { 1, 1, 9, 4, { diagonal = "never" } },
    function(e) return { ok = true, ref = e.ref(1, 1, 9, 4, "never") } end },
  { "found, algorithm = 'dijkstra'", { 9, 1, 1, 5, { algorithm = "dijkstra" } },
    function(e) return { ok = true, ref = e.ref(9, 1, 1, 5) } end },
  { "found, goals", { 1, 1, { goals = { { 9, 4 }, { 6, 1 } } } },
    function(e) return { ok = true, ref = math.min(e.ref(1, 1, 9, 4), e.ref(1, 1, 6, 1)) } end },
  { "found, start = goal", { 3, 3, 3, 3 }, function() return { ok = true, ref = 0, n = 1 } end },
  { "blocked start", { 5, 1, 9, 4 }, function()
    return { ok = false, code = "blocked", msg = "start (5, 1) is blocked", expanded = 0 } end },
  { "blocked goal", { 1, 1, 9, 5 }, function()
    return { ok = false, code = "blocked", msg = "goal (9, 5) is blocked", expanded = 0 } end },
  { "limit (max_expansions)", { 1, 1, 9, 4, { max_expansions = 5 } }, function()
    return { ok = false, code = "limit", msg = "search limit reached before (9, 4) was found",
      expanded = 5 } end },
  { "limit (max_expansions = 0)", { 1, 1, 9, 4, { max_expansions = 0 } }, function()
    return { ok = false, code = "limit", expanded = 0 } end },
  { "limit (max_cost)", { 1, 1, 9, 4, { max_cost = 2 } }, function()
    return { ok = false, code = "limit", msg = "search limit reached before (9, 4) was found" } end },
  { "partial after a limit", { 1, 1, 9, 4, { max_expansions = 5, partial = true } }, function()
    return { ok = true, code = "partial", expanded = 5 } end },
  { "no path (Dijkstra expands the start's room)", edit = "shut",
    { 1, 1, 9, 4, { algorithm = "dijkstra" } }, function(e)
      return { ok = false, code = "no_path", msg = "no path from (1, 1) to (9, 4)",
        expanded = e.reach(1, 1) } end },
  { "no path", edit = "shut", { 1, 1, 9, 4 }, function()
    return { ok = false, code = "no_path", msg = "no path from (1, 1) to (9, 4)" } end },
  { "partial when there is no path", edit = "shut", { 1, 1, 9, 4, { partial = true } }, function()
    return { ok = true, code = "partial", msg = "no path: partial path toward the goal" } end },
  { "component shortcut: no path at once, 0 expansions", edit = "shut+components", { 1, 1, 9, 4 },
    function()
      return { ok = false, code = "no_path", msg = "no path from (1, 1) to (9, 4)", expanded = 0 }
    end },
  { "component shortcut with goals: no path at once", edit = "shut+components",
    { 1, 1, { goals = { { 9, 4 }, { 6, 1 } } } }, function()
      return { ok = false, code = "no_path", expanded = 0 } end },
  { "component shortcut: a goal in the start's room is searched as usual", edit = "shut+components",
    { 1, 1, 4, 5 }, function(e) return { ok = true, ref = e.ref(1, 1, 4, 5) } end },
  { "component shortcut: not with partial = true", edit = "shut+components",
    { 1, 1, 9, 4, { partial = true } }, function() return { ok = true, code = "partial" } end },
})

-- Graphs ----------------------------------------------------------------------------------------

-- 1 - 2 - 3 - 4 (and 1 - 3 at cost 5), 5 - 6 apart; positions on a line.
local EDGES = { { 1, 2 }, { 2, 3 }, { 3, 4 }, { 5, 6 }, { 1, 3, 5 } }

-- edit: nil, "components", or a list of nodes to disable.
local function graph_setup(edit)
  local g, M = astar.graph(), H.graph_model(false)
  for i = 1, 6 do g:add_node(i, 0); M:add_node(i, 0) end
  for _, e in ipairs(EDGES) do g:add_edge(e[1], e[2], e[3]); M:add_edge(e[1], e[2], e[3]) end
  if edit == "components" then g:components()
  elseif edit then
    for _, id in ipairs(edit) do g:disable_node(id) end
  end
  local find, query = methods(g)
  return find, query, { ref = function(a, b) return must(H.graph_dijkstra(M, a)[b], "on the graph") end }
end

cases("on graphs", graph_setup, {
  { "found", { 1, 4 }, function(e) return { ok = true, ref = e.ref(1, 4) } end },
  { "found, goals", { 1, { goals = { 6, 3 } } }, function(e) return { ok = true, ref = e.ref(1, 3) } end },
  { "found, heuristic = 'zero'", { 4, 1, { heuristic = "zero" } },
    function(e) return { ok = true, ref = e.ref(4, 1) } end },
  { "blocked start", edit = { 1 }, { 1, 4 }, function()
    return { ok = false, code = "blocked", msg = "start node 1 is disabled", expanded = 0 } end },
  { "blocked goal", edit = { 4 }, { 1, 4 }, function()
    return { ok = false, code = "blocked", msg = "goal node 4 is disabled", expanded = 0 } end },
  { "no path", { 1, 6 }, function()
    return { ok = false, code = "no_path", msg = "no path from node 1 to node 6", expanded = 4 } end },
  { "limit (max_expansions)", { 1, 4, { max_expansions = 1 } }, function()
    return { ok = false, code = "limit", msg = "search limit reached before node 4 was found",
      expanded = 1 } end },
  { "partial after a limit", { 1, 4, { max_expansions = 1, partial = true } }, function()
    return { ok = true, code = "partial", expanded = 1 } end },
  { "partial when there is no path", { 1, 6, { partial = true } }, function()
    return { ok = true, code = "partial", msg = "no path: partial path toward the goal" } end },
  { "component shortcut: no path at once, 0 expansions", edit = "components", { 1, 6 }, function()
    return { ok = false, code = "no_path", msg = "no path from node 1 to node 6", expanded = 0 } end },
  { "component shortcut: a goal in the start's component is searched", edit = "components", { 1, 4 },
    function(e) return { ok = true, ref = e.ref(1, 4) } end },
})

-- Navmeshes -------------------------------------------------------------------------------------

-- A 20x10 room with a pillar; or ("split") a 9x5 grid cut in two by a wall at x = 5.
local OUTLINE = { 0, 0, 20, 0, 20, 10, 0, 10 }
local HOLES = { { 8, 2, 12, 2, 12, 9, 8, 9 } }
local DOMAIN = { outline = OUTLINE, holes = HOLES }

local function mesh_setup(edit)
  local m
  if edit == "split" then
    local g = astar.grid(9, 5)
    g:fill(5, 1, 1, 5, false)
    m = astar.navmesh.from_grid(g)
  else
    m = astar.navmesh.from_polygons(OUTLINE, HOLES)
  end
  local find, query = methods(m)
  return find, query, {
    ref = function(...)
      local c = H.shortest_euclidean(DOMAIN, ...)
      return must(c < math.huge and c or nil, "on the navmesh")
    end }
end

local same_cost = function(_, _, base) return base end

cases("on navmeshes", mesh_setup, {
  { "found", { 2, 8, 18, 8 }, function(e) return { ok = true, ref = e.ref(2, 8, 18, 8) } end },
  { "found, heuristic = 'zero'", { 18, 1, 2, 9.5, { heuristic = "zero" } },
    function(e) return { ok = true, ref = e.ref(18, 1, 2, 9.5) } end },
  { "found, a cost callback", { 2, 8, 18, 8, { cost = same_cost } },
    function(e) return { ok = true, ref = e.ref(2, 8, 18, 8) } end },
  { "found, radius (longer than the reference)", { 2, 8, 18, 8, { radius = 0.5 } },
    function() return { ok = true } end },
  { "blocked start", { 10, 5, 18, 8 }, function()
    return { ok = false, code = "blocked", msg = "start (10, 5) is not on the navmesh", expanded = 0 } end },
  { "blocked goal", { 2, 8, 25, 5 }, function()
    return { ok = false, code = "blocked", msg = "goal (25, 5) is not on the navmesh", expanded = 0 } end },
  { "no path", edit = "split", { 0.5, 0.5, 8.5, 4.5 }, function()
    return { ok = false, code = "no_path", msg = "no path from (0.5, 0.5) to (8.5, 4.5)" } end },
  { "partial when there is no path", edit = "split", { 0.5, 0.5, 8.5, 4.5, { partial = true } },
    function() return { ok = true, code = "partial", msg = "no path: partial path toward the goal" } end },
  { "limit (max_expansions)", { 2, 8, 18, 8, { max_expansions = 1 } }, function()
    return { ok = false, code = "limit", msg = "search limit reached before (18, 8) was found",
      expanded = 1 } end },
  { "partial after a limit", { 2, 8, 18, 8, { max_expansions = 1, partial = true } }, function()
    return { ok = true, code = "partial", expanded = 1 } end },
})

describe("on navmeshes", function()
  it("partial paths end nearer the goal, in find and query alike", function()
    local g = astar.grid(13, 5)                      -- a comb, and the goal's column walled off
    for x = 2, 12, 2 do g:fill(x, x % 4 == 0 and 1 or 2, 1, 4, false) end
    g:fill(12, 1, 1, 5, false)
    local m = astar.navmesh.from_grid(g)
    local find, query = methods(m)
    for _, o in ipairs({ {}, { cost = same_cost }, { radius = 0.2 }, { max_expansions = 2 },
      { max_expansions = 0 } }) do
      local r = agree(find, query, 0.5, 0.5, 12.5, 4.5, o)
      assert.is_false(r.ok)
      o.partial = true
      r = agree(find, query, 0.5, 0.5, 12.5, 4.5, o)
      assert.are.same({ true, "partial" }, { r.ok, r.code })
      assert.are.same({ 0.5, 0.5 }, r.first)
      local d0 = math.sqrt(12 ^ 2 + 4 ^ 2)
      local d1 = math.sqrt((12.5 - r.last[1]) ^ 2 + (4.5 - r.last[2]) ^ 2)
      assert.is_true(d1 < d0 or o.max_expansions == 0)
    end
  end)

  it("a query restarts after set_cost and ends stale with on_change = 'stale'", function()
    local g = astar.grid(13, 5)                      -- a comb: walls from alternate sides
    for x = 2, 12, 2 do g:fill(x, x % 4 == 0 and 1 or 2, 1, 4, false) end
    local m = astar.navmesh.from_grid(g)
    local q = m:query(0.5, 0.5, 12.5, 4.5, { on_change = "stale" })
    assert.are.equal("running", (q:step(1)))
    m:set_cost(1, 2)
    assert.are.equal("stale", (q:step(10)))
    q = m:query(0.5, 0.5, 12.5, 4.5)
    assert.are.equal("running", (q:step(1)))
    m:set_cost(1, 1)
    assert.are.equal("found", (stepped(q, 1000)))
    assert.are.equal(1, q:stats().restarts)
    assert.is_true(H.close(q:result():cost(), m:find(0.5, 0.5, 12.5, 4.5):cost()))
  end)
end)

-- Implicit graphs -------------------------------------------------------------------------------

-- Nodes 1 .. 20 on a line (steps cost 1 each way) with a one-way jump 3 -> 12 costing 4.
local function line(n, emit)
  if n < 20 then emit(n + 1, 1) end
  if n > 1 then emit(n - 1, 1) end
  if n == 3 then emit(12, 4) end
end
local function h_to(goal) return function(n) return math.abs(goal - n) / 2 end end

local function implicit_setup()
  local function ref(s, t) return must((H.dijkstra_generic({ { s } }, line))[t], "on the line") end
  return astar.search, astar.query, { ref = ref }
end

local function search(t)
  t.start = t.start or 1
  t.neighbors = line
  return { t }
end

cases("on implicit graphs", implicit_setup, {
  { "found", search { goal = 15 }, function(e) return { ok = true, ref = e.ref(1, 15) } end },
  { "found, a heuristic", search { goal = 15, heuristic = h_to(15) },
    function(e) return { ok = true, ref = e.ref(1, 15) } end },
  { "found, goals", search { start = 18, goals = { 2, 9 } },
    function(e) return { ok = true, ref = math.min(e.ref(18, 2), e.ref(18, 9)) } end },
  { "found, is_goal", search { is_goal = function(n) return n == 13 end },
    function(e) return { ok = true, ref = e.ref(1, 13) } end },
  { "no path", search { goal = 30 }, function()
    return { ok = false, code = "no_path", msg = "no path from the start to the goal", expanded = 20 } end },
  { "no path to any goal", search { goals = { 30, 40 } }, function()
    return { ok = false, code = "no_path", msg = "no path to any goal", expanded = 20 } end },
  { "limit (max_expansions)", search { goal = 15, max_expansions = 3 }, function()
    return { ok = false, code = "limit", msg = "search limit reached before the goal was found",
      expanded = 3 } end },
  { "partial after a limit", search { goal = 15, heuristic = h_to(15), max_expansions = 3,
    partial = true }, function() return { ok = true, code = "partial", expanded = 3 } end },
  { "partial when there is no path", search { goal = 30, heuristic = h_to(30), partial = true },
    function() return { ok = true, code = "partial", expanded = 20 } end },
})
