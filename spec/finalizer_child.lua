-- The work of spec/finalizer_spec.lua, run in a fresh process (H.isolated): in a small heap
-- the collector's cycles are short, so finalizers reliably run inside the calls (in busted's
-- big heap they rarely would). Plain asserts: a failure ends the process with its message.
-- As a chunk: CHILD = {"call", "grid:find", "close"} or {"input", "astar.navmesh"}, then
-- dofile this file; it prints "fired=<n> ok=<n>".
local astar = require "astar"
-- luacheck: read globals CHILD

local SQRT2 = math.sqrt(2)
local unpack = table.unpack or unpack
local function pack(...) return { n = select("#", ...), ... } end
local function near(a, b) return math.abs(a - b) < 1e-9 end

-- A garbage object whose finalizer is f: Lua 5.1 and LuaJIT run __gc of userdata only.
local function finalizer(f)
  if rawget(_G, "newproxy") then
    local p = newproxy(true)
    getmetatable(p).__gc = f
    return p
  end
  return setmetatable({}, { __gc = f })
end

-- The messages a refused finalizer may pass on (5.1 and LuaJIT propagate errors raised in
-- __gc; 5.4 turns them into warnings), a method on a map closed meanwhile, or bad input.
local function expected_error(err)
  err = tostring(err)
  return err:find("is running", 1, true) or err:find("is already running", 1, true) or
    err:find("attempt to use a closed", 1, true) or err:find("is being built", 1, true) or
    err:find("^bad argument") or err:find("^navmesh:")
end

-- Calls call(input) in rounds, with finalizers doing act() at every collection meanwhile,
-- until they ran inside calls often enough; judge(input, results...) checks each success.
local function rounds(make, act, call, judge, again)
  collectgarbage("setpause", 0)
  local inside, fired, oks = false, 0, 0
  for r = 1, 3000 do
    local input = make()
    for _ = 1, r % 16 + 1 do                       -- the collector's timing varies: so do we
      finalizer(function() if inside then fired = fired + 1; act(input) end end)
    end
    -- and garbage of another period: a call that allocates once (grid:stats) could otherwise
    -- fall into step with the collector and never see a finalizer (Lua 5.3, 2026-11-29)
    for _ = 1, r % 13 do local _ = {} end
    inside = true
    local res = pack(pcall(call, input))
    inside = false
    if res[1] then
      oks = oks + 1
      judge(input, unpack(res, 2, res.n))
    else
      assert(expected_error(res[2]), "unexpected error: " .. tostring(res[2]))
    end
    if again then again(input) end
    if fired >= 12 and r >= 50 then break end
  end
  collectgarbage("setpause", 200)
  collectgarbage()
  return fired, oks
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

