-- Quick checks of astar.search (implicit graphs): results against a plain Dijkstra written here,
-- outcomes, the Path it returns, exact error messages and callback safety. The main suite for
-- implicit graphs lives elsewhere; this one is meant to stay fast.

local astar = require "astar"
local H = require "spec.helper"

local floor, abs, huge = math.floor, math.abs, math.huge

---------------------------------------------------------------------------------------------------
-- Reference: random directed graphs as adjacency tables adj[u] = {{v, cost}, ...}, u = 1..n.

local COSTS = { 0.5, 1, 1, 1.5, 2, 3, 7.25 }

local function random_graph(rng, n, degree)
  local adj = {}
  for u = 1, n do
    local out = {}
    for _ = 1, rng.int(0, degree) do
      out[#out + 1] = { rng.int(1, n), COSTS[rng.int(1, #COSTS)] }   -- self loops and repeats too
    end
    adj[u] = out
  end
  return adj
end

-- dist[v] from s over adj (fewest edges instead with unit = true).
local function dijkstra(adj, s, unit)
  local dist, done, hp = { [s] = 0 }, {}, H.heap_new()
  H.heap_push(hp, 0, s)
  while hp.n > 0 do
    local d, u = H.heap_pop(hp)
    if not done[u] and d == dist[u] then
      done[u] = true
      for _, e in ipairs(adj[u]) do
        local v, nd = e[1], d + (unit and 1 or e[2])
        if not done[v] and (dist[v] == nil or nd < dist[v]) then
          dist[v] = nd
          H.heap_push(hp, nd, v)
        end
      end
    end
  end
  return dist
end

local function reverse(adj)
  local r = {}
  for u = 1, #adj do r[u] = {} end
  for u = 1, #adj do
    for _, e in ipairs(adj[u]) do r[e[1]][#r[e[1]] + 1] = { u, e[2] } end
  end
  return r
end

-- The cheapest edge u -> v, or nil.
local function edge(adj, u, v)
  local best
  for _, e in ipairs(adj[u]) do
    if e[1] == v and (best == nil or e[2] < best) then best = e[2] end
  end
  return best
end

-- Asserts that ids (a list of node numbers) is a path of adj from s ending in a goal; returns
-- its recomputed cost.
local function check_ids(adj, ids, s, goalset)
  assert.are.equal(s, ids[1], "the path does not start at the start")
  assert.is_truthy(goalset[ids[#ids]], "the path does not end at a goal: " .. tostring(ids[#ids]))
  local cost = 0
  for i = 2, #ids do
    local c = edge(adj, ids[i - 1], ids[i])
    assert.is_not_nil(c, ("step %d: no edge %s -> %s"):format(i - 1, ids[i - 1], ids[i]))
    cost = cost + c
  end
  return cost
end

-- Node representations: how node u is written, and how it is read back.
local KINDS = {
  number = { make = function(u) return u end, id = function(v) return v end },
  string = { make = function(u) return "n" .. u end, id = function(v) return tonumber(v:sub(2)) end },
  -- a fresh table every time: only the key function makes them the same node
  table = {
    make = function(u) return { id = u } end,
    id = function(v) return v.id end,
    key = function(v) return v.id end,
  },
}

local function neighbors_of(adj, kind)
  return function(node, emit)
    for _, e in ipairs(adj[kind.id(node)]) do emit(kind.make(e[1]), e[2]) end
  end
end

local function ids_of(path, kind)
  local ids = {}
  for i, v in path:points() do ids[i] = kind.id(v) end
  return ids
end

---------------------------------------------------------------------------------------------------

describe("astar.search (smoke)", function()
  it("matches a plain Dijkstra on random graphs, for numbers, strings and keyed tables", function()
    local rng = H.rng(7)
    local checked = 0
    for round = 1, 60 do
      local n = rng.int(2, 40)
      local adj = random_graph(rng, n, rng.int(1, 4))
      local s, t = rng.int(1, n), rng.int(1, n)
      local ref = dijkstra(adj, s)
      local hops = dijkstra(adj, s, true)
      local back = dijkstra(reverse(adj), t)      -- exact cost to t: a consistent heuristic
      for kname, kind in pairs(KINDS) do
        for _, opts in ipairs({
          { algorithm = "astar" },
          { algorithm = "dijkstra" },
          { heuristic = function(a, b)
              assert.are.equal(t, kind.id(b))
              return 0.5 * (back[kind.id(a)] or 0)
            end },
          { algorithm = "bfs" },
          { weight = 2, heuristic = function(a) return back[kind.id(a)] or 0 end },
        }) do
          opts.start, opts.goal = kind.make(s), kind.make(t)
          opts.neighbors, opts.key = neighbors_of(adj, kind), kind.key
          local p, msg, code = astar.search(opts)
          local where = ("round %d, %s nodes, %s"):format(round, kname, opts.algorithm or "astar")
          if ref[t] == nil then
            assert.are.equal("no_path", code, where)
            assert.is_nil(p, where)
            assert.are.equal("string", type(msg), where)
          else
            assert.is_not_nil(p, where .. ": " .. tostring(msg))
            local ids = ids_of(p, kind)
            local cost = check_ids(adj, ids, s, { [t] = true })
            assert.is_true(H.close(cost, p:cost()), where .. ": path:cost() is not the sum of its steps")
            if opts.algorithm == "bfs" then
              assert.are.equal(hops[t], #p - 1, where)
            elseif opts.weight then
              assert.is_true(p:cost() <= 2 * ref[t] + 1e-9, where)
            else
              assert.is_true(H.close(ref[t], p:cost()), ("%s: cost %.17g, expected %.17g"):format(
                where, p:cost(), ref[t]))
            end
            if kname == "table" then
              assert.are.equal(opts.start, p:get(1), "the start value is the one given")
            end
            checked = checked + 1
          end
        end
      end
    end
    assert.is_true(checked > 200, "too few reachable pairs: " .. checked)
  end)

  it("goes to the cheapest of several goals and says which", function()
    local rng = H.rng(11)
    for _ = 1, 40 do
      local n = rng.int(2, 30)
      local adj = random_graph(rng, n, 3)
      local s = rng.int(1, n)
      local goals, set = {}, {}
      for i = 1, rng.int(1, 4) do
        goals[i] = rng.int(1, n)
        set[goals[i]] = true
      end
      local ref = dijkstra(adj, s)
      local best
      for _, g in ipairs(goals) do
        if ref[g] and (best == nil or ref[g] < best) then best = ref[g] end
      end
      local kind = KINDS.table
      local tgoals = {}
      for i, g in ipairs(goals) do tgoals[i] = kind.make(g) end
      local p, _, code = astar.search { start = kind.make(s), goals = tgoals, key = kind.key,
        neighbors = neighbors_of(adj, kind) }
      if best == nil then
        assert.are.equal("no_path", code)
      else
        local ids = ids_of(p, kind)
        check_ids(adj, ids, s, set)
        assert.is_true(H.close(best, p:cost()))
        local gi = p:stats().goal
        local first
        for i, g in ipairs(goals) do
          if g == ids[#ids] then first = first or i end
        end
        assert.are.equal(first, gi, "stats().goal is the first goal with that key")
      end
    end
  end)

  it("accepts is_goal, within and the usual options", function()
    local function grid4(n, emit)   -- an open 10x10 grid, nodes y*1000+x
      local x, y = n % 1000, floor(n / 1000)
      if x > 1 then emit(n - 1, 1) end
      if x < 10 then emit(n + 1, 1) end
      if y > 1 then emit(n - 1000, 1) end
      if y < 10 then emit(n + 1000, 1) end
    end
    local function manhattan(a, b)
      return abs(a % 1000 - b % 1000) + abs(floor(a / 1000) - floor(b / 1000))
    end
    local p = assert(astar.search { start = 1001, goal = 10010, neighbors = grid4, heuristic = manhattan })
    assert.are.equal(19, #p)
    assert.are.equal(18, p:cost())
    assert.are.equal(1001, p:get(1))
    assert.are.equal(10010, p:get(-1))
    assert.are.equal(18, p:stats().expanded)                 -- ties toward larger g: straight in
    assert.are.equal("astar", p:stats().algorithm)
    local list = p:table()
    assert.are.equal(19, #list)
    assert.are.equal(10010, list[19])

    p = assert(astar.search { start = 1001, is_goal = function(n) return n == 3003 end, neighbors = grid4 })
    assert.are.equal(4, p:cost())

    -- heuristic gets nil as the goal with is_goal alone
    p = assert(astar.search { start = 1001, is_goal = function(n) return n == 1003 end, neighbors = grid4,
      heuristic = function(_, g) assert.is_nil(g) return 0 end })
    assert.are.equal(2, p:cost())

    p = assert(astar.search { start = 1001, goal = 1010, within = 3, neighbors = grid4, heuristic = manhattan })
    assert.are.equal(1007, p:get(-1))
    assert.are.equal(6, p:cost())

    p = assert(astar.search { start = 1001, goals = { 9009, 1010, 1005 }, within = 1, neighbors = grid4,
      heuristic = manhattan })
    assert.are.equal(1004, p:get(-1))
    assert.are.equal(3, p:stats().goal)
    -- Dijkstra does not compute the heuristic for its order; 'within' still asks for it
    p = assert(astar.search { start = 1001, goals = { 9009, 1010, 1005 }, within = 1, neighbors = grid4,
      heuristic = manhattan, algorithm = "dijkstra" })
    assert.are.equal(1004, p:get(-1))
    assert.are.equal(3, p:cost())
    assert.are.equal(3, p:stats().goal)

    local q, msg, code = astar.search { start = 1001, goal = 10010, neighbors = grid4, max_expansions = 3 }
    assert.is_nil(q)
    assert.are.equal("limit", code)
    assert.are.equal("search limit reached before the goal was found", msg)
    q, msg, code = astar.search { start = 1001, goal = 10010, neighbors = grid4, max_cost = 17 }
    assert.are.same({ nil, "search limit reached before the goal was found", "limit" }, { q, msg, code })
    q, msg, code = astar.search { start = 1001, goal = 10010, neighbors = grid4, heuristic = manhattan,
      max_expansions = 5, partial = true }
    assert.are.equal("partial", code)
    assert.are.equal("search limit reached: partial path toward the goal", msg)
    assert.are.equal(1001, q:get(1))
    assert.are.equal(14, manhattan(q:get(-1), 10010))   -- 5 expansions straight in
    q, msg, code = astar.search { start = 1001, goal = 77, neighbors = grid4 }
    assert.are.same({ nil, "no path from the start to the goal", "no_path" }, { q, msg, code })
    q, msg, code = astar.search { start = 1001, goals = { 77, 78 }, neighbors = grid4 }
    assert.are.same({ nil, "no path to any goal", "no_path" }, { q, msg, code })

    -- start == goal: one point, no neighbors call
    p = assert(astar.search { start = "a", goal = "a", neighbors = function() error("called") end })
    assert.are.equal(1, #p)
    assert.are.equal(0, p:cost())
  end)

  it("returns Paths of Lua values", function()
    local A, B, C = { name = "A" }, { name = "B" }, { name = "C" }
    local graph = { [A] = { B }, [B] = { C }, [C] = {} }
    local p = assert(astar.search { start = A, goal = C,
      neighbors = function(n, emit) for _, m in ipairs(graph[n]) do emit(m, 2.5) end end })
    assert.are.equal(3, #p)
    assert.are.equal(5, p:cost())
    local seen = {}
    for i, v in p:points() do seen[i] = v end
    assert.are.same({ A, B, C }, seen)
    assert.are.equal(A, seen[1])
    assert.are.equal(B, p:get(2))
    assert.are.equal(C, p:get(-1))
    assert.are.equal(A, p:table()[1])
    assert.are.equal("bad argument #1 to 'get' (index out of range: 4 not in [1, 3] or [-3, -1])",
      select(2, pcall(p.get, p, 4)))
    assert.is_false(pcall(p.flat, p))
    collectgarbage()
    assert.are.equal(B, p:get(2), "the path keeps its values alive")
    -- booleans and functions are nodes too
    p = assert(astar.search { start = false, goal = print,
      neighbors = function(n, emit) if n == false then emit(true, 1) else emit(print, 1) end end })
    assert.are.same({ false, true, print }, p:table())
  end)

  it("raises the documented errors", function()
    local nb = function(n, emit) emit(n + 1, 1) end
    local function E(msg, opts) H.checkerr(msg, astar.search, opts) end
    E("bad argument #1 to 'search' (table expected, got nil)", nil)
    E("bad argument #1 to 'search' (unknown option 'wieght')", { start = 1, goal = 2, neighbors = nb, wieght = 2 })
    E("bad argument #1 to 'search' (option 'start' is required)", { goal = 2, neighbors = nb })
    E("bad argument #1 to 'search' (option 'neighbors' is required)", { start = 1, goal = 2 })
    E("bad argument #1 to 'search' (one of the options 'goal', 'goals' and 'is_goal' is required)",
      { start = 1, neighbors = nb })
    E("bad argument #1 to 'search' (option 'neighbors': function expected, got number)",
      { start = 1, goal = 2, neighbors = 3 })
    E("bad argument #1 to 'search' (option 'heuristic': function expected, got string)",
      { start = 1, goal = 2, neighbors = nb, heuristic = "manhattan" })
    E("bad argument #1 to 'search' (options 'goal' and 'goals' cannot be combined)",
      { start = 1, goal = 2, goals = { 3 }, neighbors = nb })
    E("bad argument #1 to 'search' (option 'within' needs a 'heuristic')",
      { start = 1, goal = 2, within = 1, neighbors = nb })
    E("bad argument #1 to 'search' (option 'start' is nan, which cannot be a key)",
      { start = 0 / 0, goal = 2, neighbors = nb })
    E("bad argument #1 to 'search' (option 'goals': goal 2 is nan, which cannot be a key)",
      { start = 1, goals = { 2, 0 / 0 }, neighbors = nb })
    E("bad argument #1 to 'search' (option 'goals': empty list)", { start = 1, goals = {}, neighbors = nb })
    E("bad argument #1 to 'search' (option 'algorithm': invalid value 'jps')",
      { start = 1, goal = 2, neighbors = nb, algorithm = "jps" })
    E("bad argument #1 to 'search' (option 'weight': must be a finite number >= 1, got 0.5)",
      { start = 1, goal = 2, neighbors = nb, weight = 0.5 })
    E("bad argument #2 to 'emit' (cost must be a positive finite number, got -1)",
      { start = 1, goal = 2, neighbors = function(n, emit) emit(n + 1, -1) end })
    E("bad argument #2 to 'emit' (cost must be a positive finite number, got no value)",
      { start = 1, goal = 2, neighbors = function(n, emit) emit(n + 1) end })
    E("bad argument #2 to 'emit' (cost must be a positive finite number, got inf)",
      { start = 1, goal = 2, neighbors = function(n, emit) emit(n + 1, huge) end })
    E("bad argument #1 to 'emit' (node expected, got nil)",
      { start = 1, goal = 2, neighbors = function(_, emit) emit(nil, 1) end })
    E("bad argument #1 to 'emit' (node is nan, which cannot be a key)",
      { start = 1, goal = 2, neighbors = function(_, emit) emit(0 / 0, 1) end })
    E("heuristic callback returned -1 (expected a non-negative finite number)",
      { start = 1, goal = 2, neighbors = nb, heuristic = function() return -1 end })
    E("heuristic callback returned nil (expected a non-negative finite number)",
      { start = 1, goal = 2, neighbors = nb, heuristic = function() end })
    E("key callback returned table (expected a number or a string)",
      { start = 1, goal = 2, neighbors = nb, key = function() return {} end })
    E("key callback returned nan (expected a number or a string)",
      { start = 1, goal = 2, neighbors = nb, key = function() return 0 / 0 end })
    local saved
    assert(astar.search { start = 1, goal = 2, neighbors = function(n, emit) saved = emit emit(n + 1, 1) end })
    H.checkerr("emit called outside of neighbors", saved, 5, 1)
    -- saved by a neighbors call that raised, then called later, also from another search
    assert.is_false(pcall(astar.search, { start = 1, goal = 2, neighbors = function(_, emit)
      saved = emit
      error("stop")
    end }))
    H.checkerr("emit called outside of neighbors", saved, 5, 1)
    H.checkerr("emit called outside of neighbors", astar.search, { start = 1, goal = 3,
      neighbors = function(n, emit) saved(n + 1, 1) emit(n + 1, 1) end })
  end)

  it("lets callback errors through unchanged, refuses yields, and allows re-entry", function()
    local nb = function(n, emit) if n < 50 then emit(n + 1, 1) end end
    local token = { "mine" }
    for _, where in ipairs({ "neighbors", "heuristic", "is_goal", "key" }) do
      local opts = { start = 1, neighbors = nb, heuristic = function() return 0 end, key = function(n) return n end }
      opts.is_goal = function(n) return n == 50 end
      local f = opts[where]
      opts[where] = function(...)
        if select(1, ...) == 7 then error(token) end
        return f(...)
      end
      local ok, err = pcall(astar.search, opts)
      assert.is_false(ok, where)
      assert.are.equal(token, err, where)
      -- the next search is right
      local p = assert(astar.search { start = 1, goal = 50, neighbors = nb })
      assert.are.equal(49, p:cost())
    end
    local co = coroutine.create(function()
      return astar.search { start = 1, goal = 50, neighbors = function(n, emit)
        coroutine.yield()
        emit(n + 1, 1)
      end }
    end)
    local ok, err = coroutine.resume(co)
    assert.is_false(ok)
    assert.is_truthy(tostring(err):find("attempt to yield across", 1, true), tostring(err))
    -- re-entry: every neighbors call runs a search of its own
    local inner = 0
    local p = assert(astar.search { start = 1, goal = 20, neighbors = function(n, emit)
      local q = assert(astar.search { start = n, goal = n + 3, neighbors = nb })
      inner = inner + #q
      emit(n + 1, 1)
    end })
    assert.are.equal(19, p:cost())
    assert.are.equal(19 * 4, inner)
  end)

  it("handles a search too big to keep its context, and the next one", function()
    local line = function(n, emit) emit(n + 1, 1) end
    local p = assert(astar.search { start = 1, goal = 70000, neighbors = line })
    assert.are.equal(70000, #p)
    assert.are.equal(69999, p:cost())
    assert.are.equal(69999, p:stats().expanded)
    p = assert(astar.search { start = 1, goal = 5, neighbors = line })
    assert.are.same({ 1, 2, 3, 4, 5 }, p:table())
  end)
end)
