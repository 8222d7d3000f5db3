-- astar.navmesh (pure Lua): triangulate, convex_partition and from_polygons on seeded random
-- polygons with holes and on hand-made edge cases. Random kinds: star-shaped outlines with star
-- holes; staircases and polyominoes on the integer grid (collinear points, equal coordinates,
-- bridges along grid lines); nearly collinear points with nearly touching holes. Checked against
-- independent references: areas (shoelace), orientation, Euler's triangle count, every edge
-- either an input boundary edge or shared with one neighbour in the opposite direction,
-- convexity, and Hertel-Mehlhorn's "every remaining diagonal is needed". Then every input
-- error, with its exact message. NAVMESH_CASES=n sets the number of random cases of each kind;
-- NAVMESH_TIMES=1 prints the timings. Needs no C core.

local N = require "astar.navmesh"
local H = require "spec.helper"

local NAN, INF = 0 / 0, math.huge
local pi, cos, sin, sqrt, abs = math.pi, math.cos, math.sin, math.sqrt, math.abs
local CASES = tonumber(os.getenv("NAVMESH_CASES")) or 150

---------------------------------------------------------------------------------------------------
-- Independent geometry.

local function orient(ax, ay, bx, by, cx, cy)
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
end

-- Points of a flat list, consecutive repeats (and a closing repeat) dropped.
local function points(flat)
  local xs, ys = {}, {}
  for i = 1, #flat, 2 do
    local x, y = flat[i] + 0.0, flat[i + 1] + 0.0
    local n = #xs
    if n == 0 or xs[n] ~= x or ys[n] ~= y then xs[n + 1], ys[n + 1] = x, y end
  end
  while #xs > 1 and xs[#xs] == xs[1] and ys[#ys] == ys[1] do xs[#xs], ys[#ys] = nil, nil end
  return xs, ys
end

local function ring_area(xs, ys) -- signed, shoelace (around the first point: fewer roundings)
  local a, n, x0, y0 = 0, #xs, xs[1], ys[1]
  for i = 1, n do
    local j = i % n + 1
    a = a + (xs[i] - x0) * (ys[j] - y0) - (xs[j] - x0) * (ys[i] - y0)
  end
  return a / 2
end

local function key(x, y) return ("%.17g %.17g"):format(x, y) end

local function vxy(verts, i) return verts[2 * i - 1], verts[2 * i] end

local function poly_area(verts, poly)
  local xs, ys = {}, {}
  for i, v in ipairs(poly) do xs[i], ys[i] = vxy(verts, v) end
  return ring_area(xs, ys)
end

