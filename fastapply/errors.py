"""Errors a user can cause, each with a one-line message and a process exit code.

The CLI and the server catch `FastApplyError` and print `error: <message>` (or an OpenAI-shaped error
body); anything else escaping is a bug. This module knows nothing about models or files.
"""

from __future__ import annotations


class FastApplyError(Exception):
    """Base class: a problem with the input or environment that the user can fix."""

    exit_code = 1


class InputError(FastApplyError):
    """Unreadable, binary or non-UTF-8 input, an empty snippet, malformed data."""

    exit_code = 2


class HardLinkError(InputError):
    """The file to replace has several hard links: an atomic rename would detach the other names."""

    def __init__(self, message: str, links: int = 2):
        super().__init__(message)
        self.links = links


class ReadOnlyError(InputError):
    """The file to replace is read-only (no write bit, or not writable by this user); replacing it
    needs an explicit override (`--force-read-only`), which an MCP agent does not have."""

    exit_code = 10

    def __init__(self, message: str, mode: int = 0o444):
        super().__init__(message)
        self.mode = mode


class UnknownModelError(FastApplyError):
    """`--model` names nothing we can load."""

    exit_code = 3


class ContextLengthError(FastApplyError):
    """The prompt plus the output budget does not fit the model's context window."""

    exit_code = 4


class MissingDependencyError(FastApplyError):
    """A model's files are not installed (the bundled model package, an optional tier's parts)."""

    exit_code = 5


class MissingExtraError(MissingDependencyError):
    """A command needs an optional extra (`pip install 'fastapply[model]'`, ...) that is not installed
    (extras.py); the message names the extra and its install command."""

    exit_code = 2


class IncompleteOutputError(FastApplyError):
    """The model stopped before closing its answer (max_tokens or the context ran out)."""

    exit_code = 6


class RefusedError(FastApplyError):
    """The instant merge refused and no model was allowed (`--strategy instant`)."""

    exit_code = 7


class GuardError(FastApplyError):
    """The model answered, but its answer failed a guard (deleted code the snippet does not show,
    left markers or diff prefixes, broke the parse, or dropped a snippet line); nothing was written."""

    exit_code = 8


class OutputError(FastApplyError):
    """Standard output could not take the result (a closed pipe, a full disk, /dev/full)."""

    exit_code = 1


class ModelIntegrityError(UnknownModelError):
    """A model file does not match its pinned hash (it is removed, never loaded)."""


class RemoteError(FastApplyError):
    """A remote model server (`--model remote:...`) failed, disagreed or answered something unusable."""

    exit_code = 9
