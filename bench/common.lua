-- common.lua - what the benches share: the clock, where the Moving AI maps are, their
-- arguments, and timing one call. `local B = require "bench.common"` (run from the checkout).
local B = {}

local ok, system = pcall(require, "system")
B.now = (ok and system.monotime) or os.clock
B.dir = os.getenv("ASTAR_MOVINGAI") or "../shared/benchmarks/movingai"

-- The command line: `--name value` sets opts.name where opts has a default for it (a number,
-- or a string where the default is one), anything else is a map name ("set/name"); names
-- default to the list given.
function B.args(opts, names)
  local given, i = {}, 1
  while arg[i] do
    local name = arg[i]:match("^%-%-(.+)$")
    if name and opts[name] ~= nil then
      opts[name] = type(opts[name]) == "string" and arg[i + 1] or tonumber(arg[i + 1])
      i = i + 1
    else
      given[#given + 1] = arg[i]
    end
    i = i + 1
  end
  return opts, #given > 0 and given or names
end

-- f(...)'s first result and the seconds it took.
function B.timed(f, ...)
  local t0 = B.now()
  local r = f(...)
  return r, B.now() - t0
end

-- Calls link(x1, y1, x2, y2) for n seeded pairs of distinct walkable cells of grid (the same
-- pairs on every run and VM): the links of link_bench.lua and navmesh_link_bench.lua.
function B.random_links(grid, n, link)
  local w, h = grid:size()
  local seed, made = 7, 0
  local function rand(m)
    seed = (seed * 16807) % 2147483647
    return seed % m + 1
  end
  while made < n do
    local x1, y1, x2, y2 = rand(w), rand(h), rand(w), rand(h)
    if grid:walkable(x1, y1) and grid:walkable(x2, y2) and (x1 ~= x2 or y1 ~= y2) then
      link(x1, y1, x2, y2)
      made = made + 1
    end
  end
end

-- Lays seeded terrain over grid (the same on every run and VM, from a Park-Miller generator):
-- with 'scatter' P, each walkable cell costs 3 with probability P; otherwise rectangles of
-- 4-24 cells a side with costs 1-9, one per 'every' cells (default 400), over walkable cells.
function B.terrain(grid, seed, every, scatter)
  local s, w, h = seed % 2147483646 + 1, grid:size()
  local function rnd(n) s = s * 16807 % 2147483647; return s % n end
  for y = 1, scatter and h or 0 do
    for x = 1, w do
      if grid:get(x, y) and rnd(1000000) < scatter * 1000000 then grid:set(x, y, 3) end
    end
  end
  for _ = 1, scatter and 0 or math.floor(w * h / (every or 400)) do
    local x, y, pw, ph, c = rnd(w) + 1, rnd(h) + 1, rnd(21) + 4, rnd(21) + 4, rnd(9) + 1
    for yy = y, math.min(h, y + ph - 1) do
      for xx = x, math.min(w, x + pw - 1) do
        if grid:get(xx, yy) then grid:set(xx, yy, c) end
      end
    end
  end
end

return B
