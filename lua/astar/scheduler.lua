--- Spreading path requests over frames: a budget of node expansions per
-- frame, shared fairly by the live requests, and coroutine helpers.
-- @module astar.scheduler
local M = {}

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

local function check_budget(fname, n, argn)
  if type(n) ~= "number" or n ~= n or n < 1 or n % 1 ~= 0 or n == math.huge then
    error(("bad argument #%d to '%s' (budget must be an integer >= 1, got %s)")
      :format(argn, fname, show(n)), 0)
  end
end

--- A new scheduler.
-- @tparam table opts `{budget = n}`: the most node expansions one `update` spends (>= 1)
-- @treturn Scheduler
function M.new(opts)
  if type(opts) ~= "table" then
    error(("bad argument #1 to 'scheduler' (table expected, got %s)"):format(type(opts)), 0)
  end
  check_budget("scheduler", opts.budget, 1)
  return setmetatable({ budget = opts.budget, live = {}, cursor = 1 }, Scheduler)
end

--- Queues a path request: `map:query(...)` is started, and stepped by `update`.
-- `callback(path, message, code)` is called with what `find` would return
-- when the request ends (never for a cancelled request).
-- Also `s:request(query, callback)` for a query you made yourself.
-- @param map a grid (or any map with a `query` method), or a Query
-- @param ... the arguments of `map:query`, then the callback (a function)
-- @treturn Request
function Scheduler:request(map, ...)
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
    local unpack = table.unpack or unpack
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
function Request:cancel()
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
-- @treturn int the number of requests that ended
function Scheduler:update()
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
      table.remove(live, self.cursor)
      req.done = true
      ended = ended + 1
      req.callback(req.query:result())
    end
  end
  return ended
end

--- The number of live requests.
function Scheduler:pending()
  return #self.live
end

--- From inside a coroutine: queues the request and yields until an `update`
-- has finished it (the coroutine's owner keeps resuming it, e.g. once a
-- frame), then returns what `find` would.
-- @param map
-- @param ... the arguments of `map:query`
-- @return a Path, or nil, message, code
function Scheduler:await(map, ...)
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
  self:request(map, (table.unpack or unpack)(args, 1, n + 1))
  while not result do coroutine.yield() end
  return (table.unpack or unpack)(result, 1, result.n)
end

--- Steps a query to its end from inside a coroutine, yielding after every
-- `budget` expansions; returns what `find` would.
-- @tparam Query q
-- @int[opt=1000] budget
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
