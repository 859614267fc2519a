#!/bin/bash
# Server CPU per transaction of one binlite binary under one sysbench workload at one
# thread: utime+stime of the server process over a 10 s run, divided by the run's
# transactions (after a 3 s warm-up). Used to compare two builds on the same machine,
# interleaved, when a change must not cost the hot path.
# usage: cpu-per-txn.sh BINLITE WORKLOAD [auto|disable]
set -u
BIN=$1; WL=$2; PS=${3:-auto}
pkill -f "serve --datadir ${WORK:-/tmp/cpupertxn}" ; sleep 0.5
rm -rf ${WORK:-/tmp/cpupertxn} && mkdir ${WORK:-/tmp/cpupertxn}
$BIN serve --datadir ${WORK:-/tmp/cpupertxn} --port 33081 --server-id 1 > ${WORK:-/tmp/cpupertxn}.log 2>&1 &
PID=$!
sleep 1.5
mariadb -h127.0.0.1 -P33081 -uroot -e "CREATE DATABASE sbtest"
SB="sysbench --db-driver=mysql --mysql-host=127.0.0.1 --mysql-port=33081 --mysql-user=root --mysql-password= --mysql-db=sbtest --tables=1 --table-size=10000 --rand-type=uniform --db-ps-mode=$PS"
$SB $WL prepare >/dev/null 2>&1
$SB $WL --threads=1 --time=3 run >/dev/null 2>&1
t0=$(awk '{print $14+$15}' /proc/$PID/stat)
out=$($SB $WL --threads=1 --time=10 run 2>&1)
t1=$(awk '{print $14+$15}' /proc/$PID/stat)
n=$(echo "$out" | awk '/transactions:/{print $2}')
tps=$(echo "$out" | awk '/transactions:/{print $3}' | tr -d '(')
echo "$(basename $BIN) $WL $PS: $(( (t1-t0)*10000*1000/n / 1000 )) us/txn cpu, $tps tps"
kill $PID
