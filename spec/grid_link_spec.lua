-- Grid links (grid:link): every search, distance field and path check against a plain
-- Dijkstra of this file over the same cells and links, on random grids with random links,
-- teleporters cheaper than any walk included (they test that the heuristic allows for them).
local astar = require "astar"
local H = require "spec.helper"

-- A random grid model: cells[y][x] and links {x1, y1, x2, y2, cost} (one per direction).
local function random_world(rng)
  local w, h = rng.int(4, 24), rng.int(4, 24)
  local cells = H.random_cells(rng, w, h, rng.pick({ 0.1, 0.25, 0.4 }), { 1, 1, 2, 3, 0.5 })
  local links, seen = {}, {}
  for _ = 1, rng.int(0, 8) do
    local x1, y1, x2, y2 = rng.int(1, w), rng.int(1, h), rng.int(1, w), rng.int(1, h)
    if x1 ~= x2 or y1 ~= y2 then
      local cost = rng.pick({ 0.25, 1, 2.5, 7, 20 })
      local both = rng.float() < 0.6
      local function add(a, b, c, d)
        local key = a .. "," .. b .. ">" .. c .. "," .. d
        if seen[key] then links[seen[key]][5] = cost        -- linking again sets the cost
        else
          links[#links + 1] = { a, b, c, d, cost }
          seen[key] = #links
        end
      end
      add(x1, y1, x2, y2)
      if both then add(x2, y2, x1, y1) end
    end
  end
  return w, h, cells, links
end

local function build(w, h, cells, links)
  local grid = astar.grid.from_table(cells)
  local gw, gh = grid:size()
  assert(gw == w and gh == h)
  for _, l in ipairs(links) do grid:link(l[1], l[2], l[3], l[4], l[5], { oneway = true }) end
  return grid
end

-- Calls f(rng, w, h, cells, links, grid, policy) for n random worlds from seed.
local function each_world(seed, n, f)
  local rng = H.rng(seed)
  for _ = 1, n do
    local w, h, cells, links = random_world(rng)
    local grid = build(w, h, cells, links)
    f(rng, w, h, cells, links, grid, rng.pick(H.POLICIES))
    grid:close()
  end
end

-- Successors of cell key (y - 1) * w + x: steps of the policy and links (both cells walkable).
local function succ_of(w, h, cells, links, diagonal, reverse)
  local out = {}
  for _, l in ipairs(links) do
    local from = reverse and (l[4] - 1) * w + l[3] or (l[2] - 1) * w + l[1]
    local to = reverse and (l[2] - 1) * w + l[1] or (l[4] - 1) * w + l[3]
    if H.walk(cells, w, h, l[1], l[2]) and H.walk(cells, w, h, l[3], l[4]) then
      out[from] = out[from] or {}
      out[from][#out[from] + 1] = { to, l[5] }
    end
  end
  local dirs = {}
  for dy = -1, 1 do
    for dx = -1, 1 do dirs[#dirs + 1] = { dx, dy } end
  end
  return function(u, visit)
    local x, y = (u - 1) % w + 1, math.floor((u - 1) / w) + 1
    if not H.walk(cells, w, h, x, y) then return end
    for _, d in ipairs(dirs) do
      local dx, dy = d[1], d[2]
      -- reverse: the step v -> u, where v = u - d
      local vx, vy = x + dx, y + dy
      if H.walk(cells, w, h, vx, vy) then
        local ok, c
        if reverse then
          ok = H.legal_step(cells, w, h, vx, vy, -dx, -dy, diagonal)
          c = ok and H.step_cost(cells, x, y, dx, dy)
        else
          ok = H.legal_step(cells, w, h, x, y, dx, dy, diagonal)
          c = ok and H.step_cost(cells, vx, vy, dx, dy)
        end
        if ok then visit((vy - 1) * w + vx, c) end
      end
    end
    for _, e in ipairs(out[u] or {}) do visit(e[1], e[2]) end
  end
end

-- The cheaper legal move a -> b, and whether it is the link (the rule of Path:link).
local function move(w, h, cells, links, diagonal, x1, y1, x2, y2)
  local step, link
  local dx, dy = x2 - x1, y2 - y1
  if math.abs(dx) <= 1 and math.abs(dy) <= 1 and H.walk(cells, w, h, x2, y2) and
    H.legal_step(cells, w, h, x1, y1, dx, dy, diagonal) then
    step = H.step_cost(cells, x2, y2, dx, dy)
  end
  for _, l in ipairs(links) do
    if l[1] == x1 and l[2] == y1 and l[3] == x2 and l[4] == y2 and H.walk(cells, w, h, x1, y1)
      and H.walk(cells, w, h, x2, y2) then link = l[5] end
  end
  if link and (not step or link < step) then return link, true end
  return step, false
end

-- Checks a grid path: legal moves, its cost, its link marks; returns its cost and steps.
local function check_path(w, h, cells, links, diagonal, path, sx, sy, gx, gy)
  local n = #path
  local x, y = path:get(1)
  assert(x == sx and y == sy, "the path does not start at the start")
  local sum = 0
  for i = 2, n do
    local nx, ny = path:get(i)
    local c, via = move(w, h, cells, links, diagonal, x, y, nx, ny)
    assert(c, ("step %d (%d, %d) -> (%d, %d) is neither a step nor a link"):format(i - 1, x, y, nx, ny))
    assert((path:link(i - 1) ~= nil) == via, ("step %d: link mark %s, expected %s"):format(i - 1,
      tostring(path:link(i - 1)), tostring(via)))
    if via then assert(H.close(path:link(i - 1), c)) end
    sum = sum + c
    x, y = nx, ny
  end
  if gx then assert(x == gx and y == gy, "the path does not end at the goal") end
  assert(H.close(sum, path:cost()), ("path:cost() %.17g, its moves %.17g"):format(path:cost(), sum))
  return sum, n - 1
end

describe("grid links", function()
  it("find takes the cheapest way through links under every algorithm, heuristic and policy",
    function()
    local rng = H.rng(717)
    local checked, used_links, jumped, tables = 0, 0, 0, 0
    for _ = 1, 400 do
      local w, h, cells, links = random_world(rng)
      local grid = build(w, h, cells, links)
      local prepared = {}
      for _ = 1, 4 do
        local sx, sy, gx, gy = rng.int(1, w), rng.int(1, h), rng.int(1, w), rng.int(1, h)
        local pol = rng.pick(H.POLICIES)
        local alg = rng.pick({ "auto", "astar", "dijkstra", "jps", "jps", "bfs", "greedy" })
        if alg == "jps" and rng.float() < 0.5 then
          grid:prepare(pol)                      -- JPS+: link ends end the tables' jumps
          prepared[pol] = true
        end
        local own = pol == "never" and "manhattan" or "octile"
        local opts = { diagonal = pol, algorithm = alg,
          heuristic = rng.pick({ false, own, "euclidean", "chebyshev", "zero" }) or nil }
        local key = function(x, y) return (y - 1) * w + x end
        local succ = succ_of(w, h, cells, links, pol)
        local path, _, code = grid:find(sx, sy, gx, gy, opts)
        local ok_ends = H.walk(cells, w, h, sx, sy) and H.walk(cells, w, h, gx, gy)
        local dist = ok_ends and H.dijkstra_generic({ { key(sx, sy), 0 } }, succ) or {}
        local want = dist[key(gx, gy)]
        if want == nil then
          assert.is_nil(path, "found a path where the reference finds none")
          assert.is_true(code == "no_path" or code == "blocked", code)
        else
          assert.is_not_nil(path, "no path; the reference costs " .. want)
          local cost, steps = check_path(w, h, cells, links, pol, path, sx, sy, gx, gy)
          if alg == "bfs" then
            local st = H.bfs_generic(key(sx, sy), succ)
            assert.are.equal(st[key(gx, gy)], steps)
          elseif alg ~= "greedy" then
            assert.is_true(H.close(cost, want), ("%s: cost %.17g, optimal %.17g"):format(alg, cost,
              want))
          else
            assert.is_true(cost >= want * (1 - 1e-9))
          end
          for i = 1, #path - 1 do if path:link(i) then used_links = used_links + 1 end end
          if alg == "jps" then                  -- jumps follow links
            assert.are.equal(prepared[pol] and "jps+" or "jps", path:stats().algorithm)
            jumped = jumped + 1
            if prepared[pol] then tables = tables + 1 end
          end
        end
        checked = checked + 1
      end
      grid:close()
    end
    assert.is_true(used_links > 100, "link steps taken: " .. used_links)
    assert.is_true(jumped > 100, "jump point searches: " .. jumped)
    assert.is_true(tables > 50, "prepared (JPS+) searches: " .. tables)
  end)

  it("bfs takes the cheaper of a walk and a link between the same two cells", function()
    -- found by the fuzzer: bfs kept the first edge into a cell, so the path cost the walk (2)
    -- while its moves, and path:link, said the link (1 + 0.1)
    local grid = astar.grid(1, 3)
    grid:link(1, 1, 1, 2, 0.1)
    local p = grid:find(1, 3, 1, 1, { algorithm = "bfs" })
    assert.are.equal(3, #p)
    assert.is_true(H.close(p:cost(), 1.1, 1e-12), tostring(p:cost()))
    assert.are.equal(0.1, p:link(2))
    local q = grid:query(1, 3, 1, 1, { algorithm = "bfs" })
    q:step(100)
    assert.is_true(H.close(q:result():cost(), 1.1, 1e-12))
  end)

  it("a smoothed path marks a link with its exact price", function()
    -- the mark was a difference of running sums: 0.099999999999999645 for a link of 0.1
    local grid = astar.grid(10, 3)
    grid:fill(5, 1, 1, 3, false)
    grid:link(4, 2, 6, 2, 0.1)
    for _, pull in ipairs({ true, false }) do
      local sm = grid:find(1, 2, 10, 2):smooth(grid, { pull = pull })
      local marks = {}
      for i = 1, #sm - 1 do marks[#marks + 1] = sm:link(i) end
      assert.are.same({ 0.1 }, marks)
    end
  end)

  it("several goals, partial paths and queries take links too", function()
    each_world(99, 150, function(rng, w, h, cells, links, grid, pol)
      local succ = succ_of(w, h, cells, links, pol)
      local sx, sy = rng.int(1, w), rng.int(1, h)
      local goals = {}
      for i = 1, rng.int(1, 3) do goals[i] = { rng.int(1, w), rng.int(1, h) } end
      local dist = H.walk(cells, w, h, sx, sy) and
        H.dijkstra_generic({ { (sy - 1) * w + sx, 0 } }, succ) or {}
      local want
      for _, g in ipairs(goals) do
        local d = H.walk(cells, w, h, g[1], g[2]) and dist[(g[2] - 1) * w + g[1]]
        if d and (not want or d < want) then want = d end
      end
      local p = grid:find(sx, sy, { goals = goals, diagonal = pol })
      if want then
        local gi = p:stats().goal
        check_path(w, h, cells, links, pol, p, sx, sy, goals[gi][1], goals[gi][2])
        assert.is_true(H.close(p:cost(), want))
      else
        assert.is_nil(p)
      end
      local gx, gy = goals[1][1], goals[1][2]
      local q = grid:query(sx, sy, gx, gy, { diagonal = pol })
      repeat until q:step(rng.int(1, 5)) ~= "running"
      local qp = q:result()
      local fp = grid:find(sx, sy, gx, gy, { diagonal = pol })
      assert.are.equal(fp == nil, qp == nil)
      if fp then assert.is_true(H.close(fp:cost(), qp:cost())) end
    end)
  end)

  it("distance fields walk links backwards, and their paths follow them", function()
    each_world(5150, 150, function(rng, w, h, cells, links, grid, pol)
      local tx, ty = rng.int(1, w), rng.int(1, h)
      if H.walk(cells, w, h, tx, ty) then
        local field = grid:distance_field({ { tx, ty } }, { diagonal = pol })
        local back = H.dijkstra_generic({ { (ty - 1) * w + tx, 0 } },
          succ_of(w, h, cells, links, pol, true))
        for y = 1, h do
          for x = 1, w do
            local want = back[(y - 1) * w + x]
            local got = field:distance(x, y)
            if want == nil then assert.is_nil(got, ("(%d, %d)"):format(x, y))
            else
              assert.is_true(got ~= nil and H.close(got, want), ("(%d, %d): field %s, reference %s")
                :format(x, y, tostring(got), want))
              local p = field:path_from(x, y)
              assert.is_true(grid:check(p), "a field path fails grid:check")
            end
          end
        end
      end
    end)
  end)

  it("check, to_path, clone, edits and queries see links come and go", function()
    local grid = astar.grid(30, 10)
    grid:fill(15, 1, 1, 10, false)                   -- a wall from top to bottom
    assert.is_nil((grid:find(1, 5, 30, 5)))
    grid:link(10, 5, 20, 5, 3)
    local p = assert(grid:find(1, 5, 30, 5))
    assert.are.equal(22, p:cost())
    assert.are.equal(3, p:link(10))
    assert.is_nil(p:link(9))
    assert.is_true(grid:check(p))
    local copy = grid:clone()
    assert.are.same({ { 10, 5, 20, 5, 3 }, { 20, 5, 10, 5, 3 } }, grid:links())
    assert.are.same(grid:links(), copy:links())
    local back = assert(copy:find(30, 5, 1, 5))
    assert.are.equal(22, back:cost())
    -- to_path prices a link step with the link, and marks it
    local tp = assert(grid:to_path({ 9, 5, 10, 5, 20, 5, 21, 5 }))
    assert.are.equal(5, tp:cost())
    assert.are.same({ nil, 3, nil }, { tp:link(1), tp:link(2), tp:link(3) })
    -- one way
    assert.are.equal(1, grid:unlink(20, 5, 10, 5, { oneway = true }))
    assert.is_nil((grid:find(30, 5, 1, 5)))
    assert.is_true(grid:check(p))
    -- a live query restarts when a link changes; check sees a link gone
    local q = grid:query(1, 5, 30, 5, { algorithm = "astar" })
    q:step(3)
    grid:link(10, 5, 20, 5, 1)
    repeat until q:step(5) ~= "running"
    assert.are.equal(1, q:stats().restarts)
    assert.are.equal(20, q:result():cost())
    assert.are.equal(2, grid:unlink(10, 5, 20, 5))
    assert.are.same({ false, 11, "blocked" }, { grid:check(p) })
    assert.are.same({}, grid:links())
    -- a link into a blocked cell is not taken
    grid:link(10, 5, 20, 5, 1)
    grid:set(20, 5, false)
    assert.is_nil((grid:find(1, 5, 30, 5)))
    grid:set(20, 5, 1)
    assert.are.equal(20, grid:find(1, 5, 30, 5):cost())
    -- the replanner does not follow links: it says so
    H.checkerr("the replanner does not follow links, and this grid has some (use grid:find or "
      .. "grid:query)", grid.replanner, grid, 1, 5, 30, 5)
    local plain = astar.grid(14, 10)
    local r = plain:replanner(1, 1, 14, 10)
    plain:link(1, 1, 2, 2, 1)
    H.checkerr("the replanner does not follow links, and this grid has some (use grid:find or "
      .. "grid:query)", r.path, r)
    plain:unlink(1, 1, 2, 2)
    assert.is_true(H.close(9 * math.sqrt(2) + 4, r:path():cost()))
    -- paths of other maps have no links
    local g = astar.graph()
    local a, b = g:add_node(), g:add_node()
    g:add_edge(a, b, 1)
    assert.is_nil(g:find(a, b):link(1))
    grid:close()
    copy:close()
  end)

  it("queries restart when a link's far end changes; smoothing and Theta* keep the links",
    function()
    -- found by review: the far end of a link is read when its source is expanded
    for _, v in ipairs({ false, true }) do
      local g = astar.grid(40, 3)
      g:set(40, 2, not v)
      g:link(2, 2, 40, 2, 1, { oneway = true })
      local q = g:query(1, 2, 39, 2, { algorithm = "astar" })
      assert.are.equal("running", (q:step(2)))
      g:set(40, 2, v)                         -- the link's target: far from anything expanded
      repeat until q:step(1000) ~= "running"
      assert.is_true(H.close(q:result():cost(), g:find(1, 2, 39, 2):cost()))
      assert.is_true(g:check(q:result()))
    end
    local g = astar.grid(30, 3)
    g:link(5, 2, 25, 2, 1, { oneway = true })
    local p = g:find(1, 2, 30, 2)
    assert.are.equal(10, p:cost())
    local s = p:smooth(g)                     -- never across a link: it keeps the teleport
    assert.are.same({ 1, 2, 5, 2, 25, 2, 30, 2 }, s:flat())
    assert.are.same({ 10, 1 }, { s:cost(), s:link(2) })
    assert.is_nil(s:link(1))
    local t = g:find(1, 2, 30, 2, { algorithm = "theta" })
    assert.are.same({ 1, 2, 5, 2, 25, 2, 30, 2 }, t:flat())
    assert.are.same({ 1, nil }, { t:link(2), t:link(3) })
    H.checkerr("corridor: only navmesh paths have one", s.corridor, s)
    H.checkerr("corridor: only navmesh paths have one", t.corridor, t)
  end)

  it("bad arguments raise clear errors and change nothing", function()
    local grid = astar.grid(5, 5)
    local function err(msg, ...) H.checkerr(msg, grid.link, grid, ...) end
    err("bad argument #5 to 'link' (cost must be a positive finite number, got 0)", 1, 1, 2, 2, 0)
    err("bad argument #5 to 'link' (cost must be a positive finite number, got -1)", 1, 1, 2, 2, -1)
    err("bad argument #5 to 'link' (cost must be a positive finite number, got nan)", 1, 1, 2, 2,
      0 / 0)
    err("bad argument #5 to 'link' (cost must be a positive finite number, got inf)", 1, 1, 2, 2,
      math.huge)
    err("bad argument #5 to 'link' (number expected, got no value)", 1, 1, 2, 2)
    err("bad argument #3 to 'link' (a link joins two different cells)", 3, 3, 3, 3, 1)
    err("bad argument #3 to 'link' (x out of range: 6 not in [1, 5])", 1, 1, 6, 2, 1)
    err("bad argument #2 to 'link' (integer expected, got 1.5)", 1, 1.5, 2, 2, 1)
    err("bad argument #6 to 'link' (option 'oneway': boolean expected, got number)", 1, 1, 2, 2,
      1, { oneway = 1 })
    err("bad argument #6 to 'link' (unknown option 'one_way')", 1, 1, 2, 2, 1, { one_way = true })
    assert.are.same({}, grid:links())
    assert.are.equal(0, grid:unlink(1, 1, 2, 2))
    H.checkerr_prefix("calling 'link' on bad self", grid.link, {}, 1, 1, 2,
      2, 1)
    -- edits are refused from a callback of a search on the grid, as set is
    local msg
    grid:find(1, 1, 5, 5, { cost = function(_, _, _, _, base)
      if not msg then msg = select(2, pcall(grid.link, grid, 1, 1, 5, 5, 1)) end
      return base
    end })
    assert.are.equal("cannot edit the grid: a search on this grid is running", msg)
    assert.are.same({}, grid:links())
    grid:close()
    H.checkerr("attempt to use a closed grid", grid.link, grid, 1, 1, 2, 2, 1)
  end)

  it("a partial path heads for the goal, not for a link's start that only looks near it", function()
    -- the heuristic is lowered for links (a link ending near the goal makes its start look
    -- near); the partial path's end is chosen by the plain heuristic
    local g = astar.grid(50, 3)
    g:fill(11, 1, 29, 3, false)
    g:link(1, 2, 10, 2, 1, { oneway = true })
    g:link(41, 2, 45, 2, 1, { oneway = true })              -- beyond the wall: unreachable
    for _, alg in ipairs({ "astar", "auto" }) do
      local p, _, code = g:find(5, 2, 46, 2, { partial = true, algorithm = alg })
      assert.are.equal("partial", code)
      assert.are.same({ 10, 2 }, { p:get(#p) })
    end
  end)
end)
