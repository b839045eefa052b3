# Everything a fresh machine needs is installed by these targets (python3 with venv is enough).
VENV ?= .venv
BIN := $(VENV)/bin
# the development install: the package (editable, pure Python) with every extra
STAMP := $(VENV)/.installed
# enough to play: the package (editable, pure Python) and the terminal app; the development install has it too
PLAY_STAMP := $(VENV)/.installed-play
# The compiled build: core, games and the Trex search compiled by mypyc from the same source, installed
# apart from the editable pure-Python package of $(VENV). A test run selects a build by PYTHONPATH; the
# `cardtable` command of the checkout runs the compiled one whenever it is newer than the sources
# (src/cardtable/cli/builds.py). It is an optional speed-up: without a C compiler it is skipped.
COMPILED := build/compiled
COMPILED_STAMP := $(COMPILED)/.built
SOURCES := $(shell find src/cardtable -type f -not -path '*/__pycache__/*')
# what runs on both builds: the rules, the golden playthroughs and the conformance suite
RULE_SUITE := tests/core tests/trash tests/trex tests/spit tests/test_golden.py tests/test_conformance.py \
              tests/bots/test_search_bots_on_both_builds.py
# what `make play` starts (e.g. make play PLAY="trex --bot expert")
PLAY ?= trash --bots 1
# -rR: the summary names every rerun of a test marked flaky
PYTEST := $(BIN)/python -m pytest -n 2 -p no:cacheprovider -rR

.PHONY: setup play compiled check test fuzz lint lint-js browsers services bench golden clean

$(BIN)/python:
	python3 -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(PLAY_STAMP): pyproject.toml | $(BIN)/python
	if [ ! $(STAMP) -nt pyproject.toml ]; then CARDTABLE_PURE=1 $(BIN)/python -m pip install -q -e '.[tui]'; fi
	touch $(PLAY_STAMP)

$(STAMP): pyproject.toml | $(BIN)/python
	CARDTABLE_PURE=1 $(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP) $(PLAY_STAMP)

$(COMPILED_STAMP): setup.py pyproject.toml $(SOURCES) | $(BIN)/python
	rm -rf $(COMPILED) build/lib.* build/bdist.*  # setuptools would ship stale modules from build/lib
	$(BIN)/python -m pip install -q --no-deps --target $(COMPILED) .
	PYTHONPATH=$(COMPILED) $(BIN)/python -m cardtable.cli.main --version | grep -q compiled \
		|| { echo "the compiled build is pure Python although a C compiler was found: see the messages above"; exit 1; }
	touch $(COMPILED_STAMP)

## the compiled build (about a minute; the bots search about three times as far), skipped without a C compiler
compiled: | $(BIN)/python
	@why="$$($(BIN)/python setup.py --why-pure)"; \
	if [ -n "$$why" ]; then \
		rm -rf $(COMPILED); \
		echo "cardtable: the compiled build is skipped ($$why); everything runs on the pure-Python build"; \
	else \
		$(MAKE) --no-print-directory $(COMPILED_STAMP); \
	fi

setup: $(STAMP) compiled

## play Trash in the terminal against a bot, at once: the pure-Python build unless `make compiled` built the other
play: $(PLAY_STAMP)
	@if [ -f $(COMPILED_STAMP) ]; then echo "cardtable: $$($(BIN)/cardtable --version)"; \
	else echo "cardtable: playing on the pure-Python build (make compiled builds the faster one, if there is a C compiler)"; fi
	$(BIN)/cardtable play $(PLAY)

## the inner loop, in seconds: lint, types, layers and the rule suite on the pure build
check: lint
	CARDTABLE_EXPECT_BUILD=pure PYTHONPATH=src $(PYTEST) -q $(RULE_SUITE)

## lint, types, layers and the whole test suite on the pure build, then the rule suite on the compiled one
test: setup lint lint-js browsers services
	CARDTABLE_EXPECT_BUILD=pure PYTHONPATH=src $(PYTEST) tests src/cardtable --doctest-modules
	@if [ -f $(COMPILED_STAMP) ]; then \
		echo "CARDTABLE_EXPECT_BUILD=compiled PYTHONPATH=$(COMPILED) $(PYTEST) $(RULE_SUITE)"; \
		CARDTABLE_EXPECT_BUILD=compiled PYTHONPATH=$(COMPILED) $(PYTEST) $(RULE_SUITE); \
	else \
		echo "cardtable: no compiled build (no C compiler): the rule suite ran on the pure build only"; \
	fi

## the property tests with fresh random draws (`make test` draws the same examples every run), FUZZ_ROUNDS times;
## the rule suite's ones on the compiled build too, if there is one
FUZZ_ROUNDS ?= 1
fuzz: $(STAMP) compiled
	for round in $$(seq $(FUZZ_ROUNDS)); do \
		CARDTABLE_HYPOTHESIS=explore CARDTABLE_EXPECT_BUILD=pure PYTHONPATH=src $(PYTEST) -q -m hypothesis tests || exit 1; \
		if [ -f $(COMPILED_STAMP) ]; then \
			CARDTABLE_HYPOTHESIS=explore CARDTABLE_EXPECT_BUILD=compiled PYTHONPATH=$(COMPILED) \
				$(PYTEST) -q -m hypothesis $(RULE_SUITE) || exit 1; \
		fi; \
	done

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy
	$(BIN)/lint-imports

## the page's JavaScript, linted by ESLint (installed by the project's own script on first use)
lint-js:
	scripts/lint-js.sh

## system packages the browser tests need (Debian's Chromium), installed by the project's own script
browsers:
	@if [ -x scripts/install-browsers.sh ]; then scripts/install-browsers.sh; fi

## system packages the cluster tests need (Debian's PostgreSQL and Redis; the tests start their own
## throwaway servers), installed by the project's own script, which starts no system service
services:
	@if [ -x scripts/install-services.sh ]; then scripts/install-services.sh; fi

## the benchmarks, each beside its named peer (the bench extra brings OpenSpiel, RLCard and pygame)
bench: setup
	CARDTABLE_PURE=1 $(BIN)/python -m pip install -q -e '.[bench]'
	$(BIN)/python bench/trash.py
	$(BIN)/python bench/trex.py
	$(BIN)/python bench/spit.py
	$(BIN)/python bench/search.py
	$(BIN)/python bench/simulate.py
	$(BIN)/python bench/views.py
	$(BIN)/python bench/server.py
	$(BIN)/python bench/spit_races.py
	$(BIN)/python bench/restart.py
	$(BIN)/python bench/fanout.py
	$(BIN)/python bench/envs.py
	$(BIN)/python bench/fastpaths.py

## regenerate the golden playthroughs after an intended rule change
golden: setup
	$(BIN)/python -m cardtable.records.golden tests/golden

clean:
	rm -rf $(VENV) build .pytest_cache .mypy_cache .ruff_cache .hypothesis
