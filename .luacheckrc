std = "max"
exclude_files = { "lua_modules", "build", "examples/love/lib" }
files["spec"] = { std = "+busted" }
files["examples/love"] = { std = "luajit+love" }
