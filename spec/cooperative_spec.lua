-- Cooperative paths (Silver 2005): astar.reservations, grid:find with `reserve`, path:time,
-- astar.cooperative. Every schedule is checked by a checker written here from the README's
-- rules (one step or a wait per time unit, the diagonal policy, no two units in a cell at a
-- time, no swap across an edge, a unit parked at its goal holds it forever), and the cost of
-- a unit planned after others is compared with a space-time Dijkstra written here.
local astar = require "astar"
local H = require "spec.helper"

local floor = math.floor

-- The smallest cost of a walkable cell (what a wait costs by default).
local function min_cost(cells)
  local m = math.huge
  for _, row in ipairs(cells) do for _, c in ipairs(row) do if c and c < m then m = c end end end
  return m == math.huge and 1 or m
end

-- A unit's timeline: where it is at each time, from its path and times (only the planned
-- part: WHCA*'s way on after the window is not a promise).
local function timeline(path)
  local tl = { pos = {}, holds = false }
  local n = #path
  local t0, last, holds = path:time(1), 0, false
  for i = 1, n do
    local t, planned, h = path:time(i)
    assert(t == t0 + i - 1, ("point %d at time %s, expected %d"):format(i, tostring(t), t0 + i - 1))
    if planned then
      local x, y = path:get(i)
      tl.pos[t] = { x, y }
      last = t
    end
    holds = h
  end
  tl.t0, tl.last, tl.holds = t0, last, holds
  return tl
end

-- Where the unit of timeline tl is at time t, or nil.
local function at(tl, t)
  if t < tl.t0 then return nil end
  if t <= tl.last then return tl.pos[t] end
  if tl.holds then return tl.pos[tl.last] end
  return nil
end

