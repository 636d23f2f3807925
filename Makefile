# Two commands set everything up on a fresh machine:
#   make book   -> builds the HTML book into _build/html (installs what it needs)
#   make test   -> builds the book and runs every test (library, notebooks, browser, figures)
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PY     := $(BIN)/python
STAMP  := $(VENV)/.installed
NOTEBOOKS := $(shell find book -name '*.ipynb' -not -path '*/.ipynb_checkpoints/*' | sort)

.PHONY: book test lint test-lib test-notebooks test-browser shots figures notebooks bench lab browser clean help pdf

help:
	@echo "make book | pdf | test | lab | shots | figures | notebooks | bench | clean"

# The interpreter the venv is made from; asking for another one (make test PYTHON=python3.13)
# re-creates the venv with it -- an existing venv of another Python is never silently reused.
PYVER  := $(shell $(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)
ifeq ($(PYVER),)
$(error $(PYTHON) does not run; install Python 3.11-3.13 or pass PYTHON=/path/to/python3)
endif
VENV_OF := $(VENV)/.python-$(PYVER)

$(VENV_OF):
	@if [ "$$($(PY) -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)" != "$(PYVER)" ]; then \
	  if [ -d $(VENV) ]; then echo "== $(VENV) is not a Python $(PYVER) venv: re-creating it"; rm -rf $(VENV); fi; \
	  echo "$(PYTHON) -m venv $(VENV)"; $(PYTHON) -m venv $(VENV); fi
	touch $@

# The packages, re-installed when the pins change.  uv (from PyPI, pinned) installs the same
# pins as pip in a third of the time: 30 s against pip's 97 s with a warm cache, measured on a
# fresh venv; pip does it if uv cannot be installed.
UV := uv==0.13.9
$(STAMP): requirements.txt pyproject.toml $(VENV_OF)
	if $(PY) -m pip install --quiet $(UV); then \
	  $(BIN)/uv pip install --python $(PY) --quiet -r requirements.txt && \
	  $(BIN)/uv pip install --python $(PY) --quiet --no-deps -e .; \
	else \
	  $(PY) -m pip install --quiet -r requirements.txt && \
	  $(PY) -m pip install --quiet --no-deps -e .; \
	fi
	touch $(STAMP)

# ROBONUM_STATIC selects what an exploration puts in a notebook cell's text/html
# (robonum.explore): "1" every pre-rendered frame (the built book), "messages"
# every frame's message but no images (nbval compares those; 12x cheaper).
book: $(STAMP)
	ROBONUM_STATIC=1 $(PY) tools/build_book.py

# The book printed by Debian's chromium: _build/pdf/book.pdf (student's edition) and
# book-teacher.pdf (every exercise's key, hint and solution); tests/book/test_pdf.py checks them.
pdf: book browser
	$(PY) tools/pdf_book.py

# Every test; exits non-zero on any failure.
# Two workers (the machines have 2 cores); --dist loadfile keeps a notebook's cells on one
# worker (and conftest.py keeps test_a11y, test_weight and test_table_width, which share one
# visit of every page, together).  nbval judges the outputs of the build's own run of each
# notebook (--nbval-replay, tests/nbval_replay.py): the notebooks run once, not twice (their
# second run in nbval's kernels took about 200 s of the cores' time); `make test-notebooks`
# runs them in nbval's kernels.  The solver tests with large Newton matrices run once more with
# one BLAS thread inside this run (tests/lib/test_one_blas_thread.py).
XDIST := -n 2 --dist loadfile
test: book browser lint
	ROBONUM_STATIC=messages $(BIN)/pytest $(XDIST) tests $(NOTEBOOKS) --nbval --nbval-current-env \
	    --nbval-replay _build/.jupyter_cache \
	    --nbval-sanitize-with tests/nbval_sanitize.cfg -p no:cacheprovider --durations=15

# ruff over the code and the notebooks' cells: its formatter's layout, and the small rule
# set of pyproject.toml [tool.ruff.lint].  `ruff format lib tests tools book` applies the layout.
lint: $(STAMP)
	$(BIN)/ruff format --no-cache --check lib tests tools book
	$(BIN)/ruff check --no-cache lib tests tools book

test-lib: $(STAMP)
	$(BIN)/pytest tests/lib -q -p no:cacheprovider

# The notebooks run again, each in an nbval kernel of its own (under another BLAS kernel too:
# OPENBLAS_CORETYPE=Haswell make test-notebooks).
test-notebooks: $(STAMP)
	ROBONUM_STATIC=messages $(BIN)/pytest $(NOTEBOOKS) --nbval --nbval-current-env \
	    --nbval-sanitize-with tests/nbval_sanitize.cfg -p no:cacheprovider

test-browser: book browser
	$(BIN)/pytest tests/browser -p no:cacheprovider

# The browser tests again, saving screenshots for a reviewer in _build/screenshots.
shots: book browser
	ROBONUM_SHOTS=1 $(BIN)/pytest tests/browser -p no:cacheprovider

# Headless Chromium and a Hangul font from Debian (never a downloaded browser).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-nanum >/dev/null; \
	  else echo "need Debian's chromium: sudo apt-get install chromium fonts-nanum" >&2; exit 1; fi; }

# Static figures embedded by the README and pages, generated from library code.
figures: $(STAMP)
	$(PY) tools/make_figures.py figures

# Re-execute the notebooks and store their (small, stable) outputs for nbval.
notebooks: $(STAMP)
	$(PY) tools/run_notebooks.py

bench: $(STAMP)
	@for f in tests/benchmarks/bench_*.py; do echo "== $$f"; $(PY) $$f || exit 1; done

lab: $(STAMP)
	$(BIN)/jupyter lab book/

clean:
	rm -rf _build
