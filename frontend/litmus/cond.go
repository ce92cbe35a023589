package litmus

import (
	"fmt"
	"strings"

	"ncmc/ir"
)

// Quantifier is the kind of a final condition.
type Quantifier uint8

// Quantifiers. Final ("final P" in the file) means Exists.
const (
	Exists    Quantifier = iota // exists P: is P reachable?
	NotExists                   // ~exists P: the test passes when P is not reachable
	Forall                      // forall P: does every execution satisfy P?
)

func (q Quantifier) String() string {
	return [...]string{"exists", "~exists", "forall"}[q]
}

// Condition is a test's final condition.
type Condition struct {
	Quant Quantifier
	Prop  *Prop
	// Implicit is set when the file has no condition (read as forall (true)).
	Implicit bool
	Pos      ir.Pos
}

// String renders c in herd7's normal form, e.g. "exists (0:r0=0 /\ [x]=1)".
func (c Condition) String() string {
	return c.Quant.String() + " (" + c.Prop.String() + ")"
}

// PropKind is the kind of a proposition node.
type PropKind uint8

// Proposition kinds.
const (
	PTrue PropKind = iota
	PFalse
	PAtom // L = Value (or L = R), negated when Neq
	PNot
	PAnd
	POr
	PImplies
)

// Prop is a proposition over final values.
type Prop struct {
	Kind PropKind
	A, B *Prop // operands (PNot: A only)
	// PAtom: L compared with R (when RIsLoc) or with Value.
	L      Loc
	Neq    bool
	RIsLoc bool
	R      Loc
	Value  int64
	// ValueName is set when the value was written as a location name (its
	// address); Value holds the address.
	ValueName string
	Pos       ir.Pos
}

// Eval evaluates p with val giving the final value of each location.
func (p *Prop) Eval(val func(Loc) int64) bool {
	r, _ := p.Eval3(func(l Loc) (int64, bool) { return val(l), true })
	return r
}

// Eval3 evaluates p when some values may be unknown (val returns false for
// those): known reports whether the result is determined by the known values.
func (p *Prop) Eval3(val func(Loc) (int64, bool)) (res, known bool) {
	switch p.Kind {
	case PTrue:
		return true, true
	case PFalse:
		return false, true
	case PAtom:
		l, ok := val(p.L)
		if !ok {
			return false, false
		}
		r := p.Value
		if p.RIsLoc {
			if r, ok = val(p.R); !ok {
				return false, false
			}
		}
		return (l == r) != p.Neq, true
	case PNot:
		r, k := p.A.Eval3(val)
		return !r, k
	case PAnd:
		a, ka := p.A.Eval3(val)
		if ka && !a {
			return false, true
		}
		b, kb := p.B.Eval3(val)
		if kb && !b {
			return false, true
		}
		return true, ka && kb
	case POr:
		a, ka := p.A.Eval3(val)
		if ka && a {
			return true, true
		}
		b, kb := p.B.Eval3(val)
		if kb && b {
			return true, true
		}
		return false, ka && kb
	case PImplies:
		a, ka := p.A.Eval3(val)
		if ka && !a {
			return true, true
		}
		b, kb := p.B.Eval3(val)
		if kb && b {
			return true, true
		}
		return false, ka && kb
	}
	return false, false
}

// Locs calls f for every location p mentions, left to right.
func (p *Prop) Locs(f func(Loc)) {
	if p == nil {
		return
	}
	switch p.Kind {
	case PAtom:
		f(p.L)
		if p.RIsLoc {
			f(p.R)
		}
	case PNot:
		p.A.Locs(f)
	case PAnd, POr, PImplies:
		p.A.Locs(f)
		p.B.Locs(f)
	}
}

// String renders p in herd7's normal form: locations as [x], registers as
// 0:r0, negations and inequalities as "not (…)", conjunctions and
// disjunctions flattened, parentheses only where precedence needs them.
func (p *Prop) String() string {
	var b strings.Builder
	p.write(&b, 0)
	return b.String()
}

