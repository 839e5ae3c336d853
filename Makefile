# Everything a fresh machine needs goes through here: `make run`, `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PROTOS := $(wildcard proto/croupier/v1/*.proto)
STAMP := .proto-stamp
# Where `make run` serves and `make demo` plays: `make run PORT=50052`, or
# CROUPIER_HOST / CROUPIER_PORT in the environment (the make line wins).
HOST ?= $(or $(CROUPIER_HOST),127.0.0.1)
PORT ?= $(or $(CROUPIER_PORT),50051)
TARGET ?= $(HOST):$(PORT)
# The browser port of `make run`: the web table at http://$(HOST):$(WEB_PORT)/
# and Connect/gRPC-Web for pages (`make run WEB_PORT=off` for none).
WEB_PORT ?= $(or $(CROUPIER_WEB_PORT),8080)
# The Prometheus port of `make run`. A second server beside a running one
# needs all three ports of its own:
# `make run PORT=50052 WEB_PORT=8081 METRICS_PORT=9096` (or WEB_PORT=off).
METRICS_PORT ?= $(or $(CROUPIER_METRICS_PORT),9095)

.PHONY: run test lint proto bench demo golden clean

# The clients and tools keep their make rules beside them. Each adds to
# CLIENT_DEPS what `make test` needs built first (toolchains, packages) and
# to PROTO_OUTPUTS what `make proto` generates.
CLIENT_DEPS :=
PROTO_OUTPUTS :=
-include clients/go/go.mk clients/typescript/ts.mk clients/web/web.mk deploy/tournament/tournament.mk

# `make run` installs only what serving needs: the package and its runtime
# dependencies, and grpcio-tools (pinned in the dev extra) for the stubs.
# Every other target adds the dev tools (DEV), once. Installs go through uv
# (PyPI's `uv`, put into the venv by deploy/bootstrap_uv.py): on these
# machines a fresh clone then serves in about 15 s, where pip took over 70 s,
# most of it spent parsing PyPI's long listings of grpcio, protobuf and cryptography.
# When the system pip can install into another environment (pip >= 22.3)
# the venv gets no pip of its own (seconds saved).
GRPC_TOOLS := $(shell grep -o 'grpcio-tools==[0-9.]*' pyproject.toml)
UV := $(BIN)/uv
uv_install = $(UV) pip install --quiet --python $(BIN)/python $(1)
$(UV): deploy/bootstrap_uv.py
	if $(PYTHON) -c 'import pip, sys; sys.exit(tuple(map(int, pip.__version__.split(".")[:2])) < (22, 3))' 2>/dev/null; then \
		$(PYTHON) -m venv --without-pip $(VENV) && $(PYTHON) deploy/bootstrap_uv.py $(BIN)/python; \
	else $(PYTHON) -m venv $(VENV) && $(BIN)/pip install --quiet uv; fi

$(BIN)/.serve-installed: pyproject.toml clients/python/pyproject.toml $(UV)
	$(call uv_install,'$(GRPC_TOOLS)' -e clients/python -e .)
	touch $@

DEV := $(BIN)/.installed
$(DEV): pyproject.toml $(BIN)/.serve-installed
	$(call uv_install,-e clients/python -e '.[dev]')
	touch $@

# Python stubs are generated, never edited, and ignored by git: once, into the
# Python client (clients/python/generate.py); the server's croupier.v1 is an
# alias of croupier_client.v1 (server/croupier/v1/__init__.py).
$(STAMP): $(PROTOS) clients/python/generate.py $(wildcard clients/python/proto/*/*/*.proto) $(BIN)/.serve-installed
	$(BIN)/python clients/python/generate.py proto $(PROTOS)
	touch $@

proto: $(STAMP) $(PROTO_OUTPUTS)

# The web table is built when Node is here (clients/web/web.mk); without it
# the browser port serves the RPCs only.
run: $(STAMP) $(WEB_BUILT)
	$(BIN)/croupier serve --metrics-port $(METRICS_PORT) --host $(HOST) --port $(PORT) --web $(WEB_PORT)

