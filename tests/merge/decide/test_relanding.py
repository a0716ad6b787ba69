"""The other reading of a new definition laid over the end of the one above it (relanding.py)."""

from fastapply.merge.align import greedy
from fastapply.merge.instant import instant_merge
from fastapply.merge.gate.landing import check_definition_split
from fastapply.merge.decide.relanding import defined_name, insert_before_next

# A new test between a marker and the unchanged `def test_three`: its lines look like the end of
# `test_two` (`@click.command()`, `assert not result.exception`), so the greedy reading lays it
# over `test_two`'s second half.
ORIGINAL = '''\
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

SNIPPET = '''\
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


def _laid_over(original=ORIGINAL, snippet=SNIPPET):
    result = greedy.merge_lazy(original, snippet).lines
    assert result is not None and check_definition_split(original, result) is not None
    return result


def test_the_new_definition_goes_whole_before_the_next_one():
    relanded = insert_before_next(ORIGINAL, _laid_over(), SNIPPET)
    k = relanded.index("def test_default_shown(runner):")
    assert relanded[:k] == ORIGINAL[: ORIGINAL.index("def test_three(runner):")]
    assert relanded[k:].count("") == 4 and relanded[-3] == "def test_three(runner):"
    assert check_definition_split(ORIGINAL, relanded) is None


def test_instant_merge_writes_the_relanded_reading():
    r = instant_merge("\n".join(ORIGINAL), "\n".join(SNIPPET), language="python", path="test_x.py")
    assert r.refused_reason is None
    assert "    assert result.output == '3.0\\n'\n\n\ndef test_default_shown(runner):" in r.text


def test_a_name_the_original_has_is_no_new_definition():
    original = ["# test_default_shown: see below"] + ORIGINAL
    assert insert_before_next(original, _laid_over(original), SNIPPET) is None


def test_a_definition_the_snippet_does_not_show_whole_is_left_alone():
    result = _laid_over()
    cut = [l for l in SNIPPET if "show_default" not in l]
    assert insert_before_next(ORIGINAL, result, cut) is None


def test_a_reading_that_also_changed_the_old_definition_is_left_alone():
    result = _laid_over()
    k = result.index("    result = runner.invoke(cmd, ['--count', '2'])")
    result[k] = "    result = runner.invoke(cmd, ['--count', '5'])"
    assert insert_before_next(ORIGINAL, result, SNIPPET) is None


def test_defined_name():
    assert defined_name("def test_x(runner):") == "test_x"
    assert defined_name("pub fn on_stdin() -> bool {") == "on_stdin"
    assert defined_name("func (e *Engine) handle(w Writer) {") == "handle"
    assert defined_name("x = 1") is None
