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
