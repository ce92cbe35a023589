package c

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ncmc/frontend/diag"
)

// TestBadInput feeds the C front end inputs a new user might give it. Each
// must give its kind of answer within a few seconds: a program, a
// positioned diag.ErrorList (bad input: exit 2 in the CLI) or an
// *Unsupported (valid C that cannot be checked: exit 3), never a panic or
// a fatal stack overflow. Messages must name the user's file (not the
// parser library's Go source) and show at most a window of a long line.
func TestBadInput(t *testing.T) {
	deep := func(n int) string {
		return "int main(void) { int x = " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n) + "; return x; }\n"
	}
	flat := "int main(void) { int x = 0;\n" + strings.Repeat("x = x + 1;\n", 10000) + "return x; }\n"
	chain := "int main(void) { int x = " + strings.Repeat("1 + ", 20000) + "1; return x; }\n"
	blocks := "int main(void) { int x = 0; " + strings.Repeat("{", 3000) + "x++;" + strings.Repeat("}", 3000) + " return x; }\n"
	type want int
	const (
		ok want = iota
		bad
		unsupported
	)
	cases := []struct {
		name string
		src  string
		want want
		msg  string // substring of the first message
		at   string // "line:col" of the first error
	}{
		{"empty", "", bad, "no main function", "1:1"},
		{"no-main", "int f(void) { return 1; }\n", bad, "no main function", "1:26"},
		{"only-comment", "/* nothing */\n", bad, "no main function", "1:14"},
		{"deep-parens-100000", deep(100000), bad, "nested more than 1000 deep", "1:1025"},
		{"deep-parens-999", deep(999), ok, "", ""}, // with main's {: 1000 deep,
		{"deep-in-comment", "/* " + strings.Repeat("(", 5000) + " */ int main(void) { return 0; }\n", ok, "", ""},
		{"deep-in-string", "int main(void) { char *s = \"" + strings.Repeat("[", 5000) + "\"; return 0; }\n", ok, "", ""}, // brackets in a string do not nest
		{"flat-10000", flat, ok, "", ""},
		{"chain-20000", chain, ok, "", ""},
		{"blocks-3000", blocks, bad, "nested more than 1000 deep", "1:1028"},
		{"huge-literal", "int main(void) { int x = 999999999999999999999999999; return x; }\n", bad, "integer constant 999999999999999999999999999 is too large", "1:26"},
		{"garbage", "\x00\xff\xfe\x01binary", bad, "", "1:"},
		{"invalid-utf8", "int main(void) { int \xc3\x28 = 1; return 0; }\n", bad, "", "1:"},
		{"syntax", "int main(void) { return 0 }\n", bad, "", "1:"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			_, err := Compile("bad.c", []byte(c.src), Options{})
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("took %s", d)
			}
			var list diag.ErrorList
			var u *Unsupported
			got := ok
			switch {
			case err == nil:
			case errors.As(err, &list):
				got = bad
			case errors.As(err, &u):
				got, list = unsupported, u.Errs
			default:
				t.Fatalf("error of type %T: %v", err, err)
			}
			if got != c.want {
				t.Fatalf("got kind %d, want %d: %v", got, c.want, err)
			}
			if err == nil {
				return
			}
			text := err.Error()
			if strings.Contains(text, ".go:") || strings.Contains(text, "strconv") {
				t.Errorf("message shows the parser's internals: %s", text)
			}
			for _, l := range strings.Split(text, "\n") {
				if len(l) > 2*diag.MaxLineWidth {
					t.Errorf("a rendered line has %d bytes", len(l))
				}
			}
			if !strings.Contains(list[0].Msg, c.msg) {
				t.Errorf("first message %q, want it to contain %q", list[0].Msg, c.msg)
			}
			if !strings.HasPrefix(text, "bad.c:"+c.at) {
				t.Errorf("error %q, want it at bad.c:%s", firstLineOf(text), c.at)
			}
		})
	}
}

func firstLineOf(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// TestBadFiles: a directory or a missing file is an error of the file
// system, not a crash.
func TestBadFiles(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{dir, filepath.Join(dir, "missing.c")} {
		if _, err := CompileFile(p, Options{}); err == nil {
			t.Errorf("%s: no error", p)
		} else if _, isPath := err.(*os.PathError); !isPath {
			t.Errorf("%s: error %T %v, want an *os.PathError", p, err, err)
		}
	}
}
