// Package serve is ncmc's teaching page: a local web server (ncmc serve)
// on which one types or picks a litmus test (herd's C, X86 or X86_64
// format) or a small CIR program and sees which outcomes SC, TSO, PSO, RA
// and RC11 allow, side by side, with a picture of each execution drawn as
// herd draws it (SVG, laid out by Draw) and, for each forbidden outcome,
// the axiom and the cycle that forbid it, highlighted in its picture.
//
// The page is a static HTML file embedded in the binary; it talks to the
// JSON API of docs/serve.md (GET /api/examples, GET /api/example, POST
// /api/run). Every request runs under a time bound and a bound on
// executions and pictures, with at most a few analyses at a time;
// requests share no mutable state.
package serve

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"time"
)

//go:embed static
var static embed.FS

// Config configures a Server.
type Config struct {
	// Dirs are the directories whose .litmus and .cir files (searched
	// recursively) make up the menu, each a group named by its path.
	Dirs []string
	// Timeout bounds the time of one analysis (0: 20 s).
	Timeout time.Duration
	// MaxSource bounds the size of a program's text in bytes (0: 64 KiB).
	MaxSource int
	// Limits bound the work of one analysis (zero fields: DefaultLimits).
	Limits Limits
	// Parallel bounds the analyses that run at once (0: the number of
	// CPUs); further requests wait for a slot until their time bound.
	Parallel int
}

// Server serves the page and its API. It is an http.Handler; its state
// is read-only after New, so requests are independent.
type Server struct {
	cfg  Config
	mux  *http.ServeMux
	slot chan struct{}
}

// Example is one entry of the menu.
type Example struct {
	// Group is the directory it comes from, Path its path relative to it
	// (the id GET /api/example takes is Group + "/" + Path).
	Group string `json:"group"`
	Path  string `json:"path"`
	ID    string `json:"id"`
	Kind  string `json:"kind"`
}

// New returns a server for cfg.
func New(cfg Config) *Server {
	if cfg.Timeout <= 0 {
		cfg.Timeout = 20 * time.Second
	}
	if cfg.MaxSource <= 0 {
		cfg.MaxSource = 64 << 10
	}
	if cfg.Limits.MaxExecutions <= 0 {
		cfg.Limits.MaxExecutions = DefaultLimits.MaxExecutions
	}
	if cfg.Limits.MaxPictures <= 0 {
		cfg.Limits.MaxPictures = DefaultLimits.MaxPictures
	}
	if cfg.Limits.MaxExplanations <= 0 {
		cfg.Limits.MaxExplanations = DefaultLimits.MaxExplanations
	}
	if cfg.Parallel <= 0 {
		cfg.Parallel = runtime.NumCPU()
	}
	s := &Server{cfg: cfg, mux: http.NewServeMux(), slot: make(chan struct{}, cfg.Parallel)}
	sub, err := fs.Sub(static, "static")
	if err != nil {
		panic(err) // the embedded directory exists: a bug otherwise
	}
	s.mux.Handle("GET /", http.FileServer(http.FS(sub)))
	s.mux.HandleFunc("GET /api/examples", s.examples)
	s.mux.HandleFunc("GET /api/example", s.example)
	s.mux.HandleFunc("POST /api/run", s.run)
	return s
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

type apiError struct {
	Error string `json:"error"`
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // the client may be gone; nothing to do then
}

// menu lists the examples of the configured directories.
func (s *Server) menu() []Example {
	var out []Example
	for _, dir := range s.cfg.Dirs {
		group := filepath.ToSlash(filepath.Clean(dir))
		_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil // an unreadable part of the tree is left out of the menu
			}
			kind := ""
			switch filepath.Ext(path) {
			case ".litmus":
				kind = "litmus"
			case ".cir":
				kind = "cir"
			default:
				return nil
			}
			rel, err := filepath.Rel(dir, path)
			if err != nil {
				return nil
			}
			rel = filepath.ToSlash(rel)
			out = append(out, Example{Group: group, Path: rel, ID: group + "/" + rel, Kind: kind})
			return nil
		})
	}
	return out
}

func (s *Server) examples(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.menu())
}

// example returns the text of the menu entry ?id=…; only files of the
// menu are served.
func (s *Server) example(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("id")
	for _, e := range s.menu() {
		if e.ID != id {
			continue
		}
		path := filepath.Join(filepath.FromSlash(e.Group), filepath.FromSlash(e.Path))
		fi, err := os.Stat(path)
		if err == nil && fi.Size() > int64(s.cfg.MaxSource) {
			writeJSON(w, http.StatusRequestEntityTooLarge, apiError{fmt.Sprintf("%s: larger than %d bytes", id, s.cfg.MaxSource)})
			return
		}
		src, err := os.ReadFile(path)
		if err != nil {
			writeJSON(w, http.StatusInternalServerError, apiError{err.Error()})
			return
		}
		writeJSON(w, http.StatusOK, struct {
			Example
			Name   string `json:"name"`
			Source string `json:"source"`
		}{e, path, string(src)})
		return
	}
	writeJSON(w, http.StatusNotFound, apiError{fmt.Sprintf("no example %q", id)})
}

func (s *Server) run(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, int64(s.cfg.MaxSource)+4096)
	var req Request
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeJSON(w, http.StatusRequestEntityTooLarge, apiError{fmt.Sprintf("request larger than %d bytes", tooBig.Limit)})
			return
		}
		writeJSON(w, http.StatusBadRequest, apiError{"malformed request: " + err.Error()})
		return
	}
	if len(req.Source) > s.cfg.MaxSource {
		writeJSON(w, http.StatusRequestEntityTooLarge, apiError{fmt.Sprintf("program larger than %d bytes", s.cfg.MaxSource)})
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.Timeout)
	defer cancel()
	select {
	case s.slot <- struct{}{}:
		defer func() { <-s.slot }()
	case <-ctx.Done():
		writeJSON(w, http.StatusServiceUnavailable, apiError{"server busy: no analysis slot within the time bound"})
		return
	}
	resp, err := Analyze(ctx, req, s.cfg.Limits)
	if err != nil {
		code := http.StatusInternalServerError
		if errors.Is(err, errBadRequest) {
			code = http.StatusBadRequest
		}
		writeJSON(w, code, apiError{err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, resp)
}
