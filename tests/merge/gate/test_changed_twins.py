from fastapply.merge.gate.changed_twins import copies_replace_changed_lines
from fastapply.merge.gate.snippet_checks import check_copied_lines

ORIGINAL = """def load_alpha(path):
    handle = open_resource(path)
    value = parse_payload(handle, strict=True)
    return value


def load_beta(path):
    handle = open_resource(path)
    value = parse_payload(handle, strict=False)
    return value
"""

# beta's call changes into the one alpha already makes: the file has that line twice, rightly
CHANGE_BETA = """# ... existing code ...
def load_beta(path):
    handle = open_resource(path)
    value = parse_payload(handle, strict=True)
    return value
"""
CHANGED = ORIGINAL.replace("handle, strict=False", "handle, strict=True")


def test_changed_line_exempt_from_copied_lines_guard():
    original, result, snippet = ORIGINAL.split("\n"), CHANGED.split("\n"), CHANGE_BETA.split("\n")
    assert copies_replace_changed_lines(original, result, snippet)
    assert check_copied_lines(original, result, snippet) is None


def test_misplaced_section_keeps_its_refusal():
    # A section meant for alpha (it shows alpha's header and adds a check) pasted over beta: the
    # copy replaced beta's similar line, but the snippet's context points to alpha, the twin.
    snippet = """def load_alpha(path):
    handle = open_resource(path)
    value = parse_payload(handle, strict=True)
    check_value(value)
    return value
# ... existing code ...
""".split("\n")
    misplaced = ORIGINAL.replace("handle, strict=False)\n", "handle, strict=True)\n    check_value(value)\n")
    original, result = ORIGINAL.split("\n"), misplaced.split("\n")
    assert not copies_replace_changed_lines(original, result, snippet)
    assert check_copied_lines(original, result, snippet) is not None


def test_context_shared_by_both_places_is_not_enough():
    # The snippet's context fits beta no better than alpha: nothing says which place it changed.
    snippet = """# ... existing code ...
    handle = open_resource(path)
    value = parse_payload(handle, strict=True)
    return value
# ... existing code ...
""".split("\n")
    assert not copies_replace_changed_lines(ORIGINAL.split("\n"), CHANGED.split("\n"), snippet)


def test_copy_that_replaced_no_similar_line_is_not_exempt():
    # beta's call replaced by an unrelated line that happens to be alpha's: not an edit of it
    result = ORIGINAL.replace("value = parse_payload(handle, strict=False)",
                              "handle = open_resource(path)").split("\n")
    snippet = """# ... existing code ...
def load_beta(path):
    handle = open_resource(path)
    handle = open_resource(path)
    return value
""".split("\n")
    assert not copies_replace_changed_lines(ORIGINAL.split("\n"), result, snippet)
