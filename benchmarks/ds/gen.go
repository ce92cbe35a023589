package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The object implementations of the benchmarks: one coarse lock per object,
// so every invocation is atomic (the thesis's setting, §4.5.1).

const setObj = `record Node {
    val: int;
    next: *Node;
}

// A set of ints as a linked list, insertion at the head, one coarse lock.
object Set {
    head: *Node;
    m: mutex;

    linearizable fn add(v: int): bool {
        lock(this.m);
        let cur = this.head;
        let found = false;
        while (cur != null) @unroll(8) {
            if (cur.val == v) {
                found = true;
                break;
            }
            cur = cur.next;
        }
        if (!found) {
            let n = new Node { val: v, next: this.head };
            this.head = n;
        }
        unlock(this.m);
        return !found;
    }

    linearizable fn contains(v: int): bool {
        lock(this.m);
        let cur = this.head;
        let found = false;
        while (cur != null) @unroll(8) {
            if (cur.val == v) {
                found = true;
                break;
            }
            cur = cur.next;
        }
        unlock(this.m);
        return found;
    }

    // The set as a bitmask (values 0..62).
    abstraction fn bits(): int {
        let b = 0;
        let cur = this.head;
        while (cur != null) @unroll(8) {
            b = b | (1 << cur.val);
            cur = cur.next;
        }
        return b;
    }
}

global s: Set;
`

const hashObj = `record Entry {
    key: int;
    val: int;
    next: *Entry;
}

// A hash table with 2 fixed buckets (bucket k % 2, chained entries), one
// coarse lock. put returns the previous value (0 = absent).
object HashTable {
    buckets: *Entry[2];
    count: int;
    m: mutex;

    linearizable fn put(k: int, v: int): int {
        lock(this.m);
        let b = k % 2;
        let first = this.buckets[b];
        let e = first;
        let old = 0;
        while (e != null) @unroll(8) {
            if (e.key == k) {
                old = e.val;
                e.val = v;
                break;
            }
            e = e.next;
        }
        if (e == null) {
            let n = new Entry { key: k, val: v, next: first };
            this.buckets[b] = n;
            this.count = this.count + 1;
        }
        unlock(this.m);
        return old;
    }

    linearizable fn get(k: int): int {
        lock(this.m);
        let e = this.buckets[k % 2];
        let v = 0;
        while (e != null) @unroll(8) {
            if (e.key == k) {
                v = e.val;
                break;
            }
            e = e.next;
        }
        unlock(this.m);
        return v;
    }

    linearizable fn size(): int {
        lock(this.m);
        let n = this.count;
        unlock(this.m);
        return n;
    }

    abstraction fn lookup(k: int): int {
        let e = this.buckets[k % 2];
        while (e != null) @unroll(8) {
            if (e.key == k) {
                return e.val;
            }
            e = e.next;
        }
        return 0;
    }

    abstraction fn keys(): int {
        return this.count;
    }
}

global h: HashTable;
`

const ufObj = `// Union-find over the elements 0..3 with path compression in find, one
// coarse lock.
object UnionFind {
    parent: int[4];
    m: mutex;

    // Not linearizable: called by main before any thread is spawned.
    fn init() {
        for i in 0..4 {
            this.parent[i] = i;
        }
    }

    // The root of x, with path compression. The caller holds this.m.
    fn root(x: int): int {
        let r = x;
        while (this.parent[r] != r) @unroll(4) {
            r = this.parent[r];
        }
        let cur = x;
        while (cur != r) @unroll(4) {
            let next = this.parent[cur];
            if (next != r) {
                this.parent[cur] = r;
            }
            cur = next;
        }
        return r;
    }

    linearizable fn find(x: int): int {
        lock(this.m);
        let r = this.root(x);
        unlock(this.m);
        return r;
    }

    linearizable fn same(a: int, b: int): bool {
        lock(this.m);
        let ra = this.root(a);
        let rb = this.root(b);
        unlock(this.m);
        return ra == rb;
    }

    linearizable fn union(a: int, b: int) {
        lock(this.m);
        let ra = this.root(a);
        let rb = this.root(b);
        if (ra != rb) {
            this.parent[ra] = rb;
        }
        unlock(this.m);
    }

    // The partition: for every element i the smallest element of its class,
    // in bits 2i..2i+1 (independent of the tree shape).
    abstraction fn classes(): int {
        let code = 0;
        for i in 0..4 {
            let ri = i;
            while (this.parent[ri] != ri) @unroll(4) {
                ri = this.parent[ri];
            }
            let least = i;
            for j in 0..4 {
                let rj = j;
                while (this.parent[rj] != rj) @unroll(4) {
                    rj = this.parent[rj];
                }
                if (rj == ri && j < least) {
                    least = j;
                }
            }
            code = code | (least << (2 * i));
        }
        return code;
    }
}

global uf: UnionFind;
`

// workload is one benchmark program: a data structure, a workload and N.
type workload struct {
	DS, Kind string // "set", "hashtable", "union-find"; "seekers", "mixed"
	N        int
}

func (w workload) name() string { return fmt.Sprintf("%s-%s-%d", w.DS, w.Kind, w.N) }

