-- hierarchy_bench.lua - hierarchical search (HPA*, grid:hierarchy) on a 4096 x 4096 world
-- tiled from the Moving AI maps, against A* and jump point search on the same queries.
--
--   luajit bench/hierarchy_bench.lua [--n N] [--cluster C] [--side S] [--seed K] [--threads T]
--
-- The world: a 4 x 4 arrangement of 1024-cell blocks, each TheFrozenSea (sc1) or a 2 x 2 of
-- 512-cell maps (bg512/AR0011SR, rooms/32room_000, random/random512-10-0, mazes/maze512-1-0,
-- four cities/Berlin_1_256, dao/arena2 in a blocked 512 frame), crossed every 512 cells by
-- roads 3 cells wide in both directions so that the blocks connect. Queries: N seeded pairs
-- of walkable cells in one component at least 1000 cells apart (octile distance: every path
-- between them is longer than 1000). For each: the hierarchical path's time and cost, and
-- A*'s (the optimum) and JPS's. Also: the build, its memory, and the local rebuild after one
-- edit. Times: mean microseconds per query; hierarchical and JPS the fastest of 3 runs.
local astar = require "astar"
local B = require "bench.common"

local o = B.args({ n = 40, cluster = 16, side = 4096, seed = 11, threads = 0 }, {})

