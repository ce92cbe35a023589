package seg

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// DOTRels selects the relations WriteDOT draws.
type DOTRels uint16

// Relations WriteDOT can draw.
const (
	DrawPO DOTRels = 1 << iota // program order (immediate successors) plus spawn and join edges, black
	DrawRF                     // reads-from, red
	DrawMO                     // modification order (immediate successors), blue
	DrawFR                     // from-read to the immediate mo-successor of the source, orange
	DrawSW                     // synchronises-with, green
	DrawHB                     // happens-before, transitively reduced, minus po and sw edges, dashed green

	// DrawDefault is what a zero DOTOpts.Rels draws.
	DrawDefault = DrawPO | DrawRF | DrawMO | DrawFR
)

// DOTOpts configures WriteDOT.
type DOTOpts struct {
	// Rels selects the relations to draw; zero means DrawDefault.
	Rels DOTRels
	// Model supplies sw and hb (its definitions named "sw" and "hb");
	// nil, or a model without them, means rc11.
	Model *Model
	// Highlight draws the witness of a violation in bold: its nodes, and
	// its edges (added if the selected relations do not already show them).
	Highlight *Violation
	// Title is printed above the picture; with a Highlight and no Title,
	// the violated axiom is named.
	Title string
}

var dotColor = map[string]string{"po": "black", "spawn": "black", "join": "black", "rf": "red", "rfe": "red",
	"mo": "blue", "co": "blue", "fr": "orange", "sw": "darkgreen", "hb": "darkgreen"}

