-- astar.search: implicit graphs given by a Lua `neighbors(node, emit)` callback, with number,
-- string and table nodes (with and without a key function), against the generic reference
-- Dijkstra of spec/helper.lua over the same adjacency lists. Then every error path.

local astar = require "astar"
local H = require "spec.helper"

local NAN, INF = 0 / 0, math.huge
local MAX_REPORT = 6
local floor, sqrt = math.floor, math.sqrt

local function report(fails, total) return H.report(fails, total, MAX_REPORT) end

local function search(t)
  assert(type(astar.search) == "function", "astar.search is not available")
  return astar.search(t)
end

-- A random directed graph on ids 1..n: pos[i] = {x, y}, adj[i] = list of {j, cost} (cost >=
-- Euclidean length, so ratio = 1 keeps a Euclidean heuristic admissible). Parallel edges allowed.
local function random_adj(rng, n)
  local pos, adj = {}, {}
  for i = 1, n do
    pos[i] = { rng.int(0, 100), rng.int(0, 100) }
    adj[i] = {}
  end
  local function len(a, b)
    local dx, dy = pos[a][1] - pos[b][1], pos[a][2] - pos[b][2]
    return sqrt(dx * dx + dy * dy)
  end
  for _ = 1, rng.int(n, 3 * n) do
    local a, b = rng.int(1, n), rng.int(1, n)
    if a ~= b then
      local c = math.max(len(a, b), 0.5) * (1 + 2 * rng.float())
      adj[a][#adj[a] + 1] = { b, c }
    end
  end
  return { n = n, pos = pos, adj = adj, len = len }
end

-- How nodes are represented. `val(i)` gives the node value for id i (fresh tables for "fresh"),
-- `id(v)` maps a value back (nil if it is not a node), `key` is the search's key option.
local function representations(G)
  local canon = {}
  for i = 1, G.n do canon[i] = { id = i } end
  return {
    { name = "numbers", val = function(i) return i end,
      id = function(v) return type(v) == "number" and v >= 1 and v <= G.n and v == floor(v) and v or nil end },
    { name = "floats", val = function(i) return i + 0.5 end,
      id = function(v) return type(v) == "number" and v - 0.5 >= 1 and v - 0.5 <= G.n and v - 0.5 or nil end },
    { name = "strings", val = function(i) return "n" .. i end,
      id = function(v) local i = type(v) == "string" and tonumber(v:match("^n(%d+)$")) return i end },
    { name = "tables (identity)", val = function(i) return canon[i] end,
      id = function(v) return type(v) == "table" and canon[v.id] == v and v.id or nil end },
    { name = "fresh tables, number key", val = function(i) return { id = i } end,
      id = function(v) return type(v) == "table" and v.id or nil end,
      key = function(v) return v.id end },
    { name = "fresh tables, string key", val = function(i) return { id = i } end,
      id = function(v) return type(v) == "table" and v.id or nil end,
      key = function(v) return "k" .. v.id end },
  }
end

local function ref_dist(G, s, costmul)
  return (H.dijkstra_generic({ { s, 0 } }, function(u, emit)
    for _, e in ipairs(G.adj[u]) do emit(e[1], e[2] * (costmul or 1)) end
  end))
end

local function fmt_adj(G)
  local out = {}
  for i = 1, G.n do
    local es = {}
    for _, e in ipairs(G.adj[i]) do es[#es + 1] = ("%d:%.6g"):format(e[1], e[2]) end
    out[#out + 1] = ("  [%d] = {%s}"):format(i, table.concat(es, " "))
  end
  return table.concat(out, "\n")
end

-- Checks a found path: values map to ids, consecutive ids are joined by an edge (the cheapest
-- parallel one is what a shortest path uses), ends right. Returns the ids and the cost or an error.
local function check_values(G, R, path, s, t)
  local ids = {}
  local n = #path
  if n < 1 then return nil, "empty path" end
  for i = 1, n do
    local v = path:get(i)
    ids[i] = R.id(v)
    if ids[i] == nil then return nil, ("point %d is %s, not a node"):format(i, tostring(v)) end
  end
  local tab = path:table()
  if #tab ~= n then return nil, ("path:table() has %d entries, #path = %d"):format(#tab, n) end
  for i = 1, n do
    if R.id(tab[i]) ~= ids[i] then return nil, ("path:table()[%d] is not point %d"):format(i, i) end
  end
  local k = 0
  for i, v in path:points() do
    k = k + 1
    if i ~= k or R.id(v) ~= ids[k] then return nil, "path:points() disagrees with path:get" end
  end
  if k ~= n then return nil, "path:points() stopped early" end
  if ids[1] ~= s then return nil, ("starts at %s, expected %s"):format(tostring(ids[1]), tostring(s)) end
  if t and ids[n] ~= t then return nil, ("ends at %s, expected %s"):format(tostring(ids[n]), tostring(t)) end
  local cost, most = 0, 0
  for i = 2, n do
    local best, worst
    for _, e in ipairs(G.adj[ids[i - 1]]) do
      if e[1] == ids[i] and (best == nil or e[2] < best) then best = e[2] end
      if e[1] == ids[i] and (worst == nil or e[2] > worst) then worst = e[2] end
    end
    if not best then return nil, ("step %d: no edge %d -> %d"):format(i - 1, ids[i - 1], ids[i]) end
    cost, most = cost + best, most + worst
  end
  -- with parallel edges a non-optimal search may have used any of them: path:cost() must lie
  -- between the sums of the cheapest and of the dearest
  local pc = path:cost()
  if not (pc >= cost * (1 - 1e-12) and pc <= most * (1 + 1e-12)) then
    return nil, ("path:cost() = %.17g, but its edges cost between %.17g and %.17g"):format(pc, cost, most)
  end
  return ids, cost
end

local function make_neighbors(G, R, counter)
  return function(node, emit)
    if counter then counter.n = counter.n + 1 end
    local i = R.id(node)
    assert(i, "neighbors called with a value that is not a node: " .. tostring(node))
    for _, e in ipairs(G.adj[i]) do emit(R.val(e[1]), e[2]) end
  end
end

---------------------------------------------------------------------------------------------------

describe("astar.search on random graphs", function()
  it("finds shortest paths for every kind of node value", function()
    local rng = H.rng(60606)
    local fails, total, found = {}, 0, 0
    for gi = 1, 60 do
      local G = random_adj(rng, rng.int(2, 40))
      for _, R in ipairs(representations(G)) do
        local s, t = rng.int(1, G.n), rng.int(1, G.n)
        local opt = ref_dist(G, s)[t]
        for _, alg in ipairs({ "astar", "dijkstra", "heuristic", "weighted", "bfs", "greedy" }) do
          total = total + 1
          local spec = { start = R.val(s), goal = R.val(t), neighbors = make_neighbors(G, R), key = R.key }
          local w = 1
          local wrong
          if alg == "heuristic" or alg == "weighted" or alg == "greedy" then
            spec.heuristic = function(node, goal)
              local a, b = R.id(node), R.id(goal)
              if not a or b ~= t then wrong = true end
              return G.len(a, b)
            end
            if alg == "weighted" then
              w = rng.pick({ 1.5, 2 })
              spec.weight = w
            elseif alg == "greedy" then
              spec.algorithm = "greedy"
            end
          elseif alg ~= "astar" then
            spec.algorithm = alg
          end
          local ok, path, msg, code = pcall(search, spec)
          local err
          if not ok then
            err = "raised: " .. tostring(path)
          elseif wrong then
            err = "the heuristic was called with a bad node or goal"
          elseif opt == nil then
            if path ~= nil or code ~= "no_path" then
              err = ("expected nil, msg, 'no_path', got %s, %s, %s"):format(tostring(path), tostring(msg),
                tostring(code))
            end
          elseif path == nil then
            err = ("expected a path of cost %.17g, got nil, %s, %s"):format(opt, tostring(msg), tostring(code))
          else
            found = found + 1
            local ids, cost = check_values(G, R, path, s, t)
            if not ids then err = cost
            elseif alg ~= "bfs" and alg ~= "greedy" and not H.close(cost, path:cost()) then
              err = ("path:cost() %.17g, cheapest edges %.17g"):format(path:cost(), cost)
            elseif alg == "bfs" then
              local steps = H.bfs_generic(s, function(u, emit) for _, e in ipairs(G.adj[u]) do emit(e[1]) end end)
              if #ids - 1 ~= steps[t] then err = ("bfs: %d steps, fewest %d"):format(#ids - 1, steps[t]) end
            elseif alg == "greedy" then
              if cost < opt * (1 - 1e-9) then err = "greedy below the optimum" end
            elseif cost > w * opt * (1 + 1e-9) + 1e-12 then
              err = ("cost %.17g, optimal %.17g (weight %g)"):format(cost, opt, w)
            end
          end
          if err then
            fails[#fails + 1] = ("%s\ngraph #%d, %s, %s: %d -> %d\n%s"):format(err, gi, R.name, alg, s, t, fmt_adj(G))
          end
        end
      end
    end
    report(fails, total)
    assert.is_true(found > 1000, "too few paths: " .. found)
  end)

  it("is_goal, goals and within", function()
    local rng = H.rng(70707)
    local fails, total, multi, moved = {}, 0, 0, 0
    for gi = 1, 50 do
      local G = random_adj(rng, rng.int(3, 40))
      for _, R in ipairs(representations(G)) do
        local s = rng.int(1, G.n)
        local dist = ref_dist(G, s)
        local set, list = {}, {}
        for i = 1, rng.int(1, 4) do
          list[i] = rng.int(1, G.n)
          set[list[i]] = true
        end
        local best
        for id in pairs(set) do
          if dist[id] and (best == nil or dist[id] < best) then best = dist[id] end
        end
        for _, mode in ipairs({ "is_goal", "goals", "within" }) do
          total = total + 1
          local spec = { start = R.val(s), neighbors = make_neighbors(G, R), key = R.key }
          local expect, accepted = best
          local r
          if mode == "is_goal" then
            spec.is_goal = function(node) return set[R.id(node)] == true end
            accepted = function(id) return set[id] end
          elseif mode == "goals" then
            spec.goals = {}
            for i, id in ipairs(list) do spec.goals[i] = R.val(id) end
            accepted = function(id) return set[id] end
          else
            local t = list[1]
            r = rng.pick({ 0, 5, 15, 30 })
            spec.goal = R.val(t)
            spec.heuristic = function(node, goal) return G.len(R.id(node), R.id(goal)) end
            spec.within = r
            accepted = function(id) return G.len(id, t) <= r end
            expect = nil
            for id, d in pairs(dist) do
              if accepted(id) and (expect == nil or d < expect) then expect = d end
            end
          end
          local ok, path, msg, code = pcall(search, spec)
          local err
          if not ok then
            err = "raised: " .. tostring(path)
          elseif expect == nil then
            if path ~= nil or code ~= "no_path" then
              err = ("expected 'no_path', got %s, %s, %s"):format(tostring(path), tostring(msg), tostring(code))
            end
          elseif path == nil then
            err = ("expected a path of cost %.17g, got nil, %s, %s"):format(expect, tostring(msg), tostring(code))
          else
            local ids, cost = check_values(G, R, path, s, nil)
            if not ids then err = cost
            else
              local e = ids[#ids]
              if not accepted(e) then err = ("ends at %d, which is not a goal"):format(e)
              elseif not H.close(cost, expect) or not H.close(path:cost(), expect) then
                err = ("cost %.17g, expected %.17g"):format(cost, expect)
              else
                for k = 1, #ids - 1 do
                  if accepted(ids[k]) then err = err or ("point %d (%d) is already a goal"):format(k, ids[k]) end
                end
              end
              if mode == "goals" and not err then
                local idx = path:stats().goal
                if not (H.is_int(idx) and list[idx] == e) then
                  err = ("stats().goal = %s, but the path ends at %d"):format(tostring(idx), e)
                end
                if #list > 1 then multi = multi + 1 end
              end
              if mode == "within" and e ~= list[1] then moved = moved + 1 end
            end
          end
          if err then
            fails[#fails + 1] = ("%s\ngraph #%d, %s, %s, start %d, goals {%s}%s\n%s"):format(err, gi, R.name, mode, s,
              table.concat(list, ","), r and (" within " .. r) or "", fmt_adj(G))
          end
        end
      end
    end
    report(fails, total)
    assert.is_true(multi > 50 and moved > 20, ("weak test: %d multi-goal, %d within"):format(multi, moved))
  end)

  it("limits and partial paths", function()
    local G = { n = 5, pos = {}, adj = { { { 2, 1 } }, { { 3, 1 } }, { { 4, 1 } }, { { 5, 1 } }, {} } }
    local R = representations(G)[1]
    local p, msg, code = search({ start = 1, goal = 5, neighbors = make_neighbors(G, R), max_expansions = 2 })
    assert.is_nil(p); assert.are.equal("limit", code); assert.are.equal("string", type(msg))
    p, msg, code = search({ start = 1, goal = 5, neighbors = make_neighbors(G, R), max_cost = 3.5 })
    assert.is_nil(p); assert.are.equal("limit", code, msg)
    p = assert(search({ start = 1, goal = 5, neighbors = make_neighbors(G, R), max_cost = 4 }))
    assert.are.equal(4, p:cost())
    p, msg, code = search({ start = 1, goal = 5, neighbors = make_neighbors(G, R), max_expansions = 2,
      partial = true })
    assert.are.equal("partial", code, msg)
    assert.are.equal(1, p:get(1))
    p, msg, code = search({ start = 1, goal = 6, neighbors = make_neighbors(G, R) })
    assert.is_nil(p); assert.are.equal("no_path", code, msg)
    p = assert(search({ start = 3, goal = 3, neighbors = make_neighbors(G, R) }))
    assert.are.equal(1, #p); assert.are.equal(0, p:cost()); assert.are.equal(3, p:get(1))
    assert.are.same({ 3 }, p:table())
  end)

  it("works on an unbounded graph (the integers, +1 and *2)", function()
    local calls = 0
    local p = assert(search({ start = 1, goal = 100,
      neighbors = function(n, emit)
        calls = calls + 1
        emit(n + 1, 1)
        emit(n * 2, 1)
      end,
      heuristic = function(n, g) return n > g and (n - g) or 0 end,
    }))
    -- 1 2 3 6 12 24 25 50 100 : 8 steps is the fewest (100 = 1100100b: 6 doublings, 2 increments)
    assert.are.equal(8, p:cost())
    assert.are.same({ 1, 2, 3, 6, 12, 24, 25, 50, 100 }, p:table())
    assert.is_true(calls < 1000)
  end)

  it("paths keep their node values after the search (and after GC)", function()
    local nodes = {}
    for i = 1, 10 do nodes[i] = { id = i, payload = "p" .. i } end
    local p = assert(search({ start = nodes[1], goal = nodes[10],
      neighbors = function(n, emit) if n.id < 10 then emit(nodes[n.id + 1], 1) end end }))
    nodes = nil -- luacheck: ignore
    collectgarbage(); collectgarbage()
    assert.are.equal(10, #p)
    for i = 1, 10 do
      local v = p:get(i)
      assert.are.equal(i, v.id)
      assert.are.equal("p" .. i, v.payload)
    end
    assert.are.equal("p10", p:get(-1).payload)
    assert.has_error(function() p:flat() end)
  end)
end)

---------------------------------------------------------------------------------------------------

describe("astar.search errors", function()
  local LINE = { n = 6, pos = {},
    adj = { { { 2, 1 } }, { { 3, 1 }, { 1, 1 } }, { { 4, 1 } }, { { 5, 1 } }, { { 6, 1 } }, {} } }
  local function nb(n, emit) for _, e in ipairs(LINE.adj[n]) do emit(e[1], e[2]) end end
  local function base() return { start = 1, goal = 6, neighbors = nb } end
  local function with(t)
    local s = base()
    for k, v in pairs(t) do
      if v == "nil" then s[k] = nil else s[k] = v end
    end
    return s
  end
  local function still_ok()
    local p = assert(search(base()))
    assert.are.equal(5, p:cost())
    assert.are.same({ 1, 2, 3, 4, 5, 6 }, p:table())
  end

  it("rejects bad specifications", function()
    local S = "search"
    H.checkerr_fn(S, 1, astar.search)
    H.checkerr_fn(S, 1, astar.search, "x")
    H.checkerr_fn(S, 1, astar.search, with({ neighbors = "nil" }))
    H.checkerr_fn(S, 1, astar.search, with({ neighbors = 5 }))
    H.checkerr_fn(S, 1, astar.search, with({ neighbors = {} }))
    H.checkerr_fn(S, 1, astar.search, with({ start = "nil" }))
    H.checkerr_fn(S, 1, astar.search, with({ start = NAN }))
    H.checkerr_fn(S, 1, astar.search, with({ goal = "nil" }))                          -- no goal at all
    H.checkerr_fn(S, 1, astar.search, with({ goal = NAN }))
    H.checkerr_fn(S, 1, astar.search, with({ goal = "nil", is_goal = 5 }))
    H.checkerr_fn(S, 1, astar.search, with({ goal = "nil", goals = {} }))
    H.checkerr_fn(S, 1, astar.search, with({ goal = "nil", goals = 5 }))
    H.checkerr_fn(S, 1, astar.search, with({ heuristic = 5 }))
    H.checkerr_fn(S, 1, astar.search, with({ key = 5 }))
    H.checkerr_fn(S, 1, astar.search, with({ within = 2 }))                            -- needs a heuristic
    H.checkerr_fn(S, 1, astar.search, with({ goal = "nil", is_goal = function() end, within = 2,
      heuristic = function() return 0 end }))                                         -- needs a goal
    H.checkerr_fn(S, 1, astar.search, with({ heuristic = function() return 0 end, within = -1 }))
    H.checkerr_fn(S, 1, astar.search, with({ algorithm = "fast" }))
    H.checkerr_fn(S, 1, astar.search, with({ weight = 0.5 }))
    H.checkerr_fn(S, 1, astar.search, with({ max_expansions = -1 }))
    H.checkerr_fn(S, 1, astar.search, with({ max_cost = NAN }))
    H.checkerr_fn(S, 1, astar.search, with({ partial = 1 }))
    H.checkerr("bad argument #1 to 'search' (unknown option 'wieght')", astar.search, with({ wieght = 2 }))
    still_ok()
  end)

  it("rejects bad emit calls", function()
    for _, bad in ipairs({ 0, -1, -0.0, NAN, INF, -INF, "1", {}, true }) do
      H.checkerr_fn("emit", 2, astar.search, with({ neighbors = function(n, emit) emit(n + 1, bad) end }))
      still_ok()
    end
    H.checkerr_fn("emit", 2, astar.search, with({ neighbors = function(n, emit) emit(n + 1) end }))
    H.checkerr_fn("emit", 1, astar.search, with({ neighbors = function(_, emit) emit(nil, 1) end }))
    H.checkerr_fn("emit", 1, astar.search, with({ neighbors = function(_, emit) emit(NAN, 1) end }))
    still_ok()
  end)

  it("emit called outside of its neighbors call raises", function()
    local saved
    assert(search(with({ neighbors = function(n, emit)
      saved = emit
      nb(n, emit)
    end })))
    H.checkerr_prefix("emit called outside of neighbors", saved, 2, 1)
    -- from another callback of the same search
    H.checkerr_prefix("emit called outside of neighbors", search, with({
      neighbors = function(n, emit) saved = emit nb(n, emit) end,
      heuristic = function(n) if n == 3 then saved(9, 1) end return 0 end }))
    H.checkerr_prefix("emit called outside of neighbors", search, with({
      neighbors = function(n, emit) saved = emit nb(n, emit) end,
      goal = "nil", is_goal = function(n) if n == 3 then saved(9, 1) end return n == 6 end }))
    still_ok()
  end)

  it("rejects bad key results, naming the key callback", function()
    for _, bad in ipairs({ "nil", NAN, {}, true, false, print }) do
      local v = bad
      if bad == "nil" then v = nil end
      H.checkerr_prefix("key callback returned ", search, with({ key = function(n)
        if n == 3 then return v end
        return n
      end }))
      still_ok()
    end
    -- keys may be numbers or strings; the same key means the same node
    local p = assert(search({ start = { 1 }, goal = { 6 }, key = function(t) return t[1] end,
      neighbors = function(t, emit) for _, e in ipairs(LINE.adj[t[1]]) do emit({ e[1] }, e[2]) end end }))
    assert.are.equal(5, p:cost())
    assert.are.equal(6, p:get(-1)[1])
  end)

  it("rejects bad heuristic results", function()
    for _, bad in ipairs({ -1, NAN, INF, "1", {}, "nil" }) do
      local v = bad
      if bad == "nil" then v = nil end
      H.checkerr_prefix("heuristic callback returned ", search, with({ heuristic = function() return v end }))
      still_ok()
    end
  end)

  it("callback errors pass through unchanged at the first, n-th and last call", function()
    for _, which in ipairs({ "neighbors", "heuristic", "is_goal", "key" }) do
      local function spec(counter, at, value)
        local s = base()
        local function tick()
          counter.n = counter.n + 1
          if counter.n == at then error(value, 0) end
        end
        if which == "neighbors" then
          s.neighbors = function(n, emit) tick() nb(n, emit) end
        elseif which == "heuristic" then
          s.heuristic = function() tick() return 0 end
        elseif which == "is_goal" then
          s.goal = nil
          s.is_goal = function(n) tick() return n == 6 end
        else
          s.key = function(n) tick() return n end
        end
        return s
      end
      local c = { n = 0 }
      assert(search(spec(c)))
      local N = c.n
      assert.is_true(N >= 3, which .. " called only " .. N .. " times")
      for _, at in ipairs({ 1, floor(N / 2) + 1, N }) do
        for _, v in ipairs({ {}, "msg", 17, true }) do
          local cnt = { n = 0 }
          H.checkerr_value(v, search, spec(cnt, at, v))
          assert.are.equal(at, cnt.n)
          still_ok()
        end
      end
    end
  end)

  it("callbacks may not yield", function()
    for _, which in ipairs({ "neighbors", "heuristic", "is_goal", "key" }) do
      local s = base()
      if which == "neighbors" then s.neighbors = function(n, emit) coroutine.yield() nb(n, emit) end
      elseif which == "heuristic" then s.heuristic = function() coroutine.yield() return 0 end
      elseif which == "is_goal" then s.goal = nil; s.is_goal = function() coroutine.yield() end
      else s.key = function(n) coroutine.yield() return n end end
      local ok, err = pcall(coroutine.wrap(function() return search(s) end))
      assert.is_false(ok, which .. ": the yield got through")
      assert.is_true(H.is_yield_error(err), which .. ": " .. tostring(err))
      still_ok()
    end
  end)

  it("callbacks may run astar.search themselves (re-entry)", function()
    local depth, inner = 0, 0
    local function nested(n, emit)
      if depth < 2 then
        depth = depth + 1
        local p = assert(search({ start = 1, goal = 6, neighbors = nested }))
        depth = depth - 1
        assert(p:cost() == 5)
        inner = inner + 1
      end
      nb(n, emit)
    end
    local p = assert(search({ start = 1, goal = 6, neighbors = nested,
      heuristic = function(n, g)
        local q = assert(search({ start = n, goal = g, neighbors = nb }))
        return q:cost() -- the exact remaining cost: admissible
      end }))
    assert.are.equal(5, p:cost())
    assert.is_true(inner > 0)
    -- an error inside the nested search reaches the outermost caller unchanged
    local e = {}
    H.checkerr_value(e, search, { start = 1, goal = 6, neighbors = function(n, emit)
      if n == 3 then search({ start = 1, goal = 6, neighbors = function() error(e) end }) end
      nb(n, emit)
    end })
    still_ok()
  end)

  it("callable tables work for every callback", function()
    local function callable(f) return setmetatable({}, { __call = function(_, ...) return f(...) end }) end
    local p = assert(search({ start = 1, neighbors = callable(nb), heuristic = callable(function() return 0 end),
      is_goal = callable(function(n) return n == 6 end), key = callable(function(n) return n end) }))
    assert.are.equal(5, p:cost())
  end)
end)
