"""What a line defines (merge/text/names.py)."""

import pytest

from fastapply.merge.text.names import defined_name, header_name, keyword_name


@pytest.mark.parametrize(
    "line, name",
    [
        ("public function delta($x)", "delta"),
        ("int Shop::delta(int x) {", "delta"),
        ("func (s *Shop) Delta(x int) int {", "Delta"),
        ("def delta(self, x):", "delta"),
        ("function Shop:delta(x)", "delta"),
        ("en: req.acceptsLanguage('en')", None),  # a key and a call: defines nothing
        ("return total(x)", None),
        ("total = compute(x);", None),
        ("if (ready) {", None),
    ],
)
def test_header_name(line, name):
    assert header_name(line) == name


def test_defined_name_reads_common_definition_shapes():
    assert defined_name("    def run(self):") == "run"
    assert defined_name("export async function load(x) {") == "load"
    assert defined_name("func (a pairs) Len() int {") == "(a pairs) Len"
    assert defined_name("pub fn on_tty() -> bool {") == "on_tty"
    assert defined_name("exports.get = function(url) {") == "exports.get"
    assert defined_name("  save: function(item) {") == "save"
    assert defined_name("  port: 3000,") == "port"
    assert defined_name("  if (x) {") is None
    assert defined_name("  return: 1") is None


def test_defined_name_reads_php_methods_ruby_methods_and_lua_functions():
    assert defined_name("    public function __construct(string $tag)") == "__construct"
    assert defined_name("    private static function &build(array $x): self") == "build"
    assert defined_name("  def self.finalize(file)") == "self.finalize"
    assert defined_name("  def empty?") == "empty?"
    assert defined_name("  def name=(value)") == "name="
    assert defined_name("  def each # yields") == "each"
    assert defined_name("local function trim(s)") == "trim"
    assert defined_name("function M.join(a, b)") == "M.join"
    assert defined_name("function Stack:push(x)") == "Stack:push"
    assert defined_name("  default_thing") is None  # a Ruby call, not a definition


def test_keyword_name():
    assert keyword_name("def test_x(runner):") == "test_x"
    assert keyword_name("pub fn on_stdin() -> bool {") == "on_stdin"
    assert keyword_name("func (e *Engine) handle(w Writer) {") == "handle"
    assert keyword_name("x = 1") is None


def test_a_ruby_call_with_a_symbol_argument_defines_no_name():
    # `has_many :posts`, `def_node_matcher :name?, <<~PATTERN`: a call, not an object key; two of them
    # in one class are no name defined twice
    from fastapply.merge.gate.repeats import names_defined_twice

    assert defined_name("has_many :posts") is None and defined_name("def_node_matcher :struct?, <<~PATTERN") is None
    assert defined_name("host: null,") == "host" and defined_name("host : null,") == "host"
    assert defined_name('"host": 1') == "host" and defined_name("key:value") == "key"
    assert names_defined_twice(["class A", "  def_node_matcher :a?, '(send)'", "  def_node_matcher :b?, '(send)'",
                                "end"]) == set()
