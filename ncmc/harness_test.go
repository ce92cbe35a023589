package ncmc_test

import (
	"fmt"
	"testing"
)

// harnessSize is the number of generated programs of a differential test:
// n if set by its flag, else def, short with -short, long with -long (or
// NCMC_LONG=1).
func harnessSize(n, def, short, long uint64) uint64 {
	if n != 0 {
		return n
	}
	switch {
	case longTests():
		return long
	case testing.Short():
		return short
	}
	return def
}

// inChunks runs each on the seeds first .. first+n-1, split into chunks
// parallel subtests of a subtest "chunks" (which returns when all are done,
// so the caller can report totals afterwards).
func inChunks(t *testing.T, first, n, chunks uint64, each func(t *testing.T, seed uint64)) {
	t.Run("chunks", func(t *testing.T) {
		for c := uint64(0); c < chunks; c++ {
			from, to := first+c*n/chunks, first+(c+1)*n/chunks
			t.Run(fmt.Sprintf("%d-%d", from, to), func(t *testing.T) {
				t.Parallel()
				for seed := from; seed < to; seed++ {
					each(t, seed)
				}
			})
		}
	})
}
