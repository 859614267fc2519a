#!/bin/bash
# Interleaved A/B comparison of binlite builds (or settings) on a shared, noisy
# machine: every configuration gets its own fresh server (own data directory and
# port), all are prepared alike, and the runs go round-robin (A, B, A, B, ...) so
# that drift in the machine's load hits them alike. The configurations not being
# measured are paused with SIGSTOP. Each run prints tps, p95 latency and the
# server's CPU per transaction (utime+stime from /proc over the run); the end
# prints medians per configuration and the load average seen.
#
# usage: interleave.sh WORKLOAD THREADS SECONDS REPEATS NAME=BINARY[:SQL] ...
#   e.g. interleave.sh oltp_update_index 64 8 5 base=/tmp/old/binlite \
#          new=/tmp/new/binlite "d1=/tmp/new/binlite:SET GLOBAL binlite_commit_pipeline_depth=1"
# SQL runs on that configuration's server before each of its runs. Servers are
# stopped by PID at the end. WORK (default /tmp/interleave-$$) holds data and logs;
# PORT (default 34400) is the first port used (two per configuration).
set -u
WL=$1; TH=$2; SEC=$3; REP=$4; shift 4
WORK=${WORK:-/tmp/interleave-$$}
PORT=${PORT:-34400}
mkdir -p "$WORK"
SB="sysbench --db-driver=mysql --mysql-host=127.0.0.1 --mysql-user=root --mysql-password= --mysql-db=sbtest --tables=1 --table-size=10000 --rand-type=uniform --report-interval=0"
names=(); pids=(); ports=(); sqls=()
cleanup() {
	for p in "${pids[@]}"; do kill -CONT "$p" 2>/dev/null; kill "$p" 2>/dev/null; done
}
trap cleanup EXIT
for c in "$@"; do
	name=${c%%=*}; rest=${c#*=}; bin=${rest%%:*}; sql=""
	[ "$bin" != "$rest" ] && sql=${rest#*:}
	dir=$WORK/$name
	rm -rf "$dir"; mkdir -p "$dir"
	printf '[mysqld]\nsync_binlog = 1\n' > "$dir.cnf"
	"$bin" serve --datadir "$dir" --port "$PORT" --server-id 1 --http-port $((PORT+1)) --config "$dir.cnf" > "$dir.log" 2>&1 &
	pid=$!
	for i in $(seq 100); do mariadb -h127.0.0.1 -P"$PORT" -uroot -e "SELECT 1" >/dev/null 2>&1 && break; sleep 0.1; done
	mariadb -h127.0.0.1 -P"$PORT" -uroot -e "CREATE DATABASE sbtest"
	$SB --mysql-port="$PORT" oltp_update_index prepare >/dev/null 2>&1
	$SB --mysql-port="$PORT" oltp_update_index --threads=16 --time=3 run >/dev/null 2>&1 # warm-up
	kill -STOP "$pid"
	names+=("$name"); pids+=("$pid"); ports+=("$PORT"); sqls+=("$sql")
	PORT=$((PORT+2))
done
out=$WORK/runs.txt
: > "$out"
for r in $(seq "$REP"); do
	for i in "${!names[@]}"; do
		pid=${pids[$i]}; port=${ports[$i]}
		kill -CONT "$pid"
		[ -n "${sqls[$i]}" ] && mariadb -h127.0.0.1 -P"$port" -uroot -e "${sqls[$i]}"
		t0=$(awk '{print $14+$15}' /proc/"$pid"/stat)
		res=$($SB --mysql-port="$port" "$WL" --threads="$TH" --time="$SEC" run 2>&1)
		t1=$(awk '{print $14+$15}' /proc/"$pid"/stat)
		kill -STOP "$pid"
		n=$(echo "$res" | awk '/transactions:/{print $2}')
		tps=$(echo "$res" | awk '/transactions:/{print $3}' | tr -d '(')
		p95=$(echo "$res" | awk '/95th/{print $3}')
		cpu=$(( (t1-t0) * 10000 * 1000 / n / 1000 )) # /proc ticks are 10 ms
		load=$(cut -d' ' -f1 /proc/loadavg)
		echo "$r ${names[$i]} $WL $TH tps=$tps p95=$p95 cpu_us=$cpu load=$load" | tee -a "$out"
	done
done
echo "medians over $REP runs:"
for name in "${names[@]}"; do
	awk -v n="$name" '$2 == n {
		for (i = 5; i <= 8; i++) { split($i, kv, "="); v[kv[1]][++c[kv[1]]] = kv[2] }
	} END {
		printf "%s:", n
		split("tps p95 cpu_us load", ks, " ")
		for (k = 1; k <= 4; k++) {
			key = ks[k]; m = c[key]; asort(v[key], s)
			med = (m % 2) ? s[(m+1)/2] : (s[m/2] + s[m/2+1]) / 2
			printf " %s=%s", key, med
		}
		printf "\n"
	}' "$out"
done
