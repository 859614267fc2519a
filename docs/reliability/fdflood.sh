#!/bin/bash
# fdflood.sh BINLITE NOFILE MAXCONN N [PORT]
# Runs a node under prlimit --nofile=NOFILE:NOFILE with max_connections=MAXCONN,
# opens one root session (the mariadb CLI), floods the node with N sockets that never
# log in (flood.py), and meanwhile has the session create a database, a table and
# rows. Prints the descriptors the node holds, what the flood got, the session's
# output, and whether the node is still alive.
set -u
BIN=$1 NOFILE=$2 MAXCONN=$3 N=$4 PORT=${5:-23310}
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
printf '[mysqld]\nmax_connections = %s\n' "$MAXCONN" > "$WORK/node.cnf"
prlimit --nofile="$NOFILE:$NOFILE" "$BIN" serve --datadir "$WORK/data" --port "$PORT" --config "$WORK/node.cnf" > "$WORK/node.log" 2>&1 &
PID=$!
sleep 1.5
grep -o 'open_files_limit=[0-9]* kept_for_storage_and_logs=[0-9]* client_connections_at_most=[0-9]*' "$WORK/node.log"
echo "descriptors open at rest: $(ls /proc/$PID/fd | wc -l)"
mkfifo "$WORK/in"
exec 3<>"$WORK/in"
mariadb --no-defaults -h127.0.0.1 -P"$PORT" -uroot -B -N --unbuffered <&3 > "$WORK/session.out" 2>&1 &
echo "SELECT 'session open';" >&3
sleep 0.5
python3 "$HERE/flood.py" 127.0.0.1 "$PORT" "$N" silent 12 > "$WORK/flood.out" &
FP=$!
sleep 1
echo "descriptors open during the flood: $(ls /proc/$PID/fd | wc -l)"
echo "CREATE DATABASE during_flood; CREATE TABLE during_flood.t (id INT PRIMARY KEY); INSERT INTO during_flood.t VALUES (1),(2),(3); SELECT COUNT(*) FROM during_flood.t;" >&3
echo "SHOW GLOBAL STATUS WHERE Variable_name IN ('Threads_connected','Connection_errors_internal','Connection_errors_max_connections','Max_used_connections');" >&3
sleep 1
echo "new client during the flood: $(mariadb --no-defaults -h127.0.0.1 -P"$PORT" -uroot -N -e "select 'ok'" 2>&1 | tail -1)"
wait $FP
cat "$WORK/flood.out"
echo "--- the established session's output:"
cat "$WORK/session.out"
if kill -0 $PID 2>/dev/null; then echo "node alive"; else echo "NODE EXITED"; fi
echo "new client after the flood: $(mariadb --no-defaults -h127.0.0.1 -P"$PORT" -uroot -N -e "select 'ok'" 2>&1 | tail -1)"
echo "quit" >&3
exec 3>&-
kill $PID 2>/dev/null
wait $PID 2>/dev/null
echo "ERROR lines in the node's log: $(grep -c 'level=ERROR' "$WORK/node.log")"
grep 'level=ERROR' "$WORK/node.log" | head -3
