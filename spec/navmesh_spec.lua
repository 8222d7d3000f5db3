-- astar.navmesh: construction and validation (every malformed input names the polygon and the
-- problem), find on hand-made meshes whose answers are worked out by hand, outcomes, flags,
-- costs, radius, the cost callback and its safety, bad arguments to every method, and locate /
-- nearest / clearance / raycast against brute force on hand-made meshes and on from_grid meshes.
--
-- Every expectation comes from the geometry below (plain Lua, no library call): point in convex
-- polygon, clipping of segments to polygons (the cost of a path is the length inside each polygon
-- times its cost), distances to wall edges, the union of a ray's intervals inside the polygons.

local astar = require "astar"
local H = require "spec.helper"

local NAN, INF = 0 / 0, math.huge
local sqrt, abs, min, max, floor = math.sqrt, math.abs, math.min, math.max, math.floor
local unpack = H.unpack

---------------------------------------------------------------------------------------------------
-- Independent geometry.

local function cross(ax, ay, bx, by, cx, cy)
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
end

-- Distance from (px, py) to the segment a-b.
local function seg_dist(px, py, ax, ay, bx, by)
  local dx, dy = bx - ax, by - ay
  local l2 = dx * dx + dy * dy
  local t = 0
  if l2 > 0 then t = max(0, min(1, ((px - ax) * dx + (py - ay) * dy) / l2)) end
  local qx, qy = ax + t * dx, ay + t * dy
  return sqrt((px - qx) ^ 2 + (py - qy) ^ 2)
end

-- Distance between the segments a-b and c-d (0 when they cross).
local function segseg_dist(ax, ay, bx, by, cx, cy, dx, dy)
  local d1, d2 = cross(cx, cy, dx, dy, ax, ay), cross(cx, cy, dx, dy, bx, by)
  local d3, d4 = cross(ax, ay, bx, by, cx, cy), cross(ax, ay, bx, by, dx, dy)
  if ((d1 > 0 and d2 < 0) or (d1 < 0 and d2 > 0)) and ((d3 > 0 and d4 < 0) or (d3 < 0 and d4 > 0))
  then
    return 0
  end
  return min(seg_dist(ax, ay, cx, cy, dx, dy), seg_dist(bx, by, cx, cy, dx, dy),
    seg_dist(cx, cy, ax, ay, bx, by), seg_dist(dx, dy, ax, ay, bx, by))
end

-- Twice the signed area of a list of {x, y}.
local function area2(pts)
  local a, n = 0, #pts
  for i = 1, n do
    local p, q = pts[i], pts[i % n + 1]
    a = a + p[1] * q[2] - q[1] * p[2]
  end
  return a
end

local function flat_to_pts(flat)
  local pts = {}
  for i = 1, #flat, 2 do pts[#pts + 1] = { flat[i], flat[i + 1] } end
  return pts
end

-- Is (x, y) in the convex polygon `pts` (either orientation), allowing `eps` outside?
local function in_poly(pts, x, y, eps)
  eps = eps or 0
  local s = area2(pts) > 0 and 1 or -1
  local n = #pts
  for i = 1, n do
    local a, b = pts[i], pts[i % n + 1]
    local len = sqrt((b[1] - a[1]) ^ 2 + (b[2] - a[2]) ^ 2)
    if s * cross(a[1], a[2], b[1], b[2], x, y) < -eps * len then return false end
  end
  return true
end

-- The parameters [t0, t1] of the segment a-b inside the convex polygon `pts` (boundary
-- included), or nil.
local function clip(pts, ax, ay, bx, by)
  local s = area2(pts) > 0 and 1 or -1
  local t0, t1 = 0, 1
  local n = #pts
  for i = 1, n do
    local p, q = pts[i], pts[i % n + 1]
    local f0 = s * cross(p[1], p[2], q[1], q[2], ax, ay)
    local f1 = s * cross(p[1], p[2], q[1], q[2], bx, by)
    if f0 < 0 and f1 < 0 then return nil end
    if f0 < 0 then
      t0 = max(t0, f0 / (f0 - f1))
    elseif f1 < 0 then
      t1 = min(t1, f0 / (f0 - f1))
    end
  end
  if t0 > t1 then return nil end
  return t0, t1
end

local function fmt_pts(pts)
  local out = {}
  for i, p in ipairs(pts) do out[i] = ("(%.17g, %.17g)"):format(p[1], p[2]) end
  return table.concat(out, " ")
end

local function path_pts(path)
  local pts = {}
  for i = 1, #path do
    local x, y = path:get(i)
    pts[i] = { x, y }
  end
  return pts
end

local function polyline_length(pts)
  local len = 0
  for i = 2, #pts do
    len = len + sqrt((pts[i][1] - pts[i - 1][1]) ^ 2 + (pts[i][2] - pts[i - 1][2]) ^ 2)
  end
  return len
end

---------------------------------------------------------------------------------------------------
-- A reference model of a mesh, from the very table given to astar.navmesh.

local function ckey(x, y) return ("%.17g,%.17g"):format(x, y) end

local function ekey(a, b)
  local ka, kb = ckey(a[1], a[2]), ckey(b[1], b[2])
  if ka < kb then return ka .. "|" .. kb end
  return kb .. "|" .. ka
end

local Model = {}
Model.__index = Model

