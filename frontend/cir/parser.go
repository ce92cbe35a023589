package cir

import (
	"strings"

	"ncmc/frontend/diag"
)

// maxDepth bounds the nesting of blocks and expressions, so that hostile
// input cannot exhaust the stack.
const maxDepth = 400

// maxChain bounds the length of operator and postfix chains (a + b + ...,
// x.f.g..., a[i][j]...): they nest left in the tree, and the checker and
// lowering recurse over that nesting.
const maxChain = 10000

// maxSyntaxErrors stops parsing a hopeless input early.
const maxSyntaxErrors = 10 * diag.MaxErrors

// parser is a recursive-descent parser with error recovery: after a syntax
// error it skips to the next statement or declaration and keeps going. At
// most one syntax error is reported per source line.
type parser struct {
	file    string
	src     []byte
	errs    *diag.Collector
	lx      *lexer  // tokens are read as the parser needs them
	ahead   []token // tokens read by peek, not yet consumed
	p       int     // number of tokens consumed before tok
	tok     token   // current token
	prev    token   // the token before tok (tok itself at the start)
	prevEnd int     // end offset of the previous token
	depth   int
	nerr    int
	errLine int // line of the last syntax error
	stop    bool
}

// parse parses src; syntax errors go to errs. The tokens are read one at
// a time (only the lookahead is kept), so a large file does not hold all
// its tokens at once.
func parse(file string, src []byte, errs *diag.Collector) *File {
	p := &parser{file: file, src: src, errs: errs, lx: newLexer(file, src, errs)}
	p.tok = p.lx.next()
	p.prev = p.tok
	p.nerr = errs.Len()
	f := &File{Name: file}
	for p.tok.kind != tEOF && !p.stop {
		start := p.p
		if d := p.decl(); d != nil {
			f.Decls = append(f.Decls, d)
		}
		if p.p == start { // no progress: skip a token
			p.next()
		}
	}
	return f
}

// pull returns the next token after tok and the lookahead.
func (p *parser) pull() token {
	if len(p.ahead) > 0 {
		t := p.ahead[0]
		p.ahead = p.ahead[1:]
		return t
	}
	return p.lx.next() // at the end, the EOF token again
}

func (p *parser) next() {
	if p.tok.kind != tEOF {
		p.prevEnd = p.tok.end
		p.prev = p.tok
		p.p++
		p.tok = p.pull()
	}
}

func (p *parser) peek(k int) token {
	if k == 0 {
		return p.tok
	}
	for len(p.ahead) < k {
		if n := len(p.ahead); (n > 0 && p.ahead[n-1].kind == tEOF) || (n == 0 && p.tok.kind == tEOF) {
			break
		}
		p.ahead = append(p.ahead, p.lx.next())
	}
	if k <= len(p.ahead) {
		return p.ahead[k-1]
	}
	if n := len(p.ahead); n > 0 {
		return p.ahead[n-1]
	}
	return p.tok
}

func (p *parser) errorAt(pos srcPos, format string, args ...any) {
	if int(pos.line) == p.errLine {
		return
	}
	p.errLine = int(pos.line)
	p.errs.Errorf(pos.in(p.file), format, args...)
	p.nerr++
	if p.nerr > maxSyntaxErrors {
		// Give up: skip to the end (the lexer still reports its errors).
		p.stop = true
		for p.tok.kind != tEOF {
			p.next()
		}
	}
}

func (p *parser) errorExpected(what string) {
	p.errorAt(p.tok.pos, "expected %s, found %s", what, p.tok.describe())
}

// got consumes the current token if it has kind k.
func (p *parser) got(k tokKind) bool {
	if p.tok.kind == k {
		p.next()
		return true
	}
	return false
}

// expect consumes a token of kind k or reports an error (without consuming).
func (p *parser) expect(k tokKind) srcPos {
	pos := p.tok.pos
	if !p.got(k) {
		p.errorExpected("'" + k.String() + "'")
	}
	return pos
}

func (p *parser) ident() *Ident {
	t := p.tok
	if t.kind != tIdent {
		if t.kind.isKeyword() {
			p.errorAt(t.pos, "expected identifier, found keyword %s (keywords are reserved)", t.kind)
		} else {
			p.errorExpected("identifier")
		}
		return &Ident{Pos: t.pos, Name: "_"}
	}
	p.next()
	return &Ident{Pos: t.pos, Name: t.lit}
}

