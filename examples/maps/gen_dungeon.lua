-- gen_dungeon.lua - the generator of examples/maps/dungeon.txt.
--
--   lua5.4 examples/maps/gen_dungeon.lua [seed [width height]] > examples/maps/dungeon.txt
--
-- Rooms joined by corridors (plus a few extra corridors, so there are loops), with pools of
-- water `~` and patches of rubble `,`; walls `#`, floor `.`, one start `S` and one goal `G`,
-- as far apart as the corridors allow. Deterministic: its own PRNG, no math.random, and only
-- arithmetic that is exact in doubles, so Lua 5.4 and LuaJIT print the same map for a seed.

local seed = tonumber(arg and arg[1]) or 42
local W = tonumber(arg and arg[2]) or 64
local H = tonumber(arg and arg[3]) or 32

-- Park-Miller "minimal standard" LCG: state * 16807 < 2^46, exact as a double or an integer.
local state = seed % 2147483646 + 1
local function rand(lo, hi) -- an integer in [lo, hi]
  state = state * 16807 % 2147483647
  return lo + state % (hi - lo + 1)
end

local map = {}
for y = 1, H do
  map[y] = {}
  for x = 1, W do map[y][x] = "#" end
end

-- Rooms: random rectangles that keep a wall of at least one cell between them.
local rooms = {}
local function fits(r)
  for _, o in ipairs(rooms) do
    if r.x <= o.x + o.w + 1 and o.x <= r.x + r.w + 1
       and r.y <= o.y + o.h + 1 and o.y <= r.y + r.h + 1 then
      return false
    end
  end
  return true
end
for _ = 1, 400 do
  local w, h = rand(5, 12), rand(4, 7)
  local r = { x = rand(2, W - w), y = rand(2, H - h), w = w, h = h }
  if fits(r) then
    rooms[#rooms + 1] = r
    for y = r.y, r.y + h - 1 do
      for x = r.x, r.x + w - 1 do map[y][x] = "." end
    end
  end
  if #rooms == 12 then break end
end
for _, r in ipairs(rooms) do
  r.cx, r.cy = r.x + math.floor(r.w / 2), r.y + math.floor(r.h / 2)
end

-- Corridors: an L from centre to centre, horizontal or vertical leg first.
local function corridor(a, b)
  local x, y = a.cx, a.cy
  local hfirst = rand(0, 1) == 0
  local function dig() if map[y][x] == "#" then map[y][x] = "." end end
  local function walkx() while x ~= b.cx do x = x + (b.cx > x and 1 or -1); dig() end end
  local function walky() while y ~= b.cy do y = y + (b.cy > y and 1 or -1); dig() end end
  if hfirst then walkx(); walky() else walky(); walkx() end
end

-- A spanning tree (Prim's, nearest unconnected room) keeps every room reachable...
local function dist(a, b) return math.abs(a.cx - b.cx) + math.abs(a.cy - b.cy) end
local linked = { [1] = true }
for _ = 2, #rooms do
  local best, bi, bj = math.huge, nil, nil
  for i = 1, #rooms do
    if linked[i] then
      for j = 1, #rooms do
        if not linked[j] and dist(rooms[i], rooms[j]) < best then
          best, bi, bj = dist(rooms[i], rooms[j]), i, j
        end
      end
    end
  end
  corridor(rooms[bi], rooms[bj])
  linked[bj] = true
end
-- ...and a few extra corridors make loops, so the search has real choices.
for _ = 1, 3 do
  local i, j = rand(1, #rooms), rand(1, #rooms)
  if i ~= j then corridor(rooms[i], rooms[j]) end
end

-- Terrain: blobs grown by a random walk that only ever turns floor into `ch`.
local function blob(ch, steps)
  local r = rooms[rand(1, #rooms)]
  local x, y = rand(r.x, r.x + r.w - 1), rand(r.y, r.y + r.h - 1)
  for _ = 1, steps do
    if map[y][x] == "." then map[y][x] = ch end
    local d = rand(1, 4)
    local nx = x + (d == 1 and 1 or d == 2 and -1 or 0)
    local ny = y + (d == 3 and 1 or d == 4 and -1 or 0)
    if map[ny][nx] ~= "#" then x, y = nx, ny end
  end
end
for _ = 1, 4 do blob("~", 40) end
for _ = 1, 6 do blob(",", 25) end

-- Start and goal: the two ends of a longest shortest route. Breadth-first from a room to the
-- plain floor cell farthest from it gives S; farthest from S gives G, so they are connected.
local function farthest(sx, sy)
  local seen, queue, head = { [sy * W + sx] = 0 }, { { sx, sy } }, 1
  local fx, fy, far = sx, sy, 0
  while queue[head] do
    local x, y = queue[head][1], queue[head][2]
    head = head + 1
    local d = seen[y * W + x]
    if d > far and map[y][x] == "." then fx, fy, far = x, y, d end
    for _, s in ipairs({ { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } }) do
      local nx, ny = x + s[1], y + s[2]
      if map[ny][nx] ~= "#" and not seen[ny * W + nx] then
        seen[ny * W + nx] = d + 1
        queue[#queue + 1] = { nx, ny }
      end
    end
  end
  return fx, fy
end
local sx, sy = farthest(rooms[1].cx, rooms[1].cy)
local gx, gy = farthest(sx, sy)
map[sy][sx], map[gy][gx] = "S", "G"

for y = 1, H do io.write(table.concat(map[y]), "\n") end
