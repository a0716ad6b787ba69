"""What `make demo` shows, checked: the instant merge applies examples/inventory.snippet.py; it
cannot settle examples/cart.snippet.py alone (a changed docstring line that may be new) and reports
a small region; the default model rewrites only that window and writes the right file; the
remove() edit of examples/store.snippet.py stays refused (no guessing which class)."""

from pathlib import Path

import pytest

from fastapply.merge.instant import instant_merge
from fastapply.pipeline import apply_edit

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
STORE = (EXAMPLES / "store.py").read_text()
CART = (EXAMPLES / "cart.snippet.py").read_text()
CART_INSTRUCTION = "Say in the Cart docstring that items are keyed by name"  # the Makefile's -i
CART_EXPECTED = STORE.replace('    """What a customer is about to buy."""',
                              '    """What a customer is about to buy, keyed by item name."""')


def test_the_instant_merge_applies_the_first_example():
    merged = instant_merge((EXAMPLES / "inventory.py").read_text(), (EXAMPLES / "inventory.snippet.py").read_text(),
                           path="inventory.py")
    assert merged.merged and "raise KeyError" in merged.text


def test_the_instant_merge_cannot_settle_the_cart_edit_alone_and_says_where():
    merged = instant_merge(STORE, CART, path="store.py")
    assert not merged.merged and "could be a new line or a change" in merged.refused_reason
    assert merged.regions and max(e for _, e in merged.regions) - min(s for s, _ in merged.regions) < 8


def test_the_remove_edit_is_refused_by_the_instant_merge():
    merged = instant_merge(STORE, (EXAMPLES / "store.snippet.py").read_text(), path="store.py")
    assert not merged.merged and "2 times" in merged.refused_reason


def test_the_makefile_runs_these_examples_with_this_instruction():
    makefile = (EXAMPLES.parent / "Makefile").read_text()
    assert "examples/cart.snippet.py" in makefile and CART_INSTRUCTION in makefile


@pytest.mark.model
def test_the_default_model_rescues_the_cart_edit_in_a_window():
    result = apply_edit(STORE, CART, CART_INSTRUCTION, path="store.py")
    assert result.path == "model" and result.window is not None and result.window[1] - result.window[0] < 20
    assert result.complete, result.guard_reason
    assert result.text == CART_EXPECTED
