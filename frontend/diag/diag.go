// Package diag holds the positioned error lists shared by all ncmc front ends
// (CIR, litmus, C). Every error carries a source position and renders as
//
//	file:line:col: message
//	<the source line>
//	<a caret under the column>
//
// A front end collects errors with a Collector, which keeps going after the
// first error and returns them sorted by position, capped at MaxErrors.
package diag

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"ncmc/ir"
)

// MaxErrors is the number of errors a Collector reports before it stops with
// a final "too many errors" entry.
const MaxErrors = 20

// Error is one positioned front-end error.
type Error struct {
	Pos ir.Pos
	Msg string
	// Line is the text of source line Pos.Line (without its newline), used to
	// render the caret display; empty if unknown.
	Line string
}

// Error renders e as "file:line:col: message", followed by the source line
// and a caret line under the column when the source line is known.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Pos.String())
	b.WriteString(": ")
	b.WriteString(shorten(e.Msg))
	if e.Line != "" && e.Pos.Col > 0 {
		line, col := window(e.Line, e.Pos.Col)
		b.WriteByte('\n')
		b.WriteString(line)
		b.WriteByte('\n')
		b.WriteString(caret(line, col))
	}
	return b.String()
}

// MaxMsgWidth is the number of bytes of a message an error shows: a
// message quoting a long piece of the input (a garbage litmus header, a
// name of thousands of characters) is cut there and marked "...".
const MaxMsgWidth = 300

// shorten cuts msg to MaxMsgWidth bytes (at a UTF-8 character boundary)
// followed by "...", or returns it whole if it is short enough.
func shorten(msg string) string {
	if len(msg) <= MaxMsgWidth {
		return msg
	}
	cut := MaxMsgWidth
	for cut > 0 && !utf8.RuneStart(msg[cut]) {
		cut--
	}
	return msg[:cut] + "..."
}

// MaxLineWidth is the number of bytes of a source line an error shows: a
// longer line is cut to a window around the error's column, each cut end
// marked "...".
const MaxLineWidth = 160

// window returns the part of line shown under an error at byte column col
// (1-based) and the column in that part: the whole line if it is at most
// MaxLineWidth bytes long, else MaxLineWidth bytes around col (cut at
// UTF-8 character boundaries) with "..." at each cut end.
func window(line string, col int) (string, int) {
	if len(line) <= MaxLineWidth {
		return line, col
	}
	start := col - 1 - MaxLineWidth/2
	if start < 0 {
		start = 0
	}
	if start > len(line)-MaxLineWidth {
		start = len(line) - MaxLineWidth
	}
	end := start + MaxLineWidth
	for start > 0 && line[start]&0xC0 == 0x80 {
		start--
	}
	for end < len(line) && line[end]&0xC0 == 0x80 {
		end++
	}
	out := line[start:end]
	col -= start
	if start > 0 {
		out = "..." + out
		col += 3
	}
	if end < len(line) {
		out += "..."
	}
	return out, col
}

// caret returns a line with a '^' under byte column col (1-based) of line.
// Tabs before the column are kept so the caret lines up in a terminal.
func caret(line string, col int) string {
	var b strings.Builder
	for i := 0; i < col-1 && i < len(line); i++ {
		if line[i] == '\t' {
			b.WriteByte('\t')
		} else if line[i]&0xC0 != 0x80 { // one space per UTF-8 character
			b.WriteByte(' ')
		}
	}
	for i := len(line); i < col-1; i++ {
		b.WriteByte(' ')
	}
	b.WriteByte('^')
	return b.String()
}

// ErrorList is a list of front-end errors; it implements error. The zero
// value (empty list) is not an error: use Err to get a nil error for it.
type ErrorList []*Error

// Error renders every error of the list, separated by newlines.
func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	s := make([]string, len(l))
	for i, e := range l {
		s[i] = e.Error()
	}
	return strings.Join(s, "\n")
}

// Err returns l as an error, or nil if l is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// Sort sorts l by file, line and column (stable: errors at one position keep
// their order).
func (l ErrorList) Sort() {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Pos, l[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}

// Collector accumulates the errors of one source file.
type Collector struct {
	File string
	Src  []byte
	errs ErrorList
}

// NewCollector returns a collector for the source src of file.
func NewCollector(file string, src []byte) *Collector {
	return &Collector{File: file, Src: src}
}

// Errorf records an error at pos.
func (c *Collector) Errorf(pos ir.Pos, format string, args ...any) {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	if pos.File == "" {
		pos.File = c.File
	}
	c.errs = append(c.errs, &Error{Pos: pos, Msg: msg})
}

// Len is the number of errors recorded so far.
func (c *Collector) Len() int { return len(c.errs) }

// line returns the text of the source line of pos, if pos is in c's file.
func (c *Collector) line(pos ir.Pos) string {
	if pos.File != c.File || pos.Line <= 0 {
		return ""
	}
	src := c.Src
	for i := 1; i < pos.Line; i++ {
		j := bytes.IndexByte(src, '\n')
		if j < 0 {
			return ""
		}
		src = src[j+1:]
	}
	if j := bytes.IndexByte(src, '\n'); j >= 0 {
		src = src[:j]
	}
	return strings.TrimSuffix(string(src), "\r")
}

// Errors returns the recorded errors sorted by position, with exact
// duplicates removed, capped at MaxErrors (a final "too many errors" entry
// marks the cut). It returns nil if there are none.
func (c *Collector) Errors() ErrorList {
	if len(c.errs) == 0 {
		return nil
	}
	l := append(ErrorList(nil), c.errs...)
	l.Sort()
	out := l[:0]
	for i, e := range l {
		if i > 0 && e.Pos == l[i-1].Pos && e.Msg == l[i-1].Msg {
			continue
		}
		out = append(out, e)
	}
	if len(out) > MaxErrors {
		next := out[MaxErrors]
		out = append(out[:MaxErrors:MaxErrors], &Error{Pos: next.Pos, Msg: "too many errors"})
	}
	for _, e := range out {
		if e.Line == "" && e.Msg != "too many errors" {
			e.Line = c.line(e.Pos)
		}
	}
	return out
}
