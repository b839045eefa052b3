# Everything a fresh machine needs is installed by these targets (python3 with venv is enough).
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup play test lint browsers bench golden clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

## play Trash in the terminal against a bot
play: setup
	$(BIN)/cardtable play trash --bots 1

## lint, types, layers and the whole test suite
test: setup lint browsers
	$(BIN)/python -m pytest -n 2 -p no:cacheprovider tests src/cardtable --doctest-modules

lint: setup
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy
	$(BIN)/lint-imports

## system packages the browser tests need (Debian's Chromium), installed by the project's own script
browsers:
	@if [ -x scripts/install-browsers.sh ]; then scripts/install-browsers.sh; fi

## the benchmarks, each beside its named peer (the bench extra brings OpenSpiel)
bench: setup
	$(BIN)/python -m pip install -q -e '.[bench]'
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

## regenerate the golden playthroughs after an intended rule change
golden: setup
	$(BIN)/python -m cardtable.records.golden tests/golden

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
