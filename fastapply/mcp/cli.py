"""The `fastapply mcp` subcommand: parse options, build the editor, serve MCP on stdio. No logic of its own.

    fastapply mcp [--root DIR ...] [--strategy auto|instant|model] [-m MODEL] [--device D] [--dtype T]

`fastapply.cli` calls `add_arguments(subparsers)`. Standard output carries the MCP protocol, so
everything else (model loading notes) goes to standard error. The model is loaded on the first
edit that needs it, with a note on stderr.
"""

from __future__ import annotations

import os
import sys


def add_arguments(subparsers):
    p = subparsers.add_parser(
        "mcp", help="run an MCP server (stdio) with an edit_file tool for coding agents",
        description="Serve the Model Context Protocol on standard input/output with one tool, "
                    "edit_file(target_file, instructions, code_edit), limited to files under the roots.",
    )
    p.add_argument("--root", action="append", default=None, metavar="DIR",
                   help="a directory whose files may be edited (repeatable; default: the current directory)")
    p.add_argument("-s", "--strategy", choices=["auto", "instant", "model"], default="auto",
                   help="auto: instant merge, else the model (default); instant: never load a model; model: always the model")
    p.add_argument("-m", "--model", help="bundled name, .gguf file, model directory or Hub id (default: $FASTAPPLY_MODEL or fastapply-135m)")
    p.add_argument("--device", help="cpu or cuda (default: cuda when available)")
    p.add_argument("--dtype", choices=["float32", "bfloat16", "float16"], help="default: float32 on CPU, bfloat16 on CUDA")
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    from fastapply import models
    from fastapply.mcp.server import run_stdio
    from fastapply.mcp.tool import FileEditor

    def loader():
        print(f"fastapply mcp: loading model {models.resolve(args.model).name} ...", file=sys.stderr, flush=True)
        return models.load(args.model, device=args.device, dtype=args.dtype)

    if args.model:
        models.resolve(args.model)  # an unknown name fails now, not on the first edit
    editor = FileEditor(args.root or [os.getcwd()], strategy=args.strategy, model=args.model, loader=loader)
    run_stdio(editor)
    return 0
