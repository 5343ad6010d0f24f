"""The scripted Messages API streams as the real one does: the real SDK reassembles
what it streamed into the same message it would have returned whole."""

from __future__ import annotations

import anthropic

from tests.support.messages_server import MessagesServer, text, tool_use


def test_it_streams_text_and_tool_calls_the_sdk_reassembles(messages_server: MessagesServer):
    messages_server.add([text("Looking."), tool_use("Read", {"file_path": "/tmp/a.md"})])
    client = anthropic.Anthropic(api_key="test", base_url=messages_server.base_url, max_retries=0)
    with client.messages.stream(
        model="claude-test", max_tokens=100, messages=[{"role": "user", "content": "hi"}]
    ) as stream:
        deltas = list(stream.text_stream)
        message = stream.get_final_message()
    assert deltas == ["Looking."]
    assert message.stop_reason == "tool_use"
    assert message.content[1].type == "tool_use"
    assert message.content[1].input == {"file_path": "/tmp/a.md"}


def test_it_still_refuses_turns_out_of_order(messages_server: MessagesServer):
    messages_server.add([text("never sent")])
    client = anthropic.Anthropic(api_key="test", base_url=messages_server.base_url, max_retries=0)
    try:
        client.messages.create(
            model="claude-test",
            max_tokens=10,
            messages=[{"role": "assistant", "content": "first"}],
        )
    except anthropic.BadRequestError as error:
        assert "expected 'user'" in str(error)
    else:
        raise AssertionError("an assistant turn first was accepted")
