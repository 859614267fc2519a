#!/bin/bash
# What TLS costs a client of one binlite node: sysbench oltp_point_select (10,000 rows,
# one table) at 1 and 16 threads, over plain TCP and over TLS (--mysql-ssl=on, the
# node's auto-generated certificate, TLS 1.3), interleaved so that the machine's load
# falls on both alike. Prints one line per run and the medians; the figure is the
# ratio TLS/plain of the same repeat.
# usage: tls-cost.sh BINLITE [REPEATS] [SECONDS]
set -u
BIN=$1; REPEATS=${2:-3}; SECS=${3:-10}
WORK=${WORK:-/tmp/tlscost}
# A free port, so that the run never talks to another server on this machine.
PORT=${PORT:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')}
rm -rf "$WORK" && mkdir -p "$WORK"
"$BIN" serve --datadir "$WORK/data" --port "$PORT" --server-id 1 > "$WORK/node.log" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null' EXIT
for _ in $(seq 100); do grep -q "binlite ready" "$WORK/node.log" && break; kill -0 $PID 2>/dev/null || break; sleep 0.2; done
if ! grep -q "binlite ready.*127.0.0.1:$PORT" "$WORK/node.log"; then
  echo "binlite did not start on port $PORT:"; cat "$WORK/node.log"; exit 1
fi
mariadb -h127.0.0.1 -P"$PORT" -uroot -e "CREATE DATABASE sbtest" || exit 1
# sysbench 1.0's --mysql-ssl=on reads client-key.pem, client-cert.pem and cacert.pem
# from its working directory: the node's generated ones.
cp "$WORK/data/client-key.pem" "$WORK/data/client-cert.pem" "$WORK/"
cp "$WORK/data/ca.pem" "$WORK/cacert.pem"
cd "$WORK"
SB="sysbench oltp_point_select --db-driver=mysql --mysql-host=127.0.0.1 --mysql-port=$PORT --mysql-user=root --mysql-password= --mysql-db=sbtest --tables=1 --table-size=10000 --rand-type=uniform"
$SB prepare >/dev/null 2>&1
$SB --threads=4 --time=3 run >/dev/null 2>&1
for r in $(seq "$REPEATS"); do
  for th in 1 16; do
    for ssl in off on; do
      qps=$($SB --threads=$th --time="$SECS" --mysql-ssl=$ssl run 2>&1 | awk '/queries:/{gsub(/\(/,"",$3); print $3}')
      echo "repeat=$r threads=$th ssl=$ssl qps=$qps" | tee -a "$WORK/runs.txt"
    done
  done
done
echo
printf "%-8s %-12s %-12s %s\n" threads plain_qps tls_qps tls/plain
for th in 1 16; do
  p=$(awk -v th=$th '$2=="threads="th && $3=="ssl=off"{sub("qps=","",$4); print $4}' "$WORK/runs.txt" | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}')
  s=$(awk -v th=$th '$2=="threads="th && $3=="ssl=on"{sub("qps=","",$4); print $4}' "$WORK/runs.txt" | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}')
  printf "%-8s %-12s %-12s %.3f\n" $th "$p" "$s" "$(echo "$s / $p" | bc -l)"
done
