"""benchmarks/calibrate_aligner.py on three tiny rows: it loads lazy rows only, scores placement, and never edits scored.py."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
import calibrate_aligner  # noqa: E402

ORIGINAL = "def a():\n    value = compute_first()\n    return value\n\n\ndef b():\n    other = compute_second()\n    return other\n"
ROWS = [
    {"original": ORIGINAL, "snippet": "# ... existing code ...\ndef b():\n    other = compute_second()\n    log(other)\n"
     "    return other\n", "expected": ORIGINAL.replace("second()\n", "second()\n    log(other)\n")},
    {"original": ORIGINAL, "snippet": "def a():\n    value = compute_first()\n    check(value)\n    return value\n"
     "# ... existing code ...\n", "expected": ORIGINAL.replace("first()\n", "first()\n    check(value)\n")},
    {"original": ORIGINAL, "snippet": "<<<<<<< SEARCH\n    return value\n=======\n    return 5\n>>>>>>> REPLACE\n",
     "expected": ORIGINAL.replace("return value", "return 5")},
]


def test_load_keeps_lazy_rows_and_scores_their_placement(tmp_path):
    data = tmp_path / "rows.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in ROWS))
    rows = calibrate_aligner.load([str(data)])
    assert len(rows) == 2  # the search/replace row is not aligned
    calibrate_aligner._init(rows)
    assert calibrate_aligner._count(({}, 0, len(rows))) == 2


def test_the_script_reports_train_and_test_without_touching_the_package(tmp_path):
    data = tmp_path / "rows.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in ROWS))
    before = (ROOT / "fastapply/merge/align/scored.py").read_text()
    run = subprocess.run([sys.executable, str(ROOT / "benchmarks/calibrate_aligner.py"), "--train", str(data),
                          "--test", str(data), "--rounds", "0", "--jobs", "1"],
                         capture_output=True, text=True, timeout=120, env={"PYTHONPATH": str(ROOT), "PATH": ""})
    assert run.returncode == 0, run.stderr
    assert "test: 2 -> 2 of 2 rows placed right" in run.stdout
    assert json.loads(run.stdout.strip().splitlines()[-1])["UNIQUE"] > 0
    assert (ROOT / "fastapply/merge/align/scored.py").read_text() == before
