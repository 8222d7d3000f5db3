-- spec/helper.lua - independent references for the astar specs.
--
-- Nothing here calls the library to compute an expectation: the Dijkstra, the BFS, the path
-- checker, the PRNG and the Moving AI readers are plain Lua written from the README's contract
-- (cost model, diagonal policies, file formats). Runs unchanged on Lua 5.4 and LuaJIT 2.1.

local luassert = require "luassert"

local H = {}

local floor, sqrt, abs, max = math.floor, math.sqrt, math.abs, math.max
local SQRT2 = sqrt(2)
H.SQRT2 = SQRT2
H.unpack = table.unpack or unpack -- luacheck: ignore

H.POLICIES = { "never", "always", "no_corner_cutting", "one_obstacle" }

-- Heuristics that never overestimate under each diagonal policy (manhattan does with diagonals).
H.ADMISSIBLE = {
  never = { "manhattan", "euclidean", "octile", "chebyshev", "zero" },
  always = { "octile", "euclidean", "chebyshev", "zero" },
  no_corner_cutting = { "octile", "euclidean", "chebyshev", "zero" },
  one_obstacle = { "octile", "euclidean", "chebyshev", "zero" },
}

---------------------------------------------------------------------------------------------------
-- Deterministic PRNG: Park-Miller minimal standard LCG. Every intermediate value is below 2^47, so
-- it is exact both with 5.4 integers and with LuaJIT doubles: the same sequence on every VM.

