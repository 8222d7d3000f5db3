--- Navigation meshes from polygons with holes, in pure Lua.
-- `from_polygons(outline, holes)` triangulates the walkable area (holes joined to the outline
-- by bridges, then ear clipping) and merges the triangles into convex polygons
-- (Hertel-Mehlhorn); the result is the table `astar.navmesh` takes.
--
-- Coordinates are flat lists `{x1, y1, x2, y2, ...}`; vertex and polygon indices are 1-based and
-- polygons are counter-clockwise (x right, y up). Work is `O(n^2)` in the number of points.
-- @module astar.navmesh

local M = {}

local abs, floor, huge, sqrt = math.abs, math.floor, math.huge, math.sqrt
local sort = table.sort

-- Twice the signed area of triangle a, b, c: > 0 when c is left of a->b (a left turn).
local function orient(ax, ay, bx, by, cx, cy)
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
end

-- The resolution of `astar.navmesh` (src/core/navmesh.c): there, points closer than RES times
-- the mesh's size (its bounding box's larger side) touch, and a corner whose turn's sine is
-- below RES is straight or a spike. Input finer than that is rejected here; output triangles
-- keep twice that margin (MARGIN) so that the core accepts them.
local RES = 1e-9
local MARGIN = 2 * RES

-- A merge is allowed at a corner that is exactly straight or turns left beyond rounding: its
-- cross product is above EPS times the products it is the difference of (rounding makes
-- ~1e-16 of them).
local EPS = 1e-12

-- The distance from (px, py) to segment ab (a ~= b).
local function pdist(px, py, ax, ay, bx, by)
  local dx, dy = bx - ax, by - ay
  local t = ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)
  if t < 0 then t = 0 elseif t > 1 then t = 1 end
  local ex, ey = ax + t * dx - px, ay + t * dy - py
  return sqrt(ex * ex + ey * ey)
end

local function argerror(fname, n, fmt, ...)
  error(("bad argument #%d to '%s' (" .. fmt .. ")"):format(n, fname, ...), 0)
end

-- Input checking.

