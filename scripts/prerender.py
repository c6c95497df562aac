#!/usr/bin/env python3
# Trunk post-build hook (run before csp.py, see Trunk.toml): puts the page's first screen,
# rendered at build time from the same Yew components (`cargo run --features ssr --bin
# prerender`, Yew's server renderer, natively), into the built index.html's <body>. The reader
# sees the real page while the wasm downloads; the app then mounts in its place
# (src/ui/prerender.rs). No script and no style attribute is added.
#
# So that this first screen paints as soon as the HTML has arrived (issue 17), the hook also:
# - puts the stylesheets Trunk linked into one <style> in <head>, in their order, and removes
#   the files: each link was a render-blocking request (on slow 4G, 150 ms and a share of
#   the bandwidth each; the first screen waited for the last of six); csp.py allows exactly
#   that <style> by its hash. (Trunk's preload of the wasm stays in <head>: moved to the end
#   of <body> it let the first paint come a little sooner but the app start about a second
#   later, the parser reaching it only after that paint.)
# - marks the prerendered root `data-prerendered`: until the app mounts, the sections below
#   the key skip layout and paint (`content-visibility: auto`, static/style.css), so the first
#   paint lays out the first screen, not a 10,000 px page;
# - puts those sections (about 60 KB of the page's 70) into a `<template id="below">`: the
#   parser reads them into an inert fragment, which costs no style, layout or paint before the
#   first paint; static/first.js (inline in <head>, scripts/first.py) puts them in the page
#   right after that paint. Under a 4x slower CPU this brought the first paint 0.2-0.3 s sooner.
#
# It also writes `warm-zh.json`: the first screen rendered in 简体中文, without ids, test ids,
# labels' targets, links or ARIA, as a tree of elements (`[tag, [name, value, ...], child,
# ...]`, a string for text): the live page fetches it when a reader reaches for the language
# switch and paints it once, unseen, so that the browser has drawn the Chinese glyphs at the
# page's sizes before the switch (src/ui/lang_warm.rs). A tree, not HTML: the page builds it
# with createElement, as the Content-Security-Policy's Trusted Types let no HTML be parsed.
# Run by Trunk with TRUNK_STAGING_DIR set; or by hand: prerender.py DIR.
import json
import os
import re
import subprocess
import sys
from html.parser import HTMLParser

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
START, END = "<!-- prerendered: scripts/prerender.py -->", "<!-- /prerendered -->"


STYLESHEET = re.compile(r'\s*<link rel="stylesheet" href="/([^"?#/]+\.css)"[^>]*>')


def inline_styles(html: str, folder: str) -> str:
    """The linked stylesheets as one <style> where the first link was; their files removed."""
    names = STYLESHEET.findall(html)
    if not names:
        return html
    parts = []
    for name in names:
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            parts.append(f.read())
    css = "\n".join(parts)
    if "</style" in css.lower():
        raise ValueError("a stylesheet holds '</style', which would end the inlined <style>")
    first = STYLESHEET.search(html)
    html = html[: first.start()] + "\n    <style>" + css + "</style>" + STYLESHEET.sub("", html[first.end() :])
    for name in names:
        os.remove(os.path.join(folder, name))
    return html


class FirstChildEnd(HTMLParser):
    """Finds where the first child element of `<main>` ends (an offset into the text fed)."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

    def __init__(self, text: str):
        super().__init__(convert_charrefs=False)
        self.lines = [0]
        for line in text.splitlines(keepends=True):
            self.lines.append(self.lines[-1] + len(line))
        self.depth = None  # elements open inside <main>, once it has begun
        self.end = None

    def position(self) -> int:
        line, col = self.getpos()
        return self.lines[line - 1] + col

    def handle_starttag(self, tag, attrs):
        if self.end is not None or tag in self.VOID:
            return
        if self.depth is None:
            if tag == "main":
                self.depth = 0
            return
        self.depth += 1

    def handle_endtag(self, tag):
        if self.end is not None or self.depth is None or tag in self.VOID:
            return
        self.depth -= 1
        if self.depth == 0:
            self.end = self.position() + len(f"</{tag}>")


def below(page: str) -> tuple:
    """Where the sections after `<main>`'s first child begin and end (before `</main>`)."""
    finder = FirstChildEnd(page)
    finder.feed(page)
    close = page.find("</main>")
    if finder.end is None or close < finder.end:
        raise ValueError("no <main> with a first section in the rendered page")
    return finder.end, close


def fold_below(page: str) -> str:
    """The sections after `<main>`'s first child put into `<template id="below">`."""
    start, end = below(page)
    return page[:start] + '<template id="below">' + page[start:end] + "</template>" + page[end:]


# The languages other than the prerendered one (English), by the code `Lang::from_code` reads.
WARM = ["zh"]
# What the unseen copy must not carry: ids and label targets (the live page's are unique), test
# ids, links, a form's method and ARIA (it is hidden from everyone).
UNSEEN_ATTRS = re.compile(r"id|for|href|method|data-[a-z-]+|aria-[a-z]+")


def first_screen(page: str) -> str:
    """The page without the sections after `<main>`'s first child."""
    start, end = below(page)
    return page[:start] + page[end:]


