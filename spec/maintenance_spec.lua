-- Stored paths on a changing map: grid:check, grid:splice, grid:to_path.
--
-- Expectations are computed from a plain-Lua model of the cells (spec/helper.lua): which point of a
-- stored path is the first one blocked, re-priced or reached through a newly cut corner; what a
-- route of cells costs under the README's model; and, for splice, which cell the detour must go
-- to, how cheap it can be (Dijkstra), how many steps a cheapest detour can have (the fewest and the
-- most over all cheapest paths), and whether the kept tail is still walkable. A fallback is
-- compared with grid:find called at the same moment with the same options, as the README defines
-- it ("falls back to a full find").

local astar = require "astar"
local H = require "spec.helper"

local COSTS = { 1, 1, 1, 2, 3, 0.5, 1.25 }
local MAX_REPORT = tonumber(os.getenv("ASTAR_MAX_REPORT") or "") or 6
local DIRS8 = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 }, { 1, 1 }, { 1, -1 }, { -1, 1 }, { -1, -1 } }

local function report(fails, total) return H.report(fails, total, MAX_REPORT) end

local open_cells = H.open_cells

local function fmt_pts(pts)
  local out = {}
  for i, p in ipairs(pts) do out[i] = "(" .. p[1] .. "," .. p[2] .. ")" end
  return table.concat(out, " ")
end

