"""A real SMTP server for the tests (aiosmtpd): every message it accepts is written to a folder,
one JSON file each (envelope, headers, text and HTML parts), so the Rust tests can count and
read exactly what a mail server received.

Recipients at the domain slow.test are held for --slow-seconds before the server answers
RCPT TO, and each such wait is announced by a `<id>.rcpt` file holding the address: a test can
kill the sending process in that window, when the message is not accepted yet.

    python scripts/smtp_sink.py --dir DIR --port-file FILE [--port 0] [--slow-seconds 1.0]

Writes the port it listens on to --port-file once it accepts connections, then runs until
killed.
"""

import argparse
import asyncio
import json
import os
import signal
import socket
import threading
import uuid
from email import message_from_bytes, policy

from aiosmtpd.controller import Controller


class Sink:
    def __init__(self, folder, slow_seconds):
        self.folder = folder
        self.slow_seconds = slow_seconds

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.lower().endswith("@slow.test"):
            with open(os.path.join(self.folder, f"{uuid.uuid4().hex}.rcpt"), "w", encoding="utf-8") as out:
                out.write(address)
            await asyncio.sleep(self.slow_seconds)
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        message = message_from_bytes(envelope.content, policy=policy.default)
        text = message.get_body(preferencelist=("plain",))
        html = message.get_body(preferencelist=("html",))
        record = {
            "mail_from": envelope.mail_from,
            "rcpt_tos": envelope.rcpt_tos,
            "from": str(message.get("From", "")),
            "to": str(message.get("To", "")),
            "reply_to": str(message.get("Reply-To", "")),
            "message_id": str(message.get("Message-ID", "")),
            "list_unsubscribe": str(message.get("List-Unsubscribe", "")),
            "list_unsubscribe_post": str(message.get("List-Unsubscribe-Post", "")),
            "subject": str(message.get("Subject", "")),
            "text": text.get_content() if text is not None else "",
            "html": html.get_content() if html is not None else "",
        }
        name = f"{uuid.uuid4().hex}.json"
        # Written under a temporary name and renamed, so a reader never sees half a message.
        tmp = os.path.join(self.folder, f".{name}.tmp")
        with open(tmp, "w", encoding="utf-8") as out:
            json.dump(record, out)
        os.rename(tmp, os.path.join(self.folder, name))
        return "250 Message accepted for delivery"


def free_port(host):
    # aiosmtpd's Controller checks readiness by connecting to the port it was given, so it
    # needs a real number rather than 0.
    with socket.socket() as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", required=True)
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--slow-seconds", type=float, default=1.0)
    args = parser.parse_args()

    os.makedirs(args.dir, exist_ok=True)
    port = args.port or free_port(args.host)
    controller = Controller(Sink(args.dir, args.slow_seconds), hostname=args.host, port=port)
    controller.start()
    with open(args.port_file + ".tmp", "w", encoding="utf-8") as out:
        out.write(str(port))
    os.rename(args.port_file + ".tmp", args.port_file)
    print(f"SMTP sink on {args.host}:{port}, writing to {args.dir}", flush=True)

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    stop.wait()
    controller.stop()


if __name__ == "__main__":
    main()
