package commspec

import (
	"gopkg.in/yaml.v3"

	"ncmc/ir"
)

// srcMap turns byte offsets of the source into line:column positions.
type srcMap struct {
	file  string
	src   []byte
	lines []int // byte offset of the start of each line
}

func newSrcMap(file string, src []byte) *srcMap {
	m := &srcMap{file: file, src: src, lines: []int{0}}
	for i, c := range src {
		if c == '\n' {
			m.lines = append(m.lines, i+1)
		}
	}
	return m
}

// offset returns the byte offset of 1-based line:col (clamped).
func (m *srcMap) offset(line, col int) int {
	if line < 1 {
		return 0
	}
	if line > len(m.lines) {
		return len(m.src)
	}
	o := m.lines[line-1] + col - 1
	if o > len(m.src) {
		o = len(m.src)
	}
	if o < 0 {
		o = 0
	}
	return o
}

// pos returns the position of byte offset o.
func (m *srcMap) pos(o int) ir.Pos {
	lo, hi := 0, len(m.lines)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if m.lines[mid] <= o {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return ir.Pos{File: m.file, Line: lo + 1, Col: o - m.lines[lo] + 1}
}

// valueMap maps byte offsets inside a YAML scalar's value to source
// positions. yaml.v3 only gives the position of the scalar's first
// character; this aligns the value with the source text after it: a
// non-blank character of the value is matched with the next equal character
// of the source, blanks with the current source position. That is exact for
// plain, quoted and block scalars without escape sequences, and close
// otherwise (an escape shifts positions by its length at most).
type valueMap struct {
	offs []int // source offset of each value byte, plus one past the end
	sm   *srcMap
}

func newValueMap(sm *srcMap, n *yaml.Node) *valueMap {
	v := n.Value
	p := sm.offset(n.Line, n.Column)
	src := sm.src
	switch n.Style {
	case yaml.DoubleQuotedStyle, yaml.SingleQuotedStyle:
		p++ // the opening quote
	case yaml.LiteralStyle, yaml.FoldedStyle:
		for p < len(src) && src[p] != '\n' { // the indicator line
			p++
		}
	}
	vm := &valueMap{offs: make([]int, len(v)+1), sm: sm}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c == ' ' || c == '\t' || c == '\n' {
			vm.offs[i] = p
			if p < len(src) && (src[p] == c || src[p] == ' ' || src[p] == '\n') {
				p++
			}
			continue
		}
		q := p
		for q < len(src) && src[q] != c {
			q++
		}
		if q == len(src) { // not found (an escape): keep the last position
			vm.offs[i] = p
			continue
		}
		vm.offs[i] = q
		p = q + 1
	}
	vm.offs[len(v)] = p
	return vm
}

// pos returns the source position of byte offset off of the value.
func (vm *valueMap) pos(off int) ir.Pos {
	if off < 0 {
		off = 0
	}
	if off >= len(vm.offs) {
		off = len(vm.offs) - 1
	}
	return vm.sm.pos(vm.offs[off])
}
