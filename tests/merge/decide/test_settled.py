"""Readings neither merger wrote that the snippet settles (settled.py): the change reading of a doubt,
the relanded new definition."""

from fastapply.merge.text.conventions import split_text
from fastapply.merge.decide.settled import doubt_by_repeats, exit_replaced, new_reading_repeats, new_reading_unindented
from fastapply.merge.instant import instant_merge
from tests.merge.shop_file import SHOP

ORIGINAL = """\
var server = {
  port: 3000,
  host: 'localhost',
  backlog: 128,
};

function run() {
  listen(server.port, server.host);
}""".split("\n")
SNIPPET = ["// ... existing code ...", "  host: null,", "  backlog: 128,", "// ... existing code ..."]
AS_NEW = ORIGINAL[:3] + ["  host: null,"] + ORIGINAL[3:]  # `host: null,` read as a new property
AS_CHANGE = ORIGINAL[:2] + ["  host: null,"] + ORIGINAL[3:]


def test_a_new_line_that_redefines_its_neighbours_name_repeats_it():
    assert new_reading_repeats(ORIGINAL, AS_NEW, SNIPPET)
    assert not new_reading_repeats(ORIGINAL, AS_CHANGE, SNIPPET)
    other = ORIGINAL[:3] + ["  timeout: 10,"] + ORIGINAL[3:]  # a new name: nothing repeated
    assert not new_reading_repeats(ORIGINAL, other, SNIPPET[:1] + ["  timeout: 10,"] + SNIPPET[2:])


def test_a_doubt_whose_new_line_reading_repeats_is_the_change():
    orig = split_text("\n".join(ORIGINAL))
    pair = ("\n".join(AS_NEW), "\n".join(AS_CHANGE))
    assert doubt_by_repeats(orig, pair, "doubt", SNIPPET, "javascript", 2, None) == "\n".join(AS_CHANGE)
    assert doubt_by_repeats(orig, pair, "readings", SNIPPET, "javascript", 2, None) is None  # not a doubt
    swapped = ("\n".join(AS_CHANGE), "\n".join(AS_NEW))
    assert doubt_by_repeats(orig, swapped, "doubt", SNIPPET, "javascript", 2, None) is None


GUARDED = """\
public class Shop {
    public int beta(int x) {
        if (x < 0) {
            return 0;
        }
        int count = countItems(x);
        return count;
    }
}""".split("\n")
GUARD_CHANGED = GUARDED[:3] + ["            return -1;"] + GUARDED[4:]


def test_a_guard_shown_from_one_side_stays_a_doubt():
    """The snippet shows a guard's changed exit with context on one side only: new or changed?
    Read as new, the exit sits next to the old one (dead code), which argues for the change; a
    rule that settled it so (grid5's new_reading_dead: +93 grid rows) wrote one held-out file
    wrong and gained no row of a real-commit set, so it was retired: the doubt stays refused,
    with both readings for the planner (the retry's options settle it)."""
    for snippet in (["// ... existing code ...", "    public int beta(int x) {", "        if (x < 0) {",
                     "            return -1;", "// ... existing code ..."],
                    ["// ... existing code ...", "            return -1;", "        }",
                     "        int count = countItems(x);", "        return count;", "// ... existing code ..."]):
        m = instant_merge("\n".join(GUARDED), "\n".join(snippet), language="java")
        assert not m.merged and "\n".join(GUARD_CHANGED) in m.alternatives, m.refused_reason




def test_a_changed_last_exit_shown_after_a_marker_replaces_the_kept_one():
    """`// ...`, `return label + 1;`, `}`, `}`: the section is placed at the file's end, and read
    as an insertion the old `return label;` stays in front of the new one (refused before:
    check_code_after_kept_exit). The new exit replaces it."""
    snippet = "// ... existing code ...\n        return label + 1;\n    }\n}"
    m = instant_merge(SHOP, snippet, language="java")
    assert m.merged and m.text == SHOP.replace("return label;", "return label + 1;"), m.refused_reason


def test_a_new_line_after_a_kept_exit_that_is_no_exit_replaces_nothing():
    orig = split_text(SHOP)
    lines = SHOP.split("\n")
    called = lines[:9] + ["        log(label);"] + lines[9:]  # a call after `return label;`: not a changed exit
    snippet = ["// ... existing code ...", "        log(label);", "    }", "}"]
    assert exit_replaced(orig, called, snippet, "java", 3, None) is None
    changed = lines[:9] + ["        return label + 1;"] + lines[9:]
    assert exit_replaced(orig, changed, snippet[:1] + ["        return label + 1;"] + snippet[2:], "java", 3,
                         None) == SHOP.replace("return label;", "return label + 1;")
    shown = ["// ... existing code ...", "        return label;", "        return label + 1;", "    }", "}"]
    assert exit_replaced(orig, changed, shown, "java", 4, None) is None  # the snippet shows the pair


