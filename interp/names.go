package interp

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"ncmc/ir"
)

// Names gives threads and heap blocks numbers that are stable across all
// executions of one exploration. A thread is named by its spawn path ("0" is
// main, "0.2" the second thread main spawned); a heap block by the thread that
// allocated it and that thread's allocation count. Numbers are handed out on
// first sight, so two executions that create the same thread or block agree on
// its number whatever the interleaving. One Names belongs to one exploration;
// it is safe for concurrent use by that exploration's workers.
type Names struct {
	prog *ir.Program

	mu         sync.Mutex
	threadNum  map[string]int32
	threadName []string
	children   map[[2]int32]int32 // (parent, k) -> the parent's k-th child
	heapNum    map[heapKey]int
	heapInfo   []heapBlock // indexed by block - firstHeap

	hints sizeHints                 // sizes the exploration's executions needed (sizes.go)
	free  atomic.Pointer[Execution] // a released execution to reuse (Execution.Release)
}

type heapKey struct {
	thread string
	n      int
}

type heapBlock struct {
	key    heapKey
	record *ir.Record
}

// NewNames returns an empty name table for prog.
func NewNames(prog *ir.Program) *Names {
	return &Names{prog: prog, threadNum: map[string]int32{}, heapNum: map[heapKey]int{}}
}

// child returns the name and number of the k-th thread spawned by thread
// parent, called pname: pname + "." + k (cached, so that a spawn builds no
// string after the first time).
func (n *Names) child(parent int32, pname string, k int) (string, int32) {
	key := [2]int32{parent, int32(k)}
	n.mu.Lock()
	if c, ok := n.children[key]; ok {
		n.mu.Unlock()
		return n.threadName[c], c
	}
	n.mu.Unlock()
	name := pname + "." + strconv.Itoa(k)
	c := n.Thread(name)
	n.mu.Lock()
	if n.children == nil {
		n.children = map[[2]int32]int32{}
	}
	n.children[key] = c
	n.mu.Unlock()
	return name, c
}

// Thread returns the number of the thread called name.
func (n *Names) Thread(name string) int32 {
	n.mu.Lock()
	defer n.mu.Unlock()
	if t, ok := n.threadNum[name]; ok {
		return t
	}
	t := int32(len(n.threadName))
	n.threadNum[name] = t
	n.threadName = append(n.threadName, name)
	return t
}

// ThreadName returns the stable name of thread number t.
func (n *Names) ThreadName(t int32) string {
	n.mu.Lock()
	defer n.mu.Unlock()
	if t >= 0 && int(t) < len(n.threadName) {
		return n.threadName[t]
	}
	return fmt.Sprintf("?%d", t)
}

// HeapBlock returns the block id of the k-th allocation (1-based) by thread.
func (n *Names) HeapBlock(thread string, k int, r *ir.Record) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	key := heapKey{thread, k}
	if b, ok := n.heapNum[key]; ok {
		return b
	}
	b := len(n.prog.Globals) + 1 + len(n.heapInfo)
	n.heapNum[key] = b
	n.heapInfo = append(n.heapInfo, heapBlock{key: key, record: r})
	return b
}

func (n *Names) heap(block int) (heapBlock, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	i := block - len(n.prog.Globals) - 1
	if i < 0 || i >= len(n.heapInfo) {
		return heapBlock{}, false
	}
	return n.heapInfo[i], true
}

// BlockName renders a block: a global's name, or Record@thread#k for heap blocks.
func (n *Names) BlockName(block int) string {
	if block >= 1 && block <= len(n.prog.Globals) {
		return n.prog.Globals[block-1].Name
	}
	if h, ok := n.heap(block); ok {
		return fmt.Sprintf("%s@t%s#%d", h.record.Name, h.key.thread, h.key.n)
	}
	return fmt.Sprintf("block%d", block)
}

// blockType returns the type laid out in block, if known.
func (n *Names) blockType(block int) *ir.Type {
	if block >= 1 && block <= len(n.prog.Globals) {
		return n.prog.Globals[block-1].Type
	}
	if h, ok := n.heap(block); ok {
		return &ir.Type{Kind: ir.TRecord, Record: h.record}
	}
	return nil
}

// LocName renders a location (an encoded pointer) as a path: x, a[2], c.count, Node@t0.1#1.next.
func (n *Names) LocName(loc int64) string {
	block, off := ir.PtrBlock(loc), ir.PtrOffset(loc)
	var b strings.Builder
	b.WriteString(n.BlockName(block))
	t := n.blockType(block)
	for t != nil {
		switch t.Kind {
		case ir.TArray:
			es := t.Elem.Size()
			fmt.Fprintf(&b, "[%d]", off/es)
			off %= es
			t = t.Elem
			continue
		case ir.TRecord:
			var fl *ir.Field
			for _, f := range t.Record.Fields {
				if off >= f.Offset && off < f.Offset+f.Type.Size() {
					fl = f
				}
			}
			if fl == nil {
				fmt.Fprintf(&b, "+%d", off)
				return b.String()
			}
			b.WriteString("." + fl.Name)
			off -= fl.Offset
			t = fl.Type
			continue
		}
		break
	}
	if t == nil && off != 0 {
		fmt.Fprintf(&b, "+%d", off)
	}
	return b.String()
}

// FormatValue renders v as a value of type t (pointers by the block they name).
func (n *Names) FormatValue(v int64, t *ir.Type) string {
	if t == nil {
		return fmt.Sprint(v)
	}
	switch t.Kind {
	case ir.TBool:
		if v != 0 {
			return "true"
		}
		return "false"
	case ir.TFloat:
		return ir.FormatFloat(v, t.Width)
	case ir.TPtr:
		if v == 0 {
			return "null"
		}
		return "&" + n.LocName(v)
	case ir.TThread:
		if v == 0 {
			return "none"
		}
		return "t" + n.ThreadName(int32(unbase(v)-1))
	case ir.TMutex:
		if v == 0 {
			return "free"
		}
		if v == ir.DestroyedMutex {
			return "destroyed"
		}
		return "held(t" + n.ThreadName(int32(unbase(v)-1)) + ")"
	}
	return fmt.Sprint(v)
}

// unbase removes the handle offset of Config.Symmetry (symmetry.go) from a
// thread handle or mutex owner value.
func unbase(v int64) int64 {
	if v > SymmetryHandleBase {
		return v - SymmetryHandleBase
	}
	return v
}
