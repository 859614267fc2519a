package mysqlproto

import (
	"context"
	"net"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestMariaDBCLI runs the real mariadb client against the server.
func TestMariaDBCLI(t *testing.T) {
	bin, err := exec.LookPath("mariadb")
	if err != nil {
		t.Fatal("the mariadb CLI is not installed (.ci/run installs mariadb-client)")
	}
	addr, _, _ := startServer(t, nil)
	_, port, _ := net.SplitHostPort(addr)
	run := func(args ...string) (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		out, err := exec.CommandContext(ctx, bin, append([]string{"--no-defaults", "-h127.0.0.1", "-P" + port}, args...)...).CombinedOutput()
		return string(out), err
	}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"-uroot", "-e", "select 'hello' as greeting"}, "greeting\nhello\n"},
		{[]string{"-ualice", "-psecret", "-Dshop", "-e", "select database()"}, "database()\nshop\n"},
		{[]string{"-uroot", "-e", "select 1; select 'hello' as greeting"}, "1\n1\ngreeting\nhello\n"},
		{[]string{"-uroot", "-e", "select types"}, "i\tu\tf\ts\tb\tt\tn\td\n" +
			"-42\t18446744073709551615\t0.1\théllo\t\\0\x01\x02\t2024-01-02 03:04:05\tNULL\t12.50\n" +
			"7\t0\t1e20\t\t\t2024-01-02 03:04:05.123456\tx\t-1.00\n"},
	}
	for _, c := range cases {
		out, err := run(c.args...)
		if err != nil || out != c.want {
			t.Errorf("mariadb %v: err %v\n got %q\nwant %q", c.args, err, out, c.want)
		}
	}
	out, err := run("-ualice", "-pwrong", "-e", "select 1")
	if err == nil || !strings.Contains(out, "ERROR 1045 (28000)") {
		t.Errorf("wrong password: %v %q", err, out)
	}
	out, err = run("-uroot", "-e", "fail")
	if err == nil || !strings.Contains(out, "ERROR 1146 (42S02)") {
		t.Errorf("fail: %v %q", err, out)
	}
}
