-- Finalizers during a call (issue 16). Any Lua allocation may run finalizers, and a finalizer
-- may close, edit or search the very map whose method is building its results. Each method
-- below runs with the collector at its most eager (pause 0) and finalizers that try one of
-- those at every collection: the method returns the right answer (checked against values
-- computed by hand) or raises one of the library's own messages, never corrupts memory (the
-- ASan run of this suite), and the map answers correctly afterwards.
local astar = require "astar"

local SQRT2 = math.sqrt(2)
local unpack = table.unpack or unpack
local function pack(...) return { n = select("#", ...), ... } end

-- A garbage object whose finalizer is f: Lua 5.1 and LuaJIT run __gc of userdata only.
local function finalizer(f)
  if rawget(_G, "newproxy") then
    local p = newproxy(true)
    getmetatable(p).__gc = f
    return p
  end
  return setmetatable({}, { __gc = f })
end
local ROUNDS, FIRED = 3000, 12    -- at most; stop once finalizers ran inside calls that often

-- The messages a refused finalizer may pass on (Lua 5.1 and LuaJIT propagate errors raised
-- in __gc; 5.4 turns them into warnings), or a method may raise when its map was closed.
local function expected_error(err)
  err = tostring(err)
  return err:find("a search on it is running", 1, true) or
    err:find("is already running", 1, true) or err:find("is running", 1, true) or
    err:find("attempt to use a closed", 1, true) or
    err:find("is being built", 1, true)
end

-- Runs call(map) ROUNDS times with finalizers acting on the map during it; check(result...)
-- judges each successful call.
local function stress(make, action, call, check)
  local pause = collectgarbage("setpause", 0)
  local inside, target = false, nil -- luacheck: ignore 311
  local ok_count, err_count, fired = 0, 0, 0
  local rounds = 0
  while rounds < ROUNDS and fired < FIRED do
    rounds = rounds + 1
    local map = make()
    target = map
    for _ = 1, rounds % 16 + 1 do                  -- the collector's timing varies: so do we
      finalizer(function()
        if inside and target then fired = fired + 1; action(target) end
      end)
    end
    inside = true
    local res = pack(pcall(call, map))
    inside = false
    if res[1] then
      ok_count = ok_count + 1
      check(map, unpack(res, 2, res.n))
    else
      err_count = err_count + 1
      assert.is_truthy(expected_error(res[2]), "unexpected error: " .. tostring(res[2]))
    end
    target = nil
    -- the same map, unless a finalizer closed it, still answers correctly
    if not tostring(map):find("closed", 1, true) then check(map, call(map)) end
  end
  collectgarbage("setpause", pause)
  collectgarbage()
  return ok_count, err_count, fired
end

local ACTIONS = {
  close = function(m) m:close() end,
  edit = function(m) if m.set then m:set(8, 16, false) end end,   -- off every path checked
  search = function(m) if m.set then m:find(1, 1, 3, 3) end end,
}

local function grid16() return astar.grid(16, 16) end
local function graph3()
  local g = astar.graph()
  local a, b, c = g:add_node(0, 0), g:add_node(1, 0), g:add_node(2, 0)
  g:add_edge(a, b, 1)
  g:add_edge(b, c, 2)
  return g
end

local function near(a, b) return math.abs(a - b) < 1e-9 end

