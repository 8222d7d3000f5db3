--- Tiled maps (mapeditor.org) as grids and navigation meshes, in pure Lua.
-- Reads what a game has in memory, not files: the table Tiled's Lua export returns, the same
-- map decoded from Tiled's JSON export by any JSON library, or a map loaded by STI
-- (Simple-Tiled-Implementation), whose layers hold rows of tile tables.
--
-- - @{grid}: tile layers to a @{Grid}, walkable and cost from the tiles' custom properties.
-- - @{navmesh}: an object layer's shapes to a @{NavMesh}, in the map's pixels.
--
-- Only orthogonal maps. Tile layers must be stored as CSV (or Lua): base64 data is refused
-- with a message saying so. `require "astar"` exposes this module as `astar.tiled`.
-- @module astar.tiled
local core = require "astar.core"

local M = {}

local floor, huge, pi = math.floor, math.huge, math.pi
local cos, sin, rad = math.cos, math.sin, math.rad

-- Tiled keeps a tile's flips and rotation in the 4 high bits of its gid (flipped horizontally
-- 0x80000000, vertically 0x40000000, diagonally 0x20000000, rotated 120 degrees on hexagonal
-- maps 0x10000000): the tile itself is the gid modulo 2^28.
local FLAGS = 0x10000000
local GID_LIMIT = 2 ^ 32

-- Properties of a tile that has none (never handed out for writing: callbacks read it).
local NONE = setmetatable({}, {
  __newindex = function() error("tile properties are read-only", 2) end,
})

local function show(v)
  if type(v) == "string" then return ("'%s'"):format(v) end
  return tostring(v)
end

local function argerror(fname, n, fmt, ...)
  error(("bad argument #%d to '%s' (" .. fmt .. ")"):format(n, fname, ...), 0)
end

local function fail(fname, fmt, ...)
  error(fname .. ": " .. fmt:format(...), 0)
end

-- opts checked against the names in `known` (name -> the types it takes, as "string|number").
local function check_opts(fname, n, opts, known)
  if opts == nil then return {} end
  if type(opts) ~= "table" then argerror(fname, n, "table expected, got %s", type(opts)) end
  for k, v in pairs(opts) do
    local types = known[k]
    if not types then argerror(fname, n, "unknown option %s", show(k)) end
    if not ("|" .. types .. "|"):find("|" .. type(v) .. "|", 1, true) then
      argerror(fname, n, "option '%s' must be a %s, got %s", k, types:gsub("|", " or "), type(v))
    end
  end
  return opts
end

local function check_orientation(map, fname)
  local o = map.orientation
  if o ~= nil and o ~= "orthogonal" then
    fail(fname, "%s maps are not supported (only orthogonal ones)", tostring(o))
  end
end

-- The Lua export writes properties as name -> value; the JSON export as a list of
-- {name =, type =, value =}.
local function props_of(p)
  if type(p) ~= "table" then return NONE end
  if type(p[1]) ~= "table" then return p end
  local out = {}
  for _, e in ipairs(p) do
    if type(e) == "table" and e.name ~= nil then out[e.name] = e.value end
  end
  return out
end

local function layer_name(L, k)
  if type(L.name) == "string" then return show(L.name) end
  return k and tostring(k) or "(unnamed)"
end

-- Tilesets: the properties of each gid.

-- {props = gid -> properties, sets = tilesets by firstgid}. A tileset kept in its own file
-- (`filename` in the Lua export, `source` in JSON) has no tiles in the map.
local function tileset_index(tilesets, fname)
  local props, sets = {}, {}
  for i, ts in ipairs(type(tilesets) == "table" and tilesets or NONE) do
    if type(ts) ~= "table" or type(ts.firstgid) ~= "number" then
      fail(fname, "tileset %d has no firstgid", i)
    end
    local file = ts.filename or ts.source
    sets[#sets + 1] = { first = ts.firstgid, name = ts.name or file,
      external = file ~= nil and ts.tiles == nil and ts.image == nil and file }
    for _, t in ipairs(type(ts.tiles) == "table" and ts.tiles or NONE) do
      if type(t) == "table" and type(t.id) == "number" then
        props[ts.firstgid + t.id] = props_of(t.properties)
      end
    end
  end
  table.sort(sets, function(a, b) return a.first < b.first end)
  return { props = props, sets = sets }
end