function H.rng(seed)
  local M = 2147483647
  local s = floor(seed) % (M - 1) + 1 -- 1 .. M-1, never 0
  local r = {}
  function r.next()
    s = (s * 16807) % M
    return s
  end
  -- uniform in [0, 1)
  function r.float()
    return (r.next() - 1) / (M - 1)
  end
  -- uniform integer in [a, b]
  function r.int(a, b)
    return a + floor(r.float() * (b - a + 1))
  end
  function r.pick(list)
    return list[r.int(1, #list)]
  end
  return r
end

---------------------------------------------------------------------------------------------------
-- Grid descriptions: cells[y][x] = cost (number > 0) or false.

function H.random_cells(rng, w, h, p_blocked, cost_values)
  cost_values = cost_values or { 1 }
  local cells = {}
  for y = 1, h do
    local row = {}
    for x = 1, w do
      if rng.float() < p_blocked then
        row[x] = false
      else
        row[x] = cost_values[rng.int(1, #cost_values)]
      end
    end
    cells[y] = row
  end
  return cells
end

-- Calls f(rng, w, h, cells, grid) for n random grids from seed: sides in [lo, hi], blocked
-- with a probability picked from p_list, costs from cost_values; each grid is closed after.
function H.each_random_grid(seed, n, lo, hi, p_list, cost_values, f)
  local rng = H.rng(seed)
  for _ = 1, n do
    local w, h = rng.int(lo, hi), rng.int(lo, hi)
    local cells = H.random_cells(rng, w, h, rng.pick(p_list), cost_values)
    local grid = require("astar").grid.from_table(cells)
    f(rng, w, h, cells, grid)
    grid:close()
  end
end

-- Sets cell (x, y) of both grid and model cells to v, or with probability p_fill a rectangle
-- of up to side x side cells from there (inside the grid).
function H.edit_cells(rng, grid, cells, w, h, x, y, v, p_fill, side)
  if rng.float() < p_fill then
    local fw, fh = rng.int(1, math.min(side, w - x + 1)), rng.int(1, math.min(side, h - y + 1))
    grid:fill(x, y, fw, fh, v)
    for yy = y, y + fh - 1 do for xx = x, x + fw - 1 do cells[yy][xx] = v end end
  else
    grid:set(x, y, v)
    cells[y][x] = v
  end
end

function H.copy_cells(cells, w, h)
  local c = {}
  for y = 1, h do
    local row = {}
    for x = 1, w do row[x] = cells[y][x] end
    c[y] = row
  end
  return c
end

-- Cells from text rows and a legend (independent of astar.grid.parse).
function H.cells_from_text(text, legend)
  local cells = {}
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    line = line:gsub("\r$", "")
    if line ~= "" then
      local row = {}
      for i = 1, #line do
        local v = legend[line:sub(i, i)]
        assert(v ~= nil, "cells_from_text: no legend entry for " .. line:sub(i, i))
        row[i] = v
      end
      cells[#cells + 1] = row
    end
  end
  return cells, #cells[1], #cells
end

local function walk(cells, w, h, x, y)
  return x >= 1 and x <= w and y >= 1 and y <= h and cells[y][x] ~= false and cells[y][x] ~= nil
end
H.walk = walk

-- Is the single step (x, y) -> (x+dx, y+dy) legal under `diagonal`? Both cells are assumed valid.
local function legal_step(cells, w, h, x, y, dx, dy, diagonal)
  if dx == 0 and dy == 0 then return false end
  if abs(dx) > 1 or abs(dy) > 1 then return false end
  if not walk(cells, w, h, x + dx, y + dy) then return false end
  if dx == 0 or dy == 0 then return true end
  if diagonal == "never" then return false end
  if diagonal == "always" then return true end
  local a = walk(cells, w, h, x + dx, y)
  local b = walk(cells, w, h, x, y + dy)
  if diagonal == "no_corner_cutting" then return a and b end
  if diagonal == "one_obstacle" then return a or b end
  error("unknown diagonal policy " .. tostring(diagonal))
end
H.legal_step = legal_step

local DIRS4 = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } }
local DIRS8 = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 }, { 1, 1 }, { 1, -1 }, { -1, 1 }, { -1, -1 } }

local function step_cost(cells, x2, y2, dx, dy)
  local len = (dx ~= 0 and dy ~= 0) and SQRT2 or 1
  return len * cells[y2][x2]
end
H.step_cost = step_cost

---------------------------------------------------------------------------------------------------
-- Binary min-heap of (key, value) pairs, duplicates allowed (lazy deletion by the caller).

local function heap_new() return { n = 0, k = {}, v = {} } end

local function heap_push(hp, key, val)
  local n = hp.n + 1
  hp.n = n
  local k, v = hp.k, hp.v
  local i = n
  while i > 1 do
    local p = floor(i / 2)
    if k[p] <= key then break end
    k[i], v[i] = k[p], v[p]
    i = p
  end
  k[i], v[i] = key, val
end

local function heap_pop(hp)
  local n = hp.n
  if n == 0 then return nil end
  local k, v = hp.k, hp.v
  local rk, rv = k[1], v[1]
  local lk, lv = k[n], v[n]
  k[n], v[n] = nil, nil
  n = n - 1
  hp.n = n
  if n > 0 then
    local i = 1
    while true do
      local c = 2 * i
      if c > n then break end
      if c + 1 <= n and k[c + 1] < k[c] then c = c + 1 end
      if k[c] >= lk then break end
      k[i], v[i] = k[c], v[c]
      i = c
    end
    k[i], v[i] = lk, lv
  end
  return rk, rv
end

H.heap_new, H.heap_push, H.heap_pop = heap_new, heap_push, heap_pop

---------------------------------------------------------------------------------------------------
-- Single-source Dijkstra: returns dist[(y-1)*w + x] for every reachable cell (nil elsewhere).

-- `costfn` (optional): function(x1, y1, x2, y2, base) -> cost > 0, or false/nil to forbid the
-- step, exactly as the README's `cost` callback of grid:find; `base` is the built-in step cost.
local function cb_cost(costfn, x1, y1, x2, y2, base)
  local c = costfn(x1, y1, x2, y2, base)
  if c == nil or c == false then return nil end
  assert(type(c) == "number" and c > 0 and c < math.huge, "reference: bad callback cost " .. tostring(c))
  return c
end
H.cb_cost = cb_cost

function H.dijkstra_all(cells, w, h, sx, sy, diagonal, costfn)
  local dist = {}
  if not walk(cells, w, h, sx, sy) then return dist end
  local dirs = diagonal == "never" and DIRS4 or DIRS8
  local done = {}
  local hp = heap_new()
  local s = (sy - 1) * w + sx
  dist[s] = 0
  heap_push(hp, 0, s)
  while hp.n > 0 do
    local d, u = heap_pop(hp)
    if not done[u] and d == dist[u] then
      done[u] = true
      local ux = (u - 1) % w + 1
      local uy = floor((u - 1) / w) + 1
      for i = 1, #dirs do
        local dx, dy = dirs[i][1], dirs[i][2]
        if legal_step(cells, w, h, ux, uy, dx, dy, diagonal) then
          local vx, vy = ux + dx, uy + dy
          local v = (vy - 1) * w + vx
          local c = step_cost(cells, vx, vy, dx, dy)
          if costfn and not done[v] then c = cb_cost(costfn, ux, uy, vx, vy, c) end
          if c and not done[v] then
            local nd = d + c
            if dist[v] == nil or nd < dist[v] then
              dist[v] = nd
              heap_push(hp, nd, v)
            end
          end
        end
      end
    end
  end
  return dist
end

-- Optimal cost from (sx, sy) to (gx, gy), or nil when unreachable or an end is blocked.
function H.dijkstra(cells, w, h, sx, sy, gx, gy, diagonal, costfn)
  if not walk(cells, w, h, sx, sy) or not walk(cells, w, h, gx, gy) then return nil end
  return H.dijkstra_all(cells, w, h, sx, sy, diagonal, costfn)[(gy - 1) * w + gx]
end

-- Fewest steps from (sx, sy) to every cell (BFS).
function H.bfs_all(cells, w, h, sx, sy, diagonal)
  local steps = {}
  if not walk(cells, w, h, sx, sy) then return steps end
  local dirs = diagonal == "never" and DIRS4 or DIRS8
  local q, head = { (sy - 1) * w + sx }, 1
  steps[q[1]] = 0
  while head <= #q do
    local u = q[head]
    head = head + 1
    local ux = (u - 1) % w + 1
    local uy = floor((u - 1) / w) + 1
    for i = 1, #dirs do
      local dx, dy = dirs[i][1], dirs[i][2]
      if legal_step(cells, w, h, ux, uy, dx, dy, diagonal) then
        local v = (uy + dy - 1) * w + ux + dx
        if steps[v] == nil then
          steps[v] = steps[u] + 1
          q[#q + 1] = v
        end
      end
    end
  end
  return steps
end

-- Fewest steps from (sx, sy) to (gx, gy), or nil.
function H.bfs(cells, w, h, sx, sy, gx, gy, diagonal)
  if not walk(cells, w, h, sx, sy) or not walk(cells, w, h, gx, gy) then return nil end
  return H.bfs_all(cells, w, h, sx, sy, diagonal)[(gy - 1) * w + gx]
end

---------------------------------------------------------------------------------------------------
-- Path checking. `path` is a Path (uses #path and path:get(i)) or a list of {x, y}.

local function is_int(v)
  return type(v) == "number" and v == v and v == floor(v) and v > -math.huge and v < math.huge
end
H.is_int = is_int

function H.points_of(path)
  local pts = {}
  if type(path) == "table" then
    for i = 1, #path do pts[i] = { path[i][1] or path[i].x, path[i][2] or path[i].y } end
  else
    local n = #path
    for i = 1, n do
      local x, y = path:get(i)
      pts[i] = { x, y }
    end
  end
  return pts
end

-- Asserts the path is legal and joins the requested ends; returns the recomputed cost.
-- With `costfn` (the cost callback), steps it forbids are illegal and it prices the steps.
function H.check_path(cells, w, h, path, sx, sy, gx, gy, diagonal, costfn)
  diagonal = diagonal or "no_corner_cutting"
  local pts = H.points_of(path)
  local n = #pts
  luassert(n >= 1, "path has no points")
  local seen = {}
  for i = 1, n do
    local x, y = pts[i][1], pts[i][2]
    luassert(is_int(x) and is_int(y),
      ("point %d is not a pair of integers: %s, %s"):format(i, tostring(x), tostring(y)))
    luassert(x >= 1 and x <= w and y >= 1 and y <= h,
      ("point %d (%d, %d) is outside the %dx%d grid"):format(i, x, y, w, h))
    luassert(walk(cells, w, h, x, y), ("point %d (%d, %d) is a blocked cell"):format(i, x, y))
    local key = (y - 1) * w + x
    luassert(not seen[key], ("point %d (%d, %d) repeats point %s"):format(i, x, y, tostring(seen[key])))
    seen[key] = i
  end
  luassert(pts[1][1] == sx and pts[1][2] == sy,
    ("path starts at (%d, %d), expected (%d, %d)"):format(pts[1][1], pts[1][2], sx, sy))
  luassert(pts[n][1] == gx and pts[n][2] == gy,
    ("path ends at (%d, %d), expected (%d, %d)"):format(pts[n][1], pts[n][2], gx, gy))
  local cost = 0
  for i = 2, n do
    local x1, y1, x2, y2 = pts[i - 1][1], pts[i - 1][2], pts[i][1], pts[i][2]
    local dx, dy = x2 - x1, y2 - y1
    luassert(legal_step(cells, w, h, x1, y1, dx, dy, diagonal),
      ("step %d (%d, %d) -> (%d, %d) is illegal under diagonal = %q"):format(
        i - 1, x1, y1, x2, y2, diagonal))
    local c = step_cost(cells, x2, y2, dx, dy)
    if costfn then
      c = cb_cost(costfn, x1, y1, x2, y2, c)
      luassert(c ~= nil, ("step %d (%d, %d) -> (%d, %d) is forbidden by the cost callback"):format(
        i - 1, x1, y1, x2, y2))
    end
    cost = cost + c
  end
  return cost, n
end

---------------------------------------------------------------------------------------------------
-- Numbers and errors.

function H.close(a, b, rel)
  rel = rel or 1e-9
  if type(a) ~= "number" or type(b) ~= "number" then return false end
  if a == b then return true end
  return abs(a - b) <= rel * max(abs(a), abs(b))
end

-- pcall(f, ...) must fail with exactly `expected`.
function H.checkerr(expected, f, ...)
  local ok, msg = pcall(f, ...)
  luassert(not ok, ("expected error %q, but the call succeeded"):format(expected))
  luassert(msg == expected,
    ("wrong error message\n  expected: %s\n  actual:   %s"):format(expected, tostring(msg)))
  return msg
end

-- Messages of errors the README does not spell out, for the report (set ASTAR_PRINT_ERRORS=1).
H.seen_messages = {}

-- pcall(f, ...) must fail with a string message that starts with `prefix` (plain text).
function H.checkerr_prefix(prefix, f, ...)
  local ok, msg = pcall(f, ...)
  luassert(not ok, ("expected an error starting with %q, but the call succeeded"):format(prefix))
  luassert(type(msg) == "string", "error value is not a string: " .. tostring(msg))
  luassert(msg:find(prefix, 1, true) == 1,
    ("wrong error message\n  expected prefix: %s\n  actual:          %s"):format(prefix, msg))
  H.seen_messages[#H.seen_messages + 1] = msg
  if os.getenv("ASTAR_PRINT_ERRORS") then io.stderr:write("  [msg] ", msg, "\n") end
  return msg
end

---------------------------------------------------------------------------------------------------
-- Moving AI files, read independently of the library.

local function file_exists(p)
  local f = io.open(p, "rb")
  if f then f:close() return true end
  return false
end
H.file_exists = file_exists

function H.movingai_dir()
  local d = os.getenv("ASTAR_MOVINGAI")
  if d and d ~= "" and file_exists(d .. "/dao/arena2.map") then return d end
  d = "../shared/benchmarks/movingai"
  if file_exists(d .. "/dao/arena2.map") then return d end
  return nil
end

function H.read_file(p)
  local f = assert(io.open(p, "rb"))
  local s = f:read("*a")
  f:close()
  return s
end

local function lines_of(text)
  local out = {}
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    out[#out + 1] = (line:gsub("\r$", ""))
  end
  return out
end
H.lines_of = lines_of

-- cells, w, h of a .map file: '.', 'G', 'S' cost 1; anything else blocked.
function H.read_movingai_map(p)
  local L = lines_of(H.read_file(p))
  assert(L[1]:match("^type%s+octile%s*$"), "map: bad type line")
  local h = tonumber(L[2]:match("^height%s+(%d+)%s*$"))
  local w = tonumber(L[3]:match("^width%s+(%d+)%s*$"))
  assert(h and w and L[4]:match("^map%s*$"), "map: bad header")
  local pass = { ["."] = true, G = true, S = true }
  local cells = {}
  for y = 1, h do
    local line = L[4 + y]
    assert(line and #line == w, "map: bad row " .. y)
    local row = {}
    for x = 1, w do row[x] = pass[line:sub(x, x)] and 1 or false end
    cells[y] = row
  end
  return cells, w, h
end

-- Scenario list with 1-based coordinates and the optimal length as printed (optimal_text).
function H.read_scen(p)
  local L = lines_of(H.read_file(p))
  assert(L[1]:match("^version%s"), "scen: no version line")
  local out = {}
  for i = 2, #L do
    local f = {}
    for tok in L[i]:gmatch("%S+") do f[#f + 1] = tok end
    if #f > 0 then
      assert(#f == 9, "scen: line " .. i .. " has " .. #f .. " fields")
      out[#out + 1] = {
        bucket = tonumber(f[1]), map = f[2], width = tonumber(f[3]), height = tonumber(f[4]),
        sx = tonumber(f[5]) + 1, sy = tonumber(f[6]) + 1,
        gx = tonumber(f[7]) + 1, gy = tonumber(f[8]) + 1,
        optimal = tonumber(f[9]), optimal_text = f[9], line = i,
      }
    end
  end
  return out
end

-- The README's recommended check: |got - listed| <= max(0.5*10^-d + 1e-6, 1e-5*listed).
function H.scen_tolerance(listed_text)
  local listed = assert(tonumber(listed_text), "not a number: " .. tostring(listed_text))
  local mant = listed_text:match("^[^eE]*")
  local frac = mant:match("%.(%d*)") or ""
  local d = #frac
  return max(0.5 * 10 ^ (-d) + 1e-6, 1e-5 * listed), listed
end

-- How many random trials a spec runs: n, times ASTAR_SPEC_SCALE (the Makefile runs the
-- 5.1-5.3 parts, which check the other binding ABIs of the same C, with a third).
function H.trials(n)
  local scale = tonumber(os.getenv("ASTAR_SPEC_SCALE") or "") or 1
  return math.max(1, math.floor(n * scale + 0.5))
end

function H.scen_limit()
  local n = tonumber(os.getenv("ASTAR_SCEN_LIMIT") or "")
  return n
end

---------------------------------------------------------------------------------------------------
-- Convenience for specs.

-- A find() result as a comparable summary: {pts = {...}, cost = c} or {code = ..}.
function H.summary(path, msg, code)
  if path == nil then return { code = code, msg = msg } end
  return { pts = H.points_of(path), cost = path:cost() }
end

function H.same_points(a, b)
  if #a ~= #b then return false end
  for i = 1, #a do
    if a[i][1] ~= b[i][1] or a[i][2] ~= b[i][2] then return false end
  end
  return true
end

function H.fmt_cells(cells, w, h)
  local out = {}
  for y = 1, h do
    local row = {}
    for x = 1, w do
      local c = cells[y][x]
      row[x] = c == false and "#" or (c == 1 and "." or tostring(c) .. " ")
    end
    out[y] = table.concat(row)
  end
  return table.concat(out, "\n")
end

---------------------------------------------------------------------------------------------------
-- Issue 3: built-in grid heuristic distances (unscaled), as the README defines them.

function H.hdist(name, x1, y1, x2, y2)
  local dx, dy = abs(x1 - x2), abs(y1 - y2)
  local lo, hi = math.min(dx, dy), max(dx, dy)
  if name == "octile" then return hi + (SQRT2 - 1) * lo end
  if name == "manhattan" then return dx + dy end
  if name == "euclidean" then return sqrt(dx * dx + dy * dy) end
  if name == "chebyshev" then return hi end
  if name == "zero" then return 0 end
  error("unknown heuristic " .. tostring(name))
end

-- The heuristic grid:find uses when none is given.
function H.default_heuristic(diagonal)
  return diagonal == "never" and "manhattan" or "octile"
end

---------------------------------------------------------------------------------------------------
-- Generic Dijkstra over any keys. starts: list of {key, g0}. succ(u, emit) calls emit(v, cost)
-- for every successor v of u (cost > 0). Returns dist[key], parent[key] (false at a start).

function H.dijkstra_generic(starts, succ)
  local dist, parent, done = {}, {}, {}
  local hp = heap_new()
  for _, s in ipairs(starts) do
    local k, g0 = s[1], s[2] or 0
    if dist[k] == nil or g0 < dist[k] then
      dist[k] = g0
      parent[k] = false
      heap_push(hp, g0, k)
    end
  end
  while hp.n > 0 do
    local d, u = heap_pop(hp)
    if not done[u] and d == dist[u] then
      done[u] = true
      succ(u, function(v, c)
        assert(type(c) == "number" and c > 0 and c < math.huge, "reference: bad cost " .. tostring(c))
        if not done[v] then
          local nd = d + c
          if dist[v] == nil or nd < dist[v] then
            dist[v] = nd
            parent[v] = u
            heap_push(hp, nd, v)
          end
        end
      end)
    end
  end
  return dist, parent
end

-- Fewest edges from `start` (generic keys).
function H.bfs_generic(start, succ)
  local steps = { [start] = 0 }
  local q, head = { start }, 1
  while head <= #q do
    local u = q[head]
    head = head + 1
    succ(u, function(v)
      if steps[v] == nil then
        steps[v] = steps[u] + 1
        q[#q + 1] = v
      end
    end)
  end
  return steps
end

---------------------------------------------------------------------------------------------------
-- Grid distance fields, computed forward: fwd[a][b] = cheapest cost of a path from cell a to cell
-- b (keys (y-1)*w+x), from one forward Dijkstra per walkable cell. Small grids only.

function H.all_pairs(cells, w, h, diagonal, costfn)
  local fwd = {}
  for y = 1, h do
    for x = 1, w do
      if walk(cells, w, h, x, y) then
        fwd[(y - 1) * w + x] = H.dijkstra_all(cells, w, h, x, y, diagonal, costfn)
      end
    end
  end
  return fwd
end

-- dist[k] = min over sources {x, y, value} of value + fwd[k][source], nil if no source is reachable
-- (or the cell is blocked); sources on blocked cells are ignored. `max_cost`: larger totals are nil.
-- Also returns own[k] = the smallest value of a source on cell k (nil if none).
function H.field_ref(fwd, w, _, sources, max_cost)
  local dist, own = {}, {}
  for _, s in ipairs(sources) do
    local sk = (s[2] - 1) * w + s[1]
    local v = s[3] or 0
    if fwd[sk] and (own[sk] == nil or v < own[sk]) then own[sk] = v end
  end
  for k, d in pairs(fwd) do
    local best
    for sk, v in pairs(own) do
      local c = d[sk]
      if c ~= nil and (best == nil or v + c < best) then best = v + c end
    end
    if best ~= nil and (max_cost == nil or best <= max_cost) then dist[k] = best end
  end
  return dist, own
end

-- Flood fill: label[(y-1)*w+x] (1, 2, ... in scan order) for walkable cells, and the count.
-- Two cells are connected when a legal step under `diagonal` joins them.
function H.grid_components(cells, w, h, diagonal)
  local label, count = {}, 0
  local dirs = diagonal == "never" and DIRS4 or DIRS8
  for y = 1, h do
    for x = 1, w do
      local k = (y - 1) * w + x
      if walk(cells, w, h, x, y) and not label[k] then
        count = count + 1
        label[k] = count
        local stack = { { x, y } }
        while #stack > 0 do
          local c = stack[#stack]
          stack[#stack] = nil
          for i = 1, #dirs do
            local dx, dy = dirs[i][1], dirs[i][2]
            if legal_step(cells, w, h, c[1], c[2], dx, dy, diagonal) then
              local nk = (c[2] + dy - 1) * w + c[1] + dx
              if not label[nk] then
                label[nk] = count
                stack[#stack + 1] = { c[1] + dx, c[2] + dy }
              end
            end
          end
        end
      end
    end
  end
  return label, count
end

-- Do `got` and `want` (key -> label or nil) describe the same partition of `keys`? nil if so,
-- else a description of the first difference.
function H.partition_diff(keys, got, want, fmtkey)
  fmtkey = fmtkey or tostring
  local g2w, w2g = {}, {}
  for _, k in ipairs(keys) do
    local a, b = got[k], want[k]
    if (a == nil) ~= (b == nil) then
      return ("%s: label %s, expected %s"):format(fmtkey(k), tostring(a),
        b == nil and "nil" or "a label")
    end
    if a ~= nil then
      if not is_int(a) or a < 1 then return ("%s: label %s is not an integer >= 1"):format(fmtkey(k), tostring(a)) end
      if g2w[a] == nil and w2g[b] == nil then
        g2w[a], w2g[b] = b, a
      elseif g2w[a] ~= b or w2g[b] ~= a then
        return ("%s: label %s does not match the reference partition"):format(fmtkey(k), tostring(a))
      end
    end
  end
  return nil
end

---------------------------------------------------------------------------------------------------
-- A model of a graph (the reference for astar.graph): plain tables, no library calls.
-- out[a][b] = cost of the edge a -> b (both ways for undirected graphs).

local GM = {}
GM.__index = GM

function H.graph_model(directed)
  return setmetatable({ directed = not not directed, n = 0, pos = {}, alive = {}, disabled = {},
    out = {} }, GM)
end

function GM:add_node(x, y, z)
  self.n = self.n + 1
  local id = self.n
  self.alive[id] = true
  if x ~= nil then self.pos[id] = { x, y, z or 0 } end
  self.out[id] = {}
  return id
end

function GM:length(a, b)
  local p, q = self.pos[a], self.pos[b]
  if not p or not q then return nil end
  local dx, dy, dz = p[1] - q[1], p[2] - q[2], p[3] - q[3]
  return sqrt(dx * dx + dy * dy + dz * dz)
end

function GM:add_edge(a, b, c)
  c = c or self:length(a, b)
  assert(c and c > 0, "model: bad edge cost")
  self.out[a][b] = c
  if not self.directed then self.out[b][a] = c end
end

function GM:cost(a, b) return self.out[a] and self.out[a][b] end

function GM:remove_edge(a, b)
  local had = self.out[a][b] ~= nil
  self.out[a][b] = nil
  if not self.directed then self.out[b][a] = nil end
  return had
end

function GM:set_edge_cost(a, b, c)
  assert(self.out[a][b], "model: no such edge")
  self:add_edge(a, b, c)
end

function GM:disable_node(a) self.disabled[a] = true end
function GM:enable_node(a) self.disabled[a] = nil end

function GM:remove_node(a)
  for u in pairs(self.alive) do self.out[u][a] = nil end
  self.out[a] = {}
  self.alive[a] = nil
  self.disabled[a] = nil
end

function GM:node_count()
  local n = 0
  for _ in pairs(self.alive) do n = n + 1 end
  return n
end

function GM:edge_count()
  local n = 0
  for u in pairs(self.alive) do
    for _ in pairs(self.out[u]) do n = n + 1 end
  end
  return self.directed and n or floor(n / 2)
end

-- Live node ids in increasing order.
function GM:ids()
  local ids = {}
  for id = 1, self.n do if self.alive[id] then ids[#ids + 1] = id end end
  return ids
end

-- Is `id` usable by searches (alive and enabled)?
function GM:usable(id) return self.alive[id] and not self.disabled[id] end

-- Successors for the generic searches: enabled nodes only; `costfn(from, to, base)` as the
-- README's graph cost callback (false/nil forbids).
function GM:succ(costfn, reverse)
  return function(u, emit)
    if not self:usable(u) then return end
    if not reverse then
      for v, c in pairs(self.out[u]) do
        if self:usable(v) then
          if costfn then
            c = costfn(u, v, c)
            if c ~= nil and c ~= false then emit(v, c) end
          else
            emit(v, c)
          end
        end
      end
    else
      for v in pairs(self.alive) do
        local c = self.out[v][u]
        if c and self:usable(v) then emit(v, c) end
      end
    end
  end
end

-- Cheapest costs from `src` to every node (nil: unreachable); nothing if src is not usable.
function H.graph_dijkstra(M, src, costfn)
  if not M:usable(src) then return {} end
  return (H.dijkstra_generic({ { src, 0 } }, M:succ(costfn)))
end

function H.graph_bfs(M, src)
  if not M:usable(src) then return {} end
  return H.bfs_generic(src, M:succ())
end

-- Weakly connected components of the live nodes (`skip_disabled`: disabled nodes get no label
-- and join nothing). Returns label[id], count.
function H.graph_components(M, skip_disabled)
  local label, count = {}, 0
  local function ok(id) return M.alive[id] and not (skip_disabled and M.disabled[id]) end
  local und = {}
  for _, u in ipairs(M:ids()) do und[u] = und[u] or {} end
  for _, u in ipairs(M:ids()) do
    for v in pairs(M.out[u]) do
      und[u][v] = true
      und[v][u] = true
    end
  end
  for _, s in ipairs(M:ids()) do
    if ok(s) and not label[s] then
      count = count + 1
      label[s] = count
      local stack = { s }
      while #stack > 0 do
        local u = stack[#stack]
        stack[#stack] = nil
        for v in pairs(und[u]) do
          if ok(v) and not label[v] then
            label[v] = count
            stack[#stack + 1] = v
          end
        end
      end
    end
  end
  return label, count
end

-- Random graph: a list of operations (replayed on the library's graph by the specs) and the
-- model after them. o: n, m (edges tried), directed, p_pos (a node has a position), z (3D
-- positions), factor = {lo, hi} (explicit costs are length * factor), p_default (default
-- cost), p_remove_edge, p_set_cost, p_readd, p_disable, p_remove_node.
function H.random_graph(rng, o)
  local M = H.graph_model(o.directed)
  local ops = {}
  local function op(t) ops[#ops + 1] = t end
  local lo, hi = (o.factor or { 1, 3 })[1], (o.factor or { 1, 3 })[2]
  local function rcost(a, b)
    local len = M:length(a, b)
    if len and len > 1e-9 then
      if rng.float() < (o.p_default or 0.3) then return nil end
      return len * (lo + (hi - lo) * rng.float())
    end
    return 0.5 + 9.5 * rng.float()
  end
  for _ = 1, o.n do
    if rng.float() < (o.p_pos or 1) then
      local x, y = rng.int(0, 1000) / 10, rng.int(0, 1000) / 10
      local z = o.z and rng.float() < 0.5 and rng.int(0, 300) / 10 or nil
      M:add_node(x, y, z)
      op({ "add_node", x, y, z })
    else
      M:add_node()
      op({ "add_node" })
    end
  end
  local edges = {}
  for _ = 1, o.m do
    local a, b = rng.int(1, o.n), rng.int(1, o.n)
    if a ~= b then
      local c = rcost(a, b)
      M:add_edge(a, b, c)
      op({ "add_edge", a, b, c })
      edges[#edges + 1] = { a, b }
    end
  end
  for _, e in ipairs(edges) do
    local a, b = e[1], e[2]
    if M:cost(a, b) then
      local r = rng.float()
      if r < (o.p_remove_edge or 0) then
        M:remove_edge(a, b)
        op({ "remove_edge", a, b })
      elseif r < (o.p_remove_edge or 0) + (o.p_set_cost or 0) then
        local c = rcost(a, b) or M:length(a, b)
        M:set_edge_cost(a, b, c)
        op({ "set_edge_cost", a, b, c })
      elseif r < (o.p_remove_edge or 0) + (o.p_set_cost or 0) + (o.p_readd or 0) then
        local c = rcost(a, b) -- re-adding replaces the cost (undirected: from either end)
        local x, y = a, b
        if not M.directed and rng.float() < 0.5 then x, y = b, a end
        M:add_edge(x, y, c)
        op({ "add_edge", x, y, c })
      end
    end
  end
  for id = 1, o.n do
    local r = rng.float()
    if r < (o.p_remove_node or 0) then
      M:remove_node(id)
      op({ "remove_node", id })
    elseif r < (o.p_remove_node or 0) + (o.p_disable or 0) then
      M:disable_node(id)
      op({ "disable_node", id })
    end
  end
  return ops, M
end

-- Ids of a graph Path, as a list.
function H.path_ids(path)
  local ids = {}
  for i = 1, #path do ids[i] = path:get(i) end
  return ids
end

-- Asserts `ids` is a walk from s to (one of) t along usable edges of M (no repeated node);
-- returns its cost (priced by costfn when given).
function H.check_graph_path(M, ids, s, t, costfn)
  luassert(#ids >= 1, "path has no points")
  luassert(ids[1] == s, ("path starts at %s, expected %s"):format(tostring(ids[1]), tostring(s)))
  if t ~= nil then
    luassert(ids[#ids] == t, ("path ends at %s, expected %s"):format(tostring(ids[#ids]), tostring(t)))
  end
  local seen, cost = {}, 0
  for i, id in ipairs(ids) do
    luassert(is_int(id) and M.alive[id], ("point %d: %s is not a live node"):format(i, tostring(id)))
    luassert(not M.disabled[id], ("point %d: node %d is disabled"):format(i, id))
    luassert(not seen[id], ("point %d: node %d repeats point %s"):format(i, id, tostring(seen[id])))
    seen[id] = i
    if i > 1 then
      local c = M:cost(ids[i - 1], id)
      luassert(c, ("step %d: no edge %d -> %d"):format(i - 1, ids[i - 1], id))
      if costfn then
        c = costfn(ids[i - 1], id, c)
        luassert(c ~= nil and c ~= false, ("step %d: %d -> %d is forbidden by the cost callback"):format(
          i - 1, ids[i - 1], id))
      end
      cost = cost + c
    end
  end
  return cost
end

-- Formats a model as Lua source that rebuilds it with the library (for failure reports).
function H.fmt_graph_ops(ops, directed)
  local out = { ("local g = astar.graph{directed = %s}"):format(tostring(directed)) }
  local function num(v) return v == nil and "nil" or ("%.17g"):format(v) end
  for _, t in ipairs(ops) do
    if t[1] == "add_node" then
      out[#out + 1] = t[2] and ("g:add_node(%s, %s%s)"):format(num(t[2]), num(t[3]),
        t[4] and (", " .. num(t[4])) or "") or "g:add_node()"
    elseif t[1] == "add_edge" or t[1] == "set_edge_cost" then
      out[#out + 1] = ("g:%s(%d, %d%s)"):format(t[1], t[2], t[3], t[4] and (", " .. num(t[4])) or "")
    elseif t[1] == "remove_edge" then
      out[#out + 1] = ("g:remove_edge(%d, %d)"):format(t[2], t[3])
    else
      out[#out + 1] = ("g:%s(%d)"):format(t[1], t[2])
    end
  end
  return table.concat(out, "\n")
end

-- The message of pcall(f, ...) must start with "bad argument #<n> to '<name>' (" (any n, or the
-- given one) or "calling '<name>' on bad self".
function H.checkerr_fn(name, n, f, ...)
  local ok, msg = pcall(f, ...)
  luassert(not ok, ("expected an error from '%s', but the call succeeded"):format(name))
  luassert(type(msg) == "string", "error value is not a string: " .. tostring(msg))
  local pat = "^bad argument #" .. (n and tostring(n) or "%d+") .. " to '" .. name:gsub("%p", "%%%0") .. "' %("
  luassert(msg:find(pat) ~= nil,
    ("wrong error message\n  expected: bad argument #%s to '%s' (...)\n  actual:   %s"):format(
      n and tostring(n) or "n", name, msg))
  H.seen_messages[#H.seen_messages + 1] = msg
  if os.getenv("ASTAR_PRINT_ERRORS") then io.stderr:write("  [msg] ", msg, "\n") end
  return msg
end

-- pcall(f, ...) must raise exactly the value `v` (compared with rawequal: tables by identity).
function H.checkerr_value(v, f, ...)
  local ok, err = pcall(f, ...)
  luassert(not ok, "expected an error, but the call succeeded")
  luassert(rawequal(err, v), ("the error was changed on its way: got %s (%s), expected %s (%s)"):format(
    tostring(err), type(err), tostring(v), type(v)))
end

-- A grid as one character a cell: '#' blocked, '.' 1, 'h' 0.5, 'q' 1.25, digits for other
-- integers, '?' for anything else.
function H.fmt_grid(cells, w, h)
  local out = {}
  for y = 1, h do
    local row = {}
    for x = 1, w do
      local c = cells[y][x]
      row[x] = c == false and "#" or c == 1 and "." or c == 0.5 and "h" or c == 1.25 and "q"
        or (is_int(c) and c >= 0 and c <= 9 and tostring(floor(c))) or "?"
    end
    out[y] = table.concat(row)
  end
  return table.concat(out, "\n")
end

-- Is `msg` the yield-across-C error of this VM (Lua 5.2-5.4 say "a C-call", LuaJIT "C-call",
-- PUC 5.1 "metamethod/C-call")?
function H.is_yield_error(msg)
  return type(msg) == "string" and (msg:find("attempt to yield across a C-call boundary", 1, true)
    or msg:find("attempt to yield across C-call boundary", 1, true)
    or msg:find("attempt to yield across metamethod/C-call boundary", 1, true)) ~= nil
end

---------------------------------------------------------------------------------------------------
-- Game-loop features (time-sliced queries, the scheduler, stored paths): references and tools.

-- The smallest cost of a walkable cell, or 1 if none is walkable: the factor the README applies to
-- every built-in heuristic.
function H.min_cost(cells, w, h)
  local m
  for y = 1, h do
    for x = 1, w do
      local c = cells[y][x]
      if c and (m == nil or c < m) then m = c end
    end
  end
  return m or 1
end

-- The cost of a route given as a list of {x, y} (cells may repeat): nil and a description of the
-- first problem if a cell is blocked or a step is illegal under `diagonal` (or forbidden by
-- `costfn`, the README's grid cost callback, which also prices the steps when given).
function H.route_cost(cells, w, h, pts, diagonal, costfn)
  local cost = 0
  for i = 1, #pts do
    local x, y = pts[i][1], pts[i][2]
    if not (is_int(x) and is_int(y) and walk(cells, w, h, x, y)) then
      return nil, ("point %d (%s, %s) is not a walkable cell"):format(i, tostring(x), tostring(y))
    end
    if i > 1 then
      local px, py = pts[i - 1][1], pts[i - 1][2]
      local dx, dy = x - px, y - py
      if not legal_step(cells, w, h, px, py, dx, dy, diagonal) then
        return nil, ("step %d (%d, %d) -> (%d, %d) is illegal under %s"):format(i - 1, px, py, x, y,
          diagonal)
      end
      local c = step_cost(cells, x, y, dx, dy)
      if costfn then
        c = cb_cost(costfn, px, py, x, y, c)
        if c == nil then return nil, ("step %d is forbidden by the cost callback"):format(i - 1) end
      end
      cost = cost + c
    end
  end
  return cost
end

-- For every cell reachable from (sx, sy): its cheapest cost, and the fewest and the most steps
-- among its cheapest paths (two costs within a relative 1e-9 count as equal). Returns dist,
-- minsteps, maxsteps, all keyed (y-1)*w+x.
function H.optimal_step_range(cells, w, h, sx, sy, diagonal)
  local dist = H.dijkstra_all(cells, w, h, sx, sy, diagonal)
  local order = {}
  for k in pairs(dist) do order[#order + 1] = k end
  table.sort(order, function(a, b) return dist[a] < dist[b] end)
  local dirs = diagonal == "never" and DIRS4 or DIRS8
  local minsteps, maxsteps = {}, {}
  for _, v in ipairs(order) do
    local vx, vy = (v - 1) % w + 1, floor((v - 1) / w) + 1
    if vx == sx and vy == sy then
      minsteps[v], maxsteps[v] = 0, 0
    else
      for i = 1, #dirs do
        -- u -> v with u = v - d
        local dx, dy = dirs[i][1], dirs[i][2]
        local ux, uy = vx - dx, vy - dy
        local u = (uy - 1) * w + ux
        if walk(cells, w, h, ux, uy) and dist[u] and minsteps[u]
          and legal_step(cells, w, h, ux, uy, dx, dy, diagonal) then
          local c = step_cost(cells, vx, vy, dx, dy)
          if H.close(dist[u] + c, dist[v], 1e-9) then
            if minsteps[v] == nil or minsteps[u] + 1 < minsteps[v] then minsteps[v] = minsteps[u] + 1 end
            if maxsteps[v] == nil or maxsteps[u] + 1 > maxsteps[v] then maxsteps[v] = maxsteps[u] + 1 end
          end
        end
      end
    end
  end
  return dist, minsteps, maxsteps
end

-- All return values of a call, with their count in `n`.
function H.pack(...)
  return { n = select("#", ...), ... }
end

-- Compares two packed results of find / q:result() / splice: nil if they are the same (Paths:
-- same points, cost, stats; other values: equal), else a description of the first difference.
function H.result_diff(a, b)
  local function fmt(r)
    local out = {}
    for i = 1, r.n do out[i] = tostring(r[i]) end
    return "(" .. table.concat(out, ", ") .. ")"
  end
  if a.n ~= b.n then return ("%d values %s vs %d values %s"):format(a.n, fmt(a), b.n, fmt(b)) end
  for i = 1, a.n do
    local x, y = a[i], b[i]
    if type(x) == "userdata" and type(y) == "userdata" then
      if not H.same_points(H.points_of(x), H.points_of(y)) then
        return ("value %d: paths with different points %s vs %s"):format(i, fmt(a), fmt(b))
      end
      if x:cost() ~= y:cost() then
        return ("value %d: path costs %.17g vs %.17g"):format(i, x:cost(), y:cost())
      end
      local sx, sy = x:stats(), y:stats()
      for _, k in ipairs({ "expanded", "generated", "reopened", "algorithm", "goal" }) do
        if sx[k] ~= sy[k] then
          return ("value %d: path stats().%s %s vs %s"):format(i, k, tostring(sx[k]), tostring(sy[k]))
        end
      end
    elseif x ~= y then
      return ("value %d: %s vs %s"):format(i, fmt(a), fmt(b))
    end
  end
  return nil
end

-- The command that starts this interpreter (the lowest negative index of `arg`).
function H.interpreter()
  local a = rawget(_G, "arg")
  if type(a) == "table" then
    local i = 0
    while a[i - 1] ~= nil do i = i - 1 end
    if i < 0 then return a[i] end
  end
  return rawget(_G, "jit") and "luajit" or "lua5.4"
end

-- Runs the Lua source `code` in a fresh process of this interpreter, with this process's
-- package.path and package.cpath, for what may crash the VM. Returns true if the process ended
-- normally (its code ran to the end and it exited with status 0), and everything it printed.
function H.isolated(code)
  local file = os.tmpname()
  local f = assert(io.open(file, "wb"))
  f:write(("package.path = %q\npackage.cpath = %q\n"):format(package.path, package.cpath))
  f:write(code, "\nio.write('\\nISOLATED-END\\n')\n")
  f:close()
  -- io.popen runs sh on POSIX, cmd.exe on Windows (no `;`, no `$?`: delayed !ERRORLEVEL!)
  local shell = package.config:sub(1, 1) == "\\" and 'cmd /v:on /c "%s %s 2>&1 & echo EXIT=!ERRORLEVEL!"'
    or '%s %s 2>&1; echo "EXIT=$?"'
  local out
  for _ = 1, 2 do
    local p = assert(io.popen(shell:format(H.interpreter(), file), "r"))
    out = p:read("*a")
    p:close()
    -- Nothing at all, not even the shell's EXIT line, means the shell never ran (once in a CI
    -- run under wine, 2026-11-29, with three other jobs running): try once more. A child that
    -- fails still prints that line, and fails the check below.
    if out ~= "" then break end
  end
  os.remove(file)
  local ended = out:find("\nISOLATED-END\n", 1, true) ~= nil and out:find("\nEXIT=0\n", 1, true) ~= nil
  return ended, out
end

-- Resident memory of this process in KB (Linux /proc), or nil where it cannot be read. The core's
-- scratch memory is not seen by collectgarbage("count") on either VM (Lua 5.4: the core calls the
-- allocator directly; LuaJIT: malloc), so leaks of it show only here.
function H.rss_kb()
  local f = io.open("/proc/self/status", "r")
  if not f then return nil end
  local s = f:read("*a")
  f:close()
  return tonumber(s:match("VmRSS:%s*(%d+)"))
end

---------------------------------------------------------------------------------------------------
-- Library graphs built from H.random_graph's operations (shared by the graph specs).

function H.new_graph(directed)
  local astar = require "astar"
  assert(type(astar.graph) == "function" or type(astar.graph) == "table", "astar.graph is not available")
  return astar.graph({ directed = directed })
end

-- Replays H.random_graph's operations on a library graph.
function H.build_graph(ops, directed)
  local g = H.new_graph(directed)
  local n = 0
  for _, t in ipairs(ops) do
    local name = t[1]
    if name == "add_node" then
      local id
      if t[2] == nil then id = g:add_node()
      elseif t[4] == nil then id = g:add_node(t[2], t[3])
      else id = g:add_node(t[2], t[3], t[4]) end
      n = n + 1
      assert(id == n, ("add_node returned %s, expected %d"):format(tostring(id), n))
    elseif name == "add_edge" then
      if t[4] == nil then g:add_edge(t[2], t[3]) else g:add_edge(t[2], t[3], t[4]) end
    elseif name == "remove_edge" then
      assert(g:remove_edge(t[2], t[3]) == true, "remove_edge of an existing edge did not return true")
    elseif name == "set_edge_cost" then
      g:set_edge_cost(t[2], t[3], t[4])
    else
      g[name](g, t[2])
    end
  end
  return g
end


---------------------------------------------------------------------------------------------------
-- Specs collect failures and report the first few together.

-- Raises "N of M checks failed" with the first `most` (default 6) failure texts.
function H.report(fails, total, most)
  if #fails > 0 then
    local shown = {}
    for i = 1, math.min(#fails, most or 6) do shown[i] = fails[i] end
    error(("%d of %d checks failed; the first ones:\n\n%s"):format(#fails, total,
      table.concat(shown, "\n\n")), 0)
  end
end

-- The walkable cells {x, y} of a cells[y][x] description.
function H.open_cells(cells, w, h)
  local open = {}
  for y = 1, h do
    for x = 1, w do
      if cells[y][x] then open[#open + 1] = { x, y } end
    end
  end
  return open
end

---------------------------------------------------------------------------------------------------
-- Polygonal domains (navigation meshes): an independent geometric oracle. A domain is
-- {outline = {x1, y1, x2, y2, ...}, holes = {{...}, ...}} with flat coordinate lists in either
-- orientation; holes lie inside the outline, apart from it and from each other. The walkable set
-- is the closed domain (the boundary included). Domains are read-only once used: per-domain data
-- (edges, corners, visibility) is cached, keyed by the table.

local min, pi, cos, sin, huge = math.min, math.pi, math.cos, math.sin, math.huge

-- Twice the signed area of the triangle a b c (> 0 when c is left of a -> b).
local function cross(ax, ay, bx, by, cx, cy)
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
end

-- Distance from the point p to the closed segment a b.
function H.seg_dist(px, py, ax, ay, bx, by)
  local dx, dy = bx - ax, by - ay
  local len2 = dx * dx + dy * dy
  local t = 0
  if len2 > 0 then
    t = ((px - ax) * dx + (py - ay) * dy) / len2
    if t < 0 then t = 0 elseif t > 1 then t = 1 end
  end
  local qx, qy = ax + t * dx - px, ay + t * dy - py
  return sqrt(qx * qx + qy * qy)
end
local seg_dist = H.seg_dist

local function sign(v) return v > 0 and 1 or (v < 0 and -1 or 0) end

-- Is p (known to be on the line a b) within the segment's bounding box?
local function in_box(px, py, ax, ay, bx, by)
  return min(ax, bx) <= px and px <= max(ax, bx) and min(ay, by) <= py and py <= max(ay, by)
end

-- Do the closed segments p1 p2 and p3 p4 share a point (touching and collinear overlap included)?
local function segs_meet(x1, y1, x2, y2, x3, y3, x4, y4)
  local d1 = sign(cross(x3, y3, x4, y4, x1, y1))
  local d2 = sign(cross(x3, y3, x4, y4, x2, y2))
  local d3 = sign(cross(x1, y1, x2, y2, x3, y3))
  local d4 = sign(cross(x1, y1, x2, y2, x4, y4))
  if d1 * d2 < 0 and d3 * d4 < 0 then return true end
  return (d1 == 0 and in_box(x1, y1, x3, y3, x4, y4))
    or (d2 == 0 and in_box(x2, y2, x3, y3, x4, y4))
    or (d3 == 0 and in_box(x3, y3, x1, y1, x2, y2))
    or (d4 == 0 and in_box(x4, y4, x1, y1, x2, y2))
end

-- Distance between the closed segments p1 p2 and p3 p4 (0 when they meet).
function H.segseg_dist(x1, y1, x2, y2, x3, y3, x4, y4)
  if segs_meet(x1, y1, x2, y2, x3, y3, x4, y4) then return 0 end
  return min(seg_dist(x1, y1, x3, y3, x4, y4), seg_dist(x2, y2, x3, y3, x4, y4),
    seg_dist(x3, y3, x1, y1, x2, y2), seg_dist(x4, y4, x1, y1, x2, y2))
end
local segseg_dist = H.segseg_dist

-- The rings of a domain: the outline first, then the holes.
local function rings_of(dom)
  local out = { dom.outline }
  for i, hole in ipairs(dom.holes or {}) do out[i + 1] = hole end
  return out
end

-- Twice the signed area of a flat ring (> 0: counter-clockwise).
local function ring_area2(r)
  local n, a = #r / 2, 0
  for i = 1, n do
    local j = i % n + 1
    a = a + r[2 * i - 1] * r[2 * j] - r[2 * j - 1] * r[2 * i]
  end
  return a
end

-- Even-odd test: is (x, y) inside the flat ring? (Undecided on the ring itself.)
local function in_ring(r, x, y)
  local inside = false
  local n = #r / 2
  local jx, jy = r[2 * n - 1], r[2 * n]
  for i = 1, n do
    local ix, iy = r[2 * i - 1], r[2 * i]
    if (iy > y) ~= (jy > y) and x < ix + (y - iy) * (jx - ix) / (jy - iy) then
      inside = not inside
    end
    jx, jy = ix, iy
  end
  return inside
end
H.in_ring = in_ring

-- The boundary segments of a domain, each {ax, ay, bx, by}.
function H.domain_edges(dom)
  local edges = {}
  for _, r in ipairs(rings_of(dom)) do
    local n = #r / 2
    for i = 1, n do
      local j = i % n + 1
      edges[#edges + 1] = { r[2 * i - 1], r[2 * i], r[2 * j - 1], r[2 * j] }
    end
  end
  return edges
end

-- Per-domain cache: edges, and corners {x, y, reflex} where reflex means a shortest path may bend
-- there (a reflex corner of the free space), and memoised corner-to-corner visibility.
local dom_cache = setmetatable({}, { __mode = "k" })

local function info_of(dom)
  local info = dom_cache[dom]
  if info then return info end
  info = { edges = H.domain_edges(dom), corners = {}, vis = {} }
  for ri, r in ipairs(rings_of(dom)) do
    -- Walk each ring with the free space on its left (outline counter-clockwise, holes clockwise):
    -- then the free space's reflex corners are exactly the right turns.
    local dir = ((ri == 1) == (ring_area2(r) > 0)) and 1 or -1
    local n = #r / 2
    for i = 1, n do
      local p, q = (i - 2) % n + 1, i % n + 1
      local turn = dir * cross(r[2 * p - 1], r[2 * p], r[2 * i - 1], r[2 * i],
        r[2 * q - 1], r[2 * q])
      info.corners[#info.corners + 1] = { r[2 * i - 1], r[2 * i], turn < 0 }
    end
  end
  dom_cache[dom] = info
  return info
end

-- Distance from (x, y) to the domain's boundary.
function H.boundary_dist(dom, x, y)
  local best = huge
  for _, e in ipairs(info_of(dom).edges) do
    local d = seg_dist(x, y, e[1], e[2], e[3], e[4])
    if d < best then best = d end
  end
  return best
end

-- Is (x, y) in the closed domain: within `eps` (default 1e-9) of the boundary, or inside the
-- outline and outside every hole?
function H.in_domain(dom, x, y, eps)
  eps = eps or 1e-9
  if H.boundary_dist(dom, x, y) <= eps then return true end
  if not in_ring(dom.outline, x, y) then return false end
  for _, hole in ipairs(dom.holes or {}) do
    if in_ring(hole, x, y) then return false end
  end
  return true
end
local in_domain = H.in_domain

-- Does the closed segment a b stay in the closed domain? The segment is split at every boundary
-- vertex on it (within `eps`, default 1e-9) and every crossing with a boundary edge; between
-- splits each piece is wholly inside, outside or along an edge, so its midpoint decides. A proper
-- crossing of an edge's interior (all four ends more than eps off the other line) leaves at once.
function H.segment_in_domain(dom, ax, ay, bx, by, eps)
  eps = eps or 1e-9
  if not (in_domain(dom, ax, ay, eps) and in_domain(dom, bx, by, eps)) then return false end
  local dx, dy = bx - ax, by - ay
  local len2 = dx * dx + dy * dy
  if len2 == 0 then return true end
  local len = sqrt(len2)
  local ts = { 0, 1 }
  for _, e in ipairs(info_of(dom).edges) do
    local cx, cy, ex, ey = e[1], e[2], e[3], e[4]
    -- signed distances of the edge's ends from the segment's line
    local s1 = cross(ax, ay, bx, by, cx, cy) / len
    local s2 = cross(ax, ay, bx, by, ex, ey) / len
    if abs(s1) <= eps then
      -- vertex c lies on the line (each vertex starts exactly one edge)
      local t = ((cx - ax) * dx + (cy - ay) * dy) / len2
      if t > 0 and t < 1 then ts[#ts + 1] = t end
    end
    local elen = sqrt((ex - cx) ^ 2 + (ey - cy) ^ 2)
    if elen > 0 and s1 * s2 < 0 then
      -- signed distances of the segment's ends from the edge's line
      local s3 = cross(cx, cy, ex, ey, ax, ay) / elen
      local s4 = cross(cx, cy, ex, ey, bx, by) / elen
      if abs(s1) > eps and abs(s2) > eps and s3 * s4 < 0 and abs(s3) > eps and abs(s4) > eps then
        return false
      end
      if s3 ~= s4 then
        local t = s3 / (s3 - s4)
        if t > 0 and t < 1 then ts[#ts + 1] = t end
      end
    end
  end
  table.sort(ts)
  for i = 2, #ts do
    if ts[i] - ts[i - 1] > 1e-12 then
      local t = (ts[i] + ts[i - 1]) / 2
      if not in_domain(dom, ax + t * dx, ay + t * dy, eps) then return false end
    end
  end
  return true
end
local segment_in_domain = H.segment_in_domain

-- Length of a flat point list {x1, y1, x2, y2, ...}.
function H.flat_length(pts)
  local len = 0
  for i = 3, #pts - 1, 2 do
    len = len + sqrt((pts[i] - pts[i - 2]) ^ 2 + (pts[i + 1] - pts[i - 1]) ^ 2)
  end
  return len
end

-- Shortest Euclidean path in the closed domain from s to g: its length and its flat points, or
-- math.huge when an end is outside the domain (a domain as described above is connected). A* with
-- the straight-line heuristic over s, g and the free space's reflex corners (every corner with
-- `all_corners`), edges being the pairs whose segment stays in the domain, tested lazily.
function H.shortest_euclidean(dom, sx, sy, gx, gy, all_corners)
  if not (in_domain(dom, sx, sy) and in_domain(dom, gx, gy)) then return huge, nil end
  if segment_in_domain(dom, sx, sy, gx, gy) then
    return sqrt((gx - sx) ^ 2 + (gy - sy) ^ 2), { sx, sy, gx, gy }
  end
  local info = info_of(dom)
  local X, Y, id = { sx, gx }, { sy, gy }, {} -- node 1 = s, node 2 = g, others corners
  for k, c in ipairs(info.corners) do
    if all_corners or c[3] then
      X[#X + 1], Y[#Y + 1] = c[1], c[2]
      id[#X] = k
    end
  end
  local n, nc = #X, #info.corners
  local function visible(u, v)
    if id[u] and id[v] then
      local a, b = id[u], id[v]
      if a > b then a, b = b, a end
      local key = a * (nc + 1) + b
      local hit = info.vis[key]
      if hit == nil then
        hit = segment_in_domain(dom, X[u], Y[u], X[v], Y[v])
        info.vis[key] = hit
      end
      return hit
    end
    return segment_in_domain(dom, X[u], Y[u], X[v], Y[v])
  end
  local function d(u, v) return sqrt((X[v] - X[u]) ^ 2 + (Y[v] - Y[u]) ^ 2) end
  local g, prev, done = { [1] = 0 }, {}, {}
  while true do
    local u, best = nil, huge
    for v = 1, n do
      if g[v] and not done[v] then
        local f = g[v] + d(v, 2)
        if f < best then u, best = v, f end
      end
    end
    if u == nil then return huge, nil end
    if u == 2 then break end
    done[u] = true
    for v = 2, n do
      if not done[v] then
        local nd = g[u] + d(u, v)
        if (g[v] == nil or nd < g[v]) and visible(u, v) then g[v], prev[v] = nd, u end
      end
    end
  end
  local chain, v = {}, 2
  while v do
    table.insert(chain, 1, v)
    v = prev[v]
  end
  local pts = {}
  for _, u in ipairs(chain) do
    pts[#pts + 1], pts[#pts + 2] = X[u], Y[u]
  end
  return g[2], pts
end

-- Smallest distance between the path (flat points) and the domain's boundary, segment to segment.
function H.path_clearance(dom, pts)
  local best = huge
  if #pts == 2 then return H.boundary_dist(dom, pts[1], pts[2]) end
  for i = 1, #pts - 3, 2 do
    local ax, ay, bx, by = pts[i], pts[i + 1], pts[i + 2], pts[i + 3]
    for _, e in ipairs(info_of(dom).edges) do
      local dd = segseg_dist(ax, ay, bx, by, e[1], e[2], e[3], e[4])
      if dd < best then best = dd end
    end
  end
  return best
end

-- Is the flat ring simple: no zero-length edge, adjacent edges meet only at their shared vertex
-- and other edges do not meet at all?
function H.ring_is_simple(r)
  local n = #r / 2
  if n < 3 then return false end
  local function edge(i)
    local j = i % n + 1
    return r[2 * i - 1], r[2 * i], r[2 * j - 1], r[2 * j]
  end
  for i = 1, n do
    local x1, y1, x2, y2 = edge(i)
    if x1 == x2 and y1 == y2 then return false end
    for j = i + 1, n do
      local x3, y3, x4, y4 = edge(j)
      if j == i + 1 or (i == 1 and j == n) then
        -- adjacent: the far end of either must not lie on the other
        local fx, fy, ox1, oy1, ox2, oy2 = x4, y4, x1, y1, x2, y2
        if i == 1 and j == n then fx, fy = x3, y3 end
        if seg_dist(fx, fy, ox1, oy1, ox2, oy2) == 0 then return false end
        local gx, gy = x1, y1
        if i == 1 and j == n then gx, gy = x2, y2 end
        if seg_dist(gx, gy, x3, y3, x4, y4) == 0 then return false end
      elseif segs_meet(x1, y1, x2, y2, x3, y3, x4, y4) then
        return false
      end
    end
  end
  return true
end

-- Smallest distance between two flat rings' edges.
local function ring_gap(r1, r2)
  local best = huge
  local n1, n2 = #r1 / 2, #r2 / 2
  for i = 1, n1 do
    local i2 = i % n1 + 1
    for j = 1, n2 do
      local j2 = j % n2 + 1
      local dd = segseg_dist(r1[2 * i - 1], r1[2 * i], r1[2 * i2 - 1], r1[2 * i2],
        r2[2 * j - 1], r2[2 * j], r2[2 * j2 - 1], r2[2 * j2])
      if dd < best then best = dd end
    end
  end
  return best
end
H.ring_gap = ring_gap

-- Distance from (x, y) to a flat ring's edges.
local function ring_point_dist(r, x, y)
  local best, n = huge, #r / 2
  for i = 1, n do
    local j = i % n + 1
    best = min(best, seg_dist(x, y, r[2 * i - 1], r[2 * i], r[2 * j - 1], r[2 * j]))
  end
  return best
end

-- Coordinates on a 1/256 grid: exact in binary, so a domain prints and rebuilds exactly.
local function snap(v) return floor(v * 256 + 0.5) / 256 end

-- Points (local coordinates) of n vertices at increasing angles around the origin, radii in
-- [rmin, rmax] times `size`: a simple polygon, star-shaped about the origin.
local function star_points(rng, n, rmin, rmax, jitter)
  local pts, step, phase = {}, 2 * pi / n, 2 * pi * rng.float()
  for i = 0, n - 1 do
    local a = phase + step * (i + jitter * (rng.float() - 0.5))
    local rad = rmin + (rmax - rmin) * rng.float()
    pts[#pts + 1], pts[#pts + 2] = rad * cos(a), rad * sin(a)
  end
  return pts
end

-- Local points of a random hole shape about the origin, of extent about `s`.
local HOLE_SHAPES = {
  function(rng, s) return star_points(rng, 3, 0.6 * s, s, 0.4) end, -- triangle
  function(rng, s) -- rectangle
    local w, h = s * (0.3 + 0.7 * rng.float()), s * (0.3 + 0.7 * rng.float())
    return { -w, -h, w, -h, w, h, -w, h }
  end,
  function(rng, s) return star_points(rng, rng.int(5, 9), 0.35 * s, s, 0.5) end, -- star
  function(rng, s) -- L
    local a, b = s * (0.8 + 0.8 * rng.float()), s * (0.8 + 0.8 * rng.float())
    local t = min(a, b) * (0.3 + 0.3 * rng.float())
    local cx, cy = a / 2, b / 2
    return { -cx, -cy, a - cx, -cy, a - cx, t - cy, t - cx, t - cy, t - cx, b - cy, -cx, b - cy }
  end,
  function(rng, s) -- U, with a pocket open on one side
    local w, h = s * (1 + 0.8 * rng.float()), s * (0.8 + 0.8 * rng.float())
    local t = w * (0.15 + 0.15 * rng.float())
    local cx, cy = w / 2, h / 2
    return { -cx, -cy, w - cx, -cy, w - cx, h - cy, w - t - cx, h - cy, w - t - cx, t - cy,
      t - cx, t - cy, t - cx, h - cy, -cx, h - cy }
  end,
}

-- Local points rotated by `angle`, moved to (cx, cy), snapped, and reversed half of the time.
local function place(rng, pts, angle, cx, cy)
  local c, s = cos(angle), sin(angle)
  local out = {}
  for i = 1, #pts - 1, 2 do
    local x, y = pts[i], pts[i + 1]
    out[i], out[i + 1] = snap(cx + c * x - s * y), snap(cy + s * x + c * y)
  end
  if rng.float() < 0.5 then
    local rev = {}
    for i = #out - 1, 1, -2 do rev[#rev + 1], rev[#rev + 2] = out[i], out[i + 1] end
    out = rev
  end
  return out
end

-- Bounding box of a flat ring.
function H.ring_box(r)
  local x0, y0, x1, y1 = huge, huge, -huge, -huge
  for i = 1, #r - 1, 2 do
    x0, x1 = min(x0, r[i]), max(x1, r[i])
    y0, y1 = min(y0, r[i + 1]), max(y1, r[i + 1])
  end
  return x0, y0, x1, y1
end

-- Adds `hole` to `holes` if it stays `margin` from the outline and from every other hole, and
-- neither holds the other; returns whether it did.
local function keep_hole(hole, outline, holes, margin)
  if ring_gap(hole, outline) < margin then return false end
  for _, other in ipairs(holes) do
    if ring_gap(hole, other) < margin or in_ring(other, hole[1], hole[2])
        or in_ring(hole, other[1], other[2]) then
      return false
    end
  end
  holes[#holes + 1] = hole
  return true
end

-- A random connected polygonal map: an outline (a rectangle, or a star-shaped polygon of 8-16
-- vertices) of extent 20..100 units, and holes (triangles, rectangles, stars, L and U shapes,
-- rotated) kept `margin` (default 1.5) from the outline and from each other. opts: min_holes
-- (default 1), max_holes (6), margin.
function H.random_domain(rng, opts)
  opts = opts or {}
  local margin = opts.margin or 1.5
  local outline
  if rng.float() < 0.35 then
    local w, h = 20 + 80 * rng.float(), 20 + 80 * rng.float()
    local x0, y0 = snap(100 * rng.float() - 50), snap(100 * rng.float() - 50)
    outline = { x0, y0, snap(x0 + w), y0, snap(x0 + w), snap(y0 + h), x0, snap(y0 + h) }
    if rng.float() < 0.5 then outline = { outline[7], outline[8], outline[5], outline[6],
      outline[3], outline[4], outline[1], outline[2] } end
  else
    local R = 10 + 40 * rng.float()
    local pts = star_points(rng, rng.int(8, 16), R * (0.45 + 0.4 * rng.float()), R, 0.6)
    outline = place(rng, pts, 0, snap(100 * rng.float() - 50), snap(100 * rng.float() - 50))
  end
  local x0, y0, x1, y1 = H.ring_box(outline)
  local extent = min(x1 - x0, y1 - y0)
  local holes = {}
  local want = rng.int(opts.min_holes or 1, opts.max_holes or 6)
  for _ = 1, want do
    for _ = 1, 60 do
      local s = extent * (0.06 + 0.16 * rng.float())
      local shape = HOLE_SHAPES[rng.int(1, #HOLE_SHAPES)]
      local hole = place(rng, shape(rng, s), 2 * pi * rng.float(),
        x0 + (x1 - x0) * rng.float(), y0 + (y1 - y0) * rng.float())
      if H.ring_is_simple(hole) and in_ring(outline, hole[1], hole[2])
          and keep_hole(hole, outline, holes, margin) then
        break
      end
    end
  end
  return { outline = outline, holes = holes }
end

-- A random point of the domain at least `clearance` (default 0) from its boundary.
function H.random_domain_point(rng, dom, clearance)
  clearance = clearance or 0
  local x0, y0, x1, y1 = H.ring_box(dom.outline)
  for _ = 1, 100000 do
    local x, y = x0 + (x1 - x0) * rng.float(), y0 + (y1 - y0) * rng.float()
    if in_domain(dom, x, y, 0) and H.boundary_dist(dom, x, y) >= clearance then return x, y end
  end
  error(("random_domain_point: no point with clearance %g found"):format(clearance))
end

-- A random point strictly inside hole `k` (at least `depth`, default 0.05, from its edges), or nil.
function H.random_hole_point(rng, dom, k, depth)
  local hole = dom.holes[k]
  local x0, y0, x1, y1 = H.ring_box(hole)
  for _ = 1, 10000 do
    local x, y = x0 + (x1 - x0) * rng.float(), y0 + (y1 - y0) * rng.float()
    if in_ring(hole, x, y) and ring_point_dist(hole, x, y) >= (depth or 0.05) then
      return x, y
    end
  end
  return nil
end

-- A random domain made for the exact search's hard cases: an axis-aligned room whose holes are
-- rectangles with their sides on a few shared lines (so walls of different holes line up into
-- long collinear runs, and ways that graze one corner graze several), and needles (thin long
-- rectangles, which the triangulation turns into sliver triangles). Holes stay 'margin' (default
-- 0.25) apart from each other and from the outline.
function H.random_degenerate_domain(rng, opts)
  opts = opts or {}
  local margin = opts.margin or 0.25
  local W, Hh = rng.int(20, 60), rng.int(20, 60)
  local x0, y0 = rng.int(-30, 30), rng.int(-30, 30)
  local outline = { x0, y0, x0 + W, y0, x0 + W, y0 + Hh, x0, y0 + Hh }
  local xs, ys = {}, {}                            -- the shared lines
  for i = 1, rng.int(3, 6) do xs[i] = x0 + rng.int(2, W - 2) end
  for i = 1, rng.int(3, 6) do ys[i] = y0 + rng.int(2, Hh - 2) end
  local holes = {}
  for _ = 1, rng.int(opts.min_holes or 2, opts.max_holes or 10) do
    for _ = 1, 40 do
      local ax, bx = rng.pick(xs), rng.pick(xs)
      local ay, by = rng.pick(ys), rng.pick(ys)
      if rng.float() < 0.3 then                    -- a needle along one of the lines
        local thin = snap(0.02 + 0.1 * rng.float())
        if rng.float() < 0.5 then bx = ax + thin else by = ay + thin end
      end
      if ax > bx then ax, bx = bx, ax end
      if ay > by then ay, by = by, ay end
      if bx > ax and by > ay then
        if keep_hole({ ax, ay, bx, ay, bx, by, ax, by }, outline, holes, margin) then break end
      end
    end
  end
  return { outline = outline, holes = holes }
end

-- A domain as Lua source (every number exactly), for failure reports.
function H.fmt_domain(dom)
  local function ring(r)
    local out = {}
    for i, v in ipairs(r) do out[i] = ("%.17g"):format(v) end
    return "{ " .. table.concat(out, ", ") .. " }"
  end
  local hs = {}
  for i, hole in ipairs(dom.holes or {}) do hs[i] = ring(hole) end
  return ("{ outline = %s,\n  holes = { %s } }"):format(ring(dom.outline),
    table.concat(hs, ",\n    "))
end

return H
