# astar - build, test and demo for Lua 5.4 and LuaJIT from one C source.
# The two commands of the README: `make demo` and `make test`. Both install what is missing.

CC      ?= cc
OPT     ?= -O2
WARN     = -std=c99 -Wall -Wextra -pedantic -Wshadow -Wmissing-prototypes
CFLAGS_ALL = $(OPT) -g $(WARN) $(WERROR) -fPIC -fvisibility=hidden -Isrc/core $(EXTRA_CFLAGS)
INC54    = -I/usr/include/lua5.4
INCJIT   = -I/usr/include/luajit-2.1

CORE_SRC = $(wildcard src/core/*.c)
LUA_SRC  = $(wildcard src/lua/*.c)
HDR      = $(wildcard src/core/*.h src/lua/*.h)
SRC      = $(CORE_SRC) $(LUA_SRC)

SO54   = build/5.4/astar/core.so
SOJIT  = build/jit/astar/core.so
SOASAN = build/asan/astar/core.so

LPATH  = ./lua/?.lua;./lua/?/init.lua;;
ENV54  = EXPECT_INTERP='Lua 5.4' LUA_PATH_5_4='$(LPATH)' LUA_CPATH_5_4='./build/5.4/?.so;;'
ENVJIT = EXPECT_INTERP='LuaJIT'  LUA_PATH='$(LPATH)'     LUA_CPATH='./build/jit/?.so;;'
BUSTED = /usr/bin/busted -o utfTerminal

SHARED ?= ../shared
export ASTAR_MOVINGAI ?= $(abspath $(SHARED)/benchmarks/movingai)

.PHONY: all setup build demo test test54 testjit ctest asan werror check-core lint docs \
        love bench rock sources ci clean

all: build

setup:
	@sh ./setup.sh

build: setup $(SO54) $(SOJIT)

$(SO54): $(SRC) $(HDR) | setup
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(INC54) -shared -o $@ $(SRC) -lm

$(SOJIT): $(SRC) $(HDR) | setup
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(INCJIT) -shared -o $@ $(SRC) -lm

demo: build
	$(ENV54)  lua5.4 examples/quickstart.lua
	$(ENVJIT) luajit examples/quickstart.lua

test: build
	$(ENV54)  lua5.4 $(BUSTED) spec
	$(ENVJIT) luajit $(BUSTED) spec

test54: build
	$(ENV54)  lua5.4 $(BUSTED) spec
testjit: build
	$(ENVJIT) luajit $(BUSTED) spec

# The pure C core on its own, with a failing allocator, under ASan + UBSan.
ctest: setup
	@mkdir -p build/c
	@for t in spec/c/test_*.c; do b=build/c/$$(basename $$t .c); \
	  echo "$$t"; \
	  $(CC) -O1 -g $(WARN) -Werror -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	    -fno-omit-frame-pointer -Isrc/core -o $$b $$t $(CORE_SRC) -lm && \
	  ASAN_OPTIONS=detect_leaks=1 $$b || exit 1; done

# The whole spec suite against a module built with AddressSanitizer + UBSan (Lua 5.4).
# ASTAR_SCEN_LIMIT keeps the Moving AI part short: the sanitizer run is about memory, not speed.
asan: setup
	@mkdir -p $(dir $(SOASAN))
	$(CC) -O1 -g $(WARN) -fPIC -Isrc/core $(INC54) -fno-omit-frame-pointer \
	  -fsanitize=address,undefined -fno-sanitize-recover=undefined -shared -o $(SOASAN) $(SRC) -lm
	LD_PRELOAD="$$($(CC) -print-file-name=libasan.so)" ASAN_OPTIONS=detect_leaks=1 \
	  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASTAR_SCEN_LIMIT=200 \
	  EXPECT_INTERP='Lua 5.4' LUA_PATH_5_4='$(LPATH)' LUA_CPATH_5_4='./build/asan/?.so;;' \
	  lua5.4 $(BUSTED) spec

# Both ABIs with warnings as errors; and the core must never see a Lua header.
werror: setup check-core
	$(MAKE) --no-print-directory -B WERROR=-Werror $(SO54) $(SOJIT)

check-core:
	@if grep -nE '#[[:space:]]*include[[:space:]]*[<"](lua|lauxlib|lualib|luajit)' src/core/*; then \
	  echo "src/core must not include Lua headers" >&2; exit 1; else echo "src/core: no Lua headers"; fi

lint:
	@sh ./setup.sh --dev
	luacheck --no-color .
	lua5.4 tools/sources.lua

# The rockspec's copy of the source lists, from the tree (`make lint` checks it).
sources:
	lua5.4 tools/sources.lua --write

docs:
	@sh ./setup.sh --dev
	rm -rf build/doc
	ldoc --fatalwarnings .
	lua5.4 tools/doc_coverage.lua

love: $(SOJIT)
	@sh ./setup.sh --love
	rm -rf examples/love/lib && mkdir -p examples/love/lib/astar
	cp $(SOJIT) examples/love/lib/astar/core.so
	cp lua/astar.lua examples/love/lib/astar.lua
	cp -r lua/astar/. examples/love/lib/astar/
	cp examples/maps/dungeon.txt examples/love/lib/dungeon.txt
	rm -f build/love.png
	ALSOFT_DRIVERS=null xvfb-run -a -s "-screen 0 800x600x24" \
	  timeout 60 love examples/love --shot $(CURDIR)/build/love.png
	test -s build/love.png

bench: build
	$(ENV54)  lua5.4 bench/grid_bench.lua $(BENCH_ARGS)
	$(ENVJIT) luajit bench/grid_bench.lua $(BENCH_ARGS)

# luarocks into a throw-away tree, for both VMs, then load what it installed.
rock:
	@sh ./setup.sh --dev
	sh tools/rock_check.sh

clean:
	rm -rf build examples/love/lib lua_modules

# Windows (issue 13), all in tools/windows.sh: core.dll for x64 and x86 with mingw-w64 (make
# windows); LuaJIT for Windows from Debian's source and every spec under wine (make wintest);
# the x86 DLL's 32-bit data model and SSE2 arithmetic, every spec on 32-bit LuaJIT for Linux
# (make test32); dist/astar-<version>/ and its .zip with the Windows and Linux builds (make release).
.PHONY: windows wintest test32 release
windows:
	sh tools/windows.sh dll
wintest:
	sh tools/windows.sh test
test32:
	sh tools/windows.sh test32
release: build
	sh tools/windows.sh release
