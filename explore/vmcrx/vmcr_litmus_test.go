package vmcrx_test

import (
	"testing"

	"ncmc/explore/explorertest"
	"ncmc/ncmc"
)

// TestVMCRLitmusTSO: vmcr under tso gives herd's verdict on every tso row of bench/litmus/expected.csv (every fourth with -short).
func TestVMCRLitmusTSO(t *testing.T) { explorertest.LitmusRows(t, "tso", "vmcr", ncmc.Verify) }
