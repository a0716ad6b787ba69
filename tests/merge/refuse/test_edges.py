"""explain.py's edge markers: a snippet whose unmarked first or last line is not the file's edge is
offered the markers there (pinned when its edge section has no line the file holds once)."""

from __future__ import annotations

import re

from fastapply.merge.instant import instant_merge
from fastapply.merge.refuse.explain import explain
from fastapply.merge.refuse.revise import revise
from tests.merge.refuse.settings_file import SETTINGS

ORIGINAL = "import os\n\n\n" + SETTINGS
SENTENCE = "the merged python file no longer parses near line 9, although the original did"


def test_a_snippet_without_markers_is_offered_them_and_the_revision_merges_right():
    snippet = "def load_settings(path):\n    data = read_file(path, strict=True)\n    return data\n"
    refusal = explain(ORIGINAL, snippet, SENTENCE, language="python")
    both = [o for o in refusal.options if o.says == "add a marker line at the start and at the end of the snippet"]
    assert len(both) == 1
    revised = revise(snippet, both[0])
    assert revised.splitlines()[0].strip() == revised.splitlines()[-1].strip() == "# ... existing code ..."
    merged = instant_merge(ORIGINAL, revised)
    assert merged.merged and merged.text == ORIGINAL.replace("read_file(path)", "read_file(path, strict=True)")


def test_no_edge_marker_where_the_snippet_starts_and_ends_as_the_file_does():
    snippet = "import os\n# ... existing code ...\n    return True\n"
    refusal = explain(ORIGINAL, snippet, SENTENCE, language="python")
    assert not any("marker line at the" in o.says for o in refusal.options)


def test_an_edge_section_that_starts_on_a_repeated_line_gets_markers_only_with_the_lines_that_pin_it():
    original = "".join(f"def handler_{n}(request):\n    value = compute(request)\n    return value\n\n" for n in range(2))
    snippet = "    value = compute(request)\n    return value + 1\n"
    refusal = explain(original, snippet, "the merged python file no longer parses near line 3, although the original did",
                      language="python")
    edge = [o for o in refusal.options if "marker line at the" in o.says]
    assert edge and all(re.search(", and add the unchanged original lines? ", o.says) for o in edge)
    pinned = set()
    for option in edge:  # each pins one handler, markers around it
        lines = revise(snippet, option).splitlines()
        assert lines[0].strip() == lines[-1].strip() == "# ... existing code ..."
        pinned |= {n for n in range(2) if f"def handler_{n}(request):" in lines}
        merged = instant_merge(original, revise(snippet, option))
        assert merged.merged and merged.text.count("return value + 1") == 1
    # handler_1's pin, one line the file holds once, comes first reaching one line further (pin_options)
    assert len(edge) == 3 and pinned == {0, 1}


def test_a_snippet_ending_on_a_closer_like_the_files_is_still_offered_the_trailing_marker():
    original = ("fn read_settings(path: &Path) {\n    load_file(path);\n}\n\nfn write_settings(path: &Path) {\n"
                "    save_file(path);\n}\n")
    snippet = "fn read_settings(path: &Path) {\n    load_file(path, true);\n    log_loaded(path);\n}\n"
    refusal = explain(original, snippet, "the merged rust file no longer parses near line 3, although the original did",
                      language="rust")
    edge = [o for o in refusal.options if "marker line at the" in o.says]
    # the `}` it ends on stands twice in the file: the marker comes with the line that pins it (first
    # reaching one line further, pin_options: that pin adds a single line)
    assert [o.says for o in edge] == ["add a marker line at the end of the snippet (the file goes on below it), and add "
                                      "the unchanged original lines 4-6 below snippet line 4 (for the place at original "
                                      "line 3)",
                                      "add a marker line at the end of the snippet (the file goes on below it), and add "
                                      "the unchanged original lines 4-5 below snippet line 4 (for the place at original "
                                      "line 3)"]
    for option in edge:
        merged = instant_merge(original, revise(snippet, option), language="rust")
        assert merged.merged and merged.text == original.replace("load_file(path);",
                                                                 "load_file(path, true);\n    log_loaded(path);")


