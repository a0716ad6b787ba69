"""The judge's reading-level checks (decide/opinion.py): bracket balance, and the chosen path."""

from fastapply.merge import instant
from fastapply.merge.align.scored import align, reading_lines
from fastapply.merge.decide import opinion
from fastapply.merge.text.lines import bracket_balance

M = "// ... existing code ..."


def lines(text: str) -> list[str]:
    return text.split("\n")


def test_judge_ignores_a_reading_that_opens_a_block_it_never_closes():
    # the snippet ends on a new `if (ready) {` whose closer the marker stands for; the aligner,
    # which places lines and not blocks, reads `x = 2` as the changed `x = 1` and leaves the `if`
    # open: a confident reading (margin far above JUDGE_MARGIN), but no rival of a balanced merge
    original = lines('int a() {\n    x = 1;\n    log("start");\n}\n\nint b() {\n    log("stop");\n'
                     '    flush("stop");\n    x = 1;\n    close("stop");\n}')
    snippet = lines(f'{M}\n    log("stop");\n    flush("stop");\n    if (ready) {{\n        x = 2;\n{M}')
    merged = original[:8] + ["    if (ready) {", "        x = 2;", "    }"] + original[9:]
    alignment = align(original, snippet)
    reading = reading_lines(alignment, original, snippet)
    assert alignment.margin >= opinion.JUDGE_MARGIN and reading != merged
    assert bracket_balance(reading) != bracket_balance(original) == bracket_balance(merged)
    assert not opinion.rival(original, reading, merged)
    assert opinion.judge(original, snippet, merged) is None


def test_judge_of_a_chosen_merge_asks_that_the_aligner_deletes_more():
    # a merge a rule chose between two readings is refused only where the aligner's reading deletes
    # more original lines than it (the rules prefer the reading that deletes less)
    original, snippet = lines("a()\nx = 1\nb()\nx = 1\nc()"), lines(f"{M}\nb()\nx = 2\n{M}")
    same_count = lines("a()\nx = 2\nb()\nx = 1\nc()")  # replaces one line, as the aligner's reading does
    assert opinion.judge(original, snippet, same_count) is not None
    assert opinion.judge(original, snippet, same_count, chosen=True) is None
    original = lines("a()\nx = 1\nb()\ny = 3\nx = 1\nc()")
    keeps_y = lines("a()\nx = 2\nb()\ny = 3\nx = 1\nc()")  # the aligner deletes `y = 3` as well
    assert opinion.deletes_more(original, reading_lines(align(original, snippet), original, snippet), keeps_y)
    refused = opinion.judge(original, snippet, keeps_y, chosen=True)
    assert refused is not None and refused.reason.refusal.kind == "ambiguous-place"


def test_instant_merge_judges_a_merge_chosen_between_two_readings(monkeypatch):
    # both readings placed the snippet, apart; a rule wrote the joint one (the greedy one deletes
    # `save`): the merge is marked placed_by "both" and the judge is asked with chosen=True
    from fastapply.merge.align import greedy
    from fastapply.merge.result import Merged
    original = ("import os\n\ndef load(path):\n    data = read(path)\n    return data\n\ndef save(path, data):\n"
                "    write(path, data)\n    log(path)\n    return True\n")
    snippet = "# ... existing code ...\ndef load(path):\n    data = read(path, 'rb')\n    return data\n# ... existing code ...\n"
    joint = instant.instant_merge(original, snippet)
    assert joint.merged and joint.placed_by is None  # both readings agree
    greedy_lines = joint.text.split("\n")[:5]  # the greedy reading drops `save`
    monkeypatch.setattr(greedy, "merge_lazy", lambda o, s: Merged(greedy_lines, None, "exact", shown_lines=3))
    asked = []
    monkeypatch.setattr(opinion, "judge", lambda o, s, m, chosen=False: asked.append(chosen))
    chosen = instant.instant_merge(original, snippet)
    assert chosen.text == joint.text and chosen.placed_by == "both" and asked == [True]