func isDeclStart(k tokKind) bool {
	switch k {
	case kwGlobal, kwRecord, kwObject, kwFn, kwLinearizable, kwAbstraction:
		return true
	}
	return false
}

// syncDecl skips to the start of the next top-level declaration.
func (p *parser) syncDecl() {
	for p.tok.kind != tEOF && !isDeclStart(p.tok.kind) &&
		!(p.tok.kind == kwAtomic && p.peek(1).kind == kwGlobal) {
		p.next()
	}
}

// syncStmt skips to the end of the current statement: past the next ';' or
// to the next '}' at the same brace depth, or to a declaration keyword.
func (p *parser) syncStmt() {
	depth := 0
	for {
		switch p.tok.kind {
		case tEOF:
			return
		case tLBrace:
			depth++
		case tRBrace:
			if depth == 0 {
				return
			}
			depth--
		case tSemi:
			if depth == 0 {
				p.next()
				return
			}
		default:
			if isDeclStart(p.tok.kind) {
				return
			}
		}
		p.next()
	}
}

// ---- declarations ----

func (p *parser) decl() Decl {
	switch p.tok.kind {
	case kwGlobal:
		return p.globalDecl(false, p.tok.pos)
	case kwAtomic:
		pos := p.tok.pos
		p.next()
		if p.tok.kind != kwGlobal {
			p.errorExpected("'global' after 'atomic' (atomic blocks belong inside functions)")
			p.syncDecl()
			return nil
		}
		return p.globalDecl(true, pos)
	case kwRecord, kwObject:
		return p.recordDecl()
	case kwFn, kwLinearizable, kwAbstraction:
		return p.funcDecl(nil)
	}
	p.errorExpected("declaration (global, record, object or fn)")
	p.next()
	p.syncDecl()
	return nil
}

func (p *parser) globalDecl(atomic bool, pos srcPos) Decl {
	p.expect(kwGlobal)
	d := &GlobalDecl{Pos: pos, Atomic: atomic}
	d.Name = p.ident()
	p.expect(tColon)
	d.Type = p.typ()
	if p.got(tAssign) {
		if p.tok.kind == tLBrace {
			l := &InitList{Pos: p.tok.pos}
			p.next()
			for p.tok.kind != tRBrace && p.tok.kind != tEOF && p.tok.kind != tSemi {
				l.Elems = append(l.Elems, p.expr())
				if !p.got(tComma) {
					break
				}
			}
			p.expect(tRBrace)
			d.Init = l
		} else {
			d.Init = p.expr()
		}
	}
	if p.tok.kind != tSemi {
		p.errorExpected("';' after global declaration")
		p.syncDecl()
		return d
	}
	p.next()
	return d
}

func (p *parser) recordDecl() Decl {
	d := &RecordDecl{Pos: p.tok.pos, IsObject: p.tok.kind == kwObject}
	p.next()
	d.Name = p.ident()
	if p.tok.kind != tLBrace {
		p.errorExpected("'{'")
		p.syncDecl()
		return d
	}
	p.next()
	for p.tok.kind != tRBrace && p.tok.kind != tEOF && !p.stop {
		start := p.p
		switch {
		case p.tok.kind == kwFn || p.tok.kind == kwLinearizable || p.tok.kind == kwAbstraction:
			if !d.IsObject {
				p.errorAt(p.tok.pos, "records cannot have methods (declare an object instead)")
			}
			m := p.funcDecl(d)
			if d.IsObject {
				d.Methods = append(d.Methods, m)
			}
		case p.tok.kind == tIdent || p.tok.kind == kwAtomic:
			f := &FieldDecl{Pos: p.tok.pos}
			if p.got(kwAtomic) {
				f.Atomic = true
			}
			f.Name = p.ident()
			p.expect(tColon)
			f.Type = p.typ()
			if !p.got(tSemi) {
				p.errorExpected("';' after field")
				p.syncStmt()
			}
			d.Fields = append(d.Fields, f)
		case p.tok.kind == kwGlobal || p.tok.kind == kwRecord || p.tok.kind == kwObject:
			p.errorExpected("'}'")
			return d
		default:
			what := "field or method"
			if !d.IsObject {
				what = "field"
			}
			p.errorExpected(what)
			p.syncStmt()
		}
		if p.p == start {
			p.next()
		}
	}
	p.expect(tRBrace)
	return d
}

