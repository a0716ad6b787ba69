"""A snippet's copy of an existing outer definition must land on it, not beside it."""

from fastapply.merge import guards, landing

ORIGINAL = """\
#[cfg(unix)]
pub fn on_tty() -> bool {
    unix_check()
}

#[cfg(windows)]
pub fn on_tty() -> bool {
    windows_check()
}
""".split("\n")

SNIPPET = """\
// ... existing code ...
#[cfg(windows)]
pub fn on_tty() -> bool {
    true
}
""".split("\n")


def test_a_twin_definition_pasted_beside_the_original_is_refused():
    pasted = ORIGINAL[:-1] + ["", "#[cfg(windows)]", "pub fn on_tty() -> bool {", "    true", "}", ""]
    reason = landing.check_definition_kept_twice(ORIGINAL, pasted, SNIPPET)
    assert reason and "pub fn on_tty() -> bool {" in reason and "3 times" in reason


def test_the_definition_landing_on_its_twin_passes():
    landed = ORIGINAL[:6] + ["pub fn on_tty() -> bool {", "    true", "}", ""]
    assert landing.check_definition_kept_twice(ORIGINAL, landed, SNIPPET) is None


def test_a_method_inside_a_class_counts_but_a_nested_helper_does_not():
    original = ["class A:", "    def run(self):", "        return 1", ""]
    snippet = ["class A:", "    def run(self):", "        return 2"]
    twice = original[:3] + ["    def run(self):", "        return 2", ""]
    assert landing.check_definition_kept_twice(original, twice, snippet)
    # Test files repeat nested helpers (`def cli():` in every test): a new test repeats it again.
    tests = ["def test_a():", "    def cli():", "        pass", ""]
    new = tests + ["def test_b():", "    def cli():", "        pass", ""]
    assert landing.check_definition_kept_twice(tests, new, new[4:]) is None


def test_a_snippet_that_shows_the_definition_twice_may_add_it_twice():
    original = ["function a() {", "}", ""]
    snippet = ["function b() {", "}", "function b() {", "}"]
    result = original + snippet
    assert landing.check_definition_kept_twice(original, result, snippet) is None


def test_headers_skip_continued_signatures_and_generic_lines():
    lines = ["def long_signature_here(", "    a,", "):", "    pass", "fn x() {", "}", "def handler_name(self):"]
    assert landing.definition_headers(lines) == ["def handler_name(self):"]


def test_the_guard_runs_on_every_lazy_merge_and_on_model_answers():
    pasted = ORIGINAL[:-1] + ["", "#[cfg(windows)]", "pub fn on_tty() -> bool {", "    true", "}", ""]
    reason = guards.run_guards("\n".join(ORIGINAL), "\n".join(pasted), language=None, shown_lines=None,
                               snippet="\n".join(SNIPPET))
    assert reason and "did not land" in reason
    failure = guards.check_answer("\n".join(ORIGINAL), "\n".join(SNIPPET), "\n".join(pasted), language=None)
    assert failure is not None and failure.guard == "duplicates"
