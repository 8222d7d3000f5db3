-- determinism.lua - the same answers on every VM (issue 16). Runs 10 000 seeded random queries
-- over every map kind (grids with each algorithm and diagonal policy, JPS+, graphs with A*,
-- Dijkstra and bidirectional search, implicit searches, navmeshes with and without a radius,
-- distance fields, the replanner) and prints one line per query: every point, the cost and the
-- expansions, numbers with %.17g. `make determinism` runs it on each VM and compares the
-- outputs byte for byte.
--   lua5.4 tools/determinism.lua [queries]      (astar on package.path / package.cpath)
local astar = require "astar"

local N = tonumber(arg and arg[1]) or 10000

-- Park & Miller: the same sequence on every VM (integers exact in doubles).
local seed = 20261125
local function rand() seed = (seed * 16807) % 2147483647; return seed end
local function int(a, b) return a + rand() % (b - a + 1) end
local function pick(t) return t[int(1, #t)] end

local out = io.stdout
local function fmt(v)
  if type(v) == "number" then return ("%.17g"):format(v) end
  return tostring(v)
end

local function emit(tag, p, msg, code)
  local parts = { tag }
  if p == nil then
    parts[#parts + 1] = "nil " .. tostring(code)
  else
    for _, a, b in p:points() do parts[#parts + 1] = fmt(a) .. "," .. fmt(b) end
    local st = p:stats()
    parts[#parts + 1] = "cost=" .. fmt(p:cost()) .. " exp=" .. fmt(st.expanded) ..
      " alg=" .. tostring(st.algorithm)
  end
  out:write(table.concat(parts, " "), "\n")
  return msg
end

local function random_grid(w, h)
  local g = astar.grid(w, h)
  local costs = { 1, 1, 1, 2, 3, 0.5 }
  local uniform = int(0, 1) == 0
  for y = 1, h do
    for x = 1, w do
      local r = int(1, 100)
      if r <= 25 then g:set(x, y, false)
      elseif not uniform then g:set(x, y, pick(costs)) end
    end
  end
  return g
end

local DIAG = { "no_corner_cutting", "never", "always", "one_obstacle" }
local GALG = { "auto", "astar", "dijkstra", "bfs", "greedy", "jps" }

local kinds = {}

function kinds.grid(i)
  local w, h = int(4, 24), int(4, 24)
  local g = random_grid(w, h)
  local opts = { diagonal = pick(DIAG), algorithm = pick(GALG) }
  if opts.algorithm == "jps" then opts.diagonal = pick({ "no_corner_cutting", "never" }) end
  local sx, sy, gx, gy = int(1, w), int(1, h), int(1, w), int(1, h)
  emit("grid" .. i, g:find(sx, sy, gx, gy, opts))
  if int(1, 4) == 1 then
    g:set(int(1, w), int(1, h), false)
    emit("grid-edit" .. i, g:find(sx, sy, gx, gy, { diagonal = opts.diagonal }))
  end
end

function kinds.prepared(i)
  local w, h = int(8, 40), int(8, 40)
  local g = astar.grid(w, h)
  for _ = 1, math.floor(w * h / 4) do g:set(int(1, w), int(1, h), false) end
  g:prepare()
  emit("jps+" .. i, g:find(int(1, w), int(1, h), int(1, w), int(1, h)))
end

function kinds.graph(i)
  local gr = astar.graph({ directed = int(0, 1) == 1 })
  local n = int(3, 30)
  for _ = 1, n do gr:add_node(int(0, 100), int(0, 100)) end
  for _ = 1, n * 2 do
    local a, b = int(1, n), int(1, n)
    if a ~= b then gr:add_edge(a, b, int(1, 50) / 4) end
  end
  local alg = pick({ "astar", "dijkstra", "bidirectional" })
  emit("graph" .. i, gr:find(int(1, n), int(1, n), { algorithm = alg }))
end

function kinds.implicit(i)
  local goal = int(1, 200)
  emit("implicit" .. i, astar.search({
    start = 1, goal = goal,
    neighbors = function(v, e)
      if v < 400 then e(v * 2, 2); e(v + 1, 1) end
      if v > 1 then e(v - 1, 1.5) end
    end,
  }))
end

function kinds.navmesh(i)
  local w, h = int(4, 16), int(4, 16)
  local g = astar.grid(w, h)
  for _ = 1, math.floor(w * h / 5) do g:set(int(1, w), int(1, h), false) end
  local ok, m = pcall(astar.navmesh.from_grid, g)
  if not ok then out:write("navmesh", i, " none\n") return end
  local opts = int(1, 3) == 1 and { radius = int(1, 4) / 10 } or nil
  if int(1, 3) == 1 then              -- a link between two points of the mesh
    local x1, y1, x2, y2 = int(0, w * 10) / 10, int(0, h * 10) / 10, int(0, w * 10) / 10,
      int(0, h * 10) / 10
    if m:locate(x1, y1) and m:locate(x2, y2) and (x1 ~= x2 or y1 ~= y2) then
      m:link(x1, y1, x2, y2, int(1, 40) / 4)
    end
  end
  emit("navmesh" .. i, m:find(int(0, w * 10) / 10, int(0, h * 10) / 10,
    int(0, w * 10) / 10, int(0, h * 10) / 10, opts))
end

function kinds.field(i)
  local w, h = int(4, 20), int(4, 20)
  local g = random_grid(w, h)
  local x, y = int(1, w), int(1, h)
  g:set(x, y, 1)
  local f = g:distance_field({ { x, y } }, { diagonal = pick(DIAG) })
  local parts = { "field" .. i }
  for _ = 1, 5 do parts[#parts + 1] = fmt(f:distance(int(1, w), int(1, h))) end
  out:write(table.concat(parts, " "), "\n")
end

function kinds.replanner(i)
  local w, h = int(6, 24), int(6, 24)
  local g = random_grid(w, h)
  g:set(1, 1, 1); g:set(w, h, 1)
  local r = g:replanner(1, 1, w, h, { diagonal = pick(DIAG) })
  emit("replan" .. i, r:path())
  for _ = 1, 3 do g:set(int(2, w - 1), int(2, h - 1), pick({ false, 1, 2 })) end
  emit("replan-edit" .. i, r:path())
end

local order = { "grid", "grid", "grid", "prepared", "graph", "implicit", "navmesh", "field",
  "replanner" }
for i = 1, N do kinds[order[(i - 1) % #order + 1]](i) end
