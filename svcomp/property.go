package svcomp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	cfront "ncmc/frontend/c"
	"ncmc/interp"
	"ncmc/ncmc"
)

// Property is an SV-COMP property, named as its property file is
// (unreach-call, no-data-race, ...). UnreachCall, NoDataRace,
// ValidMemSafety and ValidMemCleanup are checked; any other is answered
// Unknown.
type Property string

// The properties ncmc checks.
const (
	// UnreachCall: no execution calls reach_error (or __VERIFIER_error).
	UnreachCall Property = "unreach-call"
	// NoDataRace: no execution has a data race.
	NoDataRace Property = "no-data-race"
	// ValidMemSafety: every free is valid (ValidFree), every dereference
	// is (ValidDeref), and no allocated memory becomes unreachable without
	// being freed (ValidMemTrack). A false answer names the one of the
	// three that is violated.
	ValidMemSafety Property = "valid-memsafety"
	// ValidMemCleanup: all allocated memory is freed before the program
	// ends.
	ValidMemCleanup Property = "valid-memcleanup"
)

// The subproperties of ValidMemSafety, as a false answer names them.
const (
	ValidFree     Property = "valid-free"     // a double free or a free of memory not from malloc
	ValidDeref    Property = "valid-deref"    // a null, out-of-bounds or freed pointer dereferenced
	ValidMemTrack Property = "valid-memtrack" // an unfreed block no longer reachable
)

// UnreachCallSpec is the text of unreach-call.prp, the specification of
// a witness when no property file is given.
const UnreachCallSpec = "CHECK( init(main()), LTL(G ! call(reach_error())) )"

// Supported reports whether ncmc checks p.
func (p Property) Supported() bool {
	return p == UnreachCall || p == NoDataRace || p == ValidMemSafety || p == ValidMemCleanup
}

// Leaks is the memory-leak checking p needs (ncmc.Options.Leaks).
func (p Property) Leaks() interp.LeakMode {
	switch p {
	case ValidMemSafety:
		return interp.LeaksUnreachable
	case ValidMemCleanup:
		return interp.LeaksUnfreed
	}
	return interp.LeaksIgnored
}

// memory reports whether p is a memory-safety property.
func (p Property) memory() bool { return p == ValidMemSafety || p == ValidMemCleanup }

// ReadPropertyFile reads an SV-COMP property file (.prp) and names the
// property it states: UnreachCall, NoDataRace, or an error for a property
// ncmc does not check (its name, the file's base name, is still returned).
// text is the file's content without surrounding white space.
func ReadPropertyFile(path string) (p Property, text string, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", "", err
	}
	text = strings.TrimSpace(string(b))
	norm := strings.Join(strings.Fields(text), "")
	switch {
	case text == "" || !strings.HasPrefix(norm, "CHECK("):
		return "", text, fmt.Errorf("%s: not an SV-COMP property file (no CHECK( ... ) line)", path)
	case strings.Contains(norm, "G!call(reach_error())") || strings.Contains(norm, "G!call(__VERIFIER_error())"):
		return UnreachCall, text, nil
	case strings.Contains(norm, "G!data-race"):
		return NoDataRace, text, nil
	case strings.Contains(norm, "Gvalid-free") && strings.Contains(norm, "Gvalid-deref") && strings.Contains(norm, "Gvalid-memtrack"):
		return ValidMemSafety, text, nil
	case strings.Contains(norm, "Gvalid-memcleanup"):
		return ValidMemCleanup, text, nil
	}
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	return Property(base), text, fmt.Errorf("%s: property %s is not supported (ncmc checks unreach-call, no-data-race, valid-memsafety and valid-memcleanup)", path, base)
}

// Answer is an SV-COMP answer for a (program, property) pair.
type Answer string

// The answers. The expected verdict of a task is True, False or "" (not
// known).
const (
	True    Answer = "true"    // the property holds in every execution
	False   Answer = "false"   // some execution violates it
	Unknown Answer = "unknown" // no answer (a bound, the time limit, an unsupported construct)
)

// Definite reports whether a is True or False.
func (a Answer) Definite() bool { return a == True || a == False }

// Verdict is the SV-COMP answer line's verdict for a and property p:
// "TRUE", "FALSE(<property>)" or "UNKNOWN".
func (a Answer) Verdict(p Property) string {
	switch a {
	case True:
		return "TRUE"
	case False:
		return "FALSE(" + string(p) + ")"
	}
	return "UNKNOWN"
}

// The violation kinds of ncmc.Result.Kind that the properties look at.
const (
	kindDataRace     = "data-race"
	kindRuntimeError = "runtime-error"
)

