#!/bin/bash
# The node's resident set against clients that stop reading a large result and
# against a large statement (issue 15). Starts BINLITE on a fresh data directory,
# writes a 200 MB table in 20 statements, then:
#   1. 4 clients ask for the whole table and read nothing for 20 s;
#   2. one 50 MB SELECT LENGTH('...') through the mariadb CLI.
# Prints VmRSS before, during (the highest of samples every 0.5 s) and after each,
# and the peak (VmHWM, reset before the statement) of the second.
# usage: memory.sh BINLITE [PORT]
set -u
BIN=$1; PORT=${2:-33490}; W=$(mktemp -d /tmp/binlite-memory.XXXXXX)
HERE=$(cd "$(dirname "$0")" && pwd)
$BIN serve --datadir $W/data --port $PORT --server-id 1 > $W/node.log 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null; wait $PID 2>/dev/null; rm -rf $W' EXIT
M="mariadb -h127.0.0.1 -P$PORT -uroot --max-allowed-packet=1G"
for _ in $(seq 50); do $M -e "SELECT 1" >/dev/null 2>&1 && break; sleep 0.2; done
rss() { awk '/^VmRSS/{print int($2/1024)}' /proc/$PID/status; }
hwm() { awk '/^VmHWM/{print int($2/1024)}' /proc/$PID/status; }
$M -e "CREATE DATABASE d; CREATE TABLE d.t (id INT PRIMARY KEY, pad VARCHAR(1000))"
for i in $(seq 0 19); do
  $M d -e "INSERT INTO t WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM c WHERE n < 10000) SELECT n + $((i * 10000)), REPEAT('r', 1000) FROM c"
done
echo "after writing 200 MB: RSS $(rss) MB"
python3 $HERE/stall.py 127.0.0.1 $PORT 4 d "SELECT * FROM t" 20 &
SP=$!
peak=0
for _ in $(seq 36); do sleep 0.5; r=$(rss); [ $r -gt $peak ] && peak=$r; done
echo "4 clients stalled on SELECT * FROM t: RSS at most $peak MB; sessions running it: $($M -N -e "SHOW PROCESSLIST" | grep -c 'SELECT \* FROM t$')"
wait $SP
sleep 1
echo "after they closed: RSS $(rss) MB; sessions running it: $($M -N -e "SHOW PROCESSLIST" | grep -c 'SELECT \* FROM t$')"
python3 -c "import sys; sys.stdout.write(\"SELECT LENGTH('\" + 'q' * (50 << 20) + \"') AS n\")" > $W/q50.sql
before=$(rss)
echo 5 > /proc/$PID/clear_refs
$M < $W/q50.sql > /dev/null
sleep 1 # the node gives memory back once the answer is sent
echo "50 MB query: RSS $before MB before, peak $(hwm) MB, $(rss) MB after"
