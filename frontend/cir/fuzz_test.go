package cir

import (
	"bytes"
	"strings"
	"testing"

	"ncmc/frontend/diag"
	"ncmc/ir"
)

// The seed corpora live in testdata/fuzz/<FuzzName>/: the example programs,
// valid snippets and malformed programs. Inputs that once crashed a target
// are kept there as regression entries.

func addSeeds(f *testing.F) {
	f.Add([]byte(decls + "fn main() { x = x + 1; c.inc(); }"))
	f.Add([]byte(m("let v = (1 + 2) * 3; assert(v == 9, \"nine\");")))
	f.Add([]byte("fn main() { while (true) @unroll(2) { break; } }"))
}

// lineCol computes the 1-based line and byte column of offset off in src.
func lineCol(src []byte, off int) (int, int) {
	line := 1 + bytes.Count(src[:off], []byte("\n"))
	col := off + 1
	if i := bytes.LastIndexByte(src[:off], '\n'); i >= 0 {
		col = off - i
	}
	return line, col
}

func checkErrors(t *testing.T, src []byte, l diag.ErrorList) {
	t.Helper()
	if len(l) > diag.MaxErrors+1 {
		t.Fatalf("%d errors, more than the cap", len(l))
	}
	lines := 1 + bytes.Count(src, []byte("\n"))
	for _, e := range l {
		if e.Msg == "" || !e.Pos.IsValid() || e.Pos.Line > lines || e.Pos.Col < 1 {
			t.Fatalf("bad error %q at %v (file has %d lines)", e.Msg, e.Pos, lines)
		}
	}
	s := l.Error()
	if !strings.HasPrefix(s, l[0].Pos.String()+": ") {
		t.Fatalf("rendering does not start with the position: %q", s)
	}
}

func FuzzLexer(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		errs := diag.NewCollector("f.cir", src)
		toks := tokenize("f.cir", src, errs)
		if len(toks) == 0 || toks[len(toks)-1].kind != tEOF {
			t.Fatalf("token stream does not end with EOF")
		}
		prevEnd := 0
		for i, tk := range toks {
			if tk.off < prevEnd || tk.end < tk.off || tk.end > len(src) {
				t.Fatalf("token %d (%s) spans [%d, %d) after %d in %d bytes", i, tokenString(tk), tk.off, tk.end, prevEnd, len(src))
			}
			if line, col := lineCol(src, tk.off); int(tk.pos.line) != line || int(tk.pos.col) != col {
				t.Fatalf("token %d (%s) at %d:%d, offset says %d:%d", i, tokenString(tk), int(tk.pos.line), int(tk.pos.col), line, col)
			}
			prevEnd = tk.end
			if tk.kind == tEOF {
				continue
			}
			// A token re-lexed on its own is the same token (unless its text was malformed).
			text := src[tk.off:tk.end]
			e2 := diag.NewCollector("g.cir", text)
			again := tokenize("g.cir", text, e2)
			if e2.Len() == 0 && (len(again) != 2 || again[0].kind != tk.kind || again[0].lit != tk.lit || again[0].val != tk.val) {
				t.Fatalf("token %s re-lexes as %v", tokenString(tk), again)
			}
		}
		if l := errs.Errors(); len(l) > 0 {
			checkErrors(t, src, l)
		}
	})
}

func FuzzParser(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		errs := diag.NewCollector("f.cir", src)
		file := parse("f.cir", src, errs)
		if file == nil {
			t.Fatal("nil file")
		}
		if l := errs.Errors(); len(l) > 0 {
			checkErrors(t, src, l)
			return
		}
		for _, d := range file.Decls {
			if d.declPos().line <= 0 {
				t.Fatalf("declaration without position")
			}
		}
	})
}

func FuzzCheck(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		p, l := compile("f.cir", src)
		if len(l) > 0 {
			if p != nil {
				t.Fatal("program returned together with errors")
			}
			checkErrors(t, src, l)
			return
		}
		if err := ir.Validate(p); err != nil {
			t.Fatalf("invalid IR: %v\n%s", err, p)
		}
		_ = p.String()
		checkPositions(t, p)
		x := newSeqExec(p, 2)
		x.maxSteps = 20000
		x.run()
	})
}

func checkPositions(t *testing.T, p *ir.Program) {
	t.Helper()
	for _, fn := range p.Funcs {
		for i := range fn.Body {
			if pos := fn.Body[i].Pos; pos.File != "f.cir" || !pos.IsValid() {
				t.Fatalf("%s: instruction %d at %v", fn.FullName(), i, pos)
			}
		}
	}
}
