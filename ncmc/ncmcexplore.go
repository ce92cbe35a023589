package ncmc

import (
	"context"
	"errors"

	"ncmc/ir"
)

// exploreNCMC is the ncmc explorer's default (complete) mode.
func exploreNCMC(ctx context.Context, prog *ir.Program, opts Options) (*Result, error) {
	return nil, errors.New("ncmc explorer: not implemented yet")
}
