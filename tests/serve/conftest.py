"""Shared fixtures: one fake-chat server per module for the fast tests."""

from __future__ import annotations

import pytest

from fastapply.serve.app import create_app
from tests.serve.support import FakeChat, running


@pytest.fixture(scope="module")
def fake_model():
    return FakeChat()


@pytest.fixture(scope="module")
def base_url(fake_model):
    with running(create_app(fake_model, max_body_bytes=64 * 1024)) as url:
        yield url
