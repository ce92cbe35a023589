package serve

import (
	"fmt"
	"html"
	"math"
	"regexp"
	"sort"
	"strings"

	"ncmc/seg"
)

// DrawOpts configure Draw.
type DrawOpts struct {
	// Title lines are printed above the picture (the first in bold).
	Title []string
	// SW draws synchronises-with edges, taken from SWModel's definition
	// named "sw".
	SW      bool
	SWModel *seg.Model
	// Highlight draws the witness of a violation (a cycle) over the
	// picture: its nodes shaded, its edges thick on a yellow band (edges
	// of relations the picture does not otherwise show are added).
	Highlight *seg.Violation
	// HighlightNote explains the highlighted edges in the legend (default:
	// the cycle that the violation's axiom forbids).
	HighlightNote string
	// Relaxed lists steps of the highlighted cycle that the model of the
	// picture does not keep (a po edge tso relaxes, an rf edge that does
	// not synchronise); they are drawn dashed and RelaxedNote explains them.
	Relaxed     []seg.Step
	RelaxedNote string
	// Hardware labels events as herd's x86 pictures do, without C11
	// memory orders ("a: W x=1", "b: MFENCE"): the orders the x86 front
	// end attaches (see frontend/litmus) mean nothing under tso.
	Hardware bool
}

// relColor is the colour of each relation in pictures; relations not
// listed (those only a highlighted cycle uses) are purple.
var relColor = map[string]string{
	"po": "#000000", "rf": "#d62728", "co": "#1f4fd6", "fr": "#e67e00", "sw": "#1a9e1a",
	"spawn": "#777777", "join": "#777777",
}

var relDoc = []struct{ rel, doc string }{
	{"po", "program order"}, {"rf", "reads-from"}, {"co", "coherence (order of writes to a location)"},
	{"fr", "from-read (read before a co-later write)"}, {"sw", "synchronises-with"},
}

const (
	fontSize  = 14
	charW     = 8.45 // advance of one character of the monospace font at fontSize
	nodeH     = 26
	rowGap    = 96
	colGap    = 190
	margin    = 24
	titleLine = 20
)

type drawNode struct {
	idx     int // index in the seg.Space
	label   string
	full    string // the whole label, when label is cut
	name    string // short name ("a", "init x")
	x, y, w float64
	hl      bool
}

type drawEdge struct {
	from, to int // indices into nodes
	rel      string
	hl       bool
	dashed   bool
}

