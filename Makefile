# make run: set up and serve the site on SQLite.  make test: set up and run every check.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
export HOST PORT

.PHONY: run test install install-dev chromium postgres fc-solve wrk lint typecheck imports pytest bench messages clean

run: install
	$(BIN)/solitaire serve --host $(HOST) --port $(PORT)

test: install-dev chromium postgres fc-solve wrk lint typecheck imports pytest

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(VENV)/.installed $@

install: $(VENV)/.installed

install-dev: $(VENV)/.installed-dev

# Browser tests drive Debian's Chromium (Playwright cannot download browsers here).
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "Installing Debian's chromium for the browser tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }

# The storage and HTTP tests run on PostgreSQL too (tests/postgres.py starts a server).
postgres:
	@command -v pg_ctl >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || { \
	  echo "Installing Debian's postgresql for the PostgreSQL test lane"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; }

# fc-solve's deal generator checks our Microsoft deals; bench/solver.py compares times.
fc-solve:
	@command -v make-microsoft-freecell-board >/dev/null 2>&1 || { \
	  echo "Installing Debian's freecell-solver-bin (reference deals and solver)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq freecell-solver-bin; }

# The load bench drives the server with wrk, a C load generator (tests/bench runs its smoke).
wrk:
	@command -v wrk >/dev/null 2>&1 || { \
	  echo "Installing Debian's wrk for the load bench"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk; }

lint:
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck:
	$(BIN)/mypy

imports:
	$(BIN)/lint-imports

pytest:
	$(BIN)/pytest

# Every bench in full; `make test` runs each one's --smoke (tests/bench).
bench: install-dev wrk fc-solve
	$(BIN)/python bench/move_latency.py
	$(BIN)/python bench/load.py
	$(BIN)/python bench/stats_page.py
	$(BIN)/python bench/solver.py

messages: install-dev
	$(BIN)/pybabel extract -F babel.cfg -o messages.pot .

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