local function read(name)
  local f = assert(io.open(B.dir .. "/" .. name .. ".map", "rb"))
  local text = f:read("*a")
  f:close()
  local rows = {}
  for line in text:gmatch("[^\r\n]+") do rows[#rows + 1] = line end
  local h = tonumber(rows[2]:match("%d+"))
  local out = {}
  for y = 1, h do out[y] = rows[4 + y] end
  return out
end

-- A map's rows framed (blocked '@') or cut to size x size.
local function fit(rows, size)
  local out = {}
  for y = 1, size do
    local r = rows[y] or ""
    if #r < size then r = r .. string.rep("@", size - #r) end
    out[y] = r:sub(1, size)
  end
  return out
end

local function quad(a, b, c, d)          -- four 512 maps as one 1024 block
  local out = {}
  for y = 1, 512 do
    out[y] = a[y] .. b[y]
    out[512 + y] = c[y] .. d[y]
  end
  return out
end

local function world(side)
  local sea = fit(read("sc1/TheFrozenSea"), 1024)
  local ar, rooms = fit(read("bg512/AR0011SR"), 512), fit(read("rooms/32room_000"), 512)
  local rnd, maze = fit(read("random/random512-10-0"), 512), fit(read("mazes/maze512-1-0"), 512)
  local berlin = fit(read("cities/Berlin_1_256"), 256)
  local berlin4 = {}
  for y = 1, 256 do
    berlin4[y] = berlin[y] .. berlin[y]
    berlin4[256 + y] = berlin[y] .. berlin[y]
  end
  local arena = fit(read("dao/arena2"), 512)
  local blocks = { sea, quad(ar, rooms, rnd, berlin4), quad(arena, ar, rooms, maze) }
  local pattern = { 1, 2, 3, 1, 2, 1, 1, 3, 3, 1, 2, 1, 1, 2, 1, 2 }
  local nb = math.floor(side / 1024)
  local rows = {}
  for by = 0, nb - 1 do
    for y = 1, 1024 do
      local parts = {}
      for bx = 0, nb - 1 do
        parts[#parts + 1] = blocks[pattern[(by * 4 + bx) % 16 + 1]][y]
      end
      rows[by * 1024 + y] = table.concat(parts)
    end
  end
  local road = string.rep(".", side)
  for y = 1, side do                      -- vertical roads, then horizontal ones
    local r = rows[y]
    if (y - 1) % 512 >= 256 and (y - 1) % 512 < 259 then
      r = road
    else
      local parts, last = {}, 0
      for x = 257, side, 512 do
        parts[#parts + 1] = r:sub(last + 1, x - 1)
        parts[#parts + 1] = "..."
        last = x + 2
      end
      parts[#parts + 1] = r:sub(last + 1)
      r = table.concat(parts)
    end
    rows[y] = r
  end
  return astar.grid.parse_movingai("type octile\nheight " .. side .. "\nwidth " .. side ..
                                   "\nmap\n" .. table.concat(rows, "\n") .. "\n")
end

local t0 = B.now()
local grid = world(o.side)
local side = o.side
print(("world: %d x %d cells from the Moving AI maps, made in %.1f s"):format(side, side,
      B.now() - t0))

-- Seeded queries (a Park-Miller generator: the same on every VM).
local seed = o.seed
local function rand(m)
  seed = (seed * 16807) % 2147483647
  return seed % m + 1
end
local queries = {}
while #queries < o.n do
  local sx, sy, gx, gy = rand(side), rand(side), rand(side), rand(side)
  local dx, dy = math.abs(sx - gx), math.abs(sy - gy)
  local oct = math.max(dx, dy) + (math.sqrt(2) - 1) * math.min(dx, dy)
  if oct >= 1000 and grid:walkable(sx, sy) and grid:walkable(gx, gy) and
     grid:component(sx, sy) == grid:component(gx, gy) then
    queries[#queries + 1] = { sx, sy, gx, gy }
  end
end

t0 = B.now()
local info = grid:hierarchy { cluster = o.cluster, threads = o.threads > 0 and o.threads or nil }
local build = B.now() - t0
print(("hierarchy: clusters of %d, %d clusters, %d nodes, %d edges, %.1f MB, built in %.0f ms " ..
       "(%s), digest %s"):format(info.cluster, info.clusters, info.nodes, info.edges,
      info.bytes / 2 ^ 20, build * 1e3, o.threads > 0 and o.threads .. " thread(s)" or
      "threads: the processors", info.digest))

local HIER, ASTAR, JPS = { algorithm = "hierarchical" }, { algorithm = "astar" },
                         { algorithm = "jps" }
local th, ta, tj, sum, worst, long = 0, 0, 0, 0, 0, 0
local expa, exph = 0, 0
for _, q in ipairs(queries) do
  local best = math.huge
  local p
  for _ = 1, 3 do
    local t = B.now()
    p = assert(grid:find(q[1], q[2], q[3], q[4], HIER))
    best = math.min(best, B.now() - t)
  end
  th = th + best
  exph = exph + p:stats().expanded
  local t = B.now()
  local a = assert(grid:find(q[1], q[2], q[3], q[4], ASTAR))
  ta = ta + B.now() - t
  expa = expa + a:stats().expanded
  best = math.huge
  for _ = 1, 3 do
    t = B.now()
    assert(grid:find(q[1], q[2], q[3], q[4], JPS))
    best = math.min(best, B.now() - t)
  end
  tj = tj + best
  assert(grid:check(p))
  local excess = p:cost() / a:cost() - 1
  sum = sum + excess
  worst = math.max(worst, excess)
  if #a > 1000 then long = long + 1 end
end
local n = #queries
print(("%d queries (%d with paths of more than 1000 cells), mean us per query:"):format(n, long))
print(("  hierarchical %.0f (%.0f abstract nodes expanded), A* %.0f (%.0f cells expanded), " ..
       "JPS %.0f"):format(th / n * 1e6, exph / n, ta / n * 1e6, expa / n, tj / n * 1e6))
print(("  A* / hierarchical %.1fx, JPS / hierarchical %.2fx; cost above A*'s: mean %.2f%%, " ..
       "worst %.2f%%"):format(ta / th, tj / th, 100 * sum / n, 100 * worst))

-- One edit, then the local rebuild the next query makes.
local mid = math.floor(side / 2) + 1
grid:set(mid, mid, not grid:walkable(mid, mid) and 1 or false)
t0 = B.now()
local after = grid:hierarchy { cluster = o.cluster }
print(("one cell edited: %d cluster(s) rebuilt in %.3f ms"):format(after.rebuilt,
      (B.now() - t0) * 1e3))
print(("%s, %s"):format(jit and jit.version or _VERSION, os.date("!%Y-%m-%d")))
