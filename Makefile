# ncmc — build, demo and tests. Works on a fresh Debian/Ubuntu machine with Go:
# `make deps` installs the C library the Z3 binding links against when it is missing.
GO      ?= go
BIN     := bin/ncmc
SUDO    := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps browser build demo serve test test-short test-long vet fmt-check fuzz bench sweep compare clean

all: build

deps:
	@if [ ! -f /usr/include/z3.h ] && ! pkg-config --exists z3 2>/dev/null; then \
		echo "ncmc: installing libz3-dev (needed by the Z3 binding)"; \
		$(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libz3-dev; \
	fi

# The browser test of the teaching page (serve/browser_test.go) drives
# headless Chromium: install Debian's chromium when no browser is found.
# If it cannot be installed, the test is skipped with a message.
browser:
	@if ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null && ! command -v google-chrome >/dev/null; then \
		echo "ncmc: installing chromium (for the browser test of ncmc serve)"; \
		($(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) \
			|| echo "ncmc: chromium could not be installed: the browser test will be skipped"; \
	fi

build: deps
	$(GO) build -o $(BIN) ./cmd/ncmc

# The demo verifies a correct and a buggy Peterson lock and shows a deadlock.
demo: build
	./$(BIN) verify examples/peterson.cir
	@echo
	./$(BIN) verify examples/peterson-buggy.cir; test $$? -eq 1
	@echo
	./$(BIN) verify examples/deadlock-abba.cir; test $$? -eq 1

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "not gofmt-formatted:"; echo "$$out"; exit 1; fi

vet: deps
	$(GO) vet ./...

# The teaching page (ADDR=host:port to listen elsewhere).
ADDR ?= 127.0.0.1:8080
serve: build
	./$(BIN) serve --addr $(ADDR)

# The tests build without profile-guided optimisation (cmd/ncmc/default.pgo
# changes only the speed; GOFLAGS reaches the builds the tests run too).
test: deps browser fmt-check vet
	GOFLAGS="-pgo=off $$GOFLAGS" $(GO) test -timeout 60m ./...
	GOFLAGS="-pgo=off $$GOFLAGS" $(GO) test -timeout 10m ./frontend/c -run 'TestProgramDiff' -count=1 -progdiff.n 500
	@if command -v python3 >/dev/null; then python3 -m unittest discover -s benchmarks/benchexec -p 'test_*.py'; fi

# The inner loop: every package with its -short sizes (samples of the litmus
# conformance rows, smaller differential harnesses, shorter SV-COMP timeouts):
# about 180 CPU-seconds in all, meant to take under 2 minutes on 2 idle cores.
# make test (CI) runs the full sizes.
test-short: deps
	GOFLAGS="-pgo=off $$GOFLAGS" $(GO) test -short -timeout 10m ./...

# The issue-sized differential runs (native decider against Z3 and vmcr
# against the reference explorer on 2000 generated programs each; about
# 20 CPU-minutes; the C front end against gcc on 5000 generated programs,
# about 8 minutes), beyond the default sizes of make test.
test-long: deps
	$(GO) test -timeout 120m ./ncmc -run 'TestDeciderDifferential' -count=1 -decider.n 2000
	$(GO) test -timeout 30m ./ncmc -run 'TestDeciderCyclicFixture' -count=1 -long
	$(GO) test -timeout 180m ./explore/vmcrx -run 'TestVMCRDifferential' -count=1 -vmcr.n 2000 -vmcr.sbn 2000 -vmcr.fn 1000
	$(GO) test -timeout 120m ./explore/vmcrx -run 'TestVMCROracle$$' -count=1 -oracle.n 2000
	$(GO) test -timeout 60m ./frontend/c -run 'TestProgramDiff' -count=1 -progdiff.n 5000

# Short fuzzing of every fuzz target (FUZZTIME=60s for the full run).
FUZZTIME ?= 10s
fuzz: deps
	@for pkg in $$($(GO) list ./...); do \
		for t in $$($(GO) test -list '^Fuzz' $$pkg 2>/dev/null | grep '^Fuzz'); do \
			echo "== $$pkg $$t"; $(GO) test $$pkg -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) || exit 1; \
		done; \
	done

# The SV-COMP sweep of the bench beside the checkout (about 5 minutes on 2
# cores), scored against the task files and, beside that, with the
# documented corrections of benchmarks/svcomp/corrections.yaml.
SVCOMP ?= ../shared/bench/svcomp
sweep: build
	./$(BIN) sweep $(SVCOMP) --timeout 60s --jobs 2 --corrections benchmarks/svcomp/corrections.yaml --out sweep-results

# ncmc beside GenMC and Nidhugg (when built by ../shared/anchors/build.sh into
# $$ANCHORS, default ~/.cache/ncmc-anchors; their rows are skipped otherwise) on
# GenMC's synthetic tests, read from ../shared/anchors/genmc-0.10.3.tar.gz, and
# on examples/*.cir: a Markdown table per model. Flags through COMPARE_FLAGS,
# e.g. COMPARE_FLAGS='-models sc,tso,ra,rc11 -out benchmarks/RESULTS.md'
# (go run ./benchmarks/compare -h lists them).
COMPARE_FLAGS ?=
compare: deps
	$(GO) run ./benchmarks/compare $(COMPARE_FLAGS)

bench: deps
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -rf bin
