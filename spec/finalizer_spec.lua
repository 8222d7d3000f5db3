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
