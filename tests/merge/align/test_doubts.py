"""Doubt at section edges: proven gap replacements, rival readings, messages naming the line."""

from fastapply.merge.align.doubts import doubt_note, replaces_gap, settled_reading, starts_alike
from fastapply.merge.align import greedy
from fastapply.merge.instant import instant_merge
from fastapply.merge.align.lazy import merge_lazy

ORIGINAL = '''\
def load(path, **opts):
    """Load a table from `path`.

    The reader is chosen from the file's extension
    and returned to the caller.

    :param mode: a custom reader mode that may be used
                 in place of the default one.
    """
    def reader(f):
        return f
    return reader


def save(path, **opts):
    """Save a table to `path`.

    The writer is chosen from the file's extension
    and returned to the caller.

    :param mode: a custom writer mode that may be used
                 in place of the default one.
    """
    def reader(f):
        return f
    return reader


def copy(path, **opts):
    """Copy a table."""
    def reader(f):
        return f
    return reader
'''.split("\n")

# The second function's two `:param mode:` lines change; the snippet brackets them with the
# unchanged `and returned to the caller.` + blank above and `"""` + `def reader(f):` below
# (not unique: `copy` has one too, so the changed lines sit at the section's edge).
SNIPPET = '''\
# ... existing code ...
def save(path, **opts):
    # ... existing code ...
    and returned to the caller.

    :param mode: the writer mode to use.  This defaults to
                 `plain`.
    """
    def reader(f):
    # ... existing code ...
'''.split("\n")


def test_changed_lines_bracketed_by_matched_lines_replace_the_gap():
    m = merge_lazy(ORIGINAL, SNIPPET)
    assert m.refused_reason is None
    assert m.lines[20:22] == ["    :param mode: the writer mode to use.  This defaults to", "                 `plain`."]
    assert m.lines[:19] == ORIGINAL[:19] and m.lines[22:] == ORIGINAL[22:]


def test_gap_proof_pairs_line_for_line():
    region = ["    :param mode: a custom writer mode", "                 in place of the default one."]
    repl = ["    :param mode: the writer mode to use.", "                 `plain`."]
    inner, outer = ["", "    and returned to the caller."], ['    """', "    def reader(f):"]
    assert replaces_gap(region, repl, inner, outer)
    assert not replaces_gap(region, repl[:1], inner, outer)  # not as long as the gap
    assert not replaces_gap(region, [repl[0], ""], inner, outer)  # a line paired with a blank one
    assert not replaces_gap(region, repl[::-1], inner, outer)  # first pair not alike
    assert not replaces_gap(region, repl, inner, ["", ""])  # blank closing lines pin nothing


def test_gap_proof_refuses_a_new_block_before_its_twin():
    # JS: a new test before the next one, both ending `});`: the gap opens what `});` closes.
    region = ["  it('reads b', function(){", "    check('b');"]
    repl = ["  it('reads new', function(){", "    check('new');"]
    assert not replaces_gap(region, repl, ["  });"], ["  });"])
    # Python: the gap starts shallower than the closing line it would keep.
    region = ["def test_b():", "    check('b')"]
    repl = ["def test_new():", "    check('new')"]
    assert not replaces_gap(region, repl, ["    check('a')"], ["    assert done"])


def test_starts_alike_finds_the_first_changed_line():
    assert starts_alike(["", " * Reads tables and files."], [" * Reads tables."]) == 1
    assert starts_alike([" * Reads tables and files."], [" */"]) is None  # generic new line
    assert starts_alike(["x = compute(1)"], ["return"]) is None


COMMENTED = '''\
class T:
    def test_one(self):
        r = get('one')
        self.assertEqual(r.status_code, 200)

    def test_two(self):
        r = post('two', data=1)
        self.assertEqual(r.status_code, 200)

    def test_three(self):
        r = get('three')
'''.split("\n")

