"""gate/orphans.py: a private definition the edit left unused, kept only because the snippet never showed it."""

from fastapply.merge.gate.orphans import check_orphans, orphans, private_definitions
from fastapply.merge.instant import instant_merge
from fastapply.merge.refuse.revise import revise

RUST = """\
use std::ffi::OsStr;

pub fn split(raw: &OsStr) -> Vec<&[u8]> {
    let bytes = to_bytes(raw);
    bytes.split(|b| *b == b',').collect()
}

pub fn starts_with(raw: &OsStr, prefix: &str) -> bool {
    to_bytes(raw).starts_with(prefix.as_bytes())
}

fn to_bytes(s: &OsStr) -> &[u8] {
    unsafe { std::mem::transmute(s) }
}

pub fn is_empty(raw: &OsStr) -> bool {
    raw.is_empty()
}
"""

# every call of `to_bytes` rewritten, the helper itself never shown
RUST_SNIPPET = """\
// ... existing code ...
pub fn split(raw: &OsStr) -> Vec<&[u8]> {
    let bytes = raw.as_encoded_bytes();
    bytes.split(|b| *b == b',').collect()
}

pub fn starts_with(raw: &OsStr, prefix: &str) -> bool {
    raw.as_encoded_bytes().starts_with(prefix.as_bytes())
}
// ... existing code ...
"""

PYTHON = """\
import os


def _normalise(path):
    return os.path.normpath(path)


def load(path):
    with open(_normalise(path)) as f:
        return f.read()


def public_helper(path):
    return path.strip()


def save(path, text):
    with open(public_helper(path), "w") as f:
        f.write(text)
"""


def lines(text):
    return text.split("\n")


def test_private_definitions_by_language():
    assert private_definitions(lines(RUST), "rust") == [(11, "to_bytes")]
    py = private_definitions(lines(PYTHON), "python")
    assert [n for _, n in py] == ["_normalise"]  # a public module-level function is API: not read
    java = ["class A {", "  private int size(List<String> xs) {", "  public int count() {", "}"]
    assert [n for _, n in private_definitions(java, "java")] == ["size"]
    lua = ["local function trim(s)", "function M.load(p)", "end"]
    assert [n for _, n in private_definitions(lua, "lua")] == ["trim"]  # a global function is API


def test_a_helper_left_unused_and_unshown_is_refused_with_both_readings():
    result = RUST.replace("to_bytes(raw);", "raw.as_encoded_bytes();").replace(
        "to_bytes(raw).starts_with", "raw.as_encoded_bytes().starts_with")
    refusal = check_orphans(lines(RUST), lines(RUST_SNIPPET), lines(result), "rust")
    assert refusal is not None and refusal.kind == "unshown-deletion"
    assert [(x.number, x.text) for x in refusal.original] == [(12, "fn to_bytes(s: &OsStr) -> &[u8] {")]
    assert "`to_bytes`" in refusal.cause and "no longer used" in refusal.cause
    assert refusal.detail == {"removes": 11, "orphan": "to_bytes", "orphans": [11], "names": ["to_bytes"]}


def test_instant_merge_refuses_and_offers_keep_and_delete():
    told = instant_merge(RUST, RUST_SNIPPET, path="lex.rs")
    assert not told.merged and told.refusal.kind == "unshown-deletion" and "to_bytes" in told.refusal.cause
    assert "fn to_bytes" in told.candidate and "to_bytes(raw)" not in told.candidate
    outcomes = {}
    for option in told.refusal.options:
        again = instant_merge(RUST, revise(RUST_SNIPPET, option), path="lex.rs")
        assert again.merged, option.says
        outcomes["fn to_bytes" in again.text] = again.text
    assert set(outcomes) == {True, False}  # one option keeps the helper, one deletes it
    assert outcomes[True] == told.candidate


def test_a_helper_shown_still_used_or_never_used_passes():
    result = RUST.replace("to_bytes(raw);", "raw.as_encoded_bytes();")
    assert check_orphans(lines(RUST), lines(RUST_SNIPPET), lines(result), "rust") is None  # one use left
    kept = RUST_SNIPPET.replace("// ... existing code ...", "fn to_bytes(s: &OsStr) -> &[u8] {\n// ... existing code ...")
    done = RUST.replace("to_bytes(raw);", "raw.as_encoded_bytes();").replace(
        "to_bytes(raw).starts_with", "raw.as_encoded_bytes().starts_with")
    assert check_orphans(lines(RUST), lines(kept), lines(done), "rust") is None  # the snippet shows it kept
    assert check_orphans(lines(RUST), lines(RUST_SNIPPET), lines(done), "python") is None  # read as Rust only
    unused = RUST.replace("to_bytes(raw);", "raw.as_encoded_bytes();").replace(
        "to_bytes(raw).starts_with", "raw.as_encoded_bytes().starts_with")
    assert check_orphans(lines(unused), lines(RUST_SNIPPET), lines(unused), "rust") is None  # unused before


def test_python_private_helper_orphaned_but_not_a_public_function():
    result = PYTHON.replace("open(_normalise(path))", "open(path)").replace("open(public_helper(path)", "open(path")
    found = orphans(lines(PYTHON), ["def load(path):", "def save(path, text):"], lines(result), "python")
    assert [n for _, n in found] == ["_normalise"]


def test_rust_trait_methods_are_not_private_helpers():
    code = ["impl<'de> Deserialize<'de> for Glob {", "    fn deserialize<D>(d: D) -> Result<Self, D::Error> {",
            "    }", "}", "impl Glob {", "    fn parse(s: &str) -> Glob {", "    }", "}",
            "trait Named {", "    fn name_of(&self) -> String {", "    }", "}"]
    assert [n for _, n in private_definitions(code, "rust")] == ["parse"]


def test_a_method_of_the_same_name_is_no_use_of_a_top_level_helper():
    original = ("fn trim(x: &mut Vec<u8>) {\n    x.clear();\n}\n\n"
                "pub fn parse(line: &mut Vec<u8>) -> usize {\n    trim(line);\n    line.len()\n}\n")
    # the call is rewritten as a method call on another type: `trim` the helper is used nowhere
    result = ("fn trim(x: &mut Vec<u8>) {\n    x.clear();\n}\n\n"
              "pub fn parse(line: &[u8]) -> usize {\n    let line = line.trim();\n    line.len()\n}\n")
    snippet = ["pub fn parse(line: &[u8]) -> usize {", "    let line = line.trim();", "// ... existing code ..."]
    assert orphans(original.splitlines(), snippet, result.splitlines(), "rust") == [(0, "trim")]
    # a method (indented, in an impl) is still used through `x.trim()`
    method = original.replace("fn trim", "impl T {\n    fn trim", 1).replace("    x.clear();\n}\n", "    x.clear();\n    }\n}\n", 1)
    kept = result.replace("fn trim", "impl T {\n    fn trim", 1).replace("    x.clear();\n}\n", "    x.clear();\n    }\n}\n", 1)
    assert orphans(method.splitlines(), snippet, kept.splitlines(), "rust") == []
