-- Bad input to every public function. Exact messages where the README gives them, otherwise the
-- `bad argument #n to 'name'` prefix (run with ASTAR_PRINT_ERRORS=1 to see the actual texts).
-- After every error the shared grid must still answer a query correctly.

local astar = require "astar"
local H = require "spec.helper"

local NAN, INF = 0 / 0, math.huge
local NEGNAN = -(0 / 0) -- the other sign bit: both must print as "nan"

local W, HT = 10, 8
local CELLS = H.random_cells(H.rng(2024), W, HT, 0.2, { 1, 1, 2, 0.5 })
CELLS[1][1], CELLS[HT][W], CELLS[1][W], CELLS[HT][1] = 1, 1, 1, 1
local REF = {}
for _, pol in ipairs(H.POLICIES) do REF[pol] = H.dijkstra(CELLS, W, HT, 1, 1, W, HT, pol) end

local grid -- the shared grid every error is thrown at

local function still_ok()
  for _, pol in ipairs(H.POLICIES) do
    local p, msg, code = grid:find(1, 1, W, HT, { diagonal = pol })
    if REF[pol] then
      assert.is_not_nil(p, "after an error: " .. tostring(msg) .. " " .. tostring(code))
      assert.is_true(H.close(REF[pol], p:cost()), "after an error the cost is " .. p:cost())
      H.check_path(CELLS, W, HT, p, 1, 1, W, HT, pol)
    else
      assert.are.equal("no_path", code)
    end
  end
  for y = 1, HT do
    for x = 1, W do
      assert.are.equal(CELLS[y][x], grid:get(x, y), ("after an error get(%d, %d)"):format(x, y))
    end
  end
end

-- exact message, then the grid must still work
local function E(msg, f, ...)
  H.checkerr(msg, f, ...)
  still_ok()
end

-- message prefix, then the grid must still work
local function P(prefix, f, ...)
  H.checkerr_prefix(prefix, f, ...)
  still_ok()
end

local function tmpfile(text)
  local name = os.tmpname()
  local f = assert(io.open(name, "wb"))
  f:write(text)
  f:close()
  return name
end

