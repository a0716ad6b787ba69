"""A snippet's copy of an existing outer definition must land on it, not beside it."""

from fastapply.merge.gate import guards, landing
from fastapply.merge.text.compare import line_opcodes

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


def test_a_definition_the_snippet_calls_must_not_be_overwritten():
    original = ["function sort(repos) {", "  return repos.sort(byWatchers);", "}", "", "app.get('/', show);"]
    snippet = ["// ... existing code ...", "function total(repos) {", "  return repos.reduce(add, 0);", "}", "",
               "app.get('/', function(req, res){ res.render({ total: total(r), repos: sort(r) }); });"]
    overwritten = ["function total(repos) {", "  return repos.reduce(add, 0);", "}", "", snippet[-1]]
    reason = landing.check_dropped_definition(original, overwritten, snippet)
    assert reason and "`sort`" in reason
    added = original[:4] + overwritten
    assert landing.check_dropped_definition(original, added, snippet) is None
    # Removed while only the rest of the file still calls it (moved to another module): not this guard's call.
    assert landing.check_dropped_definition(original, overwritten, snippet[:-1]) is None


def test_defined_names_reads_common_definition_forms():
    lines = ["def load(path):", "    async def fetch(url):", "pub fn parse<T>(s: &str) -> T {",
             "func (c *Command) Execute() error {", "export function render(x) {", "x = call(y)"]
    assert dict(landing.defined_names(lines)) == {"load": 1, "fetch": 1, "parse": 1, "Execute": 1, "render": 1}


def test_a_new_definition_may_not_land_inside_the_one_above_it():
    original = ["def test_a(runner):", "    @click.command()", "    def cmd(arg):", "        click.echo(arg)",
                "    result = runner.invoke(cmd, ['x'])", "    assert not result.exception",
                "", "    @click.command()", "    def cmd(arg):", "        click.echo(arg.upper())",
                "    result = runner.invoke(cmd, ['y'])", "    assert not result.exception", "", "",
                "def test_b(runner):", "    pass"]
    new_test = ["", "", "def test_new(runner):", "    @click.command()", "    def cmd(arg, other):", "        pass",
                "    result = runner.invoke(cmd, ['--help'])", "    assert not result.exception"]
    # Laid over the second half of test_a: its `@click.command()` and `assert not result.exception`
    # (lines the file repeats) now belong to test_new, and test_a's second check is gone.
    over = original[:7] + ["", "def test_new(runner):"] + original[7:8] + new_test[4:7] + original[11:]
    reason = landing.check_definition_split(original, over)
    assert reason and "test_new" in reason and "inside `def test_a(runner):`" in reason
    # Added after test_a (nothing of it moved or lost): fine.
    after = original[:12] + new_test + original[12:]
    assert landing.check_definition_split(original, after) is None


def test_a_new_definition_the_snippet_pins_from_above_is_no_split():
    original = ["def test_a(runner):", "    @click.command()", "    def cmd(arg):", "        click.echo(arg)",
                "    result = runner.invoke(cmd, ['x'])", "    assert not result.exception",
                "", "    @click.command()", "    def cmd(arg):", "        click.echo(arg.upper())",
                "    result = runner.invoke(cmd, ['y'])", "    assert not result.exception", "", "",
                "def test_b(runner):", "    pass"]
    over = original[:7] + ["", "def test_new(runner):"] + original[7:8] + [
        "    def cmd(arg, other):", "        pass", "    result = runner.invoke(cmd, ['--help'])"] + original[11:]
    guessed = ["# ... existing code ...", "", "def test_new(runner):", "    @click.command()"]
    assert landing.check_definition_split(original, over, guessed) is not None
    # The snippet shows test_a's shortened end right above the new header: test_a ends there.
    pinned = ["def test_a(runner):", "    # ... existing code ...", "    assert not result.exception", "", "",
              "def test_new(runner):", "    @click.command()"]
    assert landing.check_definition_split(original, over, pinned) is None
    # A generic line shown above the header (`pass`) pins nothing.
    generic = over[:8] + ["    pass"] + over[8:]
    assert landing.check_definition_split(original, generic, ["    pass", "", "def test_new(runner):"]) is not None