ENGINE = '''func (e *Engine) ServeHTTP(w http.ResponseWriter, r *http.Request) {
\te.router.ServeHTTP(w, r)
}

func (e *Engine) Run(addr string) {
\tdebugPrint("Listening and serving HTTP on %s", addr)
\tif err := http.ListenAndServe(addr, e); err != nil {
\t\tpanic(err)
\t}
}

func (e *Engine) RunTLS(addr string, cert string, key string) {
\tdebugPrint("Listening and serving HTTPS on %s", addr)
\tif err := http.ListenAndServeTLS(addr, cert, key, e); err != nil {
\t\tpanic(err)
\t}
}'''

SOCKET = f'''{M}
}}

func (e *Engine) RunSocket(addr string) {{
\tdebugPrint("Listening and serving HTTP on %s", addr)
\tlistener, err := net.Listen("unix", addr)
\tif err != nil {{
\t\tpanic(err)
\t}}
\thttp.Serve(listener, e)
}}

func (e *Engine) RunTLS(addr string, cert string, key string) {{
{M}'''


def test_judge_leaves_to_intent_a_definition_the_merge_keeps():
    # a new `RunSocket` between `Run` and `RunTLS`, its body like `Run`'s: the merge adds it and keeps
    # `Run`; the aligner reads `Run` rewritten as `RunSocket` with a clear lead. Whether the new
    # definition replaces the like one is the instruction's question: no confident rival
    original, snippet = lines(ENGINE), lines(SOCKET)
    merged = original[:11] + snippet[3:11] + [""] + original[11:]
    alignment = align(original, snippet)
    reading = reading_lines(alignment, original, snippet)
    assert alignment.margin >= opinion.JUDGE_MARGIN and "func (e *Engine) Run(addr string) {" not in reading
    assert opinion.drops_a_definition(reading, merged) and bracket_balance(reading) == bracket_balance(original)
    assert opinion.judge(original, snippet, merged) is None
    # the other way round (the merge rewrote `Run`, the aligner keeps it) is no such case
    assert not opinion.drops_a_definition(merged, reading)


def test_judge_refuses_a_joint_merge_the_aligner_reads_as_deleting_more_at_a_small_lead():
    # two `start() / value = 1 / stop()` blocks, the second with `extra()` inside and `done()` after it;
    # the snippet shows `start() / value = 2 / stop() / done()`. A merge that changed the first block
    # (and inserted `done()` after it) kept `extra()`; the aligner reads the second block with `extra()`
    # deleted, leading by less than JUDGE_MARGIN. Only the joint reading placed it: refused, both kept
    o = lines("setup()\nstart()\nvalue = 1\nstop()\nmid()\nstart()\nvalue = 1\nextra()\nstop()\ndone()\nend()")
    s = lines(f"{M}\nstart()\nvalue = 2\nstop()\ndone()\n{M}")
    merged = lines("setup()\nstart()\nvalue = 2\nstop()\ndone()\nmid()\nstart()\nvalue = 1\nextra()\nstop()\ndone()\nend()")
    alignment = align(o, s)
    reading = reading_lines(alignment, o, s)
    assert alignment.margin < opinion.JUDGE_MARGIN and opinion.deletes_more(o, reading, merged)
    refused = opinion.judge(o, s, merged)
    assert refused is not None and refused.reason.refusal.kind == "ambiguous-place"
    assert refused.reading == reading and "deleting more of the original" in refused.reason
    # a merge chosen between two readings still needs the clear lead
    assert opinion.judge(o, s, merged, chosen=True) is None
    # and a reading that deletes no more than the merge is no cause at a small lead (the merge itself
    # also dropped `mid()` and `extra()` here)
    dropped = [line for line in merged if line not in ("mid()", "extra()")]
    assert not opinion.deletes_more(o, reading, dropped) and opinion.judge(o, s, dropped) is None
