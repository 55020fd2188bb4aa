# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-dev
RUN_STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck pytest bench clean chromium

# `make run`: affray and what it needs to run, no extras and no dev tools.
$(RUN_STAMP): pyproject.toml
	@echo "make run: setting up $(VENV) with affray and its runtime dependencies (no dev tools)"
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $(RUN_STAMP)

# `make test`: every extra (numba, matplotlib, Dask) and the dev tools.
$(STAMP): pyproject.toml
	@echo "make test: setting up $(VENV) with affray, all its extras and the dev tools"
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP) $(RUN_STAMP)

run: $(RUN_STAMP)
	$(BIN)/affray mst2 exchange examples/mst2/sellsword.toml examples/mst2/spearman.toml --seed 7

test: $(STAMP) chromium lint typecheck pytest

# The browser tests drive Debian's Chromium (Playwright cannot download its own here).
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
		if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium >/dev/null; }

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/mypy

# every core (a file's tests on one of them: its module fixtures made once)
pytest: $(STAMP)
	$(BIN)/pytest -n auto --dist loadfile

# bench/summary.py measures what duel_sim, midian_fast, exact_duel and startup measure,
# in one run, and ends with a table of them side by side: it runs last, and they not on
# their own. bench/peak.py is a helper of theirs.
SUMMARISED := bench/summary.py bench/duel_sim.py bench/midian_fast.py bench/exact_duel.py \
	bench/startup.py bench/peak.py

bench: $(STAMP)
	@for b in $(filter-out $(SUMMARISED),$(wildcard bench/*.py)); do \
		echo "== $$b"; $(BIN)/python $$b || exit 1; done
	@echo "== bench/summary.py"; $(BIN)/python bench/summary.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
