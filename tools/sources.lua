-- sources.lua - the one list of the project's sources, as the tree has them:
-- every src/core/*.c and src/lua/*.c is compiled into astar.core, every
-- lua/**/*.lua is a module, every src/lua/*.c and Lua module goes to LDoc.
-- The Makefile and tools/doc_coverage.lua list the directories themselves; the
-- rockspec (luarocks reads it in a sandbox that cannot list a directory) and
-- config.ld carry copies, which this tool writes and checks:
--
--   lua5.4 tools/sources.lua          -- check (make lint): fails naming what is missing
--   lua5.4 tools/sources.lua --write  -- rewrite both copies from the tree (make sources)
local function ls(pattern)
  local out, p = {}, assert(io.popen("ls " .. pattern .. " 2>/dev/null"))
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

local function write(path, s)
  local f = assert(io.open(path, "wb"))
  f:write(s)
  f:close()
end

local csrc = ls("src/core/*.c")
for _, f in ipairs(ls("src/lua/*.c")) do csrc[#csrc + 1] = f end
local lmods = ls("lua/*.lua lua/*/*.lua")

-- "lua/astar/navmesh.lua" -> "astar.navmesh"
local function modname(path)
  return (path:gsub("^lua/", ""):gsub("%.lua$", ""):gsub("/init$", ""):gsub("/", "."))
end

local function quoted(list, indent, width)
  local lines, line = {}, indent
  for i, item in ipairs(list) do
    local piece = ('"%s"'):format(item) .. (i < #list and "," or "")
    if #line + #piece + 1 > width and line ~= indent then
      lines[#lines + 1] = line
      line = indent
    end
    line = line .. (line == indent and "" or " ") .. piece
  end
  lines[#lines + 1] = line
  return table.concat(lines, "\n")
end

-- The generated parts, between the markers that stay in each file.
local function rock_sources()
  return "      sources = {\n" .. quoted(csrc, "        ", 96) .. "\n      },"
end
local function rock_modules()
  local out = {}
  for _, f in ipairs(lmods) do
    out[#out + 1] = ('    ["%s"] = "%s",'):format(modname(f), f)
  end
  return table.concat(out, "\n")
end
local function ldoc_files()
  local files = { "lua" }
  for _, f in ipairs(ls("src/lua/*.c")) do
    if read(f):find("\n/%*%*%*\n") or read(f):find("^/%*%*%*\n") then files[#files + 1] = f end
  end
  return "file = {\n" .. quoted(files, "  ", 96) .. "\n}"
end

local GEN = {
  { file = "astar-scm-1.rockspec", from = "      sources = {\n", to = "\n      },", make = rock_sources },
  { file = "astar-scm-1.rockspec", from = "    -- modules (tools/sources.lua)\n", to = "\n    -- end of modules",
    make = rock_modules, inner = true },
  { file = "config.ld", from = "file = {\n", to = "\n}", make = ldoc_files },
}

local mode, bad = arg[1], {}
for _, g in ipairs(GEN) do
  local s = read(g.file)
  local a = s:find(g.from, 1, true)
  local b = a and s:find(g.to, a, true)
  if not b then
    bad[#bad + 1] = ("%s: markers %q ... %q not found"):format(g.file, g.from, g.to)
  else
    local head, body, tail = s:sub(1, a - 1), s:sub(a, b + #g.to - 1), s:sub(b + #g.to)
    local want = g.make()
    if g.inner then want = g.from .. want .. g.to end
    if body ~= want then
      if mode == "--write" then
        write(g.file, head .. want .. tail)
      else
        for _, f in ipairs(g.inner and lmods or csrc) do
          if not body:find('"' .. f .. '"', 1, true) and g.file:find("rockspec") then
            bad[#bad + 1] = ("%s is not in %s"):format(f, g.file)
          end
        end
        bad[#bad + 1] = ("%s is not what the tree has (run make sources)"):format(g.file)
      end
    end
  end
end
if #bad > 0 then
  io.stderr:write(table.concat(bad, "\n") .. "\n")
  os.exit(1)
end
print(("sources: %d C files, %d Lua modules%s"):format(#csrc, #lmods,
  mode == "--write" and " written" or " listed everywhere"))
