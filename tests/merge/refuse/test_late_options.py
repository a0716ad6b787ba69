"""Options after every other one (refuse/late_options.py): a section whose lines stand only at another
indentation (`reindented`), read as a change of the run they stand in."""

from fastapply.evaluation.retry import retry_example
from fastapply.merge.instant import instant_merge

ORIGINAL = """package limit

func rateLimit(c *Context) {
	ip := c.ClientIP()
	value := ips.Add(ip, 1)
	if int(value)%200 == 0 {
		log.Printf("ip: %s, count: %f", ip, value)
	}
	if value > 300 {
		if int(value)%200 == 0 {
			log.Printf("ip blocked", ip, value)
		}
		c.AbortWithStatus(503)
	}
}

func index(c *Context) {
	c.Redirect(301, "/room/hn")
}
"""
SNIPPET = """// ... existing code ...
	log.Printf("ip: %s, count: %f", ip, value)
// ... existing code ...
			log.Println("ip blocked")
// ... existing code ...
"""
EXPECTED = ORIGINAL.replace('\tif int(value)%200 == 0 {\n\t\tlog.Printf("ip: %s, count: %f", ip, value)\n\t}\n',
                            '\tlog.Printf("ip: %s, count: %f", ip, value)\n').replace(
    'log.Printf("ip blocked", ip, value)', 'log.Println("ip blocked")')


def test_a_line_unwrapped_from_its_block_is_offered_the_change_of_the_whole_block():
    """The snippet writes a line one level out of the `if` that held it alone: the merge cannot tell
    the block goes, so it refuses; one option closes the line in by the lines around the whole block
    (`value := ...` above, `if value > 300 {` below), and that revision deletes the `if` and its `}`."""
    refusal = instant_merge(ORIGINAL, SNIPPET, language="go").refusal
    assert refusal is not None and "another indentation" in refusal.sentence
    assert any("changes original lines 6-8" in o.says for o in refusal.options)
    row = retry_example({"original": ORIGINAL, "snippet": SNIPPET, "expected": EXPECTED, "language": "go"})
    assert row["first"] == "refused" and row["second"] == "right"


def test_a_line_whose_block_holds_more_is_not_offered_the_whole_block():
    """Where the `if` holds another line too, the line leaving it does not remove the block: no
    option rewrites the block's whole run."""
    original = ORIGINAL.replace('value)\n\t}\n\tif value', 'value)\n\t\tmetrics.Inc()\n\t}\n\tif value')
    refusal = instant_merge(original, SNIPPET, language="go").refusal
    assert refusal is not None
    assert not any("changes original lines 6-9" in o.says or "changes original lines 6-8" in o.says
                   for o in refusal.options)


DOCS = '''def get(url, **kwargs):
    """Send a GET request.

    :param url: the address.
    :param data: the body to send.
    :param json: a JSON body to send.
    :param kwargs: what request takes.
    """
    return request("get", url, **kwargs)


def put(url, **kwargs):
    """Send a PUT request.

    :param url: the address.
    :param data: the body to send.
    :param kwargs: what request takes.
    """
    return request("put", url, **kwargs)
'''
DOCS_SNIPPET = '''# ... existing code ...
    :param data: the body to send.
    :param json: a JSON body to send.
    :param kwargs: what request takes.
# ... existing code ...
'''


def test_a_section_the_file_holds_as_is_is_offered_the_place_where_its_new_line_is_missing():
    """The snippet adds `:param json:` to `put`'s docstring; `get`'s already holds the three lines, so the
    merge changes nothing. The place where the section stands with that line missing comes first."""
    refusal = instant_merge(DOCS, DOCS_SNIPPET, language="python").refusal
    assert refusal is not None and refusal.kind == "no-change"
    first = refusal.options[0]
    assert "if the section goes at original lines 16-17, where its other lines stand" in first.says
    expected = DOCS.replace("    :param kwargs: what request takes.\n    \"\"\"\n    return request(\"put\"",
                            "    :param json: a JSON body to send.\n    :param kwargs: what request takes.\n    \"\"\"\n"
                            "    return request(\"put\"")
    assert expected.count(":param json:") == 2
    row = retry_example({"original": DOCS, "snippet": DOCS_SNIPPET, "expected": expected, "language": "python"})
    assert row["first"] == "refused" and row["second"] == "right" and row["second_shown"] == "right"
