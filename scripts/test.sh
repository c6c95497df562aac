#!/usr/bin/env bash
# Installs whatever is missing, then runs every test layer: lint, native (core + fixtures + CLI),
# the core alone without web dependencies, browser tests (wasm-bindgen-test in headless Chromium),
# a release build, and Playwright end-to-end tests against it. Exits non-zero on the first failure.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
TOOLS_PATH="$(bash scripts/setup.sh)"
export PATH="$TOOLS_PATH:$PATH"
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "format and lint (native and wasm32)"
cargo fmt --all -- --check
cargo clippy --locked --workspace --all-targets -- -D warnings
cargo clippy --locked --workspace --target wasm32-unknown-unknown --all-targets -- -D warnings

step "native tests: core, fixtures, properties, CLI, UI logic"
cargo test --locked --workspace

step "the core alone (no yew, web-sys or wasm-bindgen)"
cargo test --locked --no-default-features --lib --tests

step "browser tests (wasm-bindgen-test, headless Chromium)"
cargo test --locked --target wasm32-unknown-unknown --test web

step "release build (dist/)"
trunk build --release --offline --locked 2>&1 | tail -n 5

step "size of dist/ (gzip -9)"
total=0
for f in dist/*.wasm dist/*.js dist/*.css dist/index.html; do
  [ -f "$f" ] || continue
  n=$(gzip -9 -c "$f" | wc -c); total=$((total + n))
  printf '  %-40s %8d bytes gzipped\n' "$(basename "$f")" "$n"
done
printf '  %-40s %8d bytes gzipped\n' "total" "$total"

step "keyslot CLI, release (the e2e tests check generated tags with it)"
cargo build --locked --release --bin keyslot

step "end-to-end (Playwright, Debian Chromium, dist/ on 127.0.0.1)"
(cd e2e && node --test --test-concurrency=1 *.test.mjs)
