"""Measuring: `fastapply eval` (accuracy: right / wrong / refused, with decode statistics) and
`fastapply bench` (speed: speculative edits against plain decoding and prompt lookup), over one
reader of edit examples (examples.py). The training-side dev check (train/dev_eval.py) runs the
same harness."""
