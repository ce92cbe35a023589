package commspec

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"ncmc/frontend/diag"
	"ncmc/ir"
)

// ParseFile reads and parses the spec at path (see Parse).
func ParseFile(path string) (*Spec, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, src)
}

// Parse parses and checks a YAML commutativity specification. filename is
// used in positions. Malformed specs yield a diag.ErrorList with every error
// found, each as "file:line:col: message" with the source line and a caret.
// Parse checks the spec on its own; CheckProgram checks it against the CIR
// program that implements the object.
func Parse(filename string, src []byte) (*Spec, error) {
	l := &loader{
		s:    &Spec{File: filename, methodIdx: map[string]int{}, src: src, Check: CheckConfig{Depth: -1}},
		sm:   newSrcMap(filename, src),
		errs: diag.NewCollector(filename, src),
	}
	l.load()
	if err := l.errs.Errors().Err(); err != nil {
		return nil, err
	}
	return l.s, nil
}

type loader struct {
	s     *Spec
	sm    *srcMap
	errs  *diag.Collector
	later map[string]bool // while reading functions: the names not read yet
}

func (l *loader) pos(n *yaml.Node) ir.Pos {
	return ir.Pos{File: l.s.File, Line: n.Line, Col: n.Column}
}

func (l *loader) errorf(n *yaml.Node, format string, args ...any) {
	l.errs.Errorf(l.pos(n), format, args...)
}

var (
	yamlLine      = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)
	yamlIndicator = regexp.MustCompile("^[^#]*:\\s+[!&*|>%@`]")
)

// line returns source line n (1-based), or "".
func (l *loader) line(n int) string {
	if n < 1 || n > len(l.sm.lines) {
		return ""
	}
	start := l.sm.lines[n-1]
	end := len(l.sm.src)
	if n < len(l.sm.lines) {
		end = l.sm.lines[n] - 1
	}
	return string(l.sm.src[start:end])
}

func (l *loader) load() {
	var doc yaml.Node
	if err := yaml.Unmarshal(l.s.src, &doc); err != nil {
		msg := err.Error()
		p := ir.Pos{File: l.s.File, Line: 1, Col: 1}
		if m := yamlLine.FindStringSubmatch(msg); m != nil {
			p.Line, _ = strconv.Atoi(m[1])
			msg = m[2]
		} else {
			msg = strings.TrimPrefix(msg, "yaml: ")
		}
		if line := l.line(p.Line); yamlIndicator.MatchString(line) {
			msg += " (a value that starts with one of ! & * | > % @ ` { [ means something else in YAML: quote the condition, or write not instead of !)"
		}
		l.errs.Errorf(p, "YAML syntax error: %s", msg)
		return
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		l.errs.Errorf(ir.Pos{File: l.s.File, Line: 1, Col: 1}, "empty spec: expected a mapping with object:, methods: and commute:")
		return
	}
	root := deref(doc.Content[0])
	if root.Kind != yaml.MappingNode {
		l.errorf(root, "a spec is a mapping with object:, methods: and commute:, found %s", kindName(root))
		return
	}
	fields, _ := l.fields(root, "the spec", "object", "doc", "methods", "constants", "abstraction", "functions", "commute", "check")
	if n := fields["object"]; n == nil {
		l.errorf(root, "missing object: (the CIR object type the spec is for)")
	} else if name, ok := l.ident(n, "object type name"); ok {
		l.s.Object, l.s.ObjectPos = name, l.pos(n)
	}
	if n := fields["doc"]; n != nil {
		if n.Kind != yaml.ScalarNode {
			l.errorf(n, "doc: must be a string")
		} else {
			l.s.Doc = n.Value
		}
	}
	if n := fields["methods"]; n == nil {
		l.errorf(root, "missing methods: (the object's linearizable methods with their arguments and results)")
	} else {
		l.methods(n)
	}
	if n := fields["constants"]; n != nil {
		l.constants(n)
	}
	if n := fields["abstraction"]; n != nil {
		l.abstractions(n)
	}
	if n := fields["functions"]; n != nil {
		l.functions(n)
	}
	if n := fields["commute"]; n == nil {
		l.errorf(root, "missing commute: (the commutativity condition of each pair of methods; pairs not listed never commute)")
	} else {
		l.commute(n)
	}
	if n := fields["check"]; n != nil {
		l.check(n)
	}
	if l.errs.Len() == 0 {
		l.finish()
	}
}

func deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "nothing"
		}
		return fmt.Sprintf("%q", n.Value)
	}
	return "something else"
}

// pairs returns the key and value nodes of mapping n, reporting duplicate
// keys (and skipping them).
func (l *loader) pairs(n *yaml.Node) [][2]*yaml.Node {
	var out [][2]*yaml.Node
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := deref(n.Content[i]), deref(n.Content[i+1])
		if k.Kind != yaml.ScalarNode {
			l.errorf(k, "keys must be plain names, found %s", kindName(k))
			continue
		}
		if seen[k.Value] {
			l.errorf(k, "duplicate key %s", k.Value)
			continue
		}
		seen[k.Value] = true
		out = append(out, [2]*yaml.Node{k, v})
	}
	return out
}

// fields reads mapping n whose keys must be among allowed; it returns the
// value and key nodes by key.
func (l *loader) fields(n *yaml.Node, what string, allowed ...string) (map[string]*yaml.Node, map[string]*yaml.Node) {
	vals, keys := map[string]*yaml.Node{}, map[string]*yaml.Node{}
	for _, kv := range l.pairs(n) {
		ok := false
		for _, a := range allowed {
			if kv[0].Value == a {
				ok = true
			}
		}
		if !ok {
			l.errorf(kv[0], "unknown key %s in %s (allowed: %s)", kv[0].Value, what, strings.Join(allowed, ", "))
			continue
		}
		vals[kv[0].Value], keys[kv[0].Value] = kv[1], kv[0]
	}
	return vals, keys
}

var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func (l *loader) ident(n *yaml.Node, what string) (string, bool) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		l.errorf(n, "expected a %s, found %s", what, kindName(n))
		return "", false
	}
	if !identRE.MatchString(n.Value) {
		l.errorf(n, "%q is not a valid %s (letters, digits and _, not starting with a digit)", n.Value, what)
		return "", false
	}
	if reserved[n.Value] {
		l.errorf(n, "%s is a reserved word and cannot be a %s", n.Value, what)
		return "", false
	}
	return n.Value, true
}

func (l *loader) typ(n *yaml.Node) (Type, bool) {
	if n.Kind == yaml.ScalarNode {
		switch n.Value {
		case "int":
			return Int, true
		case "bool":
			return Bool, true
		}
	}
	l.errorf(n, "unknown type %s (the types are int and bool)", kindName(n))
	return 0, false
}

// params reads `{name: type, ...}` (nil or an empty mapping: none).
func (l *loader) params(n *yaml.Node, what string) []Param {
	if n == nil || (n.Kind == yaml.ScalarNode && n.Tag == "!!null") {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		l.errorf(n, "the arguments of %s must be a mapping {name: type, ...}, found %s", what, kindName(n))
		return nil
	}
	var ps []Param
	for _, kv := range l.pairs(n) {
		name, ok := l.ident(kv[0], "argument name")
		t, ok2 := l.typ(kv[1])
		if ok && ok2 {
			ps = append(ps, Param{Name: name, Type: t, Pos: l.pos(kv[0])})
		}
	}
	return ps
}

