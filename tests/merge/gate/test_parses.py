"""The parse clause: a result must parse where the original did, and without a grammar keep its brackets balanced."""

from fastapply.merge.gate.parses import check_parses

ORIGINAL = "def f():\n    return 1\n\n\ndef g():\n    return 2\n"


def test_parse_regression_refuses():
    broken = "def f():\n    return (1\n"
    assert "no longer parses" in check_parses(ORIGINAL, broken, "python")
    assert check_parses(ORIGINAL, ORIGINAL.replace("1", "10"), "python") is None
    assert check_parses(broken, broken, "python") is None  # it did not parse before either


def test_a_file_no_grammar_reads_keeps_its_brackets_balanced():
    # no grammar for the language (or none named): the original's balanced brackets must stay balanced
    assert "no longer balance their brackets near line 1" in check_parses("x", "y(", "cobol")
    original = "required = [\n    'a',\n    'b',\n]\nsetup(required)\n"
    kept_tail = "required = ['c']\n    'a',\n    'b',\n]\nsetup(required)\n"  # the old statement's tail kept
    assert "near original line 3 (`'b',`)" in check_parses(original, kept_tail, None)  # as the writer can find it
    assert check_parses(original, "required = ['c']\nsetup(required)\n", None) is None
    assert check_parses("a)", "b)", None) is None  # the original did not balance: no opinion


def test_parse_regression_python_uses_pythons_own_parser_where_tree_sitter_is_lenient():
    original = "is_py3 = True\n\ntry:\n    import json\nexcept ImportError:\n    json = None\n"
    # a `try:` inserted before unindented code: tree-sitter reads it without an error node
    merged = "is_py3 = True\n\ntry:\n\nis_py30 = False\n\ntry:\n    import json\nexcept ImportError:\n    json = None\n"
    assert "no longer parses near line 5" in check_parses(original, merged, "python")
    py2 = "print 'hello'\n"  # Python's parser rejects the original: no opinion from it
    assert check_parses(py2, py2 + "try:\n\nx = 1\n", "python") is None


def test_parse_check_reads_the_texts_as_files_ending_in_a_newline():
    original = "package shop\n\nfunc A() int {\n\treturn 1\n}"
    result = original + "\n\ntype Item struct {\n\tID int\n}"  # fine as a file; without "\n" tree-sitter errs
    assert check_parses(original, result, "go") is None


def test_an_error_in_code_the_snippet_wrote_that_parses_nowhere_is_not_the_merges():
    # tree-sitter-typescript reads no `import('./m').T<A>` type: valid TypeScript it cannot parse
    original = "export declare const a: number\nexport declare const b: string\n"
    new = "export declare const f: () => import('./HKT').Kind2<'W', E, B>"
    result = original.replace("export declare const b", new + "\nexport declare const b")
    snippet = "// ... existing code ...\nexport declare const a: number\n" + new + "\n// ... existing code ...\n"
    assert "no longer parses near line 2" in check_parses(original, result, "typescript")  # no snippet: strict
    assert check_parses(original, result, "typescript", snippet) is None
    # Python 2's print statement: Python's own parser rejects it wherever it stands
    py = "def f():\n    return 1\n"
    py2 = "def f():\n    print 'f'\n    return 1\n"
    assert check_parses(py, py2, "python", "def f():\n    print 'f'\n    # ... existing code ...\n") is None
    assert "near line 2" in check_parses(py, py2, "python")


def test_code_the_snippet_wrote_that_parses_somewhere_else_is_the_merges_error():
    # a method laid outside its class: it parses in a class body, so the placement broke the file
    original = "class A {\n  run() {\n    return 1\n  }\n}\n"
    result = original + "stop() {\n  return 2\n}\n"
    snippet = "// ... existing code ...\nstop() {\n  return 2\n}\n"
    assert "no longer parses" in check_parses(original, result, "typescript", snippet)
    # an error that starts on an original line is the merge's, whatever the snippet wrote
    broken = "class A {\n  run() {\n    return 1\n  }\n"
    assert "no longer parses" in check_parses(original, broken, "typescript", "class A {\n// ...\n")


def test_a_clause_or_a_fragment_the_snippet_wrote_is_the_merges_to_place():
    # an `else:` clause laid where no `if` precedes it: it parses after an `if`, so the placement broke it
    original = "def f(x):\n    return x\n"
    result = "def f(x):\n    return x\nelse:\n    y = 2\n"
    snippet = "# ... existing code ...\nelse:\n    y = 2\n"
    assert "no longer parses" in check_parses(original, result, "python", snippet)
    # the tail of one method and the head of the next laid at the top level: read inside the blocks it
    # dedents out of, it parses, so the placement broke the file
    tail = "        return x\n\n    def g(self):\n        return 2\n"
    top = "def f():\n    return 1\n"
    assert "no longer parses" in check_parses(top, top + tail, "python", "# ... existing code ...\n" + tail)
    # the same with a Python 2 print in it parses nowhere: the snippet's own
    py2 = tail.replace("return 2", "print 'g'")
    assert check_parses(top, top.replace("return 1", "return 1\n" + py2), "python", "# ...\n" + py2) is None
