-- The scheduler: astar.scheduler{budget = n}, scheduler:request / update / pending / await,
-- request:cancel, and astar.await.
--
-- What an update spends is measured through the queries themselves: requests are made with
-- queries the spec creates (scheduler:request(q, callback)), and the sum of the moves of their
-- stats().expanded over one update is what that update spent. Results are compared with grid:find
-- on the same grid at the same moment (the README: callbacks get "what find returns") and with
-- the independent Dijkstra of spec/helper.lua.

local astar = require "astar"
local H = require "spec.helper"

local unpack = H.unpack
local COSTS = { 1, 1, 1, 2, 3, 0.5, 1.25 }
local MAX_REPORT = tonumber(os.getenv("ASTAR_MAX_REPORT") or "") or 6

local function report(fails, total) return H.report(fails, total, MAX_REPORT) end

local open_cells = H.open_cells

-- The reference for find(sx, sy, gx, gy, {diagonal = pol}): "blocked", "no_path" or the optimum.
local function ref_outcome(cells, w, h, sx, sy, gx, gy, pol)
  if not (H.walk(cells, w, h, sx, sy) and H.walk(cells, w, h, gx, gy)) then return "blocked" end
  return H.dijkstra(cells, w, h, sx, sy, gx, gy, pol) or "no_path"
end

-- nil if the packed result matches the reference outcome (default A*, so the optimum), else why.
local function check_ref(cells, w, h, a, res)
  local want = ref_outcome(cells, w, h, a.sx, a.sy, a.gx, a.gy, a.opts.diagonal or "no_corner_cutting")
  local p, msg, code = res[1], res[2], res[3]
  if type(want) == "string" then
    if p ~= nil or code ~= want or type(msg) ~= "string" then
      return ("expected nil, msg, %q, got %s, %s, %s"):format(want, tostring(p), tostring(msg), tostring(code))
    end
    return nil
  end
  if p == nil then
    return ("expected a path of cost %.17g, got nil, %s, %s"):format(want, tostring(msg), tostring(code))
  end
  local ok, sum = pcall(H.check_path, cells, w, h, p, a.sx, a.sy, a.gx, a.gy, a.opts.diagonal)
  if not ok then return "illegal path: " .. tostring(sum) end
  if not (H.close(sum, want) and H.close(p:cost(), want)) then
    return ("cost %.17g (steps %.17g), optimal %.17g"):format(p:cost(), sum, want)
  end
  return nil
end

-- A list of requests that need many expansions each: starts along the left edge of a big open
-- grid, goals along the right edge.
local function long_requests(grid, n, size)
  local qs = {}
  for i = 1, n do
    local y = 1 + (i * 37) % size
    qs[i] = grid:query(1, y, size, size + 1 - y, { algorithm = "dijkstra" })
  end
  return qs
end

-- Runs one update and measures it through the queries: returns the number the update returned,
-- the total spent, and each query's expansions in that update.
local function measured_update(s, qs)
  local before = {}
  for i, q in ipairs(qs) do before[i] = q:stats().expanded end
  local ended = s:update()
  local total, each = 0, {}
  for i, q in ipairs(qs) do
    each[i] = q:stats().expanded - before[i]
    total = total + each[i]
  end
  return ended, total, each
end

---------------------------------------------------------------------------------------------------