# Line coverage of the engine and of 101 (its state validation is validate.py),
# as a report, not a gate: every refusal branch has a named test. Whole
# packages: naming the module validate would import the 101 package before
# coverage starts in the xdist workers and under-report the engine.
# Measured over the tests written for that code (tests/engine and
# tests/hundred_and_one: 98 %), not over the whole suite: the tracer slowed
# engine-heavy tests 2.4x (a load-data build 13.6 s -> 32 s CPU), and the
# other games' suites add no line of the engine's that those miss by much.
COVERAGE := --cov=croupier.engine --cov=croupier.games.hundred_and_one --cov-report=term
COVERED := tests/engine tests/hundred_and_one
# The independent models of the rules in those folders (*_differential.py)
# run in the second pass: they check the rules, not the code's lines, and
# under the tracer they took 15 s of CPU instead of 6 on the coverage pass,
# which is the way to the first result.
MODELS := $(wildcard $(addsuffix /*_differential.py,$(COVERED)))
# The second pass: every other test folder and top-level test module, and
# those models (named one by one: pytest drops a file named inside a folder
# it was told to ignore).
UNCOVERED := $(filter-out $(addsuffix /,$(COVERED)) tests/__pycache__/,$(wildcard tests/*/)) \
	$(wildcard tests/test_*.py) $(MODELS)
# worksteal, not xdist's default (load): load hands each worker long runs of
# consecutive tests, so one worker took the whole conformance module while
# the other finished early and sat idle; with worksteal an idle worker takes
# queued tests from the busy one, and both end within the longest test.
# With bytecode written: where PYTHONDONTWRITEBYTECODE is set (these
# machines set it), a clean clone has no .pyc at all (uv compiles none), and
# every Python process the tests start (each server, CLI and script
# subprocess, each xdist worker's collection) compiled croupier, grpc and
# protobuf again from source: 1.9 s of CPU to import the server, 0.3 s from
# .pyc; 11 s to collect the suite, 3 s with pytest's rewritten-test cache.
# The second pass has one worker more than the cores (at most 8): a tenth of
# its time is spent waiting (servers starting, subprocess clients, Go and
# Node runs, timeouts under test), and with a worker per core the cores sat
# idle then. On 2 cores, runs interleaved: 2 workers 182-190 s (31-34 s of
# CPU idle), 3 workers 166-170 s (7 s idle). The coverage pass waits on
# nothing and shares the cores with lint: a worker per core (with 3, lint
# ended 3.5 s later, the pass no sooner).
CORES := $(shell nproc 2>/dev/null || echo 2)
TEST_WORKERS ?= $(shell echo $$(( $(CORES) < 8 ? $(CORES) + 1 : 8 )))
PYTEST_RUN := $(BIN)/python -m pytest --dist worksteal
PYTEST := PYTHONDONTWRITEBYTECODE= $(PYTEST_RUN)
# What the tests need is set up by parallel makes (TEST_JOBS jobs): the Go
# builds, one after the other, beside npm ci, tsc, esbuild and chromium's
# install, and lint (mypy's cold cache: about 18 s of CPU). On a clean clone
# the Go builds are most of the set-up (a cold GOCACHE, CPU-seconds measured
# on 2026-12-03: protoc-gen-go with the standard library 24, protoc-gen-go-grpc
# 6, clients/go's build and test build 39, kustomize 25), and each keeps
# both cores busy but for its links; two at once would compile the standard
# library (and protobuf, shared by protoc-gen-go and clients/go) twice, so
# the order-only prerequisites below chain them instead of a job waiting on
# another.
TEST_JOBS ?= 3
.PHONY: test-deps test-tools test-python
test-deps: test-tools lint
test-tools: test-python $(CLIENT_DEPS) $(BIN)/kustomize
test-python: $(STAMP) $(DEV)
ifdef GO_CLIENT
$(BIN)/protoc-gen-go-grpc: | $(BIN)/protoc-gen-go
$(BIN)/.go-client-built: | $(BIN)/protoc-gen-go-grpc
$(BIN)/kustomize: | $(BIN)/.go-client-built
endif
# The coverage pass needs only the Python package and its dev tools
# (test-python, about 10 s on a clean clone), so it starts then, with lint
# and the other tools' set-up (test-tools: the Go builds, npm, chromium)
# running beside it. The Go builds, one after the other, are the way to the
# second pass, which needs them all: the coverage pass and lint run niced,
# so they take the cores the builds leave idle (their links, npm's and
# apt's downloads) instead of slowing them. Cold runs on one machine, the
# second pass started after: 77 s (set-up first, kustomize built), 76.5 s
# (side by side, not niced), 70 s (niced); `make test` 193, 192, 186 s. The
# output of lint and of the set-up is shown, and a failure of either fails
# the run, before the second pass. Those makes are named through LINT_MAKE
# and TOOLS_MAKE, not $(MAKE) on the line itself: make runs a line that
# names $(MAKE) even under -n, and this line also runs the tests
# (tests/deploy/test_makefile.py's dry run of `test` took 27 s doing so).
LINT_LOG := .lint.log
LINT_MAKE = nice -n 10 $(MAKE) --no-print-directory lint
TOOLS_LOG := .tools.log
TOOLS_MAKE = $(MAKE) --no-print-directory -j$(TEST_JOBS) test-tools
test:
	$(MAKE) -j$(TEST_JOBS) test-python
	@$(TOOLS_MAKE) > $(TOOLS_LOG) 2>&1 & tools=$$!; $(LINT_MAKE) > $(LINT_LOG) 2>&1 & lint=$$!; \
	PYTHONDONTWRITEBYTECODE= nice -n 10 $(PYTEST_RUN) -n $(CORES) $(COVERAGE) $(addprefix --ignore=,$(MODELS)) $(COVERED); tests=$$?; \
	wait $$tools; built=$$?; wait $$lint; linted=$$?; \
	cat $(TOOLS_LOG) $(LINT_LOG); rm -f $(TOOLS_LOG) $(LINT_LOG); \
	if [ $$built -ne 0 ]; then echo "make test: setting up the tools failed"; exit $$built; fi; \
	if [ $$linted -ne 0 ]; then echo "make test: lint failed"; exit $$linted; fi; exit $$tests
	$(PYTEST) -n $(TEST_WORKERS) $(UNCOVERED)

