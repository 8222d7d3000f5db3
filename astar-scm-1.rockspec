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
        "src/core/grid.c", "src/core/mem.c", "src/core/search.c", "src/core/graph.c",
        "src/core/dstar.c", "src/core/navmesh.c", "src/lua/replanner.c", "src/lua/navmesh.c",
        "src/lua/core.c", "src/lua/grid.c", "src/lua/path.c",
        "src/lua/graph.c", "src/lua/field.c", "src/lua/implicit.c", "src/lua/query.c",
      },
      incdirs = { "src/core" },
      libraries = { "m" },
    },
    astar = "lua/astar.lua",
    ["astar.movingai"] = "lua/astar/movingai.lua",
    ["astar.scheduler"] = "lua/astar/scheduler.lua",
    ["astar.navmesh"] = "lua/astar/navmesh.lua",
  },
}
test = {
  type = "command",
  command = "make test",
}
