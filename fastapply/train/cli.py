"""`fastapply train`: LoRA fine-tuning on `fastapply data build` output (argparse wiring over lora.py).

`add_arguments(subparsers)` registers `train`, setting `func(args) -> int`.
"""

from __future__ import annotations

import json
from pathlib import Path

from fastapply import models, options
from fastapply.errors import InputError


def cmd_train(args) -> int:
    from fastapply import extras
    from fastapply.data.build import read_jsonl

    extras.require("train", "fastapply train")
    extras.require("model", "fastapply train")
    from fastapply.train.lora import TrainConfig, train

    data = Path(args.data)
    if not (data / "train.jsonl").is_file():
        raise InputError(f"{data}/train.jsonl not found: run `fastapply data build -o {data}` first")
    train_rows = read_jsonl(data / "train.jsonl")
    held_rows = read_jsonl(data / "heldout.jsonl") if (data / "heldout.jsonl").is_file() else []
    fits = lambda r: "prompt_tokens" not in r or r["prompt_tokens"] + r["answer_tokens"] <= args.max_tokens  # noqa: E731
    train_rows = [r for r in train_rows if fits(r)]
    held_rows = [r for r in held_rows if fits(r)]
    if not train_rows:
        raise InputError(f"no training example in {data} fits --max-tokens {args.max_tokens}")
    if args.max_examples:
        train_rows = train_rows[: args.max_examples]
    if args.threads:
        import torch

        torch.set_num_threads(args.threads)
    cfg = TrainConfig(
        rank=args.rank, alpha=args.alpha or 2 * args.rank, lr=args.lr, warmup_steps=args.warmup,
        grad_accum=args.grad_accum, epochs=args.epochs, max_steps=args.max_steps, max_minutes=args.max_minutes,
        max_tokens=args.max_tokens, eval_every=args.eval_every, save_every=args.save_every,
        max_eval=args.max_eval, seed=args.seed, bf16=not args.fp32,
    )
    loaded = models.load(args.model, device=args.device)
    result = train(loaded, train_rows, held_rows, args.out, cfg, resume=args.resume, progress=not args.quiet)
    summary = {k: v for k, v in result.items() if k != "log"}
    (Path(args.out) / "summary.json").write_text(json.dumps(summary, indent=1))
    print(json.dumps(summary, indent=1))
    return 0


def add_arguments(subparsers) -> None:
    t = subparsers.add_parser("train", help="fine-tune the model with LoRA on built examples")
    t.add_argument("--data", default="runs/data", help="directory from `fastapply data build`")
    t.add_argument("-o", "--out", default="runs/train", help="checkpoints, log.jsonl and the final adapter/")
    options.add_model_arguments(t, default=models.BASE_MODEL, dtype=False,
                                model_help_text=f"base model to tune (default: {models.BASE_MODEL})")
    t.add_argument("--rank", type=int, default=16)
    t.add_argument("--alpha", type=int, default=None, help="LoRA alpha (default 2 x rank)")
    t.add_argument("--lr", type=float, default=7e-4)
    t.add_argument("--warmup", type=int, default=8)
    t.add_argument("--grad-accum", type=int, default=4)
    t.add_argument("--epochs", type=float, default=1.0)
    t.add_argument("--max-steps", type=int, default=None)
    t.add_argument("--max-minutes", type=float, default=None, help="time budget: the schedule decays to it and stops")
    t.add_argument("--max-tokens", type=int, default=3072)
    t.add_argument("--max-examples", type=int, default=None)
    t.add_argument("--eval-every", type=int, default=25)
    t.add_argument("--save-every", type=int, default=25)
    t.add_argument("--max-eval", type=int, default=40)
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--threads", type=int, default=0)
    t.add_argument("--fp32", action="store_true", help="no bf16 autocast")
    t.add_argument("--resume", action="store_true", help="continue from OUT/checkpoint")
    t.add_argument("--quiet", action="store_true")
    t.set_defaults(func=_validated(cmd_train))


def _validated(fn):
    def run(args) -> int:
        for name in ("rank", "grad_accum", "max_tokens"):
            if getattr(args, name) <= 0:
                raise InputError(f"--{name.replace('_', '-')} must be positive")
        if args.epochs <= 0 or args.lr <= 0:
            raise InputError("--epochs and --lr must be positive")
        return fn(args)

    return run
