"""The `serve` subcommand's options (the server itself is exercised through create_app)."""

from __future__ import annotations

import argparse

import pytest

from fastapply.serve import cli


def parse(argv, monkeypatch=None):
    parser = argparse.ArgumentParser()
    cli.add_arguments(parser.add_subparsers(dest="command"))
    return parser.parse_args(argv)


def test_defaults_bind_to_loopback():
    args = parse(["serve"])
    assert args.host == "127.0.0.1" and args.port == 8000 and args.api_key is None and args.func is cli.run


@pytest.mark.parametrize("argv", [["serve", "--port", "99999"], ["serve", "--max-queue", "0"],
                                  ["serve", "--max-body-bytes", "x"], ["serve", "--dtype", "int8"]])
def test_bad_options_are_refused(argv):
    with pytest.raises(SystemExit):
        parse(argv)


def test_run_wires_options_and_the_api_key_env_fallback(monkeypatch):
    seen = {}

    def fake_create_app(loader, **kwargs):
        seen.update(kwargs, loader=loader)
        return "app"

    import uvicorn

    import fastapply.serve.app as app_module

    monkeypatch.setattr(app_module, "create_app", fake_create_app)
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: seen.update(run=(app, kw)))
    monkeypatch.setenv("FASTAPPLY_API_KEY", "from-env")
    args = parse(["serve", "--port", "8123", "--max-queue", "3", "-m", "smollm2-135m-instruct"])
    assert cli.run(args) == 0
    assert seen["api_key"] == "from-env" and seen["max_queue"] == 3
    assert seen["model_name"] == "smollm2-135m-instruct"
    app, run = seen["run"]
    protocol = run.pop("http")
    assert (app, run) == ("app", {"host": "127.0.0.1", "port": 8123, "log_level": "info", "limit_concurrency": 64})
    assert protocol.header_timeout_s == 10.0  # uvicorn's h11 protocol with a header read timeout
    assert seen["merge_workers"] == 2 and seen["merge_timeout_s"] == 60.0
    assert seen["host"] == "127.0.0.1" and seen["allow_origins"] == () and seen["allow_hosts"] == ()
    assert seen["body_timeout_s"] == 10.0 and seen["max_scored_tokens"] == 4096
    assert callable(seen["loader"])  # the model loads later, on the server's worker thread
    assert cli.run(parse(["serve", "--api-key", "flag"])) == 0 and seen["api_key"] == "flag"


def test_new_limits_and_access_options_reach_the_app_and_uvicorn(monkeypatch):
    seen = {}
    import uvicorn

    import fastapply.serve.app as app_module

    monkeypatch.setattr(app_module, "create_app", lambda loader, **kw: seen.update(kw) or "app")
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: seen.update(run=kw))
    args = parse(["serve", "--host", "0.0.0.0", "--allow-origin", "http://localhost:3000", "--allow-origin",
                  "https://ide.example", "--allow-host", "api.example", "--body-timeout", "2.5",
                  "--max-connections", "9", "--max-scored-tokens", "100", "--header-timeout", "3",
                  "--merge-workers", "4", "--merge-timeout", "7.5"])
    assert cli.run(args) == 0
    assert seen["allow_origins"] == ("http://localhost:3000", "https://ide.example")
    assert seen["allow_hosts"] == ("api.example",) and seen["host"] == "0.0.0.0"
    assert seen["body_timeout_s"] == 2.5 and seen["max_scored_tokens"] == 100
    assert seen["run"]["limit_concurrency"] == 9 and seen["run"]["http"].header_timeout_s == 3.0
    assert seen["merge_workers"] == 4 and seen["merge_timeout_s"] == 7.5


@pytest.mark.parametrize("argv", [["serve", "--body-timeout", "0"], ["serve", "--body-timeout", "nan"],
                                  ["serve", "--max-connections", "0"], ["serve", "--max-scored-tokens", "-1"],
                                  ["serve", "--header-timeout", "0"], ["serve", "--merge-workers", "0"],
                                  ["serve", "--merge-timeout", "-1"]])
def test_bad_limits_are_refused(argv):
    with pytest.raises(SystemExit):
        parse(argv)


def test_unknown_model_fails_before_opening_the_port(capsys):
    assert cli.run(parse(["serve", "-m", "no-such-model"])) == 3
    assert "unknown model" in capsys.readouterr().err


@pytest.mark.parametrize("argv, message", [
    (["serve", "--api-key", ""], "--api-key must not be empty"),
    (["serve", "--api-key", "  "], "--api-key must not be empty"),
    (["serve", "--host", ""], "--host must not be empty"),
    (["serve", "--served-model-name", ""], "--served-model-name must not be empty"),
    (["serve", "--model", ""], "--model must not be empty"),
    (["serve", "--device", "gpu"], "expected cpu, cuda, cuda:N or mps"),
])
def test_empty_key_host_or_names_are_usage_errors(capsys, monkeypatch, argv, message):
    """An empty --api-key never disables authentication (nor overrides $FASTAPPLY_API_KEY)."""
    from fastapply import cli as main_cli

    monkeypatch.setenv("FASTAPPLY_API_KEY", "from-env")
    with pytest.raises(SystemExit) as exc:
        main_cli.main(argv)
    err = capsys.readouterr().err
    assert exc.value.code == 2 and message in err
    assert err.splitlines() == [err.splitlines()[0], "try 'fastapply serve --help'"]

