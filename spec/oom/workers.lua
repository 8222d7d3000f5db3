-- Out of memory in worker threads (spec/c/oom_host.c): the batch's requests and results, the
-- pool's tickets, snapshots and results. Workers allocate with malloc (a Lua state's allocator
-- is not thread-safe), so only the Lua thread's allocations fail here. On a 12x8 grid with a
-- wall, (1, 1) -> (12, 8) costs 5 diagonal steps and 8 straight ones.
local astar = require "astar"
local COST = 5 * math.sqrt(2) + 8
local function near(a, b) return math.abs(a - b) < 1e-9 end

return {
  setup = function()
    local g = astar.grid(12, 8)
    g:fill(6, 1, 1, 6, false)
    return { g = g }
  end,
  body = function(s)
    s.paths = astar.batch(s.g, { { 1, 1, 12, 8 }, { 12, 8, 1, 1 }, { 1, 1, 6, 1 } }, { threads = 2 })
    local pool = astar.workers { threads = 1 }
    s.pool = pool
    local a = pool:submit(s.g, 1, 1, 12, 8)
    local b = pool:submit(s.g, 1, 1, 12, 8, { algorithm = "astar" })
    s.a = pool:result(a, true)
    s.g:set(12, 1, 2)                                -- a new snapshot for c
    local c = pool:submit(s.g, 12, 8, 1, 1)
    s.b = pool:result(b, true)                       -- stale
    s.c = pool:result(c, true)
    pool:close()
  end,
  check = function(s)
    if s.paths then
      assert(near(s.paths[1]:cost(), COST) and near(s.paths[2]:cost(), COST))
      assert(s.paths[3] == false)
    end
    if s.a then assert(near(s.a:cost(), COST)) end
    assert(s.b == nil)
    if s.c then assert(near(s.c:cost(), COST)) end
    if s.pool then s.pool:close() end
    local p = astar.batch(s.g, { { 1, 1, 12, 8 } })
    assert(near(p[1]:cost(), COST))
  end,
}
