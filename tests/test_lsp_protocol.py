"""The language server's protocol (compiler.lsp.server.RulecraftProtocol), in process: a
request whose parameters are not what its method takes is answered with an error, not left
without an answer."""

from __future__ import annotations

import json

import pytest
from lsprotocol import types as lsp

from compiler.lsp.server import Answered, RulecraftServer


class _Sent:
    """The messages the server writes."""

    def __init__(self) -> None:
        self.messages: list[dict[str, object]] = []

    def write(self, data: bytes) -> None:
        self.messages.append(json.loads(data))

    def close(self) -> None:
        pass


def test_a_request_it_cannot_read_is_answered_with_an_error() -> None:
    server = RulecraftServer()
    sent = _Sent()
    server.protocol.set_writer(sent, include_headers=False)
    body = json.dumps({"jsonrpc": "2.0", "id": 7, "method": lsp.TEXT_DOCUMENT_HOVER,
                       "params": {"textDocument": {"uri": "file:///g.rules"}}})  # no position
    with pytest.raises(Answered):  # (the reader logs it; the client has its answer)
        json.loads(body, object_hook=server.protocol.structure_message)
    (reply,) = sent.messages
    assert reply["id"] == 7
    assert reply["error"] == {"code": lsp.ErrorCodes.InvalidParams, "message": "Invalid Params"}
