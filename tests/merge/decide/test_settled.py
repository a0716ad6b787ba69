"""Readings neither merger wrote that the snippet settles (settled.py)."""

from fastapply.merge.text.conventions import split_text
from fastapply.merge.decide.settled import new_reading_repeats
from fastapply.merge.decide.settled import doubt_by_repeats

ORIGINAL = """\
var server = {
  port: 3000,
  host: 'localhost',
  backlog: 128,
};

function run() {
  listen(server.port, server.host);
}""".split("\n")
SNIPPET = ["// ... existing code ...", "  host: null,", "  backlog: 128,", "// ... existing code ..."]
AS_NEW = ORIGINAL[:3] + ["  host: null,"] + ORIGINAL[3:]  # `host: null,` read as a new property
AS_CHANGE = ORIGINAL[:2] + ["  host: null,"] + ORIGINAL[3:]


def test_a_new_line_that_redefines_its_neighbours_name_repeats_it():
    assert new_reading_repeats(ORIGINAL, AS_NEW, SNIPPET)
    assert not new_reading_repeats(ORIGINAL, AS_CHANGE, SNIPPET)
    other = ORIGINAL[:3] + ["  timeout: 10,"] + ORIGINAL[3:]  # a new name: nothing repeated
    assert not new_reading_repeats(ORIGINAL, other, SNIPPET[:1] + ["  timeout: 10,"] + SNIPPET[2:])


def test_a_doubt_whose_new_line_reading_repeats_is_the_change():
    orig = split_text("\n".join(ORIGINAL))
    pair = ("\n".join(AS_NEW), "\n".join(AS_CHANGE))
    assert doubt_by_repeats(orig, pair, "doubt", SNIPPET, "javascript", 2, None) == "\n".join(AS_CHANGE)
    assert doubt_by_repeats(orig, pair, "readings", SNIPPET, "javascript", 2, None) is None  # not a doubt
    swapped = ("\n".join(AS_CHANGE), "\n".join(AS_NEW))
    assert doubt_by_repeats(orig, swapped, "doubt", SNIPPET, "javascript", 2, None) is None
