"""Floating sections settled by the blocks the previous section left open (enclosed.py)."""

from fastapply.merge.align.enclosed import closed_depth, enclosed_places, open_depth
from fastapply.merge.align.lazy import merge_lazy

ORIGINAL = """package render

func (_ plainRender) Render(w Writer, data []string) error {
	writeHeader(w, "text/plain")
	var err error
	if len(data) > 1 {
		_, err = w.Write(format(data))
	} else {
		_, err = w.Write(data[0])
	}
	return err
}

func (_ htmlRender) Render(w Writer, data []string) error {
	writeHeader(w, "text/html")
	var err error
	if len(data) > 1 {
		_, err = w.Write(format(data))
	} else {
		_, err = w.Write(data[0])
	}
	return err
}""".split("\n")


def test_next_section_closes_the_blocks_the_previous_one_left_open():
    # Section 2 occurs in both twins; the marker reaches the second only by keeping the first
    # function's `}` (and the twin's header), and section 2 closes the blocks section 1 opened.
    snippet = """// ... existing code ...
func (_ plainTextRender) Render(w Writer, data []string) (err error) {
	writeHeader(w, "text/plain")
	if len(data) > 1 {
// ... existing code ...
		_, err = w.Write(data[0])
	}
	return
}
// ... existing code ...""".split("\n")
    m = merge_lazy(ORIGINAL, snippet)
    assert m.refused_reason is None
    assert m.lines == (ORIGINAL[:2] + ["func (_ plainTextRender) Render(w Writer, data []string) (err error) {",
                                       '\twriteHeader(w, "text/plain")']
                       + ORIGINAL[5:10] + ["\treturn", "}"] + ORIGINAL[12:])


def test_section_closing_fewer_blocks_than_were_left_open_stays_ambiguous():
    # Section 2 closes only the `if` block: it says nothing about which function it is in.
    snippet = """// ... existing code ...
func (_ plainTextRender) Render(w Writer, data []string) (err error) {
	writeHeader(w, "text/plain")
	if len(data) > 1 {
// ... existing code ...
		_, err = w.Write(data[0])
	}
	return nil
// ... existing code ...""".split("\n")
    m = merge_lazy(ORIGINAL, snippet)
    assert m.lines is None
    assert "places in the original" in m.refused_reason


def test_depths():
    assert open_depth(["}", "if x {", "if y {"]) == 2
    assert closed_depth(["x", "}", "return", "}"]) == 2
    # From depth 2, `} else {` stays inside; `}` `return err` `}` closes both blocks.
    assert enclosed_places(["f() {", "if x {"], ["y", "}", "}"], ORIGINAL, 7, [8, 19]) == [8]
    assert enclosed_places(["f() {"], ["y"], ORIGINAL, 7, [8, 19]) == [8, 19]
