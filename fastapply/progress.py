"""Progress bars for long commands (eval, bench): a tqdm bar on a terminal, nothing otherwise.

`bar(total, desc)` returns an object with `update(n=1)`, `set_postfix_str(text)` and `close()`;
when stderr is not a terminal (CI, pipes, logs) it is a no-op, so the commands' own one-line
progress messages are what a log shows. This module knows nothing about what is being measured.
"""

from __future__ import annotations

import sys


class _Silent:
    def update(self, n: int = 1) -> None:
        pass

    def set_postfix_str(self, text: str) -> None:
        pass

    def close(self) -> None:
        pass


def enabled(stream=None) -> bool:
    stream = stream or sys.stderr
    return bool(getattr(stream, "isatty", lambda: False)())


def bar(total: int, desc: str, stream=None):
    """A progress bar over `total` steps on `stream` (stderr), or a silent stand-in off a terminal."""
    stream = stream or sys.stderr
    if not enabled(stream):
        return _Silent()
    from tqdm import tqdm  # a dependency of transformers; imported only on a terminal

    return tqdm(total=total, desc=desc, file=stream, leave=False, dynamic_ncols=True)
