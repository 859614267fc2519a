// Package checksum compares two MySQL-protocol servers table by table, the way
// pt-table-checksum does: it walks every table in primary-key order in chunks,
// hashes each chunk on both sides, and compares rows only in chunks that differ.
package checksum
