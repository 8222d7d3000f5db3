-- Graph smoke tests by the graph implementer: bidirectional search (with and without potentials,
-- callbacks, several goals, limits) against a plain Dijkstra written here, components, distance
-- fields and the edge-list bookkeeping under heavy editing. spec/graph_spec.lua is the main suite.

local astar = require "astar"
local H = require "spec.helper"

local floor, sqrt, huge = math.floor, math.sqrt, math.huge

-- A plain model: out[a][b] = cost (both ways when undirected), positions, disabled set.
local function model(directed)
  return { directed = directed, n = 0, out = {}, pos = {}, off = {}, dead = {} }
end

local function m_add_node(M, x, y)
  M.n = M.n + 1
  M.out[M.n] = {}
  if x then M.pos[M.n] = { x, y } end
  return M.n
end

local function m_add_edge(M, a, b, c)
  M.out[a][b] = c
  if not M.directed then M.out[b][a] = c end
end

-- Dijkstra from s over usable nodes, O(n^2) (no heap: nothing shared with the library).
-- costfn(from, to, base) as the README's cost callback. Returns dist[id].
local function dijkstra(M, s, costfn)
  local dist, done = {}, {}
  local function usable(v) return not M.off[v] and not M.dead[v] end
  if not usable(s) then return dist end
  dist[s] = 0
  while true do
    local u, best = nil, huge
    for v, d in pairs(dist) do
      if not done[v] and d < best then u, best = v, d end
    end
    if not u then break end
    done[u] = true
    for v, c in pairs(M.out[u]) do
      if usable(v) and not done[v] then
        if costfn then c = costfn(u, v, c) end
        if c then
          local nd = best + c
          if dist[v] == nil or nd < dist[v] then dist[v] = nd end
        end
      end
    end
  end
  return dist
end

-- The cost of the walk `ids` in M (nil if a step is not an edge or forbidden).
local function walk_cost(M, ids, costfn)
  local c = 0
  for i = 2, #ids do
    local e = M.out[ids[i - 1]][ids[i]]
    if not e then return nil end
    if costfn then e = costfn(ids[i - 1], ids[i], e) end
    if not e then return nil end
    c = c + e
  end
  return c
end

local function ids_of(p)
  local t = {}
  for i, id in p:points() do t[i] = id end
  return t
end

-- A random geometric-ish graph: n nodes in a 100x100 square, each joined to k random nodes
-- among the 3k nearest by index order (so there are long detours), costs >= length.
local function random_graph(rng, n, directed, placed, k)
  local g, M = astar.graph { directed = directed }, model(directed)
  for _ = 1, n do
    if placed then
      local x, y = rng.int(0, 1000) / 10, rng.int(0, 1000) / 10
      g:add_node(x, y)
      m_add_node(M, x, y)
    else
      g:add_node()
      m_add_node(M)
    end
  end
  for a = 1, n do
    for _ = 1, k do
      local b = rng.int(1, n)
      if b ~= a then
        local c
        if placed then
          local p, q = M.pos[a], M.pos[b]
          local len = sqrt((p[1] - q[1]) ^ 2 + (p[2] - q[2]) ^ 2)
          c = len > 0 and len * (1 + 2 * rng.float()) or 1
        else
          c = 0.5 + 9.5 * rng.float()
        end
        g:add_edge(a, b, c)
        m_add_edge(M, a, b, c)
      end
    end
  end
  return g, M
end

