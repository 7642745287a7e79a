package cli

// The commands whose clocks, waits and probes a test replaces run through
// the whole command line, as in a process, with the replacement injected.

func (c builderCmd) runLine(args []string) int {
	a := newApp(c.env)
	a.builder = c
	return a.execute(append([]string{"builder"}, args...))
}

func (c statusCmd) runLine(args []string) int {
	a := newApp(c.env)
	a.status = c
	return a.execute(append([]string{"status"}, args...))
}

// runHistoryLine runs `svcwallet history`, whose --refresh asks as status does.
func (c statusCmd) runHistoryLine(args []string) int {
	a := newApp(c.env)
	a.status = c
	return a.execute(append([]string{"history"}, args...))
}

func (c doctorCmd) runLine(args []string) int {
	a := newApp(c.env)
	a.doctor = c
	return a.execute(append([]string{"doctor"}, args...))
}

func (c withdrawCmd) runLine(args []string) int {
	a := newApp(c.env)
	a.withdraw = c
	return a.execute(append([]string{"withdraw"}, args...))
}
