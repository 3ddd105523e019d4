"""Checks of the scale-out topology that scripts/topology starts: readiness and request ids
through nginx (both servers answering), uploads readable back through either server (S3), and
the reminder sweep across two workers, where a day's reminders of an organization go out as one
email per recipient (the owner's notice listing every document, each vendor's request listing
its own) and every document is listed to each recipient exactly once, also when two sweeps run
at the same time.

    python scripts/check_topology.py TOPOLOGY_DIR SMTP_MESSAGES_DIR

Run by scripts/test with its virtualenv (requests) after the browser tests against the same
topology; SMTP_MESSAGES_DIR is where scripts/smtp_sink.py writes what it receives.
"""

import json
import re
import subprocess
import sys
import time
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta, timezone
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
TOPOLOGY = ROOT / "scripts" / "topology"
PASSWORD = "correct-horse-9"
PDF = b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"
# Per vendor: a document expiring in 7 days and one in 30 (the reminder offsets are 30, 7
# and 0 days: docs/decisions.md, 11): each has exactly one reminder due today (the 30-day
# one of the first is already past, so it collapses into today).
DOCUMENTS = [
    {"documentType": "coi", "coiType": "general_liability", "days": 7},
    {"documentType": "coi", "coiType": "workers_comp", "days": 30},
    {"documentType": "w9", "days": 7},
    {"documentType": "sales_tax", "days": 30},
]
WAIT_SECONDS = 90


class CheckFailed(Exception):
    pass


def expect(ok, what):
    if not ok:
        raise CheckFailed(what)


