package seg

import "testing"

// incGraph builds two threads that each call c.inc() (lock m; r := cnt;
// cnt := r+1; unlock m) in the order first, second, and thread 1 then
// writes x := 1 after its invocation. It returns the graph and its event
// order.
func incGraph(first, second int) (*Graph, []EventID) {
	b := newGB(2)
	var order []EventID
	add := func(id EventID) EventID { order = append(order, id); return id }
	inv := [2]*Invocation{{Obj: 7, Type: "Counter", Method: "inc"}, {Obj: 7, Type: "Counter", Method: "inc"}}
	prev := Init
	var cnt int64
	var cntW = Init
	for _, t := range []int{first, second} {
		iv := inv[t]
		iv.Begin = add(b.ev(t, Event{Kind: KInvBegin, Inv: iv}))
		add(b.L(t, "m", prev))
		add(b.Rv(t, "cnt", cntW, cnt, na))
		cnt++
		cntW = add(b.W(t, "cnt", cnt, na))
		prev = add(b.Un(t, "m"))
		iv.End = add(b.ev(t, Event{Kind: KInvEnd, Inv: iv}))
		iv.Done = true
	}
	add(b.W(1, "x", 1, na))
	return b.g, order
}

func TestSemanticKeys(t *testing.T) {
	always := func(u, v *Invocation) bool { return true }
	tests := []struct {
		name    string
		commute func(u, v *Invocation) bool
		same    bool
	}{
		{"commuting incs: one class", always, true},
		{"non-commuting incs: two classes", nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var keys []string
			for _, o := range [][2]int{{0, 1}, {1, 0}} {
				g, order := incGraph(o[0], o[1])
				s, err := NewSemantic(g, SemanticOpts{Order: order, Commute: tc.commute})
				if err != nil {
					t.Fatal(err)
				}
				keys = append(keys, s.Key())
			}
			if got := keys[0] == keys[1]; got != tc.same {
				t.Errorf("keys equal = %v, want %v:\n%s\n%s", got, tc.same, keys[0], keys[1])
			}
		})
	}
}

func TestSemanticStructure(t *testing.T) {
	g, order := incGraph(0, 1)
	s, err := NewSemantic(g, SemanticOpts{Order: order})
	if err != nil {
		t.Fatal(err)
	}
	// Nodes: init, inc of t0, inc of t1, W(x) of t1.
	if len(s.Nodes) != 4 || s.Nodes[1].Inv == nil || s.Nodes[2].Inv == nil || s.Nodes[3].Inv != nil {
		t.Fatalf("unexpected nodes:\n%s", s)
	}
	if len(s.Invs) != 2 || s.Invs[0] != 1 || s.Invs[1] != 2 {
		t.Errorf("linearization order %v, want [1 2]", s.Invs)
	}
	if !s.NC.Has(1, 2) || s.NC.Has(2, 1) || !s.NC.Has(0, 1) {
		t.Errorf("NC wrong:\n%s", s)
	}
	if !s.SSH.Has(1, 2) || !s.SSH.Has(0, 2) || s.SSH.Has(3, 2) || s.SSH.Has(2, 1) {
		t.Errorf("SSH wrong: pairs %v", s.SSH.Pairs())
	}
	if !s.PO.Has(2, 3) || s.PO.Has(1, 3) {
		t.Errorf("PO wrong: pairs %v", s.PO.Pairs())
	}
	w := g.Threads[1][len(g.Threads[1])-1].ID
	if n, ok := s.Node(w); !ok || n != 3 || s.IsScoped(w) {
		t.Errorf("W(x) should be unscoped node 3, got %d %v", n, ok)
	}
	if n, ok := s.Top(g.Threads[0][2].ID); !ok || n != 1 {
		t.Errorf("top of t0's read should be node 1, got %d %v", n, ok)
	}
	if _, err := NewSemantic(g, SemanticOpts{Order: order[1:]}); err == nil {
		t.Errorf("an incomplete order was accepted")
	}
}
