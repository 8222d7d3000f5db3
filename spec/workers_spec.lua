-- Worker threads (astar.batch, astar.workers): every answer against grid:find with the same
-- options (points, cost, code, message) on Moving AI maps and random grids, the costs against
-- the independent Dijkstra of spec/helper.lua; the pool's submit/poll/result/cancel/close,
-- stale results after edits (never a wrong path), collection with requests in flight, and
-- the errors. ASTAR_SPEC_SCALE scales the trials.

local astar = require "astar"
local H = require "spec.helper"

local MAX_REPORT = 6

-- A find/batch answer as text: the points and cost of a path, or the code and message.
local function answer(path, msg, code)
  if not path then return ("%s: %s"):format(tostring(code), tostring(msg)) end
  local s = ("%s cost %.17g [%s]"):format(path:stats().algorithm, path:cost(),
    table.concat(path:flat(), " "))
  if code then s = s .. (" %s: %s"):format(code, msg) end
  return s
end

-- The batch's answer i as find returns it.
local function batch_answer(paths, codes, msgs, i)
  local p = paths[i]
  if p == false then return answer(nil, msgs[i], codes[i]) end
  return answer(p, msgs[i], codes[i])
end

-- Checks the batch's answers to reqs on cells against the spec helper's Dijkstra: the cost
-- and the steps of each path, or "no_path" / "blocked" where there is none. Collects the
-- failures; returns the number of answers checked.
local function check_dijkstra(cells, w, h, diagonal, reqs, paths, codes, fails)
  for i, r in ipairs(reqs) do
    local want = H.dijkstra(cells, w, h, r[1], r[2], r[3], r[4], diagonal)
    local p = paths[i]
    local ok
    if want == nil then
      ok = p == false and (codes[i] == "no_path" or codes[i] == "blocked")
    else
      ok = p and H.close(p:cost(), want, 1e-9)
        and H.close(H.check_path(cells, w, h, p, r[1], r[2], r[3], r[4], diagonal), want, 1e-9)
    end
    if not ok then
      fails[#fails + 1] = ("%dx%d %s (%d, %d) -> (%d, %d): batch %s, Dijkstra %s\n%s"):format(
        w, h, diagonal, r[1], r[2], r[3], r[4], p and p:cost() or tostring(codes[i]),
        tostring(want), H.fmt_cells(cells, w, h))
    end
  end
  return #reqs
end

