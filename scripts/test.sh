#!/usr/bin/env bash
# Installs whatever is missing, then runs every test layer: lint, native (core + fixtures + CLI +
# doctests), the core alone without web dependencies, browser tests (wasm-bindgen-test in
# headless Chromium), a release build, and Playwright end-to-end tests against it, several
# files at once. Exits non-zero on the first failure; prints each step's wall time.
#
#   SLOTSCOPE_E2E_JOBS=N   e2e files run at once (default 2; 1 runs them one by one)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
TOOLS_PATH="$(bash scripts/setup.sh)"
export PATH="$TOOLS_PATH:$PATH"
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
E2E_JOBS="${SLOTSCOPE_E2E_JOBS:-2}"

START=$SECONDS
LAST=
step() {
  [ -z "$LAST" ] || printf '   (%ds)\n' $((SECONDS - LAST))
  LAST=$SECONDS
  printf '\n\033[1m== %s\033[0m\n' "$*"
}

step "format and lint (native and wasm32)"
cargo fmt --all -- --check
# Native with the build-time prerender (feature ssr: src/bin/prerender.rs, tests/prerender.rs).
cargo clippy --locked --workspace --all-targets --features slotscope/ssr -- -D warnings
cargo clippy --locked --workspace --target wasm32-unknown-unknown --all-targets -- -D warnings

step "native tests: core, fixtures, properties, CLI, UI logic, prerender, doctests"
cargo test --locked --workspace --features slotscope/ssr

# The engine against a real Redis 7.0.15 cluster (Debian's redis-server, installed if missing):
# six nodes on 127.0.0.1:7000-7005 laid out like the fixtures', 20,000 generated commands
# compared reply by reply (tests/differential.rs; SLOTSCOPE_DIFF_COMMANDS / _SEED / _FAMILIES
# for other runs). The cluster is stopped on any exit: failure, Ctrl-C or success.
step "differential: the engine against a real Redis 7.0.15 cluster"
CLUSTER_DIR="$(mktemp -d /tmp/slotscope-cluster.XXXXXX)"
stop_cluster() { bash scripts/redis-cluster.sh stop "$CLUSTER_DIR" >/dev/null 2>&1 || true; }
trap stop_cluster EXIT
trap 'exit 130' INT TERM
bash scripts/redis-cluster.sh start "$CLUSTER_DIR"
SLOTSCOPE_REDIS=127.0.0.1:7000 cargo test --locked --test differential -- --ignored --nocapture
# The planner's copied per-slot plan, piped through a real redis-cli -c into the same cluster.
SLOTSCOPE_REDIS=127.0.0.1:7000 cargo test --locked --test copied_plan -- --ignored
stop_cluster
trap - EXIT INT TERM

# The native tests above already ran every test with the web feature; here only what must
# hold without it: the core compiles, and its own unit tests pass, with no yew, web-sys or
# wasm-bindgen (and so does the CLI, which uses only the core).
step "the core alone (no yew, web-sys or wasm-bindgen)"
cargo test --locked --no-default-features --lib
cargo check --locked --no-default-features --bin keyslot

step "browser tests (wasm-bindgen-test, headless Chromium)"
cargo test --locked --target wasm32-unknown-unknown --test web

# Trunk's post-build hook prerenders the first screen into dist/index.html (scripts/prerender.py).
step "release build (dist/, with the prerendered first screen)"
trunk build --release --offline --locked 2>&1 | tail -n 5

step "size of dist/ (gzip -9; warm-zh.json is fetched only when a reader reaches for the language switch)"
total=0
for f in dist/*.wasm dist/*.js dist/*.css dist/*.html dist/*.json; do
  [ -f "$f" ] || continue
  n=$(gzip -9 -c "$f" | wc -c); total=$((total + n))
  printf '  %-40s %8d bytes gzipped\n' "$(basename "$f")" "$n"
done
printf '  %-40s %8d bytes gzipped\n' "total" "$total"

# Every file serves dist/ on its own port and launches its own browser (harness.mjs), so files
# can run side by side; none of them measures time. bad_input.test.mjs pastes 10 MB into the
# page several times and runs alone, after the others: beside another browser on a loaded
# 2-core machine one of its clicks waited over 30 s. See e2e/README.md.
step "end-to-end (Playwright, Debian Chromium, dist/ on 127.0.0.1; $E2E_JOBS files at once)"
(cd e2e && node --test --test-concurrency="$E2E_JOBS" $(ls *.test.mjs | grep -vx bad_input.test.mjs) \
  && node --test bad_input.test.mjs)

step "done"
printf 'all tests passed in %dm%02ds\n' $(((SECONDS - START) / 60)) $(((SECONDS - START) % 60))
