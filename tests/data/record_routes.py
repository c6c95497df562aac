#!/usr/bin/env python3
"""Records how a real redis-server 7.0.15 cluster master routes generated commands (fixed seed):
every command of the table that cluster routing looks at (key specs or movable keys), but for
those that may block, wait on the network or act on the server, sent to the master on PORT,
a fresh connection each time. Writes routes_generated_7.0.15.tsv (read by
tests/command_table.rs): the arguments joined by spaces, a tab, and the reply's error text when
it is a routing verdict (MOVED, ASK, CROSSSLOT, TRYAGAIN, CLUSTERDOWN) or `served`.
Usage: record_routes.py PORT > routes_generated_7.0.15.tsv
"""
import json
import os
import random
import socket
import sys

exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "record_command_table.py")).read().split("def main():")[0])

WORDS = ["k1", "k2", "{k1}x", "a", "b", "0", "1", "2", "3", "-1", "STORE", "STOREDIST", "STREAMS",
         "KEYS", "GET", "BY", "LIMIT", "COUNT", "GROUP", "NOACK", "u8", "INCRBY", "x"]
ROUTING = ("MOVED ", "ASK ", "CROSSSLOT ", "TRYAGAIN ", "CLUSTERDOWN ")
SKIP = {"migrate", "blpop", "brpop", "brpoplpush", "blmove", "blmpop", "bzpopmin", "bzpopmax",
        "bzmpop", "restore-asking"}


def main():
    port = int(sys.argv[1])
    here = os.path.dirname(os.path.abspath(__file__))
    table = json.load(open(os.path.join(here, "..", "..", "data", "redis-7.0.15", "command_info.json")))
    cmds = []
    for c in table["commands"]:
        for s in (c["subcommands"] or [c]):
            routed = s["key_specs"] or "movablekeys" in s["flags"]
            if routed and s["name"] not in SKIP and "admin" not in s["flags"]:
                cmds.append((s["name"].split("|"), s["arity"]))
    rng = random.Random(70150)
    print("# arguments (space-separated)\trouting verdict of a real redis-server 7.0.15 master (slots 0-5460)")
    for words, arity in cmds:
        for _ in range(8):
            n = abs(arity) - len(words)
            if arity < 0:
                n += rng.randint(0, 6)
            argv = words + [rng.choice(WORDS) for _ in range(max(n, 0))]
            if "BLOCK" in argv:
                continue
            sock = socket.create_connection(("127.0.0.1", port))
            sock.settimeout(2)
            try:
                send(sock, *argv)
                kind, v = Reader(sock).reply()
            except socket.timeout:
                continue
            finally:
                sock.close()
            text = v.decode(errors="replace") if kind == b"-" else ""
            out = text if kind == b"-" and text.startswith(ROUTING) else "served"
            print("%s\t%s" % (" ".join(argv), out))


main()