// Draw renders execution graph g as an SVG picture in the style of herd:
// one column per thread headed by its name, the thread's events top to
// bottom in program order (rows aligned across threads: row k holds the
// k-th event of every thread), the initial writes that something reads
// from or that a highlighted cycle goes through in a row on top, and the
// edges po (black), rf (red), co (blue, immediate successors), fr
// (orange, to the immediate co-successor of the write read from) and sw
// (green), each labelled with its relation's name. Events are labelled as
// in explanations ("a: W(rlx) x=1"). The output depends only on g and opts.
//
// Every edge is an SVG group of class "edge" with attributes data-rel,
// data-from and data-to (the events' short names), data-hl="1" when it
// belongs to the highlighted cycle and data-relaxed="1" when it is one of
// opts.Relaxed, so that tests and scripts can read the picture.
func Draw(g *seg.Graph, opts DrawOpts) (string, error) {
	sp := seg.NewSpace(g)
	nLocs := len(sp.Locs())

	// highlighted nodes and edges (by space index)
	hlNode := map[int]bool{}
	type key struct {
		a, b int
		rel  string
	}
	hlEdge := map[key]bool{}
	var extra []key // highlighted steps of relations not otherwise drawn
	if v := opts.Highlight; v != nil {
		for _, n := range v.Nodes {
			if i := sp.Index(n); i >= 0 {
				hlNode[i] = true
			}
		}
		for _, s := range v.Steps {
			a, b := sp.Index(s.From), sp.Index(s.To)
			rel := s.Rel
			if strings.HasSuffix(rel, "^-1") {
				a, b, rel = b, a, strings.TrimSuffix(rel, "^-1")
			}
			rel = baseRel(rel)
			if a < 0 || b < 0 {
				continue
			}
			hlNode[a], hlNode[b] = true, true
			hlEdge[key{a, b, rel}] = true
			extra = append(extra, key{a, b, rel})
		}
	}

	relaxed := map[key]bool{}
	for _, st := range opts.Relaxed {
		a, b := sp.Index(st.From), sp.Index(st.To)
		if a >= 0 && b >= 0 {
			relaxed[key{a, b, baseRel(st.Rel)}] = true
		}
	}

	// the edges, in a fixed order
	var edges []key
	seenEdge := map[key]bool{}
	add := func(a, b int, rel string) {
		k := key{a, b, rel}
		if !seenEdge[k] {
			seenEdge[k] = true
			edges = append(edges, k)
		}
	}
	for t, th := range g.Threads {
		for i := 0; i+1 < len(th); i++ {
			a := sp.EventIndex(seg.EventID{T: int32(t), I: int32(i)})
			add(a, a+1, "po")
		}
	}
	for _, name := range []string{"spawn", "join"} {
		if r, ok := sp.BaseRel(name); ok {
			r.Each(func(a, b int) { add(a, b, name) })
		}
	}
	sp.RF().Each(func(a, b int) { add(a, b, "rf") })
	mo := sp.MO()
	mo.ReduceTransitive().Each(func(a, b int) { add(a, b, "co") })
	fr := sp.FR()
	for r := nLocs; r < sp.Len(); r++ {
		succ := fr.Succ(r).Members()
		for _, b := range succ {
			if b == r {
				continue
			}
			first := true
			for _, c := range succ {
				if c != r && c != b && mo.Has(c, b) {
					first = false
					break
				}
			}
			if first {
				add(r, b, "fr")
			}
		}
	}
	if opts.SW && opts.SWModel != nil {
		if _, sw, err := opts.SWModel.Relation(g, "sw"); err == nil {
			sw.Each(func(a, b int) {
				if !seenEdge[key{a, b, "spawn"}] && !seenEdge[key{a, b, "join"}] {
					add(a, b, "sw")
				}
			})
		} else {
			return "", err
		}
	}
	for _, k := range extra {
		add(k.a, k.b, k.rel)
	}

	// which initial writes to show: those something reads from, and those
	// of the highlighted cycle
	showInit := map[int]bool{}
	for k := 0; k < nLocs; k++ {
		if hlNode[k] || !sp.RF().Succ(k).IsEmpty() {
			showInit[k] = true
		}
	}
	shown := func(i int) bool { return i >= nLocs || showInit[i] }

	// layout: layer 0 the thread headings, layer 1 the initial writes (if
	// any), then one layer per position in program order
	var nodes []drawNode
	pos := map[int]int{} // space index -> nodes index
	// one column per thread, as wide as its widest label
	colW := make([]float64, len(g.Threads))
	total := 0.0
	for t, th := range g.Threads {
		colW[t] = math.Max(90, textW(threadName(g, t)))
		for i := range th {
			colW[t] = math.Max(colW[t], textW(label(sp, sp.EventIndex(seg.EventID{T: int32(t), I: int32(i)}), opts.Hardware)))
		}
		colW[t] += 16
		total += colW[t]
	}
	total += float64(max(len(g.Threads)-1, 0)) * colGap
	top := margin + float64(len(opts.Title))*titleLine + 8
	headY := top + nodeH/2
	y0 := headY + 44
	var inits []int
	for k := 0; k < nLocs; k++ {
		if showInit[k] {
			inits = append(inits, k)
		}
	}
	if len(inits) > 0 {
		y0 += rowGap
	}
	width := 2*margin + total
	initW := 0.0
	for _, k := range inits {
		initW = math.Max(initW, textW(sp.NodeLabel(k))+16)
	}
	width = math.Max(width, 2*margin+float64(len(inits))*(initW+40))
	for i, line := range opts.Title {
		w := textW(line)
		if i == 0 {
			w *= 1.08 // bold
		}
		width = math.Max(width, 2*margin+w)
	}
	if v := opts.Highlight; v != nil {
		width = math.Max(width, 2*margin+46+textW(highlightLegend(v, opts.HighlightNote))*0.9)
	}
	if len(opts.Relaxed) > 0 {
		width = math.Max(width, 2*margin+46+textW(opts.RelaxedNote)*0.9)
	}
	colX := func(t int) float64 {
		x := (width - total) / 2
		for u := 0; u < t; u++ {
			x += colW[u] + colGap
		}
		return x + colW[t]/2
	}
	// the initial writes: each at the barycentre of the columns of the
	// events it is related to (the usual crossing-reduction heuristic of
	// layered layouts), in that order, pushed apart to not overlap
	type ini struct {
		k    int
		x, n float64
	}
	var ins []ini
	for _, k := range inits {
		in := ini{k: k}
		for _, e := range edges {
			o := -1
			switch k {
			case e.a:
				o = e.b
			case e.b:
				o = e.a
			}
			if o >= nLocs {
				in.x += colX(int(sp.Node(o).ID.T))
				in.n++
			}
		}
		if in.n > 0 {
			in.x /= in.n
		} else {
			in.x = width / 2
		}
		ins = append(ins, in)
	}
	sort.SliceStable(ins, func(i, j int) bool { return ins[i].x < ins[j].x })
	step := initW + 40
	for j := 1; j < len(ins); j++ {
		ins[j].x = math.Max(ins[j].x, ins[j-1].x+step)
	}
	if len(ins) > 0 {
		// recentre the row on its barycentres' mean, within the margins
		var want float64
		for _, in := range ins {
			want += in.x
		}
		shift := 0.0
		if len(ins) > 1 {
			shift = (ins[0].x+ins[len(ins)-1].x)/2 - want/float64(len(ins))
		}
		for j := range ins {
			ins[j].x -= shift
		}
		if lo := ins[0].x - initW/2; lo < margin {
			for j := range ins {
				ins[j].x += margin - lo
			}
		}
		if hi := ins[len(ins)-1].x + initW/2; hi > width-margin {
			width = hi + margin
		}
	}
	for _, in := range ins {
		k := in.k
		pos[k] = len(nodes)
		nodes = append(nodes, drawNode{idx: k, label: sp.NodeLabel(k), full: sp.NodeLabel(k), name: sp.NodeName(k), x: in.x, y: headY + 44 + nodeH/2, w: textW(sp.NodeLabel(k)) + 16, hl: hlNode[k]})
	}
	maxLen := 0
	for t, th := range g.Threads {
		maxLen = max(maxLen, len(th))
		for i := range th {
			n := sp.EventIndex(seg.EventID{T: int32(t), I: int32(i)})
			pos[n] = len(nodes)
			nodes = append(nodes, drawNode{idx: n, label: label(sp, n, opts.Hardware), full: sp.NodeLabel(n), name: sp.NodeName(n), x: colX(t),
				y: y0 + float64(i)*rowGap + nodeH/2, w: textW(label(sp, n, opts.Hardware)) + 16, hl: hlNode[n]})
		}
	}
	height := y0 + float64(max(maxLen, 1)-1)*rowGap + nodeH + 40

	// the legend of the relations drawn
	used := map[string]bool{}
	for _, k := range edges {
		if shown(k.a) && shown(k.b) {
			used[k.rel] = true
		}
	}
	var legend []string
	for _, r := range relDoc {
		if used[r.rel] {
			legend = append(legend, r.rel)
		}
	}
	var others []string
	for r := range used {
		if _, ok := relColor[r]; !ok {
			others = append(others, r)
		}
	}
	sort.Strings(others)
	legend = append(legend, others...)
	legendY := height
	height += 22 * float64(len(legend)+btoi(opts.Highlight != nil)+btoi(len(relaxed) > 0))
	height += margin

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="execution" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="%d">`+"\n",
		width, height, width, height, fontSize)
	b.WriteString(`<defs>`)
	colors := map[string]bool{}
	for _, c := range relColor {
		colors[c] = true
	}
	colors["#8e24aa"] = true
	var cl []string
	for c := range colors {
		cl = append(cl, c)
	}
	sort.Strings(cl)
	for _, c := range cl {
		id := strings.TrimPrefix(c, "#")
		fmt.Fprintf(&b, `<marker id="arr%s" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="11" markerHeight="11" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="%s"/></marker>`, id, c)
	}
	b.WriteString("</defs>\n")
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	for i, line := range opts.Title {
		weight := ""
		if i == 0 {
			weight = ` font-weight="bold"`
		}
		fmt.Fprintf(&b, `<text x="%d" y="%.0f" font-family="DejaVu Sans, Helvetica, Arial, sans-serif"%s>%s</text>`+"\n", margin, margin+float64(i)*titleLine+10, weight, esc(line))
	}
	// thread headings
	for t := range g.Threads {
		fmt.Fprintf(&b, `<text class="thread" x="%.1f" y="%.1f" text-anchor="middle" font-weight="bold">%s</text>`+"\n", colX(t), headY+5, esc(threadName(g, t)))
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#bbb"/>`+"\n", colX(t)-colW[t]/2+8, headY+12, colX(t)+colW[t]/2-8, headY+12)
	}

	// edges: bands of the highlighted ones first, then the edges, then
	// the nodes over them, then the edge labels on top
	type geom struct {
		path   string
		lx, ly float64
	}
	geoms := make([]geom, len(edges))
	pairCount := map[[2]int]int{}
	for i, k := range edges {
		if !shown(k.a) || !shown(k.b) {
			continue
		}
		a, c := nodes[pos[k.a]], nodes[pos[k.b]]
		lo, hi := min(k.a, k.b), max(k.a, k.b)
		nth := pairCount[[2]int{lo, hi}]
		pairCount[[2]int{lo, hi}]++
		geoms[i].path, geoms[i].lx, geoms[i].ly = route(a, c, k.rel, nth)
	}
	for i, k := range edges {
		if geoms[i].path != "" && hlEdge[k] {
			fmt.Fprintf(&b, `<path d="%s" fill="none" stroke="#ffd54f" stroke-width="12" stroke-linecap="round" opacity="0.85"/>`+"\n", geoms[i].path)
		}
	}
	for i, k := range edges {
		if geoms[i].path == "" {
			continue
		}
		c := color(k.rel)
		w := "1.6"
		if hlEdge[k] {
			w = "3.5"
		}
		dash := ""
		if k.rel == "spawn" || k.rel == "join" || relaxed[k] {
			dash = ` stroke-dasharray="6,4"`
		}
		fmt.Fprintf(&b, `<g class="edge" data-rel="%s" data-from="%s" data-to="%s" data-hl="%d" data-relaxed="%d"><path d="%s" fill="none" stroke="%s" stroke-width="%s"%s marker-end="url(#arr%s)"/></g>`+"\n",
			esc(k.rel), esc(nodes[pos[k.a]].name), esc(nodes[pos[k.b]].name), btoi(hlEdge[k]), btoi(relaxed[k]), geoms[i].path, c, w, dash, strings.TrimPrefix(c, "#"))
	}
	for _, n := range nodes {
		fill, stroke, sw, weight := "white", "#999", "1", ""
		if n.hl {
			fill, stroke, sw, weight = "#fff3c4", "#c79100", "2", ` font-weight="bold"`
		}
		fmt.Fprintf(&b, `<g class="node" data-name="%s" data-hl="%d"><title>%s</title><rect x="%.1f" y="%.1f" width="%.1f" height="%d" rx="5" fill="%s" stroke="%s" stroke-width="%s"/><text x="%.1f" y="%.1f" text-anchor="middle"%s>%s</text></g>`+"\n",
			esc(n.name), btoi(n.hl), esc(n.full), n.x-n.w/2, n.y-nodeH/2, n.w, nodeH, fill, stroke, sw, n.x, n.y+5, weight, esc(n.label))
	}
	for i, k := range edges {
		if geoms[i].path == "" || k.rel == "po" {
			continue
		}
		c := color(k.rel)
		weight := ""
		if hlEdge[k] {
			weight = ` font-weight="bold"`
		}
		fmt.Fprintf(&b, `<text class="elabel" x="%.1f" y="%.1f" text-anchor="middle" fill="%s" stroke="white" stroke-width="4" paint-order="stroke" font-size="13"%s>%s</text>`+"\n",
			geoms[i].lx, geoms[i].ly+4, c, weight, esc(k.rel))
	}
	// legend
	y := legendY + 6
	for _, r := range legend {
		c := color(r)
		doc := r
		for _, d := range relDoc {
			if d.rel == r {
				doc = r + "  " + d.doc
			}
		}
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="%s" stroke-width="2" marker-end="url(#arr%s)"/><text x="%d" y="%.1f" font-size="12" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" fill="%s">%s</text>`+"\n",
			margin, y, margin+36, y, c, strings.TrimPrefix(c, "#"), margin+46, y+4, c, esc(doc))
		y += 22
	}
	if len(relaxed) > 0 {
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#000" stroke-width="2" stroke-dasharray="6,4"/><text x="%d" y="%.1f" font-size="12" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">%s</text>`+"\n",
			margin, y, margin+36, y, margin+46, y+4, esc(opts.RelaxedNote))
		y += 22
	}
	if v := opts.Highlight; v != nil {
		fmt.Fprintf(&b, `<rect x="%d" y="%.1f" width="36" height="10" fill="#ffd54f"/><text x="%d" y="%.1f" font-size="12" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">%s</text>`+"\n",
			margin, y-5, margin+46, y+4, esc(highlightLegend(v, opts.HighlightNote)))
	}
	b.WriteString("</svg>\n")
	return b.String(), nil
}

