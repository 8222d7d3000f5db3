-- Off-mesh links on navigation meshes (NavMesh:link): the API and its errors, then searches on
-- random meshes of two separate parts joined only by links, against an independent reference:
-- Dijkstra over the start, the goal and the links' ends, where a walk between two points is the
-- geometric shortest path of spec/helper.lua (inside one part; none between parts) and a link
-- is its own cost. The exact search must match it; the portal search (cost callback, radius)
-- must find a path whenever one exists, made of legal walks and links, priced as it says.

local H = require "spec.helper"
local astar = require "astar"

local huge, sqrt = math.huge, math.sqrt

-- Two rooms 10 x 10 with a gap between them: (0..10) and (20..30) in x.
local function rooms()
  return astar.navmesh { vertices = { 0, 0, 10, 0, 10, 10, 0, 10, 20, 0, 30, 0, 30, 10, 20, 10 },
    polygons = { { 1, 2, 3, 4 }, { 5, 6, 7, 8 } } }
end

describe("NavMesh:link", function()
  it("joins two parts both ways, a oneway link one way, and re-linking sets the cost", function()
    local mesh = rooms()
    assert.is_nil((mesh:find(1, 5, 29, 5)))
    mesh:link(9, 5, 21, 5, 4)
    local p = assert(mesh:find(1, 5, 29, 5))
    assert.is_true(H.close(p:cost(), 8 + 4 + 8))
    assert.are.same({ 1, 5, 9, 5, 21, 5, 29, 5 }, p:flat())
    assert.is_nil(p:link(1))
    assert.are.equal(4, p:link(2))
    assert.is_nil(p:link(3))
    assert.are.same({ 1, 2 }, p:corridor())
    local back = assert(mesh:find(29, 5, 1, 5))
    assert.is_true(H.close(back:cost(), 20))
    mesh:link(9, 5, 21, 5, 10)
    assert.is_true(H.close(mesh:find(1, 5, 29, 5):cost(), 26))
    assert.are.same({ { 9, 5, 21, 5, 10 }, { 21, 5, 9, 5, 10 } }, mesh:links())
    assert.are.equal(1, mesh:unlink(21, 5, 9, 5, { oneway = true }))
    assert.is_nil((mesh:find(29, 5, 1, 5)))
    assert.is_true(H.close(mesh:find(1, 5, 29, 5):cost(), 26))
    assert.are.equal(1, mesh:unlink(9, 5, 21, 5))
    assert.are.equal(0, mesh:unlink(9, 5, 21, 5))
    assert.are.same({}, mesh:links())
    mesh:link(2, 2, 28, 8, 1, { oneway = true })
    assert.are.same({ { 2, 2, 28, 8, 1 } }, mesh:links())
    local _, _, code = mesh:find(28, 8, 2, 2)
    assert.are.equal("no_path", code)
  end)

  it("takes a teleporter inside one room when it is cheaper than the walk, not otherwise", function()
    local mesh = rooms()
    mesh:link(1, 1, 9, 9, 0.5)
    local p = assert(mesh:find(1.5, 1, 9, 8))
    assert.is_true(H.close(p:cost(), 0.5 + 0.5 + 1))
    mesh:link(1, 1, 9, 9, 50)
    assert.is_true(H.close(mesh:find(1.5, 1, 9, 8):cost(), sqrt(7.5 ^ 2 + 7 ^ 2)))
  end)

  it("is not taken where the flags close an end's polygon or the unit does not fit there", function()
    local mesh = astar.navmesh { vertices = { 0, 0, 10, 0, 10, 10, 0, 10, 20, 0, 30, 0, 30, 10, 20, 10,
      40, 0, 50, 0, 50, 10, 40, 10 }, polygons = { { 1, 2, 3, 4 }, { 5, 6, 7, 8 }, { 9, 10, 11, 12 } } }
    mesh:link(9, 5, 41, 5, 100)
    mesh:link(9, 4, 21, 4, 1)
    mesh:link(29, 4, 41, 4, 1)
    mesh:set_flags(2, 2)
    for _, cost in ipairs({ false, true }) do
      local function opts(t)
        if cost then t.cost = function(_, _, b) return b end end
        return t
      end
      assert.is_true(H.close(mesh:find(5, 5, 45, 5, opts({})):cost(), 2 * math.sqrt(17) + 10, 1e-9))
      assert.is_true(H.close(mesh:find(5, 5, 45, 5, opts({ exclude = 2 })):cost(), 4 + 100 + 4, 1e-9))
      assert.is_true(H.close(mesh:find(5, 5, 45, 5, opts({ include = 1 })):cost(), 108, 1e-9))
    end
    -- with a radius: (9.5, 5) is 0.5 from the wall at x = 10
    mesh:unlink(9, 4, 21, 4)
    mesh:link(9.5, 4, 21, 4, 1)
    assert.is_true(H.close(mesh:find(5, 5, 45, 5, { radius = 0.4 }):cost(),
      math.sqrt(4.5 ^ 2 + 1) + 10 + math.sqrt(17), 1e-6))
    assert.is_true(H.close(mesh:find(5, 5, 45, 5, { radius = 0.6 }):cost(), 108, 1e-6))
  end)

  it("refuses bad input with clear errors and keeps the mesh usable", function()
    local mesh = rooms()
    local function err(f, ...)
      local ok, msg = pcall(f, mesh, ...)
      assert.is_false(ok)
      return msg
    end
    assert.matches("cost must be a positive finite number, got 0", err(mesh.link, 1, 1, 2, 2, 0))
    assert.matches("got %-1", err(mesh.link, 1, 1, 2, 2, -1))
    assert.matches("got nan", err(mesh.link, 1, 1, 2, 2, 0 / 0))
    assert.matches("got inf", err(mesh.link, 1, 1, 2, 2, huge))
    assert.matches("finite number expected, got nan", err(mesh.link, 0 / 0, 1, 2, 2, 1))
    assert.matches("finite number expected, got %-inf", err(mesh.link, 1, -huge, 2, 2, 1))
    assert.matches("number expected, got string", err(mesh.link, 1, 1, "2", 2, 1))
    assert.matches("%(15, 5%) is not on the navmesh", err(mesh.link, 1, 1, 15, 5, 1))
    assert.matches("%(%-1, 5%) is not on the navmesh", err(mesh.link, -1, 5, 5, 5, 1))
    assert.matches("a link joins two different points", err(mesh.link, 1, 1, 1, 1, 1))
    assert.matches("unknown option 'one_way'", err(mesh.link, 1, 1, 2, 2, 1, { one_way = true }))
    assert.matches("too large", err(mesh.link, 1, 1, 2, 2, 1e300))
    assert.are.same({}, mesh:links())
    local seen
    local p = mesh:find(1, 1, 9, 9, { cost = function(_, _, b)
      seen = select(2, pcall(mesh.link, mesh, 1, 1, 2, 2, 1))
      return b
    end })
    assert.is_not_nil(p)
    assert.matches("cannot edit the navmesh", seen)
    mesh:close()
    assert.matches("closed navmesh", err(mesh.link, 1, 1, 2, 2, 1))
    assert.matches("closed navmesh", err(mesh.links))
  end)

  it("restarts a live query when a link is added, and it then takes the link", function()
    local grid = astar.grid(30, 10)
    grid:fill(12, 1, 1, 10, false)
    for y = 2, 9, 2 do grid:fill(3, y, 7, 1, false) end   -- shelves: many polygons
    local mesh = astar.navmesh.from_grid(grid)   -- cell (x, y) is [x-1, x] x [y-1, y]
    for _, opts in ipairs({ {}, { cost = function(_, _, b) return b end } }) do
      local q = mesh:query(0.5, 0.5, 29.5, 9.5, opts)
      assert.are.equal("running", q:step(1))
      mesh:link(10.5, 4.5, 13.5, 4.5, 2)
      repeat until q:step(1) ~= "running"
      assert.are.equal(1, q:stats().restarts)
      local fresh = assert(mesh:find(0.5, 0.5, 29.5, 9.5, opts))
      assert.is_true(H.close(q:result():cost(), fresh:cost(), 1e-12))
      local marks = 0
      for i = 1, #fresh - 1 do if q:result():link(i) == 2 then marks = marks + 1 end end
      assert.are.equal(1, marks)
      mesh:unlink(10.5, 4.5, 13.5, 4.5)
    end
  end)

  it("gives a partial path through a link toward a goal no link reaches", function()
    local mesh = astar.navmesh { vertices = { 0, 0, 10, 0, 10, 10, 0, 10, 20, 0, 30, 0, 30, 10, 20, 10,
      40, 0, 50, 0, 50, 10, 40, 10 }, polygons = { { 1, 2, 3, 4 }, { 5, 6, 7, 8 }, { 9, 10, 11, 12 } } }
    mesh:link(9, 5, 21, 5, 4)
    for _, opts in ipairs({ { partial = true }, { partial = true, cost = function(_, _, b) return b end } }) do
      local p, _, code = mesh:find(1, 5, 45, 5, opts)
      assert.is_not_nil(p, tostring(code))
      local pts = p:flat()
      assert.are.same({ 1, 5, 9, 5, 21, 5 }, { H.unpack(pts, 1, 6) })
      assert.are.equal(4, p:link(2))
      assert.is_true(pts[#pts - 1] >= 21 and pts[#pts - 1] <= 30)
      assert.is_true(H.close(p:cost(), 8 + 4 + (pts[#pts - 1] - 21)))
      assert.are.equal(2, p:corridor()[#p:corridor()])
    end
  end)
end)

describe("navmesh links and live queries (review findings)", function()
  local function strips(...)
    local v, polys = {}, {}
    for _, x0 in ipairs({ ... }) do
      local base = #v / 2
      for i = 0, 10 do v[#v + 1], v[#v + 2], v[#v + 3], v[#v + 4] = x0 + i, 0, x0 + i, 1 end
      for i = 0, 9 do
        local a = base + 2 * i + 1
        polys[#polys + 1] = { a, a + 2, a + 3, a + 1 }
      end
    end
    return astar.navmesh { vertices = v, polygons = polys }
  end

  it("a query that continues through edits begins again when the links change", function()
    -- it held buffers sized for the old links: read past them (ASan), or crashed
    local mesh = strips(0, 40)
    mesh:link(8.5, 0.5, 40.5, 0.5, 1, { oneway = true })
    for _, opts in ipairs({ { on_change = "continue" }, { on_change = "continue", radius = 0.1 } }) do
      for k = 1, 10 do
        local q = mesh:query(0.5, 0.5, 45.5, 0.5, opts)
        q:step(k)
        for i = 1, 30 do mesh:link(1 + i / 10, 0.5, 41 + i / 10, 0.5, 50, { oneway = true }) end
        mesh:find(0.5, 0.5, 1, 0.5)                  -- rebuilds the link index meanwhile
        repeat until q:step(1000) ~= "running"
        local fresh = assert(mesh:find(0.5, 0.5, 45.5, 0.5, { radius = opts.radius }))
        assert.is_true(H.close(q:result():cost(), fresh:cost(), 1e-12))
        for i = 1, 30 do mesh:unlink(1 + i / 10, 0.5, 41 + i / 10, 0.5, { oneway = true }) end
      end
    end
  end)

  it("a partial path heads for the goal, not for a link's start that only looks near it", function()
    -- the heuristic is lowered for links; the partial path's end is chosen without that
    local mesh = strips(0, 40)
    mesh:link(0.5, 0.5, 9.5, 0.5, 1, { oneway = true })
    mesh:link(40.5, 0.5, 45.2, 0.5, 1, { oneway = true })   -- on the far side: unreachable
    for _, opts in ipairs({ { partial = true }, { partial = true, radius = 0.1 } }) do
      local p, _, code = mesh:find(5.5, 0.5, 45.5, 0.5, opts)
      assert.are.equal("partial", code)
      local x = p:get(#p)
      assert.is_true(x >= 9, "the partial path ends at x = " .. x)
    end
  end)
end)

---------------------------------------------------------------------------------------------------
-- Random meshes of two parts joined by links, against the reference.

local OFFSET = 400

local function shifted(dom, dx)
  local function mv(r)
    local out = {}
    for i = 1, #r, 2 do out[i], out[i + 1] = r[i] + dx, r[i + 1] end
    return out
  end
  local holes = {}
  for k, hole in ipairs(dom.holes) do holes[k] = mv(hole) end
  return { outline = mv(dom.outline), holes = holes }
end

-- One mesh of both parts: their vertices and polygons side by side.
local function joined(a, b)
  local ma = astar.navmesh.from_polygons(a.outline, a.holes)
  local mb = astar.navmesh.from_polygons(b.outline, b.holes)
  local vs, ps = ma:vertices(), ma:polygons()
  local nv = #vs / 2
  for _, v in ipairs(mb:vertices()) do vs[#vs + 1] = v end
  for _, poly in ipairs(mb:polygons()) do
    local q = {}
    for i, v in ipairs(poly) do q[i] = v + nv end
    ps[#ps + 1] = q
  end
  return astar.navmesh { vertices = vs, polygons = ps }
end

-- The reference: Dijkstra over s, g and the links' ends; walks within a part only.
local function reference(parts, links, sx, sy, gx, gy)
  local X, Y = { sx, gx }, { sy, gy }
  for _, l in ipairs(links) do
    X[#X + 1], Y[#Y + 1] = l[1], l[2]
    X[#X + 1], Y[#Y + 1] = l[3], l[4]
  end
  local n = #X
  local function part(i) return X[i] < OFFSET / 2 and 1 or 2 end
  local walk = {}
  local function W(i, j)
    if part(i) ~= part(j) then return huge end
    local key = i * (n + 1) + j
    if walk[key] == nil then walk[key] = H.shortest_euclidean(parts[part(i)], X[i], Y[i], X[j], Y[j]) end
    return walk[key]
  end
  local d, done = { [1] = 0 }, {}
  while true do
    local u, best = nil, huge
    for v = 1, n do
      if d[v] and not done[v] and d[v] < best then u, best = v, d[v] end
    end
    if u == nil or u == 2 then break end
    done[u] = true
    for v = 1, n do
      if not done[v] and v ~= u then
        local c = W(u, v)
        if c < huge and (d[v] == nil or best + c < d[v]) then d[v] = best + c end
      end
    end
    for k, l in ipairs(links) do        -- the link from node 1 + 2k to 2 + 2k
      if u == 1 + 2 * k and (d[2 + 2 * k] == nil or best + l[5] < d[2 + 2 * k]) then
        d[2 + 2 * k] = best + l[5]
      end
    end
  end
  return d[2] or huge
end

-- A path's own price, checked step by step: a marked step is a link of the list with that cost;
-- an unmarked one a segment inside one part. Returns the sum, or raises.
local function priced(parts, links, p)
  local pts, sum = p:flat(), 0
  for i = 1, #p - 1 do
    local ax, ay, bx, by = pts[2 * i - 1], pts[2 * i], pts[2 * i + 1], pts[2 * i + 2]
    local c = p:link(i)
    if c then
      local ok = false
      for _, l in ipairs(links) do
        if l[1] == ax and l[2] == ay and l[3] == bx and l[4] == by and l[5] == c then ok = true end
      end
      assert(ok, ("step %d marked %g is not a link"):format(i, c))
      sum = sum + c
    else
      local dom = parts[ax < OFFSET / 2 and 1 or 2]
      assert((ax < OFFSET / 2) == (bx < OFFSET / 2), ("step %d jumps between parts"):format(i))
      assert(H.segment_in_domain(dom, ax, ay, bx, by, 1e-7), ("step %d leaves the mesh"):format(i))
      sum = sum + sqrt((bx - ax) ^ 2 + (by - ay) ^ 2)
    end
  end
  return sum
end

describe("navmesh links on random two-part meshes", function()
  local N = H.trials(100)
  it(("match the reference with the exact search, and the portal search stays legal (%d meshes)")
    :format(N), function()
    local rng = H.rng(20261126)
    local checked, linked_paths, none, radius_paths = 0, 0, 0, 0
    for _ = 1, N do
      local a = H.random_domain(rng, { max_holes = 3 })
      local b = shifted(H.random_domain(rng, { max_holes = 3 }), OFFSET)
      local parts = { a, b }
      local mesh = joined(a, b)
      local links = {}
      local function point()
        local dom = parts[rng.int(1, 2)]
        return H.random_domain_point(rng, dom, 1e-3)
      end
      for _ = 1, rng.int(1, 4) do
        local x1, y1 = point()
        local x2, y2 = point()
        local cost = rng.float() < 0.3 and 0.5 + 2 * rng.float() or 5 + 60 * rng.float()
        local oneway = rng.float() < 0.3
        mesh:link(x1, y1, x2, y2, cost, { oneway = oneway })
        links[#links + 1] = { x1, y1, x2, y2, cost }
        if not oneway then links[#links + 1] = { x2, y2, x1, y1, cost } end
      end
      assert.are.same(links, mesh:links())
      for _ = 1, 6 do
        local sx, sy = point()
        local gx, gy = point()
        local want = reference(parts, links, sx, sy, gx, gy)
        local where = ("%s\nlinks %s\n(%.17g, %.17g) -> (%.17g, %.17g), want %.17g"):format(
          H.fmt_domain(a), H.fmt_domain(b), sx, sy, gx, gy, want)
        for _, opts in ipairs({ {}, { algorithm = "dijkstra" },
                                { cost = function(_, _, base) return base end } }) do
          local p, msg, code = mesh:find(sx, sy, gx, gy, opts)
          if want == huge then
            assert.are.equal("no_path", code, where .. "\n" .. tostring(msg))
            none = none + 1
          else
            assert.is_not_nil(p, where .. "\n" .. tostring(msg))
            local sum = priced(parts, links, p)
            assert.is_true(H.close(sum, p:cost(), 1e-9), where .. ("\nsteps %.17g, cost %.17g")
              :format(sum, p:cost()))
            if opts.cost then
              assert.is_true(p:cost() >= want - 1e-9 * math.max(1, want), where)
            else
              assert.is_true(H.close(p:cost(), want, 1e-9), where .. ("\ngot %.17g"):format(p:cost()))
            end
            for i = 1, #p - 1 do if p:link(i) then linked_paths = linked_paths + 1 break end end
            checked = checked + 1
          end
        end
        -- with a radius: any path found is legal, priced as it says, and keeps r from the walls
        local r = 0.25
        local p = mesh:find(sx, sy, gx, gy, { radius = r })
        if p then
          assert.is_true(want < huge, where)
          local sum = priced(parts, links, p)
          assert.is_true(H.close(sum, p:cost(), 1e-9) and sum >= want - 1e-9 * want, where)
          local pts = p:flat()
          for i = 1, #p - 1 do
            if not p:link(i) then
              local dom = parts[pts[2 * i - 1] < OFFSET / 2 and 1 or 2]
              local c = H.path_clearance(dom, { pts[2 * i - 1], pts[2 * i], pts[2 * i + 1], pts[2 * i + 2] })
              assert.is_true(c >= r * (1 - 1e-6), where .. ("\nstep %d clearance %.17g"):format(i, c))
            end
          end
          radius_paths = radius_paths + 1
        end
      end
      mesh:close()
    end
    assert.is_true(checked > 50 * N / 40 and linked_paths > 20 * N / 40 and none > 0 and
      radius_paths > 20 * N / 40, ("checked %d, through links %d, none %d, with a radius %d")
      :format(checked, linked_paths, none, radius_paths))
  end)
end)
