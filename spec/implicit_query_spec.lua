-- astar.query: astar.search time-sliced. Stepped with random budgets to its end, a query gives
-- what astar.search gives (the same nodes, cost and statistics), and both agree with a plain
-- Dijkstra written here over random adjacency lists, with number, string and keyed table nodes.
-- Then the options, budgets, callback errors, cancel, garbage collection and bad arguments.

local astar = require "astar"
local H = require "spec.helper"

local sqrt = math.sqrt
local unpack = H.unpack

-- Fails with the count and the first few problems, if there are any.
local function verdict(fails, total)
  assert(#fails == 0, ("%d of %d checks failed:\n%s"):format(#fails, total,
    table.concat(fails, "\n", 1, math.min(#fails, 6))))
end

-- A random directed graph on ids 1..n with up to 3 out-edges a node; the cost of an edge is its
-- Euclidean length plus 1..20, so the Euclidean heuristic G.len is admissible.
local function random_graph(rng, n)
  local x, y, adj = {}, {}, {}
  for i = 1, n do x[i], y[i], adj[i] = rng.int(0, 60), rng.int(0, 60), {} end
  local G = { n = n, adj = adj }
  function G.len(a, b) return sqrt((x[a] - x[b]) ^ 2 + (y[a] - y[b]) ^ 2) end
  for a = 1, n do
    for _ = 1, rng.int(0, 3) do
      local b = rng.int(1, n)
      if b ~= a then adj[a][#adj[a] + 1] = { b, G.len(a, b) + rng.int(1, 20) } end
    end
  end
  return G
end

-- The cost of the cheapest path from s to every node (plain O(n^2) Dijkstra).
local function dijkstra(G, s)
  local dist, done = {}, {}
  for i = 1, G.n do dist[i] = math.huge end
  dist[s] = 0
  for _ = 1, G.n do
    local u, best = nil, math.huge
    for i = 1, G.n do
      if not done[i] and dist[i] < best then u, best = i, dist[i] end
    end
    if u == nil then break end
    done[u] = true
    for _, e in ipairs(G.adj[u]) do
      if best + e[2] < dist[e[1]] then dist[e[1]] = best + e[2] end
    end
  end
  return dist
end

-- Node representations: val(i) is the node value of id i, id(v) maps it back, key the option.
local REPS = {
  { name = "numbers", val = function(i) return i end, id = function(v) return v end },
  { name = "strings", val = function(i) return "n" .. i end,
    id = function(v) return tonumber(v:sub(2)) end },
  { name = "keyed tables", val = function(i) return { id = i } end, id = function(v) return v.id end,
    key = function(v) return v.id end },
}

-- Steps q with random budgets lo..hi to its end. Returns the final status, the sum of the
-- expansions the steps reported, and a problem (or nil).
local function step_to_end(q, rng, lo, hi)
  local total, steps = 0, 0
  while true do
    local n = rng.int(lo, hi)
    local status, spent = q:step(n)
    steps = steps + 1
    if type(spent) ~= "number" or spent < 0 or spent > n then
      return status, total, ("step(%d) reported %s expansions"):format(n, tostring(spent))
    end
    total = total + spent
    if status ~= "running" then return status, total end
    if steps > 100000 then return status, total, "the query did not finish" end
  end
end

local function ids_of(path, rep)
  local t = {}
  for i, v in ipairs(path:table()) do t[i] = rep.id(v) end
  return table.concat(t, " ")
end

-- Runs search and query with the same options; returns a problem or nil, and the search's results.
local function compare(opts, rep, rng)
  local want = H.pack(astar.search(opts))
  local q = astar.query(opts)
  local status, total, problem = step_to_end(q, rng, 1, 20)
  if problem then return problem end
  local got = H.pack(q:result())
  local expect_status = (want[1] ~= nil and want[3] == nil) and "found"
    or (want[1] == nil and "none" or "partial")
  if status ~= expect_status then
    return ("status %s, expected %s (search: %s, %s)"):format(status, expect_status,
      tostring(want[2]), tostring(want[3])), want
  end
  if got.n ~= want.n then return ("result has %d values, search %d"):format(got.n, want.n), want end
  for i = 2, want.n do
    if got[i] ~= want[i] then
      return ("result[%d] = %s, search gave %s"):format(i, tostring(got[i]), tostring(want[i])), want
    end
  end
  local st = q:stats()
  if st.expanded ~= total then
    return ("stats().expanded = %d, the steps reported %d"):format(st.expanded, total), want
  end
  if st.restarts ~= 0 then return ("%d restarts"):format(st.restarts), want end
  if want[1] ~= nil then
    local a, b = ids_of(want[1], rep), ids_of(got[1], rep)
    if a ~= b then return ("nodes %s, search gave %s"):format(b, a), want end
    if got[1]:cost() ~= want[1]:cost() then
      return ("cost %.17g, search gave %.17g"):format(got[1]:cost(), want[1]:cost()), want
    end
    local ws, gs = want[1]:stats(), got[1]:stats()
    for _, k in ipairs({ "expanded", "generated", "goal", "algorithm" }) do
      if ws[k] ~= gs[k] then
        return ("path stats().%s = %s, search gave %s"):format(k, tostring(gs[k]), tostring(ws[k])), want
      end
    end
    if gs.expanded ~= total then
      return ("path stats().expanded = %d, the steps reported %d"):format(gs.expanded, total), want
    end
  end
  return nil, want
end

local function graph_opts(G, rep, s)
  return {
    start = rep.val(s), key = rep.key,
    neighbors = function(v, emit)
      for _, e in ipairs(G.adj[rep.id(v)]) do emit(rep.val(e[1]), e[2]) end
    end,
  }
end

describe("astar.query stepped to its end", function()
  it("gives what astar.search gives, and the cost of a plain Dijkstra, on random graphs", function()
    local rng = H.rng(424242)
    local fails, total = {}, 0
    for round = 1, 60 do
      local G = random_graph(rng, rng.int(2, 40))
      for _, rep in ipairs(REPS) do
        local s = rng.int(1, G.n)
        local dist = dijkstra(G, s)
        for _, mode in ipairs({ "goal", "goals", "is_goal" }) do
          for _, alg in ipairs({ "astar", "dijkstra" }) do
            total = total + 1
            local o = graph_opts(G, rep, s)
            o.algorithm = alg
            local best
            if mode == "goal" then
              local t = rng.int(1, G.n)
              o.goal, best = rep.val(t), dist[t]
            elseif mode == "goals" then
              o.goals, best = {}, math.huge
              for i = 1, rng.int(1, 4) do
                local t = rng.int(1, G.n)
                o.goals[i] = rep.val(t)
                best = math.min(best, dist[t])
              end
            else
              local t = rng.int(1, G.n)
              o.is_goal = function(v) return rep.id(v) == t end
              best = dist[t]
            end
            if alg == "astar" and mode ~= "is_goal" then
              o.heuristic = function(v, goal) return G.len(rep.id(v), rep.id(goal)) end
            end
            local problem, want = compare(o, rep, rng)
            if not problem and want then
              local path = want[1]
              if best == math.huge and path ~= nil then
                problem = "a path where Dijkstra finds none"
              elseif best < math.huge and (path == nil or not H.close(path:cost(), best)) then
                problem = ("cost %s, Dijkstra %.17g"):format(path and path:cost() or "nil", best)
              end
            end
            if problem then
              fails[#fails + 1] = ("round %d, %s, %s, %s: %s"):format(round, rep.name, mode, alg, problem)
            end
          end
        end
      end
    end
    verdict(fails, total)
  end)

  it("with within, partial, max_expansions, max_cost and weight, as astar.search", function()
    local rng = H.rng(777)
    local fails, total = {}, 0
    for round = 1, 80 do
      local G = random_graph(rng, rng.int(2, 40))
      local rep = REPS[rng.int(1, #REPS)]
      local o = graph_opts(G, rep, rng.int(1, G.n))
      o.heuristic = function(v, goal) return G.len(rep.id(v), rep.id(goal)) end
      if rng.int(0, 1) == 0 then
        o.goal = rep.val(rng.int(1, G.n))
      else
        o.goals = { rep.val(rng.int(1, G.n)), rep.val(rng.int(1, G.n)) }
      end
      if rng.int(0, 2) == 0 then o.within = rng.int(0, 30) end
      if rng.int(0, 1) == 0 then o.partial = true end
      if rng.int(0, 1) == 0 then o.max_expansions = rng.int(0, 15) end
      if rng.int(0, 3) == 0 then o.max_cost = rng.int(0, 150) end
      if rng.int(0, 3) == 0 then o.weight = 1 + rng.float() end
      o.algorithm = rng.pick({ "astar", "dijkstra", "bfs", "greedy" })
      total = total + 1
      local problem = compare(o, rep, rng)
      if problem then fails[#fails + 1] = ("round %d (%s): %s"):format(round, rep.name, problem) end
    end
    verdict(fails, total)
  end)

  it("reports found, partial and none as find's outcomes, and keeps them", function()
    local line = function(n, emit) if n < 10 then emit(n + 1, 1) end end
    local q = astar.query { start = 1, goal = 10, neighbors = line }
    assert.are.equal("running", (q:step(0)))
    local res = H.pack(q:result())
    assert.are.same({ n = 3, nil, "query still running", "running" }, res)
    assert.are.same({ "found", 9 }, { q:step(100) })
    assert.are.same({ "found", 0 }, { q:step(100) })
    assert.are.same({ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 }, q:result():table())
    q = astar.query { start = 1, goal = 20, neighbors = line, partial = true }
    assert.are.equal("partial", (q:step(100)))
    local path, msg, code = q:result()
    assert.are.same({ "no path: partial path toward the goal", "partial" }, { msg, code })
    local spath = astar.search { start = 1, goal = 20, neighbors = line, partial = true }
    assert.are.same(spath:table(), path:table())
    q = astar.query { start = 1, goal = 20, neighbors = line, max_expansions = 4 }
    assert.are.same({ "none", 4 }, { q:step(100) })
    assert.are.same({ nil, "search limit reached before the goal was found", "limit" }, { q:result() })
    q = astar.query { start = 1, goals = { 30, 40 }, neighbors = line }
    assert.are.equal("none", (q:step(100)))
    assert.are.same({ nil, "no path to any goal", "no_path" }, { q:result() })
    q = astar.query { start = 5, goal = 5, neighbors = line }
    assert.are.same({ "found", 0 }, { q:step(0) })
    assert.are.same({ 5 }, q:result():table())
    assert.are.same({ status = "found", expanded = 0, generated = 1, restarts = 0 }, q:stats())
  end)

  it("copies the goals when made: later changes to the list do not count", function()
    local goals = { 7 }
    local q = astar.query { start = 1, goals = goals, neighbors = function(n, emit) emit(n + 1, 1) end }
    goals[1] = 3
    assert.are.equal("found", (q:step(100)))
    assert.are.equal(7, #q:result())
  end)
end)

describe("astar.query callbacks", function()
  local function line(n, emit) if n < 50 then emit(n + 1, 1) end end

  it("a callback error propagates unchanged; the next step restarts and finishes", function()
    for _, which in ipairs({ "neighbors", "heuristic", "is_goal", "key" }) do
      local calls, boom = 0, { "boom" }
      local function maybe() calls = calls + 1; if calls == 7 then error(boom) end end
      local o = { start = 1, goal = 30, neighbors = line }
      if which == "neighbors" then
        o.neighbors = function(n, emit) maybe(); line(n, emit) end
      elseif which == "heuristic" then
        o.heuristic = function(n, g) maybe(); return math.abs(g - n) end
      elseif which == "is_goal" then
        o.is_goal = function(n) maybe(); return n == 30 end
      else
        o.key = function(n) maybe(); return n end
      end
      local q = astar.query(o)
      local ok, err
      for _ = 1, 100 do
        ok, err = pcall(q.step, q, 2)
        if not ok then break end
      end
      assert.is_false(ok, which)
      assert.are.equal(boom, err, which)
      assert.are.equal("running", q:stats().status)
      assert.are.equal("found", (q:step(1000)), which)
      assert.are.equal(1, q:stats().restarts, which)
      assert.are.equal(30, #q:result(), which)
      assert.are.equal(29, q:result():cost(), which)
    end
  end)

  it("emit works only during its neighbors call of the running step", function()
    local saved, old, fail, msgs = nil, nil, true, {}
    local q = astar.query { start = 1, goal = 5, neighbors = function(n, emit)
      if old then msgs[#msgs + 1] = select(2, pcall(old, 9, 1)) end
      saved = emit
      if n == 3 and fail then error("stop") end
      emit(n + 1, 1)
    end }
    assert.are.same({ "running", 1 }, { q:step(1) })
    H.checkerr("emit called outside of neighbors", saved, 9, 1)
    assert.is_false(pcall(q.step, q, 10))
    H.checkerr("emit called outside of neighbors", saved, 9, 1)   -- after the error
    -- the restarted run refuses an emit of the run before, even during its own neighbors calls
    old, fail = saved, false
    assert.are.equal("found", (q:step(10)))
    assert.are.same({ 5, 4 }, { #q:result(), q:result():cost() })
    assert.are.same({ "emit called outside of neighbors", "emit called outside of neighbors",
      "emit called outside of neighbors", "emit called outside of neighbors" }, msgs)
    H.checkerr("emit called outside of neighbors", saved, 9, 1)   -- after the end
    -- and after a cancel that follows an error
    local q2 = astar.query { start = 1, goal = 5, neighbors = function(n, emit)
      saved = emit
      if n == 2 then error("stop") end
      emit(n + 1, 1)
    end }
    assert.is_false(pcall(q2.step, q2, 10))
    q2:cancel()
    H.checkerr("emit called outside of neighbors", saved, 9, 1)
  end)

  it("a callback may search, step other queries and read its own, but not step or cancel it", function()
    local other = astar.query { start = 1, goal = 40, neighbors = line }
    local q
    local seen = {}
    q = astar.query { start = 1, goal = 20, neighbors = function(n, emit)
      if n == 2 then
        seen.search = #astar.search { start = 1, goal = 10, neighbors = line }
        seen.other = other:step(5)
        seen.result = select(3, q:result())
        seen.step = select(2, pcall(q.step, q, 1))
        seen.cancel = select(2, pcall(q.cancel, q))
        local inner = astar.query { start = 1, goal = 4, neighbors = line }
        seen.inner = inner:step(10)
      end
      line(n, emit)
    end }
    assert.are.equal("found", (q:step(100)))
    assert.are.same({
      search = 10, other = "running", result = "running", inner = "found",
      step = "cannot step: a search on this implicit graph is already running",
      cancel = "cannot cancel the query: it is being stepped",
    }, seen)
    assert.are.equal(20, #q:result())
    assert.are.equal("found", (other:step(100)))
    assert.are.equal(40, #other:result())
  end)
end)

describe("astar.query cancel and garbage collection", function()
  local function grid_nb(n, emit)          -- a 30x30 grid of numbered cells
    local x, y = (n - 1) % 30, math.floor((n - 1) / 30)
    if x > 0 then emit(n - 1, 1) end
    if x < 29 then emit(n + 1, 1) end
    if y > 0 then emit(n - 30, 1) end
    if y < 29 then emit(n + 30, 1) end
  end

  it("cancel stops the query, and is idempotent; a finished query stays finished", function()
    local q = astar.query { start = 1, goal = 900, neighbors = grid_nb }
    assert.are.equal("running", (q:step(10)))
    q:cancel()
    q:cancel()
    assert.are.same({ "cancelled", 0 }, { q:step(10) })
    assert.are.same({ nil, "query cancelled", "cancelled" }, { q:result() })
    assert.are.equal("cancelled", q:stats().status)
    local done = astar.query { start = 1, goal = 2, neighbors = grid_nb }
    assert.are.equal("found", (done:step(10)))
    done:cancel()
    assert.are.equal("found", (done:step(10)))
    assert.are.equal(2, #done:result())
    assert.matches("^astar%.Query %(implicit graph, found%)$", tostring(done))
  end)

  it("half-finished, errored and cancelled queries can be collected", function()
    local live = {}
    for i = 1, 40 do   -- kept alive until the collection below
      local o = { start = 1, goal = 900, neighbors = grid_nb,
                  heuristic = function(n) local x, y = (n - 1) % 30, math.floor((n - 1) / 30)
                    return (29 - x) + (29 - y) end }
      if i % 3 == 0 then o.goals, o.goal, o.within = { 900, 870 }, nil, 2 end
      if i % 4 == 0 then o.key = function(n) return "k" .. n end end
      local q = astar.query(o)
      q:step(i * 5)
      if i % 5 == 0 then q:cancel() end
      live[i] = q
    end
    assert.are.equal(40, #live)
    local bad = astar.query { start = 1, goal = 900, neighbors = function(n, emit)
      if n > 40 then error("late") end
      grid_nb(n, emit)
    end }
    assert.is_false(pcall(function() for _ = 1, 100 do bad:step(10) end end))
    live = nil   -- luacheck: ignore
    bad = nil    -- luacheck: ignore
    collectgarbage()
    collectgarbage()
    -- a query made and dropped without a step, and one dropped mid-step from its own callback
    astar.query { start = 1, goal = 2, neighbors = grid_nb }
    local q = astar.query { start = 1, goal = 900, neighbors = function(n, emit)
      collectgarbage()
      grid_nb(n, emit)
    end }
    assert.are.equal("running", (q:step(20)))
    q = nil      -- luacheck: ignore
    collectgarbage()
    collectgarbage()
  end)
end)

describe("astar.query bad arguments", function()
  local nb = function() end

  it("the same messages as astar.search, named 'query'", function()
    local cases = {
      { "bad argument #1 to 'query' (table expected, got no value)" },
      { "bad argument #1 to 'query' (table expected, got number)", 5 },
      { "bad argument #1 to 'query' (unknown option 'on_change')",
        { start = 1, goal = 2, neighbors = nb, on_change = "stale" } },
      { "bad argument #1 to 'query' (option 'start' is required)", { goal = 2, neighbors = nb } },
      { "bad argument #1 to 'query' (option 'neighbors' is required)", { start = 1, goal = 2 } },
      { "bad argument #1 to 'query' (one of the options 'goal', 'goals' and 'is_goal' is required)",
        { start = 1, neighbors = nb } },
      { "bad argument #1 to 'query' (option 'neighbors': function expected, got number)",
        { start = 1, goal = 2, neighbors = 3 } },
      { "bad argument #1 to 'query' (option 'start' is nan, which cannot be a key)",
        { start = 0 / 0, goal = 2, neighbors = nb } },
      { "bad argument #1 to 'query' (option 'goals': empty list)",
        { start = 1, goals = {}, neighbors = nb } },
      { "bad argument #1 to 'query' (options 'goal' and 'goals' cannot be combined)",
        { start = 1, goal = 2, goals = { 3 }, neighbors = nb } },
      { "bad argument #1 to 'query' (option 'within' needs a 'heuristic')",
        { start = 1, goal = 2, within = 1, neighbors = nb } },
      { "bad argument #1 to 'query' (option 'weight': must be a finite number >= 1, got 0.5)",
        { start = 1, goal = 2, weight = 0.5, neighbors = nb } },
      { "bad argument #1 to 'query' (option 'max_expansions': number expected, got string)",
        { start = 1, goal = 2, max_expansions = "5", neighbors = nb } },
      { "bad argument #1 to 'query' (option 'algorithm': invalid value 'bidirectional')",
        { start = 1, goal = 2, algorithm = "bidirectional", neighbors = nb } },
      { "bad argument #1 to 'query' (option 'partial': boolean expected, got number)",
        { start = 1, goal = 2, partial = 1, neighbors = nb } },
    }
    for _, c in ipairs(cases) do H.checkerr(c[1], astar.query, unpack(c, 2, #c)) end
  end)

  it("step, result, cancel and stats check their arguments", function()
    local q = astar.query { start = 1, goal = 3, neighbors = nb }
    H.checkerr("bad argument #1 to 'step' (n out of range: -1 not in [0, 2147483647])", q.step, q, -1)
    H.checkerr("bad argument #1 to 'step' (integer expected, got 1.5)", q.step, q, 1.5)
    H.checkerr("bad argument #1 to 'step' (number expected, got no value)", q.step, q)
    H.checkerr("calling 'step' on bad self (astar.Query expected, got table)", q.step, {}, 1)
    H.checkerr("calling 'result' on bad self (astar.Query expected, got nil)", q.result, nil)
    H.checkerr("calling 'cancel' on bad self (astar.Query expected, got number)", q.cancel, 1)
    H.checkerr("calling 'stats' on bad self (astar.Query expected, got string)", q.stats, "x")
    -- errors raised while a step runs: key and emit misuse, as astar.search
    q = astar.query { start = 1, goal = 3, key = function() return true end, neighbors = nb }
    H.checkerr("key callback returned boolean (expected a number or a string)", q.step, q, 1)
    q = astar.query { start = 1, goal = 3, neighbors = function(_, emit) emit(2, -1) end }
    H.checkerr("bad argument #2 to 'emit' (cost must be a positive finite number, got -1)",
      q.step, q, 1)
    q = astar.query { start = 1, goal = 3, heuristic = function() return -1 end, neighbors = nb }
    H.checkerr("heuristic callback returned -1 (expected a non-negative finite number)", q.step, q, 1)
  end)
end)
