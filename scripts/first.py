#!/usr/bin/env python3
# Trunk post-build hook (run first, see Trunk.toml): builds the first-screen module
# (crates/first: the page's core alone, for wasm32, release), puts it into the build named by
# its content's hash, and links it from <head> with its page side (static/first.js): a preload
# of the module, requested before the app's 700 KB wasm, which shares the link, and the script,
# inline (csp.py allows it by its hash). Until the app starts, they answer the prerendered
# pipeline for a key typed into it (issue 17: the pipeline answering in 2.5 s on slow 4G).
# The script is inline so that it runs while the parser is still in <head>: the module is
# fetched and compiled while the first screen is parsed and laid out (a script that arrived
# later, even async, ran only after that layout, a second under a 4x slower CPU).
# wasm-opt -Oz runs when it is on PATH (the Trunk toolchain's binaryen); without it the module
# is larger and works the same. Run by Trunk with TRUNK_STAGING_DIR set; or by hand: first.py DIR.
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PLACEHOLDER = "'__FIRST_WASM__'"
MARK = "<!-- first-screen module: scripts/first.py -->"
# The wasm features rustc 1.95 emits (index.html gives Trunk's wasm-opt the same).
FEATURES = ["--enable-bulk-memory", "--enable-nontrapping-float-to-int", "--enable-sign-ext",
            "--enable-mutable-globals", "--enable-reference-types", "--enable-multivalue"]


def build() -> str:
    """Builds crates/first for wasm32 and returns the path of its .wasm."""
    cargo = ["cargo", "build", "--quiet", "--locked", "--release", "--target", "wasm32-unknown-unknown",
             "-p", "slotscope-first", "--message-format=json"]
    if os.environ.get("TRUNK_OFFLINE", "").lower() in ("1", "true") or os.environ.get("CARGO_NET_OFFLINE"):
        cargo.insert(2, "--offline")
    run = subprocess.run(cargo, cwd=ROOT, stdout=subprocess.PIPE, check=True)
    for line in run.stdout.decode().splitlines():
        msg = json.loads(line)
        if msg.get("reason") == "compiler-artifact" and msg["target"]["name"] == "slotscope_first":
            for f in msg["filenames"]:
                if f.endswith(".wasm"):
                    return f
    raise RuntimeError("cargo built no slotscope_first.wasm")


def named(data: bytes, stem: str, ext: str) -> str:
    return f"{stem}-{hashlib.sha256(data).hexdigest()[:16]}.{ext}"


def main() -> int:
    folder = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("TRUNK_STAGING_DIR")
    if not folder:
        print("first.py: give the build folder, or run as a Trunk hook", file=sys.stderr)
        return 2
    try:
        wasm_path = build()
    except (subprocess.CalledProcessError, RuntimeError) as e:
        print(f"first.py: building crates/first failed: {e}", file=sys.stderr)
        return 1
    with open(wasm_path, "rb") as f:
        wasm = f.read()
    opt = shutil.which("wasm-opt")
    if opt:
        out = os.path.join(folder, "first.opt.wasm")
        done = subprocess.run([opt, "-Oz", "--strip-debug", "--strip-producers", *FEATURES, wasm_path, "-o", out])
        if done.returncode == 0:
            with open(out, "rb") as f:
                wasm = f.read()
        os.remove(out) if os.path.exists(out) else None
    for old in os.listdir(folder):
        if re.fullmatch(r"first-[0-9a-f]{16}\.wasm", old):
            os.remove(os.path.join(folder, old))
    wasm_name = named(wasm, "first", "wasm")
    with open(os.path.join(folder, wasm_name), "wb") as f:
        f.write(wasm)
    with open(os.path.join(ROOT, "static", "first.js"), encoding="utf-8") as f:
        js = f.read()
    if PLACEHOLDER not in js:
        print("first.py: static/first.js does not name its module", file=sys.stderr)
        return 1
    if "</script" in js.lower():
        print("first.py: static/first.js holds '</script', which would end the inline script", file=sys.stderr)
        return 1
    # Whole-line comments are for the source's readers; the page gets the code, in a scope of its own.
    code = "\n".join(l for l in js.replace(PLACEHOLDER, f"'/{wasm_name}'").splitlines()
                     if l.strip() and not l.strip().startswith("//"))
    path = os.path.join(folder, "index.html")
    with open(path, encoding="utf-8") as f:
        html = f.read()
    # Run twice on the same file, the second run replaces the first one's links.
    html = re.sub(r"\s*" + re.escape(MARK) + r".*?" + re.escape(MARK), "", html, flags=re.S)
    links = (f'{MARK}<link rel="preload" href="/{wasm_name}" as="fetch" type="application/wasm" '
             f'crossorigin="anonymous"><script>(() => {{\n"use strict";\n{code}\n}})();</script>{MARK}')
    html, n = re.subn(r"(</title>)", lambda m: m.group(1) + "\n    " + links, html, count=1)
    if n != 1:
        print(f"first.py: no <title> in {path}", file=sys.stderr)
        return 1
    # Trunk's preload of the app's wasm carries an `integrity`, which browsers do not apply to
    # a preload `as="fetch"` (Chromium warns so in the console at every load) and which
    # wasm-bindgen's own fetch of the module does not carry: without it, the preload is that
    # very request.
    html = re.sub(r'<link rel="preload"[^>]*>',
                  lambda m: re.sub(r' integrity="[^"]*"', "", m.group(0)) if 'as="fetch"' in m.group(0) else m.group(0),
                  html)
    with open(path, "w", encoding="utf-8") as f:
        f.write(html)
    print(f"first.py: {wasm_name} ({len(wasm)} bytes) and its script ({len(code)} bytes) in {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
