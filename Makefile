# `make` sets everything up and runs the main job; `make test` runs the tests.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
FONTS  := .fonts/wqy-zenhei.ttc
ICC    := .icc/default_cmyk.icc
OUT    ?= output

.PHONY: all setup validate build verify test bench clean

# The build comes last: its closing line says which file to open first.
all: setup validate verify build

setup: $(STAMP) $(FONTS) $(ICC)

$(STAMP): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

$(FONTS): scripts/fetch-fonts.sh
	sh scripts/fetch-fonts.sh .fonts

$(ICC): scripts/fetch-icc.sh
	sh scripts/fetch-icc.sh .icc

validate: setup
	$(BIN)/cardgen validate

build: setup
	$(BIN)/cardgen build --out $(OUT)

verify: setup
	$(BIN)/cardgen verify

# The tests run on one process per core (pytest-xdist); `pytest -n 0` runs them in this one.
test: setup
	$(BIN)/python -m pytest -n auto

# The packages cardgen is measured against live in their own environment, never in $(VENV).
BENCH_VENV := .bench-venv

bench: setup
	sh bench/setup-comparison.sh $(PYTHON) $(BENCH_VENV)
	$(BIN)/python bench/bench.py --comparison-venv $(BENCH_VENV)

clean:
	rm -rf $(OUT)/*.pdf $(OUT)/*/ build .pytest_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
