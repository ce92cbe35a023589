package cir

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// TestWriteSeedCorpus regenerates the committed seed corpora under
// testdata/fuzz/ from the example programs and the test tables. It only runs
// when CIR_WRITE_CORPUS=1:
//
//	CIR_WRITE_CORPUS=1 go test ./frontend/cir -run TestWriteSeedCorpus
//
// Files it did not write (crash regressions found by fuzzing) are kept.
func TestWriteSeedCorpus(t *testing.T) {
	if os.Getenv("CIR_WRITE_CORPUS") != "1" {
		t.Skip("set CIR_WRITE_CORPUS=1 to regenerate the seed corpus")
	}
	seeds := map[string]string{}
	examples, _ := filepath.Glob("../../examples/*.cir")
	sort.Strings(examples)
	for _, e := range examples {
		b, err := os.ReadFile(e)
		if err != nil {
			t.Fatal(err)
		}
		seeds["example-"+filepath.Base(e)] = string(b)
	}
	seeds["decls"] = decls + "fn main() { x = x + 1; c.inc(); }\n"
	for i, c := range semanticCases {
		seeds[fmt.Sprintf("valid-%02d", i)] = c.src
	}
	for i := 0; i < 10; i++ {
		g := &progGen{r: rand.New(rand.NewSource(int64(1000 + i)))}
		seeds[fmt.Sprintf("random-%02d", i)] = g.program()
	}
	for i, c := range errorCases {
		if len(c.src) < 400 {
			seeds[fmt.Sprintf("malformed-%03d", i)] = c.src
		}
	}
	for _, target := range []string{"FuzzLexer", "FuzzParser", "FuzzCheck"} {
		dir := filepath.Join("testdata", "fuzz", target)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, src := range seeds {
			data := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", src)
			if err := os.WriteFile(filepath.Join(dir, "seed-"+name), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("wrote %d seeds per target", len(seeds))
}
