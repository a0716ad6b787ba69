"""Gate: checks on a merged file (the instant merge's or a model's) that turn it into a refusal.

guards runs them all (run_guards for merges, check_answer for model answers): snippet_checks
(the result against the snippet: its lines present and nested as shown, no unshown deletion, no
copied line, with the exemptions of shown_whole and copies),
answer_checks (what only a model answer fails), and structural checks each named after what it
protects: landing, repeats, unreachable, dangling, siblings, kept_code, unchanged; finish
(one merger's result through run_guards, as the MergeResult the instant path returns).
Builds on text/ and snippet/; it does not place sections.
"""