RENAMED = """\
class Shop {
  alpha(x) {
    return x;
  }

  gamma(x) {
    const label = this.formatLabel(x);
    return label;
  }
}"""


def test_a_new_line_reading_that_leaves_an_opener_without_a_body_is_no_reading():
    """A renamed method shown from one side: read as new, `gammaLabel(x) {` sits right under the
    old `gamma(x) {` at the same depth (refused before as a doubt); it is the change."""
    snippet = ("// ... existing code ...\n  gammaLabel(x) {\n    const label = this.formatLabel(x);\n"
               "    return label;\n  }\n// ... existing code ...")
    m = instant_merge(RENAMED, snippet, language="javascript")
    assert m.merged and m.text == RENAMED.replace("gamma(x) {", "gammaLabel(x) {"), m.refused_reason
    lines = RENAMED.split("\n")
    stacked = lines[:5] + ["  gamma(x) {", "  gammaLabel(x) {"] + lines[6:]
    assert new_reading_unindented(lines, stacked, snippet.split("\n"))
    assert not new_reading_unindented(lines, lines[:5] + ["  gammaLabel(x) {"] + lines[6:], snippet.split("\n"))
    allman = ["    int f(int x)", "    {", "        return x;", "    }"]  # `{` under its header: a body
    assert not new_reading_unindented(allman[:1] + allman[2:], allman, allman)


# --------------------------------------------------------------------------- the relanded reading

from fastapply.merge.align import greedy
from fastapply.merge.gate.landing import check_definition_split
from fastapply.merge.decide.settled import insert_before_next

# A new test between a marker and the unchanged `def test_three`: its lines look like the end of
# `test_two` (`@click.command()`, `assert not result.exception`), so the greedy reading lays it
# over `test_two`'s second half.
RELAND_ORIGINAL = '''\
import click


def test_one(runner):
    @click.command()
    @click.option('--name', default='one')
    def cmd(name):
        click.echo(name)

    result = runner.invoke(cmd, [])
    assert not result.exception
    assert result.output == 'one\\n'


def test_two(runner):
    @click.command()
    @click.option('--count', type=int)
    def cmd(count):
        click.echo(count * 2)

    result = runner.invoke(cmd, ['--count', '2'])
    assert not result.exception
    assert result.output == '4\\n'

    @click.command()
    @click.option('--count', type=float)
    def cmd(count):
        click.echo(count * 2)

    result = runner.invoke(cmd, ['--count', '1.5'])
    assert not result.exception
    assert result.output == '3.0\\n'


def test_three(runner):
    assert runner
'''.split("\n")

RELAND_SNIPPET = '''\
# ... existing code ...


def test_default_shown(runner):
    @click.command()
    @click.option('--arg', default=3, show_default=True)
    def cmd(arg):
        pass

    result = runner.invoke(cmd, ['--help'])
    assert not result.exception
    assert '3' in result.output


def test_three(runner):
    # ... existing code ...
'''.split("\n")


def _laid_over(original=RELAND_ORIGINAL, snippet=RELAND_SNIPPET):
    result = greedy.merge_lazy(original, snippet).lines
    assert result is not None and check_definition_split(original, result) is not None
    return result


def test_the_new_definition_goes_whole_before_the_next_one():
    relanded = insert_before_next(RELAND_ORIGINAL, _laid_over(), RELAND_SNIPPET)
    k = relanded.index("def test_default_shown(runner):")
    assert relanded[:k] == RELAND_ORIGINAL[: RELAND_ORIGINAL.index("def test_three(runner):")]
    assert relanded[k:].count("") == 4 and relanded[-3] == "def test_three(runner):"
    assert check_definition_split(RELAND_ORIGINAL, relanded) is None


def test_instant_merge_writes_the_relanded_reading():
    r = instant_merge("\n".join(RELAND_ORIGINAL), "\n".join(RELAND_SNIPPET), language="python", path="test_x.py")
    assert r.refused_reason is None
    assert "    assert result.output == '3.0\\n'\n\n\ndef test_default_shown(runner):" in r.text


def test_a_name_the_original_has_is_no_new_definition():
    original = ["# test_default_shown: see below"] + RELAND_ORIGINAL
    assert insert_before_next(original, _laid_over(original), RELAND_SNIPPET) is None


def test_a_definition_the_snippet_does_not_show_whole_is_left_alone():
    result = _laid_over()
    cut = [l for l in RELAND_SNIPPET if "show_default" not in l]
    assert insert_before_next(RELAND_ORIGINAL, result, cut) is None


def test_a_reading_that_also_changed_the_old_definition_is_left_alone():
    result = _laid_over()
    k = result.index("    result = runner.invoke(cmd, ['--count', '2'])")
    result[k] = "    result = runner.invoke(cmd, ['--count', '5'])"
    assert insert_before_next(RELAND_ORIGINAL, result, RELAND_SNIPPET) is None


