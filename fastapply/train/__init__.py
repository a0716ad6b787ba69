"""Fine-tuning the fast-apply model with LoRA, and loading the result.

- `lora`: rebuild a plain model from the loaded one, attach LoRA, train (answer-token loss,
  held-out bits per byte, checkpoints and resume);
- `adapter`: `apply_adapter(hf_model, adapter_dir)` merges a trained adapter for inference;
- `dev_eval`: base-vs-tuned check on held-out dev edits through the real apply path;
- `cli`: `fastapply train`.

The shipped adapter of `fastapply-135m` is in `fastapply/weights/fastapply-135m/`.
"""
