-- Cost overlays (the `overlay` option): a step of length len into cell v costs
-- len * (cost(v) + scale * overlay(v)). Every search is checked against the plain Dijkstra of
-- spec/helper.lua with that formula written here as its cost function.
local astar = require "astar"
local H = require "spec.helper"

-- The overlay values ov[y][x] (>= 0), as a Field made from a grid of them.
local function random_overlay(rng, w, h)
  local ov, layer = {}, astar.grid(w, h, false)
  for y = 1, h do
    ov[y] = {}
    for x = 1, w do
      local v = rng.float() < 0.5 and 0 or rng.pick({ 0.5, 1, 3, 10 })
      ov[y][x] = v
      layer:set(x, y, v > 0 and v or false)
    end
  end
  local field = layer:to_field()
  layer:close()
  return ov, field
end

-- The reference's step cost: the built-in one plus len * scale * overlay of the cell entered.
local function with_overlay(ov, scale)
  return function(x1, y1, x2, y2, base)
    local len = (x1 ~= x2 and y1 ~= y2) and H.SQRT2 or 1
    local v = ov[y2][x2]
    if v == math.huge then return nil end
    return base + len * scale * v
  end
end

describe("the overlay option", function()
  it("adds the overlay to every step of find and query, under every policy", function()
    local found, differs = 0, 0
    H.each_random_grid(99, 150, 3, 18, { 0, 0.15, 0.3 }, { 1, 1, 2, 0.5 },
      function(rng, w, h, cells, grid)
        local ov, field = random_overlay(rng, w, h)
        local scale = rng.pick({ 1, 0.25, 3, 0 })
        local costfn = with_overlay(ov, scale)
        for _ = 1, 3 do
          local sx, sy, gx, gy = rng.int(1, w), rng.int(1, h), rng.int(1, w), rng.int(1, h)
          local pol = rng.pick(H.POLICIES)
          local alg = rng.pick({ "auto", "astar", "dijkstra" })
          local opts = { diagonal = pol, algorithm = alg, overlay = field, overlay_scale = scale }
          local want = H.dijkstra(cells, w, h, sx, sy, gx, gy, pol, costfn)
          local plain = H.dijkstra(cells, w, h, sx, sy, gx, gy, pol)
          local path = grid:find(sx, sy, gx, gy, opts)
          if want == nil then
            assert(path == nil)
          else
            assert(path, "no path where the reference has one")
            local c = H.check_path(cells, w, h, path, sx, sy, gx, gy, pol, costfn)
            assert(H.close(c, want) and H.close(path:cost(), want),
              ("%s under %s: %.17g, expected %.17g"):format(alg, pol, path:cost(), want))
            assert(path:stats().algorithm ~= "jps")
            found = found + 1
            if not H.close(want, plain) then differs = differs + 1 end
            if rng.float() < 0.3 then                  -- the same through a query
              opts.algorithm = "astar"
              local q = grid:query(sx, sy, gx, gy, opts)
              q:step(3)
              collectgarbage()           -- (one full collection: the heap may be large here)
              repeat until q:step(3) ~= "running"
              assert(H.close(q:result():cost(), want))
            end
          end
        end
    end)
    assert(found > 250 and differs > 100, ("found %d, differs %d"):format(found, differs))
  end)

  it("keeps a query's overlay and goals alive, and takes the cheapest goal", function()
    local rng = H.rng(5)
    local w, h = 20, 12
    local cells = H.random_cells(rng, w, h, 0.1, { 1 })
    cells[1][1], cells[12][20], cells[1][20] = 1, 1, 1
    local grid = astar.grid.from_table(cells)
    local ov, field = random_overlay(rng, w, h)
    local q = grid:query(1, 1, { goals = { { 20, 12 }, { 20, 1 } }, overlay = field })
    field = nil -- luacheck: ignore
    local steps, at = 0, 1
    repeat                           -- a full collection before steps 1, 2, 4, 8...: not before
      steps = steps + 1              -- every one (in a whole suite's heap that took 8 s on 5.1)
      if steps == at then collectgarbage(); at = 2 * at end
    until q:step(2) ~= "running"
    local costfn = with_overlay(ov, 1)
    local a = H.dijkstra(cells, w, h, 1, 1, 20, 12, "no_corner_cutting", costfn)
    local b = H.dijkstra(cells, w, h, 1, 1, 20, 1, "no_corner_cutting", costfn)
    local p = assert(q:result())
    assert(H.close(p:cost(), math.min(a or math.huge, b or math.huge)))
  end)

  it("takes a distance field as it is: cells it did not reach are not entered", function()
    H.each_random_grid(31, 60, 4, 16, { 0.15 }, { 1, 2 },
      function(rng, w, h, cells, grid)
        local ox, oy = rng.int(1, w), rng.int(1, h)
        if H.walk(cells, w, h, ox, oy) then
          local limit = rng.int(2, 10)
          local leash = grid:distance_field({ { ox, oy } }, { max_cost = limit })
          local ov = {}                                -- each cell's way to (ox, oy)
          for y = 1, h do
            ov[y] = {}
            for x = 1, w do
              local v = H.dijkstra(cells, w, h, x, y, ox, oy, "no_corner_cutting")
              ov[y][x] = (v and v <= limit) and v or math.huge
            end
          end
          local scale = rng.pick({ 0, 1, 0.5 })
          local sx, sy, gx, gy = rng.int(1, w), rng.int(1, h), rng.int(1, w), rng.int(1, h)
          local costfn = with_overlay(ov, scale)
          local want = H.dijkstra(cells, w, h, sx, sy, gx, gy, "always", costfn)
          local path = grid:find(sx, sy, gx, gy, { overlay = leash, overlay_scale = scale,
            diagonal = "always" })
          if want then
            assert(path and H.close(path:cost(), want), ("%s, expected %.17g"):format(
              path and path:cost(), want))
            H.check_path(cells, w, h, path, sx, sy, gx, gy, "always", costfn)
          else
            assert(path == nil)
          end
        end
      end)
  end)

  it("adds it to distance fields: each cell's distance is the reference's to the source",
    function()
    H.each_random_grid(8, 40, 3, 10, { 0.2 }, { 1, 3 },
      function(rng, w, h, cells, grid)
        local ov, field = random_overlay(rng, w, h)
        local gx, gy = rng.int(1, w), rng.int(1, h)
        local pol = rng.pick(H.POLICIES)
        if H.walk(cells, w, h, gx, gy) then
          local f = grid:distance_field({ { gx, gy } }, { overlay = field, diagonal = pol })
          local costfn = with_overlay(ov, 1)
          for y = 1, h do
            for x = 1, w do
              local want = H.dijkstra(cells, w, h, x, y, gx, gy, pol, costfn)
              local got = f:distance(x, y)
              if want then assert(got and H.close(got, want), ("(%d, %d): %s, expected %.17g")
                :format(x, y, tostring(got), want))
              else assert(got == nil) end
            end
          end
        end
      end)
  end)

  it("checks the overlay and its scale", function()
    local grid = astar.grid(6, 4)
    local field = astar.grid(6, 4, false):to_field()
    local P = "bad argument #5 to 'find' (option '"
    H.checkerr(P .. "overlay' cannot be used with algorithm 'jps')", grid.find, grid, 1, 1, 6, 4,
      { overlay = field, algorithm = "jps" })
    H.checkerr(P .. "overlay' cannot be used with algorithm 'theta')", grid.find, grid, 1, 1, 6,
      4, { overlay = field, algorithm = "theta" })
    H.checkerr(P .. "overlay': astar.Field expected, got number)", grid.find, grid, 1, 1, 6, 4,
      { overlay = 3 })
    H.checkerr(P .. "overlay': astar.Field expected, got astar.Grid: make a Field of it with " ..
      "grid:to_field())", grid.find, grid, 1, 1, 6, 4, { overlay = grid })
    H.checkerr(P .. "overlay': Field of a 3x3 grid, expected 6x4)", grid.find, grid, 1, 1, 6, 4,
      { overlay = astar.grid(3, 3):to_field() })
    local graph = astar.graph()
    graph:add_node(0, 0)
    H.checkerr(P .. "overlay': a grid's Field expected, got a graph's)", grid.find, grid, 1, 1,
      6, 4, { overlay = graph:distance_field({ 1 }) })
    local flee = grid:distance_field(grid:distance_field({ { 1, 1 } }), { scale = -1 })
    H.checkerr(P .. "overlay': the Field has values below 0 (-6.2426406871193))", grid.find,
      grid, 1, 1, 6, 4, { overlay = flee })
    local huge = grid:distance_field({ { 1, 1, 1e308 } })
    H.checkerr(P .. "overlay': the Field has values beyond 1e+100 (1e+308), so that sums " ..
      "would not stay finite)", grid.find, grid, 1, 1, 6, 4, { overlay = huge })
    H.checkerr("next: a Field of values (grid:to_field) has no paths", field.next, field, 1, 1)
    H.checkerr("path_from: a Field of values (grid:to_field) has no paths", field.path_from,
      field, 2, 1)
    H.checkerr(P .. "overlay_scale' needs option 'overlay')", grid.find, grid, 1, 1, 6, 4,
      { overlay_scale = 2 })
    H.checkerr(P .. "overlay_scale': must be a non-negative finite number, got -1)", grid.find,
      grid, 1, 1, 6, 4, { overlay = field, overlay_scale = -1 })
    H.checkerr(P .. "overlay_scale' is too large: 1e+200 (at most 1e+100 in magnitude, so that " ..
      "sums stay finite))", grid.find, grid, 1, 1, 6, 4, { overlay = field, overlay_scale = 1e200 })
    H.checkerr("bad argument #2 to 'distance_field' (option 'overlay': astar.Field expected, " ..
      "got boolean)", grid.distance_field, grid, { { 1, 1 } }, { overlay = true })
    assert(H.close(grid:find(1, 1, 6, 4, { overlay = field }):cost(), 2 + 3 * H.SQRT2))
  end)
end)
