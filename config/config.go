package config

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
)

// Option is one setting from the file, with where it came from for error messages.
type Option struct {
	Name  string // normalised: lower case, underscores
	Value string
	Line  int
}

// Sections whose options binlite applies; others ([client], [mysql]) are skipped.
var serverSections = map[string]bool{"mysqld": true, "binlite": true, "server": true, "mariadb": true}

// Normalize lower-cases an option name, turns dashes into underscores and drops MySQL's
// `loose_` prefix.
func Normalize(name string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	n = strings.ReplaceAll(n, "-", "_")
	return strings.TrimPrefix(n, "loose_")
}

// Parse reads options from the server sections of an option file.
func Parse(r io.Reader) ([]Option, error) {
	var out []Option
	sc := bufio.NewScanner(r)
	section := ""
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" || s[0] == '#' || s[0] == ';' {
			continue
		}
		if s[0] == '[' {
			end := strings.IndexByte(s, ']')
			if end < 0 {
				return nil, fmt.Errorf("config: line %d: malformed section header %q", line, s)
			}
			section = strings.ToLower(strings.TrimSpace(s[1:end]))
			continue
		}
		if strings.HasPrefix(s, "!include") {
			return nil, fmt.Errorf("config: line %d: !include is not supported", line)
		}
		if !serverSections[section] {
			continue
		}
		name, value, hasValue := strings.Cut(s, "=")
		if !hasValue {
			value = "ON"
		}
		value = strings.TrimSpace(value)
		if i := strings.Index(value, " #"); i >= 0 {
			value = strings.TrimSpace(value[:i])
		}
		if len(value) >= 2 && (value[0] == '"' || value[0] == '\'') && value[len(value)-1] == value[0] {
			value = value[1 : len(value)-1]
		}
		out = append(out, Option{Name: Normalize(name), Value: value, Line: line})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	return out, nil
}

// ParseFile reads an option file.
func ParseFile(path string) ([]Option, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	defer f.Close()
	opts, err := Parse(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return opts, nil
}
