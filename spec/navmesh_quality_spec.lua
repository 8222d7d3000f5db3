-- astar.navmesh: path quality on meshes built by astar.navmesh.from_polygons, against the geometric
-- oracle in spec/helper.lua (tested on its own in navmesh_oracle_spec.lua). On hand-made rooms and
-- on hundreds of random maps with holes: every path joins the query points, stays in the domain, is
-- priced at its length and is within a few percent of the Euclidean shortest path; paths for a
-- radius keep that clearance from every wall; ends in a hole or outside are 'blocked'.

local astar = require "astar"
local H = require "spec.helper"

local abs, sqrt = math.abs, math.sqrt

local MAPS = 300          -- random maps for the zero-radius checks, 2..4 queries each
local RADIUS_MAPS = 150   -- random maps for the radius checks, 2 queries each
local BLOCKED_MAPS = 100  -- random maps for the 'blocked' checks
local MEAN_RATIO, WORST_RATIO = 1.01, 1.10 -- bounds on length / shortest length

local function build(dom)
  return astar.navmesh.from_polygons(dom.outline, dom.holes)
end

local function fmt_case(m, dom, sx, sy, gx, gy, r)
  return ("map %d: mesh:find(%.17g, %.17g, %.17g, %.17g%s)\ndomain = %s"):format(m, sx, sy, gx, gy,
    r and (", { radius = %.17g }"):format(r) or "", H.fmt_domain(dom))
end

local function fmt_pts(pts)
  local out = {}
  for i, v in ipairs(pts or {}) do out[i] = ("%.17g"):format(v) end
  return "{ " .. table.concat(out, ", ") .. " }"
end

local function fmt_fail(err, m, dom, sx, sy, gx, gy, opt, opt_pts)
  return ("%s\n%s\nshortest %.17g: %s"):format(err, fmt_case(m, dom, sx, sy, gx, gy), opt,
    fmt_pts(opt_pts))
end

-- Checks a Path returned for (sx, sy) -> (gx, gy): point count, ends, every segment in the domain,
-- cost() equal to the summed segment lengths (relative `tol`, default 1e-9). Returns its flat
-- points and length, or nil and the first problem.
local function check_path(dom, path, sx, sy, gx, gy, tol)
  local pts = path:flat()
  local n = #pts
  if n < 4 or n % 2 ~= 0 then return nil, ("flat() has %d coordinates"):format(n) end
  if #path ~= n / 2 then return nil, ("#path is %d, flat() has %d points"):format(#path, n / 2) end
  if abs(pts[1] - sx) > 1e-9 or abs(pts[2] - sy) > 1e-9 then
    return nil, ("starts at (%.17g, %.17g)"):format(pts[1], pts[2])
  end
  if abs(pts[n - 1] - gx) > 1e-9 or abs(pts[n] - gy) > 1e-9 then
    return nil, ("ends at (%.17g, %.17g)"):format(pts[n - 1], pts[n])
  end
  local len = 0
  for i = 1, n - 3, 2 do
    local ax, ay, bx, by = pts[i], pts[i + 1], pts[i + 2], pts[i + 3]
    if not H.segment_in_domain(dom, ax, ay, bx, by) then
      return nil, ("segment %d (%.17g, %.17g) -> (%.17g, %.17g) leaves the domain; points %s")
        :format((i + 1) / 2, ax, ay, bx, by, fmt_pts(pts))
    end
    len = len + sqrt((bx - ax) ^ 2 + (by - ay) ^ 2)
  end
  local cost = path:cost()
  if not H.close(cost, len, tol or 1e-9) then
    return nil, ("cost() is %.17g, the points are %.17g long"):format(cost, len)
  end
  return pts, len
end

