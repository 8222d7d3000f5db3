-- astar.follow against a reference walk of this file: the polyline's length, the point at a
-- distance and the distance of a point to the polyline are computed here, segment by segment,
-- from the route's own points (never through the walker).
local astar = require "astar"
local H = require "spec.helper"

local sqrt, abs, atan2 = math.sqrt, math.abs, math.atan2 or math.atan

local function hypot(dx, dy) return sqrt(dx * dx + dy * dy) end

-- Reference: the polyline {x1, y1, ...} as segments {x0, y0, x1, y1, from, to} (from, to:
-- distances along it), and its length.
local function segments(pts)
  local segs, d = {}, 0
  for i = 1, #pts / 2 - 1 do
    local x0, y0, x1, y1 = pts[2 * i - 1], pts[2 * i], pts[2 * i + 1], pts[2 * i + 2]
    local l = hypot(x1 - x0, y1 - y0)
    segs[i] = { x0, y0, x1, y1, d, d + l }
    d = d + l
  end
  return segs, d
end

-- Distance from (px, py) to the segment, by projection.
local function seg_dist(px, py, s)
  local dx, dy = s[3] - s[1], s[4] - s[2]
  local l2 = dx * dx + dy * dy
  local t = l2 > 0 and ((px - s[1]) * dx + (py - s[2]) * dy) / l2 or 0
  t = math.max(0, math.min(1, t))
  return hypot(px - (s[1] + t * dx), py - (s[2] + t * dy))
end

local function dist_to_polyline(px, py, pts)
  local segs = segments(pts)
  if #segs == 0 then return hypot(px - pts[1], py - pts[2]) end
  local best = math.huge
  for _, s in ipairs(segs) do best = math.min(best, seg_dist(px, py, s)) end
  return best
end