# The whole suite last test first, without coverage (tests/conftest.py): a
# test that passes only after another warmed a cache fails here.
.PHONY: test-order
test-order:
	$(MAKE) -j$(TEST_JOBS) test-tools
	CROUPIER_TEST_ORDER=reverse $(PYTEST) -n $(TEST_WORKERS) tests

# buf breaking compares the contract with the previous commit (a clean clone
# of main: its last change; a work tree: HEAD~1 too, so an uncommitted break
# is caught as well as the last commit's).
lint: $(STAMP) $(DEV)
	$(BIN)/buf lint
	@if git rev-parse -q --verify HEAD~1 >/dev/null 2>&1; then \
		$(BIN)/buf breaking --against '.git#ref=HEAD~1'; \
	else echo "buf breaking: skipped, no previous commit to compare with"; fi
	$(BIN)/ruff check server clients tests deploy
	$(BIN)/ruff format --check server clients tests deploy
	$(BIN)/mypy
	$(BIN)/hadolint deploy/Dockerfile

# kustomize renders deploy/kubernetes for tests/deploy/test_kubernetes.py,
# which validates the output offline. A kubectl with kustomize v5 built in
# renders our overlays byte for byte as the pinned version does (kubectl
# 1.32's v5.5.0 against v5.8.1, 2026-12-03), so where there is one the test
# uses it and nothing is built; otherwise Go builds the pinned version once
# (about 25 s of CPU once the client's builds warmed the Go cache). Without
# either the test skips.
KUSTOMIZE_VERSION := v5.8.1
$(BIN)/kustomize: | $(BIN)/.serve-installed
	@kubectls=$$(kubectl version --client 2>/dev/null | grep '^Kustomize Version: v5\.'); \
	if [ -n "$$kubectls" ]; then echo "kustomize: kubectl's own ($$kubectls), none built"; \
	elif command -v go >/dev/null; then \
		GOBIN=$(abspath $(BIN)) go install sigs.k8s.io/kustomize/kustomize/v5@$(KUSTOMIZE_VERSION); \
	else echo "no Go: kustomize not installed (tests/deploy/test_kubernetes.py)"; fi

# The bench extra (RLCard, to compare with) goes into the same venv, once.
# (In a variable: make's $(call) splits its arguments at every comma.)
BENCH_EXTRAS := .[dev,bench]
$(BIN)/.bench-installed: pyproject.toml $(DEV)
	$(call uv_install,-e '$(BENCH_EXTRAS)')
	touch $@

BENCH_ARGS ?=
bench: $(STAMP) $(BIN)/.bench-installed
	$(BIN)/python -m croupier.bench $(BENCH_ARGS)

# Golden playthroughs are generated, never edited (tests/golden/playthrough.py).
golden: $(STAMP) $(DEV)
	$(BIN)/python tests/golden/playthrough.py

demo: $(STAMP)
	$(BIN)/croupier demo --target $(TARGET) --game hundred_and_one --preset hd --seed 7

