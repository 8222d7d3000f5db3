-- The navmesh oracle in spec/helper.lua, tested on its own: distances, containment and shortest
-- paths against answers computed by hand (a room with a pillar, an L corridor, a U-shaped hole),
-- then the random maps' invariants and the oracle's self-consistency on them. The library is not
-- used here: these specs make sure the references of navmesh_quality_spec.lua can fail.

local H = require "spec.helper"

local sqrt, huge = math.sqrt, math.huge

-- 10 x 10 room with a 2 x 2 pillar in the middle; the pillar listed clockwise, the room not.
local ROOM = { outline = { 0, 0, 10, 0, 10, 10, 0, 10 }, holes = { { 4, 4, 4, 6, 6, 6, 6, 4 } } }
-- An L corridor two units wide: the reflex corner is (2, 2).
local L = { outline = { 0, 0, 10, 0, 10, 2, 2, 2, 2, 10, 0, 10 }, holes = {} }
-- A 20 x 20 room with a U-shaped hole whose pocket (x 7..13, y 7..15) opens upwards.
local U = {
  outline = { 0, 0, 20, 0, 20, 20, 0, 20 },
  holes = { { 5, 5, 15, 5, 15, 15, 13, 15, 13, 7, 7, 7, 7, 15, 5, 15 } },
}

-- The same domain with every ring listed the other way round.
local function reversed(dom)
  local function rev(r)
    local out = {}
    for i = #r - 1, 1, -2 do out[#out + 1], out[#out + 2] = r[i], r[i + 1] end
    return out
  end
  local holes = {}
  for i, hole in ipairs(dom.holes) do holes[i] = rev(hole) end
  return { outline = rev(dom.outline), holes = holes }
end

local function near(a, b) return math.abs(a - b) <= 1e-12 * math.max(1, math.abs(b)) end

local function fmt_pts(pts)
  local out = {}
  for i, v in ipairs(pts or {}) do out[i] = ("%.17g"):format(v) end
  return "{" .. table.concat(out, ", ") .. "}"
end

describe("navmesh oracle: distances", function()
  it("seg_dist measures to the nearest point of the segment, ends and degenerate segments included",
    function()
      assert.is_true(near(H.seg_dist(5, 3, 0, 0, 10, 0), 3))
      assert.is_true(near(H.seg_dist(13, 4, 0, 0, 10, 0), 5))  -- beyond b: to (10, 0)
      assert.is_true(near(H.seg_dist(-3, -4, 0, 0, 10, 0), 5)) -- before a: to (0, 0)
      assert.is_true(near(H.seg_dist(4, 5, 1, 1, 1, 1), 5))   -- a point segment
      assert.is_true(near(H.seg_dist(1, 1, 0, 0, 2, 2), 0))   -- on it
      assert.is_true(near(H.seg_dist(0, 2, 0, 0, 2, 2), sqrt(2)))
    end)

  it("segseg_dist is 0 for crossing or touching segments and the gap otherwise", function()
    assert.equal(0, H.segseg_dist(0, 0, 2, 2, 0, 2, 2, 0))        -- X
    assert.equal(0, H.segseg_dist(0, 0, 4, 0, 2, 0, 2, 5))        -- T
    assert.equal(0, H.segseg_dist(0, 0, 4, 0, 4, 0, 6, 3))        -- shared end
    assert.equal(0, H.segseg_dist(0, 0, 4, 0, 2, 0, 6, 0))        -- collinear overlap
    assert.is_true(near(H.segseg_dist(0, 0, 4, 0, 1, 3, 3, 3), 3)) -- parallel
    assert.is_true(near(H.segseg_dist(0, 0, 1, 0, 4, 0, 6, 0), 3)) -- collinear, apart
    assert.is_true(near(H.segseg_dist(0, 0, 1, 0, 4, 4, 4, 8), 5)) -- (1, 0) to (4, 4)
    assert.is_true(near(H.segseg_dist(0, 0, 2, 2, 3, 0, 3, 9), 1)) -- (2, 2) to the line x = 3
  end)
end)

