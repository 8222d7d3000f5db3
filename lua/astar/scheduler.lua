--- Spreading path requests over frames: a budget of node expansions per frame, shared
-- fairly by the live requests, and coroutine helpers.
--
-- `astar.scheduler{budget = n}` is @{new} and `astar.await` is @{await}. A scheduler starts
-- each request as a @{Query} and steps the live ones round robin, from where the last
-- update stopped, giving each an equal share of what is left of the budget, so that no
-- request starves. With 100 live requests its own cost is about 0.3 microseconds per
-- request per update.
-- @module astar.scheduler
local M = {}
local unpack = table.unpack or unpack
local function pack(...) return { n = select("#", ...), ... } end

local Scheduler = {}
Scheduler.__index = Scheduler

local Request = {}
Request.__index = Request

-- numbers in messages the way the C side writes them, on every VM
local function show(v)
  if type(v) ~= "number" then return type(v) end
  if v ~= v then return "nan" end
  if v == math.huge then return "inf" end
  if v == -math.huge then return "-inf" end
  if v % 1 == 0 and math.abs(v) < 2 ^ 53 then return ("%d"):format(v) end
  return ("%.14g"):format(v)
end
M.show = show

-- Methods called with a wrong self (s.update() instead of s:update(), say) say so.
local function check_self(self, class, cname, fname)
  if getmetatable(self) ~= class then
    error(("calling '%s' on bad self (%s expected, got %s)"):format(fname, cname, type(self)), 0)
  end
end

local function check_budget(fname, n, argn)
  if type(n) ~= "number" or n ~= n or n < 1 or n % 1 ~= 0 or n == math.huge then
    error(("bad argument #%d to '%s' (budget must be an integer >= 1, got %s)")
      :format(argn, fname, show(n)), 0)
  end
end

