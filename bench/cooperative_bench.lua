-- cooperative_bench.lua - Cooperative A* and WHCA* (astar.cooperative): 100 units planned in
-- priority order on a 256 x 256 map, each from a seeded random walkable cell to another (the
-- same units on every run and VM; starts distinct, goals distinct); total ms for the group
-- (every grid:find, its reservations and Paths, from Lua), the best of R runs, each on a fresh
-- table; how many units found a path, the expansions of all their searches, and the waits.
-- Maps: the Moving AI city map cities/Berlin_1_256 (read from ../shared, never copied) and a
-- generated 256 x 256 map with 20% of its cells blocked at random.
--
--   luajit bench/cooperative_bench.lua [--units N] [--runs R] [set/name ...]
local astar = require "astar"
local B = require "bench.common"

local opts, names = B.args({ units = 100, runs = 5 }, { "cities/Berlin_1_256", "random20" })

local function rng(seed)
  return function(m)
    seed = (seed * 16807) % 2147483647
    return seed % m + 1
  end
end

local function generated(w, h, p)
  local rand, g = rng(12345), astar.grid(w, h)
  for y = 1, h do
    for x = 1, w do
      if rand(1000) <= p * 1000 then g:set(x, y, false) end
    end
  end
  return g
end

-- n units: distinct walkable starts and distinct walkable goals, in one component with them.
local function units_of(grid, n)
  local w, h = grid:size()
  local rand, units, used_s, used_g = rng(99), {}, {}, {}
  while #units < n do
    local x0, y0, x1, y1 = rand(w), rand(h), rand(w), rand(h)
    local ks, kg = y0 * w + x0, y1 * w + x1
    if grid:walkable(x0, y0) and grid:walkable(x1, y1) and not used_s[ks] and not used_g[kg]
      and grid:same_component(x0, y0, x1, y1) then
      used_s[ks], used_g[kg] = true, true
      units[#units + 1] = { x0, y0, x1, y1 }
    end
  end
  return units
end

print(("# %s on %s, %s: %d units on a 256 x 256 map, total ms for the group (best of %d)")
  :format(astar._VERSION, jit and jit.version or _VERSION, os.date("!%Y-%m-%d"), opts.units,
    opts.runs))
print("| map | planner | ms | found | expanded | waits | mean path | total cost |")
print("|---|---|---:|---:|---:|---:|---:|---:|")
for _, name in ipairs(names) do
  local grid
  if name == "random20" then grid = generated(256, 256, 0.2)
  else
    grid = astar.grid.load_movingai(B.dir .. "/" .. name .. ".map")
    if not grid then print("cooperative_bench: no " .. name .. " under " .. B.dir); return end
  end
  local units = units_of(grid, opts.units)
  for _, wnd in ipairs({ false, 32, 16, 8 }) do
    local best, found, expanded, waits, len, cost = math.huge, 0, 0, 0, 0, 0
    for _ = 1, opts.runs do
      local r = astar.reservations()
      local t0 = B.now()
      local paths = astar.cooperative(grid, units, { window = wnd or nil, reserve = r })
      local dt = B.now() - t0
      if dt < best then best = dt end
      found, expanded, waits, len, cost = 0, 0, 0, 0, 0
      for _, p in ipairs(paths) do
        if p then
          found = found + 1
          expanded = expanded + p:stats().expanded
          len = len + #p
          cost = cost + p:cost()
          local px, py = p:get(1)
          for i = 2, #p do
            local x, y = p:get(i)
            if x == px and y == py then waits = waits + 1 end
            px, py = x, y
          end
        end
      end
      r:close()
    end
    print(("| %s | %s | %.1f | %d | %d | %d | %.0f | %.0f |"):format(name,
      wnd and ("WHCA* window " .. wnd) or "Cooperative A*", best * 1000, found, expanded, waits,
      len / math.max(1, found), cost))
  end
end
