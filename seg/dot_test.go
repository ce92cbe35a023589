package seg

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

func sbGraph() *Graph {
	b := newGB(2)
	b.W(0, "x", 1, rlx)
	b.R(0, "y", Init, rlx)
	b.W(1, "y", 1, rlx)
	b.R(1, "x", Init, rlx)
	return b.g
}

func mpRAGraph() *Graph {
	b := newGB(2)
	b.W(0, "x", 1, rlx)
	wy := b.W(0, "y", 1, rel)
	b.R(1, "y", wy, acq)
	b.R(1, "x", Init, rlx)
	return b.g
}

func dotString(t *testing.T, g *Graph, opts DOTOpts) string {
	t.Helper()
	var buf bytes.Buffer
	if err := g.WriteDOT(&buf, opts); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestDOT(t *testing.T) {
	g := sbGraph()
	v := LookupModel("sc").Check(g)
	out := dotString(t, g, DOTOpts{Highlight: v})
	if again := dotString(t, g, DOTOpts{Highlight: v}); again != out {
		t.Fatal("DOT output is not deterministic")
	}
	for _, want := range []string{
		`e0_0 [label="a: W(rlx) x=1", fontname="Helvetica-Bold"];`,
		`thread0 [label="thread 0"`,
		`init0 [label="init x=0"];`,
		`e0_0 -> e0_1 [label="po", color=black, fontcolor=black, weight=10, penwidth=3, style=bold];`,
		`init0 -> e1_1 [label="rf", color=red, fontcolor=red, constraint=false];`,
		`init0 -> e0_0 [label="mo", color=blue, fontcolor=blue, constraint=false];`,
		`e1_1 -> e0_0 [label="fr", color=orange, fontcolor=orange, constraint=false, penwidth=3, style=bold];`,
		`e0_1 -> e1_0 [label="fr"`,
		`label="sc: sc violated (acyclic po | sync | com)"`,
		`{rank=same; e0_0 -> e1_0 [style=invis];}`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("DOT output lacks %s\n%s", want, out)
		}
	}
	// only po: no rf/mo/fr edges and no initial writes
	po := dotString(t, g, DOTOpts{Rels: DrawPO})
	if strings.Contains(po, `"rf"`) || strings.Contains(po, `"fr"`) || strings.Contains(po, "init0") {
		t.Errorf("DrawPO drew more than po:\n%s", po)
	}

	// sw and hb
	g = mpRAGraph()
	out = dotString(t, g, DOTOpts{Rels: DrawSW | DrawHB | DrawPO})
	if !strings.Contains(out, `e0_1 -> e1_0 [label="sw", color=darkgreen`) {
		t.Errorf("no sw edge:\n%s", out)
	}
	if strings.Contains(out, `"hb"`) {
		t.Errorf("hb edge implied by po and sw drawn:\n%s", out)
	}
	// without po drawn, hb edges are still only those of the Hasse diagram
	// that are not po or sw
	b := newGB(3)
	wx := b.W(0, "x", 1, rel)
	b.R(1, "x", wx, acq)
	wy := b.W(1, "y", 1, rel)
	b.R(2, "y", wy, acq)
	out = dotString(t, b.g, DOTOpts{Rels: DrawHB})
	if strings.Contains(out, `"hb"`) {
		t.Errorf("hb edges drawn where po and sw give everything:\n%s", out)
	}

	// quoting
	if got := dotQuote(`say "hi" \ now`); got != `"say \"hi\" \\ now"` {
		t.Errorf("dotQuote = %s", got)
	}
}

func TestDOTRendersWithGraphviz(t *testing.T) {
	dot, err := exec.LookPath("dot")
	if err != nil {
		t.Skip("graphviz dot not installed")
	}
	for _, g := range []*Graph{sbGraph(), mpRAGraph()} {
		v := LookupModel("rc11").Check(g)
		src := dotString(t, g, DOTOpts{Highlight: v, Rels: DrawDefault | DrawSW | DrawHB})
		cmd := exec.Command(dot, "-Tsvg")
		cmd.Stdin = strings.NewReader(src)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil || !bytes.Contains(out, []byte("<svg")) || stderr.Len() > 0 {
			t.Errorf("dot failed: %v %s\n%s", err, stderr.String(), src)
		}
	}
}
