# prloop — every target is what CI and a newcomer run; see README.md.
GO      ?= go
PKGS    ?= ./...
FUZZTIME ?= 30s
BIN     := bin/gh-prloop

.PHONY: all build test lint fuzz fuzz-ci bench bench-rss demo clean examples extension

all: build

build:
	$(GO) build -o $(BIN) ./cmd/gh-prloop

## extension: build ./gh-prloop where gh looks for it, then install this
## checkout as the gh extension `gh prloop` (needs the gh CLI).
extension:
	$(GO) build -o gh-prloop ./cmd/gh-prloop
	gh extension install .

## test: vet, then every test with the race detector (prints go test's summary).
test:
	$(GO) vet $(PKGS)
	$(GO) test -race -count=1 -timeout 45m $(PKGS)

## lint: formatting and vet; fails when gofmt would change a file.
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)

## fuzz: every Fuzz target for FUZZTIME (default 30s) each, without
## input minimization (FUZZMINIMIZETIME=0; see scripts/fuzz.sh).
fuzz:
	FUZZTIME=$(FUZZTIME) bash scripts/fuzz.sh

## fuzz-ci: the short pass CI runs after make test: every target for 10s
## (eight targets, about two minutes on two cores).
fuzz-ci:
	FUZZTIME=10s bash scripts/fuzz.sh

## bench: all benchmarks, then the side-by-side hashing comparison with python3.
bench:
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)
	python3 scripts/bench_hash.py

## bench-rss: peak RSS and time of hash and evaluate on 10 and 100 MB
## documents of strings, integers and one wide object (needs GNU time).
bench-rss:
	bash scripts/bench_rss.sh

## demo: the main job on the embedded default (no GitHub account, no network).
demo: build
	bash scripts/demo.sh

## examples: regenerate the committed example documents from core/fixture.
examples:
	$(GO) run ./scripts/genexamples examples

clean:
	rm -rf bin gh-prloop
