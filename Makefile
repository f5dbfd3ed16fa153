# Two set-up commands, on a fresh machine with Python 3.11 or newer:
#   make play   creates .venv, installs tilebag, starts a game
#   make test   creates .venv, installs tilebag with its test tools, runs the tests
# What make play installs is what a player gets: the newest releases that
# pyproject.toml's ranges allow. What make test and make check install is locked:
# requirements/test.txt pins every package by version and hash, so a new release
# of a dependency cannot turn the suite red without a commit. make upgrade takes
# the newest releases into the lock on purpose and runs the suite on them.
# (make install is the first half of make play: what a player gets, and what
# tests/web/test_install.py builds afresh to test the browser game on.)
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

LOCK := requirements/test.txt

.PHONY: install play test check upgrade clean

$(VENV)/.installed: pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "tilebag needs Python 3.11 or newer")'
	@$(PYTHON) -m venv $(VENV) || { echo "could not create a virtual environment: on Debian, apt-get install python3-venv"; exit 1; }
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[full-screen,server]'
	@touch $@

# The test environment: every package from the lock, checked by its hash, then
# tilebag itself, built by the locked setuptools (no build isolation) and with
# no dependency resolved anew.
$(VENV)/.installed-test: pyproject.toml $(LOCK)
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "tilebag needs Python 3.11 or newer")'
	@$(PYTHON) -m venv $(VENV) || { echo "could not create a virtual environment: on Debian, apt-get install python3-venv"; exit 1; }
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --require-hashes -r $(LOCK)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	@touch $@

install: $(VENV)/.installed

play: install
	$(BIN)/tilebag play $(ARGS)

# Every check runs even when one fails, so a contributor sees all problems at once.
# make test is the whole suite (CI's): the tests, mypy, ruff, then the move
# generator against a brute-force enumerator on random positions (perft): 300
# positions of a sample lexicon, 4 of the full one. The tests run on three
# processes (pytest-xdist) that take work from each other when one runs out
# (worksteal): on two cores the third keeps them busy while a test waits on a
# server, a browser or a database. mypy and perft, one process each, run beside
# the tests and report after them. The 15 slowest tests are named at the end.
test: $(VENV)/.installed-test
	@status=0; beside=$$(mktemp -d); \
	{ s=0; $(BIN)/python -m mypy || s=1; \
	  $(BIN)/python -m tilebag bench perft --positions 300 --seed 7 || s=1; \
	  $(BIN)/python -m tilebag bench perft --full --positions 4 --seed 11 || s=1; \
	  exit $$s; } > "$$beside/out" 2>&1 & checks=$$!; \
	$(BIN)/python -m pytest -n 3 --dist worksteal --durations=15 || status=1; \
	$(BIN)/python -m ruff check src tests || status=1; \
	wait $$checks || status=1; \
	cat "$$beside/out"; rm -rf "$$beside"; \
	exit $$status

# make check is the fast tier, for the inner loop (under a minute): the tests
# but the slow ones and those that start PostgreSQL, Redis or Chromium, then ruff.
check: $(VENV)/.installed-test
	@status=0; \
	$(BIN)/python -m pytest -n 2 -q -m "not slow and not service and not browser" || status=1; \
	$(BIN)/python -m ruff check src tests || status=1; \
	exit $$status

# make upgrade: the newest releases that pyproject.toml allows, into the lock,
# then the whole suite on them. It prints what changed; commit the lock on its
# own, with a message that says so, once the suite is green (fix what the new
# releases break first).
upgrade: $(VENV)/.installed-test
	$(BIN)/uv pip compile pyproject.toml requirements/tools.in --extra test --python-version 3.11 \
	  --generate-hashes --universal --upgrade --quiet -o $(LOCK)
	@echo "what the lock takes anew (- before, + now):"
	@git diff --no-color -U0 -- $(LOCK) | grep -E '^[-+][A-Za-z0-9]' || echo "  nothing: the lock was up to date"
	$(MAKE) test

clean:
	rm -rf $(VENV) build src/*.egg-info .hypothesis
