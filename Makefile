# Ferry: `make run` and `make test` do all the set-up a fresh Debian machine needs.
SWIFT ?= swift
APT_PACKAGES := pkg-config libxml2-dev libarchive-dev zlib1g-dev liblzma-dev libbz2-dev libzstd-dev libssl-dev
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
FERRY := .build/debug/ferry
OUT := out

.PHONY: deps build release test bagit-python chromium consumer run bench clean-out fuzz

## deps: install the C libraries Ferry links (Debian packages), only when missing.
deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

## build: the ferry executable (debug, shared with the tests).
build: deps
	$(SWIFT) build --product ferry

## release: the optimized ferry executable (.build/release/ferry), with the Swift runtime and
## Foundation linked in statically: about 6 MB less resident memory and a faster start.
release: deps
	$(SWIFT) build -c release --product ferry --static-swift-stdlib

## test: every unit, corpus and command-line test, then both SwiftPM command plugins for real
## (after `swift test`: inside it they would fight over the build lock).
test: deps bagit-python chromium
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$(SWIFT) package ferry-validate --quiet
	@if $(SWIFT) package ferry-validate Samples/broken --quiet >/dev/null 2>&1; then \
		echo "ferry-validate accepted Samples/broken: it must fail on broken data"; exit 1; \
	else echo "ferry-validate Samples/broken: failed as it must"; fi
	rm -rf .build/plugin-check
	$(SWIFT) package --allow-writing-to-package-directory ferry-convert --to jsonl -o .build/plugin-check/ --quiet
	@ls .build/plugin-check/*.jsonl >/dev/null
	$(MAKE) consumer

## chromium: headless Chromium for the HTML report's browser test (skipped without it); a failed
## install (no network) must not stop the rest. Only `make test` needs it.
chromium:
	@command -v chromium >/dev/null 2>&1 || { echo "installing: chromium"; \
		{ $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium; } \
		|| echo "chromium not installed: the browser test will be skipped"; }

## bagit-python: bagit-python (PyPI `bagit`) in the git-ignored .venv-test/, for the test that runs
## `bagit.py --validate` on every bundle Ferry writes; without network that test is skipped.
VENV_TEST := .venv-test
bagit-python:
	@$(VENV_TEST)/bin/python -c 'import bagit' 2>/dev/null || { \
		python3 -m venv $(VENV_TEST) && $(VENV_TEST)/bin/pip install -q --disable-pip-version-check \
			--timeout 15 --retries 1 bagit; } || echo "bagit-python not installed: the bagit.py test will be skipped"

## consumer: Samples/swift-consumer, an app package that depends on Ferry by path, built as an
## app builds it (its copy of Ferry's modules in .build/library-consumers, shared with the Docs
## snippet test), its tests run, both examples run and their outputs compared byte for byte.
## The build plan is made anew each time: a cached one keeps naming a file deleted from Sources/
## ("missing inputs"), as SwiftPM does not see files come and go in a path dependency.
CONSUMER := Samples/swift-consumer
CONSUMER_FLAGS := --package-path $(CONSUMER) --scratch-path .build/library-consumers --disable-build-manifest-caching
CONSUMER_BIN := .build/library-consumers/debug
CONSUMER_OUT := .build/consumer-check
consumer: deps
	$(SWIFT) build $(CONSUMER_FLAGS) --build-tests
	$(SWIFT) test $(CONSUMER_FLAGS) --skip-build
	rm -rf $(CONSUMER_OUT) && mkdir -p $(CONSUMER_OUT)
	$(CONSUMER_BIN)/favourite-notes Samples/notes-v1.json $(CONSUMER_OUT)/favourites.csv
	cmp $(CONSUMER_OUT)/favourites.csv $(CONSUMER)/Tests/ConsumerTests/Fixtures/favourites.csv
	$(CONSUMER_BIN)/reading-log $(CONSUMER)/Data/reading-log-v1.jsonl $(CONSUMER_OUT)/reading-log-v2.jsonl
	cmp $(CONSUMER_OUT)/reading-log-v2.jsonl $(CONSUMER)/Tests/ConsumerTests/Fixtures/reading-log-v2.dataset.jsonl

## run: the main job on the samples of all three domains: migrate V1 data to V2 (the pet diary's
## app Documents folder, with its photos and videos, into a tar bundle), then validate the result.
run: build
	@mkdir -p $(OUT)
	$(FERRY) migrate Samples/notes-v1.json --to-version 2 -o $(OUT)/notes-v2.json
	$(FERRY) validate $(OUT)/notes-v2.json
	$(FERRY) migrate Samples/vocabulary-v1-node-firestore.json --to-version 2 -o $(OUT)/vocabulary-v2.json
	$(FERRY) validate $(OUT)/vocabulary-v2.json
	$(FERRY) inspect $(OUT)/vocabulary-v2.json
	$(FERRY) migrate Samples/pet-story-v1-documents --to-version 2 -o $(OUT)/pet-story-v2.tar
	$(FERRY) validate $(OUT)/pet-story-v2.tar
	$(FERRY) inspect $(OUT)/pet-story-v2.tar

## bench: Ferry against Miller, jq, bsdtar, DuckDB, jaq and xmllint on generated data, the whole
## domain x format matrix included (see bench/run.sh; ONLY=matrix for the matrix alone); writes bench/results.md.
bench: deps
	bash bench/run.sh

## fuzz: libFuzzer + AddressSanitizer on every reader, the filter parser and each domain's whole record
## path (typed path checked against the Value path), SECONDS seconds each (Fuzz/run.sh); fails on any
## crash, trap, leak, timeout or disagreement.
SECONDS ?= 60
fuzz: deps
	SWIFT=$(SWIFT) sh Fuzz/run.sh $(SECONDS)

clean-out:
	rm -rf $(OUT)
