package interp

import (
	"strings"

	"ncmc/ir"
)

// FinalState renders the final values of all globals of x. Under
// Config.Semantic an object is rendered by the values of its abstraction
// functions without parameters ("c.value=3"), or by its fields if it has
// none; heap records are never part of the rendering.
func FinalState(x *Execution) string {
	var parts []string
	var mem *Memory
	for i, g := range x.prog.Globals {
		if x.cfg.Semantic && g.Type.Kind == ir.TRecord && g.Type.Record.IsObject {
			if mem == nil {
				mem = x.Memory()
			}
			if s := abstractValues(x, mem, g.Type.Record, ir.MakePtr(i+1, 0), g.Name+"."); s != "" {
				parts = append(parts, s)
				continue
			}
		}
		if s := formatCells(x, g.Type, x.mem[i+1], 0); s != "" {
			parts = append(parts, g.Name+"="+s)
		}
	}
	return strings.Join(parts, " ")
}

// abstractValues renders the object of type rec at addr by its abstraction
// functions without parameters, as prefix+name=value separated by spaces;
// "" if it has none.
func abstractValues(x *Execution, mem *Memory, rec *ir.Record, addr int64, prefix string) string {
	var parts []string
	var st *AbsState
	for _, f := range rec.Methods {
		if f.Kind != ir.FuncAbstraction || f.NumParams != 1 {
			continue
		}
		if st == nil {
			st = NewAbsState(mem, addr, rec, Config{Unroll: x.cfg.Unroll})
		}
		v, err := st.Eval(f.Name, nil)
		s := "?"
		if err == nil {
			s = x.names.FormatValue(v, f.Result)
		}
		parts = append(parts, prefix+f.Name+"="+s)
	}
	return strings.Join(parts, " ")
}

// formatCells renders a value of type t stored at cells[off:]; mutexes and
// condition variables are left out (empty string).
func formatCells(x *Execution, t *ir.Type, cells []int64, off int) string {
	switch t.Kind {
	case ir.TMutex, ir.TCond:
		return ""
	case ir.TArray:
		es := t.Elem.Size()
		var items []string
		for i := 0; i < t.Len; i++ {
			s := formatCells(x, t.Elem, cells, off+i*es)
			if s == "" {
				return ""
			}
			items = append(items, s)
		}
		return "[" + strings.Join(items, ",") + "]"
	case ir.TRecord:
		var items []string
		for _, f := range t.Record.Fields {
			if s := formatCells(x, f.Type, cells, off+f.Offset); s != "" {
				items = append(items, f.Name+"="+s)
			}
		}
		if len(items) == 0 {
			return ""
		}
		return "{" + strings.Join(items, ",") + "}"
	}
	if off >= len(cells) {
		return "?"
	}
	return x.names.FormatValue(cells[off], t)
}
