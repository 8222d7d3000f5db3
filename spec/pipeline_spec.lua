-- One pipeline for every map kind: on grids, graphs, navmeshes and implicit graphs, a
-- time-sliced query stepped with any budget ends exactly as find does (outcome, message, code,
-- cost, points, expansions), including the component shortcut; found costs equal an
-- independent reference (spec/helper.lua's Dijkstras and visibility-graph oracle).
local H = require "spec.helper"
local astar = require "astar"

local BUDGETS = { 1, 7, 1000 }

-- find's results and a query's, stepped with 'budget', as comparable summaries.
local function outcome(p, msg, code)
  if p == nil then return { ok = false, msg = msg, code = code } end
  local s = p:stats()
  return { ok = true, msg = msg, code = code, n = #p, cost = p:cost(), expanded = s.expanded,
    first = { p:get(1) }, last = { p:get(-1) } }
end

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

-- Runs map:find(...) and map:query(...) with each budget; asserts they agree; returns find's.
local function agree(map, ...)
  local want = outcome(map:find(...))
  for _, budget in ipairs(BUDGETS) do
    local q = map:query(...)
    local st, spent = stepped(q, budget)
    local got = outcome(q:result())
    assert.are.same(want, got)
    local expect = want.ok and (want.code == "partial" and "partial" or "found") or "none"
    assert.are.equal(expect, st)
    assert.are.equal(spent, q:stats().expanded)
    if want.ok then assert.are.equal(want.expanded, spent) end
  end
  return want
end

describe("find and query agree", function()
  local cells, W, Ht

  before_each(function()
    -- two rooms joined by a door at (5, 3); (9, 1) blocked
    cells = H.cells_from_text([[
....#....
....#....
.........
....#....
....#...#]], { ["."] = 1, ["#"] = false })
    W, Ht = 9, 5
  end)

  local function grid()
    local g = astar.grid(W, Ht)
    for y = 1, Ht do
      for x = 1, W do g:set(x, y, cells[y][x] or false) end
    end
    return g
  end

  it("on grids: found, blocked ends, no path, limit, partial, goals", function()
    local g = grid()
    local r = agree(g, 1, 1, 9, 4)
    assert.is_true(H.close(H.dijkstra(cells, W, Ht, 1, 1, 9, 4, "no_corner_cutting"), r.cost))
    r = agree(g, 5, 1, 9, 4)
    assert.are.same({ false, "start (5, 1) is blocked", "blocked" }, { r.ok, r.msg, r.code })
    r = agree(g, 1, 1, 9, 5)
    assert.are.same({ false, "goal (9, 5) is blocked", "blocked" }, { r.ok, r.msg, r.code })
    r = agree(g, 1, 1, 9, 4, { max_expansions = 5 })
    assert.are.same({ false, "search limit reached before (9, 4) was found", "limit" },
      { r.ok, r.msg, r.code })
    r = agree(g, 1, 1, 9, 4, { max_expansions = 5, partial = true })
    assert.are.same({ true, "partial" }, { r.ok, r.code })
    r = agree(g, 1, 1, { goals = { { 9, 4 }, { 6, 1 } } })
    assert.is_true(H.close(H.dijkstra(cells, W, Ht, 1, 1, 6, 1, "no_corner_cutting"), r.cost))
    g:set(5, 3, false)                               -- the door shuts
    r = agree(g, 1, 1, 9, 4)
    assert.are.same({ false, "no path from (1, 1) to (9, 4)", "no_path" }, { r.ok, r.msg, r.code })
    r = agree(g, 1, 1, 9, 4, { partial = true })
    assert.are.same({ true, "no path: partial path toward the goal", "partial" },
      { r.ok, r.msg, r.code })
  end)

  it("on grids: the component shortcut answers no_path before expanding, in find and query", function()
    local g = grid()
    g:set(5, 3, false)
    g:components()
    local r = agree(g, 1, 1, 9, 4)
    assert.are.same({ false, "no_path" }, { r.ok, r.code })
    local q = g:query(1, 1, 9, 4)
    assert.are.same({ "none", 0 }, { q:step(1000) })
    assert.are.equal(0, q:stats().expanded)
    -- within its own room the search runs as usual
    r = agree(g, 1, 1, 4, 5)
    assert.is_true(H.close(H.dijkstra(cells, W, Ht, 1, 1, 4, 5, "no_corner_cutting"), r.cost))
  end)

  -- 1 - 2 - 3 - 4, 5 - 6 apart; positions on a line
  local function graph()
    local g = astar.graph()
    for i = 1, 6 do g:add_node(i, 0) end
    g:add_edge(1, 2); g:add_edge(2, 3); g:add_edge(3, 4); g:add_edge(5, 6); g:add_edge(1, 3, 5)
    return g
  end

  it("on graphs: found, disabled ends, no path, limit, partial, goals, components", function()
    local g = graph()
    local M = H.graph_model(false)
    for i = 1, 6 do M:add_node(i, 0) end
    M:add_edge(1, 2); M:add_edge(2, 3); M:add_edge(3, 4); M:add_edge(5, 6); M:add_edge(1, 3, 5)
    local r = agree(g, 1, 4)
    assert.is_true(H.close(H.graph_dijkstra(M, 1)[4], r.cost))
    r = agree(g, 1, { goals = { 6, 3 } })
    assert.is_true(H.close(H.graph_dijkstra(M, 1)[3], r.cost))
    r = agree(g, 1, 6)
    assert.are.same({ false, "no path from node 1 to node 6", "no_path" }, { r.ok, r.msg, r.code })
    r = agree(g, 1, 4, { max_expansions = 1 })
    assert.are.same({ false, "limit" }, { r.ok, r.code })
    r = agree(g, 1, 6, { partial = true })
    assert.are.same({ true, "partial" }, { r.ok, r.code })
    g:disable_node(4)
    r = agree(g, 1, 4)
    assert.are.same({ false, "goal node 4 is disabled", "blocked" }, { r.ok, r.msg, r.code })
    g:enable_node(4)
    g:components()
    r = agree(g, 1, 6)
    assert.are.same({ false, "no_path" }, { r.ok, r.code })
    local q = g:query(1, 6)
    assert.are.same({ "none", 0 }, { q:step(1000) })
  end)

  it("on navmeshes: found (against the visibility graph), blocked, limit, radius", function()
    local outline = { 0, 0, 20, 0, 20, 10, 0, 10 }
    local holes = { { 8, 2, 12, 2, 12, 9, 8, 9 } }
    local m = astar.navmesh.from_polygons(outline, holes)
    local dom = { outline = outline, holes = holes }
    local r = agree(m, 2, 8, 18, 8)
    assert.is_true(H.close(H.shortest_euclidean(dom, 2, 8, 18, 8), r.cost, 1e-9))
    r = agree(m, 10, 5, 18, 8)
    assert.are.same({ false, "start (10, 5) is not on the navmesh", "blocked" },
      { r.ok, r.msg, r.code })
    r = agree(m, 2, 8, 18, 8, { max_expansions = 1 })
    assert.are.same({ false, "search limit reached before (18, 8) was found", "limit" },
      { r.ok, r.msg, r.code })
    r = agree(m, 2, 8, 18, 8, { radius = 0.5 })
    assert.is_true(r.ok and r.cost > H.shortest_euclidean(dom, 2, 8, 18, 8))
    r = agree(m, 2, 8, 18, 8, { cost = function(_, _, base) return base end })
    assert.is_true(H.close(H.shortest_euclidean(dom, 2, 8, 18, 8), r.cost, 1e-9))
  end)

  it("on navmeshes: partial paths end nearer the goal, in find and query alike", function()
    local g = astar.grid(13, 5)                      -- a comb, and the goal's column walled off
    for x = 2, 12, 2 do g:fill(x, x % 4 == 0 and 1 or 2, 1, 4, false) end
    g:fill(12, 1, 1, 5, false)
    local m = astar.navmesh.from_grid(g)
    for _, o in ipairs({ {}, { cost = function(_, _, base) return base end }, { radius = 0.2 },
      { max_expansions = 2 }, { max_expansions = 0 } }) do
      local r = agree(m, 0.5, 0.5, 12.5, 4.5, o)
      assert.is_false(r.ok)
      o.partial = true
      r = agree(m, 0.5, 0.5, 12.5, 4.5, o)
      assert.are.same({ true, "partial" }, { r.ok, r.code })
      assert.are.same({ 0.5, 0.5 }, r.first)
      local d0 = math.sqrt(12 ^ 2 + 4 ^ 2)
      local d1 = math.sqrt((12.5 - r.last[1]) ^ 2 + (4.5 - r.last[2]) ^ 2)
      assert.is_true(d1 < d0 or o.max_expansions == 0)
    end
  end)

  it("on navmeshes: a query restarts after set_cost and ends stale with on_change = 'stale'", function()
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

  it("on implicit graphs: astar.search and astar.query", function()
    local function line(n, emit)
      if n < 20 then emit(n + 1, 1) end
      if n > 1 then emit(n - 1, 1) end
    end
    local function run(opts)
      local want = outcome(astar.search(opts))
      for _, budget in ipairs(BUDGETS) do
        local q = astar.query(opts)
        local _, spent = stepped(q, budget)
        assert.are.same(want, outcome(q:result()))
        if want.ok then assert.are.equal(want.expanded, spent) end
      end
      return want
    end
    local r = run { start = 1, goal = 15, neighbors = line }
    assert.are.equal(14, r.cost)
    r = run { start = 1, goal = 30, neighbors = line }
    assert.are.same({ false, "no path from the start to the goal", "no_path" }, { r.ok, r.msg, r.code })
    r = run { start = 1, goal = 15, neighbors = line, max_expansions = 3 }
    assert.are.same({ false, "search limit reached before the goal was found", "limit" },
      { r.ok, r.msg, r.code })
    r = run { start = 1, goals = { 30, 40 }, neighbors = line }
    assert.are.same({ false, "no path to any goal", "no_path" }, { r.ok, r.msg, r.code })
  end)
end)
