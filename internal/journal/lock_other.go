//go:build !unix

package journal

// Exclusive is a no-op where flock is not available: the process's own
// lock (Journal.mu) still orders its writes.
func (j *Journal) Exclusive() (unlock func(), err error) { return func() {}, nil }

// LockFile is a no-op where flock is not available.
func LockFile(string) (unlock func(), err error) { return func() {}, nil }
