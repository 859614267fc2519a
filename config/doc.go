// Package config reads binlite's option file: MySQL's my.cnf format and option names
// ([mysqld] or [binlite] sections, `name = value` or bare `name` for booleans,
// dashes and underscores interchangeable, `loose-` prefixes accepted).
package config