local CASES = {
  { "grid:find", grid16, function(g) return g:find(1, 1, 16, 16) end,
    function(_, p) assert.is_true(near(p:cost(), 15 * SQRT2)) end },
  { "grid:find with a cost callback", grid16,
    function(g) return g:find(1, 1, 16, 1, { cost = function(_, _, _, _, c) return c end }) end,
    function(_, p) assert.is_true(near(p:cost(), 15)) end },
  { "grid:distance_field", grid16,
    function(g) local f = g:distance_field({ { 1, 1 } }); return f:distance(16, 1) end,
    function(_, d) assert.is_true(near(d, 15)) end },
  { "grid:clone", grid16, function(g) return g:clone() end,
    function(_, c) assert.are.equal(16, (c:size())) end },
  { "grid:to_path", grid16, function(g) return g:to_path({ 1, 1, 2, 2, 3, 3 }) end,
    function(_, p) assert.is_true(near(p:cost(), 2 * SQRT2)) end },
  { "grid:replanner and path", grid16,
    function(g) local r = g:replanner(1, 1, 16, 1); return r:path() end,
    function(_, p) assert.is_true(near(p:cost(), 15)) end },
  { "grid:stats", grid16, function(g) return g:stats() end,
    function(_, st) assert.are.equal("number", type(st.edits)) end },
  { "navmesh.from_grid", grid16, function(g) return astar.navmesh.from_grid(g) end,
    function(_, m) assert.is_true(near(m:find(0.5, 0.5, 15.5, 0.5):cost(), 15)) end },
  { "graph:find", graph3, function(g) return g:find(1, 3) end,
    function(_, p) assert.is_true(near(p:cost(), 3)) end },
  { "graph:distance_field", graph3,
    function(g) return g:distance_field({ 1 }):distance(3) end,
    function(_, d) assert.is_true(near(d, 3)) end },
  { "mesh:polygons, polygon, vertices, neighbours, stats",
    function() return astar.navmesh.from_polygons({ 0, 0, 10, 0, 10, 10, 0, 10 },
      { { 4, 4, 6, 4, 6, 6, 4, 6 } }) end,
    function(m) return m:polygons(), m:polygon(1), m:vertices(), m:neighbours(1), m:stats() end,
    function(_, polys, poly, verts, nb, st)
      assert.are.equal(#polys, st.polygons)
      assert.is_true(#poly >= 6 and #verts == 2 * st.vertices and #nb == #poly / 2)
    end },
}

describe("finalizers during a call", function()
  for _, c in ipairs(CASES) do
    for _, aname in ipairs({ "close", "edit", "search" }) do
      it(("%s, a finalizer trying to %s the map"):format(c[1], aname), function()
        local ok, _, fired = stress(c[2], ACTIONS[aname], c[3], c[4])
        assert.is_true(ok > 0, "no call succeeded")
        assert.is_true(fired > 0, "no finalizer ran during a call")
        -- afterwards a fresh map of the same kind works as usual
        local fresh = c[2]()
        c[4](fresh, c[3](fresh))
      end)
    end
  end
end)

-- Every Lua table a constructor or search reads may be changed by a finalizer while it is
-- read (each read may allocate). The result is then either right for the table as it was
-- first seen or as it ended, or a clear error; never memory corruption (ASan run).
describe("finalizers that change the input being read", function()
  local function mutate_while(make_input, call, judge)
    local pause = collectgarbage("setpause", 0)
    local inside, fired, oks = false, 0, 0
    for rounds = 1, 2000 do
      local input, grow = make_input()
      for _ = 1, rounds % 9 + 1 do
        finalizer(function() if inside then fired = fired + 1; grow() end end)
      end
      inside = true
      local res = pack(pcall(call, input))
      inside = false
      if res[1] then
        oks = oks + 1
        judge(unpack(res, 2, res.n))
      else
        assert.is_truthy(tostring(res[2]):find("^bad argument") or
          tostring(res[2]):find("^navmesh:") or tostring(res[2]):find("changed during"),
          "unexpected error: " .. tostring(res[2]))
      end
      if fired >= 30 and rounds >= 200 then break end
    end
    collectgarbage("setpause", pause)
    collectgarbage()
    assert.is_true(fired > 0 and oks > 0, ("fired %d, succeeded %d"):format(fired, oks))
  end

  it("astar.navmesh: vertex and polygon lists that grow and change", function()
    mutate_while(function()
      local poly = { 1, 2, 3, 4 }
      local t = { vertices = { 0, 0, 10, 0, 10, 10, 0, 10 }, polygons = { poly } }
      return t, function()
        for m = 5, 400 do poly[m] = 1 end
        t.vertices[3] = "x"
        t.polygons[2] = { 1, 2, 3 }
      end
    end, astar.navmesh, function(m)
      -- one square as given, or the list as changed: then the call had to fail
      assert.are.equal(1, m:stats().polygons)
      assert.is_true(math.abs(m:find(1, 1, 9, 9):cost() - 8 * SQRT2) < 1e-9)
    end)
  end)

  it("grid.from_table: rows that grow, shrink and turn into other types", function()
    mutate_while(function()
      local rows = { { 1, 1, 1 }, { 1, false, 1 }, { 1, 1, 1 } }
      return rows, function()
        rows[2][4] = 1
        rows[3] = "x"
        rows[4] = { 1 }
      end
    end, astar.grid.from_table, function(g)
      local w, h = g:size()
      assert.are.same({ 3, 3 }, { w, h })
      assert.is_false(g:walkable(2, 2))
      assert.is_true(math.abs(g:find(1, 1, 3, 3):cost() - 4) < 1e-9)
    end)
  end)

  it("find's goals and distance_field's sources: lists that grow and change", function()
    local g = astar.grid(8, 8)
    mutate_while(function()
      local goals = { { 8, 8 }, { 8, 1 } }
      return goals, function()
        for m = 3, 200 do goals[m] = { 1, 8 } end
        goals[1] = "x"
      end
    end, function(goals) return g:find(1, 1, { goals = goals }) end, function(p)
      assert.is_true(math.abs(p:cost() - 7) < 1e-9)        -- (8, 1) or (1, 8): 7 steps
    end)
    mutate_while(function()
      local src = { { 1, 1 } }
      return src, function()
        for m = 2, 200 do src[m] = { 8, 8 } end
        src[1] = false
      end
    end, function(src) return g:distance_field(src):distance(8, 1) end, function(d)
      assert.is_true(math.abs(d - 7) < 1e-9)
    end)
  end)
end)
