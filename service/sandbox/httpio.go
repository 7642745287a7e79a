package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
)

// maxBody caps request bodies; every valid one is far smaller.
const maxBody = 64 << 10

// headerAPIKey is X-API-Key as net/http stores it: looked up in this form,
// it is not canonicalised (a string made) on every request.
var headerAPIKey = http.CanonicalHeaderKey(exchange.HeaderAPIKey)

// apiError is a rejection: a service code (which fixes the HTTP status) and a
// short message that never repeats a secret. Handlers pass *apiError, not
// error, so every rejection the compiler sees has a code.
type apiError struct {
	code exchange.Code
	msg  string
}

func fail(code exchange.Code, msg string) *apiError { return &apiError{code, msg} }

func failf(code exchange.Code, format string, args ...any) *apiError {
	return &apiError{code, fmt.Sprintf(format, args...)}
}

func malformed(format string, args ...any) *apiError {
	return failf(exchange.CodeMalformed, format, args...)
}

// writeError answers a rejection as the D7 body.
func writeError(w http.ResponseWriter, e *apiError) {
	status := e.code.Status()
	writeJSON(w, status, exchange.ErrorBody{Code: int(e.code), Message: e.msg, Status: status})
}

// reply is a 200 answer, computed under the lock and written after it.
type reply struct {
	body      any
	encoded   []byte // the body already encoded (encodeJSON), instead of body
	cookie    *http.Cookie
	accountID string // X-Service-Account-Id response header (logins, D6)
}

// respond runs f under the lock on the sandbox clock and writes its answer.
func (e *Exchange) respond(w http.ResponseWriter, f func(now time.Time) (reply, *apiError)) *apiError {
	rep, err := e.locked(f)
	if err != nil {
		return err
	}
	if rep.cookie != nil {
		http.SetCookie(w, rep.cookie)
	}
	if rep.accountID != "" {
		w.Header().Set(e.accountHeader, rep.accountID)
	}
	if rep.encoded == nil {
		rep.encoded = encodeJSON(rep.body)
	}
	writeEncoded(w, http.StatusOK, rep.encoded)
	return nil
}

// locked runs f under the lock on the sandbox clock, released however f
// ends: held after a panic (answered by serve), it froze every request after.
func (e *Exchange) locked(f func(now time.Time) (reply, *apiError)) (reply, *apiError) {
	now := e.lock()
	defer e.mu.Unlock()
	return f(now)
}

// serve runs a route's handler. A panic in it, a bug of the sandbox's, is
// logged and answered 500 with the service's unknown error (1005), the lock
// released on the way out (locked, lock), so the next request is served;
// one after the answer began ends the connection, as net/http would.
func (e *Exchange) serve(h func(http.ResponseWriter, *http.Request) *apiError, w *statusWriter, r *http.Request) (err *apiError) {
	defer func() {
		p := recover()
		switch {
		case p == nil:
			return
		case p == http.ErrAbortHandler:
			panic(p)
		}
		e.log.Error("panic", slog.String("method", r.Method), slog.String("path", r.URL.Path), slog.String("value", panicValue(p)), slog.String("at", panicAt()))
		if w.status != 0 {
			panic(http.ErrAbortHandler)
		}
		err = fail(exchange.CodeUnknown, "the sandbox failed on this request (a bug of its own): send it again, and restart the sandbox if it fails again")
	}()
	return h(w, r)
}

// panicValue is what the log says of a panic's value: a runtime error's
// words, which name no data; of any other value its type alone, as it may
// hold what a request carried.
func panicValue(p any) string {
	if re, ok := p.(runtime.Error); ok {
		return re.Error()
	}
	return fmt.Sprintf("%T", p)
}

// panicAt is where the panic being recovered was raised, called from the
// recovering function: the first frame outside the runtime, with no
// argument values (a stack's may hold a key's words).
func panicAt() string {
	pcs := make([]uintptr, 32)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs)])
	for {
		f, more := frames.Next()
		if !strings.HasPrefix(f.Function, "runtime.") {
			return fmt.Sprintf("%s %s:%d", f.Function, filepath.Base(f.File), f.Line)
		}
		if !more {
			return "unknown"
		}
	}
}

// writeJSON answers a body.
func writeJSON(w http.ResponseWriter, status int, body any) {
	writeEncoded(w, status, encodeJSON(body))
}

// encodeJSON is a body as sent, newline included. Every body is one of our
// own types, so encoding cannot fail.
func encodeJSON(body any) []byte {
	b, _ := json.Marshal(body)
	return append(b, '\n')
}

func writeEncoded(w http.ResponseWriter, status int, b []byte) {
	w.Header()["Content-Type"] = contentTypeJSON
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// contentTypeJSON is shared by every answer; net/http only reads it.
var contentTypeJSON = []string{"application/json"}

// requestBody is a request's body as readBody read it, or why it could not be.
type requestBody struct {
	b   []byte
	err *apiError
}

// readBody reads at most maxBody bytes. It runs before the state lock is
// taken, so a slow client never holds up others; what went wrong is said
// when the body is decoded, after the handler's own refusals (decode).
func readBody(r *http.Request) requestBody {
	b, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		return requestBody{err: malformed("request body could not be read")}
	}
	if len(b) > maxBody {
		return requestBody{err: malformed("request body is larger than %d KiB", maxBody>>10)}
	}
	return requestBody{b: b}
}

// decode reads the body's JSON object into v (decodeJSON), or says why the
// body could not be read.
func (b requestBody) decode(v any) *apiError {
	if b.err != nil {
		return b.err
	}
	return decodeJSON(b.b, v)
}

// decodeJSON reads a JSON object into v. Syntax and type errors, a field
// given twice and one spelled in another case become 1003 naming the
// field; required fields are checked by the caller.
func decodeJSON(body []byte, v any) *apiError {
	if len(body) == 0 {
		return malformed("request body is empty; send a JSON object")
	}
	err := json.Unmarshal(body, v)
	if err == nil {
		return badKey(body, v)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field == "" {
			return malformed("request body must be a JSON object")
		}
		return malformed("field %s must be %s", te.Field, kindName(te.Type))
	}
	return malformed("request body is not valid JSON")
}

func kindName(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Int:
		return "an integer"
	case reflect.Uint32:
		return "an integer from 0 to 4294967295"
	case reflect.Struct:
		return "an object"
	}
	return "of another type"
}

// queryValue is r.URL.Query().Get(key) without building the map of every
// parameter: the first value of key, skipping what url.ParseQuery refuses.
func queryValue(rawQuery, key string) string {
	for rawQuery != "" {
		var part string
		part, rawQuery, _ = strings.Cut(rawQuery, "&")
		if strings.Contains(part, ";") {
			continue
		}
		k, v, _ := strings.Cut(part, "=")
		if k, err := url.QueryUnescape(k); err != nil || k != key {
			continue
		}
		if v, err := url.QueryUnescape(v); err == nil {
			return v
		}
	}
	return ""
}

// need returns a required string field, or 1003 naming it when absent or empty.
func need(p *string, field string) (string, *apiError) {
	if p == nil || *p == "" {
		return "", malformed("field %s is required", field)
	}
	return *p, nil
}

// statusWriter remembers the status for the request log. Unwrap lets
// http.ResponseController reach the connection (the drop fault hijacks it).
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
