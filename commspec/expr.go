package commspec

import (
	"fmt"
	"strconv"
)

// The condition language: a small expression syntax with CIR's operators and
// precedences (docs/commspec.md §4). This file has the lexer and the parser;
// names are resolved and types checked in check.go.

type tokKind uint8

const (
	tEOF tokKind = iota
	tIdent
	tInt
	tOp // an operator or punctuation: Text holds it
)

type token struct {
	kind tokKind
	text string
	off  int // byte offset in the condition string
}

// lexErr is a positioned syntax error inside one condition string.
type lexErr struct {
	off int
	msg string
}

func (e *lexErr) Error() string { return e.msg }

// ops lists the operators, longest first so that the lexer is greedy.
var ops = []string{"<<", ">>", "==", "!=", "<=", ">=", "&&", "||", "(", ")", ",", "!", "~", "-", "+", "*", "/", "%", "&", "|", "^", "<", ">"}

func lex(s string) ([]token, *lexErr) {
	var toks []token
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case isLetter(c):
			j := i + 1
			for j < len(s) && (isLetter(s[j]) || isDigit(s[j])) {
				j++
			}
			toks = append(toks, token{tIdent, s[i:j], i})
			i = j
		case isDigit(c):
			j := i + 1
			for j < len(s) && (isLetter(s[j]) || isDigit(s[j])) {
				j++
			}
			toks = append(toks, token{tInt, s[i:j], i})
			i = j
		default:
			matched := false
			for _, op := range ops {
				if len(s)-i >= len(op) && s[i:i+len(op)] == op {
					toks = append(toks, token{tOp, op, i})
					i += len(op)
					matched = true
					break
				}
			}
			if !matched {
				if c == '=' {
					return nil, &lexErr{i, "unexpected '=' (use == to compare)"}
				}
				return nil, &lexErr{i, fmt.Sprintf("unexpected character %q", rune(c))}
			}
		}
	}
	toks = append(toks, token{tEOF, "", len(s)})
	return toks, nil
}

func isLetter(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }

// ast is a parsed, not yet checked, expression.
type ast struct {
	kind astKind
	op   string // operator (aUnary, aBinary)
	name string // aName, aCall
	val  int64  // aInt; aBool: 0/1
	args []*ast // operands or call arguments
	off  int    // offset of the token that names the node (operator, name, literal)
	end  int    // offset just after the node's last token
}

type astKind uint8

const (
	aInt astKind = iota
	aBool
	aName
	aCall
	aUnary
	aBinary
)

// start returns the offset of the first token of a.
func (a *ast) start() int {
	for (a.kind == aBinary) && len(a.args) > 0 {
		a = a.args[0]
	}
	return a.off
}

// maxDepth bounds the nesting of conditions, so that hostile input cannot
// exhaust the stack.
const maxDepth = 200

type parser struct {
	toks  []token
	p     int
	depth int
}

// parseExpr parses one condition string.
func parseExpr(s string) (*ast, *lexErr) {
	toks, err := lex(s)
	if err != nil {
		return nil, err
	}
	ps := &parser{toks: toks}
	var e *ast
	func() {
		defer func() {
			if r := recover(); r != nil {
				le, ok := r.(*lexErr)
				if !ok {
					panic(r)
				}
				err = le
			}
		}()
		e = ps.binary(0)
		if t := ps.peek(); t.kind != tEOF {
			ps.fail(t.off, "unexpected %s after the end of the expression", describe(t))
		}
	}()
	if err != nil {
		return nil, err
	}
	return e, nil
}

func describe(t token) string {
	switch t.kind {
	case tEOF:
		return "end of condition"
	case tIdent:
		return "name " + t.text
	case tInt:
		return "number " + t.text
	}
	return "'" + t.text + "'"
}

func (ps *parser) peek() token { return ps.toks[ps.p] }
func (ps *parser) next() token {
	t := ps.toks[ps.p]
	if t.kind != tEOF {
		ps.p++
	}
	return t
}

func (ps *parser) fail(off int, format string, args ...any) {
	panic(&lexErr{off, fmt.Sprintf(format, args...)})
}

// binary precedence levels, loosest first (CIR's, docs/cir.md §2), plus the
// word forms `or` and `and`.
var levels = [][]string{
	{"||", "or"},
	{"&&", "and"},
	{"==", "!="},
	{"<", "<=", ">", ">="},
	{"|"},
	{"^"},
	{"&"},
	{"<<", ">>"},
	{"+", "-"},
	{"*", "/", "%"},
}

