package main

import (
	"fmt"
	"io"
	"regexp"
	"time"
)

// flagRule is one check of a numeric flag's value: the flag is named in
// the message when the check fails.
type flagRule struct {
	name string // the flag, e.g. "--unroll"
	ok   bool   // the value is acceptable
	need string // what the value must be, e.g. "positive"
	got  string // the value given
}

// positive requires v > 0.
func positive(name string, v int) flagRule {
	return flagRule{name, v > 0, "must be positive", fmt.Sprint(v)}
}

// nonNegative requires v >= 0.
func nonNegative(name string, v int) flagRule {
	return flagRule{name, v >= 0, "must not be negative", fmt.Sprint(v)}
}

// nonNegativeDuration requires d >= 0.
func nonNegativeDuration(name string, d time.Duration) flagRule {
	return flagRule{name, d >= 0, "must not be negative", d.String()}
}

// inRange requires lo <= v <= hi.
func inRange(name string, v, lo, hi int) flagRule {
	return flagRule{name, lo <= v && v <= hi, fmt.Sprintf("must be in [%d, %d]", lo, hi), fmt.Sprint(v)}
}

// checkFlags prints one line per failed rule ("ncmc: --unroll must be
// positive (got -1)") and reports whether all passed.
func checkFlags(w io.Writer, rules ...flagRule) bool {
	ok := true
	for _, r := range rules {
		if !r.ok {
			fmt.Fprintf(w, "ncmc: %s %s (got %s)\n", r.name, r.need, r.got)
			ok = false
		}
	}
	return ok
}

// negativeValueRE matches kong's error for a flag given a negative number
// as a separate argument (--unroll -1), which it takes for a short flag.
var negativeValueRE = regexp.MustCompile(`^(--[A-Za-z0-9-]+): expected \S+ value but got "(-[^"]*)" \(short flag\); perhaps try --[A-Za-z0-9-]+="-[^"]*"\?$`)

// joinNegativeValue rewrites args so that "--flag -N" becomes "--flag=-N"
// for the flag and value an error of kong names (see negativeValueRE); ok
// is false if err is not such an error or args do not contain the pair.
// The value is then checked like any other (and rejected with the flag's
// name if out of range), instead of kong's suggestion leading to a second
// error.
func joinNegativeValue(args []string, err error) ([]string, bool) {
	m := negativeValueRE.FindStringSubmatch(err.Error())
	if m == nil {
		return nil, false
	}
	for i := 0; i+1 < len(args); i++ {
		if args[i] == "--" {
			break
		}
		if args[i] == m[1] && args[i+1] == m[2] {
			out := append(append(append([]string(nil), args[:i]...), m[1]+"="+m[2]), args[i+2:]...)
			return out, true
		}
	}
	return nil, false
}
