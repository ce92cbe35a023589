package interp

import (
	"encoding/binary"
	"strings"
	"sync"

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
		if g.Hidden {
			continue
		}
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

// FinalStates renders final states (FinalState) through a cache keyed by
// the cells of the globals, for programs whose globals hold only numbers,
// booleans, mutexes and condition variables: their rendering is then a
// function of those cells alone. Explorations with hundreds of thousands
// of executions and few distinct final states format each state once.
// The zero value is ready; safe for concurrent use.
type FinalStates struct {
	mu    sync.Mutex
	known int8 // 0: not decided yet, 1: cacheable, -1: not
	key   []byte
	cache map[string]string
}

// finalStatesMax bounds the cache; past it states are formatted anew.
const finalStatesMax = 1 << 16

// Of returns FinalState(x).
func (c *FinalStates) Of(x *Execution) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.known == 0 {
		c.known = -1
		if plainGlobals(x) {
			c.known, c.cache = 1, map[string]string{}
		}
	}
	if c.known < 0 {
		return FinalState(x)
	}
	c.key = c.key[:0]
	for i := range x.prog.Globals {
		for _, v := range x.mem[i+1] {
			c.key = binary.LittleEndian.AppendUint64(c.key, uint64(v))
		}
		c.key = append(c.key, 0xff) // block separator (lengths are fixed per global anyway)
	}
	if s, ok := c.cache[string(c.key)]; ok {
		return s
	}
	s := FinalState(x)
	if len(c.cache) < finalStatesMax {
		c.cache[string(c.key)] = s
	}
	return s
}

// plainGlobals reports whether FinalState(x) depends on the globals'
// cells alone: no pointers or thread handles (rendered through names) and
// no objects rendered by abstraction functions.
func plainGlobals(x *Execution) bool {
	var plain func(t *ir.Type) bool
	plain = func(t *ir.Type) bool {
		switch t.Kind {
		case ir.TPtr, ir.TThread:
			return false
		case ir.TArray:
			return plain(t.Elem)
		case ir.TRecord:
			if x.cfg.Semantic && t.Record.IsObject {
				return false
			}
			for _, f := range t.Record.Fields {
				if !plain(f.Type) {
					return false
				}
			}
		}
		return true
	}
	for _, g := range x.prog.Globals {
		if !plain(g.Type) {
			return false
		}
	}
	return true
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