-- The point at distance d, the heading there and the segment's index: the first segment
-- that ends beyond d, or at the end the last point and the last segment of length > 0.
local function walk(pts, d)
  local segs, len = segments(pts)
  for i, s in ipairs(segs) do
    if s[6] > d then
      local t = (d - s[5]) / (s[6] - s[5])
      return s[1] + t * (s[3] - s[1]), s[2] + t * (s[4] - s[2]), atan2(s[4] - s[2], s[3] - s[1]), i
    end
  end
  local h = 0
  for _, s in ipairs(segs) do if s[6] > s[5] then h = atan2(s[4] - s[2], s[3] - s[1]) end end
  return pts[#pts - 1], pts[#pts], h, math.max(1, #segs), len
end

local function near(a, b, eps) return abs(a - b) <= (eps or 1e-9) * math.max(1, abs(a), abs(b)) end

local function random_route(rng)
  local pts, n = {}, rng.int(1, 12)
  for i = 1, n do
    if i > 1 and rng.float() < 0.15 then             -- a repeated point
      pts[#pts + 1], pts[#pts + 2] = pts[#pts - 1], pts[#pts]
    else
      pts[#pts + 1], pts[#pts + 2] = rng.float() * 200 - 100, rng.float() * 200 - 100
    end
  end
  return pts
end

-- Walks w (made from the points pts at speed v) with dts from next_dt until it arrives,
-- checking every frame against the reference; returns the total time and frames.
local function drive(w, pts, v, next_dt)
  local _, len = segments(pts)
  local time, frames = 0, 0
  while true do
    local dt = next_dt()
    local x, y = w:update(dt)
    time, frames = time + dt, frames + 1
    local want = math.min(len, v * time)
    assert(near(w:travelled(), want), ("travelled %.17g, expected %.17g"):format(w:travelled(), want))
    assert(dist_to_polyline(x, y, pts) <= 1e-9 * math.max(1, len), "off the polyline")
    local rx, ry, rh, ri = walk(pts, w:travelled())
    assert(near(x, rx, 1e-9) and near(y, ry, 1e-9), "not at the distance travelled")
    assert(w:index() == ri, ("index %d, expected %d"):format(w:index(), ri))
    assert(near(w:heading(), rh, 1e-12), "heading is not the segment's")
    assert(w:remaining() == len - w:travelled() or near(w:remaining(), len - w:travelled()))
    if v * time >= len then
      assert(w:arrived(), "not arrived at the end")
      assert(x == pts[#pts - 1] and y == pts[#pts], "not exactly on the last point")
      assert(w:remaining() == 0)
      return time, frames
    end
    assert(not w:arrived(), "arrived early")
  end
end

describe("astar.follow", function()
  it("walks speed x time along a polyline, carrying distance across corners", function()
    local w = astar.follow({ 0, 0, 3, 0, 3, 4 }, 2)
    assert.are.equal(7, w:length())
    local x, y = w:update(1)
    assert.are.same({ 2, 0 }, { x, y })
    x, y = w:update(1)                          -- 1 to the corner, 1 beyond it
    assert.are.same({ 3, 1 }, { x, y })
    assert.are.equal(2, w:index())
    assert.are.equal(3, w:remaining())
    assert.is_true(near(w:heading(), math.pi / 2))
    x, y = w:update(100)
    assert.are.same({ 3, 4 }, { x, y })
    assert.is_true(w:arrived())
    assert.are.equal(7, w:travelled())
    assert.are.equal(0, w:remaining())
    assert.are.equal(2, w:index())
  end)

  it("holds on many random routes and dt sequences (seeded)", function()
    local rng = H.rng(20240611)
    local kinds = {
      function() return rng.float() * 0.05 end,                       -- frames
      function() return rng.float() < 0.3 and 0 or rng.float() * 3 end,   -- pauses, long jumps
      function() return 1 / 60 end,
    }
    for _ = 1, 400 do
      local pts = random_route(rng)
      local _, len = segments(pts)
      local v = len > 0 and len / (0.5 + rng.float() * 4) or 1 + rng.float()   -- 0.5 to 4.5 s
      local w = astar.follow(pts, v)
      local time = drive(w, pts, v, kinds[rng.int(1, #kinds)])
      assert.is_true(v * time >= len)
    end
  end)

  it("arrives at once on a single point or a route of one repeated point", function()
    for _, pts in ipairs({ { 5, 6 }, { 5, 6, 5, 6, 5, 6 } }) do
      local w = astar.follow(pts, 3)
      assert.is_true(w:arrived())
      assert.are.equal(0, w:length())
      assert.are.equal(0, w:remaining())
      assert.are.equal(0, w:heading())
      assert.are.same({ 5, 6 }, { w:position() })
      assert.are.same({ 5, 6 }, { w:update(1) })
      assert.are.same({ 5, 6 }, { w:at(10) })
    end
    assert.are.equal(1, astar.follow({ 5, 6 }, 1):index())
    assert.are.equal(2, astar.follow({ 5, 6, 5, 6, 5, 6 }, 1):index())
  end)

  it("passes repeated points at once and keeps facing the last direction after them", function()
    local w = astar.follow({ 0, 0, 0, 0, 2, 0, 2, 0, 2, 2, 2, 2 }, 1)
    assert.are.equal(2, w:index())                 -- the first segment has length 0
    assert.are.equal(0, w:heading())
    w:update(2)                                     -- exactly on the repeated (2, 0)
    assert.are.equal(4, w:index())
    assert.is_true(near(w:heading(), math.pi / 2))
    w:update(5)
    assert.is_true(w:arrived())
    assert.are.equal(5, w:index())                  -- the last segment, of length 0
    assert.is_true(near(w:heading(), math.pi / 2))  -- faces as the one before it
  end)

  it("gives any point with at(s) without moving, clamped to the route", function()
    local pts = { 0, 0, 3, 0, 3, 4 }
    local w = astar.follow(pts, 1)
    for s = -1, 8, 0.25 do
      local x, y = w:at(s)
      local rx, ry = walk(pts, math.max(0, math.min(7, s)))
      assert.is_true(near(x, rx) and near(y, ry))
    end
    assert.are.equal(0, w:travelled())
    assert.are.same({ 3, 4 }, { w:at(math.huge) })
    assert.are.same({ 0, 0 }, { w:at(-math.huge) })
  end)

  it("changes speed with set_speed, and starts part way with opts.start", function()
    local w = astar.follow({ 0, 0, 10, 0 }, 1)
    w:update(2)
    w:set_speed(3)
    w:update(1)
    assert.are.equal(5, w:travelled())
    w = astar.follow({ 0, 0, 10, 0 }, 1, { start = 4 })
    assert.are.same({ 4, 0 }, { w:position() })
    assert.is_true(astar.follow({ 0, 0, 10, 0 }, 1, { start = 11 }):arrived())
  end)

  it("copies a flat list: later changes to it do not move the walker", function()
    local pts = { 0, 0, 10, 0 }
    local w = astar.follow(pts, 1)
    pts[3] = 99
    assert.are.equal(10, w:length())
    assert.matches("^astar%.Walker %(0 of 10%)$", tostring(w))
  end)

  it("follows a Dubins curve: position and heading are curve:sample(travelled)", function()
    local rng = H.rng(7)
    for _ = 1, 100 do
      local c = astar.curve(rng.float() * 20, rng.float() * 20, rng.float() * 6.28,
        rng.float() * 20, rng.float() * 20, rng.float() * 6.28, 0.5 + rng.float() * 3)
      local v = 1 + rng.float() * 10
      local w = astar.follow(c, v)
      assert.are.equal(c:length(), w:length())
      local bounds, acc = {}, 0
      for i, seg in ipairs(c:segments()) do acc = acc + seg[2]; bounds[i] = acc end
      local time = 0
      while not w:arrived() do
        local dt = rng.float() * 0.2
        local x, y = w:update(dt)
        time = time + dt
        assert.is_true(near(w:travelled(), math.min(c:length(), v * time)))
        local cx, cy, ch = c:sample(w:travelled())
        assert.is_true(abs(x - cx) <= 1e-9 and abs(y - cy) <= 1e-9)
        assert.is_true(abs(w:heading() - ch) <= 1e-9)
        local k = 1
        while k < 3 and bounds[k] <= w:travelled() do k = k + 1 end
        assert.are.equal(k, w:index())
      end
      local gx, gy, gh = c:sample(c:length())
      assert.are.same({ gx, gy }, { w:position() })
      assert.are.equal(gh, w:heading())
    end
  end)

  it("follows grid paths from real searches through their cells, links included", function()
    local grid = astar.grid.parse(table.concat({
      "..........",
      ".####.###.",
      "....#.....",
      ".##.####..",
      "..........",
    }, "\n"), { ["#"] = false, ["."] = 1 })
    grid:link(1, 1, 10, 5, 2, { oneway = true })
    local path = assert(grid:find(1, 3, 10, 1))
    local pts = path:flat()
    drive(astar.follow(path, 4), pts, 4, function() return 1 / 30 end)
    -- through the link: the walker's index is the step, so path:link says when it is on it
    path = assert(grid:find(1, 1, 10, 4))
    pts = path:flat()
    local w, seen = astar.follow(path, 1), false
    while not w:arrived() do
      w:update(0.1)
      if path:link(w:index()) then
        seen = true
        local x, y = w:position()
        assert.is_true(seg_dist(x, y, { 1, 1, 10, 5 }) <= 1e-9)
      end
    end
    assert.is_true(seen)
    drive(astar.follow(path, 3), pts, 3, function() return 0.07 end)
    -- a smoothed path: its points, as numbers
    path = assert(grid:find(1, 3, 10, 1)):smooth(grid)
    drive(astar.follow(path, 2), path:flat(), 2, function() return 0.05 end)
  end)

  it("follows navmesh paths as given; their length is the path's cost on a mesh of cost 1", function()
    local mesh = astar.navmesh.from_polygons({ 0, 0, 40, 0, 40, 30, 0, 30 },
      { { 10, 5, 20, 5, 20, 25, 10, 25 }, { 25, 0.5, 30, 0.5, 30, 20, 25, 20 } })
    local rng = H.rng(99)
    local done = 0
    for _ = 1, 30 do
      local path = mesh:find(rng.float() * 9, rng.float() * 30, 31 + rng.float() * 9, rng.float() * 30)
      if path then
        local w = astar.follow(path, 5)
        assert.is_true(H.close(w:length(), path:cost(), 1e-9))
        drive(w, path:flat(), 5, function() return rng.float() * 0.3 end)
        done = done + 1
      end
    end
    assert.is_true(done >= 20)
  end)

  it("follows graph paths through their nodes' positions", function()
    local g = astar.graph()
    local a, b, c = g:add_node(0, 0), g:add_node(3, 4), g:add_node(6, 0)
    g:add_edge(a, b)
    g:add_edge(b, c)
    local w = astar.follow(assert(g:find(a, c)), 1)
    assert.are.equal(10, w:length())
  end)

  it("raises clear errors", function()
    local w = astar.follow({ 0, 0, 1, 0 }, 1)
    local E = H.checkerr
    E("bad argument #1 to 'update' (dt must be a non-negative finite number, got -1)", w.update, w, -1)
    E("bad argument #1 to 'update' (dt must be a non-negative finite number, got nan)", w.update, w, 0 / 0)
    E("bad argument #1 to 'update' (dt must be a non-negative finite number, got inf)", w.update, w,
      math.huge)
    E("bad argument #1 to 'update' (number expected, got string)", w.update, w, "1")
    E("bad argument #1 to 'update' (number expected, got nil)", w.update, w)
    E("calling 'update' on bad self (astar.Walker expected, got number)", w.update, 0.1)
    for _, m in ipairs({ "position", "heading", "arrived", "travelled", "length", "remaining",
      "index" }) do
      E(("calling '%s' on bad self (astar.Walker expected, got nil)"):format(m), w[m])
    end
    E("bad argument #1 to 'at' (number expected, got nil)", w.at, w)
    E("bad argument #1 to 'at' (distance must be a number, got nan)", w.at, w, 0 / 0)
    E("bad argument #1 to 'set_speed' (speed must be a positive finite number, got 0)", w.set_speed, w, 0)
    E("bad argument #1 to 'set_speed' (speed must be a positive finite number, got string)",
      w.set_speed, w, "fast")
    E("bad argument #2 to 'follow' (speed must be a positive finite number, got -1)",
      astar.follow, { 0, 0 }, -1)
    E("bad argument #2 to 'follow' (speed must be a positive finite number, got inf)",
      astar.follow, { 0, 0 }, math.huge)
    E("bad argument #2 to 'follow' (speed must be a positive finite number, got nil)",
      astar.follow, { 0, 0 })
    E("bad argument #1 to 'follow' (Path, Curve or flat list of points expected, got nil)",
      astar.follow, nil, 1)
    E("bad argument #1 to 'follow' (Path, Curve or flat list of points expected, got userdata)",
      astar.follow, astar.grid(2, 2), 1)
    E("bad argument #1 to 'follow' (a route needs at least one point)", astar.follow, {}, 1)
    E("bad argument #1 to 'follow' (x, y pairs expected: the list has 3 numbers)",
      astar.follow, { 1, 2, 3 }, 1)
    E("bad argument #1 to 'follow' (point 2: y must be a finite number, got nan)",
      astar.follow, { 1, 2, 3, 0 / 0 }, 1)
    E("bad argument #1 to 'follow' (point 1: x must be a finite number, got string)",
      astar.follow, { "1", 2 }, 1)
    E("bad argument #3 to 'follow' (table expected, got number)", astar.follow, { 0, 0 }, 1, 5)
    E("bad argument #3 to 'follow' (unknown option 'sped')", astar.follow, { 0, 0 }, 1, { sped = 1 })
    E("bad argument #3 to 'follow' (option 'start': must be a non-negative finite number, got -1)",
      astar.follow, { 0, 0 }, 1, { start = -1 })
    local g = astar.graph()
    local a, b = g:add_node(), g:add_node()
    g:add_edge(a, b, 1)
    H.checkerr_prefix("bad argument #1 to 'follow' (a Path of positions expected: ",
      astar.follow, assert(g:find(a, b)), 1)
  end)
end)

describe("astar.follow on routes whose length overflows (review)", function()
  it("refuses them instead of walking NaN", function()
    H.checkerr("bad argument #1 to 'follow' (the route is too long: its length passes the "
      .. "largest number at point 2)", astar.follow, { -1e308, 0, 1e308, 0 }, 1e300)
  end)
end)
