# Round trip through a Python MySQL driver: writes one row with the values that
# lose most easily and prints what reading it back gave, as JSON.
# usage: python3 roundtrip.py pymysql|mysqldb PORT ID
import datetime
import decimal
import json
import sys

lib, port, row_id = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
if lib == "pymysql":
    import pymysql
    conn = pymysql.connect(host="127.0.0.1", port=port, user="root", password="", database="rt", autocommit=True)
else:
    import MySQLdb
    conn = MySQLdb.connect(host="127.0.0.1", port=port, user="root", passwd="", db="rt", autocommit=True)
cur = conn.cursor()
cur.execute(
    "INSERT INTO rt (id, d, u, dt, b, n) VALUES (%s, %s, %s, %s, %s, %s)",
    (row_id, decimal.Decimal("12345678901234567890.0123456789"), 18446744073709551615,
     datetime.datetime(2024, 1, 2, 3, 4, 5, 123456), b"\x00\x01\x00\xff", None),
)
cur.execute("SELECT d, u, dt, b, n, LENGTH(b) FROM rt WHERE id = %s", (row_id,))
d, u, dt, b, n, length = cur.fetchone()
print(json.dumps({
    "d": str(d), "d_type": type(d).__name__, "u": str(u), "u_type": type(u).__name__, "dt": dt.isoformat(),
    "b": bytes(b).hex(), "n": n, "len": length,
}))
