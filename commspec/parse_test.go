package commspec

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"ncmc/frontend"
	"ncmc/frontend/diag"
)

// setSpec is a valid spec; the error tests below break it in one place.
const setSpec = `object: Set
methods:
  add:      {args: {v: int}, result: {r: bool}}
  contains: {args: {v: int}, result: {r: bool}}
commute:
  add/add: v1 != v2 || (!r1 && !r2)
  add/contains: v1 != v2 || !r1
  contains/contains: true
`

func TestParseValid(t *testing.T) {
	s, err := Parse("set.yaml", []byte(setSpec))
	if err != nil {
		t.Fatal(err)
	}
	if s.Object != "Set" || len(s.Methods) != 2 || len(s.Conds()) != 3 || len(s.AllConds()) != 4 {
		t.Fatalf("unexpected spec: %+v", s)
	}
	d := s.Cond("contains", "add")
	if d == nil || !d.Derived || d.Source() != "v2 != v1 || !r2" {
		t.Fatalf("derived contains/add = %+v", d)
	}
	if c := s.Cond("add", "add"); c.Symmetry != "syntactic" || c.Pos.Line != 6 || c.Pos.Col != 12 {
		t.Errorf("add/add: symmetry %q at %v", c.Symmetry, c.Pos)
	}
}

