#!/usr/bin/env python3
# Rebuilds the committed seed corpus fuzz/seeds/<target>/ from the Redis fixtures (default
# /work/shared/fixtures, or the directory given as the only argument). Run from anywhere:
#   python3 fuzz/seeds/make_seeds.py [FIXTURES_DIR]
# Seed names say where each came from. The files are raw fuzz inputs (no header line).
import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = sys.argv[1] if len(sys.argv) > 1 else "/work/shared/fixtures"


def read(rel):
    with open(os.path.join(FIX, rel), encoding="utf-8") as f:
        return f.read()


def reset(target):
    d = os.path.join(HERE, target)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def put(d, name, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


# ---- escape: keys as redis-cli prints them (text), and a few as raw bytes -------------------
rows = [l.split("\t") for l in read("keyslot.tsv").splitlines()[1:]]
d = reset("escape")
picked = rows[:40]  # the 12 tag edge cases and the common keys
picked += [r for r in rows[40:] if "\\" in r[1] or '"' in r[1]][:30]  # UTF-8, binary, escapes
for i, (hexkey, display, _slot) in enumerate(picked):
    put(d, f"keyslot_display_{i:03}", display)
    put(d, f"keyslot_quoted_{i:03}", f'"{display}"')
for i, (hexkey, display, _slot) in enumerate([r for r in picked if "\\x" in r[1]][:15]):
    put(d, f"keyslot_raw_{i:03}", bytes.fromhex(hexkey))
for i, bad in enumerate([r"\x4", r"ab\xZZ", "abc\\", r"a\q", '"abc', '"abc"d', '"用"x']):
    put(d, f"malformed_{i}", bad)

# ---- import: CLUSTER NODES / SHARDS / SLOTS as pasted, terminal and --raw forms ------------
d = reset("import")
for name in sorted(os.listdir(os.path.join(FIX, "transcripts"))):
    if re.search(r"cluster_(nodes|shards|slots)\.txt$", name):
        put(d, "transcript_" + name, read("transcripts/" + name))
for case in ["a_from_all_100", "d_from_two_sources_1500", "h_del_node"]:
    for name in sorted(os.listdir(os.path.join(FIX, "reshard_cases", case))):
        if "nodes" in name:
            put(d, f"reshard_{case}_{name}", read(f"reshard_cases/{case}/{name}"))
for n in ["7", "11"]:
    text = read(f"create_outputs/create_{n}.txt")
    at = text.find("CLUSTER NODES")
    if at >= 0:
        put(d, f"create_{n}_cluster_nodes.txt", text[text.rfind("\n", 0, at) + 1:])
# The two CLUSTER NODES listings of transcript 07 with slot 5712 open on each side.
t07 = read("transcripts/07_slot_migration_ask_tryagain.txt").splitlines(keepends=True)
for i, line in enumerate(t07):
    if line.startswith("$ ") and line.rstrip().endswith("CLUSTER NODES"):
        out = [line]
        for l in t07[i + 1:]:
            if l.startswith("$ "):
                break
            out.append(l)
        put(d, f"migration_07_line{i + 1}_nodes.txt", "".join(out))


def to_raw(text):
    """redis-cli --raw form (tests/import.rs `to_raw`): one value per line."""
    out = []
    for line in text.splitlines():
        if line.startswith("#") or line.startswith("$ ") or re.match(r"^\S+:\d+> ", line):
            continue
        rest = line.lstrip()
        while True:
            m = re.match(r"^(\d+)\)\s*", rest)
            if not m:
                break
            rest = rest[m.end():]
        if rest.startswith("(integer) "):
            rest = rest[len("(integer) "):]
        elif rest == "(empty array)":
            rest = ""
        else:
            rest = rest.strip('"')
        out.append(rest + "\n")
    return "".join(out)


for name in ["10_before_add_node_cluster_shards.txt", "10_before_add_node_cluster_slots.txt"]:
    put(d, "raw_" + name, to_raw(read("transcripts/" + name)))
# From tests/import.rs: hostnames, noaddr, handshake, fail? (Redis docs' example) and SLOTS metadata.
put(d, "doc_example_nodes.txt", """\
07c37dfeb235213a872192d90877d0cd55635b91 127.0.0.1:30004@31004,hostname4 slave e7d1eecce10fd6bb5eb35b9f99a514335d9ba9ca 0 1426238317239 4 connected
67ed2db8d677e59ec4a4cefb06858cf2a1a89fa1 127.0.0.1:30002@31002,hostname2 master - 0 1426238316232 2 connected 5461-10922
292f8b365bb7edb5e285caf0b7e6ddc7265d2f4f 127.0.0.1:30003@31003,hostname3 master - 0 1426238318243 3 connected 10923-16383
6ec23923021cf3ffec47632106199cb7f496ce01 127.0.0.1:30005@31005,hostname5 slave,fail?,nofailover 67ed2db8d677e59ec4a4cefb06858cf2a1a89fa1 0 1426238316232 5 connected
824fe116063bc5fcf9f4ffd895bc17aee7731ac3 127.0.0.1:30006@31006,hostname6 slave 292f8b365bb7edb5e285caf0b7e6ddc7265d2f4f 0 1426238317741 6 connected
e7d1eecce10fd6bb5eb35b9f99a514335d9ba9ca 127.0.0.1:30001@31001,hostname1 myself,master - 0 0 1 connected 0-5460
1111111111111111111111111111111111111111 :0@0 master,fail,noaddr - 1426238310000 1426238310000 7 disconnected
2222222222222222222222222222222222222222 127.0.0.1:30007@31007 handshake - 0 0 0 connected
""")
put(d, "slots_with_hostnames.txt", """\
127.0.0.1:30001> CLUSTER SLOTS
1) 1) (integer) 0
   2) (integer) 16383
   3) 1) "127.0.0.1"
      2) (integer) 30001
      3) "e7d1eecce10fd6bb5eb35b9f99a514335d9ba9ca"
      4) 1) "hostname"
         2) "host-1.example"
   4) 1) "127.0.0.1"
      2) (integer) 30004
      3) "07c37dfeb235213a872192d90877d0cd55635b91"
      4) 1) "hostname"
         2) "host-4.example"
""")

# ---- command lines typed in the transcripts --------------------------------------------------
def sessions():
    """(name, [(port or None, command line)]) for each redis-cli transcript 01-07."""
    for name in sorted(os.listdir(os.path.join(FIX, "transcripts"))):
        if not re.match(r"0[1-7]_", name):
            continue
        cmds = []
        for line in read("transcripts/" + name).splitlines():
            m = re.match(r"^\$ redis-cli (?:-c )?-p (\d+) (.+)$", line)
            if m:
                cmds.append((m.group(1), m.group(2)))
                continue
            m = re.match(r"^127\.0\.0\.1:(\d+)(?:\(TX\))?> (.*)$", line)
            if m and m.group(2).strip():
                cmds.append((None, m.group(2)))
        yield name[:-4], cmds


SESSIONS = list(sessions())

# planner: byte 0 = mode/map/node, byte 1 = chunk/template count, then the textarea.
d = reset("planner")
for name, cmds in SESSIONS:
    put(d, f"commands_{name}", b"\x00\x4f" + "\n".join(c for _, c in cmds).encode())
put(d, "commands_page_default",
    b"\x00\x4f" + b"MSET a 1 b 2 c 3\nMGET {user1}:a {user1}:b\nMULTI\nSET hello 1\nSET foo 2\nEXEC")
put(d, "commands_lab_map_migration", b"\x10\x4f" + "\n".join(c for _, c in SESSIONS[-1][1]).encode())
display = [r[1] for r in rows[:60]]
put(d, "keys_mget_keyslot", b"\x01\x0f" + "\n".join(display).encode())
put(d, "keys_mset_keyslot_gaps_map", b"\x2b\x0f" + "\n".join(display[:20]).encode())
put(d, "keys_del_tagged", b"\x03\x03" + b"{user1}:a\n{user1}:b\n{user1}:c")
put(d, "template_user", b"\x00\xc0user:%d")
put(d, "template_tagged", b"\x00\x80{user1:%d}:item:%d\n{user1}:item:%d")

# simulator: byte 0 = map/entry/-c/interactive/free mode, byte 1 = policy/budgets/stale, then lines.
d = reset("simulator")
for name, cmds in SESSIONS:
    plain = "\n".join(c for _, c in cmds)
    ops = "\n".join(f"@127.0.0.1:{p} {c}" if p else c for p, c in cmds)
    put(d, f"cli_c_{name}", b"\x60\x00" + plain.encode())
    put(d, f"cli_plain_{name}", b"\x40\x00" + plain.encode())
    put(d, f"free_smart_{name}", b"\x80\xd4" + ops.encode())
    put(d, f"free_cli_c_{name}", b"\x80\xd5" + ops.encode())
    put(d, f"free_one_play_stale_{name}", b"\x80\xf7" + ops.encode())
migration = SESSIONS[-1][1]
put(d, "lab_map_cli_c_migration", b"\x61\x00" + "\n".join(c for _, c in migration).encode())
put(d, "lab_map_free_moved_only_migration",
    b"\x81\xd6" + "\n".join(f"@127.0.0.1:{p} {c}" if p else c for p, c in migration).encode())

# ---- batch: byte 0 = capacity, byte 1 = number of 2-byte offsets, then the text / key bytes --
d = reset("batch")
raw = [bytes.fromhex(r[0]) for r in rows]
lines = [k for k in raw if b"\n" not in k][:80]
put(d, "lines_lf_keyslot", b"\xff\x00" + b"\n".join(lines))
put(d, "lines_crlf_keyslot_trailing", b"\x07\x00" + b"\r\n".join(lines[:30]) + b"\r\n")
put(d, "lines_cr_at_end", b"\x03\x00" + b"foo\r\n{user1}:profile\n\nbar\r")
packed = b"".join(lines[:20])
offs, pos = [0], 0
for k in lines[:20]:
    pos += len(k)
    offs.append(pos)
put(d, "packed_keyslot", b"\x40" + bytes([len(offs)]) + b"".join(o.to_bytes(2, "little") for o in offs) + packed)
put(d, "packed_bad_offsets", b"\x04\x05" + b"".join(o.to_bytes(2, "little") for o in [0, 3, 1000, 2, 2]) + b"foo")