def test_keyword_less_signatures_are_definition_headers():
    """C#, Java, C++ and TypeScript methods have no defining keyword; a method moved first whose
    old copy stayed (the pattern grid's move_method, C# minimal style) wrote it twice."""
    csharp = ["namespace Shop", "{", "    public class Shop", "    {", "        public int Gamma(int x)", "        {",
              "            return x;", "        }", "    }", "}"]
    assert landing.definition_headers(csharp) == ["public class Shop", "public int Gamma(int x)"]
    cpp = ["int Shop::gamma(int x) {", "  if (ready(x)) {", "    return label(x);", "  }", "}"]
    assert landing.definition_headers(cpp) == ["int Shop::gamma(int x) {"]
    ts = ["export class Shop {", "  gamma(x: number): number {", "    return x;", "  }", "}"]
    assert landing.definition_headers(ts) == ["export class Shop {", "gamma(x: number): number {"]
    # calls, statements and declarations are no headers
    assert landing.definition_headers(["class Shop {", "    if (isReady(x)) {", "    }", "    computeLimit(x);",
                                       "}", "printLabels(count);"]) == ["class Shop {"]
    moved = csharp[:4] + csharp[4:8] + [""] + csharp[4:]
    snippet = ["// ... existing code ...", "    {", "        public int Gamma(int x)", "        {",
               "            return x;", "        }", "// ... existing code ..."]
    assert landing.check_definition_kept_twice(csharp, moved, snippet)


def test_a_short_member_header_counts_inside_its_class():
    """`gamma(x) {` is too short to say where it is on its own, but as a member of a class it names
    one: a JS method moved first whose old copy stayed (the grid's move_method, minimal style)
    was written twice on 2026-11-26. Short lines outside a container still count for nothing."""
    js = ["class Shop {", "  alpha(x) {", "    return 1;", "  }", "  gamma(x) {", "    return x;", "  }", "}"]
    assert landing.definition_headers(js) == ["class Shop {", "alpha(x) {", "gamma(x) {"]
    moved = js[:1] + js[4:7] + js[1:]
    snippet = ["class Shop {", "  gamma(x) {", "    return x;", "  }", "  alpha(x) {", "// ... existing code ..."]
    assert landing.check_definition_kept_twice(js, moved, snippet)
    assert landing.definition_headers(["f(x) {", "}", "  run() {", "  }"]) == []


SHOP = """\
<?php
class Shop
{
    public function name(): string
    {
        return $this->name;
    }

    /**
     * @return list<string>
     */
    public function items(): array
    {
        return $this->items;
    }

    public function total(): int
    {
        return array_sum($this->prices);
    }
}
"""

# The planner adds `count()` after `name()` and documents `total()` with a doc comment that
# `items()` already has word for word.
SHOP_SNIPPET = """\
// ... existing code ...
    }

    public function count(): int
    {
        return count($this->items);
    }

    /**
     * @return list<string>
     */
    public function total(): int
// ... existing code ...
"""


def _lines(text: str) -> list[str]:
    return text.split("\n")


def test_a_definition_deleted_under_its_kept_doc_comment_is_refused():
    # the snippet's doc comment matched to items()'s: items() deleted, its comment kept above total()
    merged = _lines(SHOP)[:8] + _lines(SHOP_SNIPPET)[2:8] + _lines(SHOP)[8:11] + _lines(SHOP)[16:]
    reason = landing.check_lead_in_kept(_lines(SHOP), merged, _lines(SHOP_SNIPPET), "php")
    assert reason and "public function items(): array" in reason and "`*/`" in reason
    assert "drops 4 line(s) of the original near line 12" in reason
    assert guards.check_merge_against_snippet(_lines(SHOP), merged, _lines(SHOP_SNIPPET), (), "php") == reason
    answer = guards.check_answer(SHOP, SHOP_SNIPPET, "\n".join(merged), language="php")
    assert answer is not None and answer.reason == reason  # the model's answers pass the same gate


