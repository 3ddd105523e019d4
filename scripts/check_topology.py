"""Checks of the scale-out topology that scripts/topology starts: readiness and request ids
through nginx (both servers answering), uploads readable back through either server (S3), and
the reminder sweep across two workers, where every reminder email goes out exactly once, also
when two sweeps run at the same time.

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
        """(recipient, subject) of every message the SMTP server took for these recipients."""
        found = []
        for path in self.messages.glob("*.json"):
            message = json.loads(path.read_text())
            for rcpt in message["rcpt_tos"]:
                if rcpt.lower() in recipients:
                    found.append((rcpt.lower(), message["subject"]))
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


def check_sent_once(topology, account):
    """Each document's notice to the user and renewal request to its vendor, exactly once."""
    recipients = {account["user"], *account["vendors"]}
    expected = 2 * 2 * len(DOCUMENTS)
    deadline = time.monotonic() + WAIT_SECONDS
    while len(topology.mail(recipients)) < expected and time.monotonic() < deadline:
        time.sleep(0.5)
    time.sleep(2)  # a duplicate would arrive right after
    sent = Counter(topology.mail(recipients))
    twice = {key: count for key, count in sent.items() if count > 1}
    expect(not twice, f"emails sent more than once: {twice}")
    per_recipient = Counter(rcpt for rcpt, _ in sent)
    expect(per_recipient[account["user"]] == 2 * len(DOCUMENTS),
           f"{per_recipient[account['user']]} notices to the user, expected {2 * len(DOCUMENTS)}: {sorted(sent)}")
    for vendor in account["vendors"]:
        expect(per_recipient[vendor] == len(DOCUMENTS),
               f"{per_recipient[vendor]} renewal requests to {vendor}, expected {len(DOCUMENTS)}")
    return len(sent)


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
    print(f"  one sweep ({handed} reminders): {emails} emails, each sent once")

    second = account_with_documents(topology, "B", today)
    handed = topology.sweeps_at_once(today)
    wait_until_sent(topology, second)
    emails = check_sent_once(topology, second)
    check_sent_once(topology, first)
    print(f"  two sweeps at once over a second organization (handed {handed[0]} and {handed[1]}): "
          f"{emails} emails, each sent once; none again for the first")

    before = len(list(topology.messages.glob("*.json")))
    handed = topology.sweeps_at_once(today)
    expect(handed == [0, 0], f"two sweeps after everything was sent handed {handed} reminders on")
    time.sleep(3)
    after = len(list(topology.messages.glob("*.json")))
    expect(after == before, f"{after - before} emails went out after everything had been sent")
    print("  two more sweeps at once: nothing handed on, no email")

    done = topology.jobs_done()
    print("  reminder jobs done: " + ", ".join(f"{name} {count}" for name, count in sorted(done.items())))
    expect(sum(done.values()) >= 2 * len(first["due"]), f"the workers report {done} reminder jobs done")
    if min(done.values()) == 0:
        print("  note: one worker ran every reminder job")


if __name__ == "__main__":
    try:
        main()
    except CheckFailed as failure:
        print(f"FAILED: {failure}", file=sys.stderr)
        sys.exit(1)
    print("Topology checks passed.")
