#!/usr/bin/env bash
# Runs the cargo-fuzz targets of fuzz/ (escape, import, planner, simulator, batch) one after another.
#
# Usage: scripts/fuzz.sh [-t TARGET] [-r RUNS] [-j JOBS] [--no-build] [-- LIBFUZZER_ARGS...]
#   -t, --target TARGET  run only TARGET (escape | import | planner | simulator | batch); default: all five
#   -r, --runs RUNS      executions per target (libFuzzer -runs=); default 10000000
#   -j, --jobs JOBS      parallel fuzzing processes per target (libFuzzer -fork=); default 1
#   --no-build           skip the build (use what fuzz/target holds)
#   -- ARGS...           extra libFuzzer flags, e.g. -- -max_total_time=1500 to stop each target
#                        after 25 minutes whatever its run count
# Examples: scripts/fuzz.sh                      all five targets, 10M runs each
#           scripts/fuzz.sh -t import -r 1000000  one target, 1M runs
#
# Build: `cargo +nightly fuzz build -O -a -s none --no-trace-compares` (release, debug assertions
# and overflow checks on). The crate forbids unsafe code and has no unsafe dependencies, so
# AddressSanitizer (cargo-fuzz's default) finds nothing a panic would not, at 5-10x the cost;
# comparison tracing costs the engine targets 2.5x (every routed command counts the 16384
# slots twice) and the dictionaries in fuzz/dicts/ give the fuzzer the command names and
# keywords instead. Set FUZZ_BUILD_FLAGS to build otherwise, e.g. FUZZ_BUILD_FLAGS="-O -a" for
# cargo-fuzz's defaults (ASan, comparison tracing).
#
# Needs the nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz --locked`). The committed
# seeds in fuzz/seeds/<target>/ (rebuilt with `python3 fuzz/seeds/make_seeds.py`) are copied
# into the working corpus fuzz/corpus/<target>/ (git-ignored), which keeps growing across runs.
# A crash stops that target and leaves its input in fuzz/artifacts/<target>/; reproduce it with
#   cargo +nightly fuzz run -O -a -s none --no-trace-compares TARGET fuzz/artifacts/TARGET/crash-...
# and minimise it with `cargo +nightly fuzz tmin` and the same flags.
# Runs under `nice -n 10`. Exit status: 0 if every target finished its runs, 1 otherwise.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

ALL=(escape import planner simulator batch)
targets=("${ALL[@]}")
runs=10000000
jobs=1
build=1
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    -t|--target) targets=("$2"); shift 2 ;;
    -r|--runs) runs="$2"; shift 2 ;;
    -j|--jobs) jobs="$2"; shift 2 ;;
    --no-build) build=0; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    --) shift; extra=("$@"); break ;;
    *) echo "unknown argument: $1 (see $0 --help)" >&2; exit 2 ;;
  esac
done
for t in "${targets[@]}"; do
  case " ${ALL[*]} " in *" $t "*) ;; *) echo "unknown target: $t (one of: ${ALL[*]})" >&2; exit 2 ;; esac
done

BUILD_FLAGS=(${FUZZ_BUILD_FLAGS:--O -a -s none --no-trace-compares})

# Inputs longer than this are not tried: long enough for any line or paste worth reading, short
# enough to keep each run fast. Import reads whole CLUSTER SHARDS / SLOTS pastes, so more.
max_len() {
  case "$1" in
    import) echo 65536 ;;
    *) echo 4096 ;;
  esac
}

dict() {
  case "$1" in
    import) echo fuzz/dicts/import.dict ;;
    planner|simulator) echo fuzz/dicts/commands.dict ;;
  esac
}

if [ "$build" = 1 ]; then
  nice -n 10 cargo +nightly fuzz build "${BUILD_FLAGS[@]}"
fi

status=0
for t in "${targets[@]}"; do
  corpus="fuzz/corpus/$t"
  mkdir -p "$corpus"
  cp -n fuzz/seeds/"$t"/* "$corpus"/ 2>/dev/null || true
  opts=(-runs="$runs" -max_len="$(max_len "$t")" -print_final_stats=1)
  if [ -n "$(dict "$t")" ]; then opts+=(-dict="$(dict "$t")"); fi
  if [ "$jobs" -gt 1 ]; then opts+=(-fork="$jobs"); fi
  printf '\n== %s: %s runs (max_len %s)\n' "$t" "$runs" "$(max_len "$t")"
  start=$(date +%s)
  # Same flags as the build, or `cargo fuzz run` would rebuild with its defaults.
  if nice -n 10 cargo +nightly fuzz run "${BUILD_FLAGS[@]}" "$t" "$corpus" -- "${opts[@]}" "${extra[@]}"; then
    printf '== %s: done in %ss\n' "$t" "$(( $(date +%s) - start ))"
  else
    printf '== %s: FAILED after %ss (see fuzz/artifacts/%s/)\n' "$t" "$(( $(date +%s) - start ))" "$t"
    status=1
  fi
done
exit "$status"
