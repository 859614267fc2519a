package replica

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/binlite/binlite/mysqlerr"
)

// Settings is one channel's CHANGE REPLICATION SOURCE configuration.
type Settings struct {
	Host            string      `json:"host"`
	Port            int         `json:"port"`
	User            string      `json:"user"`
	Password        string      `json:"password"`
	AutoPosition    bool        `json:"auto_position"`
	LogFile         string      `json:"log_file,omitempty"`
	LogPos          int64       `json:"log_pos,omitempty"`
	ConnectRetry    int         `json:"connect_retry"`     // seconds
	RetryCount      int         `json:"retry_count"`       // reconnect attempts
	HeartbeatPeriod float64     `json:"heartbeat_period"`  // seconds
	Delay           int         `json:"delay"`             // SOURCE_DELAY seconds
	Stopped         bool        `json:"stopped,omitempty"` // STOP REPLICA was the last word
	TLS             TLSSettings `json:"tls"`
	Filters         Filters     `json:"filters,omitempty"` // CHANGE REPLICATION FILTER
}

func defaultSettings() Settings {
	return Settings{Port: 3306, ConnectRetry: 60, RetryCount: 86400, HeartbeatPeriod: 30, AutoPosition: true}
}

// Apply merges CHANGE REPLICATION SOURCE options (keys as sqlcompat normalises them).
func (s *Settings) Apply(opts map[string]any) error {
	for k, v := range opts {
		var err error
		switch k {
		case "SOURCE_HOST":
			s.Host = str(v)
		case "SOURCE_PORT":
			s.Port, err = integer(k, v)
		case "SOURCE_USER":
			s.User = str(v)
		case "SOURCE_PASSWORD":
			s.Password = str(v)
		case "SOURCE_AUTO_POSITION":
			var n int
			n, err = integer(k, v)
			s.AutoPosition = n != 0
		case "SOURCE_LOG_FILE":
			s.LogFile = str(v)
		case "SOURCE_LOG_POS":
			var n int
			n, err = integer(k, v)
			s.LogPos = int64(n)
		case "SOURCE_CONNECT_RETRY":
			s.ConnectRetry, err = integer(k, v)
		case "SOURCE_RETRY_COUNT":
			s.RetryCount, err = integer(k, v)
		case "SOURCE_HEARTBEAT_PERIOD":
			s.HeartbeatPeriod, err = float(k, v)
		case "SOURCE_DELAY":
			s.Delay, err = integer(k, v)
		case "SOURCE_SSL", "SOURCE_SSL_CA", "SOURCE_SSL_CERT", "SOURCE_SSL_KEY", "SOURCE_SSL_VERIFY_SERVER_CERT", "SOURCE_TLS_VERSION",
			"GET_SOURCE_PUBLIC_KEY", "SOURCE_SSL_CIPHER", "SOURCE_SSL_CAPATH", "SOURCE_SSL_CRL", "SOURCE_SSL_CRLPATH", "SOURCE_TLS_CIPHERSUITES", "SOURCE_PUBLIC_KEY_PATH":
			err = s.TLS.apply(k, v)
		case "SOURCE_COMPRESSION_ALGORITHMS", "SOURCE_ZSTD_COMPRESSION_LEVEL", "PRIVILEGE_CHECKS_USER", "REQUIRE_ROW_FORMAT", "SOURCE_BIND", "NETWORK_NAMESPACE":
			// Accepted and ignored.
		default:
			return mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'CHANGE REPLICATION SOURCE option %s'", k)
		}
		if err != nil {
			return err
		}
	}
	if s.LogFile != "" && opts["SOURCE_AUTO_POSITION"] == nil {
		s.AutoPosition = false
	}
	if s.AutoPosition && (opts["SOURCE_LOG_FILE"] != nil || opts["SOURCE_LOG_POS"] != nil) {
		return mysqlerr.New(1776, "Parameters SOURCE_LOG_FILE, SOURCE_LOG_POS, RELAY_LOG_FILE and RELAY_LOG_POS cannot be set when SOURCE_AUTO_POSITION is active.")
	}
	if s.HeartbeatPeriod < 0 || s.HeartbeatPeriod > 4294967 {
		return mysqlerr.New(1703, "The requested value for the heartbeat period is either negative or exceeds the maximum allowed (4294967 seconds).")
	}
	return nil
}

func str(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return ""
	}
	return fmt.Sprint(v)
}

func integer(k string, v any) (int, error) {
	switch x := v.(type) {
	case int64:
		return int(x), nil
	case float64:
		return int(x), nil
	case string:
		n, err := strconv.Atoi(strings.TrimSpace(x))
		if err == nil {
			return n, nil
		}
	}
	return 0, mysqlerr.New(mysqlerr.ErWrongArguments, "Incorrect arguments to CHANGE REPLICATION SOURCE: %s", k)
}

func float(k string, v any) (float64, error) {
	switch x := v.(type) {
	case int64:
		return float64(x), nil
	case float64:
		return x, nil
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		if err == nil {
			return f, nil
		}
	}
	return 0, mysqlerr.New(mysqlerr.ErWrongArguments, "Incorrect arguments to CHANGE REPLICATION SOURCE: %s", k)
}

// settingsFile persists every channel's settings (replication.json, written atomically).
type settingsFile struct {
	path string
}

func (f settingsFile) load() (map[string]Settings, error) {
	b, err := os.ReadFile(f.path)
	if os.IsNotExist(err) {
		return map[string]Settings{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("replica: %w", err)
	}
	// Earlier versions wrote the file world-readable; it holds a password.
	if err := os.Chmod(f.path, 0o600); err != nil {
		return nil, fmt.Errorf("replica: %w", err)
	}
	m := map[string]Settings{}
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("replica: %s: %w", f.path, err)
	}
	return m, nil
}

func (f settingsFile) save(m map[string]Settings) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("replica: %w", err)
	}
	// The file holds the source's password: its owner's alone.
	tmp := f.path + ".tmp"
	fh, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("replica: %w", err)
	}
	if _, err := fh.Write(b); err != nil {
		fh.Close()
		return fmt.Errorf("replica: %w", err)
	}
	if err := fh.Sync(); err != nil {
		fh.Close()
		return fmt.Errorf("replica: %w", err)
	}
	if err := fh.Close(); err != nil {
		return fmt.Errorf("replica: %w", err)
	}
	if err := os.Rename(tmp, f.path); err != nil {
		return fmt.Errorf("replica: %w", err)
	}
	d, err := os.Open(filepath.Dir(f.path))
	if err != nil {
		return fmt.Errorf("replica: %w", err)
	}
	defer d.Close()
	return d.Sync()
}
