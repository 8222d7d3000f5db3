-- Memory the collector cannot see (issue 16): grids live outside the Lua heap, so a loop that
-- drops big grids used to pile them up until "not enough memory" (1 GB of garbage after 40
-- grids of 2048x2048 on Lua 5.4, 60 grids of 4096x4096 reached 6.7 GB). The core's allocations
-- are counted and the collector told; the peak must stay far below what the garbage would need.
local astar = require "astar"

local function peak_kb()
  local f = io.open("/proc/self/status", "r")
  if not f then return nil end
  local s = f:read("*a")
  f:close()
  return tonumber(s:match("VmHWM:%s*(%d+) kB"))
end

describe("memory outside the Lua heap", function()
  it("dropped big grids are collected while a loop makes more", function()
    local before = peak_kb()
    if not before then
      pending("no /proc/self/status here")
      return
    end
    local n, side = 60, 2048
    for _ = 1, n do
      local g = astar.grid(side, side)
      g:set(side, side, 2)                      -- touch it: the cells are really there
    end
    local grew_mb = (peak_kb() - before) / 1024
    local garbage_mb = n * side * side * 8 / 2 ^ 20 -- the cells alone, had nothing been freed
    assert.is_true(grew_mb < garbage_mb / 4,
      ("the peak grew by %.0f MB; the garbage would be %.0f MB"):format(grew_mb, garbage_mb))
  end)
end)
