package objgen

import "strings"

// Impl is one object implementation of the library: the CIR declarations of
// the object type (and the records it allocates), its linearizable methods
// with the argument domains generated programs draw from, and a sound
// commutativity specification (checked by TestSpecsSound with
// commspec/speccheck, as `ncmc spec check` does).
type Impl struct {
	Name   string   // short name, e.g. "set-list-size"
	Object string   // the CIR object type
	Kind   string   // counter, set, hashtable or unionfind
	Decls  string   // CIR declarations: records and the object
	Spec   string   // the YAML commutativity specification of Object
	Calls  []Method // the linearizable methods generated programs call
	// Peek lists int fields (with an index for arrays) a client may read
	// directly, an unscoped access to a cell of the object, in programs
	// whose methods are atomic (a read inside a locked method's critical
	// section would observe a state no linearization has).
	Peek []string
	// Abs lists abstraction calls (with arguments) main may use in its final
	// checks, with the values they can have in the generated programs.
	Abs []AbsCall
}

// Source returns the declarations of the implementation; with atomic, every
// lock-protected section of a method (`lock(this.m); ... unlock(this.m);`)
// becomes an atomic block instead, which has far fewer interleavings for
// the reference explorer to enumerate (each call is one scheduling point).
func (im *Impl) Source(atomic bool) string {
	if !atomic {
		return im.Decls
	}
	var b strings.Builder
	extra := 0
	for _, line := range strings.SplitAfter(im.Decls, "\n") {
		t := strings.TrimSpace(line)
		ind := line[:len(line)-len(strings.TrimLeft(line, " "))]
		switch t {
		case "lock(this.m);":
			b.WriteString(ind + "atomic {\n")
			extra++
			continue
		case "unlock(this.m);":
			extra--
			b.WriteString(ind + "}\n")
			continue
		}
		if t != "" {
			b.WriteString(strings.Repeat("    ", extra))
		}
		b.WriteString(line)
	}
	return b.String()
}

// Method is a linearizable method with the domains of its arguments.
type Method struct {
	Name   string
	Args   [][]int // one domain per parameter
	Result string  // "", "int" or "bool"
}

// AbsCall is a call of an abstraction method (e.g. "bits()") and the values
// its result is drawn from when a final check compares it with a constant.
type AbsCall struct {
	Call   string
	Values []int
}

// Library returns the object implementations, in a fixed order. The
// returned values are fresh on every call.
func Library() []*Impl {
	vals := []int{0, 1, 2}
	set := func(name, object, decls string, peek ...string) *Impl {
		return &Impl{Peek: peek, Name: name, Object: object, Kind: "set", Decls: decls, Spec: setSpec(object),
			Calls: []Method{
				{Name: "add", Args: [][]int{vals}, Result: "bool"},
				{Name: "remove", Args: [][]int{vals}, Result: "bool"},
				{Name: "contains", Args: [][]int{vals}, Result: "bool"},
				{Name: "size", Result: "int"},
			},
			Abs: []AbsCall{{Call: "bits()", Values: []int{0, 1, 2, 3, 4, 5, 6, 7}}},
		}
	}
	counter := func(name, object, decls string) *Impl {
		return &Impl{Peek: []string{"n"}, Name: name, Object: object, Kind: "counter", Decls: decls, Spec: counterSpec(object),
			Calls: []Method{
				{Name: "inc"},
				{Name: "add", Args: [][]int{{0, 1, 2}}},
				{Name: "get", Result: "int"},
			},
			Abs: []AbsCall{{Call: "value()", Values: []int{0, 1, 2, 3, 4}}},
		}
	}
	return []*Impl{
		counter("counter-lock", "CounterL", counterLock),
		counter("counter-atomic", "CounterA", counterAtomic),
		set("set-array", "SetArr", setArr, "slot[0]", "slot[1]"),
		set("set-array-size", "SetArrN", setArrN, "n", "elems[0]"),
		set("set-list", "SetList", setList),
		set("set-list-size", "SetListN", setListN, "count"),
		{Name: "hashtable", Object: "HTab", Kind: "hashtable", Decls: hashTable, Spec: hashSpec, Peek: []string{"count"},
			Calls: []Method{
				{Name: "put", Args: [][]int{{0, 1, 2, 3}, {1, 2}}, Result: "int"},
				{Name: "get", Args: [][]int{{0, 1, 2, 3}}, Result: "int"},
				{Name: "size", Result: "int"},
			},
			Abs: []AbsCall{
				{Call: "keys()", Values: []int{0, 1, 2, 3}},
				{Call: "lookup(0)", Values: []int{0, 1, 2}},
				{Call: "lookup(1)", Values: []int{0, 1, 2}},
				{Call: "lookup(2)", Values: []int{0, 1, 2}},
				{Call: "lookup(3)", Values: []int{0, 1, 2}},
			},
		},
		{Name: "union-find", Object: "UFind", Kind: "unionfind", Decls: unionFind, Spec: ufSpec, Peek: []string{"up[0]", "up[1]", "up[2]"},
			Calls: []Method{
				{Name: "find", Args: [][]int{{0, 1, 2, 3}}, Result: "int"},
				{Name: "same", Args: [][]int{{0, 1, 2, 3}, {0, 1, 2, 3}}, Result: "bool"},
				{Name: "union", Args: [][]int{{0, 1, 2, 3}, {0, 1, 2, 3}}},
			},
			// classes(): bits 2i..2i+1 hold the least element of i's class;
			// 228 = 0b11100100 is the initial partition {0},{1},{2},{3}.
			Abs: []AbsCall{{Call: "classes()", Values: []int{228, 224, 192, 196, 164, 0, 128}}},
		},
	}
}

