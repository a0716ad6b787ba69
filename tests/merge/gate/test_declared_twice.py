"""A member or type declared twice in one scope, read from the syntax tree (gate/declared_twice.py)."""

from fastapply.merge.gate.declared_twice import check_declared_twice, declarations
from fastapply.merge.instant import instant_merge

CS = """namespace P
{
    public class DelegateResult<TResult>
    {
        private readonly TResult _result;

        internal DelegateResult(TResult result)
        {
            _result = result;
        }

        public TResult Result
        {
            get { return _result; }
        }
    }
}
"""


def test_a_new_constructor_pasted_beside_the_one_it_replaces_is_refused_by_the_merge():
    # The snippet shows the class opener, then its new constructor, then a marker: read as added, the
    # original `internal` constructor with the same parameters stays under the marker.
    snippet = """// ... existing code ...
    public class DelegateResult<TResult>
    {
        public DelegateResult(TResult result)
        {
            Result = result;
        }

// ... existing code ...
        public TResult Result { get; }
    }
}
"""
    merged = instant_merge(CS, snippet, path="DelegateResult.cs")
    assert not merged.merged  # without this check: written, the old `Result` property kept beside the new one
    pasted = CS.replace("        internal DelegateResult", "        public DelegateResult(TResult result)\n"
                        "        {\n        }\n\n        internal DelegateResult")
    reason = check_declared_twice(CS.splitlines(), pasted.splitlines(), "csharp")
    assert "`DelegateResult(TResult result)` would be defined twice in one block in `DelegateResult`" in reason


def test_overloads_and_members_of_different_classes_are_not_twice():
    original = CS.splitlines()
    overload = CS.replace("        public TResult Result\n",
                          "        internal DelegateResult(Exception e)\n        {\n        }\n\n        public TResult Result\n")
    assert check_declared_twice(original, overload.splitlines(), "csharp") is None
    java = """class F {
    static final F A = new F() {
        @Override public String toString() { return "a"; }
    };
}
"""
    two_anonymous = java.replace("    };\n", "    };\n    static final F B = new F() {\n"
                                 "        @Override public String toString() { return \"b\"; }\n    };\n")
    assert check_declared_twice(java.splitlines(), two_anonymous.splitlines(), "java") is None


def test_a_type_declared_twice_and_what_was_twice_already():
    kotlinish = "class Tests {\n    private class Opts : Base()\n}\n"
    twice = "class Tests {\n    private class Opts : Base()\n    private class Opts : Base()\n}\n"
    assert "`Opts` would be defined twice in one block in `Tests`" in check_declared_twice(
        kotlinish.splitlines(), twice.splitlines(), "kotlin")
    # Already twice in the original (a file that does not compile, or one this check misreads): no refusal.
    assert check_declared_twice(twice.splitlines(), twice.splitlines(), "kotlin") is None


def test_only_languages_that_declare_by_signature_and_only_clean_parses():
    assert declarations("def f(x):\n    pass\ndef f(x):\n    pass\n", "python") is None
    assert declarations("class A { void f( }", "java") is None
    keys = declarations("class A { void f(int a) {} void f(String a) {} }", "java")
    assert sorted(n for (_, family, n, _) in keys.elements() if family == "function") == ["f", "f"]


PHP = """<?php

class ElasticaFormatter
{
    /**
     * @var string Elastic search index name
     */
    protected $index;

    /**
     * @var string Elastic search document type
     */
    protected $type;

    public function __construct(string $index, string $type)
    {
        $this->index = $index;
        $this->type = $type;
    }
}
"""


def test_a_field_kept_beside_its_rewritten_declaration_is_refused_by_the_merge():
    # Issue 19 family 1 (ftune 341, ftune2 142): the snippet rewrites a field's doc comment and
    # declaration; the merge pasted them above the original ones, kept under the marker, so the class
    # declared `$type` twice -- PHP's "Cannot redeclare", as Java's, C#'s and Kotlin's compilers reject it.
    snippet = """// ... existing code ...

    /**
     * @var ?string Elastic search document type
     */
    protected $type;

    public function __construct(string $index, ?string $type)
    {
// ... existing code ...
"""
    pasted = PHP.replace("    /**\n     * @var string Elastic search document type",
                         "    /**\n     * @var ?string Elastic search document type\n     */\n    protected $type;\n\n"
                         "    /**\n     * @var string Elastic search document type")
    reason = check_declared_twice(PHP.splitlines(), pasted.splitlines(), "php")
    assert "`$type` would be defined twice in one block in `ElasticaFormatter`" in reason
    merged = instant_merge(PHP, snippet, path="ElasticaFormatter.php")
    assert not merged.merged or merged.text.count("protected $type;") == 1


def test_fields_are_keyed_by_each_declarator_in_class_bodies_only():
    java = "class A {\n  private int x = 1, y;\n  private int z;\n}\n"
    assert {k[2] for k in declarations(java, "java") if k[1] == "property"} == {"x", "y", "z"}
    twice = java.replace("  private int z;", "  private int z;\n  private long y;")
    assert "`y` would be defined twice" in check_declared_twice(java.splitlines(), twice.splitlines(), "java")
    cs = "class A {\n  private int _x, _y;\n  public int P { get; set; }\n}\n"
    assert {k[2] for k in declarations(cs, "csharp") if k[1] == "property"} == {"_x", "_y", "P"}
    kotlin = "class A {\n  val x: Int = 1\n}\n\nfun main() {\n  run { val x = 1 }\n  run { val x = 2 }\n}\n"
    assert {k[2] for k in declarations(kotlin, "kotlin") if k[1] == "property"} == {"x"}  # locals are not members
    assert check_declared_twice(kotlin.splitlines(), (kotlin + "\nval top = 1\nval top2 = 1\n").splitlines(),
                                "kotlin") is None
