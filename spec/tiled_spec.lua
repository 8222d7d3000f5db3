-- astar.tiled: Tiled maps as grids and navigation meshes. The maps are written by hand in the
-- shapes Tiled's Lua and JSON exports and STI (Simple-Tiled-Implementation) give
-- (spec/fixtures/tiled/town.lua; the JSON and STI shapes are derived from it below the way
-- those tools lay them out). Every expectation is written here from the map's text: the
-- cells, cell by cell; path costs from the helper's plain Dijkstra over those cells; obstacle
-- polygons computed by hand from the objects, navmesh paths checked segment by segment
-- against them and their lengths against the helper's visibility-graph oracle.

local astar = require "astar"
local H = require "spec.helper"

local sqrt, cos, sin, pi = math.sqrt, math.cos, math.sin, math.pi

local function town() return dofile("spec/fixtures/tiled/town.lua") end

local function deep_copy(v)
  if type(v) ~= "table" then return v end
  local out = {}
  for k, x in pairs(v) do out[k] = deep_copy(x) end
  return out
end

-- '.' 1, '#' blocked, 'm' mud 3, 'r' road 0.5, 's' sand 2, 'b' bushes 4.
local LEGEND = { ["."] = 1, ["#"] = false, m = 3, r = 0.5, s = 2, b = 4 }

-- The ground layer of town.lua alone, read from its data: wall and water blocked, the flipped
-- mud (0x80000003), water (0x20000004), sand (0x40000006), grass (0x10000001), road
-- (0xC0000005) and wall (0x80000002) as their tiles; the empty top-right tile walkable.
local GROUND = [[
....#.....
.mm.#.rrr.
.mm.#.r.r.
......r.r.
###.###.r.
.ss.....r.
.ss.##..r.
........r.
]]

-- ground and top together: the tree (2, 10) and the flipped rock (7, 8) block, the bushes
-- (4, 2) cost 4 over grass and the flipped bushes (8, 9) 4 over road (the larger cost wins),
-- the flowers (3, 6) change nothing.
local BOTH = [[
....#.....
.mm.#.rrr#
.mm.#.r.r.
.b....r.r.
###.###.r.
.ss.....r.
.ss.##.#r.
........b.
]]

-- Asserts grid's cells equal the text's, naming the first cell that differs.
local function assert_cells(grid, text)
  local cells, w, h = H.cells_from_text(text, LEGEND)
  local gw, gh = grid:size()
  assert.are.same({ w, h }, { gw, gh })
  for y = 1, h do
    for x = 1, w do
      local got = grid:get(x, y)
      if got ~= cells[y][x] then
        error(("cell (%d, %d): expected %s, got %s\n%s"):format(x, y, tostring(cells[y][x]),
          tostring(got), grid:render()), 2)
      end
    end
  end
  return cells, w, h
end

-- Every pair of cells: find's cost equals the Dijkstra's (nil when it has none).
local function assert_costs(grid, cells, w, h)
  for sy = 1, h do
    for sx = 1, w do
      local dist = H.dijkstra_all(cells, w, h, sx, sy, "no_corner_cutting")
      for gy = 1, h do
        for gx = 1, w do
          local want = H.walk(cells, w, h, gx, gy) and dist[(gy - 1) * w + gx] or nil
          local path = grid:find(sx, sy, gx, gy)
          local got = path and path:cost()
          if not (want == got or H.close(want, got, 1e-9)) then
            error(("(%d, %d) -> (%d, %d): expected %s, got %s"):format(sx, sy, gx, gy,
              tostring(want), tostring(got)), 2)
          end
        end
      end
    end
  end
end

-- The map as Tiled's JSON export has it, once decoded: properties as lists of
-- {name, type, value}, no `encoding` for CSV data, objects without `shape` (a flag or a field
-- says an ellipse, point, polygon, polyline or text).
local function json_type(v)
  if type(v) == "boolean" then return "bool" end
  if type(v) == "number" then return v % 1 == 0 and "int" or "float" end
  return "string"
end