--- A new scheduler (`astar.scheduler`).
-- @tparam table opts the options:
-- @int opts.budget the most node expansions one @{Scheduler:update|update} spends, an
-- integer of at least 1 (required)
-- @treturn Scheduler
-- @usage
-- local scheduler = astar.scheduler { budget = 2000 }   -- expansions per update
-- local grid = astar.grid(50, 50)
-- scheduler:request(grid, 1, 1, 50, 50, function(path, message, code)
--   print("arrived", #path)                                   --> arrived 50
-- end)
-- while scheduler:pending() > 0 do scheduler:update() end    -- once a frame, in a game
function M.new(opts)
  if type(opts) ~= "table" then
    error(("bad argument #1 to 'scheduler' (table expected, got %s)"):format(type(opts)), 0)
  end
  check_budget("scheduler", opts.budget, 1)
  return setmetatable({ budget = opts.budget, live = {}, cursor = 1 }, Scheduler)
end

--- Queues a path request: `map:query(...)` is started, and stepped by
-- @{Scheduler:update|update}. `callback(path, message, code)` is called with what `find`
-- would return when the request ends (never for a cancelled request). Also
-- `s:request(query, callback)` for a query you made yourself.
-- @within Scheduler
-- @param map a grid, graph or mesh (any map with a `query` method), or a Query
-- @param ... the arguments of `map:query`, then the callback (a function)
-- @treturn Request a handle, to @{Request:cancel|cancel} it
function Scheduler:request(map, ...)
  check_self(self, Scheduler, "astar.Scheduler", "request")
  local n = select("#", ...)
  if map == nil and n == 0 then
    error("bad argument #1 to 'request' (map or query expected, got no value)", 0)
  end
  local callback = n > 0 and select(n, ...) or nil
  if type(callback) ~= "function" then
    error(("bad argument #%d to 'request' (function expected, got %s)")
      :format(n + 1, type(callback)), 0)
  end
  local q
  if n == 1 then
    q = map
    if type(q) ~= "userdata" or type(q.step) ~= "function" then
      error(("bad argument #1 to 'request' (map or query expected, got %s)"):format(type(q)), 0)
    end
  else
    local args = { ... }
    args[n] = nil
    if type(map) ~= "userdata" or type(map.query) ~= "function" then
      error(("bad argument #1 to 'request' (map or query expected, got %s)"):format(type(map)), 0)
    end
    local ok, res = pcall(map.query, map, unpack(args, 1, n - 1))
    if not ok then
      -- the query's arguments are request's from #2 on (the map is #1)
      if type(res) == "string" then
        res = res:gsub("^bad argument #(%d+) to 'query'", function(k)
          return ("bad argument #%d to 'request'"):format(tonumber(k) + 1)
        end)
      end
      error(res, 0)
    end
    q = res
  end
  local req = setmetatable({ query = q, callback = callback, scheduler = self }, Request)
  self.live[#self.live + 1] = req
  return req
end

--- Stops a request; its callback is not called. Idempotent.
-- @within Request
function Request:cancel()
  check_self(self, Request, "astar.Request", "cancel")
  if self.done then return end
  self.done = true
  self.query:cancel()
  local live = self.scheduler.live
  for i = 1, #live do
    if live[i] == self then
      table.remove(live, i)
      if self.scheduler.cursor > i then self.scheduler.cursor = self.scheduler.cursor - 1 end
      break
    end
  end
end

--- Spends at most `budget` expansions over the live requests, round robin
-- from where the last update stopped, so that no request starves; calls the
-- callbacks of the requests that ended. An error raised by a map callback
-- propagates; its request stays queued and restarts on the next update.
-- @within Scheduler
-- @treturn int the number of requests that ended
function Scheduler:update()
  check_self(self, Scheduler, "astar.Scheduler", "update")
  local live = self.live
  local left, ended = self.budget, 0
  local todo = #live                      -- requests not yet visited this update
  while left > 0 and todo > 0 and #live > 0 do
    -- an equal share of what is left among those still to visit: what a
    -- request does not use (it finished) goes to the ones after it
    local share = math.max(1, math.floor(left / todo))
    if self.cursor > #live then self.cursor = 1 end
    local req = live[self.cursor]
    local status, spent = req.query:step(math.min(share, left))
    left = left - spent
    todo = todo - 1
    if status == "running" then
      self.cursor = self.cursor + 1
    else
      -- the result first: if making it fails (out of memory), the request stays queued
      local res = pack(req.query:result())
      table.remove(live, self.cursor)
      req.done = true
      ended = ended + 1
      req.callback(unpack(res, 1, res.n))
    end
  end
  return ended
end

--- The number of live requests.
-- @within Scheduler
-- @treturn int
function Scheduler:pending()
  check_self(self, Scheduler, "astar.Scheduler", "pending")
  return #self.live
end

--- From inside a coroutine: queues the request and yields until an
-- @{Scheduler:update|update} has finished it (the coroutine's owner keeps resuming it, once
-- a frame for instance), then returns what `find` would.
-- @within Scheduler
-- @param map a grid, graph or mesh
-- @param ... the arguments of `map:query`
-- @return a Path, or `nil, message, code`
-- @usage
-- local scheduler = astar.scheduler { budget = 100 }
-- local grid = astar.grid(30, 30)
-- local unit = coroutine.wrap(function()
--   local path = assert(scheduler:await(grid, 1, 1, 30, 30))
--   print("walking", #path)                        --> walking 30
-- end)
-- unit()                                           -- runs until the request is queued
-- while scheduler:pending() > 0 do scheduler:update(); unit() end
function Scheduler:await(map, ...)
  check_self(self, Scheduler, "astar.Scheduler", "await")
  local co, main = coroutine.running()
  if co == nil or main then
    error("calling 'await' outside a coroutine", 0)
  end
  local result
  local args = { ... }
  local n = select("#", ...)
  -- the callback only records the result: the coroutine's owner resumes it
  -- (resuming it from inside update would run, and lose the errors of, the
  -- rest of the coroutine there)
  args[n + 1] = function(...)
    result = { n = select("#", ...), ... }
  end
  self:request(map, unpack(args, 1, n + 1))
  while not result do coroutine.yield() end
  return unpack(result, 1, result.n)
end

--- Steps a query to its end from inside a coroutine, yielding after every `budget`
-- expansions; returns what `find` would (`astar.await`).
-- @tparam Query q
-- @int[opt=1000] budget expansions between yields, an integer of at least 1
-- @return a Path, or `nil, message, code`
-- @usage
-- local grid = astar.grid(40, 40)
-- local co = coroutine.wrap(function()
--   local path = assert(astar.await(grid:query(1, 1, 40, 40), 10))
--   print(#path)                                  --> 40
--   return "done"
-- end)
-- repeat until co() == "done"                      -- resume once a frame
function M.await(q, budget)
  if getmetatable(q) == nil or type(q.step) ~= "function" then
    error(("bad argument #1 to 'await' (astar.Query expected, got %s)"):format(type(q)), 0)
  end
  budget = budget or 1000
  check_budget("await", budget, 2)
  if coroutine.running() == nil or select(2, coroutine.running()) then
    error("calling 'await' outside a coroutine", 0)
  end
  while q:step(budget) == "running" do coroutine.yield() end
  return q:result()
end

return M