def test_a_definition_rewritten_under_its_own_decorator_or_shown_passes():
    original = ["import pytest", "", "", "@pytest.mark.slow", "def test_pool(server):", "    a = 1",
                "    assert a", "", "", "@pytest.mark.slow", "def test_send(server):", "    assert True", ""]
    rewritten = original[:4] + ["def test_pool(server, limit):", "    b = 2", "    assert b"] + original[7:]
    snippet = ["# ... existing code ...", "@pytest.mark.slow", "def test_pool(server, limit):", "    b = 2",
               "    assert b", "# ... existing code ..."]
    assert landing.check_lead_in_kept(original, rewritten, snippet, "python") is None
    renamed = original[:4] + ["def test_limit(server):", "    b = 2", "    assert b"] + original[7:]
    new_snippet = [line.replace("test_pool(server, limit)", "test_limit(server)") for line in snippet]
    reason = landing.check_lead_in_kept(original, renamed, new_snippet, "python")
    assert reason and "def test_pool(server):" in reason and "`@pytest.mark.slow`" in reason
    shown = new_snippet[:2] + ["def test_pool(server):"] + new_snippet[2:]
    assert landing.check_lead_in_kept(original, renamed, shown, "python") is None  # the old header shown: meant


def test_a_definition_deleted_with_the_next_twin_lead_in_is_the_same_file_and_passes():
    # `@fixture / def a / @fixture / def b` -> `@fixture / def b`: the aligner may keep the first
    # decorator and delete the second with `a`; deleting the first with `a` gives the same file
    head = ["import pytest", "", "", "def ca():", "    return CA()", "", ""]
    original = head + ["@fixture", "def a(ca):", "    return ca.pem", "", "", "@fixture", "def b(ca):", "    return 1", ""]
    merged = original[:8] + original[13:]  # the way the line aligner reads it: the first `@fixture` kept
    assert ("delete", 8, 13, 8, 8) in line_opcodes(original, merged)
    snippet = ["# ... existing code ...", "    return CA()", "", "", "@fixture", "def b(ca):", "    return 1"]
    assert landing.check_lead_in_kept(original, merged, snippet, "python") is None
    plain = head + ["@fixture", "def a(ca):", "    pem = ca.pem", "    return pem", "", "", "def b(ca):", "    return 1"]
    # `b` undecorated: the kept `@fixture` would decorate it
    assert landing.check_lead_in_kept(plain, plain[:8] + plain[13:], snippet, "python")


def test_a_js_method_deleted_under_its_kept_doc_comment_past_a_blank_line_is_refused():
    # the new doc comment's `*/` matched to normalizePath's; the method below it (a blank line between,
    # bound as an object key) deleted to keep the snippet's next line adjacent
    original = ["var utils = {", "  /**", "   * Normalize a path.", "   */", "", "  normalizePath : function(path) {",
                "    return path.trim()", "  },", "", "  pathToRegexp : function(path) {", "    return path", "  }", "};"]
    merged = original[:2] + ["   * Normalize _path_ to a RegExp.", "   */", "", "  pathToRegexp : function(path) {",
                             "    return new RegExp(path)"] + original[11:]
    snippet = ["// ... existing code ...", "  /**", "   * Normalize _path_ to a RegExp.", "   */", "",
               "  pathToRegexp : function(path) {", "    return new RegExp(path)", "// ... existing code ..."]
    reason = landing.check_lead_in_kept(original, merged, snippet, "javascript")
    assert reason and "near line 6 (`normalizePath : function(path) {`" in reason
    # the same method rewritten in place under its comment passes
    rewritten = original[:5] + ["  normalizePath : function(path, strict) {", "    return strict ? path : path.trim()"] + \
        original[7:]
    shown = ["// ... existing code ...", "   */", "", "  normalizePath : function(path, strict) {",
             "    return strict ? path : path.trim()", "// ... existing code ..."]
    assert landing.check_lead_in_kept(original, rewritten, shown, "javascript") is None
    assert landing._assigned_function("exports.f = (a) => {") == "exports.f"
    assert landing._assigned_function("  host: null,".strip()) is None
