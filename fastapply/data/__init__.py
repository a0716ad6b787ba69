"""Training data for the fast-apply model, from real edits.

- `pairs`: read (before, after) file pairs (JSONL/.gz) or mine them from a local git repository;
- `snippets`: synthesise edit snippets from a pair's diff in the styles a planning model writes;
- `reference_merge`: the strict line-exact merger that checks every snippet reproduces `after`;
- `build`: balance, dedup, split by repository and render with the apply path's prompt format;
- `cli`: `fastapply data build` and `fastapply data mine`.

Nothing here imports torch.
"""