describe("bidirectional search", function()
  it("gives the optimal cost on random graphs (Dijkstra and potentials, both kinds)", function()
    local rng = H.rng(7)
    local checked = 0
    for round = 1, 24 do
      local directed, placed = round % 2 == 0, round % 3 ~= 0
      local n = rng.int(2, 60)
      local g, M = random_graph(rng, n, directed, placed, rng.int(1, 3))
      for _ = 1, rng.int(0, 3) do -- a few disabled nodes
        local v = rng.int(1, n)
        g:disable_node(v)
        M.off[v] = true
      end
      for _ = 1, 15 do
        local s, t = rng.int(1, n), rng.int(1, n)
        local ref = dijkstra(M, s)[t]
        for _, opts in ipairs({ { algorithm = "bidirectional" },
            { algorithm = "bidirectional", heuristic = "zero" },
            { algorithm = "astar" }, { algorithm = "dijkstra" } }) do
          local p, _, code = g:find(s, t, opts)
          if M.off[s] or M.off[t] then
            assert.are.equal("blocked", code)
          elseif ref == nil then
            assert.are.equal("no_path", code)
          else
            assert(p, "no path where the reference has one")
            assert.is_true(H.close(ref, p:cost(), 1e-9), ("cost %.17g, expected %.17g (%s)"):format(
              p:cost(), ref, opts.algorithm))
            local ids = ids_of(p)
            assert.are.equal(s, ids[1])
            assert.are.equal(t, ids[#ids])
            assert.is_true(H.close(ref, walk_cost(M, ids), 1e-9), "path cost differs from its walk")
            checked = checked + 1
          end
        end
      end
      g:close()
    end
    assert.is_true(checked > 500, "only " .. checked .. " paths checked")
  end)

  it("is optimal with many ties and a tight heuristic (lattices, costs = lengths)", function()
    local rng = H.rng(21)
    for round = 1, 8 do
      local W, HH = rng.int(3, 16), rng.int(3, 16)
      local directed = round % 2 == 0
      local g, M = astar.graph { directed = directed }, model(directed)
      for y = 1, HH do
        for x = 1, W do
          g:add_node(x, y)
          m_add_node(M, x, y)
        end
      end
      local function id(x, y) return (y - 1) * W + x end
      for y = 1, HH do
        for x = 1, W do
          for _, d in ipairs({ { 1, 0 }, { 0, 1 }, { 1, 1 }, { -1, 0 }, { 0, -1 } }) do
            local x2, y2 = x + d[1], y + d[2]
            if x2 >= 1 and x2 <= W and y2 >= 1 and y2 <= HH and rng.float() < 0.8 then
              local c = (d[1] ~= 0 and d[2] ~= 0) and sqrt(2) or 1
              g:add_edge(id(x, y), id(x2, y2))
              m_add_edge(M, id(x, y), id(x2, y2), c)
            end
          end
        end
      end
      for _ = 1, 20 do
        local s, t = rng.int(1, W * HH), rng.int(1, W * HH)
        local ref = dijkstra(M, s)[t]
        for _, h in ipairs({ "euclidean", "zero" }) do
          local p, _, code = g:find(s, t, { algorithm = "bidirectional", heuristic = h })
          if ref == nil then
            assert.are.equal("no_path", code)
          else
            assert(p, "no path where the reference has one")
            assert.is_true(H.close(ref, p:cost(), 1e-9), ("cost %.17g, expected %.17g"):format(p:cost(), ref))
            assert.is_true(H.close(ref, walk_cost(M, ids_of(p)), 1e-9))
          end
        end
      end
      g:close()
    end
  end)

  it("asks the cost callback in the direction of travel and honours what it forbids", function()
    local rng = H.rng(11)
    for round = 1, 12 do
      local directed = round % 2 == 0
      local n = rng.int(5, 50)
      local g, M = random_graph(rng, n, directed, true, 2)
      local forbid = {}
      for _ = 1, n do forbid[rng.int(1, n) * 1000 + rng.int(1, n)] = true end
      local function costfn(a, b, base)
        if forbid[a * 1000 + b] then return false end
        return base * (1 + (a * 7 + b * 13) % 5 / 4) -- >= base: the heuristic stays admissible
      end
      for _ = 1, 10 do
        local s, t = rng.int(1, n), rng.int(1, n)
        local ref = dijkstra(M, s, costfn)[t]
        local asked = 0
        local p, _, code = g:find(s, t, { algorithm = "bidirectional", cost = function(a, b, base)
          asked = asked + 1
          assert.are.equal(M.out[a][b], base, ("cost(%d, %d, %s) is not the edge %d -> %d"):format(
            a, b, tostring(base), a, b))
          return costfn(a, b, base)
        end })
        if ref == nil then
          assert.are.equal("no_path", code)
        else
          assert(p, "no path where the reference has one")
          assert.is_true(H.close(ref, p:cost(), 1e-9), ("cost %.17g, expected %.17g"):format(p:cost(), ref))
          assert.is_true(H.close(ref, walk_cost(M, ids_of(p), costfn), 1e-9))
        end
      end
      g:close()
    end
  end)

  it("with a heuristic callback, several goals, max_cost, limits and partial", function()
    local rng = H.rng(5)
    for round = 1, 10 do
      local n = rng.int(10, 50)
      local g, M = random_graph(rng, n, round % 2 == 0, true, 2)
      for _ = 1, 8 do
        local s = rng.int(1, n)
        local goals = { rng.int(1, n), rng.int(1, n), rng.int(1, n) }
        local d = dijkstra(M, s)
        local best
        for _, t in ipairs(goals) do
          if d[t] and (best == nil or d[t] < best) then best = d[t] end
        end
        local p, _, code = g:find(s, { goals = goals, algorithm = "bidirectional" })
        if best == nil then
          assert.are.equal("no_path", code)
        else
          assert(p)
          assert.is_true(H.close(best, p:cost(), 1e-9))
          local k = p:stats().goal
          assert.are.equal(goals[k], p:get(-1))
          -- a user heuristic: the Euclidean distance times the smallest ratio (1 here)
          p = assert(g:find(s, goals[k], { algorithm = "bidirectional", heuristic = function(a, b)
            local x1, y1 = g:position(a)
            local x2, y2 = g:position(b)
            return sqrt((x1 - x2) ^ 2 + (y1 - y2) ^ 2)
          end }))
          assert.is_true(H.close(d[goals[k]], p:cost(), 1e-9))
          local t = goals[k]
          p, _, code = g:find(s, t, { algorithm = "bidirectional", max_cost = d[t] * 0.999 })
          if d[t] > 0 then
            assert.is_nil(p)
            assert.are.equal("limit", code)
          end
          p = g:find(s, t, { algorithm = "bidirectional", max_cost = d[t] * 1.000001 })
          assert.is_true(H.close(d[t], p:cost(), 1e-9))
          p, _, code = g:find(s, t, { algorithm = "bidirectional", max_expansions = 0 })
          if s ~= t then
            assert.is_nil(p)
            assert.are.equal("limit", code)
          end
          p, _, code = g:find(s, t, { algorithm = "bidirectional", max_expansions = 1, partial = true })
          assert.are.equal(s, p:get(1))
          if code == nil then -- finished within one expansion: then it is the optimum
            assert.is_true(H.close(d[t], p:cost(), 1e-9))
          else
            assert.are.equal("partial", code)
          end
        end
      end
      g:close()
    end
  end)

  it("counts both sides in stats, and rejects within and weight", function()
    local g = astar.graph()
    for i = 1, 10 do g:add_node(i, 0) end
    for i = 1, 9 do g:add_edge(i, i + 1) end
    local p = assert(g:find(1, 10, { algorithm = "bidirectional", heuristic = "zero" }))
    assert.are.equal(9, p:cost())
    assert.are.same({ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 }, ids_of(p))
    assert.is_true(p:stats().expanded >= 8)
    H.checkerr("bad argument #3 to 'find' (option 'within' cannot be used with algorithm 'bidirectional')",
      g.find, g, 1, 10, { algorithm = "bidirectional", within = 1 })
    H.checkerr("bad argument #3 to 'find' (option 'weight' cannot be used with algorithm 'bidirectional')",
      g.find, g, 1, 10, { algorithm = "bidirectional", weight = 2 })
    assert(g:find(1, 10, { algorithm = "bidirectional", weight = 1 }))
    g:close()
  end)
end)

describe("graph storage", function()
  it("stays consistent under many random edits (counts, neighbors, ids)", function()
    local rng = H.rng(3)
    for _, directed in ipairs({ false, true }) do
      local g, M = astar.graph { directed = directed }, model(directed)
      local n = 40
      for _ = 1, n do
        g:add_node()
        m_add_node(M)
      end
      for _ = 1, 3000 do
        local a, b = rng.int(1, n), rng.int(1, n)
        local r = rng.float()
        if M.dead[a] or M.dead[b] or a == b then -- luacheck: ignore 542
        elseif r < 0.5 then
          local c = rng.int(1, 9)
          g:add_edge(a, b, c)
          m_add_edge(M, a, b, c)
        elseif r < 0.8 then
          local had = M.out[a][b] ~= nil
          assert.are.equal(had, g:remove_edge(a, b))
          M.out[a][b] = nil
          if not directed then M.out[b][a] = nil end
        elseif r < 0.95 then
          if M.out[a][b] then
            g:set_edge_cost(a, b, 2)
            m_add_edge(M, a, b, 2)
          else
            assert.is_nil(g:edge_cost(a, b))
          end
        elseif r < 0.99 then
          g:remove_node(a)
          M.dead[a] = true
          for v = 1, M.n do M.out[v][a] = nil end
          M.out[a] = {}
        else
          assert.are.equal(M.n + 1, g:add_node())
          m_add_node(M)
          n = n + 1
        end
      end
      local edges, nodes = 0, 0
      for a = 1, M.n do
        if not M.dead[a] then
          nodes = nodes + 1
          local got = {}
          for b, c in g:neighbors(a) do
            assert.is_nil(got[b], "neighbor listed twice")
            got[b] = c
          end
          for b, c in pairs(M.out[a]) do
            assert.are.equal(c, got[b], ("edge %d -> %d"):format(a, b))
            assert.are.equal(c, g:edge_cost(a, b))
            edges = edges + 1
          end
          for b in pairs(got) do assert.is_not_nil(M.out[a][b], ("extra edge %d -> %d"):format(a, b)) end
        end
      end
      assert.are.equal(nodes, g:node_count())
      assert.are.equal(directed and edges or floor(edges / 2), g:edge_count())
      assert.are.equal(("astar.Graph (%d nodes, %d edges)"):format(nodes, g:edge_count()), tostring(g))
      g:close()
    end
  end)

  it("neighbors raises when the graph is edited during the loop", function()
    local g = astar.graph()
    for i = 1, 3 do g:add_node(i, 0) end
    g:add_edge(1, 2)
    g:add_edge(1, 3)
    H.checkerr("neighbors: the graph was edited during the iteration", function()
      for b in g:neighbors(1) do g:remove_edge(1, b) end
    end)
    g:close()
  end)

  it("the default heuristic follows the smallest cost/length ratio after edits", function()
    -- a straight line of cheap edges (ratio 0.1) and a costly shortcut: A* must still find the
    -- line when the ratio changes, because the heuristic scale is recomputed
    local g = astar.graph()
    for i = 0, 10 do g:add_node(i, 0) end
    for i = 1, 10 do g:add_edge(i, i + 1, 0.1) end
    g:add_edge(1, 11, 5)
    assert.is_true(H.close(1, assert(g:find(1, 11)):cost()))
    for i = 1, 10 do g:set_edge_cost(i, i + 1, 1) end   -- ratio back to 0.5 (the shortcut)
    assert.are.equal(5, assert(g:find(1, 11)):cost())
    g:remove_edge(1, 11)
    assert.are.equal(10, assert(g:find(1, 11)):cost())
    local p = assert(g:find(1, 11, { algorithm = "bidirectional" }))
    assert.are.equal(10, p:cost())
    g:close()
  end)
end)

describe("graph components", function()
  it("are weakly connected, skip disabled nodes and make find answer at once", function()
    local g = astar.graph { directed = true }
    for _ = 1, 7 do g:add_node() end
    g:add_edge(1, 2, 1); g:add_edge(3, 2, 1)   -- 1, 2, 3 weakly connected
    g:add_edge(4, 5, 1); g:add_edge(5, 6, 1)   -- 4, 5, 6; 7 alone
    assert.are.equal(3, g:components())
    assert.are.same({ 1, 1, 1, 2, 2, 2, 3 }, { g:component(1), g:component(2), g:component(3),
      g:component(4), g:component(5), g:component(6), g:component(7) })
    assert.is_true(g:same_component(1, 3))
    assert.is_false(g:same_component(1, 4))
    local _, _, code = g:find(1, 6)
    assert.are.equal("no_path", code)
    local p = g:find(1, 6, { max_expansions = 0 })   -- answered before any expansion
    assert.is_nil(p)
    _, _, code = g:find(1, 6, { max_expansions = 0 })
    assert.are.equal("no_path", code)
    g:disable_node(5)
    assert.are.equal(4, g:components())
    assert.is_nil(g:component(5))
    assert.is_false(g:same_component(4, 6))
    assert.is_false(g:same_component(5, 5))
    g:enable_node(5)
    g:add_edge(3, 4, 1)
    assert.are.equal(2, g:components())
    assert.are.equal(3, assert(g:find(3, 6)):cost())
    g:close()
  end)
end)

describe("graph distance fields", function()
  it("agree with Dijkstra along reversed edges; a Field makes a flee map", function()
    local rng = H.rng(9)
    for round = 1, 6 do
      local directed = round % 2 == 0
      local n = rng.int(5, 40)
      local g, M = random_graph(rng, n, directed, true, 2)
      local src = { rng.int(1, n), { rng.int(1, n), 2.5 } }
      local f = g:distance_field(src)
      for v = 1, n do
        local want
        local d = dijkstra(M, v)
        if d[src[1]] then want = d[src[1]] end
        if d[src[2][1]] and (want == nil or d[src[2][1]] + 2.5 < want) then want = d[src[2][1]] + 2.5 end
        local got = f:distance(v)
        if want == nil then
          assert.is_nil(got, "node " .. v)
        else
          assert.is_true(H.close(want, got, 1e-9), ("node %d: %s, expected %.17g"):format(v, tostring(got), want))
        end
      end
      local flee = g:distance_field(f, { scale = -1.2 })
      assert.are.equal("userdata", type(flee))
      g:close()
    end
  end)
end)
