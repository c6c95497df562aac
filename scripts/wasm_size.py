#!/usr/bin/env python3
#! Where the page's wasm bytes go: function bodies and the data section, grouped by module, raw
#! and gzipped. Reads a wasm that kept its function names (scripts/size.sh makes one); stdlib only.
# Each group is gzipped on its own, so the sum of the groups is a guide to the whole file (which
# also holds types, imports, exports and tables), not an exact split of it.
import gzip, re, sys, collections

def leb(b, i):
    r = s = 0
    while True:
        x = b[i]; i += 1; r |= (x & 0x7f) << s; s += 7
        if x < 0x80: return r, i

def sections(b):
    i = 8
    while i < len(b):
        sid = b[i]; i += 1
        size, i = leb(b, i)
        yield sid, i, size
        i += size

def parse(path):
    b = open(path, 'rb').read()
    n_imported = 0; bodies = []; names = {}; data = b''
    for sid, off, size in sections(b):
        if sid == 2:  # imports: count functions
            n, i = leb(b, off)
            for _ in range(n):
                l, i = leb(b, i); i += l
                l, i = leb(b, i); i += l
                kind = b[i]; i += 1
                if kind == 0: _, i = leb(b, i); n_imported += 1
                elif kind == 1: i += 1; flags = b[i]; i += 1; _, i = leb(b, i); i = leb(b, i)[1] if flags & 1 else i
                elif kind == 2: flags = b[i]; i += 1; _, i = leb(b, i); i = leb(b, i)[1] if flags & 1 else i
                elif kind == 3: i += 2
        elif sid == 10:
            n, i = leb(b, off)
            for _ in range(n):
                l, i = leb(b, i); bodies.append(b[i:i + l]); i += l
        elif sid == 11:
            data = b[off:off + size]
        elif sid == 0:
            l, i = leb(b, off); name = b[i:i + l].decode(); i += l
            if name == 'name':
                end = off + size
                while i < end:
                    sub = b[i]; i += 1
                    sz, i = leb(b, i)
                    if sub == 1:
                        j = i; n, j = leb(b, j)
                        for _ in range(n):
                            idx, j = leb(b, j); l, j = leb(b, j)
                            names[idx] = b[j:j + l].decode('utf-8', 'replace'); j += l
                    i += sz
    return bodies, names, n_imported, data

def category(name):
    n = re.sub(r'::h[0-9a-f]{16}$', '', name)
    m = re.search(r'slotscope::ui::components::([a-z_]+)', n)
    if m: return 'ui::components::' + m.group(1)
    m = re.search(r'slotscope::(ui|core)::([a-z_]+)', n)
    if m: return f'{m.group(1)}::{m.group(2)}'
    if 'slotscope_kernel' in n: return 'kernel'
    if 'yew' in n or 'implicit_clone' in n: return 'yew (framework, views inlined)'
    if re.search(r'web_sys|js_sys|wasm_bindgen|__wbg|__wbindgen|externref', n): return 'wasm-bindgen, web-sys'
    if re.search(r'fmt|float|flt2dec|dec2flt|bignum', n): return 'core::fmt and numbers'
    if re.search(r'alloc|dlmalloc|hashbrown|indexmap|vec|Vec|String|RawVec|btree', n): return 'alloc and collections'
    if re.search(r'slice::sort', n): return 'sorting'
    return 'other std / generic'

if __name__ == '__main__':
    bodies, names, n_imp, data = parse(sys.argv[1])
    groups = collections.defaultdict(list)
    for k, body in enumerate(bodies):
        groups[category(names.get(n_imp + k, '?'))].append(body)
    total_raw = sum(map(len, bodies)) + len(data)
    rows = [(cat, sum(map(len, bs)), len(gzip.compress(b''.join(bs), 9))) for cat, bs in groups.items()]
    rows.append(('data (strings, tables)', len(data), len(gzip.compress(data, 9))))
    rows.sort(key=lambda r: -r[2])
    print(f'{"gzip":>8} {"raw":>9}  group (each gzipped on its own)')
    for cat, raw, gz in rows:
        print(f'{gz:8} {raw:9}  {cat}')
    print(f'{sum(r[2] for r in rows):8} {total_raw:9}  sum of the groups')
