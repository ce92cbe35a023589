package main

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"syscall"
	"time"
)

// runResult is one process run: its combined output, the wall time of the
// whole process, its peak memory and how it ended.
type runResult struct {
	Output   string
	Wall     time.Duration
	MaxRSSKB int64 // the child's ru_maxrss (KB on Linux; the largest of it and its waited-for children, e.g. clang)
	Exit     int   // exit status (-1: killed or not started)
	TimedOut bool
	Err      error // could not start
}

// run runs argv with env under a wall-clock limit. The process gets its own
// process group, and on the limit the whole group is killed (GenMC and
// nidhuggc run clang and other children).
func run(ctx context.Context, limit time.Duration, env []string, dir string, argv ...string) runResult {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = env
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	err := cmd.Run()
	r := runResult{Output: out.String(), Wall: time.Since(start), Exit: -1}
	if cmd.ProcessState != nil {
		r.Exit = cmd.ProcessState.ExitCode()
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			r.MaxRSSKB = ru.Maxrss
		}
	}
	if ctx.Err() == context.DeadlineExceeded {
		r.TimedOut = true
		return r
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		r.Err = err
	}
	return r
}