// precedence levels: 1 \/, 2 /\, 3 =>, 4 atoms and not
func (p *Prop) prec() int {
	switch p.Kind {
	case POr:
		return 1
	case PAnd:
		return 2
	case PImplies:
		return 3
	}
	return 4
}

func (p *Prop) write(b *strings.Builder, ctx int) {
	paren := p.prec() < ctx
	if paren {
		b.WriteByte('(')
	}
	switch p.Kind {
	case PTrue:
		b.WriteString("true")
	case PFalse:
		b.WriteString("false")
	case PAtom:
		if p.Neq {
			b.WriteString("not (")
		}
		b.WriteString(p.L.herd())
		b.WriteByte('=')
		switch {
		case p.RIsLoc:
			b.WriteString(p.R.herd())
		case p.ValueName != "":
			b.WriteString(p.ValueName)
		default:
			fmt.Fprint(b, p.Value)
		}
		if p.Neq {
			b.WriteByte(')')
		}
	case PNot:
		b.WriteString("not (")
		p.A.write(b, 0)
		b.WriteByte(')')
	case PAnd, POr:
		op := " /\\ "
		if p.Kind == POr {
			op = " \\/ "
		}
		// both operators are associative: chains print flat, however nested
		p.A.write(b, p.prec())
		b.WriteString(op)
		p.B.write(b, p.prec())
	case PImplies:
		p.A.write(b, 4)
		b.WriteString(" => ")
		p.B.write(b, 3)
	}
	if paren {
		b.WriteByte(')')
	}
}

// ---- parsing ----

// postlude parses [locations [...]] [filter P] [quantifier P] [with …].
func (p *parser) postlude(start, end int) {
	t := p.t
	p.setToks(p.lex(start, end, ocamlComments))
	t.Cond = Condition{Quant: Forall, Prop: &Prop{Kind: PTrue}, Implicit: true, Pos: p.pos(start)}
	if p.accept("locations") {
		p.expect("[", "after 'locations'")
		for !p.is("]") {
			if p.peek().kind == tEOF {
				p.fail(p.peek().off, "locations section '[' is not closed")
			}
			l := p.condLoc()
			t.Extra = append(t.Extra, l)
			if !p.accept(";") && !p.is("]") {
				p.fail(p.peek().off, "expected ';' or ']' in the locations section, found %s", describe(p.peek()))
			}
		}
		p.advance()
	}
	if p.accept("filter") {
		t.Filter = p.prop()
	}
	tok := p.peek()
	switch {
	case tok.kind == tEOF:
		return
	case p.is("exists") || p.is("final"):
		p.advance()
		t.Cond = Condition{Quant: Exists, Pos: p.pos(tok.off)}
	case p.is("~"):
		p.advance()
		p.expect("exists", "after '~'")
		t.Cond = Condition{Quant: NotExists, Pos: p.pos(tok.off)}
	case p.is("forall"):
		p.advance()
		t.Cond = Condition{Quant: Forall, Pos: p.pos(tok.off)}
	case p.is("cases") || p.is("observed") || p.is("Observed"):
		p.fail(tok.off, "%q conditions are not supported (use exists, ~exists or forall)", tok.text)
	default:
		p.fail(tok.off, "expected a final condition (exists, ~exists or forall), found %s", describe(tok))
	}
	t.Cond.Prop = p.prop()
	if p.is("with") {
		return // herd's test kinds ("with name: …") are ignored
	}
	if tok := p.peek(); tok.kind != tEOF {
		p.fail(tok.off, "unexpected %s after the final condition", describe(tok))
	}
}

// prop := disj;  disj := conj { '\/' conj };  conj := impl { '/\' impl };
// impl := unary [ '=>' impl ];  unary := ('~'|'not') unary | '(' prop ')' | true | false | atom
func (p *parser) prop() *Prop {
	a := p.conj()
	for p.is("\\/") {
		tok := p.advance()
		a = &Prop{Kind: POr, A: a, B: p.conj(), Pos: p.pos(tok.off)}
	}
	return a
}

