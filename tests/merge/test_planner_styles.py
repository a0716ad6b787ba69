"""The instant merge on the snippet categories real planners write (issue 9), one per test."""

import time

from fastapply.merge.instant import instant_merge

GO = """package main

import "fmt"

func helper(a int) int {
\treturn a + 1
}

func main() {
\tx := helper(1)
\tfmt.Println(x)
}

func tail() {
\tfmt.Println("tail")
}
"""


def test_generic_closing_tail_lands_on_the_block_end():
    snippet = "// ... existing code ...\nfunc helper(a int) int {\n\tb := a * 2\n\treturn b + 1\n}\n// ... existing code ...\n"
    r = instant_merge(GO, snippet, path="m.go")
    assert r.merged, r.refused_reason
    assert "\tb := a * 2\n\treturn b + 1\n}\n\nfunc main() {" in r.text
    assert r.text.count("}\n") == GO.count("}\n")


def test_missing_leading_and_trailing_markers_keep_the_file():
    snippet = "func main() {\n\tx := helper(2)\n\tfmt.Println(x)\n}\n"
    r = instant_merge(GO, snippet, path="m.go")
    assert r.merged, r.refused_reason
    assert r.text == GO.replace("helper(1)", "helper(2)")


def test_diff_lines_inside_a_lazy_snippet():
    snippet = "// ... existing code ...\nfunc main() {\n-\tx := helper(1)\n+\tx := helper(3)\n\tfmt.Println(x)\n// ... existing code ...\n"
    r = instant_merge(GO, snippet, path="m.go")
    assert r.merged, r.refused_reason
    assert r.text == GO.replace("helper(1)", "helper(3)")


def test_diff_lines_between_verbatim_context_keep_their_columns():
    js = "function f(a) {\n  if (a) {\n    log(a);\n    return 1;\n  }\n  return 2;\n}\n"
    snippet = "@@ -0,0 +0,0 @@\n  if (a) {\n    log(a);\n-    return 1;\n+    if (a > 1) {\n+      return a;\n+    }\n  }\n@@ -0,0 +0,0 @@\n"
    r = instant_merge(js, snippet, path="f.js")
    assert r.merged, r.refused_reason
    assert r.text == js.replace("    return 1;\n", "    if (a > 1) {\n      return a;\n    }\n")


def test_a_reading_that_keeps_the_minus_lines_is_not_written():
    # `options = options or {}` occurs twice, so one reading anchors the section on `# Defaults`
    # alone and keeps the `if` block the snippet removes (and the other reading deletes).
    py = ("def a(options):\n    options = options or {}\n    return options\n\n\n"
          "def b(options):\n    options = options or {}\n\n    if options.get(\"layout\") is None:\n"
          "        options[\"layout\"] = True\n\n    # Defaults\n    root = options.get(\"root\")\n    return root\n")
    snippet = ("@@ -0,0 +0,0 @@\n    options = options or {}\n\n-    if options.get(\"layout\") is None:\n"
               "-        options[\"layout\"] = True\n-\n    # Defaults\n    root = options.get(\"root\")\n@@ -0,0 +0,0 @@\n")
    r = instant_merge(py, snippet, path="x.py")
    assert r.merged, r.refused_reason
    assert r.text == py.replace("    if options.get(\"layout\") is None:\n        options[\"layout\"] = True\n\n", "")


