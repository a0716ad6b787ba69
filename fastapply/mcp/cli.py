"""The `fastapply mcp` subcommand: parse options, build the editor, serve MCP on stdio. No logic of its own.

    fastapply mcp [--root DIR ...] [--strategy auto|instant|model] [-m MODEL] [--device D] [--dtype T]

`fastapply.cli` calls `add_arguments(subparsers)`. Standard output carries the MCP protocol, so
everything else (model loading notes) goes to standard error. The model is loaded on the first
edit that needs it, with a note on stderr.
"""

from __future__ import annotations

import os
import sys

from fastapply import options


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
    options.add_model_arguments(p)
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    from fastapply import extras, models

    extras.require("mcp", "fastapply mcp")  # the model path's [model] is checked when an edit needs it
    from fastapply.mcp.server import run_stdio
    from fastapply.mcp.tool import FileEditor

    def loader():
        return options.load_model(args, say=lambda message: print(f"fastapply mcp: {message}", file=sys.stderr, flush=True))

    if args.model:
        models.resolve(args.model)  # an unknown name fails now, not on the first edit
    options.check_device(args.device)
    editor = FileEditor(args.root or [os.getcwd()], strategy=args.strategy, model=args.model, loader=loader)
    run_stdio(editor)
    return 0
