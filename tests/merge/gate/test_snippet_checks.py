"""Result-vs-snippet checks (merge/snippet_checks.py) not covered by test_guards.py."""

from fastapply.merge.gate import snippet_checks
from fastapply.merge.instant import instant_merge


def test_snippet_lines_shifted_by_one_amount_pass():
    snippet = ["def f():", "    return 1"]
    assert snippet_checks.check_relative_indentation(snippet, ["class A:", "    def f():", "        return 1"]) is None


def test_part_of_the_snippet_re_nested_is_refused():
    snippet = ["        return self.host", "", "    @property", "    def secure(self):", "", "class Next:"]
    result = ["class A:", "    def get(self):", "        return self.host", "", "@property", "def secure(self):",
              "", "class Next:"]
    reason = snippet_checks.check_relative_indentation(snippet, result)
    assert reason and "@property" in reason and "re-nested" in reason


def test_instant_merge_does_not_move_a_method_to_the_top_level():
    original = ("import os\n\n\nclass Request(object):\n    def __init__(self, r):\n        self._r = r\n\n"
                "    def get_host(self):\n        return self._r.host\n\n    def __getattr__(self, name):\n"
                "        if name == 'secure':\n            return self._r.is_secure()\n\n\n"
                "class Response(object):\n    def __init__(self, h):\n        self._h = h\n")
    snippet = ("        return self._r.host\n\n    @property\n    def secure(self):\n        return self._r.is_secure()\n"
               "\n\nclass Response(object):\n")
    result = instant_merge(original, snippet, language="python")
    assert result.text is None or "\n@property" not in result.text


def test_a_deletion_needs_the_snippet_around_it_in_order():
    # `with open(name) as f:` is in both functions; the snippet shows it for walk() only, so it
    # says nothing about the end of walk() being deleted before scan().
    original = ["def walk(paths):", "    for name in paths:", "        with open(name) as handle_file:",
                "            contents = handle_file.read(4096)", "        if needle_marker in contents:",
                "            yield name", "", "", "def scan(paths):", "    for name in walk(paths):",
                "        with open(name) as handle_file:", "            print(handle_file.read())"]
    snippet = original[:4]  # walk() shown up to `contents = ...`, its end left out (no marker)
    result = original[:4] + original[6:]
    reason = snippet_checks.check_unshown_deletions(original, result, snippet)
    assert reason and "does not touch" in reason
    # Showing a line below the gap, after the lines above it, shows the deletion.
    assert snippet_checks.check_unshown_deletions(original, result, snippet + ["", "", "def scan(paths):"]) is None