const counterLock = `object CounterL {
    n: int;
    m: mutex;

    linearizable fn inc() {
        lock(this.m);
        this.n = this.n + 1;
        unlock(this.m);
    }

    linearizable fn add(k: int) {
        lock(this.m);
        let c = this.n;
        this.n = c + k;
        unlock(this.m);
    }

    linearizable fn get(): int {
        let c = 0;
        lock(this.m);
        c = this.n;
        unlock(this.m);
        return c;
    }

    abstraction fn value(): int {
        return this.n;
    }
}
`

const counterAtomic = `object CounterA {
    atomic n: int;

    linearizable fn inc() {
        fetch_add(this.n, 1);
    }

    linearizable fn add(k: int) {
        fetch_add(this.n, k);
    }

    linearizable fn get(): int {
        return this.n;
    }

    abstraction fn value(): int {
        return this.n;
    }
}
`

func counterSpec(object string) string {
	return `object: ` + object + `
doc: increments commute with each other; get commutes with get and with add(0).
methods:
  inc: {}
  add: {args: {k: int}}
  get: {result: {v: int}}
commute:
  inc/inc: true
  inc/add: true
  add/add: true
  add/get: k1 == 0
  get/get: true
check:
  depth: 3
  ints: [0, 1, 2]
`
}

// A set of the values 0..2 in an array of slots holding value+1 (0: empty),
// without a size field: size() counts the slots in use.
const setArr = `object SetArr {
    slot: int[3];
    m: mutex;

    fn index(v: int): int {
        for i in 0..3 {
            if (this.slot[i] == v + 1) {
                return i;
            }
        }
        return -1;
    }

    linearizable fn add(v: int): bool {
        let ok = false;
        lock(this.m);
        if (this.index(v) < 0) {
            for i in 0..3 {
                if (this.slot[i] == 0) {
                    this.slot[i] = v + 1;
                    ok = true;
                    break;
                }
            }
        }
        unlock(this.m);
        return ok;
    }

    linearizable fn remove(v: int): bool {
        let i = -1;
        lock(this.m);
        i = this.index(v);
        if (i >= 0) {
            this.slot[i] = 0;
        }
        unlock(this.m);
        return i >= 0;
    }

    linearizable fn contains(v: int): bool {
        let i = -1;
        lock(this.m);
        i = this.index(v);
        unlock(this.m);
        return i >= 0;
    }

    linearizable fn size(): int {
        let n = 0;
        lock(this.m);
        for i in 0..3 {
            if (this.slot[i] != 0) {
                n = n + 1;
            }
        }
        unlock(this.m);
        return n;
    }

    abstraction fn bits(): int {
        let b = 0;
        for i in 0..3 {
            let s = this.slot[i];
            if (s != 0) {
                b = b | (1 << (s - 1));
            }
        }
        return b;
    }
}
`

