package litmus

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"ncmc/frontend/diag"
	"ncmc/ir"
)

// bailout abandons the region being parsed after an error (recovered by guard).
type bailout struct{}

type tokKind uint8

const (
	tEOF tokKind = iota
	tIdent
	tInt
	tPunct
	tString
)

type token struct {
	kind tokKind
	text string
	val  int64 // tInt
	off  int   // byte offset in the file
}

// comment styles of the regions of a test
type commentStyle uint8

const (
	ocamlComments commentStyle = iota // (* … *), nesting: header, init, postlude, x86 code
	cComments                         // /* … */ and // …: C code
)

// lexer turns src[start:end] into tokens; offsets stay file offsets.
type lexer struct {
	p     *parser
	src   []byte
	i     int
	end   int
	style commentStyle
}

// multi-character punctuation, longest first
var puncts = []string{"/\\", "\\/", "=>", "==", "!=", "<>", "<=", ">=", "&&", "||", "<<", ">>", "->"}

func (p *parser) lex(start, end int, style commentStyle) []token {
	lx := &lexer{p: p, src: p.src, i: start, end: end, style: style}
	var out []token
	for {
		t := lx.next()
		out = append(out, t)
		if t.kind == tEOF {
			return out
		}
	}
}

func isLetter(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// skipComment skips a comment starting at i (if any) and returns the offset
// after it; ok is false if there is no comment at i. An unclosed comment is
// an error and runs to end.
func skipComment(p *parser, src []byte, i, end int, style commentStyle) (int, bool) {
	switch style {
	case ocamlComments:
		if i+1 < end && src[i] == '(' && src[i+1] == '*' {
			depth := 0
			j := i
			for j < end {
				switch {
				case j+1 < end && src[j] == '(' && src[j+1] == '*':
					depth++
					j += 2
				case j+1 < end && src[j] == '*' && src[j+1] == ')':
					depth--
					j += 2
					if depth == 0 {
						return j, true
					}
				default:
					j++
				}
			}
			p.errAt(i, "comment (* is not closed")
			return end, true
		}
	case cComments:
		if i+1 < end && src[i] == '/' && src[i+1] == '*' {
			j := strings.Index(string(src[i+2:end]), "*/")
			if j < 0 {
				p.errAt(i, "comment /* is not closed")
				return end, true
			}
			return i + 2 + j + 2, true
		}
		if i+1 < end && src[i] == '/' && src[i+1] == '/' {
			j := i
			for j < end && src[j] != '\n' {
				j++
			}
			return j, true
		}
	}
	return i, false
}

func (lx *lexer) next() token {
	src := lx.src
	for lx.i < lx.end {
		c := src[lx.i]
		if isSpace(c) {
			lx.i++
			continue
		}
		if j, ok := skipComment(lx.p, src, lx.i, lx.end, lx.style); ok {
			lx.i = j
			continue
		}
		break
	}
	if lx.i >= lx.end {
		return token{kind: tEOF, off: lx.end}
	}
	start := lx.i
	c := src[start]
	switch {
	case isLetter(c):
		j := start
		for j < lx.end && (isLetter(src[j]) || isDigit(src[j])) {
			j++
		}
		lx.i = j
		return token{kind: tIdent, text: string(src[start:j]), off: start}
	case isDigit(c):
		j := start
		hex := false
		if c == '0' && j+1 < lx.end && (src[j+1] == 'x' || src[j+1] == 'X') {
			hex = true
			j += 2
		}
		for j < lx.end && (isDigit(src[j]) || hex && strings.IndexByte("abcdefABCDEF", src[j]) >= 0) {
			j++
		}
		text := string(src[start:j])
		lx.i = j
		var v int64
		var err error
		if hex {
			var u uint64
			u, err = strconv.ParseUint(text[2:], 16, 64)
			v = int64(u)
		} else {
			v, err = strconv.ParseInt(text, 10, 64)
		}
		if err != nil {
			lx.p.errAt(start, "integer %s is out of range", text)
		}
		if j < lx.end && isLetter(src[j]) {
			lx.p.errAt(j, "unexpected %q after the number %s", src[j], text)
		}
		return token{kind: tInt, text: text, val: v, off: start}
	case c == '"':
		j := start + 1
		for j < lx.end && src[j] != '"' && src[j] != '\n' {
			j++
		}
		if j >= lx.end || src[j] != '"' {
			lx.p.errAt(start, "string is not closed")
			lx.i = j
			return token{kind: tString, text: string(src[start+1 : j]), off: start}
		}
		lx.i = j + 1
		return token{kind: tString, text: string(src[start+1 : j]), off: start}
	}
	for _, p := range puncts {
		if strings.HasPrefix(string(src[start:min(lx.end, start+len(p))]), p) && start+len(p) <= lx.end {
			lx.i = start + len(p)
			return token{kind: tPunct, text: p, off: start}
		}
	}
	if c < 0x20 || c >= 0x7f {
		lx.p.errAt(start, "unexpected character %q", rune(c))
		lx.i++
		return lx.next()
	}
	lx.i++
	return token{kind: tPunct, text: string(c), off: start}
}

// ---- parser state shared by all regions ----

type parser struct {
	file  string
	src   []byte
	c     *diag.Collector
	lines []int // byte offset of each line start

	toks []token
	k    int

	t *Test

	inits   map[Loc]initVal
	locIdx  map[string]int  // shared location -> global index
	mutexes map[string]bool // locations used by lock/unlock
	atomics map[string]int  // locations used by other accesses (offset of one use)
	fns     []*fnb          // thread functions, in order

	depth int // nesting of the construct being parsed (see enter)
}

// maxDepth bounds the nesting of statements, expressions and conditions
// (parentheses, blocks, unary operators): the parsers are recursive, and
// hostile input (100,000 '(') would otherwise exhaust the goroutine
// stack, a fatal error. herd's litmus tests nest a few levels.
const maxDepth = 500

// enter notes one more level of nesting at byte offset off and fails there
// past maxDepth; the caller defers p.leave().
func (p *parser) enter(off int) {
	p.depth++
	if p.depth > maxDepth {
		p.fail(off, "nested more than %d deep", maxDepth)
	}
}

// leave ends a level opened by enter.
func (p *parser) leave() { p.depth-- }

func newParser(file string, src []byte, c *diag.Collector) *parser {
	p := &parser{file: file, src: src, c: c, lines: []int{0}}
	for i, b := range src {
		if b == '\n' {
			p.lines = append(p.lines, i+1)
		}
	}
	return p
}

// pos converts a byte offset to a position.
func (p *parser) pos(off int) ir.Pos {
	lo, hi := 0, len(p.lines)-1
	for lo < hi {
		m := (lo + hi + 1) / 2
		if p.lines[m] <= off {
			lo = m
		} else {
			hi = m - 1
		}
	}
	return ir.Pos{File: p.file, Line: lo + 1, Col: off - p.lines[lo] + 1}
}

func (p *parser) errAt(off int, format string, args ...any) {
	if p.c.Len() > 2*diag.MaxErrors {
		panic(bailout{})
	}
	p.c.Errorf(p.pos(off), format, args...)
}

// fail records an error at off and abandons the current region.
func (p *parser) fail(off int, format string, args ...any) {
	p.errAt(off, format, args...)
	panic(bailout{})
}

// guard runs f, recovering from a bailout.
func (p *parser) guard(f func()) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
		}
	}()
	f()
}

