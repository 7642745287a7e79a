package sandbox

import (
	"net"
	"net/http"
	"time"
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
	e := New(opts)
	s := &Server{
		URL:      "http://" + ln.Addr().String(),
		Exchange: e,
		srv:      &http.Server{Handler: e, ReadHeaderTimeout: 10 * time.Second},
	}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// Close stops listening and closes every connection, which also releases
// withdraws held by FaultHang.
func (s *Server) Close() error { return s.srv.Close() }