-- Compares astar.batch with grid:find for the requests, collecting failures.
local function compare_batch(grid, reqs, opts, threads, fails, label)
  local bopts = { threads = threads }
  for k, v in pairs(opts or {}) do bopts[k] = v end
  local paths, codes, msgs = astar.batch(grid, reqs, bopts)
  assert(#reqs == 0 or paths[#reqs] ~= nil, "a result is missing")
  for i, r in ipairs(reqs) do
    local want = answer(grid:find(r[1], r[2], r[3], r[4], opts))
    local got = batch_answer(paths, codes, msgs, i)
    if got ~= want then
      fails[#fails + 1] = ("%s request %d (%d, %d) -> (%d, %d):\n  batch %s\n  find  %s"):format(
        label, i, r[1], r[2], r[3], r[4], got:sub(1, 300), want:sub(1, 300))
    end
  end
  return paths, codes
end

describe("astar.batch", function()
  it("answers Moving AI scenarios as grid:find does, with 1, 2 and 3 threads", function()
    local dir = H.movingai_dir()
    if not dir then
      pending("benchmarks not found: set ASTAR_MOVINGAI or put them at ../shared/benchmarks/movingai")
      return
    end
    local maps = { "dao/arena2", "cities/Berlin_1_256", "bg512/AR0011SR", "rooms/32room_000",
      "random/random512-10-0", "mazes/maze512-1-0", "sc1/TheFrozenSea" }
    local per_map = math.min(H.trials(280), H.scen_limit() or math.huge)
    local fails, total = {}, 0
    for m, name in ipairs(maps) do
      local path = dir .. "/" .. name .. ".map"
      if H.file_exists(path) and H.file_exists(path .. ".scen") then
        local grid = assert(astar.grid.load_movingai(path))
        local scen = H.read_scen(path .. ".scen")
        -- mazes: short scenarios only (their long ones take A* a while)
        local stride = math.max(1, math.floor(#scen / per_map))
        local reqs = {}
        for i = 1, #scen, stride do
          local s = scen[i]
          if not name:find("maze") or s.bucket < 40 then
            reqs[#reqs + 1] = { s.sx, s.sy, s.gx, s.gy }
          end
        end
        local opts = ({ { algorithm = "astar" }, {}, { diagonal = "never" },
          { diagonal = "always" }, {}, { algorithm = "jps" }, { diagonal = "one_obstacle" } })[m]
        local t0 = os.clock()
        compare_batch(grid, reqs, opts, 1 + m % 3, fails, name)
        if os.getenv("WORKERS_TIMING") then print(name, #reqs, os.clock() - t0) end
        total = total + #reqs
        if m == 1 then                                -- JPS+ tables, prepared up front
          grid:prepare()
          local paths = compare_batch(grid, reqs, {}, 2, fails, name .. " prepared")
          assert.equal("jps+", paths[1]:stats().algorithm)
          total = total + #reqs
        end
        grid:close()
      end
    end
    assert.is_true(total >= 6 * per_map, "too few scenarios: " .. total)
    H.report(fails, total, MAX_REPORT)
  end)

  it("answers random grids as grid:find does, with every option workers run", function()
    local fails, total = {}, 0
    local rng = H.rng(1201)
    local ALGS = { "auto", "astar", "jps", "dijkstra", "bfs", "greedy", "theta", "lazy_theta" }
    for t = 1, H.trials(80) do
      local w, h = rng.int(1, 40), rng.int(1, 40)
      local costs = rng.pick({ { 1 }, { 1, 2, 5 }, { 0.5, 1 } })
      local cells = H.random_cells(rng, w, h, rng.pick({ 0, 0.1, 0.3, 0.45 }), costs)
      local grid = astar.grid.from_table(cells)
      local kind = rng.int(1, 6)
      if kind == 1 then grid:components() end         -- labels: find consults them
      if kind == 2 then grid:prepare(rng.pick(H.POLICIES)) end
      if kind == 3 and w > 1 then                     -- a link (ladder)
        grid:link(1, 1, w, h, rng.pick({ 0.5, 3 }))
      end
      local alg = rng.pick(ALGS)
      local opts = { algorithm = alg, diagonal = rng.pick(H.POLICIES) }
      if alg == "theta" or alg == "lazy_theta" then
        opts.heuristic = "euclidean"
      elseif alg ~= "jps" then
        if rng.float() < 0.3 then opts.weight = rng.pick({ 1, 1.5, 3 }) end
        if rng.float() < 0.3 then opts.partial = true end
        if rng.float() < 0.3 then opts.max_expansions = rng.int(0, 40) end
        if rng.float() < 0.2 then opts.within = rng.pick({ 0, 1.5, 3 }) end
      end
      if kind == 4 and alg ~= "jps" and alg ~= "theta" and alg ~= "lazy_theta" then
        grid:set_wrap(rng.pick({ "x", "y", "xy" }))
      end
      local reqs = {}
      for i = 1, 30 do reqs[i] = { rng.int(1, w), rng.int(1, h), rng.int(1, w), rng.int(1, h) } end
      compare_batch(grid, reqs, opts, rng.int(1, 4), fails, ("grid %d (%s)"):format(t, alg))
      total = total + #reqs
      grid:close()
    end
    H.report(fails, total, MAX_REPORT)
  end)

  it("finds the costs of the independent Dijkstra on random grids", function()
    local fails, total = {}, 0
    H.each_random_grid(1202, H.trials(60), 1, 30, { 0, 0.15, 0.3, 0.45 }, { 1, 2, 3 },
      function(rng, w, h, cells, grid)
        local diagonal = rng.pick(H.POLICIES)
        local reqs = {}
        for i = 1, 25 do reqs[i] = { rng.int(1, w), rng.int(1, h), rng.int(1, w), rng.int(1, h) } end
        local paths, codes = astar.batch(grid, reqs, { diagonal = diagonal, threads = 2 })
        total = total + check_dijkstra(cells, w, h, diagonal, reqs, paths, codes, fails)
      end)
    H.report(fails, total, MAX_REPORT)
  end)

  it("reads what terrain's boundary cells keep, as the Lua thread left it, through edits",
    function()
      -- grid:find jumps first (every other request) and fills the grid's cache of what each
      -- boundary cell keeps; the batch's jumps then read it, and never write it (make tsan:
      -- the other requests need what is not there yet); an edit forgets it around the cells
      -- it changes
      local fails, total = {}, 0
      local rng = H.rng(1207)
      for _ = 1, H.trials(12) do
        local w, h = rng.int(8, 30), rng.int(8, 30)
        local cells = H.random_cells(rng, w, h, 0.1, { 1, 3, 7 })
        local grid = astar.grid.from_table(cells)
        local diagonal = rng.pick(H.POLICIES)
        local opts = { diagonal = diagonal, algorithm = "jps" }
        local bopts = { diagonal = diagonal, algorithm = "jps", threads = 3 }
        for _ = 1, 3 do
          local reqs = {}
          for i = 1, 20 do reqs[i] = { rng.int(1, w), rng.int(1, h), rng.int(1, w), rng.int(1, h) } end
          for i = 1, #reqs, 2 do grid:find(reqs[i][1], reqs[i][2], reqs[i][3], reqs[i][4], opts) end
          local paths, codes = astar.batch(grid, reqs, bopts)
          total = total + check_dijkstra(cells, w, h, diagonal, reqs, paths, codes, fails)
          local x, y = rng.int(1, w - 3), rng.int(1, h - 3)
          local v = rng.pick({ 1, 3, 7, false })
          grid:fill(x, y, 4, 4, v)
          for yy = y, y + 3 do for xx = x, x + 3 do cells[yy][xx] = v end end
        end
        grid:close()
      end
      H.report(fails, total, MAX_REPORT)
    end)

  it("leaves the grid's caches to the Lua thread again when it is done", function()
    -- terrain: a jumping search on the Lua thread makes the table of what boundary cells keep
    -- (grid allocations); during a batch the grid is read only, after it no longer
    local g = astar.grid(40, 30)
    for i = 0, 5 do g:fill(3 + 6 * i, 4 + 3 * i, 4, 5, 1 + i) end
    local opts = { algorithm = "jps", diagonal = "always" }
    local reqs = { { 1, 1, 40, 30 }, { 40, 1, 1, 30 }, { 20, 1, 20, 30 } }
    for _, r in ipairs(reqs) do                       -- the search context, warmed by A*
      g:find(r[1], r[2], r[3], r[4], { algorithm = "astar", diagonal = "always" })
    end
    local paths = astar.batch(g, reqs, { algorithm = "jps", diagonal = "always", threads = 2 })
    assert.equal("jps", paths[1]:stats().algorithm)
    local a0 = g:stats().allocations
    local p = g:find(1, 1, 40, 30, opts)
    local a1 = g:stats().allocations
    assert.is_true(a1 > a0, "the table is made after the batch")
    assert.equal(paths[1]:cost(), p:cost())
    g:find(1, 1, 40, 30, opts)
    assert.equal(a1, g:stats().allocations)            -- and a warm query makes nothing
  end)

  it("works on hex grids and returns empty lists for no requests", function()
    local g = astar.hexgrid(12, 9, { layout = "odd-r" })
    g:fill(4, 2, 1, 6, false)
    local fails = {}
    compare_batch(g, { { 1, 1, 12, 9 }, { 1, 5, 8, 5 }, { 4, 3, 1, 1 } }, {}, 2, fails, "hex")
    H.report(fails, 3)
    local paths, codes, msgs = astar.batch(g, {})
    assert.same({ {}, {}, {} }, { paths, codes, msgs })
  end)

  it("refuses what workers cannot run, and bad arguments", function()
    local g = astar.grid(10, 10)
    local req = { { 1, 1, 10, 10 } }
    H.checkerr("bad argument #1 to 'batch' (astar.Grid expected, got nil)", astar.batch, nil, req)
    H.checkerr("bad argument #2 to 'batch' (table expected, got number)", astar.batch, g, 5)
    H.checkerr("bad argument #2 to 'batch' (request 2: table {x0, y0, x1, y1} expected, got number)",
      astar.batch, g, { { 1, 1, 2, 2 }, 7 })
    H.checkerr("bad argument #2 to 'batch' (request 1: x0 out of range: 0 not in [1, 10])",
      astar.batch, g, { { 0, 1, 2, 2 } })
    H.checkerr("bad argument #2 to 'batch' (request 1: y1 out of range: nan not in [1, 10])",
      astar.batch, g, { { 1, 1, 2, 0 / 0 } })
    H.checkerr("bad argument #2 to 'batch' (request 1: x1 out of range: 1.5 not in [1, 10])",
      astar.batch, g, { { 1, 1, 1.5, 2 } })
    H.checkerr("bad argument #2 to 'batch' (request 1: y0 expected a number, got nil)",
      astar.batch, g, { { 1 } })
    local bad = {
      [{ threads = 0 }] = "option 'threads': must be an integer in [1, 64], got 0",
      [{ threads = 65 }] = "option 'threads': must be an integer in [1, 64], got 65",
      [{ threads = 1e9 }] = "option 'threads': must be an integer in [1, 64], got 1000000000",
      [{ threads = 1.5 }] = "option 'threads': must be an integer in [1, 64], got 1.5",
      [{ threads = 0 / 0 }] = "option 'threads': must be an integer in [1, 64], got nan",
      [{ threads = "2" }] = "option 'threads': number expected, got string",
      [{ cost = function() return 1 end }] =
        "option 'cost' cannot be used in worker threads (it needs a Lua callback)",
      [{ heuristic = function() return 0 end }] =
        "option 'heuristic': a function cannot be used in worker threads (it needs a Lua callback)",
      [{ goals = { { 1, 1 } } }] = "option 'goals' cannot be used in worker threads (it needs a Lua table)",
      [{ radius = 0.5 }] =
        "option 'radius' cannot be used in worker threads (its cache is built during the search)",
      [{ size = 2 }] =
        "option 'size' cannot be used in worker threads (its cache is built during the search)",
      [{ algorithm = "directional" }] =
        "option 'algorithm': 'directional' cannot be used in worker threads",
      [{ on_change = "stale" }] = "unknown option 'on_change'",
      [{ nope = 1 }] = "unknown option 'nope'",
    }
    for opts, msg in pairs(bad) do
      H.checkerr("bad argument #3 to 'batch' (" .. msg .. ")", astar.batch, g, req, opts)
    end
    H.checkerr("bad argument #3 to 'batch' (table expected, got number)", astar.batch, g, req, 3)
    g:close()
    H.checkerr("attempt to use a closed grid", astar.batch, g, req)
  end)
end)

-- Polls pool until `n` results came (or none is pending); returns {ticket = {results}}.
local function drain(pool, n)
  local got, count = {}, 0
  while count < n do
    local t, p, msg, code = pool:poll()
    if t then
      got[t] = { p, msg, code }
      count = count + 1
    elseif pool:pending() == 0 then
      break
    end
  end
  return got, count
end

describe("astar.workers", function()
  local dir = H.movingai_dir()
  local arena = dir and dir .. "/dao/arena2.map"

  it("answers submitted requests as grid:find does (poll and result)", function()
    local fails, total = {}, 0
    local pool = astar.workers { threads = 2 }
    local rng = H.rng(1203)
    for t = 1, H.trials(30) do
      local w, h = rng.int(2, 40), rng.int(2, 40)
      local cells = H.random_cells(rng, w, h, rng.pick({ 0.1, 0.3 }), { 1, 2 })
      local grid = astar.grid.from_table(cells)
      local opts = { diagonal = rng.pick(H.POLICIES), algorithm = rng.pick({ "auto", "astar", "jps" }) }
      local reqs, tickets = {}, {}
      for i = 1, 20 do
        reqs[i] = { rng.int(1, w), rng.int(1, h), rng.int(1, w), rng.int(1, h) }
        tickets[i] = pool:submit(grid, reqs[i][1], reqs[i][2], reqs[i][3], reqs[i][4], opts)
      end
      local got = {}
      if t % 2 == 0 then
        got = drain(pool, #reqs)
      else
        for i = #reqs, 1, -1 do got[tickets[i]] = { pool:result(tickets[i], true) } end
      end
      for i, r in ipairs(reqs) do
        total = total + 1
        local want = answer(grid:find(r[1], r[2], r[3], r[4], opts))
        local g = got[tickets[i]]
        local have = g and answer(g[1], g[2], g[3]) or "missing"
        if have ~= want then
          fails[#fails + 1] = ("grid %d request %d: pool %s\n  find %s"):format(t, i, have, want)
        end
      end
      grid:close()
    end
    assert.same({ 0, 2 }, { pool:pending() })
    pool:close()
    H.report(fails, total, MAX_REPORT)
  end)

  it("answers stale, never a wrong path, when the grid is edited in flight", function()
    if not arena then pending("benchmarks not found") return end
    local grid = assert(astar.grid.load_movingai(arena))
    local w, h = grid:size()
    local pool = astar.workers { threads = 2 }
    local rng = H.rng(1204)
    local open = {}
    for y = 1, h do for x = 1, w do if grid:walkable(x, y) then open[#open + 1] = { x, y } end end end
    local fails, total, stale, fresh = {}, 0, 0, 0
    for _ = 1, H.trials(8) do
      local pending = {}
      for _ = 1, 40 do
        local a, b = rng.pick(open), rng.pick(open)
        local opts = rng.float() < 0.5 and { algorithm = "astar" } or nil
        pending[pool:submit(grid, a[1], a[2], b[1], b[2], opts)] = { a, b, opts }
      end
      local n = 0
      while n < 40 do
        -- edit while requests are queued and running; take some results between edits
        if rng.float() < 0.3 then
          local c = rng.pick(open)
          grid:set(c[1], c[2], grid:walkable(c[1], c[2]) and false or 1)
        end
        local t, p, msg, code = pool:poll()
        if t then
          n = n + 1
          total = total + 1
          local r = pending[t]
          if code == "stale" then
            stale = stale + 1
            assert.equal("the grid changed during the search", msg)
          else
            fresh = fresh + 1       -- no edit since it was submitted: find on the grid now
            local want = answer(grid:find(r[1][1], r[1][2], r[2][1], r[2][2], r[3]))
            local have = answer(p, msg, code)
            if want ~= have then fails[#fails + 1] = ("ticket %d: pool %s\n find %s"):format(t, have, want) end
          end
        end
      end
    end
    H.report(fails, total, MAX_REPORT)
    assert.is_true(stale > 0, "no request was stale")
    -- a request submitted after the last edit searches the grid as it is now
    local t = pool:submit(grid, open[1][1], open[1][2], open[#open][1], open[#open][2])
    assert.equal(answer(grid:find(open[1][1], open[1][2], open[#open][1], open[#open][2])),
      answer(pool:result(t, true)))
    pool:close()
    grid:close()
  end)

  it("runs a stale request again with on_change = 'restart'", function()
    local grid = astar.grid(60, 60)
    local pool = astar.workers { threads = 1 }
    local a = pool:submit(grid, 1, 1, 60, 60, { on_change = "restart" })
    local b = pool:submit(grid, 1, 1, 60, 60)
    grid:fill(2, 1, 1, 59, false)                    -- a wall with a gap at the bottom
    local pa = assert(pool:result(a, true))
    assert.equal(answer(grid:find(1, 1, 60, 60)), answer(pa))
    assert.same({ nil, "the grid changed during the search", "stale" }, { pool:result(b, true) })
    local c = pool:submit(grid, 1, 1, 60, 60)
    grid:close()
    assert.same({ nil, "the grid was closed during the search", "stale" }, { pool:result(c, true) })
    pool:close()
  end)

  it("reuses one snapshot while the grid does not change, and sees prepared tables", function()
    local grid = astar.grid(50, 50)
    grid:fill(10, 1, 1, 45, false)
    local pool = astar.workers { threads = 2 }
    local before = collectgarbage("count")
    local ts = {}
    for i = 1, 50 do ts[i] = pool:submit(grid, 1, 1, 50, i) end
    for i = 1, 50 do
      assert.equal(answer(grid:find(1, 1, 50, i)), answer(pool:result(ts[i], true)))
    end
    grid:prepare()
    local t = pool:submit(grid, 1, 1, 50, 50)
    local p = assert(pool:result(t, true))
    assert.equal("jps+", p:stats().algorithm)
    assert.equal(answer(grid:find(1, 1, 50, 50)), answer(p))
    assert.is_true(collectgarbage("count") - before < 4096)
    pool:close()
  end)

  it("cancels queued and running requests; status and pending follow", function()
    local grid = astar.grid(200, 200)
    for x = 3, 197, 4 do grid:fill(x, x % 8 == 3 and 2 or 1, 1, 199, false) end   -- a serpentine
    local pool = astar.workers { threads = 1 }
    local ts = {}
    for i = 1, 6 do ts[i] = pool:submit(grid, 1, 1, 200, 200, { algorithm = "dijkstra" }) end
    assert.same({ 6, 1 }, { pool:pending() })
    local st = pool:status(ts[6])
    assert.is_true(st == "queued" or st == "running" or st == "done")
    assert.is_true(pool:cancel(ts[6]))
    assert.is_false(pool:cancel(ts[6]))
    assert.is_nil(pool:status(ts[6]))
    assert.is_true(pool:cancel(ts[1]))                -- most likely running
    assert.same({ 4, 1 }, { pool:pending() })
    H.checkerr("bad argument #1 to 'result' (unknown ticket " .. ts[1] .. ")", pool.result, pool, ts[1])
    local _, msg, code = pool:result(ts[5])
    assert.is_true(code == "pending" or code == nil, tostring(msg))
    local got = drain(pool, 4)
    assert.is_nil(got[ts[1]])
    assert.is_nil(got[ts[6]])
    for i = 2, 4 do
      if got[ts[i]] then
        assert.equal(answer(grid:find(1, 1, 200, 200, { algorithm = "dijkstra" })), answer(got[ts[i]][1]))
      end
    end
    assert.same({ 0, 1 }, { pool:pending() })
    assert.is_nil(pool:poll())
    pool:close()
  end)

  it("is collected, closed and reused safely with requests in flight", function()
    local grid = astar.grid(400, 400)
    for _ = 1, 3 do
      local pool = astar.workers { threads = 2 }
      for _ = 1, 20 do pool:submit(grid, 1, 1, 400, 400, { algorithm = "dijkstra" }) end
      pool = nil                                      -- luacheck: ignore
      collectgarbage()
      collectgarbage()
    end
    local pool = astar.workers { threads = 2 }
    for _ = 1, 10 do pool:submit(grid, 1, 1, 400, 400, { algorithm = "dijkstra" }) end
    pool:close()
    pool:close()                                      -- idempotent
    assert.equal("astar.Workers (closed)", tostring(pool))
    H.checkerr("attempt to use a closed pool", pool.poll, pool)
    H.checkerr("attempt to use a closed pool", pool.submit, pool, grid, 1, 1, 2, 2)
    -- the pool keeps the grids of its requests alive
    local p2 = astar.workers { threads = 1 }
    local t = p2:submit(astar.grid(30, 30), 1, 1, 30, 30)
    collectgarbage()
    assert.equal(29, math.floor(assert(p2:result(t, true)):cost() / math.sqrt(2) + 0.5))
    -- a grid collected with the pool and its snapshot in the same cycle
    local p3 = astar.workers { threads = 1 }
    p3:submit(astar.grid(200, 200), 1, 1, 200, 200)
    p3 = nil                                          -- luacheck: ignore
    collectgarbage()
    grid:close()
  end)

  it("refuses bad arguments", function()
    local g = astar.grid(10, 10)
    local pool = astar.workers { threads = 1 }
    assert.matches("^astar.Workers %(1 threads, 0 pending%)$", tostring(pool))
    for _, v in ipairs({ 0, 65, 1.5, 0 / 0, -1 }) do
      H.checkerr(("bad argument #1 to 'workers' (option 'threads': must be an integer in [1, 64], got %s)")
        :format(v ~= v and "nan" or v == 1.5 and "1.5" or ("%d"):format(v)), astar.workers, { threads = v })
    end
    H.checkerr("bad argument #1 to 'workers' (unknown option 'diagonal')", astar.workers,
      { diagonal = "never" })
    H.checkerr("bad argument #1 to 'submit' (astar.Grid expected, got number)", pool.submit, pool, 1)
    H.checkerr("bad argument #2 to 'submit' (x out of range: 11 not in [1, 10])",
      pool.submit, pool, g, 11, 1, 1, 1)
    H.checkerr("bad argument #5 to 'submit' (integer expected, got nan)",
      pool.submit, pool, g, 1, 1, 1, 0 / 0)
    H.checkerr("bad argument #6 to 'submit' (option 'cost' cannot be used in worker threads " ..
      "(it needs a Lua callback))", pool.submit, pool, g, 1, 1, 2, 2, { cost = print })
    H.checkerr("bad argument #6 to 'submit' (option 'on_change': 'continue' cannot be used in " ..
      "worker threads)", pool.submit, pool, g, 1, 1, 2, 2, { on_change = "continue" })
    H.checkerr("bad argument #6 to 'submit' (unknown option 'threads')",
      pool.submit, pool, g, 1, 1, 2, 2, { threads = 2 })
    H.checkerr("bad argument #1 to 'result' (integer expected, got 1.5)", pool.result, pool, 1.5)
    H.checkerr("bad argument #1 to 'result' (unknown ticket 99)", pool.result, pool, 99)
    H.checkerr("bad argument #1 to 'cancel' (number expected, got string)", pool.cancel, pool, "x")
    H.checkerr("calling 'poll' on bad self (astar.Workers expected, got userdata)", pool.poll, g)
    assert.same({ nil, "start (1, 1) is blocked", "blocked" }, (function()
      g:set(1, 1, false)
      return { pool:result(pool:submit(g, 1, 1, 5, 5), true) }
    end)())
    g:close()
    H.checkerr("attempt to use a closed grid", pool.submit, pool, g, 1, 1, 2, 2)
    pool:close()
  end)
end)
