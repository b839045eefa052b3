# Everything a fresh machine needs is installed by these targets (python3 with venv is enough).
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The compiled build (issue #14): core and games compiled by mypyc from the same source, installed
# apart from the editable pure-Python package of $(VENV); a test run selects it by PYTHONPATH.
COMPILED := build/compiled
COMPILED_STAMP := $(COMPILED)/.built
SOURCES := $(shell find src/cardtable -name '*.py')
# what runs on both builds: the rules, the golden playthroughs and the conformance suite
RULE_SUITE := tests/core tests/trash tests/trex tests/spit tests/test_golden.py tests/test_conformance.py \
              tests/bots/test_search_bots_on_both_builds.py

.PHONY: setup play test lint browsers bench golden clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	CARDTABLE_PURE=1 $(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

$(COMPILED_STAMP): $(STAMP) setup.py $(SOURCES)
	rm -rf $(COMPILED) build/lib.* build/bdist.*  # setuptools would ship stale modules from build/lib
	$(BIN)/python -m pip install -q --no-deps --target $(COMPILED) .
	PYTHONPATH=$(COMPILED) $(BIN)/python -m cardtable.cli.main --version | grep -q compiled \
		|| { echo "the compiled build is pure Python: is a C compiler installed?"; exit 1; }
	touch $(COMPILED_STAMP)

setup: $(STAMP) $(COMPILED_STAMP)

## play Trash in the terminal against a bot
play: setup
	$(BIN)/cardtable play trash --bots 1

## lint, types, layers and the whole test suite on the pure build, then the rule suite on the compiled one
test: setup lint browsers
	CARDTABLE_EXPECT_BUILD=pure $(BIN)/python -m pytest -n 2 -p no:cacheprovider tests src/cardtable --doctest-modules
	CARDTABLE_EXPECT_BUILD=compiled PYTHONPATH=$(COMPILED) $(BIN)/python -m pytest -n 2 -p no:cacheprovider $(RULE_SUITE)

lint: setup
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy
	$(BIN)/lint-imports

## system packages the browser tests need (Debian's Chromium), installed by the project's own script
browsers:
	@if [ -x scripts/install-browsers.sh ]; then scripts/install-browsers.sh; fi

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