describe("navmesh oracle: containment", function()
  it("domain_edges lists every ring's edges", function()
    local edges = H.domain_edges(ROOM)
    assert.equal(8, #edges)
    assert.same({ 0, 10, 0, 0 }, edges[4])  -- the outline closes
    assert.same({ 6, 4, 4, 4 }, edges[8])   -- the pillar closes
  end)

  it("in_domain counts the boundary as inside and hole interiors as outside, either orientation",
    function()
      for _, dom in ipairs({ ROOM, reversed(ROOM) }) do
        local cases = {
          { 2, 2, true }, { 5, 5, false }, { 4, 5, true }, { 4, 4, true }, { 6, 6, true },
          { 0, 5, true }, { 10, 10, true }, { 11, 5, false }, { -1e-3, 5, false },
          { 5.5, 4.5, false }, { 3.999, 5, true }, { 4.001, 5, false },
        }
        for _, c in ipairs(cases) do
          assert(H.in_domain(dom, c[1], c[2]) == c[3],
            ("in_domain(%g, %g) should be %s"):format(c[1], c[2], tostring(c[3])))
        end
      end
      assert.is_false(H.in_domain(L, 5, 5))
      assert.is_true(H.in_domain(L, 2, 6))
      assert.is_true(H.in_domain(U, 10, 10)) -- in the pocket
      assert.is_false(H.in_domain(U, 14, 10)) -- in an arm
    end)

  it("segment_in_domain follows edges and grazes corners, and rejects every way out", function()
    local cases = {
      { ROOM, 1, 5, 9, 5, false },     -- through the pillar
      { ROOM, 0, 0, 10, 10, false },   -- the diagonal, through the pillar's corners
      { ROOM, 1, 4, 9, 4, true },      -- along the pillar's bottom edge
      { ROOM, 2, 6, 6, 2, true },      -- grazes the corner (4, 4)
      { ROOM, 2, 6, 6, 2.1, false },   -- cuts the corner by a few hundredths
      { ROOM, 0, 0, 10, 0, true },     -- along the outline
      { ROOM, -1, 0, 5, 0, false },    -- starts outside
      { ROOM, 5, 5, 5, 5, false },     -- a point in the pillar
      { ROOM, 3, 3, 3, 3, true },
      { ROOM, 10, 0, 10, 10, true },
      { L, 10, 2, 2, 10, false },      -- ends on the boundary, no proper crossing, middle outside
      { L, 9, 1, 1, 9, false },
      { L, 1, 3, 3, 1, true },         -- through the reflex corner (2, 2)
      { L, 1, 3.5, 3.5, 1, false },    -- misses it on the outside
      { L, 0, 0, 2, 2, true },
      { L, 2, 2, 10, 2, true },
      { U, 10, 8, 13, 15, true },      -- leaves the pocket past the arm's top corner
      { U, 10, 8, 15, 15, false },     -- through the arm
      { U, 6, 16, 6, 4, false },       -- through the left arm, from above to below
    }
    for i, c in ipairs(cases) do
      for _, dom in ipairs({ c[1], reversed(c[1]) }) do
        local got = H.segment_in_domain(dom, c[2], c[3], c[4], c[5])
        assert(got == c[6], ("case %d: segment (%g, %g) -> (%g, %g) should give %s"):format(
          i, c[2], c[3], c[4], c[5], tostring(c[6])))
        -- the reverse direction gives the same answer
        assert(H.segment_in_domain(dom, c[4], c[5], c[2], c[3]) == c[6],
          ("case %d reversed"):format(i))
      end
    end
  end)
end)

describe("navmesh oracle: shortest paths by hand", function()
  -- Expected length and the bends that are acceptable (either side of a symmetric detour).
  local cases = {
    { "room, around the pillar", ROOM, 1, 5, 9, 5, 2 * sqrt(10) + 2,
      { { 4, 4, 6, 4 }, { 4, 6, 6, 6 } } },
    { "room, diagonal past a corner", ROOM, 1, 1, 9, 9, 2 * sqrt(34), { { 6, 4 }, { 4, 6 } } },
    { "room, in the open", ROOM, 1, 1, 9, 1, 8, { {} } },
    { "room, start on the pillar's edge", ROOM, 4, 5, 1, 5, 3, { {} } },
    { "L corridor", L, 9, 1, 1, 9, 2 * sqrt(50), { { 2, 2 } } },
    { "out of the U's pocket", U, 10, 8, 10, 2, sqrt(58) + 12 + sqrt(34),
      { { 13, 15, 15, 15, 15, 5 }, { 7, 15, 5, 15, 5, 5 } } },
    { "same point", ROOM, 3, 3, 3, 3, 0, { {} } },
  }
  for _, c in ipairs(cases) do
    it(c[1], function()
      for _, dom in ipairs({ c[2], reversed(c[2]) }) do
        for _, all in ipairs({ false, true }) do
          local len, pts = H.shortest_euclidean(dom, c[3], c[4], c[5], c[6], all)
          assert(near(len, c[7]), ("length %.17g, expected %.17g"):format(len, c[7]))
          local ok = false
          for _, bends in ipairs(c[8]) do
            local want = { c[3], c[4] }
            for _, v in ipairs(bends) do want[#want + 1] = v end
            want[#want + 1], want[#want + 2] = c[5], c[6]
            if c[7] == 0 then want = { c[3], c[4], c[5], c[6] } end
            if fmt_pts(want) == fmt_pts(pts) then ok = true end
          end
          assert(ok, "unexpected points " .. fmt_pts(pts))
        end
      end
    end)
  end

  it("an end in a hole or outside the outline is unreachable", function()
    assert.equal(huge, (H.shortest_euclidean(ROOM, 1, 1, 5, 5)))
    assert.equal(huge, (H.shortest_euclidean(ROOM, 5, 5, 1, 1)))
    assert.equal(huge, (H.shortest_euclidean(ROOM, 1, 1, 11, 5)))
    assert.equal(huge, (H.shortest_euclidean(U, 1, 1, 14, 10)))
    assert.is_false(H.in_domain(ROOM, 5, 5))
  end)

  it("path_clearance is the smallest segment-to-boundary distance", function()
    assert.is_true(near(H.path_clearance(ROOM, { 1, 1, 9, 1 }), 1))
    assert.is_true(near(H.path_clearance(ROOM, { 2, 2, 8, 2 }), 2))
    assert.is_true(near(H.path_clearance(ROOM, { 1, 2, 9, 2 }), 1))    -- the left wall
    -- passes under the pillar's corners (4, 4) and (6, 4) at 1/sqrt(5)
    assert.is_true(near(H.path_clearance(ROOM, { 1, 5, 5, 3, 9, 5 }), 1 / sqrt(5)))
    assert.equal(0, H.path_clearance(ROOM, { 1, 5, 4, 4, 6, 4, 9, 5 })) -- touches the pillar
    assert.is_true(near(H.path_clearance(ROOM, { 5, 1 }), 1))          -- a single point
    assert.is_true(near(H.path_clearance(ROOM, { 2, 8, 3, 5, 2, 2 }), 1)) -- (3, 5) to the pillar
  end)
end)

describe("navmesh oracle: random maps", function()
  it("are simple, nested, separated rings and the same on every VM", function()
    local rng = H.rng(20240604)
    local fails, total = {}, 0
    local sum = 0
    for m = 1, 200 do
      local dom = H.random_domain(rng)
      total = total + 1
      local function fail(what)
        fails[#fails + 1] = ("map %d: %s\n%s"):format(m, what, H.fmt_domain(dom))
      end
      local n = #dom.outline / 2
      local x0, y0, x1, y1 = H.ring_box(dom.outline)
      if not H.ring_is_simple(dom.outline) then fail("outline not simple") end
      if n ~= 4 and (n < 8 or n > 16) then fail("outline has " .. n .. " vertices") end
      if math.max(x1 - x0, y1 - y0) < 9 or math.max(x1 - x0, y1 - y0) > 101 then fail("extent") end
      if #dom.holes < 1 or #dom.holes > 6 then fail(#dom.holes .. " holes") end
      for i, hole in ipairs(dom.holes) do
        if not H.ring_is_simple(hole) then fail("hole " .. i .. " not simple") end
        if not H.in_ring(dom.outline, hole[1], hole[2]) then fail("hole " .. i .. " outside") end
        if H.ring_gap(hole, dom.outline) < 1.5 then fail("hole " .. i .. " near the outline") end
        for j = 1, i - 1 do
          local other = dom.holes[j]
          if H.ring_gap(hole, other) < 1.5 or H.in_ring(other, hole[1], hole[2])
            or H.in_ring(hole, other[1], other[2]) then
            fail(("holes %d and %d overlap"):format(j, i))
          end
        end
        local hx, hy = H.random_hole_point(rng, dom, i)
        if hx and H.in_domain(dom, hx, hy) then fail("hole point in the domain") end
      end
      local px, py = H.random_domain_point(rng, dom, 1)
      if not H.in_domain(dom, px, py) or H.boundary_dist(dom, px, py) < 1 then
        fail("domain point without clearance")
      end
      -- checksum of the first maps: the generator uses rng.float/rng.int and snaps to 1/256
      if m <= 20 then
        local s = H.fmt_domain(dom)
        for k = 1, #s do sum = (sum * 31 + s:byte(k)) % 1000000007 end
      end
    end
    H.report(fails, total)
    -- Pinned from a run; the same on Lua 5.4 and LuaJIT. Update it when the generator changes.
    assert.equal(542101800, sum)
  end)

  it("the oracle's paths are legal, priced right, consistent and never cut by a straight line",
    function()
      local rng = H.rng(77)
      local fails, total = {}, 0
      for m = 1, 150 do
        local dom = H.random_domain(rng)
        for _ = 1, 3 do
          total = total + 1
          local sx, sy = H.random_domain_point(rng, dom, 1e-3)
          local gx, gy = H.random_domain_point(rng, dom, 1e-3)
          local mx, my = H.random_domain_point(rng, dom, 1e-3)
          local len, pts = H.shortest_euclidean(dom, sx, sy, gx, gy)
          local function fail(what)
            fails[#fails + 1] = ("map %d, (%.17g, %.17g) -> (%.17g, %.17g): %s\npoints %s\n%s")
              :format(m, sx, sy, gx, gy, what, fmt_pts(pts), H.fmt_domain(dom))
          end
          local straight = sqrt((gx - sx) ^ 2 + (gy - sy) ^ 2)
          if len == huge or not pts then
            fail("unreachable in a connected domain")
          else
            local n = #pts
            if pts[1] ~= sx or pts[2] ~= sy or pts[n - 1] ~= gx or pts[n] ~= gy then
              fail("ends")
            end
            for i = 1, n - 3, 2 do
              if not H.segment_in_domain(dom, pts[i], pts[i + 1], pts[i + 2], pts[i + 3]) then
                fail("segment " .. (i + 1) / 2 .. " leaves the domain")
              end
            end
            if not near(H.flat_length(pts), len) then fail("length is not the points' length") end
            if len < straight * (1 - 1e-12) then fail("shorter than the straight line") end
            if H.segment_in_domain(dom, sx, sy, gx, gy) and not near(len, straight) then
              fail("the straight line is free but not taken")
            end
            local all = H.shortest_euclidean(dom, sx, sy, gx, gy, true)
            if not near(all, len) then fail(("with every corner: %.17g"):format(all)) end
            local via = H.shortest_euclidean(dom, sx, sy, mx, my)
              + H.shortest_euclidean(dom, mx, my, gx, gy)
            if len > via * (1 + 1e-12) then fail("longer than a detour via a random point") end
            -- a shortest path only bends at reflex corners of the free space, touching the boundary
            for i = 3, n - 3, 2 do
              if H.boundary_dist(dom, pts[i], pts[i + 1]) ~= 0 then
                fail("bend off the boundary")
              end
            end
          end
        end
      end
      H.report(fails, total)
    end)

  it("the checks catch paths through holes, shortcuts and paths too close to walls", function()
    local rng = H.rng(5)
    local caught = 0
    for _ = 1, 50 do
      local dom = H.random_domain(rng)
      local sx, sy = H.random_domain_point(rng, dom, 1)
      local hx, hy = H.random_hole_point(rng, dom, 1)
      local gx, gy = H.random_domain_point(rng, dom, 1)
      -- a path through a point of a hole leaves the domain and touches the boundary
      assert.is_number(hx)
      assert.is_false(H.segment_in_domain(dom, sx, sy, hx, hy))
      assert.is_false(H.in_domain(dom, hx, hy))
      assert.equal(0, H.path_clearance(dom, { sx, sy, hx, hy, gx, gy }))
      local len = H.shortest_euclidean(dom, sx, sy, gx, gy)
      if not H.segment_in_domain(dom, sx, sy, gx, gy) then
        -- the straight line is blocked: its length is strictly below the oracle's
        assert.is_true(sqrt((gx - sx) ^ 2 + (gy - sy) ^ 2) < len)
        caught = caught + 1
      end
    end
    assert.is_true(caught >= 5, "too few blocked straight lines: " .. caught)
  end)
end)