// A set as an unordered array elems[0..n) with a size field n; remove moves
// the last element into the hole.
const setArrN = `object SetArrN {
    elems: int[3];
    n: int;
    m: mutex;

    fn index(v: int): int {
        let n = this.n;
        for i in 0..n @unroll(3) {
            if (this.elems[i] == v) {
                return i;
            }
        }
        return -1;
    }

    linearizable fn add(v: int): bool {
        let ok = false;
        lock(this.m);
        let n = this.n;
        if (this.index(v) < 0 && n < 3) {
            this.elems[n] = v;
            this.n = n + 1;
            ok = true;
        }
        unlock(this.m);
        return ok;
    }

    linearizable fn remove(v: int): bool {
        let i = -1;
        lock(this.m);
        i = this.index(v);
        if (i >= 0) {
            let last = this.n - 1;
            this.elems[i] = this.elems[last];
            this.n = last;
        }
        unlock(this.m);
        return i >= 0;
    }

    linearizable fn contains(v: int): bool {
        let i = -1;
        lock(this.m);
        i = this.index(v);
        unlock(this.m);
        return i >= 0;
    }

    linearizable fn size(): int {
        let n = 0;
        lock(this.m);
        n = this.n;
        unlock(this.m);
        return n;
    }

    abstraction fn bits(): int {
        let b = 0;
        let n = this.n;
        for i in 0..n @unroll(3) {
            b = b | (1 << this.elems[i]);
        }
        return b;
    }
}
`

// A set as an unsorted linked list (insertion at the head), without a size
// field: size() walks the list.
const setList = `record SLNode {
    val: int;
    next: *SLNode;
}

object SetList {
    head: *SLNode;
    m: mutex;

    linearizable fn add(v: int): bool {
        let found = false;
        lock(this.m);
        let cur = this.head;
        while (cur != null) @unroll(4) {
            if (cur.val == v) {
                found = true;
                break;
            }
            cur = cur.next;
        }
        if (!found) {
            this.head = new SLNode { val: v, next: this.head };
        }
        unlock(this.m);
        return !found;
    }

    linearizable fn remove(v: int): bool {
        let found = false;
        lock(this.m);
        let prev: *SLNode = null;
        let cur = this.head;
        while (cur != null) @unroll(4) {
            if (cur.val == v) {
                if (prev == null) {
                    this.head = cur.next;
                } else {
                    prev.next = cur.next;
                }
                found = true;
                break;
            }
            prev = cur;
            cur = cur.next;
        }
        unlock(this.m);
        return found;
    }

    linearizable fn contains(v: int): bool {
        let cur: *SLNode = null;
        lock(this.m);
        cur = this.head;
        while (cur != null && cur.val != v) @unroll(4) {
            cur = cur.next;
        }
        unlock(this.m);
        return cur != null;
    }

    linearizable fn size(): int {
        let n = 0;
        lock(this.m);
        let cur = this.head;
        while (cur != null) @unroll(4) {
            n = n + 1;
            cur = cur.next;
        }
        unlock(this.m);
        return n;
    }

    abstraction fn bits(): int {
        let b = 0;
        let cur = this.head;
        while (cur != null) @unroll(4) {
            b = b | (1 << cur.val);
            cur = cur.next;
        }
        return b;
    }
}
`