def test_an_unbalanced_result_is_offered_each_place_its_sections_fit_never_the_readings_places():
    original = "".join(f"def handler_{n}(request):\n    value = compute(request)\n    return value\n\n" for n in range(2))
    snippet = "# ... existing code ...\n    value = compute(request)\n    return value + 1\n# ... existing code ...\n"
    reading = original.replace("return value\n\ndef handler_1", "return value + 1\n\ndef handler_1")
    refusal = explain(original, snippet, "the merged python file no longer parses near line 3, although the original did",
                      candidate=reading, language="python")
    assert refusal.kind == "unbalanced"
    pins = [o for o in refusal.options if "for the place" in o.says]  # after them: unpinned.py's places at its depth
    # the pin of a single line the file holds once comes first reaching one line further (pin_options)
    assert [o.says for o in refusal.options[:3]] == [o.says for o in pins] == [
        "add the unchanged original line 1 above snippet line 2 (for the place at original line 2)",
        "add the unchanged original lines 3-5 above snippet line 2 (for the place at original line 6)",
        "add the unchanged original line 5 above snippet line 2 (for the place at original line 6)"]
    for n, option in zip((0, 1, 1), pins):
        merged = instant_merge(original, revise(snippet, option))
        assert merged.merged and merged.text.splitlines()[4 * n + 2] == "    return value + 1"


def test_a_markerless_snippet_that_ends_the_file_is_offered_the_start_marker_alone_with_the_pins():
    # no markers, its first lines (`"Transport",`, `]`) fit two places, its new lines end the file:
    # a marker at both ends would claim the file goes on below, so the start marker alone comes
    # with each pin too, and the retry merges it right
    from fastapply.evaluation.retry import choose
    from fastapply.merge.refuse.revise import revise

    original = 'import os\n\n__all__ = [\n    "Client",\n    "Transport",\n]\n\n_plugins = [\n    "Auth",\n    "Transport",\n]\n'
    snippet = '    "Transport",\n]\n\n\n_locals = locals()\nfor name in __all__:\n    print(_locals[name])\n'
    expected = original + "\n\n_locals = locals()\nfor name in __all__:\n    print(_locals[name])\n"
    refusal = instant_merge(original, snippet, language="python").refusal
    assert refusal.kind == "would-delete-edge"
    says = [o.says for o in refusal.options]
    assert ("add a marker line at the start of the snippet (the file goes on above it), and add the unchanged original "
            "lines 8-9 above snippet line 1 (for the place at original line 10)") in says
    option = choose(refusal, snippet, expected, original)
    merged = instant_merge(original, revise(snippet, option), language="python")
    assert merged.merged and merged.text == expected


def test_where_only_the_trailing_section_floats_the_start_marker_alone_comes_with_its_pins_too():
    # the snippet starts on a line the file holds once (not the file's first) and ends on new code
    # after a `}` that fits two places: the trailing section floats, so the markers come with its pins;
    # a planner whose new function ends the file needs the start's marker alone (one at the end would
    # claim more file below), so that one is offered with each pin as well as both markers
    original = ("import os\nimport sys\n\nSETTINGS = load()\n\n\ndef one():\n    if os.name:\n        return 1\n"
                "    return 0\n\n\ndef two():\n    if sys.argv:\n        return 2\n    return 0\n")
    snippet = ("SETTINGS = load()\nSETTINGS.freeze()\n# ... existing code ...\n        return 2\n    return 0\n\n\n"
               "def three():\n    return 3\n")
    refusal = explain(original, snippet, "the snippet can be placed in two ways that give different files",
                      language="python")
    pins = [o.says for o in refusal.options if o.says.startswith("add a marker line at the start of the snippet (")]
    assert pins and all(", and add the unchanged original line" in says for says in pins)
    assert not any(o.says.startswith("add a marker line at the end of the snippet (") for o in refusal.options)
    expected = original.replace("SETTINGS = load()\n", "SETTINGS = load()\nSETTINGS.freeze()\n") + "\n\ndef three():\n    return 3\n"
    right = [o for o in refusal.options if o.says in pins
             and instant_merge(original, revise(snippet, o), language="python").text == expected]
    assert right and revise(snippet, right[0]).splitlines()[0] == "# ... existing code ..."
