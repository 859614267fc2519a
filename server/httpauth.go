package server

import (
	"crypto/subtle"
	"net"
	"net/http"
	"strings"
)

// The HTTP endpoint serves /metrics, /status and /debug/pprof (heap dumps, CPU
// profiles). It listens on loopback (http_bind_address, default 127.0.0.1) unless
// told otherwise; once it listens beyond loopback, every path but /metrics asks
// for the http_token option as a bearer token ("Authorization: Bearer <token>")
// and answers 401 without it, and with no token configured those paths are closed
// to everyone. /metrics stays open for Prometheus, as mysqld_exporter's does.
// The topology page (GET /) is open too: it is a static file holding no data, and
// it fetches /status with the token it is given (topology.html: the #token=
// fragment of its address, or the box it shows on a 401).

// httpGuard wraps the endpoint's handler with the token check when needed.
func httpGuard(h http.Handler, addr net.Addr, token string) http.Handler {
	if tcp, ok := addr.(*net.TCPAddr); ok && tcp.IP.IsLoopback() {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/metrics" || r.URL.Path == "/" || token != "" && bearerMatches(r, token) {
			h.ServeHTTP(w, r)
			return
		}
		w.Header().Set("WWW-Authenticate", `Bearer realm="binlite"`)
		http.Error(w, "401 unauthorized: this endpoint needs the node's http_token (Authorization: Bearer <token>)", http.StatusUnauthorized)
	})
}

func bearerMatches(r *http.Request, token string) bool {
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return ok && subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), []byte(token)) == 1
}
