"""The greedy (second) reading of lazy snippets: one construct per test (lines without newlines)."""

from fastapply.merge.align.greedy import merge_lazy
from fastapply.merge.instant import instant_merge

ORIGINAL = ["function a() {", "  return 1;", "}", "", "function b() {", "  return 2;", "}"]


def test_blank_line_after_a_marker_adds_no_empty_line():
    # The snippet's blank line sits between the marker and code that directly follows a line
    # the marker keeps: it carries no position and must not open a gap in the original.
    m = merge_lazy(ORIGINAL, ["// ... existing code ...", "", "  return 1;", "}", "", "function b() {",
                              "  return 20;", "}"])
    assert m.lines == ["function a() {", "  return 1;", "}", "", "function b() {", "  return 20;", "}"]


def test_blank_line_before_new_code_after_a_marker_is_kept():
    m = merge_lazy(ORIGINAL, ["// ... existing code ...", "", "const x = 1;", "", "function b() {",
                              "// ... existing code ..."])
    assert m.lines == ["function a() {", "  return 1;", "}", "", "const x = 1;", "", "function b() {",
                       "  return 2;", "}"]


def test_doubtful_blank_tail_refuses_with_a_candidate_without_the_leads_blank_line():
    m = merge_lazy(["a();", "b();", "c();", "d();"], ["// ... existing code ...", "", "b();", "c();", "",
                                                      "// ... existing code ..."])
    assert m.lines is None
    assert m.candidate == ["a();", "b();", "c();", "", "d();"]


# a block of its own after the head's run: its `}` closes itself, not an original block far below

MOVED_ORIGINAL = '''function setup(opts) {
  let space = " ";
  if (opts.noSpace) {
    space = "";
  }

  if (opts.noFile) {
    log("no file completion");
    return;
  }

  if (opts.filter) {
    log("filter not supported");
    return;
  }

  values = values.filter(v => {
    if (opts.equal) {
      v.name = flag + "=" + v.name;
    }
  });

  const mode = getMode();
  log("mode: " + mode);
  for (const v of values) {
    switch (mode) {
      case "complete": {
        emit(v.name + space);
        break;
      }
      default: {
        emit(v.name);
      }
    }
  }
}
'''
MOVED_SNIPPET = '''// ... existing code ...
    space = "";
  }

  if (opts.filter) {
// ... existing code ...
    if (opts.equal) {
      v.name = flag + "=" + v.name;
    }
  });

  if (opts.noFile) {
    log("no file completion");
    return;
  }

// ... existing code ...
'''
MOVED_EXPECTED = MOVED_ORIGINAL.replace('''  if (opts.noFile) {
    log("no file completion");
    return;
  }

''', '', 1).replace('''  });

  const mode''', '''  });

  if (opts.noFile) {
    log("no file completion");
    return;
  }

  const mode''')


def test_a_moved_block_whose_closing_brace_matches_far_below_is_inserted_after_the_head():
    result = instant_merge(MOVED_ORIGINAL, MOVED_SNIPPET, language="javascript")
    assert result.text == MOVED_EXPECTED


def test_closes_own_block_wants_a_balanced_block_ending_on_a_closer():
    from fastapply.merge.align.greedy_locate import closes_own_block

    assert closes_own_block(["  if (x) {", "    y();", "  }", ""])
    assert not closes_own_block(["    y();", "  }"])  # closes a block opened before it
    assert not closes_own_block(["  if (x) {", "    y();"])  # still open
    assert not closes_own_block(['    """', "    text", '    """'])  # no bracket closes it


def test_the_fuzzy_rung_keeps_two_sibling_headers_apart_but_not_a_renamed_one():
    from fastapply.merge.align.greedy_locate import _eq_fuzzy

    assert not _eq_fuzzy("    public function delta($x)", "    public function beta($x)")  # another method
    assert _eq_fuzzy("    public function acceptsLanguages($x)", "    public function acceptsLanguage($x)")  # renamed
    assert _eq_fuzzy("    total = compute_total(items, tax)", "    total = compute_total(items, tax2)")  # no header


def test_fuzzy_equality_is_difflibs_ratio_with_its_bounds_taken_first():
    # greedy_locate._eq_fuzzy checks difflib's two upper bounds itself before it builds a matcher: the same
    # answer as the ratio alone, on pairs near and far from the threshold
    import difflib

    from fastapply.merge.align import greedy_locate as gl
    from fastapply.merge.text.lines import collapse

    def reference(a: str, b: str) -> bool:
        ca, cb = collapse(a), collapse(b)
        if ca == cb:
            return True
        if not ca or not cb or min(len(ca), len(cb)) < 12:
            return False
        ratio = difflib.SequenceMatcher(None, ca, cb, autojunk=False).ratio()
        return ratio >= gl.FUZZY_THRESHOLD and not gl._two_headers(ca, cb)

    base = ["    return self.session.request(method, url, **kwargs)", "def parse_header_links(value):",
            "if (err) return done(err);", "}", "public function delta($x)", "const statusCode = res.statusCode;"]
    pairs = [(a, b) for a in base for b in base]
    for a in base:
        pairs += [(a, a + " "), (a, a[:-1]), (a, a.replace("e", "a", 1)), (a, a.upper()), (a, a[::-1]),
                  (a, a + "x" * 5), (a, "  " + a.replace(" ", "  "))]
    pairs.append(("public function delta($x)", "public function gamma($x)"))
    assert any(gl._eq_fuzzy(a, b) and collapse(a) != collapse(b) for a, b in pairs)  # some pass fuzzily
    for a, b in pairs:
        assert gl._eq_fuzzy(a, b) == reference(a, b), (a, b)