# Everything generated or installed goes; reports/ (what runs wrote) stays.
clean:
	rm -rf $(VENV) $(STAMP) clients/python/croupier_client/v1 clients/python/croupier_client/rpc \
		*.egg-info server/*.egg-info clients/python/*.egg-info build dist \
		.pytest_cache .mypy_cache .ruff_cache .hypothesis .coverage .coverage.* $(LINT_LOG)
	find . -name __pycache__ -type d -prune -exec rm -rf {} +

# Load test with ghz (installed by `go install` when missing) against 1 and 2
# workers; data regenerated from seeded playouts; report in reports/loadtest/.
# See deploy/loadtest/README.md. E.g. LOADTEST_ARGS="--seconds 3 --workers 2".
LOADTEST_ARGS ?=
.PHONY: loadtest
loadtest: $(STAMP) $(DEV)
	$(BIN)/python deploy/loadtest/run.py $(LOADTEST_ARGS)

# Goal (a)'s floor: every game's ApplyMove with the real engine beside a free
# one (deploy/loadtest/floor.py), and what the goal leaves the engine (~6 min).
FLOOR_ARGS ?=
.PHONY: loadtest-floor
loadtest-floor: $(STAMP) $(DEV)
	$(BIN)/python deploy/loadtest/floor.py $(FLOOR_ARGS)

# The conformance suite and every property test (tests/properties and the
# games' own test_properties.py) with the large, random Hypothesis profile
# (tests/conftest.py) instead of CI's small fixed one.
.PHONY: fuzz-rules
fuzz-rules: $(STAMP) $(DEV)
	HYPOTHESIS_PROFILE=fuzz $(BIN)/python -m pytest -n $(TEST_WORKERS) tests/conformance tests/properties \
		$(wildcard tests/*/test_properties.py)

# Structure-aware fuzzing of every RPC and every registered game: mutated real
# states in-process over engine.api, then mutated states and bytes through a
# live `croupier serve`; seeded, bounded by FUZZ_INPUTS, report in reports/fuzz/.
# See deploy/fuzz/README.md. E.g. make fuzz FUZZ_INPUTS=1000000 FUZZ_ARGS="--workers 2".
FUZZ_INPUTS ?= 100000
FUZZ_SEED ?= 1
FUZZ_ARGS ?=
.PHONY: fuzz
fuzz: $(STAMP) $(DEV)
	PYTHONPATH=deploy/fuzz $(BIN)/python -m croupier_fuzz --inputs $(FUZZ_INPUTS) \
		--seed $(FUZZ_SEED) $(FUZZ_ARGS)

# The fault scenarios of issue 7 (slow clients, a connection flood, cancelled
# calls, SIGTERM under load, kill -9 of the supervisor) against real servers on
# 127.0.0.1: bounded, a report printed and written to reports/chaos/REPORT.md;
# not part of `make test`. E.g. make chaos CHAOS_ARGS="--only sigterm".
CHAOS_ARGS ?=
.PHONY: chaos
chaos: $(STAMP) $(DEV)
	$(BIN)/python deploy/chaos/run.py --report reports/chaos/REPORT.md $(CHAOS_ARGS)

# Croupier behind haproxy (the Debian package, installed here when missing):
# 3 servers on 127.0.0.1, random matches through the balancer, one server
# killed with kill -9 mid-run; matches completed and lost, calls retried by
# the client and by haproxy, report in reports/failover/. See
# deploy/failover/README.md. E.g. make failover FAILOVER_ARGS="--seconds 60".
FAILOVER_ARGS ?=
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)
.PHONY: failover
failover: $(STAMP)
	@command -v haproxy >/dev/null || test -x /usr/sbin/haproxy || \
		($(SUDO) apt-get update -qq && \
		 $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy)
	$(BIN)/python deploy/failover/failover.py $(FAILOVER_ARGS)

# The container image (deploy/Dockerfile), built with podman (Debian's; no
# daemon) and smoke-tested: health SERVING, uid 10001, upb protobuf, exit 0 on
# SIGTERM. Where no base image can be pulled, deploy/image.py makes one with
# debootstrap. See deploy/README.md. `make image-test` re-runs the smoke test.
IMAGE ?= localhost/croupier:dev
.PHONY: image image-test
image: $(BIN)/.serve-installed $(WEB_BUILT)
	@command -v podman >/dev/null && command -v runc >/dev/null && command -v debootstrap >/dev/null || \
		($(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive \
		 apt-get install -y -qq podman runc debootstrap)
	$(BIN)/python deploy/image.py --tag $(IMAGE)

image-test: $(BIN)/.serve-installed
	$(BIN)/python deploy/image.py --no-build --tag $(IMAGE)
