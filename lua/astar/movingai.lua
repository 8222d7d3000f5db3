--- Readers for the Moving AI benchmark formats (`.map` and `.scen`), from
-- movingai.com/benchmarks: maps from games with published optimal path lengths.
-- File coordinates are 0-based; everything returned here is 1-based.
--
-- `require "astar"` exposes them as `astar.grid.parse_movingai` (@{parse_map}),
-- `astar.grid.load_movingai` (@{load_map}), `astar.parse_scenarios` and
-- `astar.load_scenarios`.
-- @module astar.movingai
local core = require "astar.core"

local M = {}

-- Walkable terrain ('.', 'G', 'S') and everything a unit may not enter.
local LEGEND = {
  ["."] = 1, G = 1, S = 1,
  ["@"] = false, O = false, T = false, W = false,
}

-- No grid has a side longer than its most cells (ASTAR_GRID_MAX_CELLS, src/core/astar.h).
local MAX_SIDE = 2 ^ 28

local function lines_of(text)
  local lines = {}
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    lines[#lines + 1] = (line:gsub("\r$", ""))
  end
  if lines[#lines] == "" then lines[#lines] = nil end
  return lines
end

local function malformed(fname, fmt, ...)
  error(("bad argument #1 to '%s' (malformed map: " .. fmt .. ")"):format(fname, ...), 0)
end

local function parse_map(text, fname)
  if type(text) ~= "string" then
    error(("bad argument #1 to '%s' (string expected, got %s)"):format(fname, type(text)), 0)
  end
  local lines = lines_of(text)
  local header = {}
  local i = 1
  while lines[i] and lines[i] ~= "map" do
    local key, value = lines[i]:match("^(%a+)%s+(%S+)%s*$")
    if not key then malformed(fname, "line %d: expected 'key value' or 'map'", i) end
    header[key] = value
    i = i + 1
  end
  if not lines[i] then malformed(fname, "no 'map' line") end
  if header.type ~= "octile" then
    malformed(fname, "type must be 'octile', got '%s'", tostring(header.type))
  end
  -- a side beyond a grid's 2^28 cells is bad, not a count to name: "%d" refuses 1e20
  local w, h = tonumber(header.width), tonumber(header.height)
  if not w or w < 1 or w % 1 ~= 0 or w > MAX_SIDE then
    malformed(fname, "bad width '%s'", tostring(header.width))
  end
  if not h or h < 1 or h % 1 ~= 0 or h > MAX_SIDE then
    malformed(fname, "bad height '%s'", tostring(header.height))
  end
  local body = {}
  for y = 1, h do
    local row = lines[i + y]
    if not row then malformed(fname, "%d rows, expected %d", y - 1, h) end
    if #row ~= w then malformed(fname, "row %d has %d cells, expected %d", y, #row, w) end
    local bad = row:find("[^%.GS@OTW]")
    if bad then
      malformed(fname, "unknown terrain '%s' at row %d, column %d", row:sub(bad, bad), y, bad)
    end
    body[y] = row
  end
  if lines[i + h + 1] then malformed(fname, "more than %d rows", h) end
  return core.grid_parse(table.concat(body, "\n"), LEGEND)
end

local function read_file(path, fname)
  if type(path) ~= "string" then
    error(("bad argument #1 to '%s' (string expected, got %s)"):format(fname, type(path)), 0)
  end
  local f, err = io.open(path, "rb")
  if not f then return nil, err end
  local text, rerr = f:read("*a")           -- nil for a directory: opened, but not readable
  if text == nil then
    f:close()
    return nil, ("%s: %s"):format(path, rerr or "cannot be read")
  end
  f:close()
  return text
end

--- A grid from the text of a Moving AI `.map` file (`astar.grid.parse_movingai`).
-- `.`, `G`, `S` are walkable (cost 1); `@`, `O`, `T`, `W` are blocked. Raises on a
-- malformed map, naming the problem: `bad argument #1 to 'parse_movingai' (malformed map:
-- row 1 has 3 cells, expected 4)`.
-- @string text
-- @treturn Grid
-- @usage
-- local grid = astar.grid.parse_movingai("type octile\nheight 2\nwidth 3\nmap\n..@\n.T.\n")
-- print(grid:size())                       --> 3 2
-- print(grid:walkable(3, 1), grid:get(1, 2))   --> false 1
function M.parse_map(text)
  return parse_map(text, "parse_movingai")
end

--- A grid from a Moving AI `.map` file (`astar.grid.load_movingai`).
-- @string path
-- @usage
-- local name = os.tmpname()
-- local f = assert(io.open(name, "w"))
-- f:write("type octile\nheight 1\nwidth 4\nmap\n....\n")
-- f:close()
-- local grid = assert(astar.grid.load_movingai(name))
-- os.remove(name)
-- print(grid:size())                                --> 4 1
-- print(astar.grid.load_movingai(name) == nil)      --> true
-- @treturn[1] Grid
-- @treturn[2] nil
-- @treturn[2] string message, if the file cannot be read
-- @treturn[2] string `"io"`
function M.load_map(path)
  local text, err = read_file(path, "load_movingai")
  if not text then return nil, err, "io" end
  return parse_map(text, "load_movingai")
end

-- A decimal number and nothing else: tonumber also reads "nan", "inf" and hex on some VMs.
local function decimal(s)
  if s == nil then return nil end
  if not (s:match("^[-+]?%d+%.?%d*$") or s:match("^[-+]?%.%d+$") or
      s:match("^[-+]?%d+%.?%d*[eE][-+]?%d+$") or s:match("^[-+]?%.%d+[eE][-+]?%d+$")) then
    return nil
  end
  local v = tonumber(s)
  if v == nil or v ~= v or v == math.huge or v == -math.huge then return nil end
  return v
end

local function parse_scen(text, fname)
  if type(text) ~= "string" then
    error(("bad argument #1 to '%s' (string expected, got %s)"):format(fname, type(text)), 0)
  end
  local list = {}
  for n, line in ipairs(lines_of(text)) do
    if n == 1 then
      if not line:match("^version%s+[%d%.]+%s*$") then
        error(("bad argument #1 to '%s' (malformed scenarios: line 1: expected 'version N')")
          :format(fname), 0)
      end
    elseif line:find("%S") then
      local f = {}
      for field in line:gmatch("%S+") do f[#f + 1] = field end
      local nums = {}
      for k, j in ipairs({ 1, 3, 4, 5, 6, 7, 8, 9 }) do nums[k] = decimal(f[j]) end
      if #f ~= 9 or not (nums[1] and nums[2] and nums[3] and nums[4] and nums[5]
          and nums[6] and nums[7] and nums[8]) then
        error(("bad argument #1 to '%s' (malformed scenarios: line %d: expected 9 fields)")
          :format(fname, n), 0)
      end
      local w, h = nums[2], nums[3]
      local function bad(v, hi) return v < 0 or v >= hi or v % 1 ~= 0 end
      if w < 1 or h < 1 or w % 1 ~= 0 or h % 1 ~= 0 or bad(nums[4], w) or bad(nums[5], h)
          or bad(nums[6], w) or bad(nums[7], h) or nums[8] < 0 then
        error(("bad argument #1 to '%s' (malformed scenarios: line %d: coordinates or "
          .. "length out of range)"):format(fname, n), 0)
      end
      list[#list + 1] = {
        bucket = nums[1], map = f[2], width = nums[2], height = nums[3],
        sx = nums[4] + 1, sy = nums[5] + 1, gx = nums[6] + 1, gy = nums[7] + 1,
        optimal = nums[8],
      }
    end
  end
  return list
end

--- The problems of a Moving AI `.scen` text, coordinates made 1-based
-- (`astar.parse_scenarios`).
-- @string text
-- @treturn table a list of `{bucket =, map =, width =, height =, sx =, sy =, gx =, gy =,
-- optimal =}`
-- @usage
-- local scen = astar.parse_scenarios("version 1\n0\tarena.map\t49\t49\t1\t11\t1\t12\t1\n")
-- print(#scen, scen[1].sx, scen[1].sy, scen[1].optimal)   --> 1 2 12 1
function M.parse_scenarios(text)
  return parse_scen(text, "parse_scenarios")
end

--- The problems of a Moving AI `.scen` file (`astar.load_scenarios`).
-- @string path
-- @treturn[1] table
-- @treturn[2] nil
-- @treturn[2] string message
-- @treturn[2] string `"io"`
function M.load_scenarios(path)
  local text, err = read_file(path, "load_scenarios")
  if not text then return nil, err, "io" end
  return parse_scen(text, "load_scenarios")
end

return M
