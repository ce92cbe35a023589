package commspec

import (
	"strings"

	"ncmc/frontend/diag"
	"ncmc/ir"
)

// irType maps a CIR type to a spec type (false: not representable).
func irType(t *ir.Type) (Type, bool) {
	switch {
	case t == nil:
		return 0, false
	case t.Kind == ir.TInt && t.Width == 0:
		return Int, true
	case t.Kind == ir.TBool:
		return Bool, true
	}
	return 0, false
}

// Record returns the object type of prog the spec is about, or nil.
func (s *Spec) Record(prog *ir.Program) *ir.Record {
	r := prog.RecordByName(s.Object)
	if r == nil || !r.IsObject {
		return nil
	}
	return r
}

// CheckProgram checks the spec against the CIR program that implements the
// object: the object type exists; every method of the spec is a
// linearizable method of it with the same number and types of arguments and
// the same result type (or none); every abstraction function the spec
// declares is an abstraction fn of the object with matching parameter and
// result types; the check section's init calls name methods of the object
// with the right number of arguments. Errors are positioned in the spec (a
// diag.ErrorList). Linearizable methods the spec does not mention are not an
// error: they commute with nothing.
func (s *Spec) CheckProgram(prog *ir.Program) error {
	errs := diag.NewCollector(s.File, s.src)
	rec := prog.RecordByName(s.Object)
	switch {
	case rec == nil:
		var objs []string
		for _, r := range prog.Records {
			if r.IsObject {
				objs = append(objs, r.Name)
			}
		}
		hint := "it has none"
		if len(objs) > 0 {
			hint = "its objects: " + strings.Join(objs, ", ")
		}
		errs.Errorf(s.ObjectPos, "%s has no object type %s (%s)", prog.File, s.Object, hint)
		return errs.Errors().Err()
	case !rec.IsObject:
		errs.Errorf(s.ObjectPos, "%s is a record in %s, not an object (it has no methods)", s.Object, prog.File)
		return errs.Errors().Err()
	}
	sig := func(f *ir.Func, params []Param, pos ir.Pos, what string) {
		if got := f.NumParams - 1; got != len(params) {
			errs.Errorf(pos, "%s: %s.%s has %d parameters in %s, the spec declares %d", what, s.Object, f.Name, got, prog.File, len(params))
			return
		}
		for i, p := range params {
			t, ok := irType(f.Locals[i+1].Type)
			if !ok {
				errs.Errorf(p.Pos, "parameter %s of %s.%s has type %s in %s, which specs cannot describe (int and bool only)", f.Locals[i+1].Name, s.Object, f.Name, f.Locals[i+1].Type, prog.File)
			} else if t != p.Type {
				errs.Errorf(p.Pos, "argument %s of %s is %s in the spec but parameter %s of %s.%s is %s in %s", p.Name, f.Name, p.Type, f.Locals[i+1].Name, s.Object, f.Name, t, prog.File)
			}
		}
	}
	for _, m := range s.Methods {
		f := rec.MethodByName(m.Name)
		if f == nil {
			errs.Errorf(m.Pos, "%s has no method %s in %s (its linearizable methods: %s)", s.Object, m.Name, prog.File, linearizable(rec))
			continue
		}
		if f.Kind != ir.FuncLinearizable {
			errs.Errorf(m.Pos, "%s.%s is not linearizable in %s: its calls are not invocations (declare it `linearizable fn`)", s.Object, m.Name, prog.File)
			continue
		}
		sig(f, m.Params, m.Pos, "method "+m.Name)
		hasRes := f.Result != nil && f.Result.Kind != ir.TVoid
		switch {
		case m.Result == nil && hasRes:
			errs.Errorf(m.Pos, "%s.%s returns %s in %s, but the spec declares no result", s.Object, m.Name, f.Result, prog.File)
		case m.Result != nil && !hasRes:
			errs.Errorf(m.Result.Pos, "%s.%s has no result in %s, but the spec declares result %s", s.Object, m.Name, prog.File, m.Result.Name)
		case m.Result != nil:
			if t, ok := irType(f.Result); !ok {
				errs.Errorf(m.Result.Pos, "%s.%s returns %s in %s, which specs cannot describe (int and bool only)", s.Object, m.Name, f.Result, prog.File)
			} else if t != m.Result.Type {
				errs.Errorf(m.Result.Pos, "result %s of %s is %s in the spec but %s.%s returns %s in %s", m.Result.Name, m.Name, m.Result.Type, s.Object, m.Name, t, prog.File)
			}
		}
	}
	for _, a := range s.Abstractions {
		f := rec.MethodByName(a.Name)
		if f == nil || f.Kind != ir.FuncAbstraction {
			errs.Errorf(a.Pos, "%s has no abstraction fn %s in %s", s.Object, a.Name, prog.File)
			continue
		}
		sig(f, a.Params, a.Pos, "abstraction function "+a.Name)
		if t, ok := irType(f.Result); !ok || t != a.Result {
			errs.Errorf(a.Pos, "abstraction function %s returns %s in the spec but %s in %s", a.Name, a.Result, f.Result, prog.File)
		}
	}
	for _, c := range s.Check.Init {
		f := rec.MethodByName(c.Method)
		switch {
		case f == nil:
			errs.Errorf(c.Pos, "init: %s has no method %s in %s", s.Object, c.Method, prog.File)
		case f.NumParams-1 != len(c.Args):
			errs.Errorf(c.Pos, "init: wrong number of arguments to %s: want %d, got %d", c.Method, f.NumParams-1, len(c.Args))
		}
	}
	return errs.Errors().Err()
}

func linearizable(r *ir.Record) string {
	var ns []string
	for _, f := range r.Methods {
		if f.Kind == ir.FuncLinearizable {
			ns = append(ns, f.Name)
		}
	}
	if len(ns) == 0 {
		return "none"
	}
	return strings.Join(ns, ", ")
}