-- The checker: every step of every path legal (a wait, or a step the policy allows into a
-- walkable cell), no vertex conflict, no swap; goal holding in effect after arrival. `paths`
-- maps unit -> Path; returns how many waits the schedules hold.
local function check_schedule(cells, w, h, pol, paths, wait_cost)
  local tls, tmax, waits = {}, 0, 0
  for u, p in pairs(paths) do
    local tl = timeline(p)
    tls[#tls + 1] = { u = u, tl = tl }
    if tl.last > tmax then tmax = tl.last end
    local cost, px, py = 0, p:get(1)
    assert(H.walk(cells, w, h, px, py), "starts on a blocked cell")
    for i = 2, #p do
      local x, y = p:get(i)
      if x == px and y == py then
        waits = waits + 1
        cost = cost + wait_cost
      else
        assert(H.legal_step(cells, w, h, px, py, x - px, y - py, pol),
          ("unit %d: step %d (%d, %d) -> (%d, %d) is illegal under %s"):format(u, i - 1, px, py,
            x, y, pol))
        cost = cost + H.step_cost(cells, x, y, x - px, y - py)
      end
      px, py = x, y
    end
    assert(H.close(cost, p:cost()), ("unit %d: cost %.17g, the steps sum to %.17g"):format(u,
      p:cost(), cost))
  end
  for t = 0, tmax + 1 do
    local seen = {}
    for _, e in ipairs(tls) do
      local c = at(e.tl, t)
      if c then
        local k = (c[2] - 1) * w + c[1]
        assert(seen[k] == nil, ("units %s and %d both at (%d, %d) at time %d"):format(
          tostring(seen[k]), e.u, c[1], c[2], t))
        seen[k] = e.u
      end
    end
    for i = 1, #tls do
      for j = i + 1, #tls do
        local a1, a2 = at(tls[i].tl, t), at(tls[i].tl, t + 1)
        local b1, b2 = at(tls[j].tl, t), at(tls[j].tl, t + 1)
        if a1 and a2 and b1 and b2 then
          assert(not (a1[1] == b2[1] and a1[2] == b2[2] and a2[1] == b1[1] and a2[2] == b1[2] and
            not (a1[1] == a2[1] and a1[2] == a2[2])),
            ("units %d and %d swap (%d, %d) <-> (%d, %d) at time %d"):format(tls[i].u, tls[j].u,
              a1[1], a1[2], a2[1], a2[2], t))
        end
      end
    end
  end
  return waits
end

-- The space-time Dijkstra: the cheapest cost for a unit from (sx, sy) at time t0 to (gx, gy)
-- among others' timelines `tls`, arriving when no other unit is ever at the goal again.
local function reference(cells, w, h, pol, tls, sx, sy, gx, gy, t0, wait_cost)
  local tmax = t0
  for _, tl in ipairs(tls) do if tl.last > tmax then tmax = tl.last end end
  local horizon = tmax + 2 + w * h
  local function occupied(x, y, t)
    for _, tl in ipairs(tls) do
      local c = at(tl, t)
      if c and c[1] == x and c[2] == y then return tl end
    end
    return nil
  end
  local function free_after(t)
    for k = t, tmax + 1 do if occupied(gx, gy, k) then return false end end
    return true
  end
  if occupied(sx, sy, t0) then return nil end
  local function key(x, y, t) return (t * h + (y - 1)) * w + (x - 1) end
  local dist = H.dijkstra_generic({ { key(sx, sy, t0), 0 } }, function(k, emit)
    local x, t = k % w + 1, floor(k / (w * h))
    local y = floor(k / w) % h + 1
    if t >= horizon then return end
    local moves = { { 0, 0 } }
    for dy = -1, 1 do for dx = -1, 1 do
      if (dx ~= 0 or dy ~= 0) and x + dx >= 1 and x + dx <= w and y + dy >= 1 and y + dy <= h
        and H.legal_step(cells, w, h, x, y, dx, dy, pol) then
        moves[#moves + 1] = { dx, dy }
      end
    end end
    for _, m in ipairs(moves) do
      local nx, ny = x + m[1], y + m[2]
      local ok = not occupied(nx, ny, t + 1)
      if ok and (m[1] ~= 0 or m[2] ~= 0) then
        local v = occupied(nx, ny, t)                  -- a swap: v goes (nx, ny) -> (x, y)
        local c = v and at(v, t + 1)
        if c and c[1] == x and c[2] == y then ok = false end
      end
      if ok then
        local c = (m[1] == 0 and m[2] == 0) and wait_cost or H.step_cost(cells, nx, ny, m[1], m[2])
        emit(key(nx, ny, t + 1), c)
      end
    end
  end)
  local best
  for t = t0, horizon do
    local d = dist[key(gx, gy, t)]
    if d and (best == nil or d < best) and free_after(t) then best = d end
  end
  return best
end

-- Distinct random walkable cells.
local function pick_cells(rng, cells, w, h, n)
  local free = {}
  for y = 1, h do for x = 1, w do if cells[y][x] then free[#free + 1] = { x, y } end end end
  local out = {}
  for i = 1, math.min(n, #free) do
    local j = rng.int(i, #free)
    free[i], free[j] = free[j], free[i]
    out[i] = free[i]
  end
  return out
end

-- n units: distinct starts, distinct goals.
local function random_units(rng, cells, w, h, n)
  local s, g = pick_cells(rng, cells, w, h, n), pick_cells(rng, cells, w, h, n)
  local units = {}
  for i = 1, math.min(#s, #g) do units[i] = { s[i][1], s[i][2], g[i][1], g[i][2] } end
  return units
end

describe("cooperative paths", function()
  it("plans random groups into collision-free schedules", function()
    local planned, failed, waits, windowed = 0, 0, 0, 0
    H.each_random_grid(4242, H.trials(80), 4, 10, { 0, 0.15, 0.3 }, { 1, 1, 2 },
      function(rng, w, h, cells, grid)
        local pol = rng.pick(H.POLICIES)
        local window = rng.float() < 0.3 and rng.int(1, 6) or nil
        local units = random_units(rng, cells, w, h, rng.int(2, 12))
        local paths, fails = astar.cooperative(grid, units, { diagonal = pol, window = window,
          max_expansions = 20000 })
        local got = {}
        for i, p in ipairs(paths) do
          if p then
            got[i] = p
            planned = planned + 1
            local x, y = p:get(1)
            assert(x == units[i][1] and y == units[i][2])
            x, y = p:get(#p)
            assert(x == units[i][3] and y == units[i][4], "does not end at the goal")
            if not window then assert(select(3, p:time(1)), "a CA* path holds its goal") end
          end
        end
        for _, f in ipairs(fails) do
          assert(paths[f.unit] == false and type(f.message) == "string")
          assert(f.code == "no_path" or f.code == "blocked" or f.code == "limit", f.code)
        end
        failed = failed + #fails
        if window then windowed = windowed + 1 end
        waits = waits + check_schedule(cells, w, h, pol, got, min_cost(cells))
      end)
    if os.getenv("COOP_DEBUG") then print("planned", planned, "failed", failed, "waits", waits) end
    assert(planned > H.trials(80) * 2 and planned > 4 * failed and waits > 0 and windowed > 0,
      ("planned %d, failed %d, waits %d"):format(planned, failed, waits))
  end)

  it("gives the last unit the cheapest conflict-free path (space-time Dijkstra)", function()
    local compared, waited = 0, 0
    H.each_random_grid(777, H.trials(40), 3, 7, { 0, 0.2 }, { 1, 1, 3 },
      function(rng, w, h, cells, grid)
        local pol = rng.pick(H.POLICIES)
        local units = random_units(rng, cells, w, h, rng.int(2, 4))
        if #units < 2 then return end
        local last = table.remove(units)
        local r = astar.reservations()
        local wait = rng.pick({ true, 0.5, 2 })
        local paths = astar.cooperative(grid, units, { diagonal = pol, reserve = r, wait = wait })
        local tls = {}
        for _, p in ipairs(paths) do if p then tls[#tls + 1] = timeline(p) end end
        local wc = wait == true and min_cost(cells) or wait
        local want = reference(cells, w, h, pol, tls, last[1], last[2], last[3], last[4], 0, wc)
        local p, _, code = grid:find(last[1], last[2], last[3], last[4],
          { reserve = r, unit = 99, diagonal = pol, wait = wait })
        if want == nil then
          assert(p == nil and (code == "no_path" or code == "blocked"), tostring(code))
        else
          assert(p, "no path where the reference has one: " .. tostring(code))
          assert(H.close(p:cost(), want), ("cost %.17g, expected %.17g"):format(p:cost(), want))
          paths[99] = p
          local all = {}
          for i, q in pairs(paths) do if q then all[i] = q end end
          check_schedule(cells, w, h, pol, all, wc)
          compared = compared + 1
          if H.close(p:cost(), H.dijkstra(cells, w, h, last[1], last[2], last[3], last[4], pol))
            == false then
            waited = waited + 1
          end
        end
      end)
    if os.getenv("COOP_DEBUG") then print("compared", compared, "detoured", waited) end
    assert(compared > H.trials(40) / 2 and waited > 0, ("compared %d, detoured %d"):format(
      compared, waited))
  end)

  it("costs what the independent Dijkstra says for one unit and an empty table", function()
    local n = 0
    H.each_random_grid(31337, H.trials(80), 1, 16, { 0, 0.2, 0.35 }, { 1, 2, 0.5 },
      function(rng, w, h, cells, grid)
        local pol = rng.pick(H.POLICIES)
        local sx, sy, gx, gy = rng.int(1, w), rng.int(1, h), rng.int(1, w), rng.int(1, h)
        local want = H.dijkstra(cells, w, h, sx, sy, gx, gy, pol)
        local p, _, code = grid:find(sx, sy, gx, gy, { reserve = astar.reservations(), unit = 1,
          diagonal = pol })
        if want == nil then
          assert(p == nil and (code == "no_path" or code == "blocked"), tostring(code))
        else
          assert(p and H.close(p:cost(), want), ("cost %s, expected %.17g"):format(
            p and p:cost() or code, want))
          H.check_path(cells, w, h, p, sx, sy, gx, gy, pol)     -- no waits, no repeats
          assert(p:time(#p) == #p - 1 and select(3, p:time(1)) == true)
          n = n + 1
        end
      end)
    assert(n > H.trials(80) / 3)
  end)

  it("lets a unit wait in a passing bay (a corridor)", function()
    local grid = astar.grid.parse("###.###\n.......", { ["."] = 1, ["#"] = false })
    local paths, failed, r = astar.cooperative(grid, { { 1, 2, 7, 2 }, { 5, 2, 1, 2 } })
    assert(#failed == 0)
    assert(paths[1]:cost() == 6 and #paths[1] == 7)
    local p = paths[2]
    assert(p:cost() == 7 and #p == 8, ("%d points, cost %s"):format(#p, p:cost()))
    local bay = false
    for i = 1, #p do
      local x, y = p:get(i)
      if x == 4 and y == 1 then bay = true end
    end
    assert(bay, "unit 2 never steps into the bay")
    local cells = H.cells_from_text("###.###\n.......", { ["."] = 1, ["#"] = false })
    assert(check_schedule(cells, 7, 2, "no_corner_cutting", { paths[1], paths[2] }, 1) >= 1)
    assert(r:holder(7, 2, 6) == 1 and r:holder(7, 2, 1000) == 1 and r:holder(1, 2, 7) == 2)
    -- without waits unit 2 cannot dodge (the bay is a dead end): the search ends, no path
    local q, qmsg, qcode = grid:find(5, 2, 1, 2, { reserve = r, unit = 2, wait = false,
      claim = false })
    assert(q == nil and qcode == "no_path", qmsg)
    -- a corridor without a bay: the second unit cannot pass
    local tube = astar.grid(6, 1)
    local r2 = astar.reservations()
    assert(tube:find(1, 1, 6, 1, { reserve = r2, unit = 1 }))
    local none, msg, code = tube:find(6, 1, 1, 1, { reserve = r2, unit = 2, max_expansions = 5000 })
    assert(none == nil and (code == "no_path" or code == "blocked"), msg)
  end)

  it("keeps the first `window` steps conflict-free and goes on along the grid (WHCA*)", function()
    local rng = H.rng(5)
    local n = 0
    for _ = 1, H.trials(30) do
      local w, h = rng.int(6, 14), rng.int(6, 14)
      local cells = H.random_cells(rng, w, h, 0.15)
      local grid = astar.grid.from_table(cells)
      local pol = rng.pick(H.POLICIES)
      local wnd = rng.int(1, 5)
      local units = random_units(rng, cells, w, h, 6)
      local paths = astar.cooperative(grid, units, { diagonal = pol, window = wnd })
      local got = {}
      for i, p in ipairs(paths) do
        if p then
          local planned = 0
          for k = 1, #p do if select(2, p:time(k)) then planned = k end end
          local gx, gy = p:get(#p)
          local x, y = p:get(planned)
          assert(planned == math.min(#p, wnd + 1) or (x == gx and y == gy),
            ("planned %d of %d points, window %d"):format(planned, #p, wnd))
          assert(gx == units[i][3] and gy == units[i][4])
          got[i] = p
          n = n + 1
        end
      end
      check_schedule(cells, w, h, pol, got, min_cost(cells))
    end
    assert(n > H.trials(30) * 3)
    -- alone in the table, a unit's WHCA* path is a shortest path: its window heads for a
    -- target further on the grid's shortest path (found by jumps where the grid allows)
    local alone = 0
    H.each_random_grid(2024, H.trials(60), 8, 40, { 0, 0.2, 0.3 }, { 1, 1, 1, 2 },
      function(rng2, w, h, cells, grid)
        local pol = rng2.pick(H.POLICIES)
        local sx, sy, gx, gy = rng2.int(1, w), rng2.int(1, h), rng2.int(1, w), rng2.int(1, h)
        local want = H.dijkstra(cells, w, h, sx, sy, gx, gy, pol)
        local p, _, code = grid:find(sx, sy, gx, gy, { reserve = astar.reservations(), unit = 1,
          diagonal = pol, window = rng2.int(1, 4) })
        if want == nil then
          assert(p == nil and (code == "no_path" or code == "blocked"), tostring(code))
        else
          assert(p and H.close(p:cost(), want), ("cost %s, expected %.17g"):format(
            p and p:cost() or code, want))
          H.check_path(cells, w, h, p, sx, sy, gx, gy, pol)
          alone = alone + 1
        end
      end)
    assert(alone > H.trials(60) / 3)
    -- the whole path costs its window's steps plus a shortest path on
    local grid = astar.grid(20, 1)
    local r = astar.reservations()
    local p = assert(grid:find(1, 1, 20, 1, { reserve = r, unit = 1, window = 4 }))
    assert(#p == 20 and p:cost() == 19 and p:stats().algorithm == "whca")
    assert(select(2, p:time(5)) and not select(2, p:time(6)) and not select(3, p:time(1)))
    assert(r:holder(5, 1, 4) == 1 and r:holder(6, 1, 5) == nil and r:count() == 5)
  end)

  it("reserves, releases and replans units", function()
    local grid = astar.grid(5, 5)
    local r = astar.reservations()
    assert(tostring(r) == "astar.Reservations (0 entries, 0 held)")
    local a = assert(grid:find(1, 3, 5, 3, { reserve = r, unit = 7, diagonal = "never" }))
    assert(r:holder(1, 3, 0) == 7 and r:holder(5, 3, 4) == 7 and r:holder(5, 3, 99) == 7)
    local e, held, last = r:count()
    assert(e == 5 and held == 1 and last == 4)
    -- replanning unit 7 replaces its reservations
    assert(grid:find(1, 3, 1, 5, { reserve = r, unit = 7, diagonal = "never", start_time = 2 }))
    assert(r:holder(5, 3, 99) == nil and r:holder(1, 5, 4) == 7 and r:holder(1, 3, 2) == 7)
    -- claim = false plans without reserving
    local q = assert(grid:find(3, 1, 3, 5, { reserve = r, unit = 8, claim = false }))
    assert(r:holder(3, 5, 100) == nil and q:time(1) == 0)
    assert(r:release(7) == 4 and r:count() == 0)
    -- a path reserved by hand; a conflicting one is refused and changes nothing
    assert(r:reserve(1, a) == true and r:holder(3, 3, 2) == 1)
    local b = grid:find(5, 3, 1, 3, { diagonal = "never" })
    local ok, msg, code = r:reserve(2, b)
    assert(ok == nil and code == "conflict", msg)
    assert(msg == "step 3: cell (3, 3) at time 2 conflicts with unit 1", msg)
    assert(r:reserve(2, b, { start_time = 10, hold = false }) == nil)   -- unit 1 holds (5, 3)
    assert(r:reserve(2, b, { start_time = 10 }) == nil)
    assert(r:hold(3, 4, 4, 0) == true and r:holder(4, 4, 1e6) == 3)
    ok, msg, code = r:hold(4, 5, 3, 0)
    assert(ok == nil and code == "conflict", msg)
    -- a held goal blocks; a start held at the start time blocks
    local none
    none, msg, code = grid:find(1, 1, 4, 4, { reserve = r, unit = 5 })
    assert(none == nil and code == "blocked" and msg == "goal (4, 4) is held by unit 3 for good",
      msg)
    none, msg, code = grid:find(4, 4, 1, 1, { reserve = r, unit = 5 })
    assert(none == nil and code == "blocked" and msg == "start (4, 4) is held by unit 3 at time 0",
      msg)
    -- a cell taken until the table's last time (not held after it): passable just after
    local tube, rt = astar.grid(5, 1), astar.reservations()
    for t = 0, 2 do assert(rt:take(1, 3, 1, t) == true) end
    local ok2, msg2, code2 = rt:take(2, 3, 1, 1)
    assert(ok2 == nil and code2 == "conflict" and msg2 == "cell (3, 1) is held by unit 1 at time 1",
      msg2)
    local p5 = assert(tube:find(1, 1, 5, 1, { reserve = rt, unit = 2 }))
    assert(p5:cost() == 5 and #p5 == 6 and select(2, p5:get(4)) == 1 and p5:get(4) == 3)
    local walled = astar.grid.parse("#..\n...", { ["."] = 1, ["#"] = false })
    none, msg, code = walled:find(1, 1, 3, 2, { reserve = r, unit = 5 })
    assert(none == nil and code == "blocked" and msg == "start (1, 1) is blocked", msg)
    none, msg, code = walled:find(3, 2, 1, 1, { reserve = r, unit = 5 })
    assert(none == nil and code == "blocked" and msg == "goal (1, 1) is blocked", msg)
    r:clear()
    assert(r:count() == 0 and r:holder(4, 4, 5) == nil)
    r:close()
    r:close()
    assert(tostring(r) == "astar.Reservations (closed)")
    H.checkerr("attempt to use a closed reservations table", r.holder, r, 1, 1, 0)
    H.checkerr("attempt to use a closed reservations table", grid.find, grid, 1, 1, 2, 2,
      { reserve = r, unit = 1 })
  end)

  it("works with limits, partial paths, hex and wrapping grids", function()
    local grid = astar.grid(30, 30)
    local r = astar.reservations()
    local p, msg, code = grid:find(1, 1, 30, 30, { reserve = r, unit = 1, max_expansions = 5 })
    assert(p == nil and code == "limit", msg)
    p, msg, code = grid:find(1, 1, 30, 30, { reserve = r, unit = 1, max_expansions = 5,
      partial = true })
    assert(p and code == "partial" and #p > 1 and r:count() == 0, msg)
    local hex = astar.hexgrid(6, 6)
    local paths, failed = astar.cooperative(hex, { { 1, 1, 6, 6 }, { 6, 6, 1, 1 }, { 1, 6, 6, 1 } })
    assert(#failed == 0)
    for _, q in ipairs(paths) do assert(hex:check(q)) end
    local wrap = astar.grid(8, 3)
    wrap:set_wrap("x")
    local a = assert(wrap:find(2, 2, 7, 2, { reserve = r, unit = 1 }))
    assert(a:cost() == 3, a:cost())                                     -- across the seam
  end)

  it("refuses bad arguments", function()
    local grid = astar.grid(4, 4)
    local r = astar.reservations()
    local P = "bad argument #5 to 'find' ("
    local function find(opts) return grid:find(1, 1, 4, 4, opts) end
    for _, c in ipairs({
      { { window = 3 }, "option 'window' needs option 'reserve'" },
      { { unit = 1 }, "option 'unit' needs option 'reserve'" },
      { { reserve = {} , unit = 1 }, "option 'reserve': astar.Reservations expected, got table" },
      { { reserve = r }, "option 'unit' is needed to claim the path (or claim = false)" },
      { { reserve = r, unit = 0 }, "option 'unit' must be an integer in [1, 2147483646], got 0" },
      { { reserve = r, unit = 1.5 }, "option 'unit' must be an integer in [1, 2147483646], got 1.5" },
      { { reserve = r, unit = 0 / 0 }, "option 'unit' must be an integer in [1, 2147483646], got nan" },
      { { reserve = r, unit = 1, start_time = -1 },
        "option 'start_time' must be an integer in [0, 1073741823], got -1" },
      { { reserve = r, unit = 1, start_time = 0 / 0 },
        "option 'start_time' must be an integer in [0, 1073741823], got nan" },
      { { reserve = r, unit = 1, window = 0 },
        "option 'window' must be an integer in [1, 1073741822], got 0" },
      { { reserve = r, unit = 1, window = 2.5 },
        "option 'window' must be an integer in [1, 1073741822], got 2.5" },
      { { reserve = r, unit = 1, wait = 0 },
        "option 'wait': a cost must be a number in (0, 1e+100], got 0" },
      { { reserve = r, unit = 1, wait = 0 / 0 },
        "option 'wait': a cost must be a number in (0, 1e+100], got nan" },
      { { reserve = r, unit = 1, wait = "yes" }, "option 'wait': boolean or number expected, got string" },
      { { reserve = r, unit = 1, claim = 1 }, "option 'claim': boolean expected, got number" },
      { { reserve = r, unit = 1, algorithm = "jps" },
        "option 'reserve' needs algorithm 'astar' (the default with it)" },
      { { reserve = r, unit = 1, heuristic = "zero" }, "option 'heuristic' cannot be used with 'reserve'" },
      { { reserve = r, unit = 1, cost = function() return 1 end },
        "option 'cost' cannot be used with 'reserve'" },
      { { reserve = r, unit = 1, radius = 0.5 }, "option 'radius' cannot be used with 'reserve'" },
    }) do
      H.checkerr(P .. c[2] .. ")", find, c[1])
    end
    H.checkerr("bad argument #3 to 'find' (option 'goals' cannot be used with 'reserve')",
      grid.find, grid, 1, 1, { goals = { { 4, 4 } }, reserve = r, unit = 1 })
    H.checkerr("bad argument #5 to 'query' (unknown option 'reserve')", grid.query, grid, 1, 1,
      4, 4, { reserve = r })
    H.checkerr("bad argument #1 to 'holder' (x out of range: 0 not in [1, 2147483647])",
      r.holder, r, 0, 1, 1)
    H.checkerr("bad argument #3 to 'holder' (time out of range: -1 not in [0, 1073741823])",
      r.holder, r, 1, 1, -1)
    H.checkerr("bad argument #3 to 'holder' (number expected, got no value)", r.holder, r, 1, 1)
    H.checkerr("bad argument #1 to 'release' (unit out of range: 0 not in [1, 2147483646])",
      r.release, r, 0)
    H.checkerr("bad argument #2 to 'reserve' (a grid Path expected, got no value)", r.reserve, r, 1)
    H.checkerr("calling 'holder' on bad self (astar.Reservations expected, got number)",
      r.holder, 5, 1, 1, 1)
    local plain = grid:find(1, 1, 4, 4)
    H.checkerr("time: only a cooperative path has times (find with option 'reserve')",
      plain.time, plain, 1)
    local p = grid:find(1, 1, 4, 4, { reserve = r, unit = 1 })
    H.checkerr("bad argument #1 to 'time' (index out of range: 5 not in [1, 4])", p.time, p, 5)
    H.checkerr("bad argument #2 to 'cooperative' (unit 1 is not a table {x0, y0, x1, y1})",
      astar.cooperative, grid, { 5 })
    H.checkerr("bad argument #1 to 'cooperative' (astar.Grid expected, got nil)",
      astar.cooperative, nil, {})
    -- the table and the grid stay usable after each error
    assert(grid:find(1, 4, 4, 1, { reserve = r, unit = 2 }))
    assert(r:holder(4, 1, 100) == 2)
  end)
end)
