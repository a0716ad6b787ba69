"""Refuse: a refusal as data, how it is built from the merge's sentence, and how an option is applied.

refusal (the `Refusal` data and the `Reason` a refusing site attaches to its sentence: imported
low, by align/, as result.py is), reading (the refused input split once: sections, markers, numbered
lines), explain (the sentence and the whole input into a `Refusal`: its kind and cause), options
(the snippet edits that answer it), new_lines (those for sections of new lines), readings (options
from the merge's own whole-file readings) and revise (applies one option to the snippet as sent).
instant.py calls explain when it refuses; everything but refusal builds on text/ only.
"""
