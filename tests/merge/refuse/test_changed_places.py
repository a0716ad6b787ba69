"""new_lines.changed_places (via explain): a section of new lines no original line is alike by
ratio is offered the change of the original line that keeps its head (an assignment's target, a
call's name; a statement spread over lines, all of them) or its last line's head."""

from __future__ import annotations

from fastapply.evaluation.retry import choose
from fastapply.merge.instant import instant_merge
from fastapply.merge.refuse.explain import explain
from fastapply.merge.refuse.revise import revise


def _not_found(line: str, n: int = 1) -> str:
    return (f"section {n} (starting `{line[:47]}...`) could not be found in the original after the previous section "
            "(no line of it occurs there); include a few unchanged lines from the original around the change")


GRADLE = """\
plugins {
  id("com.vanniktech.maven.publish.base")
  id("org.jetbrains.dokka")
}

allprojects {
  group = "com.squareup.moshi"
  version = "2.0.0-SNAPSHOT"

  repositories { mavenCentral() }
}

subprojects {
  tasks.withType<Test>().configureEach {
    jvmArgs("--add-opens=java.base/java.io=ALL-UNNAMED")
  }
}
"""


def test_a_changed_assignment_is_offered_the_line_with_the_same_target():
    line = 'version = project.property("VERSION_NAME") as String'
    snippet = f"// ... existing code ...\n  {line}\n// ... existing code ...\n"
    expected = GRADLE.replace('version = "2.0.0-SNAPSHOT"', line)
    refusal = explain(GRADLE, snippet, _not_found(line), language="kotlin")
    says = [o.says for o in refusal.options]
    assert any(s.endswith("if it changes original line 8") for s in says)  # no line is alike by ratio
    option = choose(refusal, snippet, expected, GRADLE)
    assert option is not None and "changes original line 8" in option.says
    assert instant_merge(GRADLE, revise(snippet, option), language="kotlin").text == expected


PHP = """\
<?php

class JsonFormatter
{
    protected function formatBatchJson(array $records)
    {
        return json_encode($records);
    }

    protected function formatBatchNewlines(array $records)
    {
        return implode(PHP_EOL, array_map($records, array($this, 'format')));
    }
}
"""
NEW = """\
        $instance = $this;

        array_walk($records, function(&$value, $key) use ($instance) {
            $value = $instance->format($value);
        });

        return implode("\\n", $records);
"""


def test_a_rewritten_run_is_offered_the_change_of_the_line_its_last_line_keeps_the_head_of():
    snippet = "// ... existing code ...\n" + NEW + "// ... existing code ...\n"
    expected = PHP.replace("        return implode(PHP_EOL, array_map($records, array($this, 'format')));\n", NEW)
    refusal = explain(PHP, snippet, _not_found("$instance = $this;"), language="php")
    assert any(o.says.endswith("if it changes original line 12") for o in refusal.options)
    option = choose(refusal, snippet, expected, PHP)
    assert option is not None and "changes original line 12" in option.says


def test_a_statement_written_on_one_line_is_offered_the_change_of_all_its_original_lines():
    from fastapply.merge.refuse.new_lines import changed_places
    from fastapply.merge.refuse.reading import read_input

    original = ("class A\n{\n    private record Builder(\n        Func<int> Factory,\n        List<int> Tokens,\n"
                "        Listener? Listener);\n}\n")
    inp = read_input(original, "// ...\n    private record Builder(Func<int> Factory, Listener? Listener);\n// ...\n")
    lines = [i for i, line in enumerate(inp.original) if line.strip()]
    assert changed_places(inp, ["private record Builder(Func<int> Factory, Listener? Listener);"], lines) == [(2, 4)]
    # a head no original line has places nothing
    assert changed_places(inp, ["foo = 1"], lines) == []


DISPOSE = """\
internal static class DisposeHelper
{
    public static void TryDispose(object value)
    {
        try
        {
            if (value is IDisposable disposable)
            {
                disposable.Dispose();
            }
        }
        catch (Exception)
        {
            Debug.Assert(false, "dispose failed");
        }
    }
}
"""


def test_one_new_line_is_offered_the_change_of_each_line_at_its_depth():
    """A comment for a call shares nothing with it: any line at its depth may be the one it replaces."""
    from fastapply.evaluation.retry import retry_example

    snippet = "// ... existing code ...\n            // Swallow any exception\n// ... existing code ...\n"
    expected = DISPOSE.replace('            Debug.Assert(false, "dispose failed");\n', "            // Swallow any exception\n")
    refusal = instant_merge(DISPOSE, snippet, language="csharp").refusal
    says = [o.says for o in refusal.options]
    assert any(s.endswith("if it changes original line 14") for s in says)
    assert not any(s.endswith("if it changes original line 8") for s in says)  # a `{` is no line a comment replaces
    row = retry_example({"original": DISPOSE, "snippet": snippet, "expected": expected, "language": "csharp"})
    assert row["second"] == "right"


GO = """\
func cleanPath(p string) string {
\tfor r < n {
\t\tswitch {
\t\tcase p[r] == '.' && p[r+1] == '/':
\t\t\t// . element
\t\t\tr++

\t\tcase p[r] == '.' && p[r+1] == '.':
\t\t\t// .. element: remove to last /
\t\t\tr += 2

\t\t\tif w > 1 {
\t\t\t\tw--
\t\t\t}
\t\t}
\t}
\treturn string(buf[:w])
}
"""


def test_a_line_the_snippet_shows_is_never_offered_as_the_one_a_new_line_replaces():
    """`r += 2` stands in the snippet (section 1, a change of `r++`): the merge reads it as original
    line 10, so a new line as a change of line 10 wrote a wrong file (abl202 389); line 6 is offered."""
    from fastapply.merge.refuse.new_lines import new_places
    from fastapply.merge.refuse.reading import read_input

    snippet = ("// ... existing code ...\n\t\t\tr += 2\n// ... existing code ...\n\t\t\t// nothing left to skip\n"
               "// ... existing code ...\n")
    inp = read_input(GO, snippet, "go")
    says = [o.says for o in new_places(inp, inp.sections[1])]
    assert any(s.endswith("if it changes original line 6") for s in says)
    assert not any(s.endswith("if it changes original line 10") for s in says)
