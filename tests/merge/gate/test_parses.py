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
    assert "near line 4" in check_parses(original, kept_tail, None)
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
