// Package gtid owns MySQL global transaction identifiers: server UUIDs, single
// GTIDs (uuid:sequence) and GTID sets in MySQL's text form
// ("3e11fa47-71ca-11e1-9e33-c80aa9429562:1-77:80,..."), with the set algebra
// that replication and recovery need (union, subtract, intersect, subset).
package gtid
