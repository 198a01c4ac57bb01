"""The loopback HTTP server the demo's boards and model stand on: routes by path, a
keep-alive connection answered request after request, and a request that is not HTTP
dropped without taking the server down."""

from __future__ import annotations

import socket

import httpx

from jobtracker.demo.httpserver import StaticServer


def test_routes_are_served_with_their_type_and_anything_else_is_404() -> None:
    with StaticServer({"/jobs.json": (b'{"jobs": []}', "application/json")}) as server, \
            httpx.Client() as client:
        for _ in range(3):          # one keep-alive connection, asked again and again
            got = client.get(server.url("/jobs.json?page=2"))
            assert (got.status_code, got.headers["content-type"], got.content) == (
                200, "application/json", b'{"jobs": []}')
        assert client.get(server.url("/other")).status_code == 404
        assert client.post(server.url("/jobs.json")).status_code == 404


def test_a_request_that_is_not_http_is_dropped_and_the_server_goes_on() -> None:
    with StaticServer({"/": (b"ok", "text/plain")}) as server:
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as raw:
            raw.sendall(b"GARBAGE\r\n\r\n")
            assert raw.recv(100) == b""        # closed, no answer
        assert httpx.get(server.url("/"), timeout=5).text == "ok"