// route returns the SVG path of an edge from node a to node c and the
// position of its label. Edges between the same pair of nodes (nth > 0)
// bend further apart; edges within a column that are not immediate
// program-order steps arc out to the right.
func route(a, c drawNode, rel string, nth int) (string, float64, float64) {
	dx, dy := c.x-a.x, c.y-a.y
	d := math.Hypot(dx, dy)
	if d == 0 {
		// a self loop (a reflexive step of a highlighted witness)
		x, y := a.x+a.w/2, a.y
		return fmt.Sprintf("M%.1f,%.1f C%.1f,%.1f %.1f,%.1f %.1f,%.1f", x, y-6, x+40, y-30, x+40, y+30, x, y+6), x + 34, y
	}
	bend := 0.0
	switch {
	case rel == "po" && math.Abs(dx) < 1:
		bend = 0
	case math.Abs(dx) < 1:
		// same column: arc to the right, wider for longer and later edges
		bend = -(36 + 0.18*d + 22*float64(nth))
		if dy < 0 {
			bend = -bend
		}
	default:
		bend = 18 + 22*float64(nth)
	}
	// control point: the midpoint moved along the normal (-dy, dx)/d
	mx, my := (a.x+c.x)/2, (a.y+c.y)/2
	cx, cy := mx-dy/d*bend, my+dx/d*bend
	if math.Abs(dx) < 1 && rel != "po" {
		cx = mx + math.Abs(bend)*1.6 + a.w/2
		cy = my
	}
	sx, sy := clip(a, cx, cy)
	ex, ey := clip(c, cx, cy)
	// label at t = 0.4 of the quadratic Bezier, nearer the source: edges
	// that cross in the middle keep their labels apart
	const t = 0.4
	lx := (1-t)*(1-t)*sx + 2*t*(1-t)*cx + t*t*ex
	ly := (1-t)*(1-t)*sy + 2*t*(1-t)*cy + t*t*ey
	return fmt.Sprintf("M%.1f,%.1f Q%.1f,%.1f %.1f,%.1f", sx, sy, cx, cy, ex, ey), lx, ly
}

