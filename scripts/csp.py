#!/usr/bin/env python3
# Trunk post-build hook: writes a strict Content-Security-Policy into the built index.html.
#
# Trunk starts the page with an inline module script, so the policy allows exactly that script
# by its SHA-256 (and any other inline script present, e.g. `trunk serve`'s reload script), and
# the page's stylesheets, which prerender.py puts inline, exactly by theirs; nothing else inline
# (no style attribute, no other <style>). The policy travels inside the page as a <meta http-equiv>, so it holds
# on any static host. Run by Trunk with TRUNK_STAGING_DIR set; or by hand: csp.py DIR.
import base64
import hashlib
import os
import re
import sys

POLICY = [
    "default-src 'none'",
    "script-src 'self' 'wasm-unsafe-eval' {hashes}",
    "style-src 'self' {style_hashes}",
    "img-src 'self' data: blob:",
    "connect-src 'self'",
    "font-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "object-src 'none'",
    "require-trusted-types-for 'script'",
    "trusted-types 'none'",
]

MARK = '<meta http-equiv="Content-Security-Policy"'


def sha256s(bodies: list[str]) -> str:
    """The CSP sources allowing exactly these inline bodies."""
    return " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(body.encode("utf-8")).digest()).decode() + "'"
        for body in bodies
    )


def main() -> int:
    folder = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("TRUNK_STAGING_DIR")
    if not folder:
        print("csp.py: give the build folder, or run as a Trunk hook", file=sys.stderr)
        return 2
    path = os.path.join(folder, "index.html")
    with open(path, encoding="utf-8") as f:
        html = f.read()
    if MARK in html:
        html = re.sub(r'\s*<meta http-equiv="Content-Security-Policy"[^>]*>', "", html)
    inline = re.findall(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", html, flags=re.S)
    if any("{{__TRUNK_" in body for body in inline):
        # `trunk serve` with auto-reload: Trunk fills the reload script's address in when it
        # serves the page, so no hash written now could match it. Leave this dev build without
        # a policy (scripts/serve.sh serves with --no-autoreload, and so keeps it).
        print("csp.py: trunk serve's auto-reload script is filled in at serve time; no policy for this dev build")
        return 0
    styles = re.findall(r"<style[^>]*>(.*?)</style>", html, flags=re.S)
    policy = "; ".join(POLICY).format(hashes=sha256s(inline), style_hashes=sha256s(styles))
    policy = policy.replace(" ;", ";")
    meta = f'{MARK} content="{policy}" />'
    html, n = re.subn(r"(<meta charset=[^>]*>)", r"\1\n    " + meta.replace("\\", "\\\\"), html, count=1)
    if n != 1:
        print(f"csp.py: no <meta charset> in {path}", file=sys.stderr)
        return 1
    with open(path, "w", encoding="utf-8") as f:
        f.write(html)
    print(f"csp.py: {len(inline)} inline script(s) and {len(styles)} <style> hashed into the policy")
    return 0


if __name__ == "__main__":
    sys.exit(main())