func (p *parser) funcDecl(recv *RecordDecl) *FuncDecl {
	d := &FuncDecl{Pos: p.tok.pos, Recv: recv}
	switch p.tok.kind {
	case kwLinearizable:
		d.Kind, d.KindPos = FnLinearizable, p.tok.pos
		p.next()
	case kwAbstraction:
		d.Kind, d.KindPos = FnAbstraction, p.tok.pos
		p.next()
	}
	p.expect(kwFn)
	d.Name = p.ident()
	if p.expect(tLParen); true {
		for p.tok.kind != tRParen && p.tok.kind != tEOF && p.tok.kind != tLBrace {
			start := p.p
			pr := &Param{Pos: p.tok.pos}
			pr.Name = p.ident()
			p.expect(tColon)
			pr.Type = p.typ()
			d.Params = append(d.Params, pr)
			if !p.got(tComma) {
				break
			}
			if p.p == start {
				break
			}
		}
		p.expect(tRParen)
	}
	if p.tok.kind == tMinus && p.peek(1).kind == tGt {
		p.errorAt(p.tok.pos, "result types are written fn f(): T, not ->")
		p.next()
		p.next()
	}
	if p.got(tColon) || p.prev.kind == tGt {
		d.Result = p.typ()
	}
	if p.tok.kind != tLBrace {
		p.errorExpected("'{' to start the function body")
		// Skip a bad signature up to the body, if there is one nearby.
		for p.tok.kind != tLBrace && p.tok.kind != tEOF && !isDeclStart(p.tok.kind) {
			p.next()
		}
		if p.tok.kind != tLBrace {
			d.Body = &Block{Pos: p.tok.pos, End: p.tok.pos}
			return d
		}
	}
	d.Body = p.block()
	return d
}

// ---- types ----

func (p *parser) typ() TypeExpr {
	var t TypeExpr
	pos := p.tok.pos
	switch p.tok.kind {
	case kwInt, kwBool, kwMutex, kwCond, kwThread:
		t = &NamedType{Pos: pos, Name: p.tok.kind.String()}
		p.next()
	case tIdent:
		t = &NamedType{Pos: pos, Name: p.tok.lit}
		p.next()
	case tStar:
		p.next()
		if p.depth > maxDepth {
			p.errorAt(pos, "type nested too deeply")
			return &NamedType{Pos: pos, Name: "int"}
		}
		p.depth++
		elem := p.typ()
		p.depth--
		// `*Node[4]` is an array of pointers: the suffix binds to the whole type.
		if at, ok := elem.(*ArrayType); ok {
			at.Elem = &PtrType{Pos: pos, Elem: at.Elem}
			at.Pos = pos
			return at
		}
		return &PtrType{Pos: pos, Elem: elem}
	default:
		p.errorExpected("type")
		return &NamedType{Pos: pos, Name: "int"}
	}
	for p.tok.kind == tLBrack {
		p.next()
		n := p.expr()
		p.expect(tRBrack)
		t = &ArrayType{Pos: pos, Elem: t, Len: n}
	}
	return t
}

// ---- statements ----

func (p *parser) block() *Block {
	b := &Block{Pos: p.tok.pos}
	p.expect(tLBrace)
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		p.errorAt(b.Pos, "blocks nested too deeply")
		p.syncStmt()
		b.End = p.tok.pos
		p.got(tRBrace)
		return b
	}
	for p.tok.kind != tRBrace && p.tok.kind != tEOF && !p.stop {
		if isDeclStart(p.tok.kind) {
			break // a missing '}': let the declaration parse
		}
		start := p.p
		if s := p.stmt(); s != nil {
			b.Stmts = append(b.Stmts, s)
		}
		if p.p == start {
			p.next()
		}
	}
	b.End = p.tok.pos
	p.expect(tRBrace)
	return b
}

func (p *parser) semi(what string) {
	if !p.got(tSemi) {
		p.errorExpected("';' after " + what)
		p.syncStmt()
	}
}

