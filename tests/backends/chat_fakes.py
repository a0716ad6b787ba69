"""A scripted OpenAI-compatible chat server for the `openai:` backend's tests, on loopback.

`ScriptedChat(answer)` is a tiny FastAPI app: POST /v1/chat/completions answers `answer(body)`
(a string: the message content) as a chat completion, and records every request body in
`requests`. Options script the failures a real server has: refusing `prediction` with a 400 as
OpenAI does for models without Predicted Outputs, a fixed HTTP status, a slow answer, usage with
prediction counts. Run it with tests/serve/support.py `running(chat.app)`.
"""

from __future__ import annotations

import re
import time
from typing import Callable

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from fastapply.rewrite import prompts

_CODE = re.compile(r"<code>\n(?P<code>.*)</code>\n<update>", re.S)


def sent_code(body: dict) -> str:
    """The <code> text of our apply prompt in a request body (the window, or the whole file)."""
    return _CODE.search(body["messages"][-1]["content"])["code"]


def tagged(text: str) -> str:
    """A reply in our answer format."""
    return prompts.ANSWER_PREFIX + text + prompts.ANSWER_SUFFIX


class ScriptedChat:
    def __init__(self, answer: Callable[[dict], str] | str, *, refuse_prediction: bool = False,
                 status: int = 200, error: str = "scripted failure", delay_s: float = 0.0,
                 finish_reason: str = "stop", usage: dict | None = None):
        self.answer = answer if callable(answer) else (lambda body: answer)
        self.refuse_prediction = refuse_prediction
        self.status, self.error, self.delay_s = status, error, delay_s
        self.finish_reason = finish_reason
        self.usage = usage
        self.requests: list[dict] = []
        self.headers: list[dict] = []
        self.app = FastAPI()
        self.app.post("/v1/chat/completions")(self._chat)

    async def _chat(self, request: Request):
        body = await request.json()
        self.requests.append(body)
        self.headers.append(dict(request.headers))
        if self.delay_s:
            time.sleep(self.delay_s)
        if self.refuse_prediction and "prediction" in body:
            # OpenAI's answer for a model without Predicted Outputs
            return JSONResponse({"error": {"message": "Invalid request: 'prediction' is not supported with this model.",
                                           "type": "invalid_request_error", "param": "prediction",
                                           "code": "unsupported_parameter"}}, status_code=400)
        if self.status != 200:
            return JSONResponse({"error": {"message": self.error, "type": "server_error"}}, status_code=self.status)
        content = self.answer(body)
        usage = {"prompt_tokens": 100, "completion_tokens": len(content) // 4, "total_tokens": 100 + len(content) // 4}
        usage.update(self.usage or {})
        return {
            "id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": body["model"],
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                         "finish_reason": self.finish_reason}],
            "usage": usage,
        }
