-- astar.graph: random graphs (directed and undirected, with and without positions, with removed
-- edges, disabled and removed nodes) against a reference Dijkstra over the model in
-- spec/helper.lua (H.graph_model), which shadows every edit. Then the API and its bad inputs,
-- callbacks, lifetimes, and a large graph built from Lua.

local astar = require "astar"
local H = require "spec.helper"

local NAN, INF = 0 / 0, math.huge
local MAX_REPORT = 6
local floor = math.floor

local function report(fails, total) return H.report(fails, total, MAX_REPORT) end

local new_graph = H.new_graph
-- Replays H.random_graph's operations on a library graph.
local build = H.build_graph

-- A few kinds of random graphs.
local KINDS = {
  { name = "undirected, positions", directed = false, p_pos = 1 },
  { name = "directed, positions", directed = true, p_pos = 1 },
  { name = "undirected, no positions", directed = false, p_pos = 0 },
  { name = "directed, no positions", directed = true, p_pos = 0 },
  { name = "undirected, some positions", directed = false, p_pos = 0.6 },
  { name = "directed, some positions", directed = true, p_pos = 0.7 },
  { name = "undirected, 3D, cheap edges", directed = false, p_pos = 1, z = true, factor = { 0.3, 1.2 } },
  { name = "directed, cheap edges", directed = true, p_pos = 1, factor = { 0.5, 0.5 } },
}

