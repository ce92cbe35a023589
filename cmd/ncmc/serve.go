package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"ncmc/serve"
)

type serveCmd struct {
	Addr          string        `help:"Address to listen on (host:port; port 0 picks a free one)." default:"127.0.0.1:8080"`
	Dir           []string      `help:"Directories whose .litmus and .cir files form the page's menu (searched recursively; missing ones are skipped)." default:"examples,../shared/bench/litmus"`
	Timeout       time.Duration `help:"Time bound of one analysis." default:"20s"`
	MaxExecutions int           `name:"max-executions" help:"Executions explored per model (and per explanation search) before the answer is marked incomplete." default:"20000"`
	MaxPictures   int           `name:"max-pictures" help:"Executions drawn per answer." default:"40"`
}

func (c *serveCmd) run(e *env) int {
	if c.MaxExecutions <= 0 || c.MaxPictures <= 0 || c.Timeout <= 0 {
		fmt.Fprintln(e.stderr, "ncmc: --timeout, --max-executions and --max-pictures must be positive")
		return exitBadInput
	}
	var dirs []string
	for _, d := range c.Dir {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			dirs = append(dirs, d)
		} else {
			fmt.Fprintf(e.stderr, "ncmc: menu directory %s not found, skipped\n", d)
		}
	}
	srv := serve.New(serve.Config{Dirs: dirs, Timeout: c.Timeout,
		Limits: serve.Limits{MaxExecutions: c.MaxExecutions, MaxPictures: c.MaxPictures}})
	ln, err := net.Listen("tcp", c.Addr)
	if err != nil {
		fmt.Fprintf(e.stderr, "ncmc: %v\n", err)
		return exitBadInput
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second, WriteTimeout: c.Timeout + 30*time.Second}
	fmt.Fprintf(e.stdout, "ncmc serve: open http://%s/ (Ctrl+C stops)\n", ln.Addr())
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		if !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintf(e.stderr, "ncmc: %v\n", err)
			return exitBadInput
		}
	case <-e.ctx.Done():
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = hs.Shutdown(ctx) // stopping anyway
	}
	return exitVerified
}
