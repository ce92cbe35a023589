package litmus

import (
	"strings"
	"testing"
	"time"

	"ncmc/frontend/diag"
)

// TestBadInput feeds the litmus front end hostile input: each case must
// give a positioned error (or parse) within a few seconds, never a panic
// or a fatal stack overflow, and show at most a window of a long line.
func TestBadInput(t *testing.T) {
	thread := func(body string) string {
		return "C T\n\n{ [x] = 0; }\n\nP0 (atomic_int* x) {\n" + body + "\n}\n\nexists ([x]=1)\n"
	}
	n := 100000
	cases := []struct {
		name string
		src  string
		want string // substring of the error; "" means it parses
	}{
		{"deep-parens", thread("  int r0 = " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n) + ";"), "e.litmus:6:511: nested more than 500 deep"},
		{"deep-blocks", thread(strings.Repeat("{", n) + strings.Repeat("}", n)), "nested more than 500 deep"},
		{"deep-if", thread("  int r0 = 0;\n" + strings.Repeat("if (r0) ", n) + "r0 = 1;"), "nested more than 500 deep"},
		{"deep-negation", thread("  int r0 = " + strings.Repeat("- ", n) + "1;"), "nested more than 500 deep"},
		{"nested-whiles", thread("  int r0 = 0;\n" + strings.Repeat("while (r0 < 1) ", 40) + "r0 = r0 + 1;"), "more than 100000 instructions"},
		{"deep-condition", "C T\n{}\nP0 (int* x) { }\nexists " + strings.Repeat("(", n) + "x=1" + strings.Repeat(")", n) + "\n", "nested more than 500 deep"},
		{"deep-not", "C T\n{}\nP0 (int* x) { }\nexists (" + strings.Repeat("~", n) + "x=1)\n", "nested more than 500 deep"},
		{"implication-chain", "C T\n{}\nP0 (int* x) { }\nexists (" + strings.Repeat("x=1 => ", n) + "x=1)\n", "nested more than 500 deep"},
		{"flat-conjunction", "C T\n{}\nP0 (int* x) { }\nexists (" + strings.Repeat("x=0 /\\ ", n) + "x=0)\n", ""},
		{"flat-statements", thread(strings.Repeat("  atomic_store_explicit(x, 1, memory_order_relaxed);\n", 10000)), ""},
		{"garbage", "\x00\xff\xfe\x01", "e.litmus:1:2: invalid UTF-8 encoding"},
		{"invalid-utf8-name", "C T\xff\xfe\n\n{ [x] = 0; }\n\nP0 (atomic_int* x) {\n  atomic_store_explicit(x, 1, memory_order_relaxed);\n}\n\nexists ([x]=1)\n", "e.litmus:1:4: invalid UTF-8 encoding"},
		{"invalid-utf8", "C T\n{}\nP0 (int* x) { int \xc3\x28 = 1; }\n", "e.litmus:3:"},
		{"huge-literal", thread("  int r0 = 99999999999999999999999999;"), "e.litmus:6:"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			_, err := Parse("e.litmus", []byte(c.src))
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("took %s", d)
			}
			if c.want == "" {
				if err != nil {
					t.Fatalf("error: %.300s", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error, want %q", c.want)
			}
			text := err.Error()
			if !strings.Contains(text, c.want) || !strings.HasPrefix(text, "e.litmus:") {
				t.Errorf("error %.300q, want %q", text, c.want)
			}
			if strings.Contains(text, "internal error") {
				t.Errorf("internal error: %.300s", text)
			}
			for _, l := range strings.Split(text, "\n") {
				if len(l) > 2*diag.MaxLineWidth {
					t.Errorf("a rendered line has %d bytes", len(l))
				}
			}
		})
	}
}
