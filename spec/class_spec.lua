-- Movement classes (grid:class): a class's cells are its grid's mapped through the table,
-- after every edit of the grid, and every search on it is the plain Dijkstra of spec/helper.lua
-- over those mapped cells (the model maps them itself, in Lua).
local astar = require "astar"
local H = require "spec.helper"

local COSTS = { 1, 2, 3, 0.5 }

-- A random table of costs: keys among the grid's costs and false, values costs or false.
local function random_table(rng)
  local t, n = {}, 0
  for _, c in ipairs({ 1, 2, 3, 0.5, false }) do
    if rng.float() < 0.5 then
      t[c] = rng.pick({ false, 1, 2, 4, 0.25, true })
      n = n + 1
    end
  end
  if n == 0 then t[1] = false end
  return t
end

-- The model: the class's cells are the grid's, mapped (a cost not named is kept).
local function mapped(cells, w, h, t)
  local out = {}
  for y = 1, h do
    out[y] = {}
    for x = 1, w do
      local v = t[cells[y][x]]
      if v == nil then v = cells[y][x] end
      if v == true then v = 1 end
      out[y][x] = v
    end
  end
  return out
end

local function same_cells(grid, cells, w, h)
  for y = 1, h do
    for x = 1, w do
      local want = cells[y][x]
      assert(grid:get(x, y) == want, ("cell (%d, %d): %s, expected %s"):format(x, y,
        tostring(grid:get(x, y)), tostring(want)))
    end
  end
end

-- Every search of `n` random ones on class k agrees with the Dijkstra of its model cells.
local function check_searches(rng, k, cells, w, h, n)
  local found = 0
  for _ = 1, n do
    local sx, sy, gx, gy = rng.int(1, w), rng.int(1, h), rng.int(1, w), rng.int(1, h)
    local pol = rng.pick(H.POLICIES)
    local alg = rng.pick({ "auto", "astar", "dijkstra", "jps" })
    local want = H.dijkstra(cells, w, h, sx, sy, gx, gy, pol)
    local path, _, code = k:find(sx, sy, gx, gy, { diagonal = pol, algorithm = alg })
    if want == nil then
      assert(path == nil and (code == "no_path" or code == "blocked"), "found an impossible path")
    else
      assert(path, ("no path (%s) where the reference has %.17g"):format(tostring(code), want))
      local c = H.check_path(cells, w, h, path, sx, sy, gx, gy, pol)
      assert(H.close(c, want) and H.close(path:cost(), want),
        ("%s under %s: cost %.17g, expected %.17g"):format(alg, pol, path:cost(), want))
      found = found + 1
    end
  end
  return found
end

