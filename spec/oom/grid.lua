-- Out of memory in grid methods (spec/c/oom_host.c runs this with every allocation of body
-- refused in turn). The map: 12x12, a wall at x = 6 from y = 2 to 11; from (1, 6) to (12, 6)
-- the shortest way goes through the gap at (6, 1): (1, 6) -> (5, 1) is 4 diagonals and a step,
-- (5, 1) -> (7, 1) two steps, (7, 1) -> (12, 6) five diagonals: 9 sqrt 2 + 3.
local astar = require "astar"
local BEST = 9 * math.sqrt(2) + 3
-- pulled taut: round the gap's two corners (5.5, 1.5) and (6.5, 1.5)
local TAUT = math.sqrt(2 * 4.5 ^ 2) + 1 + math.sqrt(5.5 ^ 2 + 4.5 ^ 2)
local function near(a, b) return math.abs(a - b) < 1e-9 end

local function walled()
  local g = astar.grid(12, 12)
  for y = 2, 11 do g:set(6, y, false) end
  return g
end

-- terrain: a patch of cost 3 in the middle, where jumps stop at its boundary cells and the
-- grid keeps what each of them keeps (a table per policy, its rows made as searches ask)
local function patched()
  local g = astar.grid(12, 12)
  g:fill(4, 3, 5, 7, 3)
  return g
end

return {
  setup = function() return { g = walled(), t = patched() } end,
  body = function(s)
    local g = s.g
    s.path = g:find(1, 6, 12, 6)
    s.smooth = s.path:smooth(g)
    s.jps = g:find(1, 6, 12, 6, { algorithm = "jps" })
    s.tj = s.t:find(1, 5, 12, 7, { algorithm = "jps" })
    s.tn = s.t:find(12, 7, 1, 5, { algorithm = "jps", diagonal = "never" })
    s.q = g:query(1, 6, 12, 6)
    s.q:step(1000000)
    s.field = g:distance_field({ { 12, 6 } })
    s.clone = g:clone()
    s.cells = g:to_path({ 1, 1, 2, 2, 3, 2 })
    s.rp = g:replanner(1, 6, 12, 6)
    s.rp:path()
    s.edited = true
    g:set(6, 1, false)
    s.rp:path()
    g:set(6, 1, true)
    s.edited = false
    s.text = g:render(s.path)
  end,
  check = function(s)
    local g = s.g
    if s.edited then g:set(6, 1, true) end
    assert(near(g:find(1, 6, 12, 6):cost(), BEST), "find after the failure")
    assert(not g:walkable(6, 5) and g:walkable(6, 1))
    if s.path then assert(near(s.path:cost(), BEST)) end
    if s.smooth then assert(math.abs(s.smooth:cost() - TAUT) < 1e-6, "smoothed") end
    assert(math.abs(g:find(1, 6, 12, 6):smooth(g):cost() - TAUT) < 1e-6, "smooth after the failure")
    if s.jps then assert(near(s.jps:cost(), BEST)) end
    for _, c in ipairs({ { s.tj, 1, 5, 12, 7 }, { s.tn, 12, 7, 1, 5, "never" } }) do
      local want = s.t:find(c[2], c[3], c[4], c[5], { algorithm = "astar", diagonal = c[6] }):cost()
      local again = s.t:find(c[2], c[3], c[4], c[5], { algorithm = "jps", diagonal = c[6] })
      assert(near(again:cost(), want), "terrain jumps after the failure")
      if c[1] then assert(near(c[1]:cost(), want), "terrain jumps") end
    end
    if s.q then
      local st
      repeat st = s.q:step(1000000) until st ~= "running"
      local p = s.q:result()
      assert(p and near(p:cost(), BEST), "query after the failure: " .. st)
    end
    if s.field then assert(near(s.field:distance(1, 6), BEST)) end
    if s.clone then assert(near(s.clone:find(1, 6, 12, 6):cost(), BEST)) end
    if s.cells then assert(near(s.cells:cost(), math.sqrt(2) + 1)) end
    if s.rp then assert(near(s.rp:path():cost(), BEST), "replanner after the failure") end
    assert(near(g:distance_field({ { 12, 6 } }):distance(1, 6), BEST))
  end,
}