// clip returns the point where the segment from node n's centre towards
// (px, py) leaves n's box (plus a small gap).
func clip(n drawNode, px, py float64) (float64, float64) {
	dx, dy := px-n.x, py-n.y
	if dx == 0 && dy == 0 {
		return n.x, n.y
	}
	hw, hh := n.w/2+3, float64(nodeH)/2+3
	s := math.Inf(1)
	if dx != 0 {
		s = math.Min(s, hw/math.Abs(dx))
	}
	if dy != 0 {
		s = math.Min(s, hh/math.Abs(dy))
	}
	return n.x + dx*s, n.y + dy*s
}

// baseRel names a step's relation as the picture draws it: internal and
// external parts (rfe, coi, …) are drawn as the whole relation, mo as co.
func baseRel(rel string) string {
	switch rel {
	case "rfe", "rfi":
		return "rf"
	case "mo", "moe", "moi", "coe", "coi":
		return "co"
	case "fre", "fri":
		return "fr"
	}
	return rel
}

func highlightLegend(v *seg.Violation, note string) string {
	if note != "" {
		return note
	}
	return fmt.Sprintf("the cycle that axiom %s of %s forbids (%s %s)", v.Axiom, v.Model, v.Kind, v.Expr)
}

// threadName heads thread t's column: its name (P0, P1, … in litmus
// tests), "main" for a program's main thread and "t1", "t2", … (as spawn
// and join events name them) for the threads a program spawns.
func threadName(g *seg.Graph, t int) string {
	n := fmt.Sprintf("t%d", t)
	if t < len(g.Names) && g.Names[t] != "" {
		n = g.Names[t]
	}
	switch {
	case n == "0":
		return "main"
	case n[0] >= '0' && n[0] <= '9':
		return fmt.Sprintf("t%d", t)
	}
	return n
}

// maxLabel is the length beyond which event labels are cut (the whole
// label is the node's tooltip).
const maxLabel = 36

// orderRE matches the memory order of an access's label ("W(rel) ").
var orderRE = regexp.MustCompile(`^([a-z]+: (?:R|W|RMW))\([a-z_]+\) `)

// label is node i's label, cut to maxLabel characters; hardware drops
// the memory orders of accesses and names a seq_cst fence MFENCE.
func label(sp *seg.Space, i int, hardware bool) string {
	s := sp.NodeLabel(i)
	if hardware {
		s = orderRE.ReplaceAllString(s, "$1 ")
		if strings.HasSuffix(s, ": F(sc)") {
			s = strings.TrimSuffix(s, "F(sc)") + "MFENCE"
		}
	}
	l := []rune(s)
	if len(l) > maxLabel {
		return string(l[:maxLabel-1]) + "…"
	}
	return string(l)
}

func textW(s string) float64 { return float64(len([]rune(s))) * charW }

func color(rel string) string {
	if c, ok := relColor[rel]; ok {
		return c
	}
	return "#8e24aa"
}

func esc(s string) string { return html.EscapeString(s) }

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
