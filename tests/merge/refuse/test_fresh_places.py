"""late_options.fresh_places: a section whose lines are mostly new (a new block that repeats a comment
line of the block it is modelled on and ends in `end`) is offered the places a new section may go
(new_lines.new_places), not only the doubted line's neighbours."""

from __future__ import annotations

from fastapply.evaluation.retry import retry_example
from fastapply.merge.instant import instant_merge

ORIGINAL = """\
local function setup(options)
  if options.ffi then
    local ffi = require "ffi"

    -- Now patch ffi.cdef to only be called once with each definition, as it
    -- will error on re-registering.
    local old_cdef = ffi.cdef
    local exists = {}
    ffi.cdef = function(def)
      if exists[def] then return end
      exists[def] = true
      return old_cdef(def)
    end
  end

  -- Set up helper script
  if options.helper then
    load_helper(options.helper)
  end
end

return setup
"""
NEW = """
    -- Now patch ffi.typeof to only be called once with each definition, as it
    -- will error on re-registering.
    local old_typeof = ffi.typeof
    local exists_typeof = {}
    ffi.typeof = function(def)
      if exists_typeof[def] then return exists_typeof[def] end
      local ok, err = old_typeof(def)
      if ok then
        exists_typeof[def] = ok
        return ok
      end
      return ok, err
    end
"""
SNIPPET = "-- ... existing code ...\n" + NEW + "-- ... existing code ...\n"
EXPECTED = ORIGINAL.replace("      return old_cdef(def)\n    end\n", "      return old_cdef(def)\n    end\n" + NEW)


def test_a_new_block_modelled_on_an_original_one_is_offered_the_places_after_it():
    refusal = instant_merge(ORIGINAL, SNIPPET, language="lua").refusal
    assert refusal.kind == "new-or-changed"
    assert any(o.says.endswith("if it is new after original line 13") for o in refusal.options)
    row = retry_example({"original": ORIGINAL, "snippet": SNIPPET, "expected": EXPECTED, "language": "lua"})
    assert row["second"] == "right" and "new after original line 13" in row["option"]


def test_a_section_of_mostly_original_lines_is_not_offered_new_places():
    from fastapply.merge.refuse.late_options import fresh_places as _fresh_places
    from fastapply.merge.refuse.reading import read_input

    snippet = "-- ... existing code ...\n    local old_cdef = ffi.cdef\n    local exists = {}\n    local x = 1\n-- ...\n"
    assert _fresh_places(read_input(ORIGINAL, snippet, "lua"), 0) == ()