func (p *parser) conj() *Prop {
	a := p.impl()
	for p.is("/\\") {
		tok := p.advance()
		a = &Prop{Kind: PAnd, A: a, B: p.impl(), Pos: p.pos(tok.off)}
	}
	return a
}

func (p *parser) impl() *Prop {
	p.enter(p.peek().off)
	defer p.leave()
	a := p.unary()
	if p.is("=>") {
		tok := p.advance()
		return &Prop{Kind: PImplies, A: a, B: p.impl(), Pos: p.pos(tok.off)}
	}
	return a
}

func (p *parser) unary() *Prop {
	tok := p.peek()
	p.enter(tok.off)
	defer p.leave()
	switch {
	case p.is("~") || p.is("not") && p.peekN(1).text != "=" && p.peekN(1).text != "==":
		p.advance()
		return &Prop{Kind: PNot, A: p.unary(), Pos: p.pos(tok.off)}
	case p.is("("):
		p.advance()
		a := p.prop()
		p.expect(")", "to close the parenthesis")
		return a
	case p.is("true") && !p.isAtomStart():
		p.advance()
		return &Prop{Kind: PTrue, Pos: p.pos(tok.off)}
	case p.is("false") && !p.isAtomStart():
		p.advance()
		return &Prop{Kind: PFalse, Pos: p.pos(tok.off)}
	}
	return p.atom()
}

// isAtomStart reports whether the identifier at the cursor starts an atom
// (a location named true or false compared with something).
func (p *parser) isAtomStart() bool {
	n := p.peekN(1).text
	return n == "=" || n == "==" || n == "!=" || n == "<>"
}

func (p *parser) atom() *Prop {
	tok := p.peek()
	a := &Prop{Kind: PAtom, Pos: p.pos(tok.off)}
	a.L = p.condLoc()
	switch {
	case p.accept("=") || p.accept("=="):
	case p.accept("!=") || p.accept("<>"):
		a.Neq = true
	default:
		p.fail(p.peek().off, "expected '=' or '!=' after %s in the condition, found %s", a.L, describe(p.peek()))
	}
	v := p.peek()
	switch {
	case v.kind == tInt || v.text == "-" && p.peekN(1).kind == tInt:
		a.Value = p.signedInt()
	case v.text == "[" || v.kind == tInt && p.peekN(1).text == ":":
		a.RIsLoc, a.R = true, p.condLoc()
	case v.kind == tIdent:
		p.advance()
		a.ValueName = v.text
	default:
		p.fail(v.off, "expected a value after '=' in the condition, found %s", describe(v))
	}
	return a
}

// condLoc := INT ':' NAME | NAME | '[' NAME ']'
func (p *parser) condLoc() Loc {
	tok := p.peek()
	switch {
	case tok.kind == tInt && p.peekN(1).text == ":":
		p.advance()
		p.advance()
		r := p.ident("a register name after ':'")
		if tok.val < 0 || tok.val > 1<<20 {
			p.fail(tok.off, "thread number %s is out of range", tok.text)
		}
		return Loc{Thread: int(tok.val), Name: p.regName(r.text)}
	case tok.text == "[":
		p.advance()
		n := p.ident("a location name inside [ ]")
		p.expect("]", "after the location name")
		return Loc{Thread: -1, Name: n.text}
	case tok.kind == tIdent:
		p.advance()
		if p.is("[") {
			p.fail(p.peek().off, "array elements are not supported in conditions")
		}
		return Loc{Thread: -1, Name: tok.text}
	}
	p.fail(tok.off, "expected a location (x, [x]) or a register (0:r0), found %s", describe(tok))
	return Loc{}
}

func (p *parser) signedInt() int64 {
	neg := p.accept("-")
	tok := p.peek()
	if tok.kind != tInt {
		p.fail(tok.off, "expected a number, found %s", describe(tok))
	}
	p.advance()
	if neg {
		return -tok.val
	}
	return tok.val
}
