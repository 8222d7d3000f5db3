rockspec_format = "3.0"
package = "astar"
version = "scm-1"
-- The development rockspec: `luarocks make` from a checkout (it never fetches). `make rock`
-- writes a release rockspec and a source rock from it (tools/rock_check.sh), which users can
-- `luarocks install` offline.
source = {
  url = "git+file:///astar",
}
description = {
  summary = "Fast, correct-by-default pathfinding for Lua: grids, graphs, navmeshes, a C core",
  detailed = [[
    Tile grids with terrain costs, waypoint graphs, implicit state spaces and
    navigation meshes; A*, jump point search (online and JPS+), Dijkstra, BFS,
    greedy, bidirectional search and D* Lite in a pure-C core; distance fields,
    time-sliced queries and a frame-budget scheduler. One C99 source serves
    Lua 5.1, 5.2, 5.3, 5.4 and LuaJIT (LOVE, Defold, Solar2D). Default options
    return shortest paths.
  ]],
  license = "MIT",
  labels = { "pathfinding", "astar", "gamedev", "love" },
}
dependencies = {
  "lua >= 5.1",
}
build = {
  type = "builtin",
  modules = {
    ["astar.core"] = {
      sources = {
        "src/core/curve.c", "src/core/dstar.c", "src/core/funnel.c", "src/core/graph.c",
        "src/core/grid.c", "src/core/grid_class.c", "src/core/grid_coop.c",
        "src/core/grid_dir.c", "src/core/grid_hex.c", "src/core/grid_hier.c",
        "src/core/grid_line.c", "src/core/grid_link.c", "src/core/grid_pull.c",
        "src/core/grid_wrap.c", "src/core/jps.c", "src/core/jps_plus.c", "src/core/mem.c",
        "src/core/navmesh.c", "src/core/navmesh_exact.c", "src/core/navmesh_funnel.c",
        "src/core/navmesh_grid.c", "src/core/navmesh_link.c", "src/core/navmesh_locate.c",
        "src/core/navmesh_portal.c", "src/core/search.c", "src/core/workers.c",
        "src/lua/core.c", "src/lua/curve.c", "src/lua/field.c", "src/lua/find.c",
        "src/lua/graph.c", "src/lua/grid.c", "src/lua/grid_class.c", "src/lua/grid_coop.c",
        "src/lua/grid_dir.c", "src/lua/grid_hex.c", "src/lua/grid_hier.c",
        "src/lua/grid_line.c", "src/lua/grid_link.c", "src/lua/grid_load.c",
        "src/lua/grid_world.c", "src/lua/grid_wrap.c", "src/lua/implicit.c",
        "src/lua/navmesh.c", "src/lua/navmesh_link.c", "src/lua/options.c", "src/lua/path.c",
        "src/lua/query.c", "src/lua/replanner.c", "src/lua/workers.c"
      },
      incdirs = { "src/core" },
    },
    -- modules (tools/sources.lua)
    ["astar"] = "lua/astar.lua",
    ["astar.compat.jumper"] = "lua/astar/compat/jumper.lua",
    ["astar.follow"] = "lua/astar/follow.lua",
    ["astar.love"] = "lua/astar/love.lua",
    ["astar.movingai"] = "lua/astar/movingai.lua",
    ["astar.navmesh"] = "lua/astar/navmesh.lua",
    ["astar.scheduler"] = "lua/astar/scheduler.lua",
    ["astar.tiled"] = "lua/astar/tiled.lua",
    -- end of modules
  },
  -- LuaCATS annotations for lua-language-server (README: Editor support).
  copy_directories = { "types" },
  -- libm is a separate library on Unix only (mingw and MSVC have it in their C runtime).
  platforms = {
    unix = { modules = { ["astar.core"] = { libraries = { "m", "pthread" } } } },
  },
}
test = {
  type = "busted",
}
