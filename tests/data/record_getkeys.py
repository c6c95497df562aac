#!/usr/bin/env python3
"""Records what a real redis-server 7.0.15 answers to `COMMAND GETKEYS <command> <args…>` for
generated argument lists over every command of the table (fixed seed), into getkeys_7.0.15.tsv
(read by tests/command_table.rs): one line per case, the arguments joined by spaces, a tab, and
the reply: the keys joined by spaces, `(empty)`, or `-` and the error text.
Usage: record_getkeys.py PORT > getkeys_7.0.15.tsv
"""
import json
import os
import random
import socket
import sys

exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "record_command_table.py")).read().split("def main():")[0])

WORDS = ["k1", "k2", "{k1}x", "0", "1", "2", "3", "-1", "STORE", "STOREDIST", "STREAMS", "KEYS",
         "GET", "SET", "BY", "LIMIT", "COUNT", "BLOCK", "GROUP", "NOACK", "AUTH", "AUTH2", "COPY",
         "", "u8", "OVERFLOW", "INCRBY", "x"]


def main():
    port = int(sys.argv[1])
    here = os.path.dirname(os.path.abspath(__file__))
    table = json.load(open(os.path.join(here, "..", "..", "data", "redis-7.0.15", "command_info.json")))
    names = []
    for c in table["commands"]:
        if c["subcommands"]:
            names.extend((s["name"].split("|"), s["arity"]) for s in c["subcommands"])
        else:
            names.append(([c["name"]], c["arity"]))
    rng = random.Random(7015)
    sock = socket.create_connection(("127.0.0.1", port))
    rd = Reader(sock)
    print("# arguments (space-separated)\tCOMMAND GETKEYS reply of redis-server 7.0.15")
    for words, arity in names:
        for _ in range(6):
            n = abs(arity) - len(words)
            if arity < 0:
                n += rng.randint(0, 7)
            argv = words + [rng.choice(WORDS) for _ in range(max(n, 0))]
            if "" in argv:
                continue
            send(sock, "COMMAND", "GETKEYS", *argv)
            kind, v = rd.reply()
            if kind == b"-":
                out = "-" + v.decode()
            elif not v:
                out = "(empty)"
            else:
                out = " ".join(x[1].decode() for x in v)
            print("%s\t%s" % (" ".join(argv), out))


main()
