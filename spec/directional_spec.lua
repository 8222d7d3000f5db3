-- Directional A* (grid:find with algorithm = "directional") against a reference of this file:
-- the same lattice of moves (astar.curve's Dubins curves, checked on their own in
-- curve_spec.lua, between cell centres), with each move's legality found by sampling points
-- along it every 0.04 and measuring their distance to every blocked square, and a plain
-- Dijkstra over the poses. The library sweeps chords instead and refuses moves within 1e-3 of
-- a wall, so the reference runs twice: permissive (a disc of the radius) and strict (0.025
-- wider); the library's cost must lie between the two, and equal both where they agree.
-- Every returned path is also driven here: the disc never overlaps a blocked cell, and the
-- heading never turns faster than the turning radius allows.
local astar = require "astar"
local H = require "spec.helper"

local pi, sqrt, floor, abs, min, max = math.pi, math.sqrt, math.floor, math.abs, math.min, math.max
local TWO_PI = 2 * pi
local STEP, WIDER = 0.04, 0.025

-- Distance from point (px, py) to the square of cell (i, j) (centre (i, j), side 1).
local function dsquare(px, py, i, j)
  local dx = max(i - 0.5 - px, 0, px - i - 0.5)
  local dy = max(j - 0.5 - py, 0, py - j - 0.5)
  return sqrt(dx * dx + dy * dy)
end

-- Adds the cells within r of point (px, py) to perm (r = 0: the squares it is in or on), and
-- those within r + WIDER to strict.
local function cells_near(px, py, r, perm, strict)
  local R = r + WIDER
  for j = floor(py - R + 0.5), floor(py + R + 0.5) do
    for i = floor(px - R + 0.5), floor(px + R + 0.5) do
      local d = dsquare(px, py, i, j)
      if d < R then
        local k = j * 4096 + i
        strict[k] = strict[k] or { i, j }
        if (r == 0 and d == 0) or (r > 0 and d < r - 1e-12) then perm[k] = strict[k] end
      end
    end
  end
end

