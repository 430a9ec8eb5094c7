# htnsat: see README.md. Every target works on a fresh clone with only Go.
GO       ?= go
BIN      := bin/htnsat
SHARED   ?= ../shared
FUZZTIME ?= 60s

STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2

# The commit for htnsat --version when the build carries no VCS stamp.
COMMIT   := $(shell git describe --always --dirty --abbrev=12 2>/dev/null)
LDFLAGS  := -X main.commit=$(COMMIT)

.PHONY: all build build-cadical test test-cadical e2e e2e-slurm lint run bench fuzz ipc pandapi results figures vet fmt clean

all: build

# Each build records the commit it was made from beside the binary
# (bin/htnsat.commit), which scripts/ipc.sh puts with its tables. The
# pure-Go build is static (CGO_ENABLED=0): with cgo on, net/http (serve)
# links the C library and every process starts about 0.7 ms later.
build:
	CGO_ENABLED=0 $(GO) build -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/htnsat
	git describe --always --dirty --abbrev=7 >$(BIN).commit 2>/dev/null || rm -f $(BIN).commit

# The same binary with CaDiCaL linked through its C API (needs Debian's
# libcadical-dev and cgo): the default solver of the SAT engines there.
build-cadical:
	$(GO) build -tags cadical -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/htnsat
	git describe --always --dirty --abbrev=7 >$(BIN).commit 2>/dev/null || rm -f $(BIN).commit

# The test suite: formatting, vet, staticcheck, the builds for other
# systems, unit tests, golden files, the fuzz seed corpus and the
# shared-corpus tests (which skip when ../shared is absent).
test: lint
	$(GO) test -timeout 15m ./...

# The SAT engine's tests with CaDiCaL linked (.ci/run runs them too).
test-cadical:
	$(GO) vet -tags cadical ./satenc ./cmd/htnsat
	$(GO) test -tags cadical -timeout 15m ./satenc ./internal/pipeline ./internal/compare ./cmd/htnsat

# The page in headless Chromium (apt-get install chromium): load, solve
# with each engine, step, hint, a wrong digit flagged; writes
# results/page.png. Skips when no Chromium is installed.
e2e:
	$(GO) vet -tags e2e ./internal/web
	$(GO) test -tags e2e -run TestE2E -count=1 -v ./internal/web

# Experiments through a real Slurm cluster (scripts/slurm-local.sh starts a
# one-node one): submit, a task over its memory, a task cancelled, collect,
# submit again. Skips when no Slurm node is up. A few minutes.
e2e-slurm:
	$(GO) vet -tags slurm ./cmd/htnsat
	$(GO) test -tags slurm -run TestSlurm -count=1 -timeout 15m -v ./cmd/htnsat

lint:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt would change:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...
	GOOS=windows $(GO) build ./...
	GOOS=darwin $(GO) build ./...

# The main job: every engine on the embedded default puzzles.
run: build
	$(BIN) compare

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# The README's results: every engine over the shared puzzle sets (minutes).
results: build
	scripts/results.sh

# The summaries README and the docs include, written again from the tables
# in results/ (make results and make ipc end with it; seconds).
figures:
	scripts/figures.sh

# The README's IPC 2020 tables: grounding, progression, SAT (hours).
ipc: build
	scripts/ipc.sh

# The README's comparison with pandaPI's grounder (a few minutes).
pandapi: build
	STAGES=pandapi scripts/ipc.sh

# Every fuzz target in turn, FUZZTIME each: the HDDL parser, the plan
# reader and verifier, the puzzle reader, the SAT model reader, the
# f-puzzles reader and the server's requests.
fuzz:
	$(GO) test ./hddl -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME)
	$(GO) test ./verify -run '^$$' -fuzz '^FuzzVerify$$' -fuzztime $(FUZZTIME)
	$(GO) test ./sudoku -run '^$$' -fuzz '^FuzzRead$$' -fuzztime $(FUZZTIME)
	$(GO) test ./satenc -run '^$$' -fuzz '^FuzzReadModel$$' -fuzztime $(FUZZTIME)
	$(GO) test ./sudoku/variant -run '^$$' -fuzz '^FuzzFPuzzles$$' -fuzztime $(FUZZTIME)
	$(GO) test ./internal/web -run '^$$' -fuzz '^FuzzRequest$$' -fuzztime $(FUZZTIME)

vet:
	$(GO) vet ./...

fmt:
	gofmt -w $$(git ls-files '*.go')

clean:
	rm -rf bin