# `self.assertEqual(...)` ends both tests: the commented copy may be test_two commented out in
# place (after test_one) or a commented copy added after test_two. The snippet cannot say.
COMMENTED_SNIPPET = '''\
# ... existing code ...
        self.assertEqual(r.status_code, 200)

    # def test_two(self):
    #     r = post('two', data=1)
    #     self.assertEqual(r.status_code, 200)

    def test_three(self):
# ... existing code ...
'''.split("\n")


def test_new_lines_like_the_lines_a_nearby_reading_replaces_are_doubted():
    m = merge_lazy(COMMENTED, COMMENTED_SNIPPET)
    assert m.lines is None
    assert "could be a new line or a change to the similar original line 6 (`def test_two(self):`)" in m.refused_reason


def test_doubt_note_names_the_line_and_the_unchanged_line_that_settles_it():
    orig = ["a = 1", "value = old(1)", "", "b = 2"]
    note = doubt_note("value = new(1)", orig, 1, 1)
    assert "similar original line 2 (`value = old(1)`)" in note
    assert "line 4 (`b = 2`) if it replaces it" in note
    assert "line 1 (`a = 1`)" in doubt_note("value = new(1)", orig, 1, -1)



def test_a_second_reading_agreeing_with_a_doubted_one_confirms_nothing():
    joint = merge_lazy(COMMENTED, COMMENTED_SNIPPET)
    assert joint.doubted and greedy.merge_lazy(COMMENTED, COMMENTED_SNIPPET).lines == joint.candidate
    result = instant_merge("\n".join(COMMENTED), "\n".join(COMMENTED_SNIPPET), language="python", path="t.py")
    assert result.text is None and "could be a new line" in result.refused_reason


def test_no_rival_doubt_for_lines_the_reading_matches():
    # `package cmd` is matched context in the best reading (the template's own header); a reading
    # that closes on the earlier `{{ .Header }}` would change `package main` into it, but it is no
    # new line of the best reading, so only the new `{{- if .Flag }}` is added. (`package cmd` and
    # `import (` occur twice, so the section's only anchor is `"fmt"`.)
    orig = ["{{ .Header }}", "package main", "", "func main() {}", "", "{{ .Header }}", "package cmd", "",
            "import (", '\t"fmt"', ")", "", "{{ .Footer }}", "package cmd", "", "import (", ")"]
    snippet = ["// ... existing code ...", "{{ .Header }}", "package cmd", "", "import (", "{{- if .Flag }}",
               '\t"fmt"', ")", "// ... existing code ..."]
    m = merge_lazy(orig, snippet)
    assert m.refused_reason is None
    assert m.lines == orig[:9] + ["{{- if .Flag }}"] + orig[9:]


BLOCK = ["func a() error {", "\tx := 1", "\trun(x)", "\treturn nil", "}", "", "func b() {", "\ty := 2", "}", ""]
# a()'s last lines change and a new function follows; the snippet ends on a new comment line,
# so no reading closes on a match of its last line.
NEW_FUNC = ["func loadConfiguration(path string) error {", "\treturn done()", "}", "// c is new"]
BLOCK_SNIPPET = (["// ... existing code ...", "\tx := 1", "\treturn run(x)", "}", ""] + NEW_FUNC
                 + ["// ... existing code ..."])


def test_new_lines_that_close_the_anchors_block_end_it_where_the_original_does():
    m = merge_lazy(BLOCK, BLOCK_SNIPPET)
    assert m.refused_reason is None
    assert m.lines == ["func a() error {", "\tx := 1", "\treturn run(x)", "}", ""] + NEW_FUNC + BLOCK[5:]


def test_greedy_doubts_name_the_similar_line_and_the_line_that_settles_it():
    before = greedy.merge_lazy(["a = 1", "value = old(1)", "b = 2", "c = 3"],
                               ["# ... existing code ...", "value = new(1)", "b = 2", "# ... existing code ..."])
    assert "similar original line 2 (`value = old(1)`)" in before.refused_reason
    assert "or line 1 (`a = 1`) if it replaces it" in before.refused_reason
    after = greedy.merge_lazy(["a = 1", "b = 2", "value = old(1)", "c = 3"],
                              ["# ... existing code ...", "b = 2", "value = new(1)", "# ... existing code ..."])
    assert "or line 4 (`c = 3`) if it replaces it" in after.refused_reason


