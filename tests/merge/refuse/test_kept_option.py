"""refuse/kept_option.py: the orphan refusal's "keep it" reading as one option for every orphan."""

from fastapply.merge.instant import instant_merge
from fastapply.merge.refuse.kept_option import with_kept_option
from fastapply.merge.refuse.refusal import Refusal
from fastapply.merge.refuse.revise import revise

ORIGINAL = """\
pub fn split(raw: &str) -> Vec<String> {
    let bytes = to_bytes(raw);
    let text = to_text(bytes);
    text.split(',').map(String::from).collect()
}

fn to_bytes(s: &str) -> &[u8] {
    s.as_bytes()
}

fn to_text(b: &[u8]) -> &str {
    std::str::from_utf8(b).unwrap()
}

pub fn is_empty(raw: &str) -> bool {
    raw.is_empty()
}
"""

SNIPPET = """\
pub fn split(raw: &str) -> Vec<String> {
    raw.split(',').map(String::from).collect()
}
// ... existing code ...
"""


def test_one_option_keeps_every_orphan_and_the_merge_then_writes():
    refused = instant_merge(ORIGINAL, SNIPPET, path="split.rs")
    assert not refused.merged and refused.refusal.detail["orphans"] == [6, 10]
    keep = [o for o in refused.refusal.options if "kept" in o.says]
    assert len(keep) == 1
    revised = revise(SNIPPET, keep[0])
    assert "fn to_bytes(s: &str) -> &[u8] {" in revised and "fn to_text(b: &[u8]) -> &str {" in revised
    again = instant_merge(ORIGINAL, revised, path="split.rs")
    assert again.merged and again.text == refused.candidate


def test_a_refusal_that_names_no_orphan_is_unchanged():
    plain = Refusal("unshown-deletion", "cause", "fix", detail={"removes": 6})
    assert with_kept_option(plain, ORIGINAL, SNIPPET, "rust") is plain


RENDER = """\
pub fn render(w: &mut String) {
    w.push_str("title");
    w.push_str("name");
    if has_version() {
        w.push_str("version");
    }
    w.push_str("end");
}

fn has_version() -> bool {
    true
}
"""
ORPHAN = Refusal("unshown-deletion", "cause", "fix", detail={"removes": 9, "orphan": "has_version", "orphans": [9]})


def _kept(snippet: str) -> list:
    return [o for o in with_kept_option(ORPHAN, RENDER, snippet, "rust").options if "kept" in o.says]


def test_no_keep_option_when_the_lost_use_stands_under_a_marker():
    # the use (`if has_version()`) lies under the marker after `w.push_str("name");`: the snippet
    # keeps it, so a merge that lost it misread the marker, and keeping the definition would hide that
    snippet = ('pub fn render(w: &mut String) {\n    w.push_str("TITLE");\n    w.push_str("name");\n'
               '// ... existing code ...\n    w.push_str("end");\n}\n// ... existing code ...\n')
    assert _kept(snippet) == []


def test_keep_option_when_the_section_itself_rewrites_the_use():
    snippet = ('pub fn render(w: &mut String) {\n    w.push_str("title");\n    w.push_str("name");\n'
               '        w.push_str("version");\n    // ... existing code ...\n    w.push_str("end");\n}\n'
               '// ... existing code ...\n')
    assert len(_kept(snippet)) == 1