func (ps *parser) atLevel(level int) (string, bool) {
	t := ps.peek()
	if t.kind != tOp && t.kind != tIdent {
		return "", false
	}
	for _, op := range levels[level] {
		if t.text == op {
			return op, true
		}
	}
	return "", false
}

func (ps *parser) binary(level int) *ast {
	if level == len(levels) {
		return ps.unary()
	}
	x := ps.binary(level + 1)
	for {
		op, ok := ps.atLevel(level)
		if !ok {
			return x
		}
		t := ps.next()
		switch op {
		case "or":
			op = "||"
		case "and":
			op = "&&"
		}
		y := ps.binary(level + 1)
		x = &ast{kind: aBinary, op: op, args: []*ast{x, y}, off: t.off, end: y.end}
	}
}

func (ps *parser) enter(off int) {
	ps.depth++
	if ps.depth > maxDepth {
		ps.fail(off, "condition nested too deeply (more than %d levels)", maxDepth)
	}
}

func (ps *parser) unary() *ast {
	t := ps.peek()
	if (t.kind == tOp && (t.text == "!" || t.text == "-" || t.text == "~")) || (t.kind == tIdent && t.text == "not") {
		ps.next()
		ps.enter(t.off)
		x := ps.unary()
		ps.depth--
		op := t.text
		if op == "not" {
			op = "!"
		}
		// Fold a negative literal so that -9223372036854775808 is accepted.
		if op == "-" && x.kind == aInt && x.off == t.off+1 {
			return &ast{kind: aInt, val: -x.val, off: t.off, end: x.end}
		}
		return &ast{kind: aUnary, op: op, args: []*ast{x}, off: t.off, end: x.end}
	}
	return ps.primary()
}

func (ps *parser) primary() *ast {
	t := ps.next()
	switch t.kind {
	case tInt:
		v, err := strconv.ParseInt(t.text, 0, 64)
		if err != nil {
			// Allow 9223372036854775808 right after a minus sign.
			if u, err2 := strconv.ParseUint(t.text, 0, 64); err2 == nil && u == 1<<63 && t.off > 0 {
				if prev := ps.toks[ps.p-2]; ps.p >= 2 && prev.kind == tOp && prev.text == "-" && prev.off == t.off-1 {
					return &ast{kind: aInt, val: -1 << 63, off: t.off, end: t.off + len(t.text)}
				}
			}
			ps.fail(t.off, "bad integer literal %s (integers are 64-bit signed)", t.text)
		}
		return &ast{kind: aInt, val: v, off: t.off, end: t.off + len(t.text)}
	case tIdent:
		switch t.text {
		case "true":
			return &ast{kind: aBool, val: 1, off: t.off, end: t.off + 4}
		case "false":
			return &ast{kind: aBool, val: 0, off: t.off, end: t.off + 5}
		case "and", "or", "not":
			ps.fail(t.off, "unexpected %q: an operand is missing", t.text)
		}
		if n := ps.peek(); n.kind == tOp && n.text == "(" {
			ps.next()
			ps.enter(t.off)
			call := &ast{kind: aCall, name: t.text, off: t.off}
			if c := ps.peek(); c.kind == tOp && c.text == ")" {
				ps.next()
				call.end = c.off + 1
				ps.depth--
				return call
			}
			for {
				call.args = append(call.args, ps.binary(0))
				c := ps.next()
				if c.kind == tOp && c.text == ")" {
					call.end = c.off + 1
					break
				}
				if c.kind != tOp || c.text != "," {
					ps.fail(c.off, "expected ',' or ')' in the arguments of %s, found %s", t.text, describe(c))
				}
			}
			ps.depth--
			return call
		}
		return &ast{kind: aName, name: t.text, off: t.off, end: t.off + len(t.text)}
	case tOp:
		if t.text == "(" {
			ps.enter(t.off)
			x := ps.binary(0)
			c := ps.next()
			if c.kind != tOp || c.text != ")" {
				ps.fail(c.off, "expected ')', found %s", describe(c))
			}
			ps.depth--
			x.end = c.off + 1
			return x
		}
	}
	if t.kind == tEOF {
		ps.fail(t.off, "unexpected end of condition: an operand is missing")
	}
	ps.fail(t.off, "unexpected %s: an operand is expected", describe(t))
	return nil
}
