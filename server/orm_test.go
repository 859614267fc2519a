package server_test

// ORMs from Debian against a real node: SQLAlchemy (python3-sqlalchemy with
// PyMySQL) creates, reflects and drops a schema through information_schema and
// SHOW; Django 3.2 (python3-django with mysqlclient) probes the server,
// migrates and uses its ORM. The Python scripts are in testdata/orm.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	tn "github.com/binlite/binlite/internal/testnode"
)

// runPython runs a script with Debian's python3 (where the python3-* packages
// install) and decodes the JSON object it prints last.
func runPython(t *testing.T, dir string, args ...string) map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/usr/bin/python3", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("python3 %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	lines := bytes.Split(bytes.TrimSpace(out), []byte("\n"))
	var got map[string]any
	if err := json.Unmarshal(lines[len(lines)-1], &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	return got
}

func needPython(t *testing.T, modules ...string) {
	t.Helper()
	for _, m := range modules {
		if err := exec.Command("/usr/bin/python3", "-c", "import "+m).Run(); err != nil {
			t.Fatalf("/usr/bin/python3 cannot import %s (.ci/run installs python3-sqlalchemy, python3-django, python3-pymysql and python3-mysqldb): %v", m, err)
		}
	}
}

// js renders a decoded JSON value for comparison with a written one.
func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestSQLAlchemy(t *testing.T) {
	needPython(t, "sqlalchemy", "pymysql")
	n := tn.Start(t)
	tn.Exec(t, n.DB(""), "CREATE DATABASE sa")
	got := runPython(t, "testdata/orm", "sqlalchemy_schema.py", strconv.Itoa(n.Port()), "sa")
	want := map[string]string{
		"has_table":    `true`,
		"tables":       `["author","book"]`,
		"columns":      `{"author_id":["INTEGER",false,false],"id":["BIGINT",false,true],"meta":["JSON",true,false],"price":["DECIMAL(10, 2)",true,false],"title":["VARCHAR(200)",true,false]}`,
		"indexes":      `[["fk_book_author",["author_id"],false],["ix_book_title",["title"],false]]`,
		"foreign_keys": `[["fk_book_author",["author_id"],"author",["id"]]]`,
		"unique":       `[["uq_author_email",["email"]]]`,
		"pk":           `["id"]`,
		"row":          `["9.99",{"k":[1,2]}]`,
		"reflected":    `["author","book"]`,
		"after_drop":   `[]`,
	}
	for k, w := range want {
		if g := js(got[k]); g != w {
			t.Errorf("%s = %s, want %s", k, g, w)
		}
	}
}

func TestDjango(t *testing.T) {
	needPython(t, "django", "MySQLdb")
	n := tn.Start(t)
	tn.Exec(t, n.DB(""), "CREATE DATABASE dj")
	// makemigrations writes the apps' migrations: run a copy of the project.
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/orm/django")); err != nil {
		t.Fatal(err)
	}
	got := runPython(t, dir, "run.py", strconv.Itoa(n.Port()), "dj")
	want := map[string]string{
		"startswith":       `["Go Systems"]`,
		"istartswith":      `["Go Systems","go lower"]`,
		"iexact":           `["SQLite"]`,
		"exact":            `["SQLite"]`,
		"contains":         `[]`,
		"updated":          `2`,
		"stars":            `[1,1,5]`,
		"deleted":          `2`,
		"left":             `["SQLite"]`,
		"note_constraints": `[[["id"],true,true,true],[["stars"],false,false,false],[["title"],false,false,true]]`,
	}
	for k, w := range want {
		if g := js(got[k]); g != w {
			t.Errorf("%s = %s, want %s", k, g, w)
		}
	}
	server, _ := got["server"].(map[string]any)
	if server["version"] == nil || server["has_zoneinfo_database"] != true || server["lower_case_table_names"] != false {
		t.Errorf("Django's server probe: %s", js(server))
	}
	for _, tbl := range []string{"django_content_type", "django_migrations", "django_session", "notes_note"} {
		if !strings.Contains(js(got["tables"]), fmt.Sprintf("%q", tbl)) {
			t.Errorf("tables = %s, want %s among them", js(got["tables"]), tbl)
		}
	}
	if blocked, ok := got["blocked"].(string); ok {
		// Django adds every foreign key with ALTER TABLE ... ADD CONSTRAINT ...
		// FOREIGN KEY.
		t.Fatalf("migrate of auth, admin and shop failed: %s", blocked)
	}
	for k, w := range map[string]string{"join": `["go lower"]`, "cascade": `2`, "books_left": `1`, "book_relations": `{"author_id":["id","shop_author"]}`} {
		if g := js(got[k]); g != w {
			t.Errorf("%s = %s, want %s", k, g, w)
		}
	}
}
