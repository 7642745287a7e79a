package osguard

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// A lock file holds, while it is held, what its holder does there and its
// pid ("check 4242"), so that a waiter says what the holder does, not what
// the waiter would: a journal only checked was said held by a process
// "writing the journal". The mark is read back as anything from the disk
// is: only a purpose the waiter knows (Wait.Marks) and a pid of digits are
// taken, and the words said are the waiter's own.

const (
	// markAt is past the byte Windows' lock takes (lock_windows.go),
	// which no other handle can read while it is held.
	markAt = 1
	// markSize bounds the mark: a purpose, a space, a pid, padded.
	markSize = 40
)

// writeMark leaves mark and this process's pid in the lock file f, held.
// A mark is a courtesy to a waiter: one not written changes nothing.
func writeMark(f *os.File, mark string) {
	s := mark + " " + strconv.Itoa(os.Getpid())
	if len(s) >= markSize {
		return
	}
	_, _ = f.WriteAt([]byte(s+strings.Repeat(" ", markSize-len(s))), markAt)
}

// clearMark blanks the mark before the lock is let go, so that a holder
// that leaves none (an earlier version) is not said doing what this one
// did.
func clearMark(f *os.File) {
	_, _ = f.WriteAt([]byte(strings.Repeat(" ", markSize)), markAt)
}

// readMark is what the holder of the lock file f does, in the words marks
// gives its mark, and its pid: ok only for a mark of that shape whose
// purpose marks knows.
func readMark(f io.ReaderAt, marks map[string]string) (doing string, pid int, ok bool) {
	if len(marks) == 0 {
		return "", 0, false
	}
	buf := make([]byte, markSize)
	n, err := f.ReadAt(buf, markAt)
	if err != nil && err != io.EOF {
		return "", 0, false
	}
	purpose, digits, found := strings.Cut(strings.TrimRight(string(buf[:n]), " "), " ")
	if !found || len(digits) == 0 || len(digits) > 10 || strings.Trim(digits, "0123456789") != "" {
		return "", 0, false
	}
	pid, err = strconv.Atoi(digits)
	doing, known := marks[purpose]
	if err != nil || pid <= 0 || !known {
		return "", 0, false
	}
	return doing, pid, true
}

// marked is w as its waiter says it: what the holder's mark says it does,
// and its pid where the system names no holder. A mark whose pid is not
// the holder the system names is an earlier holder's, left by one that
// ended without blanking it: not taken.
func marked(f io.ReaderAt, w Waiting) Waiting {
	doing, pid, ok := readMark(f, w.Marks)
	if !ok {
		return w
	}
	who := fmt.Sprintf("process %d", pid)
	switch {
	case w.Holder == "":
		w.Holder = who
	case w.Holder != who && !strings.HasPrefix(w.Holder, who+" "):
		return w
	}
	w.Doing = doing
	return w
}