// TestParseErrors checks the positioned errors of malformed specs: each case
// is a spec text and the expected "line:col: message" of its first error (a
// substring of the message).
func TestParseErrors(t *testing.T) {
	replace := func(old, new string) string {
		if !strings.Contains(setSpec, old) {
			panic("test bug: " + old)
		}
		return strings.Replace(setSpec, old, new, 1)
	}
	withAbs := func(old, new string) string {
		src := strings.Replace(setSpec, "object: Set\n", "object: Set\nabstraction:\n  bits: {result: int}\n", 1)
		if !strings.Contains(src, old) {
			panic("test bug: " + old)
		}
		return strings.Replace(src, old, new, 1)
	}
	tests := []struct {
		name, src, want string
	}{
		{"yaml syntax", "object: Set\nmethods: {add: [\n", "2:1: YAML syntax error"},
		{"empty", "", "1:1: empty spec"},
		{"not a mapping", "- a\n- b\n", "1:1: a spec is a mapping"},
		{"unknown top key", setSpec + "extra: 1\n", "9:1: unknown key extra in the spec"},
		{"missing object", strings.Replace(setSpec, "object: Set\n", "", 1), "1:1: missing object:"},
		{"missing commute", setSpec[:strings.Index(setSpec, "commute:")], "1:1: missing commute:"},
		{"bad object name", replace("object: Set", "object: 9Set"), `1:9: "9Set" is not a valid object type name`},
		{"unknown type", replace("{v: int}, result: {r: bool}}\n  contains", "{v: integer}, result: {r: bool}}\n  contains"), `3:24: unknown type "integer"`},
		{"unknown method key", replace("add:      {args", "add:      {argz"), "3:14: unknown key argz in method add"},
		{"two results", replace("result: {r: bool}}\n  contains", "result: {r: bool, s: int}}\n  contains"), "3:38: the result of add must be one named, typed value"},
		{"duplicate argument", replace("{v: int}, result: {r: bool}}\n  contains", "{v: int, v: bool}, result: {r: bool}}\n  contains"), "3:29: duplicate key v"},
		{"result named like arg", replace("result: {r: bool}}\n  contains", "result: {v: bool}}\n  contains"), "3:39: the result of add is named v like one of its arguments"},
		{"bad pair key", replace("add/add:", "add-add:"), `6:3: a commute key is a pair of methods m1/m2, found "add-add"`},
		{"unknown method in pair", replace("add/contains:", "add/remove:"), "7:7: unknown method remove"},
		{"duplicate pair", replace("contains/contains: true", "add/add: true"), "8:3: duplicate key add/add"},
		{"duplicate pair spelled differently", replace("contains/contains: true", "add / add: true"), "8:3: duplicate condition for add/add"},
		{"syntax error column", replace("v1 != v2 || !r1", "v1 != v2 || (!r1"), "7:33: expected ')', found end of condition"},
		{"single =", replace("v1 != v2 || !r1", "v1 = v2 || !r1"), "7:20: unexpected '=' (use == to compare)"},
		{"trailing token", replace("v1 != v2 || !r1", "v1 != v2 r1"), "7:26: unexpected name r1 after the end"},
		{"undefined name", replace("v1 != v2 || !r1", "v1 != w2 || !r1"), "7:23: undefined: w2 (invocation 2 is a call of contains, which has v, r (result))"},
		{"missing suffix", replace("v1 != v2 || !r1", "v != v2 || !r1"), "7:17: v needs the suffix 1 or 2 of its invocation: v1 of add or v2 of contains"},
		{"type error and", replace("v1 != v2 || !r1", "v1 && r1"), "7:17: operand of && must be bool, found int"},
		{"type error compare", replace("v1 != v2 || !r1", "v1 == r2"), "7:20: mismatched types int and bool in =="},
		{"not bool", replace("v1 != v2 || !r1", "v1 + v2"), "7:17: a condition must be bool, found int"},
		{"unknown function", replace("v1 != v2 || !r1", "hash(v1) != hash(v2)"), "7:17: undefined function hash"},
		{"builtin arity", replace("v1 != v2 || !r1", "min(v1) != v2"), "7:17: wrong number of arguments to min: want 2, got 1"},
		{"asymmetric", replace("add/add: v1 != v2 || (!r1 && !r2)", "add/add: v1 < v2"), "6:12: the condition of add/add must be symmetric"},
		{"mirror disagrees", setSpec + "  contains/add: true\n", "9:17: the conditions of add/contains and contains/add must agree"},
		{"null condition", replace("contains/contains: true", "contains/contains:"), "8:3: the condition of contains/contains is missing"},
		{"int literal overflow", replace("v1 != v2 || !r1", "v1 != 99999999999999999999"), "7:23: bad integer literal"},
		{"state fn without suffix", withAbs("v1 != v2 || !r1", "bits() != 0"), "9:17: bits is an abstraction function: say which state"},
		{"state fn as variable", withAbs("v1 != v2 || !r1", "bits1 != 0"), "9:17: bits1 is an abstraction function: call it, bits1()"},
		{"unknown abstraction suffix", withAbs("v1 != v2 || !r1", "bits3() != 0"), "9:17: undefined function bits3"},
		{"abstraction arity", withAbs("v1 != v2 || !r1", "bits1(v1) != 0"), "9:17: wrong number of arguments to bits1: want 0, got 1"},
		{"abstraction in function", withAbs("object: Set\n", "object: Set\nfunctions:\n  f: {result: int, def: \"bits1()\"}\n"), "3:26: abstraction function bits cannot be called in a helper function"},
		{"result of void method", strings.Replace(replace("add:      {args: {v: int}, result: {r: bool}}", "add:      {args: {v: int}}"), "v1 != v2 || (!r1 && !r2)", "v1 != v2 || r1", 1), "6:24: undefined: r1 (invocation 1 is a call of add, which has v)"},
		{"function body undefined", replace("object: Set\n", "object: Set\nfunctions:\n  f: {args: {x: int}, result: int, def: \"x + y\"}\n"), "3:46: undefined: y (a function body sees its parameters and the constants only)"},
		{"function result type", replace("object: Set\n", "object: Set\nfunctions:\n  f: {args: {x: int}, result: bool, def: \"x + 1\"}\n"), "3:43: function f is declared to return bool, but its definition is int"},
		{"function forward call", replace("object: Set\n", "object: Set\nfunctions:\n  f: {args: {x: int}, result: int, def: \"g(x)\"}\n  g: {args: {x: int}, result: int, def: \"x\"}\n"), "3:42: g is defined below this function"},
		{"constant hides variable", replace("object: Set\n", "object: Set\nconstants:\n  v1: 3\n") + "", "3:3: constant v1 would hide v1 of add"},
		{"constant not literal", replace("object: Set\n", "object: Set\nconstants:\n  nil: [1]\n"), "3:8: the value of constant nil must be an int or bool literal"},
		{"reserved name", replace("add:      {args: {v: int}", "add:      {args: {not: int}"), "3:21: not is a reserved word"},
		{"check depth", setSpec + "check:\n  depth: -1\n", "10:10: depth must be an integer in [0, 8]"},
		{"check args unknown", setSpec + "check:\n  args:\n    add.w: [1]\n", "11:5: add has no argument w"},
		{"check init not a call", setSpec + "check:\n  init: [\"x + 1\"]\n", "10:13: an init call must be a call"},
		{"leading !", replace("v1 != v2 || !r1", "!r1 || v1 != v2"), "7:1: YAML syntax error: did not find expected comment or line break (a value that starts with one of ! & * | > % @ ` { [ means something else in YAML: quote the condition, or write not instead of !)"},
		{"leading ! alone", replace("v1 != v2 || !r1", "!r1"), "7:17: YAML reads a plain value that starts with ! as a tag (!r1)"},
		{"unquoted init call", setSpec + "check:\n  init: [put(1, 2)]\n", "10:15: expected ',' or ')' in the arguments of put, found end of condition (YAML splits a [...] list at commas"},
		{"deep nesting", replace("v1 != v2 || !r1", strings.Repeat("(", 300)+"v1 != v2"+strings.Repeat(")", 300)), "condition nested too deeply"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("s.yaml", []byte(tc.src))
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			var el diag.ErrorList
			if !errors.As(err, &el) {
				t.Fatalf("error is %T, not a diag.ErrorList: %v", err, err)
			}
			got := el[0].Error()
			if !strings.HasPrefix(got, "s.yaml:") || !strings.Contains(got, tc.want) {
				t.Errorf("first error:\n%s\nwant it to contain %q", got, tc.want)
			}
		})
	}
}

