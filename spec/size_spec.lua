-- Units bigger than a cell (the `size` option): a unit covers the w x h cells whose top-left
-- cell is the path's. Every search is checked against a Dijkstra written here from that rule
-- alone: the footprint is walkable wherever the unit stands; a diagonal step needs the
-- footprint to fit at the two orthogonal neighbours as the diagonal policy needs a cell
-- walkable there; a step costs its length times the cost of the cell it enters.
local astar = require "astar"
local H = require "spec.helper"

local function fits(cells, w, h, x, y, sw, sh)
  if x < 1 or y < 1 or x + sw - 1 > w or y + sh - 1 > h then return false end
  for j = y, y + sh - 1 do
    for i = x, x + sw - 1 do
      if not cells[j][i] then return false end
    end
  end
  return true
end

local DIRS = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 }, { 1, 1 }, { 1, -1 }, { -1, 1 }, { -1, -1 } }

-- The successors of the reference: forward (u -> v) or backward (the steps v -> u, for fields).
local function succ_of(cells, w, h, sw, sh, pol, back)
  local function key(x, y) return (y - 1) * w + x end
  local function ok(x, y, dx, dy)                   -- the step (x, y) -> (x + dx, y + dy)
    if not fits(cells, w, h, x + dx, y + dy, sw, sh) then return false end
    if dx == 0 or dy == 0 then return true end
    if pol == "never" then return false end
    local a = fits(cells, w, h, x + dx, y, sw, sh)
    local b = fits(cells, w, h, x, y + dy, sw, sh)
    if pol == "no_corner_cutting" then return a and b end
    if pol == "one_obstacle" then return a or b end
    return true
  end
  return function(u, visit)
    local x, y = (u - 1) % w + 1, math.floor((u - 1) / w) + 1
    for _, d in ipairs(DIRS) do
      local dx, dy = d[1], d[2]
      local len = (dx ~= 0 and dy ~= 0) and H.SQRT2 or 1
      if not back and ok(x, y, dx, dy) then
        visit(key(x + dx, y + dy), len * cells[y + dy][x + dx])
      elseif back and fits(cells, w, h, x + dx, y + dy, sw, sh) and ok(x + dx, y + dy, -dx, -dy) then
        visit(key(x + dx, y + dy), len * cells[y][x])
      end
    end
  end
end

local function random_size(rng)
  local s = rng.pick({ 1, 2, 3, { 2, 1 }, { 1, 3 }, { 3, 2 }, { 1, 1 } })
  if type(s) == "number" then return s, s, s end
  return s, s[1], s[2]
end

