package feasibility

import "testing"

func TestVerdictString(t *testing.T) {
	for _, c := range []struct {
		v    Verdict
		want string
	}{{Unknown, "unknown"}, {Sat, "sat"}, {Unsat, "unsat"}, {Verdict(7), "unknown"}} {
		if got := c.v.String(); got != c.want {
			t.Errorf("Verdict(%d).String() = %q, want %q", c.v, got, c.want)
		}
	}
}