describe("grid:class", function()
  it("follows its grid through every edit, and searches it as a plain grid would", function()
    local found = 0
    H.each_random_grid(2024, 120, 3, 20, { 0, 0.1, 0.3 }, COSTS,
      function(rng, w, h, cells, grid)
        local t = random_table(rng)
        local k = grid:class(t)
        same_cells(k, mapped(cells, w, h, t), w, h)
        found = found + check_searches(rng, k, mapped(cells, w, h, t), w, h, 3)
        for _ = 1, 6 do                                   -- edits of the grid reach the class
          local v = rng.pick({ false, 1, 2, 3, 0.5 })
          H.edit_cells(rng, grid, cells, w, h, rng.int(1, w), rng.int(1, h), v, 0.4, 4)
        end
        same_cells(grid, cells, w, h)
        same_cells(k, mapped(cells, w, h, t), w, h)
        found = found + check_searches(rng, k, mapped(cells, w, h, t), w, h, 3)
    end)
    assert(found > 300, "too few paths found: " .. found)
  end)

  it("jumps on a class of one cost, and its distance fields are the reference's", function()
    local rng = H.rng(77)
    for _ = 1, 40 do
      local w, h = rng.int(4, 24), rng.int(4, 24)
      local cells = H.random_cells(rng, w, h, 0.2, { 1, 3 })
      local grid = astar.grid.from_table(cells)
      local boat = grid:class({ [1] = false, [3] = 1 })      -- water only, one cost
      local model = mapped(cells, w, h, { [1] = false, [3] = 1 })
      local sx, sy, gx, gy = rng.int(1, w), rng.int(1, h), rng.int(1, w), rng.int(1, h)
      local want = H.dijkstra(model, w, h, sx, sy, gx, gy, "no_corner_cutting")
      local path = boat:find(sx, sy, gx, gy)
      if want then
        assert(path and H.close(path:cost(), want))
        if sx ~= gx or sy ~= gy then assert(path:stats().algorithm == "jps") end
      else
        assert(path == nil)
      end
      if H.walk(model, w, h, gx, gy) then
        local f = boat:distance_field({ { gx, gy } })
        local dist = H.dijkstra_all(model, w, h, gx, gy, "no_corner_cutting")
        for y = 1, h do
          for x = 1, w do
            local d = dist[(y - 1) * w + x]
            if d then assert(H.close(f:distance(x, y), d))
            else assert(f:distance(x, y) == nil) end
          end
        end
      end
    end
  end)

  it("restarts a live query on the class when the grid is edited where it searched", function()
    local grid = astar.grid(40, 40)
    local k = grid:class({ [2] = false })
    local q = k:query(1, 1, 40, 40, { algorithm = "astar", on_change = "stale" })
    assert(q:step(5) == "running")
    grid:set(2, 2, 2)                                  -- blocked for the class
    assert(k:walkable(2, 2) == false and grid:walkable(2, 2))
    assert(q:step(5) == "stale")
    local r = k:query(1, 1, 40, 40, { algorithm = "astar" })
    repeat until r:step(100) ~= "running"
    local cells = H.random_cells(H.rng(1), 40, 40, 0, { 1 })
    cells[2][2] = false
    local p = r:result()
    local c = H.check_path(cells, 40, 40, p, 1, 1, 40, 40, "no_corner_cutting")
    local want = H.dijkstra(cells, 40, 40, 1, 1, 40, 40, "no_corner_cutting")
    assert(H.close(c, want) and H.close(p:cost(), want))
  end)

  it("refuses edits of a class, and edits of its grid while a search on the class runs",
    function()
    local grid = astar.grid(8, 8)
    local k = grid:class({ [1] = 2 })
    H.checkerr("cannot edit a movement class: edit the grid it follows (grid:class)",
      k.set, k, 1, 1, 1)
    H.checkerr("cannot edit a movement class: edit the grid it follows (grid:class)",
      k.fill, k, 1, 1, 2, 2, false)
    local calls = 0
    local ok, msg = pcall(k.find, k, 1, 1, 8, 8, { cost = function(_, _, _, _, base)
      calls = calls + 1
      grid:set(5, 5, false)
      return base
    end })
    assert(not ok and msg:find("a search on one of its movement classes is running", 1, true),
      tostring(msg))
    assert(calls == 1 and grid:walkable(5, 5) and k:walkable(5, 5), "the edit went through")
    grid:set(5, 5, false)                              -- usable afterwards
    assert(not k:walkable(5, 5))
    local cells = H.random_cells(H.rng(1), 8, 8, 0, { 2 })
    cells[5][5] = false
    assert(H.close(k:find(1, 1, 8, 8):cost(), H.dijkstra(cells, 8, 8, 1, 1, 8, 8,
      "no_corner_cutting")))
    local copy = k:clone()                             -- a plain grid
    copy:set(1, 1, 5)
    assert(copy:get(1, 1) == 5 and k:get(1, 1) == 2)
    grid:set(1, 1, 1)
    assert(copy:get(1, 1) == 5)
  end)

  it("checks its table of costs", function()
    local grid = astar.grid(4, 4)
    local P = "bad argument #1 to 'class' ("
    H.checkerr(P .. "empty table of costs)", grid.class, grid, {})
    H.checkerr(P .. "cost 1 is given twice)", grid.class, grid, { [1] = 2, [true] = 3 })
    H.checkerr(P .. "a key must be a cost (a number > 0, at most 1e+100), true or false, " ..
      "got string)", grid.class, grid, { x = 1 })
    H.checkerr(P .. "a key must be a cost (a number > 0, at most 1e+100), true or false, " ..
      "got -1)", grid.class, grid, { [-1] = 1 })
    H.checkerr(P .. "the cost for 2 must be a number > 0 (at most 1e+100), true or false, " ..
      "got -1)", grid.class, grid, { [2] = -1 })
    H.checkerr(P .. "the cost for 2 must be a number > 0 (at most 1e+100), true or false, " ..
      "got inf)", grid.class, grid, { [2] = math.huge })
    H.checkerr(P .. "the cost for 2 must be a number > 0 (at most 1e+100), true or false, " ..
      "got table)", grid.class, grid, { [2] = {} })
    H.checkerr(P .. "a key must be a cost (a number > 0, at most 1e+100), true or false, " ..
      "got 0)", grid.class, grid, { [0] = 1 })
    local k = grid:class({ [1] = 2 })
    H.checkerr("a movement class has no classes of its own: make them from the grid it follows",
      k.class, k, { [2] = 3 })
    local big = {}
    for i = 1, 257 do big[i] = 1 end
    H.checkerr(P .. "at most 256 costs)", grid.class, grid, big)
    H.checkerr_prefix("bad argument #1 to 'class' (table expected", grid.class, grid, 3)
    local ghost = grid:class({ [false] = 4, [0.5] = true })
    grid:set(2, 2, false)
    grid:set(3, 3, 0.5)
    assert(ghost:get(2, 2) == 4 and ghost:get(3, 3) == 1 and ghost:get(1, 1) == 1)
    grid:close()
    H.checkerr("attempt to use a closed grid", grid.class, grid, { [1] = 2 })
    assert(ghost:get(2, 2) == 4 and ghost:find(1, 1, 4, 4))   -- the class lives on
  end)

  it("keeps a class a finalizer makes while another is being made", function()
    -- found in review: the outer call replaced the table of classes the finalizer had made;
    -- in a fresh process, where the collector runs finalizers inside the call
    local ok, out = H.isolated([[
      local astar = require "astar"
      collectgarbage("setpause", 0); collectgarbage("setstepmul", 1000)
      local current, made, seen = nil, nil, 0
      local function gc() if current and not made then made = current:class({ [1] = 5 }) end end
      for _ = 1, 5000 do
        local map = astar.grid(3, 1)
        made = nil
        if rawget(_G, "newproxy") then getmetatable(newproxy(true)).__gc = gc
        else setmetatable({}, { __gc = gc }) end
        current = map
        local k = map:class({ [1] = 2 })
        current = nil
        if made then
          seen = seen + 1
          map:set(2, 1, false)
          assert(made:get(2, 1) == false and k:get(2, 1) == false, "a class lost the edit")
        end
      end
      print("classes made by finalizers: " .. seen)
    ]])
    assert(ok and out:find("classes made by finalizers: [1-9]"), out)
  end)

  it("ignores foreign keys put in its registry table", function()
    local map = astar.grid(4, 4)
    local k = map:class({ [1] = 2 })
    for _, v in pairs(debug.getregistry()) do
      if type(v) == "table" and type(rawget(v, map)) == "table" then
        rawget(v, map)[io.stdout] = true
        rawget(v, map)[astar.grid(2, 2)] = true          -- a grid, but not a class
      end
    end
    map:set(2, 2, false)
    assert(k:get(2, 2) == false)
  end)

  it("lets classes and grids be collected in any order", function()
    local grid = astar.grid(16, 16)
    for _ = 1, 50 do grid:class({ [1] = 2 }) end        -- garbage at once
    local keep = grid:class({ [1] = 3 })
    collectgarbage()
    collectgarbage()
    grid:fill(1, 1, 16, 1, false)                      -- reaches the one kept
    assert(not keep:walkable(5, 1) and keep:get(5, 2) == 3)
    grid = nil -- luacheck: ignore
    collectgarbage()
    collectgarbage()
    assert(keep:find(1, 2, 16, 16))                    -- outlives its grid
  end)

  it("is refused on a closed grid (finalizers closing it: spec/finalizer_child.lua)", function()
    local grid = astar.grid(4, 4)
    local k = grid:class({ [1] = 2 })
    grid:close()
    H.checkerr("attempt to use a closed grid", grid.class, grid, { [1] = 2 })
    assert(k:get(1, 1) == 2)
  end)
end)
