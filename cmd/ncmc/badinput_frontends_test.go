package main

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestBadInputFrontEnds gives each front end (CIR, C, litmus, commspec
// YAML) the inputs of issue 18's bad-input list: an empty file, binary
// garbage, invalid UTF-8, a huge literal, 100,000 nested parentheses
// (and 100,000 nested YAML flow sequences), a directory and a missing
// file. Each must exit 2 within 10 s with a first stderr line
// "file:line:col: message" (the file's own error for a directory or a
// missing file), no line over 400 bytes, nothing on stdout and no panic.
func TestBadInputFrontEnds(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, src []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, src, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	rng := rand.New(rand.NewPCG(18, 1))
	garbage := make([]byte, 3000)
	for i := range garbage {
		garbage[i] = byte(rng.IntN(256))
	}
	const n = 100000
	open, close := strings.Repeat("(", n), strings.Repeat(")", n)
	specHdr := "object: Set\nmethods:\n  add:      {args: {v: int}, result: {r: bool}}\n  contains: {args: {v: int}, result: {r: bool}}\ncommute:\n"
	inputs := map[string]map[string]string{ // front end -> case -> source
		"cir": {
			"huge":  "fn main() {\n    let x = 99999999999999999999999;\n}\n",
			"deep":  "fn main() {\n    let x = " + open + "1" + close + ";\n}\n",
			"utf8":  "fn main() {\n    let x\xff\xfe = 1;\n}\n",
			"empty": "",
		},
		"c": {
			"huge":  "int main(void) { int x = 999999999999999999999999999; return x; }\n",
			"deep":  "int main(void) { int x = " + open + "1" + close + "; return x; }\n",
			"utf8":  "int main(void) { int x\xff\xfe = 1; return x; }\n",
			"empty": "",
		},
		"litmus": {
			"huge":  "C huge\n\n{ [x] = 99999999999999999999999; }\n\nP0 (atomic_int* x) {\n  atomic_store_explicit(x, 1, memory_order_relaxed);\n}\n\nexists ([x]=1)\n",
			"deep":  "C deep\n\n{ [x] = 0; }\n\nP0 (atomic_int* x) {\n  int r0 = " + open + "1" + close + ";\n  atomic_store_explicit(x, r0, memory_order_relaxed);\n}\n\nexists ([x]=1)\n",
			"utf8":  "C u\xff\xfe\n\n{ [x] = 0; }\n\nP0 (atomic_int* x) {\n  atomic_store_explicit(x, 1, memory_order_relaxed);\n}\n\nexists ([x]=1)\n",
			"empty": "",
		},
		"yaml": {
			"huge":      specHdr + "  add/add: v1 == 99999999999999999999999\n",
			"deep":      specHdr + "  add/add: " + open + "v1" + close + " == 1\n",
			"deep-flow": "object: " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n",
			"utf8":      specHdr + "  add/add: v1\xff\xfe == 1\n",
			"empty":     "",
		},
	}
	command := func(fe, file string) []string {
		switch fe {
		case "litmus":
			return []string{"litmus", file}
		case "yaml":
			return []string{"spec", "check", file, "--impl", "../../examples/set-2add-cont.cir"}
		}
		return []string{"verify", file}
	}
	for _, fe := range []string{"cir", "c", "litmus", "yaml"} {
		cases := inputs[fe]
		cases["garbage"] = string(garbage)
		names := []string{"empty", "garbage", "utf8", "huge", "deep", "deep-flow", "directory", "missing"}
		for _, name := range names {
			src, ok := cases[name]
			var file string
			switch name {
			case "directory":
				file = filepath.Join(dir, "dir."+fe)
				if err := os.MkdirAll(file, 0o755); err != nil {
					t.Fatal(err)
				}
			case "missing":
				file = filepath.Join(dir, "missing."+fe)
			default:
				if !ok {
					continue
				}
				file = write(name+"."+fe, []byte(src))
			}
			t.Run(fe+"/"+name, func(t *testing.T) {
				start := time.Now()
				code, out, errs := runCLI(t, command(fe, file)...)
				if d := time.Since(start); d > 10*time.Second {
					t.Errorf("took %s, want at most 10s", d)
				}
				if code != 2 {
					t.Errorf("exit code %d, want 2\nstdout:\n%.500s\nstderr:\n%.500s", code, out, errs)
				}
				if out != "" {
					t.Errorf("stdout not empty:\n%.500s", out)
				}
				first, _, _ := strings.Cut(errs, "\n")
				var want *regexp.Regexp
				switch name {
				case "directory":
					want = regexp.MustCompile(`^read ` + regexp.QuoteMeta(file) + `: is a directory$`)
				case "missing":
					want = regexp.MustCompile(`^open ` + regexp.QuoteMeta(file) + `: no such file or directory$`)
				default:
					want = regexp.MustCompile(`^` + regexp.QuoteMeta(file) + `:[1-9][0-9]*:[1-9][0-9]*: \S`)
				}
				if !want.MatchString(first) {
					t.Errorf("first stderr line %.300q, want it to match %s", first, want)
				}
				if strings.Contains(errs, "panic") || strings.Contains(errs, "goroutine ") {
					t.Errorf("stderr shows a panic:\n%.2000s", errs)
				}
				for _, l := range bytes.Split([]byte(errs), []byte("\n")) {
					if len(l) > 400 {
						t.Errorf("stderr has a line of %d bytes", len(l))
					}
				}
			})
		}
	}
}
