# Two commands a newcomer needs: `make run` and `make test`. Both set up .venv first.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
SCENARIO ?= scenarios/ship-duel.yaml
SEED ?= 1

.PHONY: run test lint typecheck contracts pytest bench bench-quick clean setup browser docs

setup: $(STAMP)

# pip's own chatter goes to .venv/install.log (VERBOSE=1 shows it); a failed install
# prints the end of the log.
VERBOSE ?=
$(STAMP): pyproject.toml
	@set -e; py=$$(tools/find-python); echo "Setting up .venv with $$py ($$($$py --version))"; \
	  [ -x $(PY) ] || $$py -m venv $(VENV); \
	  log=$(VENV)/install.log; if [ -n "$(VERBOSE)" ]; then log=/dev/stderr; fi; \
	  if ! { $(PY) -m pip install --quiet --upgrade pip && \
	         $(PY) -m pip install --quiet -e '.[dev]'; } >>$$log 2>&1; then \
	    echo "install failed; the end of $$log:"; tail -n 30 $$log; exit 1; fi; \
	  echo "Installed fadad-agents and its tools into .venv (log: $(VENV)/install.log)"
	@touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/fadad run $(SCENARIO) --seed $(SEED)

lint: $(STAMP)
	$(VENV)/bin/ruff check fadad_agents tests benchmarks tools/docs_hooks.py
	$(VENV)/bin/ruff format --check fadad_agents tests benchmarks tools/docs_hooks.py

typecheck: $(STAMP)
	$(VENV)/bin/mypy

contracts: $(STAMP)
	$(VENV)/bin/lint-imports --no-cache

# Debian chromium for the headless browser test: installed with apt in CI (CI=true),
# otherwise the test skips with advice on how to install it.
browser:
	@tools/ensure-chromium

# pytest-xdist: one worker a core (`make test PYTEST_WORKERS=0` runs in this process alone);
# the tests marked `alone` (processes waited on with deadlines) run after, one at a time.
PYTEST_WORKERS ?= auto
pytest: $(STAMP) browser
	$(VENV)/bin/pytest --nbmake -n $(PYTEST_WORKERS) -m "not alone" tests notebooks
	$(VENV)/bin/pytest -m alone tests

# `make test` compiles the fast paths (numba: `fadad compile`, about a minute on 2 cores
# on a fresh clone, a second once cached) while the linters run, so that pytest's two
# workers read numba's cache rather than each compiling the same code.
test: $(STAMP)
	@$(VENV)/bin/fadad compile --quiet & compiling=$$!; \
	  $(MAKE) --no-print-directory lint typecheck contracts; checked=$$?; \
	  wait $$compiling; compiled=$$?; \
	  [ $$checked -eq 0 ] || exit $$checked; \
	  [ $$compiled -eq 0 ] || { echo "make test: fadad compile failed (above)"; exit $$compiled; }
	@$(MAKE) --no-print-directory pytest

# The documentation site (mkdocs-material) into site/; its reference pages are generated
# from the code (tools/docs_hooks.py). `make test` builds it too and runs its examples.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --quiet
	@echo "site/index.html"

# Speed and memory targets, each with its verdict (about 5 minutes on 2 idle cores);
# bench-quick takes fewer passes and smaller sweeps (about a minute).
bench: $(STAMP)
	$(PY) -m benchmarks

bench-quick: $(STAMP)
	$(PY) -m benchmarks --quick

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis site