// VerdictFor is Verdict for an answer whose reason is why: a false answer
// for ValidMemSafety names the subproperty the violation why violates
// (FALSE(valid-deref), ...).
func (a Answer) VerdictFor(p Property, why string) string {
	if a == False && p == ValidMemSafety {
		if sp := Subproperty(p, "", why); sp != "" {
			return a.Verdict(sp)
		}
	}
	return a.Verdict(p)
}

// Subproperty is the subproperty of p that a violation of kind kind ("" if
// not known) with message msg violates: for ValidMemSafety ValidFree,
// ValidDeref or ValidMemTrack, for ValidMemCleanup itself, and "" when it
// violates none.
func Subproperty(p Property, kind, msg string) Property {
	has := func(k, prefix string) bool { return kind == k || kind == "" && strings.HasPrefix(msg, prefix) }
	switch p {
	case ValidMemSafety:
		switch {
		case has(interp.KindDoubleFree, "double free"), has(interp.KindInvalidFree, "invalid free"):
			return ValidFree
		case has(interp.KindUseAfterFree, "use after free"), has(interp.KindUseAfterReturn, "use after return"), (kind == "" || kind == kindRuntimeError) && invalidDeref(msg):
			return ValidDeref
		case has(interp.KindMemoryLeak, "memory leak"):
			return ValidMemTrack
		}
	case ValidMemCleanup:
		if has(interp.KindMemoryLeak, "memory leak") || has(interp.KindNotFreed, "memory not freed") {
			return ValidMemCleanup
		}
	}
	return ""
}

// invalidDeref reports whether a runtime error's message is an invalid
// dereference (the interpreter's messages for a null pointer, an index out
// of bounds or an address outside every object).
func invalidDeref(msg string) bool {
	msg = strings.TrimPrefix(msg, "runtime error: ")
	return strings.HasPrefix(msg, "null pointer dereference") || strings.HasPrefix(msg, "invalid memory address") ||
		strings.HasPrefix(msg, "array index ") && strings.Contains(msg, "out of bounds")
}

// Violates reports whether a violation of ncmc's kind kind (Result.Kind;
// "" when not known, as for an Outcome, which carries only its message)
// with message msg violates p: for UnreachCall a call of an error function
// (its messages are the C front end's constants), for NoDataRace a data
// race.
func (p Property) Violates(kind, msg string) bool {
	switch p {
	case UnreachCall:
		return cfront.IsErrorCall(msg)
	case NoDataRace:
		if kind != "" {
			return kind == kindDataRace
		}
		return strings.HasPrefix(msg, "data race") // the message of every race detector
	case ValidMemSafety, ValidMemCleanup:
		return Subproperty(p, kind, msg) != ""
	}
	return false
}

// isRuntimeError reports whether an outcome's violation message is a
// runtime error (undefined behaviour; Outcome has no kind field).
func isRuntimeError(msg string) bool { return strings.HasPrefix(msg, "runtime error") }

// AnswerFor maps a result of ncmc.Verify to the answer for p, and why:
// False if some execution violates p; True if the search ran to its end
// without any violation and without hitting a bound; for NoDataRace also
// True when the only violations are those that merely end an execution of
// the C program (a failed assert() aborts it, a deadlock hangs it), but
// not a runtime error (undefined behaviour); else Unknown.
func AnswerFor(res *ncmc.Result, p Property) (Answer, string) {
	if !p.Supported() {
		return Unknown, fmt.Sprintf("property %s is not supported (only unreach-call, no-data-race, valid-memsafety and valid-memcleanup)", p)
	}
	for _, o := range res.Outcomes {
		if p.Violates("", o.Violation) {
			return False, o.Violation
		}
	}
	if res.Verdict == ncmc.Violation && p.Violates(res.Kind, res.Reason) {
		return False, res.Reason
	}
	if res.Verdict == ncmc.Verified {
		return True, res.Reason
	}
	if p.memory() && res.Verdict == ncmc.Violation {
		// another violation (a failed assert, a deadlock, an exit through
		// an error) ends some execution before its memory is checked
		return Unknown, "another kind of violation ends some execution: " + res.Reason
	}
	if p == NoDataRace && res.Verdict == ncmc.Violation && res.Stopped == "" && res.Stats.BoundHits == 0 {
		for _, o := range res.Outcomes {
			if isRuntimeError(o.Violation) {
				return Unknown, "a runtime error (undefined behaviour) ends some execution: " + o.Violation
			}
		}
		return True, "all executions explored: no data race (some end in " + res.Reason + ")"
	}
	if res.Verdict == ncmc.Violation && res.Stopped != "" {
		return Unknown, res.Stopped
	}
	return Unknown, res.Reason
}