func TestParseReportsAllErrors(t *testing.T) {
	src := strings.NewReplacer(
		"add/add: v1 != v2 || (!r1 && !r2)", "add/add: v1 != x2",
		"add/contains: v1 != v2 || !r1", "add/contains: r1 + 1",
		"contains/contains: true", "contains/remove: true",
	).Replace(setSpec)
	_, err := Parse("s.yaml", []byte(src))
	var el diag.ErrorList
	if !errors.As(err, &el) || len(el) != 3 {
		t.Fatalf("want 3 errors, got %v", err)
	}
	for i, want := range []string{"s.yaml:6:18: undefined: x2", "s.yaml:7:17: operand of + must be int, found bool", "s.yaml:8:12: unknown method remove"} {
		if !strings.HasPrefix(el[i].Error(), want) {
			t.Errorf("error %d = %q, want prefix %q", i, el[i].Error(), want)
		}
	}
}

// TestConditionPositions checks the column mapping inside quoted and block
// scalars.
func TestConditionPositions(t *testing.T) {
	tests := []struct{ cond, want string }{
		{`"v1 != v2 || !q1"`, "6:26:"},
		{`'v1 != v2 || !q1'`, "6:26:"},
		{">-\n    v1 != v2 ||\n    !q1", "8:6:"},
		{"|\n    v1 != v2\n      || !q1", "8:11:"},
		{"v1 != v2\n    || !q1", "7:9:"},
	}
	for _, tc := range tests {
		src := strings.Replace(setSpec, "v1 != v2 || (!r1 && !r2)", tc.cond, 1)
		_, err := Parse("s.yaml", []byte(src))
		if err == nil || !strings.HasPrefix(err.Error(), "s.yaml:"+tc.want+" undefined: q1") {
			t.Errorf("condition %q: got %v, want an error at %s", tc.cond, err, tc.want)
		}
	}
}

