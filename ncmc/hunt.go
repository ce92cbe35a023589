package ncmc

import (
	"context"

	"ncmc/hunt"
	"ncmc/ir"
)

// Bug-hunting mode lives in package hunt; these are its names from before
// the split.

type (
	// TestOptions configure Test (hunt.Options).
	TestOptions = hunt.Options
	// TestResult is the answer of Test (hunt.Result).
	TestResult = hunt.Result
	// PCTInfo describes a PCT search (hunt.PCTInfo).
	PCTInfo = hunt.PCTInfo
	// BoundInfo describes one bound of a bounded search (hunt.BoundInfo).
	BoundInfo = hunt.BoundInfo
	// Schedule reproduces a run (hunt.Schedule).
	Schedule = hunt.Schedule
	// SchedStep is one step of a Schedule (hunt.SchedStep).
	SchedStep = hunt.SchedStep
	// ReplayResult is the answer of Replay (hunt.ReplayResult).
	ReplayResult = hunt.ReplayResult
)

// Strategies accepted by TestOptions.Strategy, and the defaults of test mode.
const (
	StrategyPCT           = hunt.StrategyPCT
	StrategyRandom        = hunt.StrategyRandom
	StrategyCBDPOR        = hunt.StrategyCBDPOR
	StrategyCHESS         = hunt.StrategyCHESS
	DefaultTestRuns       = hunt.DefaultTestRuns
	DefaultMaxThreadSteps = hunt.DefaultMaxThreadSteps
)

// Test searches prog for bugs (hunt.Run).
func Test(ctx context.Context, prog *ir.Program, opts TestOptions) (*TestResult, error) {
	return hunt.Run(ctx, prog, opts)
}

// Replay runs prog along schedule s (hunt.Replay).
func Replay(prog *ir.Program, s *Schedule) (*ReplayResult, error) { return hunt.Replay(prog, s) }

// ParseSchedule parses a schedule (hunt.ParseSchedule).
func ParseSchedule(text string) (*Schedule, error) { return hunt.ParseSchedule(text) }

// StrategyNames lists the strategies of Test (hunt.StrategyNames).
func StrategyNames() []string { return hunt.StrategyNames() }

// StrategyHelp describes the strategies of Test (hunt.StrategyHelp).
func StrategyHelp() string { return hunt.StrategyHelp() }
