# pokerpipe: every target runs inside .venv, created on first use.
.DEFAULT_GOAL := help
SHELL := /bin/bash

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# One stamp per set of extras, each made once: a target installs what it needs and no more.
RUN_STAMP := $(VENV)/.installed-run
TEST_STAMP := $(VENV)/.installed-test
LINT_STAMP := $(VENV)/.installed-lint
BENCH_STAMP := $(VENV)/.installed-bench
DOCS_STAMP := $(VENV)/.installed-docs
RAW := data/raw
PROCESSED := data/processed

# Running needs no extra; plot comes too, because the README's commands, each true after
# `make run`, include `pokerpipe stats --plot`.
$(RUN_STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[plot]'
	@# Byte-compiled once, as pip does for a regular install: no run compiles the package
	@# (an environment with PYTHONDONTWRITEBYTECODE would otherwise compile it in every process).
	$(BIN)/python -m compileall -q pipeline
	@touch $@

# The tests draw plots too (stats --plot, the notebooks).
$(TEST_STAMP): $(RUN_STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,plot]'
	@touch $@

# mypy checks the package against the types of its optional imports (dask, polars): missing,
# they would be Any, and it would report what does not hold with them.
$(LINT_STAMP): $(RUN_STAMP)
	$(BIN)/python -m pip install --quiet -e '.[lint,dask,polars]'
	@touch $@

# The docs site's tool.
$(DOCS_STAMP): $(RUN_STAMP)
	$(BIN)/python -m pip install --quiet -e '.[docs]'
	@touch $@

# bench_cores.py times the dask engine.
$(BENCH_STAMP): $(RUN_STAMP)
	$(BIN)/python -m pip install --quiet -e '.[bench,dask]'
	@touch $@

## Create .venv and install pokerpipe with its test and plot extras
install: $(TEST_STAMP)

## Score the bundled data: Larvis games, the contest sample, a hold'em archive, PHH and PokerStars hands
run: $(RUN_STAMP)
	$(BIN)/pokerpipe run $(RAW)/games.csv -o $(PROCESSED)/games
	$(BIN)/pokerpipe contest $(RAW)/contest.in > $(PROCESSED)/contest.out
	diff -u $(RAW)/contest.out $(PROCESSED)/contest.out && echo "contest sample: output matches $(RAW)/contest.out"
	$(BIN)/pokerpipe run $(RAW)/deals.csv -o $(PROCESSED)/deals
	$(BIN)/pokerpipe run $(RAW)/phh -o $(PROCESSED)/phh
	$(BIN)/pokerpipe run $(RAW)/pokerstars -o $(PROCESSED)/pokerstars

## Run the default test suite (a few minutes at most)
test: $(TEST_STAMP)
	$(BIN)/python -m pytest -q

## Run every test, the exhaustive enumerations included (all but test-install's, which needs the package index)
test-all: $(TEST_STAMP)
	$(BIN)/python -m pytest -q -m 'not install'

## Install a fresh clone of HEAD with pip install . alone (no extra) and run the quick start with it
test-install: $(TEST_STAMP)
	$(BIN)/python -m pytest -q -m install tests/test_install.py

## Benchmark scoring against eval7, treys, phevaluator; one core, all cores, dask; PHH; PokerStars; many files; equity; bad bytes
bench: $(BENCH_STAMP)
	$(BIN)/python -m compileall -q pipeline
	$(BIN)/python bench/bench_keys.py
	$(BIN)/python bench/bench_omaha.py
	$(BIN)/python bench/bench_run.py
	$(BIN)/python bench/bench_cores.py
	$(BIN)/python bench/bench_phh.py
	$(BIN)/python bench/bench_pokerstars.py
	$(BIN)/python bench/bench_sites.py
	$(BIN)/python bench/bench_files.py
	$(BIN)/python bench/bench_players.py
	$(BIN)/python bench/bench_equity.py
	$(BIN)/python bench/bench_bad_bytes.py

## Build the docs site into site/ (MkDocs, strict: a broken link or reference fails the build)
docs: $(DOCS_STAMP)
	$(BIN)/mkdocs build --strict --site-dir site

## Execute every notebook headless; each executed copy, plots included, goes to data/processed/notebook/
notebooks: $(TEST_STAMP)
	$(BIN)/python -m pytest -q tests/test_notebooks.py

## Check style with ruff and types with mypy (strict on pipeline/)
lint: $(LINT_STAMP)
	$(BIN)/ruff check pipeline tests bench
	$(BIN)/mypy

## Remove outputs and caches (keeps .venv)
clean:
	rm -rf $(PROCESSED)/games $(PROCESSED)/deals $(PROCESSED)/phh $(PROCESSED)/pokerstars $(PROCESSED)/contest.out \
		$(PROCESSED)/notebook
	@# and what the examples of the README and docs/ write
	rm -rf $(PROCESSED)/more.parquet $(PROCESSED)/archive $(PROCESSED)/phh-audit $(PROCESSED)/stars-audit \
		$(PROCESSED)/categories.png $(PROCESSED)/equity $(PROCESSED)/described $(PROCESSED)/phh-checked $(PROCESSED)/tagged $(PROCESSED)/random.parquet \
		$(PROCESSED)/random $(PROCESSED)/deals.svg $(PROCESSED)/deals-dask $(PROCESSED)/players \
		$(PROCESSED)/pluribus-players $(PROCESSED)/stars-players
	rm -rf .pytest_cache .hypothesis .mypy_cache site
	find . -name __pycache__ -type d -not -path './$(VENV)/*' -prune -exec rm -rf {} +

## Show this help
help:
	@awk '/^## /{desc=substr($$0,4); next} /^[a-zA-Z_-]+:/{if(desc){split($$1,t,":"); printf "  \033[36m%-12s\033[0m %s\n", t[1], desc}; desc=""}' $(MAKEFILE_LIST)

.PHONY: install run test test-all test-install bench docs notebooks lint clean help
