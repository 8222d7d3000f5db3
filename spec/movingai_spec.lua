-- Moving AI: the parsers on small inline texts, then every scenario of three benchmark maps
-- against the published optimal lengths (README tolerance). ASTAR_SCEN_LIMIT=n: first n per map.

local astar = require "astar"
local H = require "spec.helper"

local function tmpfile(text)
  local name = os.tmpname()
  local f = assert(io.open(name, "wb"))
  f:write(text)
  f:close()
  return name
end

local function assert_cells(g, cells, w, h)
  local gw, gh = g:size()
  assert.are.same({ w, h }, { gw, gh })
  for y = 1, h do
    for x = 1, w do
      assert.are.equal(cells[y][x], g:get(x, y), ("get(%d, %d)"):format(x, y))
    end
  end
end

local MAP = "type octile\nheight 3\nwidth 4\nmap\n.@.G\nTS.O\n..W.\n"
local MAP_CELLS = {
  { 1, false, 1, 1 },
  { false, 1, 1, false },
  { 1, 1, false, 1 },
}

describe("astar.grid.parse_movingai", function()
  it("reads height before width, '.', 'G', 'S' walkable, '@', 'O', 'T', 'W' blocked", function()
    assert_cells(astar.grid.parse_movingai(MAP), MAP_CELLS, 4, 3)
  end)

  it("accepts CRLF line ends and a missing final newline", function()
    assert_cells(astar.grid.parse_movingai((MAP:gsub("\n", "\r\n"))), MAP_CELLS, 4, 3)
    assert_cells(astar.grid.parse_movingai((MAP:gsub("\n$", ""))), MAP_CELLS, 4, 3)
  end)

  it("puts file cell (0, 0) at grid cell (1, 1)", function()
    local g = astar.grid.parse_movingai("type octile\nheight 2\nwidth 2\nmap\n.@\n@@\n")
    assert.are.equal(1, g:get(1, 1))
    assert.are.equal(false, g:get(2, 1))
    assert.are.equal(false, g:get(1, 2))
  end)

  it("gives a grid that searches under the Moving AI rule by default", function()
    -- ..
    -- @.   the diagonal (1,1)->(2,2) cuts the corner at (1,2): 2 orthogonal steps instead
    local g = astar.grid.parse_movingai("type octile\nheight 2\nwidth 2\nmap\n..\n@.\n")
    local p = assert(g:find(1, 1, 2, 2))
    assert.are.equal(2, p:cost())
    assert.are.equal(3, #p)
  end)
end)

describe("astar.grid.load_movingai", function()
  it("reads a file like parse_movingai reads its text", function()
    local name = tmpfile((MAP:gsub("\n", "\r\n")))
    local g, msg = astar.grid.load_movingai(name)
    os.remove(name)
    assert.is_not_nil(g, msg)
    assert_cells(g, MAP_CELLS, 4, 3)
  end)
end)

local SCEN = "version 1\n" ..
  "0\tmaps/dao/x.map\t4\t3\t0\t0\t3\t2\t3.82843\n" ..
  "1\tmaps/dao/x.map\t4\t3\t3\t0\t0\t2\t4.41421\n"
local SCEN_WANT = {
  { bucket = 0, map = "maps/dao/x.map", width = 4, height = 3, sx = 1, sy = 1, gx = 4, gy = 3,
    optimal = 3.82843 },
  { bucket = 1, map = "maps/dao/x.map", width = 4, height = 3, sx = 4, sy = 1, gx = 1, gy = 3,
    optimal = 4.41421 },
}

describe("astar.parse_scenarios", function()
  it("reads the tab-separated form, coordinates converted to 1-based", function()
    assert.are.same(SCEN_WANT, astar.parse_scenarios(SCEN))
  end)

  it("reads 'version 1.0' with single spaces (the BG dialect) and CRLF", function()
    local text = SCEN:gsub("version 1", "version 1.0"):gsub("\t", " ")
    assert.are.same(SCEN_WANT, astar.parse_scenarios(text))
    assert.are.same(SCEN_WANT, astar.parse_scenarios((text:gsub("\n", "\r\n"))))
    assert.are.same(SCEN_WANT, astar.parse_scenarios((SCEN:gsub("\n", "\r\n"))))
  end)

  it("accepts a missing final newline and a header with no problems", function()
    assert.are.same(SCEN_WANT, astar.parse_scenarios((SCEN:gsub("\n$", ""))))
    assert.are.same({}, astar.parse_scenarios("version 1\n"))
  end)

  it("keeps a map column without directory and 8-decimal lengths", function()
    local s = astar.parse_scenarios("version 1\n3\tBerlin_1_256.map\t256\t256\t10\t20\t30\t40\t12.34567891\n")
    assert.are.same({ { bucket = 3, map = "Berlin_1_256.map", width = 256, height = 256, sx = 11, sy = 21,
      gx = 31, gy = 41, optimal = 12.34567891 } }, s)
  end)

  it("load_scenarios reads a file like parse_scenarios reads its text", function()
    local name = tmpfile(SCEN)
    local s, msg = astar.load_scenarios(name)
    os.remove(name)
    assert.is_not_nil(s, msg)
    assert.are.same(SCEN_WANT, s)
  end)
end)

describe("Moving AI benchmarks", function()
  local dir = H.movingai_dir()
  if not dir then
    pending("benchmarks not found: set ASTAR_MOVINGAI or put them at ../shared/benchmarks/movingai")
    return
  end
  local limit = H.scen_limit()

  -- Every map with the default ("auto": jump point search on these maps of one cost), then
  -- prepared ("jps+": grid:prepare(), then the default again), three with A* as well, one
  -- with "jps" by name. On the maze (11 960 scenarios: A* takes 100 s on LuaJIT) A* checks
  -- every 8th, the others every 2nd, unless ASTAR_SCEN_FULL is set. None reopens a closed
  -- cell: the heuristic is consistent, and a way cheaper only by rounding is not cheaper.
  local RUNS = {
    { "dao/arena2", { "auto", "astar", "jps", "jps+" } },
    { "dao/brc202d", { "auto", "astar", "jps+" } },
    { "mazes/maze512-1-0", { "auto", "astar", "jps+" }, stride = { astar = 8, auto = 2, ["jps+"] = 2 } },
    { "dao/orz900d", { "auto", "jps+" } },
    { "sc1/TheFrozenSea", { "auto", "jps+" } }, { "rooms/32room_000", { "auto", "jps+" } },
    { "random/random512-10-0", { "auto", "jps+" } }, { "bg512/AR0011SR", { "auto", "jps+" } },
    { "cities/Berlin_1_256", { "auto", "jps+" } },
  }
  for _, run in ipairs(RUNS) do
    local name, algs = run[1], run[2]
    local strides = not os.getenv("ASTAR_SCEN_FULL") and run.stride or {}
    describe(name, function()
      local map_path, scen_path = dir .. "/" .. name .. ".map", dir .. "/" .. name .. ".map.scen"
      local cells, w, h -- our own reading of the map
      local grid, scen, mine

      local function load()
        if grid then return end
        cells, w, h = H.read_movingai_map(map_path)
        local msg
        grid, msg = astar.grid.load_movingai(map_path)
        assert.is_not_nil(grid, msg)
        scen, msg = astar.load_scenarios(scen_path)
        assert.is_not_nil(scen, msg)
        mine = H.read_scen(scen_path)
      end
      -- let go of the map: kept, its 100 MB of tables made every later full collection of a
      -- whole suite's run slow (a spec that collected per step took 127 s on Lua 5.1)
      teardown(function()
        if grid then grid:close() end
        cells, grid, scen, mine = nil, nil, nil, nil
      end)

      it("loads the map cell for cell", function()
        load()
        local gw, gh = grid:size()
        assert.are.same({ w, h }, { gw, gh })
        local bad = 0
        for y = 1, h do
          for x = 1, w do
            if grid:get(x, y) ~= cells[y][x] then
              bad = bad + 1
              assert.are.equal(cells[y][x], grid:get(x, y), ("cell (%d, %d)"):format(x, y))
            end
          end
        end
        assert.are.equal(0, bad)
      end)

      it("loads every scenario", function()
        load()
        assert.are.equal(#mine, #scen)
        for i, m in ipairs(mine) do
          local s = scen[i]
          for _, k in ipairs({ "bucket", "map", "width", "height", "sx", "sy", "gx", "gy", "optimal" }) do
            assert.are.equal(m[k], s[k], ("scenario %d field %s"):format(i, k))
          end
        end
      end)

      for _, alg in ipairs(algs) do
        local jumps = alg ~= "astar"
        local want_alg = alg == "jps+" and "jps+" or jumps and "jps" or "astar"
        it(("finds every scenario's optimal length with algorithm %q"):format(alg)
          .. (limit and (" (first " .. limit .. ")") or "")
          .. (strides[alg] and (" (every " .. strides[alg] .. ")") or "")
          .. (jumps and ", legal steps" or ""),
          function()
            load()
            if alg == "jps+" then assert.is_true(grid:prepare() > 0) end
            local n = limit and math.min(limit, #mine) or #mine
            local stride = strides[alg] or 1
            local every = math.max(1, math.ceil(n / stride / 1500)) -- steps checked on 1500 of them
            local seen = 0
            local fails = {}
            for i = 1, n, stride do
              seen = seen + 1
              local s = mine[i]
              local p, msg, code = grid:find(s.sx, s.sy, s.gx, s.gy,
                { algorithm = alg == "jps+" and "auto" or alg })
              local tol, listed = H.scen_tolerance(s.optimal_text)
              local at = ("line %d: (%d,%d)->(%d,%d): "):format(s.line, s.sx, s.sy, s.gx, s.gy)
              if not p then
                fails[#fails + 1] = at .. tostring(msg) .. " " .. tostring(code)
              elseif math.abs(p:cost() - listed) > tol then
                fails[#fails + 1] = at .. ("cost %.17g, listed %s (tolerance %g)"):format(p:cost(),
                  s.optimal_text, tol)
              elseif p:stats().algorithm ~= want_alg then
                fails[#fails + 1] = at .. "stats().algorithm " .. p:stats().algorithm
              elseif p:stats().reopened ~= 0 then -- octile is consistent: only rounding could
                fails[#fails + 1] = at .. p:stats().reopened .. " cells reopened"
              elseif jumps and seen % every == 0 then
                local ok, sum = pcall(H.check_path, cells, w, h, p, s.sx, s.sy, s.gx, s.gy)
                if not ok or not H.close(sum, p:cost()) then
                  fails[#fails + 1] = at .. (ok and ("steps sum to %.17g"):format(sum) or tostring(sum))
                end
              end
            end
            if #fails > 0 then
              error(("%d of %d scenarios failed, e.g.:\n%s"):format(#fails, n,
                table.concat(fails, "\n", 1, math.min(10, #fails))), 0)
            end
            assert.is_true(n > 0)
          end)
      end

      it("gives legal A* paths whose cost is the sum of their steps", function()
        load()
        local n = limit and math.min(limit, #mine) or #mine
        local picks = { 1, n }
        for k = 1, 8 do picks[#picks + 1] = math.max(1, math.floor(n * k / 9)) end
        for _, i in ipairs(picks) do
          local s = mine[i]
          local p = assert(grid:find(s.sx, s.sy, s.gx, s.gy, { algorithm = "astar" }))
          local sum = H.check_path(cells, w, h, p, s.sx, s.sy, s.gx, s.gy, "no_corner_cutting")
          assert.is_true(H.close(sum, p:cost()), ("line %d: steps sum to %.17g, cost() %.17g"):format(
            s.line, sum, p:cost()))
          local tol, listed = H.scen_tolerance(s.optimal_text)
          assert.is_true(math.abs(sum - listed) <= tol, ("line %d: %.17g vs %s"):format(s.line, sum,
            s.optimal_text))
        end
      end)
    end)
  end
end)
