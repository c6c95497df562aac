#!/usr/bin/env bash
#! Installs every tool slotscope needs, skipping what is already there at the right version.
#
# Idempotent: a second run takes seconds. Sourced by scripts/serve.sh and scripts/test.sh
# (they call it, then use the PATH it prints). Versions come from ../shared/TOOLCHAIN.md:
# trunk 0.21.14, wasm-bindgen-cli 0.2.130 (= the crate in Cargo.lock), wasm-opt from npm
# binaryen 132, Debian's chromium + chromedriver and fonts-noto-cjk, playwright-core via
# `npm ci` in e2e/.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="${SLOTSCOPE_TOOLS:-$HOME/.cache/slotscope-tools}"
TRUNK_VERSION=0.21.14
WASM_BINDGEN_VERSION=0.2.130
BINARYEN_VERSION=132.0.0
WANT_BROWSER="${SLOTSCOPE_NEED_BROWSER:-1}"

log() { printf '\033[1m[setup]\033[0m %s\n' "$*" >&2; }

export PATH="$HOME/.cargo/bin:$TOOLS/node_modules/.bin:$PATH"

# Rust: the toolchain file pins the version; the wasm target is added once.
if ! command -v cargo >/dev/null; then
  log "cargo not found: install rustup first (https://rustup.rs is not reachable here; the machine image ships it)"
  exit 1
fi
cd "$ROOT"
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  log "adding target wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

# trunk: 0.22.x needs a newer rustc than we have, so it is pinned.
if ! trunk --version 2>/dev/null | grep -q " $TRUNK_VERSION\$"; then
  log "installing trunk $TRUNK_VERSION (about 6 minutes, once)"
  cargo install trunk --version "$TRUNK_VERSION" --locked
fi

# wasm-bindgen-cli must equal the crate version in Cargo.lock, or trunk tries to download one.
# No --locked: its lockfile pins a webpki-roots that no longer resolves.
if ! wasm-bindgen --version 2>/dev/null | grep -q " $WASM_BINDGEN_VERSION\$"; then
  log "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 2 minutes, once)"
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi

# wasm-opt: Debian's and crates.io's are too old for wasm-bindgen 0.2.130's output; npm's binaryen 132 works.
if ! "$TOOLS/node_modules/.bin/wasm-opt" --version 2>/dev/null | grep -q "version 132"; then
  log "installing binaryen@$BINARYEN_VERSION from npm into $TOOLS"
  mkdir -p "$TOOLS"
  (cd "$TOOLS" && { [ -f package.json ] || echo '{"private":true}' > package.json; } \
     && npm install --no-audit --no-fund --silent "binaryen@$BINARYEN_VERSION")
fi

# A browser for wasm-bindgen-test and Playwright: Debian's, never a downloaded build.
if [ "$WANT_BROWSER" = 1 ]; then
  if ! [ -x /usr/bin/chromium ] || ! [ -x /usr/bin/chromedriver ]; then
    log "installing Debian chromium + chromium-driver"
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-driver >/dev/null
  fi
  # A CJK font: without one every 汉字 is drawn as an empty box of another width, so the 简体中文
  # page lays out differently (tour.test's placement at 390 px fails) and screenshots prove nothing.
  if [ -z "$(fc-list :lang=zh 2>/dev/null)" ]; then
    log "installing Debian fonts-noto-cjk (the Chinese page's glyphs)"
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq fonts-noto-cjk >/dev/null
  fi
  # Again whenever package-lock.json changed since the last install (npm keeps its own copy).
  if [ -f "$ROOT/e2e/package-lock.json" ] && { ! [ -f "$ROOT/e2e/node_modules/.package-lock.json" ] \
       || [ "$ROOT/e2e/package-lock.json" -nt "$ROOT/e2e/node_modules/.package-lock.json" ]; }; then
    log "installing e2e dependencies (playwright-core, cluster-key-slot; no browser download)"
    (cd "$ROOT/e2e" && npm ci --no-audit --no-fund --silent)
  fi
fi

# The crates, so that later builds can run offline.
if [ -f "$ROOT/Cargo.lock" ]; then
  cargo fetch --locked -q
fi

echo "$HOME/.cargo/bin:$TOOLS/node_modules/.bin"
