-- Time-sliced queries: grid:query, Query:step / result / cancel / stats.
--
-- Every expectation comes from the independent references of spec/helper.lua (a Dijkstra and a
-- BFS written from the README's cost model) or from grid:find called on the same grid with the
-- same arguments at the same moment (the README: q:result() gives "exactly what find would have
-- returned"). Expansion counts are also checked through a witness the library does not compute:
-- the distinct cells a cost callback is asked about as the *from* end of a step are cells being
-- expanded, so during a step of n there can be at most n of them.
--
-- ASTAR_QUERY_GRIDS=n changes the number of random grids (default 250).

local astar = require "astar"
local H = require "spec.helper"

local unpack = H.unpack
local COSTS = { 1, 1, 1, 2, 3, 0.5, 1.25 }
local N_GRIDS = tonumber(os.getenv("ASTAR_QUERY_GRIDS") or "") or 250
local MAX_REPORT = tonumber(os.getenv("ASTAR_MAX_REPORT") or "") or 6
local STATUSES = { running = true, found = true, partial = true, none = true }

local function report(fails, total) return H.report(fails, total, MAX_REPORT) end

local open_cells = H.open_cells

-- A deterministic hash of a step, in [0, 1).
local function step_hash(seed, x1, y1, x2, y2)
  local v = (seed * 7919 + x1 * 104729 + y1 * 1299709 + x2 * 15485863 + y2 * 32452843) % 2147483647
  v = (v * 16807) % 2147483647
  v = (v * 16807) % 2147483647
  return v / 2147483647
end

-- A cost callback that never goes below `base` (so the built-in heuristics stay admissible) and
-- forbids about one step in ten.
local function make_costfn(seed)
  return function(x1, y1, x2, y2, base)
    local r = step_hash(seed, x1, y1, x2, y2)
    if r < 0.1 then return false end
    return base * (1 + 2 * r)
  end
end

-- A witness of expansions: wraps a cost callback (or makes the identity one) and records the
-- distinct cells that are the `from` end of the steps it is asked about.
local function make_witness(costfn)
  local wt = { seen = {}, count = 0 }
  function wt.reset() wt.seen, wt.count = {}, 0 end
  function wt.fn(x1, y1, x2, y2, base)
    local k = y1 * 65536 + x1
    if not wt.seen[k] then
      wt.seen[k] = true
      wt.count = wt.count + 1
    end
    if costfn then return costfn(x1, y1, x2, y2, base) end
    return base
  end
  return wt
end

local function fmt_opts(opts)
  local o = {}
  for k, v in pairs(opts or {}) do
    if k == "goals" then
      local gs = {}
      for _, g in ipairs(v) do gs[#gs + 1] = "{" .. g[1] .. "," .. g[2] .. "}" end
      v = "{" .. table.concat(gs, ",") .. "}"
    elseif type(v) == "function" then
      v = "<function>"
    end
    o[#o + 1] = k .. "=" .. tostring(v)
  end
  table.sort(o)
  return "{" .. table.concat(o, ", ") .. "}"
end

-- Steps q to its end with random step sizes in [lo, hi], checking every step: the second value is
-- an integer in [0, n], stats().expanded moves by exactly that much, a "running" step used its
-- whole budget, and the witness (if any) saw at most n expanding cells. Returns the final status,
-- the number of steps and the first problem seen (or nil); the status is nil if the query could not
-- be stepped to its end.
local function step_to_end(q, rng, lo, hi, witness)
  local steps, status, spent, problem = 0, nil, nil, nil -- luacheck: ignore 311
  local function note(msg) problem = problem or msg end
  repeat
    local n = rng.int(lo, hi)
    if witness then witness.reset() end
    local before = q:stats()
    status, spent = q:step(n)
    local after = q:stats()
    steps = steps + 1
    if not STATUSES[status] then
      return nil, steps, ("step %d returned the status %s"):format(steps, tostring(status))
    end
    if not (H.is_int(spent) and spent >= 0 and spent <= n) then
      note(("step(%d) #%d reported %s expansions"):format(n, steps, tostring(spent)))
      spent = 0
    end
    if after.status ~= status then
      note(("step returned %s but stats().status is %s"):format(status, tostring(after.status)))
    end
    if after.restarts == before.restarts and after.expanded - before.expanded ~= spent then
      note(("step(%d) #%d reported %d expansions, stats().expanded went from %d to %d"):format(
        n, steps, spent, before.expanded, after.expanded))
    end
    if status == "running" and spent ~= n then
      note(("step(%d) #%d is still running after only %d expansions"):format(n, steps, spent))
    end
    if witness and witness.count > n then
      note(("step(%d) #%d: the cost callback saw %d distinct expanding cells"):format(n, steps, witness.count))
    end
    if steps > 200000 then return nil, steps, "the query did not finish" end
  until status ~= "running"
  return status, steps, problem
end

-- The README's outcome of find for this query, from the reference: "blocked", "no_path", or the
-- optimal cost (and, for BFS, the fewest steps).
local function reference(c, q, opts, costfn)
  local pol = opts.diagonal or "no_corner_cutting"
  if not H.walk(c.cells, c.w, c.h, q.sx, q.sy) then return { code = "blocked" } end
  local goals = opts.goals or { { q.gx, q.gy } }
  local any = false
  for _, g in ipairs(goals) do
    if H.walk(c.cells, c.w, c.h, g[1], g[2]) then any = true end
  end
  if not any then return { code = "blocked" } end
  local dist = H.dijkstra_all(c.cells, c.w, c.h, q.sx, q.sy, pol, costfn)
  local best
  for _, g in ipairs(goals) do
    local d = H.walk(c.cells, c.w, c.h, g[1], g[2]) and dist[(g[2] - 1) * c.w + g[1]]
    if d and (best == nil or d < best) then best = d end
  end
  if best == nil then return { code = "no_path" } end
  local r = { cost = best }
  if opts.algorithm == "bfs" and not costfn then
    local steps = H.bfs_all(c.cells, c.w, c.h, q.sx, q.sy, pol)
    for _, g in ipairs(goals) do
      local s = H.walk(c.cells, c.w, c.h, g[1], g[2]) and steps[(g[2] - 1) * c.w + g[1]]
      if s and (r.steps == nil or s < r.steps) then r.steps = s end
    end
  end
  return r
end

-- Checks a packed result (find's or q:result()'s) against the reference. nil or a failure.
local function check_against_reference(c, q, opts, costfn, res)
  local ref = reference(c, q, opts, costfn)
  local pol = opts.diagonal or "no_corner_cutting"
  local path, msg, code = res[1], res[2], res[3]
  if ref.code then
    if path ~= nil or code ~= ref.code or type(msg) ~= "string" then
      return ("expected nil, msg, %q, got %s, %s, %s"):format(ref.code, tostring(path), tostring(msg),
        tostring(code))
    end
    return nil
  end
  if path == nil or res.n ~= 1 then
    return ("expected a path of cost %.17g, got %s, %s, %s"):format(ref.cost, tostring(path),
      tostring(msg), tostring(code))
  end
  local gx, gy = q.gx, q.gy
  if opts.goals then
    local gi = path:stats().goal
    if not (H.is_int(gi) and opts.goals[gi]) then return "stats().goal is " .. tostring(gi) end
    gx, gy = opts.goals[gi][1], opts.goals[gi][2]
  end
  local ok, sum, npts = pcall(H.check_path, c.cells, c.w, c.h, path, q.sx, q.sy, gx, gy, pol, costfn)
  if not ok then return "illegal path: " .. tostring(sum) end
  if not H.close(path:cost(), sum) then
    return ("path:cost() = %.17g but its steps cost %.17g"):format(path:cost(), sum)
  end
  local alg, wgt = opts.algorithm or "astar", opts.weight or 1
  if (alg == "astar" or alg == "dijkstra" or alg == "auto" or alg == "jps") and wgt == 1 then
    if not H.close(sum, ref.cost) then return ("cost %.17g, optimal %.17g"):format(sum, ref.cost) end
  elseif alg == "astar" then
    if sum > wgt * ref.cost * (1 + 1e-9) or sum < ref.cost * (1 - 1e-9) then
      return ("weighted cost %.17g outside [%.17g, %g * that]"):format(sum, ref.cost, wgt)
    end
  else
    if sum < ref.cost * (1 - 1e-9) then return ("cost %.17g below the optimum %.17g"):format(sum, ref.cost) end
    if ref.steps and npts - 1 ~= ref.steps then
      return ("bfs path has %d steps, the fewest is %d"):format(npts - 1, ref.steps)
    end
  end
  return nil
end

-- Random grids with three queries each (mostly walkable ends).
local cases
local function get_cases()
  if cases then return cases end
  cases = {}
  local rng = H.rng(4242)
  for i = 1, N_GRIDS do
    local w, h = rng.int(2, 32), rng.int(2, 32)
    local cells = H.random_cells(rng, w, h, rng.pick({ 0, 0.1, 0.2, 0.3, 0.4, 0.55 }), COSTS)
    local open = open_cells(cells, w, h)
    local qs = {}
    for k = 1, 3 do
      local s, g
      local r = rng.float()
      if #open > 0 and r < 0.85 then
        s, g = open[rng.int(1, #open)], open[rng.int(1, #open)]
      elseif #open > 0 and r < 0.9 then
        s = open[rng.int(1, #open)]
        g = s
      else
        s, g = { rng.int(1, w), rng.int(1, h) }, { rng.int(1, w), rng.int(1, h) }
      end
      qs[k] = { sx = s[1], sy = s[2], gx = g[1], gy = g[2] }
    end
    cases[i] = { id = i, w = w, h = h, cells = cells, open = open, queries = qs }
  end
  return cases
end

local function where(c, q, opts, extra)
  return ("grid #%d (%dx%d) (%d,%d)->(%d,%d) %s%s\n%s"):format(c.id, c.w, c.h, q.sx, q.sy, q.gx, q.gy,
    fmt_opts(opts), extra and (" " .. extra) or "", H.fmt_grid(c.cells, c.w, c.h))
end

-- Random options of find for policy `pol`. Returns opts, costfn (the callback as given, or nil).
local function random_opts(rng, c, pol)
  local opts = { diagonal = pol }
  local r = rng.float()
  if r < 0.35 then
    opts.algorithm = "astar"
  elseif r < 0.5 then
    opts.algorithm = "dijkstra"
  elseif r < 0.68 then
    opts.algorithm = "astar"
    opts.weight = rng.pick({ 1.5, 2, 4 })
  elseif r < 0.84 then
    opts.algorithm = "bfs"
  else
    opts.algorithm = "greedy"
  end
  if rng.float() < 0.6 then opts.heuristic = rng.pick(H.ADMISSIBLE[pol]) end
  if rng.float() < 0.2 and #c.open > 0 then
    local goals = {}
    for k = 1, rng.int(1, 3) do
      goals[k] = rng.float() < 0.85 and c.open[rng.int(1, #c.open)] or { rng.int(1, c.w), rng.int(1, c.h) }
    end
    opts.goals = goals
  end
  local costfn
  if rng.float() < 0.3 then costfn = make_costfn(rng.int(1, 100000)) end
  return opts, costfn
end

local function find_args(q, opts)
  if opts.goals then return { q.sx, q.sy, opts } end
  return { q.sx, q.sy, q.gx, q.gy, opts }
end

---------------------------------------------------------------------------------------------------

describe("grid:query stepped to its end", function()
  it("gives exactly find's result, and the reference's optimum, for every policy, algorithm, " ..
    "weight, goals and cost callbacks, with random step sizes 1..50", function()
    local rng = H.rng(99)
    local fails, total = {}, 0
    local seen = { found = 0, no_path = 0, blocked = 0, multi = 0, goals = 0, callback = 0,
      astar = 0, dijkstra = 0, bfs = 0, greedy = 0, weighted = 0 }
    for _, c in ipairs(get_cases()) do
      local grid = astar.grid.from_table(c.cells)
      for _, q in ipairs(c.queries) do
        for _, pol in ipairs(H.POLICIES) do
          local opts, costfn = random_opts(rng, c, pol)
          -- the callback the library gets: the case's own, or (sometimes) the identity, wrapped in
          -- the witness either way
          local witness
          if costfn or rng.float() < 0.3 then
            witness = make_witness(costfn)
            opts.cost = witness.fn
          end
          total = total + 1
          local args = find_args(q, opts)
          local query = grid:query(unpack(args))
          local status, nsteps, problem = step_to_end(query, rng, 1, 50, witness)
          local err
          if not status then
            err = problem
          else
            local got = H.pack(query:result())
            local want = H.pack(grid:find(unpack(args)))
            err = H.result_diff(want, got)
            if err then err = "q:result() differs from find: " .. err end
            err = err or check_against_reference(c, q, opts, costfn, got)
            if not err then
              local again = H.pack(query:step(rng.int(0, 10)))
              if again[1] ~= status or again[2] ~= 0 then
                err = ("a finished query stepped again answered %s, %s"):format(tostring(again[1]),
                  tostring(again[2]))
              elseif got[1] ~= nil and query:stats().expanded ~= got[1]:stats().expanded then
                err = ("stats().expanded %d, the path's stats().expanded %d"):format(
                  query:stats().expanded, got[1]:stats().expanded)
              elseif (status == "found") ~= (got.n == 1 and got[1] ~= nil) then
                err = "status " .. status .. " but the result has " .. got.n .. " values"
              end
            end
            if problem then err = (err and (err .. "\n") or "") .. problem end
            local code = got[3] or "found"
            seen[code] = (seen[code] or 0) + 1
            if nsteps >= 3 then seen.multi = seen.multi + 1 end
          end
          if err then fails[#fails + 1] = err .. "\n" .. where(c, q, opts) end
          seen[opts.algorithm] = seen[opts.algorithm] + 1
          if opts.weight then seen.weighted = seen.weighted + 1 end
          if opts.goals then seen.goals = seen.goals + 1 end
          if opts.cost then seen.callback = seen.callback + 1 end
        end
      end
      grid:close()
    end
    report(fails, total)
    -- the random set must exercise every outcome and option, or this proves little
    local share = N_GRIDS / 250             -- fewer grids (ASTAR_QUERY_GRIDS): fewer of each
    assert.is_true(seen.found > 300 * share, "found: " .. seen.found)
    assert.is_true(seen.no_path > 20 * share, "no_path: " .. seen.no_path)
    assert.is_true(seen.blocked > 20 * share, "blocked: " .. seen.blocked)
    assert.is_true(seen.multi > 300 * share, "queries of 3 steps or more: " .. seen.multi)
    for _, k in ipairs({ "goals", "callback", "astar", "dijkstra", "bfs", "greedy", "weighted" }) do
      assert.is_true(seen[k] > 40 * share, k .. ": " .. seen[k])
    end
  end)

  it("a query that ends at once (blocked start or goal) reports no expansions of its own", function()
    local grid = astar.grid(10, 10)
    local warm = grid:query(1, 1, 10, 10)       -- leaves a used search context in the grid's pool
    assert.are.equal("found", (warm:step(1000)))
    grid:set(1, 1, false)
    local q = grid:query(1, 1, 10, 10)
    assert.are.same({ "none", 0 }, { q:step(1000) })
    assert.are.same({ nil, "start (1, 1) is blocked", "blocked" }, { q:result() })
    local st = q:stats()
    assert.are.same({ 0, 0, 0 }, { st.expanded, st.generated, st.restarts })
    grid:close()
  end)

  it("a step of n expands at most n nodes; step(0) expands none", function()
    local rng = H.rng(5)
    local w, h = 60, 60
    local cells = H.random_cells(rng, w, h, 0.2, COSTS)
    cells[1][1], cells[h][w] = 1, 1
    local grid = astar.grid.from_table(cells)
    local fails, total = {}, 0
    for _, pol in ipairs(H.POLICIES) do
      for _, n in ipairs({ 0, 1, 2, 7, 64 }) do
        local witness = make_witness(nil)
        local q = grid:query(1, 1, w, h, { diagonal = pol, cost = witness.fn, algorithm = "dijkstra" })
        local status, steps = "running", 0
        while status == "running" and steps < 20000 do
          witness.reset()
          local e0 = q:stats().expanded
          local spent
          status, spent = q:step(n)
          steps = steps + 1
          total = total + 1
          local e1 = q:stats().expanded
          if spent > n or e1 - e0 ~= spent or witness.count > n then
            fails[#fails + 1] = ("%s, step(%d): reported %d, stats moved %d, witness %d"):format(pol, n,
              spent, e1 - e0, witness.count)
            break
          end
          if n == 0 then
            if status ~= "running" or spent ~= 0 then
              fails[#fails + 1] = ("step(0) answered %s, %d"):format(status, spent)
            end
            break
          end
        end
        if n > 0 then
          local want = H.dijkstra(cells, w, h, 1, 1, w, h, pol)
          local p = q:result()
          if status ~= (want and "found" or "none") or (want and not H.close(p:cost(), want)) then
            fails[#fails + 1] = ("%s, step(%d): ended %s, cost %s, optimal %s"):format(pol, n, status,
              tostring(p and p:cost()), tostring(want))
          end
        end
      end
    end
    grid:close()
    report(fails, total)
  end)

  it("with the goal walled off and max_expansions = 5000, find and the query stop at 'limit' " ..
    "(or 'partial') having expanded at most 5000 nodes", function()
    local W = 120
    local grid = astar.grid(W, W)
    grid:fill(106, 106, 5, 5, false)
    grid:set(108, 108, 1)              -- the goal, inside a ring of walls
    local rng = H.rng(11)
    local fails, total = {}, 0
    for _, pol in ipairs(H.POLICIES) do
      for _, alg in ipairs({ "astar", "dijkstra", "bfs", "greedy" }) do
        local tag = ("%s / %s"):format(pol, alg)
        local base = { diagonal = pol, algorithm = alg, max_expansions = 5000 }
        -- pure C: the code, and no more than 5000 expansions per the partial path's stats
        total = total + 1
        local p, msg, code = grid:find(1, 1, 108, 108, base)
        if p ~= nil or code ~= "limit" or msg ~= "search limit reached before (108, 108) was found" then
          fails[#fails + 1] = ("%s: find gave %s, %s, %s"):format(tag, tostring(p), tostring(msg), tostring(code))
        end
        local popts = { diagonal = pol, algorithm = alg, max_expansions = 5000, partial = true }
        p, msg, code = grid:find(1, 1, 108, 108, popts)
        if p == nil or code ~= "partial" or msg ~= "search limit reached: partial path toward the goal"
          or p:stats().expanded > 5000 then
          fails[#fails + 1] = ("%s: partial find gave %s, %s, %s, expanded %s"):format(tag, tostring(p),
            tostring(msg), tostring(code), tostring(p and p:stats().expanded))
        end
        -- through a cost callback: the cells it saw expanding, counted independently
        local witness = make_witness(nil)
        local wopts = { diagonal = pol, algorithm = alg, max_expansions = 5000, cost = witness.fn }
        p, _, code = grid:find(1, 1, 108, 108, wopts)
        if p ~= nil or code ~= "limit" or witness.count > 5000 or witness.count < 2500 then
          fails[#fails + 1] = ("%s: with a callback find gave %s, %s, after %d expanding cells"):format(tag,
            tostring(p), tostring(code), witness.count)
        end
        -- the same as a query, stepped
        for _, o in ipairs({ base, popts }) do
          total = total + 1
          local q = grid:query(1, 1, 108, 108, o)
          local status, _, err = step_to_end(q, rng, 1, 700)
          local want = H.pack(grid:find(1, 1, 108, 108, o))
          local d = status and H.result_diff(want, H.pack(q:result()))
          if not status or err or d or q:stats().expanded > 5000
            or status ~= (o.partial and "partial" or "none") then
            fails[#fails + 1] = ("%s%s: query %s %s, expanded %d, %s"):format(tag, o.partial and " partial" or "",
              tostring(status), tostring(err or ""), q:stats().expanded, tostring(d))
          end
        end
      end
    end
    grid:close()
    report(fails, total)
  end)
end)

---------------------------------------------------------------------------------------------------
-- Partial paths. The README: "the path to the expanded cell closest to the goal (smallest
-- heuristic, then cheapest)". The expanded set cannot be observed, but for A* (weight 1, the
-- built-in heuristics, which are consistent) and Dijkstra it can be bracketed from the reference:
-- such a search expands cells in non-decreasing order of key = dist + h (Dijkstra: dist), so
--  * when the search ran dry ("no path"), it expanded exactly the reachable cells;
--  * when max_cost stopped it, it expanded exactly the cells with dist <= max_cost;
--  * when max_expansions = k stopped it, after e expansions of which r were re-expansions
--    (stats().expanded, stats().reopened), the d >= e - r distinct cells it expanded include every
--    cell whose key is below the (e - r)-th smallest key, and all have a key <= the e-th smallest.
-- So: the end cell must lie inside the upper bracket, and no cell of the lower bracket may have a
-- smaller heuristic (or the same heuristic and a smaller cost). Both are failable: an end cell
-- chosen by any other rule, or one never expanded, breaks them on random grids. A relative
-- tolerance of 1e-9 absorbs floating-point ties.

describe("partial paths", function()
  local EPS = 1e-9

  local function enclose(cells, w, h, gx, gy)
    for dy = -1, 1 do
      for dx = -1, 1 do
        local x, y = gx + dx, gy + dy
        if (dx ~= 0 or dy ~= 0) and x >= 1 and x <= w and y >= 1 and y <= h then cells[y][x] = false end
      end
    end
    cells[gy][gx] = 1
  end

  it("end at the expanded cell with the smallest heuristic (ties: the cheapest), for find and query",
    function()
      local rng = H.rng(314)
      local fails, total = {}, 0
      local seen = { no_path = 0, max_cost = 0, max_expansions = 0, lower = 0, found = 0 }
      for id = 1, 300 do
        local w, h = rng.int(6, 26), rng.int(6, 26)
        local cells = H.random_cells(rng, w, h, rng.pick({ 0, 0.1, 0.2, 0.3 }), COSTS)
        local open = open_cells(cells, w, h)
        if #open >= 2 then
          local s, g = open[rng.int(1, #open)], open[rng.int(1, #open)]
          local limit = rng.pick({ "no_path", "max_cost", "max_expansions" })
          if limit == "no_path" or rng.float() < 0.5 then enclose(cells, w, h, g[1], g[2]) end
          cells[s[2]][s[1]] = cells[s[2]][s[1]] or 1
          local pol = rng.pick(H.POLICIES)
          local alg = rng.pick({ "astar", "dijkstra" })
          local heur = rng.float() < 0.5 and "octile" or nil
          local hname = heur or H.default_heuristic(pol)
          local opts = { diagonal = pol, algorithm = alg, heuristic = heur, partial = true }
          local dist = H.dijkstra_all(cells, w, h, s[1], s[2], pol)
          local reach = {}
          for k in pairs(dist) do reach[#reach + 1] = k end
          if limit == "max_cost" then
            opts.max_cost = rng.float() * (rng.float() < 0.5 and 8 or 30)
          elseif limit == "max_expansions" then
            opts.max_expansions = rng.int(1, math.max(1, #reach))
          end
          local mc = H.min_cost(cells, w, h)
          local function hval(k)
            local x, y = (k - 1) % w + 1, math.floor((k - 1) / w) + 1
            return mc * H.hdist(hname, x, y, g[1], g[2])
          end
          local function key(k) return dist[k] + (alg == "astar" and hval(k) or 0) end
          local grid = astar.grid.from_table(cells)
          local res = H.pack(grid:find(s[1], s[2], g[1], g[2], opts))
          local q = grid:query(s[1], s[2], g[1], g[2], opts)
          local _, _, problem = step_to_end(q, rng, 1, 40)
          local d = H.result_diff(res, H.pack(q:result())) or problem
          local c = { id = id, w = w, h = h, cells = cells }
          local qq = { sx = s[1], sy = s[2], gx = g[1], gy = g[2] }
          local err
          total = total + 1
          if d then err = "q:result() differs from find: " .. d end
          local path, msg, code = res[1], res[2], res[3]
          if not err and code == "partial" then
            local ex, ey = path:get(-1)
            local ek = (ey - 1) * w + ex
            local ok, sum = pcall(H.check_path, cells, w, h, path, s[1], s[2], ex, ey, pol)
            if not ok then
              err = "illegal partial path: " .. tostring(sum)
            elseif not H.close(sum, path:cost()) or not dist[ek] or not H.close(sum, dist[ek], EPS) then
              err = ("partial path to (%d,%d) costs %.17g (path:cost() %.17g), the cheapest is %s"):format(
                ex, ey, sum, path:cost(), tostring(dist[ek]))
            else
              -- the brackets of the expanded set
              local lower, upper
              local st = path:stats()
              if msg:find("^no path") then
                lower = function() return true end
                upper = lower
                seen.no_path = seen.no_path + 1
              elseif limit == "max_cost" then
                lower = function(k) return dist[k] <= opts.max_cost * (1 - EPS) end
                upper = function(k) return dist[k] <= opts.max_cost * (1 + EPS) + EPS end
                seen.max_cost = seen.max_cost + 1
              else
                local keys = {}
                for i, k in ipairs(reach) do keys[i] = key(k) end
                table.sort(keys)
                local e, r = st.expanded, st.reopened or 0
                local klo = keys[math.max(1, e - r)]
                local khi = keys[math.min(#keys, e)]
                if e - r < 1 then klo = -math.huge end
                lower = function(k) return key(k) < klo - EPS * math.max(1, klo) end
                upper = function(k) return key(k) <= khi + EPS * math.max(1, khi) end
                seen.max_expansions = seen.max_expansions + 1
                if e > opts.max_expansions then
                  err = ("expanded %d nodes with max_expansions = %d"):format(e, opts.max_expansions)
                end
              end
              if not err and not upper(ek) then
                err = ("the end cell (%d,%d) (dist %.17g, key %.17g) cannot have been expanded"):format(
                  ex, ey, dist[ek], key(ek))
              end
              local he = hval(ek)
              local nlower = 0
              for _, k in ipairs(reach) do
                if not err and lower(k) then
                  nlower = nlower + 1
                  local hk = hval(k)
                  local x, y = (k - 1) % w + 1, math.floor((k - 1) / w) + 1
                  if hk < he - EPS * math.max(1, he) then
                    err = ("(%d,%d) was expanded and has heuristic %.17g < %.17g of the end (%d,%d)"):format(
                      x, y, hk, he, ex, ey)
                  elseif math.abs(hk - he) <= EPS * math.max(1, he) and dist[k] < dist[ek] * (1 - EPS) - EPS then
                    err = ("(%d,%d) was expanded, has the end's heuristic and costs %.17g < %.17g"):format(
                      x, y, dist[k], dist[ek])
                  end
                end
              end
              if nlower > 1 then seen.lower = seen.lower + 1 end
            end
          elseif not err and code == nil then
            seen.found = seen.found + 1
            err = check_against_reference(c, qq, opts, nil, res)
          elseif not err and code ~= "blocked" then
            err = ("with partial = true: %s, %s, %s"):format(tostring(path), tostring(msg), tostring(code))
          end
          if err then
            fails[#fails + 1] = err .. "\n" .. where(c, qq, opts, "limit " .. limit)
          end
          grid:close()
        end
      end
      report(fails, total)
      assert.is_true(seen.no_path > 15, "no_path partials: " .. seen.no_path)
      assert.is_true(seen.max_cost > 15, "max_cost partials: " .. seen.max_cost)
      assert.is_true(seen.max_expansions > 15, "max_expansions partials: " .. seen.max_expansions)
      assert.is_true(seen.lower > 40, "partials with a non-trivial lower bracket: " .. seen.lower)
    end)
end)

---------------------------------------------------------------------------------------------------

describe("many queries on one grid", function()
  it("interleaved in random order, with finds in between, each gives find's result and the optimum",
    function()
      local rng = H.rng(77)
      local fails, total = {}, 0
      for round = 1, 6 do
        local w, h = rng.int(20, 40), rng.int(20, 40)
        local cells = H.random_cells(rng, w, h, 0.25, COSTS)
        local c = { id = round, w = w, h = h, cells = cells, open = open_cells(cells, w, h) }
        local grid = astar.grid.from_table(cells)
        local live = {}
        for k = 1, 14 do
          local s, g = c.open[rng.int(1, #c.open)], c.open[rng.int(1, #c.open)]
          local q = { sx = s[1], sy = s[2], gx = g[1], gy = g[2] }
          local opts, costfn = random_opts(rng, c, rng.pick(H.POLICIES))
          if costfn then opts.cost = costfn end
          live[k] = { q = q, opts = opts, costfn = costfn, query = grid:query(unpack(find_args(q, opts))) }
        end
        local pending = #live
        while pending > 0 do
          local L = live[rng.int(1, #live)]
          if not L.status then
            local st = L.query:step(rng.int(1, 30))
            if st ~= "running" then
              L.status = st
              pending = pending - 1
            end
          end
          if rng.float() < 0.1 then         -- a find on the same grid between steps
            local s, g = c.open[rng.int(1, #c.open)], c.open[rng.int(1, #c.open)]
            grid:find(s[1], s[2], g[1], g[2], { max_expansions = rng.int(0, 50) })
          end
        end
        for _, L in ipairs(live) do
          total = total + 1
          local got = H.pack(L.query:result())
          local err = H.result_diff(H.pack(grid:find(unpack(find_args(L.q, L.opts)))), got)
          err = err and ("q:result() differs from find: " .. err)
            or check_against_reference(c, L.q, L.opts, L.costfn, got)
          if err then fails[#fails + 1] = err .. "\n" .. where(c, L.q, L.opts) end
        end
        grid:close()
      end
      report(fails, total)
    end)
end)

describe("edits while a query runs", function()
  local EDIT_VALUES = { false, false, 1, 2, 0.5, 3 }

  -- Random edits of the grid and of the model cells; returns how many.
  local function edit(rng, grid, cells, w, h)
    local n = rng.int(1, 4)
    for _ = 1, n do
      local x, y = rng.int(1, w), rng.int(1, h)
      local v = rng.pick(EDIT_VALUES)
      if rng.float() < 0.2 then
        local fw, fh = rng.int(0, math.min(3, w - x + 1)), rng.int(0, math.min(3, h - y + 1))
        grid:fill(x, y, fw, fh, v)
        for yy = y, y + fh - 1 do
          for xx = x, x + fw - 1 do cells[yy][xx] = v end
        end
      else
        grid:set(x, y, v)
        cells[y][x] = v
      end
    end
    return n
  end

  it("restart (the default): the query ends with the optimum of the grid as last edited, and " ..
    "stats().restarts counts the steps that followed edits which could change its answer", function()
    local rng = H.rng(2024)
    local fails, total, restarted, ignored = {}, 0, 0, 0
    for id = 1, 160 do
      local w, h = rng.int(8, 30), rng.int(8, 30)
      local cells = H.random_cells(rng, w, h, 0.2, COSTS)
      local grid = astar.grid.from_table(cells)
      local sx, sy, gx, gy = rng.int(1, w), rng.int(1, h), rng.int(1, w), rng.int(1, h)
      local pol = rng.pick(H.POLICIES)
      local opts = { diagonal = pol, algorithm = rng.pick({ "auto", "astar", "dijkstra", "bfs" }) }
      local q = grid:query(sx, sy, gx, gy, opts)
      if rng.float() < 0.3 then edit(rng, grid, cells, w, h) end   -- before the first step: no restart
      local status, expected_restarts, edited, steps = "running", 0, false, 0
      while status == "running" do
        local before = q:stats().restarts
        local spent
        status, spent = q:step(rng.int(1, 12))
        steps = steps + 1
        local now = q:stats().restarts
        if edited then
          expected_restarts = expected_restarts + (now - before)
          if now == before then ignored = ignored + 1 end
        end
        if now - before > (edited and 1 or 0) or now < before or spent < 0 then
          fails[#fails + 1] = ("grid #%d step %d: restarts %d -> %d after %s"):format(id, steps, before,
            now, edited and "an edit" or "no edit")
        end
        edited = false
        if status == "running" and rng.float() < 0.4 and steps < 200 then
          edit(rng, grid, cells, w, h)
          edited = true
        end
      end
      total = total + 1
      restarted = restarted + (expected_restarts > 0 and 1 or 0)
      local c = { id = id, w = w, h = h, cells = cells }
      local qq = { sx = sx, sy = sy, gx = gx, gy = gy }
      -- a search that went on through edits may break ties unlike a fresh one: the same
      -- outcome and, where the cost is what is minimised, the same cost
      local got = H.pack(q:result())
      local want = H.pack(grid:find(sx, sy, gx, gy, opts))
      local err
      if (want[1] == nil) ~= (got[1] == nil) or want[3] ~= got[3] or (want[1] and
        opts.algorithm ~= "bfs" and not H.close(want[1]:cost(), got[1]:cost())) then
        err = "q:result() differs from find after the edits: " .. H.result_diff(want, got)
      end
      err = err or check_against_reference(c, qq, opts, nil, got)
      if not err and q:stats().restarts ~= expected_restarts then
        err = ("stats().restarts = %d, expected %d"):format(q:stats().restarts, expected_restarts)
      end
      -- later edits do not touch a finished query
      local finished = q:stats()
      edit(rng, grid, cells, w, h)
      local st2, sp2 = q:step(5)
      if not err and (st2 ~= status or sp2 ~= 0 or q:stats().restarts ~= finished.restarts
        or H.result_diff(got, H.pack(q:result()))) then
        err = "an edit after the end changed the finished query: " .. tostring(st2)
      end
      if err then fails[#fails + 1] = err .. "\n" .. where(c, qq, opts) end
      grid:close()
    end
    report(fails, total)
    assert.is_true(restarted > 30, "queries that restarted: " .. restarted)
    assert.is_true(ignored > 30, "edits that restarted nothing: " .. ignored)
  end)

  it("a cell flickering every frame where the search never goes does not starve it; on the " ..
    "searched area it restarts it; on_change = 'continue' never does", function()
    -- 128 x 128: a walled room in the top-right corner (x 101..128, y 1..19), two long walls
    local function run(opts, flicker, budget)
      local grid = astar.grid(128, 128)
      grid:fill(100, 1, 1, 20, false)
      grid:fill(101, 20, 28, 1, false)
      grid:fill(40, 20, 1, 100, false)
      grid:fill(60, 1, 1, 100, false)
      local q = grid:query(1, 1, 128, 90, opts)
      local frames = 0
      while q:step(budget or 40) == "running" and frames < 4000 do
        frames = frames + 1
        if flicker then grid:set(flicker[1], flicker[2], frames % 2 == 0 and 1 or 2) end
      end
      local p = q:result()
      local cells = {}
      for y = 1, 128 do
        cells[y] = {}
        for x = 1, 128 do cells[y][x] = grid:get(x, y) end
      end
      local want = H.dijkstra(cells, 128, 128, 1, 1, 128, 90, opts.diagonal or "no_corner_cutting")
      grid:close()
      return frames, q:stats().restarts, p and p:cost(), want
    end
    for _, alg in ipairs({ "astar", "dijkstra", "bfs" }) do
      local opts = { algorithm = alg, diagonal = "never" }
      local calm, r0, c0 = run(opts)
      assert.is_true(calm > 3 and r0 == 0 and c0 ~= nil, alg)
      local frames, restarts, cost, want = run(opts, { 120, 5 })     -- in the room
      assert.are.same({ calm, 0 }, { frames, restarts }, alg)
      if alg ~= "bfs" then assert.is_true(H.close(cost, want), alg) end
      frames, restarts = run(opts, { 2, 1 })                        -- next to the start
      assert.are.same({ 4000, 4000 }, { frames, restarts }, alg)
      frames, restarts, cost = run({ algorithm = alg, diagonal = "never", on_change = "continue" },
        { 2, 1 })
      assert.are.same({ calm, 0 }, { frames, restarts }, alg)
      assert.is_not_nil(cost)
    end
    -- "auto" jumps (4 expansions here); the first edit restarts it, cell by cell from then on
    local frames, restarts, cost, want = run({}, { 120, 5 }, 2)
    assert.are.equal(1, restarts)
    assert.are.equal(run({ algorithm = "astar" }, nil, 2) + 1, frames)
    assert.is_true(H.close(cost, want))
  end)

  it("on_change = 'stale': the first step after an edit that could change the answer ends the " ..
    "query with 'stale'; other edits leave it running", function()
    local rng = H.rng(8)
    for round = 1, 30 do
      local grid = astar.grid(40, 40)
      grid:fill(34, 1, 1, 6, false)                             -- a pocket it cannot reach:
      grid:fill(35, 6, 6, 1, false)                             -- x 35..40, y 1..5
      local q = grid:query(1, 1, 40, 40, { on_change = "stale", diagonal = rng.pick(H.POLICIES),
        algorithm = rng.pick({ "astar", "dijkstra" }) })        -- a search of many steps
      if round % 3 == 0 then grid:set(20, 20, false) end        -- before the first step: not stale
      local n = rng.int(1, 30)
      assert.are.equal("running", (q:step(n)))
      grid:set(rng.int(36, 40), rng.int(1, 4), rng.pick({ false, 2 }))   -- in the pocket
      assert.are.equal("running", (q:step(1)))
      grid:set(2, rng.int(1, 2), rng.pick({ false, 2 }))       -- next to the start
      local st, spent = q:step(rng.int(1, 100))
      assert.are.same({ "stale", 0 }, { st, spent })
      assert.are.same({ "stale", 0 }, { q:step(1000) })
      assert.are.same({ nil, "the map changed during the query", "stale" }, { q:result() })
      assert.are.equal("stale", q:stats().status)
      assert.are.equal(0, q:stats().restarts)
      q:cancel()
      assert.are.equal("stale", (q:step(1)))                     -- a finished query stays finished
      grid:close()
    end
  end)

  it("on_change = 'stale': an edit after a callback error still makes the query 'stale'", function()
    local grid = astar.grid(30, 30)
    local calls, boom = 0, {}
    local q = grid:query(1, 1, 30, 30, { on_change = "stale", cost = function(_, _, _, _, base)
      calls = calls + 1
      if calls == 20 then error(boom) end
      return base
    end })
    assert.are.equal("running", (q:step(1)))
    H.checkerr_value(boom, q.step, q, 100)
    grid:set(15, 15, false)            -- the grid changes while the query is live
    assert.are.equal("stale", (q:step(1000)))
    grid:close()
  end)
end)

describe("cancel", function()
  it("ends a running query at once; idempotent; a finished query stays finished", function()
    local grid = astar.grid(50, 50)
    local q = grid:query(1, 1, 50, 50, { algorithm = "astar" })   -- a search of many steps
    assert.are.same({ "running", 10 }, { q:step(10) })
    q:cancel()
    assert.are.same({ "cancelled", 0 }, { q:step(100) })
    assert.are.same({ nil, "query cancelled", "cancelled" }, { q:result() })
    local st = q:stats()
    assert.are.equal("cancelled", st.status)
    assert.are.equal(10, st.expanded)
    q:cancel()
    assert.are.same({ "cancelled", 0 }, { q:step(1) })
    local q2 = grid:query(1, 1, 50, 50)
    assert.are.equal("found", (q2:step(100000)))
    q2:cancel()
    assert.are.equal("found", (q2:step(1)))
    assert.is_nil(H.result_diff(H.pack(grid:find(1, 1, 50, 50)), H.pack(q2:result())))
    assert.are.equal("astar.Query (grid, found)", tostring(q2))
    assert.are.equal("astar.Query (grid, cancelled)", tostring(q))
    grid:close()
  end)

  it("from the query's own cost callback, during its step, does not crash the VM", function()
    local ok, out = H.isolated([[
      local astar = require "astar"
      local grid = astar.grid(30, 30)
      local q
      q = grid:query(1, 1, 30, 30, { cost = function(_, _, x2, _, base)
        if x2 == 5 then q:cancel() end
        return base
      end })
      local ok, err = pcall(q.step, q, 1000)
      print("step:", ok, err, q:stats().status)
      assert(grid:find(1, 1, 30, 30):cost() > 0)
    ]])
    assert(ok, "the process died:\n" .. out)
  end)

  it("gives the scratch back: create, step, cancel in a loop does not grow the process", function()
    local grid = astar.grid(400, 400)      -- a search context covers the grid: over 1 MB each
    local function cycle()
      for _ = 1, 40 do
        local q = grid:query(1, 1, 400, 400, { algorithm = "dijkstra" })
        q:step(2000)
        q:cancel()
      end
      collectgarbage()
      collectgarbage()
    end
    cycle()
    local base = H.rss_kb()
    for _ = 1, 5 do cycle() end
    local now = H.rss_kb()
    if base and now then
      assert.is_true(now - base < 16 * 1024, ("resident memory grew by %d KB over 200 cancelled queries"):format(
        now - base))
    end
    grid:close()
  end)
end)

describe("garbage collection and closing", function()
  it("half-finished queries can be collected; the grid keeps answering correctly", function()
    local rng = H.rng(6)
    local w, h = 300, 300                  -- a search context covers the grid: about 1 MB each
    local cells = H.random_cells(rng, w, h, 0.2, COSTS)
    cells[1][1], cells[h][w] = 1, 1
    local grid = astar.grid.from_table(cells)
    local want = H.dijkstra(cells, w, h, 1, 1, w, h, "no_corner_cutting")
    local base, grown
    for round = 1, 8 do
      for _ = 1, 30 do
        local q = grid:query(rng.int(1, w), rng.int(1, h), rng.int(1, w), rng.int(1, h),
          { diagonal = rng.pick(H.POLICIES), algorithm = "dijkstra" })
        q:step(rng.int(1, 400))
      end
      collectgarbage()
      collectgarbage()
      local rss = H.rss_kb()
      if round == 2 then base = rss end
      if round == 8 and base and rss then grown = rss - base end
      local p = grid:find(1, 1, w, h)
      assert.are.equal(want ~= nil, p ~= nil)
      if p then assert.is_true(H.close(p:cost(), want)) end
    end
    -- under AddressSanitizer freed blocks wait in its quarantine, so resident memory says
    -- nothing there; that run's LeakSanitizer checks the same thing at exit instead
    if grown and not os.getenv("ASAN_OPTIONS") then
      assert.is_true(grown < 16 * 1024, ("resident memory grew by %d KB over 180 collected queries"):format(grown))
    end
    grid:close()
  end)

  it("a live query keeps its grid alive; it finishes correctly after the last other reference is gone",
    function()
      local cells = H.random_cells(H.rng(3), 30, 30, 0.2, COSTS)
      cells[1][1], cells[30][30] = 1, 1
      local want = H.dijkstra(cells, 30, 30, 1, 1, 30, 30, "no_corner_cutting")
      local q
      do
        local grid = astar.grid.from_table(cells)
        q = grid:query(1, 1, 30, 30)
        q:step(5)
      end
      collectgarbage()
      collectgarbage()
      local status = q:step(100000)
      assert.are.equal(want and "found" or "none", status)
      if want then assert.is_true(H.close(q:result():cost(), want)) end
    end)

  it("collecting a grid together with its half-finished queries does not crash the VM", function()
    local ok, out = H.isolated([[
      local astar = require "astar"
      for round = 1, 20 do
        local grid = astar.grid(60, 60)
        local qs = {}
        for i = 1, 12 do
          qs[i] = grid:query(1, i, 60, 61 - i)
          qs[i]:step(i * 13)
        end
        if round % 2 == 0 then qs[1]:step(100000) end    -- a finished one, its scratch pooled
        grid, qs = nil, nil
        collectgarbage()
        collectgarbage()
      end
      print("collected")
    ]])
    assert(ok, "the process died:\n" .. out)
  end)

  it("closing the grid: stepping raises 'attempt to use a closed grid'; finished results stay valid",
    function()
      local grid = astar.grid(20, 20)
      local done = grid:query(1, 1, 20, 20)
      assert.are.equal("found", (done:step(100000)))
      local q = grid:query(1, 1, 20, 20, { algorithm = "astar" })   -- a search of many steps
      q:step(3)
      local fresh = grid:query(1, 1, 5, 5)
      grid:close()
      H.checkerr("attempt to use a closed grid", q.step, q, 10)
      H.checkerr("attempt to use a closed grid", q.step, q, 10)
      H.checkerr("attempt to use a closed grid", fresh.step, fresh, 10)
      assert.are.same({ nil, "query still running", "running" }, { q:result() })
      q:cancel()
      assert.are.same({ "cancelled", 0 }, { q:step(1) })
      local p = done:result()
      assert.are.equal(20, #p)
      assert.is_true(H.close(p:cost(), 19 * H.SQRT2))
      assert.are.same({ "found", 0 }, { done:step(1) })
      H.checkerr("attempt to use a closed grid", grid.query, grid, 1, 1, 2, 2)
    end)

  it("Lua 5.4: a query in a <close> variable is cancelled at the end of its scope", function()
    if _VERSION ~= "Lua 5.4" or rawget(_G, "jit") then return end
    local chunk = assert(load([[
      local grid = ...
      local outer
      do
        local q <close> = grid:query(1, 1, 30, 30, { algorithm = "astar" })
        q:step(5)
        outer = q
      end
      return outer
    ]]))
    local grid = astar.grid(30, 30)
    local q = chunk(grid)
    assert.are.same({ "cancelled", 0 }, { q:step(10) })
    assert.is_true(H.close(grid:find(1, 1, 30, 30):cost(), 29 * H.SQRT2))
    grid:close()
  end)
end)

describe("callbacks during a step", function()
  it("an error propagates unchanged; the next step restarts and finishes with find's result", function()
    local rng = H.rng(123)
    local fails, total = {}, 0
    for _, c in ipairs(get_cases()) do
      if c.id % 2 == 0 and #c.open >= 2 then
        local grid = astar.grid.from_table(c.cells)
        local s, g = c.open[rng.int(1, #c.open)], c.open[rng.int(1, #c.open)]
        local q = { sx = s[1], sy = s[2], gx = g[1], gy = g[2] }
        local pol = rng.pick(H.POLICIES)
        local costfn = make_costfn(c.id)
        local calls, fail_at, errval = 0, rng.int(1, 60), nil
        local which = rng.pick({ "table", "string", "heuristic" })
        local opts = { diagonal = pol }
        local function maybe_fail()
          calls = calls + 1
          if calls == fail_at then
            errval = which == "string" and ("callback failed at call " .. calls) or { calls = calls }
            error(errval, 0)
          end
        end
        if which == "heuristic" then
          local mc = H.min_cost(c.cells, c.w, c.h)
          local hname = H.default_heuristic(pol)
          opts.heuristic = function(x, y, gx, gy)
            maybe_fail()
            return mc * H.hdist(hname, x, y, gx, gy)
          end
          costfn = nil
        else
          opts.cost = function(...)
            maybe_fail()
            return costfn(...)
          end
        end
        local query = grid:query(q.sx, q.sy, q.gx, q.gy, opts)
        local status, raised = "running", 0
        local guard = 0
        while status == "running" and guard < 10000 do
          guard = guard + 1
          local ok, st = pcall(query.step, query, rng.int(1, 20))
          if ok then
            status = st
          else
            raised = raised + 1
            if type(errval) == "table" and not rawequal(st, errval)
              or type(errval) == "string" and st ~= errval then
              fails[#fails + 1] = "the error was changed on its way: " .. tostring(st)
            end
          end
        end
        total = total + 1
        local got = H.pack(query:result())
        calls = -math.huge                -- no more failures for the reference run
        local err = H.result_diff(H.pack(grid:find(q.sx, q.sy, q.gx, q.gy, opts)), got)
        err = err and ("after the error, q:result() differs from find: " .. err)
          or check_against_reference(c, q, opts, costfn, got)
        if not err and raised > 1 then err = "the callback error was raised " .. raised .. " times" end
        if err then fails[#fails + 1] = err .. "\n" .. where(c, q, opts, which .. " error at call " .. fail_at) end
        grid:close()
      end
    end
    report(fails, total)
    assert.is_true(total > 30, "cases: " .. total)
  end)

  it("may not yield; the next step restarts and finishes correctly", function()
    local grid = astar.grid(30, 30)
    local n = 0
    local q = grid:query(1, 1, 30, 30, { cost = function(_, _, _, _, base)
      n = n + 1
      if n == 50 then coroutine.yield() end
      return base
    end })
    local co = coroutine.create(function() return q:step(1000) end)
    local ok, msg = coroutine.resume(co)
    assert.is_false(ok)
    assert.is_true(H.is_yield_error(msg), tostring(msg))
    assert.are.equal("found", (q:step(100000)))
    assert.is_true(H.close(q:result():cost(), 29 * H.SQRT2))
    grid:close()
  end)

  it("may not search, edit, close or step the same grid (exact messages); other grids are fine",
    function()
      local grid = astar.grid(20, 20)
      local other = astar.grid(10, 10)
      local sibling = grid:query(1, 1, 20, 20)
      local msgs, inner = {}, nil
      local function try(name, f, ...)
        if msgs[name] == nil then
          local ok, m = pcall(f, ...)
          msgs[name] = ok and "no error" or m
        end
      end
      local q = grid:query(1, 1, 20, 20, { cost = function(_, _, _, _, base)
        try("find", grid.find, grid, 1, 1, 2, 2)
        try("set", grid.set, grid, 5, 5, false)
        try("fill", grid.fill, grid, 1, 1, 2, 2, 3)
        try("close", grid.close, grid)
        try("step", sibling.step, sibling, 10)
        if inner == nil then
          local oq = other:query(1, 1, 10, 10)
          inner = { oq:step(100000) }
          inner[3] = oq:result()
        end
        return base
      end })
      assert.are.equal("found", (q:step(100000)))
      assert.are.equal("cannot search: a search on this grid is already running", msgs.find)
      assert.are.equal("cannot edit the grid: a search on this grid is running", msgs.set)
      assert.are.equal("cannot edit the grid: a search on this grid is running", msgs.fill)
      assert.are.equal("cannot close the grid: a search on it is running", msgs.close)
      assert.are.equal("cannot step: a search on this grid is already running", msgs.step)
      assert.are.equal("found", inner[1])
      assert.is_true(H.close(inner[3]:cost(), 9 * H.SQRT2))
      assert.are.equal("running", (sibling:step(0)))    -- the refused step left it untouched
      assert.are.equal("found", (sibling:step(100000)))
      assert.is_true(H.close(q:result():cost(), 19 * H.SQRT2))
      assert.is_true(H.close(sibling:result():cost(), 19 * H.SQRT2))
      grid:close()
      other:close()
    end)
end)

describe("query arguments", function()
  it("raise with exact messages", function()
    local grid = astar.grid(10, 10)
    local q = grid:query(1, 1, 10, 10)
    H.checkerr("bad argument #1 to 'step' (n out of range: -1 not in [0, 2147483647])", q.step, q, -1)
    H.checkerr("bad argument #1 to 'step' (integer expected, got 1.5)", q.step, q, 1.5)
    H.checkerr("bad argument #1 to 'step' (integer expected, got nan)", q.step, q, 0 / 0)
    H.checkerr("bad argument #1 to 'step' (integer expected, got inf)", q.step, q, math.huge)
    H.checkerr("bad argument #1 to 'step' (number expected, got nil)", q.step, q, nil)
    H.checkerr("bad argument #1 to 'step' (number expected, got no value)", q.step, q)
    H.checkerr("bad argument #1 to 'step' (number expected, got string)", q.step, q, "3")
    H.checkerr("bad argument #1 to 'step' (n out of range: 2147483648 not in [0, 2147483647])",
      q.step, q, 2 ^ 31)
    H.checkerr("calling 'step' on bad self (astar.Query expected, got nil)", q.step, nil, 1)
    H.checkerr("calling 'result' on bad self (astar.Query expected, got table)", q.result, {})
    H.checkerr("calling 'cancel' on bad self (astar.Query expected, got userdata)", q.cancel, grid)
    H.checkerr("calling 'stats' on bad self (astar.Query expected, got number)", q.stats, 1)
    H.checkerr("bad argument #5 to 'query' (option 'on_change': invalid value 'never')",
      grid.query, grid, 1, 1, 10, 10, { on_change = "never" })
    H.checkerr("bad argument #5 to 'query' (option 'on_change': string expected, got number)",
      grid.query, grid, 1, 1, 10, 10, { on_change = 1 })
    H.checkerr("bad argument #5 to 'find' (unknown option 'on_change')",
      grid.find, grid, 1, 1, 10, 10, { on_change = "stale" })
    H.checkerr("bad argument #5 to 'query' (unknown option 'wieght')",
      grid.query, grid, 1, 1, 10, 10, { wieght = 2 })
    H.checkerr("bad argument #1 to 'query' (x out of range: 0 not in [1, 10])",
      grid.query, grid, 0, 1, 10, 10)
    H.checkerr("bad argument #4 to 'query' (y out of range: 11 not in [1, 10])",
      grid.query, grid, 1, 1, 10, 11)
    H.checkerr("calling 'query' on bad self (astar.Grid expected, got nil)", grid.query, nil, 1, 1, 2, 2)
    -- nothing was searched by the failed calls; the good query is intact
    assert.are.same({ "running", 0 }, { q:step(0) })
    assert.are.equal("found", (q:step(1000)))
    grid:close()
  end)
end)
