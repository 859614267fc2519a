"""Clients that ask for a result and never read it (stdlib only).

usage: stall.py HOST PORT CLIENTS DB QUERY SECONDS
Each client logs in as root (binlite's default: no password from loopback),
selects DB, sends QUERY and then reads nothing for SECONDS; all close at the end.
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


host, port, clients, db, query, secs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5], float(sys.argv[6])
socks = []
for _ in range(clients):
    s = socket.create_connection((host, port))
    read_packet(s)
    # CLIENT_LONG_PASSWORD | CONNECT_WITH_DB | PROTOCOL_41 | TRANSACTIONS | SECURE_CONNECTION | PLUGIN_AUTH
    caps = 0x1 | 0x8 | 0x200 | 0x2000 | 0x8000 | 0x80000
    login = struct.pack("<IIB", caps, 1 << 24, 45) + b"\0" * 23 + b"root\0" + b"\0" + db.encode() + b"\0" + b"mysql_native_password\0"
    s.sendall(packet(1, login))
    ok = read_packet(s)
    if not ok or ok[0] != 0:
        sys.exit(f"login failed: {ok!r}")
    s.sendall(packet(0, b"\x03" + query.encode()))
    socks.append(s)
time.sleep(secs)
for s in socks:
    s.close()
