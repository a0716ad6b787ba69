"""No web page may drive the server: foreign Host names (DNS rebinding), browser origins, and bodies
not declared JSON are refused; allowed origins get CORS headers, and only they."""

from __future__ import annotations

import httpx
import pytest

from fastapply.serve.access import AccessPolicy, host_name, is_json
from fastapply.serve.app import create_app
from tests.serve.support import FakeChat, running

CHAT = "/v1/chat/completions"
BODY = {"messages": [{"role": "user", "content": "hi"}], "max_tokens": 3}


def error_code(r: httpx.Response) -> str:
    return r.json()["error"]["code"]


@pytest.fixture(scope="module")
def url():
    with running(create_app(FakeChat())) as base:
        yield base


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example", "10.0.0.5"])
def test_a_foreign_host_is_refused_get_and_post(url, host):
    for r in (httpx.get(url + "/v1/models", headers={"Host": host}),
              httpx.post(url + CHAT, json=BODY, headers={"Host": host})):
        assert r.status_code == 403 and error_code(r) == "host_not_allowed"


@pytest.mark.parametrize("host", ["localhost", "localhost:8000", "127.0.0.1:1234", "[::1]:8000", "LOCALHOST."])
def test_loopback_names_are_accepted(url, host):
    assert httpx.get(url + "/v1/models", headers={"Host": host}).status_code == 200


def test_a_cross_site_text_plain_post_is_refused(url):
    # what a web page can send without asking: a "simple" request, no Origin check by the browser
    page = {"Origin": "https://evil.example", "Content-Type": "text/plain"}
    r = httpx.post(url + CHAT, content=b'{"messages": [{"role": "user", "content": "hi"}]}', headers=page)
    assert r.status_code == 403 and error_code(r) == "origin_not_allowed"
    assert "access-control-allow-origin" not in r.headers
    # the same body without the Origin, declared text/plain or not declared: still refused
    for headers in ({"Content-Type": "text/plain"}, {"Content-Type": "application/x-www-form-urlencoded"}, {}):
        r = httpx.post(url + CHAT, content=b'{"messages": [{"role": "user", "content": "hi"}]}', headers=headers)
        assert r.status_code == 415 and error_code(r) == "unsupported_media_type"
    r = httpx.post(url + CHAT, content=b'{"messages": [{"role": "user", "content": "hi"}], "max_tokens": 3}',
                   headers={"Content-Type": "application/json; charset=utf-8"})
    assert r.status_code == 200


def test_a_browser_origin_is_refused_even_for_reads_and_preflights(url):
    origin = {"Origin": "http://localhost:3000"}
    assert httpx.get(url + "/v1/models", headers=origin).status_code == 403
    pre = httpx.options(url + CHAT, headers={**origin, "Access-Control-Request-Method": "POST"})
    assert pre.status_code == 403 and "access-control-allow-origin" not in pre.headers


def test_allowed_origins_get_cors_and_the_others_do_not():
    app = create_app(FakeChat(), allow_origins=("http://localhost:3000",), api_key="k")
    with running(app) as url:
        ok = {"Origin": "http://localhost:3000"}
        pre = httpx.options(url + CHAT, headers={**ok, "Access-Control-Request-Method": "POST",
                                                 "Access-Control-Request-Headers": "authorization, content-type"})
        assert pre.status_code == 200 and pre.headers["access-control-allow-origin"] == "http://localhost:3000"
        r = httpx.post(url + CHAT, json=BODY, headers={**ok, "Authorization": "Bearer k"})
        assert r.status_code == 200 and r.headers["access-control-allow-origin"] == "http://localhost:3000"
        no_key = httpx.post(url + CHAT, json=BODY, headers=ok)
        assert no_key.status_code == 401  # the key still applies to allowed pages
        other = httpx.post(url + CHAT, json=BODY, headers={"Origin": "http://localhost:4000", "Authorization": "Bearer k"})
        assert other.status_code == 403 and "access-control-allow-origin" not in other.headers


def test_bound_address_and_allowed_hosts():
    with running(create_app(FakeChat(), host="192.168.1.20", allow_hosts=("api.example.com",))) as url:
        assert httpx.get(url + "/v1/models", headers={"Host": "192.168.1.20:8000"}).status_code == 200
        assert httpx.get(url + "/v1/models", headers={"Host": "api.example.com"}).status_code == 200
        assert httpx.get(url + "/v1/models", headers={"Host": "evil.example"}).status_code == 403


def test_health_is_checked_too(url):
    # /health needs no key, but a rebinding page must not read it either
    assert httpx.get(url + "/health", headers={"Host": "evil.example"}).status_code == 403


@pytest.mark.parametrize("value, name", [("LocalHost:80", "localhost"), ("[::1]:8000", "::1"), ("::1", "::1"),
                                         ("example.com.", "example.com"), ("10.0.0.1:9", "10.0.0.1")])
def test_host_name(value, name):
    assert host_name(value) == name


def test_policy_rules():
    loopback = AccessPolicy()
    assert loopback.host_allowed("127.0.0.1:8000") and not loopback.host_allowed("example.com")
    assert loopback.host_allowed(None)  # HTTP/1.0 without Host: not a browser
    wildcard = AccessPolicy(bound_host="0.0.0.0")
    assert wildcard.any_host and wildcard.host_allowed("anything.example")
    narrowed = AccessPolicy(bound_host="0.0.0.0", allowed_hosts=("api.example",))
    assert narrowed.host_allowed("api.example:443") and not narrowed.host_allowed("other.example")
    assert AccessPolicy(allowed_origins=("*",)).origin_allowed("https://any.example")
    assert AccessPolicy(allowed_origins=("http://a.example/",)).origin_allowed("http://a.example")
    assert not AccessPolicy(allowed_origins=("http://a.example",)).origin_allowed("http://a.example.evil")
    assert is_json("application/json") and is_json("Application/JSON; charset=utf-8")
    assert not is_json("text/plain") and not is_json(None) and not is_json("application/jsonx")
