# Two commands a newcomer needs: `make run` and `make test`. Both set up .venv first.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
SCENARIO ?= scenarios/boarding-action.yaml
SEED ?= 1

.PHONY: run test lint typecheck contracts pytest bench clean setup browser docs

setup: $(STAMP)

$(STAMP): pyproject.toml
	@set -e; py=$$(tools/find-python); echo "Using $$py ($$($$py --version))"; \
	  [ -x $(PY) ] || $$py -m venv $(VENV); \
	  $(PY) -m pip install --quiet --upgrade pip; \
	  $(PY) -m pip install --quiet -e '.[dev]'
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

pytest: $(STAMP) browser
	$(VENV)/bin/pytest --nbmake tests notebooks

test: lint typecheck contracts pytest

# The documentation site (mkdocs-material) into site/; its reference pages are generated
# from the code (tools/docs_hooks.py). `make test` builds it too and runs its examples.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --quiet
	@echo "site/index.html"

bench: $(STAMP)
	$(PY) -m benchmarks

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis site