func (p *parser) stmt() Stmt {
	pos := p.tok.pos
	switch p.tok.kind {
	case tSemi:
		p.next() // empty statement
		return nil
	case tLBrace:
		return p.block()
	case kwLet:
		s := p.letStmt()
		p.semi("let statement")
		return s
	case kwIf:
		return p.ifStmt()
	case kwWhile:
		p.next()
		s := &WhileStmt{Pos: pos}
		s.Cond = p.parenExpr("while")
		s.Unroll = p.unroll()
		s.Body = p.block()
		return s
	case kwFor:
		return p.forStmt()
	case kwBreak, kwContinue:
		s := &BranchStmt{Pos: pos, Break: p.tok.kind == kwBreak}
		p.next()
		p.semi(p.prev.kind.String())
		return s
	case kwReturn:
		p.next()
		s := &ReturnStmt{Pos: pos}
		if p.tok.kind != tSemi && p.tok.kind != tRBrace {
			s.Result = p.expr()
		}
		p.semi("return statement")
		return s
	case kwAwait:
		p.next()
		s := &AwaitStmt{Pos: pos, Cond: p.parenExpr("await")}
		p.semi("await")
		return s
	case kwAssume:
		p.next()
		s := &AssumeStmt{Pos: pos, Cond: p.parenExpr("assume")}
		p.semi("assume")
		return s
	case kwAssert:
		p.next()
		s := &AssertStmt{Pos: pos}
		p.expect(tLParen)
		start := p.tok.off
		s.Cond = p.expr()
		s.Msg = sourceText(p.src, start, p.prevEnd)
		if p.got(tComma) {
			if p.tok.kind == tString {
				s.Msg = p.tok.lit
				p.next()
			} else {
				p.errorExpected("assertion message (a string literal)")
			}
		}
		p.expect(tRParen)
		p.semi("assert")
		return s
	case kwAtomic:
		p.next()
		if p.tok.kind != tLBrace {
			p.errorExpected("'{' after 'atomic' (atomic globals are declared at top level)")
			p.syncStmt()
			return nil
		}
		return &AtomicStmt{Pos: pos, Body: p.block()}
	case kwElse:
		p.errorAt(pos, "else without a matching if")
		p.next()
		if p.tok.kind == tLBrace {
			p.block()
		}
		return nil
	}
	s := p.simpleStmt()
	if s != nil {
		p.semi("statement")
	}
	return s
}

// sourceText returns src[start:end] with runs of white space collapsed.
func sourceText(src []byte, start, end int) string {
	if start < 0 || end > len(src) || start >= end {
		return ""
	}
	return strings.Join(strings.Fields(string(src[start:end])), " ")
}

// simpleStmt parses an assignment or expression statement (without ';').
func (p *parser) simpleStmt() Stmt {
	pos := p.tok.pos
	if !p.startsExpr() {
		p.errorExpected("statement")
		p.syncStmt()
		return nil
	}
	x := p.expr()
	if p.tok.kind == tAssign {
		p.next()
		return &AssignStmt{Pos: pos, LHS: x, RHS: p.expr()}
	}
	return &ExprStmt{Pos: pos, X: x}
}

func (p *parser) startsExpr() bool {
	switch p.tok.kind {
	case tIdent, tInt, tLParen, tMinus, tBang, tTilde, kwTrue, kwFalse, kwNull, kwThis, kwSpawn, kwNew:
		return true
	}
	return p.tok.kind.isBuiltin()
}

func (p *parser) letStmt() *LetStmt {
	s := &LetStmt{Pos: p.tok.pos}
	p.expect(kwLet)
	s.Name = p.ident()
	if p.got(tColon) {
		s.Type = p.typ()
	}
	if p.got(tAssign) {
		s.Init = p.expr()
	}
	return s
}

func (p *parser) parenExpr(what string) Expr {
	if p.tok.kind != tLParen {
		p.errorAt(p.tok.pos, "expected '(' after %s, found %s (conditions are parenthesized)", what, p.tok.describe())
	} else {
		p.next()
	}
	x := p.expr()
	if p.tok.kind != tRParen {
		if p.tok.kind == tAssign {
			p.errorAt(p.tok.pos, "expected ')', found '=' (use == to compare)")
		} else {
			p.errorExpected("')'")
		}
		// Skip the rest of the condition, up to its ')' or the block.
		for depth := 0; p.tok.kind != tEOF && p.tok.kind != tLBrace && p.tok.kind != tSemi && p.tok.kind != tRBrace; p.next() {
			if p.tok.kind == tLParen {
				depth++
			} else if p.tok.kind == tRParen {
				if depth == 0 {
					break
				}
				depth--
			}
		}
	}
	p.got(tRParen)
	return x
}

