"""Open N connections that never log in and watch what the server does with them (stdlib only).

usage: flood.py HOST PORT N MODE SECONDS
MODE silent: connect and say nothing; half: send 2 bytes of a 4-byte packet header.
Prints how many were answered ERR 1040, how many got a greeting and were closed
later (and when), and how many are still open after SECONDS.
"""
import selectors, socket, sys, time

host, port, n, mode, seconds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], float(sys.argv[5])
sel = selectors.DefaultSelector()
buf, fate, closed_at = {}, {}, []
t0 = time.time()
failed = 0
for _ in range(n):
    s = socket.socket()
    s.settimeout(10)
    try:
        s.connect((host, port))
    except OSError:
        failed += 1
        s.close()
        continue
    if mode == "half":
        s.send(b"\x50\x00")
    s.setblocking(False)
    buf[s] = b""
    sel.register(s, selectors.EVENT_READ)
print(f"opened {len(buf)} connections ({failed} failed to connect) in {time.time() - t0:.2f} s", flush=True)
deadline = t0 + seconds
while time.time() < deadline and len(fate) < len(buf):
    for key, _ in sel.select(timeout=0.2):
        s = key.fileobj
        try:
            b = s.recv(65536)
        except OSError:
            b = b""
        if b:
            buf[s] += b
            continue
        fate[s] = "1040" if buf[s][4:7] == b"\xff\x10\x04" else "closed"
        if fate[s] == "closed":
            closed_at.append(time.time() - t0)
        sel.unregister(s)
        s.close()
v = list(fate.values())
print(f"after {time.time() - t0:.1f} s: refused with 1040: {v.count('1040')}, closed after the greeting: {v.count('closed')}, still open: {len(buf) - len(fate)}")
if closed_at:
    print(f"closed between {min(closed_at):.1f} s and {max(closed_at):.1f} s after the first connect")
