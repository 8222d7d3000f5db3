-- prepare_bench.lua - JPS+ tables on a changing map: grid:prepare() (every pass, which is
-- also what a search after an edit cost before the tables were patched), then an edit and
-- the next search: a door (one cell on a scenario's path) closed or opened, a 4x4 block,
-- and 64 doors at once; the search is one cell long, so the time is the patch's. Every
-- search after the edits is checked against A* on the same grid.
--
--   lua5.4 bench/prepare_bench.lua [--edits N] [set/name ...]
--     (default: dao/arena2 dao/brc202d dao/orz900d sc1/TheFrozenSea rooms/32room_000)
local astar = require "astar"
local B = require "bench.common"

local now, dir = B.now, B.dir
local opts, maps = B.args({ edits = 100 },
  { "dao/arena2", "dao/brc202d", "dao/orz900d", "sc1/TheFrozenSea", "rooms/32room_000" })

print(("# %s on %s, %s"):format(astar._VERSION, jit and jit.version or _VERSION, os.date("!%Y-%m-%d")))
print(("%-22s %9s %10s %12s %12s %12s %6s"):format("map", "cells", "prepare", "a door",
  "a 4x4 block", "64 doors", "wrong"))
for _, name in ipairs(maps) do
  local grid = astar.grid.load_movingai(dir .. "/" .. name .. ".map")
  if not grid then print("prepare_bench: no " .. name .. " under " .. dir); return end
  local scen = assert(astar.load_scenarios(dir .. "/" .. name .. ".map.scen"))
  local W, H = grid:size()
  local best = math.huge
  for _ = 1, 3 do
    local c = grid:clone()
    local t0 = now()
    c:prepare()
    best = math.min(best, now() - t0)
    c:close()
  end
  grid:prepare()
  -- doors: cells halfway along the scenarios' paths
  local doors = {}
  for k = 1, opts.edits do
    local s = scen[(k * 7919) % #scen + 1]
    local p = grid:find(s.sx, s.sy, s.gx, s.gy)
    if p and #p > 2 then doors[#doors + 1] = { p:get(math.floor(#p / 2)) } end
  end
  local s0 = scen[1]
  local wrong = 0
  local function search()                -- one cell long: the time is the patch's
    grid:find(s0.sx, s0.sy, s0.sx, s0.sy)
  end
  local function verify()                -- a real query, against A* on the same grid
    local s = scen[#scen]
    local a = grid:find(s.sx, s.sy, s.gx, s.gy)
    local b = grid:find(s.sx, s.sy, s.gx, s.gy, { algorithm = "astar" })
    if (a == nil) ~= (b == nil) or a and math.abs(a:cost() - b:cost()) > 1e-9 * b:cost() then
      wrong = wrong + 1
    end
  end
  local function timed(edit)
    local t, n = 0, 0
    for i, d in ipairs(doors) do
      local t0 = now()
      edit(d[1], d[2], false)
      search()
      t = t + (now() - t0)
      if i % 10 == 0 then verify() end
      t0 = now()
      edit(d[1], d[2], true)
      search()
      t = t + (now() - t0)
      n = n + 2
    end
    return t / n
  end
  local door = timed(function(x, y, v) grid:set(x, y, v) end)
  local block = timed(function(x, y, v)
    grid:fill(math.max(1, math.min(x - 1, W - 3)), math.max(1, math.min(y - 1, H - 3)), 4, 4, v)
  end)
  local function all_doors(v)
    local t0 = now()
    for i = 1, math.min(64, #doors) do grid:set(doors[i][1], doors[i][2], v) end
    search()
    return now() - t0
  end
  local many = all_doors(false)
  verify()
  many = (many + all_doors(true)) / 2
  print(("%-22s %9d %8.2fms %10.3fms %10.3fms %10.2fms %6d"):format(name, W * H, best * 1e3,
    door * 1e3, block * 1e3, many * 1e3, wrong))
  grid:close()
end
