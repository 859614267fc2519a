// Package server assembles one binlite node: it owns the data directory and its
// identity file (server uuid and id), the node's system variables, the binary log,
// the engine, the MySQL listener with its authenticator, and the HTTP endpoint
// (Prometheus metrics, JSON status and history, and the topology page: topology.go).
package server
