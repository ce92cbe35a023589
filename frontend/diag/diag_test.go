package diag

import (
	"strings"
	"testing"
	"unicode/utf8"

	"ncmc/ir"
)

func TestRendering(t *testing.T) {
	src := []byte("line one\n\tx = y;  \r\nlast")
	c := NewCollector("f.cir", src)
	c.Errorf(ir.Pos{Line: 2, Col: 6}, "undefined: %s", "y")
	c.Errorf(ir.Pos{Line: 1, Col: 1}, "first")
	c.Errorf(ir.Pos{Line: 3, Col: 5}, "at end of file")
	l := c.Errors()
	want := "f.cir:1:1: first\nline one\n^\n" +
		"f.cir:2:6: undefined: y\n\tx = y;  \n\t    ^\n" +
		"f.cir:3:5: at end of file\nlast\n    ^"
	if l.Error() != want {
		t.Errorf("got\n%s\nwant\n%s", l.Error(), want)
	}
	if l.Err() == nil || ErrorList(nil).Err() != nil {
		t.Errorf("Err() wrong")
	}
}

func TestCaretCountsCharacters(t *testing.T) {
	e := &Error{Pos: ir.Pos{File: "f", Line: 1, Col: 6}, Msg: "m", Line: "é = ü"}
	// é and ü are 2 bytes each: byte column 6 is the 'ü', the 5th character.
	if got := strings.Split(e.Error(), "\n")[2]; got != "    ^" {
		t.Errorf("caret line %q", got)
	}
}

func TestSortDedupCap(t *testing.T) {
	c := NewCollector("f", nil)
	for i := 0; i < 3*MaxErrors; i++ {
		c.Errorf(ir.Pos{Line: 3*MaxErrors - i, Col: 1}, "e")
		c.Errorf(ir.Pos{Line: 3*MaxErrors - i, Col: 1}, "e") // duplicate
	}
	l := c.Errors()
	if len(l) != MaxErrors+1 || l[MaxErrors].Msg != "too many errors" {
		t.Fatalf("got %d errors, last %v", len(l), l[len(l)-1])
	}
	for i := 0; i < MaxErrors; i++ {
		if l[i].Pos.Line != i+1 {
			t.Errorf("error %d at line %d", i, l[i].Pos.Line)
		}
	}
	if NewCollector("f", nil).Errors() != nil {
		t.Errorf("no errors should give a nil list")
	}
}

// TestLongLineWindow checks that an error on a very long source line shows
// only a window of it around the column, with the caret still under it.
func TestLongLineWindow(t *testing.T) {
	long := strings.Repeat("(", 200000) + "x" + strings.Repeat(")", 200000)
	cases := []struct {
		name string
		line string
		col  int
		want string // the character under the caret
	}{
		{"middle", long, 200001, "x"},
		{"start", "y" + long, 1, "y"},
		{"end", long + "z", len(long) + 1, "z"},
		{"utf8", strings.Repeat("é", 1000) + "q" + strings.Repeat("ü", 1000), 2001, "q"},
		{"short", "a = b;", 5, "b"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := &Error{Pos: ir.Pos{File: "f", Line: 1, Col: c.col}, Msg: "m", Line: c.line}
			parts := strings.Split(e.Error(), "\n")
			if len(parts) != 3 {
				t.Fatalf("%d lines", len(parts))
			}
			shown, car := parts[1], parts[2]
			if len(shown) > MaxLineWidth+2*len("...")+4 {
				t.Fatalf("shown line has %d bytes", len(shown))
			}
			// The caret counts characters: find the character at its index.
			idx := strings.IndexByte(car, '^')
			r := []rune(shown)
			if idx >= len(r) || string(r[idx]) != c.want {
				t.Fatalf("caret at %d under %q, want %q (line %q)", idx, string(r[min(idx, len(r)-1)]), c.want, shown)
			}
		})
	}
}

// TestLongMessage: a message quoting a long piece of the input (a litmus
// header of random bytes quoted whole made a 500-byte line) is cut to
// MaxMsgWidth bytes at a character boundary; short ones are shown whole.
func TestLongMessage(t *testing.T) {
	cases := []struct {
		name, msg string
		cut       bool
	}{
		{"short", "unexpected )", false},
		{"exact", strings.Repeat("a", MaxMsgWidth), false},
		{"long", "unsupported litmus architecture " + strings.Repeat("x", 100000), true},
		{"utf8", strings.Repeat("é", MaxMsgWidth), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := &Error{Pos: ir.Pos{File: "f", Line: 1, Col: 1}, Msg: c.msg}
			got := strings.TrimPrefix(e.Error(), "f:1:1: ")
			if !c.cut {
				if got != c.msg {
					t.Errorf("message changed: %q", got)
				}
				return
			}
			if len(got) > MaxMsgWidth+len("...") || !strings.HasSuffix(got, "...") || !utf8.ValidString(got) {
				t.Errorf("message of %d bytes shown as %d bytes %.40q...", len(c.msg), len(got), got)
			}
			if !strings.HasPrefix(c.msg, strings.TrimSuffix(got, "...")) {
				t.Errorf("shown message is not a prefix of the message")
			}
		})
	}
}
