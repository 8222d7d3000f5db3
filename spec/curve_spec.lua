-- astar.curve (Dubins) against a reference of this file built from circles and tangent lines
-- (not the closed forms the library uses): for every pair of turning circles the outer or inner
-- tangent, or a third circle touching both; the shortest of them is the optimum. Every curve
-- must also end at the goal pose when its segments are driven here, in Lua.
local astar = require "astar"
local H = require "spec.helper"

local pi, sin, cos, atan2, sqrt = math.pi, math.sin, math.cos, math.atan2 or math.atan, math.sqrt
local TWO_PI = 2 * pi
local function mod2pi(a) return a % TWO_PI end

-- The centre of the circle a pose turns on: side 1 left, -1 right.
local function centre(x, y, h, r, side) return x - side * r * sin(h), y + side * r * cos(h) end

-- The turn from heading a to heading b on side 1 (left, counter-clockwise) or -1 (right).
local function turn(a, b, side) return side == 1 and mod2pi(b - a) or mod2pi(a - b) end

local function reference(x0, y0, h0, x1, y1, h1, r)
  local best = math.huge
  for _, s1 in ipairs({ 1, -1 }) do
    for _, s2 in ipairs({ 1, -1 }) do
      local ax, ay = centre(x0, y0, h0, r, s1)
      local bx, by = centre(x1, y1, h1, r, s2)
      local dx, dy = bx - ax, by - ay
      local D = sqrt(dx * dx + dy * dy)
      local th = atan2(dy, dx)
      -- arc, straight, arc
      local phi, len
      if s1 == s2 then
        phi, len = th, D
      elseif D >= 2 * r then
        len = sqrt(D * D - 4 * r * r)
        phi = th + s1 * atan2(2 * r, len)
      end
      if phi then
        best = math.min(best, r * (turn(h0, phi, s1) + turn(phi, h1, s2)) + len)
      end
      -- arc, arc, arc: same sides at both ends, a circle of the other side touching both
      if s1 == s2 and D <= 4 * r and D > 0 then
        local mx, my = (ax + bx) / 2, (ay + by) / 2
        local off = sqrt(4 * r * r - D * D / 4)
        for _, k in ipairs({ 1, -1 }) do
          local cx, cy = mx - k * off * dy / D, my + k * off * dx / D
          local t1x, t1y = (ax + cx) / 2, (ay + cy) / 2
          local t2x, t2y = (bx + cx) / 2, (by + cy) / 2
          -- headings where the arcs meet: on a circle of side s at angle psi, psi + s pi/2
          local ha = atan2(t1y - ay, t1x - ax) + s1 * pi / 2
          local hm1 = atan2(t1y - cy, t1x - cx) - s1 * pi / 2
          local hm2 = atan2(t2y - cy, t2x - cx) - s1 * pi / 2
          local hb = atan2(t2y - by, t2x - bx) + s2 * pi / 2
          local total = turn(h0, ha, s1) + turn(hm1, hm2, -s1) + turn(hb, h1, s2)
          -- the arcs must meet with one heading (they do, up to rounding)
          best = math.min(best, r * total)
        end
      end
    end
  end
  return best
end

-- Drives the curve's segments from the start pose, here in Lua.
local function drive(c, x, y, h, r)
  for _, seg in ipairs(c:segments()) do
    local k, l = seg[1], seg[2]
    if k == "S" then
      x, y = x + l * cos(h), y + l * sin(h)
    else
      local s = k == "L" and 1 or -1
      local t = l / r
      x = x + s * r * (sin(h + s * t) - sin(h))
      y = y - s * r * (cos(h + s * t) - cos(h))
      h = h + s * t
    end
  end
  return x, y, h
end

local function same_heading(a, b) return math.abs((a - b + pi) % TWO_PI - pi) < 1e-7 end

