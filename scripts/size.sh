#!/usr/bin/env bash
#! Where the page's gzipped bytes go: rebuilds the release wasm with its function names kept
#! (same wasm-bindgen and wasm-opt -Oz as Trunk's release build, plus -g), then prints the size
#! of each group of functions (yew, each ui component, each core module, std, …) and of the
#! data section, raw and gzipped, with scripts/wasm_size.py.
#
# Usage: scripts/size.sh [--no-build]   (--no-build: use target/ from the last release build)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PATH="$(SLOTSCOPE_NEED_BROWSER=0 scripts/setup.sh):$PATH"
if [ "${1:-}" != "--no-build" ]; then
  trunk build --release --offline --locked >&2
fi
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
wasm-bindgen --target web --keep-debug --out-dir "$out" target/wasm32-unknown-unknown/release/slotscope.wasm
# The feature flags index.html gives Trunk's wasm-opt.
flags=$(sed -n 's/.*data-wasm-opt-params="\([^"]*\)".*/\1/p' index.html)
# shellcheck disable=SC2086
wasm-opt -Oz -g $flags "$out/slotscope_bg.wasm" -o "$out/named.wasm"
python3 scripts/wasm_size.py "$out/named.wasm"