local function json_props(p)
  local out = {}
  local names = {}
  for k in pairs(p or {}) do names[#names + 1] = k end
  table.sort(names)
  for i, k in ipairs(names) do out[i] = { name = k, type = json_type(p[k]), value = p[k] } end
  return out
end

local function as_json(map)
  map = deep_copy(map)
  map.type = "map"
  for _, ts in ipairs(map.tilesets) do
    for _, t in ipairs(ts.tiles) do t.properties = json_props(t.properties) end
  end
  for _, L in ipairs(map.layers) do
    L.encoding = nil
    L.properties = json_props(L.properties)
    for _, o in ipairs(L.objects or {}) do
      local shape = o.shape
      o.shape = nil
      if shape == "ellipse" then o.ellipse = true end
      if shape == "point" then o.point = true end
      if shape == "text" then o.text = { text = o.text } end
      o.properties = json_props(o.properties)
    end
  end
  return map
end

-- The map as STI (sti/init.lua) leaves it after loading: every tile of every tileset in
-- map.tiles with its properties ({} when none); a flipped gid gets its own copy of the tile,
-- with the flagged gid and the same properties; tile layers' data become rows of those tile
-- tables (nil for empty); layers are listed and keyed by name; each layer's x, y hold its
-- offset plus the map's, and it has a draw function; polygon points become absolute and
-- turned by the object's rotation. (STI strips the three flip bits by subtraction; the fourth,
-- hexagonal-only bit is stripped here too so the same map loads.)
local function sti_like(src, ox, oy)
  local map = deep_copy(src)
  map.offsetx, map.offsety = ox or 0, oy or 0
  local tiles = {}
  for i, ts in ipairs(map.tilesets) do
    for id = 0, ts.tilecount - 1 do
      local props
      for _, t in ipairs(ts.tiles) do
        if t.id == id then props = t.properties end
      end
      tiles[ts.firstgid + id] = { id = id, gid = ts.firstgid + id, tileset = i,
        properties = props or {}, sx = 1, sy = 1, r = 0 }
    end
  end
  local function tile_of(gid)
    if tiles[gid] then return tiles[gid] end
    local real = gid
    for _, bit in ipairs({ 2 ^ 31, 2 ^ 30, 2 ^ 29, 2 ^ 28 }) do
      if real >= bit then real = real - bit end
    end
    local t = tiles[real]
    tiles[gid] = { id = t.id, gid = gid, tileset = t.tileset, properties = t.properties, sx = -1 }
    return tiles[gid]
  end
  map.tiles = tiles
  for _, L in ipairs(map.layers) do
    L.x = (L.x or 0) + L.offsetx + map.offsetx
    L.y = (L.y or 0) + L.offsety + map.offsety
    L.draw = function() end
    if L.type == "tilelayer" then
      local rows, i = {}, 1
      for y = 1, L.height do
        rows[y] = {}
        for x = 1, L.width do
          if L.data[i] > 0 then rows[y][x] = tile_of(L.data[i]) end
          i = i + 1
        end
      end
      L.data = rows
    else
      for _, o in ipairs(L.objects) do
        local x, y = L.x + o.x, L.y + o.y
        local c, s = cos(math.rad(o.rotation)), sin(math.rad(o.rotation))
        for _, v in ipairs(o.polygon or {}) do
          local vx, vy = v.x, v.y
          v.x, v.y = x + c * vx - s * vy, y + s * vx + c * vy
        end
      end
    end
    map.layers[L.name] = L
  end
  return map
end

