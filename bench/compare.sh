#!/bin/sh
# compare.sh - astar against its peers on the same Moving AI queries, in one run
# (these machines are shared and noisy: only ratios from one run mean much).
#
#   NATIVE_DIR=<warthog-jps checkout> JUMPER_DIR=<Jumper checkout> sh bench/compare.sh [set/name ...]
#
# astar runs three times per map: the default (algorithm "auto": jump point search on these
# maps), "prepared" (grid:prepare() first: JPS+) and "astar". NATIVE_ALGS (default
# "astar jpsP jps+") and JUMPER_FINDERS (default "astar jps") choose the peers' algorithms.
# The peers are driven by ../shared/tools (none of their code is in this project).
# A peer whose *_DIR is unset is skipped. JUMPER_LIMIT (default 500) caps the
# Jumper queries per map: it is 10-100x slower. ASTAR_ALGS (default
# "auto prepared astar") chooses ours. ROUNDS (default 1) makes ours and Warthog take turns that
# many times per map, each turn 3 passes, and prints each one's fastest turn: on a machine whose
# speed drifts over minutes, numbers taken minutes apart say more about the drift than about the
# searches.
set -eu
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
MAI=${ASTAR_MOVINGAI:-$SHARED/benchmarks/movingai}
MAPS=${*:-"dao/arena2 dao/brc202d dao/orz900d"}
JL=${JUMPER_LIMIT:-500}
make -s build >/dev/null
echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(uname -m), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
TURNS=$(mktemp)
trap 'rm -f "$TURNS"' EXIT
for m in $MAPS; do
  echo "## $m"
  : > "$TURNS"
  r=0
  while [ "$r" -lt "${ROUNDS:-1}" ]; do
    for alg in ${ASTAR_ALGS:-auto prepared astar}; do
      set -- --opts "{algorithm = '$alg'}"
      [ "$alg" = prepared ] && set -- --prepare
      LUA_PATH_5_4='./lua/?.lua;;' LUA_CPATH_5_4='./build/5.4/?.so;;' ASTAR_MOVINGAI=$MAI \
        lua5.4 bench/grid_bench.lua --repeat 3 "$@" "$m" | tail -1 | sed "s/^/astar-$alg lua5.4 /"
      LUA_PATH='./lua/?.lua;;' LUA_CPATH='./build/jit/?.so;;' ASTAR_MOVINGAI=$MAI \
        luajit bench/grid_bench.lua --repeat 3 "$@" "$m" | tail -1 | sed "s/^/astar-$alg luajit /"
    done >> "$TURNS"
    if [ -n "${NATIVE_DIR:-}" ]; then
      NATIVE_DIR=$NATIVE_DIR "$SHARED/tools/native_bench.sh" --algs "${NATIVE_ALGS:-astar jpsP jps+}" \
        --repeat 3 "$MAI" "$m" 2>/dev/null | grep '^native' >> "$TURNS"
    fi
    r=$((r + 1))
  done
  # each line's fastest turn, in the order they first came (mean: field 5 of ours, 6 of Warthog's)
  awk '{ k = $1 " " $2; t = ($1 ~ /^native/ ? $6 : $5) + 0
         if (!(k in best)) { order[++n] = k; best[k] = t; line[k] = $0 }
         else if (t < best[k]) { best[k] = t; line[k] = $0 } }
       END { for (i = 1; i <= n; i++) print line[order[i]] }' "$TURNS"
  if [ -n "${JUMPER_DIR:-}" ]; then
    for f in ${JUMPER_FINDERS:-astar jps}; do
      for vm in lua5.4 luajit; do
        JUMPER_DIR=$JUMPER_DIR $vm "$SHARED/tools/jumper_bench.lua" "$MAI/$m.map" "$MAI/$m.map.scen" "$JL" \
          --finders=$f --repeat=3 2>/dev/null | grep '^jumper' | sed "s/^/$vm /"
      done
    done
  fi
done
