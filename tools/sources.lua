-- sources.lua - the one list of sources is the tree itself:
--   every src/core/*.c and src/lua/*.c is compiled into astar.core (*.h are headers),
--   every lua/**/*.lua is a Lua module ("lua/astar/navmesh.lua" is astar.navmesh).
-- Whoever can list a directory does: the Makefile (wildcard), config.ld (LDoc takes the
-- directories "lua" and "src/lua") and tools/doc_coverage.lua (ls). Only the rockspec cannot
-- (luarocks loads it in a sandbox), so it carries a copy that this tool checks and writes:
--
--   lua5.4 tools/sources.lua          -- check (make lint): names each file missing or stale
--   lua5.4 tools/sources.lua --write  -- rewrite the rockspec's two lists (make sources)
local ROCK = "astar-scm-1.rockspec"

local function ls(cmd)
  local out, p = {}, assert(io.popen(cmd .. " 2>/dev/null"))
  for line in p:lines() do out[#out + 1] = line end
  p:close()
  table.sort(out)
  return out
end

local function read(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("*a")
  f:close()
  return s
end

-- "lua/astar/navmesh.lua" -> "astar.navmesh"
local function modname(path)
  return (path:gsub("^lua/", ""):gsub("%.lua$", ""):gsub("/init$", ""):gsub("/", "."))
end

-- What the tree has.
local csrc = ls("ls src/core/*.c src/lua/*.c")
local lmods = ls("find lua -name '*.lua'")

local rock = read(ROCK)

if arg[1] == "--write" then
  -- The C sources: the lines between `sources = {` and its `},`, wrapped at 96 columns.
  local lines, line = {}, "       "
  for i, f in ipairs(csrc) do
    local piece = ' "' .. f .. '"' .. (i < #csrc and "," or "")
    if #line + #piece > 96 and line ~= "       " then lines[#lines + 1], line = line, "       " end
    line = line .. piece
  end
  lines[#lines + 1] = line
  -- The Lua modules: the lines between the two marker comments.
  local mods = {}
  for _, f in ipairs(lmods) do mods[#mods + 1] = ('    ["%s"] = "%s",'):format(modname(f), f) end
  local n1, n2
  rock, n1 = rock:gsub("(\n%s*sources = {\n).-(\n%s*},)",
    function(a, b) return a .. table.concat(lines, "\n") .. b end, 1)
  rock, n2 = rock:gsub("(\n%s*%-%- modules %(tools/sources%.lua%)\n).-(\n%s*%-%- end of modules)",
    function(a, b) return a .. table.concat(mods, "\n") .. b end, 1)
  if n1 ~= 1 or n2 ~= 1 then
    io.stderr:write(ROCK .. ": `sources = {` or the `-- modules (tools/sources.lua)` / "
      .. "`-- end of modules` markers not found\n")
    os.exit(1)
  end
  local f = assert(io.open(ROCK, "wb"))
  f:write(rock)
  f:close()
  print(("sources: %d C files, %d Lua modules written to %s"):format(#csrc, #lmods, ROCK))
  return
end

-- Check: load the rockspec as luarocks does and compare both ways.
local spec = {}
assert(load(rock, "@" .. ROCK, "t", spec))()
local modules = spec.build.modules
local bad, listed = {}, {}
for _, f in ipairs(modules["astar.core"].sources) do listed[f] = true end
for _, f in ipairs(csrc) do
  if not listed[f] then bad[#bad + 1] = f .. " is not in " .. ROCK end
  listed[f] = nil
end
for f in pairs(listed) do bad[#bad + 1] = f .. " is in " .. ROCK .. " but not in the tree" end
local lua_files = {}
for _, f in ipairs(lmods) do
  lua_files[f] = true
  if modules[modname(f)] ~= f then bad[#bad + 1] = f .. " is not in " .. ROCK end
end
for name, f in pairs(modules) do
  if type(f) == "string" and not lua_files[f] then
    bad[#bad + 1] = ("%s (module %s) is in %s but not in the tree"):format(f, name, ROCK)
  end
end
if #bad > 0 then
  table.sort(bad)
  io.stderr:write(table.concat(bad, " (run make sources)\n") .. " (run make sources)\n")
  os.exit(1)
end
print(("sources: %d C files, %d Lua modules, all in %s"):format(#csrc, #lmods, ROCK))
