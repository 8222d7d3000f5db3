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

function H.dijkstra_all(cells, w, h, sx, sy, diagonal)
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
          if not done[v] then
            local nd = d + step_cost(cells, vx, vy, dx, dy)
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
function H.dijkstra(cells, w, h, sx, sy, gx, gy, diagonal)
  if not walk(cells, w, h, sx, sy) or not walk(cells, w, h, gx, gy) then return nil end
  return H.dijkstra_all(cells, w, h, sx, sy, diagonal)[(gy - 1) * w + gx]
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
function H.check_path(cells, w, h, path, sx, sy, gx, gy, diagonal)
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
    cost = cost + step_cost(cells, x2, y2, dx, dy)
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

return H
