package sandbox

import (
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
)

// TestIsLoopback: only loopback IPs and "localhost" serve this machine alone.
func TestIsLoopback(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1:8700": true, "127.0.0.2:0": true, "[::1]:0": true, "localhost:8700": true,
		"0.0.0.0:8700": false, ":8700": false, "[::]:0": false, "192.168.1.5:0": false,
		"[fe80::1]:0": false, "lan-host:0": false, "localhost.example.com:0": false, "8700": false,
	} {
		if got := IsLoopback(addr); got != want {
			t.Errorf("IsLoopback(%q) = %v, want %v", addr, got, want)
		}
	}
}

// TestServerCutsSlowBody: a client that sends its headers and then dribbles
// its body a byte at a time is disconnected once the read timeout passes,
// instead of holding the connection (and a goroutine) for as long as it likes.
func TestServerCutsSlowBody(t *testing.T) {
	srv, err := Start("127.0.0.1:0", Options{ReadTimeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST "+exchange.PathWalletLogin+" HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{")
	done := make(chan struct{})
	defer close(done)
	go func() {
		// One byte every 50ms keeps the connection busy; the pace is the
		// attack, not an ordering of events. It stops when writing fails.
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				if _, err := conn.Write([]byte(" ")); err != nil {
					return
				}
			}
		}
	}()
	// Read until the server closes. The deadline only turns a hang (the bug)
	// into a failure; the server closes long before it.
	if err := conn.SetReadDeadline(time.Now().Add(20 * time.Second)); err != nil {
		t.Fatal(err)
	}
	_, err = io.Copy(io.Discard, conn)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatal("the server kept a connection open while its body dribbled in for 20s")
	}
}
