"""Size limits on an edit's inputs, checked before anything is tokenised.

Two checks, both cheap (no tokenisation):
- `check_size(text, max_bytes, label)`: a hard limit in UTF-8 bytes (the CLI applies the same
  limits while reading, `textio.read_text(max_bytes=...)`: a regular file from its size on disk,
  anything else, a pipe or `/dev/zero`, after at most `max_bytes + 1` bytes).
  Defaults are generous: an original up to 8 MiB (about 200,000 lines; the instant merge handles
  it, no model context comes close) and a snippet up to 1 MiB.
- `check_fits_context(loaded, original, snippet, max_tokens)`: a LOWER bound on the prompt and
  answer tokens from byte counts alone. No token of the vocabulary decodes to more than
  `longest_token_bytes(tokenizer)` bytes, so a text of B bytes needs at least B / L tokens. When
  even that bound exceeds the model's context, the edit cannot fit and `ContextLengthError` is
  raised at once, instead of after tokenising megabytes (2.27M tokens took 67 s). When the bound
  fits, the exact check after tokenising (pipeline.prepare) still decides. The bound is loose (the
  SmolLM2 vocabulary's longest string is 162 UTF-8 bytes, a newline and 80 spaces in byte-level
  form), so it refuses originals from about 650 KB on an 8,192-token context; smaller ones cost
  at most a second or so of tokenising before the exact check.
- `tokens_over(loaded, texts, limit)`: the same lower bound for any texts (a server's chat
  messages, a completions prompt, a prediction, a /tokenize prompt), so a request that cannot fit
  is refused before the model worker spends seconds tokenising megabytes.

This module knows byte counts and a tokenizer's vocabulary; it does not tokenise, decode or load.
"""

from __future__ import annotations

from fastapply.errors import ContextLengthError, InputError

DEFAULT_MAX_FILE_BYTES = 8 * 1024 * 1024
DEFAULT_MAX_SNIPPET_BYTES = 1024 * 1024
_CACHE_KEY = "longest_token_bytes"


def utf8_len(text: str) -> int:
    """UTF-8 size of a text without encoding it when it is plainly ASCII-sized."""
    return len(text) if text.isascii() else len(text.encode("utf-8", errors="surrogatepass"))


def check_size(text: str, max_bytes: int | None, label: str, option: str | None = None) -> None:
    """Raise InputError when `text` is over `max_bytes` UTF-8 bytes (None: no limit)."""
    if max_bytes is None or len(text) * 4 <= max_bytes:  # cannot be over: at most 4 bytes a character
        return
    size = utf8_len(text)
    if size > max_bytes:
        hint = f" (raise the limit with {option})" if option else ""
        raise InputError(f"{label} is {size} bytes, over the limit of {max_bytes} bytes{hint}")


def longest_token_bytes(tokenizer) -> int | None:
    """An upper bound on the bytes any single token decodes to, from the vocabulary's strings
    (their UTF-8 length over-counts byte-level markers such as 'Ġ' or '<0x0A>', which is safe);
    None when the tokenizer has no vocabulary to read."""
    get_vocab = getattr(tokenizer, "get_vocab", None)
    if get_vocab is None:
        return None
    try:
        vocab = get_vocab()
    except Exception:  # noqa: BLE001 - a tokenizer without a readable vocabulary: no bound, no check
        return None
    longest = max((len(str(piece).encode("utf-8")) for piece in vocab), default=0)
    return longest or None


def min_tokens(text: str, longest: int) -> int:
    """The fewest tokens `text` can take in the prompt when no token covers more than `longest`
    bytes (carriage returns are not counted: the prompt has LF line endings)."""
    return -(-(utf8_len(text) - text.count("\r")) // longest)


def longest_token(loaded) -> int | None:
    """`longest_token_bytes` of `loaded`'s tokenizer, cached in `loaded.extra`."""
    extra = getattr(loaded, "extra", None)
    longest = extra.get(_CACHE_KEY) if isinstance(extra, dict) else None
    if longest is None:
        longest = longest_token_bytes(loaded.tokenizer)
        if longest is not None and isinstance(extra, dict):
            extra[_CACHE_KEY] = longest
    return longest


def tokens_over(loaded, texts, limit: int) -> int | None:
    """The fewest tokens `texts` can take together when that is over `limit`, else None (also
    when the tokenizer has no vocabulary to bound them by). Reads no vocabulary for texts of at
    most `limit` bytes: they fit whatever the tokenisation."""
    texts = list(texts)
    if sum(utf8_len(t) for t in texts) <= limit:
        return None
    longest = longest_token(loaded)
    if longest is None:
        return None
    fewest = sum(min_tokens(t, longest) for t in texts)
    return fewest if fewest > limit else None


def check_fits_context(loaded, original: str, snippet: str, max_tokens: int | None = None) -> None:
    """Raise ContextLengthError when the edit cannot fit `loaded`'s context whatever the
    tokenisation: the prompt holds original and snippet, the answer rewrites the original (or
    stops at `max_tokens`). The bound is cached in `loaded.extra`."""
    context = loaded.context_length
    if 2 * utf8_len(original) + utf8_len(snippet) <= context:
        return  # under one byte a token it fits: no bound can refuse, skip reading the vocabulary
    longest = longest_token(loaded)
    if longest is None:
        return
    prompt = min_tokens(original, longest) + min_tokens(snippet, longest)
    answer = min_tokens(original, longest)
    if max_tokens is not None:
        answer = min(answer, max_tokens)
    if prompt + answer > context:
        raise ContextLengthError(
            f"the original and the snippet need at least {prompt + answer} tokens (prompt and answer), "
            f"beyond the model's context of {context} tokens; nothing was tokenised"
        )
