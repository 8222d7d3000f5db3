-- Out of memory in Directional A* (spec/c/oom_host.c): building the lattice of moves, the
-- heuristic's backward search, the Path of poses and its moves, a time-sliced query. On an open
-- 12x5 grid, facing east at (2, 3) to (10, 3) facing east is the straight line: 8.
local astar = require "astar"
local function near(a, b) return math.abs(a - b) < 1e-9 end

return {
  setup = function() return { g = astar.grid(12, 5) } end,
  body = function(s)
    local opts = { algorithm = "directional", turning = 1.5, reverse = 2, heading = 0,
      goal_heading = 0 }
    s.p = s.g:find(2, 3, 10, 3, opts)
    s.flat = s.p:flat(0.5)
    s.curve = s.p:curve(1)
    s.segs = s.p:segments()
    local q = s.g:query(2, 3, 10, 3, opts)
    while q:step(3) == "running" do end
    s.q = q:result()
  end,
  check = function(s)
    if s.p then assert(near(s.p:cost(), 8) and near(s.p:length(), 8)) end
    if s.flat then assert(#s.flat == 34) end
    if s.curve then assert(s.curve:length() > 0) end
    if s.segs then assert(#s.segs == #s.p - 1) end
    if s.q then assert(near(s.q:cost(), 8)) end
    assert(near(s.g:find(2, 3, 10, 3, { algorithm = "directional", turning = 1.5 }):cost(), 8))
  end,
}
