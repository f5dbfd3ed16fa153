# Two set-up commands, on a fresh machine with Python 3.11 or newer:
#   make play   creates .venv, installs tilebag, starts a game
#   make test   creates .venv, installs tilebag with its test tools, runs the tests
# (make install is the first half of make play: what a player gets, and what
# tests/test_install.py builds afresh to test the browser game on.)
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: install play test lint clean

$(VENV)/.installed: pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "tilebag needs Python 3.11 or newer")'
	@$(PYTHON) -m venv $(VENV) || { echo "could not create a virtual environment: on Debian, apt-get install python3-venv"; exit 1; }
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[full-screen,server]'
	@touch $@

$(VENV)/.installed-test: $(VENV)/.installed
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	@touch $@

install: $(VENV)/.installed

play: install
	$(BIN)/tilebag play $(ARGS)

# Every check runs even when one fails, so a contributor sees all problems at once.
# The tests run on two processes (pytest-xdist): the suite is mostly one core's work.
test: $(VENV)/.installed-test
	@status=0; \
	$(BIN)/python -m pytest -n 2 || status=1; \
	$(BIN)/python -m mypy || status=1; \
	$(BIN)/python -m ruff check src tests || status=1; \
	exit $$status

clean:
	rm -rf $(VENV) build src/*.egg-info .hypothesis
