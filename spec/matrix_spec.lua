-- The bad-input matrix (issue 16): every public function and method, found by walking the
-- module and each object's method table (not a hand-picked list), called with each hostile
-- value at each of its first three argument positions. Every call must either return or
-- raise one of the library's own messages - never an internal Lua error ("attempt to index a
-- nil value", "astar: invalid argument"), never a crash - and every object must answer
-- correctly afterwards.
local astar = require "astar"
local H = require "spec.helper"

local NAN = 0 / 0
local function boom() error("a metamethod ran", 0) end
local BAD = {
  { "nil", nil }, { "true", true }, { "a string", "x" }, { "an empty string", "" },
  { "a NUL string", "a\0b" }, { "an empty table", {} }, { "NaN", NAN }, { "inf", math.huge },
  { "-inf", -math.huge }, { "-0", -0.0 }, { "-1", -1 }, { "0.5", 0.5 }, { "2^53", 2 ^ 53 },
  { "1e308", 1e308 }, { "a function", function() end },
  { "a table with raising metamethods", setmetatable({}, { __index = boom, __newindex = boom,
    __len = boom, __call = boom, __tostring = boom }) },
}

-- Internal errors: what an argument the library did not check would raise.
local INTERNAL = { "attempt to index", "attempt to call", "attempt to perform",
  "attempt to compare", "attempt to concatenate", "attempt to get length",
  "astar: invalid argument", "bad argument #%d+ to '%?'", "stack overflow" }

local function internal(err)
  if type(err) ~= "string" then return "non-string error " .. tostring(err) end
  for _, p in ipairs(INTERNAL) do
    if err:find(p) then return err end
  end
  return nil
end

local SKIP = { close = true, await = true }     -- close is checked on its own; await yields

