"""A marker laid over nothing (merge/kept_code.py)."""

from fastapply.merge.gate.kept_code import check_marker_kept_nothing

ORIGINAL = ['    ("markdown", &[', '        "*.markdown",', '        "*.md",', '        "*.mkd",', '    ]),',
            '    ("matlab", &["*.m"]),']
SNIPPET = ['// ... existing code ...', '    ("markdown", &[', '        // ... existing code ...', '        "*.mkd",',
           '        "*.mdx",', '    ]),', '// ... existing code ...']


def test_a_marker_whose_code_the_merge_dropped_is_refused():
    dropped = ['    ("markdown", &[', '        "*.mkd",', '        "*.mdx",', '    ]),', '    ("matlab", &["*.m"]),']
    reason = check_marker_kept_nothing(ORIGINAL, dropped, SNIPPET)
    assert reason and '("markdown", &[' in reason and '"*.mkd",' in reason


def test_a_marker_that_keeps_its_code_or_stands_for_nothing_passes():
    kept = ORIGINAL[:4] + ['        "*.mdx",'] + ORIGINAL[4:]
    assert check_marker_kept_nothing(ORIGINAL, kept, SNIPPET) is None
    # The original has nothing between the two lines: the marker keeps nothing there anyway.
    adjacent = ['    ("markdown", &[', '        // ... existing code ...', '        "*.markdown",', '        "*.mdx",']
    result = ORIGINAL[:2] + ['        "*.mdx",'] + ORIGINAL[2:]
    assert check_marker_kept_nothing(ORIGINAL, result, adjacent) is None
