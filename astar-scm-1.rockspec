rockspec_format = "3.0"
package = "astar"
version = "scm-1"
source = {
  url = "git+file:///astar",
}
description = {
  summary = "Fast, correct-by-default pathfinding for Lua: grids, A*-family search, a C core",
  detailed = [[
    Tile grids with terrain costs and A*, weighted A*, Dijkstra, BFS and greedy
    search in a pure-C core. One C source serves Lua 5.4 and LuaJIT (LOVE,
    Defold, Solar2D). Default options return shortest paths.
  ]],
  license = "MIT",
}
dependencies = {
  "lua >= 5.1",
}
build = {
  type = "builtin",
  modules = {
    ["astar.core"] = {
      sources = {
        "src/core/dstar.c", "src/core/graph.c", "src/core/grid.c", "src/core/jps.c",
        "src/core/jps_plus.c", "src/core/mem.c", "src/core/navmesh.c",
        "src/core/navmesh_exact.c", "src/core/navmesh_funnel.c", "src/core/navmesh_grid.c",
        "src/core/navmesh_locate.c", "src/core/navmesh_portal.c", "src/core/search.c",
        "src/lua/core.c", "src/lua/field.c", "src/lua/find.c", "src/lua/graph.c",
        "src/lua/grid.c", "src/lua/grid_load.c", "src/lua/implicit.c", "src/lua/navmesh.c",
        "src/lua/options.c", "src/lua/path.c", "src/lua/query.c", "src/lua/replanner.c"
      },
      incdirs = { "src/core" },
      libraries = { "m" },
    },
    -- modules (tools/sources.lua)
    ["astar"] = "lua/astar.lua",
    ["astar.movingai"] = "lua/astar/movingai.lua",
    ["astar.navmesh"] = "lua/astar/navmesh.lua",
    ["astar.scheduler"] = "lua/astar/scheduler.lua",
    -- end of modules
  },
}
test = {
  type = "command",
  command = "make test",
}
