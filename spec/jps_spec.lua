-- Jump point search (algorithm = "jps", and "auto", the default, where it applies): every
-- answer against the independent Dijkstra of spec/helper.lua, on random grids of one cost,
-- with several goals, after edits; the options that turn it off; budgets and sliced queries.
-- ASTAR_RANDOM_GRIDS=n changes the number of random grids (default 300).

local astar = require "astar"
local H = require "spec.helper"

local N_GRIDS = tonumber(os.getenv("ASTAR_RANDOM_GRIDS") or "") or 300
local JUMPING = H.POLICIES                          -- every policy jumps
local TABLES = H.POLICIES                          -- JPS+ serves every policy
local MAX_REPORT = 8

local function report(fails, total) H.report(fails, total, MAX_REPORT) end

-- A random grid of one cost c (cells[y][x] = c or false), its astar grid and open cells;
-- one in four is long and thin (jumps over several 64-cell words of a bit row or column).
local function random_case(rng)
  local w, h = rng.int(1, 40), rng.int(1, 40)
  local r = rng.float()
  if r < 0.125 then w, h = rng.int(60, 260), rng.int(1, 8)
  elseif r < 0.25 then w, h = rng.int(1, 8), rng.int(60, 260) end
  local c = rng.pick({ 1, 1, 0.5, 3 })
  local cells = H.random_cells(rng, w, h, rng.pick({ 0, 0.05, 0.15, 0.3, 0.45 }), { c })
  return { w = w, h = h, cells = cells, open = H.open_cells(cells, w, h),
    grid = astar.grid.from_table(cells) }
end

