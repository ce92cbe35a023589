package smt_test

import (
	"context"
	"fmt"
	"time"

	"ncmc/smt"
)

func Example() {
	s := smt.New(smt.Options{Timeout: 5 * time.Second})
	defer s.Close()
	a, b, c := s.NewVar("a"), s.NewVar("b"), s.NewVar("c")
	s.Assert(s.Lt(a, b))                   // program order
	s.Assert(s.Or(s.Lt(b, c), s.Lt(c, a))) // a lock: one section before the other

	s.Push()
	s.Assert(s.Lt(c, b))
	res, err := s.Check(context.Background())
	fmt.Println(res, err)
	if res == smt.Sat {
		fmt.Println(s.Order([]smt.Var{a, b, c}))
	}
	s.Pop()

	s.Push()
	s.Assert(s.And(s.Lt(c, b), s.Lt(a, c)))
	res, err = s.Check(context.Background())
	fmt.Println(res, err)
	s.Pop()
	// Output:
	// sat <nil>
	// [2 0 1]
	// unsat <nil>
}

func ExampleConjunctiveOrder() {
	b := smt.NewBuilder()
	x, y, z := b.NewVar("x"), b.NewVar("y"), b.NewVar("z")
	order, sat, err := smt.ConjunctiveOrder(b.Lt(z, x), b.Lt(x, y))
	fmt.Println(order, sat, err)
	_, sat, _ = smt.ConjunctiveOrder(b.Chain(x, y, z, x))
	fmt.Println(sat)
	// Output:
	// [2 0 1] true <nil>
	// false
}

func ExampleBuilder_Not() {
	b := smt.NewBuilder()
	x, y, z := b.NewVar("x"), b.NewVar("y"), b.NewVar("z")
	f := b.And(b.Lt(x, y), b.Or(b.Lt(y, z), b.Lt(z, x)))
	fmt.Println(f)
	fmt.Println(b.Not(f))
	fmt.Println(b.Not(b.Not(f)) == f)
	// Output:
	// (and (< x y) (or (< y z) (< z x)))
	// (or (< y x) (and (< z y) (< x z)))
	// true
}