-- A move sampled: from pose (x0, y0, h0) to (x1, y1, h1) driven in direction dir. Returns its
-- cells for radius r (permissive) and r + WIDER (strict), its pieces {x, y, len} (midpoints),
-- its length and the radians it turns.
local function sample_move(x0, y0, h0, x1, y1, h1, dir, turn, r)
  local flip = dir < 0 and pi or 0
  local c = astar.curve(x0, y0, h0 + flip, x1, y1, h1 + flip, turn)
  local len, turned = c:length(), 0
  for _, seg in ipairs(c:segments()) do
    if seg[1] ~= "S" then turned = turned + seg[2] / turn end
  end
  local n = math.max(1, math.ceil(len / STEP))
  local perm, strict, pieces = {}, {}, {}
  local px, py = c:sample(0)
  cells_near(px, py, r, perm, strict)
  local pts = { px, py }
  local chords = 0
  for k = 1, n do
    local x, y = c:sample(len * k / n)
    cells_near(x, y, r, perm, strict)
    pts[#pts + 1], pts[#pts + 2] = x, y
    chords = chords + sqrt((x - px) ^ 2 + (y - py) ^ 2)
    px, py = x, y
  end
  -- each chord cut where it crosses a cell's side, each piece priced by the cell it is in
  local scale = chords > 0 and len / chords or 0
  for k = 3, #pts, 2 do
    local ax, ay, bx, by = pts[k - 2], pts[k - 1], pts[k], pts[k + 1]
    local ts = { 0, 1 }
    for _, axis in ipairs({ { ax, bx }, { ay, by } }) do
      local a, b = axis[1], axis[2]
      if a ~= b then
        for m = math.ceil(min(a, b) - 0.5), floor(max(a, b) - 0.5) do
          local t = (m + 0.5 - a) / (b - a)
          if t > 0 and t < 1 then ts[#ts + 1] = t end
        end
      end
    end
    table.sort(ts)
    local l = sqrt((bx - ax) ^ 2 + (by - ay) ^ 2) * scale
    for i = 2, #ts do
      local tm = (ts[i - 1] + ts[i]) / 2
      pieces[#pieces + 1] = { ax + tm * (bx - ax), ay + tm * (by - ay), (ts[i] - ts[i - 1]) * l }
    end
  end
  local function list(set)
    local l = {}
    for _, v in pairs(set) do l[#l + 1] = v end
    return l
  end
  return { perm = list(perm), strict = list(strict), pieces = pieces, len = len, turn = turned }
end

-- The lattice of the parameters: moves[a][t][b][d] from the centre (0, 0) facing heading a.
local function lattice(P)
  local L = { targets = {} }
  for dy = -P.reach, P.reach do
    for dx = -P.reach, P.reach do
      if dx ~= 0 or dy ~= 0 then L.targets[#L.targets + 1] = { dx, dy } end
    end
  end
  L.dirs = P.reverse and { 1, -1 } or { 1 }
  L.moves = {}
  for a = 0, P.headings - 1 do
    L.moves[a] = {}
    for t, off in ipairs(L.targets) do
      L.moves[a][t] = {}
      for b = 0, P.headings - 1 do
        L.moves[a][t][b] = {}
        for _, d in ipairs(L.dirs) do
          L.moves[a][t][b][d] = sample_move(0, 0, TWO_PI * a / P.headings, off[1], off[2],
            TWO_PI * b / P.headings, d, P.turn, P.radius)
        end
      end
    end
  end
  return L
end

local function free(cells, w, h, x, y)
  return x >= 1 and y >= 1 and x <= w and y <= h and cells[y][x] ~= false
end

-- The cost of move m from cell (x, y), or nil if it is not legal ('which': perm or strict).
local function move_cost(cells, w, h, x, y, m, which, P, dir)
  for _, c in ipairs(m[which]) do
    if not free(cells, w, h, x + c[1], y + c[2]) then return nil end
  end
  local sum = 0
  for _, p in ipairs(m.pieces) do                 -- between samples, a corner of a cell
    local cx, cy = x + floor(p[1] + 0.5), y + floor(p[2] + 0.5)
    if not free(cells, w, h, cx, cy) then return nil end
    sum = sum + p[3] * cells[cy][cx]
  end
  return sum * (dir < 0 and P.reverse or 1) + P.turn_cost * m.turn
end

local function lattice_heading(P, hd)
  if hd == nil then return nil end
  local u = (hd % TWO_PI) / (TWO_PI / P.headings)
  local k = floor(u + 0.5)
  if abs(u - k) * TWO_PI / P.headings <= 1e-9 then return k % P.headings end
  return false
end

-- The reference's cheapest costs from (sx, sy, sh) (sh nil: any heading): a function of the
-- goal (gx, gy, gh) (gh nil: any heading), nil where there is no path.
local function reference(cells, w, h, P, L, sx, sy, sh, which)
  local HN = P.headings
  local function key(x, y, k) return ((y - 1) * w + (x - 1)) * HN + k end
  local function unkey(v)
    local c = floor(v / HN)
    return c % w + 1, floor(c / w) + 1, v % HN
  end
  local sk = lattice_heading(P, sh)
  local function flown(x0, y0, h0, x1, y1, h1, emit, to)   -- worked out in place
    for _, d in ipairs(L.dirs) do
      local c = move_cost(cells, w, h, 0, 0, sample_move(x0, y0, h0, x1, y1, h1, d, P.turn,
        P.radius), which, P, d)
      if c then emit(to, c) end
    end
  end
  local function succ(u, emit)
    if u == "S" then
      for _, off in ipairs(L.targets) do
        for b = 0, HN - 1 do
          if free(cells, w, h, sx + off[1], sy + off[2]) then
            flown(sx, sy, sh, sx + off[1], sy + off[2], TWO_PI * b / HN, emit,
              key(sx + off[1], sy + off[2], b))
          end
        end
      end
      return
    end
    local x, y, a = unkey(u)
    for t, off in ipairs(L.targets) do
      for b = 0, HN - 1 do
        for _, d in ipairs(L.dirs) do
          local c = move_cost(cells, w, h, x, y, L.moves[a][t][b][d], which, P, d)
          if c then emit(key(x + off[1], y + off[2], b), c) end
        end
      end
    end
  end
  local starts = {}
  if sk == nil then
    for k = 0, HN - 1 do starts[#starts + 1] = { key(sx, sy, k), 0 } end
  else
    starts[1] = { sk == false and "S" or key(sx, sy, sk), 0 }
  end
  local dist = H.dijkstra_generic(starts, succ)
  return function(gx, gy, gh)
    local gk = lattice_heading(P, gh)
    if gk == nil and sx == gx and sy == gy then return 0 end
    if gk ~= false then
      local best
      for k = 0, HN - 1 do
        local v = dist[key(gx, gy, k)]
        if v and (gk == nil or gk == k) and (best == nil or v < best) then best = v end
      end
      return best
    end
    local best                    -- off the lattice's headings: the last move worked out
    local function arrive(_, c, g0)
      if best == nil or g0 + c < best then best = g0 + c end
    end
    for u, g0 in pairs(dist) do
      local x, y, hd
      if u == "S" then x, y, hd = sx, sy, sh
      else
        local a
        x, y, a = unkey(u)
        hd = TWO_PI * a / HN
      end
      if abs(gx - x) <= P.reach and abs(gy - y) <= P.reach then
        flown(x, y, hd, gx, gy, gh, function(to, c) arrive(to, c, g0) end, "G")
      end
    end
    return best
  end
end

-- Drives the path at small steps: the unit fits everywhere and turns no tighter than P.turn;
-- it starts and ends at the poses asked for.
local function check_drive(cells, w, h, P, path, sx, sy, sh, gx, gy, gh)
  local len = path:length()
  local x0, y0, h0 = path:sample(0)
  assert(abs(x0 - sx) < 1e-9 and abs(y0 - sy) < 1e-9, "path starts off the start")
  if sh then assert(abs((h0 - sh + pi) % TWO_PI - pi) < 1e-9, "start heading") end
  local n = math.ceil(len / 0.01)
  local ph = h0
  for k = 0, n do
    local s = len * k / n
    local x, y, hd = path:sample(s)
    for j = floor(y - P.radius - 1), floor(y + P.radius + 1) do
      for i = floor(x - P.radius - 1), floor(x + P.radius + 1) do
        if not free(cells, w, h, i, j) then
          local d = dsquare(x, y, i, j)
          assert(d >= P.radius - 1e-6 and d > 0,
            ("the unit at (%.4f, %.4f) overlaps blocked cell (%d, %d) by %.6f"):format(x, y, i, j,
              P.radius - d))
        end
      end
    end
    if k > 0 then
      local ds, dh = len / n, abs((hd - ph + pi) % TWO_PI - pi)   -- driven, either way
      assert(dh <= ds / P.turn * 1.001 + 1e-6,
        ("turns %.5f rad in %.5f at (%.3f, %.3f): tighter than radius %g"):format(dh, ds, x, y, P.turn))
    end
    ph = hd
  end
  local x1, y1, h1 = path:sample(len)
  assert(abs(x1 - gx) < 1e-6 and abs(y1 - gy) < 1e-6, "path ends off the goal")
  local segs = path:segments()
  for i = 1, #path - 1 do            -- each move's curve joins pose i to pose i + 1
    local c = path:curve(i)
    for e = 0, 1 do
      local px, py, phd = path:get(i + e)
      local cx, cy, chd = c:sample(e * c:length())
      assert(abs(cx - px) < 1e-6 and abs(cy - py) < 1e-6 and abs((chd - phd + pi) % TWO_PI - pi) < 1e-6,
        ("move %d's curve misses pose %d"):format(i, i + e))
    end
    assert(H.close(c:length(), segs[i][2], 1e-12) and c:word() == segs[i][1])
    for _, cs in ipairs(c:segments()) do
      assert(cs[3] == segs[i][3], "a move goes one way: " .. c:word())
    end
  end
  if gh then assert(abs((h1 - gh + pi) % TWO_PI - pi) < 1e-6, "goal heading") end
end

local function grid_of(cells, w, h)
  local g = astar.grid(w, h)
  for y = 1, h do for x = 1, w do g:set(x, y, cells[y][x]) end end
  return g
end

-- A random w x h map (blocked with a probability picked from ps, costs picked from costs) and
-- its grid, with a start and a goal on walkable cells of cost 1.
local function random_map(rng, w, h, ps, costs)
  local cells = H.random_cells(rng, w, h, rng.pick(ps), costs)
  local g = grid_of(cells, w, h)
  local sx, sy, gx, gy = rng.int(1, w), rng.int(1, h), rng.int(1, w), rng.int(1, h)
  cells[sy][sx], cells[gy][gx] = 1, 1
  g:set(sx, sy, 1)
  g:set(gx, gy, 1)
  return cells, g, sx, sy, gx, gy
end

describe("directional search", function()
  local SETS = {
    { headings = 8, reach = 1, turn = 1, radius = 0, turn_cost = 0 },
    { headings = 8, reach = 1, turn = 0.6, radius = 0.3, turn_cost = 0.5 },
    { headings = 8, reach = 1, turn = 1.5, radius = 0.2, turn_cost = 0, reverse = 1.5 },
  }

  it("costs what an independent search of the same lattice costs, on random maps", function()
    local rng, other = H.rng(20261127), H.rng(7)
    local agree, between, found, none = 0, 0, 0, 0
    for si, P in ipairs(SETS) do
      local L = lattice(P)
      for _ = 1, H.trials(8) do
        local w, h = rng.int(5, 8), rng.int(5, 8)
        local weighted = rng.float() < 0.4
        local cells = H.random_cells(rng, w, h, rng.pick({ 0.1, 0.2, 0.3 }),
          weighted and { 1, 2, 5 } or { 1 })
        local g = grid_of(cells, w, h)
        local sx, sy = rng.int(1, w), rng.int(1, h)
        cells[sy][sx] = cells[sy][sx] or 1
        g:set(sx, sy, cells[sy][sx])
        local r = rng.float()
        local sh = r < 0.3 and nil or r < 0.8 and TWO_PI * rng.int(0, 7) / 8 or rng.float() * 7
        local goals = {}
        for i = 1, 4 do
          local gx, gy = rng.int(1, w), rng.int(1, h)
          cells[gy][gx] = cells[gy][gx] or 1
          g:set(gx, gy, cells[gy][gx])
          local q = rng.float()
          goals[i] = { gx, gy, q < 0.3 and nil or q < 0.8 and TWO_PI * rng.int(0, 7) / 8 or rng.float() * 7 }
        end
        local lo_of = reference(cells, w, h, P, L, sx, sy, sh, "perm")
        local hi_of = reference(cells, w, h, P, L, sx, sy, sh, "strict")
        for _, goal in ipairs(goals) do
          local gx, gy, gh = goal[1], goal[2], goal[3]
          local opts = { algorithm = "directional", turning = P.turn, radius = P.radius,
            headings = P.headings, neighborhood = P.reach == 1 and 8 or 24,
            turn_cost = P.turn_cost, reverse = P.reverse, heading = sh, goal_heading = gh }
          -- a search from elsewhere first: what it leaves on the grid must not matter
          g:find(other.int(1, w), other.int(1, h), gx, gy, { algorithm = "directional", turning = P.turn,
            radius = P.radius, headings = P.headings, neighborhood = P.reach == 1 and 8 or 24,
            turn_cost = P.turn_cost, reverse = P.reverse })
          local path, msg, code = g:find(sx, sy, gx, gy, opts)
          local lo, hi = lo_of(gx, gy, gh), hi_of(gx, gy, gh)
          local ctx = ("set %d, %dx%d, (%d,%d,%s) -> (%d,%d,%s)\n%s"):format(si, w, h, sx, sy,
            tostring(sh), gx, gy, tostring(gh), H.fmt_cells(cells, w, h))
          if code == "blocked" then
            assert(P.radius > 0, "blocked with radius 0: " .. tostring(msg) .. "\n" .. ctx)
          elseif path == nil then
            none = none + 1
            assert.are.equal("no_path", code, ctx)
            assert(hi == nil, ("no path, but the strict reference has one of %s\n%s")
              :format(tostring(hi), ctx))
            if lo == nil then agree = agree + 1 end
          else
            found = found + 1
            local c = path:cost()
            local tol = weighted and 2e-3 or 1e-6
            assert(lo ~= nil and c >= lo * (1 - tol) - 1e-9,
              ("cost %s below the permissive reference %s\n%s"):format(c, tostring(lo), ctx))
            if hi ~= nil then
              assert(c <= hi * (1 + tol) + 1e-9,
                ("cost %.9g above the strict reference %.9g\n%s"):format(c, hi, ctx))
            end
            if hi ~= nil and H.close(lo, hi, 1e-12) then
              agree = agree + 1
              assert(H.close(c, lo, tol), ("cost %.9g, reference %.9g\n%s"):format(c, lo, ctx))
            else
              between = between + 1
            end
            if #path > 1 then check_drive(cells, w, h, P, path, sx, sy, sh, gx, gy, gh) end
          end
        end
        g:close()
      end
    end
    assert(found > H.trials(25) and none > 0 and agree > 0.8 * (found + none),
      ("found %d, none %d, agree %d, between %d"):format(found, none, agree, between))
  end)

  it("never costs more with more moves (24 and 48 cells around, 16 headings), every path legal",
    function()
    local rng = H.rng(77)
    local compared = 0
    for _ = 1, H.trials(10) do
      local w, h = rng.int(8, 14), rng.int(8, 14)
      local cells, g, sx, sy, gx, gy = random_map(rng, w, h, { 0.05, 0.15, 0.25 }, { 1, 1, 3 })
      local P = { turn = rng.pick({ 0.7, 1, 2 }), radius = rng.pick({ 0, 0.25 }), turn_cost = 0.1 }
      local sh, gh = TWO_PI * rng.int(0, 7) / 8, rng.float() < 0.5 and TWO_PI * rng.int(0, 7) / 8 or nil
      local last
      for _, v in ipairs({ { 8, 8 }, { 24, 8 }, { 48, 8 }, { 48, 16 } }) do
        local path = g:find(sx, sy, gx, gy, { algorithm = "directional", turning = P.turn,
          radius = P.radius, turn_cost = P.turn_cost, neighborhood = v[1], headings = v[2],
          heading = sh, goal_heading = gh })
        if last then
          assert(path ~= nil, ("%d/%d finds no path where fewer moves found one"):format(v[1], v[2]))
          assert(path:cost() <= last * (1 + 1e-9), ("%d/%d costs %.9g, fewer moves %.9g")
            :format(v[1], v[2], path:cost(), last))
          compared = compared + 1
        end
        if path then
          if #path > 1 then check_drive(cells, w, h, P, path, sx, sy, sh, gx, gy, gh) end
          last = path:cost()
        end
      end
      g:close()
    end
    assert(compared >= H.trials(5), "compared " .. compared)
  end)

  it("finds Pinter's Figure 8 situation: the turn is blocked, the unit loops round", function()
    local rows = { "################" }
    for _ = 2, 9 do rows[#rows + 1] = "#..............#" end
    for _ = 10, 13 do rows[#rows + 1] = "#######.########" end
    rows[#rows + 1] = "################"
    local g = astar.grid.parse(table.concat(rows, "\n"), { ["#"] = false, ["."] = 1 })
    local cells = {}
    for y = 1, #rows do
      cells[y] = {}
      for x = 1, 16 do cells[y][x] = g:get(x, y) end
    end
    -- facing west at (6, 9), to go down the shaft at x = 8: the shortest turn hits the wall
    local direct = astar.curve(6, 9, pi, 8, 13, pi / 2, 2)
    local hits = false
    for k = 0, 400 do
      local x, y = direct:sample(direct:length() * k / 400)
      if not free(cells, 16, 14, floor(x + 0.5), floor(y + 0.5)) then hits = true end
    end
    assert.is_true(hits)
    local path = g:find(6, 9, 8, 13, { algorithm = "directional", turning = 2, heading = pi,
      goal_heading = pi / 2 })
    assert.is_truthy(path)
    check_drive(cells, 16, 14, { turn = 2, radius = 0 }, path, 6, 9, pi, 8, 13, pi / 2)
    local turned = 0
    for i = 1, #path - 1 do
      for _, s in ipairs(path:curve(i):segments()) do
        if s[1] ~= "S" then turned = turned + s[2] / 2 end
      end
    end
    assert(turned > 1.5 * pi - 1e-6, ("turned %.1f degrees: no loop"):format(turned * 180 / pi))
    assert.is_true(path:cost() > g:find(6, 9, 8, 13, { algorithm = "astar" }):cost() + 6)
  end)

  it("finds Pinter's Figure 12 situations: no path with Directional-8, a legal one with -24",
    function()
    local rng = H.rng(12)
    local found = 0
    for _ = 1, H.trials(40) do
      local w, h = rng.int(8, 12), rng.int(8, 12)
      local cells, g, sx, sy, gx, gy = random_map(rng, w, h, { 0.1, 0.2 }, { 1 })
      local opts = { algorithm = "directional", turning = 1.5, neighborhood = 8, heading = 0 }
      local d8 = g:find(sx, sy, gx, gy, opts)
      opts.neighborhood = 24
      local d24 = g:find(sx, sy, gx, gy, opts)
      if d8 then assert(d24, "Directional-24 misses a path Directional-8 finds") end
      if d24 and not d8 then
        found = found + 1
        check_drive(cells, w, h, { turn = 1.5, radius = 0 }, d24, sx, sy, 0, gx, gy, nil)
      end
      g:close()
    end
    assert(found >= H.trials(2), "Directional-24 found where -8 could not: " .. found)
  end)

  it("answers a goal the unit cannot turn into without searching the whole map", function()
    -- an open room, and the goal down a shaft one cell wide that bends: a turning radius of 2
    -- cannot take the bend, though every cell is walkable and the cells connect
    local rows = { ("#"):rep(30) }
    for _ = 2, 17 do rows[#rows + 1] = "#" .. ("."):rep(28) .. "#" end
    rows[#rows + 1] = "#####.########################"
    rows[#rows + 1] = "#####.########################"
    rows[#rows + 1] = "#####......###################"
    rows[#rows + 1] = ("#"):rep(30)
    local w, h = 30, #rows
    local g = astar.grid.parse(table.concat(rows, "\n"), { ["#"] = false, ["."] = 1 })
    local cells = {}
    for y = 1, h do
      cells[y] = {}
      for x = 1, w do cells[y][x] = g:get(x, y) end
    end
    local P = { headings = 8, reach = 1, turn = 2, radius = 0, turn_cost = 0 }
    local L = lattice(P)
    -- independently: the poses with a move (legal for the permissive reference) into a pose
    -- at the goal, and so on back; no pose of the room is among them
    local gx, gy, HN = 11, 20, P.headings
    local seen, list = {}, {}
    for k = 0, HN - 1 do list[#list + 1] = { gx, gy, k }; seen[(gy * w + gx) * HN + k] = true end
    local i = 1
    while list[i] do
      local x, y, b = list[i][1], list[i][2], list[i][3]
      for t, off in ipairs(L.targets) do
        local px, py = x - off[1], y - off[2]
        for a = 0, HN - 1 do
          local key = (py * w + px) * HN + a
          if not seen[key] and free(cells, w, h, px, py) and
            move_cost(cells, w, h, px, py, L.moves[a][t][b][1], "perm", P, 1) then
            seen[key] = true
            list[#list + 1] = { px, py, a }
          end
        end
      end
      i = i + 1
    end
    for _, v in ipairs(list) do assert(v[2] >= 18, "the room reaches the goal") end
    assert.is_true(#list >= 3 and #list < 64)
    assert.is_truthy(g:find(4, 4, 6, 19, { algorithm = "astar" }))
    local opts = { algorithm = "directional", turning = 2, neighborhood = 8 }
    local path, _, code = g:find(4, 4, gx, gy, opts)
    assert.is_nil(path)
    assert.are.equal("no_path", code)
    local q = g:query(4, 4, gx, gy, opts)
    while q:step(100) == "running" do end
    local poses = 28 * 16 * HN       -- what the search would close to learn it
    assert(q:stats().expanded < poses / 4,
      ("expanded %d poses of the room's %d"):format(q:stats().expanded, poses))
    -- and where the unit can go in, it does
    path = g:find(4, 4, 6, 19, opts)
    assert.is_truthy(path)
    check_drive(cells, w, h, P, path, 4, 4, nil, 6, 19, nil)
    g:close()
  end)

  it("drives wide turns (a radius of 15 cells: its moves are checked row by row, not framed)",
    function()
    local rng = H.rng(5)
    local drove = 0
    for _ = 1, H.trials(4) do
      local w, h = 90, 50
      local cells = H.random_cells(rng, w, h, 0.01, { 1, 2 })
      local g = grid_of(cells, w, h)
      local sx, sy, gx, gy = rng.int(2, 10), rng.int(20, 30), rng.int(80, 89), rng.int(20, 30)
      for _, c in ipairs({ { sx, sy }, { gx, gy } }) do cells[c[2]][c[1]] = 1; g:set(c[1], c[2], 1) end
      local P = { turn = 15, radius = 0.3 }
      local path = g:find(sx, sy, gx, gy, { algorithm = "directional", turning = 15, radius = 0.3,
        neighborhood = 8, heading = 0 })
      if path then
        drove = drove + 1
        check_drive(cells, w, h, P, path, sx, sy, 0, gx, gy, nil)
        assert(path:length() >= sqrt((gx - sx) ^ 2 + (gy - sy) ^ 2) - 1e-9)
      end
      g:close()
    end
    assert(drove >= H.trials(2), "drove " .. drove)
  end)

  it("hybrid: never costlier than directional, shots included, every path legal", function()
    local rng = H.rng(2008)
    local compared, shorter = 0, 0
    for _ = 1, math.max(H.trials(12), 10) do
      local w, h = rng.int(15, 30), rng.int(10, 20)
      local cells, g, sx, sy, gx, gy = random_map(rng, w, h, { 0.02, 0.08, 0.15 }, { 1, 1, 2 })
      local r = rng.float()
      local gh = r < 0.4 and nil or r < 0.7 and TWO_PI * rng.int(0, 7) / 8 or rng.float() * 6
      local P = { turn = rng.pick({ 1, 2, 3 }), radius = rng.pick({ 0, 0.3 }), turn_cost = 0 }
      local opts = { algorithm = "directional", turning = P.turn, radius = P.radius,
        heading = rng.float() * 6, goal_heading = gh, reverse = rng.float() < 0.3 and 1.5 or nil }
      local d = g:find(sx, sy, gx, gy, opts)
      opts.algorithm = "hybrid"
      local hy, _, code = g:find(sx, sy, gx, gy, opts)
      if d then
        assert(hy, "hybrid finds no path where directional does: " .. tostring(code))
        assert(hy:cost() <= d:cost() * (1 + 1e-9), ("hybrid %.9g, directional %.9g"):format(hy:cost(), d:cost()))
        compared = compared + 1
        if hy:cost() < d:cost() * (1 - 1e-6) then shorter = shorter + 1 end
      end
      if hy then
        assert.are.equal("hybrid", hy:stats().algorithm)
        if #hy > 1 then check_drive(cells, w, h, P, hy, sx, sy, opts.heading, gx, gy, gh) end
      end
      g:close()
    end
    assert(compared >= H.trials(5) and shorter > 0, ("compared %d, shorter %d"):format(compared, shorter))
  end)

  it("hybrid: the heuristic never overestimates with shots (costs equal Dijkstra's)", function()
    local rng = H.rng(33)
    local compared = 0
    for i = 1, H.trials(60) do
      local w, h = rng.int(12, 24), rng.int(12, 24)
      local _, g, sx, sy, gx, gy = random_map(rng, w, h, { 0, 0.05, 0.1 }, { 1 })
      local turning = i % 4 == 0 and 0.25 or 4
      local opts = { algorithm = "hybrid", turning = turning, neighborhood = turning < 1 and 48 or 24,
        heading = rng.float() * 6, goal_heading = rng.float() < 0.5 and rng.float() * 6 or nil }
      local a = g:find(sx, sy, gx, gy, opts)
      opts.heuristic = "zero"
      local b = g:find(sx, sy, gx, gy, opts)
      assert.are.equal(a == nil, b == nil)
      if a then
        assert(H.close(a:cost(), b:cost(), 1e-9), ("hybrid %.9g, with Dijkstra %.9g"):format(a:cost(), b:cost()))
        compared = compared + 1
      end
      g:close()
    end
    assert(compared >= H.trials(30), "compared " .. compared)
  end)

  it("a unit of radius 0.5 fits a corridor one cell wide and starts at the border", function()
    local g = astar.grid.parse("##########\n#........#\n##########", { ["#"] = false, ["."] = 1 })
    local p = g:find(2, 2, 9, 2, { algorithm = "directional", radius = 0.5, heading = 0 })
    assert.is_truthy(p)
    assert.is_true(H.close(p:cost(), 7, 1e-12))
    local open = astar.grid(12, 12)
    assert.is_truthy(open:find(1, 1, 12, 12, { algorithm = "directional", radius = 0.5 }))
    assert.is_truthy(open:find(1, 1, 12, 1, { algorithm = "hybrid", radius = 0.5, heading = 0,
      goal_heading = 0 }))
  end)

  it("runs time-sliced as a query, restarts after edits, and a walker drives its path", function()
    local g = astar.grid(30, 20)
    g:fill(12, 1, 2, 14, false)
    local opts = { algorithm = "directional", turning = 2, heading = 0, goal_heading = pi / 2 }
    local want = g:find(3, 3, 25, 3, opts)
    local q = g:query(3, 3, 25, 3, opts)
    local steps = 0
    while q:step(5) == "running" do steps = steps + 1 end
    assert.is_true(steps > 3)
    local got = q:result()
    assert.are.equal(want:cost(), got:cost())
    local q2 = g:query(3, 3, 25, 3, opts)
    q2:step(5)
    g:set(20, 10, false)
    while q2:step(50) == "running" do end
    assert.is_true(q2:stats().restarts >= 1)
    local cells = {}
    for y = 1, 20 do
      cells[y] = {}
      for x = 1, 30 do cells[y][x] = g:get(x, y) end
    end
    check_drive(cells, 30, 20, { turn = 2, radius = 0 }, q2:result(), 3, 3, 0, 25, 3, pi / 2)
    local walker = astar.follow(want, 4)
    local x, y
    for _ = 1, 1000 do x, y = walker:update(0.1) end
    assert.is_true(walker:arrived())
    assert.is_true(abs(x - 25) < 1e-9 and abs(y - 3) < 1e-9)
    local _, _, hd = want:sample(want:length())
    assert.is_true(abs(hd - pi / 2) < 1e-9)
    assert.are.equal(#want:segments(), #want - 1)
    assert.are.equal("directional", want:stats().algorithm)
    local flat = want:flat(0.5)
    assert.is_true(#flat >= 2 * want:length() / 0.5)
    local gp = astar.grid(5, 5):find(1, 1, 5, 5)     -- a walker still walks a grid path
    local wx, wy = astar.follow(gp, 1):update(100)
    assert.are.same({ 5, 5 }, { wx, wy })
    assert.has_error(function() gp:length() end,
      "length: only a path of poses has moves (algorithm 'directional')")
  end)

  it("refuses what it cannot do, with the option's name", function()
    local g = astar.grid(10, 10)
    local function err(opts, want)
      local ok, msg = pcall(g.find, g, 1, 1, 9, 9, opts)
      assert.is_false(ok)
      assert(tostring(msg):find(want, 1, true), ("%q lacks %q"):format(tostring(msg), want))
      assert.is_truthy(g:find(1, 1, 9, 9, { algorithm = "directional" }))   -- still usable
    end
    err({ heading = 0 }, "option 'heading' needs algorithm 'directional'")
    err({ algorithm = "astar", turning = 2 }, "option 'turning' needs algorithm 'directional'")
    err({ algorithm = "directional", diagonal = "never" },
      "option 'diagonal' cannot be used with algorithm 'directional'")
    err({ algorithm = "directional", cost = function() return 1 end },
      "option 'cost' cannot be used with algorithm 'directional'")
    err({ algorithm = "directional", size = 2 }, "option 'size' cannot be used")
    err({ algorithm = "directional", headings = 12 }, "option 'headings' must be 8 or 16, got 12")
    err({ algorithm = "directional", neighborhood = 9 },
      "option 'neighborhood' must be 8, 24 or 48, got 9")
    err({ algorithm = "directional", turning = 0 }, "option 'turning': must be a positive finite")
    err({ algorithm = "directional", turning = 17 }, "option 'turning' must be at most 16 cells")
    err({ algorithm = "directional", turning = 0 / 0 }, "option 'turning'")
    err({ algorithm = "directional", heading = 0 / 0 }, "option 'heading': must be a finite number")
    err({ algorithm = "directional", goal_heading = math.huge }, "option 'goal_heading'")
    err({ algorithm = "directional", reverse = 0.5 }, "option 'reverse': a cost factor must be")
    err({ algorithm = "directional", reverse = "yes" }, "option 'reverse': boolean or number")
    err({ algorithm = "directional", turn_cost = -1 }, "option 'turn_cost'")
    err({ algorithm = "directional", turn_cost = 1e200 }, "option 'turn_cost' is too large")
    err({ algorithm = "directional", radius = 5 }, "option 'radius' must be at most 4 cells")
    err({ algorithm = "directional", heuristic = "octile" },
      "algorithm 'directional' takes 'euclidean' or 'zero'")
    err({ algorithm = "directional", heuristic = function() return 0 end },
      "algorithm 'directional' takes 'euclidean' or 'zero'")
    local hex = astar.hexgrid(5, 5)
    assert.has_error(function() hex:find(1, 1, 3, 3, { algorithm = "directional" }) end)
    g:fill(1, 2, 3, 1, false)
    local p, msg, code = g:find(1, 1, 9, 9, { algorithm = "directional", radius = 0.6 })
    assert.is_nil(p)
    assert.are.equal("blocked", code)
    assert.are.equal("start (1, 1) is blocked or too near a blocked cell for the radius", msg)
    g:set(9, 9, false)
    p, msg, code = g:find(1, 1, 9, 9, { algorithm = "directional" })
    assert.is_nil(p)
    assert.are.equal("blocked", code)
    assert.are.equal("goal (9, 9) is blocked", msg)
    g:set(9, 9, 1)
    g:fill(8, 8, 3, 1, false)
    g:fill(8, 9, 1, 2, false)
    p, msg, code = g:find(1, 1, 10, 10, { algorithm = "directional" })
    assert.is_nil(p)
    assert.are.equal("no_path", code, msg)
    p = g:find(1, 1, 10, 1, { algorithm = "directional", max_expansions = 3, partial = true })
    assert.is_truthy(p)
  end)
end)
