--- Walking a route at a steady speed, frame by frame: the position of a unit that follows a
-- path.
--
-- `astar.follow(route, speed)` is @{new}. The route is a @{Path} (grid paths are followed
-- through their cells' numbers, navmesh and smoothed paths through their points, as given),
-- a flat list `{x1, y1, x2, y2, ...}` (world points, say) or a @{Curve} (its `sample`).
-- Each frame, @{Walker:update|update(dt)} moves the walker `speed * dt` further along the
-- route, around corners without losing distance, and stops exactly on the last point.
-- Positions are measured along the route: distance `s` is the point reached after walking
-- `s` from the start.
-- @module astar.follow
local show = require("astar.scheduler").show

local M = {}

local Walker = {}
Walker.__index = Walker

local atan2 = math.atan2 or math.atan
local sqrt, floor = math.sqrt, math.floor

local function finite(v) return type(v) == "number" and v == v and v > -math.huge and v < math.huge end

local function check_self(self, fname)
  if getmetatable(self) ~= Walker then
    error(("calling '%s' on bad self (astar.Walker expected, got %s)"):format(fname, type(self)), 0)
  end
end

local function check_speed(fname, argn, v)
  if not finite(v) or v <= 0 then
    error(("bad argument #%d to '%s' (speed must be a positive finite number, got %s)")
      :format(argn, fname, show(v)), 0)
  end
end

-- A copy of the flat list `t` of x, y pairs, every coordinate a finite number.
local function copy_points(t)
  local n = #t
  if n % 2 ~= 0 then
    error(("bad argument #1 to 'follow' (x, y pairs expected: the list has %d numbers)"):format(n), 0)
  end
  if n == 0 then error("bad argument #1 to 'follow' (a route needs at least one point)", 0) end
  local pts = {}
  for i = 1, n do
    if not finite(t[i]) then
      error(("bad argument #1 to 'follow' (point %d: %s must be a finite number, got %s)")
        :format(floor((i + 1) / 2), i % 2 == 1 and "x" or "y", show(t[i])), 0)
    end
    pts[i] = t[i]
  end
  return pts
end

-- The points of a Path, as one flat list (a graph path without positions has none).
local function path_points(path)
  local ok, flat = pcall(path.flat, path)
  if not ok then
    error("bad argument #1 to 'follow' (a Path of positions expected: " .. tostring(flat) .. ")", 0)
  end
  return copy_points(flat)
end

-- Walker fields: pts (flat x, y list) and cum (cum[i]: distance from the start to point i),
-- head (head[i]: heading of segment i), or curve (a Curve) and cum over its segments;
-- n (points, or segments of a curve), len, s (distance travelled), speed.
local function polyline(w, pts)
  local n, cum, head = floor(#pts / 2), { 0 }, {}
  for i = 1, n - 1 do
    local dx, dy = pts[2 * i + 1] - pts[2 * i - 1], pts[2 * i + 2] - pts[2 * i]
    local d = sqrt(dx * dx + dy * dy)
    cum[i + 1] = cum[i] + d
    if cum[i + 1] == math.huge then               -- finite points, an infinite length
      error(("bad argument #1 to 'follow' (the route is too long: its length passes the "
        .. "largest number at point %d)"):format(i + 1), 0)
    end
    head[i] = d > 0 and atan2(dy, dx) or nil
  end
  -- a segment of length 0 faces as the one before it (at the start: the one after)
  local h = 0
  for i = n - 1, 1, -1 do h = head[i] or h end
  for i = 1, n - 1 do head[i] = head[i] or h; h = head[i] end
  w.pts, w.cum, w.head, w.n, w.len = pts, cum, head, n, cum[n] or 0
end

local function curve(w, c)
  local cum = { 0 }
  for i, seg in ipairs(c:segments()) do cum[i + 1] = cum[i] + seg[2] end
  w.curve, w.cum, w.n, w.len = c, cum, #cum, c:length()
end

local function route_kind(route)
  local t = type(route)
  if t == "table" and getmetatable(route) == nil then return "points" end
  if t == "table" or t == "userdata" then
    -- a Curve, or a Path of poses (directional): both drive along curves; other Paths have
    -- no length of their own (their length() raises)
    if type(route.sample) == "function" and type(route.length) == "function" and
      pcall(route.length, route) then return "curve" end
    if type(route.flat) == "function" then return "path" end
  end
  error(("bad argument #1 to 'follow' (Path, Curve or flat list of points expected, got %s)")
    :format(t), 0)
end

local OPTIONS = { start = true }

local function check_opts(opts)
  if opts == nil then return {} end
  if type(opts) ~= "table" then
    error(("bad argument #3 to 'follow' (table expected, got %s)"):format(type(opts)), 0)
  end
  for k in pairs(opts) do
    if not OPTIONS[k] then
      error(("bad argument #3 to 'follow' (unknown option '%s')"):format(tostring(k)), 0)
    end
  end
  if opts.start ~= nil and (not finite(opts.start) or opts.start < 0) then
    error(("bad argument #3 to 'follow' (option 'start': must be a non-negative finite "
      .. "number, got %s)"):format(show(opts.start)), 0)
  end
  return opts
end

--- A walker at the start of `route` (`astar.follow`).
-- @param route a @{Path} of positions (grid, smoothed, Theta\*, navmesh, or a graph path
-- with positions), a flat list `{x1, y1, x2, y2, ...}` (copied), or a @{Curve}
-- @number speed distance a second, a positive finite number
-- @tparam[opt] table opts the options:
-- @number[opt=0] opts.start the distance already walked (beyond the length: arrived)
-- @treturn Walker
-- @usage
-- local w = astar.follow({ 0, 0, 3, 0, 3, 4 }, 2)     -- 2 units a second, 7 units long
-- print(w:update(1))                                   --> 2 0
-- print(w:update(1))                                   --> 3 1
-- print(w:index(), w:remaining())                      --> 2 3
-- print(w:update(10))                                  --> 3 4
-- print(w:arrived(), w:travelled())                    --> true 7
function M.new(route, speed, opts)
  local kind = route_kind(route)
  check_speed("follow", 2, speed)
  opts = check_opts(opts)
  local w = setmetatable({ speed = speed }, Walker)
  if kind == "curve" then curve(w, route)
  elseif kind == "path" then polyline(w, path_points(route))
  else polyline(w, copy_points(route)) end
  w.s = math.min(opts.start or 0, w.len)
  return w
end

-- The segment at distance s: the first whose end lies beyond s (so segments of length 0 and
-- reached waypoints are behind), or the last one at the end.
local function segment(w, s)
  local cum, lo, hi = w.cum, 1, math.max(1, w.n - 1)
  if s >= w.len then return hi end
  while lo < hi do
    local mid = floor((lo + hi) / 2)
    if cum[mid + 1] > s then hi = mid else lo = mid + 1 end
  end
  return lo
end

-- x, y, heading at distance s, 0 <= s <= len.
local function pose(w, s)
  if w.curve then return w.curve:sample(s) end
  local pts, i = w.pts, segment(w, s)
  if w.n == 1 then return pts[1], pts[2], 0 end
  if s >= w.len then return pts[2 * w.n - 1], pts[2 * w.n], w.head[i] end
  local t = (s - w.cum[i]) / (w.cum[i + 1] - w.cum[i])
  local x0, y0 = pts[2 * i - 1], pts[2 * i]
  return x0 + (pts[2 * i + 1] - x0) * t, y0 + (pts[2 * i + 2] - y0) * t, w.head[i]
end

--- Moves the walker `speed * dt` further along the route (never beyond its end) and returns
-- where it is now.
-- @within Walker
-- @number dt the time since the last update, in seconds: a finite number `>= 0`
-- @treturn number x
-- @treturn number y
function Walker:update(dt)
  check_self(self, "update")
  if type(dt) ~= "number" then
    error(("bad argument #1 to 'update' (number expected, got %s)"):format(type(dt)), 0)
  end
  if not finite(dt) or dt < 0 then
    error(("bad argument #1 to 'update' (dt must be a non-negative finite number, got %s)")
      :format(show(dt)), 0)
  end
  self.s = math.min(self.len, self.s + self.speed * dt)
  local x, y = pose(self, self.s)
  return x, y
end

--- Where the walker is.
-- @within Walker
-- @treturn number x
-- @treturn number y
function Walker:position()
  check_self(self, "position")
  local x, y = pose(self, self.s)
  return x, y
end

--- The direction the walker faces, in radians, counter-clockwise from +x (`atan2(dy, dx)`;
-- on a y-down screen that looks clockwise): its segment's, or the curve's heading (where the
-- unit faces, also while a Reeds-Shepp curve backs it up). At the end, the last segment's; 0
-- for a route that never moves.
-- @within Walker
-- @treturn number
function Walker:heading()
  check_self(self, "heading")
  local _, _, h = pose(self, self.s)
  return h
end

--- Whether the walker is at the end of the route (at once for a route of one point, or whose
-- points are all the same).
-- @within Walker
-- @treturn boolean
function Walker:arrived()
  check_self(self, "arrived")
  return self.s >= self.len
end

--- The distance walked from the start.
-- @within Walker
-- @treturn number
function Walker:travelled()
  check_self(self, "travelled")
  return self.s
end

--- The route's length.
-- @within Walker
-- @treturn number
function Walker:length()
  check_self(self, "length")
  return self.len
end

--- The distance left to walk: `length() - travelled()`, 0 once arrived.
-- @within Walker
-- @treturn number
function Walker:remaining()
  check_self(self, "remaining")
  return self.len - self.s
end

--- The point at distance `s` along the route (clamped to `[0, length()]`); the walker does
-- not move.
-- @within Walker
-- @number s a distance from the start
-- @treturn number x
-- @treturn number y
function Walker:at(s)
  check_self(self, "at")
  if type(s) ~= "number" then
    error(("bad argument #1 to 'at' (number expected, got %s)"):format(type(s)), 0)
  end
  if s ~= s then error("bad argument #1 to 'at' (distance must be a number, got nan)", 0) end
  local x, y = pose(self, math.max(0, math.min(self.len, s)))
  return x, y
end

--- Changes the speed from the next @{Walker:update|update} on.
-- @within Walker
-- @number speed distance a second, a positive finite number
function Walker:set_speed(speed)
  check_self(self, "set_speed")
  check_speed("set_speed", 1, speed)
  self.speed = speed
end

--- The segment the walker is on: `i` while it goes from point `i` to point `i + 1` (so
-- `path:link(w:index())` says whether it is on a link). It becomes `i + 1` the moment point
-- `i + 1` is reached; segments of length 0 are passed at once. At the end, the last segment
-- (`#points - 1`; 1 for a single point). On a @{Curve}, which of its segments (three to five).
-- @within Walker
-- @treturn integer
function Walker:index()
  check_self(self, "index")
  return segment(self, self.s)
end

Walker.__tostring = function(self)
  return ("astar.Walker (%s of %s)"):format(show(self.s), show(self.len))
end

return M