// source returns the CIR program of w (README.md describes each workload).
func (w workload) source() string {
	var b strings.Builder
	p := func(f string, a ...any) { fmt.Fprintf(&b, f, a...) }
	p("// %s.cir -- generated by `go run ./benchmarks/ds gen`; the workload is\n", w.name())
	p("// described in benchmarks/ds/README.md (%s, %s, N = %d threads).\n", w.DS, w.Kind, w.N)
	p("//\n// Expected verdict under SC: verified.\n\n")
	switch w.DS {
	case "set":
		p("%s", setObj)
	case "hashtable":
		p("%s", hashObj)
	default:
		p("%s", ufObj)
	}
	for i := 1; i <= w.N; i++ {
		switch {
		case w.DS == "set" && w.Kind == "mixed":
			p("global a%d: bool;\n", i)
			p("global c%d: bool;\n", i)
		case w.DS == "set":
			p("global c%d: bool;\n", i)
		case w.DS == "hashtable" && w.Kind == "mixed":
			p("global p%d: int = -1;\n", i)
			p("global g%d: int = -1;\n", i)
		case w.DS == "hashtable":
			p("global g%d: int = -1;\n", i)
		default:
			p("global r%d: int = -1;\n", i)
		}
	}
	p("\n")
	for i := 1; i <= w.N; i++ {
		p("fn t%d() {\n", i)
		switch w.DS + "/" + w.Kind {
		case "set/seekers":
			p("    c%d = s.contains(%d);\n", i, i)
		case "set/mixed":
			p("    a%d = s.add(%d);\n", i, i)
			p("    c%d = s.contains(%d);\n", i, i%w.N+1)
		case "hashtable/seekers":
			p("    g%d = h.get(%d);\n", i, i%2+1)
		case "hashtable/mixed":
			p("    p%d = h.put(%d, %d);\n", i, i%2, i)
			p("    g%d = h.get(%d);\n", i, (i+1)%2)
		case "union-find/seekers":
			p("    r%d = uf.find(%d);\n", i, i%4)
		case "union-find/mixed":
			p("    uf.union(%d, %d);\n", i%4, (i+1)%4)
			p("    r%d = uf.find(%d);\n", i, i%4)
		}
		p("}\n\n")
	}
	p("fn main() {\n")
	switch w.DS + "/" + w.Kind {
	case "set/seekers":
		p("    s.add(1);\n    s.add(2);\n")
	case "hashtable/seekers":
		p("    h.put(1, 10);\n    h.put(2, 20);\n")
	case "union-find/seekers":
		p("    uf.init();\n    uf.union(0, 1);\n    uf.union(1, 2);\n    uf.union(2, 3);\n")
	case "union-find/mixed":
		p("    uf.init();\n")
	}
	for i := 1; i <= w.N; i++ {
		p("    let x%d = spawn t%d();\n", i, i)
	}
	for i := 1; i <= w.N; i++ {
		p("    join(x%d);\n", i)
	}
	switch w.DS + "/" + w.Kind {
	case "set/seekers":
		for i := 1; i <= w.N; i++ {
			if i <= 2 {
				p("    assert(c%d, \"contains(%d) missed an element\");\n", i, i)
			} else {
				p("    assert(!c%d, \"contains(%d) found a missing element\");\n", i, i)
			}
		}
	case "set/mixed":
		for i := 1; i <= w.N; i++ {
			p("    assert(a%d, \"add(%d) of a fresh element returned false\");\n", i, i)
			p("    let f%d = s.contains(%d);\n    assert(f%d, \"element %d lost\");\n", i, i, i, i)
		}
	case "hashtable/seekers":
		for i := 1; i <= w.N; i++ {
			p("    assert(g%d == %d, \"get(%d) returned a wrong value\");\n", i, (i%2+1)*10, i%2+1)
		}
	case "hashtable/mixed":
		for i := 1; i <= w.N; i++ {
			p("    assert(p%d == 0 || p%d %% 2 == %d, \"put(%d) returned a value of another key\");\n", i, i, i%2, i%2)
			p("    assert(g%d == 0 || g%d %% 2 == %d, \"get(%d) returned a value of another key\");\n", i, i, (i+1)%2, (i+1)%2)
		}
		p("    let n = h.size();\n    assert(n == 2, \"wrong size\");\n")
	case "union-find/seekers":
		for i := 1; i <= w.N; i++ {
			p("    assert(r%d == 3, \"find(%d) returned a wrong root\");\n", i, i%4)
		}
	case "union-find/mixed":
		for i := 1; i <= w.N; i++ {
			p("    assert(r%d >= 0 && r%d < 4, \"find returned no element\");\n", i, i)
		}
		if w.N >= 3 {
			// The unions (1,2), (2,3), (3,0), ... join every element.
			p("    let all = uf.same(0, 1) && uf.same(1, 2) && uf.same(2, 3);\n")
			p("    assert(all, \"the unions did not join every element\");\n")
		} else {
			// union(1, 2) and union(2, 3): 1, 2, 3 joined, 0 alone.
			p("    let j = uf.same(1, 2) && uf.same(2, 3);\n    let sep = uf.same(0, 1);\n")
			p("    assert(j && !sep, \"wrong partition\");\n")
		}
	}
	p("}\n")
	return b.String()
}

// workloads lists every benchmark program.
func workloads() []workload {
	var ws []workload
	for _, ds := range []string{"set", "hashtable", "union-find"} {
		for _, k := range []string{"seekers", "mixed"} {
			for n := 2; n <= 7; n++ {
				ws = append(ws, workload{ds, k, n})
			}
		}
	}
	return ws
}

// generate writes every benchmark program into dir.
func generate(dir string) error {
	for _, w := range workloads() {
		if err := os.WriteFile(filepath.Join(dir, w.name()+".cir"), []byte(w.source()), 0o644); err != nil {
			return err
		}
	}
	return nil
}