def test_a_reading_that_takes_original_lines_for_plus_lines_is_not_written():
    # The new `describe` repeats `request(app).get('/').end(done);`: one reading takes the
    # original line as its anchor and so moves the first test's body into the new one.
    js = ("describe('res', function(){\n  describe('.a()', function(){\n    it('works', function(done){\n"
          "      var app = express();\n\n      app.use(function(req, res){\n        res.redirect('/x');\n"
          "      });\n\n      request(app).get('/').end(done);\n    })\n  })\n})\n")
    added = ("  describe('.c()', function(){\n    it('works too', function(done){\n      var app = express();\n\n"
             "      app.use(function(req, res){\n        res.redirect('/y');\n      });\n\n"
             "      request(app).get('/').end(done);\n    })\n  })\n")
    snippet = ("@@ -0,0 +0,0 @@\ndescribe('res', function(){\n-  describe('.a()', function(){\n"
               "+  describe('.b()', function(){\n    it('works', function(done){\n      var app = express();\n"
               "@@ -0,0 +0,0 @@\n    })\n  })\n" + "".join("+" + l + "\n" for l in added.splitlines()) + "})\n")
    r = instant_merge(js, snippet, path="x.js")
    assert r.merged, r.refused_reason
    assert r.text == js.replace(".a()", ".b()").replace("  })\n})\n", "  })\n" + added + "})\n")


def test_a_blank_context_line_next_to_an_at_at_line_is_not_added():
    # The blank line after `+import pytest` is context (it is in the file); one reading pastes it
    # as a new blank line because it sits next to a marker. The diff lines fix the blank count.
    py = "import click\n\n\ndef test_a(runner):\n    assert runner\n\n\ndef test_b(runner):\n    assert runner.invoke\n"
    snippet = ("@@ -0,0 +0,0 @@\nimport click\n+import pytest\n\n@@ -0,0 +0,0 @@\n    assert runner.invoke\n+\n+\n"
               "+def test_c(runner):\n+    assert not runner.invoke\n@@ -0,0 +0,0 @@\n")
    r = instant_merge(py, snippet, path="t.py")
    assert r.merged, r.refused_reason
    assert r.text == py.replace("click\n", "click\nimport pytest\n", 1) + "\n\ndef test_c(runner):\n    assert not runner.invoke\n"


def test_diff_lines_in_a_lazy_snippet_are_first_read_literally_as_hunks():
    # The shown lines `render`, `if (err)`, `done();` are consecutive only in test `a`; the lazy
    # readings anchor on them one by one and find two places.
    js = ("it('a', function(done){\n  render('user.jade', function(err, str){\n    if (err) return done(err);\n"
          "    done();\n  })\n})\n\nit('b', function(done){\n  render('user.jade', function(err, str){\n"
          "    if (err) return done(err);\n    str.should.equal('x');\n    done();\n  })\n})\n")
    snippet = ("@@ -0,0 +0,0 @@\n  render('user.jade', function(err, str){\n    if (err) return done(err);\n"
               "+    str.should.equal('y');\n    done();\n@@ -0,0 +0,0 @@\n")
    r = instant_merge(js, snippet, path="t.js")
    assert r.merged and (r.method, r.rung) == ("diff", "exact"), r.refused_reason
    assert r.text == js.replace("done(err);\n    done();", "done(err);\n    str.should.equal('y');\n    done();", 1)


def test_blank_line_next_to_a_marker_is_not_inserted():
    snippet = "// ... existing code ...\n\nfunc tail() {\n\tfmt.Println(\"TAIL\")\n}\n"
    r = instant_merge(GO, snippet, path="m.go")
    assert r.merged, r.refused_reason
    assert r.text == GO.replace('"tail"', '"TAIL"')


def test_framed_marker_notes_are_markers():
    snippet = "// ... imports and helper unchanged ...\nfunc main() {\n\tx := helper(5)\n// ... Println and tail unchanged ...\n"
    r = instant_merge(GO, snippet, path="m.go")
    assert r.merged, r.refused_reason
    assert r.text == GO.replace("helper(1)", "helper(5)")


def test_edge_edit_replaces_the_line_it_edits():
    original = 'html_logo = "logo.png"\nhtml_title = "Old"\nhtml_show = False\nlatex = 1\n'
    snippet = '# ... existing code ...\nhtml_logo = "logo.png"\nhtml_title = "New"\n# ... existing code ...\n'
    r = instant_merge(original, snippet, path="conf.py")
    assert r.text == original.replace('"Old"', '"New"')


