"""TextAssembler: deltas never contain half characters or half stop strings."""

from fastapply.rewrite.streaming import TextAssembler


def utf8_decode(ids):
    return bytes(ids).decode("utf-8", errors="replace")


def feed_all(assembler, chunks):
    return [assembler.feed(c) for c in chunks]


def test_holds_back_a_possible_stop_string_and_cuts_before_it():
    a = TextAssembler(utf8_decode, ["</end>"])
    deltas = feed_all(a, [list(b"hello <"), list(b"/e"), list(b"nd> more")])
    assert deltas == ["hello ", "", ""]
    assert a.stopped and a.text == "hello " and a.stop_string == "</end>"
    assert a.feed(list(b"ignored")) == ""


def test_a_false_alarm_is_released_when_it_stops_matching():
    a = TextAssembler(utf8_decode, ["</end>"])
    assert feed_all(a, [list(b"a </"), list(b"div>")]) == ["a ", "</div>"]
    assert not a.stopped


def test_multibyte_characters_split_over_tokens_are_never_emitted_half():
    a = TextAssembler(utf8_decode)
    e_acute = "é".encode()  # two bytes
    assert a.feed([ord("x"), e_acute[0]]) == "x"
    assert a.feed([e_acute[1]]) == "é"


def test_finish_flushes_what_was_held_back_without_a_stop():
    a = TextAssembler(utf8_decode, ["STOP"])
    assert a.feed(list(b"abc ST")) == "abc "
    assert a.finish() == "ST"


def test_the_earliest_of_several_stop_strings_wins():
    a = TextAssembler(utf8_decode, ["\n\n", "END"])
    a.feed(list(b"one END two\n\n"))
    assert a.text == "one " and a.stop_string == "END"


def test_long_plain_decodes_are_detokenised_in_linear_work():
    """One token per feed (plain decoding): the decode calls cover a bounded window each, not the
    whole output again (that made long plain decodes quadratic)."""
    decoded = []

    def counting_decode(ids):
        decoded.append(len(ids))
        return utf8_decode(ids)

    a = TextAssembler(counting_decode)
    text = "ab\u00e9c " * 400  # 2,000 characters, some of them two bytes
    ids = list(text.encode())
    out = "".join(a.feed([t]) for t in ids) + a.finish()
    assert out == text
    assert sum(decoded) < 8 * len(ids)  # re-decoding everything would be ~len(ids)**2 / 2


def test_a_tokenizer_that_treats_the_first_token_specially_stays_exact():
    """SentencePiece drops the leading space of a sequence's first word; decoding from a token
    before the new ones (the prefix window) must still give the text of the whole sequence."""
    vocab = {1: "\u2581def", 2: "\u2581f", 3: "():", 4: "\u2581return", 5: "\u25811"}

    def sp_decode(ids):
        return "".join(vocab[i] for i in ids).replace("\u2581", " ").removeprefix(" ")

    ids = [1, 2, 3, 4, 5]
    a = TextAssembler(sp_decode)
    out = "".join(a.feed([t]) for t in ids) + a.finish()
    assert out == sp_decode(ids) == "def f(): return 1"