def test_gap_proof_needs_a_distinctive_line_next_to_the_gap():
    # A new documented function before an old one of the same shape, between `/**` lines.
    region = [" * Render the foo view.", " */", "function foo() {", "  return render('foo');", "}", ""]
    repl = [" * Render the bar view.", " */", "function bar() {", "  return render('bar');", "}", ""]
    assert not replaces_gap(region, repl, ["/**"], ["/**"])
    assert replaces_gap(region, repl, ["/** Views. */"], ["/**"])


def test_a_last_section_without_a_marker_replaces_the_files_last_lines_line_for_line():
    orig = ["def pair(t):", "    assert len(t) >= 2", "", "    # Return the pair.", "    return (t[0], t[1:])", "", ""]
    snippet = ["# ... existing code ...", "    # Return the pair.", "    return (t[0], tuple(t[1:]))", "", "", ""]
    m = merge_lazy(orig, snippet)
    assert m.refused_reason is None
    assert m.lines[:5] == orig[:4] + ["    return (t[0], tuple(t[1:]))"]
    assert replaces_gap(["x = old(1)", ""], ["x = new(1)", "", ""], ["# set x"], None)
    assert not replaces_gap(["x = old(1)", "y = 2"], ["x = new(1)"], ["# set x"], None)


# A field renamed in two structs: in `GlobalCmd` the snippet shows `global: bool,` -> `other: bool,`
# between unchanged lines; in `Opt` the same change sits at the section's edge before a marker,
# where `other: bool,` alone could be a new field beside `global: bool,`.
RENAMED = '''\
fn first() {}

#[test]
fn passed_down() {
    struct Opt {
        #[clap(global = true, long)]
        global: bool,
        #[clap(subcommand)]
        sub: Subcommands,
    }

    struct GlobalCmd {
        #[clap(from_global)]
        global: bool,
    }

    assert_eq!(run(&["test", "--global"]), Opt { global: true });
}

fn last() {}
'''.split("\n")

RENAMED_SNIPPET = '''\
// ... existing code ...
#[test]
fn passed_down() {
    struct Opt {
        #[clap(global = true, long)]
        other: bool,
        // ... existing code ...
        #[clap(from_global)]
        other: bool,
    }

    assert_eq!(run(&["test", "--other"]), Opt { other: true });
}
// ... existing code ...'''.split("\n")


def test_a_doubt_the_snippet_settles_elsewhere_reads_as_the_same_change():
    m = merge_lazy(RENAMED, RENAMED_SNIPPET)
    assert m.refused_reason is None
    assert [l.strip() for l in m.lines].count("other: bool,") == 2
    assert "global: bool," not in [l.strip() for l in m.lines]


def test_settled_reading_needs_the_identical_line_pair_changed_elsewhere():
    original = ["a:", "    x = 1", "b:", "    x = 1", "c:"]
    guess = ["a:", "    x = 1", "    x = 2", "b:", "    x = 2", "c:"]  # x = 2 new after a's line, b's changed
    alternative = ["a:", "    x = 2", "b:", "    x = 2", "c:"]
    assert settled_reading(original, guess, alternative, (1, "    x = 2")) == alternative
    other = ["a:", "    x = 1", "    x = 2", "b:", "    x = 3", "c:"]  # b's line changed another way
    assert settled_reading(original, other, alternative, (1, "    x = 2")) is None
    inserted = ["a:", "    x = 1", "    x = 2", "b:", "    x = 1", "    x = 2", "c:"]  # the mirror: no evidence
    assert settled_reading(original, inserted, alternative, (1, "    x = 2")) is None
