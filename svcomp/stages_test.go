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

// TestSolveRule: the driver of the stages with stand-in stages: a beside
// stage's answer stops the main line, the main line's answer stops the
// beside stages, answers outside May are ignored, disagreeing answers give
// unknown, and the main line runs its stages in order while they have no
// answer.
func TestSolveRule(t *testing.T) {
	answer := func(name string, a Answer) func(context.Context, *StageRun) *Outcome {
		return func(context.Context, *StageRun) *Outcome {
			return &Outcome{Stage: name, Answer: a, Reason: name + " says " + string(a)}
		}
	}
	// blocks until stopped, then answers nothing
	waits := func(ctx context.Context, r *StageRun) *Outcome { <-ctx.Done(); return nil }
	both := []Answer{True, False}
	tests := []struct {
		name   string
		stages []Stage
		want   Answer
		stage  string
		log    string
	}{
		{"beside stops the main line", []Stage{
			{Name: "hunt", Beside: true, May: []Answer{False}, Run: answer("hunt", False)},
			{Name: "main", May: both, Run: waits},
		}, False, "hunt", "answer from stage hunt: false"},
		{"main line stops beside", []Stage{
			{Name: "slow", Beside: true, May: both, Run: waits},
			{Name: "main", May: both, Run: answer("main", True)},
		}, True, "main", "stage slow stopped: the other stages answered first"},
		{"disagreement", []Stage{
			{Name: "dpor", Beside: true, May: both, Run: answer("dpor", False)},
			{Name: "main", May: both, Run: func(ctx context.Context, r *StageRun) *Outcome {
				<-ctx.Done() // stopped by dpor's answer, but it had found true
				return &Outcome{Stage: "main", Answer: True, Reason: "proved"}
			}},
		}, Unknown, "main", "the explorers disagree: main true (proved), dpor false"},
		{"outside May", []Stage{
			{Name: "km", Beside: true, May: []Answer{True}, Run: answer("km", False)},
			{Name: "main", May: both, Run: answer("main", Unknown)},
		}, Unknown, "main", ""},
		{"main line in order", []Stage{
			{Name: "first", May: both, Run: answer("first", Unknown)},
			{Name: "skipped", May: both, When: func(prev *Outcome) bool { return prev.Stage != "first" }, Run: answer("skipped", False)},
			{Name: "second", May: both, Run: answer("second", True)},
			{Name: "after", May: both, Run: answer("after", False)},
		}, True, "second", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var log strings.Builder
			j := newJob(nil, UnreachCall, Limits{Timeout: 10 * time.Second, Explorer: "reference"}, &log)
			v := j.solve(context.Background(), tc.stages)
			if v.Answer != tc.want || v.Stage != tc.stage || !strings.Contains(log.String()+v.Reason, tc.log) {
				t.Errorf("got %s from %s (%s), log:\n%s\nwant %s from %s, %q", v.Answer, v.Stage, v.Reason, log.String(), tc.want, tc.stage, tc.log)
			}
		})
	}
}
