package ncmc

import (
	"context"
	"errors"

	"ncmc/ir"
)

// verifyNCMCThesis explores prog with the NCMC thesis's rule (Options.NCMCRule
// "thesis"). It is implemented separately (see docs/ncmc.md).
func verifyNCMCThesis(ctx context.Context, prog *ir.Program, o Options) (*Result, error) {
	return nil, errors.New("ncmc rule thesis: not implemented yet")
}
