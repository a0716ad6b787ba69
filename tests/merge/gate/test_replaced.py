"""gate/orphans.py `check_replaced_kept`: a replaced statement kept beside its replacement is refused."""

from fastapply.merge.gate.orphans import check_replaced_kept

ORIGINAL = ["def send(method, url):", "    r = Request(method=method, url=url,", "                timeout=10)",
            "    r.send()", "    return r"]
NEW = ["    r = Request(", "        method=method,", "        url=url,", "    )"]
SNIPPET = ["def send(method, url):", *NEW, "    # ... existing code ..."]
KEPT = ORIGINAL[:1] + NEW + ORIGINAL[1:]  # the new statement inserted, the old one kept under the marker


def test_the_old_statement_kept_under_a_marker_is_refused_naming_it():
    refusal = check_replaced_kept(ORIGINAL, KEPT, SNIPPET)
    assert refusal is not None and refusal.kind == "new-or-changed"
    assert [(x.number, x.text) for x in refusal.original] == [(2, ORIGINAL[1])]
    assert "assigns `r` again" in refusal.cause and "original line 2" in refusal.fix


def test_the_replacement_written_alone_passes():
    assert check_replaced_kept(ORIGINAL, ORIGINAL[:1] + NEW + ORIGINAL[3:], SNIPPET) is None


def test_a_read_between_or_a_shown_old_line_means_both_stay():
    read = ORIGINAL[:1] + NEW + ["    log(r)"] + ORIGINAL[1:]
    assert check_replaced_kept(ORIGINAL, read, SNIPPET) is None
    shown = SNIPPET[:-1] + ORIGINAL[1:3] + SNIPPET[-1:]  # the snippet shows the old statement: it stays
    assert check_replaced_kept(ORIGINAL, KEPT, shown) is None
    # the second right-hand side reading the target (`r = r.with_retries()`) is a use, not a dead store
    chained = ORIGINAL[:2] + ["    r = r.with_retries()"] + ORIGINAL[2:]
    assert check_replaced_kept(ORIGINAL, chained, ["# ... existing code ...", "    r = r.with_retries()",
                                                   "# ... existing code ..."]) is None


def test_a_second_assignment_reading_the_target_on_a_continuation_line_builds_on_the_first():
    original = ["    $positives = [", "        'a',", "    ];", "    $n = 1;"]
    new = ["    $positives = array_map(", "        static fn (string $s) => trim($s),", "        $positives,", "    );"]
    result = original[:3] + new + original[3:]
    snippet = ["// ... existing code ...", *new, "    $n = 1;"]
    assert check_replaced_kept(original, result, snippet) is None
    unread = original[:3] + ["    $positives = array_map(", "        static fn (string $s) => trim($s),", "        $other,",
                             "    );"] + original[3:]
    assert check_replaced_kept(original, unread, ["// ... existing code ...", *unread[3:7], "    $n = 1;"]) is not None


def test_comparisons_and_augmented_assignments_are_not_assignments():
    original = ["x = 1", "total = 0"]
    result = ["x = 1", "total += x", "total == 0", "total = 0"]
    assert check_replaced_kept(original, result, ["# ... existing code ...", "total += x", "total == 0"]) is None


def test_an_import_that_takes_over_every_name_of_an_unshown_import_is_refused():
    from fastapply.merge.instant import instant_merge

    original = "import os\nfrom api import *\nfrom exceptions import *\nfrom settings import Settings as settings\n"
    snippet = "from api import *\nfrom exceptions import *\nfrom config import settings\n"
    r = instant_merge(original, snippet, language="python", path="pkg/__init__.py")
    # the new import was added beside the old one, which then binds `settings` a second time
    assert not r.merged and r.refusal.kind == "new-or-changed" and "already binds" in r.refusal.cause
    # one name of several, or `import os` beside `import os.path`: a file may do that
    shadow = "from .exceptions import ConnectionError, Timeout\nimport os\n\nx = 1\n"
    added = "from .util import Timeout\nfrom .exceptions import ConnectionError, Timeout\n# ... existing code ...\n"
    assert instant_merge(shadow, added, language="python").merged
    plain = instant_merge("import os\n\nx = 1\n", "import os.path\nimport os\n# ... existing code ...\n", language="python")
    assert plain.merged


def test_an_import_that_replaces_another_binding_the_same_name_is_no_rebinding():
    # the original binds `Parser` twice (a doc example's import at the top, the re-export below); the
    # change rewrites the re-export: it takes over that line's names, not the top one's
    original = ["use regex_syntax::Parser;", "", "fn f() {}", "", "pub use parser::{Parser, ParserBuilder};",
                "mod parser;"]
    result = ["use regex_syntax::Parser;", "", "fn f() {}", "", "pub use crate::parser::{Parser, ParserBuilder};",
              "mod parser;"]
    snippet = ["// ... existing code ...", "pub use crate::parser::{Parser, ParserBuilder};", "mod parser;"]
    assert check_replaced_kept(original, result, snippet) is None
    added = original[:5] + ["pub use crate::parser::{Parser, ParserBuilder};"] + original[5:]  # kept beside: doubted
    assert check_replaced_kept(original[:4] + original[5:], added[:4] + added[5:], snippet) is not None
