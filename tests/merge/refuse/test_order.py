"""Out-of-order sections (refuse/order.py): named as such, with the move that puts them in file order."""

from fastapply.merge.instant import instant_merge
from fastapply.merge.refuse.order import out_of_order
from fastapply.merge.refuse.reading import read_input
from fastapply.merge.refuse.revise import revise
from tests.merge.refuse.settings_file import SETTINGS

ORIGINAL = SETTINGS


def test_sections_out_of_file_order_are_named_with_the_move_that_fixes_them():
    snippet = ("# ... existing code ...\ndef save_settings(path, data):\n    write_file(path, data, atomic=True)\n"
               "# ... existing code ...\ndef load_settings(path):\n    data = read_file(path, strict=True)\n"
               "# ... existing code ...\n")
    refusal = out_of_order(read_input(ORIGINAL, snippet))
    assert refusal is not None and refusal.kind == "out-of-order"
    assert "out of file order" in refusal.sentence and refusal.options
    fixed = revise(snippet, refusal.options[0])
    assert fixed.index("def load_settings") < fixed.index("def save_settings")
    merged = instant_merge(ORIGINAL, fixed)
    assert merged.merged and "read_file(path, strict=True)" in merged.text and "atomic=True" in merged.text


def test_in_order_sections_are_not_called_out_of_order():
    snippet = ("# ... existing code ...\ndef load_settings(path):\n    data = read_file(path, strict=True)\n"
               "# ... existing code ...\ndef save_settings(path, data):\n    write_file(path, data, atomic=True)\n"
               "# ... existing code ...\n")
    assert out_of_order(read_input(ORIGINAL, snippet)) is None


def test_a_section_pinned_by_a_copied_line_is_offered_its_own_readings_options_after_the_move():
    """A new line that copies a line the file holds once (`data = read(path)`, from `load`) makes its
    section look out of order; the move is wrong there, and the planner who meant `save` needs the
    options the merge's own sentence offers (the lines that pin each section), offered after the move."""
    from fastapply.evaluation.retry import retry_example

    original = ("def load(path):\n    data = read(path)\n    return data\n\n\ndef check(data):\n    assert data\n"
                "    return True\n\n\ndef save(path, data):\n    write(path, data)\n    return True\n")
    snippet = ("# ... existing code ...\ndef check(data):\n    assert data is not None\n    return True\n"
               "# ... existing code ...\n    data = read(path)\n    write(path, data)\n    return True\n")
    expected = original.replace("    assert data\n", "    assert data is not None\n").replace(
        "    write(path, data)\n", "    data = read(path)\n    write(path, data)\n")
    refusal = instant_merge(original, snippet, language="python").refusal
    assert refusal.kind == "out-of-order" and refusal.options[0].edits[0].action == "move"
    assert len(refusal.options) > 1
    row = retry_example({"original": original, "snippet": snippet, "expected": expected, "language": "python"})
    assert row["first"] == "refused" and row["second"] == "right"


def test_two_sections_whose_first_lines_share_their_quoted_start_are_quoted_where_they_differ():
    """Two doc lines alike for 60 characters: quoted cut alike, the sentence named one line twice."""
    head = "    :param data: (optional) Dictionary, list of tuples, bytes, or file-like object to send"
    original = (f"def get(url, params):\n    \"\"\"Send a GET.\n\n{head} in the query.\n    \"\"\"\n    return go(url)\n\n\n"
                f"def post(url, data):\n    \"\"\"Send a POST.\n\n{head} in the body.\n    \"\"\"\n    return go(url, data)\n")
    snippet = (f"# ... existing code ...\n{head} in the body.\n    \"\"\"\n    return go(url, data, post=True)\n"
               f"# ... existing code ...\n{head} in the query.\n    \"\"\"\n    return go(url, get=True)\n")
    refusal = out_of_order(read_input(original, snippet))
    assert refusal is not None and refusal.kind == "out-of-order"
    assert "in the body.`" in refusal.sentence and "in the query.`" in refusal.sentence
    assert "…" in refusal.sentence


def test_two_sections_pinned_by_one_line_the_file_holds_once_are_not_called_out_of_order():
    """Both sections add `:param data:` (which only `request` has) to another docstring: the one line pins
    both at one place, so one of them shows it as new; the sentence said "section 2 is at original line 4,
    but section 1 ... at line 4", which no move settles."""
    original = ('def request(method, url, data=None):\n    """Send a request.\n\n    :param data: the body to send.\n'
                '    """\n    return send(method, url, data)\n\n\ndef put(url):\n    """Send a PUT."""\n'
                '    return request("put", url)\n\n\ndef patch(url):\n    """Send a PATCH."""\n'
                '    return request("patch", url)\n')
    snippet = ('# ... existing code ...\n    :param data: the body to send.\n    """\n    return request("put", url, data)\n'
               '# ... existing code ...\n    :param data: the body to send.\n    """\n    return request("patch", url, data)\n'
               '# ... existing code ...\n')
    assert out_of_order(read_input(original, snippet)) is None
    refusal = instant_merge(original, snippet, language="python").refusal
    assert refusal is None or refusal.kind != "out-of-order"
