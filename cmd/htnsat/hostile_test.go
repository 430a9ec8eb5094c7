//go:build unix

package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/htnsat/htnsat/internal/web"
)

// TestHostile runs every case of testdata/hostile (see its README): the
// command must exit with the code the case wants, print each line it
// names, in the time it allows, and leave the files as it says.
func TestHostile(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dirs, err := filepath.Glob(filepath.Join(root, "testdata", "hostile", "*"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, dir := range dirs {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			continue
		}
		n++
		t.Run(filepath.Base(dir), func(t *testing.T) { runHostile(t, root, dir) })
	}
	if n < 60 {
		t.Fatalf("only %d cases under testdata/hostile", n)
	}
}

// hostileCase is one folder of testdata/hostile, read.
type hostileCase struct {
	dir, tmp string
	expand   func(string) string
	file     func(name string) (string, bool)
}

func (c *hostileCase) lines(name string) []string {
	s, ok := c.file(name)
	if !ok {
		return nil
	}
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		if l = strings.TrimSpace(c.expand(l)); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

func runHostile(t *testing.T, root, dir string) {
	c := &hostileCase{dir: dir, tmp: t.TempDir()}
	c.file = func(name string) (string, bool) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		return string(b), err == nil
	}
	c.expand = strings.NewReplacer("{root}", root, "{dir}", dir, "{tmp}", c.tmp).Replace
	wantLines := c.lines("want")
	if len(wantLines) == 0 {
		t.Fatal("no want file")
	}
	if testing.Short() && c.lines("long") != nil {
		t.Skip("a long case (-short)")
	}
	for _, g := range c.lines("gen") {
		if err := generate(c.tmp, strings.Fields(g)); err != nil {
			t.Fatalf("gen %s: %v", g, err)
		}
	}
	var code int
	var printed string
	start := time.Now()
	switch {
	case c.lines("request") != nil:
		code, printed = runRequest(t, root, c)
	case c.lines("process") != nil:
		code, printed = runProcess(t, c)
	default:
		code, printed = runInProcess(t, c)
	}
	took := time.Since(start)
	cmdline, _ := c.file("cmd")
	if len(cmdline) > 200 {
		cmdline = cmdline[:200]
	}
	want := wantLines[0]
	switch {
	case strings.HasPrefix(want, "exit "):
		if w, err := strconv.Atoi(strings.TrimPrefix(want, "exit ")); err != nil || code != w {
			t.Errorf("htnsat %s: exit %d, want %s\n%s", cmdline, code, want, excerptOf(printed))
		}
	case strings.HasPrefix(want, "status "):
		if w, err := strconv.Atoi(strings.TrimPrefix(want, "status ")); err != nil || code != w {
			t.Errorf("request: status %d, want %s\n%s", code, want, excerptOf(printed))
		}
	default:
		t.Fatalf("want file: %q is not \"exit N\" or \"status N\"", want)
	}
	for _, l := range wantLines[1:] {
		switch {
		case strings.HasPrefix(l, "!"):
			if strings.Contains(printed, l[1:]) {
				t.Errorf("htnsat %s: output has %q:\n%s", cmdline, l[1:], excerptOf(printed))
			}
		case !strings.Contains(printed, l):
			t.Errorf("htnsat %s: output lacks %q:\n%s", cmdline, l, excerptOf(printed))
		}
	}
	if len(printed) > 64<<10 {
		t.Errorf("htnsat %s printed %d bytes", cmdline, len(printed))
	}
	if w := c.lines("within"); w != nil {
		d, err := time.ParseDuration(w[0])
		if err != nil {
			t.Fatalf("within: %v", err)
		}
		if took > d {
			t.Errorf("htnsat %s took %v, more than %v", cmdline, took.Round(time.Millisecond), d)
		}
	}
	for _, chk := range c.lines("check") {
		if err := checkFile(words(chk)); err != nil {
			t.Errorf("check %s: %v", chk, err)
		}
	}
}

// stdio sets up the standard input and output a case asks for.
func (c *hostileCase) stdio(t *testing.T) (io.Reader, io.Writer, *bytes.Buffer) {
	var stdin io.Reader = strings.NewReader("")
	if s, ok := c.file("stdin"); ok {
		stdin = strings.NewReader(s)
	}
	if from := c.lines("stdin-from"); from != nil {
		f, err := os.Open(from[0])
		if err != nil {
			t.Skip(err)
		}
		t.Cleanup(func() { f.Close() })
		stdin = f
	}
	var out bytes.Buffer
	var stdout io.Writer = &out
	if to := c.lines("stdout-to"); to != nil {
		f, err := os.OpenFile(to[0], os.O_WRONLY, 0)
		if err != nil {
			t.Skip(err)
		}
		t.Cleanup(func() { f.Close() })
		stdout = f
	}
	return stdin, stdout, &out
}

// runInProcess runs the command line through run, with the case's files
// for the standard streams.
func runInProcess(t *testing.T, c *hostileCase) (int, string) {
	args := c.args(t)
	stdin, stdout, out := c.stdio(t)
	var errb bytes.Buffer
	code := run(context.Background(), args, &ioStreams{In: stdin, Out: stdout, Err: &errb})
	return code, out.String() + errb.String()
}

func (c *hostileCase) args(t *testing.T) []string {
	cmdline, ok := c.file("cmd")
	if !ok {
		t.Fatal("no cmd file")
	}
	return words(c.expand(strings.TrimSpace(cmdline)))
}

// words splits a line of cmd or check at white space; within a word,
// {sp} stands for a space and {nl} for a newline.
func words(line string) []string {
	f := strings.Fields(line)
	for i := range f {
		f[i] = strings.NewReplacer("{sp}", " ", "{nl}", "\n").Replace(f[i])
	}
	return f
}

// runProcess runs the command line in a process of its own (this test
// binary standing in for htnsat), for what a process alone can show:
// signals, a closed standard output, a private /dev. The lines of the
// process file:
//
//	plain                         just a process of its own
//	signal SIGINT|SIGTERM AFTER   send the signal AFTER the start
//	stdout closed                 start with the standard output closed
//	namespace                     run in a mount namespace with a tmpfs
//	                              on /dev (null, full and stdout made
//	                              anew) and tell whether /dev/null and
//	                              /dev/full are still devices after
func runProcess(t *testing.T, c *hostileCase) (int, string) {
	args := c.args(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var sig os.Signal
	var after time.Duration
	closed, namespace := false, false
	for _, l := range c.lines("process") {
		f := strings.Fields(l)
		switch {
		case f[0] == "signal" && len(f) == 3:
			sig = map[string]os.Signal{"SIGINT": os.Interrupt, "SIGTERM": syscall.SIGTERM}[f[1]]
			if after, err = time.ParseDuration(f[2]); err != nil || sig == nil {
				t.Fatalf("process: %s", l)
			}
		case l == "stdout closed":
			closed = true
		case l == "namespace":
			namespace = true
		case l == "plain": // a process, nothing more (ipc runs itself)
		default:
			t.Fatalf("process: unknown line %q", l)
		}
	}
	var cmd *exec.Cmd
	switch {
	case namespace:
		if os.Geteuid() != 0 {
			t.Skip("a private /dev needs root")
		}
		if _, err := exec.LookPath("unshare"); err != nil {
			t.Skip("no unshare")
		}
		script := `mount -t tmpfs none /dev || exit 97
mknod -m 666 /dev/null c 1 3 && mknod -m 666 /dev/full c 1 7 && ln -s /proc/self/fd/1 /dev/stdout || exit 98
"$@"; code=$?
[ -c /dev/null ] && [ -c /dev/full ] && echo "devices intact" || echo "devices replaced"
exit $code`
		cmd = exec.Command("unshare", append([]string{"-m", "--propagation", "private", "sh", "-c", script, "sh", exe}, args...)...)
	case closed:
		// a child started with descriptor 1 closed: the shell's >&-
		cmd = exec.Command("sh", append([]string{"-c", `exec "$@" >&-`, "sh", exe}, args...)...)
	default:
		cmd = exec.Command(exe, args...)
	}
	cmd.Env = append(os.Environ(), "HTNSAT_TEST_MAIN=1")
	stdin, stdout, _ := c.stdio(t)
	cmd.Stdin = stdin
	var out, errb bytes.Buffer
	cmd.Stderr = &errb
	switch {
	case c.lines("stdout-to") != nil:
		cmd.Stdout = stdout // the file itself, as a shell's > gives it
	case !closed:
		cmd.Stdout = &out
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if sig != nil {
		time.Sleep(after)
		cmd.Process.Signal(sig)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		t.Fatal("still running after two minutes")
	}
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String() + errb.String()
}

// runRequest sends the case's request to a server made as "htnsat
// serve" makes it (web.New, sets from {dir}): the request file holds
// "METHOD PATH", header lines, a blank line and the body; {host} is the
// server's address. The code returned is the HTTP status.
func runRequest(t *testing.T, root string, c *hostileCase) (int, string) {
	srv, err := web.New(web.Options{SetsDir: c.dir, SolveTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	raw, _ := c.file("request")
	raw = strings.ReplaceAll(c.expand(raw), "{host}", strings.TrimPrefix(ts.URL, "http://"))
	head, body, _ := strings.Cut(raw, "\n\n")
	lines := strings.Split(strings.TrimSpace(head), "\n")
	method, path, ok := strings.Cut(strings.TrimSpace(lines[0]), " ")
	if !ok {
		t.Fatalf("request: first line %q", lines[0])
	}
	req, err := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range lines[1:] {
		k, v, _ := strings.Cut(h, ":")
		if strings.EqualFold(k, "Host") {
			req.Host = strings.TrimSpace(v)
			continue
		}
		req.Header.Set(strings.TrimSpace(k), strings.TrimSpace(v))
	}
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	b, _ := io.ReadAll(r.Body)
	return r.StatusCode, string(b)
}

// generate makes an input too big to keep in the repository, or a file
// of a kind git does not hold (a FIFO, a link, a mode), in dir:
//
//	fifo NAME                         a named pipe
//	fifo-reader NAME                  a named pipe with a reader that
//	                                  drains it into NAME.read
//	mkdir NAME                        a folder
//	link NAME TARGET                  a symbolic link
//	file NAME MODE [TEXT...]          a file with that mode and text
//	repeat NAME N TEXT...             TEXT (\n for a newline) N times
//	                                  (after what NAME holds)
//	deep-plan NAME N                  a valid plan of the deep domain
//	                                  (testdata/hostile/verify-deep) whose
//	                                  decomposition is N tasks deep
//	network NAME N ordered|chain      a problem of domain d whose initial
//	                                  network has N tasks t, totally
//	                                  ordered or in a chain of :ordering
//	                                  pairs
//	type-chain NAME N                 a domain of N types, each the
//	                                  parent of the next
//	actions NAME N                    a plan of N Sudoku actions (ids
//	                                  0..N-1), no decompositions
//	bom NAME FILE                     FILE with a UTF-8 byte order mark
//	thermos NAME N                    an f-puzzles 9x9 with N copies of
//	                                  one thermometer
func generate(dir string, g []string) error {
	if len(g) < 2 {
		return fmt.Errorf("want KIND NAME ...")
	}
	kind, path := g[0], filepath.Join(dir, g[1])
	num := func(i int) (int, error) {
		if len(g) <= i {
			return 0, fmt.Errorf("no count")
		}
		return strconv.Atoi(g[i])
	}
	// lines of gen that name one file add to it
	write := func(fn func(w *bufio.Writer)) error {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			return err
		}
		w := bufio.NewWriter(f)
		fn(w)
		if err := w.Flush(); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
	switch kind {
	case "fifo", "fifo-reader":
		if err := syscall.Mkfifo(path, 0o644); err != nil {
			return err
		}
		if kind == "fifo-reader" {
			go func() {
				f, err := os.Open(path)
				if err != nil {
					return
				}
				b, _ := io.ReadAll(f)
				f.Close()
				os.WriteFile(path+".read", b, 0o644)
			}()
		}
		return nil
	case "mkdir":
		return os.MkdirAll(path, 0o755)
	case "link":
		return os.Symlink(g[2], path)
	case "file":
		mode, err := strconv.ParseUint(g[2], 8, 32)
		if err != nil {
			return err
		}
		if err := os.WriteFile(path, []byte(strings.Join(g[3:], " ")), 0o600); err != nil {
			return err
		}
		return os.Chmod(path, os.FileMode(mode))
	case "repeat":
		n, err := num(2)
		if err != nil {
			return err
		}
		text := strings.ReplaceAll(strings.Join(g[3:], " "), `\n`, "\n")
		return write(func(w *bufio.Writer) {
			for range n {
				w.WriteString(text)
			}
		})
	case "deep-plan":
		n, err := num(2)
		if err != nil {
			return err
		}
		return write(func(w *bufio.Writer) {
			w.WriteString("==>\n0 a\nroot 1\n")
			for i := 1; i < n; i++ {
				fmt.Fprintf(w, "%d t -> m-down %d\n", i, i+1)
			}
			fmt.Fprintf(w, "%d t -> m-end 0\n<==\n", n)
		})
	case "network":
		// network NAME N ordered|chain: a problem of domain d whose
		// initial network has N tasks (t), in :ordered-subtasks or in a
		// chain of :ordering pairs
		n, err := num(2)
		if err != nil || len(g) < 4 {
			return fmt.Errorf("network NAME N ordered|chain")
		}
		return write(func(w *bufio.Writer) {
			kw := map[string]string{"ordered": ":ordered-subtasks", "chain": ":subtasks"}[g[3]]
			fmt.Fprintf(w, "(define (problem p) (:domain d) (:htn %s (and\n", kw)
			for i := range n {
				fmt.Fprintf(w, " (t%d (t))\n", i)
			}
			w.WriteString(")")
			if g[3] == "chain" {
				w.WriteString(" :ordering (and\n")
				for i := 1; i < n; i++ {
					fmt.Fprintf(w, " (< t%d t%d)\n", i-1, i)
				}
				w.WriteString(")")
			}
			w.WriteString(") (:init))\n")
		})
	case "type-chain":
		n, err := num(2)
		if err != nil {
			return err
		}
		return write(func(w *bufio.Writer) {
			w.WriteString("(define (domain chain) (:requirements :typing :hierarchy)\n(:types")
			for i := range n {
				fmt.Fprintf(w, " t%d - t%d", i, i+1)
			}
			w.WriteString(")\n(:task x :parameters ()))\n")
		})
	case "actions":
		n, err := num(2)
		if err != nil {
			return err
		}
		return write(func(w *bufio.Writer) {
			w.WriteString("==>\n")
			for i := range n {
				fmt.Fprintf(w, "%d FILL-CELL b1 c3 r0 d6\n", i)
			}
			w.WriteString("<==\n")
		})
	case "bom":
		b, err := os.ReadFile(g[2])
		if err != nil {
			return err
		}
		return os.WriteFile(path, append([]byte("\uFEFF"), b...), 0o644)
	case "thermos":
		n, err := num(2)
		if err != nil {
			return err
		}
		return write(func(w *bufio.Writer) {
			w.WriteString(`{"size":9,"grid":[`)
			for r := range 9 {
				if r > 0 {
					w.WriteString(",")
				}
				w.WriteString("[" + strings.TrimSuffix(strings.Repeat("{},", 9), ",") + "]")
			}
			w.WriteString(`],"thermometer":[`)
			for i := range n {
				if i > 0 {
					w.WriteString(",")
				}
				w.WriteString(`{"lines":[["R1C1","R1C2","R1C3"]]}`)
			}
			w.WriteString("]}")
		})
	}
	return fmt.Errorf("unknown kind %q", kind)
}

// checkFile checks what a case left behind:
//
//	fifo PATH | link PATH | device PATH   still of that kind
//	mode PATH MODE                        with that mode
//	has PATH TEXT...                      holding TEXT
//	absent PATH                           not there
func checkFile(c []string) error {
	if len(c) < 2 {
		return fmt.Errorf("want KIND PATH")
	}
	st, err := os.Lstat(c[1])
	switch c[0] {
	case "absent":
		if err == nil {
			return fmt.Errorf("%s is there", c[1])
		}
		return nil
	case "fifo":
		if err != nil || st.Mode()&os.ModeNamedPipe == 0 {
			return fmt.Errorf("not a FIFO (%v)", err)
		}
	case "link":
		if err != nil || st.Mode()&os.ModeSymlink == 0 {
			return fmt.Errorf("not a symbolic link (%v)", err)
		}
	case "mode":
		m, perr := strconv.ParseUint(c[2], 8, 32)
		if err != nil || perr != nil || st.Mode().Perm() != os.FileMode(m) {
			return fmt.Errorf("mode %v (%v)", st.Mode().Perm(), err)
		}
	case "has":
		// a FIFO's reader writes what it read once the writer is done
		var b []byte
		for deadline := time.Now().Add(3 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			b, err = os.ReadFile(c[1])
			if err == nil && strings.Contains(string(b), strings.Join(c[2:], " ")) {
				return nil
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("%.200q (%v)", b, err)
			}
		}
	default:
		return fmt.Errorf("unknown check %q", c[0])
	}
	return err
}

func excerptOf(s string) string {
	if len(s) > 2000 {
		return s[:2000] + "..."
	}
	return s
}
