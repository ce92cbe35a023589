package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVerifyRaces: verify --races reports a data race with both accesses,
// and verifies a race-free program.
func TestVerifyRaces(t *testing.T) {
	dir := t.TempDir()
	racy := "global x: int;\nfn t() {\n    x = 1;\n}\nfn main() {\n    let h = spawn t();\n    let v = x;\n    join(h);\n}\n"
	safe := strings.Replace(racy, "    let h = spawn t();\n    let v = x;\n    join(h);", "    let h = spawn t();\n    join(h);\n    let v = x;", 1)
	for _, c := range []struct {
		name, src string
		code      int
		want      string
	}{
		{"racy.cir", racy, exitViolation, "data race on x between"},
		{"safe.cir", safe, exitVerified, "VERIFIED"},
	} {
		f := filepath.Join(dir, c.name)
		if err := os.WriteFile(f, []byte(c.src), 0o644); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := runCLI(t, "verify", "--races", f)
		if code != c.code || !strings.Contains(strings.ToUpper(stdout), strings.ToUpper(c.want)) {
			t.Errorf("%s: exit %d\nstdout:\n%s\nstderr:\n%s", c.name, code, stdout, stderr)
		}
		if c.code == exitViolation && (!strings.Contains(stdout, ":3:") || !strings.Contains(stdout, ":7:")) {
			t.Errorf("%s: the race should name lines 3 and 7:\n%s", c.name, stdout)
		}
	}
}