func (l *loader) methods(n *yaml.Node) {
	if n.Kind != yaml.MappingNode {
		l.errorf(n, "methods: must be a mapping from method names to {args: {...}, result: {name: type}}, found %s", kindName(n))
		return
	}
	if len(n.Content) == 0 {
		l.errorf(n, "methods: is empty")
	}
	for _, kv := range l.pairs(n) {
		name, ok := l.ident(kv[0], "method name")
		if !ok {
			continue
		}
		m := &Method{Name: name, Index: len(l.s.Methods), Pos: l.pos(kv[0])}
		v := kv[1]
		switch {
		case v.Kind == yaml.ScalarNode && v.Tag == "!!null":
		case v.Kind != yaml.MappingNode:
			l.errorf(v, "method %s must be a mapping {args: {...}, result: {name: type}}, found %s", name, kindName(v))
		default:
			f, _ := l.fields(v, "method "+name, "args", "result")
			m.Params = l.params(f["args"], name)
			if r := f["result"]; r != nil {
				if r.Kind != yaml.MappingNode || len(r.Content) != 2 {
					l.errorf(r, "the result of %s must be one named, typed value, e.g. result: {r: bool}", name)
				} else if rn, ok := l.ident(deref(r.Content[0]), "result name"); ok {
					if t, ok := l.typ(deref(r.Content[1])); ok {
						m.Result = &Param{Name: rn, Type: t, Pos: l.pos(r.Content[0])}
					}
				}
			}
			seen := map[string]bool{}
			for _, p := range m.Params {
				if seen[p.Name] {
					l.errs.Errorf(p.Pos, "duplicate argument %s of %s", p.Name, name)
				}
				seen[p.Name] = true
			}
			if m.Result != nil && seen[m.Result.Name] {
				l.errs.Errorf(m.Result.Pos, "the result of %s is named %s like one of its arguments", name, m.Result.Name)
			}
		}
		l.s.methodIdx[name] = m.Index
		l.s.Methods = append(l.s.Methods, m)
	}
}