-- A random grid of several costs: noise, rectangular patches of costs 1-9, stripes, or
-- contrast (cheap cells among dear ones and the other way round: the steps a boundary
-- cell prunes by cost, and those it must keep, both change with the neighbours' costs).
local function weighted_case(rng)
  local k = random_case(rng)
  local mode = rng.pick({ "noise", "patches", "patches", "stripes", "contrast" })
  local cells = k.cells
  if mode == "patches" then
    for _ = 1, rng.int(1, 6) do
      local x, y = rng.int(1, k.w), rng.int(1, k.h)
      local pw, ph, c = rng.int(1, k.w - x + 1), rng.int(1, k.h - y + 1), rng.int(1, 9)
      for yy = y, y + ph - 1 do
        for xx = x, x + pw - 1 do
          if cells[yy][xx] then cells[yy][xx] = c end
        end
      end
    end
  else
    for y = 1, k.h do
      for x = 1, k.w do
        if cells[y][x] then
          cells[y][x] = mode == "noise" and rng.pick({ 1, 2, 3 })
            or mode == "contrast" and rng.pick({ 0.5, 1, 1, 1, 9, 30 })
            or ((x + 2 * y) % 5 < 2 and 2.5 or 1)
        end
      end
    end
  end
  k.grid = astar.grid.from_table(cells)
  k.mode = mode
  return k
end

local function cell_of(rng, k)
  if #k.open > 0 and rng.float() < 0.9 then return H.unpack(k.open[rng.int(1, #k.open)]) end
  return rng.int(1, k.w), rng.int(1, k.h)
end

-- Checks one answer against the reference cost 'want' (nil: no path); "" if right.
local function check(k, p, msg, code, sx, sy, gx, gy, pol, want, alg)
  if want == nil then
    if p ~= nil then return "found a path where the reference has none" end
    if code ~= "no_path" and code ~= "blocked" then return "code " .. tostring(code) end
    return ""
  end
  if p == nil then return ("no path (%s, %s), reference %.17g"):format(tostring(msg), code, want) end
  local ok, sum = pcall(H.check_path, k.cells, k.w, k.h, p, sx, sy, gx, gy, pol)
  if not ok then return tostring(sum) end
  if not H.close(sum, want) or not H.close(p:cost(), want) then
    return ("cost %.17g (steps %.17g), reference %.17g"):format(p:cost(), sum, want)
  end
  if p:stats().algorithm ~= (alg or "jps") then return "algorithm " .. tostring(p:stats().algorithm) end
  return ""
end

local function where(k, sx, sy, gx, gy, pol)
  return ("%dx%d %s (%d,%d)->(%d,%d)\n%s"):format(k.w, k.h, pol, sx, sy, gx, gy,
    H.fmt_cells(k.cells, k.w, k.h))
end

-- Sets a random rectangle of k (sides up to 'side'; 1 cell: grid:set) to one of 'values', in
-- the grid and in k.cells, then checks one random query with 'alg' (nil: the default) against
-- the reference; "" if right.
local function edit_then_check(rng, k, side, values, alg)
  local x, y = rng.int(1, k.w), rng.int(1, k.h)
  local fw = rng.int(1, math.min(side, k.w - x + 1))
  local fh = rng.int(1, math.min(side, k.h - y + 1))
  local v = rng.pick(values)
  if fw * fh == 1 then k.grid:set(x, y, v) else k.grid:fill(x, y, fw, fh, v) end
  for yy = y, y + fh - 1 do
    for xx = x, x + fw - 1 do k.cells[yy][xx] = v end
  end
  k.open = H.open_cells(k.cells, k.w, k.h)
  local pol = rng.pick(JUMPING)
  local sx, sy = cell_of(rng, k)
  local gx, gy = cell_of(rng, k)
  local want = H.dijkstra(k.cells, k.w, k.h, sx, sy, gx, gy, pol)
  local p, msg, code = k.grid:find(sx, sy, gx, gy, { diagonal = pol, algorithm = alg })
  local err = check(k, p, msg, code, sx, sy, gx, gy, pol, want)
  return err == "" and "" or err .. "\n" .. where(k, sx, sy, gx, gy, pol)
end

-- One random query of k's prepared grid (policy pol, tables expected: "jps+") against the
-- reference; "" if right.
local function check_prepared(rng, k, pol)
  local sx, sy = cell_of(rng, k)
  local gx, gy = cell_of(rng, k)
  local want = H.dijkstra(k.cells, k.w, k.h, sx, sy, gx, gy, pol)
  local p, msg, code = k.grid:find(sx, sy, gx, gy, { diagonal = pol, algorithm = "jps" })
  local err = check(k, p, msg, code, sx, sy, gx, gy, pol, want, "jps+")
  return err == "" and "" or err .. "\n" .. where(k, sx, sy, gx, gy, pol)
end

describe("jump point search on random grids of one cost", function()
  it("costs what the reference Dijkstra says, with legal steps, under both jumping policies",
    function()
      local rng, fails, total = H.rng(1109), {}, 0
      for _ = 1, N_GRIDS do
        local k = random_case(rng)
        for _, pol in ipairs(JUMPING) do
          for _ = 1, 2 do
            local sx, sy = cell_of(rng, k)
            local gx, gy = cell_of(rng, k)
            local want = H.dijkstra(k.cells, k.w, k.h, sx, sy, gx, gy, pol)
            for _, alg in ipairs({ "jps", "auto" }) do
              local p, msg, code = k.grid:find(sx, sy, gx, gy, { diagonal = pol, algorithm = alg })
              local err = check(k, p, msg, code, sx, sy, gx, gy, pol, want)
              total = total + 1
              if err ~= "" then fails[#fails + 1] = alg .. ": " .. err .. "\n" .. where(k, sx, sy, gx, gy, pol) end
            end
          end
        end
      end
      report(fails, total)
    end)

  it("reaches the cheapest of several goals and says which", function()
    local rng, fails, total = H.rng(1110), {}, 0
    for _ = 1, math.floor(N_GRIDS / 2) do
      local k = random_case(rng)
      local pol = rng.pick(JUMPING)
      local sx, sy = cell_of(rng, k)
      local goals, best, bi = {}, nil, nil
      local dist = H.dijkstra_all(k.cells, k.w, k.h, sx, sy, pol)
      for i = 1, rng.int(1, 5) do
        local gx, gy = cell_of(rng, k)
        goals[i] = { gx, gy }
        local d = H.walk(k.cells, k.w, k.h, sx, sy) and H.walk(k.cells, k.w, k.h, gx, gy)
          and dist[(gy - 1) * k.w + gx]
        if d and (best == nil or d < best) then best, bi = d, i end
      end
      local p, msg, code = k.grid:find(sx, sy, { goals = goals, diagonal = pol })
      local err
      if best == nil then
        err = check(k, p, msg, code, sx, sy, 0, 0, pol, nil)
      else
        local gx, gy
        if p then gx, gy = p:get(-1) end
        err = check(k, p, msg, code, sx, sy, gx or 0, gy or 0, pol, best)
        local i = p and p:stats().goal
        if err == "" and not (goals[i] and goals[i][1] == gx and goals[i][2] == gy
          and H.close(dist[(gy - 1) * k.w + gx], best)) then
          err = ("stats().goal %s is not the goal reached (reference: goal %d)"):format(tostring(i), bi)
        end
      end
      total = total + 1
      if err ~= "" then fails[#fails + 1] = err .. "\n" .. where(k, sx, sy, 0, 0, pol) end
    end
    report(fails, total)
  end)

  it("stays right while cells are set, filled and parsed in (the walkability bits follow)",
    function()
      local rng, fails, total = H.rng(1111), {}, 0
      for _ = 1, 20 do
        local w, h = rng.int(5, 45), rng.int(5, 45)
        local cells = H.random_cells(rng, w, h, 0.2, { 1 })
        local k = { w = w, h = h, cells = cells, grid = astar.grid.from_table(cells) }
        for _ = 1, 40 do
          local err = edit_then_check(rng, k, rng.float() < 0.6 and 1 or math.huge,
            { 1, false, false })
          total = total + 1
          if err ~= "" then fails[#fails + 1] = err end
        end
      end
      report(fails, total)
    end)

  it("jumps on a clone, and an edit of one grid never reaches the other's bits", function()
    local g = astar.grid(20, 5)
    assert.are.equal("jps", g:find(1, 3, 20, 3):stats().algorithm)     -- bits built
    local c = g:clone()
    c:fill(10, 1, 1, 5, false)
    assert.are.same({ nil, "no path from (1, 3) to (20, 3)", "no_path" }, { c:find(1, 3, 20, 3) })
    assert.are.equal(19, g:find(1, 3, 20, 3):cost())
    g:fill(5, 1, 1, 5, false)
    assert.are.equal("no_path", select(3, g:find(1, 3, 20, 3)))
    assert.are.equal("no_path", select(3, c:find(1, 3, 20, 3)))
    assert.are.equal(8, c:find(1, 3, 9, 3):cost())
  end)

  it("goes straight to a goal in sight of the start: one expansion, the octile length", function()
    local cells = {}
    for y = 1, 512 do
      cells[y] = {}
      for x = 1, 512 do cells[y][x] = not (x == 450 and y <= 100) and 1 end   -- a wall
    end
    local g = astar.grid.from_table(cells)
    for _, pol in ipairs({ "no_corner_cutting", "never" }) do
      for _, q in ipairs({ { 10, 20, 400, 300 }, { 400, 300, 10, 20 }, { 5, 500, 5, 3 },
                           { 200, 7, 9, 7 }, { 256, 256, 257, 256 } }) do
        local dx, dy = math.abs(q[3] - q[1]), math.abs(q[4] - q[2])
        local want = pol == "never" and dx + dy
          or math.min(dx, dy) * math.sqrt(2) + math.abs(dx - dy)
        local p = g:find(q[1], q[2], q[3], q[4], { diagonal = pol })
        local sum = H.check_path(cells, 512, 512, p, q[1], q[2], q[3], q[4], pol)
        assert.is_true(H.close(p:cost(), want) and H.close(sum, want), ("%s %s: %.17g, octile %.17g"):format(
          pol, table.concat(q, ","), p:cost(), want))
        assert.are.equal(1, p:stats().expanded)
        assert.are.equal(2, p:stats().generated)      -- the start and the goal: no runs
      end
    end
    local p = g:find(400, 50, 500, 50)               -- the wall in the way: a real search
    assert.is_true(p:stats().expanded > 1)
    assert.is_true(p:cost() > 100)
  end)
end)

describe("jump point search on random grids of several costs", function()
  it("costs what the reference says: jumps stop at cost boundaries, which prune by cost",
    function()
      local rng, fails, total = H.rng(1114), {}, 0
      for _ = 1, N_GRIDS do
        local k = weighted_case(rng)
        local pol = rng.pick(JUMPING)
        for _ = 1, 2 do
          local sx, sy = cell_of(rng, k)
          local gx, gy = cell_of(rng, k)
          local want = H.dijkstra(k.cells, k.w, k.h, sx, sy, gx, gy, pol)
          local p, msg, code = k.grid:find(sx, sy, gx, gy, { diagonal = pol, algorithm = "jps" })
          local err = check(k, p, msg, code, sx, sy, gx, gy, pol, want)
          if err == "" then                  -- auto: jumps or not, the same cost
            local a = k.grid:find(sx, sy, gx, gy, { diagonal = pol })
            if (a == nil) ~= (p == nil) or (a and not H.close(a:cost(), p:cost())) then
              err = "auto differs from jps"
            end
          end
          total = total + 1
          if err ~= "" then
            fails[#fails + 1] = k.mode .. ": " .. err .. "\n" .. where(k, sx, sy, gx, gy, pol)
          end
        end
      end
      report(fails, total)
    end)

  -- Two close costs tie often: a boundary cell entered straight drops the step diagonally
  -- ahead when the diagonal first costs as much, and only that order of a tie may be dropped.
  it("costs what the reference says between every two cells of small grids of two costs",
    function()
      local rng, fails, total = H.rng(1116), {}, 0
      for _ = 1, 8 do
        local w, h = rng.int(3, 7), rng.int(3, 7)
        local cells = H.random_cells(rng, w, h, rng.pick({ 0, 0.1, 0.25 }), { 1, 1, 2 })
        local k = { w = w, h = h, cells = cells, open = H.open_cells(cells, w, h),
          grid = astar.grid.from_table(cells) }
        for _, pol in ipairs(JUMPING) do
          local ref = {}                     -- each start's distances, for both passes
          for i, c in ipairs(k.open) do ref[i] = H.dijkstra_all(cells, w, h, c[1], c[2], pol) end
          for _, alg in ipairs({ "jps", "jps+" }) do
            if alg == "jps+" then k.grid:prepare(pol) end
            for i, s in ipairs(k.open) do
              for _, t in ipairs(k.open) do
                local p, msg, code = k.grid:find(s[1], s[2], t[1], t[2],
                  { diagonal = pol, algorithm = "jps" })
                local err = check(k, p, msg, code, s[1], s[2], t[1], t[2], pol,
                  ref[i][(t[2] - 1) * w + t[1]], alg)
                total = total + 1
                if err ~= "" then
                  fails[#fails + 1] = alg .. ": " .. err .. "\n" .. where(k, s[1], s[2], t[1], t[2], pol)
                end
              end
            end
          end
        end
        k.grid:close()
      end
      report(fails, total)
    end)

  it("stays right while costs change (the boundary bits follow every edit)", function()
    local rng, fails, total = H.rng(1115), {}, 0
    for _ = 1, 20 do
      local k = weighted_case(rng)
      for _ = 1, 30 do
        local err = edit_then_check(rng, k, 4, { 1, 2, 5, false }, "jps")
        total = total + 1
        if err ~= "" then fails[#fails + 1] = err end
      end
    end
    report(fails, total)
  end)
end)

describe("prepared jump point search (JPS+)", function()
  it("costs what the reference says on random grids, with goals, through edits", function()
    local rng, fails, total = H.rng(1113), {}, 0
    for _ = 1, N_GRIDS do
      local k = random_case(rng)
      local pol = rng.pick(TABLES)
      local per = pol == "never" and 8 or 16
      local bytes = k.grid:prepare(pol)
      if bytes ~= per * (k.w + 2) * (k.h + 2) then
        fails[#fails + 1] = ("prepare(%q) returned %s bytes, expected %d"):format(pol, tostring(bytes),
          per * (k.w + 2) * (k.h + 2))
      end
      for round = 1, 3 do
        if round == 3 and #k.open > 0 then          -- a cell toggled: the tables are rebuilt
          local x, y = rng.int(1, k.w), rng.int(1, k.h)
          local v = not k.cells[y][x] and k.cells[k.open[1][2]][k.open[1][1]]
          k.cells[y][x] = v
          k.grid:set(x, y, v)
          k.open = H.open_cells(k.cells, k.w, k.h)
        end
        local sx, sy = cell_of(rng, k)
        local p, msg, code, err, gx, gy, want
        if rng.float() < 0.3 then                    -- several goals
          local goals, dist = {}, H.dijkstra_all(k.cells, k.w, k.h, sx, sy, pol)
          for i = 1, rng.int(1, 4) do
            local x, y = cell_of(rng, k)
            goals[i] = { x, y }
            local d = H.walk(k.cells, k.w, k.h, sx, sy) and H.walk(k.cells, k.w, k.h, x, y)
              and dist[(y - 1) * k.w + x]
            if d and (want == nil or d < want) then want = d end
          end
          p, msg, code = k.grid:find(sx, sy, { goals = goals, diagonal = pol })
          if p then gx, gy = p:get(-1) end
        else
          gx, gy = cell_of(rng, k)
          want = H.dijkstra(k.cells, k.w, k.h, sx, sy, gx, gy, pol)
          p, msg, code = k.grid:find(sx, sy, gx, gy, { diagonal = pol })
        end
        err = check(k, p, msg, code, sx, sy, gx or 0, gy or 0, pol, want, "jps+")
        total = total + 1
        if err ~= "" then fails[#fails + 1] = err .. "\n" .. where(k, sx, sy, gx or 0, gy or 0, pol) end
      end
    end
    report(fails, total)
  end)

  it("stops at cost boundaries on grids of several costs, through edits", function()
    local rng, fails, total = H.rng(1116), {}, 0
    for _ = 1, N_GRIDS do
      local k = weighted_case(rng)
      local pol = rng.pick(TABLES)
      k.grid:prepare(pol)
      for round = 1, 3 do
        if round > 1 then                           -- a cost changed: the tables follow
          local x, y = cell_of(rng, k)
          local v = rng.pick({ 1, 2, 5, false })
          k.cells[y][x] = v
          k.grid:set(x, y, v)
          k.open = H.open_cells(k.cells, k.w, k.h)
        end
        local err = check_prepared(rng, k, pol)
        total = total + 1
        if err ~= "" then fails[#fails + 1] = k.mode .. ": " .. err end
      end
    end
    report(fails, total)
  end)

  it("patches its tables around small edits: every answer between them what the reference says",
    function()
      -- grids of 40-70 cells a side, of one cost or of several: a few cells edited change the
      -- jumps near them and those that go through those, which the next search settles
      -- (spec/c/test_jps_plus.c compares patched tables with whole ones, value for value)
      local rng, fails, total = H.rng(1119), {}, 0
      for _ = 1, math.max(2, math.floor(N_GRIDS / 25)) do
        local w, h = rng.int(40, 70), rng.int(40, 70)
        local costs = rng.float() < 0.5 and { 1 } or { 1, 1, 1, 1, 2, 4 }
        local cells = H.random_cells(rng, w, h, rng.pick({ 0.05, 0.2, 0.35 }), costs)
        local k = { w = w, h = h, cells = cells, open = H.open_cells(cells, w, h),
          grid = astar.grid.from_table(cells) }
        local pol = rng.pick(TABLES)
        k.grid:prepare(pol)
        for _ = 1, 8 do
          for _ = 1, rng.int(1, 2) do
            local x, y, v = rng.int(1, w - 2), rng.int(1, h - 2), rng.pick({ false, false, costs[#costs], 1 })
            local side = rng.int(1, 3)
            k.grid:fill(x, y, side, side, v)
            for yy = y, y + side - 1 do for xx = x, x + side - 1 do cells[yy][xx] = v end end
          end
          k.open = H.open_cells(cells, w, h)
          for _ = 1, 3 do
            local err = check_prepared(rng, k, pol)
            if err ~= "" then fails[#fails + 1] = err end
          end
          total = total + 3
        end
        k.grid:close()
      end
      report(fails, total)
    end)

  it("is per policy, reports its bytes, and refuses what is not a policy", function()
    local g = astar.grid(30, 10)
    assert.are.equal(8 * 32 * 12, g:prepare("never"))
    assert.are.equal("jps", g:find(1, 1, 30, 10):stats().algorithm)       -- not prepared
    assert.are.equal("jps+", g:find(1, 1, 30, 10, { diagonal = "never" }):stats().algorithm)
    assert.are.equal(16 * 32 * 12, g:prepare())
    assert.are.equal(16 * 32 * 12, g:prepare("no_corner_cutting"))        -- again: nothing new
    assert.are.equal("jps+", g:find(1, 1, 30, 10):stats().algorithm)
    assert.are.equal("astar", g:find(1, 1, 30, 10, { algorithm = "astar" }):stats().algorithm)
    assert.are.equal("jps", g:find(1, 1, 30, 10, { diagonal = "always" }):stats().algorithm)
    assert.are.equal(16 * 32 * 12, g:prepare("always"))
    assert.are.equal("jps+", g:find(1, 1, 30, 10, { diagonal = "always" }):stats().algorithm)
    assert.are.equal("jps", g:find(1, 1, 30, 10, { diagonal = "one_obstacle" }):stats().algorithm)
    H.checkerr("bad argument #1 to 'prepare' (diagonal: invalid value 'sideways')", g.prepare, g, "sideways")
    H.checkerr("bad argument #1 to 'prepare' (diagonal: string expected, got number)", g.prepare, g, 1)
    g:set(5, 5, 2)                           -- two costs: the tables stop at boundaries too
    assert.are.equal("jps+", g:find(1, 1, 30, 10):stats().algorithm)
    g:set(5, 5, 1)
    assert.are.equal("jps+", g:find(1, 1, 30, 10):stats().algorithm)
    local c = g:clone()                                -- a clone is not prepared
    assert.are.equal("jps", c:find(1, 1, 30, 10):stats().algorithm)
    -- not while a search on the grid runs (here from its heuristic), and the grid stays usable
    local p = g:find(1, 1, 30, 10, { heuristic = function()
      H.checkerr("cannot edit the grid: a search on this grid is running", g.prepare, g, "never")
      return 0
    end })
    assert.is_true(H.close(p:cost(), 20 + 9 * H.SQRT2))
    assert.are.equal("jps+", g:find(1, 1, 30, 10):stats().algorithm)
    g:close()
    H.checkerr("attempt to use a closed grid", g.prepare, g)
    -- the tables hold 16-bit distances: a side of 32766 cells or more is refused, and such
    -- a grid still jumps online
    local long = astar.grid(32765, 1)
    assert.are.equal(16 * 32767 * 3, long:prepare())
    assert.are.equal("jps+", long:find(1, 1, 32765, 1):stats().algorithm)
    local longer = astar.grid(32766, 1)
    H.checkerr("prepare: a grid with a side of 32766 cells or more cannot be prepared",
      longer.prepare, longer)
    local p2 = longer:find(1, 1, 32766, 1)
    assert.are.equal("jps", p2:stats().algorithm)
    assert.are.equal(32765, p2:cost())
  end)
end)

describe("which algorithm runs", function()
  it("auto jumps on one cost and on few cost boundaries, and says so in stats().algorithm",
    function()
      local g = astar.grid(30, 30)
      assert.are.equal("jps", g:find(1, 1, 30, 30):stats().algorithm)
      g:set(15, 15, 2)                         -- two costs, 9 boundary cells of 900: jumps
      local p = g:find(1, 1, 30, 30)
      assert.are.equal("jps", p:stats().algorithm)
      assert.is_true(H.close(p:cost(), 28 * H.SQRT2 + 2))         -- round the dearer cell
      g:fill(1, 1, 30, 30, 4)                  -- one cost, not 1
      p = g:find(1, 1, 30, 30)
      assert.are.equal("jps", p:stats().algorithm)
      assert.is_true(H.close(p:cost(), 4 * 29 * H.SQRT2))
      for y = 1, 30 do                         -- a checkerboard of costs: every cell a boundary
        for x = 1, 30 do g:set(x, y, (x + y) % 2 + 1) end
      end
      assert.are.equal("astar", g:find(1, 1, 30, 30):stats().algorithm)
      -- the line is three boundary cells in five: stripes of cost 2 across 10 x 12 cells
      local s = astar.grid(10, 12)
      s:fill(1, 2, 10, 1, 2)
      s:fill(1, 6, 10, 1, 2)                   -- rows 1-3 and 5-7: half the cells
      assert.are.equal("jps", s:find(1, 1, 10, 12):stats().algorithm)
      s:fill(1, 10, 10, 1, 2)                  -- and rows 9-11: three in four
      assert.are.equal("astar", s:find(1, 1, 10, 12):stats().algorithm)
      s:close()
      -- "jps" by name jumps there too (shortest, only slower than A*)
      p = g:find(1, 1, 30, 30, { algorithm = "jps" })
      assert.are.equal("jps", p:stats().algorithm)
      assert.is_true(H.close(p:cost(), g:find(1, 1, 30, 30, { algorithm = "astar" }):cost()))
    end)

  it("auto is A* with a cost callback, 'within' or 'partial'; it jumps under every policy", function()
    local g = astar.grid(12, 12)
    local calls = 0
    local p = g:find(1, 1, 12, 12, { cost = function(_, _, _, _, base) calls = calls + 1; return base end })
    assert.are.equal("astar", p:stats().algorithm)
    assert.is_true(calls > 0)
    assert.are.equal("astar", g:find(1, 1, 12, 12, { within = 2 }):stats().algorithm)
    assert.are.equal("astar", g:find(1, 1, 12, 12, { partial = true }):stats().algorithm)
    for _, pol in ipairs(H.POLICIES) do
      assert.are.equal("jps", g:find(1, 1, 12, 12, { diagonal = pol }):stats().algorithm)
    end
    for _, alg in ipairs({ "astar", "dijkstra", "bfs", "greedy" }) do
      assert.are.equal(alg, g:find(1, 1, 12, 12, { algorithm = alg }):stats().algorithm)
    end
  end)

  it("'jps' with an option that never lets it jump is an error naming both", function()
    local g = astar.grid(8, 8)
    H.checkerr("bad argument #5 to 'find' (option 'cost' cannot be used with algorithm 'jps')",
      g.find, g, 1, 1, 8, 8, { algorithm = "jps", cost = function() return 1 end })
    H.checkerr("bad argument #5 to 'find' (option 'within' cannot be used with algorithm 'jps')",
      g.find, g, 1, 1, 8, 8, { algorithm = "jps", within = 1 })
    H.checkerr("bad argument #5 to 'find' (option 'partial' cannot be used with algorithm 'jps')",
      g.find, g, 1, 1, 8, 8, { algorithm = "jps", partial = true })
    assert.are.equal("jps", g:find(1, 1, 8, 8, { algorithm = "jps", partial = false }):stats().algorithm)
    g:close()
  end)
end)

describe("jump point search with budgets, weights, heuristics and sliced queries", function()
  -- A wall with one gap far from the straight line: several jump points to the goal.
  local function walled()
    local g = astar.grid(40, 20)
    g:fill(20, 1, 1, 19, false)
    return g
  end

  it("max_expansions counts jump points; max_cost bounds the cost", function()
    local g = walled()
    local full = g:find(1, 1, 40, 1)
    local n = full:stats().expanded
    assert.is_true(n >= 2 and n < 40, "jump points expanded: " .. n)
    assert.are.equal("limit", select(3, g:find(1, 1, 40, 1, { max_expansions = n - 1 })))
    assert.are.equal("jps", g:find(1, 1, 40, 1, { max_expansions = n }):stats().algorithm)
    assert.are.equal("limit", select(3, g:find(1, 1, 40, 1, { max_cost = full:cost() - 0.01 })))
    assert.is_true(H.close(g:find(1, 1, 40, 1, { max_cost = full:cost() }):cost(), full:cost()))
  end)

  it("a weight gives a path within weight times the optimum; a heuristic function is used", function()
    local rng = H.rng(1112)
    for _ = 1, 40 do
      local k = random_case(rng)
      local sx, sy = cell_of(rng, k)
      local gx, gy = cell_of(rng, k)
      local want = H.dijkstra(k.cells, k.w, k.h, sx, sy, gx, gy, "no_corner_cutting")
      local p = k.grid:find(sx, sy, gx, gy, { weight = 2 })
      assert.are.equal(want == nil, p == nil)
      if p then
        assert.are.equal("jps", p:stats().algorithm)
        assert.is_true(p:cost() <= 2 * want + 1e-9)
        H.check_path(k.cells, k.w, k.h, p, sx, sy, gx, gy)
        local calls = 0
        local z = k.grid:find(sx, sy, gx, gy, { heuristic = function() calls = calls + 1; return 0 end })
        assert.are.equal("jps", z:stats().algorithm)
        assert.is_true(H.close(z:cost(), want))
        assert.is_true(calls >= 1)
      end
    end
  end)

  it("a query steps jump points and ends with find's path; the scheduler runs it", function()
    local g = walled()
    local want = g:find(1, 1, 40, 1)
    for budget = 1, 3 do
      local q = g:query(1, 1, 40, 1)
      local spent, st, n = 0, "running", 0
      while st == "running" do
        local k
        st, k = q:step(budget)
        assert.is_true(k <= budget)
        spent, n = spent + k, n + 1
      end
      assert.are.equal("found", st)
      local p = q:result()
      assert.is_nil(H.result_diff(H.pack(want), H.pack(p)))
      assert.are.equal(want:stats().expanded, spent)
      assert.is_true(n >= math.floor(want:stats().expanded / budget))
    end
    local s, got = astar.scheduler { budget = 1 }, nil
    s:request(g, 1, 1, 40, 1, nil, function(...) got = H.pack(...) end)
    while s:pending() > 0 do s:update() end
    assert.is_nil(H.result_diff(H.pack(want), got))
  end)

  it("check, waypoints and splice work on its paths", function()
    local g = walled()
    local p = g:find(1, 1, 40, 1)
    assert.is_true(g:check(p))
    assert.is_true(#p:waypoints() < #p)
    local mx, my = p:get(math.floor(#p / 4))   -- not the gap in the wall
    g:set(mx, my, false)
    local ok, at, why = g:check(p)
    assert.is_false(ok)
    assert.are.equal(math.floor(#p / 4), at)
    assert.are.equal("blocked", why)
    local r = assert(g:splice(p, 1, at))
    assert.is_true(g:check(r))
    assert.is_true(r:cost() >= g:find(1, 1, 40, 1):cost() - 1e-9)   -- a detour, not a re-plan
  end)
end)