describe("errors", function()
  before_each(function()
    grid = grid or astar.grid.from_table(CELLS)
  end)

  it("the shared grid is sound to begin with", function()
    still_ok()
  end)

  describe("astar.grid", function()
    it("rejects bad sizes", function()
      local g = "bad argument #1 to 'grid'"
      local g2 = "bad argument #2 to 'grid'"
      P(g, astar.grid)
      P(g, astar.grid, nil, 3)
      P(g, astar.grid, "a", 3)
      P(g, astar.grid, {}, 3)
      P(g2, astar.grid, 3)
      P(g2, astar.grid, 3, nil)
      P(g2, astar.grid, 3, "a")
      for _, bad in ipairs({ 0, -1, 1.5, NAN, INF, -INF }) do
        P(g, astar.grid, bad, 3)
        P(g2, astar.grid, 3, bad)
      end
    end)

    it("rejects sizes over 2^28 cells without trying to allocate them", function()
      for _, wh in ipairs({
        { 1e6, 1e6 }, { 2 ^ 28 + 1, 1 }, { 1, 2 ^ 28 + 1 }, { 2 ^ 16, 2 ^ 13 }, { 2 ^ 31, 2 ^ 31 },
        { 2 ^ 32, 1 }, { 2 ^ 32 + 1, 2 ^ 32 + 1 }, { 2 ^ 53, 2 ^ 53 }, { 2 ^ 62, 4 },
      }) do
        local ok, msg = pcall(astar.grid, wh[1], wh[2])
        assert.is_false(ok, ("astar.grid(%.17g, %.17g) succeeded"):format(wh[1], wh[2]))
        assert.are.equal("string", type(msg))
        assert.is_truthy(msg:find("bad argument #", 1, true) == 1 and msg:find(" to 'grid' (", 1, true),
          msg)
        H.seen_messages[#H.seen_messages + 1] = msg
        if os.getenv("ASTAR_PRINT_ERRORS") then io.stderr:write("  [msg] ", msg, "\n") end
        still_ok()
      end
    end)

    it("rejects bad fill costs", function()
      for _, bad in ipairs({ 0, -1, NAN, INF, -INF, "a", { tile = 0 }, { 1 } }) do
        P("bad argument #3 to 'grid'", astar.grid, 3, 3, bad)   -- a table is the world frame
      end
    end)
  end)

  describe("astar.grid.parse", function()
    local legend = { ["#"] = false, ["."] = 1 }
    it("rejects bad text", function()
      P("bad argument #1 to 'parse'", astar.grid.parse, nil, legend)
      P("bad argument #1 to 'parse'", astar.grid.parse, {}, legend)
      P("bad argument #1 to 'parse'", astar.grid.parse, "..\n.", legend)       -- ragged
      P("bad argument #1 to 'parse'", astar.grid.parse, ".\n..\n", legend)     -- ragged
      P("bad argument #1 to 'parse'", astar.grid.parse, "..\n\n..", legend)    -- empty row
      P("bad argument #1 to 'parse'", astar.grid.parse, "", legend)            -- no rows
      P("bad argument #1 to 'parse'", astar.grid.parse, "\n", legend)
    end)

    it("rejects a character missing from the legend", function()
      P("bad argument #", astar.grid.parse, "..x.", legend)
      P("bad argument #", astar.grid.parse, "..\n.~", legend)
      P("bad argument #", astar.grid.parse, "..\t", legend)
    end)

    it("rejects a bad legend", function()
      local l2 = "bad argument #2 to 'parse'"
      P(l2, astar.grid.parse, "..", nil)
      P(l2, astar.grid.parse, "..", "#.")
      P(l2, astar.grid.parse, "..", { ["."] = 1, ["##"] = false })
      for _, bad in ipairs({ 0, -1, NAN, INF, "a", {} }) do
        P(l2, astar.grid.parse, "..", { ["."] = bad })
      end
    end)
  end)

  describe("astar.grid.from_table", function()
    local f1 = "bad argument #1 to 'from_table'"
    it("rejects bad rows", function()
      P(f1, astar.grid.from_table, nil)
      P(f1, astar.grid.from_table, "rows")
      P(f1, astar.grid.from_table, {})                   -- no rows
      P(f1, astar.grid.from_table, { {} })               -- no columns
      P(f1, astar.grid.from_table, { { 1, 1 }, { 1 } })   -- ragged
      P(f1, astar.grid.from_table, { { 1 }, { 1, 1 } })
      P(f1, astar.grid.from_table, { 1, 2 })             -- rows are not tables
      P(f1, astar.grid.from_table, { { 1, 1 }, "xx" })
    end)

    it("rejects bad cell values without f", function()
      for _, bad in ipairs({ 0, -1, NAN, INF, -INF, "a", {} }) do
        P(f1, astar.grid.from_table, { { 1, 1 }, { 1, bad } })
      end
    end)

    it("rejects bad results of f", function()
      for _, bad in ipairs({ 0, -1, NAN, INF, "a", {} }) do
        P("bad argument #", astar.grid.from_table, { { 1, 1 }, { 1, 1 } }, function(_, x, y)
          if x == 2 and y == 2 then return bad end
          return 1
        end)
      end
    end)

    it("passes an error raised by f through unchanged", function()
      local sentinel = {}
      local ok, err = pcall(astar.grid.from_table, { { 1, 1 } }, function() error(sentinel) end)
      assert.is_false(ok)
      assert.are.equal(sentinel, err)
      ok, err = pcall(astar.grid.from_table, { { 1, 1 } }, function() error("oops", 0) end)
      assert.is_false(ok)
      assert.are.equal("oops", err)
      still_ok()
    end)
  end)

  describe("Moving AI loaders", function()
    local MAP = "type octile\nheight 2\nwidth 3\nmap\n.@.\n...\n"
    it("load_movingai returns nil, message, 'io' for a file that cannot be read", function()
      local g, msg, code = astar.grid.load_movingai("/nonexistent/dir/no.map")
      assert.is_nil(g)
      assert.are.equal("string", type(msg))
      assert.are.equal("io", code)
      still_ok()
    end)

    it("load_movingai rejects a bad path argument", function()
      P("bad argument #1 to 'load_movingai'", astar.grid.load_movingai, nil)
      P("bad argument #1 to 'load_movingai'", astar.grid.load_movingai, {})
    end)

    it("load_movingai raises on a malformed file", function()
      local name = tmpfile("type octile\nheight 2\nwidth 3\nmap\n.@.\n..\n")
      local ok, msg = pcall(astar.grid.load_movingai, name)
      os.remove(name)
      assert.is_false(ok, "a malformed map file was accepted")
      assert.are.equal("string", type(msg))
      H.seen_messages[#H.seen_messages + 1] = msg
      if os.getenv("ASTAR_PRINT_ERRORS") then io.stderr:write("  [msg] ", msg, "\n") end
      still_ok()
    end)

    it("parse_movingai raises on malformed text", function()
      local p1 = "bad argument #1 to 'parse_movingai'"
      P(p1, astar.grid.parse_movingai, nil)
      P(p1, astar.grid.parse_movingai, "")
      P(p1, astar.grid.parse_movingai, (MAP:gsub("type octile\n", "")))           -- no type
      P(p1, astar.grid.parse_movingai, (MAP:gsub("height 2", "height x")))
      P(p1, astar.grid.parse_movingai, (MAP:gsub("width 3", "width -3")))
      P(p1, astar.grid.parse_movingai, (MAP:gsub("width 3", "width 0")))
      P(p1, astar.grid.parse_movingai, (MAP:gsub("height 2", "height 0")))
      P(p1, astar.grid.parse_movingai, (MAP:gsub("\nmap\n", "\nmop\n")))
      P(p1, astar.grid.parse_movingai, (MAP:gsub("width 3", "width 4")))            -- rows too short
      P(p1, astar.grid.parse_movingai, (MAP:gsub("width 3", "width 2")))            -- rows too long
      P(p1, astar.grid.parse_movingai, (MAP:gsub("height 2", "height 3")))          -- too few rows
      P(p1, astar.grid.parse_movingai, (MAP:gsub("%.@%.", ".X.")))                  -- unknown char
      P(p1, astar.grid.parse_movingai, "type octile\nheight 100000\nwidth 100000\nmap\n")
      P(p1, astar.grid.parse_movingai, "type octile\nheight 99999999999\nwidth 99999999999\nmap\n")
      P(p1, astar.grid.parse_movingai, "type octile\nheight 2.5\nwidth 3\nmap\n.@.\n...\n")
      -- sides with no integer representation (found by fuzz/fuzz_grid_text.c)
      P(p1, astar.grid.parse_movingai, "type octile\nheight 1e20\nwidth 3\nmap\n.@.\n")
      P(p1, astar.grid.parse_movingai, "type octile\nheight 1\nwidth 1e300\nmap\n.@.\n")
    end)

    it("parse_scenarios raises on malformed text", function()
      local p1 = "bad argument #1 to 'parse_scenarios'"
      local ok_line = "0\tmaps/x.map\t3\t2\t0\t0\t2\t1\t2.41421\n"
      P(p1, astar.parse_scenarios, nil)
      P(p1, astar.parse_scenarios, ok_line)                                    -- no version line
      P(p1, astar.parse_scenarios, "version 1\n0\tmaps/x.map\t3\t2\t0\t0\t2\t1\n") -- 8 fields
      P(p1, astar.parse_scenarios, "version 1\n0\tmaps/x.map\t3\t2\t0\t0\t2\t1\t2.4\t7\n") -- 10
      P(p1, astar.parse_scenarios, "version 1\n0\tmaps/x.map\t3\t2\ta\t0\t2\t1\t2.4\n")
      P(p1, astar.parse_scenarios, "version 1\n0\tmaps/x.map\t3\t2\t0\t0\t2\t1\tlong\n")
      P(p1, astar.parse_scenarios, "version 1\n0\tmaps/x.map\t3\t2\t-1\t0\t2\t1\t2.4\n")
      P(p1, astar.parse_scenarios, "version 1\n0\tmaps/x.map\t3\t2\t0.5\t0\t2\t1\t2.4\n")
    end)

    it("load_scenarios rejects a bad path argument", function()
      P("bad argument #1 to 'load_scenarios'", astar.load_scenarios, nil)
    end)
  end)

  describe("grid:get / set / walkable", function()
    it("reject bad coordinates", function()
      for _, name in ipairs({ "get", "walkable", "set" }) do
        local f = grid[name]
        local a1 = "bad argument #1 to '" .. name .. "'"
        local a2 = "bad argument #2 to '" .. name .. "'"
        P(a1, f, grid, nil, 1, 1)
        P(a1, f, grid, "a", 1, 1)
        P(a2, f, grid, 1, nil, 1)
        P(a2, f, grid, 1, {}, 1)
        for _, bad in ipairs({ 0, -1, W + 1, 1.5, NAN, INF, -INF, 2 ^ 53, 1e300 }) do
          P(a1, f, grid, bad, 1, 1)
        end
        for _, bad in ipairs({ 0, -1, HT + 1, 1.5, NAN, INF, -INF, -2 ^ 53 }) do
          P(a2, f, grid, 1, bad, 1)
        end
      end
    end)

    it("set rejects bad values with the README's message", function()
      E("bad argument #3 to 'set' (cost must be a positive finite number or false, got -1)",
        grid.set, grid, 2, 2, -1)
      for _, bad in ipairs({ 0, -0.5, NAN, INF, -INF, "a", {}, nil }) do
        P("bad argument #3 to 'set' (", grid.set, grid, 2, 2, bad)
      end
      P("bad argument #3 to 'set' (", grid.set, grid, 2, 2)
    end)
  end)

  describe("grid:fill", function()
    local F = function(prefix, ...) P(prefix, grid.fill, grid, ...) end
    it("rejects bad arguments", function()
      F("bad argument #1 to 'fill'", nil, 1, 1, 1, 1)
      F("bad argument #1 to 'fill'", 0, 1, 1, 1, 1)
      F("bad argument #1 to 'fill'", 1.5, 1, 1, 1, 1)
      F("bad argument #2 to 'fill'", 1, 0, 1, 1, 1)
      F("bad argument #2 to 'fill'", 1, NAN, 1, 1, 1)
      F("bad argument #3 to 'fill'", 1, 1, nil, 1, 1)
      F("bad argument #3 to 'fill'", 1, 1, -1, 1, 1)
      F("bad argument #3 to 'fill'", 1, 1, 1.5, 1, 1)
      F("bad argument #4 to 'fill'", 1, 1, 1, -2, 1)
      F("bad argument #4 to 'fill'", 1, 1, 1, INF, 1)
      F("bad argument #5 to 'fill'", 1, 1, 1, 1, -1)
      F("bad argument #5 to 'fill'", 1, 1, 1, 1, 0)
      F("bad argument #5 to 'fill'", 1, 1, 1, 1, NAN)
      F("bad argument #5 to 'fill'", 1, 1, 1, 1, nil)
      F("bad argument #5 to 'fill'", 1, 1, 1, 1, "a")
    end)

    it("rejects rectangles reaching outside the grid, changing nothing", function()
      for _, r in ipairs({
        { 1, 1, W + 1, 1 }, { 1, 1, 1, HT + 1 }, { W, HT, 2, 1 }, { W, HT, 1, 2 },
        { 5, 5, 10, 10 }, { 2, 2, 2 ^ 31, 2 ^ 31 }, { 2, 2, 2 ^ 53, 1 },
      }) do
        P("bad argument #", grid.fill, grid, r[1], r[2], r[3], r[4], false)
      end
    end)
  end)

  describe("grid:find", function()
    local function F(msg, ...) E(msg, grid.find, grid, ...) end
    local function FP(prefix, ...) P(prefix, grid.find, grid, ...) end

    it("rejects missing and non-number coordinates", function()
      F("bad argument #1 to 'find' (number expected, got nil)", nil, 1, 1, 1)
      F("bad argument #2 to 'find' (number expected, got nil)", 1, nil, 1, 1)
      F("bad argument #3 to 'find' (number expected, got nil)", 1, 1, nil, 1)
      F("bad argument #4 to 'find' (number expected, got nil)", 1, 1, 1, nil)
      FP("bad argument #1 to 'find'")
      FP("bad argument #4 to 'find'", 1, 1, 1)
      FP("bad argument #1 to 'find'", "a", 1, 1, 1)
      FP("bad argument #2 to 'find'", 1, {}, 1, 1)
      FP("bad argument #3 to 'find'", 1, 1, true, 1)
      FP("bad argument #4 to 'find'", 1, 1, 1, grid)
    end)

    it("rejects non-integers: 1.5, nan, inf, -inf", function()
      for i = 1, 4 do
        for _, v in ipairs({ { 1.5, "1.5" }, { NAN, "nan" }, { NEGNAN, "nan" }, { INF, "inf" },
          { -INF, "-inf" }, { -2.25, "-2.25" } }) do
          local args = { 1, 1, 2, 2 }
          args[i] = v[1]
          F(("bad argument #%d to 'find' (integer expected, got %s)"):format(i, v[2]), H.unpack(args))
        end
      end
    end)

    it("rejects coordinates out of range", function()
      F("bad argument #1 to 'find' (x out of range: 0 not in [1, 10])", 0, 1, 1, 1)
      F("bad argument #1 to 'find' (x out of range: 11 not in [1, 10])", 11, 1, 1, 1)
      F("bad argument #1 to 'find' (x out of range: -1 not in [1, 10])", -1, 1, 1, 1)
      F("bad argument #2 to 'find' (y out of range: 0 not in [1, 8])", 1, 0, 1, 1)
      F("bad argument #2 to 'find' (y out of range: 9 not in [1, 8])", 1, 9, 1, 1)
      FP("bad argument #3 to 'find' (", 1, 1, 0, 1)
      FP("bad argument #3 to 'find' (", 1, 1, 11, 1)
      FP("bad argument #4 to 'find' (", 1, 1, 1, 0)
      FP("bad argument #4 to 'find' (", 1, 1, 1, 9)
      FP("bad argument #1 to 'find' (", 2 ^ 31 + 1, 1, 1, 1)
      FP("bad argument #1 to 'find' (", 2 ^ 32 + 1, 1, 1, 1)
      FP("bad argument #2 to 'find' (", 1, -2 ^ 32 + 1, 1, 1)
      FP("bad argument #1 to 'find' (", 2 ^ 53, 1, 1, 1)
      FP("bad argument #1 to 'find' (", 1e300, 1, 1, 1)
      FP("bad argument #3 to 'find' (", 1, 1, -1e300, 1)
    end)

    it("rejects bad options", function()
      F("bad argument #5 to 'find' (unknown option 'wieght')", 1, 1, 2, 2, { wieght = 2 })
      F("bad argument #5 to 'find' (option 'diagonal': invalid value 'sometimes')", 1, 1, 2, 2,
        { diagonal = "sometimes" })
      F("bad argument #5 to 'find' (option 'algorithm': invalid value 'fastest')", 1, 1, 2, 2,
        { algorithm = "fastest" })
      F("bad argument #5 to 'find' (option 'heuristic': invalid value 'magic')", 1, 1, 2, 2,
        { heuristic = "magic" })
      local o5 = "bad argument #5 to 'find'"
      FP(o5, 1, 1, 2, 2, "fast")
      FP(o5, 1, 1, 2, 2, 7)
      FP(o5, 1, 1, 2, 2, { diagonal = true })
      FP(o5, 1, 1, 2, 2, { diagonal = 8 })
      FP(o5, 1, 1, 2, 2, { algorithm = {} })
      FP(o5, 1, 1, 2, 2, { heuristic = 1 })
      FP(o5, 1, 1, 2, 2, { Diagonal = "never" })
      for _, bad in ipairs({ 0.5, 0, -1, NAN, INF, "2", true }) do
        FP(o5, 1, 1, 2, 2, { weight = bad })
      end
      for _, bad in ipairs({ -1, 1.5, NAN, INF, "10", true }) do
        FP(o5, 1, 1, 2, 2, { max_expansions = bad })
      end
      for _, bad in ipairs({ NAN, "10", true }) do
        FP(o5, 1, 1, 2, 2, { max_cost = bad })
      end
    end)

    it("checks options even when an end is blocked or start equals goal", function()
      local before = grid:get(2, 1)
      grid:set(2, 1, false)
      local ok, msg = pcall(grid.find, grid, 2, 1, 1, 1, { wieght = 2 })
      grid:set(2, 1, before)
      assert.is_false(ok, "bad options accepted because the start is blocked")
      assert.are.equal("bad argument #5 to 'find' (unknown option 'wieght')", msg)
      F("bad argument #5 to 'find' (unknown option 'wieght')", 1, 1, 1, 1, { wieght = 2 })
    end)
  end)

  describe("grid:render", function()
    it("rejects a non-path", function()
      P("bad argument #1 to 'render'", grid.render, grid, "path")
      P("bad argument #1 to 'render'", grid.render, grid, {})
      P("bad argument #1 to 'render'", grid.render, grid, grid)
    end)

    it("does not crash on a path from a bigger grid", function()
      local big = astar.grid(40, 40)
      local p = assert(big:find(1, 1, 40, 40))
      local ok, res = pcall(grid.render, grid, p)
      assert.are.equal("string", type(res), "render gave " .. tostring(res))
      if ok then
        H.seen_messages[#H.seen_messages + 1] = "render(path of a bigger grid) returned a string"
      else
        H.seen_messages[#H.seen_messages + 1] = res
      end
      still_ok()
    end)
  end)

  describe("Path", function()
    it("get rejects bad indices", function()
      local p = assert(grid:find(1, 1, W, HT))
      local n = #p
      for _, bad in ipairs({ 0, n + 1, -n - 1, 1.5, NAN, INF, -INF, 2 ^ 53 }) do
        P("bad argument #1 to 'get'", p.get, p, bad)
      end
      P("bad argument #1 to 'get'", p.get, p, nil)
      P("bad argument #1 to 'get'", p.get, p, "a")
      P("bad argument #1 to 'get'", p.get, p)
    end)
  end)

  describe("methods called on the wrong object", function()
    it("raise instead of crashing", function()
      local p = assert(grid:find(1, 1, W, HT))
      local stdout = io.stdout
      local cases = {
        function() return grid.find(p, 1, 1, 2, 2) end,
        function() return grid.find(nil, 1, 1, 2, 2) end,
        function() return grid.find({}, 1, 1, 2, 2) end,
        function() return grid.get(stdout, 1, 1) end,
        function() return grid.set("grid", 1, 1, 1) end,
        function() return grid.size(42) end,
        function() return grid.close(p) end,
        function() return grid.clone(p) end,
        function() return grid.stats(p) end,
        function() return grid.render(p) end,
        function() return p.get(grid, 1) end,
        function() return p.cost(grid) end,
        function() return p.flat(nil) end,
        function() return p.table({}) end,
        function() return p.stats(stdout) end,
        function() return p.points(grid) end,
      }
      for i, c in ipairs(cases) do
        local ok, msg = pcall(c)
        assert.is_false(ok, "case " .. i .. " did not raise")
        assert.are.equal("string", type(msg), "case " .. i)
        H.seen_messages[#H.seen_messages + 1] = msg
        if os.getenv("ASTAR_PRINT_ERRORS") then io.stderr:write("  [msg] ", msg, "\n") end
        still_ok()
      end
      local mt = getmetatable(p)
      local len = mt and mt.__len
      if len then
        local ok = pcall(len, grid)
        assert.is_false(ok, "__len of Path accepted a grid")
      end
    end)
  end)
  it("a method called on another value names the class it expected", function()
    local g = astar.grid(6, 6)
    local path = g:find(1, 1, 6, 6)
    local curve = astar.curve(0, 0, 0, 5, 5, 0, 1)
    local cases = {
      { "length", curve.length, "astar.Curve" }, { "sample", curve.sample, "astar.Curve" },
      { "cost", path.cost, "astar.Path" }, { "get", path.get, "astar.Path" },
      { "step", g:query(1, 1, 6, 6).step, "astar.Query" },
      { "path", g:replanner(1, 1, 6, 6).path, "astar.Replanner" },
      { "holder", astar.reservations().holder, "astar.Reservations" },
      { "close", astar.reservations().close, "astar.Reservations" },
      { "close", g:replanner(1, 1, 6, 6).close, "astar.Replanner" },
    }
    local pool = astar.workers({ threads = 1 })
    cases[#cases + 1] = { "submit", pool.submit, "astar.Workers" }
    cases[#cases + 1] = { "close", pool.close, "astar.Workers" }
    for _, c in ipairs(cases) do
      for _, v in ipairs({ {}, 1, "x", g }) do
        H.checkerr(("calling '%s' on bad self (%s expected, got %s)"):format(c[1], c[3],
          type(v)), c[2], v)
      end
    end
    pool:close()
    g:close()
  end)
end)