-- The properties of tile `gid` (flags cleared), remembered. Errors name layer `lname`'s cell
-- (x, y).
local function tile_props(index, gid, fname, lname, x, y)
  local p = index.props[gid]
  if p then return p end
  local owner
  for _, s in ipairs(index.sets) do
    if s.first <= gid then owner = s end
  end
  if owner and owner.external then
    fail(fname, "layer %s cell (%d, %d): tile %d is in tileset %s, kept in its own file (%s): "
      .. "embed it in the map (Tiled: Map > Embed Tileset) so that its tile properties are "
      .. "exported", lname, x, y, gid, show(owner.name), owner.external)
  end
  index.props[gid] = NONE
  return NONE
end

-- Layers.

-- The layers of `map` in order, group layers' children in place of the group.
local function all_layers(map)
  local out = {}
  local function walk(list)
    for _, L in ipairs(list) do
      if type(L) == "table" then
        out[#out + 1] = L
        if L.type == "group" and type(L.layers) == "table" then walk(L.layers) end
      end
    end
  end
  walk(map.layers)
  return out
end

local function names_of(layers, kind)
  local names = {}
  for _, L in ipairs(layers) do
    if L.type == kind then names[#names + 1] = layer_name(L) end
  end
  return #names > 0 and table.concat(names, ", ") or "none"
end

local KIND = { tilelayer = "a tile layer", objectgroup = "an object layer" }

-- The layer `spec` (a name, or an index into map.layers) of type `kind`.
local function find_layer(map, spec, kind, fname)
  local L
  if type(spec) == "number" then
    L = map.layers[spec]
    if type(L) ~= "table" then
      fail(fname, "the map has no layer %s (it has %d)", show(spec), #map.layers)
    end
  else
    for _, l in ipairs(all_layers(map)) do
      if l.name == spec then L = l; break end
    end
    if not L then
      fail(fname, "no layer named %s (%s layers: %s)", show(spec),
        kind == "tilelayer" and "tile" or "object", names_of(all_layers(map), kind))
    end
  end
  if L.type ~= kind then
    fail(fname, "layer %s is %s, not %s", layer_name(L, spec), show(L.type), KIND[kind])
  end
  return L
end

-- The tile layers opts.layer / opts.layers name; every tile layer when neither does.
local function pick_tile_layers(map, opts, fname)
  if opts.layer ~= nil and opts.layers ~= nil then
    argerror(fname, 2, "options 'layer' and 'layers' cannot be used together")
  end
  local out = {}
  if opts.layer ~= nil then
    out[1] = find_layer(map, opts.layer, "tilelayer", fname)
  elseif opts.layers ~= nil then
    if #opts.layers == 0 then argerror(fname, 2, "option 'layers': an empty list") end
    for i, spec in ipairs(opts.layers) do
      if type(spec) ~= "string" and type(spec) ~= "number" then
        argerror(fname, 2, "option 'layers': item %d must be a layer name or index, got %s", i,
          type(spec))
      end
      out[i] = find_layer(map, spec, "tilelayer", fname)
    end
  else
    for _, L in ipairs(all_layers(map)) do
      if L.type == "tilelayer" then out[#out + 1] = L end
    end
  end
  if #out == 0 then fail(fname, "no tile layer to read (the map has none)") end
  return out
end

-- A layer's pixel offset. STI folds the layer's and the map's offsets into layer.x, layer.y
-- (and gives its layers a draw function); Tiled's exports keep them in offsetx, offsety.
local function offset_of(L, name, fname)
  local x, y = L.offsetx or 0, L.offsety or 0
  if type(L.draw) == "function" and type(L.x) == "number" and type(L.y) == "number" then
    x, y = L.x, L.y
  end
  for _, v in ipairs({ x, y }) do
    if type(v) ~= "number" or v ~= v or v == huge or v == -huge then
      fail(fname, "layer %s: its offset must be finite numbers, got %s, %s", name, show(x),
        show(y))
    end
  end
  return x, y
end

local function is_count(v)
  return type(v) == "number" and v >= 0 and v % 1 == 0 and v < huge
end

-- The tile blocks of layer L: its chunks (infinite maps), or the layer itself at (0, 0).
-- Each {x0 =, y0 =, w =, h =, data =} in tiles.
local function blocks_of(L, lname, fname)
  local list = {}
  local function add(b, x0, y0, what)
    if not (is_count(b.width) and is_count(b.height) and is_count(math.abs(x0))
        and is_count(math.abs(y0))) then
      fail(fname, "layer %s: %s needs integer width, height, x and y", lname, what)
    end
    if type(b.data) == "string" then
      fail(fname, "layer %s: its tiles are base64 data%s: set the map's Tile Layer Format to "
        .. "CSV (Map > Map Properties) and export it again", lname,
        b.compression and b.compression ~= "" and (" (" .. b.compression .. "-compressed)")
        or L.compression and L.compression ~= "" and (" (" .. L.compression .. "-compressed)")
        or "")
    end
    if type(b.data) ~= "table" then fail(fname, "layer %s: %s has no tile data", lname, what) end
    list[#list + 1] = { x0 = x0, y0 = y0, w = b.width, h = b.height, data = b.data }
  end
  if type(L.chunks) == "table" then
    for i, c in ipairs(L.chunks) do add(c, c.x, c.y, "chunk " .. i) end
  else
    add(L, 0, 0, "the layer")
  end
  return list
end

-- Tile layers to a grid.

-- What layer L says of grid cell (x, y) holding `raw` (a gid with flags; `props` given by
-- STI's tile tables, else looked up): false (blocked) or a cost.
local function verdict(ctx, lname, x, y, raw, props)
  local gid = raw % FLAGS
  props = props or tile_props(ctx.index, gid, ctx.fname, lname, x, y)
  if ctx.walkable then
    if not ctx.walkable(gid, props, x, y, lname) then return false end
  elseif props.walkable == false or props.collidable == true then
    return false
  end
  local c
  if ctx.costfn then
    c = ctx.costfn(gid, props, x, y, lname)
    if c == false or c == nil then return false end
  else
    c = props[ctx.costname]
    if c == nil then return 1 end
  end
  if type(c) ~= "number" or not (c > 0 and c < huge) then
    fail(ctx.fname, "layer %s cell (%d, %d): cost must be a positive finite number, got %s",
      lname, x, y, show(c))
  end
  return c
end

-- Visits each tile of block b: calls visit(tx, ty, raw gid, properties or nil) for the
-- non-empty ones. Flat data is a gid per tile, row by row; STI's is rows of tile tables.
local function each_tile(b, lname, fname, visit)
  local w, data = b.w, b.data
  if type(data[1]) == "table" then
    for y = 1, b.h do
      local row = data[y] or NONE
      for x = 1, w do
        local t = row[x]
        if t ~= nil then visit(b.x0 + x - 1, b.y0 + y - 1, t.gid, props_of(t.properties)) end
      end
    end
    return
  end
  if #data ~= w * b.h then
    fail(fname, "layer %s: %d gids for %dx%d tiles", lname, #data, w, b.h)
  end
  for i = 1, w * b.h do
    local raw = data[i]
    if raw ~= 0 then visit(b.x0 + (i - 1) % w, b.y0 + floor((i - 1) / w), raw) end
  end
end

-- The tile bounds of the blocks of every layer: x0, y0, w, h.
local function bounds_of(layer_blocks)
  local x0, y0, x1, y1 = huge, huge, -huge, -huge
  for _, blocks in ipairs(layer_blocks) do
    for _, b in ipairs(blocks) do
      if b.w > 0 and b.h > 0 then
        x0, y0 = math.min(x0, b.x0), math.min(y0, b.y0)
        x1, y1 = math.max(x1, b.x0 + b.w), math.max(y1, b.y0 + b.h)
      end
    end
  end
  return x0, y0, x1 - x0, y1 - y0
end

-- Every tile of a layer (its blocks) into cells (index -> false | cost).
local function read_layer(ctx, lname, blocks, cells)
  local bx0, by0, W = ctx.x0, ctx.y0, ctx.w
  for _, b in ipairs(blocks) do
    each_tile(b, lname, ctx.fname, function(tx, ty, raw, props)
      local x, y = tx - bx0 + 1, ty - by0 + 1
      if type(raw) ~= "number" or raw < 0 or raw >= GID_LIMIT or raw % 1 ~= 0 then
        fail(ctx.fname, "layer %s cell (%d, %d): a gid must be an integer in [0, 2^32), got %s",
          lname, x, y, show(raw))
      end
      if raw % FLAGS == 0 then return end
      local c = verdict(ctx, lname, x, y, raw, props)
      local i = (y - 1) * W + x
      local old = cells[i]
      if c == false or old == false then
        cells[i] = false
      elseif old == nil or c > old then
        cells[i] = c
      end
    end)
  end
end

-- The origin of the grid's cell (1, 1) in pixels, the same for every layer read.
local function origin_of(layers, names, fname)
  local ox, oy = offset_of(layers[1], names[1], fname)
  for i = 2, #layers do
    local x, y = offset_of(layers[i], names[i], fname)
    if x ~= ox or y ~= oy then
      fail(fname, "layers %s and %s have different offsets (%s, %s) and (%s, %s)", names[1],
        names[i], show(ox), show(oy), show(x), show(y))
    end
  end
  return ox, oy
end

local GRID_OPTS = { layer = "string|number", layers = "table", walkable = "function",
  cost = "string|function", empty = "boolean", tilesets = "table" }

--- A grid from the tile layers of a Tiled map (`astar.tiled.grid`).
-- Cell `(x, y)` of the grid is the tile in column `x`, row `y` (1-based: Tiled's tile
-- `(x - 1, y - 1)`); on an infinite map the grid spans the chunks, cell `(1, 1)` being the
-- top-left tile of the leftmost and topmost ones.
--
-- A tile's gid has its flip flags cleared (the 4 high bits) and its properties are its
-- tileset's custom properties for it. By default a tile is blocked when its properties say
-- `walkable = false` or `collidable = true` (STI's convention), and costs its `cost` property
-- (default 1). A cell without a tile is walkable at cost 1 (blocked with `empty = false`).
--
-- Several layers (every tile layer by default) are read together: a cell is blocked when a
-- tile of any of them blocks it, and otherwise costs the largest cost of its tiles (so a tile
-- without a cost property never lowers another's; order does not matter).
--
-- The grid gets the map's tile size and the layers' pixel offset as its world frame
-- (@{Grid:set_world}; also the second result), so `grid:to_cell`, `grid:to_world` and
-- `grid:find_world` take and give the map's pixels: cell `(x, y)` covers
-- `[ox + (x-1)*tw, ox + x*tw] x [oy + (y-1)*th, oy + y*th]`.
-- @tparam table map a Tiled map (Lua export, decoded JSON export, or an STI map), or one tile
--   layer of one (then `opts.tilesets` gives the tilesets, and there is no world frame)
-- @tparam[opt] table opts
--
-- - `layer`: the layer to read, by name (group layers are searched) or index in `map.layers`
-- - `layers`: a list of them, read together
-- - `walkable`: `function(gid, props, x, y, layer) -> boolean` in place of the default rule;
--   `props` is the tile's properties (read-only; `{}` for none), `layer` the layer's name in
--   quotes as messages show it. Not called for cells without a tile.
-- - `cost`: the property holding a tile's cost (default `"cost"`), or
--   `function(gid, props, x, y, layer) -> cost`, `false` or `nil` blocking the cell
-- - `empty`: `false` blocks the cells without a tile in any layer read (default `true`)
-- - `tilesets`: the map's tilesets, when `map` is a bare tile layer
-- @treturn Grid
-- @treturn[opt] table the world frame `{tile = {tw, th}, origin = {ox, oy}}` (nil for a
--   bare layer)
-- @raise `bad argument #n to 'astar.tiled.grid' (...)` for wrong arguments or options;
--   `astar.tiled.grid: ...` for a map it cannot read, naming the layer and cell, e.g.
--   `astar.tiled.grid: layer 'ground' cell (3, 4): cost must be a positive finite number,
--   got -1`, `... isometric maps are not supported (only orthogonal ones)`,
--   `... layer 'ground': its tiles are base64 data (zlib-compressed): set the map's Tile Layer
--   Format to CSV (Map > Map Properties) and export it again`
-- @usage
-- local map = {                                  -- as Tiled's Lua export writes it
--   orientation = "orthogonal", width = 4, height = 2, tilewidth = 16, tileheight = 16,
--   tilesets = { { firstgid = 1, tiles = {
--     { id = 1, properties = { walkable = false } },      -- gid 2: a wall
--     { id = 2, properties = { cost = 3 } } } } },         -- gid 3: mud
--   layers = { { type = "tilelayer", name = "ground", width = 4, height = 2,
--     encoding = "lua", data = { 1, 2, 1, 1,
--                                3, 0x80000003, 1, 1 } } },  -- a flipped mud tile
-- }
-- local grid = astar.tiled.grid(map)
-- print(grid:walkable(2, 1), grid:get(1, 2), grid:get(2, 2))   --> false 3 3
-- print(grid:find(1, 1, 4, 2):cost())      --> 8
-- print(grid:world())                      --> 16 16 0 0
-- print(grid:to_cell(40, 20))               --> 3 2
-- print(grid:render())
-- --> .#..
-- --> 33..
function M.grid(map, opts)
  local fname = "astar.tiled.grid"
  if type(map) ~= "table" then
    argerror(fname, 1, "Tiled map or tile layer expected, got %s", type(map))
  end
  opts = check_opts(fname, 2, opts, GRID_OPTS)
  local layers, index
  if map.layers ~= nil then
    if type(map.layers) ~= "table" then argerror(fname, 1, "map.layers is not a table") end
    check_orientation(map, fname)
    layers, index = pick_tile_layers(map, opts, fname), tileset_index(map.tilesets, fname)
  elseif map.data ~= nil or map.chunks ~= nil then
    layers, index = { map }, tileset_index(opts.tilesets, fname)
  else
    argerror(fname, 1, "Tiled map or tile layer expected, got a table with neither layers nor data")
  end
  local names, blocks = {}, {}
  for i, L in ipairs(layers) do
    names[i] = layer_name(L, i)
    blocks[i] = blocks_of(L, names[i], fname)
  end
  local x0, y0, w, h = bounds_of(blocks)
  if w <= 0 or h <= 0 then fail(fname, "layer %s has no tiles (width or height 0)", names[1]) end
  if w * h > 2 ^ 28 then                          -- before a table of every cell is built
    fail(fname, "the tiles span %.0f x %.0f cells, more than a grid holds (2^28 in all)", w, h)
  end
  local ctx = { fname = fname, index = index, x0 = x0, y0 = y0, w = w,
    walkable = opts.walkable, costfn = type(opts.cost) == "function" and opts.cost,
    costname = type(opts.cost) == "string" and opts.cost or "cost" }
  local cells = {}
  for i in ipairs(layers) do read_layer(ctx, names[i], blocks[i], cells) end
  local empty = opts.empty ~= false and 1
  local rows = {}
  for y = 1, h do
    local row = {}
    for x = 1, w do
      local c = cells[(y - 1) * w + x]
      if c == nil then c = empty end
      row[x] = c
    end
    rows[y] = row
  end
  local grid = core.grid_from_table(rows)
  local tw, th = map.tilewidth, map.tileheight
  if map.layers == nil or type(tw) ~= "number" or type(th) ~= "number" then return grid end
  if not (tw > 0 and th > 0 and tw < huge and th < huge) then
    fail(fname, "the map's tilewidth and tileheight must be positive finite numbers, got %s, %s",
      show(tw), show(th))
  end
  local ox, oy = origin_of(layers, names, fname)
  local frame = { tile = { tw, th }, origin = { ox + x0 * tw, oy + y0 * th } }
  grid:set_world(frame)
  return grid, frame
end

-- Object layers to a navmesh.

-- The shape of object o: the Lua export says it in `shape`, JSON with a flag or a field.
local function shape_of(o)
  if type(o.shape) == "string" then return o.shape end
  for _, s in ipairs({ "ellipse", "point", "polygon", "polyline", "text" }) do
    if o[s] then return s end
  end
  return "rectangle"
end

-- cos and sin of `deg` degrees, exact at multiples of 90.
local function turn(deg)
  local q = deg % 360
  if q == 0 then return 1, 0 elseif q == 90 then return 0, 1
  elseif q == 180 then return -1, 0 elseif q == 270 then return 0, -1 end
  return cos(rad(deg)), sin(rad(deg))
end

-- Points given relative to the object's (x, y), turned by its rotation (degrees, clockwise
-- on screen, y down) about that point and moved by the layer's offset (dx, dy).
local function place(o, rel, dx, dy)
  local c, s = turn(o.rotation or 0)
  local out = {}
  for i = 1, #rel, 2 do
    local px, py = rel[i], rel[i + 1]
    out[i] = o.x + dx + px * c - py * s
    out[i + 1] = o.y + dy + px * s + py * c
  end
  return out
end

-- A polygon around the ellipse in the box w x h: n points on the ellipse scaled by
-- 1 / cos(pi / n), so that its edges touch the ellipse and never cut into it.
local function ellipse_points(w, h, n)
  local k, rel = 1 / cos(pi / n), {}
  for i = 0, n - 1 do
    local a = 2 * pi * i / n
    rel[2 * i + 1] = w / 2 + w / 2 * k * cos(a)
    rel[2 * i + 2] = h / 2 + h / 2 * k * sin(a)
  end
  return rel
end

local function check_number(v, field, what, fname)
  if type(v) ~= "number" or v ~= v or v == huge or v == -huge then
    fail(fname, "%s: %s must be a finite number, got %s", what, field, show(v))
  end
end

-- The ring {x1, y1, ...} of object o in pixels, or nil for shapes that enclose nothing
-- (points, polylines, text, rectangles and ellipses of zero size).
local function ring_of(o, sti, dx, dy, segments, what, fname)
  local shape = shape_of(o)
  if shape == "point" or shape == "polyline" or shape == "text" then return nil end
  check_number(o.x, "x", what, fname)
  check_number(o.y, "y", what, fname)
  if o.rotation ~= nil then check_number(o.rotation, "rotation", what, fname) end
  if shape == "polygon" then
    if type(o.polygon) ~= "table" then fail(fname, "%s: polygon has no points", what) end
    local rel = {}
    for i, p in ipairs(o.polygon) do
      if type(p) ~= "table" then fail(fname, "%s: polygon point %d is not a table", what, i) end
      check_number(p.x, ("polygon point %d's x"):format(i), what, fname)
      check_number(p.y, ("polygon point %d's y"):format(i), what, fname)
      rel[2 * i - 1], rel[2 * i] = p.x, p.y
    end
    if sti then return rel end                   -- STI made them absolute, offset and turned
    return place(o, rel, dx, dy)
  end
  local w, h = o.width or 0, o.height or 0
  check_number(w, "width", what, fname)
  check_number(h, "height", what, fname)
  if w == 0 or h == 0 then return nil end
  if shape == "ellipse" then return place(o, ellipse_points(w, h, segments), dx, dy) end
  if shape ~= "rectangle" then fail(fname, "%s: unknown shape %s", what, show(shape)) end
  if o.gid then                                  -- a tile object stands on (x, y)
    return place(o, { 0, -h, w, -h, w, 0, 0, 0 }, dx, dy)
  end
  return place(o, { 0, 0, w, 0, w, h, 0, h }, dx, dy)
end

local function describe(o, k)
  local id = o.id and (" (id " .. tostring(o.id) .. ")") or ""
  if type(o.name) == "string" and o.name ~= "" then
    return ("object %s%s"):format(show(o.name), id)
  end
  return ("object %s"):format(o.id and tostring(o.id) or ("#" .. k))
end

-- from_polygons' message in the layer's terms: holes and the outline become objects.
local function translate(err, outline_name, hole_names, where, fname)
  local inner = tostring(err):match("^bad argument #%d+ to 'from_polygons' %((.*)%)$")
  if not inner then fail(fname, "%s: %s", where, tostring(err)) end
  inner = inner:gsub("the outline", outline_name):gsub("^outline", outline_name)
    :gsub("hole (%d+)", function(i) return hole_names[tonumber(i)] end)
  local hint = ""
  if inner:find(" touches ", 1, true) or inner:find(" overlaps ", 1, true)
      or inner:find(" crosses ", 1, true) and not inner:find("itself", 1, true) then
    hint = " (obstacles must lie strictly inside the walkable area and apart: join touching ones "
      .. "into one polygon)"
  end
  fail(fname, "%s: %s%s", where, inner, hint)
end

local NAVMESH_OPTS = { outline = "string", segments = "number" }

--- A navigation mesh from an object layer of a Tiled map (`astar.tiled.navmesh`).
-- Coordinates are the map's pixels, as the objects have them (plus the layer's offset): the
-- same as a grid's world frame from @{grid}. By default the walkable area is the map's
-- rectangle `[0, width * tilewidth] x [0, height * tileheight]` and every object of the layer
-- is an obstacle. An object whose custom property `walkable` is `true` (or whose name is
-- `opts.outline`) is the walkable area instead (at most one; infinite maps need one).
--
-- Shapes: rectangles, polygons and tile objects as they are; ellipses as the polygon of
-- `opts.segments` sides (default 16) around them, so a path never cuts into the ellipse;
-- points, polylines and text are ignored (spawn points, patrol routes, labels). Rotation is
-- in degrees, clockwise, about the object's `(x, y)`, as Tiled draws it.
--
-- Obstacles must lie strictly inside the walkable area and must not touch or overlap one
-- another (@{astar.navmesh.from_polygons}' rule): the error names the two objects, so that
-- they can be joined into one polygon in Tiled.
-- @tparam table map a Tiled map (Lua export, decoded JSON export, or an STI map)
-- @tparam string|number layer the object layer, by name or index in `map.layers`
-- @tparam[opt] table opts `outline` (an object's name), `segments` (an integer >= 3)
-- @treturn NavMesh
-- @raise `bad argument #n to 'astar.tiled.navmesh' (...)` for wrong arguments;
--   `astar.tiled.navmesh: ...` for a layer it cannot use, e.g. `astar.tiled.navmesh: layer
--   'walls': object 'rock' (id 4) overlaps object 'tree' (id 7) (obstacles must lie ...)`,
--   `... layer 'walls': object 2 touches the map's bounds (...)`
-- @usage
-- local map = {
--   orientation = "orthogonal", width = 10, height = 10, tilewidth = 32, tileheight = 32,
--   layers = { { type = "objectgroup", name = "walls", objects = {
--     { id = 1, shape = "rectangle", x = 64, y = 16, width = 32, height = 240 } } } },
-- }
-- local mesh = astar.tiled.navmesh(map, "walls")
-- local path = assert(mesh:find(32, 64, 128, 64))    -- over the wall's top
-- print(#path, path:get(2))                    --> 4 64 16
function M.navmesh(map, layer, opts)
  local fname = "astar.tiled.navmesh"
  if type(map) ~= "table" or type(map.layers) ~= "table" then
    argerror(fname, 1, "Tiled map expected, got %s",
      type(map) == "table" and "a table without layers" or type(map))
  end
  if type(layer) ~= "string" and type(layer) ~= "number" then
    argerror(fname, 2, "layer name or index expected, got %s", type(layer))
  end
  opts = check_opts(fname, 3, opts, NAVMESH_OPTS)
  local segments = opts.segments or 16
  if segments % 1 ~= 0 or segments < 3 or segments > 1024 then
    argerror(fname, 3, "option 'segments' must be an integer in [3, 1024], got %s", show(segments))
  end
  check_orientation(map, fname)
  local L = find_layer(map, layer, "objectgroup", fname)
  local where = "layer " .. layer_name(L, layer)
  local sti = type(L.draw) == "function"
  local dx, dy = offset_of(L)
  local outline, outline_name, holes, hole_names, named = nil, nil, {}, {}, false
  for k, o in ipairs(type(L.objects) == "table" and L.objects or NONE) do
    local what = where .. ": " .. describe(o, k)
    local ring = ring_of(o, sti, dx, dy, segments, what, fname)
    local props = props_of(o.properties)
    named = named or (ring and opts.outline ~= nil and o.name == opts.outline)
    if ring and (props.walkable == true or (opts.outline ~= nil and o.name == opts.outline)) then
      if outline then
        fail(fname, "%s: two walkable areas, %s and %s (at most one)", where, outline_name,
          describe(o, k))
      end
      outline, outline_name = ring, describe(o, k)
    elseif ring then
      holes[#holes + 1], hole_names[#holes + 1] = ring, describe(o, k)
    end
  end
  if opts.outline ~= nil and not named then
    fail(fname, "%s: no object named %s with an area (option 'outline')", where, show(opts.outline))
  end
  if not outline then
    if map.infinite then
      fail(fname, "%s: an infinite map has no bounds: give the walkable area as an object with "
        .. "the property walkable = true (or name it in option 'outline')", where)
    end
    local mx, my = sti and (map.offsetx or 0) or 0, sti and (map.offsety or 0) or 0
    local W, H = (map.width or 0) * (map.tilewidth or 0), (map.height or 0) * (map.tileheight or 0)
    outline, outline_name = { mx, my, mx + W, my, mx + W, my + H, mx, my + H }, "the map's bounds"
  end
  local ok, desc = pcall(require("astar.navmesh").from_polygons, outline, holes)
  if not ok then translate(desc, outline_name, hole_names, where, fname) end
  return core.navmesh_new(desc)
end

return M
