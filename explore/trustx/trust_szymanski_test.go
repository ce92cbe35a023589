package trustx_test

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	cfront "ncmc/frontend/c"
	"ncmc/ncmc"
)

// TestTrustSzymanski: GenMC's szymanski (which blocks in __VERIFIER_assume)
// under rc11 gives GenMC's 6 complete executions with the default
// explorer, as the graph explorer does. The trust explorer found only 3
// before assumes were excluded from it.
func TestTrustSzymanski(t *testing.T) {
	tarball := filepath.Join("..", "..", "..", "shared", "anchors", "genmc-0.10.3.tar.gz")
	f, err := os.Open(tarball)
	if err != nil {
		t.Skipf("GenMC tarball not found: %v", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	dir := t.TempDir()
	const prefix = "synthetic/szymanski/"
	found := false
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		i := strings.Index(h.Name, prefix)
		if i < 0 || h.Typeflag != tar.TypeReg {
			continue
		}
		src, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, filepath.FromSlash(h.Name[i+len(prefix):]))
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(out, src, 0o644); err != nil {
			t.Fatal(err)
		}
		found = true
	}
	if !found {
		t.Fatal("szymanski not in the tarball")
	}
	file := filepath.Join(dir, "variants", "szymanski0.c")
	prog, err := cfront.CompileFile(file, cfront.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, explorer := range []string{"auto", "graph"} {
		res, err := ncmc.Verify(context.Background(), prog, ncmc.Options{Model: "rc11", Explorer: explorer, KeepGoing: true})
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != ncmc.Verified || res.Stats.Complete != 6 {
			t.Errorf("%s: %s with %d complete executions (%s), want verified with GenMC's 6", explorer, res.Verdict, res.Stats.Complete, res.Explorer)
		}
	}
}
