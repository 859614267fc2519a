// Package harness holds what the benchmark programs under bench/ share: starting and
// stopping server processes by PID (binlite built from this repository, MariaDB as our
// own mariadbd --no-defaults instance), pausing the idle one, free loopback ports,
// driving sysbench and parsing its report, server-side counters taken around a run,
// medians, and a description of the machine.
//
// Nothing here asserts timings: the programs print tables and write results files.
package harness
