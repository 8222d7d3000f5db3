-- change_bench.lua - what tracking edits costs: an edit (grid:set, grid:fill) writes one entry
-- of the grid's edit log; the next step of each live query asks whether the edits since its
-- last step touch what it has searched. Timed here on a Moving AI map: an edit, and that check
-- for a query that has expanded 1 000 and 20 000 cells, after a one-cell edit and after a 32x32
-- fill, where the search has not been (ignored) and where it has (restart).
--
--   lua5.4 bench/change_bench.lua [set/name]        (default dao/orz900d)
local astar = require "astar"

local ok, system = pcall(require, "system")
local now = (ok and system.monotime) or os.clock

local dir = os.getenv("ASTAR_MOVINGAI") or "../shared/benchmarks/movingai"
local name = arg[1] or "dao/orz900d"
local grid = astar.grid.load_movingai(dir .. "/" .. name .. ".map")
if not grid then print("change_bench: no " .. name .. " under " .. dir); return end
local scen = assert(astar.load_scenarios(dir .. "/" .. name .. ".map.scen"))
local s = scen[#scen]                                    -- the longest query
local W, H = grid:size()

-- A walkable cell far from both ends of s.
local function far_cell()
  for y = 1, H, 7 do
    for x = 1, W, 7 do
      if grid:get(x, y) and math.abs(x - s.sx) + math.abs(y - s.sy) > W / 3 and
        math.abs(x - s.gx) + math.abs(y - s.gy) > W / 3 then return x, y end
    end
  end
end
local fx, fy = far_cell()

print(("# %s on %s, %s: %s, %dx%d"):format(astar._VERSION, jit and jit.version or _VERSION,
  os.date("!%Y-%m-%d"), name, W, H))
local N = 200000
local t0 = now()
for k = 1, N do grid:set(fx, fy, k % 2 == 0 and 1 or 2) end
print(("grid:set: %.3f us an edit (%d edits)"):format((now() - t0) / N * 1e6, N))

local function check_cost(expanded, edit, label)
  local rounds, spent, restarts = 200, 0, 0
  for _ = 1, rounds do
    local q = grid:query(s.sx, s.sy, s.gx, s.gy, { algorithm = "astar" })
    q:step(expanded)
    edit()
    local r0 = q:stats().restarts
    t0 = now()
    q:step(0)                                          -- the check, and no expansion
    spent = spent + (now() - t0)
    restarts = restarts + (q:stats().restarts - r0)
    q:cancel()
  end
  print(("%-44s after %5d expansions: %7.2f us a step (%d of %d restarted)")
    :format(label, expanded, spent / rounds * 1e6, restarts, rounds))
end

for _, e in ipairs({ 1000, 20000 }) do
  check_cost(e, function() grid:set(fx, fy, 2) end, "one cell where it has not been")
  check_cost(e, function() grid:fill(fx, fy, 32, 32, 1) end, "a 32x32 fill where it has not been")
  check_cost(e, function() grid:set(s.sx, s.sy, 1) end, "the start cell")
end
local f = grid:find(s.sx, s.sy, s.gx, s.gy, { algorithm = "astar" })
t0 = now()
for _ = 1, 5 do grid:find(s.sx, s.sy, s.gx, s.gy, { algorithm = "astar" }) end
print(("for scale: grid:find (A*) of that query %.0f us, %d expansions; find itself checks nothing")
  :format((now() - t0) / 5 * 1e6, f:stats().expanded))

-- What a unit of some size may do from each cell (its clearance: `radius` and `size`) is kept
-- per cell for the last four shapes searched with, and forgotten around each edit: the cells
-- within reach of the edited one, for each shape (issue 11: at most 50 us after an edit of one
-- cell on a 1024-cell map). Fill all four, then time edits at walkable cells away from walls.
local shapes = { { radius = 0.5 }, { radius = 1 }, { radius = 2 }, { size = { 3, 3 } } }
for _, o in ipairs(shapes) do grid:find(s.sx, s.sy, s.gx, s.gy, o) end
local cells, rng = {}, 12345
while #cells < 512 do
  rng = (rng * 1103515245 + 12345) % 2147483648
  local x, y = rng % W + 1, math.floor(rng / W) % H + 1
  if grid:get(x, y) then cells[#cells + 1] = { x, y } end
end
N = 20000
t0 = now()
for k = 1, N do
  local c = cells[math.floor((k - 1) / 2) % #cells + 1]
  grid:set(c[1], c[2], k % 2 == 0 and 1 or false)       -- blocked, then walkable again
end
print(("grid:set with four shapes' clearance kept: %.3f us an edit (%d edits)")
  :format((now() - t0) / N * 1e6, N))
for _, o in ipairs(shapes) do
  local p = grid:find(s.sx, s.sy, s.gx, s.gy, o)
  assert(p, "the longest query with a shape after the edits")
end