describe("the size option", function()
  it("finds the cheapest path for the footprint under every policy and algorithm", function()
    local found, none = 0, 0
    H.each_random_grid(4242, 300, 3, 16, { 0.05, 0.15, 0.3 }, { 1, 1, 2, 0.5 },
      function(rng, w, h, cells, grid)
        for _ = 1, 3 do
          local size, sw, sh = random_size(rng)
          local pol = rng.pick(H.POLICIES)
          local alg = rng.pick({ "auto", "astar", "dijkstra" })
          local sx, sy, gx, gy = rng.int(1, w), rng.int(1, h), rng.int(1, w), rng.int(1, h)
          local path, _, code = grid:find(sx, sy, gx, gy, { size = size, diagonal = pol,
            algorithm = alg })
          local want
          if fits(cells, w, h, sx, sy, sw, sh) and fits(cells, w, h, gx, gy, sw, sh) then
            want = H.dijkstra_generic({ { (sy - 1) * w + sx, 0 } },
              succ_of(cells, w, h, sw, sh, pol))[(gy - 1) * w + gx]
          else
            assert(code == "blocked", "an end without room is not 'blocked': " .. tostring(code))
          end
          if want == nil then
            assert(path == nil, "found a path where the reference has none")
            none = none + 1
          else
            assert(path, "no path where the reference has one: " .. tostring(code))
            assert(H.close(path:cost(), want), ("%s %s size %s: %.17g, expected %.17g"):format(
              alg, pol, sw .. "x" .. sh, path:cost(), want))
            local succ = succ_of(cells, w, h, sw, sh, pol)
            local sum = 0
            for i = 2, #path do                        -- every step is one the reference allows
              local x1, y1 = path:get(i - 1)
              local x2, y2 = path:get(i)
              local c
              succ((y1 - 1) * w + x1, function(v, cost) if v == (y2 - 1) * w + x2 then c = cost end end)
              assert(c, ("step %d (%d, %d) -> (%d, %d) is not allowed"):format(i - 1, x1, y1, x2, y2))
              sum = sum + c
            end
            assert(H.close(sum, want))
            assert(path:stats().algorithm ~= "jps")
            found = found + 1
          end
        end
    end)
    assert(found > 200 and none > 50, ("found %d, none %d"):format(found, none))
  end)

  it("keeps what fits current through edits, and a query restarts near them", function()
    H.each_random_grid(17, 60, 6, 20, { 0.1 }, { 1 },
      function(rng, w, h, cells, grid)
        local _, sw, sh = random_size(rng)
        for _ = 1, 8 do
          local sx, sy, gx, gy = rng.int(1, w), rng.int(1, h), rng.int(1, w), rng.int(1, h)
          local path = grid:find(sx, sy, gx, gy, { size = { sw, sh } })
          local want = fits(cells, w, h, sx, sy, sw, sh) and fits(cells, w, h, gx, gy, sw, sh) and
            H.dijkstra_generic({ { (sy - 1) * w + sx, 0 } },
              succ_of(cells, w, h, sw, sh, "no_corner_cutting"))[(gy - 1) * w + gx] or nil
          if want then assert(path and H.close(path:cost(), want))
          else assert(path == nil) end
          H.edit_cells(rng, grid, cells, w, h, rng.int(1, w), rng.int(1, h),
            rng.pick({ false, 1 }), 0.3, 3)
        end
      end)
    -- a wall cell makes every anchor whose footprint covers it unusable, up and left of it too
    local open = astar.grid(12, 4)
    assert(open:find(1, 1, 5, 1, { size = 2 }))
    open:set(6, 2, false)
    for _, a in ipairs({ { 5, 1 }, { 6, 1 }, { 5, 2 }, { 6, 2 } }) do
      local _, _, code = open:find(1, 1, a[1], a[2], { size = 2 })
      assert(code == "blocked", ("anchor (%d, %d): %s"):format(a[1], a[2], tostring(code)))
    end
    assert(H.close(open:find(1, 1, 11, 1, { size = 2 }):cost(), 6 + 4 * H.SQRT2))
    open:set(6, 2, 1)
    assert(open:find(1, 1, 11, 1, { size = 2 }):cost() == 10)
    local grid = astar.grid(30, 30)
    local q = grid:query(1, 1, 29, 29, { size = 2, on_change = "stale", algorithm = "astar" })
    assert(q:step(5) == "running")
    grid:set(4, 4, false)                              -- under the footprint of cells it reached
    assert(q:step(5) == "stale")
  end)

  it("keeps several shapes at once, each current through edits", function()
    -- sizes checked against the reference; radius searches, interleaved to share the cache,
    -- against a clone of the grid (which has no cache: every check worked out afresh)
    H.each_random_grid(99, 30, 8, 18, { 0.12 }, { 1, 2 },
      function(rng, w, h, cells, grid)
        for _ = 1, 12 do
          local shape = rng.pick({ { 2, 2 }, { 3, 1 }, { 1, 2 }, 0.5, 0.8, 1.2 })
          local sx, sy, gx, gy = rng.int(1, w), rng.int(1, h), rng.int(1, w), rng.int(1, h)
          if type(shape) == "table" then
            local sw, sh = shape[1], shape[2]
            local path = grid:find(sx, sy, gx, gy, { size = shape })
            local want = fits(cells, w, h, sx, sy, sw, sh) and fits(cells, w, h, gx, gy, sw, sh)
              and H.dijkstra_generic({ { (sy - 1) * w + sx, 0 } },
                succ_of(cells, w, h, sw, sh, "no_corner_cutting"))[(gy - 1) * w + gx] or nil
            if want then assert(path and H.close(path:cost(), want))
            else assert(path == nil) end
          else
            local a = grid:find(sx, sy, gx, gy, { radius = shape })
            local copy = grid:clone()
            local b = copy:find(sx, sy, gx, gy, { radius = shape })
            copy:close()
            assert((a == nil) == (b == nil) and (a == nil or H.close(a:cost(), b:cost())))
          end
          if rng.float() < 0.5 then
            H.edit_cells(rng, grid, cells, w, h, rng.int(1, w), rng.int(1, h),
              rng.pick({ false, 1, 2 }), 0.3, 3)
          end
        end
      end)
  end)

  it("gives distance fields for the footprint", function()
    H.each_random_grid(3, 40, 3, 12, { 0.15 }, { 1, 2 },
      function(rng, w, h, cells, grid)
        local size, sw, sh = random_size(rng)
        local pol = rng.pick(H.POLICIES)
        local gx, gy = rng.int(1, w), rng.int(1, h)
        if H.walk(cells, w, h, gx, gy) then
          local f = grid:distance_field({ { gx, gy } }, { size = size, diagonal = pol })
          local dist = fits(cells, w, h, gx, gy, sw, sh) and
            H.dijkstra_generic({ { (gy - 1) * w + gx, 0 } },
              succ_of(cells, w, h, sw, sh, pol, true)) or {}
          for y = 1, h do
            for x = 1, w do
              local want, got = dist[(y - 1) * w + x], f:distance(x, y)
              if want then assert(got and H.close(got, want), ("(%d, %d): %s, expected %.17g")
                :format(x, y, tostring(got), want))
              else assert(got == nil, ("(%d, %d): %s, expected none"):format(x, y, tostring(got))) end
            end
          end
        end
      end)
  end)

  it("checks its value", function()
    local grid = astar.grid(8, 8)
    local P = "bad argument #5 to 'find' (option 'size"
    H.checkerr(P .. "': its side must be an integer in [1, 64], got 0)", grid.find, grid, 1, 1,
      8, 8, { size = 0 })
    H.checkerr(P .. "': its side must be an integer in [1, 64], got 1.5)", grid.find, grid, 1, 1,
      8, 8, { size = 1.5 })
    H.checkerr(P .. "': w must be an integer in [1, 64], got 65)", grid.find, grid, 1, 1, 8, 8,
      { size = { 65, 1 } })
    H.checkerr(P .. "': h must be an integer in [1, 64], got nil)", grid.find, grid, 1, 1, 8, 8,
      { size = { 2 } })
    H.checkerr(P .. "': a number or a table {w, h} expected, got string)", grid.find, grid, 1,
      1, 8, 8, { size = "2x2" })
    H.checkerr("bad argument #5 to 'find' (options 'radius' and 'size' cannot be combined)",
      grid.find, grid, 1, 1, 8, 8, { size = 2, radius = 0.5 })
    H.checkerr(P .. "' cannot be used with algorithm 'jps')", grid.find, grid, 1, 1, 8, 8,
      { size = 2, algorithm = "jps" })
    H.checkerr(P .. "' cannot be used with algorithm 'theta')", grid.find, grid, 1, 1, 8, 8,
      { size = 2, algorithm = "theta" })
    local _, msg, code = grid:find(1, 1, 8, 8, { size = 2 })
    assert(code == "blocked" and msg == "goal (8, 8) is blocked or without room for the " ..
      "unit's size", msg)
    assert(H.close(grid:find(1, 1, 7, 7, { size = 2 }):cost(), 6 * H.SQRT2))
  end)
end)
