package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/htnsat/htnsat/internal/web"
	"github.com/htnsat/htnsat/plan"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

func newCmdServe(ios *ioStreams) *cobra.Command {
	var addr, sets string
	var hosts []string
	var timeout time.Duration
	var maxSolves int
	var ef engineFlags
	cmd := &cobra.Command{
		Use: "serve",
		Example: `  htnsat serve
  # answer on every interface, for the machines of a home network
  htnsat serve --addr 0.0.0.0:8080 --allow-host sudoku.lan`,
		Short: "A local page to load, solve, step through plans and play Sudoku with hints",
		Long: `Serve the page (every asset embedded: it works offline) and its JSON API
(docs/web-api.md) on 127.0.0.1 unless --addr says otherwise, and print its
URL. --sets names a directory of puzzle files the page can pick from (by
default sudoku/sets, the standard sets, when run from the repository).
Each solve, hint or count runs under --solve-timeout and stops when its
client goes away; at most --max-solves run at once, the others get 503.
Requests for other host names than IP addresses, localhost and
--allow-host, and API requests from other web sites, are refused. The
engine flags of "htnsat plan" are accepted and apply to the page's solves.`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			if sets == "" {
				if st, err := os.Stat("sudoku/sets"); err == nil && st.IsDir() {
					sets = "sudoku/sets"
				}
			}
			eo, err := ef.compare()
			if err != nil {
				return err
			}
			if h, _, err := net.SplitHostPort(addr); err == nil && h != "" && net.ParseIP(h) == nil {
				hosts = append(hosts, h) // the name it was told to listen on
			}
			ctx := cmd.Context()
			srv, err := web.New(web.Options{SetsDir: sets, SolveTimeout: timeout, MaxSolves: maxSolves, Engines: eo,
				Hosts: hosts, Memory: plan.MemoryGaugeOf(ctx)})
			if err != nil {
				return withCode(exitFailure, err)
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return withCode(exitFailure, err)
			}
			hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
			fmt.Fprintf(ios.Out, "htnsat serve: http://%s/\n", ln.Addr())
			go func() {
				<-ctx.Done()
				sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
				defer cancel()
				hs.Shutdown(sctx)
			}()
			if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				return withCode(exitFailure, err)
			}
			if cause := context.Cause(ctx); errors.Is(cause, plan.ErrMemory) {
				// the memory guard stopped the server: say so, exit 1
				return withCode(exitFailure, fmt.Errorf("serve stopped: %w", cause))
			}
			return nil // Ctrl-C or SIGTERM: the usual way to stop a server
		},
	}
	f := cmd.Flags()
	f.StringVar(&addr, "addr", "127.0.0.1:8080", "address to listen on")
	f.StringVar(&sets, "sets", "", "directory of puzzle files to offer")
	f.DurationVar(&timeout, "solve-timeout", 30*time.Second, "time limit of each solve, hint or count")
	f.IntVar(&maxSolves, "max-solves", 2, "solves run at once (the others get 503)")
	capFlag(f, "max-solves", maxParallel)
	f.StringArrayVar(&hosts, "allow-host", nil, "answer requests for this host name too (repeatable; IP addresses and localhost always are)")
	ef.register(f)
	// the engine flags apply to the page's solves but are not what
	// serving is about: accepted, not listed
	f.VisitAll(func(fl *pflag.Flag) {
		if len(fl.Annotations[groupAnnotation]) > 0 {
			fl.Hidden = true
		}
	})
	return cmd
}