-- name = {make the map, the call, judge its results (costs worked out by hand)}
local CALLS = {
  ["grid:find"] = { grid16, function(g) return g:find(1, 1, 16, 16) end,
    function(_, p) assert(near(p:cost(), 15 * SQRT2)) end },
  ["grid:find with a cost callback"] = { grid16,
    function(g) return g:find(1, 1, 16, 1, { cost = function(_, _, _, _, c) return c end }) end,
    function(_, p) assert(near(p:cost(), 15)) end },
  ["grid:distance_field"] = { grid16,
    function(g) return g:distance_field({ { 1, 1 } }):distance(16, 1) end,
    function(_, d) assert(near(d, 15)) end },
  ["grid:clone"] = { grid16, function(g) return g:clone() end,
    function(_, c) assert(16 == (c:size())) end },
  ["grid:to_path"] = { grid16, function(g) return g:to_path({ 1, 1, 2, 2, 3, 3 }) end,
    function(_, p) assert(near(p:cost(), 2 * SQRT2)) end },
  ["grid:replanner and path"] = { grid16,
    function(g)                    -- two paths: more results built while finalizers may run
      local r = g:replanner(1, 1, 16, 1)
      r:path()
      return r:path()
    end,
    function(_, p) assert(near(p:cost(), 15)) end },
  ["query:explored"] = { grid16, function(g)
      local q = g:query(1, 1, 16, 16, { algorithm = "astar" })
      q:step(10)
      return q:explored()
    end,
    function(_, closed, open) assert(#closed == 20 and #open > 0) end },
  ["grid:class"] = { grid16, function(g) return g:class({ [1] = 2 }) end,
    function(_, k) assert(k:get(1, 1) == 2 and near(k:find(1, 1, 16, 1):cost(), 30)) end },
  ["grid:to_field and an overlay"] = { grid16, function(g)
      return g:find(1, 1, 16, 1, { overlay = g:to_field(), overlay_scale = 2 })
    end,
    function(_, p) assert(near(p:cost(), 45)) end },
  ["grid:find with a size"] = { grid16, function(g) return g:find(1, 1, 15, 15, { size = 2 }) end,
    function(_, p) assert(near(p:cost(), 14 * SQRT2)) end },
  ["path:smooth"] = {                -- round the top of a wall: two corners; meanwhile a
    function()                         -- finalizer may smooth another path on the same grid
      local g = astar.grid(16, 16)
      for y = 2, 16 do g:set(8, y, false) end
      return g
    end,
    function(g)
      local other = g:find(1, 1, 16, 1)
      finalizer(function() pcall(other.smooth, other, g) end)
      return g:find(1, 16, 16, 16):smooth(g)
    end,
    function(_, p)
      local x, y = p:get(1)
      assert(#p == 4 and x == 1 and y == 16, "the points of another path")
      assert(math.abs(p:cost() - (math.sqrt(6.5 ^ 2 + 14.5 ^ 2) + 1 +
        math.sqrt(7.5 ^ 2 + 14.5 ^ 2))) < 1e-6)
    end },
  ["grid:stats"] = { grid16, function(g) return g:stats() end,
    function(_, st) assert(type(st.edits) == "number") end },
  ["navmesh.from_grid"] = { grid16, function(g) return astar.navmesh.from_grid(g) end,
    function(_, m) assert(near(m:find(0.5, 0.5, 15.5, 0.5):cost(), 15)) end },
  ["mesh:link, find through it and links"] = {
    function() return astar.navmesh { vertices = { 0, 0, 10, 0, 10, 10, 0, 10, 20, 0, 30, 0, 30, 10,
      20, 10 }, polygons = { { 1, 2, 3, 4 }, { 5, 6, 7, 8 } } } end,
    function(m)
      m:link(9, 5, 21, 5, 4)
      m:link(1, 1, 2, 2, 9, { oneway = true })
      return m:find(1, 5, 29, 5), m:find(29, 5, 1, 5, { cost = function(_, _, b) return b end }),
        m:links()
    end,
    function(_, p, back, links)
      assert(near(p:cost(), 20) and p:link(2) == 4 and near(back:cost(), 20) and #links == 3)
    end },
  ["graph:find"] = { graph3, function(g) return g:find(1, 3) end,
    function(_, p) assert(near(p:cost(), 3)) end },
  ["graph:distance_field"] = { graph3, function(g) return g:distance_field({ 1 }):distance(3) end,
    function(_, d) assert(near(d, 3)) end },
  ["mesh:polygons, polygon, vertices, neighbours, stats"] = {
    function() return astar.navmesh.from_polygons({ 0, 0, 10, 0, 10, 10, 0, 10 },
      { { 4, 4, 6, 4, 6, 6, 4, 6 } }) end,
    function(m) return m:polygons(), m:polygon(1), m:vertices(), m:neighbours(1), m:stats() end,
    function(_, polys, poly, verts, nb, st)
      assert(#polys == st.polygons and #poly >= 6 and #verts == 2 * st.vertices and
        #nb == #poly / 2)
    end },
}

-- Inputs that finalizers change while they are read: {make {input, change}, call, judge}.
local g8 = astar.grid(8, 8)
local INPUTS = {
  ["astar.navmesh"] = { function()
      local poly = { 1, 2, 3, 4 }
      local t = { vertices = { 0, 0, 10, 0, 10, 10, 0, 10 }, polygons = { poly } }
      return { t, function()
        for m = 5, 400 do poly[m] = 1 end
        t.vertices[3] = "x"
        t.polygons[2] = { 1, 2, 3 }
      end }
    end, astar.navmesh, function(m)
      assert(m:stats().polygons == 1 and near(m:find(1, 1, 9, 9):cost(), 8 * SQRT2))
    end },
  ["grid.from_table"] = { function()
      local rows = { { 1, 1, 1 }, { 1, false, 1 }, { 1, 1, 1 } }
      return { rows, function()
        rows[2][4] = 1
        rows[3] = "x"
        rows[4] = { 1 }
      end }
    end, astar.grid.from_table, function(g)
      local w, h = g:size()
      assert(w == 3 and h == 3 and not g:walkable(2, 2) and near(g:find(1, 1, 3, 3):cost(), 4))
    end },
  ["find's goals"] = { function()
      local goals = { { 8, 8 }, { 8, 1 } }
      return { goals, function()
        for m = 3, 200 do goals[m] = { 1, 8 } end
        goals[1] = "x"
      end }
    end, function(goals) return g8:find(1, 1, { goals = goals }) end,
    function(p) assert(near(p:cost(), 7)) end },             -- (8, 1) or (1, 8): 7 steps
  ["distance_field's sources"] = { function()
      local src = { { 1, 1 } }
      return { src, function()
        for m = 2, 200 do src[m] = { 8, 8 } end
        src[1] = false
      end }
    end, function(src) return g8:distance_field(src):distance(8, 1) end,
    function(d) assert(near(d, 7)) end },
}

local kind, name, action = CHILD[1], CHILD[2], CHILD[3]
local fired, oks
if kind == "call" then
  local c = assert(CALLS[name], name)
  fired, oks = rounds(c[1], ACTIONS[action], c[2], c[3], function(map)
    -- the same map, unless a finalizer closed it, still answers correctly
    if not tostring(map):find("closed", 1, true) then c[3](map, c[2](map)) end
  end)
  local fresh = c[1]()                              -- and a new one works as usual
  c[3](fresh, c[2](fresh))
else
  local c = assert(INPUTS[name], name)
  fired, oks = rounds(c[1], function(input) input[2]() end,
    function(input) return c[2](input[1]) end,
    function(_, ...) c[3](...) end)
end
io.write(("fired=%d ok=%d\n"):format(fired, oks))