// token stream helpers

func (p *parser) setToks(ts []token) { p.toks, p.k = ts, 0 }

func (p *parser) peek() token { return p.toks[p.k] }

func (p *parser) peekN(n int) token {
	if p.k+n < len(p.toks) {
		return p.toks[p.k+n]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) advance() token {
	t := p.toks[p.k]
	if t.kind != tEOF {
		p.k++
	}
	return t
}

func (p *parser) is(text string) bool {
	t := p.peek()
	return (t.kind == tPunct || t.kind == tIdent) && t.text == text
}

func (p *parser) accept(text string) bool {
	if p.is(text) {
		p.advance()
		return true
	}
	return false
}

func (p *parser) expect(text, context string) token {
	if !p.is(text) {
		t := p.peek()
		p.fail(t.off, "expected %q %s, found %s", text, context, describe(t))
	}
	return p.advance()
}

func (p *parser) ident(context string) token {
	t := p.peek()
	if t.kind != tIdent {
		p.fail(t.off, "expected %s, found %s", context, describe(t))
	}
	return p.advance()
}

func describe(t token) string {
	switch t.kind {
	case tEOF:
		return "the end of the section"
	case tIdent:
		return "'" + t.text + "'"
	case tInt:
		return "the number " + t.text
	case tString:
		return "a string"
	}
	return "'" + t.text + "'"
}

// ---- regions ----

// endKeywords end the program section (whole words).
var endKeywords = map[string]bool{"final": true, "forall": true, "exists": true, "cases": true,
	"observed": true, "Observed": true, "locations": true, "filter": true}

// invalidUTF8 returns the offset of the first byte of src that is not
// part of a valid UTF-8 encoding, or -1 if there is none.
func invalidUTF8(src []byte) int {
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return -1
}

func (p *parser) parse() *Test {
	t := &Test{File: p.file, Init: map[Loc]int64{}, addr: map[string]int64{}}
	p.t = t
	src := p.src
	n := len(src)

	// header: the first non-blank line
	i := 0
	for i < n && isSpace(src[i]) {
		i++
	}
	if i == n {
		p.fail(0, "empty file: a litmus test starts with a header such as \"C SB\"")
	}
	if bad := invalidUTF8(src); bad >= 0 {
		p.fail(bad, "invalid UTF-8 encoding (a litmus test is text)")
	}
	lineEnd := i
	for lineEnd < n && src[lineEnd] != '\n' {
		lineEnd++
	}
	p.header(i, lineEnd)

	// info lines up to the init section's '{'
	j := lineEnd
	initStart := -1
	lineStart := j
	for j < n {
		if k, ok := skipComment(p, src, j, n, ocamlComments); ok {
			j = k
			continue
		}
		switch src[j] {
		case '"':
			k := j + 1
			for k < n && src[k] != '"' {
				k++
			}
			if t.Doc == "" && k < n {
				t.Doc = string(src[j+1 : k])
			}
			j = k + 1
			continue
		case '\n':
			p.infoLine(lineStart, j)
			lineStart = j + 1
		case '{':
			initStart = j
		}
		if initStart >= 0 {
			break
		}
		j++
	}
	if initStart < 0 {
		p.fail(lineEnd, "missing init section: expected '{' (write { } if every location starts at 0)")
	}
	// init section: up to the matching '}'
	depth := 0
	initEnd := -1
	for j = initStart; j < n && initEnd < 0; {
		if k, ok := skipComment(p, src, j, n, ocamlComments); ok {
			j = k
			continue
		}
		switch src[j] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				initEnd = j
			}
		}
		j++
	}
	if initEnd < 0 {
		p.fail(initStart, "init section '{' is not closed")
	}
	p.guard(func() { p.initSection(initStart+1, initEnd) })

	// program: up to the first end keyword
	progStart := initEnd + 1
	style := cComments
	if t.Arch != "C" {
		style = ocamlComments
	}
	progEnd := p.findProgramEnd(progStart, style)
	switch t.Arch {
	case "C":
		p.guard(func() { p.cProgram(progStart, progEnd) })
	default:
		p.guard(func() { p.x86Program(progStart, progEnd) })
	}
	p.guard(func() { p.postlude(progEnd, n) })
	if p.c.Len() > 0 {
		return t
	}
	p.guard(func() { p.build() })
	return t
}

