#!/usr/bin/env python3
"""Runs each command line of a file against a real redis-server 7.0.15 (redis-cli --no-raw)
and prints the transcript the tests read: '> cmd' (or '~> cmd' for unordered replies) then the
output. The server is flushed first.

    python3 record.py sets.cmds 6432 > sets.txt     # a plain server (sets, zsets, geo, edges)
    python3 record.py sort.cmds 6431 > sort.txt     # a one-node cluster (all slots assigned)

Lines starting with '#' are copied as comments; '~ CMD' marks a reply in hash-table order.
A blocking command needs a non-zero timeout when nothing can be popped, or it waits.
A random reply (SPOP with a count) is then turned by hand into '?> cmd', without its output."""
import subprocess, sys
port = sys.argv[2] if len(sys.argv) > 2 else "6431"
subprocess.run(["redis-cli", "-p", port, "flushall"], capture_output=True)
for line in open(sys.argv[1]):
    line = line.rstrip("\n")
    if not line or line.startswith("#"):
        print(line); continue
    cmd = line[2:] if line.startswith("~ ") else line
    mark = "~> " if line.startswith("~ ") else "> "
    out = subprocess.run(["redis-cli", "--no-raw", "-p", port], input=cmd + "\n",
                         capture_output=True, text=True).stdout
    print(mark + cmd)
    sys.stdout.write(out)