// A set as a sorted linked list with a size field.
const setListN = `record SNNode {
    val: int;
    next: *SNNode;
}

object SetListN {
    head: *SNNode;
    count: int;
    m: mutex;

    linearizable fn add(v: int): bool {
        let fresh = false;
        lock(this.m);
        let prev: *SNNode = null;
        let cur = this.head;
        while (cur != null && cur.val < v) @unroll(4) {
            prev = cur;
            cur = cur.next;
        }
        fresh = cur == null || cur.val != v;
        if (fresh) {
            let n = new SNNode { val: v, next: cur };
            if (prev == null) {
                this.head = n;
            } else {
                prev.next = n;
            }
            this.count = this.count + 1;
        }
        unlock(this.m);
        return fresh;
    }

    linearizable fn remove(v: int): bool {
        let found = false;
        lock(this.m);
        let prev: *SNNode = null;
        let cur = this.head;
        while (cur != null && cur.val < v) @unroll(4) {
            prev = cur;
            cur = cur.next;
        }
        found = cur != null && cur.val == v;
        if (found) {
            if (prev == null) {
                this.head = cur.next;
            } else {
                prev.next = cur.next;
            }
            this.count = this.count - 1;
        }
        unlock(this.m);
        return found;
    }

    linearizable fn contains(v: int): bool {
        let found = false;
        lock(this.m);
        let cur = this.head;
        while (cur != null && cur.val < v) @unroll(4) {
            cur = cur.next;
        }
        found = cur != null && cur.val == v;
        unlock(this.m);
        return found;
    }

    linearizable fn size(): int {
        let n = 0;
        lock(this.m);
        n = this.count;
        unlock(this.m);
        return n;
    }

    abstraction fn bits(): int {
        let b = 0;
        let cur = this.head;
        while (cur != null) @unroll(4) {
            b = b | (1 << cur.val);
            cur = cur.next;
        }
        return b;
    }
}
`

func setSpec(object string) string {
	return `object: ` + object + `
doc: >-
  add(v) returns whether v was added, remove(v) whether v was removed,
  contains(v) whether v is in the set, size() the number of elements.
  Invocations on different values commute; an add or remove that changed
  nothing commutes with the queries of its value and with size.
methods:
  add:      {args: {v: int}, result: {r: bool}}
  remove:   {args: {v: int}, result: {r: bool}}
  contains: {args: {v: int}, result: {r: bool}}
  size:     {result: {n: int}}
commute:
  add/add: v1 != v2 || (!r1 && !r2)
  remove/remove: v1 != v2 || (!r1 && !r2)
  add/remove: v1 != v2
  add/contains: v1 != v2 || !r1
  remove/contains: v1 != v2 || !r1
  contains/contains: true
  add/size: not r1
  remove/size: not r1
  contains/size: true
  size/size: true
check:
  depth: 3
  ints: [0, 1, 2]
`
}

// A hash table of int keys to non-zero int values: 2 buckets of chains
// (keys 0 and 2 collide, so do 1 and 3), insertion at the head of the
// bucket, and a size field.
const hashTable = `record HTEntry {
    key: int;
    val: int;
    next: *HTEntry;
}

object HTab {
    bucket: *HTEntry[2];
    count: int;
    m: mutex;

    linearizable fn put(k: int, v: int): int {
        let old = 0;
        lock(this.m);
        let b = k % 2;
        let e = this.bucket[b];
        while (e != null && e.key != k) @unroll(4) {
            e = e.next;
        }
        if (e != null) {
            old = e.val;
            e.val = v;
        } else {
            this.bucket[b] = new HTEntry { key: k, val: v, next: this.bucket[b] };
            this.count = this.count + 1;
        }
        unlock(this.m);
        return old;
    }

    linearizable fn get(k: int): int {
        let v = 0;
        lock(this.m);
        let e = this.bucket[k % 2];
        while (e != null) @unroll(4) {
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
        let n = 0;
        lock(this.m);
        n = this.count;
        unlock(this.m);
        return n;
    }

    abstraction fn lookup(k: int): int {
        let e = this.bucket[k % 2];
        while (e != null) @unroll(4) {
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
`

const hashSpec = `object: HTab
doc: >-
  put(k, v) returns the previous value p of k (nil if absent), get(k) the
  value of k, size() the number of keys. Invocations on different keys
  commute; a put that did not change the value commutes with everything on
  its key; a put on a present key keeps the size.
constants:
  nil: 0
methods:
  put:  {args: {k: int, v: int}, result: {p: int}}
  get:  {args: {k: int}, result: {v: int}}
  size: {result: {n: int}}
commute:
  put/put: k1 != k2 || (v1 == p1 && v2 == p2)
  put/get: k1 != k2 || v1 == p1
  put/size: p1 != nil
  get/get: true
  get/size: true
  size/size: true
check:
  depth: 2
  ints: [0, 1, 2, 3]
  args:
    put.v: [0, 1, 2]
`

