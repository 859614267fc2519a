package server_test

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	tn "github.com/binlite/binlite/internal/testnode"
)

// TestLongDataPHP: COM_STMT_SEND_LONG_DATA as PHP sends it (Debian's php-cli and
// php-mysql; .ci/run installs them): mysqli's send_long_data in several chunks
// for a BLOB with NUL bytes, a TEXT and an INT, a long data parameter used by one
// execute only, and PDO's native prepares binding a stream as a LOB.
func TestLongDataPHP(t *testing.T) {
	if err := exec.Command("php", "-r", "exit(extension_loaded('mysqli') && extension_loaded('pdo_mysql') ? 0 : 1);").Run(); err != nil {
		t.Fatalf("php with mysqli and pdo_mysql is needed (Debian php-cli php-mysql; .ci/run installs them): %v", err)
	}
	n := tn.Start(t)
	tn.Exec(t, n.DB(""), "CREATE DATABASE ld")
	tn.Exec(t, n.DB("ld"), "CREATE TABLE ld (id INT PRIMARY KEY, b LONGBLOB, t TEXT, n INT)")
	out, err := exec.Command("php", "testdata/longdata.php", strconv.Itoa(n.Port())).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var got struct {
		Affected int     `json:"mysqli_affected"`
		Rows     [][]any `json:"mysqli_rows"`
		BlobMD5  string  `json:"blob_md5"`
		PDOLen   int     `json:"pdo_len"`
		PDOHead  string  `json:"pdo_head"`
	}
	if err := json.Unmarshal(bytes.TrimSpace(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	blob := bytes.Repeat([]byte("\x00\x01binlite\xff"), 30000)
	sum := md5.Sum(blob)
	if got.BlobMD5 != hex.EncodeToString(sum[:]) {
		t.Fatalf("the script's blob is not the test's: %s", got.BlobMD5)
	}
	want := fmt.Sprintf("[[1 %d %s café long text 42 0] [2 <nil> <nil> <nil> <nil> 1]]", len(blob), hex.EncodeToString(sum[:]))
	if rows := strings.ReplaceAll(fmt.Sprint(got.Rows), "\"", ""); got.Affected != 1 || rows != want {
		t.Errorf("mysqli: affected %d, rows %s; want 1, %s", got.Affected, rows, want)
	}
	if got.PDOLen != 70010 || got.PDOHead != hex.EncodeToString([]byte("pdo\x00streamz")[:10]) {
		t.Errorf("PDO LOB stream: length %d, head %s", got.PDOLen, got.PDOHead)
	}
}
