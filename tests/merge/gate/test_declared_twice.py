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
