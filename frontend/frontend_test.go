package frontend

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadFileExamples(t *testing.T) {
	files, err := filepath.Glob("../examples/*.cir")
	if err != nil || len(files) == 0 {
		t.Skip("no examples")
	}
	for _, f := range files {
		p, err := LoadFile(f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if p.Main == nil || p.File != f || len(p.Source) == 0 {
			t.Errorf("%s: program without main, file or source", f)
		}
	}
}

func TestLoadFileErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.cir")
	if err := os.WriteFile(bad, []byte("fn main() {\n  x = 1;\n  y = 2;\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadFile(bad)
	var l ErrorList
	if !errors.As(err, &l) || len(l) != 2 {
		t.Fatalf("got %v, want an ErrorList of 2", err)
	}
	if !strings.HasPrefix(err.Error(), bad+":2:3: undefined: x\n  x = 1;\n  ^\n"+bad+":3:3: undefined: y") {
		t.Errorf("rendered as\n%s", err)
	}
	for _, name := range []string{"t.litmus", "t.h", "t.txt", "noext"} {
		_, err := LoadFile(filepath.Join(dir, name))
		if err == nil || !strings.Contains(err.Error(), "ncmc reads .cir, .c and .i files") {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := LoadFile(filepath.Join(dir, "missing.cir")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func TestParseCIR(t *testing.T) {
	p, err := ParseCIR("mem.cir", []byte("global x: int;\nfn main() { x = x + 1; }\n"))
	if err != nil {
		t.Fatal(err)
	}
	if p.File != "mem.cir" || p.Main.Body[0].Pos.File != "mem.cir" {
		t.Errorf("positions not in mem.cir: %v", p.Main.Body[0].Pos)
	}
	if _, err := ParseCIR("mem.cir", []byte("fn main() { ")); err == nil {
		t.Errorf("no error for a truncated file")
	}
}
