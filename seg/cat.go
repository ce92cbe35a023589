package seg

import (
	"fmt"
	"strings"
)

// This file parses the model language, a small subset of herd's .cat
// language (Alglave, Maranget, Tautschnig, "Herding cats", TOPLAS 2014):
//
//	model   := { stmt }
//	stmt    := 'let' NAME '=' expr
//	         | [ 'flag' ] ( 'acyclic' | 'irreflexive' | 'empty' ) expr [ 'as' NAME ]
//	         | 'show' NAME { ',' NAME }
//	expr    := expr '|' expr          union                      (lowest precedence)
//	         | expr ';' expr          sequence (composition)
//	         | expr '\' expr          difference
//	         | expr '&' expr          intersection
//	         | expr '*' expr          cartesian product of two sets
//	         | '~' expr               complement
//	         | expr '+' | expr '*' | expr '?'    closures: transitive, reflexive-transitive, reflexive
//	         | expr '^-1'             inverse                    (highest precedence)
//	         | '[' expr ']'           the identity relation on a set
//	         | 'domain' '(' expr ')' | 'range' '(' expr ')'
//	         | '(' expr ')' | NAME | '0' (the empty relation)
//
// Binary operators associate to the left. A '*' is the cartesian product
// when the next token can start an operand, and the reflexive-transitive
// closure otherwise (herd reads it the same way). Names are the base sets
// and relations of BaseSet and BaseRel and earlier 'let's; a 'let' may
// shadow an earlier name. Names may contain '-' between letters (po-loc).
// Comments are (* … *) and nest.
//
// 'acyclic', 'irreflexive' and 'empty' state the axioms that a consistent
// graph must satisfy; 'flag' marks an axiom whose violation does not make
// the graph inconsistent but is reported (herd's flag/undefined_unless),
// such as a data race. 'show' names let-bound relations that explanations
// keep as one labelled edge instead of unfolding them into base relations.

type tokKind uint8

const (
	tEOF tokKind = iota
	tName
	tZero
	tPunct // one of | ; \ & * ~ + ? [ ] ( ) = , and ^-1
)

type token struct {
	kind      tokKind
	text      string
	line, col int
}

var keywords = map[string]bool{"let": true, "acyclic": true, "irreflexive": true, "empty": true, "as": true, "show": true, "flag": true}

func lexModel(src string) ([]token, error) {
	var toks []token
	line, col := 1, 1
	i := 0
	adv := func(n int) {
		for k := 0; k < n; k++ {
			if src[i] == '\n' {
				line++
				col = 1
			} else {
				col++
			}
			i++
		}
	}
	isAlpha := func(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
	isAlnum := func(c byte) bool { return isAlpha(c) || c >= '0' && c <= '9' }
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			adv(1)
		case c == '(' && i+1 < len(src) && src[i+1] == '*':
			l0, c0 := line, col
			depth := 0
			for {
				if i+1 >= len(src) {
					return nil, fmt.Errorf("%d:%d: unterminated comment", l0, c0)
				}
				if src[i] == '(' && src[i+1] == '*' {
					depth++
					adv(2)
				} else if src[i] == '*' && src[i+1] == ')' {
					depth--
					adv(2)
					if depth == 0 {
						break
					}
				} else {
					adv(1)
				}
			}
		case isAlpha(c):
			j := i + 1
			for j < len(src) && (isAlnum(src[j]) || src[j] == '-' && j+1 < len(src) && isAlpha(src[j+1])) {
				j++
			}
			toks = append(toks, token{tName, src[i:j], line, col})
			adv(j - i)
		case c == '0':
			toks = append(toks, token{tZero, "0", line, col})
			adv(1)
		case c == '^':
			if strings.HasPrefix(src[i:], "^-1") {
				toks = append(toks, token{tPunct, "^-1", line, col})
				adv(3)
			} else {
				return nil, fmt.Errorf("%d:%d: expected ^-1", line, col)
			}
		case strings.IndexByte("|;\\&*~+?[]()=,", c) >= 0:
			toks = append(toks, token{tPunct, string(c), line, col})
			adv(1)
		default:
			return nil, fmt.Errorf("%d:%d: unexpected character %q", line, col, c)
		}
	}
	toks = append(toks, token{tEOF, "", line, col})
	return toks, nil
}

type opKind uint8

const (
	opName opKind = iota
	opZero
	opUnion
	opSeq
	opDiff
	opInter
	opCross
	opCompl
	opPlus
	opStar
	opOpt
	opInv
	opIdent
	opDomain
	opRange
)

// expr is a node of a compiled model expression.
type expr struct {
	op    opKind
	args  []*expr
	name  string // opName: the name as written
	def   *expr  // opName bound by a let: its definition
	isSet bool   // the expression denotes a set (otherwise a relation)
	id    int    // evaluation memo slot
}

// precedence for printing: higher binds tighter.
func (e *expr) prec() int {
	switch e.op {
	case opUnion:
		return 1
	case opSeq:
		return 2
	case opDiff:
		return 3
	case opInter:
		return 4
	case opCross:
		return 5
	case opCompl:
		return 6
	case opPlus, opStar, opOpt, opInv:
		return 7
	}
	return 8
}

