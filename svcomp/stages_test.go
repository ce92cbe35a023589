package svcomp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// racy: the two increments of x race, and reach_error is called when
// one is lost.
const racy = `#include <pthread.h>
void reach_error(void) {}
int x;
void *f(void *a) { x++; return 0; }
int main(void) {
	pthread_t t;
	pthread_create(&t, 0, f, 0);
	x++;
	pthread_join(t, 0);
	if (x != 2) reach_error();
	return 0;
}
`

// The dpor stage (the ncmc explorer without specs) answers true only when
// it explored everything with no bound hit, answers false on a call of the
// error function (also after another violation came first), and stops at
// its first bound hit without an answer.
func TestDPORStage(t *testing.T) {
	spin := `#include <pthread.h>
void reach_error(void) {}
int flag, spins;
void *f(void *a) { flag = 1; return 0; }
int main(void) {
	pthread_t t;
	pthread_create(&t, 0, f, 0);
	while (!flag) { spins = spins + 1; }
	pthread_join(t, 0);
	return 0;
}
`
	assertFirst := `#include <pthread.h>
#include <assert.h>
void reach_error(void) {}
int x;
void *f(void *a) { x = 1; return 0; }
int main(void) {
	pthread_t t;
	pthread_create(&t, 0, f, 0);
	int r = x;
	pthread_join(t, 0);
	assert(r == 1);
	if (r == 1) reach_error();
	return 0;
}
`
	safe := strings.Replace(racy, "x++;\n\tpthread_join(t, 0);", "pthread_join(t, 0);\n\tx++;", 1)
	tests := []struct {
		name, src string
		want      string // "" (no answer), "true" or "false"
		log       string
	}{
		{"safe", safe, "true", "verdict verified"},
		{"racy", racy, "false", "reach_error() called"},
		{"assert-first", assertFirst, "false", "exploring on"},
		{"spin", spin, "", "a bound was hit"},
	}
	dir := t.TempDir()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(dir, tc.name+".c")
			if err := os.WriteFile(file, []byte(tc.src), 0o644); err != nil {
				t.Fatal(err)
			}
			lim := Limits{Timeout: 20 * time.Second, Unroll: 8, MaxSteps: 100000, Explorer: "auto"}
			prog, err := Load(file, "ILP32", UnreachCall)
			if err != nil {
				t.Fatal(err)
			}
			var log strings.Builder
			j := newJob(prog, UnreachCall, lim, &log)
			r := &StageRun{job: j, End: time.Now().Add(lim.Timeout), Log: &log}
			res := r.dpor(context.Background())
			got := ""
			if res != nil {
				a, _ := AnswerFor(res, UnreachCall)
				got = string(a)
			}
			if got != tc.want || !strings.Contains(log.String(), tc.log) {
				t.Errorf("answer %q, want %q; log (want %q):\n%s", got, tc.want, tc.log, log.String())
			}
		})
	}
}
