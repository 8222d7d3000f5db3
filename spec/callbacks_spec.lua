-- Lua callbacks on grid:find (cost, heuristic), several goals and `within`, against the
-- independent references of spec/helper.lua (a Dijkstra that takes the same cost callback).
-- Also the README's callback safety: errors pass through unchanged, yields are refused, the grid
-- may not be searched, edited or closed from a callback, invalid results are named.

local astar = require "astar"
local H = require "spec.helper"

local NAN, INF = 0 / 0, math.huge
local COSTS = { 1, 1, 1, 2, 3, 0.5, 1.25 }
local MAX_REPORT = 6
local floor = math.floor

local function report(fails, total) return H.report(fails, total, MAX_REPORT) end

local open_cells = H.open_cells

-- Random grids with a few queries each; mostly walkable ends.
local function make_cases(seed, n, maxw)
  local rng = H.rng(seed)
  local cases = {}
  for i = 1, n do
    local w, h = rng.int(2, maxw), rng.int(2, maxw)
    local cells = H.random_cells(rng, w, h, rng.pick({ 0, 0.1, 0.2, 0.3, 0.4 }), COSTS)
    local open = open_cells(cells, w, h)
    local qs = {}
    for q = 1, 3 do
      local s, g
      if #open > 0 and rng.float() < 0.9 then
        s, g = open[rng.int(1, #open)], open[rng.int(1, #open)]
      else
        s, g = { rng.int(1, w), rng.int(1, h) }, { rng.int(1, w), rng.int(1, h) }
      end
      qs[q] = { sx = s[1], sy = s[2], gx = g[1], gy = g[2] }
    end
    cases[i] = { id = i, w = w, h = h, cells = cells, queries = qs, open = open, rng = rng }
  end
  return cases
end

local function where(c, q, opts, extra)
  local o = {}
  for k, v in pairs(opts or {}) do
    if type(v) ~= "table" or k == "goals" then
      if k == "goals" then
        local gs = {}
        for _, g in ipairs(v) do gs[#gs + 1] = "{" .. g[1] .. "," .. g[2] .. "}" end
        v = "{" .. table.concat(gs, ",") .. "}"
      end
      o[#o + 1] = k .. "=" .. tostring(type(v) == "function" and "<function>" or v)
    end
  end
  table.sort(o)
  return ("grid #%d (%dx%d) (%d,%d)->(%s,%s) {%s}%s\n%s"):format(c.id, c.w, c.h, q.sx, q.sy,
    tostring(q.gx), tostring(q.gy), table.concat(o, ", "), extra and (" " .. extra) or "",
    H.fmt_grid(c.cells, c.w, c.h))
end

local function walkable(c, x, y) return H.walk(c.cells, c.w, c.h, x, y) end

-- Checks a find result against an expected optimal cost (nil: no path). Returns nil or an error.
local function check_found(c, q, _, pol, costfn, path, msg, code, opt, exact)
  if not (walkable(c, q.sx, q.sy) and walkable(c, q.gx, q.gy)) then
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
    return ("expected a path of cost %.17g, got nil, %s, %s"):format(opt, tostring(msg), tostring(code))
  end
  local ok, sum = pcall(H.check_path, c.cells, c.w, c.h, path, q.sx, q.sy, q.gx, q.gy, pol, costfn)
  if not ok then return "illegal path: " .. tostring(sum) end
  if not H.close(path:cost(), sum) then
    return ("path:cost() = %.17g, but its steps cost %.17g"):format(path:cost(), sum)
  end
  if exact ~= false and not H.close(sum, opt) then
    return ("cost %.17g, optimal %.17g"):format(sum, opt)
  end
  if exact == false and sum < opt - 1e-9 * opt then
    return ("cost %.17g is below the optimum %.17g"):format(sum, opt)
  end
  return nil
end

-- Direction of a step as an index 1..8.
local function dir_index(dx, dy) return (dy + 1) * 3 + (dx + 1) + 1 end

-- A deterministic hash of a step, in [0, 1).
local function step_hash(seed, x1, y1, x2, y2)
  local v = (seed * 7919 + x1 * 104729 + y1 * 1299709 + x2 * 15485863 + y2 * 32452843) % 2147483647
  v = (v * 16807) % 2147483647
  v = (v * 16807) % 2147483647
  return v / 2147483647
end

---------------------------------------------------------------------------------------------------

describe("cost callbacks", function()
  it("direction-dependent costs and one-way doors give the reference's shortest paths", function()
    local fails, total, found, forbidden_seen = {}, 0, 0, 0
    for _, c in ipairs(make_cases(31337, 120, 14)) do
      local rng = c.rng
      local mult = {}
      for d = 1, 9 do mult[d] = 1 + rng.pick({ 0, 0, 0.5, 1, 2 }) end
      local door = {}          -- cell key -> the direction index that may not enter it
      for _ = 1, rng.int(0, floor(c.w * c.h / 4)) do
        door[(rng.int(1, c.h) - 1) * c.w + rng.int(1, c.w)] = dir_index(rng.int(-1, 1), rng.int(-1, 1))
      end
      local function cost(x1, y1, x2, y2, base)
        local d = dir_index(x2 - x1, y2 - y1)
        if door[(y2 - 1) * c.w + x2] == d then
          if (x1 + y1) % 2 == 0 then return false end
          return nil
        end
        return base * mult[d]
      end
      local grid = astar.grid.from_table(c.cells)
      for _, q in ipairs(c.queries) do
        for _, pol in ipairs(H.POLICIES) do
          for _, alg in ipairs({ "astar", "dijkstra" }) do
            total = total + 1
            local bad -- what the library passed to the callback, if wrong
            local function spy(x1, y1, x2, y2, base)
              local dx, dy = x2 - x1, y2 - y1
              if not bad then
                if not (H.is_int(x1) and H.is_int(y1) and H.is_int(x2) and H.is_int(y2)) then
                  bad = "non-integer coordinates"
                elseif not (H.walk(c.cells, c.w, c.h, x1, y1)
                    and H.legal_step(c.cells, c.w, c.h, x1, y1, dx, dy, pol)) then
                  bad = ("asked about the illegal step (%d, %d) -> (%d, %d)"):format(x1, y1, x2, y2)
                elseif not H.close(base, H.step_cost(c.cells, x2, y2, dx, dy)) then
                  bad = ("base %.17g for (%d, %d) -> (%d, %d), expected %.17g"):format(base, x1, y1,
                    x2, y2, H.step_cost(c.cells, x2, y2, dx, dy))
                end
              end
              local r = cost(x1, y1, x2, y2, base)
              if not r then forbidden_seen = forbidden_seen + 1 end
              return r
            end
            local opts = { diagonal = pol, algorithm = alg, cost = spy }
            local opt = H.dijkstra(c.cells, c.w, c.h, q.sx, q.sy, q.gx, q.gy, pol, cost)
            local ok, path, msg, code = pcall(grid.find, grid, q.sx, q.sy, q.gx, q.gy, opts)
            local err
            if not ok then err = "raised: " .. tostring(path)
            elseif bad then err = "callback arguments: " .. bad
            else err = check_found(c, q, opts, pol, cost, path, msg, code, opt) end
            if path and ok then found = found + 1 end
            if err then fails[#fails + 1] = err .. "\n" .. where(c, q, opts) end
          end
        end
      end
      grid:close()
    end
    report(fails, total)
    assert.is_true(found > 300, "too few paths found: " .. found)
    assert.is_true(forbidden_seen > 100, "the doors were hardly ever tried: " .. forbidden_seen)
  end)

  it("costs below the built-in ones give shortest paths with heuristic = 'zero'", function()
    local fails, total = {}, 0
    for _, c in ipairs(make_cases(4242, 60, 12)) do
      local seed = c.id
      local function cost(x1, y1, x2, y2, base)
        return base * (0.1 + 2.9 * step_hash(seed, x1, y1, x2, y2))
      end
      local grid = astar.grid.from_table(c.cells)
      for _, q in ipairs(c.queries) do
        for _, pol in ipairs(H.POLICIES) do
          total = total + 1
          local opts = { diagonal = pol, heuristic = "zero", cost = cost }
          local opt = H.dijkstra(c.cells, c.w, c.h, q.sx, q.sy, q.gx, q.gy, pol, cost)
          local ok, path, msg, code = pcall(grid.find, grid, q.sx, q.sy, q.gx, q.gy, opts)
          local err = "raised: " .. tostring(path)
          if ok then err = check_found(c, q, opts, pol, cost, path, msg, code, opt) end
          if err then fails[#fails + 1] = err .. "\n" .. where(c, q, opts) end
        end
      end
      grid:close()
    end
    report(fails, total)
  end)

  it("greedy and bfs with a cost callback return legal paths that avoid forbidden steps", function()
    local fails, total = {}, 0
    for _, c in ipairs(make_cases(99, 50, 12)) do
      local seed = c.id
      local function cost(x1, y1, x2, y2, base)
        local r = step_hash(seed, x1, y1, x2, y2)
        if r < 0.15 then return false end
        return base * (1 + r)
      end
      local grid = astar.grid.from_table(c.cells)
      for _, q in ipairs(c.queries) do
        for _, pol in ipairs(H.POLICIES) do
          for _, alg in ipairs({ "greedy", "bfs" }) do
            total = total + 1
            local opts = { diagonal = pol, algorithm = alg, cost = cost }
            local opt = H.dijkstra(c.cells, c.w, c.h, q.sx, q.sy, q.gx, q.gy, pol, cost)
            local ok, path, msg, code = pcall(grid.find, grid, q.sx, q.sy, q.gx, q.gy, opts)
            local err = "raised: " .. tostring(path)
            if ok then err = check_found(c, q, opts, pol, cost, path, msg, code, opt, false) end
            if err then fails[#fails + 1] = err .. "\n" .. where(c, q, opts) end
          end
        end
      end
      grid:close()
    end
    report(fails, total)
  end)

  it("accepts callable tables", function()
    local c = make_cases(5, 1, 12)[1]
    local calls = 0
    local mt = { __call = function(self, x1, _, x2, _, base)
      calls = calls + 1
      assert(type(self) == "table" and self.tag == "cost", "self is not the callable table")
      return base * (x2 >= x1 and 1 or 2)
    end }
    local costobj = setmetatable({ tag = "cost" }, mt)
    local function plain(x1, _, x2, _, base) return base * (x2 >= x1 and 1 or 2) end
    local grid = astar.grid.from_table(c.cells)
    local n = 0
    for _, s in ipairs(c.open) do
      local g = c.open[(n * 7) % #c.open + 1]
      n = n + 1
      if n > 30 then break end
      local q = { sx = s[1], sy = s[2], gx = g[1], gy = g[2] }
      local opt = H.dijkstra(c.cells, c.w, c.h, q.sx, q.sy, q.gx, q.gy, "no_corner_cutting", plain)
      local path, msg, code = grid:find(q.sx, q.sy, q.gx, q.gy, { cost = costobj })
      local err = check_found(c, q, {}, "no_corner_cutting", plain, path, msg, code, opt)
      assert.is_nil(err, err and (err .. "\n" .. where(c, q, {})))
    end
    assert.is_true(calls > 0, "the callable table was never called")
    grid:close()
  end)
end)

---------------------------------------------------------------------------------------------------

describe("heuristic callbacks", function()
  it("admissible heuristics give shortest paths and see the goal", function()
    local fails, total, calls = {}, 0, 0
    for _, c in ipairs(make_cases(8080, 80, 14)) do
      local minc = math.huge
      for _, p in ipairs(c.open) do minc = math.min(minc, c.cells[p[2]][p[1]]) end
      local grid = astar.grid.from_table(c.cells)
      for _, q in ipairs(c.queries) do
        for _, pol in ipairs(H.POLICIES) do
          local name = H.default_heuristic(pol)
          local scale = c.rng.pick({ 1, 0.9, 0.5, 0 })
          local wrong
          local function h(x, y, gx, gy)
            calls = calls + 1
            if gx ~= q.gx or gy ~= q.gy then wrong = ("goal (%s, %s)"):format(tostring(gx), tostring(gy)) end
            if not (H.is_int(x) and H.is_int(y) and walkable(c, x, y)) then
              wrong = ("asked about (%s, %s)"):format(tostring(x), tostring(y))
            end
            return scale * minc * H.hdist(name, x, y, gx, gy)
          end
          local hh = h
          if total % 2 == 1 then hh = setmetatable({}, { __call = function(_, ...) return h(...) end }) end
          total = total + 1
          local opts = { diagonal = pol, heuristic = hh }
          local opt = H.dijkstra(c.cells, c.w, c.h, q.sx, q.sy, q.gx, q.gy, pol)
          local ok, path, msg, code = pcall(grid.find, grid, q.sx, q.sy, q.gx, q.gy, opts)
          local err
          if not ok then err = "raised: " .. tostring(path)
          elseif wrong then err = "heuristic callback: " .. wrong
          else err = check_found(c, q, opts, pol, nil, path, msg, code, opt) end
          if err then fails[#fails + 1] = err .. "\n" .. where(c, q, opts, "scale " .. scale) end
        end
      end
      grid:close()
    end
    report(fails, total)
    assert.is_true(calls > 1000, "the heuristic was hardly called: " .. calls)
  end)

  it("admissible but inconsistent heuristics still give shortest paths (closed nodes reopen)", function()
    local fails, total = {}, 0
    for _, c in ipairs(make_cases(1717, 60, 12)) do
      local grid = astar.grid.from_table(c.cells)
      for _, q in ipairs(c.queries) do
        if walkable(c, q.gx, q.gy) then
          for _, pol in ipairs(H.POLICIES) do
            -- exact remaining cost to the goal, from a Dijkstra on the reversed steps: the cost of
            -- x -> goal is the forward cost, so compute it per cell (small grids)
            local togoal = {}
            local seed = c.id * 10 + #fails
            local function h(x, y)
              local k = (y - 1) * c.w + x
              if togoal[k] == nil then
                togoal[k] = H.dijkstra(c.cells, c.w, c.h, x, y, q.gx, q.gy, pol) or false
              end
              local d = togoal[k]
              if d == false then return 1e6 * step_hash(seed, x, y, 0, 0) end -- dead end: anything
              return d * step_hash(seed, x, y, 1, 1)                           -- in [0, d)
            end
            total = total + 1
            local opts = { diagonal = pol, heuristic = h }
            local opt = H.dijkstra(c.cells, c.w, c.h, q.sx, q.sy, q.gx, q.gy, pol)
            local ok, path, msg, code = pcall(grid.find, grid, q.sx, q.sy, q.gx, q.gy, opts)
            local err = "raised: " .. tostring(path)
            if ok then err = check_found(c, q, opts, pol, nil, path, msg, code, opt) end
            if err then fails[#fails + 1] = err .. "\n" .. where(c, q, opts) end
          end
        end
      end
      grid:close()
    end
    report(fails, total)
  end)
end)

---------------------------------------------------------------------------------------------------

describe("several goals", function()
  it("go to the cheapest goal, and stats().goal says which", function()
    local fails, total, found, multi = {}, 0, 0, 0
    for _, c in ipairs(make_cases(2468, 120, 14)) do
      local rng = c.rng
      local grid = astar.grid.from_table(c.cells)
      for _, q in ipairs(c.queries) do
        local goals = {}
        for i = 1, rng.int(1, 5) do
          if #c.open > 0 and rng.float() < 0.8 then
            local p = c.open[rng.int(1, #c.open)]
            goals[i] = { p[1], p[2] }
          else
            goals[i] = { rng.int(1, c.w), rng.int(1, c.h) }
          end
        end
        if rng.float() < 0.1 then goals[#goals + 1] = { goals[1][1], goals[1][2] } end -- a duplicate
        for _, pol in ipairs(H.POLICIES) do
          for _, alg in ipairs({ "astar", "dijkstra" }) do
            total = total + 1
            local costfn
            if rng.float() < 0.3 then
              local seed = total
              costfn = function(x1, y1, x2, y2, base)
                local r = step_hash(seed, x1, y1, x2, y2)
                if r < 0.1 then return nil end
                return base * (1 + r)
              end
            end
            local opts = { diagonal = pol, algorithm = alg, goals = goals, cost = costfn }
            local d = walkable(c, q.sx, q.sy)
              and H.dijkstra_all(c.cells, c.w, c.h, q.sx, q.sy, pol, costfn) or {}
            local best, any = nil, false
            for _, g in ipairs(goals) do
              if walkable(c, g[1], g[2]) then
                any = true
                local v = d[(g[2] - 1) * c.w + g[1]]
                if v and (best == nil or v < best) then best = v end
              end
            end
            local ok, path, msg, code = pcall(grid.find, grid, q.sx, q.sy, opts)
            local err
            local qq = { sx = q.sx, sy = q.sy, gx = "goals", gy = "" }
            if not ok then
              err = "raised: " .. tostring(path)
            elseif not walkable(c, q.sx, q.sy) or not any then
              if path ~= nil or code ~= "blocked" then
                err = ("expected 'blocked', got %s, %s, %s"):format(tostring(path), tostring(msg), tostring(code))
              end
            elseif best == nil then
              if path ~= nil or code ~= "no_path" then
                err = ("expected 'no_path', got %s, %s, %s"):format(tostring(path), tostring(msg), tostring(code))
              end
            elseif path == nil then
              err = ("expected a path of cost %.17g, got nil, %s, %s"):format(best, tostring(msg), tostring(code))
            else
              found = found + 1
              if #goals > 1 then multi = multi + 1 end
              local idx = path:stats().goal
              local g = H.is_int(idx) and goals[idx]
              if not g then
                err = "stats().goal = " .. tostring(idx)
              else
                local ok2, sum = pcall(H.check_path, c.cells, c.w, c.h, path, q.sx, q.sy, g[1], g[2], pol, costfn)
                if not ok2 then
                  err = ("illegal path (stats().goal = %d): %s"):format(idx, tostring(sum))
                elseif not H.close(sum, best) or not H.close(path:cost(), best) then
                  err = ("cost %.17g (steps %.17g), cheapest goal costs %.17g"):format(path:cost(), sum, best)
                end
              end
            end
            if err then fails[#fails + 1] = err .. "\n" .. where(c, qq, opts) end
          end
        end
      end
      grid:close()
    end
    report(fails, total)
    assert.is_true(found > 300 and multi > 150, ("too few paths: %d (%d with several goals)"):format(found, multi))
  end)

  it("the goal index is the goal's position in the list", function()
    local grid = astar.grid(10, 1)
    local goals = { { 10, 1 }, { 7, 1 }, { 4, 1 }, { 9, 1 } }
    local p = assert(grid:find(1, 1, { goals = goals }))
    assert.are.equal(3, p:stats().goal)
    assert.are.same({ 4, 1 }, { p:get(-1) })
    assert.are.equal(3, p:cost())
    p = assert(grid:find(8, 1, { goals = goals }))
    local idx = p:stats().goal -- (7, 1) and (9, 1) tie at cost 1: either is fine
    assert.is_truthy(idx == 2 or idx == 4, "stats().goal = " .. tostring(idx))
    assert.are.same({ goals[idx][1], 1 }, { p:get(-1) })
    grid:set(7, 1, false)
    p = assert(grid:find(8, 1, { goals = goals }))
    assert.are.equal(4, p:stats().goal)
    grid:close()
  end)
end)

---------------------------------------------------------------------------------------------------
-- within = r: accepted cells are the walkable cells c with hdist(c, goal) <= r, where hdist is the
-- chosen built-in heuristic's distance in cells (unscaled: octile by default, manhattan when
-- diagonal = "never"). The path must end at an accepted cell, cost the least over all accepted
-- cells, and pass through no accepted cell before its end.

describe("within", function()
  local RANGES = { 0, 0.5, 1, 1.5, 2, 2.5, 3, 4.5, 7 }

  local function check_within(c, q, pol, heur, r, path, msg, code, costfn, goals)
    local targets = goals or { { q.gx, q.gy } }
    local function accepted(x, y)
      if not walkable(c, x, y) then return false end
      for _, g in ipairs(targets) do
        if H.hdist(heur, x, y, g[1], g[2]) <= r then return true end
      end
      return false
    end
    if not walkable(c, q.sx, q.sy) then
      if path ~= nil or code ~= "blocked" then
        return ("expected 'blocked', got %s, %s, %s"):format(tostring(path), tostring(msg), tostring(code))
      end
      return nil
    end
    local d = H.dijkstra_all(c.cells, c.w, c.h, q.sx, q.sy, pol, costfn)
    local best
    for k, v in pairs(d) do
      local x, y = (k - 1) % c.w + 1, floor((k - 1) / c.w) + 1
      if accepted(x, y) and (best == nil or v < best) then best = v end
    end
    if best == nil then
      if path ~= nil or code ~= "no_path" then
        return ("expected 'no_path', got %s, %s, %s"):format(tostring(path), tostring(msg), tostring(code))
      end
      return nil
    end
    if path == nil then
      return ("expected a path of cost %.17g, got nil, %s, %s"):format(best, tostring(msg), tostring(code))
    end
    local ex, ey = path:get(-1)
    if not accepted(ex, ey) then
      return ("the path ends at (%d, %d), %s distance %.17g from the goal, not within %.17g"):format(
        ex, ey, heur, H.hdist(heur, ex, ey, q.gx or 0, q.gy or 0), r)
    end
    local ok, sum = pcall(H.check_path, c.cells, c.w, c.h, path, q.sx, q.sy, ex, ey, pol, costfn)
    if not ok then return "illegal path: " .. tostring(sum) end
    if not H.close(sum, best) or not H.close(path:cost(), best) then
      return ("cost %.17g (steps %.17g), the cheapest cell in range costs %.17g"):format(path:cost(), sum, best)
    end
    for i = 1, #path - 1 do
      local x, y = path:get(i)
      if accepted(x, y) then
        return ("point %d (%d, %d) is already in range, but the path goes on"):format(i, x, y)
      end
    end
    return nil
  end

  it("ends at the first cell in range on a shortest path", function()
    local fails, total, found, moved = {}, 0, 0, 0
    for _, c in ipairs(make_cases(1357, 120, 14)) do
      local rng = c.rng
      local grid = astar.grid.from_table(c.cells)
      for _, q in ipairs(c.queries) do
        if rng.float() < 0.2 then q = { sx = q.sx, sy = q.sy, gx = rng.int(1, c.w), gy = rng.int(1, c.h) } end
        for _, pol in ipairs(H.POLICIES) do
          local r = rng.pick(RANGES)
          local heur = rng.float() < 0.5 and H.default_heuristic(pol) or rng.pick(H.ADMISSIBLE[pol])
          if heur == "zero" then heur = H.default_heuristic(pol) end
          local costfn
          if rng.float() < 0.25 then
            local seed = total
            costfn = function(x1, y1, x2, y2, base)
              local v = step_hash(seed, x1, y1, x2, y2)
              if v < 0.1 then return false end
              return base * (1 + v)
            end
          end
          local opts = { diagonal = pol, within = r, cost = costfn }
          if heur ~= H.default_heuristic(pol) or rng.float() < 0.5 then opts.heuristic = heur end
          total = total + 1
          local ok, path, msg, code = pcall(grid.find, grid, q.sx, q.sy, q.gx, q.gy, opts)
          local err = "raised: " .. tostring(path)
          if ok then err = check_within(c, q, pol, heur, r, path, msg, code, costfn) end
          if ok and path then
            found = found + 1
            local x, y = path:get(-1)
            if x ~= q.gx or y ~= q.gy then moved = moved + 1 end
          end
          if err then fails[#fails + 1] = err .. "\n" .. where(c, q, opts) end
        end
      end
      grid:close()
    end
    report(fails, total)
    assert.is_true(found > 300 and moved > 150,
      ("too few paths: %d found, %d ending before the goal"):format(found, moved))
  end)

  it("works with several goals (the range of any goal)", function()
    local fails, total = {}, 0
    for _, c in ipairs(make_cases(8642, 60, 14)) do
      local rng = c.rng
      if #c.open > 0 then
        local grid = astar.grid.from_table(c.cells)
        for _, q in ipairs(c.queries) do
          local goals = {}
          for i = 1, rng.int(1, 4) do
            local p = c.open[rng.int(1, #c.open)]
            goals[i] = { p[1], p[2] }
          end
          for _, pol in ipairs(H.POLICIES) do
            local r = rng.pick(RANGES)
            local opts = { diagonal = pol, within = r, goals = goals }
            total = total + 1
            local ok, path, msg, code = pcall(grid.find, grid, q.sx, q.sy, opts)
            local err = "raised: " .. tostring(path)
            if ok then err = check_within(c, q, pol, H.default_heuristic(pol), r, path, msg, code, nil, goals) end
            if ok and path and not err then
              local idx = path:stats().goal
              local g = H.is_int(idx) and goals[idx]
              local x, y = path:get(-1)
              if not g or H.hdist(H.default_heuristic(pol), x, y, g[1], g[2]) > r then
                err = ("stats().goal = %s, but the path's end (%d, %d) is not within range of it"):format(
                  tostring(idx), x, y)
              end
            end
            if err then fails[#fails + 1] = err .. "\n" .. where(c, { sx = q.sx, sy = q.sy, gx = "goals" }, opts) end
          end
        end
        grid:close()
      end
    end
    report(fails, total)
  end)

  it("a blocked goal can still be approached within range", function()
    local grid = astar.grid.parse("....#", { ["."] = 1, ["#"] = false })
    local p, msg, code = grid:find(1, 1, 5, 1, { within = 1 })
    assert.is_not_nil(p, tostring(msg) .. " " .. tostring(code))
    assert.are.same({ 4, 1 }, { p:get(-1) })
    assert.are.equal(3, p:cost())
    p, msg, code = grid:find(1, 1, 5, 1)
    assert.is_nil(p)
    assert.are.equal("blocked", code, msg)
    -- the same blocked goal given in a goals list (as graphs do with a disabled goal)
    p, msg, code = grid:find(1, 1, { goals = { { 5, 1 } }, within = 1 })
    assert.is_not_nil(p, tostring(msg) .. " " .. tostring(code))
    assert.are.same({ 4, 1 }, { p:get(-1) })
    grid:close()
  end)

  it("measures the range in cells even with heuristic = 'zero' (within = 0 means the goal itself)", function()
    local grid = astar.grid(10, 10)
    for _, pol in ipairs(H.POLICIES) do
      local cells = {}
      for y = 1, 10 do
        cells[y] = {}
        for x = 1, 10 do cells[y][x] = 1 end
      end
      local opt = H.dijkstra(cells, 10, 10, 1, 1, 10, 10, pol)
      local p = assert(grid:find(1, 1, 10, 10, { diagonal = pol, within = 0, heuristic = "zero" }))
      assert.are.same({ 10, 10 }, { p:get(-1) }, pol)
      assert.is_true(H.close(opt, p:cost()), pol)
      for _, r in ipairs({ 1, 2.5 }) do
        p = assert(grid:find(1, 1, 10, 10, { diagonal = pol, within = r, heuristic = "zero" }))
        local x, y = p:get(-1)
        assert.is_true(H.hdist("chebyshev", x, y, 10, 10) <= r,
          ("%s, within %g, heuristic 'zero': the path ends at (%d, %d)"):format(pol, r, x, y))
      end
    end
    grid:close()
  end)
end)

---------------------------------------------------------------------------------------------------
-- Callback safety.

local SAFE_TEXT = [[
.........#..
.##.###..#..
.#....#.....
.#.##.####.#
...#......#.
.###.####.#.
.....#......
##.#.#.####.
...#...#....
.#...#...#..]]
local SAFE_CELLS, SW, SH = H.cells_from_text(SAFE_TEXT, { ["."] = 1, ["#"] = false })
local SREF = {}
for _, pol in ipairs(H.POLICIES) do SREF[pol] = H.dijkstra(SAFE_CELLS, SW, SH, 1, 1, SW, SH, pol) end

local function plain_cost(x1, y1, x2, y2, base) return base * ((x2 < x1 or y2 < y1) and 1.5 or 1) end
local CREF = H.dijkstra(SAFE_CELLS, SW, SH, 1, 1, SW, SH, "no_corner_cutting", plain_cost)

-- The grid answers correctly, with and without callbacks, and may be edited (it is idle).
local function still_ok(grid)
  for _, pol in ipairs(H.POLICIES) do
    local p, msg, code = grid:find(1, 1, SW, SH, { diagonal = pol })
    assert.is_not_nil(p, "after the error: " .. tostring(msg) .. " " .. tostring(code))
    assert.is_true(H.close(SREF[pol], p:cost()), "after the error the cost is " .. p:cost())
    H.check_path(SAFE_CELLS, SW, SH, p, 1, 1, SW, SH, pol)
  end
  local p = assert(grid:find(1, 1, SW, SH, { cost = plain_cost, heuristic = function() return 0 end }))
  assert.is_true(H.close(CREF, p:cost()), "after the error, with callbacks, the cost is " .. p:cost())
  H.check_path(SAFE_CELLS, SW, SH, p, 1, 1, SW, SH, "no_corner_cutting", plain_cost)
  local v = grid:get(2, 1)
  grid:set(2, 1, 7)
  assert.are.equal(7, grid:get(2, 1))
  grid:set(2, 1, v)
  for y = 1, SH do
    for x = 1, SW do assert.are.equal(SAFE_CELLS[y][x], grid:get(x, y)) end
  end
end

describe("callback safety", function()
  local grid
  before_each(function() grid = grid or astar.grid.from_table(SAFE_CELLS) end)

  it("the test grid is sound", function()
    assert.is_not_nil(SREF.no_corner_cutting)
    still_ok(grid)
  end)

  for _, which in ipairs({ "cost", "heuristic" }) do
    it(which .. " callback errors at the first, n-th and last call pass through unchanged", function()
      local function callback(counter, fail_at, value)
        return function(...)
          counter.n = counter.n + 1
          if counter.n == fail_at then error(value, 0) end
          if which == "cost" then return plain_cost(...) end
          return 0
        end
      end
      -- count the calls of a clean run (twice: they must be the same every time)
      local c1, c2 = { n = 0 }, { n = 0 }
      assert(grid:find(1, 1, SW, SH, { [which] = callback(c1) }))
      assert(grid:find(1, 1, SW, SH, { [which] = callback(c2) }))
      assert.is_true(c1.n > 10, which .. " callback called only " .. c1.n .. " times")
      assert.are.equal(c1.n, c2.n)
      local N = c1.n
      local values = { {}, "plain string", 42, setmetatable({}, { __tostring = function() return "obj" end }),
        grid, true }
      for _, at in ipairs({ 1, 2, floor(N / 2), N - 1, N }) do
        for _, v in ipairs(values) do
          local cnt = { n = 0 }
          H.checkerr_value(v, grid.find, grid, 1, 1, SW, SH, { [which] = callback(cnt, at, v) })
          assert.are.equal(at, cnt.n)
          still_ok(grid)
        end
      end
      -- an error with position information (level 1) arrives as the callback raised it
      local raised
      local ok, err = pcall(grid.find, grid, 1, 1, SW, SH, { [which] = function()
        local _, e = pcall(error, "boom", 2)
        raised = e
        error(e, 0)
      end })
      assert.is_false(ok)
      assert.are.equal(raised, err)
      still_ok(grid)
      -- runtime errors too (a nil call)
      ok, err = pcall(grid.find, grid, 1, 1, SW, SH, { [which] = function()
        local t = nil
        return t.x
      end })
      assert.is_false(ok)
      assert.is_truthy(type(err) == "string" and err:find("attempt to index", 1, true), tostring(err))
      still_ok(grid)
    end)

    it(which .. " callbacks may not yield, and the grid stays usable", function()
      for _, how in ipairs({ "wrap", "resume" }) do
        local f = function()
          return grid:find(1, 1, SW, SH, { [which] = function()
            coroutine.yield("yielded")
            return 1
          end })
        end
        local ok, err
        if how == "wrap" then
          ok, err = pcall(coroutine.wrap(f))
        else
          local co = coroutine.create(f)
          ok, err = coroutine.resume(co)
          assert.are.equal("dead", coroutine.status(co))
        end
        assert.is_false(ok, "the yield got through: " .. tostring(err))
        assert.is_true(H.is_yield_error(err), "unexpected error: " .. tostring(err))
        still_ok(grid)
      end
      -- a coroutine that runs inside the callback may yield to it
      local p = assert(grid:find(1, 1, SW, SH, { [which] = function(...)
        local co = coroutine.wrap(function() coroutine.yield(1) end)
        co()
        if which == "cost" then return plain_cost(...) end
        return 0
      end }))
      if which == "cost" then assert.is_true(H.close(CREF, p:cost())) end
      -- and a search run inside a coroutine works when nothing yields
      local co = coroutine.wrap(function()
        return grid:find(1, 1, SW, SH, { [which] = function(...)
          if which == "cost" then return plain_cost(...) end
          return 0
        end })
      end)
      p = assert(co())
      if which == "cost" then assert.is_true(H.close(CREF, p:cost())) end
      still_ok(grid)
    end)

    it(which .. " callbacks may not search, edit or close the grid (README messages)", function()
      local other = grid:clone()
      local seen = {}
      local function try(name, f, ...)
        local ok, err = pcall(f, ...)
        seen[name] = seen[name] or { ok = ok, err = err }
      end
      local p = assert(grid:find(1, 1, SW, SH, { [which] = function(...)
        try("find", grid.find, grid, 1, 1, 2, 1)
        try("find goals", grid.find, grid, 1, 1, { goals = { { 2, 1 } } })
        try("find cb", grid.find, grid, 1, 1, 2, 1, { cost = plain_cost })
        try("set", grid.set, grid, 2, 1, 5)
        try("fill", grid.fill, grid, 1, 1, 2, 2, false)
        try("close", grid.close, grid)
        try("get", grid.get, grid, 2, 1)
        try("size", grid.size, grid)
        try("walkable", grid.walkable, grid, 2, 1)
        try("other", other.find, other, 1, 1, SW, SH)
        if which == "cost" then return plain_cost(...) end
        return 0
      end }))
      if which == "cost" then assert.is_true(H.close(CREF, p:cost())) end
      local busy = "cannot search: a search on this grid is already running"
      assert.are.same({ ok = false, err = busy }, seen.find)
      assert.are.same({ ok = false, err = busy }, seen["find goals"])
      assert.are.same({ ok = false, err = busy }, seen["find cb"])
      for _, name in ipairs({ "set", "fill" }) do
        assert.is_false(seen[name].ok, name .. " succeeded inside a callback")
        local e = seen[name].err
        assert.is_truthy(type(e) == "string" and e:find("cannot edit the grid: ", 1, true) == 1,
          name .. ": " .. tostring(seen[name].err))
      end
      assert.is_false(seen.close.ok, "close succeeded inside a callback")
      local ce = seen.close.err
      assert.is_truthy(type(ce) == "string" and ce:find("cannot close the grid: ", 1, true) == 1,
        "close: " .. tostring(seen.close.err))
      -- reading is fine, and so is searching another grid
      assert.is_true(seen.get.ok, tostring(seen.get.err))
      assert.is_true(seen.size.ok, tostring(seen.size.err))
      assert.is_true(seen.walkable.ok, tostring(seen.walkable.err))
      assert.is_true(seen.other.ok, tostring(seen.other.err))
      -- the same errors raised out of the callback reach the caller as they are
      H.checkerr(busy, grid.find, grid, 1, 1, SW, SH, { [which] = function() return grid:find(1, 1, 2, 1) end })
      still_ok(grid)
      H.checkerr_prefix("cannot edit the grid: ", grid.find, grid, 1, 1, SW, SH,
        { [which] = function() grid:set(1, 2, 1) end })
      still_ok(grid)
      H.checkerr_prefix("cannot close the grid: ", grid.find, grid, 1, 1, SW, SH,
        { [which] = function() grid:close() end })
      still_ok(grid)
      other:close()
    end)
  end

  it("a callback may search another grid with callbacks of its own (nested)", function()
    local other = grid:clone()
    local inner = 0
    local p = assert(grid:find(1, 1, SW, SH, { cost = function(...)
      inner = inner + 1
      if inner <= 3 then
        local q = assert(other:find(1, 1, SW, SH, { cost = plain_cost }))
        assert(H.close(CREF, q:cost()))
      end
      return plain_cost(...)
    end }))
    assert.is_true(H.close(CREF, p:cost()))
    other:close()
    still_ok(grid)
  end)

  it("invalid cost results raise errors naming the callback, the value and the step", function()
    for _, v in ipairs({ NAN, -(0 / 0), -1, 0, -0.0, INF, -INF, 1e309 }) do
      local first
      local ok, err = pcall(grid.find, grid, 1, 1, SW, SH, { cost = function(x1, y1, x2, y2)
        first = first or { x1, y1, x2, y2 }
        return v
      end })
      assert.is_false(ok, "cost " .. tostring(v) .. " was accepted")
      local vs = v ~= v and "nan" or v == INF and "inf" or v == -INF and "-inf"
        or (v == 0 and 1 / v < 0) and "-0" or ("%d"):format(v)
      local expect = ("cost callback returned %s for the step (%d, %d) -> (%d, %d) (expected a positive "
        .. "finite number, or false or nil to forbid it)"):format(vs, first[1], first[2], first[3], first[4])
      assert.are.equal(expect, err)
      still_ok(grid)
    end
    H.checkerr("cost callback returned -1 for the step (1, 1) -> (2, 1) (expected a positive finite "
      .. "number, or false or nil to forbid it)", grid.find, grid, 1, 1, SW, SH,
      { cost = function(x1, y1, x2, y2, base)
        if x1 == 1 and y1 == 1 and x2 == 2 and y2 == 1 then return -1 end
        return base
      end })
    still_ok(grid)
    for _, v in ipairs({ "abc", "2", {}, true, print }) do
      local first
      local ok, err = pcall(grid.find, grid, 1, 1, SW, SH, { cost = function(x1, y1, x2, y2)
        first = first or { x1, y1, x2, y2 }
        return v
      end })
      assert.is_false(ok, "cost " .. tostring(v) .. " was accepted")
      assert.are.equal("string", type(err))
      assert.is_truthy(err:find("cost callback returned ", 1, true) == 1, err)
      assert.is_truthy(err:find(("for the step (%d, %d) -> (%d, %d)"):format(first[1], first[2], first[3],
        first[4]), 1, true), err)
      assert.is_truthy(err:find(type(v), 1, true) or err:find(tostring(v), 1, true), err)
      still_ok(grid)
    end
  end)

  it("invalid heuristic results raise errors naming the callback, the value and the cell", function()
    for _, v in ipairs({ NAN, -1, -0.5, INF, -INF }) do
      local first
      local ok, err = pcall(grid.find, grid, 1, 1, SW, SH, { heuristic = function(x, y)
        first = first or { x, y }
        return v
      end })
      assert.is_false(ok, "heuristic " .. tostring(v) .. " was accepted")
      local vs = v ~= v and "nan" or v == INF and "inf" or v == -INF and "-inf" or ("%.14g"):format(v)
      assert.are.equal("string", type(err))
      assert.is_truthy(err:find(("heuristic callback returned %s for (%d, %d)"):format(vs, first[1], first[2]),
        1, true) == 1, err)
      still_ok(grid)
    end
    for _, v in ipairs({ "abc", "1", {}, true, false, nil }) do
      local ok, err = pcall(grid.find, grid, 1, 1, SW, SH, { heuristic = function() return v end })
      assert.is_false(ok, "heuristic " .. tostring(v) .. " was accepted")
      assert.is_truthy(type(err) == "string" and err:find("heuristic callback returned ", 1, true) == 1,
        tostring(err))
      still_ok(grid)
    end
    -- 0 is a fine heuristic
    local p = assert(grid:find(1, 1, SW, SH, { heuristic = function() return 0 end }))
    assert.is_true(H.close(SREF.no_corner_cutting, p:cost()))
  end)

  it("rejects bad callback, goals and within options", function()
    local f5 = "find"
    H.checkerr_fn(f5, 5, grid.find, grid, 1, 1, SW, SH, { cost = 5 })
    H.checkerr_fn(f5, 5, grid.find, grid, 1, 1, SW, SH, { cost = "x" })
    H.checkerr_fn(f5, 5, grid.find, grid, 1, 1, SW, SH, { cost = {} })           -- not callable
    H.checkerr_fn(f5, 5, grid.find, grid, 1, 1, SW, SH, { heuristic = 5 })
    H.checkerr_fn(f5, 5, grid.find, grid, 1, 1, SW, SH, { heuristic = setmetatable({}, {}) })
    for _, r in ipairs({ -1, NAN, INF, "1" }) do
      H.checkerr_fn(f5, 5, grid.find, grid, 1, 1, SW, SH, { within = r })
    end
    H.checkerr_fn(f5, 5, grid.find, grid, 1, 1, SW, SH, { goals = 3 })
    H.checkerr_fn(f5, 3, grid.find, grid, 1, 1, { goals = {} })
    H.checkerr_fn(f5, 3, grid.find, grid, 1, 1, { goals = { { 0, 1 } } })
    H.checkerr_fn(f5, 3, grid.find, grid, 1, 1, { goals = { { 1, SH + 1 } } })
    H.checkerr_fn(f5, 3, grid.find, grid, 1, 1, { goals = { { 1.5, 1 } } })
    H.checkerr_fn(f5, 3, grid.find, grid, 1, 1, { goals = { 7 } })
    H.checkerr_fn(f5, 3, grid.find, grid, 1, 1, { goals = { { 1, 1 }, "x" } })
    H.checkerr_fn(f5, 3, grid.find, grid, 1, 1, { diagonal = "never" })           -- no goals
    still_ok(grid)
  end)

  it("closing the grid after a callback error works, and the grid is gone", function()
    local g = grid:clone()
    H.checkerr_value("x", g.find, g, 1, 1, SW, SH, { cost = function() error("x", 0) end })
    g:close()
    H.checkerr("attempt to use a closed grid", g.find, g, 1, 1, SW, SH)
    still_ok(grid)
  end)
end)