// Union-find over the elements 0..3 with path compression: up[i] == 0 iff i
// is a root, else i's parent is up[i] - 1 (so the zero state is the
// partition into singletons and needs no initialisation). union(a, b) links
// the root of a's class under the root of b's class.
const unionFind = `object UFind {
    up: int[4];
    m: mutex;

    fn root(x: int): int {
        let r = x;
        while (this.up[r] != 0) @unroll(4) {
            r = this.up[r] - 1;
        }
        let cur = x;
        while (cur != r) @unroll(4) {
            let next = this.up[cur] - 1;
            if (next != r) {
                this.up[cur] = r + 1;
            }
            cur = next;
        }
        return r;
    }

    linearizable fn find(x: int): int {
        let r = 0;
        lock(this.m);
        r = this.root(x);
        unlock(this.m);
        return r;
    }

    linearizable fn same(a: int, b: int): bool {
        let s = false;
        lock(this.m);
        s = this.root(a) == this.root(b);
        unlock(this.m);
        return s;
    }

    linearizable fn union(a: int, b: int) {
        lock(this.m);
        let ra = this.root(a);
        let rb = this.root(b);
        if (ra != rb) {
            this.up[ra] = rb + 1;
        }
        unlock(this.m);
    }

    // The partition: bits 2i..2i+1 hold the least element of i's class.
    abstraction fn classes(): int {
        let code = 0;
        for i in 0..4 {
            let ri = i;
            while (this.up[ri] != 0) @unroll(4) {
                ri = this.up[ri] - 1;
            }
            let least = i;
            for j in 0..4 {
                let rj = j;
                while (this.up[rj] != 0) @unroll(4) {
                    rj = this.up[rj] - 1;
                }
                if (rj == ri && j < least) {
                    least = j;
                }
            }
            code = code | (least << (2 * i));
        }
        return code;
    }

    // The root of x's class (find observes roots, so they are abstract state).
    abstraction fn rootOf(x: int): int {
        let r = x;
        while (this.up[r] != 0) @unroll(4) {
            r = this.up[r] - 1;
        }
        return r;
    }
}
`

const ufSpec = `object: UFind
doc: >-
  L1 over the partition classes(). Queries commute. A union changes the root
  of x's class iff x is in a's class and a, b were apart; it changes same(a,
  b) iff it merges exactly their two classes. Unions of disjoint classes
  commute, and so do two no-op unions. Each union is judged in the state
  before it.
methods:
  find:  {args: {x: int}, result: {r: int}}
  same:  {args: {a: int, b: int}, result: {s: bool}}
  union: {args: {a: int, b: int}}
abstraction:
  classes: {result: int}
functions:
  cls:  {args: {c: int, i: int}, result: int, def: "(c >> (2 * i)) & 3"}
  tog:  {args: {c: int, i: int, j: int}, result: bool, def: "cls(c, i) == cls(c, j)"}
  away: {args: {c: int, a: int, b: int, x: int, y: int}, result: bool,
         def: "not tog(c, a, x) and not tog(c, a, y) and not tog(c, b, x) and not tog(c, b, y)"}
commute:
  find/find: true
  find/same: true
  same/same: true
  find/union: not tog(classes2(), x1, a2) or tog(classes2(), a2, b2)
  same/union: >-
    tog(classes2(), a1, b1) or tog(classes2(), a2, b2) or
    not (tog(classes2(), a1, a2) and tog(classes2(), b1, b2) or
         tog(classes2(), a1, b2) and tog(classes2(), b1, a2))
  union/union: >-
    away(classes1(), a1, b1, a2, b2) and away(classes2(), a1, b1, a2, b2) or
    tog(classes1(), a1, b1) and tog(classes2(), a2, b2)
check:
  depth: 2
  ints: [0, 1, 2, 3]
`
