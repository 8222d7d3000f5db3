# mk/fuzz.mk - libFuzzer harnesses (issue 16), included by the Makefile.
#
#   make fuzz-build   builds build/fuzz/<harness> (clang, -fsanitize=fuzzer,address,undefined)
#   make fuzz         runs each harness FUZZ_SECONDS (default 300) in turn, from its seeds in
#                     spec/fuzz/<harness>/ copied into build/fuzz/corpus/<harness>/ (kept
#                     between runs, so the corpus grows); a finding stops it, its input is
#                     written to build/fuzz/<harness>-crash-...
#   make fuzz-ci      replays every file of spec/fuzz/<harness>/ once, then fuzzes each harness
#                     FUZZ_CI_SECONDS (default 20); exits non-zero on any finding
#
# The harnesses (fuzz/*.c) embed Lua 5.4 with the binding linked in statically and read the
# Lua modules from this checkout's lua/ (or $ASTAR_ROOT/lua). Needs clang and its fuzzer
# runtime (Debian: clang libclang-rt-14-dev; `sh setup.sh --dev` installs them when missing).
# Relies on the Makefile's SRC, WARN and incdir.

FUZZ_CC         ?= clang
FUZZ_SECONDS    ?= 300
FUZZ_CI_SECONDS ?= 20
FUZZ_MAX_LEN    ?= 4096
# A search or a build that takes this long on one input is a finding (a hang).
FUZZ_TIMEOUT    ?= 30
FUZZ_ARGS       ?=
FUZZ_HARNESSES   = grid_text navmesh search
FUZZ_BINS        = $(addprefix build/fuzz/,$(FUZZ_HARNESSES))
FUZZ_COMMON      = fuzz/fuzz_lua.c fuzz/fuzz_grid.c fuzz/fuzz_unit.c
FUZZ_OBJ         = build/fuzz/obj
# The library gets libFuzzer's coverage instrumentation; the harnesses and their references
# only the sanitizers (instrumenting the reference Dijkstra halved the executions a second).
FUZZ_SAN         = -fsanitize=address,undefined,float-cast-overflow \
                   -fno-sanitize-recover=undefined,float-cast-overflow -fno-omit-frame-pointer
FUZZ_CFLAGS      = -g -O1 $(WARN) $(FUZZ_SAN) -Isrc/core -Ifuzz -I$(call incdir,5.4)
FUZZ_LUALIB      = $(or $(shell pkg-config --libs lua5.4 2>/dev/null),-llua5.4)
FUZZ_RUN         = -max_len=$(FUZZ_MAX_LEN) -timeout=$(FUZZ_TIMEOUT) -print_final_stats=1 \
                   $(FUZZ_ARGS)
FUZZ_LIBOBJ      = $(patsubst %.c,$(FUZZ_OBJ)/%.o,$(SRC))
FUZZ_COMMONOBJ   = $(patsubst %.c,$(FUZZ_OBJ)/%.o,$(FUZZ_COMMON))
FUZZ_HDR         = fuzz/fuzz.h $(wildcard src/core/*.h src/lua/*.h)

.PHONY: fuzz-build fuzz fuzz-ci fuzz-clang

fuzz-build: $(FUZZ_BINS)

# clang and its fuzzer runtime, installed as `make lint` and `make docs` install their tools.
fuzz-clang:
	@sh ./setup.sh --dev
	@command -v $(FUZZ_CC) >/dev/null || { echo "make: no $(FUZZ_CC) (FUZZ_CC); on Debian," \
	  "'sh setup.sh --dev' installs clang and libclang-rt-14-dev" >&2; exit 1; }

$(FUZZ_OBJ)/src/%.o: src/%.c $(FUZZ_HDR) | fuzz-clang
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_OBJ)/fuzz/%.o: fuzz/%.c $(FUZZ_HDR) | fuzz-clang
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -DFUZZ_ROOT='"$(CURDIR)"' -c -o $@ $<

$(FUZZ_BINS): build/fuzz/%: $(FUZZ_OBJ)/fuzz/fuzz_%.o $(FUZZ_COMMONOBJ) $(FUZZ_LIBOBJ)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(FUZZ_LUALIB) -lm

fuzz: fuzz-build
	@for h in $(FUZZ_HARNESSES); do \
	  mkdir -p build/fuzz/corpus/$$h && cp spec/fuzz/$$h/* build/fuzz/corpus/$$h/ && \
	  echo "fuzz: $$h for $(FUZZ_SECONDS) s" && \
	  build/fuzz/$$h $(FUZZ_RUN) -max_total_time=$(FUZZ_SECONDS) \
	    -artifact_prefix=build/fuzz/$$h- build/fuzz/corpus/$$h || exit 1; done

fuzz-ci: fuzz-build
	@for h in $(FUZZ_HARNESSES); do \
	  echo "fuzz-ci: $$h: replaying spec/fuzz/$$h" && \
	  build/fuzz/$$h $(FUZZ_RUN) spec/fuzz/$$h/* || exit 1; \
	  rm -rf build/fuzz/ci/$$h && mkdir -p build/fuzz/ci/$$h && \
	  cp spec/fuzz/$$h/* build/fuzz/ci/$$h/ && \
	  echo "fuzz-ci: $$h for $(FUZZ_CI_SECONDS) s" && \
	  build/fuzz/$$h $(FUZZ_RUN) -max_total_time=$(FUZZ_CI_SECONDS) \
	    -artifact_prefix=build/fuzz/$$h- build/fuzz/ci/$$h || exit 1; done
