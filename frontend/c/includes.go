package c

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"regexp"

	"modernc.org/cc/v4"
)

// The C parser (modernc.org/cc/v4 v4.31.0) can loop forever after an
// #include whose file does not exist (e.g. "#include <nosuch.h>" followed
// by "*a)"): ccTranslate gives up after parseBound, but its goroutine keeps
// running, and a process that translates many programs (the fuzzer, the
// CLI tests) slows down with every such input. A missing include is an
// error anyway, so when a program names an include file that is in none of
// the search directories, the program is first only preprocessed; if that
// fails, its errors are the answer and the parser never runs.

// includeRE matches an #include line with a literal file name.
var includeRE = regexp.MustCompile(`(?m)^[ \t]*#[ \t]*include[ \t]*([<"])([^>"\n]+)[>"]`)

// unresolvedInclude reports whether src (the file filename) includes a
// file that is neither beside it nor in a directory of cfg's search paths
// (a computed #include, with a macro, counts as resolved).
func unresolvedInclude(filename string, src []byte, cfg *cc.Config) bool {
	dirs := append([]string{filepath.Dir(filename)}, cfg.IncludePaths...)
	dirs = append(dirs, cfg.SysIncludePaths...)
	for _, m := range includeRE.FindAllSubmatch(src, -1) {
		name := string(bytes.TrimSpace(m[2]))
		if filepath.IsAbs(name) {
			if _, err := os.Stat(name); err != nil {
				return true
			}
			continue
		}
		found := false
		for _, d := range dirs {
			if d == "" {
				d = filepath.Dir(filename)
			}
			if _, err := os.Stat(filepath.Join(d, name)); err == nil {
				found = true
				break
			}
		}
		if !found {
			return true
		}
	}
	return false
}

// preprocessErrors preprocesses sources when src names an include file
// that cannot be found (unresolvedInclude) and returns the preprocessor's
// errors, positioned; nil if the program preprocesses (the include was in
// a skipped conditional, say) or names no such file.
func preprocessErrors(filename string, src []byte, cfg *cc.Config, sources []cc.Source) error {
	if !unresolvedInclude(filename, src, cfg) {
		return nil
	}
	if err := cc.Preprocess(cfg, sources, io.Discard); err != nil {
		return ccErrors(filename, src, err)
	}
	return nil
}
