package ncmc_test

import (
	"context"
	"fmt"

	"ncmc/frontend"
	"ncmc/ncmc"
)

// Running one explorer of the registry directly, without Verify's plan.
func ExampleLookupExplorer() {
	prog, err := frontend.ParseCIR("sb.cir", []byte(`
global x: int;
global y: int;
fn t1() { x = 1; let a = y; }
fn main() { spawn t1(); y = 1; let b = x; }
`))
	if err != nil {
		panic(err)
	}
	e, err := ncmc.LookupExplorer("dpor")
	if err != nil {
		panic(err)
	}
	task, err := ncmc.NewTask(prog, ncmc.Options{})
	if err != nil {
		panic(err)
	}
	res, err := ncmc.Run(context.Background(), e, task)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Verdict, res.Explorer, len(res.Outcomes) > 0)
	// Output: verified dpor true
}
