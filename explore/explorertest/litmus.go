package explorertest

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"ncmc/explore"
	"ncmc/frontend/litmus"
)

// litmusDir finds shared/bench/litmus ($NCMC_LITMUS or a parent
// directory's shared/bench/litmus), or "".
func litmusDir() string {
	if d := os.Getenv("NCMC_LITMUS"); d != "" {
		return d
	}
	wd, _ := os.Getwd()
	for d := wd; ; d = filepath.Dir(d) {
		c := filepath.Join(d, "shared", "bench", "litmus")
		if _, err := os.Stat(filepath.Join(c, "expected.csv")); err == nil {
			return c
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// outcomeVals reads an outcome's final state ("name=value ...") as the
// values of a litmus test's locations (t.Init for the others).
func outcomeVals(t *litmus.Test, state string) func(litmus.Loc) int64 {
	m := map[string]int64{}
	for _, f := range strings.Fields(state) {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			continue
		}
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			m[k] = n
		}
	}
	return func(l litmus.Loc) int64 {
		if v, ok := m[l.Global()]; ok {
			return v
		}
		return t.Init[l]
	}
}

// LitmusRows runs every row of bench/litmus/expected.csv for model
// (every fourth with -short; not the executions and data_race rows)
// through explorer (with verify: ncmc.Verify) and compares the verdict
// with herd's.
func LitmusRows(t *testing.T, model, explorer string, verify VerifyFunc) {
	dir := litmusDir()
	if dir == "" {
		t.Skip("bench/litmus not found (set NCMC_LITMUS)")
	}
	f, err := os.Open(filepath.Join(dir, "expected.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	rows, matched := 0, 0
	for line := 0; sc.Scan(); line++ {
		fs := strings.Split(sc.Text(), ",")
		if line == 0 || len(fs) < 4 || fs[1] != model || fs[2] == "executions" || fs[2] == "data_race" {
			continue
		}
		rows++
		if testing.Short() && rows%4 != 0 {
			continue
		}
		file, want := fs[0], fs[len(fs)-1]
		src, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		lt, err := litmus.Parse(file, src)
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		res, err := verify(context.Background(), lt.Prog, explore.Options{Explorer: explorer, Model: model, KeepGoing: true})
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		if res.Explorer != explorer {
			t.Errorf("%s: explored by %s (%s)", file, res.Explorer, res.Note)
			continue
		}
		pos, neg := 0, 0
		for _, o := range res.Outcomes {
			if o.Violation != "" {
				continue
			}
			val := outcomeVals(lt, o.State)
			if lt.Filter != nil && !lt.Filter.Eval(val) {
				continue
			}
			if lt.Cond.Prop.Eval(val) {
				pos++
			} else {
				neg++
			}
		}
		got := map[bool]string{true: "allowed", false: "forbidden"}[pos > 0]
		if lt.Cond.Quant == litmus.Forall {
			got = map[bool]string{true: "always", false: "not-always"}[neg == 0]
		}
		if got != want {
			t.Errorf("%s (%s): %s %s, herd %s (outcomes %v)", file, model, explorer, got, want, res.Outcomes)
			continue
		}
		matched++
	}
	if matched == 0 {
		t.Fatal("no rows checked")
	}
	t.Logf("%d of %d %s rows match herd7 with %s", matched, rows, model, explorer)
}
