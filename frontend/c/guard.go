package c

import (
	"ncmc/frontend/diag"
	"ncmc/ir"
)

// MaxNesting is the deepest nesting of brackets ((), [] and {} together)
// a C source file may have. The C parser (modernc.org/cc/v4) recurses
// through some twenty grammar levels per bracket, so deeper nesting can
// exhaust the goroutine stack, which is a fatal error, not a panic; the
// source is therefore checked before it is handed over. Compilers have
// such limits too (clang's -fbracket-depth is 256 by default); the C
// standard asks for at least 63 nested parentheses.
const MaxNesting = 1000

// checkNesting reports the first bracket of src nested more than
// MaxNesting deep, as a positioned error; comments, string and character
// literals are skipped. Brackets produced by macro expansion or in
// included files are not seen.
func checkNesting(filename string, src []byte) error {
	depth := 0
	line, i := 1, 0
	adv := func() {
		if src[i] == '\n' {
			line++
		}
		i++
	}
	for i < len(src) {
		c := src[i]
		switch {
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				if src[i] == '\\' && i+1 < len(src) && src[i+1] == '\n' {
					adv() // a continued line comment
				}
				adv()
			}
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			adv()
			adv()
			for i < len(src) && !(src[i] == '*' && i+1 < len(src) && src[i+1] == '/') {
				adv()
			}
			if i < len(src) {
				adv()
				adv()
			}
			continue
		case c == '"' || c == '\'':
			adv()
			for i < len(src) && src[i] != c && src[i] != '\n' {
				if src[i] == '\\' && i+1 < len(src) {
					adv()
				}
				adv()
			}
			if i < len(src) && src[i] == c {
				adv()
			}
			continue
		case c == '(' || c == '[' || c == '{':
			depth++
			if depth > MaxNesting {
				errs := diag.NewCollector(filename, src)
				errs.Errorf(ir.Pos{File: filename, Line: line, Col: colAt(src, i)}, "brackets nested more than %d deep (the C front end's limit)", MaxNesting)
				return errs.Errors()
			}
		case c == ')' || c == ']' || c == '}':
			if depth > 0 {
				depth--
			}
		}
		adv()
	}
	return nil
}

// colAt is the 1-based byte column of offset i of src.
func colAt(src []byte, i int) int {
	j := i
	for j > 0 && src[j-1] != '\n' {
		j--
	}
	return i - j + 1
}
