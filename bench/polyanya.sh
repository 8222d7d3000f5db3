#!/bin/sh
# polyanya.sh - astar's exact navmesh search against Polyanya (Cui, Harabor, Grastien, "Compromise-
# free Pathfinding on a Navigation Mesh", IJCAI 2017), the reference implementation, on the same
# meshes and Moving AI scenarios in one run (these machines are shared and noisy: only ratios
# from one run mean much).
#
#   POLYANYA_DIR=<built Polyanya checkout> sh bench/polyanya.sh [--every N] [--repeat R] [--rounds K]
#     [set/name ...]
#
# POLYANYA_DIR is the directory holding Polyanya's structs/ search/ helpers/ utils/ (the C++
# implementation; nothing of it is in this project and this script fetches nothing). Build it
# first: `make fast` there (objects at -O3 -DNDEBUG; its `make all` alone builds them with no
# optimisation at all, 5-7x slower; this script links bench/polyanya_driver.cpp against them) and
# `utils/bin/gridmap2rects` (`make -C utils gridmap2rects`; built here if missing). Some copies
# (xiangzebo/Polyanya) carry an unused `int cur_polygon;` in structs/searchnode.h that shifts the
# positional initialisers (`g` lands in `f`): delete that field before building.
#
# Per map, one process at a time: gridmap2rects makes Polyanya's rectangle mesh of the map (cell
# corners at integer coordinates, (0, 0) top-left: astar's from_grid frame); the driver runs
# Polyanya on every N-th scenario (default every one) at cell centres, the fastest of R timed
# passes (default 3); then bench/polyanya_bench.lua runs astar's mesh:find on the same queries,
# on astar's own navmesh.from_grid mesh and on Polyanya's mesh loaded with astar.navmesh{...},
# checks every length against Polyanya's (1e-6) and times the whole call from Lua, fastest of R.
# Times are mean µs per query; Polyanya's is set_start_goal + search + get_path_points.
# With --rounds K (default 1) the two sides take turns K times per map, each turn R passes, and
# each side's fastest turn counts: on a machine whose speed drifts over minutes, a ratio of
# numbers taken minutes apart says more about the drift than about the searches.
# CXX (default g++) and CXXFLAGS (default -O2) build the driver; ASTAR_VM=luajit runs astar's
# side on LuaJIT (default lua5.4). Maps come from $ASTAR_MOVINGAI (default
# ../shared/benchmarks/movingai).
set -eu
cd "$(dirname "$0")/.."
: "${POLYANYA_DIR:?set POLYANYA_DIR to a built Polyanya checkout (see the top of bench/polyanya.sh)}"
P=$POLYANYA_DIR
MAI=${ASTAR_MOVINGAI:-../shared/benchmarks/movingai}
EVERY=1
REP=3
ROUNDS=1
while [ $# -gt 0 ]; do
  case $1 in
    --every) EVERY=$2; shift 2 ;;
    --repeat) REP=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    *) break ;;
  esac
done
MAPS=${*:-"dao/arena2 dao/brc202d dao/orz900d sc1/TheFrozenSea rooms/32room_000"}

for d in structs search helpers; do
  ls "$P/$d/"*.o >/dev/null 2>&1 || { echo "polyanya.sh: no objects in $P/$d: run make in $P" >&2; exit 1; }
done
WORK=$(mktemp -d "${TMPDIR:-/tmp}/polyanya-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT INT TERM

make -s build >/dev/null
RECTS=$P/utils/bin/gridmap2rects
if [ ! -x "$RECTS" ]; then
  RECTS=$WORK/gridmap2rects
  ${CXX:-g++} -std=c++11 -O2 "$P/utils/gridmap2rects.cpp" -o "$RECTS"
fi
# shellcheck disable=SC2086
${CXX:-g++} -std=c++11 ${CXXFLAGS:--O2} -DNDEBUG -I"$P/structs" -I"$P/search" -I"$P/helpers" \
  bench/polyanya_driver.cpp "$P"/structs/*.o "$P"/search/*.o "$P"/helpers/*.o -o "$WORK/driver"

VM=${ASTAR_VM:-lua5.4}
if [ "$VM" = luajit ]; then
  export LUA_PATH='./lua/?.lua;./lua/?/init.lua;./?.lua;;' LUA_CPATH='./build/jit/?.so;;'
else
  export LUA_PATH_5_4='./lua/?.lua;./lua/?/init.lua;./?.lua;;' LUA_CPATH_5_4='./build/5.4/?.so;;'
fi
export ASTAR_MOVINGAI="$MAI"

echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(uname -m), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "# Polyanya: $P ($(git -C "$P" rev-parse --short HEAD 2>/dev/null || echo 'not a git checkout')); astar: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src lua || echo ' + local changes'), $VM"
echo "# every $EVERY-th scenario, fastest of $REP passes in each of $ROUNDS turns, mean µs per query (whole call)"
ROWS=$WORK/rows
: > "$ROWS"
for m in $MAPS; do
  n=$(echo "$m" | tr / _)
  "$RECTS" < "$MAI/$m.map" > "$WORK/$n.mesh"
  : > "$WORK/$n.rows"
  r=0
  while [ "$r" -lt "$ROUNDS" ]; do
    "$WORK/driver" "$WORK/$n.mesh" "$MAI/$m.map.scen" "$REP" "$EVERY" > "$WORK/$n.out"
    "$VM" bench/polyanya_bench.lua --every "$EVERY" --repeat "$REP" "$m" "$WORK/$n.mesh" \
      "$WORK/$n.out" > "$WORK/$n.lua"
    grep -v '^row ' "$WORK/$n.lua" || true
    grep '^row ' "$WORK/$n.lua" >> "$WORK/$n.rows"
    r=$((r + 1))
  done
  # each side's fastest turn (fields 8, 11, 13: Polyanya, from_grid, same mesh), the ratios anew
  awk '{ if (NR == 1) { for (i = 1; i <= NF; i++) row[i] = $i; next }
         for (i = 8; i <= 13; i += 3 - (i == 11)) if ($i + 0 < row[i] + 0) row[i] = $i
         for (i = 19; i <= 21; i++) if ($i + 0 > row[i] + 0) row[i] = $i }
       END { row[15] = sprintf("%.2f", row[11] / row[8]); row[16] = sprintf("%.2f", row[13] / row[8])
         s = row[1]; for (i = 2; i <= NF; i++) s = s " " row[i]; print s }' "$WORK/$n.rows" |
    tee -a "$ROWS"
done

echo
echo "| map | queries | polygons Polyanya / from_grid | Polyanya µs | Polyanya expansions (heap pops) | astar from_grid µs | expansions | astar on Polyanya's mesh µs | expansions | time from_grid / Polyanya | time same mesh / Polyanya | expansions from_grid / Polyanya's | expansions same mesh / Polyanya's | lengths differing (from_grid, same mesh) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
awk '{ printf "| %s | %s | %s / %s | %s | %s (%s) | %s | %s | %s | %s | %s | %s | %s | %s | %s, %s |\n",
  $2, $3, $5, $7, $8, $10, $9, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20 }' "$ROWS"
