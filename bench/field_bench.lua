-- field_bench.lua - distance fields and component labels on Moving AI maps.
--
--   lua5.4 bench/field_bench.lua [--repeat R] [set/name ...]
--
-- Default maps: dao/brc202d, and sc1/TheFrozenSea (254 components) for find across components.
--
-- For each map: a distance field from one source (the first scenario's goal), from 16
-- sources, a flee map made from the first field, a field with a Lua cost callback;
-- components() recomputed after an edit that turns a cell blocked and back, and once current;
-- and grid:find between cells of different components with and without labels.
-- Times are the best of R runs (the machines are shared and noisy), in microseconds.
local astar = require "astar"

local ok, system = pcall(require, "system")       -- lua-system comes with busted
local now = (ok and system.monotime) or os.clock

local dir = os.getenv("ASTAR_MOVINGAI") or "../shared/benchmarks/movingai"
local rep, maps = 10, {}
local i = 1
while arg[i] do
  if arg[i] == "--repeat" then rep = tonumber(arg[i + 1]); i = i + 1
  else maps[#maps + 1] = arg[i] end
  i = i + 1
end
if #maps == 0 then maps = { "dao/brc202d", "sc1/TheFrozenSea" } end

local function best(n, f)
  local b = math.huge
  for _ = 1, n do
    local t0 = now()
    f()
    local t = now() - t0
    if t < b then b = t end
  end
  return b * 1e6
end

print(("# %s on %s, %s"):format(astar._VERSION, jit and jit.version or _VERSION, os.date("!%Y-%m-%d")))
for _, name in ipairs(maps) do
  local grid = astar.grid.load_movingai(dir .. "/" .. name .. ".map")
  if not grid then
    print("field_bench: no map " .. name .. " under " .. dir .. " (set ASTAR_MOVINGAI)")
    return
  end
  local scen = assert(astar.load_scenarios(dir .. "/" .. name .. ".map.scen"))
  local w, h = grid:size()
  local src = { { scen[1].gx, scen[1].gy } }
  local many = {}
  for k = 1, 16 do
    local s = scen[1 + (k * 97) % #scen]
    many[k] = { s.sx, s.sy }
  end
  local f = grid:distance_field(src)
  local reached = f:stats().reached
  print(("%s (%dx%d), field reaches %d cells"):format(name, w, h, reached))
  local t1 = best(rep, function() grid:distance_field(src) end)
  local t16 = best(rep, function() grid:distance_field(many) end)
  local tflee = best(rep, function() grid:distance_field(f, { scale = -1.2 }) end)
  local tcb = best(math.max(1, math.floor(rep / 3)), function()
    grid:distance_field(src, { cost = function(_, _, _, _, base) return base end })
  end)
  print(("  distance_field, 1 source          %9.0f us  (%.1f M cells/s)"):format(t1, reached / t1))
  print(("  distance_field, 16 sources        %9.0f us"):format(t16))
  print(("  flee map from a field             %9.0f us"):format(tflee))
  print(("  distance_field + Lua cost         %9.0f us"):format(tcb))

  -- a walkable cell to toggle, so that the labels go stale on every run
  local tx, ty = scen[1].sx, scen[1].sy
  local n4 = grid:components()
  local n8 = grid:components("always")
  local trelabel = best(rep, function()
    grid:set(tx, ty, false); grid:set(tx, ty, 1)
    grid:components()
  end)
  local trelabel8 = best(rep, function()
    grid:set(tx, ty, false); grid:set(tx, ty, 1)
    grid:components("always")
  end)
  local tcur = best(rep, function() for _ = 1, 1000 do grid:same_component(tx, ty, 1, 1) end end) / 1000
  print(("  components(), recomputed          %9.0f us  (%d components; %d with 'always')"):format(
    trelabel, n4, n8))
  print(("  components('always'), recomputed  %9.0f us"):format(trelabel8))
  print(("  same_component, labels current    %9.3f us"):format(tcur))

  -- find across components: the largest component's cell to a cell of another one
  local lab0 = grid:component(tx, ty)
  local ox, oy
  for y = 1, h do
    for x = 1, w do
      local l = grid:component(x, y)
      if l and l ~= lab0 then ox, oy = x, y break end
    end
    if ox then break end
  end
  if ox then
    local tcut = best(rep, function() assert(not grid:find(tx, ty, ox, oy)) end)
    local fresh = grid:clone()                     -- never asked for components
    local tflood = best(math.max(1, math.floor(rep / 3)), function() assert(not fresh:find(tx, ty, ox, oy)) end)
    print(("  find across components: %.1f us with labels, %.0f us without"):format(tcut, tflood))
  end
end