local function model(t)
  local M = setmetatable({ polys = {}, cost = {}, flags = {}, walls = {}, owners = {} }, Model)
  local V = t.vertices
  for p, poly in ipairs(t.polygons) do
    local pts = {}
    for i, v in ipairs(poly) do pts[i] = { V[2 * v - 1], V[2 * v] } end
    M.polys[p] = pts
    M.cost[p] = t.costs and t.costs[p] or 1
    M.flags[p] = t.flags and t.flags[p] or 1
    for i = 1, #pts do
      local k = ekey(pts[i], pts[i % #pts + 1])
      M.owners[k] = M.owners[k] or {}
      table.insert(M.owners[k], p)
    end
  end
  for _, pts in ipairs(M.polys) do
    for i = 1, #pts do
      local a, b = pts[i], pts[i % #pts + 1]
      if #M.owners[ekey(a, b)] == 1 then M.walls[#M.walls + 1] = { a[1], a[2], b[1], b[2] } end
    end
  end
  local x0, y0, x1, y1 = INF, INF, -INF, -INF
  for i = 1, #V, 2 do
    x0, x1 = min(x0, V[i]), max(x1, V[i])
    y0, y1 = min(y0, V[i + 1]), max(y1, V[i + 1])
  end
  M.box = { x0, y0, x1, y1 }
  return M
end

function Model:allowed(p, include, exclude)
  include, exclude = include or 0xffffffff, exclude or 0
  local f = self.flags[p]
  -- bit tests without bit operators (5.1 / LuaJIT / 5.4 alike): flags here are small
  local function band(a, b)
    local r, bit = 0, 1
    while a > 0 and b > 0 do
      if a % 2 == 1 and b % 2 == 1 then r = r + bit end
      a, b, bit = floor(a / 2), floor(b / 2), bit * 2
    end
    return r
  end
  return band(f, include) ~= 0 and band(f, exclude) == 0
end

-- Polygons containing (x, y) within eps.
function Model:containing(x, y, eps)
  local out = {}
  for p, pts in ipairs(self.polys) do
    if in_poly(pts, x, y, eps) then out[#out + 1] = p end
  end
  return out
end

function Model:clearance(x, y)
  local best = INF
  for _, w in ipairs(self.walls) do best = min(best, seg_dist(x, y, w[1], w[2], w[3], w[4])) end
  return best
end

-- Distance from (x, y) to the mesh (0 inside).
function Model:distance(x, y)
  if #self:containing(x, y, 0) > 0 then return 0 end
  local best = INF
  for _, pts in ipairs(self.polys) do
    for i = 1, #pts do
      local a, b = pts[i], pts[i % #pts + 1]
      best = min(best, seg_dist(x, y, a[1], a[2], b[1], b[2]))
    end
  end
  return best
end

-- Smallest distance from the polyline to a wall.
function Model:path_clearance(pts)
  local best = INF
  for i = 2, #pts do
    local a, b = pts[i - 1], pts[i]
    for _, w in ipairs(self.walls) do
      best = min(best, segseg_dist(a[1], a[2], b[1], b[2], w[1], w[2], w[3], w[4]))
    end
  end
  return best
end

-- Walks the polyline: splits each segment where it enters or leaves a polygon and prices each
-- piece with the cost of the polygon its midpoint is in (on a shared edge: the corridor's one).
-- Returns the cost, the length of pieces on no allowed polygon, and a description of them.
function Model:path_cost(pts, corridor, include, exclude, costs)
  costs = costs or self.cost
  local incorr = {}
  for _, p in ipairs(corridor or {}) do incorr[p] = true end
  local cost, off, why = 0, 0, nil
  for i = 2, #pts do
    local ax, ay, bx, by = pts[i - 1][1], pts[i - 1][2], pts[i][1], pts[i][2]
    local len = sqrt((bx - ax) ^ 2 + (by - ay) ^ 2)
    local ts = { 0, 1 }
    for _, poly in ipairs(self.polys) do
      local t0, t1 = clip(poly, ax, ay, bx, by)
      if t0 then ts[#ts + 1], ts[#ts + 2] = t0, t1 end
    end
    table.sort(ts)
    for k = 2, #ts do
      local ta, tb = ts[k - 1], ts[k]
      if (tb - ta) * len > 1e-12 then
        local tm = (ta + tb) / 2
        local mx, my = ax + tm * (bx - ax), ay + tm * (by - ay)
        local cands = {}
        for _, p in ipairs(self:containing(mx, my, 1e-9)) do
          if self:allowed(p, include, exclude) then cands[#cands + 1] = p end
        end
        if #cands > 1 then
          local c2 = {}
          for _, p in ipairs(cands) do if incorr[p] then c2[#c2 + 1] = p end end
          if #c2 > 0 then cands = c2 end
        end
        if #cands == 0 then
          off = off + (tb - ta) * len
          why = why or ("(%.17g, %.17g) of segment %d"):format(mx, my, i - 1)
        else
          local c = costs[cands[1]]
          for _, p in ipairs(cands) do
            assert(costs[p] == c, "reference: ambiguous cost along a shared edge")
          end
          cost = cost + (tb - ta) * len * c
        end
      end
    end
  end
  return cost, off, why
end

-- The reference raycast: returns true, or false, x, y and the polygons whose interval ends
-- where the ray leaves (nil if the start is on no allowed polygon).
function Model:raycast(x0, y0, x1, y1, include, exclude)
  local iv = {}
  for p, poly in ipairs(self.polys) do
    if self:allowed(p, include, exclude) then
      local t0, t1 = clip(poly, x0, y0, x1, y1)
      if t0 then iv[#iv + 1] = { t0, t1, p } end
    end
  end
  local cur, started = 0, false
  for _, v in ipairs(iv) do if v[1] <= 0 then started = true end end
  if not started then return false, x0, y0, nil end
  local last = {}
  while true do
    local best = cur
    for _, v in ipairs(iv) do
      if v[1] <= cur + 1e-12 and v[2] > best then best = v[2] end
    end
    if best <= cur then break end
    cur = best
  end
  if cur >= 1 then return true end
  for _, v in ipairs(iv) do
    if abs(v[2] - cur) < 1e-9 and v[1] < cur then last[v[3]] = true end
  end
  return false, x0 + cur * (x1 - x0), y0 + cur * (y1 - y0), last
end

---------------------------------------------------------------------------------------------------
-- Hand-made meshes (tables, so that each test builds its own mesh and the model reads the same
-- input).

-- Two 10 x 10 squares side by side: [0, 10] x [0, 10] and [10, 20] x [0, 10].
local function TWO()
  return { vertices = { 0, 0, 10, 0, 20, 0, 20, 10, 10, 10, 0, 10 },
    polygons = { { 1, 2, 5, 6 }, { 2, 3, 4, 5 } } }
end

-- An L of three 10 x 10 squares: [0, 10] x [0, 10], [10, 20] x [0, 10], [10, 20] x [10, 20]. Its
-- inner corner is (10, 10).
local function LSHAPE()
  return { vertices = { 0, 0, 10, 0, 20, 0, 20, 10, 10, 10, 0, 10, 20, 20, 10, 20 },
    polygons = { { 1, 2, 5, 6 }, { 2, 3, 4, 5 }, { 5, 4, 7, 8 } } }
end

-- The box [0, 30]^2 around the diamond S(15, 10) E(20, 15) N(15, 20) W(10, 15) (polygon 9), cut
-- into 8 triangles. From (5, 15) to (25, 15) the straight line crosses the diamond (length 20, 10
-- of it inside); around it, the way touches N or S: 2 * sqrt(10^2 + 5^2) = 2 * sqrt(125).
local DIAMOND_AROUND = 2 * sqrt(125)
local function DIAMOND()
  local A, B, C, D, S, E, N, W = 1, 2, 3, 4, 5, 6, 7, 8
  return { vertices = { 0, 0, 30, 0, 30, 30, 0, 30, 15, 10, 20, 15, 15, 20, 10, 15 },
    polygons = { { A, B, S }, { B, E, S }, { B, C, E }, { C, N, E }, { C, D, N }, { D, W, N },
      { D, A, W }, { A, S, W }, { S, E, N, W } } }
end

-- Two 10 x 10 rooms joined by a corridor 2 wide and 2 long: room [0, 10] x [0, 10] (its right
-- side split at (10, 4) and (10, 6): collinear vertices), corridor [10, 12] x [4, 6], room
-- [12, 22] x [0, 10].
local function CORRIDOR()
  return { vertices = { 0, 0, 10, 0, 10, 4, 10, 6, 10, 10, 0, 10, 12, 4, 12, 6, 12, 0, 22, 0,
    22, 10, 12, 10 },
    polygons = { { 1, 2, 3, 4, 5, 6 }, { 3, 7, 8, 4 }, { 9, 10, 11, 12, 8, 7 } } }
end

-- CORRIDOR with each room cut into three bands at y = 4 and y = 6: no collinear vertices.
local function CORRIDOR_BANDS()
  return { vertices = { 0, 0, 10, 0, 10, 4, 0, 4, 10, 6, 0, 6, 10, 10, 0, 10, 12, 0, 22, 0, 22, 4,
    12, 4, 22, 6, 12, 6, 22, 10, 12, 10 },
    polygons = { { 1, 2, 3, 4 }, { 4, 3, 5, 6 }, { 6, 5, 7, 8 }, { 3, 12, 14, 5 },
      { 9, 10, 11, 12 }, { 12, 11, 13, 14 }, { 14, 13, 15, 16 } } }
end

-- Two squares that do not touch.
local function ISLANDS()
  return { vertices = { 0, 0, 10, 0, 10, 10, 0, 10, 20, 0, 30, 0, 30, 10, 20, 10 },
    polygons = { { 1, 2, 3, 4 }, { 5, 6, 7, 8 } } }
end

local function copy(t)
  if type(t) ~= "table" then return t end
  local c = {}
  for k, v in pairs(t) do c[k] = copy(v) end
  return c
end

local function build(t) return astar.navmesh(copy(t)) end

-- A found path must start and end where asked, stay on allowed polygons, follow its corridor
-- (consecutive polygons are neighbours, the first holds the start and the last the goal) and
-- cost what the model says. Returns its points and the model's cost.
local function check_path(mesh, M, path, sx, sy, gx, gy, o)
  o = o or {}
  assert.is_not_nil(path)
  local pts = path_pts(path)
  assert.is_true(#pts >= 1)
  assert.are.equal(sx, pts[1][1])
  assert.are.equal(sy, pts[1][2])
  assert.are.equal(gx, pts[#pts][1])
  assert.are.equal(gy, pts[#pts][2])
  local corr = path:corridor()
  assert.is_true(#corr >= 1, "empty corridor")
  assert.is_true(in_poly(M.polys[corr[1]], sx, sy, 1e-9), "the corridor does not start at start")
  assert.is_true(in_poly(M.polys[corr[#corr]], gx, gy, 1e-9), "the corridor does not end at goal")
  for i, p in ipairs(corr) do
    assert.is_true(M:allowed(p, o.include, o.exclude), "corridor polygon " .. p .. " is closed")
    if i > 1 then
      local nb, found = mesh:neighbours(corr[i - 1]), false
      for _, q in ipairs(nb) do if q == p then found = true end end
      assert.is_true(found, ("corridor: %d does not border %d"):format(corr[i - 1], p))
    end
  end
  local cost, off, why = M:path_cost(pts, corr, o.include, o.exclude, o.costs)
  assert.is_true(off < 1e-9, ("the path leaves the mesh at %s: %s"):format(tostring(why),
    fmt_pts(pts)))
  assert.is_true(H.close(cost, path:cost(), 1e-9) or abs(cost - path:cost()) < 1e-9,
    ("path:cost() is %.17g, the path's pieces cost %.17g: %s"):format(path:cost(), cost,
      fmt_pts(pts)))
  return pts, cost
end

local function pack(...) return { n = select("#", ...), ... } end

local function near(a, b, tol)
  return abs(a - b) <= (tol or 1e-9) * max(1, abs(a), abs(b))
end

---------------------------------------------------------------------------------------------------

describe("navmesh construction", function()
  it("accepts a hand-made mesh and its neighbours are the shared edges", function()
    -- shared edges counted by hand: the diamond's 4 sides and 8 between its triangles; the
    -- banded rooms' 2 + 2 and the corridor's 2 mouths
    local PORTALS = { [TWO] = 1, [LSHAPE] = 2, [DIAMOND] = 12, [CORRIDOR] = 2,
      [CORRIDOR_BANDS] = 6, [ISLANDS] = 0 }
    for _, T in ipairs({ TWO, LSHAPE, DIAMOND, CORRIDOR, CORRIDOR_BANDS, ISLANDS }) do
      local t = T()
      local m, M = build(t), model(t)
      local polys = m:polygons()
      assert.are.equal(#t.polygons, #polys)
      for p = 1, #polys do
        local pts = flat_to_pts(m:polygon(p))
        -- polygon p is input polygon p, counter-clockwise
        assert.are.equal(#t.polygons[p], #pts)
        assert.is_true(area2(pts) > 0, "polygon " .. p .. " is not counter-clockwise")
        local want = {}
        for _, q in ipairs(M.polys[p]) do want[ckey(q[1], q[2])] = true end
        for _, q in ipairs(pts) do assert.is_true(want[ckey(q[1], q[2])]) end
        -- polygons() lists the same corners as polygon(p), through vertices()
        local V = m:vertices()
        for i, v in ipairs(polys[p]) do
          assert.are.equal(pts[i][1], V[2 * v - 1])
          assert.are.equal(pts[i][2], V[2 * v])
        end
        local nb = m:neighbours(p)
        assert.are.equal(#pts, #nb)
        for i = 1, #pts do
          local owners = M.owners[ekey(pts[i], pts[i % #pts + 1])]
          local other = false
          for _, q in ipairs(owners) do if q ~= p then other = q end end
          assert.are.equal(other, nb[i], ("polygon %d edge %d"):format(p, i))
        end
      end
      local portals = 0
      for _, owners in pairs(M.owners) do if #owners == 2 then portals = portals + 1 end end
      local st = m:stats()
      assert.are.equal(#t.polygons, st.polygons)
      assert.are.equal(#t.vertices / 2, st.vertices)
      assert.are.equal(PORTALS[T], portals)
      assert.are.equal(PORTALS[T], st.portals)
      assert.are.same({ M.box[1], M.box[2], M.box[3], M.box[4] }, { st.x0, st.y0, st.x1, st.y1 })
      assert.is_true(H.is_int(st.allocs) and st.allocs >= 0)
    end
  end)

  it("accepts both orientations, and a mix of them", function()
    local t = DIAMOND()
    local rev = copy(t)
    for p, poly in ipairs(rev.polygons) do
      local r = {}
      for i = #poly, 1, -1 do r[#r + 1] = poly[i] end
      rev.polygons[p] = r
    end
    local mixed = copy(t)
    for p = 1, #mixed.polygons, 2 do mixed.polygons[p] = rev.polygons[p] end
    for _, tt in ipairs({ t, rev, mixed }) do
      local m = build(tt)
      for p = 1, #tt.polygons do
        assert.is_true(area2(flat_to_pts(m:polygon(p))) > 0)
      end
      local path = assert(m:find(5, 15, 25, 15))
      assert.is_true(near(20, path:cost()))
      check_path(m, model(tt), path, 5, 15, 25, 15)
    end
  end)

  it("accepts collinear vertices on an edge (the split side of a room)", function()
    local t = CORRIDOR()
    local m = build(t)
    assert.are.equal(6, #m:polygons()[1])
    assert.are.same({ false, false, 2, false, false, false }, m:neighbours(1))
    assert.are.same({ false, 3, false, 1 }, m:neighbours(2))
    local p = assert(m:find(2, 5, 20, 5))
    assert.is_true(near(18, p:cost()))
    assert.are.same({ 1, 2, 3 }, p:corridor())
  end)

  it("welds vertices with identical coordinates", function()
    -- TWO with its shared side given twice: (10, 0) and (10, 10) appear as 2 and 5, 6 and 8
    local t = { vertices = { 0, 0, 10, 0, 0, 10, 10, 10, 20, 0, 10, 0, 20, 10, 10, 10 },
      polygons = { { 1, 2, 4, 3 }, { 6, 5, 7, 8 } } }
    local m = build(t)
    local st = m:stats()
    assert.are.equal(6, st.vertices)
    assert.are.equal(12, #m:vertices())
    assert.are.equal(1, st.portals)
    local seen = {}
    local V = m:vertices()
    for i = 1, #V, 2 do
      local k = ckey(V[i], V[i + 1])
      assert.is_nil(seen[k], "vertex listed twice: " .. k)
      seen[k] = true
    end
    for _, k in ipairs({ "0,0", "10,0", "20,0", "0,10", "10,10", "20,10" }) do
      assert.is_true(seen[k], k)
    end
    local path = assert(m:find(1, 5, 19, 5))
    assert.is_true(near(18, path:cost()))
    assert.are.same({ 1, 2 }, path:corridor())
    -- polygons() indexes the welded vertices
    for p, poly in ipairs(m:polygons()) do
      local pts = flat_to_pts(m:polygon(p))
      for i, v in ipairs(poly) do
        assert.are.same(pts[i], { V[2 * v - 1], V[2 * v] })
      end
    end
  end)

  it("takes costs and flags lists", function()
    local t = TWO()
    t.costs, t.flags = { 1, 2.5 }, { 1, 4294967295 }
    local m = build(t)
    assert.are.equal(1, m:cost(1))
    assert.are.equal(2.5, m:cost(2))
    assert.are.equal(1, m:flags(1))
    assert.are.equal(4294967295, m:flags(2))
    local p = assert(m:find(1, 5, 19, 5))
    assert.is_true(near(9 + 9 * 2.5, p:cost()), p:cost())
  end)

  describe("rejects", function()
    local SQ = { 0, 0, 10, 0, 10, 10, 0, 10 }
    -- a regular pentagon (counter-clockwise): 1 3 5 2 4 is the pentagram
    local PENT = {}
    for k = 0, 4 do
      local a = math.pi / 2 + k * 2 * math.pi / 5
      PENT[#PENT + 1], PENT[#PENT + 2] = 10 * math.cos(a), 10 * math.sin(a)
    end

    -- f(t) must raise a string containing every fragment.
    local function rejects(t, ...)
      local ok, msg = pcall(astar.navmesh, t)
      assert.is_false(ok, "accepted: " .. tostring(msg))
      assert.are.equal("string", type(msg))
      for _, frag in ipairs({ ... }) do
        assert.is_truthy(msg:find(frag, 1, true), ("%q not in %q"):format(frag, msg))
      end
      return msg
    end

    it("a polygon with fewer than 3 vertices", function()
      rejects({ vertices = SQ, polygons = { { 1, 2, 3 }, { 1, 3 } } },
        "navmesh: polygon 2 ", "fewer than 3 vertices")
      rejects({ vertices = SQ, polygons = { {} } }, "polygon 1 ", "fewer than 3 vertices")
    end)

    it("bad vertex indices", function()
      H.checkerr("navmesh: polygon 1 refers to vertex 0, which does not exist (there are 4)",
        astar.navmesh, { vertices = SQ, polygons = { { 0, 2, 3 } } })
      H.checkerr("navmesh: polygon 2 refers to vertex 5, which does not exist (there are 4)",
        astar.navmesh, { vertices = SQ, polygons = { { 1, 2, 3 }, { 1, 3, 5 } } })
      rejects({ vertices = SQ, polygons = { { 1, -2, 3 } } }, "polygon 1 ", "vertex -2",
        "does not exist")
      rejects({ vertices = SQ, polygons = { { 1, 2, INF } } }, "polygon 1 ", "does not exist")
      H.checkerr("navmesh: polygon 1: item 3 is not a vertex index (got 1.5)",
        astar.navmesh, { vertices = SQ, polygons = { { 1, 2, 1.5 } } })
      H.checkerr("navmesh: polygon 1: item 2 is not a vertex index (got string)",
        astar.navmesh, { vertices = SQ, polygons = { { 1, "2", 3 } } })
      rejects({ vertices = SQ, polygons = { { 1, NAN, 3 } } }, "polygon 1", "item 2",
        "not a vertex index")
      rejects({ vertices = SQ, polygons = { { 1, {}, 3 } } }, "polygon 1", "item 2",
        "not a vertex index")
    end)

    it("a vertex listed twice", function()
      H.checkerr("navmesh: polygon 1 lists vertex 1 twice",
        astar.navmesh, { vertices = SQ, polygons = { { 1, 2, 3, 1 } } })
      H.checkerr("navmesh: polygon 2 lists vertex 3 twice",
        astar.navmesh, { vertices = SQ, polygons = { { 1, 2, 3 }, { 1, 3, 4, 3 } } })
    end)

    it("a polygon without area", function()
      rejects({ vertices = { 0, 0, 1, 0, 2, 0, 0, 1 }, polygons = { { 1, 2, 3 } } },
        "polygon 1 ", "has no area")
      rejects({ vertices = { 0, 0, 1, 1, 2, 2, 0, 1 }, polygons = { { 4, 1, 2 }, { 1, 2, 3 } } },
        "polygon 2 ", "has no area")
      -- two input vertices with the same coordinates are one vertex: the triangle collapses
      rejects({ vertices = { 0, 0, 1, 0, 1, 0 }, polygons = { { 1, 2, 3 } } }, "polygon 1 ")
    end)

    it("a concave polygon and a pentagram", function()
      rejects({ vertices = { 0, 0, 2, 0, 1, 0.5, 2, 2, 0, 2 }, polygons = { { 1, 2, 3, 4, 5 } } },
        "polygon 1 ", "is not convex")
      rejects({ vertices = { 0, 0, 2, 0, 1, 0.5, 2, 2, 0, 2 }, polygons = { { 5, 4, 3, 2, 1 } } },
        "polygon 1 ", "is not convex")
      rejects({ vertices = PENT, polygons = { { 1, 3, 5, 2, 4 } } }, "polygon 1 ", "is not convex")
      rejects({ vertices = PENT, polygons = { { 1, 2, 3, 4, 5 }, { 4, 2, 5, 3, 1 } } },
        "polygon 2 ", "is not convex")
      -- the convex pentagon itself is fine, in both orientations
      assert.are.equal(5, #astar.navmesh({ vertices = PENT, polygons = { { 1, 2, 3, 4, 5 } } })
        :polygon(1) / 2)
      assert.are.equal(5, #astar.navmesh({ vertices = PENT, polygons = { { 5, 4, 3, 2, 1 } } })
        :polygon(1) / 2)
    end)

    it("a repeated polygon (same, reversed or rotated)", function()
      for _, second in ipairs({ { 1, 2, 3, 4 }, { 4, 3, 2, 1 }, { 3, 4, 1, 2 } }) do
        H.checkerr("navmesh: polygon 2 repeats polygon 1",
          astar.navmesh, { vertices = SQ, polygons = { { 1, 2, 3, 4 }, second } })
      end
    end)

    it("overlapping polygons sharing an edge in the same direction", function()
      -- the square and a triangle over it on the same side of the edge 1-2
      rejects({ vertices = { 0, 0, 10, 0, 10, 10, 0, 10, 5, 20 },
        polygons = { { 1, 2, 3, 4 }, { 1, 2, 5 } } }, "polygon 2 ", "overlaps polygon 1")
      rejects({ vertices = { 0, 0, 10, 0, 10, 10, 0, 10, 5, 5 },
        polygons = { { 1, 2, 3 }, { 2, 1, 5 }, { 5, 2, 1 } } }, "overlaps polygon")
    end)

    it("an edge shared by 3 polygons", function()
      -- a triangle over the edge, one under it and a third one under it too
      local msg = rejects({ vertices = { 0, 0, 10, 0, 5, 10, 5, -10, 5, -20 },
        polygons = { { 1, 2, 3 }, { 2, 1, 4 }, { 2, 1, 5 } } }, "navmesh: polygon 3 ")
      -- two of three polygons on one edge are on the same side: either message says it
      assert.is_truthy(msg:find("overlaps polygon 2", 1, true)
        or msg:find("shares its edge 2-1 with more than one other polygon", 1, true)
        or msg:find("shares its edge 1-2 with more than one other polygon", 1, true), msg)
    end)

    it("a T-junction", function()
      -- a 2 x 2 square beside two 1 x 1 squares: (2, 1), the small squares' shared corner, is
      -- not a vertex of the big one
      local t = { vertices = { 0, 0, 2, 0, 2, 2, 0, 2, 3, 0, 3, 1, 3, 2, 2, 1 },
        polygons = { { 1, 2, 3, 4 }, { 2, 5, 6, 8 }, { 8, 6, 7, 3 } } }
      local msg = rejects(t, "T-junction", "vertex 8")
      assert.is_truthy(msg:find("polygon 1 ", 1, true) and msg:find("polygon [23]"), msg)
      -- split the big square's side at (2, 1) and it is a mesh
      t.polygons[1] = { 1, 2, 8, 3, 4 }
      local m = astar.navmesh(t)
      assert.are.same({ false, 2, 3, false, false }, m:neighbours(1))
      local p = assert(m:find(0.5, 1.5, 2.5, 0.5))
      assert.is_true(near(sqrt(4 + 1), p:cost()))
    end)

    it("coordinates that are not finite numbers", function()
      local pre = "bad argument #1 to 'navmesh' (field 'vertices': item "
      local TRI = { { 1, 2, 3 } }
      H.checkerr(pre .. "5 is nan, not a finite number)", astar.navmesh,
        { vertices = { 0, 0, 1, 0, NAN, 1 }, polygons = TRI })
      H.checkerr(pre .. "6 is inf, not a finite number)", astar.navmesh,
        { vertices = { 0, 0, 1, 0, 1, INF }, polygons = TRI })
      H.checkerr(pre .. "1 is -inf, not a finite number)", astar.navmesh,
        { vertices = { -INF, 0, 1, 0, 1, 1 }, polygons = TRI })
      H.checkerr("bad argument #1 to 'navmesh' (field 'vertices': item 3 is string, not a number)",
        astar.navmesh, { vertices = { 0, 0, "1", 0, 1, 1 }, polygons = { { 1, 2, 3 } } })
    end)

    it("an odd or too short vertex list", function()
      local pre = "bad argument #1 to 'navmesh' (field 'vertices': expected a list of x, y pairs "
        .. "{x1, y1, x2, y2, ...} of at least 3 points, got "
      H.checkerr(pre .. "7 numbers)", astar.navmesh,
        { vertices = { 0, 0, 1, 0, 1, 1, 0 }, polygons = { { 1, 2, 3 } } })
      H.checkerr(pre .. "4 numbers)", astar.navmesh,
        { vertices = { 0, 0, 1, 0 }, polygons = { { 1, 2, 3 } } })
      H.checkerr(pre .. "0 numbers)", astar.navmesh, { vertices = {}, polygons = { { 1, 2, 3 } } })
    end)

    it("arguments that are not tables", function()
      for _, bad in ipairs({ "x", 5, true }) do
        H.checkerr("bad argument #1 to 'navmesh' (table expected, got " .. type(bad) .. ")",
          astar.navmesh, bad)
      end
      H.checkerr("bad argument #1 to 'navmesh' (table expected, got nil)", astar.navmesh, nil)
      H.checkerr("bad argument #1 to 'navmesh' (table expected, got no value)", astar.navmesh)
      H.checkerr("bad argument #1 to 'navmesh' (field 'vertices': table expected, got nil)",
        astar.navmesh, { polygons = { { 1, 2, 3 } } })
      H.checkerr("bad argument #1 to 'navmesh' (field 'vertices': table expected, got string)",
        astar.navmesh, { vertices = "0 0 1 0 1 1", polygons = { { 1, 2, 3 } } })
      H.checkerr("bad argument #1 to 'navmesh' (field 'polygons': table expected, got nil)",
        astar.navmesh, { vertices = SQ })
      H.checkerr("bad argument #1 to 'navmesh' (field 'polygons': empty list)",
        astar.navmesh, { vertices = SQ, polygons = {} })
      H.checkerr("bad argument #1 to 'navmesh' (field 'polygons': polygon 2 is number, not a "
        .. "list of vertex indices)", astar.navmesh,
        { vertices = SQ, polygons = { { 1, 2, 3 }, 4 } })
      -- astar.navmesh.new is the same constructor
      H.checkerr("bad argument #1 to 'navmesh' (table expected, got no value)", astar.navmesh.new)
    end)

    it("bad costs lists", function()
      local function t(costs) return { vertices = SQ, polygons = { { 1, 2, 3 }, { 1, 3, 4 } },
        costs = costs } end
      local len = "bad argument #1 to 'navmesh' (field 'costs': expected a list of 2 numbers)"
      H.checkerr(len, astar.navmesh, t({ 1 }))
      H.checkerr(len, astar.navmesh, t({ 1, 2, 3 }))
      H.checkerr(len, astar.navmesh, t(2))
      H.checkerr(len, astar.navmesh, t("1 2"))
      for _, bad in ipairs({ 0, -1, NAN, INF, "2", true }) do
        H.checkerr("bad argument #1 to 'navmesh' (field 'costs': item 2 must be a positive "
          .. "finite number)", astar.navmesh, t({ 1, bad }))
      end
    end)

    it("bad flags lists", function()
      local function t(flags) return { vertices = SQ, polygons = { { 1, 2, 3 }, { 1, 3, 4 } },
        flags = flags } end
      local len = "bad argument #1 to 'navmesh' (field 'flags': expected a list of 2 integers)"
      H.checkerr(len, astar.navmesh, t({ 1 }))
      H.checkerr(len, astar.navmesh, t({ 1, 2, 3 }))
      H.checkerr(len, astar.navmesh, t(true))
      for _, bad in ipairs({ -1, 1.5, 2 ^ 32, NAN, INF, "1" }) do
        local msg = H.checkerr_prefix("bad argument #1 to 'navmesh' (", astar.navmesh,
          t({ 1, bad }))
        assert.is_truthy(msg:find("flags", 1, true), msg)
      end
      assert.are.equal(0, astar.navmesh(t({ 0, 4294967295 })):flags(1))
    end)

    -- BUG: a bad item of the flags list is reported as "option 'flags'" without saying which
    -- polygon's flags are wrong (costs say "field 'costs': item 2 ...").
    it("a bad flags item is named like a bad costs item", function()
      local t = { vertices = SQ, polygons = { { 1, 2, 3 }, { 1, 3, 4 } }, flags = { 1, -1 } }
      local ok, msg = pcall(astar.navmesh, t)
      assert.is_false(ok)
      assert.is_truthy(msg:find("field 'flags'", 1, true) and msg:find("item 2", 1, true), msg)
    end)

    -- BUG: the README says an unknown option name is an error (astar.graph{direct = true} raises
    -- "unknown option 'direct'"), but astar.navmesh ignores a misspelt field: `cost` here.
    it("an unknown field (a typo of costs)", function()
      local ok, msg = pcall(astar.navmesh, { vertices = SQ, polygons = { { 1, 2, 3, 4 } },
        cost = { 5 } })
      assert.is_false(ok, "astar.navmesh accepted the unknown field 'cost'")
      assert.is_truthy(tostring(msg):find("unknown", 1, true), msg)
    end)
  end)
end)

---------------------------------------------------------------------------------------------------

describe("navmesh:find", function()
  it("two squares: a straight line", function()
    local t = TWO()
    local m, M = build(t), model(t)
    local p = assert(m:find(1, 5, 19, 5))
    local pts = check_path(m, M, p, 1, 5, 19, 5)
    assert.are.equal(2, #pts)
    assert.is_true(near(18, p:cost()))
    assert.are.same({ 1, 2 }, p:corridor())
    p = assert(m:find(19, 9, 1, 1))
    pts = check_path(m, M, p, 19, 9, 1, 1)
    assert.are.equal(2, #pts)
    assert.is_true(near(sqrt(18 * 18 + 8 * 8), p:cost()))
    assert.are.same({ 2, 1 }, p:corridor())
  end)

  it("start and goal in one polygon: one segment, or one point", function()
    local t = DIAMOND()
    local m = build(t)
    local p = assert(m:find(5, 15, 5.5, 15.5))
    assert.are.equal(2, #p)
    assert.is_true(near(sqrt(0.5), p:cost()))
    assert.are.same({ 7 }, p:corridor())
    p = assert(m:find(5, 15, 5, 15))
    assert.are.equal(1, #p)
    assert.are.equal(0, p:cost())
    assert.are.same({ 7 }, p:corridor())
  end)

  it("an L of three squares: the path bends exactly at the inner corner", function()
    local t = LSHAPE()
    local m, M = build(t), model(t)
    for _, c in ipairs({ { 2, 5, 15, 18 }, { 15, 18, 2, 5 }, { 1, 9, 19, 12 } }) do
      local sx, sy, gx, gy = unpack(c)
      local p = assert(m:find(sx, sy, gx, gy))
      local pts = check_path(m, M, p, sx, sy, gx, gy)
      assert.are.equal(3, #pts, fmt_pts(pts))
      assert.is_true(near(10, pts[2][1], 1e-12) and near(10, pts[2][2], 1e-12), fmt_pts(pts))
      local want = sqrt((sx - 10) ^ 2 + (sy - 10) ^ 2) + sqrt((gx - 10) ^ 2 + (gy - 10) ^ 2)
      assert.is_true(near(want, p:cost()), ("%.17g vs %.17g"):format(p:cost(), want))
    end
    -- from (2, 5) the goal (15, 8) is in sight: no bend
    local p = assert(m:find(2, 5, 15, 8))
    assert.are.equal(2, #p)
    assert.is_true(near(sqrt(13 * 13 + 9), p:cost()))
  end)

  it("start or goal off the mesh: nil, a message, 'blocked'", function()
    local m = build(DIAMOND())
    local p, msg, code = m:find(-1, 15, 25, 15)
    assert.is_nil(p)
    assert.are.equal("start (-1, 15) is not on the navmesh", msg)
    assert.are.equal("blocked", code)
    p, msg, code = m:find(5, 15, 25, 31.5)
    assert.is_nil(p)
    assert.are.equal("goal (25, 31.5) is not on the navmesh", msg)
    assert.are.equal("blocked", code)
    assert.is_not_nil(m:find(5, 15, 25, 15))
  end)

  it("disconnected islands: 'no_path'", function()
    local m = build(ISLANDS())
    local p, msg, code = m:find(5, 5, 25, 5)
    assert.is_nil(p)
    assert.are.equal("no path from (5, 5) to (25, 5)", msg)
    assert.are.equal("no_path", code)
    assert.is_true(near(5, assert(m:find(25, 5, 25, 10)):cost()))
  end)

  it("closing the only connecting polygon with set_flags(p, 0), then reopening it", function()
    local t = CORRIDOR()
    local m, M = build(t), model(t)
    m:set_flags(2, 0)
    assert.are.equal(0, m:flags(2))
    local p, msg, code = m:find(2, 5, 20, 5)
    assert.is_nil(p)
    assert.are.equal("no_path", code)
    assert.are.equal("no path from (2, 5) to (20, 5)", msg)
    -- start inside the closed polygon
    p, msg, code = m:find(11, 5, 20, 5)
    assert.is_nil(p)
    assert.are.equal("blocked", code)
    assert.is_truthy(msg:find("start (11, 5) is ", 1, true), msg)
    m:set_flags(2, 1)
    p = assert(m:find(2, 5, 20, 5))
    check_path(m, M, p, 2, 5, 20, 5)
    assert.is_true(near(18, p:cost()))
  end)

  it("a search after set_flags sees the change (flags are asked only when some polygon may be refused)", function()
    local t = CORRIDOR()
    local m, M = build(t), model(t)
    local p = assert(m:find(2, 5, 20, 5))          -- every polygon allowed: flags not asked
    assert.is_true(near(18, p:cost()))
    m:set_flags(2, 0)
    local _, _, code = m:find(2, 5, 20, 5)
    assert.are.equal("no_path", code)
    m:set_flags(2, 6)
    p = assert(m:find(2, 5, 20, 5))
    check_path(m, M, p, 2, 5, 20, 5)
    _, _, code = m:find(2, 5, 20, 5, { exclude = 4 })
    assert.are.equal("no_path", code)
    _, _, code = m:find(2, 5, 20, 5, { include = 1 })
    assert.are.equal("no_path", code)
    p = assert(m:find(2, 5, 20, 5, { include = 3 }))
    assert.is_true(near(18, p:cost()))
    m:set_flags(2, 1)
    assert.is_true(near(18, assert(m:find(2, 5, 20, 5, { exclude = 4 })):cost()))
  end)

  -- BUG: a polygon with flags 0 disappears from locate and nearest (they use the flag filter
  -- with include = all bits, and 0 & anything == 0), so find reports a start on it as off the
  -- mesh, and nearest moves a point that is on the mesh:
  --   local m = astar.navmesh{vertices = {0,0, 10,0, 20,0, 20,10, 10,10, 0,10},
  --     polygons = {{1,2,5,6}, {2,3,4,5}}}
  --   m:set_flags(2, 0)
  --   m:locate(15, 5)         --> nil (expected 2)
  --   m:nearest(15, 5)        --> 10, 5, 1 (expected 15, 5, 2)
  --   m:find(15, 5, 5, 5)     --> nil, "start (15, 5) is not on the navmesh", "blocked"
  it("a polygon closed by set_flags(p, 0) is still located", function()
    local m = build(TWO())
    m:set_flags(2, 0)
    assert.are.equal(2, m:locate(15, 5))
    assert.are.same({ 15, 5, 2 }, { m:nearest(15, 5) })
    local p, msg, code = m:find(15, 5, 5, 5)
    assert.is_nil(p)
    assert.are.equal("blocked", code)
    assert.are.equal("start (15, 5) is on a polygon the flags exclude", msg)
    p, msg, code = m:find(5, 5, 15, 5)
    assert.is_nil(p)
    assert.are.equal("blocked", code)
    assert.are.equal("goal (15, 5) is on a polygon the flags exclude", msg)
  end)

  it("include and exclude masks: water (flags 2) is avoided by a known detour", function()
    local t = DIAMOND()
    t.flags = { 1, 1, 1, 1, 1, 1, 1, 1, 2 }
    local m, M = build(t), model(t)
    local p = assert(m:find(5, 15, 25, 15))
    check_path(m, M, p, 5, 15, 25, 15)
    assert.is_true(near(20, p:cost()))
    for _, o in ipairs({ { exclude = 2 }, { include = 1 }, { include = 5, exclude = 6 } }) do
      p = assert(m:find(5, 15, 25, 15, o))
      local pts = check_path(m, M, p, 5, 15, 25, 15, o)
      assert.is_true(near(DIAMOND_AROUND, p:cost()), p:cost())
      assert.is_true(near(DIAMOND_AROUND - 20, p:cost() - 20))
      -- it touches the diamond only at N or S
      assert.are.equal(3, #pts)
      assert.is_true(near(15, pts[2][1]) and (near(10, pts[2][2]) or near(20, pts[2][2])),
        fmt_pts(pts))
      for _, q in ipairs(p:corridor()) do assert.are_not.equal(9, q) end
    end
    -- include = 2: only the water is allowed, the start is not on it
    local _, msg, code = m:find(5, 15, 25, 15, { include = 2 })
    assert.are.equal("blocked", code)
    assert.are.equal("start (5, 15) is on a polygon the flags exclude", msg)
    _, msg, code = m:find(15, 15, 25, 15, { exclude = 2 })
    assert.are.equal("blocked", code)
    assert.are.equal("start (15, 15) is on a polygon the flags exclude", msg)
    _, msg, code = m:find(5, 15, 15, 15, { exclude = 2 })
    assert.are.equal("blocked", code)
    assert.are.equal("goal (15, 15) is on a polygon the flags exclude", msg)
    -- all 32 bits take part
    m:set_flags(9, 2 ^ 31)
    assert.is_true(near(DIAMOND_AROUND, assert(m:find(5, 15, 25, 15, { exclude = 2 ^ 31 })):cost()))
    assert.is_true(near(20, assert(m:find(5, 15, 25, 15, { exclude = 2 ^ 30 })):cost()))
    assert.is_true(near(20, assert(m:find(5, 15, 25, 15, { include = 2 ^ 31 + 1 })):cost()))
  end)

  it("set_cost: the cost is length times the polygon's cost; the search may go around", function()
    local t = TWO()
    local m, M = build(t), model(t)
    m:set_cost(2, 2)
    assert.are.equal(2, m:cost(2))
    local p = assert(m:find(1, 5, 19, 5))
    local costs = { 1, 2 }
    local _, c = check_path(m, M, p, 1, 5, 19, 5, { costs = costs })
    assert.is_true(near(9 + 9 * 2, p:cost()))
    assert.is_true(near(27, c))
    -- the diamond: through it costs 10 + 10 c, around it 2 sqrt(125) whatever c is
    t = DIAMOND()
    m, M = build(t), model(t)
    costs = { 1, 1, 1, 1, 1, 1, 1, 1, 1 }
    for _, c9 in ipairs({ 1.1, 1.2, 2, 3, 0.5 }) do
      m:set_cost(9, c9)
      assert.are.equal(c9, m:cost(9))
      costs[9] = c9
      p = assert(m:find(5, 15, 25, 15))
      check_path(m, M, p, 5, 15, 25, 15, { costs = costs })
      local want = min(10 + 10 * c9, DIAMOND_AROUND)
      assert.is_true(near(want, p:cost()), ("cost %g: %.17g, expected %.17g"):format(c9, p:cost(),
        want))
      local through = false
      for _, q in ipairs(p:corridor()) do if q == 9 then through = true end end
      assert.are.equal(10 + 10 * c9 < DIAMOND_AROUND, through)
    end
  end)

  it("costs given at construction price the path like set_cost", function()
    local t = DIAMOND()
    t.costs = { 1, 1, 1, 1, 1, 1, 1.5, 1, 3 }
    local m, M = build(t), model(t)
    local p = assert(m:find(5, 15, 25, 15))
    local _, c = check_path(m, M, p, 5, 15, 25, 15)
    assert.is_true(p:cost() > DIAMOND_AROUND)
    assert.is_true(near(c, p:cost()))
  end)

  it("algorithms and heuristics agree where the answer is known", function()
    local m = build(LSHAPE())
    local want = 2 * sqrt(89)
    -- (max_expansions: a search that runs away fails here instead of eating the memory)
    for _, o in ipairs({ {}, { algorithm = "astar" }, { algorithm = "dijkstra" },
      { heuristic = "zero" }, { heuristic = "euclidean" }, { weight = 1 } }) do
      o.max_expansions = 100000
      local p = assert(m:find(2, 5, 15, 18, o))
      assert.is_true(near(want, p:cost()))
    end
    assert.are.equal("dijkstra", assert(m:find(2, 5, 15, 18, { algorithm = "dijkstra" }))
      :stats().algorithm)
    assert.are.equal("astar", assert(m:find(2, 5, 15, 18)):stats().algorithm)
  end)

  -- BUG: with algorithm = "dijkstra" (or heuristic = "zero") the diamond mesh gives the detour
  -- (2 sqrt(125) = 22.36) although the straight line (20, all costs 1) is on the mesh and A*
  -- finds it:
  --   local m = astar.navmesh{vertices = {0,0, 30,0, 30,30, 0,30, 15,10, 20,15, 15,20, 10,15},
  --     polygons = {{1,2,5},{2,6,5},{2,3,6},{3,7,6},{3,4,7},{4,8,7},{4,1,8},{1,5,8},{5,6,7,8}}}
  --   m:find(5, 15, 25, 15):cost()                           --> 20
  --   m:find(5, 15, 25, 15, {algorithm = "dijkstra"}):cost() --> 22.360679774998
  it("dijkstra is not worse than astar (the diamond's straight line)", function()
    local t = DIAMOND()
    local m, M = build(t), model(t)
    for _, o in ipairs({ { algorithm = "dijkstra" }, { heuristic = "zero" } }) do
      local what = next(o)
      o.max_expansions = 100000
      local p, msg = m:find(5, 15, 25, 15, o)
      assert.is_not_nil(p, what .. ": " .. tostring(msg))
      check_path(m, M, p, 5, 15, 25, 15)
      assert.is_true(near(20, p:cost()), ("%s: cost %.17g, the straight line costs 20"):format(
        what, p:cost()))
      -- start and goal in one polygon
      p, msg = m:find(5, 15, 5.5, 15.5, o)
      assert.is_not_nil(p, what .. ": " .. tostring(msg))
      assert.is_true(near(sqrt(0.5), p:cost()))
    end
  end)

  it("limits: max_expansions and max_cost give 'limit'", function()
    local m = build(DIAMOND())
    local p, msg, code = m:find(5, 15, 25, 15, { max_expansions = 1 })
    assert.is_nil(p)
    assert.are.equal("limit", code)
    assert.are.equal("search limit reached before (25, 15) was found", msg)
    local _
    p, _, code = m:find(5, 15, 25, 15, { max_cost = 5 })
    assert.is_nil(p)
    assert.are.equal("limit", code)
    assert.is_true(near(20, assert(m:find(5, 15, 25, 15, { max_cost = 25 })):cost()))
  end)

  it("lengths beyond a float's range (3.4e38) search as small ones", function()
    -- the open heap breaks ties of f by g kept as a float: such g must not overflow it
    local t = DIAMOND()
    for i = 1, #t.vertices do t.vertices[i] = t.vertices[i] * 1e40 end
    local m = build(t)
    local p = assert(m:find(5e40, 15e40, 25e40, 15e40))
    assert.is_true(math.abs(p:cost() - 20e40) <= 1e-9 * 20e40)
    p = assert(m:find(5e40, 5e40, 25e40, 25e40))
    assert.is_true(math.abs(p:cost() - 2 * math.sqrt(2) * 10e40) <= 1e-9 * 30e40)
  end)

  describe("radius", function()
    it("start or goal closer than the radius to a wall: 'blocked'", function()
      local m = build(CORRIDOR())
      local p, msg, code = m:find(0.5, 2, 20, 5, { radius = 1 })
      assert.is_nil(p)
      assert.are.equal("blocked", code)
      assert.are.equal("start (0.5, 2) is closer than the radius to a wall", msg)
      p, msg, code = m:find(2, 5, 21.5, 8, { radius = 1 })
      assert.is_nil(p)
      assert.are.equal("blocked", code)
      assert.are.equal("goal (21.5, 8) is closer than the radius to a wall", msg)
      -- in the corridor: 1 from both of its walls
      local _
      _, _, code = m:find(11, 5, 20, 5, { radius = 1.01 })
      assert.are.equal("blocked", code)
      -- radius 0 is no radius
      assert.is_not_nil(m:find(0.5, 2, 20, 5, { radius = 0 }))
    end)

    it("a corridor narrower than 2r: 'no_path'", function()
      local m = build(CORRIDOR())
      for _, r in ipairs({ 1.01, 1.5, 3 }) do
        local p, msg, code = m:find(4, 5, 18, 5, { radius = r })
        assert.is_nil(p)
        assert.are.equal("no_path", code)
        assert.are.equal("no path from (4, 5) to (18, 5)", msg)
      end
      -- and wide enough for less: straight along its middle
      local p = assert(m:find(4, 5, 18, 5, { radius = 0.99 }))
      assert.is_true(near(14, p:cost()))
    end)

    it("a path with a radius keeps at least r from every wall", function()
      local t = CORRIDOR()
      local m, M = build(t), model(t)
      for _, c in ipairs({ { 2, 2, 20, 2, 0.7 }, { 2, 8, 20, 8, 0.7 }, { 2, 5, 20, 8, 0.9 },
        { 2, 5, 20, 2, 0.5 }, { 20, 8, 2, 5, 0.95 }, { 2, 2, 20, 8, 0.5 } }) do
        local sx, sy, gx, gy, r = unpack(c)
        local p = assert(m:find(sx, sy, gx, gy, { radius = r }))
        local pts = check_path(m, M, p, sx, sy, gx, gy)
        local cl = M:path_clearance(pts)
        assert.is_true(cl >= r - 1e-9, ("radius %g: the path comes %.17g from a wall: %s"):format(
          r, cl, fmt_pts(pts)))
        -- it is no shorter than the straight line and within a few percent of it here
        local straight = sqrt((gx - sx) ^ 2 + (gy - sy) ^ 2)
        assert.is_true(p:cost() >= straight - 1e-9)
        assert.is_true(near(polyline_length(pts), p:cost()))
      end
      -- the L's inner corner: a path with radius passes it at distance r
      t = LSHAPE()
      m, M = build(t), model(t)
      local p = assert(m:find(2, 5, 15, 18, { radius = 1 }))
      local pts = check_path(m, M, p, 2, 5, 15, 18)
      assert.is_true(M:path_clearance(pts) >= 1 - 1e-9, fmt_pts(pts))
      assert.is_true(p:cost() > 2 * sqrt(89))
    end)

    -- The length of the shortest way from a to b (both d from c) around the disc of radius r
    -- at c, when a, c, b are collinear: two tangents and the arc between them.
    local function around(d, r)
      return 2 * sqrt(d * d - r * r) + r * (math.pi - 2 * math.acos(r / d))
    end

    it("around one corner: no shorter than tangents and arc, and close to it", function()
      local t = LSHAPE()
      local m, M = build(t), model(t)
      for _, r in ipairs({ 1, 3, 4.5 }) do
        for _, c in ipairs({ { 15, 15, 5, 5 }, { 5, 5, 15, 15 } }) do
          local sx, sy, gx, gy = unpack(c)
          local p = assert(m:find(sx, sy, gx, gy, { radius = r }))
          local pts = check_path(m, M, p, sx, sy, gx, gy)
          assert.is_true(M:path_clearance(pts) >= r - 1e-9, fmt_pts(pts))
          local want = around(sqrt(50), r)
          assert.is_true(p:cost() >= want - 1e-9 and p:cost() <= want * 1.01,
            ("radius %g: %.17g, tangents and arc %.17g"):format(r, p:cost(), want))
        end
      end
    end)

    -- BUG: a wall corner that is a collinear vertex of a polygon (here (1, 1) on the top side of
    -- the rectangle [0, 2] x [0, 1]) cannot be passed with any radius in one direction:
    --   local m = astar.navmesh{vertices = {0,0, 2,0, 2,1, 1,1, 0,1, 2,2, 1,2},
    --     polygons = {{1,2,3,4,5}, {4,3,6,7}}}
    --   m:find(0.5, 0.5, 1.5, 1.5, {radius = 0.1})  --> a path, cost 1.4286
    --   m:find(1.5, 1.5, 0.5, 0.5, {radius = 0.1})
    --     --> nil, "no path from ... to (0.5, 0.5)", "no_path"
    -- With the rectangle split into two squares at (1, 0) both directions are found. from_grid
    -- makes such meshes all the time (see the next test).
    it("around a corner that is a collinear vertex of a polygon, both ways", function()
      local t = { vertices = { 0, 0, 2, 0, 2, 1, 1, 1, 0, 1, 2, 2, 1, 2 },
        polygons = { { 1, 2, 3, 4, 5 }, { 4, 3, 6, 7 } } }
      local m, M = build(t), model(t)
      for _, r in ipairs({ 0.1, 0.3, 0.45 }) do
        for _, c in ipairs({ { 0.5, 0.5, 1.5, 1.5 }, { 1.5, 1.5, 0.5, 0.5 } }) do
          local sx, sy, gx, gy = unpack(c)
          local p, msg = m:find(sx, sy, gx, gy, { radius = r })
          assert.is_not_nil(p, ("(%g, %g) -> (%g, %g) radius %g: %s"):format(sx, sy, gx, gy, r,
            tostring(msg)))
          local pts = check_path(m, M, p, sx, sy, gx, gy)
          assert.is_true(M:path_clearance(pts) >= r - 1e-9, fmt_pts(pts))
          local want = around(sqrt(0.5), r)
          assert.is_true(p:cost() >= want - 1e-9 and p:cost() <= want * 1.01,
            ("radius %g: %.17g, tangents and arc %.17g"):format(r, p:cost(), want))
        end
      end
    end)

    -- On a from_grid mesh of unit cells, the polyline through the centres of 4-connected cells
    -- keeps 0.5 from every wall: with a radius below 0.5 a path exists exactly when the cells
    -- are 4-connected, and it must keep r from the walls. (Fails today: see the bug above.)
    it("from_grid meshes, radius 0.3: found exactly between 4-connected cells", function()
      local rng = H.rng(5)
      local wrong = {}
      for _ = 1, 25 do
        local w, h = rng.int(3, 9), rng.int(3, 9)
        local cells = H.random_cells(rng, w, h, 0.25)
        local walls = {}
        local function wk(x, y) return x >= 1 and x <= w and y >= 1 and y <= h and cells[y][x] end
        for cy = 1, h do
          for cx = 1, w do
            if wk(cx, cy) then
              if not wk(cx - 1, cy) then walls[#walls + 1] = { cx - 1, cy - 1, cx - 1, cy } end
              if not wk(cx + 1, cy) then walls[#walls + 1] = { cx, cy - 1, cx, cy } end
              if not wk(cx, cy - 1) then walls[#walls + 1] = { cx - 1, cy - 1, cx, cy - 1 } end
              if not wk(cx, cy + 1) then walls[#walls + 1] = { cx - 1, cy, cx, cy } end
            end
          end
        end
        local ok, m = pcall(astar.navmesh.from_grid, astar.grid.from_table(cells))
        for _ = 1, ok and 6 or 0 do
          local sx, sy, gx, gy = rng.int(1, w), rng.int(1, h), rng.int(1, w), rng.int(1, h)
          if cells[sy][sx] and cells[gy][gx] then
            local p, msg = m:find(sx - 0.5, sy - 0.5, gx - 0.5, gy - 0.5, { radius = 0.3 })
            local reach = H.bfs(cells, w, h, sx, sy, gx, gy, "never") ~= nil
            if reach ~= (p ~= nil) and #wrong < 3 then
              wrong[#wrong + 1] = ("(%g, %g) -> (%g, %g): %s\n%s"):format(sx - 0.5, sy - 0.5,
                gx - 0.5, gy - 0.5, p and "found, the cells are not connected" or msg,
                H.fmt_cells(cells, w, h))
            end
            if p then
              local pts = path_pts(p)
              local cl = INF
              for i = 2, #pts do
                for _, s in ipairs(walls) do
                  cl = min(cl, segseg_dist(pts[i - 1][1], pts[i - 1][2], pts[i][1], pts[i][2],
                    s[1], s[2], s[3], s[4]))
                end
              end
              assert.is_true(cl >= 0.3 - 1e-9, ("%.17g from a wall: %s\n%s"):format(cl,
                fmt_pts(pts), H.fmt_cells(cells, w, h)))
            end
          end
        end
      end
      assert.are.equal(0, #wrong, table.concat(wrong, "\n"))
    end)

    -- An S bend: the way passes one mouth of the corridor on its bottom side and the other on
    -- its top side.
    local function s_bends(t)
      local m, M = build(t), model(t)
      for _, c in ipairs({ { 2, 2, 20, 8 }, { 2, 8, 20, 2 }, { 20, 8, 2, 2 }, { 5, 2, 17, 8 } }) do
        local sx, sy, gx, gy = unpack(c)
        for _, r in ipairs({ 0.7, 0.9 }) do
          local p, msg = m:find(sx, sy, gx, gy, { radius = r })
          assert.is_not_nil(p, ("(%g, %g) -> (%g, %g) radius %g: %s"):format(sx, sy, gx, gy, r,
            tostring(msg)))
          local pts = check_path(m, M, p, sx, sy, gx, gy)
          assert.is_true(M:path_clearance(pts) >= r - 1e-9, fmt_pts(pts))
          assert.is_true(p:cost() > sqrt((gx - sx) ^ 2 + (gy - sy) ^ 2))
        end
      end
    end

    it("an S bend through a corridor wide enough for the radius (rooms in bands)", function()
      s_bends(CORRIDOR_BANDS())
    end)

    -- BUG (the same as above, it seems: the corridor's mouths are collinear vertices of the
    -- rooms): through a corridor wide enough for the radius, an S bend is not found:
    --   local m = astar.navmesh{vertices = {0,0, 10,0, 10,4, 10,6, 10,10, 0,10, 12,4, 12,6,
    --     12,0, 22,0, 22,10, 12,10}, polygons = {{1,2,3,4,5,6}, {3,7,8,4}, {9,10,11,12,8,7}}}
    --   m:find(2, 2, 20, 8, {radius = 0.7})  --> nil, "no path from (2, 2) to (20, 8)"
    -- while (2, 2) -> (20, 2) and (2, 5) -> (20, 8) with radius 0.99 are found (corridor 2 wide),
    -- and the same rooms cut into bands (previous test) give the S bend.
    it("an S bend through a corridor wide enough for the radius (rooms with collinear vertices)",
      function()
        s_bends(CORRIDOR())
      end)
  end)
end)

---------------------------------------------------------------------------------------------------

describe("navmesh cost callback", function()
  it("is called with polygon indices; next is nil only in the goal's polygon", function()
    local t = DIAMOND()
    local m = build(t)
    local calls, bad = 0, nil
    local gpoly = m:locate(25, 15)
    local p = assert(m:find(5, 15, 25, 15, { cost = function(poly, nxt, base)
      calls = calls + 1
      if not (H.is_int(poly) and poly >= 1 and poly <= 9) then
        bad = bad or "poly " .. tostring(poly)
      end
      if type(base) ~= "number" or not (base >= 0 and base < INF) then
        bad = bad or "base " .. tostring(base)
      end
      if nxt == nil then
        if poly ~= gpoly then bad = bad or "next nil in polygon " .. poly end
      else
        local ok = false
        for _, q in ipairs(m:neighbours(poly)) do if q == nxt then ok = true end end
        if not ok then bad = bad or ("next %s does not border %d"):format(tostring(nxt), poly) end
      end
      return base
    end }))
    assert.is_nil(bad)
    assert.is_true(calls > 0)
    -- returning base changes nothing
    assert.is_true(near(20, p:cost()))
    assert.are.same(assert(m:find(5, 15, 25, 15)):corridor(), p:corridor())
  end)

  it("false or nil forbids a polygon: the path avoids it, or there is no path", function()
    local t = DIAMOND()
    local m, M = build(t), model(t)
    for _, no in ipairs({ false, "nil" }) do
      local v = no
      if no == "nil" then v = nil end
      local p = assert(m:find(5, 15, 25, 15, { cost = function(poly, _, base)
        if poly == 9 then return v end
        return base
      end }))
      check_path(m, M, p, 5, 15, 25, 15)
      assert.is_true(near(DIAMOND_AROUND, p:cost()))
      for _, q in ipairs(p:corridor()) do assert.are_not.equal(9, q) end
    end
    -- forbidding the goal's polygon leaves nothing
    local gpoly = m:locate(25, 15)
    local p, msg, code = m:find(5, 15, 25, 15, { cost = function(poly, _, base)
      if poly == gpoly then return false end
      return base
    end })
    assert.is_nil(p)
    assert.are.equal("no_path", code)
    assert.are.equal("no path from (5, 15) to (25, 15)", msg)
  end)

  it("a bigger number changes the route; the path's cost is the callback's sum", function()
    local m = build(DIAMOND())
    -- a little dearer: still through, at 20 + 10 * 0.05
    local p = assert(m:find(5, 15, 25, 15, { cost = function(poly, _, base)
      if poly == 9 then return base * 1.05 end
      return base
    end }))
    assert.is_true(near(20.5, p:cost()), p:cost())
    -- three times dearer: around
    p = assert(m:find(5, 15, 25, 15, { cost = function(poly, _, base)
      if poly == 9 then return base * 3 end
      return base
    end }))
    assert.is_true(near(DIAMOND_AROUND, p:cost()), p:cost())
    for _, q in ipairs(p:corridor()) do assert.are_not.equal(9, q) end
    -- the mesh's own costs are untouched
    assert.are.equal(1, m:cost(9))
    assert.is_true(near(20, assert(m:find(5, 15, 25, 15)):cost()))
  end)

  it("a callable table is accepted", function()
    local m = build(DIAMOND())
    local cb = setmetatable({}, { __call = function(_, _, _, base) return base end })
    assert.is_true(near(20, assert(m:find(5, 15, 25, 15, { cost = cb })):cost()))
  end)

  it("errors pass through unchanged and the mesh is usable after", function()
    local m = build(DIAMOND())
    local sentinel = {}
    H.checkerr_value(sentinel, m.find, m, 5, 15, 25, 15, { cost = function() error(sentinel) end })
    assert.is_true(near(20, assert(m:find(5, 15, 25, 15)):cost()))
    H.checkerr("oops", m.find, m, 5, 15, 25, 15, { cost = function() error("oops", 0) end })
    assert.is_true(near(20, assert(m:find(5, 15, 25, 15)):cost()))
    local ok, err = pcall(m.find, m, 5, 15, 25, 15, { cost = function()
      local x = nil
      return x.y
    end })
    assert.is_false(ok)
    assert.is_truthy(tostring(err):find("attempt to index", 1, true), err)
    assert.is_true(near(20, assert(m:find(5, 15, 25, 15)):cost()))
    -- callbacks still work after the errors
    assert.is_true(near(20, assert(m:find(5, 15, 25, 15, { cost = function(_, _, b) return b end }))
      :cost()))
  end)

  it("bad results raise a clear error", function()
    local m = build(DIAMOND())
    local spoly = m:locate(5, 15)
    for _, c in ipairs({ { NAN, "nan" }, { -1, "-1" }, { -INF, "-inf" }, { INF, "inf" },
      { "1", "string" }, { true, "boolean" }, { {}, "table" } }) do
      local v, shown = c[1], c[2]
      H.checkerr("cost callback returned " .. shown .. " for polygon " .. spoly .. " (expected a "
        .. "non-negative finite number, or false or nil to forbid it)",
        m.find, m, 5, 15, 25, 15, { cost = function() return v end })
      assert.is_true(near(20, assert(m:find(5, 15, 25, 15)):cost()))
    end
  end)

  it("may not search, edit or close its own mesh; another mesh is fine", function()
    local m = build(DIAMOND())
    local other = build(TWO())
    local function try(f)
      return pcall(m.find, m, 5, 15, 25, 15, { cost = function(_, _, base)
        f()
        return base
      end })
    end
    local ok, err = try(function() return m:find(5, 15, 6, 15) end)
    assert.is_false(ok)
    assert.are.equal("cannot search: a search on this navmesh is already running", err)
    ok, err = try(function() m:set_cost(1, 2) end)
    assert.is_false(ok)
    assert.are.equal("cannot edit the navmesh: a search on this navmesh is running", err)
    ok, err = try(function() m:set_flags(1, 2) end)
    assert.is_false(ok)
    assert.are.equal("cannot edit the navmesh: a search on this navmesh is running", err)
    ok, err = try(function() m:close() end)
    assert.is_false(ok)
    assert.are.equal("cannot close the navmesh: a search on it is running", err)
    -- nothing changed, and the mesh works
    assert.are.equal(1, m:cost(1))
    assert.are.equal(1, m:flags(1))
    assert.is_true(near(20, assert(m:find(5, 15, 25, 15)):cost()))
    -- queries that change nothing, and other meshes, are allowed
    local seen
    ok = try(function()
      seen = { m:locate(5, 15), m:clearance(5, 15), other:find(1, 5, 19, 5):cost() }
    end)
    assert.is_true(ok)
    assert.are.same({ 7, 5, 18 }, seen)
  end)

  it("may not yield; the mesh stays usable", function()
    local m = build(DIAMOND())
    for _, how in ipairs({ "wrap", "resume" }) do
      local f = function()
        return m:find(5, 15, 25, 15, { cost = function(_, _, base)
          coroutine.yield("yielded")
          return base
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
      assert.is_true(near(20, assert(m:find(5, 15, 25, 15)):cost()))
    end
    -- a search inside a coroutine is fine when nothing yields
    local co = coroutine.wrap(function()
      return m:find(5, 15, 25, 15, { cost = function(_, _, base) return base end })
    end)
    assert.is_true(near(20, assert(co()):cost()))
  end)
end)

---------------------------------------------------------------------------------------------------

describe("navmesh bad arguments", function()
  local m, REF

  local function still_ok()
    local p = assert(m:find(5, 15, 25, 15))
    assert.is_true(near(20, p:cost()))
    for i = 1, 9 do
      assert.are.equal(1, m:cost(i))
      assert.are.equal(1, m:flags(i))
    end
    assert.are.same(REF, m:polygons())
  end

  local function E(msg, f, ...)
    H.checkerr(msg, f, ...)
    still_ok()
  end

  before_each(function()
    if not m then
      m = build(DIAMOND())
      REF = m:polygons()
    end
  end)

  local BADNUM = { { nil, "nil" }, { "1", "string" }, { {}, "table" }, { true, "boolean" } }
  local NONFINITE = { { NAN, "nan" }, { INF, "inf" }, { -INF, "-inf" } }

  it("find: coordinates", function()
    for i = 1, 4 do
      for _, b in ipairs(BADNUM) do
        local args = { 5, 15, 25, 15 }
        args[i] = b[1]
        E(("bad argument #%d to 'find' (number expected, got %s)"):format(i, b[2]),
          m.find, m, args[1], args[2], args[3], args[4])
      end
      for _, b in ipairs(NONFINITE) do
        local args = { 5, 15, 25, 15 }
        args[i] = b[1]
        E(("bad argument #%d to 'find' (finite number expected, got %s)"):format(i, b[2]),
          m.find, m, args[1], args[2], args[3], args[4])
      end
    end
    E("bad argument #4 to 'find' (number expected, got no value)", m.find, m, 5, 15, 25)
  end)

  it("find: options", function()
    local function O(detail, opts)
      E("bad argument #5 to 'find' (" .. detail .. ")", m.find, m, 5, 15, 25, 15, opts)
    end
    O("table expected, got string", "radius")
    O("table expected, got number", 1)
    O("unknown option 'bogus'", { bogus = 1 })
    O("unknown option 'within'", { within = 1 })
    O("unknown option 'goals'", { goals = {} })
    O("option names must be strings, got number", { 1 })
    O("option 'partial': boolean expected, got number", { partial = 1 })
    for _, b in ipairs({ { -1, "-1" }, { NAN, "nan" }, { INF, "inf" }, { -INF, "-inf" } }) do
      O("option 'radius': must be a non-negative finite number, got " .. b[2], { radius = b[1] })
    end
    O("option 'radius': number expected, got string", { radius = "1" })
    for _, k in ipairs({ "include", "exclude" }) do
      for _, b in ipairs({ { -1, "-1" }, { 1.5, "1.5" }, { 2 ^ 32, "4294967296" },
        { NAN, "nan" }, { INF, "inf" } }) do
        O(("option '%s': flags must be an integer in [0, 2^32 - 1], got %s"):format(k, b[2]),
          { [k] = b[1] })
      end
      O(("option '%s': number expected, got string"):format(k), { [k] = "1" })
    end
    O("option 'algorithm': invalid value 'fast'", { algorithm = "fast" })
    O("option 'algorithm': string expected, got number", { algorithm = 1 })
    O("option 'heuristic': invalid value 'manhattan'", { heuristic = "manhattan" })
    O("option 'heuristic': invalid value 'octile'", { heuristic = "octile" })
    O("option 'weight': must be a finite number >= 1, got 0.5", { weight = 0.5 })
    O("option 'weight': must be a finite number >= 1, got nan", { weight = NAN })
    O("option 'max_expansions': must be an integer in [0, 2^53], got -1", { max_expansions = -1 })
    O("option 'max_cost': must be a non-negative number, got -1", { max_cost = -1 })
    O("option 'cost': function expected, got number", { cost = 5 })
    O("option 'cost': function expected, got string", { cost = "base" })
  end)

  it("self that is not a navmesh", function()
    for _, name in ipairs({ "find", "locate", "nearest", "clearance", "raycast", "set_cost", "cost",
      "set_flags", "flags", "polygons", "polygon", "vertices", "neighbours", "stats", "close" }) do
      E(("calling '%s' on bad self (astar.NavMesh expected, got nil)"):format(name), m[name], nil)
      E(("calling '%s' on bad self (astar.NavMesh expected, got table)"):format(name), m[name], {})
      local g = astar.grid(2, 2)
      E(("calling '%s' on bad self (astar.NavMesh expected, got userdata)"):format(name), m[name],
        g)
    end
  end)

  it("locate, nearest, clearance: coordinates", function()
    for _, name in ipairs({ "locate", "nearest", "clearance" }) do
      for i = 1, 2 do
        for _, b in ipairs(BADNUM) do
          local args = { 5, 15 }
          args[i] = b[1]
          E(("bad argument #%d to '%s' (number expected, got %s)"):format(i, name, b[2]),
            m[name], m, args[1], args[2])
        end
        for _, b in ipairs(NONFINITE) do
          local args = { 5, 15 }
          args[i] = b[1]
          E(("bad argument #%d to '%s' (finite number expected, got %s)"):format(i, name, b[2]),
            m[name], m, args[1], args[2])
        end
      end
      E(("bad argument #2 to '%s' (number expected, got no value)"):format(name), m[name], m, 5)
    end
  end)

  it("raycast: coordinates and options", function()
    for i = 1, 4 do
      for _, b in ipairs(BADNUM) do
        local args = { 5, 15, 25, 15 }
        args[i] = b[1]
        E(("bad argument #%d to 'raycast' (number expected, got %s)"):format(i, b[2]),
          m.raycast, m, args[1], args[2], args[3], args[4])
      end
      for _, b in ipairs(NONFINITE) do
        local args = { 5, 15, 25, 15 }
        args[i] = b[1]
        E(("bad argument #%d to 'raycast' (finite number expected, got %s)"):format(i, b[2]),
          m.raycast, m, args[1], args[2], args[3], args[4])
      end
    end
    local function O(detail, opts)
      E("bad argument #5 to 'raycast' (" .. detail .. ")", m.raycast, m, 5, 15, 25, 15, opts)
    end
    O("table expected, got string", "x")
    O("unknown option 'radius'", { radius = 1 })
    O("unknown option 'cost'", { cost = function() end })
    O("option 'include': flags must be an integer in [0, 2^32 - 1], got -1", { include = -1 })
    O("option 'exclude': flags must be an integer in [0, 2^32 - 1], got 0.5", { exclude = 0.5 })
    O("option 'exclude': number expected, got boolean", { exclude = true })
    -- a key that is not a string is refused too
    H.checkerr_prefix("bad argument #5 to 'raycast' (", m.raycast, m, 5, 15, 25, 15, { 1 })
    still_ok()
  end)

  it("polygon indices of cost, flags, polygon, neighbours, set_cost, set_flags", function()
    local calls = {
      cost = function(p) return m:cost(p) end,
      flags = function(p) return m:flags(p) end,
      polygon = function(p) return m:polygon(p) end,
      neighbours = function(p) return m:neighbours(p) end,
      set_cost = function(p) return m:set_cost(p, 2) end,
      set_flags = function(p) return m:set_flags(p, 3) end,
    }
    for name, f in pairs(calls) do
      local pre = "bad argument #1 to '" .. name .. "' ("
      for _, b in ipairs({ 0, 10, -1, 2 ^ 31, 2 ^ 53 }) do
        E(pre .. ("polygon out of range: %s not in [1, 9])"):format(("%.0f"):format(b)), f, b)
      end
      for _, b in ipairs({ { 1.5, "1.5" }, { NAN, "nan" }, { INF, "inf" }, { -INF, "-inf" } }) do
        E(pre .. "integer expected, got " .. b[2] .. ")", f, b[1])
      end
      for _, b in ipairs(BADNUM) do
        E(pre .. "number expected, got " .. b[2] .. ")", f, b[1])
      end
    end
  end)

  it("set_cost: bad costs (0 points to set_flags)", function()
    local pre = "bad argument #2 to 'set_cost' (cost must be a positive finite number, got "
    local tail = " (close a polygon with set_flags(p, 0)))"
    for _, b in ipairs({ { 0, "0" }, { -1, "-1" }, { -0.5, "-0.5" }, { NAN, "nan" },
      { INF, "inf" }, { -INF, "-inf" } }) do
      E(pre .. b[2] .. tail, m.set_cost, m, 1, b[1])
    end
    local ok, msg = pcall(m.set_cost, m, 1, 0)
    assert.is_false(ok)
    assert.is_truthy(msg:find("set_flags", 1, true))
    for _, b in ipairs(BADNUM) do
      E("bad argument #2 to 'set_cost' (number expected, got " .. b[2] .. ")", m.set_cost, m, 1,
        b[1])
    end
  end)

  it("set_flags: bad flags", function()
    local pre = "bad argument #2 to 'set_flags' (flags must be an integer in [0, 2^32 - 1], got "
    for _, b in ipairs({ { -1, "-1" }, { 1.5, "1.5" }, { 2 ^ 32, "4294967296" }, { NAN, "nan" },
      { INF, "inf" }, { -INF, "-inf" }, { 2 ^ 53, "9007199254740992" } }) do
      E(pre .. b[2] .. ")", m.set_flags, m, 1, b[1])
    end
    for _, b in ipairs(BADNUM) do
      E("bad argument #2 to 'set_flags' (number expected, got " .. b[2] .. ")", m.set_flags, m, 1,
        b[1])
    end
    E("bad argument #2 to 'set_flags' (number expected, got nil)", m.set_flags, m, 1)
    -- the extremes are fine
    m:set_flags(1, 4294967295)
    assert.are.equal(4294967295, m:flags(1))
    m:set_flags(1, 0)
    assert.are.equal(0, m:flags(1))
    m:set_flags(1, 1)
    still_ok()
  end)

  it("from_grid and from_polygons", function()
    local g = astar.grid.from_table({ { 1, 1 }, { 1, false } })
    local pre = "bad argument #1 to 'from_grid' ("
    E(pre .. "astar.Grid expected, got no value)", astar.navmesh.from_grid)
    E(pre .. "astar.Grid expected, got nil)", astar.navmesh.from_grid, nil, {})
    E(pre .. "astar.Grid expected, got table)", astar.navmesh.from_grid, {})
    E(pre .. "astar.Grid expected, got userdata)", astar.navmesh.from_grid, m)
    pre = "bad argument #2 to 'from_grid' ("
    E(pre .. "table expected, got number)", astar.navmesh.from_grid, g, 2)
    E(pre .. "unknown option 'tyle')", astar.navmesh.from_grid, g, { tyle = 2 })
    for _, b in ipairs({ { 0, "0" }, { -1, "-1" }, { NAN, "nan" }, { INF, "inf" } }) do
      E(pre .. "option 'tile': must be a positive finite number, got " .. b[2] .. ")",
        astar.navmesh.from_grid, g, { tile = b[1] })
    end
    E(pre .. "option 'tile': number expected, got string)", astar.navmesh.from_grid, g,
      { tile = "2" })
    E("from_grid: the grid has no walkable cell", astar.navmesh.from_grid,
      astar.grid.from_table({ { false, false } }))
    local closed = astar.grid(2, 2)
    closed:close()
    E("attempt to use a closed grid", astar.navmesh.from_grid, closed)
    H.checkerr_prefix("bad argument #1 to 'from_polygons' (", astar.navmesh.from_polygons, "x")
    H.checkerr_prefix("bad argument #1 to 'from_polygons' (", astar.navmesh.from_polygons,
      { 0, 0, 1, 0 })
    still_ok()
  end)
end)

---------------------------------------------------------------------------------------------------
-- Queries against brute force.

-- Checks locate, nearest, clearance and raycast of `m` at random points against `ref`, an object
-- with :containing(x, y, eps), :distance(x, y), :clearance(x, y), :raycast(...), and
-- .polys[p] (for checking the returned polygon) - or `poly_of(m, p)` to get polygon p's points.
local function check_queries(m, ref, rng, n, box, opts)
  opts = opts or {}
  local x0, y0, x1, y1 = box[1], box[2], box[3], box[4]
  local mx, my = (x1 - x0) * 0.15 + 1, (y1 - y0) * 0.15 + 1
  local function rpt()
    return x0 - mx + (x1 - x0 + 2 * mx) * rng.float(), y0 - my + (y1 - y0 + 2 * my) * rng.float()
  end
  local seen = { inside = 0, outside = 0, through = 0, stopped = 0, off = 0 }
  local pcache = {}
  local function poly(p)
    pcache[p] = pcache[p] or flat_to_pts(m:polygon(p))
    return pcache[p]
  end
  for _ = 1, n do
    local x, y = rpt()
    local where = ("(%.17g, %.17g)"):format(x, y)
    -- locate
    local inside = #ref:containing(x, y, 0) > 0
    seen[inside and "inside" or "outside"] = seen[inside and "inside" or "outside"] + 1
    local p = m:locate(x, y)
    if inside then
      assert.is_not_nil(p, "locate" .. where .. " is nil, the point is on the mesh")
      assert.is_true(in_poly(poly(p), x, y, 1e-9), "locate" .. where .. " = " .. p)
    else
      assert.is_nil(p, "locate" .. where .. " found a polygon off the mesh")
    end
    -- nearest
    local nx, ny, np = m:nearest(x, y)
    assert.is_true(H.is_int(np) and np >= 1, "nearest" .. where .. ": polygon " .. tostring(np))
    assert.is_true(in_poly(poly(np), nx, ny, 1e-9), ("nearest%s = (%.17g, %.17g) not in its "
      .. "polygon %d"):format(where, nx, ny, np))
    local want = ref:distance(x, y)
    local got = sqrt((nx - x) ^ 2 + (ny - y) ^ 2)
    if want == 0 then
      assert.are.equal(x, nx, "nearest" .. where .. " moved a point on the mesh")
      assert.are.equal(y, ny, "nearest" .. where .. " moved a point on the mesh")
    else
      assert.is_true(abs(got - want) < 1e-9 * max(1, want),
        ("nearest%s is %.17g away, the mesh is %.17g away"):format(where, got, want))
    end
    -- clearance
    local c, cw = m:clearance(x, y), ref:clearance(x, y)
    assert.is_true(abs(c - cw) < 1e-9 * max(1, cw),
      ("clearance%s = %.17g, expected %.17g"):format(where, c, cw))
    -- raycast from here to another random point
    local tx, ty = rpt()
    if opts.ray_from_inside and not inside and rng.float() < 0.8 then
      x, y = ref.inside_point(rng)
    end
    local ray = ("raycast(%.17g, %.17g, %.17g, %.17g)"):format(x, y, tx, ty)
    local ok, hx, hy, hp = m:raycast(x, y, tx, ty)
    local wok, wx, wy, wlast = ref:raycast(x, y, tx, ty)
    if wok then
      seen.through = seen.through + 1
      assert.is_true(ok, ray .. " stopped at " .. tostring(hx) .. ", " .. tostring(hy))
    else
      seen[wlast == nil and "off" or "stopped"] = seen[wlast == nil and "off" or "stopped"] + 1
      assert.are.equal(false, ok, ray .. " went through")
      assert.is_true(abs(hx - wx) < 1e-7 and abs(hy - wy) < 1e-7,
        ("%s left at (%.17g, %.17g), expected (%.17g, %.17g)"):format(ray, hx, hy, wx, wy))
      if wlast == nil then
        assert.is_nil(hp, ray)
        assert.are.equal(x, hx)
        assert.are.equal(y, hy)
      else
        assert.is_not_nil(hp, ray)
        assert.is_true(wlast[hp] == true or (ref.last_ok and ref:last_ok(hp, wx, wy, x, y)),
          ray .. ": last polygon " .. tostring(hp))
      end
    end
  end
  -- every branch was taken
  for k, v in pairs(seen) do assert.is_true(v > 0, "no random case of kind " .. k) end
end

describe("navmesh queries against brute force", function()
  it("hand-made meshes: locate, nearest, clearance, raycast", function()
    local rng = H.rng(77)
    for _, T in ipairs({ TWO, LSHAPE, DIAMOND, CORRIDOR, CORRIDOR_BANDS, ISLANDS }) do
      local t = T()
      local m, M = build(t), model(t)
      M.inside_point = function(r)
        for _ = 1, 1000 do
          local x = M.box[1] + (M.box[3] - M.box[1]) * r.float()
          local y = M.box[2] + (M.box[4] - M.box[2]) * r.float()
          if #M:containing(x, y, 0) > 0 then return x, y end
        end
        error("no inside point")
      end
      check_queries(m, M, rng, 250, M.box, { ray_from_inside = true })
    end
  end)

  it("raycast: exact exits, staying inside, starting outside, flags", function()
    local t = DIAMOND()
    t.flags = { 1, 1, 1, 1, 1, 1, 1, 1, 2 }
    local m = build(t)
    -- leaves through the right wall at x = 30
    local ok, hx, hy, hp = m:raycast(5, 14, 35, 14)
    assert.are.same({ false, 30, 14, 3 }, { ok, hx, hy, hp })
    -- leaves through the bottom: the ray (5, 5) -> (25, -5) crosses y = 0 at x = 15
    ok, hx, hy, hp = m:raycast(5, 5, 25, -5)
    assert.is_false(ok)
    assert.is_true(near(15, hx) and abs(hy) < 1e-12, hx .. " " .. hy)
    assert.are.equal(1, hp)
    -- inside all the way (across the diamond: flags 2 are allowed by default)
    assert.are.same({ true }, { m:raycast(5, 14, 25, 14) })
    assert.are.same({ true }, { m:raycast(1, 1, 29, 29) })
    assert.are.same({ true }, { m:raycast(5, 14, 5, 14) })
    -- excluded water: stops where it enters the diamond, on the edge W-S (x + y = 25)
    ok, hx, hy, hp = m:raycast(5, 14, 25, 14, { exclude = 2 })
    assert.is_false(ok)
    assert.is_true(near(11, hx) and near(14, hy), hx .. " " .. hy)
    assert.are.equal(8, hp)
    assert.are.same({ true }, { m:raycast(5, 14, 25, 14, { include = 3 }) })
    ok, hx, hy, hp = m:raycast(5, 14, 25, 14, { include = 1 })
    assert.is_false(ok)
    assert.is_true(near(11, hx) and near(14, hy))
    assert.are.equal(8, hp)
    -- from outside, or from an excluded polygon: false, the start, nil
    assert.are.same({ n = 4, false, -5, 14, nil }, pack(m:raycast(-5, 14, 5, 14)))
    assert.are.same({ n = 4, false, 15, 15, nil }, pack(m:raycast(15, 15, 25, 14, { exclude = 2 })))
    assert.are.same({ n = 1, true }, pack(m:raycast(15, 15, 25, 14)))
    -- the L: (2, 5) -> (15, 18) leaves the first square through its top wall at (7, 10);
    -- (2, 5) -> (15, 8) is in sight; (15, 18) -> (2, 5) leaves the third square at (10, 13)
    local L = build(LSHAPE())
    ok, hx, hy, hp = L:raycast(2, 5, 15, 18)
    assert.is_false(ok)
    assert.is_true(near(7, hx) and near(10, hy), hx .. " " .. hy)
    assert.are.equal(1, hp)
    assert.are.same({ true }, { L:raycast(2, 5, 15, 8) })
    ok, hx, hy, hp = L:raycast(15, 18, 2, 5)
    assert.is_false(ok)
    assert.is_true(near(10, hx) and near(13, hy), hx .. " " .. hy)
    assert.are.equal(3, hp)
  end)

  -- A reference for from_grid meshes, from the cells alone.
  local function grid_ref(cells, w, h, tile)
    local R = { walls = {} }
    local function walkable(cx, cy)
      return cx >= 1 and cx <= w and cy >= 1 and cy <= h and cells[cy][cx] ~= false
    end
    for cy = 1, h do
      for cx = 1, w do
        if walkable(cx, cy) then
          local xa, ya, xb, yb = (cx - 1) * tile, (cy - 1) * tile, cx * tile, cy * tile
          if not walkable(cx - 1, cy) then R.walls[#R.walls + 1] = { xa, ya, xa, yb } end
          if not walkable(cx + 1, cy) then R.walls[#R.walls + 1] = { xb, ya, xb, yb } end
          if not walkable(cx, cy - 1) then R.walls[#R.walls + 1] = { xa, ya, xb, ya } end
          if not walkable(cx, cy + 1) then R.walls[#R.walls + 1] = { xa, yb, xb, yb } end
        end
      end
    end
    local function cell_of(x, y) return floor(x / tile) + 1, floor(y / tile) + 1 end
    function R.containing(_, x, y)
      local cx, cy = cell_of(x, y)
      return walkable(cx, cy) and { cells[cy][cx] } or {}
    end
    function R.clearance(_, x, y)
      local best = INF
      for _, s in ipairs(R.walls) do best = min(best, seg_dist(x, y, s[1], s[2], s[3], s[4])) end
      return best
    end
    function R.distance(self, x, y)
      if #self:containing(x, y) > 0 then return 0 end
      return self:clearance(x, y)
    end
    function R.raycast(_, ax, ay, bx, by)
      local sx, sy = cell_of(ax, ay)
      if not walkable(sx, sy) then return false, ax, ay, nil end
      local ts = { 0, 1 }
      local function lines(a, b)
        if a == b then return end
        local lo, hi = min(a, b), max(a, b)
        for k = floor(lo / tile), floor(hi / tile) + 1 do
          local t = (k * tile - a) / (b - a)
          if t > 0 and t < 1 then ts[#ts + 1] = t end
        end
      end
      lines(ax, bx)
      lines(ay, by)
      table.sort(ts)
      for k = 2, #ts do
        local tm = (ts[k - 1] + ts[k]) / 2
        local cx, cy = cell_of(ax + tm * (bx - ax), ay + tm * (by - ay))
        if not walkable(cx, cy) then
          local t = ts[k - 1]
          local pm = (ts[k - 2] and (ts[k - 2] + t) / 2) or t / 2
          return false, ax + t * (bx - ax), ay + t * (by - ay),
            { mid = { ax + pm * (bx - ax), ay + pm * (by - ay) } }
        end
      end
      return true
    end
    R.inside_point = function(r)
      for _ = 1, 1000 do
        local x, y = w * tile * r.float(), h * tile * r.float()
        local cx, cy = cell_of(x, y)
        if walkable(cx, cy) then return x, y end
      end
      error("no walkable cell")
    end
    return R
  end

  it("from_grid meshes: locate, nearest, clearance, raycast, costs", function()
    local rng = H.rng(4242)
    for _, case in ipairs({ { 12, 9, 1 }, { 10, 10, 0.5 }, { 7, 11, 3 } }) do
      local w, h, tile = case[1], case[2], case[3]
      local cells = H.random_cells(rng, w, h, 0.3, { 1, 1, 2 })
      cells[1][1] = 1
      local g = astar.grid.from_table(cells)
      local m = astar.navmesh.from_grid(g, tile ~= 1 and { tile = tile } or nil)
      local R = grid_ref(cells, w, h, tile)
      -- the last polygon of a ray holds the middle of the ray's last walkable piece
      local mesh_polys = {}
      function R.last_ok(_, hp)
        mesh_polys[hp] = mesh_polys[hp] or flat_to_pts(m:polygon(hp))
        return R.last_mid and in_poly(mesh_polys[hp], R.last_mid[1], R.last_mid[2], 1e-9)
      end
      local raycast = R.raycast
      function R.raycast(self, ...)
        local ok, x, y, last = raycast(self, ...)
        R.last_mid = last and last.mid
        if last then last = {} end
        return ok, x, y, last
      end
      check_queries(m, R, rng, 150, { 0, 0, w * tile, h * tile }, { ray_from_inside = true })
      -- the polygons cover the walkable cells exactly, each with its cells' cost
      local area, walk = 0, 0
      for p = 1, #m:polygons() do
        local pts = flat_to_pts(m:polygon(p))
        area = area + area2(pts) / 2
        local cx, cy = 0, 0
        for _, q in ipairs(pts) do cx, cy = cx + q[1] / #pts, cy + q[2] / #pts end
        local cell = R:containing(cx, cy)
        assert.are.equal(cell[1], m:cost(p), "polygon " .. p .. " cost")
        assert.are.equal(1, m:flags(p))
      end
      for y = 1, h do for x = 1, w do if cells[y][x] then walk = walk + 1 end end end
      assert.is_true(near(walk * tile * tile, area), ("area %.17g, %d cells"):format(area, walk))
      -- cell centres are located in a polygon holding them
      for y = 1, h do
        for x = 1, w do
          local p = m:locate((x - 0.5) * tile, (y - 0.5) * tile)
          if cells[y][x] then
            assert.is_not_nil(p)
            assert.are.equal(cells[y][x], m:cost(p))
          else
            assert.is_nil(p)
          end
        end
      end
    end
  end)

  it("from_grid: random paths stay on walkable cells, cost their length, beat 8-way", function()
    local rng = H.rng(99)
    local found, none = 0, 0
    for _ = 1, 12 do
      local w, h = rng.int(6, 14), rng.int(6, 14)
      local cells = H.random_cells(rng, w, h, 0.3)
      local m = astar.navmesh.from_grid(astar.grid.from_table(cells))
      local function walkable(x, y)
        local cx, cy = floor(x) + 1, floor(y) + 1
        return cx >= 1 and cx <= w and cy >= 1 and cy <= h and cells[cy][cx] ~= false
      end
      -- a piece is on the mesh when its midpoint is in a walkable cell; on a grid line, in one
      -- of the two cells beside it
      local function on_mesh(x, y)
        if walkable(x, y) then return true end
        local e = 1e-9
        return walkable(x + e, y) or walkable(x - e, y) or walkable(x, y + e) or walkable(x, y - e)
      end
      for _ = 1, 8 do
        local sx, sy, gx, gy = rng.int(1, w), rng.int(1, h), rng.int(1, w), rng.int(1, h)
        if cells[sy][sx] and cells[gy][gx] then
          local p, msg, code = m:find(sx - 0.5, sy - 0.5, gx - 0.5, gy - 0.5)
          local steps = H.bfs(cells, w, h, sx, sy, gx, gy, "never")
          if steps == nil then
            none = none + 1
            assert.is_nil(p)
            assert.are.equal("no_path", code, msg)
          else
            found = found + 1
            assert.is_not_nil(p, ("(%g, %g) -> (%g, %g): %s\n%s"):format(sx - 0.5, sy - 0.5,
              gx - 0.5, gy - 0.5, tostring(msg), H.fmt_cells(cells, w, h)))
            local pts = path_pts(p)
            assert.are.same({ sx - 0.5, sy - 0.5 }, pts[1])
            assert.are.same({ gx - 0.5, gy - 0.5 }, pts[#pts])
            for i = 2, #pts do
              local ax, ay, bx, by = pts[i - 1][1], pts[i - 1][2], pts[i][1], pts[i][2]
              for k = 1, 64 do
                local t = (k - 0.5) / 64
                assert.is_true(on_mesh(ax + t * (bx - ax), ay + t * (by - ay)),
                  "the path leaves the walkable cells: " .. fmt_pts(pts))
              end
            end
            local len = polyline_length(pts)
            assert.is_true(near(len, p:cost()), ("cost %.17g, length %.17g"):format(p:cost(), len))
            assert.is_true(len >= sqrt((gx - sx) ^ 2 + (gy - sy) ^ 2) - 1e-9)
            -- the 8-neighbour grid path (no corner cutting) between the same centres is a
            -- polyline on the mesh too
            local oct = H.dijkstra(cells, w, h, sx, sy, gx, gy, "no_corner_cutting")
            assert.is_true(len <= oct + 1e-9, ("navmesh %.17g, grid %.17g: %s\n%s"):format(len, oct,
              fmt_pts(pts), H.fmt_cells(cells, w, h)))
          end
        end
      end
    end
    assert.is_true(found > 10 and none > 0, ("found %d, none %d"):format(found, none))
  end)

  it("from_grid: a path around a wall of cells, by hand", function()
    -- a 5 x 3 grid with a wall in the middle column open only at the top (y = 3)
    local cells = { { 1, 1, false, 1, 1 }, { 1, 1, false, 1, 1 }, { 1, 1, 1, 1, 1 } }
    local g = astar.grid.from_table(cells)
    for _, tile in ipairs({ 1, 2 }) do
      local m = astar.navmesh.from_grid(g, { tile = tile })
      local p = assert(m:find(0.5 * tile, 0.5 * tile, 4.5 * tile, 0.5 * tile))
      -- bends at the wall's top corners (2, 2) and (3, 2), times tile
      local pts = path_pts(p)
      assert.are.equal(4, #pts, fmt_pts(pts))
      assert.is_true(near(2 * tile, pts[2][1]) and near(2 * tile, pts[2][2]), fmt_pts(pts))
      assert.is_true(near(3 * tile, pts[3][1]) and near(2 * tile, pts[3][2]), fmt_pts(pts))
      local want = tile * (2 * sqrt(1.5 ^ 2 + 1.5 ^ 2) + 1)
      assert.is_true(near(want, p:cost()), ("%.17g vs %.17g"):format(p:cost(), want))
      assert.is_nil(m:locate(2.5 * tile, 0.5 * tile))
    end
  end)

  it("from_polygons: a square room with a square pillar", function()
    local m = astar.navmesh.from_polygons({ 0, 0, 10, 0, 10, 10, 0, 10 },
      { { 4, 4, 6, 4, 6, 6, 4, 6 } })
    assert.is_nil(m:locate(5, 5))
    assert.is_not_nil(m:locate(1, 1))
    local area = 0
    for p = 1, #m:polygons() do area = area + area2(flat_to_pts(m:polygon(p))) / 2 end
    assert.is_true(near(96, area))
    -- around the pillar: (1, 5) -> (4, 6) -> (6, 6) -> (9, 5) or by the bottom corners
    local p = assert(m:find(1, 5, 9, 5))
    assert.is_true(near(2 + 2 * sqrt(10), p:cost()), p:cost())
    assert.is_true(near(1, m:clearance(1, 5)))
    assert.is_true(near(1, m:clearance(5, 3)))
  end)
end)

---------------------------------------------------------------------------------------------------

describe("navmesh paths and lifetime", function()
  it("#path, get, points, flat, table, corridor, stats, tostring", function()
    local m = build(LSHAPE())
    local p = assert(m:find(2, 5, 15, 18))
    local want = { { 2, 5 }, { 10, 10 }, { 15, 18 } }
    assert.are.equal(3, #p)
    local n = 0
    for i, x, y in p:points() do
      n = n + 1
      assert.are.equal(n, i)
      assert.are.equal("number", type(x))
      assert.are.equal("number", type(y))
      assert.is_true(near(want[i][1], x, 1e-12) and near(want[i][2], y, 1e-12))
      local gx, gy = p:get(i)
      assert.are.equal(x, gx)
      assert.are.equal(y, gy)
    end
    assert.are.equal(3, n)
    local lx, ly = p:get(-1)
    assert.are.same({ 15, 18 }, { lx, ly })
    local flat = p:flat()
    assert.are.equal(6, #flat)
    local tab = p:table()
    assert.are.equal(3, #tab)
    for i = 1, 3 do
      assert.are.equal(flat[2 * i - 1], tab[i].x)
      assert.are.equal(flat[2 * i], tab[i].y)
      local x, y = p:get(i)
      assert.are.same({ x, y }, { tab[i].x, tab[i].y })
    end
    local c1 = p:corridor()
    assert.are.same({ 1, 2, 3 }, c1)
    c1[1], c1[4] = 99, 7
    local c2 = p:corridor()
    assert.are.same({ 1, 2, 3 }, c2)
    assert.are_not.equal(c1, c2)
    local st = p:stats()
    assert.is_true(H.is_int(st.expanded) and st.expanded > 0)
    assert.is_true(H.is_int(st.generated) and st.generated >= st.expanded)
    assert.are.equal("astar", st.algorithm)
    assert.is_truthy(tostring(p):find("^astar%.Path %(3 points, cost 18%.8"), tostring(p))
    H.checkerr_prefix("bad argument #1 to 'get' (index out of range", p.get, p, 4)
    -- the path keeps its data after the mesh is closed and collected
    m:close()
    m = nil -- luacheck: ignore
    collectgarbage()
    collectgarbage()
    assert.are.same({ 1, 2, 3 }, p:corridor())
    assert.are.same(flat, p:flat())
    -- other paths have no corridor
    local gp = assert(astar.grid(3, 3):find(1, 1, 3, 3))
    H.checkerr("corridor: only navmesh paths have one", gp.corridor, gp)
  end)

  it("close: later use raises, closing twice is fine, __tostring", function()
    local m = build(DIAMOND())
    assert.are.equal("astar.NavMesh (9 polygons, 8 vertices)", tostring(m))
    local p = assert(m:find(5, 15, 25, 15))
    m:close()
    assert.are.equal("astar.NavMesh (closed)", tostring(m))
    local calls = {
      find = { 5, 15, 25, 15 }, locate = { 5, 15 }, nearest = { 5, 15 }, clearance = { 5, 15 },
      raycast = { 5, 15, 25, 15 }, set_cost = { 1, 2 }, cost = { 1 }, set_flags = { 1, 2 },
      flags = { 1 }, polygons = {}, polygon = { 1 }, vertices = {}, neighbours = { 1 }, stats = {},
    }
    for name, args in pairs(calls) do
      H.checkerr("attempt to use a closed navmesh", m[name], m, unpack(args))
    end
    m:close()
    m:close()
    assert.are.equal("astar.NavMesh (closed)", tostring(m))
    assert.is_true(near(20, p:cost()))
    -- a dropped mesh is collected without trouble, closed or not
    build(TWO())
    local c = build(TWO())
    c:close()
    c = nil -- luacheck: ignore
    collectgarbage()
    collectgarbage()
  end)

  it("meshes are independent", function()
    local a, b = build(TWO()), build(TWO())
    a:set_cost(2, 3)
    a:set_flags(1, 4)
    assert.are.equal(1, b:cost(2))
    assert.are.equal(1, b:flags(1))
    assert.is_true(near(18, assert(b:find(1, 5, 19, 5)):cost()))
    assert.is_true(near(9 + 27, assert(a:find(1, 5, 19, 5)):cost()))
  end)
end)