describe("astar.curve", function()
  it("is the shortest of the reference's curves, and ends at the goal pose", function()
    local rng = H.rng(16180)
    local words = {}
    for _ = 1, 20000 do
      local function num(lo, hi) return lo + (hi - lo) * rng.float() end
      local x0, y0, h0 = num(-10, 10), num(-10, 10), num(-7, 7)
      local x1, y1, h1 = num(-10, 10), num(-10, 10), num(-7, 7)
      if rng.float() < 0.3 then x1, y1 = x0 + num(-2, 2), y0 + num(-2, 2) end   -- near: CCC
      local r = num(0.2, 4)
      local c = astar.curve(x0, y0, h0, x1, y1, h1, r)
      local want = reference(x0, y0, h0, x1, y1, h1, r)
      assert.is_true(math.abs(c:length() - want) <= 1e-7 * math.max(1, want),
        ("length %.12g, reference %.12g (%s)"):format(c:length(), want, c:word()))
      local x, y, h = drive(c, x0, y0, h0, r)
      assert.is_true(math.abs(x - x1) < 1e-6 and math.abs(y - y1) < 1e-6 and same_heading(h, h1),
        "driving the segments does not reach the goal pose")
      local sx, sy, sh = c:sample(c:length())
      assert.is_true(math.abs(sx - x1) < 1e-6 and math.abs(sy - y1) < 1e-6 and same_heading(sh, h1))
      local total = 0
      for _, seg in ipairs(c:segments()) do total = total + seg[2] end
      assert.is_true(H.close(total, c:length(), 1e-12))
      words[c:word()] = (words[c:word()] or 0) + 1
    end
    for _, w in ipairs({ "LSL", "RSR", "LSR", "RSL", "RLR", "LRL" }) do
      assert.is_true((words[w] or 0) > 50, w .. " seen " .. tostring(words[w]))
    end
  end)

  it("samples along the curve and lists points for drawing", function()
    local c = astar.curve(0, 0, 0, 10, 0, 0, 1)
    assert.is_true(H.close(c:length(), 10))              -- straight ahead: arcs of 0
    local x, y, h = c:sample(4)
    assert.is_true(H.close(x, 4) and math.abs(y) < 1e-12 and same_heading(h, 0))
    local x0, y0 = c:sample(-1)                           -- clamped to the start
    assert.are.same({ 0, 0 }, { x0, y0 })
    local pts = c:points(3)
    assert.are.equal(10, #pts)                             -- 0, 3, 6, 9, 10
    assert.is_true(H.close(pts[9], 10))
    -- a U-turn of radius 2 to end beside the start, facing back
    local u = astar.curve(0, 0, 0, 0, 4, pi, 2)
    assert.are.equal("LSL", u:word())
    assert.is_true(H.close(u:length(), 2 * pi))
    assert.is_truthy(tostring(u):match("^astar%.Curve %(LSL, length 6%.28"))
  end)

  it("bad arguments raise clear errors", function()
    H.checkerr("bad argument #7 to 'curve' (r must be a positive finite number, got 0)",
      astar.curve, 0, 0, 0, 1, 1, 0, 0)
    H.checkerr("bad argument #3 to 'curve' (h0 must be a finite number, got nan)",
      astar.curve, 0, 0, 0 / 0, 1, 1, 0, 1)
    H.checkerr("bad argument #4 to 'curve' (x1 must be a finite number, got inf)",
      astar.curve, 0, 0, 0, math.huge, 1, 0, 1)
    H.checkerr("bad argument #2 to 'curve' (number expected, got string)",
      astar.curve, 0, "0", 0, 1, 1, 0, 1)
    local c = astar.curve(0, 0, 0, 5, 5, 1, 1)
    H.checkerr("bad argument #1 to 'points' (step must be a positive finite number, got 0)",
      c.points, c, 0)
    H.checkerr("bad argument #1 to 'points' (step too small: more than a million points)",
      c.points, c, 1e-9)
    H.checkerr("bad argument #1 to 'sample' (s must be a number, got nan)", c.sample, c, 0 / 0)
    H.checkerr_prefix("calling 'length' on bad self", c.length, {})
    H.checkerr("bad argument #7 to 'curve' (r too small for the distance: the ends are more than "
      .. "1e15 radii apart)", astar.curve, 0, 0, 0, 1e100, 0, 0, 1e-100)
  end)
end)
