#!/bin/bash
# A node whose data directory is on a small tmpfs (needs root to mount) fills it:
# rows of 10 KB are inserted until the disk is full, the error is printed, reads are
# tried, a filler file is removed to make room, writes are tried again without a
# restart, then the node is killed (-9) and restarted and its rows are counted
# against the acknowledged ones.
# usage: diskfull.sh BINLITE [SIZE_MB] [PORT]
set -u
BIN=$1; SIZE=${2:-24}; PORT=${3:-33495}
MNT=$(mktemp -d /tmp/binlite-diskfull.XXXXXX)
mount -t tmpfs -o size=${SIZE}m tmpfs $MNT || { echo "cannot mount a tmpfs"; exit 1; }
trap 'kill -9 $PID 2>/dev/null; wait $PID 2>/dev/null; umount $MNT; rmdir $MNT' EXIT
start() {
  $BIN serve --datadir $MNT/data --port $PORT --server-id 1 >> $MNT/../$(basename $MNT).log 2>&1 &
  PID=$!
  for _ in $(seq 50); do $M -e "SELECT 1" >/dev/null 2>&1 && return; sleep 0.2; done
}
M="mariadb -h127.0.0.1 -P$PORT -uroot"
start
$M -e "CREATE DATABASE d; CREATE TABLE d.t (id INT PRIMARY KEY, pad TEXT)"
dd if=/dev/zero of=$MNT/filler bs=1M count=4 status=none
acked=0; i=0; err=""
while :; do
  i=$((i + 1))
  if out=$($M d -e "INSERT INTO t VALUES ($i, REPEAT('x', 10000))" 2>&1); then
    acked=$((acked + 1))
  else
    err=$out; break
  fi
done
echo "acknowledged $acked inserts, then: $err"
echo "node alive: $(kill -0 $PID 2>/dev/null && echo yes || echo no)"
echo "read while full: $($M -N d -e "SELECT COUNT(*) FROM t" 2>&1)"
if out=$($M d -e "INSERT INTO t VALUES (-1, REPEAT('x', 10000))" 2>&1); then acked=$((acked + 1)); echo "another insert while full: ok"; else echo "another insert while full: $out"; fi
rm $MNT/filler
if out=$($M d -e "INSERT INTO t VALUES ($((i + 1)), REPEAT('x', 10000))" 2>&1); then acked=$((acked + 1)); echo "insert after freeing 4 MB: ok"; else echo "insert after freeing 4 MB: $out"; fi
kill -9 $PID; wait $PID 2>/dev/null
start
echo "after kill -9 and restart: $($M -N d -e "SELECT COUNT(*) FROM t") rows, $acked acknowledged"
grep -c "level=ERROR" $MNT/../$(basename $MNT).log | sed 's/^/ERROR lines in the log: /'
