# make run: set up and serve the site on SQLite.  make test: set up and run every check.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
export HOST PORT

.PHONY: run test install install-dev chromium fonts postgres redis fc-solve wrk lint typecheck imports pytest bench messages clean

run: install
	$(BIN)/solitaire serve --host $(HOST) --port $(PORT)

test: install-dev chromium fonts postgres redis fc-solve wrk lint typecheck imports pytest

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The editable install also compiles Montana's round search where a C compiler is found.
ENGINE_SOURCES := setup.py app/games/montana/_search.c

$(VENV)/.installed: pyproject.toml $(ENGINE_SOURCES) | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml $(ENGINE_SOURCES) | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(VENV)/.installed $@

install: $(VENV)/.installed

install-dev: $(VENV)/.installed-dev

# Browser tests drive Debian's Chromium (Playwright cannot download browsers here).
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "Installing Debian's chromium for the browser tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }

# Hindi and Arabic pages are screenshot and audited in the browser tests: Noto's Devanagari
# and Arabic faces, so what the tests see is what a player's phone shows.
fonts:
	@fc-list 2>/dev/null | grep -q "Noto Sans Devanagari" || { \
	  echo "Installing Debian's fonts-noto-core (Devanagari and Arabic) for the browser tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-noto-core; }

# The storage and HTTP tests run on PostgreSQL too (tests/postgres.py starts a server).
postgres:
	@command -v pg_ctl >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || { \
	  echo "Installing Debian's postgresql for the PostgreSQL test lane"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; }

# The shared rate-limit store's lane (tests/redis.py starts a throw-away server).
redis:
	@command -v redis-server >/dev/null 2>&1 || command -v valkey-server >/dev/null 2>&1 || { \
	  echo "Installing Debian's redis-server for the shared rate-limit lane"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server; }

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

# Extract every message from templates and app/ into locales/messages.pot, then merge it
# into each language's catalogue (new messages arrive empty, gone ones are dropped).
# A new language: add it to LANGS (pybabel init makes its catalogue). The headers carry no
# dates, or every run would be a change (and a merge conflict between branches).
LANGS := hi ar
messages: install-dev
	$(BIN)/pybabel extract -F babel.cfg -o locales/messages.pot --no-location --sort-output \
	  -k _ -k gettext -k ngettext:1,2 -k pgettext:1c,2 -k lazy_gettext -c TRANSLATORS: --no-wrap \
	  --project=solitaire --copyright-holder= --msgid-bugs-address= .
	for lang in $(LANGS); do \
	  test -f locales/$$lang/LC_MESSAGES/messages.po || \
	    $(BIN)/pybabel init -i locales/messages.pot -d locales -l $$lang --no-wrap || exit 1; \
	  $(BIN)/pybabel update -i locales/messages.pot -d locales -l $$lang --no-fuzzy-matching \
	    --ignore-obsolete --no-wrap || exit 1; done
	@sed -i '/^"POT-Creation-Date: /d; /^"PO-Revision-Date: /d' locales/messages.pot locales/*/LC_MESSAGES/messages.po

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
