"""Progress bars appear on a terminal only."""

import io

from fastapply import progress


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_silent_off_a_terminal():
    stream = io.StringIO()
    b = progress.bar(3, "eval", stream)
    b.update()
    b.set_postfix_str("right 1")
    b.close()
    assert stream.getvalue() == "" and not progress.enabled(stream)


def test_a_bar_on_a_terminal():
    stream = Terminal()
    b = progress.bar(3, "eval", stream)
    b.update()
    b.set_postfix_str("right 1 wrong 0 refused 0")
    b.close()
    assert "eval" in stream.getvalue() and "right 1" in stream.getvalue()