func TestCheckProgram(t *testing.T) {
	prog, err := frontend.LoadFile("../examples/set-2add-cont.cir")
	if err != nil {
		t.Fatal(err)
	}
	good, err := Parse("s.yaml", []byte(setSpec))
	if err != nil {
		t.Fatal(err)
	}
	if err := good.CheckProgram(prog); err != nil {
		t.Fatalf("valid spec rejected: %v", err)
	}
	tests := []struct{ name, old, new, want string }{
		{"no such object", "object: Set", "object: Sett", "1:9: ../examples/set-2add-cont.cir has no object type Sett (its objects: Set)"},
		{"a record", "object: Set", "object: Node", "1:9: Node is a record"},
		{"no such method", "contains: {args", "remove: {args", "4:3: Set has no method remove"},
		{"arity", "contains: {args: {v: int}", "contains: {args: {v: int, w: int}", "4:3: method contains: Set.contains has 1 parameters"},
		{"argument type", "contains: {args: {v: int}", "contains: {args: {v: bool}", "4:21: argument v of contains is bool in the spec but parameter v of Set.contains is int"},
		{"result type", "contains: {args: {v: int}, result: {r: bool}}", "contains: {args: {v: int}, result: {r: int}}", "4:39: result r of contains is int in the spec"},
		{"missing result", "contains: {args: {v: int}, result: {r: bool}}", "contains: {args: {v: int}}", "4:3: Set.contains returns bool"},
		{"abstraction", "object: Set\n", "object: Set\nabstraction:\n  size: {result: int}\n", "3:3: Set has no abstraction fn size"},
		{"abstraction type", "object: Set\n", "object: Set\nabstraction:\n  bits: {result: bool}\n", "3:3: abstraction function bits returns bool in the spec but int"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(setSpec, tc.old, tc.new, 1)
			switch tc.name {
			case "no such method":
				src = strings.ReplaceAll(src, "contains", "remove")
			case "argument type":
				src = strings.Replace(src, "v1 != v2 || !r1", "not r1", 1)
			}
			s, err := Parse("s.yaml", []byte(src))
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			err = s.CheckProgram(prog)
			if err == nil || !strings.Contains(err.Error(), "s.yaml:"+tc.want) {
				t.Errorf("got %v\nwant %q", err, tc.want)
			}
		})
	}
	// Non-linearizable methods and init calls (union-find).
	uf, err := frontend.LoadFile("../examples/union-find.cir")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse("u.yaml", []byte("object: UnionFind\nmethods:\n  root: {args: {x: int}, result: {r: int}}\ncommute:\n  root/root: true\ncheck:\n  init: [init(1)]\n"))
	if err != nil {
		t.Fatal(err)
	}
	err = s.CheckProgram(uf)
	for _, want := range []string{"u.yaml:3:3: UnionFind.root is not linearizable", "u.yaml:7:10: init: wrong number of arguments to init: want 0, got 1"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v, want %q", err, want)
		}
	}
}

func TestCostLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString("object: O\nfunctions:\n  f0: {args: {x: int}, result: int, def: \"x + 1\"}\n")
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&b, "  f%d: {args: {x: int}, result: int, def: \"f%d(x) + f%d(x)\"}\n", i, i-1, i-1)
	}
	b.WriteString("methods:\n  m: {args: {v: int}}\ncommute:\n  m/m: v1 != v2\n")
	_, err := Parse("c.yaml", []byte(b.String()))
	if err == nil || !strings.HasPrefix(err.Error(), "c.yaml:17:44: function f14 is too expensive") || strings.Count(err.Error(), "too expensive") != 1 {
		t.Errorf("err = %v", err)
	}
}