-- A ring's doubled area counts as zero below this fraction of its bounding box's larger side
-- squared (as a polygon's in the core).
local ZERO_AREA = 1e-12

-- Reads the ring 'list' (a flat coordinate list) named 'what' in messages: its points as
-- floats (so that 5.4 integer products cannot wrap) with consecutive duplicates dropped,
-- and for each kept point its 1-based position in the input (edges are named after their
-- first point). Rejects rings of fewer than 3 distinct points and rings whose points all lie
-- on one line. Returns xs, ys, labels, twice the signed area and the doubled area below which
-- the ring counts as flat.
local function read_ring(list, what, fname, argn)
  if type(list) ~= "table" then
    argerror(fname, argn, "%s: expected a list of at least 6 numbers, got %s", what, type(list))
  end
  local n = #list
  if n < 6 then
    argerror(fname, argn, "%s: expected a list of at least 6 numbers, got %d", what, n)
  end
  if n % 2 ~= 0 then
    argerror(fname, argn, "%s: expected an even number of coordinates, got %d", what, n)
  end
  local xs, ys, labels = {}, {}, {}
  local k, point = 0, 0
  for i = 1, n, 2 do
    point = point + 1
    local x, y = list[i], list[i + 1]
    if type(x) ~= "number" or type(y) ~= "number" then
      local bad = type(x) ~= "number" and type(x) or type(y)
      argerror(fname, argn, "%s: point %d: expected numbers, got %s", what, point, bad)
    end
    if x ~= x or y ~= y or x == huge or x == -huge or y == huge or y == -huge then
      argerror(fname, argn, "%s: point %d is not finite", what, point)
    end
    x, y = x + 0.0, y + 0.0
    if k == 0 or xs[k] ~= x or ys[k] ~= y then
      k = k + 1
      xs[k], ys[k], labels[k] = x, y, point
    end
  end
  while k > 1 and xs[k] == xs[1] and ys[k] == ys[1] do
    xs[k], ys[k], labels[k] = nil, nil, nil
    k = k - 1
  end
  if k < 3 then argerror(fname, argn, "%s has fewer than 3 distinct points", what) end
  local x0, y0 = xs[1], ys[1]
  local minx, maxx, miny, maxy = x0, x0, y0, y0
  local area, spread = 0, 0
  for i = 2, k - 1 do
    local o = orient(x0, y0, xs[i], ys[i], xs[i + 1], ys[i + 1])
    area, spread = area + o, spread + abs(o)
  end
  for i = 2, k do
    local x, y = xs[i], ys[i]
    if x < minx then minx = x elseif x > maxx then maxx = x end
    if y < miny then miny = y elseif y > maxy then maxy = y end
  end
  local size = maxx - minx > maxy - miny and maxx - minx or maxy - miny
  local tiny = ZERO_AREA * size * size
  -- all points on one line; a crossing ring with zero net area is reported as crossing
  if spread <= tiny then argerror(fname, argn, "%s has zero area", what) end
  return xs, ys, labels, area, tiny
end

-- How closed segments ab and cd meet: nil (they do not), "cross" (at one point inside both),
-- "overlap" (along a piece of positive length) or "touch" (any other common point).
local function meet(ax, ay, bx, by, cx, cy, dx, dy)
  local o1 = orient(ax, ay, bx, by, cx, cy)
  local o2 = orient(ax, ay, bx, by, dx, dy)
  if (o1 > 0 and o2 > 0) or (o1 < 0 and o2 < 0) then return nil end
  local o3 = orient(cx, cy, dx, dy, ax, ay)
  local o4 = orient(cx, cy, dx, dy, bx, by)
  if (o3 > 0 and o4 > 0) or (o3 < 0 and o4 < 0) then return nil end
  if o1 == 0 and o2 == 0 then
    -- on one line: compare the extents along the longer axis
    local s1, s2, t1, t2
    if abs(bx - ax) >= abs(by - ay) then
      s1, s2, t1, t2 = ax, bx, cx, dx
    else
      s1, s2, t1, t2 = ay, by, cy, dy
    end
    if s1 > s2 then s1, s2 = s2, s1 end
    if t1 > t2 then t1, t2 = t2, t1 end
    local lo, hi = s1 > t1 and s1 or t1, s2 < t2 and s2 or t2
    if lo > hi then return nil end
    return lo == hi and "touch" or "overlap"
  end
  if o1 == 0 or o2 == 0 or o3 == 0 or o4 == 0 then return "touch" end
  return "cross"
end

-- Whether (x, y), not on the ring's boundary, lies inside it (crossing number).
local function inside(x, y, xs, ys)
  local n, odd = #xs, false
  local jx, jy = xs[n], ys[n]
  for i = 1, n do
    local ix, iy = xs[i], ys[i]
    if (iy > y) ~= (jy > y) then
      local o = orient(jx, jy, ix, iy, x, y)
      if (iy > jy and o > 0) or (iy < jy and o < 0) then odd = not odd end
    end
    jx, jy = ix, iy
  end
  return odd
end

-- Problem ranks, most important first; a smaller key wins.
local SELF_OUTLINE, SELF_HOLE, HOLE_OUTLINE, HOLE_HOLE = 1, 2, 3, 4

local function better(p, q)
  if not q then return true end
  for i = 1, 5 do
    if p[i] ~= q[i] then return p[i] < q[i] end
  end
  return false
end

local function report(fname, p)
  local rank, r1, r2, l1, l2, kind = p[1], p[2], p[3], p[4], p[5], p[6]
  if rank == SELF_OUTLINE then
    argerror(fname, 1, "outline %s itself at edges %d and %d", kind, l1, l2)
  elseif rank == SELF_HOLE then
    argerror(fname, 2, "hole %d %s itself at edges %d and %d", r1, kind, l1, l2)
  elseif rank == HOLE_OUTLINE then
    argerror(fname, 2, "hole %d %s the outline", r2, kind == "crosses" and kind or "touches")
  else
    argerror(fname, 2, "hole %d %s hole %d", r1, kind == "crosses" and "overlaps" or "touches", r2)
  end
end

local VERB = { cross = "crosses", touch = "touches", overlap = "overlaps" }

-- The rings' edges (rings[1] the outline, rings[k + 1] hole k) as parallel arrays: ends x1,
-- y1, x2, y2, ring, position in it, label, bounding box; E.n of them, E.order by left end.
local function edges_of(rings)
  local E = { x1 = {}, y1 = {}, x2 = {}, y2 = {}, ring = {}, pos = {}, label = {},
              minx = {}, maxx = {}, miny = {}, maxy = {}, order = {}, n = 0 }
  local ne = 0
  for r, ring in ipairs(rings) do
    local xs, ys, labels = ring.xs, ring.ys, ring.labels
    local n = #xs
    for i = 1, n do
      local j = i % n + 1
      local x1, y1, x2, y2 = xs[i], ys[i], xs[j], ys[j]
      ne = ne + 1
      E.x1[ne], E.y1[ne], E.x2[ne], E.y2[ne] = x1, y1, x2, y2
      E.ring[ne], E.pos[ne], E.label[ne] = r, i, labels[i]
      E.minx[ne], E.maxx[ne] = x1 < x2 and x1 or x2, x1 < x2 and x2 or x1
      E.miny[ne], E.maxy[ne] = y1 < y2 and y1 or y2, y1 < y2 and y2 or y1
      E.order[ne] = ne
    end
  end
  E.n = ne
  local minx = E.minx
  sort(E.order, function(a, b)
    if minx[a] ~= minx[b] then return minx[a] < minx[b] end
    return a < b
  end)
  return E
end

-- What is wrong between edges e and f of E (n: the edges of e's ring), or nil: two
-- neighbours that (nearly) fold back onto each other "overlap", others "cross" or "touch"
-- (within eps).
local function edge_pair(E, e, f, n, eps)
  local ax, ay, bx, by = E.x1[e], E.y1[e], E.x2[e], E.y2[e]
  local cx, cy, dx, dy = E.x1[f], E.y1[f], E.x2[f], E.y2[f]
  local pe, pf = E.pos[e], E.pos[f]
  if E.ring[e] == E.ring[f] and (pe % n + 1 == pf or pf % n + 1 == pe) then
    -- neighbours share a point s: wrong if the far end of one, more than eps from s, is
    -- within eps of the other
    local sx, sy, qx, qy, wx, wy
    if pe % n + 1 == pf then
      sx, sy, qx, qy, wx, wy = bx, by, ax, ay, dx, dy
    else
      sx, sy, qx, qy, wx, wy = ax, ay, bx, by, cx, cy
    end
    local qs, ws = (qx - sx) ^ 2 + (qy - sy) ^ 2, (wx - sx) ^ 2 + (wy - sy) ^ 2
    if (ws > eps * eps and pdist(wx, wy, ax, ay, bx, by) <= eps)
        or (qs > eps * eps and pdist(qx, qy, cx, cy, dx, dy) <= eps) then
      return "overlap"
    end
    return nil
  end
  local kind = meet(ax, ay, bx, by, cx, cy, dx, dy)
  if not kind and (pdist(cx, cy, ax, ay, bx, by) <= eps
      or pdist(dx, dy, ax, ay, bx, by) <= eps or pdist(ax, ay, cx, cy, dx, dy) <= eps
      or pdist(bx, by, cx, cy, dx, dy) <= eps) then
    kind = "touch"
  end
  return kind
end

-- The problem 'kind' between edges e and f, as better() and report() take it.
local function pair_problem(E, e, f, kind)
  local r1, r2, l1, l2 = E.ring[e], E.ring[f], E.label[e], E.label[f]
  if r1 > r2 or (r1 == r2 and l1 > l2) then r1, r2, l1, l2 = r2, r1, l2, l1 end
  local rank
  if r1 == r2 then
    rank = r1 == 1 and SELF_OUTLINE or SELF_HOLE
  else
    rank = r1 == 1 and HOLE_OUTLINE or HOLE_HOLE
  end
  return { rank, r1 - 1, r2 - 1, l1, l2, VERB[kind] }
end

-- Once no boundaries meet, each hole is wholly inside or outside each other ring: every hole
-- must be inside the outline and outside the other holes.
local function check_nesting(rings, fname)
  local outline = rings[1]
  for r = 2, #rings do
    if not inside(rings[r].xs[1], rings[r].ys[1], outline.xs, outline.ys) then
      argerror(fname, 2, "hole %d is not inside the outline", r - 1)
    end
  end
  for r = 2, #rings do
    local a = rings[r]
    for q = r + 1, #rings do
      local b = rings[q]
      if a.minx <= b.maxx and b.minx <= a.maxx and a.miny <= b.maxy and b.miny <= a.maxy
          and (inside(a.xs[1], a.ys[1], b.xs, b.ys) or inside(b.xs[1], b.ys[1], a.xs, a.ys)) then
        argerror(fname, 2, "hole %d overlaps hole %d", r - 1, q - 1)
      end
    end
  end
end

-- Checks that the rings are simple and apart: no edge comes within 'eps' of an edge of
-- another ring or of a non-neighbouring edge of its own, no two neighbouring edges (nearly)
-- fold back onto each other; and that every hole lies inside the outline and outside the other
-- holes. Pairs of edges whose bounding boxes come within eps are tested (a sweep along x); the
-- most important problem is raised.
local function check_rings(rings, fname, eps)
  local E = edges_of(rings)
  local order, minx, miny, maxy = E.order, E.minx, E.miny, E.maxy
  local best
  for s = 1, E.n do
    local e = order[s]
    local xe, ylo, yhi = E.maxx[e] + eps, miny[e] - eps, maxy[e] + eps
    local n = #rings[E.ring[e]].xs
    for t = s + 1, E.n do
      local f = order[t]
      if minx[f] > xe then break end
      if miny[f] <= yhi and maxy[f] >= ylo then
        local kind = edge_pair(E, e, f, n, eps)
        if kind then
          local p = pair_problem(E, e, f, kind)
          if better(p, best) then best = p end
        end
      end
    end
  end
  if best then report(fname, best) end
  check_nesting(rings, fname)
end

local function bounds(ring)
  local xs, ys = ring.xs, ring.ys
  local minx, maxx, miny, maxy = xs[1], xs[1], ys[1], ys[1]
  for i = 2, #xs do
    local x, y = xs[i], ys[i]
    if x < minx then minx = x elseif x > maxx then maxx = x end
    if y < miny then miny = y elseif y > maxy then maxy = y end
  end
  ring.minx, ring.maxx, ring.miny, ring.maxy = minx, maxx, miny, maxy
end

-- Reads and checks outline and holes; returns the list of rings (the outline first) and the
-- outline's size (the larger side of its bounding box).
local function read_input(outline, holes, fname)
  local rings = {}
  local xs, ys, labels, area, tiny = read_ring(outline, "outline", fname, 1)
  rings[1] = { xs = xs, ys = ys, labels = labels, area = area, tiny = tiny }
  if holes ~= nil then
    if type(holes) ~= "table" then
      argerror(fname, 2, "holes: expected a list of lists, got %s", type(holes))
    end
    for k = 1, #holes do
      xs, ys, labels, area, tiny = read_ring(holes[k], "hole " .. k, fname, 2)
      rings[k + 1] = { xs = xs, ys = ys, labels = labels, area = area, tiny = tiny }
    end
  end
  for _, ring in ipairs(rings) do bounds(ring) end
  local o = rings[1]
  local size = o.maxx - o.minx > o.maxy - o.miny and o.maxx - o.minx or o.maxy - o.miny
  check_rings(rings, fname, RES * size)
  for r, ring in ipairs(rings) do
    -- simple now, so a tiny area means a sliver
    if abs(ring.area) <= ring.tiny then
      if r == 1 then argerror(fname, 1, "outline has zero area") end
      argerror(fname, 2, "hole %d has zero area", r - 1)
    end
  end
  return rings, size
end

-- Triangulation: ear clipping of one weakly simple polygon, a circular doubly linked list of
-- nodes (NV[node] its vertex, NX/NP next and previous). Bridges make two nodes for each of their
-- ends; both carry the same vertex, so the triangles share edges across a bridge.

-- A ring under ear clipping: R.NV, R.NX, R.NP (above), the vertices' coordinates R.VX, R.VY,
-- R.first a node still in it, R.count its nodes, R.nn nodes made, R.near (2 * tol) the margin.

-- Makes a node of vertex v after node 'after' (or a ring of its own); returns it.
local function ring_node(R, v, after)
  local NX, NP = R.NX, R.NP
  local nn = R.nn + 1
  R.nn, R.count = nn, R.count + 1
  R.NV[nn] = v
  if after then
    local b = NX[after]
    NX[after], NP[nn], NX[nn], NP[b] = nn, after, b, nn
  else
    NX[nn], NP[nn] = nn, nn
  end
  return nn
end

-- Whether the direction from node p to (qx, qy) lies inside the interior angle at p (the
-- ring runs counter-clockwise, the interior on its left), by a sine above 'k'.
local function in_sector(R, p, qx, qy, k)
  local NV, VX, VY = R.NV, R.VX, R.VY
  local v, a, b = NV[p], NV[R.NP[p]], NV[R.NX[p]]
  local px, py = VX[v], VY[v]
  local nx, ny, rx, ry = VX[b] - px, VY[b] - py, VX[a] - px, VY[a] - py
  local dx, dy = qx - px, qy - py
  local ld = sqrt(dx * dx + dy * dy)
  local left_of_next = nx * dy - ny * dx > k * sqrt(nx * nx + ny * ny) * ld
  local right_of_prev = rx * dy - ry * dx < -k * sqrt(rx * rx + ry * ry) * ld
  if orient(VX[a], VY[a], px, py, VX[b], VY[b]) > 0 then
    return left_of_next and right_of_prev
  end
  return left_of_next or right_of_prev
end

-- Whether segment p -> (qx, qy) meets no edge of the ring other than those at p's vertex,
-- and passes no end of those edges closer than 'gap'.
local function clear(R, p, qx, qy, gap)
  local NV, NX, VX, VY = R.NV, R.NX, R.VX, R.VY
  local vp = NV[p]
  local px, py = VX[vp], VY[vp]
  local lox, hix = (px < qx and px or qx) - gap, (px < qx and qx or px) + gap
  local loy, hiy = (py < qy and py or qy) - gap, (py < qy and qy or py) + gap
  local a = p
  repeat
    local b = NX[a]
    local va, vb = NV[a], NV[b]
    if va ~= vp and vb ~= vp then
      local ax, ay, bx, by = VX[va], VY[va], VX[vb], VY[vb]
      if not ((ax < lox and bx < lox) or (ax > hix and bx > hix)
          or (ay < loy and by < loy) or (ay > hiy and by > hiy)) then
        if meet(px, py, qx, qy, ax, ay, bx, by) then return false end
        if gap > 0 and (pdist(ax, ay, px, py, qx, qy) < gap
            or pdist(bx, by, px, py, qx, qy) < gap) then
          return false
        end
      end
    end
    a = b
  until a == p
  return true
end

-- The node of the ring that hole vertex m (at mx, my) is bridged from: the nearest right of
-- m that sees m, with margins if one does; or nil.
local function bridge_from(R, mx, my)
  local NV, NX, VX, VY = R.NV, R.NX, R.VX, R.VY
  local cand, dist = {}, {}
  local p = R.first
  repeat
    local v = NV[p]
    if VX[v] > mx then
      local dx, dy = VX[v] - mx, VY[v] - my
      cand[#cand + 1], dist[p] = p, dx * dx + dy * dy
    end
    p = NX[p]
  until p == R.first
  sort(cand, function(a, b)
    if dist[a] ~= dist[b] then return dist[a] < dist[b] end
    return a < b
  end)
  for pass = 1, 2 do
    local k1, gap = pass == 1 and MARGIN or 0, pass == 1 and R.near or 0
    for _, c in ipairs(cand) do
      if in_sector(R, c, mx, my, k1) and clear(R, c, mx, my, gap) then return c end
    end
  end
end

-- Joins each hole, rightmost first, by a bridge from its rightmost vertex m to the nearest
-- ring node right of m that sees m. Holes further left cannot meet such a bridge. Returns
-- true, or nil, message.
local function bridge_holes(R, holes)
  local VX, VY = R.VX, R.VY
  local order, right = {}, {}
  for k, hole in ipairs(holes) do
    local best = 1
    for i = 2, #hole do
      local v, w = hole[i], hole[best]
      if VX[v] > VX[w] or (VX[v] == VX[w] and VY[v] < VY[w]) then best = i end
    end
    order[k], right[k] = k, best
  end
  sort(order, function(a, b)
    local va, vb = holes[a][right[a]], holes[b][right[b]]
    if VX[va] ~= VX[vb] then return VX[va] > VX[vb] end
    return a < b
  end)
  for _, k in ipairs(order) do
    local hole, im = holes[k], right[k]
    local m = hole[im]
    local bridge = bridge_from(R, VX[m], VY[m])
    if not bridge then return nil, "no bridge for hole " .. k end
    local at, n = bridge, #hole
    for t = 0, n - 1 do at = ring_node(R, hole[(im - 1 + t) % n + 1], at) end
    at = ring_node(R, m, at)
    ring_node(R, R.NV[bridge], at)
  end
  return true
end

local function unlink(R, p)
  local a, b = R.NP[p], R.NX[p]
  R.NX[a], R.NP[b] = b, a
  R.count = R.count - 1
  if p == R.first then R.first = b end
end

-- Removes repeated vertices and zero-width spikes (a -> p -> a) around node p; returns a
-- node still in the ring.
local function tidy(R, p)
  local NV = R.NV
  while R.count > 2 do
    local a, b = R.NP[p], R.NX[p]
    if NV[b] == NV[p] then
      unlink(R, b)
    elseif NV[a] == NV[p] then
      unlink(R, p)
      p = a
    elseif NV[a] == NV[b] then
      unlink(R, b)
      unlink(R, p)
      p = a
    else
      break
    end
  end
  return p
end

-- Whether a copy p (vertex v) of a corner of triangle a, b, c (a bridge end) has an edge
-- that enters it: the far end on the inner side of both sides at that corner. The sides are
-- ab, bc, ca with their margins dab, dbc, dca.
local function copy_enters(R, p, v, a, b, c, dab, dbc, dca)
  local VX, VY = R.VX, R.VY
  local ax, ay, bx, by, cx, cy = VX[a], VY[a], VX[b], VY[b], VX[c], VY[c]
  for k = 1, 2 do
    local q = R.NV[k == 1 and R.NP[p] or R.NX[p]]
    if q ~= a and q ~= b and q ~= c then -- (along a side is fine)
      local qx, qy = VX[q], VY[q]
      local s1 = (bx - ax) * (qy - ay) - (by - ay) * (qx - ax) > dab
      local s2 = (cx - bx) * (qy - by) - (cy - by) * (qx - bx) > dbc
      local s3 = (ax - cx) * (qy - cy) - (ay - cy) * (qx - cx) > dca
      if (v == a and s1 and s3) or (v == b and s1 and s2) or (v == c and s2 and s3) then
        return true
      end
    end
  end
  return false
end

-- Whether the triangle prev(e), e, next(e) can be cut off: it turns left at its three
-- corners, no other node lies in it, and no edge from a copy of a corner (a bridge end)
-- enters it. Unless 'exact': each corner turns by a sine above MARGIN, and nodes (and the
-- far ends of a corner copy's edges) within 2 * tol outside count as in.
local function is_ear(R, e, exact)
  local NV, NX, VX, VY = R.NV, R.NX, R.VX, R.VY
  local u, w = R.NP[e], NX[e]
  local a, b, c = NV[u], NV[e], NV[w]
  local ax, ay, bx, by, cx, cy = VX[a], VY[a], VX[b], VY[b], VX[c], VY[c]
  local abx, aby, bcx, bcy, cax, cay = bx - ax, by - ay, cx - bx, cy - by, ax - cx, ay - cy
  local lab, lbc, lca, gap = 0, 0, 0, 0
  if exact then
    if abx * bcy - aby * bcx <= 0 then return false end
  else
    lab = sqrt(abx * abx + aby * aby)
    lbc = sqrt(bcx * bcx + bcy * bcy)
    lca = sqrt(cax * cax + cay * cay)
    -- the turn at b, c and a, each computed as the core does
    if abx * bcy - aby * bcx <= MARGIN * lab * lbc or bcx * cay - bcy * cax <= MARGIN * lbc * lca
        or cax * aby - cay * abx <= MARGIN * lca * lab then
      return false
    end
    gap = R.near
  end
  -- p is in (or near) when no side has it clearly on its right
  local dab, dbc, dca = -gap * lab, -gap * lbc, -gap * lca
  local minx = (ax < bx and (ax < cx and ax or cx) or (bx < cx and bx or cx)) - gap
  local maxx = (ax > bx and (ax > cx and ax or cx) or (bx > cx and bx or cx)) + gap
  local miny = (ay < by and (ay < cy and ay or cy) or (by < cy and by or cy)) - gap
  local maxy = (ay > by and (ay > cy and ay or cy) or (by > cy and by or cy)) + gap
  local p = NX[w]
  while p ~= u do
    local v = NV[p]
    local px, py = VX[v], VY[v]
    if px >= minx and px <= maxx and py >= miny and py <= maxy then
      if v == a or v == b or v == c then
        if copy_enters(R, p, v, a, b, c, dab, dbc, dca) then return false end
      elseif abx * (py - ay) - aby * (px - ax) >= dab and bcx * (py - by) - bcy * (px - bx) >= dbc
          and cax * (py - cy) - cay * (px - cx) >= dca then
        return false
      end
    end
    p = NX[p]
  end
  return true
end

-- Cuts ears off the ring until a triangle is left; returns the triangles, or nil, message.
local function clip(R)
  local NV, NX, VX, VY = R.NV, R.NX, R.VX, R.VY
  local tris = {}
  local ear = tidy(R, R.first)
  local stop, exact = ear, false
  while R.count > 3 do
    if is_ear(R, ear, exact) then
      exact = false
      local u, w = R.NP[ear], NX[ear]
      tris[#tris + 1] = { NV[u], NV[ear], NV[w] }
      unlink(R, ear)
      u = tidy(R, u)
      w = tidy(R, NX[u])
      -- continue past the new edge: fewer fans of slivers around one vertex
      ear = NX[w]
      stop = ear
    else
      ear = NX[ear]
      if ear == stop then
        -- no ear with margins: input near the resolution; take one on exact signs, go on
        if exact then return nil, "no ear among " .. R.count .. " nodes" end
        exact = true
      end
    end
  end
  if R.count == 3 then
    local a, b, c = NV[R.NP[ear]], NV[ear], NV[NX[ear]]
    if orient(VX[a], VY[a], VX[b], VY[b], VX[c], VY[c]) > 0 then tris[#tris + 1] = { a, b, c } end
  end
  return tris
end

-- Triangulates the outline 'outer' (vertex indices, counter-clockwise) with the holes 'holes'
-- (lists of vertex indices, clockwise), vertices at VX[i], VY[i]; 'tol' is the core's
-- tolerance for this mesh (RES times its size). The rings must be simple, apart, the holes
-- inside the outline. Returns the list of triangles (counter-clockwise), or nil, message if
-- clipping stalls (rounding in nearly degenerate input).
--
-- Bridges and ears are first chosen with margins: no other node within 2 * tol of a bridge or
-- an ear, every corner of an ear turning by a sine above MARGIN. Only when no choice passes
-- (input near the resolution) is one made on exact signs.
local function earcut(VX, VY, outer, holes, tol)
  local R = { NV = {}, NX = {}, NP = {}, VX = VX, VY = VY, nn = 0, count = 0, near = 2 * tol }
  local last = ring_node(R, outer[1])
  R.first = last
  for i = 2, #outer do last = ring_node(R, outer[i], last) end
  local ok, why = bridge_holes(R, holes)
  if not ok then return nil, why end
  return clip(R)
end

local function triangulate(outline, holes, fname)
  local rings, size = read_input(outline, holes, fname)
  local VX, VY, vertices = {}, {}, {}
  local nv = 0
  local outer, inner = {}, {}
  for r, ring in ipairs(rings) do
    local xs, ys = ring.xs, ring.ys
    local n = #xs
    local idx = {}
    for i = 1, n do
      nv = nv + 1
      VX[nv], VY[nv] = xs[i], ys[i]
      vertices[2 * nv - 1], vertices[2 * nv] = xs[i], ys[i]
      idx[i] = nv
    end
    -- the outline counter-clockwise, holes clockwise: the area always on the left
    if (r == 1) ~= (ring.area > 0) then
      for i = 1, n / 2 do idx[i], idx[n + 1 - i] = idx[n + 1 - i], idx[i] end
    end
    if r == 1 then outer = idx else inner[r - 1] = idx end
  end
  local tris, why = earcut(VX, VY, outer, inner, RES * size)
  if not tris then
    error(("%s: triangulation failed (%s): nearly degenerate input?"):format(fname, why), 0)
  end
  return vertices, tris
end

--- Triangulates a polygon with holes.
-- Holes are joined to the outline by bridges (from each hole's rightmost vertex to a vertex it
-- sees), then ears are clipped. Every input point is a vertex of the result; no new points are
-- added, so `#triangles` is `n + 2 * #holes - 2` for `n` distinct points. Edges closer than
-- 1e-9 of the outline's size (the larger side of its bounding box) count as touching: that is
-- the resolution of `astar.navmesh`, and every triangle's corners turn by more than it.
-- @tparam {number,...} outline `{x1, y1, x2, y2, ...}`: at least 3 points, either orientation,
--   a simple polygon (consecutive repeated points are dropped; collinear points are kept)
-- @tparam[opt] {{number,...},...} holes lists like `outline`, each strictly inside the outline,
--   none touching another
-- @treturn {number,...} vertices, `{x1, y1, ...}`: the outline's points then each hole's
-- @treturn {{int,int,int},...} triangles, counter-clockwise triples of vertex indices
-- @raise on malformed input: `bad argument #n to 'triangulate' (...)` naming the problem
-- @function triangulate
function M.triangulate(outline, holes)
  return triangulate(outline, holes, "triangulate")
end

-- Convex partition (Hertel-Mehlhorn).

-- Whether the turn p -> v -> q is exactly straight or clearly left (see EPS): merging at a
-- nearly straight corner could make a slightly reflex one.
local function convex_turn(xy, p, v, q)
  local px, py, vx, vy, qx, qy = xy[2 * p - 1], xy[2 * p], xy[2 * v - 1], xy[2 * v],
    xy[2 * q - 1], xy[2 * q]
  local p1, p2 = (vx - px) * (qy - py), (vy - py) * (qx - px)
  return p1 == p2 or p1 - p2 > EPS * (abs(p1) + abs(p2))
end

local function partition(xy, tris)
  local base = #xy / 2 + 1
  local polys, owner, diags = {}, {}, {}
  for t, tri in ipairs(tris) do
    polys[t] = { tri[1], tri[2], tri[3] }
    for i = 1, 3 do
      owner[tri[i] * base + tri[i % 3 + 1]] = t
    end
  end
  for _, tri in ipairs(tris) do
    for i = 1, 3 do
      local a, b = tri[i], tri[i % 3 + 1]
      if a < b and owner[b * base + a] then
        local dx, dy = xy[2 * b - 1] - xy[2 * a - 1], xy[2 * b] - xy[2 * a]
        diags[#diags + 1] = { a, b, dx * dx + dy * dy }
      end
    end
  end
  -- long diagonals first: removing them tends to leave fewer, rounder pieces
  sort(diags, function(d, e)
    if d[3] ~= e[3] then return d[3] > e[3] end
    if d[1] ~= e[1] then return d[1] < e[1] end
    return d[2] < e[2]
  end)
  -- Another merge can change which neighbours a corner turns between (never its angle), and
  -- with nearly collinear points that can flip a rounded turn test; so pass over the kept
  -- diagonals until none can go: then every diagonal left is needed.
  local merged = true
  while merged do
    merged = false
    local kept = {}
    for _, d in ipairs(diags) do
      local a, b = d[1], d[2]
      local i1, i2 = owner[a * base + b], owner[b * base + a]
      local P, Q = polys[i1], polys[i2]
      local np, nq = #P, #Q
      local i, j = 1, 1
      while P[i] ~= a do i = i + 1 end
      while Q[j] ~= b do j = j + 1 end
      -- P runs ... pa, a, b, nb ...; Q runs ... pb, b, a, na ...
      local pa, nb = P[(i - 2) % np + 1], P[(i + 1) % np + 1]
      local pb, na = Q[(j - 2) % nq + 1], Q[(j + 1) % nq + 1]
      if convex_turn(xy, pa, a, na) and convex_turn(xy, pb, b, nb) then
        local R = {}
        for k = 0, np - 1 do R[k + 1] = P[(i + k) % np + 1] end -- b ... a
        for k = 2, nq - 1 do R[np + k - 1] = Q[(j - 1 + k) % nq + 1] end -- na ... pb
        owner[a * base + b], owner[b * base + a] = nil, nil
        local nr = #R
        for k = 1, nr do owner[R[k] * base + R[k % nr + 1]] = i1 end
        polys[i1], polys[i2] = R, false
        merged = true
      else
        kept[#kept + 1] = d
      end
    end
    diags = kept
  end
  local out = {}
  for t = 1, #tris do
    if polys[t] then out[#out + 1] = polys[t] end
  end
  return out
end

local function check_index(v, nv, t, k)
  if type(v) ~= "number" or v % 1 ~= 0 or v < 1 or v > nv then
    argerror("convex_partition", 2, "triangle %d: vertex %d is not an index in [1, %d]", t, k, nv)
  end
end

--- Merges triangles into convex polygons.
-- Hertel-Mehlhorn: diagonals (edges shared by two pieces) are removed, longest first, while the
-- union stays convex. The result has at most four times the fewest convex pieces possible and
-- never more pieces than triangles. Only diagonals are removed, so neighbouring polygons share
-- whole edges. A corner may be straight (collinear consecutive vertices).
-- @tparam {number,...} vertices `{x1, y1, x2, y2, ...}`
-- @tparam {{int,int,int},...} triangles vertex index triples, either orientation, forming a
--   mesh: each edge shared by at most two triangles
-- @treturn {{int,...},...} polygons, counter-clockwise lists of vertex indices
-- @raise on malformed input: `bad argument #n to 'convex_partition' (...)`
-- @function convex_partition
function M.convex_partition(vertices, triangles)
  local fname = "convex_partition"
  if type(vertices) ~= "table" then
    argerror(fname, 1, "expected a list of coordinates, got %s", type(vertices))
  end
  if type(triangles) ~= "table" then
    argerror(fname, 2, "expected a list of triangles, got %s", type(triangles))
  end
  local n = #vertices
  if n % 2 ~= 0 then argerror(fname, 1, "expected an even number of coordinates, got %d", n) end
  local xy = {}
  for i = 1, n do
    local x = vertices[i]
    if type(x) ~= "number" or x ~= x or x == huge or x == -huge then
      argerror(fname, 1, "vertex %d is not a pair of finite numbers", floor((i + 1) / 2))
    end
    xy[i] = x + 0.0
  end
  local nv, base = n / 2, n / 2 + 1
  local tris, seen = {}, {}
  for t = 1, #triangles do
    local tri = triangles[t]
    if type(tri) ~= "table" or #tri ~= 3 then
      argerror(fname, 2, "triangle %d: expected 3 vertex indices", t)
    end
    local a, b, c = tri[1], tri[2], tri[3]
    check_index(a, nv, t, 1)
    check_index(b, nv, t, 2)
    check_index(c, nv, t, 3)
    local o = orient(xy[2 * a - 1], xy[2 * a], xy[2 * b - 1], xy[2 * b], xy[2 * c - 1], xy[2 * c])
    if o == 0 then argerror(fname, 2, "triangle %d has zero area", t) end
    if o < 0 then b, c = c, b end
    tris[t] = { a, b, c }
    for i = 1, 3 do
      local p, q = tris[t][i], tris[t][i % 3 + 1]
      local key = p * base + q
      if seen[key] then
        argerror(fname, 2, "triangles %d and %d overlap along edge %d-%d", seen[key], t, p, q)
      end
      seen[key] = t
    end
  end
  return partition(xy, tris)
end

--- A navigation mesh description from a polygon with holes.
-- Triangulates (see @{triangulate}) and merges the triangles into convex polygons (see
-- @{convex_partition}). Every input point is a vertex; polygons share whole edges. Edges closer
-- than 1e-9 of the outline's size count as touching (the resolution of `astar.navmesh`).
-- @tparam {number,...} outline `{x1, y1, x2, y2, ...}`: at least 3 points, either orientation,
--   a simple polygon (consecutive repeated points are dropped; collinear points are kept)
-- @tparam[opt] {{number,...},...} holes lists like `outline`, each strictly inside the outline,
--   none touching another
-- @treturn table `{vertices = {x1, y1, ...}, polygons = {{i, j, k, ...}, ...}}`, the argument
--   of `astar.navmesh`
-- @raise on malformed input: `bad argument #n to 'from_polygons' (...)` naming the problem, e.g.
--   `outline crosses itself at edges 3 and 7` (edge k runs from input point k to the next),
--   `hole 2 overlaps hole 3`, `hole 1 touches the outline`, `hole 1 is not inside the outline`,
--   `outline has zero area`
-- @usage
-- local builder = require "astar.navmesh"
-- local desc = builder.from_polygons({ 0, 0, 4, 0, 4, 4, 0, 4 }, { { 1, 1, 2, 1, 2, 2, 1, 2 } })
-- print(#desc.vertices / 2)                    --> 8
-- local mesh = astar.navmesh(desc)             -- what astar.navmesh.from_polygons does
-- print(mesh:locate(1.5, 1.5))                 --> nil
-- @function from_polygons
function M.from_polygons(outline, holes)
  local vertices, tris = triangulate(outline, holes, "from_polygons")
  return { vertices = vertices, polygons = partition(vertices, tris) }
end

return M
