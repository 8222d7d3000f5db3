-- Random grids against the independent Dijkstra / BFS of spec/helper.lua.
-- ASTAR_RANDOM_GRIDS=n changes the number of grids (default 300).

local astar = require "astar"
local H = require "spec.helper"

local COSTS = { 1, 1, 1, 2, 3, 0.5, 1.25 }
local N_GRIDS = tonumber(os.getenv("ASTAR_RANDOM_GRIDS") or "") or 300
local QUERIES = 3 -- per grid
local MAX_REPORT = 8

-- The grids, the queries and the reference distances, computed once, lazily.
local cases
local function get_cases()
  if cases then return cases end
  cases = {}
  local rng = H.rng(20240601)
  for i = 1, N_GRIDS do
    local w, h = rng.int(1, 30), rng.int(1, 30)
    local p = rng.pick({ 0, 0.05, 0.15, 0.25, 0.35, 0.45, 0.6 })
    local cells = H.random_cells(rng, w, h, p, COSTS)
    local open = {}
    for y = 1, h do
      for x = 1, w do
        if cells[y][x] then open[#open + 1] = { x, y } end
      end
    end
    local qs = {}
    for q = 1, QUERIES do
      local s, g
      -- mostly walkable ends; sometimes any cell (blocked ends); sometimes start == goal
      local r = rng.float()
      if #open > 0 and r < 0.8 then
        s, g = open[rng.int(1, #open)], open[rng.int(1, #open)]
      elseif #open > 0 and r < 0.85 then
        s = open[rng.int(1, #open)]
        g = s
      else
        s = { rng.int(1, w), rng.int(1, h) }
        g = { rng.int(1, w), rng.int(1, h) }
      end
      qs[q] = { sx = s[1], sy = s[2], gx = g[1], gy = g[2] }
    end
    cases[i] = { id = i, w = w, h = h, cells = cells, queries = qs, ref = {}, bfsref = {} }
  end
  return cases
end

-- Reference cost (nil if no path) for query q of case c under policy pol.
local function ref_cost(c, q, pol)
  local key = pol .. ":" .. q.sx .. ":" .. q.sy
  local d = c.ref[key]
  if not d then
    d = H.dijkstra_all(c.cells, c.w, c.h, q.sx, q.sy, pol)
    c.ref[key] = d
  end
  if not (H.walk(c.cells, c.w, c.h, q.sx, q.sy) and H.walk(c.cells, c.w, c.h, q.gx, q.gy)) then
    return nil
  end
  return d[(q.gy - 1) * c.w + q.gx]
end

local function ref_steps(c, q, pol)
  local key = pol .. ":" .. q.sx .. ":" .. q.sy
  local d = c.bfsref[key]
  if not d then
    d = H.bfs_all(c.cells, c.w, c.h, q.sx, q.sy, pol)
    c.bfsref[key] = d
  end
  if not (H.walk(c.cells, c.w, c.h, q.sx, q.sy) and H.walk(c.cells, c.w, c.h, q.gx, q.gy)) then
    return nil
  end
  return d[(q.gy - 1) * c.w + q.gx]
end

local LEGEND = { ["#"] = false, ["."] = 1, ["2"] = 2, ["3"] = 3, ["h"] = 0.5, ["q"] = 1.25 }
local CHAR = { [1] = ".", [2] = "2", [3] = "3", [0.5] = "h", [1.25] = "q" }

local function cells_text(c)
  local lines = {}
  for y = 1, c.h do
    local row = {}
    for x = 1, c.w do
      local v = c.cells[y][x]
      row[x] = v == false and "#" or CHAR[v]
    end
    lines[y] = table.concat(row)
  end
  return table.concat(lines, "\n")
end

-- Builds the grid with one of the three constructors, in turn.
local function make_grid(c, how)
  how = how or (c.id % 3)
  if how == 0 then
    return astar.grid.from_table(c.cells)
  elseif how == 1 then
    local g = astar.grid(c.w, c.h)
    for y = 1, c.h do
      for x = 1, c.w do
        if c.cells[y][x] ~= 1 then g:set(x, y, c.cells[y][x]) end
      end
    end
    return g
  else
    return astar.grid.parse(cells_text(c), LEGEND)
  end
end

local function describe_query(c, q, opts)
  local o = {}
  for k, v in pairs(opts or {}) do o[#o + 1] = k .. "=" .. tostring(v) end
  table.sort(o)
  return ("grid #%d (%dx%d) (%d,%d)->(%d,%d) {%s}\n%s"):format(c.id, c.w, c.h, q.sx, q.sy, q.gx,
    q.gy, table.concat(o, ", "), cells_text(c))
end

local function is_blocked_query(c, q)
  return not (H.walk(c.cells, c.w, c.h, q.sx, q.sy) and H.walk(c.cells, c.w, c.h, q.gx, q.gy))
end

-- Runs one find and checks the outcome. `check(path, cost_checked)` handles found paths.
-- Returns nil or a failure description; counts outcomes in `stats`.
local function run(grid, c, q, opts, pol, expected_found, check, stats)
  local ok, path, msg, code = pcall(grid.find, grid, q.sx, q.sy, q.gx, q.gy, opts)
  local where = describe_query(c, q, opts)
  if not ok then return "raised: " .. tostring(path) .. "\n" .. where end
  if is_blocked_query(c, q) then
    stats.blocked = stats.blocked + 1
    if path ~= nil or code ~= "blocked" or type(msg) ~= "string" then
      return ("expected nil, msg, 'blocked', got %s, %s, %s\n%s"):format(tostring(path),
        tostring(msg), tostring(code), where)
    end
    return nil
  end
  if not expected_found then
    stats.no_path = stats.no_path + 1
    if path ~= nil or code ~= "no_path" or type(msg) ~= "string" then
      return ("expected nil, msg, 'no_path', got %s, %s, %s\n%s"):format(tostring(path),
        tostring(msg), tostring(code), where)
    end
    return nil
  end
  stats.found = stats.found + 1
  if path == nil then
    return ("expected a path, got nil, %s, %s\n%s"):format(tostring(msg), tostring(code), where)
  end
  local okc, sum = pcall(H.check_path, c.cells, c.w, c.h, path, q.sx, q.sy, q.gx, q.gy, pol)
  if not okc then return "illegal path: " .. tostring(sum) .. "\n" .. where end
  local cost = path:cost()
  if not H.close(cost, sum) then
    return ("path:cost() = %.17g but its steps sum to %.17g\n%s"):format(cost, sum, where)
  end
  local err = check(path, cost)
  if err then return err .. "\n" .. where end
  return nil
end

local function report(fails, total)
  if #fails > 0 then
    local shown = {}
    for i = 1, math.min(#fails, MAX_REPORT) do shown[i] = fails[i] end
    error(("%d of %d queries failed; the first ones:\n\n%s"):format(#fails, total,
      table.concat(shown, "\n\n")), 0)
  end
end

local function new_stats() return { found = 0, no_path = 0, blocked = 0 } end

-- The random set must really exercise every outcome, or the tests below prove little.
local function assert_coverage(stats)
  assert.is_true(stats.found > 100, "too few found paths: " .. stats.found)
  assert.is_true(stats.no_path > 5, "too few unreachable goals: " .. stats.no_path)
  assert.is_true(stats.blocked > 5, "too few blocked ends: " .. stats.blocked)
end

describe("random grids", function()
  it("are built identically by grid, parse and from_table", function()
    local fails = {}
    for _, c in ipairs(get_cases()) do
      for how = 0, 2 do
        local g = make_grid(c, how)
        local w, h = g:size()
        if w ~= c.w or h ~= c.h then
          fails[#fails + 1] = ("grid #%d built by #%d: size %s x %s, expected %d x %d"):format(
            c.id, how, tostring(w), tostring(h), c.w, c.h)
        else
          for y = 1, c.h do
            for x = 1, c.w do
              local v = g:get(x, y)
              if v ~= c.cells[y][x] or g:walkable(x, y) ~= (c.cells[y][x] ~= false) then
                fails[#fails + 1] = ("grid #%d built by #%d: get(%d, %d) = %s, expected %s"):format(
                  c.id, how, x, y, tostring(v), tostring(c.cells[y][x]))
              end
            end
          end
        end
        g:close()
      end
    end
    report(fails, #get_cases() * 3)
  end)

  it("astar and dijkstra with every admissible heuristic give optimal legal paths", function()
    local fails, total, stats = {}, 0, new_stats()
    for _, c in ipairs(get_cases()) do
      local grid = make_grid(c)
      for _, q in ipairs(c.queries) do
        for _, pol in ipairs(H.POLICIES) do
          local opt = ref_cost(c, q, pol)
          for _, heur in ipairs(H.ADMISSIBLE[pol]) do
            for _, alg in ipairs({ "astar", "dijkstra" }) do
              total = total + 1
              local err = run(grid, c, q, { algorithm = alg, diagonal = pol, heuristic = heur }, pol,
                opt ~= nil, function(_, cost)
                  if not H.close(cost, opt) then
                    return ("cost %.17g, optimal %.17g"):format(cost, opt)
                  end
                end, stats)
              if err then fails[#fails + 1] = err end
            end
          end
        end
      end
      grid:close()
    end
    report(fails, total)
    assert_coverage(stats)
  end)

  it("default options give optimal paths (no_corner_cutting, and each policy's default heuristic)",
    function()
      local fails, total, stats = {}, 0, new_stats()
      for _, c in ipairs(get_cases()) do
        local grid = make_grid(c)
        for _, q in ipairs(c.queries) do
          for _, pol in ipairs({ false, "never", "always", "no_corner_cutting", "one_obstacle" }) do
            local rpol = pol or "no_corner_cutting"
            local opt = ref_cost(c, q, rpol)
            local opts = pol and { diagonal = pol } or nil
            total = total + 1
            local err = run(grid, c, q, opts, rpol, opt ~= nil, function(_, cost)
              if not H.close(cost, opt) then
                return ("cost %.17g, optimal %.17g"):format(cost, opt)
              end
            end, stats)
            if err then fails[#fails + 1] = err end
          end
        end
        grid:close()
      end
      report(fails, total)
      assert_coverage(stats)
    end)

  it("weighted A* stays within weight * optimum", function()
    local fails, total, stats = {}, 0, new_stats()
    for _, c in ipairs(get_cases()) do
      local grid = make_grid(c)
      for _, q in ipairs(c.queries) do
        for _, pol in ipairs(H.POLICIES) do
          local opt = ref_cost(c, q, pol)
          for _, wgt in ipairs({ 1.5, 2, 4 }) do
            for _, heur in ipairs({ false, "euclidean", "zero" }) do
              local opts = { diagonal = pol, weight = wgt, heuristic = heur or nil }
              total = total + 1
              local err = run(grid, c, q, opts, pol, opt ~= nil, function(_, cost)
                if cost > wgt * opt + 1e-9 or cost < opt - 1e-9 * opt then
                  return ("cost %.17g outside [optimum %.17g, %g * optimum]"):format(cost, opt, wgt)
                end
              end, stats)
              if err then fails[#fails + 1] = err end
            end
          end
        end
      end
      grid:close()
    end
    report(fails, total)
    assert_coverage(stats)
  end)

  it("bfs gives a path with the fewest steps and reports its real cost", function()
    local fails, total, stats = {}, 0, new_stats()
    for _, c in ipairs(get_cases()) do
      local grid = make_grid(c)
      for _, q in ipairs(c.queries) do
        for _, pol in ipairs(H.POLICIES) do
          local steps = ref_steps(c, q, pol)
          local opt = ref_cost(c, q, pol)
          total = total + 1
          local err = run(grid, c, q, { algorithm = "bfs", diagonal = pol }, pol, steps ~= nil,
            function(path, cost)
              if #path - 1 ~= steps then
                return ("bfs path has %d steps, the fewest is %d"):format(#path - 1, steps)
              end
              if cost < opt - 1e-9 * opt then
                return ("bfs cost %.17g below the optimum %.17g"):format(cost, opt)
              end
            end, stats)
          if err then fails[#fails + 1] = err end
        end
      end
      grid:close()
    end
    report(fails, total)
    assert_coverage(stats)
  end)

  it("greedy gives a legal path exactly when one exists", function()
    local fails, total, stats = {}, 0, new_stats()
    for _, c in ipairs(get_cases()) do
      local grid = make_grid(c)
      for _, q in ipairs(c.queries) do
        for _, pol in ipairs(H.POLICIES) do
          local opt = ref_cost(c, q, pol)
          for _, heur in ipairs({ false, "euclidean", "chebyshev" }) do
            total = total + 1
            local err = run(grid, c, q, { algorithm = "greedy", diagonal = pol, heuristic = heur or nil },
              pol, opt ~= nil, function(_, cost)
                if cost < opt - 1e-9 * opt then
                  return ("greedy cost %.17g below the optimum %.17g"):format(cost, opt)
                end
              end, stats)
            if err then fails[#fails + 1] = err end
          end
        end
      end
      grid:close()
    end
    report(fails, total)
    assert_coverage(stats)
  end)

  it("max_cost below the optimum gives 'limit', at or above it the optimal path", function()
    local fails, total, checked = {}, 0, 0
    for _, c in ipairs(get_cases()) do
      local grid = make_grid(c)
      for _, q in ipairs(c.queries) do
        local opt = ref_cost(c, q, "no_corner_cutting")
        if opt and opt > 0 then
          checked = checked + 1
          total = total + 2
          local where = describe_query(c, q, { max_cost = "..." })
          local p, msg, code = grid:find(q.sx, q.sy, q.gx, q.gy, { max_cost = opt * 0.999 })
          if p ~= nil or code ~= "limit" or type(msg) ~= "string" then
            fails[#fails + 1] = ("max_cost %.17g < optimum %.17g: got %s, %s, %s\n%s"):format(
              opt * 0.999, opt, tostring(p), tostring(msg), tostring(code), where)
          end
          p, msg, code = grid:find(q.sx, q.sy, q.gx, q.gy, { max_cost = opt * (1 + 1e-9) })
          if p == nil or not H.close(p:cost(), opt) then
            fails[#fails + 1] = ("max_cost = optimum %.17g: got %s, %s, %s\n%s"):format(opt,
              p and p:cost() or "nil", tostring(msg), tostring(code), where)
          end
        end
      end
      grid:close()
    end
    report(fails, total)
    assert.is_true(checked > 100, "too few reachable queries: " .. checked)
  end)
end)

describe("one grid reused for ten thousand queries", function()
  it("answers like the reference and exactly like fresh grids", function()
    local rng = H.rng(777)
    local w, h = 20, 20
    local cells = H.random_cells(rng, w, h, 0.25, COSTS)
    local c = { id = 0, w = w, h = h, cells = cells, ref = {}, bfsref = {} }
    local grid = astar.grid.from_table(cells)
    local fails, stats = {}, new_stats()
    local ALGS = { "astar", "astar", "astar", "dijkstra", "bfs", "greedy" }
    local n, compared = 10000, 0
    for i = 1, n do
      local q = { sx = rng.int(1, w), sy = rng.int(1, h), gx = rng.int(1, w), gy = rng.int(1, h) }
      local pol = H.POLICIES[rng.int(1, 4)]
      local alg = ALGS[rng.int(1, #ALGS)]
      local heur = H.ADMISSIBLE[pol][rng.int(1, #H.ADMISSIBLE[pol])]
      local opts = { diagonal = pol, algorithm = alg, heuristic = heur }
      local opt = ref_cost(c, q, pol)
      local err = run(grid, c, q, opts, pol, opt ~= nil, function(path, cost)
        if alg == "astar" or alg == "dijkstra" then
          if not H.close(cost, opt) then return ("cost %.17g, optimal %.17g"):format(cost, opt) end
        elseif alg == "bfs" then
          local steps = ref_steps(c, q, pol)
          if #path - 1 ~= steps then return ("bfs: %d steps, fewest %d"):format(#path - 1, steps) end
        end
      end, stats)
      if err then fails[#fails + 1] = "query " .. i .. ": " .. err end
      -- now and then: a search cut short by a limit, to leave the scratch state dirty
      if i % 7 == 0 then grid:find(q.sx, q.sy, q.gx, q.gy, { max_expansions = rng.int(0, 5) }) end
      -- every 25th query: a fresh grid must give exactly the same answer
      if i % 25 == 0 then
        compared = compared + 1
        local fresh = astar.grid.from_table(cells)
        local a = H.summary(grid:find(q.sx, q.sy, q.gx, q.gy, opts))
        local b = H.summary(fresh:find(q.sx, q.sy, q.gx, q.gy, opts))
        fresh:close()
        if a.code ~= b.code or (a.pts and not (H.same_points(a.pts, b.pts) and a.cost == b.cost)) then
          fails[#fails + 1] = ("query %d: reused grid and fresh grid differ (%s vs %s)\n%s"):format(i,
            tostring(a.code or a.cost), tostring(b.code or b.cost), describe_query(c, q, opts))
        end
      end
      if #fails > MAX_REPORT then break end
    end
    grid:close()
    report(fails, n)
    assert_coverage(stats)
    assert.are.equal(n / 25, compared)
  end)
end)