local function flat(pts)
  local f = {}
  for _, p in ipairs(pts) do
    f[#f + 1] = p[1]
    f[#f + 1] = p[2]
  end
  return f
end

-- Is the diagonal step (x1, y1) -> (x2, y2) allowed by the corner rule of `pol` on `cells`?
local function corner_ok(cells, w, h, x1, y1, x2, y2, pol)
  if x1 == x2 or y1 == y2 then return true end
  if pol == "never" then return false end
  if pol == "always" then return true end
  local a, b = H.walk(cells, w, h, x2, y1), H.walk(cells, w, h, x1, y2)
  if pol == "no_corner_cutting" then return a and b end
  return a or b
end

-- What grid:check must answer for points `pts` recorded on `was` (cells when the path was made),
-- now that the cells are `now`: {true} or {false, i, why}.
local function expected_check(was, now, w, h, pts, pol)
  for i, p in ipairs(pts) do
    local x, y = p[1], p[2]
    local c = now[y][x]
    if c == false then return { n = 3, false, i, "blocked" } end
    if c ~= was[y][x] then return { n = 3, false, i, "changed" } end
    if i > 1 and not corner_ok(now, w, h, pts[i - 1][1], pts[i - 1][2], x, y, pol) then
      return { n = 3, false, i, "blocked" }
    end
  end
  return { n = 1, true }
end

local function same_pack(a, b)
  if a.n ~= b.n then return false end
  for i = 1, a.n do if a[i] ~= b[i] then return false end end
  return true
end

local function fmt_pack(r)
  local out = {}
  for i = 1, r.n do out[i] = tostring(r[i]) end
  return "(" .. table.concat(out, ", ") .. ")"
end

---------------------------------------------------------------------------------------------------

describe("grid:to_path", function()
  it("walks of neighbour steps: the cost is the sum of the step costs, or the first blocked point " ..
    "or cut corner is reported exactly", function()
    local rng = H.rng(1001)
    local fails, total = {}, 0
    local seen = { path = 0, cell = 0, corner = 0 }
    for id = 1, 300 do
      local w, h = rng.int(2, 20), rng.int(2, 20)
      local cells = H.random_cells(rng, w, h, rng.pick({ 0, 0.1, 0.25, 0.4 }), COSTS)
      local pol = rng.pick({ "never", "always", "no_corner_cutting", "one_obstacle", false })
      local rpol = pol or "no_corner_cutting"
      local grid = astar.grid.from_table(cells)
      for _ = 1, 4 do
        -- a random walk of neighbour steps, blocked cells and corners included
        local pts = { { rng.int(1, w), rng.int(1, h) } }
        if rng.float() < 0.8 then
          local open = open_cells(cells, w, h)
          if #open > 0 then pts[1] = open[rng.int(1, #open)] end
        end
        for _ = 1, rng.int(0, 25) do
          local x, y = pts[#pts][1], pts[#pts][2]
          local cand = {}
          for _, d in ipairs(DIRS8) do
            local nx, ny = x + d[1], y + d[2]
            if nx >= 1 and nx <= w and ny >= 1 and ny <= h and (rpol ~= "never" or d[1] == 0 or d[2] == 0)
              and (H.walk(cells, w, h, nx, ny) or rng.float() < 0.15) then
              cand[#cand + 1] = { nx, ny }
            end
          end
          if #cand == 0 then break end
          pts[#pts + 1] = cand[rng.int(1, #cand)]
        end
        -- the expectation
        local want
        for i, p in ipairs(pts) do
          if not H.walk(cells, w, h, p[1], p[2]) then
            want = { n = 3, nil, ("point %d (%d, %d) is blocked"):format(i, p[1], p[2]), "blocked" }
            seen.cell = seen.cell + 1
            break
          end
          if i > 1 and not corner_ok(cells, w, h, pts[i - 1][1], pts[i - 1][2], p[1], p[2], rpol) then
            want = { n = 3, nil, ("step %d -> %d cuts a blocked corner"):format(i - 1, i), "blocked" }
            seen.corner = seen.corner + 1
            break
          end
        end
        total = total + 1
        local got
        if pol then got = H.pack(grid:to_path(flat(pts), pol)) else got = H.pack(grid:to_path(flat(pts))) end
        local err
        if want then
          if not same_pack(want, got) then err = ("expected %s, got %s"):format(fmt_pack(want), fmt_pack(got)) end
        else
          seen.path = seen.path + 1
          local p = got[1]
          local cost = H.route_cost(cells, w, h, pts, rpol)
          if got.n ~= 1 or type(p) ~= "userdata" then
            err = "expected a Path, got " .. fmt_pack(got)
          elseif not H.same_points(H.points_of(p), pts) then
            err = "the Path's points differ: " .. fmt_pts(H.points_of(p))
          elseif not H.close(p:cost(), cost) then
            err = ("cost %.17g, the steps cost %.17g"):format(p:cost(), cost)
          elseif p:stats().algorithm ~= "to_path" or p:stats().expanded ~= 0 then
            err = ("stats(): algorithm %s, expanded %s"):format(tostring(p:stats().algorithm),
              tostring(p:stats().expanded))
          elseif grid:check(p) ~= true then
            err = "check of the fresh path answered " .. fmt_pack(H.pack(grid:check(p)))
          end
        end
        if err then
          fails[#fails + 1] = ("%s\ngrid #%d %s, points %s\n%s"):format(err, id, tostring(pol), fmt_pts(pts),
            H.fmt_grid(cells, w, h))
        end
      end
      grid:close()
    end
    report(fails, total)
    assert.is_true(seen.path > 300 and seen.cell > 50 and seen.corner > 30,
      ("paths %d, blocked cells %d, cut corners %d"):format(seen.path, seen.cell, seen.corner))
  end)

  it("raises with exact messages on malformed input", function()
    local grid = astar.grid.parse("...\n...\n...", { ["."] = 1 })
    local msg = function(m) return "bad argument #1 to 'to_path' (" .. m .. ")" end
    H.checkerr(msg("table expected, got string"), grid.to_path, grid, "1,1")
    H.checkerr(msg("table expected, got nil"), grid.to_path, grid, nil)
    H.checkerr(msg("table expected, got no value"), grid.to_path, grid)
    H.checkerr(msg("expected {x1, y1, x2, y2, ...} with at least one point"), grid.to_path, grid, {})
    H.checkerr(msg("expected {x1, y1, x2, y2, ...} with at least one point"), grid.to_path, grid, { 1, 1, 2 })
    H.checkerr(msg("point 2 is not a cell of the grid"), grid.to_path, grid, { 1, 1, 0, 1 })
    H.checkerr(msg("point 1 is not a cell of the grid"), grid.to_path, grid, { 1.5, 1 })
    H.checkerr(msg("point 1 is not a cell of the grid"), grid.to_path, grid, { 1e300, 1 })
    H.checkerr(msg("point 1 is not a cell of the grid"), grid.to_path, grid, { 0 / 0, 1 })
    H.checkerr(msg("point 1 is not a cell of the grid"), grid.to_path, grid, { "1", 1 })
    H.checkerr(msg("point 2 is not a cell of the grid"), grid.to_path, grid, { 1, 1, 2, 4 })
    H.checkerr(msg("step 1 -> 2 is not a move to a neighbour"), grid.to_path, grid, { 1, 1, 3, 3 })
    H.checkerr(msg("step 1 -> 2 is not a move to a neighbour"), grid.to_path, grid, { 1, 1, 1, 1 })
    H.checkerr(msg("step 2 -> 3 is not a move to a neighbour"), grid.to_path, grid, { 1, 1, 2, 2, 2, 2 })
    H.checkerr(msg("step 1 -> 2 is not a move to a neighbour"), grid.to_path, grid, { 1, 1, 2, 2 }, "never")
    H.checkerr("bad argument #2 to 'to_path' (diagonal: invalid value 'sometimes')", grid.to_path, grid,
      { 1, 1 }, "sometimes")
    H.checkerr("calling 'to_path' on bad self (astar.Grid expected, got nil)", grid.to_path, nil, { 1, 1 })
    local one = grid:to_path({ 2, 3 })
    assert.are.same({ 1, 0 }, { #one, one:cost() })
    grid:close()
    H.checkerr("attempt to use a closed grid", grid.to_path, grid, { 1, 1 })
  end)
end)

---------------------------------------------------------------------------------------------------

describe("grid:check", function()
  it("reports the first blocked cell, changed cost or newly cut corner of stored paths, else true",
    function()
      local rng = H.rng(2002)
      local fails, total = {}, 0
      local seen = { ok = 0, blocked = 0, changed = 0, corner = 0, unchanged_set = 0 }
      for id = 1, 260 do
        local w, h = rng.int(3, 22), rng.int(3, 22)
        local cells = H.random_cells(rng, w, h, rng.pick({ 0, 0.1, 0.2, 0.3 }), COSTS)
        local open = open_cells(cells, w, h)
        local grid = astar.grid.from_table(cells)
        local pol = rng.pick(H.POLICIES)
        local was = H.copy_cells(cells, w, h)
        -- stored paths: found (with assorted options) or made by to_path
        local paths = {}
        for _ = 1, 3 do
          if #open >= 2 then
            local s, g = open[rng.int(1, #open)], open[rng.int(1, #open)]
            local opts = { diagonal = pol }
            local r = rng.float()
            if r < 0.15 then opts.algorithm = "bfs" elseif r < 0.3 then opts.weight = 2 end
            if rng.float() < 0.15 then opts.max_expansions, opts.partial = rng.int(0, 20), true end
            local p = grid:find(s[1], s[2], g[1], g[2], opts)
            if p then paths[#paths + 1] = p end
          end
        end
        if #open >= 1 then        -- a legal random walk through to_path
          local pts = { open[rng.int(1, #open)] }
          for _ = 1, rng.int(0, 15) do
            local x, y = pts[#pts][1], pts[#pts][2]
            local cand = {}
            for _, d in ipairs(DIRS8) do
              if H.legal_step(cells, w, h, x, y, d[1], d[2], pol) then cand[#cand + 1] = { x + d[1], y + d[2] } end
            end
            if #cand == 0 then break end
            pts[#pts + 1] = cand[rng.int(1, #cand)]
          end
          paths[#paths + 1] = assert(grid:to_path(flat(pts), pol))
        end
        -- edits: on the paths (block, re-price, the same value again, a corner of a diagonal step)
        -- and anywhere
        for _ = 1, rng.int(0, 4) do
          local p = paths[rng.int(1, math.max(1, #paths))]
          local x, y, v
          local r = rng.float()
          local diag = {}                 -- the diagonal steps of p: their corners
          if p then
            for i = 2, #p do
              local x1, y1 = p:get(i - 1)
              local x2, y2 = p:get(i)
              if x1 ~= x2 and y1 ~= y2 then diag[#diag + 1] = { x1, y1, x2, y2 } end
            end
          end
          if #diag > 0 and r < 0.3 then     -- block a corner of a diagonal step
            local d = diag[rng.int(1, #diag)]
            if rng.float() < 0.5 then x, y = d[3], d[2] else x, y = d[1], d[4] end
            v = false
          elseif p and #p >= 1 and r < 0.75 then
            local i = rng.int(1, #p)
            x, y = p:get(i)
            local r2 = rng.float()
            if r2 < 0.35 then
              v = false
            elseif r2 < 0.7 then
              v = rng.pick(COSTS)
            else
              v = cells[y][x]
              seen.unchanged_set = seen.unchanged_set + 1
            end
          else
            x, y, v = rng.int(1, w), rng.int(1, h), rng.pick({ false, 1, 2, 0.5 })
          end
          if v == nil then v = false end
          if rng.float() < 0.15 then
            grid:fill(x, y, 1, 1, v)
          else
            grid:set(x, y, v)
          end
          cells[y][x] = v
        end
        for pi, p in ipairs(paths) do
          total = total + 1
          local pts = H.points_of(p)
          local want = expected_check(was, cells, w, h, pts, pol)
          local got = H.pack(grid:check(p))
          if not same_pack(want, got) then
            fails[#fails + 1] = ("grid #%d path %d (%s): check gave %s, expected %s\npoints %s\nbefore:\n%s"
              .. "\nafter:\n%s"):format(id, pi, pol, fmt_pack(got), fmt_pack(want), fmt_pts(pts), H.fmt_grid(was, w, h),
              H.fmt_grid(cells, w, h))
          elseif want.n == 1 then
            seen.ok = seen.ok + 1
          elseif want[3] == "changed" then
            seen.changed = seen.changed + 1
          elseif cells[pts[want[2]][2]][pts[want[2]][1]] == false then
            seen.blocked = seen.blocked + 1
          else
            seen.corner = seen.corner + 1
          end
        end
        grid:close()
      end
      report(fails, total)
      assert.is_true(seen.ok > 200 and seen.blocked > 40 and seen.changed > 40 and seen.corner > 15
        and seen.unchanged_set > 20, ("true %d, blocked cells %d, changed %d, cut corners %d (same-value sets %d)")
        :format(seen.ok, seen.blocked, seen.changed, seen.corner, seen.unchanged_set))
    end)

  it("is true again once an edit is undone; other grids' paths: checked by cells and costs", function()
    local grid = astar.grid.parse("....\n....\n....", { ["."] = 1 })
    local p = grid:find(1, 1, 4, 3)
    assert.are.equal(true, grid:check(p))
    local x, y = p:get(2)
    grid:set(x, y, 2)
    assert.are.same({ false, 2, "changed" }, { grid:check(p) })
    grid:set(x, y, 1)
    assert.are.equal(true, grid:check(p))
    local twin = astar.grid(4, 3, 1)
    assert.are.equal(true, twin:check(p))
    twin:set(4, 3, 3)
    assert.are.same({ false, #p, "changed" }, { twin:check(p) })
    twin:close()
    grid:close()
  end)

  it("raises with exact messages", function()
    local grid = astar.grid(5, 5)
    H.checkerr("bad argument #1 to 'check' (astar.Path of a grid expected, got nil)", grid.check, grid, nil)
    H.checkerr("bad argument #1 to 'check' (astar.Path of a grid expected, got no value)", grid.check, grid)
    H.checkerr("bad argument #1 to 'check' (astar.Path of a grid expected, got string)", grid.check, grid, "x")
    local g = astar.graph()
    local a, b = g:add_node(0, 0), g:add_node(1, 0)
    g:add_edge(a, b)
    H.checkerr("bad argument #1 to 'check' (astar.Path of a grid expected, got userdata)", grid.check, grid,
      g:find(a, b))
    H.checkerr("calling 'check' on bad self (astar.Grid expected, got nil)", grid.check, nil, grid:find(1, 1, 2, 2))
    local p = grid:find(1, 1, 5, 5)
    grid:close()
    H.checkerr("attempt to use a closed grid", grid.check, grid, p)
  end)

  it("a path that does not fit the grid raises, whatever its first cells are", function()
    local small = astar.grid.parse("...#.\n.....", { ["."] = 1, ["#"] = false })
    local big = astar.grid(9, 9)
    local p = big:find(1, 1, 9, 9)          -- the diagonal; (4, 4) is outside `small`
    H.checkerr("bad argument #1 to 'check' (the path does not fit this grid)", small.check, small, p)
    local q = big:find(1, 1, 9, 1)          -- (4, 1) is blocked in `small`, (6, 1) is outside it
    H.checkerr("bad argument #1 to 'check' (the path does not fit this grid)", small.check, small, q)
    small:close()
    big:close()
  end)
end)

---------------------------------------------------------------------------------------------------

describe("grid:splice", function()
  -- One random splice scenario, checked against the model. Returns nil or a failure, and the kind
  -- of outcome for the coverage counts.
  local function check_splice(grid, cells, w, h, path, at, n, ratio, pol, extra)
    local len = #path
    local pts = H.points_of(path)
    local a, goal = pts[at], pts[len]
    local opts = { diagonal = pol, ratio = ratio }
    local fopts = { diagonal = pol }
    for k, v in pairs(extra or {}) do opts[k], fopts[k] = v, v end
    local got = H.pack(grid:splice(path, at, n, opts))
    local full = H.pack(grid:find(a[1], a[2], goal[1], goal[2], fopts))
    -- the model's view
    local k = math.min(at + n, len)
    while k < len and not H.walk(cells, w, h, pts[k][1], pts[k][2]) do k = k + 1 end
    local kk = (pts[k][2] - 1) * w + pts[k][1]
    local dist, minS, maxS = H.optimal_step_range(cells, w, h, a[1], a[2], pol)
    if not H.walk(cells, w, h, a[1], a[2]) then dist, minS, maxS = {}, {}, {} end
    local dk = H.walk(cells, w, h, pts[k][1], pts[k][2]) and dist[kk] or nil
    local tail = {}
    for i = k, len do tail[#tail + 1] = pts[i] end
    local tail_cost = H.route_cost(cells, w, h, tail, pol)
    local limit = (ratio or 3) * (k - at)
    local must_fallback = dk == nil or tail_cost == nil or minS[kk] > limit
    local must_splice = dk ~= nil and tail_cost ~= nil and maxS[kk] <= limit
    local p = got[1]
    if got.n == 1 and type(p) == "userdata" and p:stats().algorithm == "to_path" then
      if must_fallback then
        return ("spliced, but %s"):format(dk == nil and "the detour's end is unreachable"
          or tail_cost == nil and "the kept tail is not walkable"
          or ("every cheapest detour has more than %g steps"):format(limit)), "bad"
      end
      local rpts = H.points_of(p)
      -- the detour joins the old path at its first cell of the tail (point j >= k: a cheapest
      -- detour to k may cross the tail earlier, and joining there avoids a loop); the old
      -- path follows unchanged from j
      local tailpos = {}
      for i = len, k, -1 do tailpos[(pts[i][2] - 1) * w + pts[i][1]] = i end
      local m, j = nil, nil
      for i, r in ipairs(rpts) do
        local t = tailpos[(r[2] - 1) * w + r[1]]
        if t then m, j = i, t; break end
      end
      if not m or rpts[1][1] ~= a[1] or rpts[1][2] ~= a[2] or #rpts - m ~= len - j then
        return ("spliced path %s does not go from the agent %s to the old tail (from point %d %s) then on")
          :format(fmt_pts(rpts), fmt_pts({ a }), k, fmt_pts({ pts[k] })), "bad"
      end
      for i = j + 1, len do
        local r = rpts[m + i - j]
        if r[1] ~= pts[i][1] or r[2] ~= pts[i][2] then
          return ("the kept tail differs from the old path at old point %d"):format(i), "bad"
        end
      end
      local prefix = {}
      for i = 1, m do prefix[i] = rpts[i] end
      local pc, perr = H.route_cost(cells, w, h, prefix, pol)
      if not pc then return "illegal detour: " .. perr, "bad" end
      local dj = dist[(pts[j][2] - 1) * w + pts[j][1]]
      if not H.close(pc, dj) then return ("the detour costs %.17g, the cheapest %.17g"):format(pc, dj), "bad" end
      if m - 1 > limit then return ("the detour has %d steps, more than %g"):format(m - 1, limit), "bad" end
      local total_cost, terr = H.route_cost(cells, w, h, rpts, pol)
      if not total_cost then return "illegal spliced path: " .. terr, "bad" end
      if not H.close(p:cost(), total_cost) then
        return ("path:cost() %.17g, its steps cost %.17g"):format(p:cost(), total_cost), "bad"
      end
      local seen = {}
      for i, r in ipairs(rpts) do
        local key = r[2] * 65536 + r[1]
        if seen[key] then
          return ("the spliced path visits %s twice (points %d and %d): %s"):format(fmt_pts({ r }), seen[key], i,
            fmt_pts(rpts)), "loop"
        end
        seen[key] = i
      end
      local best = H.dijkstra(cells, w, h, a[1], a[2], goal[1], goal[2], pol)
      if best == nil or total_cost < best * (1 - 1e-9) then
        return ("spliced cost %.17g below the optimum %s"):format(total_cost, tostring(best)), "bad"
      end
      return nil, must_splice and "spliced" or "spliced (either)"
    end
    -- a fallback: exactly the full re-plan
    if must_splice then
      return ("fell back to a full re-plan though a cheapest detour of <= %g steps reaches point %d and the "
        .. "tail is walkable: got %s"):format(
        limit, k, fmt_pack(got)), "bad"
    end
    local d = H.result_diff(full, got)
    if d then return "the fallback differs from find: " .. d, "bad" end
    local want = H.walk(cells, w, h, a[1], a[2]) and H.walk(cells, w, h, goal[1], goal[2])
      and H.dijkstra(cells, w, h, a[1], a[2], goal[1], goal[2], pol)
    if want then
      if not (p and H.close(p:cost(), want)) then
        return ("the fallback costs %s, the optimum %.17g"):format(tostring(p and p:cost()), want), "bad"
      end
    elseif p ~= nil then
      return "the fallback found a path where the reference has none", "bad"
    end
    local why = dk == nil and "fallback: no detour" or tail_cost == nil and "fallback: tail" or "fallback: ratio"
    return nil, why
  end

  it("random edits ahead of the agent: a legal detour to the right point plus the old tail, or " ..
    "exactly find's full re-plan when it must fall back", function()
    local rng = H.rng(3003)
    local fails, total, kinds = {}, 0, {}
    for id = 1, 800 do
      local w, h = rng.int(8, 28), rng.int(8, 28)
      local cells = H.random_cells(rng, w, h, rng.pick({ 0, 0.1, 0.2, 0.3 }), COSTS)
      local open = open_cells(cells, w, h)
      local pol = rng.pick(H.POLICIES)
      local grid = astar.grid.from_table(cells)
      local s, g = open[rng.int(1, #open)], open[rng.int(1, #open)]
      local path = #open > 1 and grid:find(s[1], s[2], g[1], g[2], { diagonal = pol })
      if path and #path >= 3 then
        local len = #path
        local at = rng.int(1, len)
        local n = rng.int(1, 12)
        local ratio = rng.pick({ false, false, 1, 1, 1, 1.5, 2, 5, 100 }) or nil
        -- edits, mostly on the stretch being re-planned and just after it
        for _ = 1, rng.int(0, 4) do
          local x, y, v
          if rng.float() < 0.7 then
            local i = math.min(len, at + rng.int(0, n + 3))
            x, y = path:get(i)
            if rng.float() < 0.5 then     -- next to it rather than on it
              x = math.max(1, math.min(w, x + rng.int(-1, 1)))
              y = math.max(1, math.min(h, y + rng.int(-1, 1)))
            end
          else
            x, y = rng.int(1, w), rng.int(1, h)
          end
          v = rng.pick({ false, false, false, 1, 2, 0.5 })
          H.edit_cells(rng, grid, cells, w, h, x, y, v, 0.35, 4)   -- sometimes a wall segment
        end
        total = total + 1
        local ok, err, kind = pcall(check_splice, grid, cells, w, h, path, at, n, ratio, pol)
        if not ok then err, kind = "raised: " .. tostring(err), "bad" end
        kinds[kind or "?"] = (kinds[kind or "?"] or 0) + 1
        if err then
          fails[#fails + 1] = ("%s\ngrid #%d %s, at %d, n %d, ratio %s, old path %s\nnow:\n%s"):format(err, id,
            pol, at, n, tostring(ratio), fmt_pts(H.points_of(path)), H.fmt_grid(cells, w, h))
        end
      end
      grid:close()
    end
    if os.getenv("ASTAR_PRINT_KINDS") then
      for name, count in pairs(kinds) do io.stderr:write(("  [splice] %s: %d\n"):format(name, count)) end
    end
    report(fails, total)
    local function k(name) return kinds[name] or 0 end
    assert.is_true(k("spliced") > 80 and k("fallback: no detour") > 10 and k("fallback: tail") > 10
      and k("fallback: ratio") > 10, ("spliced %d, no detour %d, tail %d, ratio %d"):format(k("spliced"),
      k("fallback: no detour"), k("fallback: tail"), k("fallback: ratio")))
  end)

  it("on an unchanged grid, splicing an optimal path anywhere keeps it optimal", function()
    local rng = H.rng(55)
    for _ = 1, 40 do
      local w, h = rng.int(5, 25), rng.int(5, 25)
      local cells = H.random_cells(rng, w, h, 0.2, COSTS)
      local open = open_cells(cells, w, h)
      local pol = rng.pick(H.POLICIES)
      local grid = astar.grid.from_table(cells)
      local s, g = open[rng.int(1, #open)], open[rng.int(1, #open)]
      local path = grid:find(s[1], s[2], g[1], g[2], { diagonal = pol })
      if path then
        for at = 1, #path do
          local n = rng.int(1, 10)
          local r = grid:splice(path, at, n, { diagonal = pol })
          local ax, ay = path:get(at)
          local want = H.dijkstra(cells, w, h, ax, ay, g[1], g[2], pol)
          local cost = H.route_cost(cells, w, h, H.points_of(r), pol)
          assert.is_true(cost ~= nil and H.close(cost, want) and H.close(r:cost(), want),
            ("at %d, n %d: cost %s (steps %s), optimum %s"):format(at, n, tostring(r:cost()), tostring(cost),
              tostring(want)))
        end
      end
      grid:close()
    end
  end)

  it("worked cases: a short way round is spliced in; a long one gives the full re-plan", function()
    local legend = { ["."] = 1, ["#"] = false }
    local grid = astar.grid.parse(table.concat({
      "..................",
      "..................",
      "..................",
      "..................",
    }, "\n"), legend)
    local path = grid:find(1, 3, 18, 3)
    assert.are.equal(18, #path)
    grid:set(5, 3, false)                 -- one rock on the way: a step around it
    local r = grid:splice(path, 2, 6)
    assert.are.equal("to_path", r:stats().algorithm)
    local rp = H.points_of(r)
    for i = 9, 18 do                        -- the tail after point 8 is kept
      assert.are.same({ i, 3 }, rp[#rp - (18 - i)])
    end
    assert.is_true(H.close(r:cost(), H.route_cost(H.cells_from_text(table.concat({
      "..................", "..................", "....#.............", "..................",
    }, "\n"), legend), 18, 4, rp, "no_corner_cutting")))
    -- a wall across the map with a gap far away: the detour would be far longer than 3x
    local tall = astar.grid(18, 12)
    local tpath = tall:find(1, 10, 18, 10)
    tall:fill(5, 1, 1, 12, false)
    tall:set(5, 1, 1)
    local before = H.pack(tall:find(2, 10, 18, 10))
    local got = H.pack(tall:splice(tpath, 2, 4))
    assert.is_nil(H.result_diff(before, got))
    assert.are.equal("jps", got[1]:stats().algorithm)
    tall:close()
    -- the agent on the goal
    local last = grid:splice(path, #path)
    assert.are.same({ 1, 0 }, { #last, last:cost() })
    -- the goal walled off: the re-plan's own answer
    grid:fill(17, 2, 2, 3, false)
    assert.are.same(H.pack(grid:find(2, 3, 18, 3)), H.pack(grid:splice(path, 2, 4)))
    -- the agent's own cell blocked
    grid:set(2, 3, false)
    assert.are.same({ n = 3, nil, "start (2, 3) is blocked", "blocked" }, H.pack(grid:splice(path, 2, 4)))
    grid:close()
  end)

  it("never walks a cell twice: a detour through the kept tail is not spliced in as a loop", function()
    local grid = astar.grid.parse(".....\n..#..\n.....", { ["."] = 1, ["#"] = false })
    local path = assert(grid:to_path({ 1, 2, 2, 2, 2, 1, 3, 1, 4, 1, 5, 1 }, "never"))
    grid:set(2, 1, false)                 -- the way to point 4, (3, 1), now comes through (4, 1)
    local r = grid:splice(path, 1, 3, { diagonal = "never" })
    local pts = H.points_of(r)
    local seen = {}
    for i, p in ipairs(pts) do
      local key = p[2] * 65536 + p[1]
      assert.is_nil(seen[key], ("(%d, %d) is visited at points %s and %d: %s"):format(p[1], p[2],
        tostring(seen[key]), i, fmt_pts(pts)))
      seen[key] = i
    end
    assert.are.same({ 5, 1 }, pts[#pts])
  end)

  it("with a cost callback, a spliced path is priced by the callback, as find's paths are", function()
    local grid = astar.grid(20, 5)
    local path = grid:find(1, 3, 20, 3)
    grid:set(6, 3, false)
    local double = function(_, _, _, _, base) return 2 * base end
    local r = grid:splice(path, 1, 8, { cost = double })
    local cost = H.route_cost(H.cells_from_text(("....................\n"):rep(2)
      .. ".....#..............\n" .. ("....................\n"):rep(2), { ["."] = 1, ["#"] = false }),
      20, 5, H.points_of(r), "no_corner_cutting", double)
    assert.is_true(H.close(r:cost(), cost), ("spliced path:cost() %.17g, its steps cost %.17g under the callback")
      :format(r:cost(), cost))
    grid:close()
  end)

  it("options of find that cannot apply to a splice give a clean error or find's own answer", function()
    local grid = astar.grid(10, 5)
    local path = grid:find(1, 3, 10, 3)
    grid:fill(4, 1, 1, 5, false)            -- no way round at all
    for _, extra in ipairs({ { partial = true }, { within = 1 }, { goals = { { 10, 3 } } } }) do
      local name = next(extra)
      local ok, a, b, c = pcall(grid.splice, grid, path, 1, 4, extra)
      if ok then
        local want = H.pack(grid:find(1, 3, 10, 3, extra))
        assert.is_nil(H.result_diff(want, { n = select("#", a, b, c), a, b, c }),
          "splice with " .. name .. " returned something else than find")
      else
        assert.is_truthy(type(a) == "string" and a:find("^bad argument #4 to 'splice' %("),
          "splice with " .. name .. " raised: " .. tostring(a))
      end
    end
    grid:close()
  end)

  it("raises with exact messages", function()
    local grid = astar.grid(10, 3)
    local path = grid:find(1, 1, 10, 1)
    local S = grid.splice
    H.checkerr("calling 'splice' on bad self (astar.Grid expected, got nil)", S, nil, path)
    H.checkerr("bad argument #1 to 'splice' (astar.Path expected, got nil)", S, grid)
    H.checkerr("bad argument #1 to 'splice' (astar.Path expected, got table)", S, grid, {})
    H.checkerr("bad argument #2 to 'splice' (index out of range: 0 not in [1, 10])", S, grid, path, 0)
    H.checkerr("bad argument #2 to 'splice' (index out of range: 11 not in [1, 10])", S, grid, path, 11)
    H.checkerr("bad argument #2 to 'splice' (index out of range: 1.5 not in [1, 10])", S, grid, path, 1.5)
    H.checkerr("bad argument #3 to 'splice' (n must be an integer >= 1, got 0)", S, grid, path, 1, 0)
    H.checkerr("bad argument #3 to 'splice' (n must be an integer >= 1, got 2.5)", S, grid, path, 1, 2.5)
    H.checkerr("bad argument #4 to 'splice' (table expected, got number)", S, grid, path, 1, 2, 5)
    H.checkerr("bad argument #4 to 'splice' (option 'ratio': must be a number >= 1, got 0.5)", S, grid, path,
      1, 2, { ratio = 0.5 })
    H.checkerr("bad argument #4 to 'splice' (option 'ratio': number expected, got string)", S, grid, path,
      1, 2, { ratio = "x" })
    grid:close()
    H.checkerr("attempt to use a closed grid", S, grid, path, 1, 2)
  end)

  it("prints nan as 'nan' on every VM, as the library's C messages do", function()
    local grid = astar.grid(10, 3)
    local path = grid:find(1, 1, 10, 1)
    H.checkerr("bad argument #2 to 'splice' (index out of range: nan not in [1, 10])", grid.splice, grid, path,
      0 / 0)
    H.checkerr("bad argument #3 to 'splice' (n must be an integer >= 1, got nan)", grid.splice, grid, path, 1,
      0 / 0)
    H.checkerr("bad argument #4 to 'splice' (option 'ratio': must be a number >= 1, got nan)", grid.splice,
      grid, path, 1, 2, { ratio = 0 / 0 })
    grid:close()
  end)
end)
