// Package progen forwards to ncmc/internal/progen, the generator of random
// programs, which moved to the module root so that every package's tests
// (hunt's among them) can use it. The test files of the vmcr and trust
// glue still import this path; it goes when they move.
package progen

import (
	"math/rand/v2"

	"ncmc/internal/progen"
)

// Config configures Generate (progen.Config).
type Config = progen.Config

// Default is progen.Default.
func Default() Config { return progen.Default() }

// Generate is progen.Generate.
func Generate(rng *rand.Rand, cfg Config) string { return progen.Generate(rng, cfg) }
