-- astar.curve (Dubins) against a reference of this file built from circles and tangent lines
-- (not the closed forms the library uses): for every pair of turning circles the outer or inner
-- tangent, or a third circle touching both; the shortest of them is the optimum. Every curve
-- must also end at the goal pose when its segments are driven here, in Lua.
--
-- astar.curve with reverse = true (Reeds-Shepp) against a numerical reference, below: every
-- word of the five shapes the optimum takes (Reeds and Shepp 1990) with signed lengths, solved
-- by a scan and root finding, not by the closed forms.
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

-- Drives the curve's segments from the start pose, here in Lua (backward where seg[3] is -1).
local function drive(c, x, y, h, r)
  for _, seg in ipairs(c:segments()) do
    local k, l = seg[1], seg[2] * seg[3]
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

-- Reeds-Shepp reference. By the theorem of Reeds and Shepp, a shortest path is a word of one of
-- the shapes C S C, C C C, C C_u C_u C, C C_(pi/2) S C, C S C_(pi/2) C, C C_(pi/2) S C_(pi/2) C
-- (C an arc of radius r, S a straight, C_u an arc of length u). Here every arc may be L or R,
-- and every length is signed (below 0: driven backward): every choice of directions, with or
-- without cusps, a superset of the paper's 48 words whose shortest path is therefore the
-- optimum. A word's first arc turns about a centre that stays put (the start's left or right
-- one) and its last about the goal's; what lies between depends on one parameter q (the
-- straight's length, or the middle arcs' u), and the word exists iff the distance between the
-- two centres, D, equals the one the middle makes, |v(q)|. With a straight, v is affine in q
-- (a line meets a circle); without, q in [-pi, pi] is scanned and each root refined. The first
-- and last arcs then follow from the directions, each taken in (-pi, pi] (the shortest turn).
local RS = {}
do
  local KAPPA = { L = 1, R = -1, S = 0 }
  local abs = math.abs

  local function wrap(a) a = a % TWO_PI; if a > pi then a = a - TWO_PI end; return a end

  -- (x, y, h) driven along kind k by the signed length t, radius 1: an arc turns about the centre
  -- on the unit's left (L) or right (R) whichever way it drives.
  function RS.step(x, y, h, k, t)
    local s = KAPPA[k]
    if s == 0 then return x + t * cos(h), y + t * sin(h), h end
    local cx, cy = x - s * sin(h), y + s * cos(h)
    local h2 = h + s * t
    return cx + s * sin(h2), cy - s * cos(h2), h2
  end

  local function len_of(l, q) return l == "q" and q or l == "-q" and -q or l end

  local function other(k) return k == "L" and "R" or "L" end
  local words, H2 = {}, pi / 2
  local function add(k1, mid, kn)
    local straight = false
    for _, sg in ipairs(mid) do straight = straight or sg[1] == "S" end
    words[#words + 1] = { k1 = k1, mid = mid, kn = kn, straight = straight }
  end
  for _, a in ipairs({ "L", "R" }) do
    for _, b in ipairs({ "L", "R" }) do
      add(a, { { "S", "q" } }, b)                                          -- C S C
      for _, s1 in ipairs({ 1, -1 }) do
        add(a, { { other(a), s1 * H2 }, { "S", "q" } }, b)                  -- C C_(pi/2) S C
        add(a, { { "S", "q" }, { other(b), s1 * H2 } }, b)                  -- C S C_(pi/2) C
        for _, s2 in ipairs({ 1, -1 }) do
          add(a, { { other(a), s1 * H2 }, { "S", "q" }, { other(b), s2 * H2 } }, b)
        end
      end
    end
    add(a, { { other(a), "q" } }, a)                                       -- C C C
    add(a, { { other(a), "q" }, { a, "q" } }, other(a))                    -- C C_u C_u C
    add(a, { { other(a), "q" }, { a, "-q" } }, other(a))
  end

  -- v(q), from the first arc's centre to the last one's in the frame where the first arc ends,
  -- and the heading the middle turns.
  local function vq(w, q)
    local x, y, h = 0, 0, 0
    for _, sg in ipairs(w.mid) do x, y, h = RS.step(x, y, h, sg[1], len_of(sg[2], q)) end
    local kn = KAPPA[w.kn]
    return x - kn * sin(h), y + kn * cos(h) - KAPPA[w.k1], h
  end

  -- Every q with |v(q)| = D.
  local function roots(w, D)
    local out = {}
    if w.straight then                                -- |A + q B| = D, |B| = 1
      local ax, ay = vq(w, 0)
      local bx, by = vq(w, 1)
      bx, by = bx - ax, by - ay
      local ab = ax * bx + ay * by
      local disc = ab * ab - (ax * ax + ay * ay) + D * D
      if disc < 0 and disc > -1e-12 then disc = 0 end
      if disc >= 0 then out[1], out[2] = -ab + sqrt(disc), -ab - sqrt(disc) end
      return out
    end
    local function g(q)
      local x, y = vq(w, q)
      return sqrt(x * x + y * y) - D
    end
    local N, qs, gs = 48, {}, {}
    for i = 0, N do qs[i] = -pi + TWO_PI * i / N; gs[i] = g(qs[i]) end
    for i = 0, N - 1 do
      if gs[i] == 0 then
        out[#out + 1] = qs[i]
      elseif gs[i] * gs[i + 1] < 0 then               -- regula falsi, Illinois
        local a, b, ga, gb, side, m = qs[i], qs[i + 1], gs[i], gs[i + 1], 0, qs[i]
        for _ = 1, 200 do
          m = (a * gb - b * ga) / (gb - ga)
          local gm = g(m)
          if gm == 0 or b - a < 1e-14 then break end
          if (gm < 0) == (ga < 0) then
            a, ga = m, gm
            if side == -1 then gb = gb / 2 end
            side = -1
          else
            b, gb = m, gm
            if side == 1 then ga = ga / 2 end
            side = 1
          end
        end
        out[#out + 1] = m
      end
    end
    -- where |g| dips toward 0 between samples of one sign, its minimum (a double root) by a
    -- ternary search, given up once |g| cannot reach 0 in the bracket: |g| changes by at most
    -- lip dq (an arc of the middle turns the last centre about its own, at most 2 away for the
    -- last arc and 2 further for each before it)
    local lip = #w.mid == 1 and 2 or 6
    for i = 1, N - 1 do
      local a, b, c = abs(gs[i - 1]), abs(gs[i]), abs(gs[i + 1])
      if b <= a and b <= c and gs[i - 1] * gs[i] > 0 and gs[i] * gs[i + 1] > 0 then
        local lo, hi, q = qs[i - 1], qs[i + 1], qs[i]
        while hi - lo > 1e-13 and abs(g(q)) <= lip * (hi - lo) do
          local m1, m2 = lo + (hi - lo) / 3, hi - (hi - lo) / 3
          if abs(g(m1)) < abs(g(m2)) then hi = m2 else lo = m1 end
          q = (lo + hi) / 2
        end
        if abs(g(q)) < 1e-10 then out[#out + 1] = q end
      end
    end
    return out
  end

  -- The shortest word from (x0, y0, h0) to (x1, y1, h1) for radius r: its length, and its
  -- segments {{kind, signed length over r}, ...}.
  function RS.reference(x0, y0, h0, x1, y1, h1, r)
    local best, bsegs = math.huge, nil
    local gx, gy = (x1 - x0) / r, (y1 - y0) / r
    for _, w in ipairs(words) do
      local k1, kn = KAPPA[w.k1], KAPPA[w.kn]
      local dx = gx - kn * sin(h1) + k1 * sin(h0)
      local dy = gy + kn * cos(h1) - k1 * cos(h0)
      for _, q in ipairs(roots(w, sqrt(dx * dx + dy * dy))) do
        local vx, vy, mh = vq(w, q)
        local hp = atan2(dy, dx) - atan2(vy, vx)       -- the heading where the first arc ends
        local segs = { { w.k1, wrap((hp - h0) * k1) } }
        for _, sg in ipairs(w.mid) do segs[#segs + 1] = { sg[1], len_of(sg[2], q) } end
        segs[#segs + 1] = { w.kn, wrap((h1 - hp - mh) * kn) }
        local len = 0
        for _, sg in ipairs(segs) do len = len + abs(sg[2]) end
        if len < best then best, bsegs = len, segs end
      end
    end
    return best * r, bsegs
  end

  -- The paper's 48 words as astar's word strings: its nine families with a and c each L or R
  -- (b is the other of a, d of c), the first segment forward or backward ("=" its direction,
  -- "~" the other).
  local FAMILIES = { "a=S=c=", "a=b~a=", "a=b=a~", "a=b~a~", "a=b=a~b~", "a=b~a~b=", "a=b~S~c~",
    "a=S=c=d~", "a=b~S~a~b=" }
  RS.WORDS, RS.NWORDS = {}, 0
  for _, f in ipairs(FAMILIES) do
    for _, a in ipairs({ "L", "R" }) do
      for _, c in ipairs({ "L", "R" }) do
        for _, first in ipairs({ "+", "-" }) do
          local k = { a = a, b = other(a), c = c, d = other(c), S = "S" }
          local sg = { ["="] = first, ["~"] = first == "+" and "-" or "+" }
          local w = f:gsub("(%a)([=~])", function(x, y) return k[x] .. sg[y] end)
          if not RS.WORDS[w] then RS.WORDS[w], RS.NWORDS = true, RS.NWORDS + 1 end
        end
      end
    end
  end
end

describe("astar.curve", function()
  it("is the shortest of the reference's curves, and ends at the goal pose", function()
    local rng = H.rng(16180)
    local words = {}
    for _ = 1, H.trials(20000) do
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
      for _, seg in ipairs(c:segments()) do
        total = total + seg[2]
        assert.are.equal(1, seg[3])
      end
      assert.is_true(H.close(total, c:length(), 1e-12))
      assert.are.equal(0, c:cusps())
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

describe("astar.curve with reverse = true (Reeds-Shepp)", function()
  local function num(rng, lo, hi) return lo + (hi - lo) * rng.float() end

  -- A random pair of poses and a radius; half of the goals near the start, where the words
  -- with several arcs are shortest.
  local function poses(rng)
    local x0, y0, h0 = num(rng, -10, 10), num(rng, -10, 10), num(rng, -7, 7)
    local x1, y1, h1 = num(rng, -10, 10), num(rng, -10, 10), num(rng, -7, 7)
    if rng.float() < 0.5 then x1, y1 = x0 + num(rng, -3, 3), y0 + num(rng, -3, 3) end
    return x0, y0, h0, x1, y1, h1, num(rng, 0.2, 4)
  end

  local function rs(x0, y0, h0, x1, y1, h1, r)
    return astar.curve(x0, y0, h0, x1, y1, h1, r, { reverse = true })
  end

  local function describe_segs(segs)
    local t = {}
    for _, sg in ipairs(segs) do t[#t + 1] = ("%s%.6f"):format(sg[1], sg[2]) end
    return table.concat(t, " ")
  end

  it("is the shortest of the reference's words, one of the paper's 48, and ends at the goal",
    function()
      assert.are.equal(48, RS.NWORDS)
      local rng = H.rng(271828)
      local families = {}
      for _ = 1, H.trials(2000) do
        local x0, y0, h0, x1, y1, h1, r = poses(rng)
        local c = rs(x0, y0, h0, x1, y1, h1, r)
        local want, segs = RS.reference(x0, y0, h0, x1, y1, h1, r)
        -- the reference's own path must reach the goal
        local x, y, h = x0 / r, y0 / r, h0
        for _, sg in ipairs(segs) do x, y, h = RS.step(x, y, h, sg[1], sg[2]) end
        assert.is_true(math.abs(x * r - x1) < 1e-8 and math.abs(y * r - y1) < 1e-8 and
          same_heading(h, h1), "the reference's path misses the goal")
        assert.is_true(math.abs(c:length() - want) <= 1e-9 * math.max(1, want),
          ("length %.15g, reference %.15g (%s; reference %s)"):format(c:length(), want,
            c:word(), describe_segs(segs)))
        -- the word: the segments' kinds and directions, one of the 48, its cusps counted here
        local word, total, cusps, prev = "", 0, 0, nil
        for _, sg in ipairs(c:segments()) do
          assert.is_true(sg[3] == 1 or sg[3] == -1)
          assert.is_true(sg[2] >= 0)
          word = word .. sg[1] .. (sg[3] > 0 and "+" or "-")
          total = total + sg[2]
          if sg[2] > 0 then
            if prev and prev ~= sg[3] then cusps = cusps + 1 end
            prev = sg[3]
          end
        end
        assert.are.equal(word, c:word())
        assert.is_true(RS.WORDS[word], word .. " is not one of the 48 words")
        assert.are.equal(cusps, c:cusps())
        assert.is_true(math.abs(total - c:length()) <= 1e-12 * math.max(1, total))
        -- driven here, and sampled, it ends at the goal pose
        local scale = 1e-9 * math.max(1, math.abs(x1), math.abs(y1), c:length())
        x, y, h = drive(c, x0, y0, h0, r)
        assert.is_true(math.abs(x - x1) < scale and math.abs(y - y1) < scale and
          same_heading(h, h1), "driving the segments does not reach the goal pose")
        local sx, sy, sh = c:sample(c:length())
        assert.is_true(math.abs(sx - x1) < scale and math.abs(sy - y1) < scale and
          same_heading(sh, h1), "sample(length) is not the goal pose")
        local fam = word:gsub("[+-]", ""):gsub("R", "L")
        families[fam .. "/" .. cusps] = (families[fam .. "/" .. cusps] or 0) + 1
      end
      -- every family turns up: CSC, C|C|C, CC|C and C|CC, CC|CC, C|CC|C, C|CSC, CSC|C, C|CSC|C
      -- (by the kinds with L for R, and the cusps)
      local want = { ["LSL/0"] = 150, ["LLL/2"] = 120, ["LLL/1"] = 80, ["LLLL/1"] = 10,
        ["LLLL/2"] = 25, ["LLSL/1"] = 100, ["LSLL/1"] = 100, ["LLSLL/2"] = 8 }
      for k, n in pairs(want) do
        local got = families[k] or 0
        assert.is_true(got >= H.trials(n), ("%s seen %d times"):format(k, got))
      end
    end)

  it("is no longer than Dubins nor shorter than the straight line, and as long either way",
    function()
      local rng = H.rng(141421)
      for _ = 1, H.trials(3000) do
        local x0, y0, h0, x1, y1, h1, r = poses(rng)
        local c = rs(x0, y0, h0, x1, y1, h1, r)
        local d = astar.curve(x0, y0, h0, x1, y1, h1, r)
        local back = rs(x1, y1, h1, x0, y0, h0, r)
        local eps = 1e-9 * math.max(1, d:length())
        assert.is_true(c:length() <= d:length() + eps)
        assert.is_true(c:length() >= sqrt((x1 - x0) ^ 2 + (y1 - y0) ^ 2) - eps)
        assert.is_true(math.abs(back:length() - c:length()) <= eps,
          ("%s %.15g, back %s %.15g"):format(c:word(), c:length(), back:word(), back:length()))
        -- with no backward segment it is a forward path, so exactly as long as Dubins
        if c:cusps() == 0 and c:word():find("-", 1, true) == nil then
          assert.is_true(math.abs(c:length() - d:length()) <= eps)
        end
      end
    end)

  it("samples continuously, facing ahead forward and behind backward", function()
    local rng = H.rng(1732)
    local n, K = 0, 200
    for _ = 1, H.trials(200) do
      local x0, y0, h0, x1, y1, h1, r = poses(rng)
      local c = rs(x0, y0, h0, x1, y1, h1, r)
      local L = c:length()
      local ds = L / K
      local segs, ends, acc = c:segments(), {}, 0
      for i, sg in ipairs(segs) do acc = acc + sg[2]; ends[i] = acc end
      local px, py, ph = c:sample(0)
      assert.is_true(math.abs(px - x0) < 1e-12 and math.abs(py - y0) < 1e-12 and
        same_heading(ph, h0))
      assert.are.same({ px, py, ph }, { c:sample(-1) })
      assert.are.same({ c:sample(L) }, { c:sample(L + 1) })
      local jump, spin, wrong = 0, 0, 0    -- the worst of each, over the steps
      for i = 1, K do
        local x, y, h = c:sample(i * ds)
        local dx, dy = x - px, y - py
        local moved = sqrt(dx * dx + dy * dy)
        jump = math.max(jump, moved - ds * (1 + 1e-9))
        spin = math.max(spin, math.abs((h - ph + pi) % TWO_PI - pi) - ds / r * (1 + 1e-9))
        -- the segment of this step (away from the ends of segments): its direction says whether
        -- the unit moved the way it faces (at the middle of the step) or the other
        local s, k = (i - 0.5) * ds, 1
        while k < #ends and ends[k] < s do k = k + 1 end
        if s - (ends[k - 1] or 0) > ds and ends[k] - s > ds then
          local _, _, hm = c:sample(s)
          wrong = math.max(wrong, math.abs((dx * cos(hm) + dy * sin(hm)) / moved - segs[k][3]))
          n = n + 1
        end
        px, py, ph = x, y, h
      end
      assert.is_true(jump <= 1e-12, "a jump along the curve")
      assert.is_true(spin <= 1e-12, "a jump of the heading")
      assert.is_true(wrong < 1e-3, "moving other than the segment's direction says, facing " ..
        c:word())
    end
    assert.is_true(n > H.trials(200) * K / 2)
  end)

  it("drives straight back, parks beside, and keeps Dubins without the option", function()
    local b = astar.curve(0, 0, 0, -5, 0, 0, 1, { reverse = true })
    assert.is_true(H.close(b:length(), 5))
    assert.are.equal(0, b:cusps())
    assert.matches("S%-", b:word())
    assert.is_true(RS.WORDS[b:word()], b:word())
    for _, sg in ipairs(b:segments()) do assert.are.equal(-1, sg[3]) end  -- arcs of 0 too
    local x, y, h = b:sample(2)
    assert.is_true(H.close(x, -2) and math.abs(y) < 1e-12 and same_heading(h, 0))  -- faces +x
    -- one radius to the side, as before: the shortest way reverses twice (C|C|C); Dubins loops
    local p = astar.curve(0, 0, 0, 0, 2, 0, 1, { reverse = true })
    assert.are.equal(2, p:cusps())
    assert.is_true(p:length() < astar.curve(0, 0, 0, 0, 2, 0, 1):length())
    assert.is_true(H.close(p:length(), RS.reference(0, 0, 0, 0, 2, 0, 1), 1e-9))
    assert.is_truthy(tostring(p):match("^astar%.Curve %([LR][+-][LR][+-][LR][+-][LR]?[+-]?, " ..
      "length [%d.]+%)$"))
    -- reverse = false is Dubins
    local d1 = astar.curve(1, 2, 3, 4, 5, 6, 1.5)
    local d2 = astar.curve(1, 2, 3, 4, 5, 6, 1.5, { reverse = false })
    local d3 = astar.curve(1, 2, 3, 4, 5, 6, 1.5, {})
    assert.are.equal(d1:word(), d2:word())
    assert.are.equal(d1:word(), d3:word())
    assert.are.equal(d1:length(), d2:length())
    assert.are.same(d1:segments(), d2:segments())
    assert.are.equal(0, d1:cusps())
  end)

  it("a walker follows it, facing where the curve faces", function()
    local rng = H.rng(99)
    for _ = 1, H.trials(60) do
      local x0, y0, h0, x1, y1, h1, r = poses(rng)
      local c = rs(x0, y0, h0, x1, y1, h1, r)
      local w = astar.follow(c, 1 + rng.float() * 5)
      assert.are.equal(c:length(), w:length())
      local segs, bounds, acc = c:segments(), {}, 0
      for i, sg in ipairs(segs) do acc = acc + sg[2]; bounds[i] = acc end
      while not w:arrived() do
        local x, y = w:update(rng.float() * 0.2)
        local cx, cy, ch = c:sample(w:travelled())
        assert.is_true(math.abs(x - cx) <= 1e-9 and math.abs(y - cy) <= 1e-9)
        assert.is_true(math.abs(w:heading() - ch) <= 1e-9)
        local k = 1
        while k < #segs and bounds[k] <= w:travelled() do k = k + 1 end
        assert.are.equal(k, w:index())
      end
      local gx, gy = c:sample(c:length())
      assert.are.same({ gx, gy }, { w:position() })
    end
  end)

  it("bad options raise clear errors", function()
    H.checkerr("bad argument #8 to 'curve' (table expected, got boolean)",
      astar.curve, 0, 0, 0, 1, 1, 0, 1, true)
    H.checkerr("bad argument #8 to 'curve' (unknown option 'reversed')",
      astar.curve, 0, 0, 0, 1, 1, 0, 1, { reversed = true })
    H.checkerr("bad argument #8 to 'curve' (option 'reverse': boolean expected, got number)",
      astar.curve, 0, 0, 0, 1, 1, 0, 1, { reverse = 1 })
    H.checkerr("bad argument #8 to 'curve' (option names must be strings, got number)",
      astar.curve, 0, 0, 0, 1, 1, 0, 1, { true })
    H.checkerr("bad argument #7 to 'curve' (r must be a positive finite number, got -1)",
      astar.curve, 0, 0, 0, 1, 1, 0, -1, { reverse = true })
    H.checkerr("bad argument #5 to 'curve' (y1 must be a finite number, got nan)",
      astar.curve, 0, 0, 0, 1, 0 / 0, 0, 1, { reverse = true })
    H.checkerr("bad argument #7 to 'curve' (r too small for the distance: the ends are more than "
      .. "1e15 radii apart)", astar.curve, 0, 0, 0, 1e100, 0, 0, 1e-100, { reverse = true })
    local c = astar.curve(0, 0, 0, 1, 1, 0, 1, { reverse = true })
    H.checkerr("bad argument #1 to 'sample' (s must be a number, got nan)", c.sample, c, 0 / 0)
    H.checkerr_prefix("calling 'cusps' on bad self", c.cusps, {})
  end)
end)