describe("scheduler:update", function()
  it("never spends more than its budget, and every request progresses within ceil(n/budget) + 1 updates",
    function()
      local size = 220
      local grid = astar.grid(size, size)
      local fails, total = {}, 0
      for _, case in ipairs({ { budget = 100, n = 50 }, { budget = 10, n = 50 }, { budget = 7, n = 23 },
        { budget = 1, n = 5 }, { budget = 1000, n = 3 }, { budget = 64, n = 64 } }) do
        local s = astar.scheduler { budget = case.budget }
        local qs = long_requests(grid, case.n, size)
        for _, q in ipairs(qs) do s:request(q, function() end) end
        local bound = math.ceil(case.n / case.budget) + 1
        local last = {}
        for i = 1, case.n do last[i] = 0 end
        for u = 1, 40 do
          total = total + 1
          local _, spent, each = measured_update(s, qs)
          if spent > case.budget then
            fails[#fails + 1] = ("budget %d, %d requests: update %d spent %d"):format(case.budget, case.n, u, spent)
          end
          for i = 1, case.n do
            if each[i] > 0 then last[i] = u end
            if u - last[i] >= bound then
              fails[#fails + 1] = ("budget %d, %d requests: request %d made no progress in updates %d..%d"):format(
                case.budget, case.n, i, last[i] + 1, u)
              last[i] = u
            end
          end
        end
        assert.are.equal(case.n, s:pending())
        for _, q in ipairs(qs) do q:cancel() end
      end
      grid:close()
      report(fails, total)
    end)

  it("never spends more than its budget while requests of all lengths end and new ones arrive", function()
    local rng = H.rng(8080)
    local w, h = 80, 80
    local cells = H.random_cells(rng, w, h, 0.25, COSTS)
    local open = open_cells(cells, w, h)
    local grid = astar.grid.from_table(cells)
    local fails, total, ended_total = {}, 0, 0
    for _ = 1, 8 do
      local budget = rng.int(1, 500)
      local s = astar.scheduler { budget = budget }
      local qs = {}
      local function add()
        local a, b = open[rng.int(1, #open)], open[rng.int(1, #open)]
        local q = grid:query(a[1], a[2], b[1], b[2], { diagonal = rng.pick(H.POLICIES) })
        qs[#qs + 1] = q
        s:request(q, function() ended_total = ended_total + 1 end)
      end
      for _ = 1, rng.int(1, 60) do add() end
      for _ = 1, 150 do
        total = total + 1
        local _, spent = measured_update(s, qs)
        if spent > budget then fails[#fails + 1] = ("budget %d: an update spent %d"):format(budget, spent) end
        if rng.float() < 0.3 then add() end
      end
      for _, q in ipairs(qs) do q:cancel() end
    end
    grid:close()
    report(fails, total)
    assert.is_true(ended_total > 100, "requests that ended: " .. ended_total)
  end)

  it("shares the budget equally between live requests that all need more than their share", function()
    local size = 220
    local grid = astar.grid(size, size)
    for _, case in ipairs({ { budget = 1000, n = 10 }, { budget = 1000, n = 3 }, { budget = 100, n = 50 } }) do
      local s = astar.scheduler { budget = case.budget }
      local qs = long_requests(grid, case.n, size)
      for _, q in ipairs(qs) do s:request(q, function() end) end
      local _, spent, each = measured_update(s, qs)
      local lo, hi = math.huge, 0
      for i = 1, case.n do
        lo, hi = math.min(lo, each[i]), math.max(hi, each[i])
      end
      assert.is_true(hi - lo <= 1, ("budget %d over %d requests: shares from %d to %d (spent %d)"):format(
        case.budget, case.n, lo, hi, spent))
      assert.is_true(spent >= case.budget - case.n, ("budget %d over %d requests: spent only %d"):format(
        case.budget, case.n, spent))
      for _, q in ipairs(qs) do q:cancel() end
    end
    grid:close()
  end)

  it("calls each callback once with exactly what find returns (the optimum), in random traffic with " ..
    "requests added along the way", function()
    local rng = H.rng(31)
    local fails, total = {}, 0
    local outcomes = { found = 0, blocked = 0, no_path = 0 }
    for _ = 1, 25 do
      local w, h = rng.int(10, 45), rng.int(10, 45)
      local cells = H.random_cells(rng, w, h, rng.pick({ 0.1, 0.25, 0.4 }), COSTS)
      local open = open_cells(cells, w, h)
      local grid = astar.grid.from_table(cells)
      local s = astar.scheduler { budget = rng.int(20, 300) }
      local reqs = {}
      local added = 0                      -- requests added by callbacks during the current update
      local add
      function add()
        local a = {}
        local sc = rng.float() < 0.9 and #open > 0 and open[rng.int(1, #open)] or { rng.int(1, w), rng.int(1, h) }
        local gc = rng.float() < 0.9 and #open > 0 and open[rng.int(1, #open)] or { rng.int(1, w), rng.int(1, h) }
        a.sx, a.sy, a.gx, a.gy = sc[1], sc[2], gc[1], gc[2]
        a.opts = { diagonal = rng.pick(H.POLICIES) }
        a.calls = 0
        local function cb(...)
          a.calls = a.calls + 1
          a.got = H.pack(...)
          -- the same moment: the grid is as the search saw it
          a.want = H.pack(grid:find(a.sx, a.sy, a.gx, a.gy, a.opts))
          if rng.float() < 0.15 and #reqs < 80 then   -- a new request from inside a callback
            add()
            added = added + 1
          end
        end
        if rng.float() < 0.5 then
          a.q = grid:query(a.sx, a.sy, a.gx, a.gy, a.opts)
          a.handle = s:request(a.q, cb)
        else
          a.handle = s:request(grid, a.sx, a.sy, a.gx, a.gy, a.opts, cb)
        end
        reqs[#reqs + 1] = a
      end
      for _ = 1, rng.int(1, 30) do add() end
      local updates = 0
      while s:pending() > 0 and updates < 100000 do
        local pending = s:pending()
        added = 0
        local ended = s:update()
        updates = updates + 1
        if type(ended) ~= "number" or s:pending() ~= pending - ended + added then
          fails[#fails + 1] = ("update returned %s; pending went from %d to %d (%d added)"):format(
            tostring(ended), pending, s:pending(), added)
        end
        if updates < 40 and rng.float() < 0.2 then for _ = 1, rng.int(1, 4) do add() end end
      end
      for _, a in ipairs(reqs) do
        total = total + 1
        local err
        if a.calls ~= 1 then
          err = ("the callback was called %d times"):format(a.calls)
        else
          err = H.result_diff(a.want, a.got)
          err = err and ("callback got something else than find: " .. err) or check_ref(cells, w, h, a, a.got)
          outcomes[a.got[3] or "found"] = (outcomes[a.got[3] or "found"] or 0) + 1
        end
        if err then
          fails[#fails + 1] = ("%s\n(%d,%d)->(%d,%d) %s on\n%s"):format(err, a.sx, a.sy, a.gx, a.gy,
            a.opts.diagonal, H.fmt_grid(cells, w, h))
        end
      end
      grid:close()
    end
    report(fails, total)
    assert.is_true(outcomes.found > 100 and outcomes.blocked > 5 and outcomes.no_path > 5,
      ("outcomes: %d found, %d blocked, %d no_path"):format(outcomes.found, outcomes.blocked, outcomes.no_path))
  end)

  it("restarts requests after edits between updates: callbacks get the optimum of the grid as it is",
    function()
      local rng = H.rng(64)
      local fails, total = {}, 0
      for _ = 1, 10 do
        local w, h = 30, 30
        local cells = H.random_cells(rng, w, h, 0.2, COSTS)
        local grid = astar.grid.from_table(cells)
        local s = astar.scheduler { budget = rng.int(5, 60) }
        local n = 0
        for _ = 1, 20 do
          local a = { sx = rng.int(1, w), sy = rng.int(1, h), gx = rng.int(1, w), gy = rng.int(1, h),
            opts = { diagonal = rng.pick(H.POLICIES) } }
          n = n + 1
          s:request(grid, a.sx, a.sy, a.gx, a.gy, a.opts, function(...)
            total = total + 1
            local err = check_ref(cells, w, h, a, H.pack(...))
            if err then fails[#fails + 1] = err .. "\n" .. H.fmt_grid(cells, w, h) end
          end)
        end
        local guard = 0
        while s:pending() > 0 and guard < 100000 do
          guard = guard + 1
          s:update()
          if rng.float() < 0.3 then
            local x, y, v = rng.int(1, w), rng.int(1, h), rng.pick({ false, 1, 2, 0.5 })
            grid:set(x, y, v)
            cells[y][x] = v
          end
        end
        grid:close()
      end
      report(fails, total)
      assert.are.equal(200, total)
    end)

  it("ends stale requests with find's 'stale' triple; a finished query given to request calls back at once",
    function()
      local grid = astar.grid(50, 50)
      local s = astar.scheduler { budget = 10 }
      local got = {}
      s:request(grid, 1, 1, 50, 50, { on_change = "stale", algorithm = "astar" },
        function(...) got.stale = H.pack(...) end)
      local done = grid:query(1, 1, 3, 3)
      assert.are.equal("found", (done:step(100)))
      s:request(done, function(...) got.done = H.pack(...) end)
      local blocked = grid:query(1, 1, 2, 2)
      s:update()
      assert.is_nil(got.stale)
      assert.is_not_nil(got.done)
      assert.is_nil(H.result_diff(H.pack(grid:find(1, 1, 3, 3)), got.done))
      grid:set(10, 10, false)
      grid:set(2, 2, false)
      s:request(blocked, function(...) got.blocked = H.pack(...) end)
      while s:pending() > 0 do s:update() end
      assert.are.same({ n = 3, nil, "the map changed during the query", "stale" }, got.stale)
      assert.are.same({ n = 3, nil, "goal (2, 2) is blocked", "blocked" }, got.blocked)
      grid:close()
    end)
end)

describe("scheduler with graphs", function()
  it("serves graph:query requests too: each callback gets find's result and Dijkstra's optimum", function()
    local rng = H.rng(909)
    local fails, total, found = {}, 0, 0
    for _ = 1, 6 do
      local n = rng.int(20, 120)
      local ops, M = H.random_graph(rng, { n = n, m = 3 * n, p_pos = 0.9, p_remove_edge = 0.1,
        p_set_cost = 0.1, p_disable = 0.05 })
      local g = astar.graph { directed = M.directed }
      for _, op in ipairs(ops) do
        if op[1] == "add_node" then
          if op[2] then g:add_node(op[2], op[3], op[4]) else g:add_node() end
        elseif op[1] == "add_edge" then
          g:add_edge(op[2], op[3], op[4])
        elseif op[1] == "remove_edge" then
          g:remove_edge(op[2], op[3])
        elseif op[1] == "set_edge_cost" then
          g:set_edge_cost(op[2], op[3], op[4])
        elseif op[1] == "disable_node" then
          g:disable_node(op[2])
        end
      end
      local s = astar.scheduler { budget = rng.int(1, 40) }
      for _ = 1, 25 do
        local a, b = rng.int(1, n), rng.int(1, n)
        s:request(g, a, b, function(...)
          total = total + 1
          local got = H.pack(...)
          local err = H.result_diff(H.pack(g:find(a, b)), got)
          local want = M:usable(a) and M:usable(b) and H.graph_dijkstra(M, a)[b]
          if not err and want then
            found = found + 1
            local ok, cost = pcall(H.check_graph_path, M, H.path_ids(got[1]), a, b)
            if not ok then
              err = "illegal path: " .. tostring(cost)
            elseif not (H.close(cost, want) and H.close(got[1]:cost(), want)) then
              err = ("cost %.17g, optimal %.17g"):format(got[1]:cost(), want)
            end
          elseif not err and got[1] ~= nil then
            err = "a path where the reference has none"
          end
          if err then fails[#fails + 1] = ("graph %d -> %d: %s"):format(a, b, err) end
        end)
      end
      local guard = 0
      while s:pending() > 0 and guard < 100000 do
        guard = guard + 1
        s:update()
      end
      g:close()
    end
    report(fails, total)
    assert.are.equal(150, total)
    assert.is_true(found > 50, "paths found: " .. found)
  end)
end)

describe("request:cancel", function()
  it("cancelled requests never call back, also when cancelled from another request's callback", function()
    local rng = H.rng(17)
    local fails, total = {}, 0
    for round = 1, 15 do
      local size = 60
      local grid = astar.grid(size, size)
      grid:fill(30, 5, 1, 50, false)
      local s = astar.scheduler { budget = rng.int(1, 400) }
      local reqs = {}
      local n = rng.int(2, 40)
      for i = 1, n do
        local r = { calls = 0, cancelled = false }
        local y = rng.int(1, size)
        local q = grid:query(1, y, size, size + 1 - y)
        r.q = q
        r.handle = s:request(q, function()
          r.calls = r.calls + 1
          if r.cancelled then fails[#fails + 1] = ("round %d: request %d called back after cancel"):format(round, i) end
          -- cancel a random other request from inside this callback
          if rng.float() < 0.5 then
            local o = reqs[rng.int(1, n)]
            if o.calls == 0 then o.cancelled = true end
            o.handle:cancel()
          end
        end)
        reqs[i] = r
      end
      local guard = 0
      while s:pending() > 0 and guard < 1000000 do
        guard = guard + 1
        s:update()
        if rng.float() < 0.1 then
          local o = reqs[rng.int(1, n)]
          if o.calls == 0 then o.cancelled = true end
          o.handle:cancel()
          o.handle:cancel()                -- idempotent
        end
      end
      local live = 0
      for i, r in ipairs(reqs) do
        total = total + 1
        if r.cancelled then
          if r.calls ~= 0 then
            fails[#fails + 1] = ("round %d: cancelled request %d was called %d times"):format(round, i, r.calls)
          elseif r.q:stats().status ~= "cancelled" then
            fails[#fails + 1] = ("round %d: cancelled request %d left its query %s"):format(round, i,
              r.q:stats().status)
          end
        elseif r.calls ~= 1 then
          fails[#fails + 1] = ("round %d: request %d was called %d times"):format(round, i, r.calls)
        end
        if r.calls == 0 and not r.cancelled then live = live + 1 end
      end
      if s:pending() ~= 0 or live ~= 0 then
        fails[#fails + 1] = ("round %d: %d pending, %d never answered"):format(round, s:pending(), live)
      end
      grid:close()
    end
    report(fails, total)
  end)

  it("before any update: pending drops, the query is cancelled; after the end: nothing happens", function()
    local grid = astar.grid(20, 20)
    local s = astar.scheduler { budget = 50 }
    local called = 0
    local q = grid:query(1, 1, 20, 20)
    local r1 = s:request(q, function() called = called + 1 end)
    local r2 = s:request(grid, 1, 1, 2, 2, function() called = called + 10 end)
    assert.are.equal(2, s:pending())
    r1:cancel()
    assert.are.equal(1, s:pending())
    assert.are.equal("cancelled", q:stats().status)
    assert.are.equal(1, s:update())
    assert.are.equal(10, called)
    r2:cancel()
    r1:cancel()
    assert.are.equal(0, s:pending())
    assert.are.equal(0, s:update())
    assert.are.equal(10, called)
    grid:close()
  end)
end)

describe("errors during update", function()
  it("a map callback error propagates unchanged; the request stays queued and later ends correctly",
    function()
      local grid = astar.grid(40, 40)
      local s = astar.scheduler { budget = 25 }
      local boom, calls = { "boom" }, 0
      local got = {}
      s:request(grid, 1, 1, 40, 40, { cost = function(_, _, _, _, base)
        calls = calls + 1
        if calls == 30 then error(boom) end
        return base
      end }, function(...) got.a = H.pack(...) end)
      s:request(grid, 40, 1, 1, 40, function(...) got.b = H.pack(...) end)
      local raised = 0
      local guard = 0
      while s:pending() > 0 and guard < 10000 do
        guard = guard + 1
        local pending = s:pending()
        local ok, err = pcall(s.update, s)
        if not ok then
          raised = raised + 1
          assert.is_true(rawequal(err, boom), "the error was changed: " .. tostring(err))
          assert.are.equal(pending, s:pending())
        end
      end
      assert.are.equal(1, raised)
      assert.is_true(H.close(got.a[1]:cost(), 39 * H.SQRT2))
      assert.is_true(H.close(got.b[1]:cost(), 39 * H.SQRT2))
      grid:close()
    end)

  it("an error in a request's own callback propagates; that callback is not called again", function()
    local grid = astar.grid(10, 10)
    local s = astar.scheduler { budget = 1000 }
    local bad, good = 0, 0
    s:request(grid, 1, 1, 3, 3, function() bad = bad + 1; error("callback failed", 0) end)
    s:request(grid, 1, 1, 10, 10, function() good = good + 1 end)
    H.checkerr("callback failed", s.update, s)
    while s:pending() > 0 do s:update() end
    assert.are.same({ 1, 1 }, { bad, good })
    grid:close()
  end)
end)

---------------------------------------------------------------------------------------------------

describe("coroutines", function()
  it("scheduler:await returns what find returns, for many coroutines awaiting in turn", function()
    local rng = H.rng(4)
    local w, h = 40, 40
    local cells = H.random_cells(rng, w, h, 0.25, COSTS)
    local open = open_cells(cells, w, h)
    local grid = astar.grid.from_table(cells)
    local s = astar.scheduler { budget = 97 }
    local fails, total = {}, 0
    local cos = {}
    for i = 1, 12 do
      cos[i] = coroutine.create(function()
        for _ = 1, 3 do
          local a = { opts = { diagonal = rng.pick(H.POLICIES) } }
          local sc = rng.float() < 0.9 and open[rng.int(1, #open)] or { rng.int(1, w), rng.int(1, h) }
          local gc = open[rng.int(1, #open)]
          a.sx, a.sy, a.gx, a.gy = sc[1], sc[2], gc[1], gc[2]
          local got = H.pack(s:await(grid, a.sx, a.sy, a.gx, a.gy, a.opts))
          total = total + 1
          local err = H.result_diff(H.pack(grid:find(a.sx, a.sy, a.gx, a.gy, a.opts)), got)
            or check_ref(cells, w, h, a, got)
          if err then fails[#fails + 1] = ("coroutine %d: %s"):format(i, err) end
        end
        return "done"
      end)
    end
    -- the game loop: one update a frame, then resume whoever is waiting
    local frames = 0
    repeat
      frames = frames + 1
      s:update()
      local alive = 0
      for _, co in ipairs(cos) do
        if coroutine.status(co) == "suspended" then
          local ok, err = coroutine.resume(co)
          if not ok then fails[#fails + 1] = "a coroutine failed: " .. tostring(err) end
        end
        if coroutine.status(co) ~= "dead" then alive = alive + 1 end
      end
    until alive == 0 or frames > 100000
    grid:close()
    report(fails, total)
    assert.are.equal(36, total)
  end)

  it("an error raised by the coroutine after await returns reaches the one who resumes it", function()
    local grid = astar.grid(30, 30)
    local s = astar.scheduler { budget = 100 }
    local boom = { "after await" }
    local co = coroutine.create(function()
      local p = s:await(grid, 1, 1, 30, 30)
      assert(p)
      error(boom)
    end)
    assert.is_true((coroutine.resume(co)))
    local seen
    for _ = 1, 1000 do
      local ok, err = pcall(s.update, s)
      assert.is_true(ok, "update raised: " .. tostring(err))
      if coroutine.status(co) == "suspended" then
        local rok, rerr = coroutine.resume(co)
        if not rok then seen = rerr end
      end
      if coroutine.status(co) == "dead" then break end
    end
    assert.is_true(rawequal(seen, boom), "the coroutine's error was lost; got " .. tostring(seen))
  end)

  it("astar.await steps a query, yielding between steps of at most `budget` expansions", function()
    local rng = H.rng(12)
    local w, h = 60, 60
    local cells = H.random_cells(rng, w, h, 0.2, COSTS)
    cells[1][1], cells[h][w] = 1, 1
    local grid = astar.grid.from_table(cells)
    for _, budget in ipairs({ false, 1, 37, 500 }) do
      local q = grid:query(1, 1, w, h, { algorithm = "dijkstra" })
      local co = coroutine.create(function()
        if budget then return astar.await(q, budget) end
        return astar.await(q)
      end)
      local limit = budget or 1000
      local res, yields
      yields = 0
      repeat
        local before = q:stats().expanded
        res = H.pack(coroutine.resume(co))
        assert.is_true(res[1], tostring(res[2]))
        assert.is_true(q:stats().expanded - before <= limit,
          ("one resume expanded %d > %d"):format(q:stats().expanded - before, limit))
        if coroutine.status(co) == "suspended" then yields = yields + 1 end
      until coroutine.status(co) == "dead"
      local got = { n = res.n - 1, unpack(res, 2, res.n) }
      assert.is_nil(H.result_diff(H.pack(grid:find(1, 1, w, h, { algorithm = "dijkstra" })), got))
      local want = H.dijkstra(cells, w, h, 1, 1, w, h, "no_corner_cutting")
      if want then assert.is_true(H.close(got[1]:cost(), want)) end
      local e = q:stats().expanded
      assert.is_true(yields >= math.ceil(e / limit) - 1 and yields <= math.ceil(e / limit),
        ("%d yields for %d expansions at %d a step"):format(yields, e, limit))
    end
    grid:close()
  end)
end)

describe("scheduler arguments", function()
  it("raise with exact messages", function()
    local grid = astar.grid(30, 30)
    H.checkerr("bad argument #1 to 'scheduler' (table expected, got nil)", astar.scheduler)
    H.checkerr("bad argument #1 to 'scheduler' (table expected, got number)", astar.scheduler, 5)
    H.checkerr("bad argument #1 to 'scheduler' (budget must be an integer >= 1, got nil)", astar.scheduler, {})
    H.checkerr("bad argument #1 to 'scheduler' (budget must be an integer >= 1, got 0)", astar.scheduler,
      { budget = 0 })
    H.checkerr("bad argument #1 to 'scheduler' (budget must be an integer >= 1, got 1.5)", astar.scheduler,
      { budget = 1.5 })
    H.checkerr("bad argument #1 to 'scheduler' (budget must be an integer >= 1, got inf)", astar.scheduler,
      { budget = math.huge })
    H.checkerr("bad argument #1 to 'scheduler' (budget must be an integer >= 1, got -3)", astar.scheduler,
      { budget = -3 })
    local s = astar.scheduler { budget = 10 }
    H.checkerr("bad argument #5 to 'request' (function expected, got number)", s.request, s, grid, 1, 1, 2, 2)
    H.checkerr("bad argument #6 to 'request' (function expected, got table)", s.request, s, grid, 1, 1, 2, 2, {})
    H.checkerr("bad argument #1 to 'request' (map or query expected, got table)", s.request, s, {}, function() end)
    H.checkerr("bad argument #2 to 'await' (budget must be an integer >= 1, got 0)", astar.await,
      grid:query(1, 1, 2, 2), 0)
    H.checkerr("bad argument #2 to 'await' (budget must be an integer >= 1, got 2.5)", astar.await,
      grid:query(1, 1, 2, 2), 2.5)
    assert.are.equal(0, s:pending())
    grid:close()
  end)

  it("await outside a coroutine raises the bare message, like every other error of the library", function()
    local grid = astar.grid(5, 5)
    local s = astar.scheduler { budget = 10 }
    H.checkerr("calling 'await' outside a coroutine", function()
      local p = s:await(grid, 1, 1, 5, 5)
      return p
    end)
    assert.are.equal(0, s:pending())
    grid:close()
  end)

  it("request with no arguments raises a bad-argument error naming 'request'", function()
    local s = astar.scheduler { budget = 10 }
    H.checkerr_fn("request", nil, s.request, s)
    assert.are.equal(0, s:pending())
  end)

  it("request counts the query's arguments as the caller sees them (the map is #1)", function()
    local grid = astar.grid(30, 30)
    local s = astar.scheduler { budget = 10 }
    H.checkerr("bad argument #2 to 'request' (x out of range: 0 not in [1, 30])",
      s.request, s, grid, 0, 1, 2, 2, function() end)
    assert.are.equal(0, s:pending())
    grid:close()
  end)

  it("astar.await checks its query argument", function()
    H.checkerr_fn("await", 1, astar.await, nil)
    H.checkerr_fn("await", 1, astar.await, {})
  end)

  it("print nan as 'nan' on every VM, as the library's C messages do", function()
    local grid = astar.grid(5, 5)
    H.checkerr("bad argument #1 to 'scheduler' (budget must be an integer >= 1, got nan)", astar.scheduler,
      { budget = 0 / 0 })
    H.checkerr("bad argument #2 to 'await' (budget must be an integer >= 1, got nan)", astar.await,
      grid:query(1, 1, 2, 2), 0 / 0)
    grid:close()
  end)
end)
