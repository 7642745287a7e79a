package cli

import (
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// sourceDateVar is the reproducible-builds convention for the time a
// build's output is dated by: the release's hooks set it to the commit's.
const sourceDateVar = "SOURCE_DATE_EPOCH"

// manCommand prints svcwallet(1), made from the commands' own help (each
// command's usage, whole description and flags), to the command's stdout.
func (a *app) manCommand() *cobra.Command {
	return &cobra.Command{
		Use:         "man",
		Annotations: map[string]string{annotationNoFiles: "yes"},
		Short:       "Print the manual page (| man -l -)",
		Long: `Prints svcwallet(1), the manual page made from every command's own help (its
usage, description, flags and examples), as roff on standard output: every
command in one page, to read or search. It is dated by $SOURCE_DATE_EPOCH,
else the build's commit time, so two builds of one commit print the same
page; the release's archives and packages carry the one it printed.`,
		Example: `  svcwallet man | man -l -
  # Where man finds it for your user (MANPATH may need ~/.local/share/man)
  svcwallet man > ~/.local/share/man/man1/svcwallet.1`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			bi, ok := debug.ReadBuildInfo()
			_, err := fmt.Fprint(c.OutOrStdout(), manPage(c.Root(), manDate(a.env.Getenv, buildVersion(a.env.Stamp, bi, ok), time.Now)))
			return outputError(err)
		},
	}
}

// manDate is the day the page is dated: $SOURCE_DATE_EPOCH, else the
// commit's time the build knows, else today. Two builds of one commit
// then make the same page.
func manDate(getenv func(string) string, v versionJSON, now func() time.Time) time.Time {
	if sec, err := strconv.ParseInt(getenv(sourceDateVar), 10, 64); err == nil && sec > 0 {
		return time.Unix(sec, 0).UTC()
	}
	if t, err := time.Parse(time.RFC3339, v.Time); err == nil {
		return t.UTC()
	}
	return now()
}

// manPage renders root and every visible command below it as roff.
func manPage(root *cobra.Command, now time.Time) string {
	var b strings.Builder
	name := root.Name()
	fmt.Fprintf(&b, ".TH %s 1 %q %q %q\n", strings.ToUpper(name), now.UTC().Format("2006-01-02"), name, roffText(root.Short))
	fmt.Fprintf(&b, ".SH NAME\n%s \\- %s\n", name, roffText(root.Short))
	fmt.Fprintf(&b, ".SH SYNOPSIS\n.B %s\n[\\fIoptions\\fP] [\\fIcommand\\fP]\n", name)
	b.WriteString(".SH DESCRIPTION\n")
	manProse(&b, root.Long)
	b.WriteString(".SH OPTIONS\n")
	manFlags(&b, root.LocalNonPersistentFlags(), root.PersistentFlags())
	b.WriteString(".SH COMMANDS\n")
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			if !sub.IsAvailableCommand() || sub.Name() == "help" || sub.IsAdditionalHelpTopicCommand() {
				continue
			}
			manCommandSection(&b, sub)
			walk(sub)
		}
	}
	walk(root)
	// The help topics, each once (svcwallet help keys).
	for _, t := range root.Commands() {
		if t.IsAdditionalHelpTopicCommand() {
			fmt.Fprintf(&b, ".SH %s\n", t.Annotations[annotationManSection])
			manProse(&b, t.Long)
		}
	}
	return b.String()
}

// manCommandSection is one command: its usage line, its whole description,
// its examples and its own flags.
func manCommandSection(b *strings.Builder, c *cobra.Command) {
	fmt.Fprintf(b, ".SS %s\n", roffText(c.CommandPath()))
	if use := strings.TrimSuffix(c.UseLine(), " [flags]"); use != c.CommandPath() {
		fmt.Fprintf(b, ".B %s\n", roffText(use))
	}
	long := c.Long
	if long == "" {
		long = c.Short
	}
	manProse(b, long)
	if c.Example != "" {
		b.WriteString(".PP\nExamples:\n.RS 4\n.nf\n")
		for _, l := range strings.Split(strings.TrimRight(c.Example, "\n"), "\n") {
			b.WriteString(roffLine(strings.TrimPrefix(l, "  ")) + "\n")
		}
		b.WriteString(".fi\n.RE\n")
	}
	manFlags(b, c.LocalNonPersistentFlags(), c.PersistentFlags())
}

// manProse sets text as paragraphs: lines of a paragraph are joined so man
// fills them; a paragraph with an indented line keeps its lines as written
// (exit status tables, examples).
func manProse(b *strings.Builder, text string) {
	for _, para := range strings.Split(strings.TrimSpace(text), "\n\n") {
		lines := strings.Split(strings.Trim(para, "\n"), "\n")
		literal := false
		for _, l := range lines[1:] {
			literal = literal || strings.HasPrefix(l, " ")
		}
		b.WriteString(".PP\n")
		if literal {
			b.WriteString(".nf\n")
			for _, l := range lines {
				b.WriteString(roffLine(l) + "\n")
			}
			b.WriteString(".fi\n")
			continue
		}
		for i, l := range lines {
			lines[i] = strings.TrimSpace(l)
		}
		b.WriteString(roffLine(strings.Join(lines, " ")) + "\n")
	}
}

// manFlags lists flags (help aside) as tagged paragraphs: the flag, its
// value's name, its usage and its default when it has one.
func manFlags(b *strings.Builder, sets ...*pflag.FlagSet) {
	seen := map[string]bool{}
	for _, set := range sets {
		set.VisitAll(func(f *pflag.Flag) {
			if f.Hidden || f.Name == "help" || seen[f.Name] {
				return
			}
			seen[f.Name] = true
			value, usage := pflag.UnquoteUsage(f)
			tag := `\fB\-\-` + roffText(f.Name) + `\fP`
			if f.Shorthand != "" {
				tag = `\fB\-` + f.Shorthand + `\fP, ` + tag
			}
			if value != "" {
				tag += ` \fI` + roffText(value) + `\fP`
			}
			if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "[]" {
				usage += " (default " + f.DefValue + ")"
			}
			fmt.Fprintf(b, ".TP\n%s\n%s\n", tag, roffLine(usage))
		})
	}
}

// roffText escapes text for roff: backslashes and the hyphens of flags.
func roffText(s string) string {
	return strings.NewReplacer(`\`, `\e`, "-", `\-`).Replace(s)
}

// roffLine is roffText for a whole line: a line starting with . or ' would
// be read as a request, so it is protected with \&.
func roffLine(s string) string {
	s = roffText(s)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}