func (p *parser) ifStmt() Stmt {
	s := &IfStmt{Pos: p.tok.pos}
	p.expect(kwIf)
	s.Cond = p.parenExpr("if")
	s.Then = p.block()
	if p.got(kwElse) {
		switch p.tok.kind {
		case kwIf:
			p.depth++
			if p.depth > maxDepth {
				p.errorAt(p.tok.pos, "else-if chain nested too deeply")
				p.syncStmt()
			} else {
				s.Else = p.ifStmt()
			}
			p.depth--
		case tLBrace:
			s.Else = p.block()
		default:
			p.errorExpected("'if' or '{' after 'else'")
		}
	}
	return s
}

func (p *parser) unroll() *Unroll {
	if p.tok.kind != tAt {
		return nil
	}
	u := &Unroll{Pos: p.tok.pos}
	p.next()
	if p.tok.kind != tIdent || p.tok.lit != "unroll" {
		p.errorAt(p.tok.pos, "unknown annotation: expected @unroll(N), found %s", p.tok.describe())
		return nil
	}
	p.next()
	p.expect(tLParen)
	u.N = p.expr()
	p.expect(tRParen)
	return u
}

func (p *parser) forStmt() Stmt {
	pos := p.tok.pos
	p.expect(kwFor)
	if p.tok.kind == tIdent && p.peek(1).kind == kwIn {
		s := &RangeStmt{Pos: pos}
		s.Var = p.ident()
		p.expect(kwIn)
		s.Lo = p.expr()
		p.expect(tDotDot)
		s.Hi = p.expr()
		s.Unroll = p.unroll()
		s.Body = p.block()
		return s
	}
	if p.tok.kind != tLParen {
		p.errorExpected("'(' or a range clause `i in lo..hi` after 'for'")
		p.syncStmt()
		return nil
	}
	p.next()
	s := &ForStmt{Pos: pos}
	if p.tok.kind != tSemi {
		if p.tok.kind == kwLet {
			s.Init = p.letStmt()
		} else {
			s.Init = p.simpleStmt()
		}
	}
	p.expect(tSemi)
	if p.tok.kind != tSemi {
		s.Cond = p.expr()
	}
	p.expect(tSemi)
	switch p.tok.kind {
	case tRParen:
	case kwLet:
		s.Post = p.letStmt() // rejected by the checker with a clear message
	default:
		s.Post = p.simpleStmt()
	}
	p.expect(tRParen)
	s.Unroll = p.unroll()
	s.Body = p.block()
	return s
}

// ---- expressions ----

// binary operator precedences (higher binds tighter); 0: not a binary operator.
func precedence(k tokKind) int {
	switch k {
	case tOrOr:
		return 1
	case tAndAnd:
		return 2
	case tEq, tNe:
		return 3
	case tLt, tLe, tGt, tGe:
		return 4
	case tPipe:
		return 5
	case tCaret:
		return 6
	case tAmp:
		return 7
	case tShl, tShr:
		return 8
	case tPlus, tMinus:
		return 9
	case tStar, tSlash, tPercent:
		return 10
	}
	return 0
}

func (p *parser) expr() Expr { return p.binary(1) }

func (p *parser) binary(prec int) Expr {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		p.errorAt(p.tok.pos, "expression nested too deeply")
		return &IntLit{Pos: p.tok.pos}
	}
	x := p.unary()
	for n := 0; ; n++ {
		op := p.tok
		q := precedence(op.kind)
		if q < prec {
			return x
		}
		if n >= maxChain {
			p.errorAt(op.pos, "expression too long (more than %d operators in a row)", maxChain)
			return x
		}
		p.next()
		y := p.binary(q + 1)
		x = &BinaryExpr{X: x, Op: op.kind, OpPos: op.pos, Y: y}
	}
}

func (p *parser) unary() Expr {
	switch p.tok.kind {
	case tBang, tMinus, tTilde:
		pos, op := p.tok.pos, p.tok.kind
		p.next()
		p.depth++
		defer func() { p.depth-- }()
		if p.depth > maxDepth {
			p.errorAt(pos, "expression nested too deeply")
			return &IntLit{Pos: pos}
		}
		return &UnaryExpr{Pos: pos, Op: op, X: p.unary()}
	case kwSpawn:
		pos := p.tok.pos
		p.next()
		x := p.postfix()
		call, ok := x.(*CallExpr)
		if !ok {
			p.errorAt(x.exprPos(), "spawn needs a function call, as in spawn f(args)")
			call = &CallExpr{Fun: &Ident{Pos: pos, Name: "_"}, LParen: pos}
		}
		return &SpawnExpr{Pos: pos, Call: call}
	}
	return p.postfix()
}

