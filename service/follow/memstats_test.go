package follow_test

import "runtime"

// runtimeMem is the live heap after a collection.
type runtimeMem struct{ heap int64 }

func (m *runtimeMem) read() {
	runtime.GC()
	var st runtime.MemStats
	runtime.ReadMemStats(&st)
	m.heap = int64(st.HeapAlloc)
}
