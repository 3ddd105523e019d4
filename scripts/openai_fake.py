"""A server that answers like OpenAI's chat completions API (POST /v1/chat/completions, objects
shaped as the API reference publishes them), for the browser tests and schemathesis (scripts/test
and scripts/schemathesis start it and point the server at it with OPENAI_BASE_URL), after a short
pause (a real model takes 30-60 s; the browser tests watch the jobs' states go by).

- A certificate reading (structured output whose `response_format.json_schema.name` is
  `certificate`) is answered with the certificate's facts, read only from the text of the user
  message, one fact per line, never invented (a field the text lacks is null):

      CERTIFICATE OF LIABILITY INSURANCE DATE (MM/DD/YYYY) 03/15/2026
      PRODUCER: Acme Insurance Agency
      INSURED: Granite Builders LLC
      INSURER A: Hartford Fire Insurance Co NAIC # 19682
      COMMERCIAL GENERAL LIABILITY | INSR A | ADDL INSD Y | SUBR WVD Y | POLICY GL-4431-09 | EFF 01/01/2026 | EXP 01/01/2027
      EACH OCCURRENCE $ 1,000,000
      GENERAL AGGREGATE $ 2,000,000
      CERTIFICATE HOLDER: Vendorwatch Demo Co

  A line row names its line (COMMERCIAL GENERAL LIABILITY, AUTOMOBILE LIABILITY, WORKERS
  COMPENSATION, UMBRELLA LIAB, PROFESSIONAL LIABILITY) and its insurer's letter; the limit rows
  under it (EACH OCCURRENCE, GENERAL AGGREGATE, PRODUCTS - COMP/OP AGG, COMBINED SINGLE LIMIT,
  E.L. EACH ACCIDENT, AGGREGATE, EACH CLAIM) are its limits, amounts as printed. Each field read
  gets a confidence of 0.95. The Rust tests' fake (tests/support/openai.rs, `certificate_for`)
  reads the same layout.
- Anything else (a blog draft) is answered with a short draft about the first target keyword of
  the request's prompt.

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


LINES = {
    "COMMERCIAL GENERAL LIABILITY": "general_liability",
    "AUTOMOBILE LIABILITY": "automobile",
    "WORKERS COMPENSATION": "workers_comp",
    "UMBRELLA LIAB": "umbrella",
    "PROFESSIONAL LIABILITY": "professional",
}

LIMITS = {
    "EACH OCCURRENCE": "eachOccurrence",
    "GENERAL AGGREGATE": "generalAggregate",
    "PRODUCTS - COMP/OP AGG": "productsCompletedOps",
    "COMBINED SINGLE LIMIT": "combinedSingleLimit",
    "E.L. EACH ACCIDENT": "employersLiabilityEachAccident",
    "AGGREGATE": "aggregate",
    "EACH CLAIM": "eachClaim",
}

# The model's confidence in each field it fills.
SCORE = 0.95


def is_certificate(request):
    response_format = request.get("response_format") or {}
    return (response_format.get("json_schema") or {}).get("name") == "certificate"


def user_text(request):
    """The text of the request's user message (its text parts, when it has parts)."""
    for message in reversed(request.get("messages", [])):
        if message.get("role") != "user":
            continue
        content = message.get("content")
        if isinstance(content, list):
            return "\n".join(part.get("text", "") for part in content if part.get("type") == "text")
        return content or ""
    return ""


def after(line, label):
    """What follows `label` on the line, trimmed; None when the line has no such label."""
    if label not in line:
        return None
    return line.split(label, 1)[1].strip() or None


def iso(us_date):
    """MM/DD/YYYY as YYYY-MM-DD; anything else as printed (the server notes what does not read)."""
    if not us_date:
        return None
    parts = us_date.strip().split("/")
    if len(parts) == 3 and all(p.isdigit() for p in parts):
        month, day, year = parts
        return f"{year}-{month.zfill(2)}-{day.zfill(2)}"
    return us_date.strip()


def certificate_for(request):
    """The certificate's facts, as the schema asks for them, from the user message's text alone."""
    out = {"certificateDate": None, "insured": None, "producer": None,
           "certificateHolder": None, "lines": [], "confidence": []}
    scored = []
    insurers = {}
    for line in user_text(request).splitlines():
        line = line.strip()
        if (date := after(line, "DATE (MM/DD/YYYY)")) is not None:
            out["certificateDate"] = iso(date)
            scored.append("certificateDate")
        elif (value := after(line, "CERTIFICATE HOLDER:")) is not None:
            out["certificateHolder"] = value
            scored.append("certificateHolder")
        elif (value := after(line, "PRODUCER:")) is not None:
            out["producer"] = value
            scored.append("producer")
        elif (value := after(line, "INSURED:")) is not None:
            out["insured"] = value
            scored.append("insured")
        elif line.startswith("INSURER "):
            # INSURER A: Hartford Fire Insurance Co NAIC # 19682
            letter, _, rest = line[len("INSURER "):].partition(":")
            name, _, naic = rest.partition("NAIC #")
            insurers[letter.strip()] = (name.strip() or None, naic.strip() or None)
        elif " | POLICY " in line:
            cells = [cell.strip() for cell in line.split(" | ")]

            def cell(label):
                return next((c[len(label):].strip() or None for c in cells if c.startswith(label)), None)

            insurer, naic = insurers.get(cell("INSR ") or "", (None, None))
            index = len(out["lines"])
            read = {
                "line": LINES.get(cells[0], cells[0]),
                "insurer": insurer,
                "naic": naic,
                "policyNumber": cell("POLICY "),
                "effectiveDate": iso(cell("EFF ")),
                "expirationDate": iso(cell("EXP ")),
                "limits": [],
                "additionalInsured": cell("ADDL INSD ") == "Y",
                "waiverOfSubrogation": cell("SUBR WVD ") == "Y",
            }
            out["lines"].append(read)
            scored.append(f"lines[{index}].line")
            for field in ("insurer", "naic", "policyNumber", "effectiveDate", "expirationDate"):
                if read[field] is not None:
                    scored.append(f"lines[{index}].{field}")
            for field, label in (("additionalInsured", "ADDL INSD "), ("waiverOfSubrogation", "SUBR WVD ")):
                if cell(label) is not None:
                    scored.append(f"lines[{index}].{field}")
        elif " $ " in line and out["lines"]:
            label, _, amount = line.partition(" $ ")
            limit = LIMITS.get(label.strip(), label.strip())
            last = out["lines"][-1]
            last["limits"].append({"limit": limit, "amount": amount.strip()})
            scored.append(f"lines[{len(out['lines']) - 1}].limits.{limit}")
    out["confidence"] = [{"field": field, "score": SCORE} for field in scored]
    return out


def answer_for(request):
    return certificate_for(request) if is_certificate(request) else draft_for(request)


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
        content = json.dumps(answer_for(body))
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
