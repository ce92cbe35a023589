// Package frontend turns source files into ir.Programs. It dispatches on the
// file extension to a language front end (CIR, in sub-package cir; the
// litmus and C front ends are sub-packages of their own, sharing the error
// type of sub-package diag) and
// reports errors as an ErrorList: every error of the file, each rendered as
// "file:line:col: message" followed by the source line and a caret.
package frontend

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"ncmc/frontend/c"
	"ncmc/frontend/cir"
	"ncmc/frontend/diag"
	"ncmc/ir"
)

// Error is one positioned front-end error (see diag.Error).
type Error = diag.Error

// ErrorList is the list of all errors of a source file, sorted by position
// (see diag.ErrorList). It is the error type returned by LoadFile and the
// Parse functions when the input is malformed.
type ErrorList = diag.ErrorList

// Unsupported is the error of a valid C program that uses constructs the C
// front end cannot translate faithfully (see package c); a checker must
// answer "unknown" for it, not report bad input.
type Unsupported = c.Unsupported

// LoadFile reads the file at path and lowers it to an ir.Program, choosing
// the front end by extension: ".cir" is CIR; ".c" and ".i" (preprocessed)
// are C, with SV-COMP's ILP32 data model. Other extensions (".litmus", ...)
// are an error for now. Malformed input yields an ErrorList, a C program
// the C front end cannot translate an *Unsupported; an unreadable file
// yields the error of os.ReadFile.
func LoadFile(path string) (*ir.Program, error) { return LoadFileWith(path, c.Options{}) }

// LoadFileWith is LoadFile with the C front end's options copts (ignored
// for CIR); c.Options.ForModel sets those that depend on the memory model.
func LoadFileWith(path string, copts c.Options) (*ir.Program, error) {
	ext := strings.ToLower(filepath.Ext(path))
	switch ext {
	case ".cir":
	case ".c", ".i":
		return c.CompileFile(path, copts)
	case ".litmus":
		return nil, fmt.Errorf("%s: LoadFile does not load litmus tests yet (ncmc reads .cir, .c and .i files; package frontend/litmus parses a litmus test together with its final condition)", path)
	case ".h":
		return nil, fmt.Errorf("%s: a C header is not a program (ncmc reads .cir, .c and .i files)", path)
	default:
		return nil, fmt.Errorf("%s: unknown input file type %q (ncmc reads .cir, .c and .i files)", path, ext)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseCIR(path, src)
}

// ParseCIR parses, checks and lowers the CIR program src; filename is used
// in positions (ir.Pos.File, Program.File) and error messages. Program.Source
// holds src. Malformed programs yield an ErrorList with every syntax error,
// or, if there are none, every semantic error.
func ParseCIR(filename string, src []byte) (*ir.Program, error) {
	return cir.Compile(filename, src)
}

// ErrTimeBound is Bounded's error when the time ran out before the front
// end finished.
var ErrTimeBound = errors.New("time bound hit in the front end")

// Bounded runs load (a front end call) within timeout (0: no bound) and
// until ctx ends (nil: never). The C parser library cannot be interrupted,
// so load runs on its own goroutine, which is abandoned when the time is up
// or ctx ends: Bounded then returns ErrTimeBound at once (the abandoned
// translation finishes in the background and its result is dropped).
func Bounded(ctx context.Context, timeout time.Duration, load func() (*ir.Program, error)) (*ir.Program, error) {
	if timeout <= 0 && ctx == nil {
		return load()
	}
	type loaded struct {
		prog *ir.Program
		err  error
	}
	done := make(chan loaded, 1)
	go func() {
		prog, err := load()
		done <- loaded{prog, err}
	}()
	var expired <-chan time.Time
	if timeout > 0 {
		timer := time.NewTimer(timeout)
		defer timer.Stop()
		expired = timer.C
	}
	var ended <-chan struct{}
	if ctx != nil {
		ended = ctx.Done()
	}
	select {
	case l := <-done:
		return l.prog, l.err
	case <-expired:
	case <-ended:
	}
	return nil, ErrTimeBound
}
