# Two commands a newcomer needs: `make run` and `make test`. Both set up .venv first.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
SCENARIO ?= scenarios/snorri-vs-brynhild.yaml
SEED ?= 1

.PHONY: run test lint typecheck contracts pytest bench clean setup duel

setup: $(STAMP)

$(STAMP): pyproject.toml
	@set -e; py=$$(tools/find-python); echo "Using $$py ($$($$py --version))"; \
	  [ -x $(PY) ] || $$py -m venv $(VENV); \
	  $(PY) -m pip install --quiet --upgrade pip; \
	  $(PY) -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/fadad duel --seed $(SEED)

duel: run

lint: $(STAMP)
	$(VENV)/bin/ruff check fadad_agents tests benchmarks
	$(VENV)/bin/ruff format --check fadad_agents tests benchmarks

typecheck: $(STAMP)
	$(VENV)/bin/mypy

contracts: $(STAMP)
	$(VENV)/bin/lint-imports --no-cache

pytest: $(STAMP)
	$(VENV)/bin/pytest

test: lint typecheck contracts pytest

bench: $(STAMP)
	$(PY) -m benchmarks

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
