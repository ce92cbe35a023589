package trustx_test

import (
	"testing"

	"ncmc/explore/explorertest"
	"ncmc/ncmc"
)

// TestTrustLitmusTSO: the trust explorer under tso gives herd's verdict
// on every tso row of bench/litmus/expected.csv (every fourth with
// -short). The ra and rc11 rows, data races and execution counts
// included, go through trust in herd's TestConformance (herd.Run
// enumerates with trust under those models).
func TestTrustLitmusTSO(t *testing.T) { explorertest.LitmusRows(t, "tso", "trust", ncmc.Verify) }
