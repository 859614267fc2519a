package server

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/binlite/binlite/gtid"
)

// identity is the data directory's persistent name: the server uuid is created once
// and never changes (invariant 3); the server id may be changed by configuration.
type identity struct {
	UUID     gtid.UUID
	ServerID uint32
}

const identityFile = "server"

func loadIdentity(dir string, serverID uint32) (identity, error) {
	path := filepath.Join(dir, identityFile)
	id := identity{ServerID: serverID}
	f, err := os.Open(path)
	switch {
	case os.IsNotExist(err):
		id.UUID = gtid.NewUUID()
		if id.ServerID == 0 {
			id.ServerID = 1
		}
		return id, writeIdentity(path, id)
	case err != nil:
		return id, fmt.Errorf("server: identity: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	var stored uint32
	for sc.Scan() {
		k, v, _ := strings.Cut(strings.TrimSpace(sc.Text()), "=")
		switch strings.TrimSpace(k) {
		case "server_uuid":
			u, err := gtid.ParseUUID(strings.TrimSpace(v))
			if err != nil {
				return id, fmt.Errorf("server: identity file %s: %w", path, err)
			}
			id.UUID = u
		case "server_id":
			n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 32)
			if err != nil {
				return id, fmt.Errorf("server: identity file %s: bad server_id: %w", path, err)
			}
			stored = uint32(n)
		}
	}
	if id.UUID.IsZero() {
		return id, fmt.Errorf("server: identity file %s has no server_uuid", path)
	}
	if id.ServerID == 0 {
		id.ServerID = stored
	}
	if id.ServerID != stored {
		return id, writeIdentity(path, id)
	}
	return id, nil
}

func writeIdentity(path string, id identity) error {
	tmp := path + ".tmp"
	body := fmt.Sprintf("server_uuid=%s\nserver_id=%d\n", id.UUID, id.ServerID)
	f, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("server: identity: %w", err)
	}
	if _, err := f.WriteString(body); err != nil {
		f.Close()
		return fmt.Errorf("server: identity: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("server: identity: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("server: identity: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("server: identity: %w", err)
	}
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return fmt.Errorf("server: identity: %w", err)
	}
	defer d.Close()
	return d.Sync()
}