-- Directed boundary edges with the walkable area on their left: the outline counter-clockwise,
-- the holes clockwise. Returns the set and the number of distinct points.
local function boundary(outline, holes)
  local set, npts = {}, 0
  local rings = { outline }
  for _, h in ipairs(holes or {}) do rings[#rings + 1] = h end
  for r, flat in ipairs(rings) do
    local xs, ys = points(flat)
    local n = #xs
    npts = npts + n
    local ccw = ring_area(xs, ys) > 0
    for i = 1, n do
      local j = i % n + 1
      local a, b = key(xs[i], ys[i]), key(xs[j], ys[j])
      if (r == 1) ~= ccw then a, b = b, a end
      set[a .. "|" .. b] = 0
    end
  end
  return set, npts
end

local function expected_area(outline, holes)
  local a = abs(ring_area(points(outline)))
  for _, h in ipairs(holes or {}) do a = a - abs(ring_area(points(h))) end
  return a
end

-- Polygons (lists of vertex indices) tile the area: each directed edge is a boundary edge, met
-- once, or meets its reverse exactly once; every boundary edge is covered.
local function check_edges(verts, polys, outline, holes, what)
  local bnd = boundary(outline, holes)
  local count = {}
  for _, p in ipairs(polys) do
    local n = #p
    for i = 1, n do
      local k = key(vxy(verts, p[i])) .. "|" .. key(vxy(verts, p[i % n + 1]))
      count[k] = (count[k] or 0) + 1
    end
  end
  for k, c in pairs(count) do
    assert(c == 1, what .. ": edge " .. k .. " used " .. c .. " times")
    local a, b = k:match("^(.-)|(.*)$")
    if bnd[k] then
      bnd[k] = 1
      assert(not count[b .. "|" .. a], what .. ": boundary edge " .. k .. " used both ways")
    else
      assert(count[b .. "|" .. a] == 1, what .. ": edge " .. k .. " is neither a boundary "
        .. "edge nor shared with a neighbour")
    end
  end
  for k, c in pairs(bnd) do assert(c == 1, what .. ": boundary edge " .. k .. " not covered") end
end

local function check_triangles(outline, holes, verts, tris, what)
  local _, npts = boundary(outline, holes)
  assert(#verts == 2 * npts, what .. ": " .. #verts / 2 .. " vertices for " .. npts .. " points")
  -- no new points, no lost points: Euler's formula for a triangulated polygon with holes
  assert(#tris == npts + 2 * #(holes or {}) - 2,
    what .. ": " .. #tris .. " triangles for " .. npts .. " points")
  local total, used = 0, {}
  for t, tri in ipairs(tris) do
    assert(#tri == 3, what .. ": triangle " .. t .. " has " .. #tri .. " corners")
    local ax, ay = vxy(verts, tri[1])
    local bx, by = vxy(verts, tri[2])
    local cx, cy = vxy(verts, tri[3])
    local o = orient(ax, ay, bx, by, cx, cy)
    assert(o > 0, what .. ": triangle " .. t .. " is not counter-clockwise (" .. o .. ")")
    total = total + o / 2
    for i = 1, 3 do used[tri[i]] = true end
  end
  for i = 1, npts do assert(used[i], what .. ": vertex " .. i .. " unused") end
  local want = expected_area(outline, holes)
  assert(H.close(total, want, 1e-9), what .. ": triangle area " .. total .. ", expected " .. want)
  check_edges(verts, tris, outline, holes, what .. " (triangles)")
end

-- The documented merge rule: a corner may be exactly straight or clearly convex (a cross
-- product above 1e-12 of the products it is the difference of).
local function turn_convex(verts, p, v, q)
  local px, py = vxy(verts, p)
  local vx, vy = vxy(verts, v)
  local qx, qy = vxy(verts, q)
  local a, b = (vx - px) * (qy - py), (vy - py) * (qx - px)
  return a == b or a - b > 1e-12 * (abs(a) + abs(b))
end

local function check_polygons(outline, holes, verts, polys, ntris, what)
  assert(#polys >= 1 and #polys <= ntris, what .. ": " .. #polys .. " polygons")
  local total = 0
  local at = {} -- directed edge -> polygon, position
  for p, poly in ipairs(polys) do
    local n = #poly
    assert(n >= 3, what .. ": polygon " .. p .. " has " .. n .. " vertices")
    local seen = {}
    for i = 1, n do
      assert(not seen[poly[i]], what .. ": polygon " .. p .. " repeats vertex " .. poly[i])
      seen[poly[i]] = true
      local ax, ay = vxy(verts, poly[(i - 2) % n + 1])
      local bx, by = vxy(verts, poly[i])
      local cx, cy = vxy(verts, poly[i % n + 1])
      assert(orient(ax, ay, bx, by, cx, cy) >= 0,
        what .. ": polygon " .. p .. " turns right at vertex " .. poly[i])
      at[poly[i] .. ">" .. poly[i % n + 1]] = { p, i }
    end
    local a = poly_area(verts, poly)
    assert(a > 0, what .. ": polygon " .. p .. " has area " .. a)
    total = total + a
  end
  local want = expected_area(outline, holes)
  assert(H.close(total, want, 1e-9), what .. ": polygon area " .. total .. ", expected " .. want)
  check_edges(verts, polys, outline, holes, what .. " (polygons)")
  -- Hertel-Mehlhorn: dropping any remaining diagonal would leave a reflex corner
  for k, pi1 in pairs(at) do
    local a, b = k:match("^(%d+)>(%d+)$")
    a, b = tonumber(a), tonumber(b)
    local pi2 = at[b .. ">" .. a]
    if pi2 and a < b then
      local P, i = polys[pi1[1]], pi1[2]
      local Q, j = polys[pi2[1]], pi2[2]
      local np, nq = #P, #Q
      local pa, nb = P[(i - 2) % np + 1], P[(i + 1) % np + 1]
      local pb, na = Q[(j - 2) % nq + 1], Q[(j + 1) % nq + 1]
      assert(not (turn_convex(verts, pa, a, na) and turn_convex(verts, pb, b, nb)),
        what .. ": polygons " .. pi1[1] .. " and " .. pi2[1] .. " could be merged")
    end
  end
end

-- Triangulates and partitions, checking both; returns the triangles and the polygons.
local function run(outline, holes, what)
  local verts, tris = N.triangulate(outline, holes)
  check_triangles(outline, holes, verts, tris, what)
  local polys = N.convex_partition(verts, tris)
  check_polygons(outline, holes, verts, polys, #tris, what)
  local mesh = N.from_polygons(outline, holes)
  assert.are.same(verts, mesh.vertices)
  assert.are.same(polys, mesh.polygons)
  return tris, polys, verts
end

---------------------------------------------------------------------------------------------------
-- Random inputs.

local function reversed(flat)
  local out = {}
  for i = #flat - 1, 1, -2 do
    out[#out + 1], out[#out + 2] = flat[i], flat[i + 1]
  end
  return out
end

-- A star-shaped polygon around (cx, cy): k points at increasing angles, radii in [r1, r2].
local function star(rng, cx, cy, k, r1, r2)
  local flat = {}
  local step = 2 * pi / k
  local a0 = rng.float() * step
  for i = 0, k - 1 do
    local a = a0 + (i + 0.1 + 0.8 * rng.float()) * step
    local r = r1 + (r2 - r1) * rng.float()
    flat[#flat + 1], flat[#flat + 2] = cx + r * cos(a), cy + r * sin(a)
  end
  return flat
end

-- The radius of the largest disc around (cx, cy) inside the ring.
local function inner_radius(flat, cx, cy)
  local xs, ys = points(flat)
  local best = math.huge
  for i = 1, #xs do
    local j = i % #xs + 1
    local ax, ay, bx, by = xs[i], ys[i], xs[j], ys[j]
    local dx, dy = bx - ax, by - ay
    local t = ((cx - ax) * dx + (cy - ay) * dy) / (dx * dx + dy * dy)
    t = t < 0 and 0 or (t > 1 and 1 or t)
    local ex, ey = ax + t * dx - cx, ay + t * dy - cy
    best = math.min(best, sqrt(ex * ex + ey * ey))
  end
  return best
end

-- A star outline of 4..60 points (the centre inside) and up to 10 small star holes (3..9
-- points), each ring in a random orientation.
local function random_star_case(rng)
  local k = rng.int(4, 60)
  local outline = star(rng, 0, 0, k, rng.int(30, 95), 100)
  local rin = inner_radius(outline, 0, 0)
  local holes, discs = {}, {}
  for _ = 1, rng.int(0, 10) do
    local rh = 1 + 9 * rng.float()
    local d = (rin - rh - 0.5) * sqrt(rng.float())
    if d > 0 then
      local a = 2 * pi * rng.float()
      local cx, cy = d * cos(a), d * sin(a)
      local ok = true
      for _, c in ipairs(discs) do
        local dx, dy = cx - c[1], cy - c[2]
        if sqrt(dx * dx + dy * dy) < rh + c[3] + 0.5 then ok = false end
      end
      if ok then
        discs[#discs + 1] = { cx, cy, rh }
        local h = star(rng, cx, cy, rng.int(3, 9), rh * (0.3 + 0.6 * rng.float()), rh)
        holes[#holes + 1] = rng.float() < 0.5 and reversed(h) or h
      end
    end
  end
  if rng.float() < 0.5 then outline = reversed(outline) end
  return outline, holes
end

-- A staircase on the integer grid: floor y = 0 from x = 0 to w (through every integer x), then
-- columns of random heights 6..12 from right to left, with up to 8 holes (axis-aligned squares
-- and diamonds with integer corners, lined up on the same rows and columns) below y = 5.
local function random_grid_case(rng)
  local w = rng.int(2, 24)
  local outline = {}
  for x = 0, w do outline[#outline + 1], outline[#outline + 2] = x, 0 end
  local prev
  for x = w, 1, -1 do
    local hgt = rng.int(6, 12)
    if x == w then
      outline[#outline + 1], outline[#outline + 2] = x, hgt
    elseif hgt ~= prev then
      outline[#outline + 1], outline[#outline + 2] = x, prev
      outline[#outline + 1], outline[#outline + 2] = x, hgt
    end
    outline[#outline + 1], outline[#outline + 2] = x - 1, hgt
    prev = hgt
  end
  local holes, used = {}, {}
  for _ = 1, rng.int(0, 8) do
    local x, y = rng.int(1, w - 1), 2 * rng.int(0, 1) + 1
    if w >= 3 and x + 1 < w and not used[x] and not used[x - 1] and not used[x + 1] then
      used[x] = true
      local h
      if rng.float() < 0.5 then
        h = { x, y, x + 1, y, x + 1, y + 1, x, y + 1 } -- unit square
      else
        h = { x, y + 1, x + 0.5, y, x + 1, y + 1, x + 0.5, y + 2 } -- diamond
      end
      holes[#holes + 1] = rng.float() < 0.5 and reversed(h) or h
    end
  end
  return outline, holes
end

-- The boundary of a random polyomino on a w x w grid: cells grown at random from the centre,
-- then some cells with all 8 neighbours filled removed (unit holes), so blobs also enclose
-- larger holes. Boundaries run along the grid through every lattice point (or, half the time,
-- only through the corners). Returns nil when two rings meet at a corner (not a valid input).
local function random_polyomino_case(rng)
  local w = rng.int(3, 14)
  local cells, list = {}, {}
  local function add(x, y)
    cells[y * w + x] = true
    list[#list + 1] = { x, y }
  end
  local function filled(x, y)
    return x >= 0 and x < w and y >= 0 and y < w and cells[y * w + x] or false
  end
  add(math.floor(w / 2), math.floor(w / 2))
  local DIRS = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } }
  local target = rng.int(1, math.floor(w * w * 0.7))
  while #list < target do
    local c, d = list[rng.int(1, #list)], DIRS[rng.int(1, 4)]
    local x, y = c[1] + d[1], c[2] + d[2]
    if x >= 0 and x < w and y >= 0 and y < w and not filled(x, y) then add(x, y) end
  end
  for _ = 1, rng.int(0, 6) do
    local c = list[rng.int(1, #list)]
    local x, y = c[1], c[2]
    local all = true
    for dy = -1, 1 do
      for dx = -1, 1 do
        if not filled(x + dx, y + dy) then all = false end
      end
    end
    if all then cells[y * w + x] = nil end
  end
  -- directed unit edges with the cell on their left
  local nxt, starts = {}, {}
  local function edge(x1, y1, x2, y2)
    local k = x1 .. "," .. y1
    if nxt[k] then nxt[k] = false else nxt[k] = { x2, y2 } end
    starts[#starts + 1] = { x1, y1 }
  end
  for y = 0, w - 1 do
    for x = 0, w - 1 do
      if filled(x, y) then
        if not filled(x, y - 1) then edge(x, y, x + 1, y) end
        if not filled(x + 1, y) then edge(x + 1, y, x + 1, y + 1) end
        if not filled(x, y + 1) then edge(x + 1, y + 1, x, y + 1) end
        if not filled(x - 1, y) then edge(x, y + 1, x, y) end
      end
    end
  end
  for _, v in pairs(nxt) do
    if v == false then return nil end -- rings meet at a corner
  end
  local corners_only = rng.float() < 0.5
  local outline, holes, done = nil, {}, {}
  for _, st in ipairs(starts) do
    local k0 = st[1] .. "," .. st[2]
    if not done[k0] then
      local xs, ys = {}, {}
      local x, y = st[1], st[2]
      repeat
        done[x .. "," .. y] = true
        xs[#xs + 1], ys[#ys + 1] = x, y
        local to = nxt[x .. "," .. y]
        x, y = to[1], to[2]
      until x == st[1] and y == st[2]
      local flat, n = {}, #xs
      for i = 1, n do
        local a, b = (i - 2) % n + 1, i % n + 1
        local straight = (xs[a] - xs[i]) * (ys[b] - ys[i]) == (ys[a] - ys[i]) * (xs[b] - xs[i])
        if not (corners_only and straight) then
          flat[#flat + 1], flat[#flat + 2] = xs[i], ys[i]
        end
      end
      if rng.float() < 0.5 then flat = reversed(flat) end
      if ring_area(xs, ys) > 0 then
        assert(not outline, "two outer rings")
        outline = flat
      else
        holes[#holes + 1] = flat
      end
    end
  end
  return outline, holes
end

-- A star of 4..8 corners with 0..6 more points spread along each side (computed, so only nearly
-- collinear), and up to 6 holes in a row near the centre, gaps between them as small as 1e-6
-- (the core's resolution is 1e-9 of the mesh's size, here 2e-7).
local function random_near_case(rng)
  local k = rng.int(4, 8)
  local base = star(rng, 0, 0, k, 50, 100)
  local outline = {}
  for i = 1, k do
    local ax, ay = base[2 * i - 1], base[2 * i]
    local bx, by = base[(2 * i) % (2 * k) + 1], base[(2 * i) % (2 * k) + 2]
    local m = rng.int(1, 7)
    for t = 0, m - 1 do
      local f = t / m
      outline[#outline + 1], outline[#outline + 2] = ax + f * (bx - ax), ay + f * (by - ay)
    end
  end
  local holes = {}
  local gap = ({ 1e-6, 1e-5, 1e-3, 0.1 })[rng.int(1, 4)]
  local x = -10
  for _ = 1, rng.int(0, 6) do
    local w, y = 0.5 + rng.float(), -2 + rng.float()
    if rng.float() < 0.5 then
      holes[#holes + 1] = { x, y, x + w, y + 0.3 * rng.float(), x + w, y + 2, x, y + 2 }
    else
      holes[#holes + 1] = { x, y, x + w, y + 1, x, y + 2 }
    end
    x = x + w + gap
  end
  return outline, holes
end

---------------------------------------------------------------------------------------------------

describe("navmesh builder", function()
  describe("random star-shaped polygons with holes", function()
    it("triangulates and partitions " .. CASES .. " cases", function()
      local rng = H.rng(4242)
      for c = 1, CASES do
        local outline, holes = random_star_case(rng)
        run(outline, holes, ("star case %d (%d points, %d holes)"):format(c, #outline / 2, #holes))
      end
    end)
  end)

  describe("random staircases on the integer grid", function()
    it("triangulates and partitions " .. CASES .. " cases", function()
      local rng = H.rng(777)
      for c = 1, CASES do
        local outline, holes = random_grid_case(rng)
        run(outline, holes, ("grid case %d (%d points, %d holes)"):format(c, #outline / 2, #holes))
      end
    end)
  end)

  describe("random polyominoes with holes", function()
    it("triangulates and partitions " .. CASES .. " cases", function()
      local rng = H.rng(31337)
      local c, tried = 0, 0
      while c < CASES do
        tried = tried + 1
        local outline, holes = random_polyomino_case(rng)
        if outline then
          c = c + 1
          run(outline, holes, ("polyomino case %d, try %d (%d points, %d holes)")
            :format(c, tried, #outline / 2, #holes))
        end
      end
    end)
  end)

  describe("random nearly collinear points, nearly touching holes", function()
    it("triangulates and partitions " .. CASES .. " cases", function()
      local rng = H.rng(99)
      for c = 1, CASES do
        local outline, holes = random_near_case(rng)
        run(outline, holes, ("near case %d (%d points, %d holes)"):format(c, #outline / 2, #holes))
      end
    end)
  end)

  describe("edge cases", function()
    it("a square: two triangles, one polygon", function()
      local sq = { 0, 0, 10, 0, 10, 10, 0, 10 }
      local tris, polys = run(sq, nil, "square")
      assert.are.equal(2, #tris)
      assert.are.equal(1, #polys)
      assert.are.equal(4, #polys[1])
      -- clockwise input, closing repeat and repeated points make the same mesh
      run({ 0, 0, 0, 0, 0, 10, 10, 10, 10, 10, 10, 0, 0, 0 }, {}, "square, clockwise, repeats")
    end)

    it("a triangle", function()
      local tris, polys = run({ 0, 0, 1, 0, 0, 1 }, nil, "triangle")
      assert.are.equal(1, #tris)
      assert.are.equal(1, #polys)
    end)

    it("a concave comb", function()
      local teeth = 12
      local comb = { 0, 0, 2 * teeth - 1, 0 }
      for t = teeth, 1, -1 do
        local x = 2 * (t - 1)
        comb[#comb + 1], comb[#comb + 2] = x + 1, 10
        comb[#comb + 1], comb[#comb + 2] = x, 10
        if t > 1 then
          comb[#comb + 1], comb[#comb + 2] = x, 2
          comb[#comb + 1], comb[#comb + 2] = x - 1, 2
        end
      end
      local _, polys = run(comb, nil, "comb")
      -- the teeth and the gaps between them need at least one piece per tooth
      assert.is_true(#polys >= teeth and #polys <= 4 * (teeth + 1))
    end)

    it("collinear points: a convex polygon stays one piece", function()
      local rect = {}
      for x = 0, 9 do rect[#rect + 1], rect[#rect + 2] = x, 0 end
      for y = 0, 4 do rect[#rect + 1], rect[#rect + 2] = 10, y end
      for x = 10, 1, -1 do rect[#rect + 1], rect[#rect + 2] = x, 5 end
      for y = 5, 1, -1 do rect[#rect + 1], rect[#rect + 2] = 0, y end
      local _, polys = run(rect, nil, "rectangle with collinear points")
      assert.are.equal(1, #polys)
      assert.are.equal(30, #polys[1])
      -- and collinear points on a hole and around a concave corner
      run({ 0, 0, 5, 0, 10, 0, 10, 5, 10, 10, 5, 10, 5, 5, 0, 5 },
        { { 1, 1, 2, 1, 3, 1, 3, 2, 3, 3, 2, 3, 1, 3, 1, 2 } }, "L with collinear points")
    end)

    it("holes lined up with each other and with outline vertices", function()
      local holes = {}
      for i = 0, 5 do
        local x = 2 + 3 * i
        holes[#holes + 1] = { x, 4, x + 1, 4, x + 1, 6, x, 6 }
      end
      run({ 0, 0, 20, 0, 20, 4, 20, 5, 20, 6, 20, 10, 0, 10 }, holes, "holes in a row")
      local col = {}
      for i = 0, 5 do col[#col + 1] = { 4, 1 + 3 * i, 5, 1 + 3 * i, 5, 2 + 3 * i, 4, 2 + 3 * i } end
      run({ 0, 0, 5, 0, 10, 0, 10, 20, 5, 20, 0, 20 }, col, "holes in a column")
      -- rightmost vertices of two holes on one vertical line
      run({ 0, 0, 10, 0, 10, 10, 0, 10 },
        { { 2, 2, 4, 3, 2, 4 }, { 2, 6, 4, 7, 2, 8 }, { 6, 2, 8, 5, 6, 8 } }, "equal right ends")
    end)

    it("a hole very close to the outline", function()
      local e = 1e-7
      run({ 0, 0, 10, 0, 10, 10, 0, 10 }, { { 10 - 2, 4, 10 - e, 5, 10 - 2, 6 } }, "near the right")
      run({ 0, 0, 10, 0, 10, 10, 0, 10 }, { { 4, e, 6, e, 5, 2 } }, "near the bottom")
      run({ 0, 0, 10, 0, 5, 5 }, { { 5, 5 - 1e-6, 5.1, 4.5, 4.9, 4.5 } }, "near a corner")
    end)

    it("holes apart by just over the core's resolution (1e-9 of the size)", function()
      for _, g in ipairs({ 1.01e-9, 1.5e-9, 1.9e-9, 4e-9 }) do
        local x = 0.5
        run({ 0, 0, 1, 0, 1, 1, 0, 1 }, {
          { 0.2, 0.2, x, 0.2, x, 0.8, 0.2, 0.8 },
          { x + g, 0.3, 0.8, 0.3, 0.8, 0.7, x + g, 0.7 },
          { 0.1, 0.85, 0.9, 0.85, 0.9, 0.9 - g, 0.1, 0.85 + g },
          { 0.85, 0.3, 1 - g, 0.5, 0.85, 0.7 },
        }, "gap " .. g)
      end
    end)

    it("a concave hole in a concave outline", function()
      local outline = { 0, 0, 20, 0, 20, 20, 12, 20, 12, 8, 8, 8, 8, 20, 0, 20 }
      local hole = { 2, 2, 6, 2, 6, 6, 4, 3, 2, 6 }
      run(outline, { hole, { 14, 2, 18, 2, 16, 6 }, { 14, 10, 18, 10, 18, 18, 14, 18, 16, 14 } },
        "U with holes")
    end)

    it("20 holes in a big square", function()
      local holes = {}
      for i = 0, 4 do
        for j = 0, 3 do
          local x, y = 10 + 20 * i, 10 + 25 * j
          holes[#holes + 1] = { x, y, x + 6, y + 1, x + 5, y + 7, x + 3, y + 3, x, y + 6 }
        end
      end
      local tris, polys = run({ 0, 0, 100, 0, 100, 100, 0, 100 }, holes, "20 holes")
      assert.are.equal(4 + 20 * 5 + 2 * 20 - 2, #tris)
      assert.is_true(#polys < #tris)
    end)

    it("a 500-point star in under a second", function()
      local rng = H.rng(500)
      local outline = star(rng, 0, 0, 500, 20, 100)
      local t0 = os.clock()
      local mesh = N.from_polygons(outline)
      local dt = os.clock() - t0
      assert.is_true(dt < 1, ("500-point star took %.3f s"):format(dt))
      assert.is_true(#mesh.polygons >= 1)
      local _, polys = run(outline, nil, "500-point star")
      assert.are.same(polys, mesh.polygons)
      if os.getenv("NAVMESH_TIMES") then
        io.stderr:write(("\n  500-point star: %.3f s, %d polygons\n"):format(dt, #polys))
      end
    end)

    it("a 400-point star with 40 holes", function()
      local rng = H.rng(401)
      local outline = star(rng, 0, 0, 400, 90, 100)
      local holes = {}
      for i = 0, 39 do
        local a, r = 2 * pi * i / 40, 40 + 20 * (i % 2)
        holes[#holes + 1] = star(rng, r * cos(a), r * sin(a), 8, 2, 4)
      end
      local t0 = os.clock()
      N.from_polygons(outline, holes)
      local dt = os.clock() - t0
      if os.getenv("NAVMESH_TIMES") then
        io.stderr:write(("\n  400-point star, 40 holes: %.3f s\n"):format(dt))
      end
      run(outline, holes, "400-point star with 40 holes")
    end)

    it("large and small coordinates", function()
      local G = 1e9
      run({ G, G, G + 3, G, G + 3, G + 2, G + 1, G + 1, G, G + 2 }, nil, "far away")
      run({ 0, 0, 3e-9, 0, 3e-9, 2e-9, 1e-9, 1e-9, 0, 2e-9 }, nil, "tiny")
      local B, S = 2 ^ 40, 2 ^ 39
      local T = S + 2 ^ 20
      run({ 0, 0, B, 0, B, B, 0, B }, { { S, S, T, S, T, T } }, "integers")
    end)
  end)

  describe("convex_partition", function()
    it("takes triangles in either orientation", function()
      local verts = { 0, 0, 1, 0, 1, 1, 0, 1 }
      local polys = N.convex_partition(verts, { { 1, 3, 2 }, { 1, 3, 4 } })
      assert.are.equal(1, #polys)
      assert.are.equal(4, #polys[1])
      assert.is_true(poly_area(verts, polys[1]) > 0)
    end)

    it("keeps needed diagonals", function()
      -- an arrowhead: the reflex vertex 4 keeps the two triangles apart
      local verts = { 0, 0, 4, 2, 0, 4, 1, 2 }
      local polys = N.convex_partition(verts, { { 1, 2, 4 }, { 4, 2, 3 } })
      assert.are.equal(2, #polys)
    end)
  end)

  describe("errors", function()
    local SQ = { 0, 0, 10, 0, 10, 10, 0, 10 }
    local function E(msg, ...)
      H.checkerr("bad argument #" .. msg .. ")", N.from_polygons, ...)
    end

    it("outline", function()
      E("1 to 'from_polygons' (outline: expected a list of at least 6 numbers, got string",
        "square")
      E("1 to 'from_polygons' (outline: expected a list of at least 6 numbers, got nil")
      E("1 to 'from_polygons' (outline: expected a list of at least 6 numbers, got 4",
        { 0, 0, 1, 0 })
      E("1 to 'from_polygons' (outline: expected an even number of coordinates, got 7",
        { 0, 0, 1, 0, 1, 1, 0 })
      E("1 to 'from_polygons' (outline: point 3: expected numbers, got string",
        { 0, 0, 1, 0, "1", 1 })
      E("1 to 'from_polygons' (outline: point 2: expected numbers, got boolean",
        { 0, 0, 1, false, 1, 1 })
      E("1 to 'from_polygons' (outline: point 3 is not finite", { 0, 0, 1, 0, NAN, 1 })
      E("1 to 'from_polygons' (outline: point 1 is not finite", { 0, -INF, 1, 0, 1, 1 })
      E("1 to 'from_polygons' (outline: point 4 is not finite", { 0, 0, 1, 0, 1, 1, INF, 0 })
      E("1 to 'from_polygons' (outline has fewer than 3 distinct points",
        { 0, 0, 0, 0, 1, 1, 1, 1, 0, 0 })
      E("1 to 'from_polygons' (outline has zero area", { 0, 0, 1, 0, 2, 0 })
      E("1 to 'from_polygons' (outline has zero area", { 0, 0, 1, 1, 2, 2, 1, 1 })
      E("1 to 'from_polygons' (outline crosses itself at edges 1 and 3", { 0, 0, 2, 2, 2, 0, 0, 2 })
      E("1 to 'from_polygons' (outline crosses itself at edges 3 and 6",
        { 0, 0, 10, 0, 10, 4, 2, 4, 2, 2, 4, 2, 4, 6, 0, 6 })
      -- point 5 lies on edge 1
      E("1 to 'from_polygons' (outline touches itself at edges 1 and 4",
        { 0, 0, 4, 0, 4, 4, 3, 4, 2, 0, 1, 4, 0, 4 })
      -- a point visited twice
      E("1 to 'from_polygons' (outline touches itself at edges 1 and 4",
        { 0, 0, 2, 2, 4, 0, 4, 4, 2, 2, 0, 4 })
      -- folding back along the previous edge
      E("1 to 'from_polygons' (outline overlaps itself at edges 2 and 3",
        { 0, 0, 4, 0, 4, 4, 4, 2, 0, 4 })
    end)

    it("holes", function()
      E("2 to 'from_polygons' (holes: expected a list of lists, got number", SQ, 3)
      E("2 to 'from_polygons' (hole 1: expected a list of at least 6 numbers, got string",
        SQ, { "x" })
      E("2 to 'from_polygons' (hole 2: point 3 is not finite",
        SQ, { { 1, 1, 2, 1, 2, 2 }, { 5, 5, 6, 5, NAN, 6 } })
      E("2 to 'from_polygons' (hole 1: point 1: expected numbers, got table",
        SQ, { { {}, 1, 2, 1, 2, 2 } })
      E("2 to 'from_polygons' (hole 1 has zero area", SQ, { { 1, 1, 2, 2, 3, 3 } })
      E("2 to 'from_polygons' (hole 1 crosses itself at edges 1 and 3",
        SQ, { { 1, 1, 3, 3, 3, 1, 1, 3 } })
      E("2 to 'from_polygons' (hole 1 crosses the outline", SQ, { { 8, 4, 12, 5, 8, 6 } })
      E("2 to 'from_polygons' (hole 2 touches the outline",
        SQ, { { 1, 1, 2, 1, 2, 2 }, { 8, 4, 10, 5, 8, 6 } })
      E("2 to 'from_polygons' (hole 1 touches the outline", SQ, { { 10, 0, 9, 1, 8, 0.5 } })
      E("2 to 'from_polygons' (hole 1 touches the outline", SQ, { { 10, 2, 10, 4, 9, 3 } })
      local OUT = "2 to 'from_polygons' (hole 1 is not inside the outline"
      E(OUT, SQ, { { 20, 20, 21, 20, 21, 21 } })
      -- in the notch of a U
      E(OUT, { 0, 0, 10, 0, 10, 10, 6, 10, 6, 2, 4, 2, 4, 10, 0, 10 }, { { 4.5, 5, 5.5, 5, 5, 6 } })
      -- around it
      E(OUT, SQ, { { -1, -1, 11, -1, 11, 11, -1, 11 } })
      E("2 to 'from_polygons' (hole 2 overlaps hole 3", SQ,
        { { 1, 1, 2, 1, 2, 2 }, { 4, 4, 6, 4, 6, 6 }, { 5, 5, 7, 5, 7, 7 } })
      E("2 to 'from_polygons' (hole 1 overlaps hole 2", SQ,
        { { 2, 2, 8, 2, 8, 8, 2, 8 }, { 4, 4, 5, 4, 5, 5 } })
      E("2 to 'from_polygons' (hole 1 overlaps hole 2", SQ,
        { { 4, 4, 5, 4, 5, 5 }, { 2, 2, 8, 2, 8, 8, 2, 8 } })
      E("2 to 'from_polygons' (hole 1 touches hole 2", SQ,
        { { 2, 2, 4, 2, 4, 4 }, { 4, 4, 6, 4, 6, 6 } })
      E("2 to 'from_polygons' (hole 1 touches hole 2", SQ,
        { { 2, 2, 4, 2, 4, 4, 2, 4 }, { 4, 3, 6, 3, 6, 5, 4, 5 } })
      -- closer than 1e-9 of the outline's size counts as touching (the core's resolution)
      E("2 to 'from_polygons' (hole 1 touches the outline", SQ, { { 8, 4, 10 - 5e-9, 5, 8, 6 } })
      E("2 to 'from_polygons' (hole 1 touches hole 2", SQ,
        { { 2, 2, 4, 2, 4, 4, 2, 4 }, { 4 + 5e-9, 3, 6, 3, 6, 5, 4 + 5e-9, 5 } })
      E("2 to 'from_polygons' (hole 1 overlaps itself at edges 1 and 2", SQ,
        { { 2, 2, 6, 2 + 1e-8, 4, 2 + 1e-9 } })
      -- a spike: the outline goes out and nearly the same way back
      E("1 to 'from_polygons' (outline overlaps itself at edges 3 and 4",
        { 0, 0, 10, 0, 10, 5, 20, 5, 15, 5 + 1e-9, 15, 10, 0, 10 })
      -- a U whose right arm has a bump (point 6) 1e-9 short of the left arm (edge 9)
      E("1 to 'from_polygons' (outline touches itself at edges 5 and 9", { 0, 0, 10, 0, 10, 10,
        6, 10, 6, 6, 4 + 1e-9, 5, 6, 4, 6, 3, 4, 3, 4, 10, 0, 10 })
      -- the outline's own problems come first
      E("1 to 'from_polygons' (outline crosses itself at edges 1 and 3",
        { 0, 0, 2, 2, 2, 0, 0, 2 }, { { 20, 20, 21, 20, 21, 21 } })
    end)

    it("names the function called", function()
      H.checkerr("bad argument #1 to 'triangulate' (outline has zero area)",
        N.triangulate, { 0, 0, 1, 1, 2, 2 })
      H.checkerr("bad argument #2 to 'triangulate' (hole 1 crosses the outline)",
        N.triangulate, SQ, { { 8, 4, 12, 5, 8, 6 } })
      local CP = "convex_partition"
      H.checkerr("bad argument #1 to '" .. CP .. "' (expected a list of coordinates, got nil)",
        N.convex_partition)
      H.checkerr("bad argument #2 to '" .. CP .. "' (expected a list of triangles, got nil)",
        N.convex_partition, SQ)
      H.checkerr("bad argument #1 to '" .. CP .. "' (vertex 2 is not a pair of finite numbers)",
        N.convex_partition, { 0, 0, 1, NAN }, {})
      H.checkerr("bad argument #2 to '" .. CP .. "' (triangle 1: vertex 3 is not an index in "
        .. "[1, 4])", N.convex_partition, SQ, { { 1, 2, 5 } })
      H.checkerr("bad argument #2 to '" .. CP .. "' (triangle 2: expected 3 vertex indices)",
        N.convex_partition, SQ, { { 1, 2, 3 }, { 1, 2 } })
      H.checkerr("bad argument #2 to '" .. CP .. "' (triangle 1 has zero area)",
        N.convex_partition, { 0, 0, 1, 1, 2, 2 }, { { 1, 2, 3 } })
      H.checkerr("bad argument #2 to '" .. CP .. "' (triangles 1 and 2 overlap along edge 1-2)",
        N.convex_partition, SQ, { { 1, 2, 3 }, { 1, 2, 4 } })
    end)
  end)
end)

