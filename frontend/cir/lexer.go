package cir

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"ncmc/frontend/diag"
)

// lexer turns CIR source into tokens. Lexical errors are reported to errs and
// the offending characters skipped, so lexing always reaches the end.
type lexer struct {
	file string
	src  []byte
	errs *diag.Collector

	off       int // current byte offset
	line, col int // position of off
	// names holds one copy of each identifier's text, shared by all its
	// tokens (and the AST's names).
	names map[string]string
}

// newLexer returns a lexer at the start of src.
func newLexer(file string, src []byte, errs *diag.Collector) *lexer {
	return &lexer{file: file, src: src, errs: errs, line: 1, col: 1, names: map[string]string{}}
}

// tokenize returns all tokens of src, ending with one tEOF token.
func tokenize(file string, src []byte, errs *diag.Collector) []token {
	lx := newLexer(file, src, errs)
	var toks []token
	for {
		t := lx.next()
		toks = append(toks, t)
		if t.kind == tEOF {
			return toks
		}
	}
}

func (lx *lexer) pos() srcPos { return mkPos(lx.line, lx.col) }

// advance moves past n bytes (which must not span a newline unless it is the
// last one).
func (lx *lexer) advance(n int) {
	for i := 0; i < n && lx.off < len(lx.src); i++ {
		if lx.src[lx.off] == '\n' {
			lx.line++
			lx.col = 1
		} else {
			lx.col++
		}
		lx.off++
	}
}

func (lx *lexer) peek(k int) byte {
	if lx.off+k < len(lx.src) {
		return lx.src[lx.off+k]
	}
	return 0
}