func (e *expr) String() string {
	var sb strings.Builder
	e.write(&sb)
	return sb.String()
}

func (e *expr) write(sb *strings.Builder) {
	sub := func(a *expr, min int) {
		if a.prec() < min {
			sb.WriteByte('(')
			a.write(sb)
			sb.WriteByte(')')
		} else {
			a.write(sb)
		}
	}
	switch e.op {
	case opName:
		sb.WriteString(e.name)
	case opZero:
		sb.WriteString("0")
	case opUnion, opSeq, opDiff, opInter, opCross:
		op := map[opKind]string{opUnion: " | ", opSeq: "; ", opDiff: " \\ ", opInter: " & ", opCross: " * "}[e.op]
		sub(e.args[0], e.prec())
		sb.WriteString(op)
		sub(e.args[1], e.prec()+1)
	case opCompl:
		sb.WriteString("~")
		sub(e.args[0], e.prec())
	case opPlus, opStar, opOpt, opInv:
		sub(e.args[0], 8)
		sb.WriteString(map[opKind]string{opPlus: "+", opStar: "*", opOpt: "?", opInv: "^-1"}[e.op])
	case opIdent:
		sb.WriteString("[")
		e.args[0].write(sb)
		sb.WriteString("]")
	case opDomain, opRange:
		sb.WriteString(map[opKind]string{opDomain: "domain(", opRange: "range("}[e.op])
		e.args[0].write(sb)
		sb.WriteString(")")
	}
}

// AxiomKind says what an axiom requires of its relation.
type AxiomKind uint8

// Axiom kinds.
const (
	Acyclic     AxiomKind = iota // the relation has no cycle
	Irreflexive                  // the relation relates no node to itself
	Empty                        // the relation (or set) has no element
	WellFormed                   // not a model axiom: the graph itself is malformed (see Validate)
)

// String is the keyword of the axiom kind ("acyclic", …).
func (k AxiomKind) String() string {
	return [...]string{"acyclic", "irreflexive", "empty", "well-formed"}[k]
}

type axiom struct {
	kind AxiomKind
	e    *expr
	name string
	flag bool
}

type parser struct {
	toks  []token
	p     int
	scope map[string]*expr // let bindings in effect
	nexpr int
}

type parseError struct {
	line, col int
	msg       string
}

func (e *parseError) Error() string { return fmt.Sprintf("%d:%d: %s", e.line, e.col, e.msg) }

func (p *parser) peek() token { return p.toks[p.p] }
func (p *parser) peekAt(k int) token {
	if p.p+k < len(p.toks) {
		return p.toks[p.p+k]
	}
	return p.toks[len(p.toks)-1]
}
func (p *parser) next() token {
	t := p.toks[p.p]
	if t.kind != tEOF {
		p.p++
	}
	return t
}
func (p *parser) fail(t token, format string, args ...any) {
	panic(&parseError{t.line, t.col, fmt.Sprintf(format, args...)})
}
func (p *parser) is(text string) bool {
	t := p.peek()
	return t.kind == tPunct && t.text == text || t.kind == tName && t.text == text
}
func (p *parser) expect(text string) token {
	t := p.next()
	if !(t.kind == tPunct || t.kind == tName) || t.text != text {
		p.fail(t, "expected %q, found %s", text, describe(t))
	}
	return t
}

func describe(t token) string {
	if t.kind == tEOF {
		return "end of model"
	}
	return fmt.Sprintf("%q", t.text)
}

func (p *parser) mk(op opKind, isSet bool, args ...*expr) *expr {
	e := &expr{op: op, args: args, isSet: isSet, id: p.nexpr}
	p.nexpr++
	return e
}

// startsOperand reports whether t can begin an operand.
func startsOperand(t token) bool {
	switch t.kind {
	case tName:
		return !keywords[t.text]
	case tZero:
		return true
	case tPunct:
		return t.text == "(" || t.text == "[" || t.text == "~"
	}
	return false
}

func (p *parser) expr() *expr { return p.binary(1) }

var binOps = map[string]struct {
	prec int
	op   opKind
}{"|": {1, opUnion}, ";": {2, opSeq}, "\\": {3, opDiff}, "&": {4, opInter}, "*": {5, opCross}}

func (p *parser) binary(min int) *expr {
	if min > 5 {
		return p.unary()
	}
	lhs := p.binary(min + 1)
	for {
		t := p.peek()
		b, ok := binOps[t.text]
		if t.kind != tPunct || !ok || b.prec != min {
			return lhs
		}
		if t.text == "*" && !startsOperand(p.peekAt(1)) {
			return lhs
		}
		p.next()
		rhs := p.binary(min + 1)
		switch b.op {
		case opCross:
			if !lhs.isSet || !rhs.isSet {
				p.fail(t, "both operands of * must be sets")
			}
			lhs = p.mk(opCross, false, lhs, rhs)
		case opSeq:
			if lhs.isSet || rhs.isSet {
				p.fail(t, "both operands of ; must be relations (write [S] for a set S)")
			}
			lhs = p.mk(opSeq, false, lhs, rhs)
		default:
			if lhs.isSet != rhs.isSet {
				p.fail(t, "operands of %s mix a set and a relation", t.text)
			}
			lhs = p.mk(b.op, lhs.isSet, lhs, rhs)
		}
	}
}