class Topology:
    def __init__(self, directory, messages):
        self.dir = Path(directory).resolve()
        self.url = (self.dir / "url").read_text().strip()
        self.messages = Path(messages)
        self.http = requests.Session()

    def call(self, method, path, token=None, **kwargs):
        headers = {"X-Request-Id": f"topology-{uuid.uuid4()}"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        response = self.http.request(method, self.url + path, headers=headers, timeout=30, **kwargs)
        expect(
            response.headers.get("X-Request-Id") == headers["X-Request-Id"],
            f"{method} {path}: X-Request-Id not echoed ({response.headers.get('X-Request-Id')!r})",
        )
        return response

    def sweep(self, day):
        """Runs `task reminders_sweep date:DAY` as an operator would; the number it handed on."""
        result = subprocess.run(
            [str(TOPOLOGY), "cli", str(self.dir), "task", "reminders_sweep", f"date:{day}"],
            capture_output=True, text=True, timeout=120,
        )
        found = re.search(r"(\d+) reminders handed to workers", result.stdout)
        expect(result.returncode == 0 and found, f"reminders_sweep failed:\n{result.stdout}\n{result.stderr}")
        return int(found.group(1))

    def sweeps_at_once(self, day):
        with ThreadPoolExecutor(2) as pool:
            return list(pool.map(self.sweep, [day, day]))

    def mail(self, recipients):
        """(recipient, subject, Message-ID) of every message the SMTP server took for these
        recipients."""
        found = []
        for path in self.messages.glob("*.json"):
            message = json.loads(path.read_text())
            for rcpt in message["rcpt_tos"]:
                if rcpt.lower() in recipients:
                    found.append((rcpt.lower(), message["subject"], message.get("message_id", "")))
        return found

    def jobs_done(self):
        """Reminder jobs done by each worker, from its metrics."""
        done = {}
        for line in (self.dir / "metrics").read_text().splitlines():
            name, address = line.split()
            if not name.startswith("worker"):
                continue
            text = requests.get(f"http://{address}/metrics", timeout=10).text
            done[name] = 0
            for labels, value in re.findall(r"^jobs_total\{([^}]*)\} (\S+)$", text, re.M):
                if 'worker="reminder"' in labels and 'outcome="done"' in labels:
                    done[name] = int(float(value))
        return done


def check_readiness(topology):
    """Four readiness probes through nginx: 200, every check ok, ids echoed, both servers used."""
    ids = []
    for _ in range(4):
        response = topology.call("GET", "/_readiness")
        expect(response.status_code == 200, f"/_readiness through nginx: {response.status_code} {response.text}")
        checks = response.json()["checks"]
        expect(checks == {"database": "ok", "queue": "ok", "storage": "ok"}, f"/_readiness checks: {checks}")
        ids.append(response.headers["X-Request-Id"])
    time.sleep(0.5)  # nginx writes its access log line after the answer
    upstreams = set()
    for line in (topology.dir / "logs" / "nginx-access.log").read_text().splitlines():
        entry = json.loads(line)
        if entry["request_id"] in ids:
            upstreams.add(entry["upstream_addr"])
    expect(len(upstreams) == 2, f"nginx sent the four probes to {upstreams}, not to both servers")
    logged = "".join((topology.dir / "logs" / f"server-{n}.log").read_text() for n in (1, 2))
    expect(all(f'"request_id":"{i}"' in logged for i in ids), "a request id is missing from the servers' logs")
    print(f"  /_readiness through nginx: 200, database, queue and storage ok, X-Request-Id echoed and "
          f"logged, served by {', '.join(sorted(upstreams))}")


def account_with_documents(topology, label, today):
    """A new organization with two vendors of four documents each; what their reminders send."""
    stamp = uuid.uuid4().hex[:10]
    user = f"topology-{stamp}@example.com"
    response = topology.call("POST", "/api/auth/register", json={
        "name": "Tess Topology", "email": user, "password": PASSWORD, "company": f"Topology {label} {stamp}",
    })
    expect(response.status_code == 201, f"register: {response.status_code} {response.text}")
    token = response.json()["token"]
    vendors = []
    for n in (1, 2):
        email = f"vendor-{stamp}-{n}@example.com"
        response = topology.call("POST", "/api/vendors", token, json={
            "name": f"Topology Vendor {n} {stamp}", "email": email, "serviceType": "plumbing",
        })
        expect(response.status_code == 201, f"create vendor: {response.status_code} {response.text}")
        vendor_id = response.json()["id"]
        for document in DOCUMENTS:
            fields = {key: value for key, value in document.items() if key != "days"}
            fields["expirationDate"] = (today + timedelta(days=document["days"])).isoformat()
            body = PDF + f"% {stamp} {n} {fields['documentType']} {fields.get('coiType')}\n".encode()
            response = topology.call("POST", f"/api/vendors/{vendor_id}/documents", token, data=fields,
                                     files={"file": (f"{fields['documentType']}.pdf", body, "application/pdf")})
            expect(response.status_code == 201, f"upload: {response.status_code} {response.text}")
            # Read back twice: nginx sends the two calls to the two servers, so each finds the
            # file in the shared storage.
            for _ in range(2):
                download = topology.call("GET", f"/api/documents/{response.json()['id']}/download", token)
                expect(download.status_code == 200 and download.content == body,
                       f"download through nginx: {download.status_code}, not the bytes uploaded")
        vendors.append(email)
    reminders = topology.call("GET", "/api/reminders", token).json()
    due = [r for r in reminders if r["reminderDate"] <= today.isoformat()]
    expect(len(due) == 2 * len(DOCUMENTS), f"{len(due)} reminders due today, expected {2 * len(DOCUMENTS)}")
    return {"token": token, "user": user, "vendors": vendors, "due": {r["id"] for r in due}}


def wait_until_sent(topology, account):
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        reminders = topology.call("GET", "/api/reminders", account["token"]).json()
        pending = [r["id"] for r in reminders if r["id"] in account["due"] and not r["sent"]]
        if not pending:
            return
        expect(time.monotonic() < deadline, f"{len(pending)} reminders still pending after {WAIT_SECONDS} s")
        time.sleep(0.5)


def documents_listed(subject):
    """How many documents a reminder email lists: "N documents of ..." (the notice) and "...
    asks for N renewed documents" (the request) list N; the single-document emails one."""
    found = re.match(r"(\d+) documents of ", subject) or re.search(r" asks for (\d+) renewed documents$", subject)
    return int(found.group(1)) if found else 1


def check_sent_once(topology, account, emails_each=1):
    """The day's reminders as one email per recipient (at most EMAILS_EACH when two sweeps split
    an organization's claims before a worker gathered them), none sent twice, and each document
    listed exactly once to each: the user all of them, each vendor its own."""
    expected = {account["user"]: 2 * len(DOCUMENTS), **{vendor: len(DOCUMENTS) for vendor in account["vendors"]}}
    deadline = time.monotonic() + WAIT_SECONDS

    def listed():
        counts = Counter()
        for rcpt, subject, _ in set(topology.mail(set(expected))):
            counts[rcpt] += documents_listed(subject)
        return counts

    while any(listed()[rcpt] < n for rcpt, n in expected.items()) and time.monotonic() < deadline:
        time.sleep(0.5)
    time.sleep(2)  # a duplicate would arrive right after
    received = topology.mail(set(expected))
    twice = {key: count for key, count in Counter(received).items() if count > 1}
    expect(not twice, f"emails sent more than once: {twice}")
    counts = listed()
    per_recipient = Counter(rcpt for rcpt, _, _ in set(received))
    for rcpt, n in expected.items():
        expect(counts[rcpt] == n, f"{counts[rcpt]} documents listed to {rcpt}, expected {n}: {sorted(received)}")
        expect(1 <= per_recipient[rcpt] <= emails_each,
               f"{per_recipient[rcpt]} reminder emails to {rcpt}, expected 1 (at most {emails_each}): {sorted(received)}")
    return len(set(received))


def main():
    topology = Topology(sys.argv[1], sys.argv[2])
    today = datetime.now(timezone.utc).date()
    check_readiness(topology)

    first = account_with_documents(topology, "A", today)
    print("  one organization, 2 vendors, 8 documents expiring in 7 and 30 days, uploaded and read "
          "back through both servers")
    handed = topology.sweep(today)
    expect(handed >= len(first["due"]), f"the sweep handed {handed} reminders to the workers")
    wait_until_sent(topology, first)
    emails = check_sent_once(topology, first)
    print(f"  one sweep ({handed} reminders): {emails} emails, one per recipient, each document listed once")

    second = account_with_documents(topology, "B", today)
    handed = topology.sweeps_at_once(today)
    wait_until_sent(topology, second)
    # Two sweeps at once: one claim statement waits for the other's and finds every reminder
    # claimed, and the first job to start gathers whatever both claimed; a second email is
    # possible only if one sweep's job started before the other's claims were written.
    emails = check_sent_once(topology, second, emails_each=2)
    check_sent_once(topology, first)
    print(f"  two sweeps at once over a second organization (handed {handed[0]} and {handed[1]}): "
          f"{emails} emails, each document listed once to each recipient; none again for the first")

    before = len(list(topology.messages.glob("*.json")))
    handed = topology.sweeps_at_once(today)
    expect(handed == [0, 0], f"two sweeps after everything was sent handed {handed} reminders on")
    time.sleep(3)
    after = len(list(topology.messages.glob("*.json")))
    expect(after == before, f"{after - before} emails went out after everything had been sent")
    print("  two more sweeps at once: nothing handed on, no email")

    done = topology.jobs_done()
    print("  reminder jobs done: " + ", ".join(f"{name} {count}" for name, count in sorted(done.items())))
    # One job per organization and sweep batch (the batch is far larger than 8 reminders).
    expect(sum(done.values()) >= 2, f"the workers report {done} reminder jobs done")
    if min(done.values()) == 0:
        print("  note: one worker ran every reminder job")


if __name__ == "__main__":
    try:
        main()
    except CheckFailed as failure:
        print(f"FAILED: {failure}", file=sys.stderr)
        sys.exit(1)
    print("Topology checks passed.")
