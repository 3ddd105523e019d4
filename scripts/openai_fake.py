"""A server that answers like OpenAI's chat completions API (POST /v1/chat/completions, objects
shaped as the API reference publishes them), for the browser tests and schemathesis (scripts/test
and scripts/schemathesis start it and point the server at it with OPENAI_BASE_URL). Each answer
is a short draft about the first target keyword of the request's prompt, after a short pause
(a real model takes 30-60 s; the browser tests watch the job's states go by).
The Rust tests use tests/support/openai.rs, a scripted server of their own.

Usage: python3 scripts/openai_fake.py <port> [delay-seconds]
"""

import json
import sys
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

API_KEY = "sk-test-vendorwatch-e2e"
PORT = int(sys.argv[1])
DELAY = float(sys.argv[2]) if len(sys.argv) > 2 else 1.5


def draft_for(request):
    prompt = request["messages"][-1]["content"]
    keyword = "vendor compliance"
    if "Target keywords: " in prompt:
        rest = prompt.split("Target keywords: ", 1)[1]
        keyword = rest.replace("\n", ",").replace(".", ",").split(",")[0].strip() or keyword
    return {
        "title": f"A practical guide to {keyword}",
        "metaDescription": f"What office managers need to know about {keyword}.",
        "tags": ["compliance", "vendors"],
        "content": (
            f"Keeping on top of **{keyword}** saves time.\n\n## Why it matters\n\n"
            "A lapsed document leaves you exposed.\n\n## Steps\n\n- Collect\n- Track\n- Renew\n"
        ),
    }


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def send_json(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path == "/_ping":
            self.send_json(200, {"ok": True})
        else:
            self.send_json(404, {"error": {"message": "Not found", "type": "invalid_request_error",
                                           "param": None, "code": None}})

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = json.loads(self.rfile.read(length) or b"{}")
        if self.headers.get("Authorization") != f"Bearer {API_KEY}":
            self.send_json(401, {"error": {"message": "Incorrect API key provided.",
                                           "type": "invalid_request_error", "param": None,
                                           "code": "invalid_api_key"}})
            return
        if self.path != "/v1/chat/completions":
            self.send_json(404, {"error": {"message": "Unknown path", "type": "invalid_request_error",
                                           "param": None, "code": None}})
            return
        time.sleep(DELAY)
        content = json.dumps(draft_for(body))
        self.send_json(200, {
            "id": f"chatcmpl-{uuid.uuid4().hex}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": f"{body.get('model', 'gpt-4o-mini')}-2024-07-18",
            "choices": [{
                "index": 0,
                "message": {"role": "assistant", "content": content, "refusal": None,
                            "annotations": []},
                "logprobs": None,
                "finish_reason": "stop",
            }],
            "usage": {
                "prompt_tokens": 412, "completion_tokens": 1630, "total_tokens": 2042,
                "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
                "completion_tokens_details": {"reasoning_tokens": 0, "audio_tokens": 0,
                                              "accepted_prediction_tokens": 0,
                                              "rejected_prediction_tokens": 0},
            },
            "service_tier": "default",
            "system_fingerprint": "fp_vendorwatch",
        })


ThreadingHTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