func (l *loader) constants(n *yaml.Node) {
	if n.Kind != yaml.MappingNode {
		l.errorf(n, "constants: must be a mapping from names to int or bool literals, found %s", kindName(n))
		return
	}
	for _, kv := range l.pairs(n) {
		name, ok := l.ident(kv[0], "constant name")
		if !ok {
			continue
		}
		if l.globalName(kv[0], name) {
			continue
		}
		if base, _, ok := splitSuffix(name); ok {
			for _, m := range l.s.Methods {
				if m.slot(base) >= 0 {
					l.errorf(kv[0], "constant %s would hide %s of %s in conditions", name, name, m.Name)
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
		}
		c := &Constant{Name: name, Pos: l.pos(kv[0])}
		v := kv[1]
		switch {
		case v.Kind == yaml.ScalarNode && v.Tag == "!!bool":
			c.Type = Bool
			c.Value = b2i(strings.EqualFold(v.Value, "true"))
		case v.Kind == yaml.ScalarNode && v.Tag == "!!int":
			x, err := strconv.ParseInt(strings.ReplaceAll(v.Value, "_", ""), 0, 64)
			if err != nil {
				l.errorf(v, "bad integer %s (integers are 64-bit signed)", v.Value)
				continue
			}
			c.Type, c.Value = Int, x
		default:
			l.errorf(v, "the value of constant %s must be an int or bool literal, found %s", name, kindName(v))
			continue
		}
		l.s.Constants = append(l.s.Constants, c)
	}
}

// globalName reports (and returns true) if name clashes with a builtin, a
// constant, an abstraction or a helper function.
func (l *loader) globalName(k *yaml.Node, name string) bool {
	s := l.s
	switch {
	case builtins[name].arity > 0:
		l.errorf(k, "%s is a builtin function", name)
	case s.constant(name) != nil:
		l.errorf(k, "%s is already declared as a constant", name)
	case s.abstraction(name) != nil:
		l.errorf(k, "%s is already declared as an abstraction function", name)
	default:
		if f, _ := s.function(name); f != nil {
			l.errorf(k, "%s is already declared as a function", name)
			return true
		}
		if base, _, ok := splitSuffix(name); ok && s.abstraction(base) != nil {
			l.errorf(k, "%s would be confused with the state function %s of abstraction %s", name, name, base)
			return true
		}
		return false
	}
	return true
}

func (l *loader) abstractions(n *yaml.Node) {
	if n.Kind != yaml.MappingNode {
		l.errorf(n, "abstraction: must be a mapping from abstraction function names to {args: {...}, result: type}, found %s", kindName(n))
		return
	}
	for _, kv := range l.pairs(n) {
		name, ok := l.ident(kv[0], "abstraction function name")
		if !ok || l.globalName(kv[0], name) {
			continue
		}
		f := &Func{Name: name, Pos: l.pos(kv[0])}
		if l.funcSig(kv[1], f, "abstraction function "+name, false) {
			l.s.Abstractions = append(l.s.Abstractions, f)
		}
	}
}

// funcSig reads {args: ..., result: type[, def: expr]} into f.
func (l *loader) funcSig(v *yaml.Node, f *Func, what string, withDef bool) bool {
	if v.Kind != yaml.MappingNode {
		l.errorf(v, "%s must be a mapping {args: {...}, result: type}, found %s", what, kindName(v))
		return false
	}
	allowed := []string{"args", "result"}
	if withDef {
		allowed = append(allowed, "def")
	}
	fs, _ := l.fields(v, what, allowed...)
	f.Params = l.params(fs["args"], what)
	r := fs["result"]
	if r == nil {
		l.errorf(v, "%s needs a result type (result: int or result: bool)", what)
		return false
	}
	t, ok := l.typ(r)
	if !ok {
		return false
	}
	f.Result = t
	if withDef {
		d := fs["def"]
		if d == nil || d.Kind != yaml.ScalarNode || d.Tag == "!!null" {
			l.errorf(v, "%s needs a definition (def: an expression over its arguments)", what)
			return false
		}
		f.Def = d.Value
		vm := newValueMap(l.sm, d)
		sc := &scope{s: l.s, params: f.Params, inFunc: true, fnIndex: len(l.s.Functions), later: l.later}
		sc.errf = func(off int, format string, args ...any) { l.errs.Errorf(vm.pos(off), format, args...) }
		a, err := parseExpr(f.Def)
		if err != nil {
			sc.errf(err.off, "%s", err.msg)
			return false
		}
		body := sc.resolve(a)
		if body == nil {
			return false
		}
		if body.typ != f.Result {
			sc.errf(a.start(), "%s is declared to return %s, but its definition is %s", what, f.Result, body.typ)
			return false
		}
		f.body = body
		if f.cost = cost(body); f.cost > maxCost {
			// Reported once; the function stays declared, so that its callers
			// do not report it as undefined (the spec is rejected anyway).
			sc.errf(a.start(), "%s is too expensive: one call evaluates more than %d operations (helpers calling helpers)", what, maxCost)
			f.cost = 0
		}
	}
	return true
}

// maxCost bounds the work of one helper function call or one condition.
const maxCost = 100_000

// cost returns the number of nodes evaluating n visits in the worst case,
// with helper calls expanded (saturating at maxCost+1).
func cost(n *node) int {
	c := 1
	if n.op == nFunc {
		c += n.fn.cost
	}
	for _, a := range n.args {
		c += cost(a)
	}
	return min(c, maxCost+1)
}

func (l *loader) functions(n *yaml.Node) {
	if n.Kind != yaml.MappingNode {
		l.errorf(n, "functions: must be a mapping from names to {args: {...}, result: type, def: expr}, found %s", kindName(n))
		return
	}
	l.later = map[string]bool{}
	ps := l.pairs(n)
	for _, kv := range ps {
		l.later[kv[0].Value] = true
	}
	for _, kv := range ps {
		delete(l.later, kv[0].Value)
		name, ok := l.ident(kv[0], "function name")
		if !ok || l.globalName(kv[0], name) {
			continue
		}
		f := &Func{Name: name, Pos: l.pos(kv[0])}
		if l.funcSig(kv[1], f, "function "+name, true) {
			l.s.Functions = append(l.s.Functions, f)
		}
	}
}

func (l *loader) commute(n *yaml.Node) {
	if n.Kind != yaml.MappingNode {
		l.errorf(n, "commute: must be a mapping from method pairs (m1/m2) to conditions, found %s", kindName(n))
		return
	}
	s := l.s
	s.conds = make([][]*Cond, len(s.Methods))
	for i := range s.conds {
		s.conds[i] = make([]*Cond, len(s.Methods))
	}
	for _, kv := range l.pairs(n) {
		k, v := kv[0], kv[1]
		kvm := newValueMap(l.sm, k)
		parts := strings.Split(k.Value, "/")
		if len(parts) != 2 {
			l.errorf(k, "a commute key is a pair of methods m1/m2, found %q", k.Value)
			continue
		}
		var ms [2]*Method
		off := 0
		okKey := true
		for i, p := range parts {
			name := strings.TrimSpace(p)
			lead := len(p) - len(strings.TrimLeft(p, " \t"))
			if ms[i] = s.Method(name); ms[i] == nil {
				if name == "" {
					l.errs.Errorf(kvm.pos(off+lead), "missing method name in the pair %q", k.Value)
				} else {
					l.errs.Errorf(kvm.pos(off+lead), "unknown method %s in %q (methods: %s)", name, k.Value, l.methodNames())
				}
				okKey = false
			}
			off += len(p) + 1
		}
		if !okKey {
			continue
		}
		if s.conds[ms[0].Index][ms[1].Index] != nil {
			l.errorf(k, "duplicate condition for %s/%s", ms[0].Name, ms[1].Name)
			continue
		}
		if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
			l.errorf(k, "the condition of %s/%s is missing (true: always commute, false: never)", ms[0].Name, ms[1].Name)
			continue
		}
		if v.Kind == yaml.ScalarNode && strings.HasPrefix(v.Tag, "!") && !strings.HasPrefix(v.Tag, "!!") {
			l.errorf(v, "YAML reads a plain value that starts with ! as a tag (%s): quote the condition or write not instead of !", v.Tag)
			continue
		}
		if v.Kind != yaml.ScalarNode {
			l.errorf(v, "the condition of %s/%s must be an expression (true: always commute, false: never), found %s", ms[0].Name, ms[1].Name, kindName(v))
			continue
		}
		text := v.Value
		if v.Tag == "!!bool" {
			text = strings.ToLower(text)
		}
		c := &Cond{M1: ms[0], M2: ms[1], Text: text, Pos: l.pos(v), KeyPos: l.pos(k)}
		vm := newValueMap(l.sm, v)
		sc := &scope{s: s, m: ms}
		sc.errf = func(off int, format string, args ...any) { l.errs.Errorf(vm.pos(off), format, args...) }
		a, err := parseExpr(text)
		if err != nil {
			sc.errf(err.off, "%s", err.msg)
			continue
		}
		root := sc.resolve(a)
		if root == nil {
			continue
		}
		if root.typ != Bool {
			sc.errf(a.start(), "a condition must be bool, found %s", root.typ)
			continue
		}
		if cost(root) > maxCost {
			sc.errf(a.start(), "the condition of %s/%s is too expensive: one evaluation takes more than %d operations (helpers calling helpers)", ms[0].Name, ms[1].Name, maxCost)
			continue
		}
		c.root, c.useState = root, sc.useState
		s.conds[ms[0].Index][ms[1].Index] = c
		s.given = append(s.given, c)
	}
}

func (l *loader) methodNames() string {
	var ns []string
	for _, m := range l.s.Methods {
		ns = append(ns, m.Name)
	}
	return strings.Join(ns, ", ")
}

// value reads an int or bool literal.
func (l *loader) value(n *yaml.Node) (int64, bool) {
	if n.Kind == yaml.ScalarNode {
		switch n.Tag {
		case "!!bool":
			return b2i(strings.EqualFold(n.Value, "true")), true
		case "!!int":
			if x, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64); err == nil {
				return x, true
			}
		}
	}
	l.errorf(n, "expected an int or bool literal, found %s", kindName(n))
	return 0, false
}