-- One sample of every object kind, and how to tell it still works. The matrix may edit the
-- samples (a set, a remove_node with a plausible 1): the checks read the object's state back
-- and compare with an independent answer, or use parts no call of the matrix can reach.
local function samples()
  local grid = astar.grid(6, 6)
  local graph = astar.graph()
  local mesh = astar.navmesh.from_polygons({ 0, 0, 10, 0, 10, 10, 0, 10 })
  local path = grid:find(1, 1, 6, 6)
  local field = grid:distance_field({ { 1, 1 } })
  local query = grid:query(1, 1, 6, 6)
  local replanner = grid:replanner(1, 1, 6, 6)
  local scheduler = astar.scheduler({ budget = 100 })
  graph:add_node(0, 0)
  graph:add_node(3, 4)
  graph:add_edge(1, 2)
  return {
    { "grid", grid, function()
      -- the cells as they are now, against the helper's Dijkstra
      local cells = {}
      for y = 1, 6 do
        cells[y] = {}
        for x = 1, 6 do cells[y][x] = grid:get(x, y) end
      end
      local want = H.dijkstra(cells, 6, 6, 2, 2, 5, 5, "no_corner_cutting")
      local p = grid:find(2, 2, 5, 5)
      assert(want == nil and p == nil or math.abs(p:cost() - want) < 1e-9, "grid answers wrong")
    end },
    { "graph", graph, function()
      local a, b = graph:add_node(10, 10), graph:add_node(13, 14)
      graph:add_edge(a, b)
      assert(assert(graph:find(a, b)):cost() == 5)
    end },
    { "navmesh", mesh, function() assert(math.abs(assert(mesh:find(1, 1, 4, 5)):cost() - 5) < 1e-9) end },
    { "path", path, function() assert(#path >= 6) end },
    { "field", field, function() assert(field:distance(1, 1) == 0) end },
    { "query", query, function() assert(type(query:step(0)) == "string") end },
    { "replanner", replanner, function() assert(replanner:stats().total >= 0) end },
    { "scheduler", scheduler, function() assert(scheduler:pending() >= 0) end },
  }
end

-- The functions of the module tables, by name.
local function module_functions()
  local out = {}
  local function walk(t, prefix, depth)
    local keys = {}
    for k in pairs(t) do if type(k) == "string" then keys[#keys + 1] = k end end
    table.sort(keys)
    for _, k in ipairs(keys) do
      local v = t[k]
      if type(v) == "function" and not SKIP[k] and not k:find("^_") then
        out[#out + 1] = { prefix .. k, v }
      elseif type(v) == "table" and depth < 2 and k ~= "core" and not k:find("_mt$") then
        local mt = getmetatable(v)
        if mt and mt.__call then                   -- astar.grid(...), astar.navmesh{...}
          out[#out + 1] = { prefix .. k, function(...) return v(...) end }
        end
        walk(v, prefix .. k .. ".", depth + 1)
      end
    end
  end
  walk(astar, "astar.", 0)
  return out
end

-- Calls f(...) with args; returns an error string if the outcome is not acceptable.
local function judge(f, args, n)
  local ok, err = pcall(f, (table.unpack or unpack)(args, 1, n))
  if ok then return nil end
  return internal(err)
end

local function call_matrix(name, f, prefix)
  local problems, calls = {}, 0
  for pos = 1, 3 do
    for _, bad in ipairs(BAD) do
      local args = {}
      for i = 1, #prefix do args[i] = prefix[i] end
      for i = #prefix + 1, #prefix + pos - 1 do args[i] = 1 end    -- plausible: a 1
      args[#prefix + pos] = bad[2]
      calls = calls + 1
      local why = judge(f, args, #prefix + pos)
      if why then problems[#problems + 1] = ("%s, argument %d = %s: %s"):format(name, pos,
        bad[1], why) end
    end
  end
  return problems, calls
end

describe("the bad-input matrix", function()
  it("every method of every object kind: an own error or a result; the object still works", function()
    local problems, calls, methods = {}, 0, 0
    for _, s in ipairs(samples()) do
      local kind, obj, works = s[1], s[2], s[3]
      local mt = getmetatable(obj)
      local index = type(mt.__index) == "table" and mt.__index or mt
      local names = {}
      for k, v in pairs(index) do
        if type(v) == "function" and not SKIP[k] and not k:find("^__") then names[#names + 1] = k end
      end
      table.sort(names)
      for _, m in ipairs(names) do
        methods = methods + 1
        local p, c = call_matrix(kind .. ":" .. m, index[m], { obj })
        calls = calls + c
        for _, x in ipairs(p) do problems[#problems + 1] = x end
        -- a wrong self, too
        for _, bad in ipairs(BAD) do
          calls = calls + 1
          local why = judge(index[m], { bad[2] }, 1)
          if why then problems[#problems + 1] = ("%s:%s with self = %s: %s"):format(kind, m,
            bad[1], why) end
        end
        local ok, err = pcall(works)
        if not ok then problems[#problems + 1] = ("%s unusable after %s: %s"):format(kind, m, tostring(err)) end
      end
    end
    assert.are.same({}, problems)
    assert.is_true(methods > 60 and calls > 5000, methods .. " methods, " .. calls .. " calls")
    print(("\n  matrix: %d methods of 8 object kinds, %d calls"):format(methods, calls))
  end)

  it("every function of the module: an own error or a result", function()
    local problems, calls = {}, 0
    local fns = module_functions()
    for _, e in ipairs(fns) do
      local p, c = call_matrix(e[1], e[2], {})
      calls = calls + c
      for _, x in ipairs(p) do problems[#problems + 1] = x end
    end
    assert.are.same({}, problems)
    assert.is_true(#fns >= 16 and calls > 750, #fns .. " functions, " .. calls .. " calls")
    print(("\n  matrix: %d module functions, %d calls"):format(#fns, calls))
  end)

  it("can tell an internal error from the library's own", function()
    local g = astar.grid(2, 2)
    assert.is_nil(judge(g.find, { g, 1, 1, 9, 9 }, 5))          -- its own message
    assert.is_truthy(judge(function() local t = {}; return t.x.y end, {}, 0))
    assert.is_truthy(judge(function() error("astar: invalid argument") end, {}, 0))
  end)
end)
