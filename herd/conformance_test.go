package herd

import (
	"context"
	"encoding/csv"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"ncmc/frontend/litmus"
)

// benchDir finds bench/litmus: $NCMC_LITMUS, or shared/bench/litmus in a
// parent directory of the working directory (the project's layout).
func benchDir(t *testing.T) string {
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
			break
		}
	}
	t.Skip("bench/litmus not found (set NCMC_LITMUS to the directory holding expected.csv); the litmus conformance test did not run")
	return ""
}

// inShortSample reports whether the litmus test file is in the sample that
// the -short runs check: about one test in shortSampleEvery, chosen by a
// hash of its name (the same tests on every run, spread over the corpus).
func inShortSample(file string) bool {
	h := fnv.New32a()
	h.Write([]byte(file))
	return h.Sum32()%shortSampleEvery == 0
}

const shortSampleEvery = 5

type expRow struct {
	file, model, cond, want string
	line                    int
}

func readExpected(t *testing.T, dir string) []expRow {
	f, err := os.Open(filepath.Join(dir, "expected.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []expRow
	for i, r := range recs[1:] {
		out = append(out, expRow{file: r[0], model: r[1], cond: r[2], want: r[3], line: i + 2})
	}
	return out
}

// supported models: pso has no rows (herd has no PSO model)
var conformanceModels = map[string]bool{"sc": true, "tso": true, "ra": true, "rc11": true}

// TestConformance checks every row of bench/litmus/expected.csv for the
// models ncmc supports (sc, tso, ra, rc11) and logs a summary per model.
// Rows for models ncmc does not implement (c11, popl15-*) are counted and
// listed as not applicable.
func TestConformance(t *testing.T) {
	dir := benchDir(t)
	rows := readExpected(t, dir)
	type key struct{ file, model string }
	cache := map[key]*Result{}
	tests := map[string]*litmus.Test{}
	matched, total := map[string]int{}, map[string]int{}
	skipped := map[string]int{}
	var mismatches []string
	for _, r := range rows {
		if !conformanceModels[r.model] {
			skipped[r.model]++
			continue
		}
		if testing.Short() && (strings.HasPrefix(r.file, "x86/litmus-tests-x86/BASIC_3_THREAD") || !inShortSample(r.file)) {
			skipped[r.model+" (-short: BASIC_3_THREAD, or not in the sample)"]++
			continue
		}
		total[r.model]++
		lt := tests[r.file]
		if lt == nil {
			src, err := os.ReadFile(filepath.Join(dir, r.file))
			if err != nil {
				t.Fatal(err)
			}
			lt, err = litmus.Parse(r.file, src)
			if err != nil {
				mismatches = append(mismatches, fmt.Sprintf("line %d: %s: parse error: %v", r.line, r.file, err))
				continue
			}
			tests[r.file] = lt
		}
		res := cache[key{r.file, r.model}]
		if res == nil {
			var err error
			res, err = Run(context.Background(), lt, Options{Model: r.model})
			if err != nil {
				mismatches = append(mismatches, fmt.Sprintf("line %d: %s %s: %v", r.line, r.file, r.model, err))
				continue
			}
			cache[key{r.file, r.model}] = res
		}
		var got string
		switch r.cond {
		case "executions":
			got = strconv.Itoa(res.Executions)
		case "data_race":
			got = map[bool]string{true: "allowed", false: "forbidden"}[res.DataRace]
		default:
			if r.cond != res.Condition {
				mismatches = append(mismatches, fmt.Sprintf("line %d: %s: condition %q, herd prints %q", r.line, r.file, res.Condition, r.cond))
				continue
			}
			got = res.Verdict
		}
		if got != r.want {
			mismatches = append(mismatches, fmt.Sprintf("line %d: %s %s %s: got %s, want %s", r.line, r.file, r.model, r.cond, got, r.want))
			continue
		}
		matched[r.model]++
	}
	var models []string
	for m := range total {
		models = append(models, m)
	}
	sort.Strings(models)
	for _, m := range models {
		t.Logf("model %-5s %3d/%3d rows match herd7", m, matched[m], total[m])
	}
	var other []string
	for m, n := range skipped {
		other = append(other, fmt.Sprintf("%s %d", m, n))
	}
	sort.Strings(other)
	t.Logf("rows not applicable (models ncmc does not implement): %s", strings.Join(other, ", "))
	for _, m := range mismatches {
		t.Error(m)
	}
}
