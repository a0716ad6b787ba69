"""Floating sections settled by twins: the one place whose whole reading pastes no copy (twins.py)."""

from fastapply.merge.align.lazy import merge_lazy
from fastapply.merge.result import Merged
from fastapply.merge.align.twins import twin_free_stretch

ORIGINAL = """describe('subdomains', function(){
  it('returns both', function(done){
    request(app)
    .get('/')
    .set('Host', 'tobi.ferrets.example.com')
    .expect('["ferrets","tobi"]', done);
  })

  it('returns them with an offset', function(done){
    request(app)
    .get('/')
    .set('Host', 'tobi.ferrets.example.com')
    .expect('["tobi"]', done);
  })

  it('returns none', function(done){
    request(app)
    .get('/')
    .set('Host', 'example.com')
    .expect('[]', done);
  })
})""".split("\n")


def test_the_place_whose_reading_pastes_no_twin():
    # Section 1 fits both tests on tobi.ferrets; forced into the second, section 2 finds no
    # `.set('Host', 'tobi.ferrets.example.com')` after it and would paste a third copy.
    snippet = """// ... existing code ...
    .get('/')
    .set('Host', 'tobi.ferrets.example.com')
    .expect(["ferrets","tobi"], done);
// ... existing code ...
    .get('/')
    .set('Host', 'tobi.ferrets.example.com')
    .expect(["tobi"], done);
// ... existing code ...""".split("\n")
    m = merge_lazy(ORIGINAL, snippet)
    assert m.refused_reason is None
    assert m.lines == (ORIGINAL[:5] + ['    .expect(["ferrets","tobi"], done);'] + ORIGINAL[6:12]
                       + ['    .expect(["tobi"], done);'] + ORIGINAL[13:])


def _reading(lines):
    return Merged(lines, None, "exact")


A, X1, X2, B = "if (request.ok) {", "  total = compute(first);", "  total = compute(second);", "}"
NEW = "  total = compute(first, second);"
ORIG = [A, X1, B, A, X2, B]


def test_a_rival_undecided_further_on_with_a_clean_guess_settles_nothing():
    readings = {(0, 3): _reading([A, NEW, B, A, X2, B]),
                (3, 6): Merged(None, "undecided", "ambiguous", [A, X1, B, A, NEW, B])}
    assert twin_free_stretch(readings.get, ORIG, [A, NEW, B], [0, 3], 0, 6) is None
    # Its guess pastes a second copy of `total = compute(first);`: that place is out.
    readings[(3, 6)] = Merged(None, "undecided", "ambiguous", [A, X1, B, A, NEW, B, X1])
    assert twin_free_stretch(readings.get, ORIG, [A, NEW, B], [0, 3], 0, 6) == (0, 3)


def test_two_clean_readings_settle_nothing():
    readings = {(0, 3): _reading([A, NEW, B, A, X2, B]), (3, 6): _reading([A, X1, B, A, NEW, B])}
    assert twin_free_stretch(readings.get, ORIG, [A, NEW, B], [0, 3], 0, 6) is None


def test_a_reading_not_allowed_leaves_the_choice_open():
    readings = {(0, 3): _reading([A, NEW, B, A, X2, B]), (3, 6): None}  # None: the budget ran out
    assert twin_free_stretch(readings.get, ORIG, [A, NEW, B], [0, 3], 0, 6) is None


DOCS = """def get(url, **kwargs):
    \"\"\"Sends a GET request.

    :param url: URL for the new :class:`Request` object.
    :param params: (optional) Dictionary of GET Parameters.
    \"\"\"

def options(url, **kwargs):
    \"\"\"Sends an OPTIONS request.

    :param url: URL for the new :class:`Request` object.
    :param params: (optional) Dictionary of GET Parameters.
    \"\"\"

def delete(url, **kwargs):
    \"\"\"Sends a DELETE request.

    :param url: URL for the new :class:`Request` object.
    :param params: (optional) Dictionary of DELETE Parameters.
    \"\"\"""".split("\n")


def test_nested_rival_places_are_settled_by_the_readings_they_lead_to():
    # Three sections change three alike docstrings; the first two fit all three places. Placed
    # too far down, a later one must paste its unchanged `:param url:` line again: each section
    # lands on its own docstring, though no single section's order settles it.
    new = "    :param params: (optional) Dictionary of query parameters."
    snippet = ["# ... existing code ...", "", "    :param url: URL for the new :class:`Request` object.", new,
               "# ... existing code ...", "", "    :param url: URL for the new :class:`Request` object.", new,
               "# ... existing code ...", "", "    :param url: URL for the new :class:`Request` object.", new,
               "    \"\"\""]
    m = merge_lazy(DOCS, snippet)
    assert m.refused_reason is None
    assert m.lines == [new if "Dictionary of" in line else line for line in DOCS]


ERRORS = ["test('a', t => {", "\tt.true(error.stack.includes('at Object.request'));", "\tif (retry) {",
          "\t\tt.true(error.code === 'ETIMEDOUT');", "\t}", "});", "test('b', t => {",
          "\tt.true(error.stack.includes('at Object.request'));", "});"]


def test_a_place_where_the_section_itself_cannot_be_placed_is_not_excluded():
    # The lone changed line edits either `t.true(...)` at the same depth; in the first test
    # another `t.true(` line makes its own tie-break fail. That says nothing about the place:
    # the second test does not win by default.
    m = merge_lazy(ERRORS, ["// ... existing code ...", "\tt.true(['ENOTFOUND', 'EAI_AGAIN'].includes(error.code));",
                            "// ... existing code ..."])
    assert m.lines is None


def test_long_files_get_fewer_readings(monkeypatch):
    import fastapply.merge.align.lazy as lazy

    monkeypatch.setattr(lazy, "TWIN_LINES", len(ORIGINAL))  # one reading: not enough to compare two places
    snippet = ["// ... existing code ...", "    .get('/')", "    .set('Host', 'tobi.ferrets.example.com')",
               '    .expect(["ferrets","tobi"], done);', "// ... existing code ...", "    .get('/')",
               "    .set('Host', 'tobi.ferrets.example.com')", '    .expect(["tobi"], done);', "// ... existing code ..."]
    assert merge_lazy(ORIGINAL, snippet).lines is None
