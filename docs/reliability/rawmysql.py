"""Attacks on one logged-in session that drivers will not make (stdlib only).

usage: rawmysql.py HOST PORT MODE [SECONDS]
  header  log in as root, send a packet header announcing 16 MiB-1 bytes, then nothing
  idle    log in as root and say nothing
  noread  log in, ask for a 64 MiB result and never read it (for SECONDS, default 300);
          watch SHOW PROCESSLIST from another client to see when the server drops it
Prints how long the server waited before closing, and the ERR it sent first, if any.
The node must let root in without a password (binlite's default, from loopback).
"""
import socket
import struct
import sys
import time


def read_packet(s):
    h = b""
    while len(h) < 4:
        c = s.recv(4 - len(h))
        if not c:
            return None
        h += c
    n = h[0] | h[1] << 8 | h[2] << 16
    p = b""
    while len(p) < n:
        c = s.recv(n - len(p))
        if not c:
            return None
        p += c
    return p


def packet(seq, payload):
    return struct.pack("<I", len(payload))[:3] + bytes([seq]) + payload


host, port, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
s = socket.create_connection((host, port))
read_packet(s)  # the greeting: root has no password, so its scramble is not needed
# CLIENT_LONG_PASSWORD | PROTOCOL_41 | TRANSACTIONS | SECURE_CONNECTION | PLUGIN_AUTH
caps = 0x1 | 0x200 | 0x2000 | 0x8000 | 0x80000
login = struct.pack("<IIB", caps, 1 << 24, 45) + b"\0" * 23 + b"root\0" + b"\0" + b"mysql_native_password\0"
s.sendall(packet(1, login))
ok = read_packet(s)
if not ok or ok[0] != 0:
    sys.exit(f"login failed: {ok!r}")
t0 = time.time()
if mode == "header":
    s.sendall(b"\xff\xff\xff\x00\x03")  # 16 MiB-1 bytes of COM_QUERY announced
elif mode == "noread":
    q = b"\x03WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM r WHERE i < 64) SELECT i, REPEAT('x', 1048576) FROM r"
    s.sendall(packet(0, q))
    time.sleep(float(sys.argv[4]) if len(sys.argv) > 4 else 300)
    sys.exit(0)
first = read_packet(s)
el = time.time() - t0
if first is None:
    print(f"closed after {el:.1f} s, nothing sent first")
else:
    code = first[1] | first[2] << 8 if first[0] == 0xFF else None
    print(f"after {el:.1f} s the server sent ERR {code}: {first[9:].decode()!r}; then closed: {read_packet(s) is None}")
