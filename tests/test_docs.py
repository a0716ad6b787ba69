"""The README and docs/: relative links resolve, the first screen says what it must, limits are listed.

Reads only Markdown files of this checkout; imports nothing of fastapply. A link is `[text](target)`
outside fenced code; a target with a scheme (`https:`, `mailto:`) is not checked, a relative path
must exist beside the file that links it, and an `#anchor` into a Markdown file must name one of
its headings (GitHub's slugs: lower case, punctuation dropped, spaces as hyphens).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
FIRST_SCREEN = 60  # lines

LINK = re.compile(r"\]\(([^)\s]+)\)")
SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)


def _prose_lines(text: str) -> list[str]:
    """The lines outside ``` fences (a link-like `](` in code is code, not a link)."""
    lines, fenced = [], False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(line)
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading's text."""
    text = heading.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    for line in _prose_lines(path.read_text(encoding="utf-8")):
        m = re.match(r"#{1,6}\s+(.*)", line)
        if not m:
            continue
        base = slug(m.group(1))
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def broken_links(path: Path, root: Path = ROOT) -> list[str]:
    broken = []
    for line in _prose_lines(path.read_text(encoding="utf-8")):
        for target in LINK.findall(line):
            if SCHEME.match(target):
                continue
            file_part, _, anchor = target.partition("#")
            dest = (path.parent / file_part).resolve() if file_part else path
            if not dest.exists():
                broken.append(f"{path.relative_to(root)}: {target} (no such file)")
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                broken.append(f"{path.relative_to(root)}: {target} (no such heading)")
    return broken


def test_slug_follows_github():
    assert slug("The instant path's readings (`merge/instant.py`)") == "the-instant-paths-readings-mergeinstantpy"
    assert slug("Latest (2026-11-26)") == "latest-2026-11-26"


@pytest.mark.parametrize("path", [README, *DOCS], ids=lambda p: p.name)
def test_relative_links_resolve(path):
    assert broken_links(path) == []


def test_broken_link_is_found(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# Top\n[ok](#top) [gone](missing.md) [bad](page.md#nowhere)\n```\n[code](x.md)\n```\n")
    assert broken_links(page, tmp_path) == ["page.md: missing.md (no such file)", "page.md: page.md#nowhere (no such heading)"]


def test_first_screen():
    """The first screen (60 lines) starts with the two commands CI and tooling read, and says where to go."""
    lines = README.read_text(encoding="utf-8").splitlines()
    assert lines[2].split()[:2] == ["make", "demo"] and lines[3].split()[:2] == ["make", "test"]
    screen = "\n".join(lines[:FIRST_SCREEN])
    for needed in ("pip install .", "[model]", "[serve]", "[mcp]", "[train]", "[all]", "fastapply apply",
                   "apply_edit", "fastapply serve", "fastapply mcp",
                   "(docs/results.md)", "(docs/ARCHITECTURE.md)", "(docs/serving.md)",
                   "(docs/openai-backend.md)", "(docs/gpu.md)", "(docs/models.md)", "MODEL_CARD.md"):
        assert needed in screen, needed


def test_bad_input_lists_the_limits():
    """Issue 18: the README's Bad input section lists every size and time limit, with its default."""
    text = README.read_text(encoding="utf-8")
    section = " ".join(text.split("### Bad input", 1)[1].split("\n## ", 1)[0].split())  # wrapping aside
    for limit in ("--max-file-bytes", "8 MiB", "--max-snippet-bytes", "1 MiB", "--max-body-bytes",
                  "--body-timeout", "--header-timeout", "--max-connections", "--max-scored-tokens",
                  "--merge-workers", "--merge-timeout", "1,000,000 characters", "--max-tokens"):
        assert limit in section, limit


def package_map(text: str) -> set[str]:
    """The module paths the README's package map names (nesting by two-space indentation)."""
    lines = text.split("## Package map", 1)[1].splitlines()
    start = lines.index("```") + 1
    block = lines[start:lines.index("```", start)]  # a line may mention ``` fences; only a bare one closes
    stack: list[str] = []
    paths = set()
    for line in block:
        if not line.strip():
            continue
        depth = (len(line) - len(line.lstrip(" "))) // 2
        name = line.split()[0]
        del stack[depth:]
        if name.endswith("/"):
            stack.append(name.rstrip("/"))
        else:
            paths.add("/".join([*stack, name]))
    return paths


def test_package_map_reads_nesting():
    text = "## Package map\n```\npkg/\n  a.py   x ``` y\n  sub/   y\n    b.py  z\n  c.py   w\nd/  e\n```\ne.py\n"
    assert package_map(text) == {"pkg/a.py", "pkg/sub/b.py", "pkg/c.py"}


def test_package_map_has_a_line_per_module():
    """The team's rule: one line per module in the README's package map, and no line for a module that is gone."""
    named = package_map(README.read_text(encoding="utf-8"))
    on_disk = {
        str(p.relative_to(ROOT))
        for p in (ROOT / "fastapply").rglob("*.py")
        if (p.name != "__init__.py" or p.parent.name == "fastapply") and p.name != "__main__.py"
    }
    assert sorted(on_disk - named) == [], "modules without a package-map line"
    assert sorted(named - on_disk) == [], "package-map lines for modules that do not exist"