-- The corridor runs from the start's polygon to the goal's, through distinct consecutive
-- polygons given by 1-based indices. Returns nil or the problem.
local function check_corridor(mesh, path, sx, sy, gx, gy)
  local c = path:corridor()
  if type(c) ~= "table" or #c < 1 then return "corridor() is empty or not a table" end
  for i, p in ipairs(c) do
    if not H.is_int(p) or p < 1 then return ("corridor()[%d] is %s"):format(i, tostring(p)) end
    if i > 1 and c[i - 1] == p then return ("corridor() repeats polygon %d at %d"):format(p, i) end
  end
  local a, b = mesh:locate(sx, sy), mesh:locate(gx, gy)
  if a == nil or b == nil then
    return ("locate() gives %s for the start, %s for the goal"):format(tostring(a), tostring(b))
  end
  if c[1] ~= a or c[#c] ~= b then
    return ("corridor() runs %d .. %d, locate() gives %d and %d"):format(c[1], c[#c], a, b)
  end
  return nil
end

-- mesh:find under pcall: returns the Path, or nil and a description of what came back instead.
local function find(mesh, sx, sy, gx, gy, opts)
  local ok, path, msg, code
  if opts then
    ok, path, msg, code = pcall(mesh.find, mesh, sx, sy, gx, gy, opts)
  else
    ok, path, msg, code = pcall(mesh.find, mesh, sx, sy, gx, gy)
  end
  if not ok then return nil, "raised " .. tostring(path) end
  if path == nil then
    return nil, ("returned nil, %s, %s"):format(tostring(msg), tostring(code)), msg, code
  end
  return path
end

describe("navmesh quality: hand-made rooms", function()
  -- domain, query, the shortest length by hand
  local cases = {
    { "a room with a square pillar",
      { outline = { 0, 0, 10, 0, 10, 10, 0, 10 }, holes = { { 4, 4, 6, 4, 6, 6, 4, 6 } } },
      1, 5, 9, 5, 2 * sqrt(10) + 2 },
    { "past the pillar's corner",
      { outline = { 0, 0, 10, 0, 10, 10, 0, 10 }, holes = { { 4, 4, 6, 4, 6, 6, 4, 6 } } },
      1, 1, 9, 9, 2 * sqrt(34) },
    { "an L corridor", { outline = { 0, 0, 10, 0, 10, 2, 2, 2, 2, 10, 0, 10 }, holes = {} },
      9, 1, 1, 9, 2 * sqrt(50) },
    { "out of a U-shaped hole's pocket",
      { outline = { 0, 0, 20, 0, 20, 20, 0, 20 },
        holes = { { 5, 5, 15, 5, 15, 15, 13, 15, 13, 7, 7, 7, 7, 15, 5, 15 } } },
      10, 8, 10, 2, sqrt(58) + 12 + sqrt(34) },
  }
  for _, c in ipairs(cases) do
    it(c[1] .. ": the shortest path", function()
      local dom = c[2]
      -- the oracle agrees with the hand computation
      assert.is_true(H.close(H.shortest_euclidean(dom, c[3], c[4], c[5], c[6]), c[7], 1e-12))
      local mesh = build(dom)
      local path, err = find(mesh, c[3], c[4], c[5], c[6])
      assert(path, err)
      local pts, len = check_path(dom, path, c[3], c[4], c[5], c[6])
      assert(pts, len)
      assert(H.close(len, c[7], 1e-9), ("length %.17g, shortest %.17g; points %s"):format(
        len, c[7], fmt_pts(pts)))
      assert.is_nil(check_corridor(mesh, path, c[3], c[4], c[5], c[6]))
    end)
  end
end)

describe("navmesh quality: random maps", function()
  it(("zero-radius paths are legal, priced at their length and near the shortest (%d maps)")
    :format(MAPS), function()
      local rng = H.rng(4242)
      local fails, total = {}, 0
      local sum, count, worst, worst_case = 0, 0, 1, "none"
      for m = 1, MAPS do
        local dom = H.random_domain(rng)
        local mesh = build(dom)
        for _ = 1, rng.int(2, 4) do
          local sx, sy = H.random_domain_point(rng, dom, 1e-3)
          local gx, gy = H.random_domain_point(rng, dom, 1e-3)
          total = total + 1
          local opt, opt_pts = H.shortest_euclidean(dom, sx, sy, gx, gy)
          local path, err = find(mesh, sx, sy, gx, gy)
          if path then
            local pts, len = check_path(dom, path, sx, sy, gx, gy)
            if not pts then
              err = len
            else
              local ratio = opt > 0 and len / opt or 1
              if ratio < 1 - 1e-9 then
                err = ("length %.17g is below the shortest %.17g; points %s"):format(len, opt,
                  fmt_pts(pts))
              else
                sum, count = sum + ratio, count + 1
                if ratio > worst then
                  worst, worst_case = ratio, fmt_case(m, dom, sx, sy, gx, gy)
                    .. "\npath " .. fmt_pts(pts) .. "\nshortest " .. fmt_pts(opt_pts)
                end
                err = check_corridor(mesh, path, sx, sy, gx, gy)
              end
            end
          end
          if err then fails[#fails + 1] = fmt_fail(err, m, dom, sx, sy, gx, gy, opt, opt_pts) end
        end
      end
      local mean = count > 0 and sum / count or math.huge
      io.write(("\n[navmesh quality] %d maps, %d queries: length / shortest mean %.5f, "
        .. "worst %.5f\n"):format(MAPS, total, mean, worst))
      H.report(fails, total)
      assert(mean <= MEAN_RATIO and worst <= WORST_RATIO,
        ("length / shortest: mean %.5f (at most %.2f), worst %.5f (at most %.2f), at\n%s")
          :format(mean, MEAN_RATIO, worst, WORST_RATIO, worst_case))
    end)

  it("the exact search (uniform cost, no radius) is exactly as long as the visibility-graph "
    .. "reference, on rooms built for its hard cases (issue 15)", function()
      -- holes on shared lines (long collinear wall runs, ways grazing several corners in a row)
      -- and needles (sliver triangles)
      local rng = H.rng(1507)
      local fails, total = {}, 0
      for m = 1, 250 do
        local dom = H.random_degenerate_domain(rng, { max_holes = 16 })
        local mesh = build(dom)
        for _ = 1, 4 do
          -- points at half-integers, where lines through the integer corners pass exactly
          local function point()
            local x, y = H.random_domain_point(rng, dom, 0.1)
            local hx, hy = math.floor(x) + 0.5, math.floor(y) + 0.5
            if H.in_domain(dom, hx, hy, 0) and H.boundary_dist(dom, hx, hy) >= 1e-3 then
              return hx, hy
            end
            return x, y
          end
          local sx, sy = point()
          local gx, gy = point()
          while gx == sx and gy == sy do gx, gy = point() end
          total = total + 1
          local opt, opt_pts = H.shortest_euclidean(dom, sx, sy, gx, gy)
          local path, err = find(mesh, sx, sy, gx, gy)
          if path then
            local pts, len = check_path(dom, path, sx, sy, gx, gy)
            if not pts then err = len
            elseif not H.close(len, opt, 1e-9) then
              err = ("length %.17g, shortest %.17g; points %s"):format(len, opt, fmt_pts(pts))
            end
          end
          if err then fails[#fails + 1] = fmt_fail(err, m, dom, sx, sy, gx, gy, opt, opt_pts) end
        end
      end
      H.report(fails, total)
    end)

  it(("paths for a radius keep that clearance and stay in the domain (%d maps)")
    :format(RADIUS_MAPS), function()
      local rng = H.rng(9090)
      local fails, total = {}, 0
      local found, none, clear_line = 0, 0, 0
      for m = 1, RADIUS_MAPS do
        local dom = H.random_domain(rng)
        local mesh = build(dom)
        for _ = 1, 2 do
          local r = 0.2 + 1.3 * rng.float()
          local sx, sy = H.random_domain_point(rng, dom, r * 1.001)
          local gx, gy = H.random_domain_point(rng, dom, r * 1.001)
          total = total + 1
          -- A straight line with clearance r is a path for the disc: one must be found.
          local straight = H.path_clearance(dom, { sx, sy, gx, gy }) >= r * 1.001
          if straight then clear_line = clear_line + 1 end
          local opt = H.shortest_euclidean(dom, sx, sy, gx, gy)
          local path, err, msg, code = find(mesh, sx, sy, gx, gy, { radius = r })
          if path then
            found = found + 1
            -- arcs around corners may come as polylines: cost() may be the true arc length
            local pts, len = check_path(dom, path, sx, sy, gx, gy, 1e-3)
            if not pts then
              err = len
            else
              local clearance = H.path_clearance(dom, pts)
              if clearance < r * (1 - 1e-9) then
                err = ("clearance %.17g < radius; points %s"):format(clearance, fmt_pts(pts))
              elseif len < opt * (1 - 1e-9) then
                err = ("length %.17g is below the zero-radius shortest %.17g"):format(len, opt)
              end
            end
          elseif code == "no_path" and type(msg) == "string" then
            none = none + 1
            err = straight and "'no_path', but the straight line keeps the clearance" or nil
          end
          if err then fails[#fails + 1] = err .. "\n" .. fmt_case(m, dom, sx, sy, gx, gy, r) end
        end
      end
      io.write(("\n[navmesh radius] %d maps, %d queries: %d paths, %d 'no_path', %d with a clear "
        .. "straight line\n"):format(RADIUS_MAPS, total, found, none, clear_line))
      H.report(fails, total)
      assert(clear_line >= total / 10, "too few queries with a clear straight line: " .. clear_line)
    end)

  it(("ends in a hole or outside the outline are 'blocked' (%d maps)"):format(BLOCKED_MAPS),
    function()
      local rng = H.rng(31337)
      local fails, total = {}, 0
      for m = 1, BLOCKED_MAPS do
        local dom = H.random_domain(rng)
        local mesh = build(dom)
        local sx, sy = H.random_domain_point(rng, dom, 1e-3)
        local hx, hy = H.random_hole_point(rng, dom, rng.int(1, #dom.holes))
        local x0, y0, _, y1 = H.ring_box(dom.outline)
        local ox, oy = x0 - 1 - 10 * rng.float(), y0 + (y1 - y0) * rng.float()
        local function fail(what, x, y)
          fails[#fails + 1] = ("%s\nmap %d, start (%.17g, %.17g), bad end (%.17g, %.17g)\n"
            .. "domain = %s"):format(what, m, sx, sy, x, y, H.fmt_domain(dom))
        end
        total = total + 1
        if mesh:locate(sx, sy) == nil then
          fail("locate() finds no polygon for the start", sx, sy)
        end
        local bad = { { ox, oy } }
        if hx then bad[2] = { hx, hy } end
        for _, p in ipairs(bad) do
          local x, y = p[1], p[2]
          if H.in_domain(dom, x, y) then error("bad end in the domain: the generator is broken") end
          if mesh:locate(x, y) ~= nil then fail("locate() finds a polygon", x, y) end
          for _, q in ipairs({ { sx, sy, x, y }, { x, y, sx, sy } }) do
            for _, opts in ipairs({ false, { radius = 0.5 } }) do
              local path, err, msg, code = find(mesh, q[1], q[2], q[3], q[4], opts or nil)
              if path or code ~= "blocked" or type(msg) ~= "string" then
                local dir = q[1] == sx and "start -> bad end" or "bad end -> start"
                fail(("find(%s%s) %s"):format(dir, opts and ", radius 0.5" or "",
                  path and "returned a path" or err), x, y)
              end
            end
          end
        end
      end
      H.report(fails, total)
    end)
end)