local function make_graphs(seed, count, maxn)
  local rng = H.rng(seed)
  local out = {}
  for i = 1, count do
    local kind = KINDS[(i - 1) % #KINDS + 1]
    local n = rng.int(2, maxn)
    local o = {
      n = n, m = rng.int(n, 3 * n), directed = kind.directed, p_pos = kind.p_pos, z = kind.z,
      factor = kind.factor or { 1, 3 }, p_default = 0.3,
      p_remove_edge = 0.1, p_set_cost = 0.1, p_readd = 0.05,
      p_disable = rng.pick({ 0, 0.05, 0.1 }), p_remove_node = rng.pick({ 0, 0.05, 0.1 }),
    }
    local ops, M = H.random_graph(rng, o)
    out[i] = { id = i, kind = kind, ops = ops, M = M, rng = rng }
  end
  return out
end

local function fmt_case(c, extra)
  return ("graph #%d (%s)%s\n%s"):format(c.id, c.kind.name, extra or "",
    H.fmt_graph_ops(c.ops, c.kind.directed))
end

local function fmt_opts(opts)
  local o = {}
  for k, v in pairs(opts or {}) do
    if k == "goals" then
      v = "{" .. table.concat(v, ",") .. "}"
    elseif type(v) == "function" then
      v = "<function>"
    end
    o[#o + 1] = k .. "=" .. tostring(v)
  end
  table.sort(o)
  return "{" .. table.concat(o, ", ") .. "}"
end

-- Random query ends among the live nodes (disabled ones included).
local function pick_live(c)
  local ids = c.M:ids()
  return ids[c.rng.int(1, #ids)]
end

-- Checks an outcome against the reference: `opt` is the optimal cost (nil: no path).
-- `check(ids, cost)` does the algorithm-specific part for found paths.
local function check_outcome(c, s, t, path, msg, code, opt, costfn, check)
  local M = c.M
  if not (M:usable(s) and M:usable(t)) then
    if path ~= nil or code ~= "blocked" then
      return ("expected 'blocked', got %s, %s, %s"):format(tostring(path), tostring(msg), tostring(code))
    end
    return nil
  end
  if opt == nil then
    if path ~= nil or code ~= "no_path" then
      return ("expected 'no_path', got %s, %s, %s"):format(tostring(path), tostring(msg), tostring(code))
    end
    return nil
  end
  if path == nil then
    return ("expected a path (optimum %.17g), got nil, %s, %s"):format(opt, tostring(msg), tostring(code))
  end
  local ok, ids = pcall(H.path_ids, path)
  if not ok then return "path:get failed: " .. tostring(ids) end
  local ok2, sum = pcall(H.check_graph_path, M, ids, s, t, costfn)
  if not ok2 then return "illegal path: " .. tostring(sum) .. " (" .. table.concat(ids, " ") .. ")" end
  if not H.close(sum, path:cost()) then
    return ("path:cost() = %.17g, its edges cost %.17g"):format(path:cost(), sum)
  end
  return check(ids, sum)
end

local function optimal(opt)
  return function(_, sum)
    if not H.close(sum, opt) then return ("cost %.17g, optimal %.17g"):format(sum, opt) end
  end
end

---------------------------------------------------------------------------------------------------

describe("random graphs", function()
  local graphs
  local function get() graphs = graphs or make_graphs(20260101, 160, 40) return graphs end

  it("are built as the model says (counts, neighbors, positions)", function()
    local fails, total = {}, 0
    for _, c in ipairs(get()) do
      total = total + 1
      local ok, g = pcall(build, c.ops, c.kind.directed)
      if not ok then
        fails[#fails + 1] = "building raised: " .. tostring(g) .. "\n" .. fmt_case(c)
      else
        local M = c.M
        local err
        if g:node_count() ~= M:node_count() then
          err = ("node_count() = %s, expected %d"):format(tostring(g:node_count()), M:node_count())
        elseif g:edge_count() ~= M:edge_count() then
          err = ("edge_count() = %s, expected %d"):format(tostring(g:edge_count()), M:edge_count())
        end
        for _, id in ipairs(M:ids()) do
          if err then break end
          local got, n = {}, 0
          for b, cost in g:neighbors(id) do
            n = n + 1
            if got[b] then err = ("neighbors(%d) lists %d twice"):format(id, b) end
            got[b] = cost
          end
          for b, cost in pairs(M.out[id]) do
            if got[b] == nil then
              err = err or ("neighbors(%d) misses %d"):format(id, b)
            elseif not H.close(got[b], cost) then
              err = err or ("neighbors(%d): cost to %d is %.17g, expected %.17g"):format(id, b, got[b], cost)
            end
            got[b] = nil
          end
          local extra = next(got)
          if extra ~= nil then
            err = err or ("neighbors(%d) lists %s, which is not an edge"):format(id, tostring(extra))
          end
          local p = M.pos[id]
          local x, y, z = g:position(id)
          if p then
            if x ~= p[1] or y ~= p[2] or z ~= p[3] then
              err = err or ("position(%d) = %s, %s, %s, expected %s, %s, %s"):format(id, tostring(x),
                tostring(y), tostring(z), p[1], p[2], p[3])
            end
          elseif x ~= nil then
            err = err or ("position(%d) = %s, expected nil"):format(id, tostring(x))
          end
        end
        if err then fails[#fails + 1] = err .. "\n" .. fmt_case(c) end
        g:close()
      end
    end
    report(fails, total)
  end)

  it("astar, dijkstra and bidirectional find shortest paths; bfs the fewest edges; greedy legal ones", function()
    local fails, total, found = {}, 0, 0
    for _, c in ipairs(get()) do
      local ok, g = pcall(build, c.ops, c.kind.directed)
      if not ok then
        fails[#fails + 1] = "building raised: " .. tostring(g) .. "\n" .. fmt_case(c)
      else
        for _ = 1, 4 do
          local s, t = pick_live(c), pick_live(c)
          local dist = H.graph_dijkstra(c.M, s)
          local steps = H.graph_bfs(c.M, s)
          local opt = dist[t]
          for _, alg in ipairs({ "default", "astar", "dijkstra", "bidirectional", "bfs", "greedy", "weighted" }) do
            total = total + 1
            local opts, check
            if alg == "default" then
              opts, check = nil, optimal(opt)
            elseif alg == "weighted" then
              local w = c.rng.pick({ 1.5, 2, 3 })
              opts = { weight = w }
              check = function(_, sum)
                if sum > w * opt * (1 + 1e-9) + 1e-9 then
                  return ("weight %g: cost %.17g > %g * optimum %.17g"):format(w, sum, w, opt)
                end
              end
            elseif alg == "bfs" then
              opts = { algorithm = "bfs" }
              check = function(ids)
                if #ids - 1 ~= steps[t] then return ("bfs: %d edges, fewest %d"):format(#ids - 1, steps[t]) end
              end
            elseif alg == "greedy" then
              opts, check = { algorithm = "greedy" }, function(_, sum)
                if sum < opt * (1 - 1e-9) then return ("greedy cost %.17g below the optimum %.17g"):format(sum, opt) end
              end
            else
              opts, check = { algorithm = alg }, optimal(opt)
            end
            local ok2, path, msg, code = pcall(g.find, g, s, t, opts)
            local err = "raised: " .. tostring(path)
            if ok2 then err = check_outcome(c, s, t, path, msg, code, opt, nil, check) end
            if ok2 and path then found = found + 1 end
            if err then
              fails[#fails + 1] = ("%s\ng:find(%d, %d, %s)\n%s"):format(err, s, t, fmt_opts(opts), fmt_case(c))
            end
          end
        end
        g:close()
      end
    end
    report(fails, total)
    assert.is_true(found > 1500, "too few paths found: " .. found)
  end)

  it("paths give ids, positions and tables", function()
    local fails, checked = {}, 0
    for _, c in ipairs(get()) do
      local g = build(c.ops, c.kind.directed)
      local s, t = pick_live(c), pick_live(c)
      local path = g:find(s, t)
      if path then
        checked = checked + 1
        local ids = H.path_ids(path)
        local tab = path:table()
        local err
        if #tab ~= #ids then err = ("path:table() has %d entries, #path = %d"):format(#tab, #ids) end
        for i, id in ipairs(ids) do
          if tab[i] ~= id then err = err or ("path:table()[%d] = %s, expected %d"):format(i, tostring(tab[i]), id) end
        end
        local n = 0
        for i, id in path:points() do
          n = n + 1
          if i ~= n or id ~= ids[n] then
            err = err or ("points() gave %s, %s at step %d"):format(tostring(i), tostring(id), n)
          end
        end
        if n ~= #ids then err = err or "points() stopped early" end
        local all = true
        for _, id in ipairs(ids) do if not c.M.pos[id] then all = false end end
        if all then
          for _, name in ipairs({ "positions", "flat" }) do
            local ok, xy = pcall(path[name], path)
            if not ok then
              err = err or (name .. "() raised " .. tostring(xy))
            else
              if #xy ~= 2 * #ids then err = err or (name .. "() has the wrong length " .. #xy) end
              for i, id in ipairs(ids) do
                local p = c.M.pos[id]
                if xy[2 * i - 1] ~= p[1] or xy[2 * i] ~= p[2] then
                  err = err or ("%s()[%d] = %s, %s; node %d is at %s, %s"):format(name, i,
                    tostring(xy[2 * i - 1]), tostring(xy[2 * i]), id, p[1], p[2])
                end
              end
            end
          end
        else
          local ok = pcall(path.positions, path)
          if ok then err = err or "positions() of a path through a node without a position did not raise" end
        end
        if err then fails[#fails + 1] = ("%s\ng:find(%d, %d)\n%s"):format(err, s, t, fmt_case(c)) end
      end
      g:close()
    end
    report(fails, checked)
    assert.is_true(checked > 40, "too few paths: " .. checked)
  end)

  it("cost callbacks price and forbid edges, for every optimal algorithm", function()
    local fails, total, forbidden, found = {}, 0, 0, 0
    for _, c in ipairs(get()) do
      local g = build(c.ops, c.kind.directed)
      local seed = c.id
      local function cost(a, b, base)
        local r = ((seed * 7919 + a * 104729 + b * 1299709) * 16807 % 2147483647) / 2147483647
        if r < 0.15 then return r < 0.07 and false or nil end
        return base * (1 + 2 * r)
      end
      for _ = 1, 2 do
        local s, t = pick_live(c), pick_live(c)
        local opt = H.graph_dijkstra(c.M, s, cost)[t]
        for _, alg in ipairs({ "astar", "dijkstra", "bidirectional" }) do
          total = total + 1
          local bad
          local function spy(a, b, base)
            local want = c.M:cost(a, b)
            if not bad then
              if want == nil then bad = ("asked about %s -> %s, not an edge"):format(tostring(a), tostring(b))
              elseif not (c.M:usable(a) and c.M:usable(b)) then bad = ("asked about %d -> %d (disabled)"):format(a, b)
              elseif not H.close(base, want) then
                bad = ("base %.17g for %d -> %d, expected %.17g"):format(base, a, b, want)
              end
            end
            local r = cost(a, b, base)
            if not r then forbidden = forbidden + 1 end
            return r
          end
          local opts = { algorithm = alg, cost = spy }
          local ok, path, msg, code = pcall(g.find, g, s, t, opts)
          local err = "raised: " .. tostring(path)
          if ok then
            err = bad and ("callback arguments: " .. bad)
              or check_outcome(c, s, t, path, msg, code, opt, cost, optimal(opt))
          end
          if ok and path then found = found + 1 end
          if err then
            fails[#fails + 1] = ("%s\ng:find(%d, %d, %s)\n%s"):format(err, s, t, fmt_opts(opts), fmt_case(c))
          end
        end
      end
      g:close()
    end
    report(fails, total)
    assert.is_true(forbidden > 50 and found > 300, ("weak test: %d forbidden, %d found"):format(forbidden, found))
  end)

  it("heuristic callbacks that are admissible give shortest paths", function()
    local fails, total = {}, 0
    for _, c in ipairs(get()) do
      local M = c.M
      -- the smallest cost / length ratio over edges between positioned nodes; 0 if some node
      -- lacks a position (then only h = 0 is safe for them)
      local ratio = math.huge
      for _, a in ipairs(M:ids()) do
        for b, cost in pairs(M.out[a]) do
          local len = M:length(a, b)
          if len and len > 0 then ratio = math.min(ratio, cost / len) end
        end
      end
      if ratio == math.huge then ratio = 0 end
      local g = build(c.ops, c.kind.directed)
      for _ = 1, 3 do
        local s, t = pick_live(c), pick_live(c)
        local opt = H.graph_dijkstra(M, s)[t]
        local wrong
        local function h(node, goal)
          if goal ~= t then wrong = "goal " .. tostring(goal) end
          if not M:usable(node) then wrong = "node " .. tostring(node) end
          local len = M:length(node, goal)
          if not len or c.kind.p_pos < 1 then return 0 end
          return 0.999 * ratio * len
        end
        total = total + 1
        local ok, path, msg, code = pcall(g.find, g, s, t, { heuristic = h })
        local err = "raised: " .. tostring(path)
        if ok then
          err = wrong and ("heuristic arguments: " .. wrong)
            or check_outcome(c, s, t, path, msg, code, opt, nil, optimal(opt))
        end
        if err then fails[#fails + 1] = ("%s\ng:find(%d, %d, {heuristic = h})\n%s"):format(err, s, t, fmt_case(c)) end
      end
      g:close()
    end
    report(fails, total)
  end)

  it("several goals: the cheapest is reached and stats().goal says which", function()
    local fails, total, multi = {}, 0, 0
    for _, c in ipairs(get()) do
      local g = build(c.ops, c.kind.directed)
      for _ = 1, 3 do
        local s = pick_live(c)
        local goals = {}
        for i = 1, c.rng.int(1, 4) do goals[i] = pick_live(c) end
        local dist = H.graph_dijkstra(c.M, s)
        local best, any = nil, false
        for _, t in ipairs(goals) do
          if c.M:usable(t) then
            any = true
            if dist[t] and (best == nil or dist[t] < best) then best = dist[t] end
          end
        end
        for _, alg in ipairs({ "astar", "dijkstra" }) do
          total = total + 1
          local opts = { goals = goals, algorithm = alg }
          local ok, path, msg, code = pcall(g.find, g, s, opts)
          local err
          if not ok then err = "raised: " .. tostring(path)
          elseif not c.M:usable(s) or not any then
            if path ~= nil or code ~= "blocked" then
              err = ("expected 'blocked', got %s, %s"):format(tostring(path), tostring(code))
            end
          elseif best == nil then
            if path ~= nil or code ~= "no_path" then
              err = ("expected 'no_path', got %s, %s"):format(tostring(path), tostring(code))
            end
          elseif path == nil then
            err = ("expected a path of cost %.17g, got nil, %s, %s"):format(best, tostring(msg), tostring(code))
          else
            if #goals > 1 then multi = multi + 1 end
            local idx = path:stats().goal
            if not (H.is_int(idx) and goals[idx]) then
              err = "stats().goal = " .. tostring(idx)
            else
              local ids = H.path_ids(path)
              local ok2, sum = pcall(H.check_graph_path, c.M, ids, s, goals[idx])
              if not ok2 then err = "illegal path: " .. tostring(sum)
              elseif not H.close(sum, best) or not H.close(path:cost(), best) then
                err = ("cost %.17g, the cheapest goal costs %.17g"):format(sum, best)
              end
            end
          end
          if err then fails[#fails + 1] = ("%s\ng:find(%d, %s)\n%s"):format(err, s, fmt_opts(opts), fmt_case(c)) end
        end
      end
      g:close()
    end
    report(fails, total)
    assert.is_true(multi > 100, "too few multi-goal paths: " .. multi)
  end)

  it("max_cost, max_expansions and partial", function()
    local fails, total = {}, 0
    for _, c in ipairs(get()) do
      local g = build(c.ops, c.kind.directed)
      local s, t = pick_live(c), pick_live(c)
      local opt = H.graph_dijkstra(c.M, s)[t]
      if opt and opt > 0 and c.M:usable(s) and c.M:usable(t) then
        total = total + 1
        local p, msg, code = g:find(s, t, { max_cost = opt * (1 + 1e-9) })
        local err
        if not p or not H.close(p:cost(), opt) then
          err = ("max_cost = optimum: got %s, %s, %s"):format(tostring(p), tostring(msg), tostring(code))
        end
        p, msg, code = g:find(s, t, { max_cost = opt * 0.999 })
        if p ~= nil or code ~= "limit" then
          err = err or ("max_cost below the optimum: got %s, %s, %s"):format(tostring(p), tostring(msg), tostring(code))
        end
        p, msg, code = g:find(s, t, { max_expansions = 0 })
        if p ~= nil or code ~= "limit" then
          err = err or ("max_expansions = 0: got %s, %s, %s"):format(tostring(p), tostring(msg), tostring(code))
        end
        p, msg, code = g:find(s, t, { max_expansions = 0, partial = true })
        if p == nil or code ~= "partial" or p:get(1) ~= s then
          err = err or ("partial: got %s, %s, %s"):format(tostring(p), tostring(msg), tostring(code))
        end
        if err then fails[#fails + 1] = ("%s\ng:find(%d, %d)\n%s"):format(err, s, t, fmt_case(c)) end
      end
      g:close()
    end
    report(fails, total)
    assert.is_true(total > 40, "too few queries: " .. total)
  end)
end)

---------------------------------------------------------------------------------------------------
-- within = r on graphs with positions: accepted nodes are the usable nodes whose Euclidean
-- distance to the goal (between positions, unscaled) is <= r; the path ends at the first one a
-- shortest path reaches.

describe("graph within", function()
  it("ends at the first node in range on a shortest path", function()
    local rng = H.rng(777)
    local fails, total, moved = {}, 0, 0
    for i = 1, 80 do
      local n = rng.int(5, 40)
      local directed = i % 2 == 0
      local ops, M = H.random_graph(rng, { n = n, m = 2 * n, directed = directed, p_pos = 1,
        factor = { 1, 2 }, p_disable = 0.05 })
      local kind = { name = directed and "directed" or "undirected", directed = directed }
      local c = { id = i, kind = kind, ops = ops, M = M }
      local g = build(ops, directed)
      for _ = 1, 3 do
        local ids = M:ids()
        local s, t = ids[rng.int(1, #ids)], ids[rng.int(1, #ids)]
        if M:usable(s) and M:usable(t) then
          local r = rng.pick({ 0, 5, 10, 20, 40 })
          total = total + 1
          local function accepted(v) return M:usable(v) and M:length(v, t) <= r end
          local dist = H.graph_dijkstra(M, s)
          local best
          for v, d in pairs(dist) do
            if accepted(v) and (best == nil or d < best) then best = d end
          end
          local ok, path, msg, code = pcall(g.find, g, s, t, { within = r })
          local err
          if not ok then err = "raised: " .. tostring(path)
          elseif best == nil then
            if path ~= nil or code ~= "no_path" then
              err = ("expected 'no_path', got %s, %s"):format(tostring(path), tostring(code))
            end
          elseif path == nil then
            err = ("expected a path of cost %.17g, got nil, %s, %s"):format(best, tostring(msg), tostring(code))
          else
            local pids = H.path_ids(path)
            local e = pids[#pids]
            if e ~= t then moved = moved + 1 end
            local ok2, sum = pcall(H.check_graph_path, M, pids, s, nil)
            if not ok2 then err = "illegal path: " .. tostring(sum)
            elseif not accepted(e) then err = ("ends at %d, %.17g from the goal"):format(e, M:length(e, t))
            elseif not H.close(sum, best) then err = ("cost %.17g, cheapest node in range %.17g"):format(sum, best)
            else
              for k = 1, #pids - 1 do
                if accepted(pids[k]) then err = err or ("point %d (node %d) is already in range"):format(k, pids[k]) end
              end
            end
          end
          if err then
            fails[#fails + 1] = ("%s\ng:find(%d, %d, {within = %g})\n%s"):format(err, s, t, r, fmt_case(c))
          end
        end
      end
      g:close()
    end
    report(fails, total)
    assert.is_true(moved > 20, "too few paths ending before the goal: " .. moved)
  end)
end)

---------------------------------------------------------------------------------------------------

describe("the default heuristic", function()
  it("stays admissible when edges cost less than their length (0.5 * length)", function()
    local rng = H.rng(4321)
    local fails, total = {}, 0
    for i = 1, 40 do
      local n = rng.int(10, 60)
      local ops, M = H.random_graph(rng, { n = n, m = 3 * n, directed = i % 2 == 0, p_pos = 1,
        factor = { 0.5, 0.5 } })
      local g = build(ops, i % 2 == 0)
      for _ = 1, 5 do
        local s, t = rng.int(1, n), rng.int(1, n)
        local opt = H.graph_dijkstra(M, s)[t]
        local p = g:find(s, t)
        total = total + 1
        if (p == nil) ~= (opt == nil) or (p and not H.close(p:cost(), opt)) then
          fails[#fails + 1] = ("g:find(%d, %d) cost %s, optimal %s\n%s"):format(s, t,
            tostring(p and p:cost()), tostring(opt), H.fmt_graph_ops(ops, i % 2 == 0))
        end
      end
      g:close()
    end
    report(fails, total)
  end)

  it("follows edits: a cheaper edge added or re-priced after a search is taken into account", function()
    local rng = H.rng(97531)
    local fails, total = {}, 0
    for i = 1, 40 do
      local n = rng.int(10, 40)
      local directed = i % 2 == 1
      local ops, M = H.random_graph(rng, { n = n, m = 3 * n, directed = directed, p_pos = 1,
        factor = { 1, 1.5 }, p_default = 0.5 })
      local g = build(ops, directed)
      for round = 1, 6 do
        local s, t = rng.int(1, n), rng.int(1, n)
        g:find(s, t) -- a search before the edit (caches whatever it caches)
        -- the edit: a very cheap edge (a teleporter)
        local a, b = rng.int(1, n), rng.int(1, n)
        if a ~= b then
          local len = M:length(a, b)
          local cheap = math.max(len, 1) * 0.01
          if M:cost(a, b) and round % 2 == 0 then
            g:set_edge_cost(a, b, cheap)
            M:set_edge_cost(a, b, cheap)
            ops[#ops + 1] = { "set_edge_cost", a, b, cheap }
          else
            g:add_edge(a, b, cheap)
            M:add_edge(a, b, cheap)
            ops[#ops + 1] = { "add_edge", a, b, cheap }
          end
        end
        for _ = 1, 3 do
          s, t = rng.int(1, n), rng.int(1, n)
          local opt = H.graph_dijkstra(M, s)[t]
          local p = g:find(s, t)
          total = total + 1
          if (p == nil) ~= (opt == nil) or (p and not H.close(p:cost(), opt)) then
            fails[#fails + 1] = ("after the edits, g:find(%d, %d) costs %s, optimal %s\n%s"):format(s, t,
              tostring(p and p:cost()), tostring(opt), H.fmt_graph_ops(ops, directed))
          end
        end
      end
      g:close()
    end
    report(fails, total)
  end)

  it("stays admissible when a path runs through nodes without positions", function()
    -- 1 and 3 are far apart, but joined cheaply through 2, which has no position
    local g = new_graph(false)
    local a = g:add_node(0, 0)
    local b = g:add_node()
    local c = g:add_node(100, 0)
    local d = g:add_node(50, 1)
    g:add_edge(a, b, 1)
    g:add_edge(b, c, 1)
    g:add_edge(a, d)
    g:add_edge(d, c)
    local p = assert(g:find(a, c))
    assert.are.equal(2, p:cost())
    assert.are.same({ a, b, c }, H.path_ids(p))
    p = assert(g:find(a, c, { algorithm = "bidirectional" }))
    assert.are.equal(2, p:cost())
    g:close()
  end)
end)

describe("costs close together", function()
  it("a way cheaper by 1e-13 of the cost is taken (only 6e-14 and less count as equal)", function()
    -- the way through a is found first; the one through b is 1e-7 cheaper on a cost of 1e6
    local g = new_graph(true)
    local s, a, b, t = g:add_node(), g:add_node(), g:add_node(), g:add_node()
    g:add_edge(s, a, 1)
    g:add_edge(a, t, 1e6)
    g:add_edge(s, b, 2)
    g:add_edge(b, t, 1e6 - 1 - 1e-7)
    for _, alg in ipairs({ "dijkstra", "astar", "bidirectional" }) do
      local p = assert(g:find(s, t, { algorithm = alg }))
      assert.are.same({ s, b, t }, H.path_ids(p), alg)
      assert.is_true(p:cost() < 1e6 + 1 - 5e-8, alg)
    end
    g:close()
  end)
end)

---------------------------------------------------------------------------------------------------

describe("graph API", function()
  it("add_node returns 1, 2, 3...; position gives x, y, z (z = 0 in 2D) or nil", function()
    local g = new_graph()
    assert.are.equal(1, g:add_node(1.5, -2))
    assert.are.equal(2, g:add_node())
    assert.are.equal(3, g:add_node(0, 0, 7.25))
    assert.are.same({ 1.5, -2, 0 }, { g:position(1) })
    assert.are.same({}, { g:position(2) })
    assert.is_nil(g:position(2))
    assert.are.same({ 0, 0, 7.25 }, { g:position(3) })
    assert.are.equal(3, g:node_count())
    assert.are.equal(0, g:edge_count())
    g:close()
    g = astar.graph()
    assert.are.equal(1, g:add_node(0, 0))
    g:close()
  end)

  it("add_edge: default cost is the Euclidean distance (3D), an existing edge gets the new cost", function()
    local g = new_graph(false)
    local a, b, c = g:add_node(0, 0), g:add_node(3, 4), g:add_node(1, 2, 2)
    g:add_edge(a, b)
    g:add_edge(a, c)
    local function nb(id)
      local t = {}
      for x, cost in g:neighbors(id) do t[x] = cost end
      return t
    end
    assert.are.same({ [b] = 5, [c] = 3 }, nb(a))
    assert.are.same({ [a] = 5 }, nb(b))
    assert.are.equal(2, g:edge_count())
    g:add_edge(b, a, 2.5) -- undirected: the same edge
    assert.are.same({ [b] = 2.5, [c] = 3 }, nb(a))
    assert.are.equal(2, g:edge_count())
    g:set_edge_cost(a, c, 9)
    assert.are.same({ [a] = 9 }, nb(c))
    assert.is_true(g:remove_edge(c, a))
    assert.is_false(g:remove_edge(a, c))
    assert.are.equal(1, g:edge_count())
    g:close()

    g = new_graph(true)
    a, b = g:add_node(0, 0), g:add_node(0, 2)
    g:add_edge(a, b)
    local out = {}
    for x, cost in g:neighbors(a) do out[x] = cost end
    assert.are.same({ [b] = 2 }, out)
    local n = 0
    for _ in g:neighbors(b) do n = n + 1 end
    assert.are.equal(0, n)
    g:add_edge(b, a, 7)
    assert.are.equal(2, g:edge_count())
    assert.is_true(g:remove_edge(a, b))   -- directed: only a -> b
    assert.are.equal(1, g:edge_count())
    assert.is_false(g:remove_edge(a, b))
    n = 0
    for x, cost in g:neighbors(b) do
      n = n + 1
      assert.are.equal(a, x)
      assert.are.equal(7, cost)
    end
    assert.are.equal(1, n)
    assert.is_true(g:remove_edge(b, a))
    assert.are.equal(0, g:edge_count())
    g:close()
  end)

  it("disabled nodes are never entered nor left; enabling restores them", function()
    local g = new_graph(false)
    for i = 1, 4 do g:add_node(i, 0) end
    g:add_edge(1, 2); g:add_edge(2, 3); g:add_edge(3, 4); g:add_edge(1, 4, 10)
    assert.are.equal(3, assert(g:find(1, 4)):cost())
    g:disable_node(2)
    assert.are.equal(10, assert(g:find(1, 4)):cost())
    local p, msg, code = g:find(2, 4)
    assert.is_nil(p); assert.are.equal("blocked", code); assert.are.equal("string", type(msg))
    p, msg, code = g:find(1, 2)
    assert.is_nil(p); assert.are.equal("blocked", code, msg)
    assert.are.equal(4, g:node_count())
    g:enable_node(2)
    assert.are.equal(3, assert(g:find(1, 4)):cost())
    g:disable_node(4)
    assert.are.equal("blocked", select(3, g:find(1, 4)))
    assert.are.equal("blocked", select(3, g:find(1, { goals = { 4 } })))
    g:close()
  end)

  it("remove_node removes the node and its edges; other ids stay valid", function()
    local g = new_graph(true)
    for i = 1, 5 do g:add_node(i, i) end
    g:add_edge(1, 2); g:add_edge(2, 3); g:add_edge(3, 2); g:add_edge(4, 2); g:add_edge(4, 5)
    assert.are.equal(5, g:edge_count())
    g:remove_node(2)
    assert.are.equal(4, g:node_count())
    assert.are.equal(1, g:edge_count())
    assert.are.equal(6, g:add_node(0, 0)) -- ids are never reused
    local p, msg, code = g:find(1, 3)
    assert.is_nil(p); assert.are.equal("no_path", code, msg)
    assert.are.equal(math.sqrt(2), assert(g:find(4, 5)):cost())
    local rm = "node 2 was removed"
    H.checkerr("bad argument #1 to 'find' (" .. rm .. ")", g.find, g, 2, 3)
    H.checkerr("bad argument #2 to 'find' (" .. rm .. ")", g.find, g, 3, 2)
    H.checkerr("bad argument #1 to 'add_edge' (" .. rm .. ")", g.add_edge, g, 2, 3, 1)
    H.checkerr("bad argument #2 to 'add_edge' (" .. rm .. ")", g.add_edge, g, 3, 2, 1)
    H.checkerr("bad argument #1 to 'remove_edge' (" .. rm .. ")", g.remove_edge, g, 2, 3)
    H.checkerr("bad argument #1 to 'set_edge_cost' (" .. rm .. ")", g.set_edge_cost, g, 2, 3, 1)
    H.checkerr("bad argument #1 to 'disable_node' (" .. rm .. ")", g.disable_node, g, 2)
    H.checkerr("bad argument #1 to 'enable_node' (" .. rm .. ")", g.enable_node, g, 2)
    H.checkerr("bad argument #1 to 'remove_node' (" .. rm .. ")", g.remove_node, g, 2)
    H.checkerr("bad argument #1 to 'neighbors' (" .. rm .. ")", g.neighbors, g, 2)
    H.checkerr("bad argument #1 to 'position' (" .. rm .. ")", g.position, g, 2)
    g:close()
  end)

  it("rejects bad arguments", function()
    local g = new_graph(false)
    local a, b, nopos = g:add_node(0, 0), g:add_node(1, 0), g:add_node()
    local same = g:add_node(0, 0)
    H.checkerr("bad argument #1 to 'add_edge' (unknown node 7)", g.add_edge, g, 7, a, 1)
    H.checkerr("bad argument #2 to 'add_edge' (unknown node 7)", g.add_edge, g, a, 7, 1)
    for _, bad in ipairs({ 0, -1, 1.5, NAN, INF, "1", {}, true }) do
      H.checkerr_fn("add_edge", 1, g.add_edge, g, bad, a, 1)
      H.checkerr_fn("add_edge", 2, g.add_edge, g, a, bad, 1)
      H.checkerr_fn("find", 1, g.find, g, bad, a)
      H.checkerr_fn("find", 2, g.find, g, a, bad)
      H.checkerr_fn("disable_node", 1, g.disable_node, g, bad)
      H.checkerr_fn("position", 1, g.position, g, bad)
      H.checkerr_fn("neighbors", 1, g.neighbors, g, bad)
      H.checkerr_fn("remove_node", 1, g.remove_node, g, bad)
    end
    H.checkerr_fn("add_edge", 1, g.add_edge, g)
    H.checkerr_fn("add_edge", 2, g.add_edge, g, a)
    H.checkerr_fn("add_edge", nil, g.add_edge, g, a, a, 1)           -- a loop
    H.checkerr_fn("add_edge", nil, g.add_edge, g, a, nopos)          -- no default cost
    H.checkerr_fn("add_edge", nil, g.add_edge, g, nopos, a)
    H.checkerr_fn("add_edge", nil, g.add_edge, g, a, same)           -- default cost 0
    for _, bad in ipairs({ 0, -1, -0.0, NAN, INF, -INF, "1", {}, true }) do
      H.checkerr_fn("add_edge", 3, g.add_edge, g, a, b, bad)
    end
    g:add_edge(a, b, 1)
    for _, bad in ipairs({ 0, -1, NAN, INF, "1", {}, nil }) do
      H.checkerr_fn("set_edge_cost", 3, g.set_edge_cost, g, a, b, bad)
    end
    H.checkerr_fn("set_edge_cost", nil, g.set_edge_cost, g, a, nopos, 1) -- no such edge
    for _, bad in ipairs({ "1", {}, true, NAN, INF }) do
      H.checkerr_fn("add_node", 1, g.add_node, g, bad, 0)
      H.checkerr_fn("add_node", 2, g.add_node, g, 0, bad)
      H.checkerr_fn("add_node", 3, g.add_node, g, 0, 0, bad)
    end
    H.checkerr_fn("add_node", 2, g.add_node, g, 0)                    -- x without y
    H.checkerr("bad argument #3 to 'find' (unknown option 'wieght')", g.find, g, a, b, { wieght = 2 })
    H.checkerr("bad argument #3 to 'find' (option 'algorithm': invalid value 'fast')", g.find, g, a, b,
      { algorithm = "fast" })
    H.checkerr_fn("find", 3, g.find, g, a, b, { heuristic = "octile" })
    H.checkerr_fn("find", 3, g.find, g, a, b, { weight = 0.5 })
    H.checkerr_fn("find", 3, g.find, g, a, b, { cost = 1 })
    H.checkerr_fn("find", 3, g.find, g, a, b, { within = -1 })
    H.checkerr_fn("find", 2, g.find, g, a, { goals = {} })
    H.checkerr_fn("find", 2, g.find, g, a, { goals = { 99 } })
    H.checkerr_fn("find", 3, g.find, g, a, b, "fast")
    H.checkerr_prefix("calling 'find' on bad self", g.find, {}, a, b)
    H.checkerr_prefix("calling 'add_node' on bad self", g.add_node, astar.grid(2, 2), 0, 0)
    H.checkerr_fn("graph", 1, astar.graph, 5)
    H.checkerr_fn("graph", 1, astar.graph, { directed = "yes" })
    -- after all that the graph is intact
    assert.are.equal(4, g:node_count())
    assert.are.equal(1, g:edge_count())
    assert.are.equal(1, assert(g:find(a, b)):cost())
    g:close()
  end)

  it("editing the graph while iterating over neighbors raises instead of reading freed memory", function()
    local function star()
      local g = new_graph(false)
      for i = 1, 5 do g:add_node(i, 0) end
      for i = 2, 5 do g:add_edge(1, i) end
      return g
    end
    for _, edit in ipairs({
      function(g) for k = 1, 100 do g:add_edge(1, g:add_node(k, 1)) end end,
      function(g, b) g:remove_edge(1, b) end,
      function(g) g:remove_node(1) end,
      function(g) g:close() end,
    }) do
      local g = star()
      local ok = pcall(function()
        for b in g:neighbors(1) do
          edit(g, b)
          collectgarbage()
        end
      end)
      assert.is_false(ok, "the iteration went on after an edit")
      pcall(g.close, g)
    end
    -- the iterator keeps its graph alive
    local it, st, c0
    do
      local g = star()
      it, st, c0 = g:neighbors(1)
    end
    collectgarbage(); collectgarbage()
    local b, cost = it(st, c0)
    assert.is_truthy(b == 2 or b == 3 or b == 4 or b == 5)
    assert.is_true(H.close(b - 1, cost))
  end)

  it("algorithms on a small hand-made graph", function()
    --   1 --1-- 2 --1-- 3
    --   |               |
    --   +-------5-------+        4 isolated
    local g = new_graph(false)
    for _ = 1, 4 do g:add_node() end
    g:add_edge(1, 2, 1); g:add_edge(2, 3, 1); g:add_edge(1, 3, 5)
    for _, alg in ipairs({ "astar", "dijkstra", "bidirectional" }) do
      local p = assert(g:find(1, 3, { algorithm = alg }))
      assert.are.same({ 1, 2, 3 }, H.path_ids(p))
      assert.are.equal(2, p:cost())
      assert.are.equal(alg, p:stats().algorithm)
    end
    local p = assert(g:find(1, 3, { algorithm = "bfs" }))
    assert.are.same({ 1, 3 }, H.path_ids(p))
    assert.are.equal(5, p:cost())
    p = assert(g:find(2, 2))
    assert.are.equal(1, #p)
    assert.are.equal(0, p:cost())
    local _, msg, code = g:find(1, 4)
    assert.are.equal("no_path", code)
    assert.are.equal("string", type(msg))
    _, _, code = g:find(1, 4, { algorithm = "bidirectional" })
    assert.are.equal("no_path", code)
    g:close()
  end)
end)

---------------------------------------------------------------------------------------------------

describe("graph callbacks", function()
  local function small()
    local g = new_graph(true)
    for i = 1, 30 do g:add_node(i % 6, floor(i / 6)) end
    for i = 1, 30 do
      if i % 6 ~= 5 and i < 30 then g:add_edge(i, i + 1) end
      if i + 6 <= 30 then g:add_edge(i, i + 6) end
      if i > 1 then g:add_edge(i, i - 1, 3) end
    end
    return g
  end

  it("errors pass through unchanged and the graph answers the next query", function()
    local g = small()
    local ref = assert(g:find(1, 30)):cost()
    for _, which in ipairs({ "cost", "heuristic" }) do
      local n = 0
      assert(g:find(1, 30, { [which] = function(_, _, base) n = n + 1 return which == "cost" and base or 0 end }))
      assert.is_true(n > 3)
      for _, at in ipairs({ 1, floor(n / 2), n }) do
        for _, v in ipairs({ {}, "s", 3 }) do
          local k = 0
          H.checkerr_value(v, g.find, g, 1, 30, { [which] = function(_, _, base)
            k = k + 1
            if k == at then error(v, 0) end
            return which == "cost" and base or 0
          end })
          assert.are.equal(ref, assert(g:find(1, 30)):cost())
          g:add_edge(1, 2) -- the graph may be edited again
        end
      end
    end
    g:close()
  end)

  it("may not yield, search, edit or close the graph", function()
    local g = small()
    local ref = assert(g:find(1, 30)):cost()
    local ok, err = pcall(coroutine.wrap(function()
      return g:find(1, 30, { cost = function(_, _, b) coroutine.yield() return b end })
    end))
    assert.is_false(ok)
    assert.is_true(H.is_yield_error(err), tostring(err))
    assert.are.equal(ref, assert(g:find(1, 30)):cost())
    H.checkerr_prefix("cannot search", g.find, g, 1, 30, { cost = function() return g:find(1, 2) end })
    H.checkerr_prefix("cannot edit the graph", g.find, g, 1, 30, { cost = function() g:add_edge(1, 3, 1) end })
    H.checkerr_prefix("cannot edit the graph", g.find, g, 1, 30, { cost = function() g:add_node(1, 1) end })
    H.checkerr_prefix("cannot edit the graph", g.find, g, 1, 30, { cost = function() g:remove_edge(1, 2) end })
    H.checkerr_prefix("cannot edit the graph", g.find, g, 1, 30, { cost = function() g:set_edge_cost(1, 2, 5) end })
    H.checkerr_prefix("cannot edit the graph", g.find, g, 1, 30, { cost = function() g:disable_node(2) end })
    H.checkerr_prefix("cannot edit the graph", g.find, g, 1, 30, { cost = function() g:enable_node(2) end })
    H.checkerr_prefix("cannot edit the graph", g.find, g, 1, 30, { cost = function() g:remove_node(2) end })
    H.checkerr_prefix("cannot close the graph", g.find, g, 1, 30, { heuristic = function() g:close() end })
    -- reading is fine
    local p = assert(g:find(1, 30, { cost = function(a, b, base)
      local x = g:position(a)
      for _ in g:neighbors(b) do end
      assert(g:node_count() == 30 and x)
      return base
    end }))
    assert.are.equal(ref, p:cost())
    assert.are.equal(30, g:node_count())
    assert.are.equal(ref, assert(g:find(1, 30)):cost())
    g:close()
  end)

  it("invalid results name the callback and the value", function()
    local g = small()
    for _, v in ipairs({ -1, 0, NAN, INF, "x", true }) do
      local ok, err = pcall(g.find, g, 1, 30, { cost = function() return v end })
      assert.is_false(ok)
      assert.is_truthy(type(err) == "string" and err:find("cost callback returned ", 1, true) == 1, tostring(err))
      if type(v) == "number" then
        local vs = v ~= v and "nan" or v == INF and "inf" or ("%d"):format(v)
        assert.is_truthy(err:find("cost callback returned " .. vs .. " ", 1, true) == 1, err)
      end
    end
    for _, v in ipairs({ -1, NAN, INF, "x", nil }) do
      local ok, err = pcall(g.find, g, 1, 30, { heuristic = function() return v end })
      assert.is_false(ok)
      assert.is_truthy(type(err) == "string" and err:find("heuristic callback returned ", 1, true) == 1, tostring(err))
    end
    assert.is_not_nil(g:find(1, 30))
    g:close()
  end)
end)

---------------------------------------------------------------------------------------------------

describe("graph lifetimes", function()
  it("close frees the graph; later use raises; paths outlive it", function()
    local g = new_graph(false)
    g:add_node(0, 0); g:add_node(3, 4); g:add_edge(1, 2)
    local p = assert(g:find(1, 2))
    g:close()
    g:close() -- idempotent
    for _, call in ipairs({
      { "find", 1, 2 }, { "add_node", 0, 0 }, { "add_edge", 1, 2 }, { "remove_edge", 1, 2 },
      { "set_edge_cost", 1, 2, 1 }, { "disable_node", 1 }, { "enable_node", 1 }, { "remove_node", 1 },
      { "neighbors", 1 }, { "node_count" }, { "edge_count" }, { "position", 1 },
    }) do
      H.checkerr("attempt to use a closed graph", g[call[1]], g, H.unpack(call, 2))
    end
    assert.are.equal(5, p:cost())
    assert.are.same({ 1, 2 }, H.path_ids(p))
    assert.are.same({ 0, 0, 3, 4 }, p:positions())
  end)

  it("garbage collection frees graphs; paths stay valid", function()
    local paths = {}
    for i = 1, 200 do
      local g = new_graph(i % 2 == 0)
      for k = 1, 50 do g:add_node(k, 0) end
      for k = 1, 49 do g:add_edge(k, k + 1) end
      paths[#paths + 1] = assert(g:find(1, 50))
    end
    collectgarbage()
    collectgarbage()
    for _, p in ipairs(paths) do
      assert.are.equal(50, #p)
      assert.are.equal(49, p:cost())
      assert.are.equal(50, p:get(-1))
    end
    if _VERSION == "Lua 5.4" then
      local ok = load([[
        local astar = ...
        local p
        do
          local g <close> = astar.graph()
          g:add_node(0, 0); g:add_node(0, 1); g:add_edge(1, 2)
          p = g:find(1, 2)
        end
        return p
      ]])
      local p = ok(astar)
      assert.are.equal(1, p:cost())
    end
  end)
end)

---------------------------------------------------------------------------------------------------

describe("a large graph", function()
  it("100 000 nodes and 200 000 edges are built from Lua in well under a second", function()
    local W, HH = 400, 250
    local t0 = os.clock()
    local g = new_graph(false)
    for y = 1, HH do
      for x = 1, W do g:add_node(x, y) end
    end
    for y = 1, HH do
      for x = 1, W do
        local id = (y - 1) * W + x
        if x < W then g:add_edge(id, id + 1) end
        if y < HH then g:add_edge(id, id + W) end
      end
    end
    local t = os.clock() - t0
    assert.are.equal(W * HH, g:node_count())
    assert.are.equal((W - 1) * HH + W * (HH - 1), g:edge_count())
    assert.is_true(t < 2, ("building took %.2f s"):format(t))
    local p = assert(g:find(1, W * HH))
    assert.are.equal(W - 1 + HH - 1, p:cost())
    assert.are.equal(W + HH - 1, #p)
    p = assert(g:find(1, W * HH, { algorithm = "bidirectional" }))
    assert.are.equal(W - 1 + HH - 1, p:cost())
    g:close()
  end)
end)
