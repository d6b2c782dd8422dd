# make run: set up and serve the site on SQLite.  make test: set up and run every check.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
export HOST PORT

.PHONY: run test install install-dev icu chromium fonts postgres redis haproxy fc-solve fc-solve-if-possible wrk lint typecheck imports pytest bench messages clean cluster cluster-stop

run: install fc-solve-if-possible
	$(BIN)/solitaire serve --host $(HOST) --port $(PORT)

test: install-dev chromium fonts postgres redis haproxy fc-solve wrk lint typecheck imports pytest

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# PyICU (names' confusable skeletons, Unicode TR39) builds against Debian's ICU.
icu:
	@pkg-config --exists icu-i18n 2>/dev/null && command -v g++ >/dev/null 2>&1 || { \
	  echo "Installing Debian's libicu-dev, pkg-config and g++ to build PyICU"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libicu-dev pkg-config g++; }

# The editable install also compiles Montana's round search where a C compiler is found.
ENGINE_SOURCES := setup.py app/games/montana/_search.c

$(VENV)/.installed: pyproject.toml $(ENGINE_SOURCES) | icu $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml $(ENGINE_SOURCES) | icu $(BIN)/python
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

# The reverse proxy in front of several app servers (make cluster; tests/cluster).
haproxy:
	@command -v haproxy >/dev/null 2>&1 || test -x /usr/sbin/haproxy || { \
	  echo "Installing Debian's haproxy for the several-servers cluster"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy; }

# The site as on several machines, here: PostgreSQL, Redis, three app servers and HAProxy
# on CLUSTER_PORT, each its own process (PIDs and logs in data/cluster; docs/deploying.md).
CLUSTER_PORT ?= 8000
cluster: install postgres redis haproxy
	$(BIN)/python -m app.cluster up --port $(CLUSTER_PORT)

cluster-stop:
	$(BIN)/python -m app.cluster down

# fc-solve: its library runs the FreeCell searches in process (the Python search where it
# is missing); its deal generator checks our Microsoft deals; bench/solver.py compares times.
fc-solve:
	@{ command -v make-microsoft-freecell-board >/dev/null 2>&1 && \
	   ldconfig -p 2>/dev/null | grep -q libfreecell-solver.so.0; } || { \
	  echo "Installing Debian's freecell-solver-bin and libfreecell-solver0 (FreeCell's solver)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq freecell-solver-bin libfreecell-solver0; }

# make run: the same, when this machine lets us (apt-get, as root); the site runs without.
fc-solve-if-possible:
	@if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  $(MAKE) --no-print-directory fc-solve || echo "fc-solve not installed: FreeCell uses the Python search"; \
	fi

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

# Every core runs tests (pytest-xdist): each worker has its own browser, live server,
# PostgreSQL and Redis; tests marked heavy then run alone, one after another (two at once
# would measure each other; xdist's groups are not honoured under pytest 9). The slowest are named
# at the end (docs/developing.md keeps the list). TEST_WORKERS=0 runs in one process.
TEST_WORKERS ?= auto
pytest:
	$(BIN)/pytest -m "not heavy" -n $(TEST_WORKERS) --durations=25
	$(BIN)/pytest -m heavy -n 0 --durations=10

# Every bench in full; `make test` runs each one's --smoke (tests/bench).
bench: install-dev wrk fc-solve postgres redis haproxy
	$(BIN)/python bench/move_latency.py
	$(BIN)/python bench/load.py
	$(BIN)/python bench/stats_page.py
	$(BIN)/python bench/solver.py
	$(BIN)/python bench/cluster.py
	$(BIN)/python bench/tournaments.py

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