describe("astar.tiled.grid", function()
  it("reads a layer of Tiled's Lua export cell by cell, flip flags masked off", function()
    local grid = astar.tiled.grid(town(), { layer = "ground" })
    assert_cells(grid, GROUND)
    assert_cells(astar.tiled.grid(town(), { layer = 1 }), GROUND)
  end)

  it("reads every tile layer together by default: any blocks, the largest cost wins", function()
    local cells, w, h = assert_cells(astar.tiled.grid(town()), BOTH)
    assert_cells(astar.tiled.grid(town(), { layers = { "top", "ground" } }), BOTH)
    assert_costs(astar.tiled.grid(town()), cells, w, h)
  end)

  it("searches a map's grid at the cost of an independent Dijkstra", function()
    local grid = astar.tiled.grid(town(), { layer = "ground" })
    local cells, w, h = H.cells_from_text(GROUND, LEGEND)
    assert_costs(grid, cells, w, h)
  end)

  it("blocks empty cells with empty = false", function()
    local text = GROUND:gsub("^(....#.....)", "....#....#")
    assert_cells(astar.tiled.grid(town(), { layer = "ground", empty = false }), text)
    -- read together, a cell is empty only when no layer has a tile there
    assert_cells(astar.tiled.grid(town(), { empty = false }), (BOTH:gsub("^(....#.....)",
      "....#....#")))
  end)

  it("gives the grid the map's tile size and offset as its world frame", function()
    local map = town()
    assert.are.same({ tile = { 32, 32 }, origin = { 0, 0 } }, select(2, astar.tiled.grid(map)))
    for _, L in ipairs(map.layers) do L.offsetx, L.offsety = 5, -7 end
    local grid, frame = astar.tiled.grid(map)
    assert.are.same({ tile = { 32, 32 }, origin = { 5, -7 } }, frame)
    assert.are.same({ 32, 32, 5, -7 }, { grid:world() })
    assert.are.same({ 1, 1 }, { grid:to_cell(5, -7) })          -- the top-left pixel
    assert.are.same({ 10, 8 }, { grid:to_cell(5 + 319.5, -7 + 255.5) })
    assert.is_nil(grid:to_cell(5 + 320, 0))
    assert.are.same({ 5 + 2.5 * 32, -7 + 3.5 * 32 }, { grid:to_world(3, 4) })
    -- a mesh of the grid lies on the map's pixels, as the object layers do
    local s = astar.navmesh.from_grid((astar.tiled.grid(town()))):stats()
    assert.are.same({ 0, 0, 320, 256 }, { s.x0, s.y0, s.x1, s.y1 })
    map.layers[2].offsetx = 6
    H.checkerr("astar.tiled.grid: layers 'ground' and 'top' have different offsets (5, -7) and "
      .. "(6, -7)", astar.tiled.grid, map)
  end)

  it("takes the walkable and cost rules as functions", function()
    local seen = {}
    local grid = astar.tiled.grid(town(), {
      layer = "ground",
      walkable = function(gid, props, x, y, layer)
        seen[#seen + 1] = ("%d %d %d %s"):format(gid, x, y, layer)
        assert.are.equal(props.walkable == false or props.collidable == true,
          gid == 2 or gid == 4)
        return gid ~= 4                          -- walls walkable, water not
      end,
      cost = function(gid) return gid == 5 and 7 or (gid == 2 and false) or nil end,
    })
    -- road costs 7; walls blocked by the cost function; every other tile blocked (nil)
    assert.are.equal(79, #seen)                  -- not called for the empty cell
    assert.are.equal("1 1 1 'ground'", seen[1])
    assert.are.equal("3 3 3 'ground'", seen[22])  -- the flipped mud, gid masked
    assert.are.equal(7, grid:get(7, 2))
    assert.are.equal(7, grid:get(9, 8))          -- the road flipped twice
    assert.is_false(grid:get(1, 1))
    assert.is_false(grid:get(5, 1))
    assert.are.equal(1, grid:get(10, 1))         -- empty
  end)

  it("reads the cost from the property the cost option names", function()
    local map = town()
    map.tilesets[1].tiles[2].properties = { speed = 5 }  -- mud
    local grid = astar.tiled.grid(map, { layer = "ground", cost = "speed" })
    assert.are.equal(5, grid:get(2, 2))
    assert.are.equal(1, grid:get(7, 2))         -- road's 'cost' is not read
  end)

  it("reads the same map from Tiled's JSON export", function()
    local map = as_json(town())
    assert.are.equal("table", type(map.tilesets[1].tiles[1].properties[1]))
    assert_cells(astar.tiled.grid(map, { layer = "ground" }), GROUND)
    assert_cells(astar.tiled.grid(map), BOTH)
    map.layers[1].encoding = "csv"
    assert_cells(astar.tiled.grid(map, { layer = "ground" }), GROUND)
  end)

  it("reads an STI map and an STI layer", function()
    local map = sti_like(town(), 10, 20)
    assert.are.equal("table", type(map.layers.ground.data[3][3]))
    assert.are.equal(2147483651, map.layers.ground.data[3][3].gid)
    assert_cells(astar.tiled.grid(map, { layer = "ground" }), GROUND)
    local grid, frame = astar.tiled.grid(map)
    assert_cells(grid, BOTH)
    assert.are.same({ tile = { 32, 32 }, origin = { 10, 20 } }, frame)
    assert.are.same({ 32, 32, 10, 20 }, { grid:world() })
    assert_cells(astar.tiled.grid(map.layers.top), [[
..........
.........#
..........
.b........
..........
..........
.......#..
........b.
]])
  end)

  it("reads a bare Tiled layer, with the map's tilesets when given", function()
    local map = town()
    local grid, frame = astar.tiled.grid(map.layers[1])
    assert.is_nil(frame)
    assert.are.same({ 1, 1, 0, 0 }, { grid:world() })           -- the default frame
    assert_cells(grid, ("..........\n"):rep(8))  -- no tilesets, no properties: all walkable
    assert_cells(astar.tiled.grid(map.layers[1], { tilesets = map.tilesets }), GROUND)
  end)

  it("reads an infinite map's chunks, with the gaps between them empty", function()
    local map = {
      orientation = "orthogonal", infinite = true, width = 30, height = 20,
      tilewidth = 16, tileheight = 16,
      tilesets = { { name = "t", firstgid = 1, tilecount = 4, image = "t.png", tiles = {
        { id = 1, properties = { walkable = false } },
        { id = 2, properties = { cost = 2 } } } } },
      layers = { { type = "tilelayer", name = "ground", x = 0, y = 0, width = 12, height = 4,
        startx = -4, starty = 0, offsetx = 8, offsety = 4, encoding = "lua",
        chunks = {
          { x = -4, y = 0, width = 4, height = 2, data = { 1, 2, 1, 1, 3, 1, 2147483650, 1 } },
          { x = 4, y = 2, width = 4, height = 2, data = { 1, 1, 3, 1, 2, 0, 1, 1 } },
        } } },
    }
    local LG = { ["."] = 1, ["#"] = false, ["2"] = 2 }
    local text = ".#..........\n2.#.........\n..........2.\n........#...\n"
    local grid, frame = astar.tiled.grid(map)
    local cells, w, h = H.cells_from_text(text, LG)
    for y = 1, h do
      for x = 1, w do assert.are.equal(cells[y][x], grid:get(x, y)) end
    end
    assert.are.same({ tile = { 16, 16 }, origin = { 8 - 4 * 16, 4 } }, frame)
    assert.are.same({ 16, 16, -56, 4 }, { grid:world() })
    assert.are.same({ 5, 1 }, { grid:to_cell(8, 4) })           -- Tiled's tile (0, 0)
    assert_costs(grid, cells, w, h)
    local closed = astar.tiled.grid(map, { empty = false })
    cells = H.cells_from_text(".#..########\n2.#.########\n########..2.\n##########..\n", LG)
    for y = 1, h do
      for x = 1, w do assert.are.equal(cells[y][x], closed:get(x, y)) end
    end
    -- the same from STI, whose chunks hold rows of tile tables
    local sti = deep_copy(map)
    for _, c in ipairs(sti.layers[1].chunks) do
      local rows = {}
      for y = 1, c.height do
        rows[y] = {}
        for x = 1, c.width do
          local gid = c.data[(y - 1) * c.width + x]
          if gid > 0 then
            local real = gid % 2 ^ 28
            rows[y][x] = { gid = gid, properties = real == 2 and { walkable = false }
              or real == 3 and { cost = 2 } or {} }
          end
        end
      end
      c.data = rows
    end
    cells = H.cells_from_text(text, LG)
    grid = astar.tiled.grid(sti)
    for y = 1, h do
      for x = 1, w do assert.are.equal(cells[y][x], grid:get(x, y)) end
    end
  end)

  it("finds tile layers inside group layers by name", function()
    local map = town()
    local ground = table.remove(map.layers, 1)
    table.insert(map.layers, 1, { type = "group", name = "level", layers = { ground } })
    assert_cells(astar.tiled.grid(map, { layer = "ground" }), GROUND)
    assert_cells(astar.tiled.grid(map), BOTH)
  end)

  describe("errors", function()
    local F = "astar.tiled.grid"

    it("names the layer and cell of a bad cost", function()
      local map = town()
      map.tilesets[1].tiles[2].properties.cost = -1
      H.checkerr("astar.tiled.grid: layer 'ground' cell (2, 2): cost must be a positive finite "
        .. "number, got -1", astar.tiled.grid, map)
      map.tilesets[1].tiles[2].properties.cost = "2"
      H.checkerr("astar.tiled.grid: layer 'ground' cell (2, 2): cost must be a positive finite "
        .. "number, got '2'", astar.tiled.grid, map)
      map.tilesets[1].tiles[2].properties.cost = 1 / 0
      H.checkerr("astar.tiled.grid: layer 'ground' cell (2, 2): cost must be a positive finite "
        .. "number, got " .. tostring(1 / 0), astar.tiled.grid, map)
      -- not asked for tiles the walkable rule blocks: the first is the flowers, not the tree
      H.checkerr("astar.tiled.grid: layer 'top' cell (6, 3): cost must be a positive finite "
        .. "number, got true", astar.tiled.grid, town(), {
          layer = "top", cost = function() return true end })
    end)

    it("refuses base64 tile data, saying how to export", function()
      local map = town()
      map.layers[1].encoding, map.layers[1].compression = "base64", "zlib"
      map.layers[1].data = "eJxjYGBgYAAAAAUAAQ=="
      H.checkerr("astar.tiled.grid: layer 'ground': its tiles are base64 data (zlib-compressed): "
        .. "set the map's Tile Layer Format to CSV (Map > Map Properties) and export it again",
        astar.tiled.grid, map)
      map.layers[1].compression = nil
      H.checkerr("astar.tiled.grid: layer 'ground': its tiles are base64 data: set the map's "
        .. "Tile Layer Format to CSV (Map > Map Properties) and export it again",
        astar.tiled.grid, map, { layer = "ground" })
    end)

    it("refuses maps that are not orthogonal", function()
      for _, o in ipairs({ "isometric", "staggered", "hexagonal" }) do
        local map = town()
        map.orientation = o
        H.checkerr(("astar.tiled.grid: %s maps are not supported (only orthogonal ones)"):format(o),
          astar.tiled.grid, map)
        H.checkerr(("astar.tiled.navmesh: %s maps are not supported (only orthogonal ones)")
          :format(o), astar.tiled.navmesh, map, "obstacles")
      end
    end)

    it("names unknown layers and layers of the wrong kind", function()
      H.checkerr("astar.tiled.grid: no layer named 'walls' (tile layers: 'ground', 'top')",
        astar.tiled.grid, town(), { layer = "walls" })
      H.checkerr("astar.tiled.grid: the map has no layer 9 (it has 4)",
        astar.tiled.grid, town(), { layer = 9 })
      H.checkerr("astar.tiled.grid: layer 'room' is 'objectgroup', not a tile layer",
        astar.tiled.grid, town(), { layers = { "ground", "room" } })
      local map = town()
      map.layers = { map.layers[3] }
      H.checkerr("astar.tiled.grid: no tile layer to read (the map has none)",
        astar.tiled.grid, map)
    end)

    it("refuses wrong argument and option types", function()
      H.checkerr("bad argument #1 to 'astar.tiled.grid' (Tiled map or tile layer expected, "
        .. "got nil)", astar.tiled.grid)
      H.checkerr("bad argument #1 to 'astar.tiled.grid' (Tiled map or tile layer expected, got a "
        .. "table with neither layers nor data)", astar.tiled.grid, {})
      H.checkerr("bad argument #2 to 'astar.tiled.grid' (table expected, got number)",
        astar.tiled.grid, town(), 3)
      H.checkerr("bad argument #2 to 'astar.tiled.grid' (unknown option 'layre')",
        astar.tiled.grid, town(), { layre = "ground" })
      H.checkerr("bad argument #2 to 'astar.tiled.grid' (option 'walkable' must be a function, "
        .. "got boolean)", astar.tiled.grid, town(), { walkable = true })
      H.checkerr("bad argument #2 to 'astar.tiled.grid' (option 'layer' must be a string or "
        .. "number, got table)", astar.tiled.grid, town(), { layer = {} })
      H.checkerr("bad argument #2 to 'astar.tiled.grid' (options 'layer' and 'layers' cannot be "
        .. "used together)", astar.tiled.grid, town(), { layer = 1, layers = { 2 } })
      H.checkerr("bad argument #2 to 'astar.tiled.grid' (option 'layers': item 2 must be a layer "
        .. "name or index, got boolean)", astar.tiled.grid, town(), { layers = { 1, true } })
      assert.are.equal(F, "astar.tiled.grid")
    end)

    it("names bad gids, short data and external tilesets", function()
      local map = town()
      map.layers[1].data[12] = 2.5
      H.checkerr("astar.tiled.grid: layer 'ground' cell (2, 2): a gid must be an integer in "
        .. "[0, 2^32), got 2.5", astar.tiled.grid, map)
      map = town()
      table.remove(map.layers[1].data)
      H.checkerr("astar.tiled.grid: layer 'ground': 79 gids for 10x8 tiles", astar.tiled.grid, map)
      map = town()
      map.tilesets[2] = { name = "props", firstgid = 9, filename = "props.tsx" }
      H.checkerr("astar.tiled.grid: layer 'top' cell (10, 2): tile 9 is in tileset 'props', kept "
        .. "in its own file (props.tsx): embed it in the map (Tiled: Map > Embed Tileset) so "
        .. "that its tile properties are exported", astar.tiled.grid, map)
      assert_cells(astar.tiled.grid(map, { layer = "ground" }), GROUND)  -- props.tsx unused
    end)
  end)
end)

-- Obstacles of town.lua's layer 'obstacles', by hand from the objects (pixels, y down).
local C30, S30 = sqrt(3) / 2, 0.5
local OBSTACLES = {
  { 32, 32, 96, 32, 96, 64, 32, 64 },                        -- crate
  { 224, 32, 224, 64, 160, 64, 160, 32 },                    -- pillar, turned 90 about (224, 32)
  { 64, 160, 96, 144, 112, 192 },                            -- rock
  { 192, 128, 192 + 64 * C30, 128 + 64 * S30,                -- beam, turned 30 about (192, 128)
    192 + 64 * C30 - 16 * S30, 128 + 64 * S30 + 16 * C30, 192 - 16 * S30, 128 + 16 * C30 },
  "pond",                                                    -- below
  { 128, 96, 160, 96, 160, 128, 128, 128 },                  -- the tree tile object, on (128, 128)
  { 32, 224, 32, 240, 64, 224 },                             -- id 10, turned 90 about (32, 224)
}
-- The pond: the ellipse of centre (264, 192), semi-axes 24 and 16; the mesh keeps out of the
-- 16-gon whose edges touch it (its corners at 1 / cos(pi / 16) of the radii).
local PX, PY, PA, PB = 264, 192, 24, 16
do
  local k, ring = 1 / cos(pi / 16), {}
  for i = 0, 15 do
    ring[#ring + 1] = PX + PA * k * cos(2 * pi * i / 16)
    ring[#ring + 1] = PY + PB * k * sin(2 * pi * i / 16)
  end
  OBSTACLES[5] = ring
end
local BOUNDS = { 0, 0, 320, 0, 320, 256, 0, 256 }

-- Does segment a b stay out of the ellipse (x - PX)^2 / PA^2 + (y - PY)^2 / PB^2 < 1? In the
-- ellipse's unit-circle frame, the segment's distance to the centre must be >= 1.
local function clear_of_pond(ax, ay, bx, by)
  ax, ay, bx, by = (ax - PX) / PA, (ay - PY) / PB, (bx - PX) / PA, (by - PY) / PB
  return H.seg_dist(0, 0, ax, ay, bx, by) >= 1 - 1e-9
end

-- Strictly inside the ring, farther than 1e-7 from its edges?
local function deep_inside(ring, x, y)
  return H.in_ring(ring, x, y) and H.boundary_dist({ outline = ring }, x, y) > 1e-7
end

-- Paths of mesh between random points of dom: every segment in the domain (the helper's exact
-- test), no sample of a segment deep inside an obstacle, clear of the pond's ellipse when asked,
-- the length the Euclidean shortest path's.
local function check_paths(mesh, dom, seed, n, pond)
  local rng = H.rng(seed)
  for q = 1, n do
    local sx, sy = H.random_domain_point(rng, dom, 1e-3)
    local gx, gy = H.random_domain_point(rng, dom, 1e-3)
    local path, msg = mesh:find(sx, sy, gx, gy)
    assert(path, ("query %d: %s"):format(q, tostring(msg)))
    local pts = {}
    for _, x, y in path:points() do pts[#pts + 1], pts[#pts + 2] = x, y end
    for i = 1, #pts - 3, 2 do
      local ax, ay, bx, by = pts[i], pts[i + 1], pts[i + 2], pts[i + 3]
      assert(H.segment_in_domain(dom, ax, ay, bx, by), ("query %d: segment %d leaves"):format(q, i))
      for k, ring in ipairs(dom.holes) do
        for t = 0, 64 do
          local x, y = ax + (bx - ax) * t / 64, ay + (by - ay) * t / 64
          assert(not deep_inside(ring, x, y), ("query %d: into obstacle %d at (%g, %g)")
            :format(q, k, x, y))
        end
      end
      if pond then assert(clear_of_pond(ax, ay, bx, by), ("query %d: into the pond"):format(q)) end
    end
    local best = H.shortest_euclidean(dom, sx, sy, gx, gy)
    assert(H.close(best, H.flat_length(pts), 1e-9), ("query %d: length %.17g, shortest %.17g")
      :format(q, H.flat_length(pts), best))
  end
end

describe("astar.tiled.navmesh", function()
  local dom = { outline = BOUNDS, holes = OBSTACLES }

  it("makes every shape of the layer an obstacle in the map's bounds", function()
    local mesh = astar.tiled.navmesh(town(), "obstacles")
    local s = mesh:stats()
    assert.are.same({ 0, 0, 320, 256 }, { s.x0, s.y0, s.x1, s.y1 })
    -- inside each obstacle nothing; points, polylines and text are not obstacles
    for _, p in ipairs({ { 64, 48 }, { 192, 48 }, { 90, 165 }, { 220, 150 }, { 264, 192 },
        { 144, 112 }, { 38, 228 } }) do
      assert.is_nil(mesh:locate(p[1], p[2]))
    end
    for _, p in ipairs({ { 16, 240 }, { 8, 8 }, { 150, 8 }, { 290, 20 }, { 300, 250 } }) do
      assert.is_number(mesh:locate(p[1], p[2]))
    end
    -- just outside the ellipse, on its axes and diagonals, the mesh is not there either
    for i = 0, 7 do
      local a = 2 * pi * i / 8
      assert.is_nil(mesh:locate(PX + PA * 0.999 * cos(a), PY + PB * 0.999 * sin(a)))
    end
  end)

  it("gives shortest paths that keep out of every obstacle", function()
    check_paths(astar.tiled.navmesh(town(), "obstacles"), dom, 11, 150, true)
    check_paths(astar.tiled.navmesh(town(), 3), dom, 12, 20, true)
  end)

  it("reads the same layer from Tiled's JSON export and from STI", function()
    check_paths(astar.tiled.navmesh(as_json(town()), "obstacles"), dom, 13, 40, true)
    check_paths(astar.tiled.navmesh(sti_like(town()), "obstacles"), dom, 14, 40, true)
    -- STI's offsets move the map and its objects together
    local moved = { outline = {}, holes = {} }
    for i, v in ipairs(BOUNDS) do moved.outline[i] = v + (i % 2 == 1 and 100 or -50) end
    for k, ring in ipairs(OBSTACLES) do
      moved.holes[k] = {}
      for i, v in ipairs(ring) do moved.holes[k][i] = v + (i % 2 == 1 and 100 or -50) end
    end
    check_paths(astar.tiled.navmesh(sti_like(town(), 100, -50), "obstacles"), moved, 15, 40)
  end)

  it("takes an object with walkable = true as the walkable area", function()
    local room = {
      outline = { 16, 16, 304, 16, 304, 128, 160, 128, 160, 240, 16, 240 },
      holes = { { 48, 48, 112, 48, 112, 80, 48, 80 } },
    }
    local mesh = astar.tiled.navmesh(town(), "room")
    assert.is_nil(mesh:locate(200, 200))        -- outside the L
    assert.is_nil(mesh:locate(8, 8))
    assert.is_nil(mesh:locate(80, 64))          -- the table
    check_paths(mesh, room, 16, 60)
    -- or the object the outline option names
    local map = town()
    map.layers[4].objects[1].properties = {}
    check_paths(astar.tiled.navmesh(map, "room", { outline = "floor" }), room, 17, 20)
    -- and the map's bounds without either: the floor is an obstacle then
    table.remove(map.layers[4].objects, 2)
    mesh = astar.tiled.navmesh(map, "room")
    assert.is_number(mesh:locate(200, 200))
    assert.is_nil(mesh:locate(80, 64))
  end)

  it("shifts objects by the layer's offset", function()
    local map = town()
    map.layers[3].offsetx, map.layers[3].offsety = 3, 4
    local shifted = { outline = BOUNDS, holes = {} }
    for k, ring in ipairs(OBSTACLES) do
      shifted.holes[k] = {}
      for i, v in ipairs(ring) do shifted.holes[k][i] = v + (i % 2 == 1 and 3 or 4) end
    end
    check_paths(astar.tiled.navmesh(map, "obstacles"), shifted, 18, 30)
  end)

  it("turns ellipses into the polygon of `segments` sides around them", function()
    local map = town()
    map.layers[3].objects = { map.layers[3].objects[5] }
    local mesh = astar.tiled.navmesh(map, "obstacles", { segments = 6 })
    local k = 1 / cos(pi / 6)
    -- a corner of the hexagon is off the mesh's interior, a point just beyond it on it
    assert.is_nil(mesh:locate(PX + PA * k * 0.99, PY))
    assert.is_number(mesh:locate(PX + PA * k * 1.01, PY))
  end)

  describe("errors", function()
    local function layer_of(objects)
      local map = town()
      map.layers[3].objects = objects
      return map
    end
    local function rect(id, name, x, y, w, h, extra)
      local o = { id = id, name = name, shape = "rectangle", x = x, y = y, width = w, height = h,
        rotation = 0, properties = {} }
      for k, v in pairs(extra or {}) do o[k] = v end
      return o
    end

    it("names two obstacles that overlap or touch", function()
      H.checkerr("astar.tiled.navmesh: layer 'obstacles': object 'a' (id 20) overlaps object 'b' "
        .. "(id 21) (obstacles must lie strictly inside the walkable area and apart: join "
        .. "touching ones into one polygon)", astar.tiled.navmesh,
        layer_of({ rect(20, "a", 32, 32, 64, 64), rect(21, "b", 64, 64, 64, 64) }), "obstacles")
      H.checkerr("astar.tiled.navmesh: layer 'obstacles': object 'a' (id 20) touches object 22 "
        .. "(obstacles must lie strictly inside the walkable area and apart: join touching ones "
        .. "into one polygon)", astar.tiled.navmesh,
        layer_of({ rect(20, "a", 32, 32, 64, 64), rect(22, "", 96, 32, 64, 64) }), "obstacles")
    end)

    it("names an obstacle on the map's edge or outside it", function()
      H.checkerr("astar.tiled.navmesh: layer 'obstacles': object 'wall' (id 5) touches the map's "
        .. "bounds (obstacles must lie strictly inside the walkable area and apart: join touching "
        .. "ones into one polygon)", astar.tiled.navmesh,
        layer_of({ rect(5, "wall", 0, 0, 320, 32) }), "obstacles")
      H.checkerr("astar.tiled.navmesh: layer 'obstacles': object 'far' (id 5) is not inside the "
        .. "map's bounds", astar.tiled.navmesh,
        layer_of({ rect(5, "far", 400, 0, 32, 32) }), "obstacles")
    end)

    it("refuses two walkable areas, and an infinite map without one", function()
      local map = town()
      table.insert(map.layers[4].objects, rect(30, "yard", 200, 20, 40, 40,
        { properties = { walkable = true } }))
      H.checkerr("astar.tiled.navmesh: layer 'room': two walkable areas, object 'floor' (id 20) "
        .. "and object 'yard' (id 30) (at most one)", astar.tiled.navmesh, map, "room")
      map = town()
      map.infinite = true
      H.checkerr("astar.tiled.navmesh: layer 'obstacles': an infinite map has no bounds: give the "
        .. "walkable area as an object with the property walkable = true (or name it in option "
        .. "'outline')", astar.tiled.navmesh, map, "obstacles")
      assert.is_number(astar.tiled.navmesh(map, "room"):locate(32, 32))
      H.checkerr("astar.tiled.navmesh: layer 'room': no object named 'lawn' with an area (option "
        .. "'outline')", astar.tiled.navmesh, town(), "room", { outline = "lawn" })
    end)

    it("names unknown layers, layers of the wrong kind and bad arguments", function()
      H.checkerr("astar.tiled.navmesh: no layer named 'walls' (object layers: 'obstacles', "
        .. "'room')", astar.tiled.navmesh, town(), "walls")
      H.checkerr("astar.tiled.navmesh: layer 'ground' is 'tilelayer', not an object layer",
        astar.tiled.navmesh, town(), "ground")
      H.checkerr("bad argument #1 to 'astar.tiled.navmesh' (Tiled map expected, got nil)",
        astar.tiled.navmesh)
      H.checkerr("bad argument #2 to 'astar.tiled.navmesh' (layer name or index expected, got nil)",
        astar.tiled.navmesh, town())
      H.checkerr("bad argument #3 to 'astar.tiled.navmesh' (unknown option 'segs')",
        astar.tiled.navmesh, town(), "obstacles", { segs = 8 })
      H.checkerr("bad argument #3 to 'astar.tiled.navmesh' (option 'segments' must be an integer "
        .. "in [3, 1024], got 2)", astar.tiled.navmesh, town(), "obstacles", { segments = 2 })
      local map = layer_of({ rect(5, "box", "10", 0, 32, 32) })
      H.checkerr("astar.tiled.navmesh: layer 'obstacles': object 'box' (id 5): x must be a finite "
        .. "number, got '10'", astar.tiled.navmesh, map, "obstacles")
    end)
  end)
end)

describe("astar.tiled: input that used to escape as raw Lua errors (review)", function()
  local function small(extra)
    local m = { orientation = "orthogonal", width = 2, height = 2, tilewidth = 16,
      tileheight = 16, tilesets = {}, layers = { { type = "tilelayer", name = "g", width = 2,
      height = 2, data = { 0, 0, 0, 0 }, encoding = "lua" } } }
    for k, v in pairs(extra or {}) do m[k] = v end
    return m
  end

  it("names bad tile sizes, offsets, empty layer lists and maps too big for a grid", function()
    H.checkerr("astar.tiled.grid: the map's tilewidth and tileheight must be positive finite "
      .. "numbers, got 0, 16", astar.tiled.grid, small{ tilewidth = 0 })
    local m = small()
    m.layers[1].offsetx = "a"
    H.checkerr("astar.tiled.grid: layer 'g': its offset must be finite numbers, got 'a', 0",
      astar.tiled.grid, m)
    H.checkerr("bad argument #2 to 'astar.tiled.grid' (option 'layers': an empty list)",
      astar.tiled.grid, small(), { layers = {} })
    local far = small{ infinite = true }
    far.layers[1] = { type = "tilelayer", name = "g", chunks = {
      { x = 0, y = 0, width = 1, height = 1, data = { 0 } },
      { x = 1e9, y = 1e9, width = 1, height = 1, data = { 0 } } } }
    H.checkerr("astar.tiled.grid: the tiles span 1000000001 x 1000000001 cells, more than a "
      .. "grid holds (2^28 in all)", astar.tiled.grid, far)
  end)

  it("names polygon points and rotations that are not numbers", function()
    local m = small()
    m.layers[2] = { type = "objectgroup", name = "o", objects = { { shape = "polygon", x = 5,
      y = 5, polygon = { { x = 0, y = 0 }, { x = 4 }, { x = 0, y = 4 } } } } }
    H.checkerr("astar.tiled.navmesh: layer 'o': object #1: polygon point 2's y must be a finite "
      .. "number, got nil", astar.tiled.navmesh, m, "o")
    m.layers[2].objects[1] = { shape = "rectangle", x = 5, y = 5, width = 4, height = 4,
      rotation = "a" }
    H.checkerr("astar.tiled.navmesh: layer 'o': object #1: rotation must be a finite number, "
      .. "got 'a'", astar.tiled.navmesh, m, "o")
  end)
end)