func isLetter(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isHex(c byte) bool    { return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// skipSpace skips white space and comments.
func (lx *lexer) skipSpace() {
	for lx.off < len(lx.src) {
		c := lx.src[lx.off]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			lx.advance(1)
		case c == '/' && lx.peek(1) == '/':
			for lx.off < len(lx.src) && lx.src[lx.off] != '\n' {
				lx.advance(1)
			}
		case c == '/' && lx.peek(1) == '*':
			start := lx.pos()
			lx.advance(2)
			closed := false
			for lx.off < len(lx.src) {
				if lx.src[lx.off] == '*' && lx.peek(1) == '/' {
					lx.advance(2)
					closed = true
					break
				}
				lx.advance(1)
			}
			if !closed {
				lx.errs.Errorf(start.in(lx.file), "comment not terminated")
			}
		default:
			return
		}
	}
}

// twoChar maps two-character operators to their kinds.
var twoChar = map[string]tokKind{
	"..": tDotDot, "<<": tShl, ">>": tShr, "&&": tAndAnd, "||": tOrOr,
	"==": tEq, "!=": tNe, "<=": tLe, ">=": tGe,
}

var oneChar = map[byte]tokKind{
	'(': tLParen, ')': tRParen, '{': tLBrace, '}': tRBrace, '[': tLBrack, ']': tRBrack,
	',': tComma, ';': tSemi, ':': tColon, '.': tDot, '@': tAt, '=': tAssign,
	'+': tPlus, '-': tMinus, '*': tStar, '/': tSlash, '%': tPercent, '&': tAmp,
	'|': tPipe, '^': tCaret, '~': tTilde, '!': tBang, '<': tLt, '>': tGt,
}

// next returns the next token.
func (lx *lexer) next() token {
	for {
		lx.skipSpace()
		t := token{pos: lx.pos(), off: lx.off}
		if lx.off >= len(lx.src) {
			t.kind = tEOF
			t.end = lx.off
			return t
		}
		c := lx.src[lx.off]
		switch {
		case isLetter(c):
			n := 0
			for lx.off+n < len(lx.src) && (isLetter(lx.src[lx.off+n]) || isDigit(lx.src[lx.off+n])) {
				n++
			}
			name, ok := lx.names[string(lx.src[lx.off:lx.off+n])]
			if !ok {
				name = string(lx.src[lx.off : lx.off+n])
				lx.names[name] = name
			}
			t.lit = name
			t.kind = tIdent
			if k, ok := keywords[t.lit]; ok {
				t.kind = k
			}
			lx.advance(n)
		case isDigit(c):
			lx.number(&t)
		case c == '"':
			lx.str(&t)
		default:
			if k, ok := twoChar[string(lx.src[lx.off:min(lx.off+2, len(lx.src))])]; ok {
				t.kind = k
				lx.advance(2)
				break
			}
			if k, ok := oneChar[c]; ok {
				t.kind = k
				lx.advance(1)
				break
			}
			r, size := utf8.DecodeRune(lx.src[lx.off:])
			switch {
			case r == utf8.RuneError && size <= 1:
				lx.errs.Errorf(t.pos.in(lx.file), "invalid UTF-8 encoding")
			case r == '\'':
				lx.errs.Errorf(t.pos.in(lx.file), "illegal character '\\'' (character literals are not supported)")
			case r < 0x20 || r == 0x7f:
				lx.errs.Errorf(t.pos.in(lx.file), "illegal character %U", r)
			default:
				lx.errs.Errorf(t.pos.in(lx.file), "illegal character %q", r)
			}
			lx.advance(max(size, 1))
			continue
		}
		t.end = lx.off
		return t
	}
}

// number lexes a decimal or hexadecimal integer literal.
func (lx *lexer) number(t *token) {
	t.kind = tInt
	n := 0
	for lx.off+n < len(lx.src) && (isLetter(lx.src[lx.off+n]) || isDigit(lx.src[lx.off+n])) {
		n++
	}
	text := string(lx.src[lx.off : lx.off+n])
	t.lit = text
	pos := t.pos
	lx.advance(n)
	digits, base := text, uint64(10)
	if len(text) >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X') {
		digits, base = text[2:], 16
		if digits == "" {
			lx.errs.Errorf(pos.in(lx.file), "hexadecimal literal %s has no digits", text)
			return
		}
	} else if len(text) > 1 && text[0] == '0' && isDigit(text[1]) && strings.Trim(text, "0123456789") == "" {
		lx.errs.Errorf(pos.in(lx.file), "invalid integer literal %s: leading zeros are not allowed (there are no octal literals)", text)
		return
	}
	var v uint64
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		var d uint64
		switch {
		case isDigit(c):
			d = uint64(c - '0')
		case base == 16 && isHex(c):
			d = uint64(c|0x20-'a') + 10
		default:
			lx.errs.Errorf(pos.in(lx.file), "invalid character %q in integer literal %s", c, text)
			return
		}
		if v > (^uint64(0)-d)/base {
			lx.errs.Errorf(pos.in(lx.file), "integer literal %s is too large", text)
			return
		}
		v = v*base + d
	}
	t.val = v
}

// str lexes a string literal (only used for assertion messages).
func (lx *lexer) str(t *token) {
	t.kind = tString
	start := t.pos
	lx.advance(1)
	var b strings.Builder
	for {
		if lx.off >= len(lx.src) || lx.src[lx.off] == '\n' {
			lx.errs.Errorf(start.in(lx.file), "string literal not terminated")
			t.lit = b.String()
			return
		}
		c := lx.src[lx.off]
		switch c {
		case '"':
			lx.advance(1)
			t.lit = b.String()
			return
		case '\\':
			escPos := lx.pos()
			switch lx.peek(1) {
			case '\\':
				b.WriteByte('\\')
			case '"':
				b.WriteByte('"')
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				if lx.peek(1) == '\n' || lx.off+1 >= len(lx.src) {
					lx.advance(1)
					continue
				}
				lx.errs.Errorf(escPos.in(lx.file), "unknown escape sequence \\%c in string literal (use \\\\, \\\", \\n or \\t)", lx.peek(1))
			}
			lx.advance(2)
		default:
			b.WriteByte(c)
			lx.advance(1)
		}
	}
}

// tokenString renders a token for debugging and the lexer fuzz test.
func tokenString(t token) string {
	switch t.kind {
	case tIdent, tInt:
		return fmt.Sprintf("%s %s", t.kind, t.lit)
	case tString:
		return fmt.Sprintf("string %q", t.lit)
	}
	return t.kind.String()
}
