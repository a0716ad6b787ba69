"""Import lines (merge/imports.py): the names each binds, and which names code uses."""

import pytest

from fastapply.merge.text.imports import bound_names, uses


@pytest.mark.parametrize("lines, language, names", [
    (["import os.path as p, sys"], "python", {"p", "sys"}),
    (["import os.path"], "python", {"os"}),
    (["from a import b as c, d"], "python", {"c", "d"}),
    (["import X, {a, b as c} from 'm';"], "javascript", {"X", "a", "c"}),
    (["import * as ns from 'm'"], "typescript", {"ns"}),
    (["const {a, b: c} = require('m');"], "javascript", {"a", "c"}),
    (['import f "fmt"'], "go", {"f"}),
    (["import java.util.List;"], "java", {"List"}),
    (["import kotlinx.coroutines.launch"], "kotlin", {"launch"}),
    (["import a.b.C as D"], "scala", {"D"}),
    (["use std::io::{self, Read as R};"], "rust", {"io", "R"}),
    # PHP: a function or constant by its own name, not `function`; a class by its last segment
    (["use function count;"], "php", {"count"}),
    (["use const App\\Config\\DEBUG;"], "php", {"DEBUG"}),
    (["use App\\Http\\Request as Req;"], "php", {"Req"}),
    (["use App\\Models\\{User, Post as Entry, function helper};"], "php", {"User", "Entry", "helper"}),
])
def test_an_import_line_binds_its_names(lines, language, names):
    assert bound_names(lines, language) == {0: names}


def test_import_blocks_bind_a_name_per_line():
    go = ["import (", '\t"fmt"', '\t"io/ioutil"', '\t"github.com/x/y/v2"', '\t_ "embed"', ")", "func f() {}"]
    assert bound_names(go, "go") == {0: set(), 1: {"fmt"}, 2: {"ioutil"}, 3: {"y"}, 4: set(), 5: set()}
    py = ["from a import (", "    b,", "    c as d,", ")", "x = b"]
    assert bound_names(py, "python") == {0: set(), 1: {"b"}, 2: {"d"}, 3: set()}


def test_imports_that_bind_nothing_and_code_lines():
    assert bound_names(["import './style.css';", "#include <stdio.h>", "import scala.collection._"], None) == \
        {0: set(), 1: set(), 2: set()}
    assert bound_names(["x = 1", "important = True"], "python") == {}


def test_uses_finds_names_as_words_not_as_attributes():
    assert uses(["err := errors.New(x)", "x.viper = 1", "ioutils := 2"], {"errors", "viper", "ioutil"}) == {"errors"}
