package main

import "testing"

// TestMemProfileAsked: allocation sampling stays on only when a heap
// profile is asked for.
func TestMemProfileAsked(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"verify", "p.cir"}, false},
		{[]string{"verify", "p.cir", "--memprofile", "m.prof"}, true},
		{[]string{"verify", "--memprofile=m.prof", "p.cir"}, true},
		{[]string{"verify", "p.c", "--", "--memprofile"}, false},
		{[]string{"verify", "--cpuprofile", "c.prof", "p.cir"}, false},
	} {
		if got := memProfileAsked(c.args); got != c.want {
			t.Errorf("memProfileAsked(%q) = %v, want %v", c.args, got, c.want)
		}
	}
}
