"""A merge must not leave twice what the snippet shows once: a name defined twice in one block,
a run stuttered around original lines the snippet does not show (merge/repeats.py)."""

from fastapply.merge.gate import repeats
from fastapply.merge.instant import instant_merge


def lines(text: str) -> list[str]:
    return text.split("\n")


# --------------------------------------------------------------------------- defined twice


def test_a_key_defined_twice_in_one_object_is_refused():
    original = lines("var Store = {\n  save: function(id, data) {\n    db[id] = data\n  },\n  load: 1\n}")
    snippet = lines("// ... existing code ...\n  save: function(item) {\n    db[item.id] = item\n  },\n// ... existing code ...")
    pasted = original[:1] + ["  save: function(item) {", "    db[item.id] = item", "  },"] + original[1:]
    reason = repeats.check_name_defined_twice(original, pasted, snippet)
    assert reason and "`save`" in reason
    replaced = original[:1] + ["  save: function(item) {", "    db[item.id] = item", "  },"] + original[4:]
    assert repeats.check_name_defined_twice(original, replaced, snippet) is None


def test_the_same_name_in_two_blocks_or_shown_twice_passes():
    original = lines("a = {\n  port: 1\n}\nb = {\n  host: 2\n}")
    result = lines("a = {\n  port: 1\n}\nb = {\n  port: 3,\n  host: 2\n}")  # another object: fine
    assert repeats.check_name_defined_twice(original, result, ["  port: 3,"]) is None
    twice = lines("a = {\n  port: 1,\n  port: 3\n}")
    assert repeats.check_name_defined_twice(lines("a = {\n  port: 1\n}"), twice, ["port: 1,", "port: 3"]) is None


def test_a_php_constructor_or_ruby_method_pasted_beside_its_namesake_is_refused():
    php = lines("<?php\nclass Tag\n{\n    private $tag;\n\n    public function __construct(string $tag)\n    {\n"
                "        $this->tag = $tag;\n    }\n}")
    promoted = ["    public function __construct(", "        private string $tag,", "    ) {", "    }", ""]
    pasted = php[:3] + promoted + php[3:]
    reason = repeats.check_name_defined_twice(php, pasted, ["// ... existing code ..."] + promoted)
    assert reason and "`__construct`" in reason
    ruby = lines("class Hash2\n  def self.[](*args)\n    new\n  end\n\n  def initialize(*args)\n    super\n  end\nend")
    new_init = ["  def initialize(a)", "    super(a)", "  end", ""]
    reason = repeats.check_name_defined_twice(ruby, ruby[:5] + new_init + ruby[5:], new_init)
    assert reason and "`initialize`" in reason
    # the class method and the instance method of one name are two definitions
    both = lines("class A\n  def self.build\n  end\n\n  def build\n  end\nend")
    assert repeats.check_name_defined_twice(both[:1] + both[4:], both, both[1:4]) is None


def test_instant_merge_refuses_a_new_definition_pasted_beside_its_namesake():
    original = ("exports.get = function(url, headers, fn) {\n  request('GET', url, headers).then(fn)\n}\n\n"
                "exports.call('http://example.com', function(content){\n  print(content)\n})\n")
    snippet = ("// ... existing code ...\n}\n\nexports.get = function(url, headers) {\n"
               "  return request('GET', url, headers)\n}\n")
    result = instant_merge(original, snippet, language="javascript")
    assert result.text is None or result.text.count("exports.get =") == 1


# --------------------------------------------------------------------------- stutter


ORIGINAL = lines("/**\n * Render a view.\n *\n * Options:\n *\n * Most engines take these:\n *  - `scope` the context\n */")


def test_a_run_repeated_around_unshown_original_lines_is_refused():
    snippet = lines("// ... existing code ...\n * Options:\n *\n *  - `scope` the context\n// ... existing code ...")
    stuttered = ORIGINAL[:6] + [" * Options:", " *"] + ORIGINAL[6:]
    reason = repeats.check_stutter(ORIGINAL, stuttered, snippet)
    assert reason and "Most engines take these:" in reason
    assert reason.startswith("the lines `* Options:` would appear twice")  # named by a line that says something, not ` *`
    deleted = ORIGINAL[:5] + ORIGINAL[6:]
    assert repeats.check_stutter(ORIGINAL, deleted, snippet) is None