def test_prose_and_other_languages_are_refused_with_a_reason():
    r = instant_merge(GO, "// ... existing code ...\nThis changes the helper to double its input.\n// ... existing code ...\n", path="m.go")
    assert not r.merged and r.refused_reason
    r = instant_merge(GO, "# ... existing code ...\ndef helper(a):\n    return a * 2\n# ... existing code ...\n", path="m.go")
    assert not r.merged and r.refused_reason


def test_binary_and_huge_snippets_are_refused_fast():
    assert "binary" in instant_merge(GO, "// ...\n\x00\x01\n", path="m.go").refused_reason
    started = time.perf_counter()
    r = instant_merge(GO, "x\n" * 3_000_000, path="m.go")
    assert not r.merged and "limit" in r.refused_reason
    assert time.perf_counter() - started < 1.0


def test_refusal_carries_candidate_and_regions():
    original = "def a():\n    return 1\n\ndef b():\n    return 1\n\nend\n"
    r = instant_merge(original, "# ... existing code ...\n    return 1\n    # cached\n# ... existing code ...\n", path="x.py")
    assert not r.merged
    assert "matches 2 places" in r.refused_reason
    assert r.regions == ((1, 2), (4, 5))
    assert r.candidate is not None


def test_a_guard_refusal_carries_the_region_its_candidate_changes():
    # The candidate parses nowhere near line 5 (an unclosed bracket): refused by the parse guard,
    # and the region is where the candidate differs, so the model path rewrites only there.
    original = "".join(f"def f{i}():\n    return {i}\n\n\n" for i in range(6))
    snippet = "# ... existing code ...\ndef f2():\n    return [2\n\n\ndef f3():\n# ... existing code ...\n"
    r = instant_merge(original, snippet, path="x.py")
    assert not r.merged and "parse" in r.refused_reason
    assert r.regions == ((9, 10),) and r.candidate is not None


def test_a_20000_line_file_merges_in_well_under_two_seconds():
    funcs = [f"def function_{i}(x):\n    y = x + {i}\n    if y > 10:\n        return y\n    return x\n" for i in range(4000)]
    original = "import os\n" + "".join(funcs)
    assert original.count("\n") >= 20000
    snippet = ("# ... existing code ...\ndef function_1234(x):\n    y = x + 1234\n    if y > 99:\n"
               "        return y\n# ... existing code ...\n")
    started = time.process_time()  # CPU time: what the algorithm costs, not how loaded the machine is
    r = instant_merge(original, snippet, path="big.py")
    elapsed = time.process_time() - started
    assert r.merged, r.refused_reason
    assert r.text == original.replace("    y = x + 1234\n    if y > 10:", "    y = x + 1234\n    if y > 99:")
    assert elapsed < 2.0  # about 0.5 s of CPU on this 2-core machine; a quadratic step would not fit


JS = "".join(f"function handler{i}(req, res) {{\n  const value = compute{i}(req);\n  res.send(value);\n}}\n\n" for i in range(8))


def test_a_marker_free_excerpt_with_unique_context_merges_as_if_marked():
    snippet = ("function handler3(req, res) {\n  const value = compute3(req);\n  log(value);\n"
               "  res.send(value);\n}\n\nfunction handler4(req, res) {\n")
    r = instant_merge(JS, snippet, path="app.js")
    assert r.merged and r.method == "lazy"
    assert r.text == JS.replace("compute3(req);\n", "compute3(req);\n  log(value);\n")


def test_an_excerpt_that_opens_on_generic_lines_is_refused():
    # `}` and new code at its start pin nothing: it could go after any handler.
    snippet = "}\n\nfunction extra(req, res) {\n  res.end();\n}\n\nfunction handler4(req, res) {\n"
    r = instant_merge(JS, snippet, path="app.js")
    assert not r.merged and "markers" in r.refused_reason and "its first lines" in r.refused_reason


def test_an_excerpt_that_changes_nothing_is_refused_not_written():
    snippet = "  const value = compute2(req);\n  res.send(value);\n}\n\nfunction handler3(req, res) {\n"
    r = instant_merge(JS, snippet, path="app.js")
    assert not r.merged and "change nothing" in r.refused_reason.replace("changes", "change")