func (p *parser) unary() *expr {
	if p.is("~") {
		p.next()
		a := p.unary()
		return p.mk(opCompl, a.isSet, a)
	}
	a := p.atom()
	for {
		t := p.peek()
		if t.kind != tPunct {
			return a
		}
		var op opKind
		switch t.text {
		case "+":
			op = opPlus
		case "?":
			op = opOpt
		case "^-1":
			op = opInv
		case "*":
			if startsOperand(p.peekAt(1)) {
				return a // binary product
			}
			op = opStar
		default:
			return a
		}
		if a.isSet {
			p.fail(t, "%s applies to a relation, not a set", t.text)
		}
		p.next()
		a = p.mk(op, false, a)
	}
}

func (p *parser) atom() *expr {
	t := p.next()
	switch {
	case t.kind == tZero:
		return p.mk(opZero, false)
	case t.kind == tPunct && t.text == "(":
		e := p.expr()
		p.expect(")")
		return e
	case t.kind == tPunct && t.text == "[":
		e := p.expr()
		p.expect("]")
		if !e.isSet {
			p.fail(t, "[…] takes a set, not a relation")
		}
		return p.mk(opIdent, false, e)
	case t.kind == tName && !keywords[t.text]:
		if (t.text == "domain" || t.text == "range") && p.is("(") {
			if _, bound := p.scope[t.text]; !bound {
				p.next()
				e := p.expr()
				p.expect(")")
				if e.isSet {
					p.fail(t, "%s takes a relation, not a set", t.text)
				}
				op := opDomain
				if t.text == "range" {
					op = opRange
				}
				return p.mk(op, true, e)
			}
		}
		if def, ok := p.scope[t.text]; ok {
			e := p.mk(opName, def.isSet)
			e.name, e.def = t.text, def
			return e
		}
		if isBaseSet(t.text) {
			e := p.mk(opName, true)
			e.name = t.text
			return e
		}
		if isBaseRel(t.text) {
			e := p.mk(opName, false)
			e.name = t.text
			return e
		}
		p.fail(t, "unknown name %q", t.text)
	}
	p.fail(t, "expected an expression, found %s", describe(t))
	return nil
}

func isBaseSet(name string) bool {
	for _, n := range baseSetNames {
		if n == name {
			return true
		}
	}
	return false
}

func isBaseRel(name string) bool {
	for _, n := range baseRelNames {
		if n == name {
			return true
		}
	}
	return false
}

// parseModel parses src into statements. It panics with *parseError on bad
// input; ParseModel recovers.
func (p *parser) model(m *Model) {
	for p.peek().kind != tEOF {
		t := p.next()
		if t.kind != tName {
			p.fail(t, "expected a statement (let, acyclic, irreflexive, empty, flag, show), found %s", describe(t))
		}
		switch t.text {
		case "let":
			n := p.next()
			if n.kind != tName || keywords[n.text] {
				p.fail(n, "expected a name after let, found %s", describe(n))
			}
			p.expect("=")
			e := p.expr()
			p.scope[n.text] = e
			m.lets[n.text] = e
			m.order = append(m.order, n.text)
		case "flag", "acyclic", "irreflexive", "empty":
			flag := false
			kt := t
			if t.text == "flag" {
				flag = true
				kt = p.next()
			}
			var kind AxiomKind
			switch kt.text {
			case "acyclic":
				kind = Acyclic
			case "irreflexive":
				kind = Irreflexive
			case "empty":
				kind = Empty
			default:
				p.fail(kt, "expected acyclic, irreflexive or empty, found %s", describe(kt))
			}
			e := p.expr()
			if e.isSet && kind != Empty {
				p.fail(kt, "%s takes a relation, not a set", kt.text)
			}
			name := kind.String() + " " + e.String()
			if p.is("as") {
				p.next()
				n := p.next()
				if n.kind != tName {
					p.fail(n, "expected a name after as, found %s", describe(n))
				}
				name = n.text
			}
			m.axioms = append(m.axioms, &axiom{kind: kind, e: e, name: name, flag: flag})
		case "show":
			for {
				n := p.next()
				if n.kind != tName {
					p.fail(n, "expected a name after show, found %s", describe(n))
				}
				if _, ok := p.scope[n.text]; !ok && !isBaseRel(n.text) {
					p.fail(n, "show: unknown relation %q", n.text)
				}
				m.shown[n.text] = true
				if !p.is(",") {
					break
				}
				p.next()
			}
		default:
			p.fail(t, "expected a statement (let, acyclic, irreflexive, empty, flag, show), found %s", describe(t))
		}
	}
}
