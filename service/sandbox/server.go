package sandbox

import (
	"net"
	"net/http"
	"time"
)

// Timeouts of the sandbox's HTTP server. None cuts a legitimate request: the
// client gives up on an attempt after exchange.DefaultTimeout (15s) and every
// valid body is under maxBody (64 KiB), so only a client that holds a
// connection open on purpose (a slow body, an idle keep-alive) meets them.
const (
	// DefaultReadTimeout bounds reading a whole request, headers and body.
	DefaultReadTimeout = 30 * time.Second
	// readHeaderTimeout bounds reading the request line and headers.
	readHeaderTimeout = 10 * time.Second
	// writeTimeout bounds a request from the end of its headers to the end
	// of the answer; FaultHang holds an answer only until the client gives up.
	writeTimeout = 60 * time.Second
	// idleTimeout closes a keep-alive connection that sends no new request.
	idleTimeout = 120 * time.Second
)

// Server is an Exchange listening on a TCP address.
type Server struct {
	URL      string // http://host:port, the base of all three hosts
	Exchange *Exchange
	srv      *http.Server
}

// Start listens on addr (e.g. "127.0.0.1:0" for any free port) and serves an
// Exchange built from opts in a goroutine until Close.
func Start(addr string, opts Options) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	read := opts.ReadTimeout
	if read <= 0 {
		read = DefaultReadTimeout
	}
	e := New(opts)
	s := &Server{
		URL:      "http://" + ln.Addr().String(),
		Exchange: e,
		srv: &http.Server{Handler: e, ReadHeaderTimeout: min(readHeaderTimeout, read), ReadTimeout: read,
			WriteTimeout: writeTimeout, IdleTimeout: idleTimeout},
	}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// Close stops listening and closes every connection, which also releases
// withdraws held by FaultHang.
func (s *Server) Close() error { return s.srv.Close() }

// IsLoopback reports whether a listen address (host:port) serves only this
// machine: a loopback IP or "localhost". An empty host, 0.0.0.0, ::, a LAN
// IP or any other name is reachable from the network.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