def test_a_repeated_run_of_generic_lines_is_said_where_it_stands():
    original = lines("do\n  x()\n  end\n  end\n  gap()\nend")
    result = original[:5] + ["  end", "  end"] + original[5:]  # the snippet's two `end` pasted below gap()
    reason = repeats.check_stutter(original, result, lines("-- ...\n  end\n  end\n-- ..."))
    # `end` alone locates nothing: said as the original line it is, placed by its nearest distinctive line
    assert reason and reason.startswith("the lines `end`, above `gap()` (original line 4) would appear twice")


def test_a_repeat_whose_middle_the_snippet_shows_passes():
    snippet = lines("// ... existing code ...\n * Most engines take these:\n * Options:\n *\n// ... existing code ...")
    stuttered = ORIGINAL[:6] + [" * Options:", " *"] + ORIGINAL[6:]
    assert repeats.check_stutter(ORIGINAL, stuttered, snippet) is None


def test_a_repeat_further_away_than_the_gap_passes():
    original = lines("}\n\na()\nb()\nc()\nd()\ne()")
    result = lines("}\n\na()\nb()\nc()\nd()\n}\n\ne()")
    assert repeats.check_stutter(original, result, ["d()", "}", "", "e()"]) is None


def test_instant_merge_does_not_write_a_stuttered_doc_comment():
    original = ("var a = 1\n\n/**\n * Render a view.\n *\n * Options:\n *  \n *  Most engines accept one or more options,\n"
                " *  both kinds accept all:\n *\n *  - `scope` the context\n *  - `debug` Output debugging information\n"
                " */\n\nfunction render() {}\n\n/**\n * Options:\n */\n")
    snippet = ("// ... existing code ...\n/**\n // ... existing code ...\n * Options:\n *  \n *  - `scope` the context\n"
               " *  - `debug` Output debugging information\n// ... existing code ...\n")
    result = instant_merge(original, snippet, language="javascript")
    assert result.text is None or result.text.count(" * Options:") == 2  # the first doc comment's, the second's


# --------------------------------------------------------------------------- context opener twice

ROUTES = """    app.get('/', function(req, res){
        res.render('index.jade');
    });
    app.get('/helpers', function(req, res){
        res.render('helpers.jade');
    });
    app.get('/jade', function(req, res){
        res.render('index');
    });"""


def test_a_context_opener_made_a_second_sibling_is_refused():
    original = lines(ROUTES)
    snippet = lines("    // ... existing code ...\n    });\n    app.get('/jade', function(req, res){\n        // ... existing code ...")
    renamed = list(original)
    renamed[3] = "    app.get('/jade', function(req, res){"
    reason = repeats.check_context_opener_twice(original, renamed, snippet)
    assert reason and "app.get('/jade'" in reason and "two sibling blocks" in reason
    assert repeats.check_context_opener_twice(original, original, snippet) is None


def test_a_control_flow_opener_may_repeat():
    original = lines("func f() error {\n\terr := a()\n\tif err != nil {\n\t\treturn err\n\t}\n\treturn nil\n}")
    snippet = lines("// ... existing code ...\n\terr = b()\n\tif err != nil {\n// ... existing code ...")
    result = original[:5] + ["\terr = b()", "\tif err != nil {", "\t\treturn err", "\t}"] + original[5:]
    assert repeats.check_context_opener_twice(original, result, snippet) is None


def test_generic_closing_lines_twice_around_a_short_block_are_no_stutter():
    # a new method before one of the same length reads `}`, blank, three lines, `}`, blank: refused
    # on 2026-11-26 as a stutter (the grid's add_first in the minimal and context_above styles)
    original = ["class Shop {", "  alpha(x) {", "    const price = load(x);", "    return price;", "  }", "", "}"]
    new = ["  delta(x) {", "    const limit = compute(x);", "    return limit;", "  }", ""]
    result = original[:1] + new + original[1:]
    assert repeats.check_stutter(original, result, ["class Shop {"] + new + ["// ..."]) is None
    from fastapply.data.patterns import pattern_rows

    row = next(r for r in pattern_rows(languages=("java",)) if r["id"] == "pattern:java:add_first:context_above")
    m = instant_merge(row["original"], row["snippet"], language="java")
    assert m.merged and m.text == row["expected"], m.refused_reason
