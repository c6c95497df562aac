#!/usr/bin/env python3
"""Records what a real redis-server 7.0.15 answers to `COMMAND INFO <name>` and
`COMMAND DOCS <name>` for every command and subcommand of its table, as SHA-1 digests of the
RESP2 bytes, into command_table_7.0.15.tsv (read by tests/command_table.rs).

A container's subcommands come in the server's hash-table order, which changes from process to
process, so a container's own line digests its reply with the subcommands left out (an empty
array in COMMAND INFO; the `subcommands` value emptied in COMMAND DOCS); every subcommand has
its own line. Usage: record_command_table.py PORT > command_table_7.0.15.tsv
"""
import hashlib
import json
import os
import socket
import sys


def send(sock, *args):
    out = b"*%d\r\n" % len(args)
    for a in args:
        a = a.encode() if isinstance(a, str) else a
        out += b"$%d\r\n%s\r\n" % (len(a), a)
    sock.sendall(out)


class Reader:
    def __init__(self, sock):
        self.sock = sock
        self.buf = b""

    def line(self):
        while b"\r\n" not in self.buf:
            self.buf += self.sock.recv(65536)
        line, self.buf = self.buf.split(b"\r\n", 1)
        return line

    def exact(self, n):
        while len(self.buf) < n + 2:
            self.buf += self.sock.recv(65536)
        data, self.buf = self.buf[:n], self.buf[n + 2:]
        return data

    def reply(self):
        line = self.line()
        kind, rest = line[:1], line[1:]
        if kind in (b"+", b"-", b":"):
            return (kind, rest)
        if kind == b"$":
            n = int(rest)
            return (kind, None if n < 0 else self.exact(n))
        if kind == b"*":
            n = int(rest)
            return (kind, [self.reply() for _ in range(n)])
        raise ValueError(line)


def resp(r):
    kind, v = r
    if kind in (b"+", b"-", b":"):
        return kind + v + b"\r\n"
    if kind == b"$":
        return b"$-1\r\n" if v is None else b"$%d\r\n%s\r\n" % (len(v), v)
    return b"*%d\r\n" % len(v) + b"".join(resp(x) for x in v)


def main():
    port = int(sys.argv[1])
    here = os.path.dirname(os.path.abspath(__file__))
    table = os.path.join(here, "..", "..", "data", "redis-7.0.15", "command_info.json")
    commands = json.load(open(table))["commands"]
    names = []
    for c in commands:
        names.append((c["name"], bool(c["subcommands"])))
        names.extend((s["name"], False) for s in c["subcommands"])
    sock = socket.create_connection(("127.0.0.1", port))
    rd = Reader(sock)
    print("# name\tsha1 of COMMAND INFO <name>\tsha1 of COMMAND DOCS <name> (redis-server 7.0.15)")
    for name, container in names:
        send(sock, "COMMAND", "INFO", name)
        info = rd.reply()
        send(sock, "COMMAND", "DOCS", name)
        docs = rd.reply()
        if container:
            info[1][0][1][9] = (b"*", [])
            pairs = docs[1][1][1]
            for i in range(0, len(pairs), 2):
                if pairs[i][1] == b"subcommands":
                    pairs[i + 1] = (b"*", [])
        print("%s\t%s\t%s" % (name, hashlib.sha1(resp(info)).hexdigest(), hashlib.sha1(resp(docs)).hexdigest()))


main()
