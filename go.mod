module github.com/binlite/binlite

go 1.26

require (
	filippo.io/edwards25519 v1.1.0 // indirect
	github.com/go-sql-driver/mysql v1.9.3 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/mattn/go-sqlite3 v1.14.53 // indirect
	golang.org/x/sys v0.38.0 // indirect
)