func (l *loader) values(n *yaml.Node, what string) []int64 {
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		l.errorf(n, "%s must be a non-empty list of values, e.g. [0, 1, 2]", what)
		return nil
	}
	var out []int64
	for _, e := range n.Content {
		if v, ok := l.value(deref(e)); ok {
			out = append(out, v)
		}
	}
	return out
}

func (l *loader) check(n *yaml.Node) {
	s := l.s
	s.Check.Pos = l.pos(n)
	if n.Kind != yaml.MappingNode {
		l.errorf(n, "check: must be a mapping with depth:, ints:, args: and init:, found %s", kindName(n))
		return
	}
	f, _ := l.fields(n, "check", "depth", "ints", "args", "init")
	if d := f["depth"]; d != nil {
		v, ok := l.value(d)
		if ok && (d.Tag != "!!int" || v < 0 || v > 8) {
			l.errorf(d, "depth must be an integer in [0, 8]")
		} else if ok {
			s.Check.Depth = int(v)
		}
	}
	if d := f["ints"]; d != nil {
		s.Check.Ints = l.values(d, "ints")
	}
	if d := f["args"]; d != nil {
		if d.Kind != yaml.MappingNode {
			l.errorf(d, "args must be a mapping from method.arg to a list of values")
		} else {
			s.Check.Args = map[string][]int64{}
			for _, kv := range l.pairs(d) {
				name := kv[0].Value
				mn, an, ok := strings.Cut(name, ".")
				var ps []Param
				found := false
				if m := s.Method(mn); m != nil {
					ps, found = m.Params, true
				} else if a := s.abstraction(mn); a != nil {
					ps, found = a.Params, true
				}
				if !ok || !found {
					l.errorf(kv[0], "%q does not name an argument (write method.arg or abstraction.arg)", name)
					continue
				}
				has := false
				for _, p := range ps {
					has = has || p.Name == an
				}
				if !has {
					l.errorf(kv[0], "%s has no argument %s", mn, an)
					continue
				}
				s.Check.Args[name] = l.values(kv[1], name)
			}
		}
	}
	if d := f["init"]; d != nil {
		if d.Kind != yaml.SequenceNode {
			l.errorf(d, "init must be a list of calls, e.g. [init()]")
			return
		}
		for _, e := range d.Content {
			e = deref(e)
			if e.Kind != yaml.ScalarNode {
				l.errorf(e, "an init call must be a string such as init() or put(1, 2), found %s", kindName(e))
				continue
			}
			vm := newValueMap(l.sm, e)
			a, err := parseExpr(e.Value)
			if err != nil {
				msg := err.msg
				if d.Style&yaml.FlowStyle != 0 && e.Style == 0 {
					msg += " (YAML splits a [...] list at commas: quote calls with several arguments, e.g. [\"put(1, 2)\"])"
				}
				l.errs.Errorf(vm.pos(err.off), "%s", msg)
				continue
			}
			if a.kind != aCall {
				l.errs.Errorf(vm.pos(a.off), "an init call must be a call such as init() or put(1, 2)")
				continue
			}
			c := InitCall{Method: a.name, Pos: vm.pos(a.off)}
			ok := true
			for _, x := range a.args {
				switch {
				case x.kind == aInt || x.kind == aBool:
					c.Args = append(c.Args, x.val)
				case x.kind == aName && s.constant(x.name) != nil:
					c.Args = append(c.Args, s.constant(x.name).Value)
				default:
					l.errs.Errorf(vm.pos(x.off), "the arguments of an init call must be literals or constants")
					ok = false
				}
			}
			if ok {
				s.Check.Init = append(s.Check.Init, c)
			}
		}
	}
}
