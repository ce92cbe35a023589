package c

import (
	"strings"
	"testing"

	"ncmc/ncmc"
)

// TestUnions gives unions their C meaning where the members share cells
// of the same layout: every member starts at cell 0, a member read after
// another was written sees its bits in the reader's type, a smaller member
// reads a prefix of a larger one, unions nest in structs (also anonymous
// ones) and structs in unions, initializers set the first or the
// designated member, and union objects are copied whole. Each case has a
// buggy variant that must fail.
func TestUnions(t *testing.T) {
	both := []string{"sc", "rc11"}
	runSyncCases(t, []syncCase{
		{name: "read-through-other-member", models: both, want: ncmc.Verified, src: `
union U { int i; unsigned u; };
union U g;
int main(void) {
	union U l;
	l.i = -1; assert(l.u == 4294967295u && l.i == -1);
	g.u = 4294967294u; assert(g.i == -2);
	unsigned *pu = &l.u; *pu = 2147483648u; assert(l.i == -2147483647 - 1);
	int *pi = &g.i; assert(*pi == -2);
	return 0;
}`},
		{name: "read-through-other-member-buggy", models: both, want: ncmc.Violation, msg: "l.u == 1", src: `
union U { int i; unsigned u; };
int main(void) { union U l; l.i = -1; assert(l.u == 1); return 0; }`},
		{name: "pointer-through-pointer", want: ncmc.Verified, src: `
union P { int *ip; void *vp; char *cp; };
int x = 5;
int main(void) { union P p; p.vp = &x; assert(*p.ip == 5); p.ip = 0; assert(p.vp == 0); return 0; }`},
		{name: "nested-in-struct", models: both, want: ncmc.Verified, src: `
struct node { int tag; union { int i; unsigned u; struct { int a, b; } pair; } v; int after; };
struct node n = { 1, { 7 }, 9 };
struct node m = { .tag = 2, .v = { .pair = { 3, 4 } }, .after = 5 };
int main(void) {
	assert(n.tag == 1 && n.v.i == 7 && n.v.pair.a == 7 && n.v.pair.b == 0 && n.after == 9);
	assert(m.v.pair.a == 3 && m.v.pair.b == 4 && m.v.i == 3 && m.after == 5);
	struct node *p = &n;
	p->v.pair.b = 8; p->v.u = 3u;
	assert(p->v.i == 3 && p->v.pair.b == 8 && n.after == 9);
	return 0;
}`},
		{name: "anonymous-union-member", want: ncmc.Verified, src: `
struct s { int kind; union { int i; unsigned u; }; int last; };
int main(void) { struct s v = { 1, 2, 3 }; assert(v.i == 2 && v.u == 2 && v.last == 3); v.u = 0xffffffffu; assert(v.i == -1); return 0; }`},
		{name: "nested-buggy", want: ncmc.Violation, msg: "m.v.pair.b == 0", src: `
struct node { int tag; union { int i; struct { int a, b; } pair; } v; };
int main(void) { struct node m; m.v.pair.b = 4; m.v.i = 1; assert(m.v.pair.b == 0); return 0; }`},
		{name: "copy-and-heap", want: ncmc.Verified, src: `
union U { long long w; unsigned long long uw; };
struct h { union U a[2]; };
int main(void) {
	union U x, y; x.w = -5; y = x; assert(y.uw == (unsigned long long)-5);
	struct h *p = malloc(sizeof *p); p->a[1] = x; p->a[0].uw = 1; assert(p->a[1].w == -5 && p->a[0].w == 1);
	free(p);
	return 0;
}`},
		{name: "shared-between-threads", models: both, want: ncmc.Violation, msg: "r == 0 || r == -1", src: `
union U { int i; unsigned u; } g; atomic_int done;
void *w(void *a) { g.u = 1u; atomic_store(&done, 1); return 0; }
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	int r = 0;
	if (atomic_load(&done)) r = g.i;
	assert(r == 0 || r == -1);
	return 0;
}`},
		{name: "atomic-member", models: both, want: ncmc.Verified, src: `
union U { atomic_int a; int plain; } g;
void *w(void *x) { atomic_store(&g.a, 1); return 0; }
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	while (atomic_load(&g.a) == 0) ;
	pthread_join(t, 0);
	assert(g.plain == 1);
	return 0;
}`},
	})
}

// TestUnionsUnsupported: unions whose members would need byte-level
// reinterpretation are rejected with the position of the member.
func TestUnionsUnsupported(t *testing.T) {
	cases := []struct{ name, decl, want string }{
		{"int-and-chars", "union U { int i; char c[4]; } u; int f(void) { return &u == 0; }", "t.c:1:23: unsupported: union U: members i and c overlap at cell 0"},
		{"wide-and-pair", "union U { long long w; struct { int a, b; } s; } u; int f(void) { return &u == 0; }", "members w and s overlap at cell 0"},
		{"int-and-pointer", "union U { int i; int *p; } u; int f(void) { return &u == 0; }", "members i and p overlap at cell 0"},
		{"short-and-int", "union U { short s; int i; } u; int f(void) { return &u == 0; }", "members s and i overlap"},
		{"atomic-union-member", "_Atomic union U { int i; } u; int f(void) { return u.i; }", "t.c:1:52: unsupported: member i of an atomic struct or union"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantUnsupported(t, c.decl+"\nint main(void) { return f(); }\n", Options{}, c.want)
		})
	}
}

// wantUnsupported checks that the C program src (file t.c) is rejected
// under opts as unsupported with a message containing want.
func wantUnsupported(t *testing.T, src string, opts Options, want string) {
	t.Helper()
	_, err := Compile("t.c", []byte(src), opts)
	if u, ok := err.(*Unsupported); !ok || !strings.Contains(u.Error(), want) {
		t.Fatalf("error %v, want unsupported %q", err, want)
	}
}
