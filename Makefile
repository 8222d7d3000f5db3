# astar - build, test and demo from one C source for Lua 5.1, 5.2, 5.3, 5.4 and LuaJIT.
# The two commands of the README: `make demo` and `make test`. Both install what is missing
# (Debian: setup.sh). `make build` only uses what is there: any C99 compiler and Lua headers,
# found with pkg-config or given as LUA_INCDIR_<vm>=dir (vm: 5.1 5.2 5.3 5.4 jit).

CC      ?= cc
OPT     ?= -O2
WARN     = -std=c99 -Wall -Wextra -pedantic -Wshadow -Wmissing-prototypes
CFLAGS_ALL = $(OPT) -g $(WARN) $(WERROR) -fPIC -fvisibility=hidden -Isrc/core $(EXTRA_CFLAGS)
# Worker threads (src/core/workers.c): POSIX threads; -pthread links them where libc does not.
LIBS    ?= -lm $(if $(filter Darwin,$(shell uname -s 2>/dev/null)),,-pthread)
# A Lua module leaves the lua_* symbols to the host: plain -shared on ELF; macOS wants a bundle.
SOFLAGS ?= $(if $(filter Darwin,$(shell uname -s 2>/dev/null)),-bundle -undefined dynamic_lookup,-shared)

CORE_SRC = $(wildcard src/core/*.c)
LUA_SRC  = $(wildcard src/lua/*.c)
HDR      = $(wildcard src/core/*.h src/lua/*.h)
SRC      = $(CORE_SRC) $(LUA_SRC)

# The VMs: `make build`/`demo` cover VMS; `make test` runs every spec on VMS and, with the Moving
# AI part cut to ASTAR_SCEN_LIMIT scenarios per map, on VMS_MORE (same C, other binding ABIs).
VMS      ?= 5.4 jit
VMS_MORE ?= 5.1 5.2 5.3
PKG_5.1 = lua5.1
PKG_5.2 = lua5.2
PKG_5.3 = lua5.3
PKG_5.4 = lua5.4
PKG_jit = luajit
LUA_5.1 ?= lua5.1
LUA_5.2 ?= lua5.2
LUA_5.3 ?= lua5.3
LUA_5.4 ?= lua5.4
LUA_jit ?= luajit
# Header directory of VM $1: LUA_INCDIR_$1 if given, else pkg-config's, else Debian's.
incdir = $(or $(LUA_INCDIR_$1),$(patsubst -I%,%,$(firstword $(shell pkg-config --cflags-only-I \
  $(PKG_$1) 2>/dev/null))),$(if $(filter jit,$1),/usr/include/luajit-2.1,/usr/include/lua$1))
so     = build/$1/astar/core.so

LPATH  = ./lua/?.lua;./lua/?/init.lua;;
# The environment a VM reads its paths from: 5.1 and LuaJIT read LUA_PATH, 5.2+ LUA_PATH_5_x.
suffix = $(if $(filter 5.1 jit,$1),,_$(subst .,_,$1))
interp = $(if $(filter jit,$1),LuaJIT,Lua $1)
env    = EXPECT_INTERP='$(interp)' LUA_PATH$(suffix)='$(LPATH)' LUA_CPATH$(suffix)='./build/$1/?.so;;'
BUSTED = /usr/bin/busted -o utfTerminal
# Backwards-compatible names used by tools and notes.
SO54   = $(call so,5.4)
SOJIT  = $(call so,jit)
SOASAN = build/asan/astar/core.so
ENV54  = $(call env,5.4)
ENVJIT = $(call env,jit)

SHARED ?= ../shared
export ASTAR_MOVINGAI ?= $(abspath $(SHARED)/benchmarks/movingai)
ASTAR_SCEN_LIMIT_MORE ?= 25
ASAN_SCEN_LIMIT ?= 60

.PHONY: all setup build build-all demo test test54 testjit ctest asan werror check-core lint \
        docs types determinism love bench navsweep oomtest valgrind rock sources ci clean tsan

all: build

# Debian packages for build, test and demo (root or sudo). Nothing else calls apt.
setup:
	@sh ./setup.sh

build: $(foreach v,$(VMS),$(call so,$v))
build-all: $(foreach v,$(VMS) $(VMS_MORE),$(call so,$v))

build/%/astar/core.so: $(SRC) $(HDR)
	@test -f "$(call incdir,$*)/lua.h" || { echo "make: no lua.h for '$*' in '$(call incdir,$*)'." \
	  "On Debian, 'sh setup.sh' installs it; elsewhere set LUA_INCDIR_$*=<dir with lua.h>" \
	  "(or VMS='5.4' to build fewer VMs)." >&2; exit 1; }
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -I$(call incdir,$*) $(SOFLAGS) -o $@ $(SRC) $(LIBS)

demo: setup build
	$(foreach v,$(VMS),$(call env,$v) $(LUA_$v) examples/quickstart.lua &&) true

# The VMs run side by side, one per core (TEST_JOBS), each VM's output shown when it ends.
# Moving AI scenarios per map in `make test` (empty: every one): LuaJIT, LOVE's VM, runs them
# all; 5.4 the first 150 of each map (the same C answers them; 5.4 is the slower VM);
# 5.1-5.3 the first ASTAR_SCEN_LIMIT_MORE, and a quarter of the random trials (SPEC_MORE): they
# check the other binding ABIs of the same C. `make test-<vm>` runs every scenario and trial on
# one VM (on the maze A* every 8th scenario, the others every 2nd; ASTAR_SCEN_FULL=1 for all).
TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
SCEN_jit ?=
SCEN_5.4 ?= 150
$(foreach v,5.1 5.2 5.3,$(eval SCEN_$v ?= $$(ASTAR_SCEN_LIMIT_MORE)))
SPEC_MORE ?= ASTAR_SPEC_SCALE=0.25 ASTAR_RANDOM_GRIDS=100 ASTAR_QUERY_GRIDS=85 NAVMESH_CASES=50 \
  NAVMESH_GRID_SCEN=35
$(foreach v,5.1 5.2 5.3,$(eval SPECENV_$v ?= $$(SPEC_MORE)))
# Each VM's specs run as two halves (spec/[a-g]* and the rest), the longer halves first, so
# that both cores stay busy to the end (five whole parts left one core idle for 2-4 minutes).
SPECS   := $(sort $(wildcard spec/*_spec.lua))
SPECS_A := $(filter spec/a% spec/b% spec/c% spec/d% spec/e% spec/f% spec/g%,$(SPECS))
SPECS_B := $(filter-out $(SPECS_A),$(SPECS))
test: setup build-all
	@$(MAKE) --no-print-directory -j$(TEST_JOBS) --output-sync=target \
	  $(foreach v,$(VMS) $(VMS_MORE),test-half-b-$v) $(foreach v,$(VMS) $(VMS_MORE),test-half-a-$v)

# One VM: make test-5.1, test-5.2, test-5.3, test-5.4, test-jit (full Moving AI part).
test-%: build/%/astar/core.so
	$(call env,$*) $(LUA_$*) $(BUSTED) spec
test-part-%: build/%/astar/core.so
	$(if $(SCEN_$*),ASTAR_SCEN_LIMIT=$(SCEN_$*)) $(SPECENV_$*) $(call env,$*) $(LUA_$*) $(BUSTED) spec
test-half-a-%: build/%/astar/core.so
	$(if $(SCEN_$*),ASTAR_SCEN_LIMIT=$(SCEN_$*)) $(SPECENV_$*) $(call env,$*) $(LUA_$*) $(BUSTED) $(SPECS_A)
test-half-b-%: build/%/astar/core.so
	$(if $(SCEN_$*),ASTAR_SCEN_LIMIT=$(SCEN_$*)) $(SPECENV_$*) $(call env,$*) $(LUA_$*) $(BUSTED) $(SPECS_B)
test54: test-5.4
testjit: test-jit

# The pure C core on its own, with a failing allocator, under ASan + UBSan: the core's objects
# built once (one per source, so make -j builds them side by side), each test linked to them.
CTEST_OBJ = $(patsubst src/core/%.c,build/c/obj/%.o,$(CORE_SRC))
build/c/obj/%.o: src/core/%.c $(wildcard src/core/*.h)
	@mkdir -p $(dir $@)
	$(CC) -O1 -g $(WARN) -Werror $(SAN) -Isrc/core -c -o $@ $<
ctest: setup
	@$(MAKE) --no-print-directory $(CTEST_OBJ)
	@for t in spec/c/test_*.c; do b=build/c/$$(basename $$t .c); \
	  echo "$$t"; \
	  $(CC) -O1 -g $(WARN) -Werror $(SAN) -Isrc/core -o $$b $$t $(CTEST_OBJ) -lm -pthread && \
	  ASAN_OPTIONS=detect_leaks=1 $$b || exit 1; done

# The whole spec suite against a module built with AddressSanitizer + UBSan (Lua 5.4).
# ASTAR_SCEN_LIMIT keeps the Moving AI part short: the sanitizer run is about memory, not speed.
asan: setup
	@mkdir -p $(dir $(SOASAN))
	$(CC) -O1 -g $(WARN) -fPIC -Isrc/core -I$(call incdir,5.4) -fno-omit-frame-pointer \
	  -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=undefined,float-cast-overflow -shared -o $(SOASAN) $(SRC) -lm
	@$(MAKE) --no-print-directory asan-half-b asan-half-a
# (the specs in two halves, as make test runs them: under make -j they share the cores)
asan-half-%:
	LD_PRELOAD="$$($(CC) -print-file-name=libasan.so)" ASAN_OPTIONS=detect_leaks=1 \
	  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASTAR_SCEN_LIMIT=$(ASAN_SCEN_LIMIT) \
	  EXPECT_INTERP='Lua 5.4' LUA_PATH_5_4='$(LPATH)' LUA_CPATH_5_4='./build/asan/?.so;;' \
	  lua5.4 $(BUSTED) $(if $(filter a,$*),$(SPECS_A),$(SPECS_B))

# Out of memory at every allocation, through the binding (spec/c/oom_host.c): each script of
# spec/oom/ with its N-th allocation and all after refused, for every N; Lua 5.4, ASan + UBSan.
SAN = -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=undefined,float-cast-overflow \
      -fno-omit-frame-pointer
LUALIB_5.4 = $(or $(shell pkg-config --libs lua5.4 2>/dev/null),-llua5.4)
oomtest: setup
	@mkdir -p build/oom/astar
	$(CC) -O1 -g $(WARN) -Werror $(SAN) -I$(call incdir,5.4) -o build/oom/oom_host spec/c/oom_host.c \
	  $(LUALIB_5.4)
	$(CC) -O1 -g $(WARN) $(SAN) -fPIC -Isrc/core -I$(call incdir,5.4) -shared \
	  -o build/oom/astar/core.so $(SRC) -lm
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  LUA_PATH_5_4='$(LPATH)' LUA_CPATH_5_4='./build/oom/?.so;;' build/oom/oom_host spec/oom/*.lua

# ThreadSanitizer (gcc's: clang 14's runtime does not start on this kernel): the worker
# threads' C test (spec/c/test_workers.c), then workers_spec.lua on Lua 5.4 against a module
# built with -fsanitize=thread, at a tenth of its trials. Objects are built once, in parallel
# with -j. About 25 s on 2 cores.
TSAN_CC ?= gcc
TSAN_FLAGS = -O1 -g $(WARN) -fPIC -fsanitize=thread -Isrc/core -I$(call incdir,5.4)
TSAN_OBJ = $(patsubst src/%.c,build/tsan/obj/%.o,$(SRC))
build/tsan/obj/%.o: src/%.c $(HDR)
	@mkdir -p $(dir $@)
	@$(TSAN_CC) $(TSAN_FLAGS) -c -o $@ $<
build/tsan/astar/core.so: $(TSAN_OBJ)
	@mkdir -p $(dir $@)
	$(TSAN_CC) -fsanitize=thread -shared -o $@ $(TSAN_OBJ) -lm -pthread
build/tsan/test_workers: spec/c/test_workers.c spec/c/harness.h $(filter build/tsan/obj/core/%,$(TSAN_OBJ))
	$(TSAN_CC) $(TSAN_FLAGS) -o $@ $< $(filter build/tsan/obj/core/%,$(TSAN_OBJ)) -lm -pthread
tsan: setup
	@$(MAKE) --no-print-directory -j$(TEST_JOBS) build/tsan/test_workers build/tsan/astar/core.so
	TSAN_OPTIONS="halt_on_error=1 exitcode=66" build/tsan/test_workers
	LD_PRELOAD="$$($(TSAN_CC) -print-file-name=libtsan.so)" TSAN_OPTIONS="halt_on_error=1 exitcode=66" \
	  ASTAR_SPEC_SCALE=0.1 ASTAR_SCEN_LIMIT=10 EXPECT_INTERP='Lua 5.4' LUA_PATH_5_4='$(LPATH)' \
	  LUA_CPATH_5_4='./build/tsan/?.so;;' lua5.4 $(BUSTED) spec/workers_spec.lua

# The specs that drive the binding hardest (every method with hostile arguments, every error,
# the pipeline's paths, the regressions) under valgrind with LuaJIT, whose allocator ASan
# cannot see. Every other spec file passes too, but takes minutes under valgrind.
VALGRIND_SPECS ?= spec/matrix_spec.lua spec/errors_spec.lua spec/regressions_spec.lua \
  spec/pipeline_spec.lua
valgrind: build
	@sh ./setup.sh --dev
	ASTAR_SCEN_LIMIT=10 $(ENVJIT) valgrind -q --error-exitcode=99 luajit $(BUSTED) $(VALGRIND_SPECS)

# libFuzzer harnesses (fuzz/*.c): make fuzz-build, fuzz, fuzz-ci.
include mk/fuzz.mk

# Both ABIs with warnings as errors; and the core must never see a Lua header.
werror: setup check-core
	$(MAKE) --no-print-directory -B WERROR=-Werror build-all

check-core:
	@if grep -nE '#[[:space:]]*include[[:space:]]*[<"](lua|lauxlib|lualib|luajit)' src/core/*; then \
	  echo "src/core must not include Lua headers" >&2; exit 1; else echo "src/core: no Lua headers"; fi

lint:
	@sh ./setup.sh --dev
	luacheck --no-color .
	lua5.4 tools/sources.lua

# The same answers on every VM: 10 000 seeded queries over every map kind, outputs compared
# byte for byte (tools/determinism.lua).
determinism: build-all
	@mkdir -p build/det
	$(foreach v,$(VMS) $(VMS_MORE),$(call env,$v) $(LUA_$v) tools/determinism.lua > build/det/$v.txt &&) true
	@for v in $(VMS) $(VMS_MORE); do cmp build/det/$(firstword $(VMS)).txt build/det/$$v.txt || exit 1; done
	@echo "determinism: $$(wc -l < build/det/$(firstword $(VMS)).txt) lines, identical on $(VMS) $(VMS_MORE)"

# The LuaCATS annotations (types/) against the built module: every function and method
# annotated, no annotation stale.
types: $(SO54)
	$(ENV54) lua5.4 tools/check_types.lua

# The rockspec's copy of the source lists, from the tree (`make lint` checks it).
sources:
	lua5.4 tools/sources.lua --write

docs:
	@sh ./setup.sh --dev
	@$(MAKE) --no-print-directory build
	rm -rf build/doc
	ldoc --fatalwarnings .
	@# LDoc anchors a module's @type X as Class_X but links to it as #X (astar.compat.jumper)
	sed -i -E 's/<a name="Class_([A-Za-z_]+)"/<a name="\1"><\/a>&/' build/doc/modules/*.html
	$(ENV54)  lua5.4 tools/doc_coverage.lua
	$(ENV54)  lua5.4 tools/doc_examples.lua
	$(ENVJIT) luajit tools/doc_examples.lua

# The LOVE lab, headless: its scripted tour checks each screenshot's pixels (exit 1 if one
# fails) and writes them to doc/lab-*.png, the pictures the README shows.
love: $(SOJIT)
	@sh ./setup.sh --love
	rm -rf examples/love/lib && mkdir -p examples/love/lib/astar
	cp $(SOJIT) examples/love/lib/astar/core.so
	cp lua/astar.lua examples/love/lib/astar.lua
	cp -r lua/astar/. examples/love/lib/astar/
	cp examples/maps/dungeon.txt examples/love/lib/dungeon.txt
	mkdir -p doc
	ALSOFT_DRIVERS=null xvfb-run -a -s "-screen 0 1400x800x24" \
	  timeout 120 love examples/love --script $(CURDIR)/doc
	test -s doc/lab-grid.png && test -s doc/lab-navmesh.png && test -s doc/lab-units.png

bench: build
	$(foreach v,$(VMS),$(call env,$v) $(LUA_$v) bench/grid_bench.lua $(BENCH_ARGS) &&) true

# The exact navmesh search on every Moving AI scenario, forward and backward (about 3 minutes;
# NAVSWEEP_ARGS='--stride 4 dao/orz900d' for less).
navsweep: build
	$(ENV54) lua5.4 tools/navmesh_sweep.lua $(NAVSWEEP_ARGS)

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
