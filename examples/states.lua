-- states.lua - Directional A* (Marco Pinter, Gamasutra, March 2001) as an implicit graph: a
-- node is a state (x, y, facing), not just a cell.
--
-- A vehicle on a tile map faces one of 8 compass directions and cannot turn on the spot: each
-- move goes one cell ahead, straight or veering 45 degrees left or right, and a veer costs extra.
-- Searching over (x, y, facing) instead of (x, y) makes every path drivable, and lets the goal
-- ask for a heading ("park facing north").
--
--   lua5.4 examples/states.lua      (with astar on LUA_PATH / LUA_CPATH, as `make demo` sets them)

local astar = require "astar"

local MAP = {
  "##############",
  "#S...........#",
  "#............#",
  "#.....#G#....#",
  "#.....#.#....#",
  "#............#",
  "#............#",
  "##############",
}
local TURN = 0.5                                 -- extra cost of a 45-degree veer

-- Directions clockwise from north; y grows downwards.
local NAMES = { "N", "NE", "E", "SE", "S", "SW", "W", "NW" }
local ARROW = { "^", "/", ">", "\\", "v", "/", "<", "\\" }
local DX = { 0, 1, 1, 1, 0, -1, -1, -1 }
local DY = { -1, -1, 0, 1, 1, 1, 0, -1 }
local SQRT2 = math.sqrt(2)

local function free(x, y)
  local row = MAP[y]
  return row ~= nil and x >= 1 and x <= #row and row:sub(x, x) ~= "#"
end

local function find(ch)
  for y, row in ipairs(MAP) do
    local x = row:find(ch, 1, true)
    if x then return x, y end
  end
end

-- neighbors(state, emit): straight on, or veer 45 degrees left or right, one cell ahead.
local function neighbors(s, emit)
  for turn = -1, 1 do
    local d = (s.d - 1 + turn) % 8 + 1
    local x, y = s.x + DX[d], s.y + DY[d]
    local diagonal = DX[d] ~= 0 and DY[d] ~= 0
    -- diagonal moves may not cut a wall's corner
    if free(x, y) and (not diagonal or (free(s.x + DX[d], s.y) and free(s.x, s.y + DY[d]))) then
      emit({ x = x, y = y, d = d }, (diagonal and SQRT2 or 1) + (turn ~= 0 and TURN or 0))
    end
  end
end

-- Octile distance between the cells: no move is cheaper than that, so it is admissible.
local function heuristic(s, goal)
  local dx, dy = math.abs(s.x - goal.x), math.abs(s.y - goal.y)
  return math.max(dx, dy) + (SQRT2 - 1) * math.min(dx, dy)
end

-- Every new table is a new Lua value: the key makes equal states the same node.
local function key(s) return (s.y * 64 + s.x) * 8 + s.d end

local function show(title, path, msg)
  print(title)
  if not path then print("  " .. msg) return end
  local marks = {}
  local steps = {}
  for i, s in path:points() do
    marks[s.y * 64 + s.x] = ARROW[s.d]
    steps[i] = ("(%d,%d)%s"):format(s.x, s.y, NAMES[s.d])
  end
  print(("  %d moves, cost %.2f, %d states expanded"):format(#path - 1, path:cost(),
    path:stats().expanded))
  print("  " .. table.concat(steps, " "))
  for y, row in ipairs(MAP) do
    print("  " .. row:gsub("()[^#]", function(x) return marks[y * 64 + x] or "." end))
  end
end

local sx, sy = find("S")
local gx, gy = find("G")
local start = { x = sx, y = sy, d = 3 }          -- facing east

-- Park in the bay at G facing north: the vehicle must drive around and come in from below.
show("to G facing N:", astar.search {
  start = start,
  goal = { x = gx, y = gy, d = 1 },
  neighbors = neighbors,
  heuristic = heuristic,
  key = key,
})

-- Any heading will do: is_goal decides, and the goal cell still guides the heuristic.
show("to G, any heading:", astar.search {
  start = start,
  goal = { x = gx, y = gy, d = 1 },
  is_goal = function(s) return s.x == gx and s.y == gy end,
  neighbors = neighbors,
  heuristic = heuristic,
  key = key,
})