// WriteDOT renders g as a Graphviz digraph in the style of herd's pictures:
// one column per thread (a cluster headed by the thread's name) with its
// events top to bottom in program order, labelled "a: W(rlx) x=1" (letters
// as in Graph.EventName), rows aligned across threads, and the initial
// writes of the locations that some event reads from them as a row of
// "init x=0" nodes on top. Edges are coloured per relation (po black, rf
// red, mo blue, fr orange, sw and hb green) and labelled with its name.
// The output depends only on g and opts.
func (g *Graph) WriteDOT(w io.Writer, opts DOTOpts) error {
	bw := bufio.NewWriter(w)
	rels := opts.Rels
	if rels == 0 {
		rels = DrawDefault
	}
	sp := NewSpace(g)
	id := func(i int) string {
		n := sp.Node(i)
		if n.IsInit() {
			return fmt.Sprintf("init%d", i)
		}
		return fmt.Sprintf("e%d_%d", n.ID.T, n.ID.I)
	}

	// highlighted nodes and edges
	hlNode := map[int]bool{}
	type ekey struct {
		a, b  int
		label string
	}
	hlEdge := map[ekey]bool{}
	if v := opts.Highlight; v != nil {
		for _, n := range v.Nodes {
			if i := sp.Index(n); i >= 0 {
				hlNode[i] = true
			}
		}
		for _, s := range v.Steps {
			a, b := sp.Index(s.From), sp.Index(s.To)
			if a >= 0 && b >= 0 {
				hlEdge[ekey{a, b, s.Rel}] = true
				hlNode[a], hlNode[b] = true, true
			}
		}
	}

	// which initial writes to show
	showInit := map[int]bool{}
	rf := sp.RF()
	for k := range sp.Locs() {
		if hlNode[k] || rels&DrawRF != 0 && !rf.Succ(k).IsEmpty() {
			showInit[k] = true
		}
	}

	title := opts.Title
	if title == "" && opts.Highlight != nil {
		v := opts.Highlight
		if v.Kind == WellFormed {
			title = v.Model + ": ill-formed graph"
		} else {
			title = fmt.Sprintf("%s: %s violated (%s %s)", v.Model, v.Axiom, v.Kind, v.Expr)
		}
	}

	fmt.Fprintln(bw, "digraph G {")
	fmt.Fprintln(bw, "\tgraph [newrank=true, rankdir=TB, nodesep=0.9, ranksep=0.6, fontname=\"Helvetica\", fontsize=12];")
	if title != "" {
		fmt.Fprintf(bw, "\tlabel=%s; labelloc=t;\n", dotQuote(title))
	}
	fmt.Fprintln(bw, "\tnode [shape=plaintext, fontname=\"Helvetica\", fontsize=12, margin=\"0.05,0.02\"];")
	fmt.Fprintln(bw, "\tedge [fontname=\"Helvetica\", fontsize=10, arrowsize=0.7];")

	nodeAttr := func(i int) string {
		s := "label=" + dotQuote(sp.NodeLabel(i))
		if hlNode[i] {
			s += ", fontname=\"Helvetica-Bold\""
		}
		return s
	}

	// initial writes
	var inits []int
	for k := range sp.Locs() {
		if showInit[k] {
			inits = append(inits, k)
		}
	}
	if len(inits) > 0 {
		fmt.Fprintln(bw, "\tsubgraph inits {\n\t\trank=min;")
		for _, k := range inits {
			fmt.Fprintf(bw, "\t\t%s [%s];\n", id(k), nodeAttr(k))
		}
		if len(inits) > 1 {
			var ids []string
			for _, k := range inits {
				ids = append(ids, id(k))
			}
			fmt.Fprintf(bw, "\t\t%s [style=invis];\n", strings.Join(ids, " -> "))
		}
		fmt.Fprintln(bw, "\t}")
	}

	// threads: a heading node per thread, then its events; columns are
	// kept in thread order by invisible edges within each rank
	maxLen := 0
	var heads []string
	for t, th := range g.Threads {
		if len(th) > maxLen {
			maxLen = len(th)
		}
		name := fmt.Sprintf("t%d", t)
		if t < len(g.Names) && g.Names[t] != "" {
			name = g.Names[t]
		}
		head := fmt.Sprintf("thread%d", t)
		heads = append(heads, head)
		fmt.Fprintf(bw, "\t%s [label=%s, fontname=\"Helvetica-Bold\"];\n", head, dotQuote("thread "+name))
		for i := range th {
			n := sp.EventIndex(EventID{int32(t), int32(i)})
			fmt.Fprintf(bw, "\t%s [%s];\n", id(n), nodeAttr(n))
		}
		if len(th) > 0 {
			fmt.Fprintf(bw, "\t%s -> %s [style=invis, weight=10];\n", head, id(sp.EventIndex(EventID{int32(t), 0})))
		}
	}
	if len(heads) > 1 {
		fmt.Fprintf(bw, "\t{rank=same; %s [style=invis];}\n", strings.Join(heads, " -> "))
	}
	for i := 0; i < maxLen; i++ {
		var row []string
		for t, th := range g.Threads {
			if i < len(th) {
				row = append(row, id(sp.EventIndex(EventID{int32(t), int32(i)})))
			}
		}
		if len(row) > 1 {
			fmt.Fprintf(bw, "\t{rank=same; %s [style=invis];}\n", strings.Join(row, " -> "))
		}
	}
	for _, k := range inits {
		for _, h := range heads {
			fmt.Fprintf(bw, "\t%s -> %s [style=invis];\n", id(k), h)
		}
	}

	drawn := map[ekey]bool{}
	edge := func(a, b int, label string, extra string, constraint bool) {
		k := ekey{a, b, label}
		if drawn[k] {
			return
		}
		drawn[k] = true
		color := dotColor[label]
		if color == "" {
			color = "purple"
		}
		attrs := fmt.Sprintf("label=%s, color=%s, fontcolor=%s", dotQuote(label), color, color)
		if extra != "" {
			attrs += ", " + extra
		}
		if !constraint {
			attrs += ", constraint=false"
		}
		if hlEdge[k] {
			attrs += ", penwidth=3, style=bold"
		}
		fmt.Fprintf(bw, "\t%s -> %s [%s];\n", id(a), id(b), attrs)
	}
	shown := func(i int) bool { return !sp.Node(i).IsInit() || showInit[i] }

	if rels&DrawPO != 0 {
		for t, th := range g.Threads {
			for i := 0; i+1 < len(th); i++ {
				a := sp.EventIndex(EventID{int32(t), int32(i)})
				edge(a, a+1, "po", "weight=10", true)
			}
		}
		for _, name := range []string{"spawn", "join"} {
			r, _ := sp.BaseRel(name)
			r.Each(func(a, b int) { edge(a, b, name, "style=dashed", false) })
		}
	}
	if rels&DrawRF != 0 {
		rf.Each(func(a, b int) {
			if shown(a) {
				edge(a, b, "rf", "", false)
			}
		})
	}
	if rels&(DrawMO|DrawFR) != 0 {
		for _, loc := range sp.Locs() {
			seq := sp.moNodes(loc)
			if rels&DrawMO != 0 {
				for k := 0; k+1 < len(seq); k++ {
					if shown(seq[k]) {
						edge(seq[k], seq[k+1], "mo", "", false)
					}
				}
			}
			if rels&DrawFR != 0 {
				pos := map[int]int{}
				for k, v := range seq {
					pos[v] = k
				}
				for i := len(sp.Locs()); i < sp.Len(); i++ {
					e := sp.Event(i)
					if !e.Kind.IsRead() || e.Loc != loc {
						continue
					}
					p, ok := pos[sp.source(e)]
					if !ok {
						continue
					}
					for _, v := range seq[p+1:] {
						if v != i {
							edge(i, v, "fr", "", false)
							break
						}
					}
				}
			}
		}
	}
	if rels&(DrawSW|DrawHB) != 0 {
		m := opts.Model
		if m == nil || m.lets["sw"] == nil || m.lets["hb"] == nil {
			m = LookupModel("rc11")
		}
		_, sw, err := m.Relation(g, "sw")
		if err != nil {
			return err
		}
		if rels&DrawSW != 0 {
			sw.Each(func(a, b int) {
				if shown(a) && !drawn[ekey{a, b, "spawn"}] && !drawn[ekey{a, b, "join"}] {
					edge(a, b, "sw", "", false)
				}
			})
		}
		if rels&DrawHB != 0 {
			_, hb, err := m.Relation(g, "hb")
			if err != nil {
				return err
			}
			po := sp.PO()
			hb.ReduceTransitive().Each(func(a, b int) {
				if !shown(a) || po.Has(a, b) || sw.Has(a, b) {
					return
				}
				edge(a, b, "hb", "style=dashed", false)
			})
		}
	}
	// highlighted steps not drawn yet
	if v := opts.Highlight; v != nil {
		for _, s := range v.Steps {
			a, b := sp.Index(s.From), sp.Index(s.To)
			if a >= 0 && b >= 0 {
				edge(a, b, s.Rel, "", false)
			}
		}
	}
	fmt.Fprintln(bw, "}")
	return bw.Flush()
}

// dotQuote quotes s as a DOT string.
func dotQuote(s string) string {
	var sb strings.Builder
	sb.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			sb.WriteByte('\\')
			sb.WriteRune(r)
		case '\n':
			sb.WriteString(`\n`)
		default:
			sb.WriteRune(r)
		}
	}
	sb.WriteByte('"')
	return sb.String()
}
