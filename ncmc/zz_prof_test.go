package ncmc_test

import (
	"context"
	"os"
	"testing"

	"ncmc/frontend"
	"ncmc/ncmc"
)

func TestZZProf(t *testing.T) {
	f := os.Getenv("PROF_FILE")
	if f == "" {
		t.Skip()
	}
	p, err := frontend.LoadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ncmc.Verify(context.Background(), p, ncmc.Options{Explorer: "mcr", Workers: 1, Unroll: 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d executions, %d queries", res.Stats.Executions, res.Stats.SMTQueries)
}