class Tree(HTMLParser):
    """An HTML fragment as nested lists: `[tag, [name, value, ...], child, ...]`, text as str,
    without the attributes UNSEEN_ATTRS names; ValueError on a tag or attribute outside TAGS
    and ATTRS."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = ["", []]
        self.open = [self.root]

    def handle_starttag(self, tag, attrs):
        if tag not in TAGS:
            raise ValueError(f"<{tag}> is not in prerender.py's TAGS for the unseen copy")
        kept = []
        for name, value in attrs:
            if UNSEEN_ATTRS.fullmatch(name):
                continue
            # Yew's server renderer writes SVG's camel-cased attributes as written; the parser
            # lowers them, and createElementNS would then miss viewBox.
            name = SVG_CASE.get(name, name)
            if name not in ATTRS:
                raise ValueError(f"{name}= on <{tag}> is not in prerender.py's ATTRS for the unseen copy")
            kept += [name, value or ""]
        node = [tag, kept]
        self.open[-1].append(node)
        if tag not in FirstChildEnd.VOID:
            self.open.append(node)

    def handle_endtag(self, tag):
        if tag in FirstChildEnd.VOID:
            return
        while len(self.open) > 1:
            if self.open.pop()[0] == tag:
                break

    def handle_data(self, data):
        self.open[-1].append(data)


SVG_CASE = {"viewbox": "viewBox", "preserveaspectratio": "preserveAspectRatio"}


# What the copy may hold: the tags and attributes of today's first screen. Anything else
# stops the build, so that a new one is looked at before the page builds it (an SVG name the
# parser lowered, such as clipPath, would be built wrongly; a link or a source would act).
TAGS = {"a", "button", "code", "div", "footer", "form", "h1", "h2", "header", "input", "label", "li",
        "main", "mark", "nav", "ol", "option", "p", "rect", "s", "section", "select", "span", "svg", "ul"}
ATTRS = {"autocapitalize", "autocomplete", "class", "fill", "height", "hidden", "lang", "rx",
         "selected", "spellcheck", "stroke", "stroke-width", "tabindex", "title", "type", "value",
         "viewBox", "width", "x", "y"}


def tree(fragment: str) -> list:
    """`fragment`'s top-level nodes as `Tree` lists (ValueError as `Tree` says)."""
    parser = Tree()
    parser.feed(fragment)
    parser.close()
    return parser.root[2:]


def render(cargo: list, lang: str = None):
    """The page as `src/bin/prerender.rs` prints it, in `lang` if given; None if it failed."""
    run = subprocess.run(cargo + ([lang] if lang else []), cwd=ROOT, stdout=subprocess.PIPE)
    if run.returncode != 0 or not run.stdout:
        print(f"prerender.py: {' '.join(cargo)} {lang or ''} failed ({run.returncode})", file=sys.stderr)
        return None
    page = run.stdout.decode("utf-8")
    if re.search(r"<script|\sstyle=|\son[a-z]+=", page, flags=re.I):
        print("prerender.py: the rendered page holds a script, a style or a handler attribute, "
              "which the Content-Security-Policy refuses", file=sys.stderr)
        return None
    return page


def main() -> int:
    folder = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("TRUNK_STAGING_DIR")
    if not folder:
        print("prerender.py: give the build folder, or run as a Trunk hook", file=sys.stderr)
        return 2
    path = os.path.join(folder, "index.html")
    cargo = ["cargo", "run", "--quiet", "--locked", "--features", "ssr", "--bin", "prerender"]
    if os.environ.get("TRUNK_OFFLINE", "").lower() in ("1", "true") or os.environ.get("CARGO_NET_OFFLINE"):
        cargo.insert(2, "--offline")
    page = render(cargo)
    if page is None:
        return 1
    with open(path, encoding="utf-8") as f:
        html = f.read()
    # Run twice on the same file, the second run replaces the first one's copy.
    html = re.sub(re.escape(START) + ".*?" + re.escape(END), "", html, flags=re.S)
    # Marks the prerendered copy (the live page's root has no such attribute): until the app
    # mounts, the sections below the first screen skip layout and paint (static/style.css).
    page, marked = re.subn(r"^(\s*<[a-zA-Z][^\s>/]*)", r"\1 data-prerendered", page, count=1)
    if marked != 1:
        print("prerender.py: the rendered page does not start with an element", file=sys.stderr)
        return 1
    try:
        page = fold_below(page)
    except ValueError as e:
        print(f"prerender.py: {e}", file=sys.stderr)
        return 1
    block = f"{START}{page}{END}"
    html, n = re.subn(r"(</noscript>)", lambda m: m.group(1) + "\n    " + block, html, count=1)
    if n != 1:
        html, n = re.subn(r"(<body[^>]*>)", lambda m: m.group(1) + "\n    " + block, html, count=1)
    if n != 1:
        print(f"prerender.py: no <body> in {path}", file=sys.stderr)
        return 1
    html = inline_styles(html, folder)
    with open(path, "w", encoding="utf-8") as f:
        f.write(html)
    print(f"prerender.py: {len(page.encode())} bytes of prerendered page in {path}")
    for lang in WARM:
        other = render(cargo, lang)
        if other is None:
            return 1
        try:
            copy = json.dumps(tree(first_screen(other)), ensure_ascii=False, separators=(",", ":"))
        except ValueError as e:
            print(f"prerender.py: {lang}: {e}", file=sys.stderr)
            return 1
        warm = os.path.join(folder, f"warm-{lang}.json")
        with open(warm, "w", encoding="utf-8") as f:
            f.write(copy)
        print(f"prerender.py: {len(copy.encode())} bytes of the {lang} first screen in {warm}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
