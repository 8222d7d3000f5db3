-- Out of memory in time-sliced queries and the scheduler (spec/c/oom_host.c). An open 30x30 grid:
-- from (1, 1) to (30, 20), 19 diagonals and 10 steps: 19 sqrt 2 + 10. An update that runs out of
-- memory leaves its request queued: the next updates finish it.
local astar = require "astar"
local BEST = 19 * math.sqrt(2) + 10
local function near(a, b) return math.abs(a - b) < 1e-9 end

return {
  -- the callback must not allocate itself: its slots exist before
  setup = function() return { g = astar.grid(30, 30), got = false, calls = 0 } end,
  body = function(s)
    s.sched = astar.scheduler { budget = 50 }
    s.req = s.sched:request(s.g, 1, 1, 30, 20, function(path)
      s.got, s.calls = path, s.calls + 1
    end)
    while s.sched:pending() > 0 do s.sched:update() end
  end,
  check = function(s)
    if s.req then                                -- queued: it ends, once
      for _ = 1, 1000 do if s.sched:pending() == 0 then break end s.sched:update() end
      assert(s.sched:pending() == 0 and s.calls == 1, ("the request did not end: %d pending, "
        .. "%d callbacks, %s"):format(s.sched:pending(), s.calls, tostring(s.req.query)))
    end
    if s.got then assert(near(s.got:cost(), BEST)) end
    local q = s.g:query(1, 1, 30, 20)
    repeat until q:step(100) ~= "running"
    assert(near(q:result():cost(), BEST))
  end,
}