func (p *parser) postfix() Expr {
	x := p.primary()
	for n := 0; ; n++ {
		if n >= maxChain && (p.tok.kind == tLParen || p.tok.kind == tLBrack || p.tok.kind == tDot) {
			p.errorAt(p.tok.pos, "expression too long (more than %d calls, indexes or fields in a row)", maxChain)
			return x
		}
		switch p.tok.kind {
		case tLParen:
			c := &CallExpr{Fun: x, LParen: p.tok.pos}
			p.next()
			c.Args = p.args()
			x = c
		case tLBrack:
			lpos := p.tok.pos
			p.next()
			i := p.expr()
			p.expect(tRBrack)
			x = &IndexExpr{X: x, Index: i, LPos: lpos}
		case tDot:
			p.next()
			x = &FieldExpr{X: x, Name: p.ident()}
		default:
			return x
		}
	}
}

// args parses a parenthesized argument list after its '('.
func (p *parser) args() []Expr {
	var args []Expr
	for p.tok.kind != tRParen && p.tok.kind != tEOF && p.tok.kind != tSemi {
		start := p.p
		args = append(args, p.expr())
		if !p.got(tComma) || p.p == start {
			break
		}
	}
	p.expect(tRParen)
	return args
}

func (p *parser) primary() Expr {
	t := p.tok
	switch t.kind {
	case tIdent:
		p.next()
		return &Ident{Pos: t.pos, Name: t.lit}
	case tInt:
		p.next()
		return &IntLit{Pos: t.pos, Val: t.val, Text: t.lit}
	case kwTrue, kwFalse:
		p.next()
		return &BoolLit{Pos: t.pos, Val: t.kind == kwTrue}
	case kwNull:
		p.next()
		return &NullLit{Pos: t.pos}
	case kwThis:
		p.next()
		return &ThisExpr{Pos: t.pos}
	case tLParen:
		p.next()
		x := p.expr()
		p.expect(tRParen)
		return &ParenExpr{Pos: t.pos, X: x}
	case kwNew:
		p.next()
		n := &NewExpr{Pos: t.pos}
		n.Type = p.ident()
		if p.tok.kind != tLBrace {
			p.errorExpected("'{' after new " + n.Type.Name + " (write new R { f: v, ... })")
			return n
		}
		p.next()
		for p.tok.kind != tRBrace && p.tok.kind != tEOF && p.tok.kind != tSemi {
			start := p.p
			fi := &FieldInit{Pos: p.tok.pos}
			fi.Name = p.ident()
			p.expect(tColon)
			fi.Value = p.expr()
			n.Inits = append(n.Inits, fi)
			if !p.got(tComma) || p.p == start {
				break
			}
		}
		p.expect(tRBrace)
		return n
	}
	if t.kind.isBuiltin() {
		p.next()
		b := &BuiltinCall{Pos: t.pos, Op: t.kind}
		if p.tok.kind != tLParen {
			p.errorAt(p.tok.pos, "expected '(' after %s, found %s (%s is a builtin function)", t.kind, p.tok.describe(), t.kind)
			return b
		}
		p.next()
		b.Args = p.args()
		return b
	}
	if t.kind == tString {
		p.errorAt(t.pos, "unexpected string literal (strings are only allowed as assertion messages)")
		p.next()
		return &IntLit{Pos: t.pos}
	}
	prev := p.prev
	adjacent := p.p > 0 && prev.end == t.off
	switch {
	case t.kind.isKeyword():
		p.errorAt(t.pos, "expected expression, found keyword %s", t.kind)
	case adjacent && (t.kind == tPlus || t.kind == tMinus) && prev.kind == t.kind:
		p.errorAt(prev.pos, "there is no %s%s operator (write x = x %s 1)", t.kind, t.kind, t.kind)
	case adjacent && t.kind == tGt && prev.kind == tMinus:
		p.errorAt(prev.pos, "there is no -> operator (fields of pointers are accessed with '.': p.f)")
	default:
		p.errorExpected("expression")
	}
	return &IntLit{Pos: t.pos}
}