func (p *parser) header(start, end int) {
	t := p.t
	fields := strings.Fields(string(p.src[start:end]))
	arch := fields[0]
	switch arch {
	case "C", "X86", "X86_64":
		t.Arch = arch
	default:
		p.fail(start, "unsupported litmus architecture %q: ncmc reads C, X86 and X86_64 tests", arch)
	}
	if len(fields) < 2 {
		p.fail(end, "missing test name after %q in the header", arch)
	}
	t.Name = fields[1]
	if k := strings.IndexByte(string(p.src[start:end]), '"'); k >= 0 {
		rest := string(p.src[start+k+1 : end])
		if e := strings.IndexByte(rest, '"'); e >= 0 {
			t.Doc = rest[:e]
		}
	}
}

func (p *parser) infoLine(start, end int) {
	line := strings.TrimSpace(string(p.src[start:end]))
	if k := strings.IndexByte(line, '='); k > 0 && !strings.ContainsAny(line, "\"{}") {
		key := strings.TrimSpace(line[:k])
		if key != "" && !strings.ContainsAny(key, " \t") {
			p.t.Info = append(p.t.Info, [2]string{key, strings.TrimSpace(line[k+1:])})
		}
	}
}

// findProgramEnd returns the offset of the first end keyword (whole word,
// outside strings and comments) at or after start, or len(src).
func (p *parser) findProgramEnd(start int, style commentStyle) int {
	src := p.src
	n := len(src)
	for i := start; i < n; {
		if k, ok := skipComment(p, src, i, n, style); ok {
			i = k
			continue
		}
		c := src[i]
		switch {
		case c == '"':
			k := i + 1
			for k < n && src[k] != '"' {
				k++
			}
			i = k + 1
		case c == '~':
			k := i + 1
			for k < n && isSpace(src[k]) {
				k++
			}
			if strings.HasPrefix(string(src[k:]), "exists") && (k+6 == n || !isLetter(src[k+6]) && !isDigit(src[k+6])) {
				return i
			}
			i++
		case isLetter(c):
			k := i
			for k < n && (isLetter(src[k]) || isDigit(src[k])) {
				k++
			}
			if endKeywords[string(src[i:k])] {
				return i
			}
			i = k
		case isDigit(c):
			for i < n && (isLetter(src[i]) || isDigit(src[i])) {
				i++
			}
		default:
			i++
		}
	}
	return n
}
