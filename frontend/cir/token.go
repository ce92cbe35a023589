package cir

import (
	"fmt"
)

// tokKind is the kind of a lexical token.
type tokKind uint8

const (
	tEOF tokKind = iota
	tIdent
	tInt
	tString

	// Operators and punctuation.
	tLParen   // (
	tRParen   // )
	tLBrace   // {
	tRBrace   // }
	tLBrack   // [
	tRBrack   // ]
	tComma    // ,
	tSemi     // ;
	tColon    // :
	tDot      // .
	tDotDot   // ..
	tAt       // @
	tAssign   // =
	tPlus     // +
	tMinus    // -
	tStar     // *
	tSlash    // /
	tPercent  // %
	tAmp      // &
	tPipe     // |
	tCaret    // ^
	tTilde    // ~
	tBang     // !
	tShl      // <<
	tShr      // >>
	tAndAnd   // &&
	tOrOr     // ||
	tEq       // ==
	tNe       // !=
	tLt       // <
	tLe       // <=
	tGt       // >
	tGe       // >=
	tKeywords // marker: the kinds below are keywords

	// Declarations.
	kwGlobal
	kwAtomic
	kwRecord
	kwObject
	kwFn
	kwLinearizable
	kwAbstraction
	// Statements.
	kwLet
	kwIf
	kwElse
	kwWhile
	kwFor
	kwIn
	kwBreak
	kwContinue
	kwReturn
	kwAwait
	kwAssert
	kwAssume
	kwSpawn
	kwNew
	kwThis
	kwTrue
	kwFalse
	kwNull
	// Types.
	kwInt
	kwBool
	kwMutex
	kwCond
	kwThread
	// Builtin functions (a keyword followed by an argument list).
	kwLock
	kwUnlock
	kwTrylock
	kwWait
	kwSignal
	kwBroadcast
	kwFence
	kwJoin
	kwLoad
	kwStore
	kwFetchAdd
	kwFetchSub
	kwFetchAnd
	kwFetchOr
	kwFetchXor
	kwExchange
	kwCas
	kwNondet
	kwNondetBool
	kwTid
	tNumKinds
)

var tokNames = [...]string{
	tEOF: "end of file", tIdent: "identifier", tInt: "integer literal", tString: "string literal",
	tLParen: "(", tRParen: ")", tLBrace: "{", tRBrace: "}", tLBrack: "[", tRBrack: "]",
	tComma: ",", tSemi: ";", tColon: ":", tDot: ".", tDotDot: "..", tAt: "@", tAssign: "=",
	tPlus: "+", tMinus: "-", tStar: "*", tSlash: "/", tPercent: "%", tAmp: "&", tPipe: "|",
	tCaret: "^", tTilde: "~", tBang: "!", tShl: "<<", tShr: ">>", tAndAnd: "&&", tOrOr: "||",
	tEq: "==", tNe: "!=", tLt: "<", tLe: "<=", tGt: ">", tGe: ">=", tKeywords: "?",
	kwGlobal: "global", kwAtomic: "atomic", kwRecord: "record", kwObject: "object", kwFn: "fn",
	kwLinearizable: "linearizable", kwAbstraction: "abstraction",
	kwLet: "let", kwIf: "if", kwElse: "else", kwWhile: "while", kwFor: "for", kwIn: "in",
	kwBreak: "break", kwContinue: "continue", kwReturn: "return", kwAwait: "await",
	kwAssert: "assert", kwAssume: "assume", kwSpawn: "spawn", kwNew: "new", kwThis: "this",
	kwTrue: "true", kwFalse: "false", kwNull: "null",
	kwInt: "int", kwBool: "bool", kwMutex: "mutex", kwCond: "cond", kwThread: "thread",
	kwLock: "lock", kwUnlock: "unlock", kwTrylock: "trylock", kwWait: "wait", kwSignal: "signal",
	kwBroadcast: "broadcast", kwFence: "fence", kwJoin: "join", kwLoad: "load", kwStore: "store",
	kwFetchAdd: "fetch_add", kwFetchSub: "fetch_sub", kwFetchAnd: "fetch_and", kwFetchOr: "fetch_or",
	kwFetchXor: "fetch_xor", kwExchange: "exchange", kwCas: "cas", kwNondet: "nondet",
	kwNondetBool: "nondet_bool", kwTid: "tid",
}

// String is the source spelling of k (or a description for literals).
func (k tokKind) String() string {
	if int(k) < len(tokNames) && tokNames[k] != "" {
		return tokNames[k]
	}
	return fmt.Sprintf("token(%d)", k)
}

// isKeyword reports whether k is a reserved word.
func (k tokKind) isKeyword() bool { return k > tKeywords && k < tNumKinds }

// isBuiltin reports whether k names a builtin function.
func (k tokKind) isBuiltin() bool { return k >= kwLock && k <= kwTid }

// keywords maps reserved words to their token kinds.
var keywords = func() map[string]tokKind {
	m := map[string]tokKind{}
	for k := tKeywords + 1; k < tNumKinds; k++ {
		m[tokNames[k]] = k
	}
	return m
}()

// token is one lexical token.
type token struct {
	kind tokKind
	lit  string // identifier name, literal text (strings: the unquoted value)
	val  uint64 // tInt: the value (0 if the literal was malformed; already reported)
	pos  srcPos
	off  int // byte offset of the first character
	end  int // byte offset after the last character
}

// describe renders t for "expected X, found Y" messages.
func (t token) describe() string {
	switch t.kind {
	case tIdent:
		return "identifier " + t.lit
	case tInt:
		return "integer " + t.lit
	case tString:
		return "string literal"
	case tEOF:
		return "end of file"
	}
	if t.kind.isKeyword() {
		return "keyword " + t.kind.String()
	}
	return "'" + t.kind.String() + "'"
}
