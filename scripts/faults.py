"""The fault scenarios (every acknowledged write kept, every job done once) against the production topology (scripts/topology), run by
scripts/faults, which sets up the virtualenv and passes the settings (its header lists them).

Each scenario starts a topology of its own (nginx, two servers, two workers, the scheduler) on
this script's PostgreSQL cluster, Redis, S3 (moto) and SMTP sink (scripts/smtp_sink.py), does
its fault, checks the invariants and stops the topology:

  uploads   SIGKILL a server while uploads are in flight; every upload answered 201 is listed
            and downloads with its bytes; rows and stored files match (after storage_orphans,
            the app's own clean-up); the killed server, started again, serves.
  worker    SIGKILL a worker half way through a reminder batch and start it again; every
            reminder email arrives as exactly one message (one Message-ID; the next sweep
            re-claims what the dead worker held once its claims are stale).
  worker-accept  the same, with both workers killed the moment the SMTP server has accepted a
            message (its file appears in the sink's folder), before its sender records it: that
            email is sent again under the same Message-ID (counted, not failed).
  redis     restart Redis half way through a batch of queued jobs (reminders, keyword chunks,
            a password reset); the workers and servers reconnect by themselves; what the restart
            lost is counted and recovered from the database (reminders_sweep, keyword_ingests,
            outgoing_emails); every email exactly once, every keyword once. Once per Redis
            persistence mode.
  postgres  restart PostgreSQL (pg_ctl restart -m fast, then a stop with a few seconds down)
            under a load of reads and uploads; the servers answer 500/503 at worst, recover
            without a restart, and every acknowledged upload is there.

Prints what it did and found; writes the results between the markers of the report
(FAULTS_REPORT); exits 1 when an invariant fails.
"""

import hashlib
import json
import os
import platform
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import traceback
import uuid
from collections import Counter
from datetime import datetime, timedelta, timezone
from pathlib import Path

import boto3
import requests

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "correct-horse-9"
PDF_HEAD = b"%PDF-1.4\n"
PDF_TAIL = b"\n%%EOF\n"
# A reminder batch, per vendor: two documents expiring in 7 days and two in 30 (the offsets are
# 30, 7 and 0 days), so each has exactly one reminder due today (scripts/check_topology.py).
REMINDER_DOCUMENTS = [
    {"documentType": "coi", "coiType": "general_liability", "days": 7},
    {"documentType": "coi", "coiType": "workers_comp", "days": 30},
    {"documentType": "w9", "days": 7},
    {"documentType": "sales_tax", "days": 30},
]
RESETS = 4  # password resets asked for after the Redis restart (the limit is 5 an hour)
RESULTS_BEGIN = "<!-- faults:results -->"
RESULTS_END = "<!-- /faults:results -->"


def env(name, default=None):
    value = os.environ.get(name, default)
    if value is None:
        sys.exit(f"faults: {name} is not set (run scripts/faults)")
    return value


WORK = Path(env("FAULTS_WORK"))
BIN = env("FAULTS_BIN")
SHADOW = Path(env("FAULTS_SHADOW_ROOT"))
TOPOLOGY_PORT = int(env("FAULTS_TOPOLOGY_PORT", "5710"))
PG_PORT = int(env("FAULTS_PG_PORT", "5718"))
REDIS_PORT = int(env("FAULTS_REDIS_PORT", "5719"))
S3_PORT = int(env("FAULTS_S3_PORT", "5720"))
SMTP_PORT = int(env("FAULTS_SMTP_PORT", "5721"))
SCENARIOS = env("FAULTS_SCENARIOS", "uploads worker worker-accept redis postgres").split()
REDIS_MODES = env("FAULTS_REDIS_MODES", "none aof").split()
CLAIM_TIMEOUT = int(env("FAULTS_CLAIM_TIMEOUT", "20"))
SLOW_SECONDS = float(env("FAULTS_SLOW_SECONDS", "0.3"))
REPORT = env("FAULTS_REPORT", "")
COMMAND = env("FAULTS_COMMAND", "scripts/faults")
VENV = Path(sys.executable).parent
PG_BIN = Path(env("FAULTS_PG_BIN", "/usr/lib/postgresql/15/bin"))
MAIL = WORK / "mail"


def log(message):
    print(f"[{datetime.now().strftime('%H:%M:%S')}] {message}", flush=True)


class Failed(Exception):
    pass


def run(args, timeout=120, check=True, **kwargs):
    result = subprocess.run(args, capture_output=True, text=True, timeout=timeout, **kwargs)
    if check and result.returncode != 0:
        raise Failed(f"{' '.join(map(str, args))} exited {result.returncode}:\n{result.stdout}\n{result.stderr}")
    return result


def reachable(port):
    with socket.socket() as probe:
        probe.settimeout(0.5)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def wait_until(what, predicate, seconds, step=0.25):
    deadline = time.monotonic() + seconds
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise Failed(f"{what}: not within {seconds} s")
        time.sleep(step)


def alive(pid):
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def sha(data):
    return hashlib.sha256(data).hexdigest()


# ---------------------------------------------------------------------------------------------
# The services this run owns: S3 (moto), the SMTP sink, Redis and a PostgreSQL cluster. Each pid
# is written under WORK/pids, where scripts/faults' trap finds it if this process dies.


class Services:
    def __init__(self):
        (WORK / "pids").mkdir(parents=True, exist_ok=True)
        self.procs = {}
        self.redis_mode = None
        self.pg_dir = WORK / "pg"
        self.as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []

    def spawn(self, name, args, logfile):
        out = open(logfile, "ab")
        proc = subprocess.Popen(args, stdout=out, stderr=out, stdin=subprocess.DEVNULL, start_new_session=True)
        self.procs[name] = proc
        (WORK / "pids" / f"{name}.pid").write_text(f"{proc.pid}\n")
        return proc

    def end(self, name, sig=signal.SIGTERM, seconds=15):
        proc = self.procs.pop(name, None)
        if proc is None:
            return
        if proc.poll() is None:
            proc.send_signal(sig)
            try:
                proc.wait(seconds)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        (WORK / "pids" / f"{name}.pid").unlink(missing_ok=True)

    def start_s3(self):
        self.spawn("moto", [str(VENV / "moto_server"), "-H", "127.0.0.1", "-p", str(S3_PORT)], WORK / "moto.log")
        wait_until("moto's S3 server", lambda: reachable(S3_PORT), 60)

    def s3(self):
        return boto3.client("s3", endpoint_url=f"http://127.0.0.1:{S3_PORT}", region_name="us-east-1",
                            aws_access_key_id="test", aws_secret_access_key="test")

    def s3_keys(self, bucket):
        keys = set()
        for page in self.s3().get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix="documents/"):
            keys.update(obj["Key"].lstrip("/") for obj in page.get("Contents", []))
        return keys

    def start_smtp(self):
        MAIL.mkdir(parents=True, exist_ok=True)
        port_file = WORK / "smtp.port"
        self.spawn("smtp", [sys.executable, str(ROOT / "scripts" / "smtp_sink.py"), "--dir", str(MAIL),
                            "--port-file", str(port_file), "--port", str(SMTP_PORT),
                            "--slow-seconds", str(SLOW_SECONDS)], WORK / "smtp.log")
        wait_until("the SMTP sink", port_file.exists, 30)

    # Redis: `none` is `--save '' --appendonly no` (a restart loses everything it held);
    # `aof` is `--appendonly yes`, as deploy/compose.yaml runs it (fsync every second).
    def start_redis(self, mode):
        self.redis_mode = mode
        folder = WORK / f"redis-{mode}"
        folder.mkdir(exist_ok=True)
        persistence = ["--appendonly", "yes", "--appendfsync", "everysec"] if mode == "aof" else ["--appendonly", "no"]
        self.spawn("redis", ["redis-server", "--port", str(REDIS_PORT), "--bind", "127.0.0.1", "--save", "",
                             *persistence, "--dir", str(folder), "--daemonize", "no"], folder / "redis.log")
        wait_until("Redis", lambda: self.redis("PING").strip() == "PONG", 30)

    def stop_redis(self):
        # SIGTERM: Redis's own shutdown (with AOF it flushes the file first).
        self.end("redis", signal.SIGTERM, 30)

    def redis(self, *args, db=0):
        result = subprocess.run(["redis-cli", "-h", "127.0.0.1", "-p", str(REDIS_PORT), "-n", str(db), *args],
                                capture_output=True, text=True, timeout=10)
        return result.stdout

    def queue_state(self):
        """(jobs waiting in queue:default, jobs in processing:default)."""
        try:
            waiting = int(self.redis("ZCARD", "queue:default").strip() or 0)
            processing = int(self.redis("SCARD", "processing:default").strip() or 0)
        except ValueError:
            return None, None
        return waiting, processing

    def pg_ctl(self, *args, timeout=120):
        return run([*self.as_postgres, str(PG_BIN / "pg_ctl"), "-D", str(self.pg_dir / "data"),
                    "-l", str(self.pg_dir / "postgres.log"), *args], timeout=timeout)

    def start_postgres(self):
        self.pg_dir.mkdir()
        if self.as_postgres:
            os.chmod(WORK, 0o711)
            run(["chown", "postgres", str(self.pg_dir)])
        run([*self.as_postgres, str(PG_BIN / "initdb"), "-D", str(self.pg_dir / "data"), "-U", "postgres",
             "--auth=trust", "-E", "UTF8", "--no-sync"])
        opts = f"-p {PG_PORT} -k {self.pg_dir} -c listen_addresses=127.0.0.1 -c max_connections=200"
        (self.pg_dir / "opts").write_text(opts)
        self.pg_ctl("-o", opts, "-w", "start")

    def pg_opts(self):
        return (self.pg_dir / "opts").read_text()

    def stop_postgres(self):
        if (self.pg_dir / "data" / "postmaster.pid").exists():
            self.pg_ctl("-m", "fast", "-w", "stop", timeout=60)

    def pg_url(self, database="postgres"):
        return f"postgres://postgres@127.0.0.1:{PG_PORT}/{database}"

    def pg_ready(self):
        return run(["pg_isready", "-q", "-h", "127.0.0.1", "-p", str(PG_PORT)], check=False, timeout=10).returncode == 0

    def close(self):
        for name in list(self.procs):
            if name == "redis":
                self.stop_redis()
            else:
                self.end(name)
        try:
            self.stop_postgres()
        except Exception as err:  # noqa: BLE001 - teardown goes on
            log(f"stopping PostgreSQL: {err}")


# ---------------------------------------------------------------------------------------------
# A topology of scripts/topology, run from the shadow root (scripts/faults: the repository's
# config with claim_timeout_seconds shortened, and its assets).


class Topology:
    def __init__(self, services, name):
        self.services = services
        self.name = name
        self.dir = WORK / f"topology-{name}"
        # A bucket of its own: the stored files of one scenario are compared with its rows only.
        self.bucket = f"vendorwatch-faults-{name}"
        self.started = False
        self.spawned = []

    def script(self, *args, timeout=300, check=True):
        env = dict(os.environ)
        env.update({
            "VENDORWATCH_BIN": BIN,
            "TOPOLOGY_PORT": str(TOPOLOGY_PORT),
            "TOPOLOGY_S3_ENDPOINT": f"http://127.0.0.1:{S3_PORT}",
            "TOPOLOGY_S3_BUCKET": self.bucket,
            "TOPOLOGY_SMTP_PORT": str(SMTP_PORT),
            "TOPOLOGY_POSTGRES_URL": self.services.pg_url(),
            "TOPOLOGY_QUEUE_URL": f"redis://127.0.0.1:{REDIS_PORT}/0",
            "TOPOLOGY_RATE_LIMIT_REDIS_URL": f"redis://127.0.0.1:{REDIS_PORT}/1",
        })
        return run([str(SHADOW / "scripts" / "topology"), *args], timeout=timeout, check=check, env=env)

    def start(self):
        log(f"topology start {self.dir}")
        self.services.s3().create_bucket(Bucket=self.bucket)
        self.started = True
        self.url = self.script("start", str(self.dir)).stdout.strip().splitlines()[-1]
        self.database = (self.dir / "database").read_text().strip()
        return self

    def stop(self):
        if self.started and (self.dir / "pids").is_dir():
            result = self.script("stop", str(self.dir), check=False)
            if result.returncode != 0:
                log(f"topology stop: {result.stderr.strip()}")
        for proc in self.spawned:
            proc.poll()
        self.started = False

    def cli(self, *args, timeout=300):
        return self.script("cli", str(self.dir), *args, timeout=timeout).stdout

    def psql(self, sql):
        result = run(["psql", "-X", "-q", "-tA", "-v", "ON_ERROR_STOP=1",
                      self.services.pg_url(self.database), "-c", sql], timeout=60)
        return [line for line in result.stdout.splitlines() if line != ""]

    def pid(self, name):
        return int((self.dir / "pids" / f"{name}.pid").read_text())

    def port_of(self, name):
        return TOPOLOGY_PORT + int(name.split("-")[1])

    def command_of(self, name):
        """The extra environment and arguments scripts/topology starts NAME with."""
        n = int(name.split("-")[1])
        if name.startswith("server-"):
            return {"METRICS_LISTEN": f"127.0.0.1:{TOPOLOGY_PORT + 2 + n}", "PORT": str(TOPOLOGY_PORT + n)}, ["start"]
        return {"METRICS_LISTEN": f"127.0.0.1:{TOPOLOGY_PORT + 4 + n}"}, ["start", "--worker"]

    def kill(self, *names):
        """SIGKILL to each of NAMES at once; waits for them to die. The pids, and when (UTC)."""
        pids = [self.pid(name) for name in names]
        for pid in pids:
            os.kill(pid, signal.SIGKILL)
        at = wall()
        for name, pid in zip(names, pids):
            wait_until(f"{name} (pid {pid}) to die", lambda p=pid: not alive(p), 10, 0.05)
        self.killed_at_wall = at
        return pids[0] if len(pids) == 1 else pids

    def restart(self, name):
        """Starts NAME again with the command line and environment scripts/topology gave it: in
        DIR/app, DIR/env and nothing else but PATH, HOME and TMPDIR, a session of its own, its log
        appended to DIR/logs/NAME.log, its pid in DIR/pids (so `topology stop` stops it)."""
        extra, args = self.command_of(name)
        environment = {"PATH": os.environ["PATH"], "HOME": os.environ["HOME"], "TMPDIR": os.environ.get("TMPDIR", "/tmp")}
        for line in (self.dir / "env").read_text().splitlines():
            if line:
                key, value = line.split("=", 1)
                environment[key] = value
        environment.update(extra)
        out = open(self.dir / "logs" / f"{name}.log", "ab")
        out.write(f'{{"faults":"{name} started again"}}\n'.encode())
        out.flush()
        proc = subprocess.Popen([BIN, *args], cwd=self.dir / "app", env=environment, stdout=out, stderr=out,
                                stdin=subprocess.DEVNULL, start_new_session=True)
        self.spawned.append(proc)
        (self.dir / "pids" / f"{name}.pid").write_text(f"{proc.pid}\n")
        return proc.pid

    def wait_worker_ready(self, name, seconds=60):
        address = f"127.0.0.1:{self.command_of(name)[0]['METRICS_LISTEN'].split(':')[1]}"

        def ready():
            try:
                return requests.get(f"http://{address}/metrics", timeout=2).status_code == 200
            except requests.RequestException:
                return False

        wait_until(f"{name} to answer its metrics", ready, seconds)

    def ready(self, port):
        try:
            return requests.get(f"http://127.0.0.1:{port}/_readiness", timeout=5).status_code == 200
        except requests.RequestException:
            return False

    def readiness(self, port):
        try:
            response = requests.get(f"http://127.0.0.1:{port}/_readiness", timeout=5)
            return response.status_code, response.json().get("checks")
        except (requests.RequestException, ValueError) as err:
            return None, str(err)

    def jobs_done(self, worker):
        """jobs_total{outcome="done"} of a worker's metrics, by worker kind."""
        address = self.command_of(worker)[0]["METRICS_LISTEN"]
        text = requests.get(f"http://{address}/metrics", timeout=5).text
        done = Counter()
        for labels, value in re.findall(r"^jobs_total\{([^}]*)\} (\S+)$", text, re.M):
            kind = re.search(r'worker="([^"]*)"', labels)
            if kind and 'outcome="done"' in labels:
                done[kind.group(1)] += int(float(value))
        return done

    def log_lines(self, name, pattern):
        path = self.dir / "logs" / f"{name}.log"
        return [line for line in path.read_text(errors="replace").splitlines() if re.search(pattern, line)]


# ---------------------------------------------------------------------------------------------
# The HTTP API, through nginx.


class Api:
    def __init__(self, url):
        self.url = url
        self.http = requests.Session()

    def call(self, method, path, token=None, session=None, timeout=60, **kwargs):
        headers = kwargs.pop("headers", {})
        headers["X-Request-Id"] = f"faults-{uuid.uuid4()}"
        if token:
            headers["Authorization"] = f"Bearer {token}"
        return (session or self.http).request(method, self.url + path, headers=headers, timeout=timeout, **kwargs)

    def expect(self, response, status, what):
        if response.status_code != status:
            raise Failed(f"{what}: {response.status_code} {response.text[:300]}")
        return response

    def register(self, label, domain="example.com"):
        stamp = uuid.uuid4().hex[:10]
        email = f"owner-{stamp}@{domain}"
        response = self.expect(self.call("POST", "/api/auth/register", json={
            "name": "Fay Faults", "email": email, "password": PASSWORD, "company": f"Faults {label} {stamp}",
        }), 201, "register")
        return response.json()["token"], email, stamp

    def vendor(self, token, name, email):
        response = self.expect(self.call("POST", "/api/vendors", token, json={
            "name": name, "email": email, "serviceType": "plumbing",
        }), 201, "create vendor")
        return response.json()["id"]

    def upload(self, token, vendor_id, body, fields, session=None, timeout=60):
        return self.call("POST", f"/api/vendors/{vendor_id}/documents", token, session=session, timeout=timeout,
                         data=fields, files={"file": ("faults.pdf", body, "application/pdf")})


def pdf(size, rnd=random):
    return PDF_HEAD + rnd.randbytes(size) + PDF_TAIL


def professional_orgs(api, topology, count, vendors):
    """COUNT organizations on the Professional plan (no document limit), VENDORS vendors each."""
    orgs = []
    for i in range(count):
        token, email, stamp = api.register(f"pro {i}")
        topology.cli("task", "set_plan", f"email:{email}", "plan:professional")
        ids = [api.vendor(token, f"Vendor {n} {stamp}", f"vendor-{stamp}-{n}@example.com") for n in range(vendors)]
        orgs.append({"token": token, "email": email, "vendors": ids})
    return orgs


class Load:
    """Threads calling the API until stopped; every call recorded (start, end, kind, status)."""

    def __init__(self, api):
        self.api = api
        self.records = []
        self.lock = threading.Lock()
        self.stop_flag = threading.Event()
        self.threads = []
        self.in_flight = Counter()

    def add(self, kind, count, body):
        for n in range(count):
            thread = threading.Thread(target=self.loop, args=(kind, n, body), daemon=True)
            self.threads.append(thread)

    def loop(self, kind, n, body):
        session = requests.Session()
        rnd = random.Random(f"{kind}-{n}-{time.time()}")
        while not self.stop_flag.is_set():
            record = {"kind": kind, "t0": time.monotonic()}
            with self.lock:
                self.in_flight[kind] += 1
            try:
                response, extra = body(session, rnd)
                record["status"] = response.status_code
                record.update(extra(response) if callable(extra) else extra)
            except requests.RequestException as err:
                record["status"] = type(err).__name__
            record["t1"] = time.monotonic()
            with self.lock:
                self.in_flight[kind] -= 1
                self.records.append(record)

    def start(self):
        for thread in self.threads:
            thread.start()
        return self

    def stop(self):
        self.stop_flag.set()
        for thread in self.threads:
            thread.join(120)


def upload_body(api, orgs, sizes):
    """A load body: one upload of random bytes (type `other`, which never supersedes) to a random
    vendor of a random organization; the record keeps what a check needs."""

    def body(session, rnd):
        org = rnd.choice(orgs)
        vendor_id = rnd.choice(org["vendors"])
        data = pdf(rnd.choice(sizes), rnd)
        response = api.upload(org["token"], vendor_id, data, {"documentType": "other"}, session=session)

        def extra(resp):
            doc = resp.json().get("id") if resp.status_code == 201 else None
            return {"org": org, "vendor": vendor_id, "sha": sha(data), "id": doc}

        return response, extra

    return body


def check_uploads(api, services, topology, records):
    """Every upload answered 201 is listed under its vendor and downloads with its bytes; rows
    and stored files compared before and after storage_orphans. Returns (facts, failures)."""
    failures = []
    acked = [r for r in records if r["kind"] == "upload" and r["status"] == 201]
    listed = {}
    for org in {id(r["org"]): r["org"] for r in records if r["kind"] == "upload"}.values():
        for vendor_id in org["vendors"]:
            response = api.call("GET", f"/api/vendors/{vendor_id}/documents", org["token"])
            api.expect(response, 200, "list a vendor's documents")
            listed.update({doc["id"]: vendor_id for doc in response.json()})
    missing = [r for r in acked if listed.get(r["id"]) != r["vendor"]]
    missing_ids = {r["id"] for r in missing}
    wrong_bytes = []
    for r in acked:
        if r["id"] in missing_ids:
            continue
        download = api.call("GET", f"/api/documents/{r['id']}/download", r["org"]["token"])
        if download.status_code != 200 or sha(download.content) != r["sha"]:
            wrong_bytes.append((r["id"], download.status_code))
    acked_ids = {r["id"] for r in acked}
    unanswered_but_stored = len([d for d in listed if d not in acked_ids])
    if missing:
        failures.append(f"{len(missing)} uploads answered 201 are not listed: {[r['id'] for r in missing][:10]}")
    if wrong_bytes:
        failures.append(f"{len(wrong_bytes)} acknowledged uploads do not download with their bytes: {wrong_bytes[:10]}")

    rows = set(k.lstrip("/") for k in topology.psql("SELECT storage_key FROM documents"))
    files = services.s3_keys(topology.bucket)
    orphan_files = sorted(files - rows)
    rows_without_file = sorted(rows - files)
    cleanup = topology.cli("task", "storage_orphans", "min_age_minutes:0")
    removed = [line for line in cleanup.splitlines() if line.startswith("removed ")]
    rows_after = set(k.lstrip("/") for k in topology.psql("SELECT storage_key FROM documents"))
    files_after = services.s3_keys(topology.bucket)
    if rows_without_file:
        failures.append(f"{len(rows_without_file)} document rows without their file: {rows_without_file[:5]}")
    if files_after - rows_after:
        failures.append(f"{len(files_after - rows_after)} stored files without a row after storage_orphans")
    if rows_after - files_after:
        failures.append(f"{len(rows_after - files_after)} rows without a file after storage_orphans")
    facts = {
        "acknowledged": len(acked),
        "acknowledged_found": len(acked) - len(missing) - len(wrong_bytes),
        "stored_without_201": unanswered_but_stored,
        "rows": len(rows),
        "files": len(files),
        "orphan_files_before_cleanup": len(orphan_files),
        "rows_without_file": len(rows_without_file),
        "storage_orphans_removed": len(removed),
        "orphans_after_cleanup": len(files_after - rows_after),
    }
    return facts, failures


def statuses(records, kind=None):
    return dict(Counter(str(r["status"]) for r in records if kind is None or r["kind"] == kind))


# ---------------------------------------------------------------------------------------------
# Reminder batches: organizations whose owner and vendors have addresses at slow.test (the SMTP
# sink holds each such recipient SLOW_SECONDS before accepting it, so a batch takes a while).


def reminder_orgs(api, count, today, domain="slow.test"):
    orgs = []
    for i in range(count):
        token, email, stamp = api.register(f"reminders {i}", domain=domain)
        vendors = []
        for n in (1, 2):
            vendor_email = f"vendor-{stamp}-{n}@{domain}"
            vendor_id = api.vendor(token, f"Reminder Vendor {n} {stamp}", vendor_email)
            for doc in REMINDER_DOCUMENTS:
                fields = {k: v for k, v in doc.items() if k != "days"}
                fields["expirationDate"] = (today + timedelta(days=doc["days"])).isoformat()
                api.expect(api.upload(token, vendor_id, pdf(2000), fields), 201, "upload a reminder document")
            vendors.append(vendor_email)
        orgs.append({"token": token, "owner": email, "vendors": vendors})
    return orgs


def expected_emails(orgs):
    """Per recipient, how many reminder emails: a day's reminders of an organization go out as
    one notice to the owner (every vendor's documents) and one renewal request to each vendor
    (its own documents)."""
    expected = Counter()
    for org in orgs:
        expected[org["owner"]] += 1
        for vendor in org["vendors"]:
            expected[vendor] += 1
    return expected


def expected_listings(orgs):
    """How many (reminder, recipient) pairs the emails cover, one `reminder_deliveries` row
    each: the owner every document, each vendor its own."""
    return sum(2 * len(org["vendors"]) * len(REMINDER_DOCUMENTS) for org in orgs)


def mail_received(recipients):
    """(recipient, subject, Message-ID) of every message the sink took for these recipients."""
    found = []
    for path in MAIL.glob("*.json"):
        try:
            message = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        for rcpt in message["rcpt_tos"]:
            if rcpt.lower() in recipients:
                found.append((rcpt.lower(), message["subject"], message.get("message_id", "")))
    return found


def mail_times(rcpt, subject):
    """When the sink wrote each message of RCPT with SUBJECT (UTC, ms)."""
    times = []
    for path in MAIL.glob("*.json"):
        message = json.loads(path.read_text())
        if rcpt in [r.lower() for r in message["rcpt_tos"]] and message["subject"] == subject:
            times.append(wall(path.stat().st_mtime))
    return sorted(times)


def wall(epoch=None):
    return datetime.fromtimestamp(time.time() if epoch is None else epoch, timezone.utc).strftime("%H:%M:%S.%f")[:-3]


def sweep(topology):
    output = topology.cli("task", "reminders_sweep")
    found = re.search(r"(\d+) reminders handed to workers", output)
    if not found:
        raise Failed(f"reminders_sweep: {output}")
    return int(found.group(1))


def unsent_reminders(topology, today):
    return int(topology.psql(f"SELECT count(*) FROM reminders WHERE sent_at IS NULL AND reminder_date <= '{today}'")[0])


def part_delivered(topology):
    """Unsent reminders with some of their emails accepted and recorded (a job cut short)."""
    return int(topology.psql("SELECT count(DISTINCT r.id) FROM reminders r JOIN reminder_deliveries d "
                             "ON d.reminder_id = r.id WHERE r.sent_at IS NULL")[0])


def due_reminders(topology, today):
    return int(topology.psql(f"SELECT count(*) FROM reminders WHERE reminder_date <= '{today}'")[0])


def wait_drained(services, topology, today, quiet=6, seconds=180):
    """Waits until the queue holds nothing and the unsent count has not moved for QUIET s."""
    deadline = time.monotonic() + seconds
    last, since = None, time.monotonic()
    while time.monotonic() < deadline:
        waiting, _ = services.queue_state()
        unsent = unsent_reminders(topology, today)
        if unsent != last:
            last, since = unsent, time.monotonic()
        if waiting == 0 and (unsent == 0 or time.monotonic() - since >= quiet):
            return unsent
        time.sleep(0.5)
    raise Failed(f"the queue did not drain within {seconds} s ({last} reminders unsent)")


def check_emails(topology, orgs, today, failures):
    """Every reminder email went out as one message: each (recipient, subject) under one
    Message-ID. The same message taken twice by the server (a worker died between the server's
    acceptance and its record, and the next claim sent it again under the same Message-ID) is
    counted and shown, not failed: SMTP cannot tell the sender whether the server took it."""
    expected = expected_emails(orgs)
    recipients = set(expected)
    total = sum(expected.values())
    wait_until("every reminder email", lambda: len(mail_received(recipients)) >= total, 60)
    time.sleep(3)  # a duplicate would come right after
    received = mail_received(recipients)
    messages = set(received)
    per_email = Counter((rcpt, subject) for rcpt, subject, _ in messages)
    twice = {k: v for k, v in per_email.items() if v > 1}
    repeated = {k: v for k, v in Counter(received).items() if v > 1}
    without_id = [m for m in messages if not m[2]]
    per_recipient = Counter(rcpt for rcpt, _, _ in messages)
    wrong = {r: (per_recipient[r], n) for r, n in expected.items() if per_recipient[r] != n}
    deliveries = int(topology.psql("SELECT count(*) FROM reminder_deliveries")[0])
    unsent = unsent_reminders(topology, today)

    def evidence_of(rcpt, subject):
        return {"recipient": rcpt, "subject": subject,
                "message_ids": sorted({m for r, s, m in received if r == rcpt and s == subject}),
                "accepted_by_the_smtp_server_at": mail_times(rcpt, subject),
                "reminder_deliveries_rows": topology.psql(
                    "SELECT reminder_id || ' ' || kind || ' ' || to_char(created_at AT TIME ZONE 'UTC', "
                    "'HH24:MI:SS.MS') FROM reminder_deliveries WHERE recipient = '" + rcpt + "' ORDER BY created_at")}

    if twice:
        failures.append(f"{sum(v - 1 for v in twice.values())} emails sent as more than one message: {list(twice.items())[:5]}")
    if without_id:
        failures.append(f"{len(without_id)} messages without a Message-ID: {without_id[:3]}")
    if wrong:
        failures.append(f"recipients with the wrong number of emails (got, expected): {list(wrong.items())[:5]}")
    if unsent:
        failures.append(f"{unsent} due reminders still unsent")
    listings = expected_listings(orgs)
    if deliveries != listings:
        failures.append(f"the database records {deliveries} deliveries (one per reminder and recipient), "
                        f"{listings} expected for the {len(messages)} messages received")
    facts = {"emails_expected": total, "messages_received": len(messages),
             "duplicates": sum(v - 1 for v in twice.values()),
             "sent_again_as_the_same_message": sum(v - 1 for v in repeated.values()),
             "deliveries_recorded": deliveries, "reminders_unsent_at_end": unsent}
    if twice:
        facts["duplicate_evidence"] = [evidence_of(r, s) for r, s in list(twice)[:3]]
    if repeated:
        facts["sent_again_evidence"] = [evidence_of(r, s) for r, s, _ in list(repeated)[:3]]
    return facts


# ---------------------------------------------------------------------------------------------
# Scenario 1: a server killed with SIGKILL while uploads are in flight.


def scenario_uploads(services):
    facts, failures = {}, []
    topology = Topology(services, "uploads").start()
    try:
        api = Api(topology.url)
        orgs = professional_orgs(api, topology, 4, 4)
        load = Load(api)
        load.add("upload", 16, upload_body(api, orgs, [20_000, 250_000, 1_000_000, 3_000_000]))
        load.start()
        time.sleep(5)
        in_flight = load.in_flight["upload"]
        killed_at = time.monotonic()
        victim = topology.kill("server-1")
        dead_at = time.monotonic()
        log(f"SIGKILL server-1 (pid {victim}) with {in_flight} client uploads in flight")
        time.sleep(5)
        load.stop()
        records = load.records
        at_kill = [r for r in records if r["t0"] <= killed_at <= r["t1"]]
        after = [r for r in records if r["t0"] > dead_at]
        facts.update({
            "uploads": len(records),
            "statuses": statuses(records),
            "client_uploads_in_flight_at_kill": in_flight,
            "statuses_of_those_in_flight": statuses(at_kill),
            "statuses_of_uploads_started_after_its_death": statuses(after),
        })
        if not topology.ready(topology.port_of("server-2")):
            failures.append("server-2 is not ready after server-1 was killed")

        started = time.monotonic()
        pid = topology.restart("server-1")
        try:
            wait_until("server-1 started again to be ready", lambda: topology.ready(topology.port_of("server-1")), 120)
            facts["restart_ready_seconds"] = round(time.monotonic() - started, 1)
            # It serves: a sign-in, a list, an upload through it and the bytes back through the other.
            direct = Api(f"http://127.0.0.1:{topology.port_of('server-1')}")
            other = Api(f"http://127.0.0.1:{topology.port_of('server-2')}")
            org = orgs[0]
            api.expect(direct.call("GET", "/api/vendors", org["token"]), 200, "GET /api/vendors from server-1 restarted")
            data = pdf(50_000)
            response = api.expect(direct.upload(org["token"], org["vendors"][0], data, {"documentType": "other"}), 201,
                                  "upload to server-1 restarted")
            records.append({"kind": "upload", "status": 201, "id": response.json()["id"], "org": org,
                            "vendor": org["vendors"][0], "sha": sha(data), "t0": time.monotonic(), "t1": time.monotonic()})
            back = other.call("GET", f"/api/documents/{response.json()['id']}/download", org["token"])
            if back.status_code != 200 or back.content != data:
                failures.append("an upload to server-1 restarted does not download with its bytes from server-2")
            facts["restarted_server_serves"] = f"pid {pid}: sign-in token accepted, list 200, upload 201, bytes read back through server-2"
        except Failed as err:
            failures.append(str(err))
        more, problems = check_uploads(api, services, topology, records)
        facts.update(more)
        failures += problems
        not_answered = [r for r in records if r["status"] != 201]
        facts["not_201"] = len(not_answered)
    finally:
        topology.stop()
    return facts, failures


# ---------------------------------------------------------------------------------------------
# Scenario 2: a worker killed with SIGKILL half way through a reminder batch.


def scenario_worker(services, at_accept=False):
    facts, failures = {}, []
    topology = Topology(services, "worker-accept" if at_accept else "worker").start()
    try:
        api = Api(topology.url)
        today = datetime.now(timezone.utc).date()
        orgs = reminder_orgs(api, 12, today)
        expected = expected_emails(orgs)
        total = sum(expected.values())
        due = due_reminders(topology, today)
        facts.update({"organizations": len(orgs), "reminders_due": due, "emails_expected": total})
        handed = sweep(topology)
        facts["first_sweep_handed"] = handed
        if handed != due:
            failures.append(f"the sweep handed {handed} reminders on, {due} are due")
        if at_accept:
            # Both workers killed the moment the SMTP server has accepted a message (its file
            # appears), before the worker that sent it can record it.
            wait_until("a third of the batch", lambda: len(mail_received(set(expected))) >= total / 3, 120, 0.1)
            seen = set(os.listdir(MAIL))
            deadline = time.monotonic() + 30
            while not any(n.endswith(".json") and n not in seen for n in os.listdir(MAIL)):
                if time.monotonic() > deadline:
                    raise Failed("no message accepted within 30 s")
                time.sleep(0.0005)
            kills = [(("worker-1", "worker-2"), None)]
        else:
            # worker-1 killed a third of the way through, while a job is between two of its
            # emails: 0.1 s after a first email is recorded, when the next is held at RCPT TO
            # (0.3 s). worker-2 two thirds of the way through, at a moment drawn at random
            # within a job's length (two emails), so the kill is not timed by an email arriving.
            kills = [(("worker-1",), 1 / 3), (("worker-2",), 2 / 3)]
        killed_at = None
        for names, share in kills:
            if share is not None:
                wait_until(f"{share:.0%} of the batch", lambda: len(mail_received(set(expected))) >= total * share, 120, 0.1)
                if names == ("worker-1",):
                    wait_until("a reminder half sent", lambda: part_delivered(topology) > 0, 30, 0.02)
                    time.sleep(SLOW_SECONDS / 3)
                else:
                    time.sleep(random.uniform(0, 2 * SLOW_SECONDS + 0.1))
            victim = topology.kill(*names)
            killed_at = time.monotonic()
            label = " and ".join(names)
            sent_at_kill = len(mail_received(set(expected)))
            waiting, processing = services.queue_state()
            log(f"SIGKILL {label} (pid {victim}) at {topology.killed_at_wall} UTC after {sent_at_kill} of {total} "
                f"emails; queue {waiting} waiting, {processing} in the processing set")
            facts[f"{label}_killed"] = (f"at {topology.killed_at_wall} UTC, after {sent_at_kill} emails, {waiting} jobs "
                                        f"waiting, {processing} in the processing set (both workers' jobs in hand)")
            # Started again a second later, with the same command line.
            time.sleep(1)
            for name in names:
                topology.restart(name)
                topology.wait_worker_ready(name)
        unsent = wait_drained(services, topology, today)
        facts["unsent_after_queue_drained"] = unsent
        facts["of_which_part_delivered"] = part_delivered(topology)
        facts["processing_set_after_drain"] = services.queue_state()[1]
        log(f"queue drained; {unsent} reminders unsent (held by the killed workers)")
        # The dead workers' claims go stale after claim_timeout_seconds; the next sweep takes them.
        time.sleep(max(0.0, killed_at + CLAIM_TIMEOUT + 1 - time.monotonic()))
        handed = sweep(topology)
        facts["second_sweep_handed"] = handed
        if handed != unsent:
            failures.append(f"the second sweep handed {handed} reminders on, {unsent} were unsent")
        wait_until("every reminder sent", lambda: unsent_reminders(topology, today) == 0, 120)
        # The jobs the dead workers left in hand, put back on the queue by queue_tidy (the
        # scheduler runs it every 10 minutes; an id seen in hand on two runs stalled_minutes
        # apart moves). Their claims were taken over by the second sweep: run again, they must
        # send nothing (check_emails below counts every email).
        for _ in range(2):
            topology.cli("task", "queue_tidy", "stalled_minutes:0")
            time.sleep(1)
        wait_until("the queue empty after queue_tidy", lambda: services.queue_state() == (0, 0), 60, 0.2)
        facts["processing_set_after_queue_tidy"] = services.queue_state()[1]
        facts.update(check_emails(topology, orgs, today, failures))
        facts["reminder_jobs_done_since_restarted"] = {n: topology.jobs_done(n).get("reminder", 0)
                                                       for n in ("worker-1", "worker-2")}
    finally:
        topology.stop()
    return facts, failures


# ---------------------------------------------------------------------------------------------
# Scenario 3: Redis restarted half way through a batch of queued jobs.


def scenario_redis(services, mode):
    facts, failures = {"redis": "appendonly yes, appendfsync everysec" if mode == "aof" else "--save '' --appendonly no"}, []
    services.stop_redis()
    services.start_redis(mode)
    topology = Topology(services, f"redis-{mode}").start()
    try:
        api = Api(topology.url)
        today = datetime.now(timezone.utc).date()
        orgs = reminder_orgs(api, 8, today)
        expected = expected_emails(orgs)
        total = sum(expected.values())
        admin_token, admin_email, stamp = api.register("admin")
        topology.cli("task", "make_admin", f"email:{admin_email}")
        keywords = [{"keyword": f"faults {stamp} keyword {n}", "searchVolume": n, "difficulty": 1 + n % 100,
                     "priority": "medium", "category": "faults"} for n in range(3000)]

        # A light load of API calls across the restart: a list and failed sign-ins (the rate
        # limits count them in Redis).
        org = orgs[0]
        load = Load(api)
        load.add("list", 2, lambda s, rnd: (api.call("GET", "/api/vendors", org["token"], session=s, timeout=30), {}))
        load.add("login", 1, lambda s, rnd: (api.call("POST", "/api/auth/login", session=s, timeout=30, json={
            "email": f"nobody-{uuid.uuid4().hex[:8]}@example.com", "password": "wrong-password-1"}), {}))
        load.start()

        handed = sweep(topology)
        response = api.expect(api.call("POST", "/api/admin/keywords/upload", admin_token, json={"keywordData": keywords}),
                              202, "keyword upload")
        chunks = response.json()["chunks"]
        facts.update({"reminders_handed": handed, "emails_expected": total, "keyword_chunks": chunks,
                      "keywords": len(keywords)})
        # A password reset asked for now waits in the queue behind the batch: a mailer job, which
        # nothing but Redis records.
        _, early_email, _ = api.register("reset before the restart")
        api.expect(api.call("POST", "/api/auth/forgot", json={"email": early_email}), 200, "forgot before the restart")
        wait_until("a quarter of the batch", lambda: len(mail_received(set(expected))) >= total // 4, 120, 0.1)
        waiting, processing = services.queue_state()
        sent_before = len(mail_received(set(expected)))
        chunks_done_before = int(topology.psql("SELECT count(*) FROM keyword_ingest_chunks WHERE done")[0])
        down_at = time.monotonic()
        services.stop_redis()
        time.sleep(3)
        services.start_redis(mode)
        up_at = time.monotonic()
        after_restart = services.queue_state()
        log(f"Redis restarted ({mode}) after {sent_before} of {total} emails, with {waiting} jobs waiting and "
            f"{processing} in the processing set; after the restart: {after_restart[0]} waiting, "
            f"{after_restart[1]} processing")
        facts.update({"emails_before_restart": sent_before, "queue_waiting_before": waiting,
                      "processing_before": processing, "keyword_chunks_done_before": chunks_done_before,
                      "queue_waiting_after_restart": after_restart[0], "processing_after_restart": after_restart[1]})

        # The servers enqueue again: password resets through nginx (which server took each is
        # read back from its access log), each a mailer job performed by a worker.
        reset_ids = []
        for _ in range(RESETS):
            response = api.call("POST", "/api/auth/forgot", json={"email": admin_email})
            api.expect(response, 200, "forgot after the restart")
            reset_ids.append(response.headers.get("X-Request-Id"))
        wait_until("the reset emails queued after the restart", lambda: len(mail_received({admin_email})) >= RESETS, 90)
        time.sleep(1)
        upstreams = Counter(entry["upstream_addr"] for entry in map(json.loads, (topology.dir / "logs" / "nginx-access.log")
                            .read_text().splitlines()) if entry["request_id"] in reset_ids)
        facts["reset_emails_after_restart"] = f"{len(mail_received({admin_email}))} for {RESETS} requests, taken by {dict(upstreams)}"

        unsent = wait_drained(services, topology, today)
        chunks_left = int(topology.psql("SELECT count(*) FROM keyword_ingest_chunks WHERE NOT done")[0])
        facts.update({"reminders_unsent_after_drain": unsent, "of_which_part_delivered": part_delivered(topology),
                      "keyword_chunks_left_after_drain": chunks_left})
        log(f"queue drained: {unsent} reminders unsent, {chunks_left} keyword chunks not done")
        load.stop()
        during = [r for r in load.records if r["t1"] >= down_at and r["t0"] <= up_at + 5]
        facts["api_during_outage"] = statuses(during)
        facts["api_all"] = statuses(load.records)
        five = [r for r in load.records if not ok(r)]
        if five:
            failures.append(f"{len(five)} API calls failed (5xx or no answer) across the Redis restart: {statuses(five)}")

        # Recovery from the database: stale claims re-claimed by the next sweep; chunks not done
        # queued again by keyword_ingests (the scheduler's every 10 minutes, min age 10; here at once).
        time.sleep(max(0.0, down_at + CLAIM_TIMEOUT + 1 - time.monotonic()))
        handed = sweep(topology)
        requeued = re.search(r"queued (\d+) keyword chunks again", topology.cli("task", "keyword_ingests", "min_age_minutes:0"))
        # Emails kept in the database whose job Redis lost, queued again by outgoing_emails (the
        # scheduler's every 10 minutes, min age 10; here at once).
        emails = re.search(r"outgoing emails: (\d+) queued again", topology.cli("task", "outgoing_emails", "min_age_minutes:0"))
        facts.update({"recovery_sweep_handed": handed, "keyword_chunks_requeued": int(requeued.group(1)) if requeued else None,
                      "emails_requeued": int(emails.group(1)) if emails else None})
        if handed != unsent:
            failures.append(f"the recovery sweep handed {handed} reminders on, {unsent} were unsent")
        wait_until("every reminder sent", lambda: unsent_reminders(topology, today) == 0, 120)
        wait_until("every keyword chunk done",
                   lambda: topology.psql("SELECT count(*) FROM keyword_ingest_chunks WHERE NOT done")[0] == "0", 120)
        count = api.expect(api.call("GET", "/api/admin/keywords/count", admin_token), 200, "keyword count").json()["count"]
        facts["keywords_stored"] = count
        if count != len(keywords):
            failures.append(f"{count} keywords stored, {len(keywords)} uploaded")
        facts.update(check_emails(topology, orgs, today, failures))
        wait_until("the reset asked for before the restart", lambda: len(mail_received({early_email})) >= 1, 60)
        time.sleep(1)
        early = len(mail_received({early_email}))
        facts["reset_email_asked_before_the_restart"] = "arrived once" if early == 1 else f"{early} arrived"
        if early != 1:
            failures.append(f"the reset asked for before the restart: {early} emails, 1 expected")
        unsent_emails = int(topology.psql("SELECT count(*) FROM outgoing_emails WHERE sent_at IS NULL")[0])
        facts["outgoing_emails_unsent_at_end"] = unsent_emails
        if unsent_emails:
            failures.append(f"{unsent_emails} kept emails still unsent")
        resets = len(mail_received({admin_email}))
        if resets != RESETS:
            failures.append(f"{resets} reset emails for {RESETS} requests")
        for name in ("server-1", "server-2"):
            status, checks = topology.readiness(topology.port_of(name))
            if status != 200:
                failures.append(f"{name} /_readiness after the restart: {status} {checks}")
        for name in ("worker-1", "worker-2"):
            done = topology.jobs_done(name)
            facts[f"jobs_done_{name}"] = dict(done)
        facts["processing_set_at_end"] = services.queue_state()[1]
        reconnects = {n: len(topology.log_lines(n, "worker connected to redis")) for n in ("worker-1", "worker-2")}
        facts["worker_reconnected_log_lines"] = reconnects
        if not all(reconnects.values()):
            failures.append(f"a worker never logged its reconnection: {reconnects}")
        for name in ("server-1", "server-2"):
            lost = len(topology.log_lines(name, "rate-limit Redis is unreachable"))
            back = len(topology.log_lines(name, "rate-limit Redis answers again"))
            facts[f"{name}_rate_limit_redis_lost_and_back"] = f"{lost} / {back}"
            if lost > back:
                failures.append(f"{name}: the rate limits never went back to Redis ({lost} lost, {back} back)")
        facts["processes_alive"] = all(alive(topology.pid(n)) for n in ("server-1", "server-2", "worker-1", "worker-2", "scheduler"))
        if not facts["processes_alive"]:
            failures.append("a process of the topology died across the Redis restart")
    finally:
        topology.stop()
        services.stop_redis()
    return facts, failures


# ---------------------------------------------------------------------------------------------
# Scenario 4: PostgreSQL restarted under load.


def outage_facts(records, began, up_at, until):
    """What the load saw of a fault: the calls answered (or failed) from BEGAN (the command
    issued) until UNTIL, their statuses, and the recovery: the last failure and the first
    success after the database accepted connections again (UP_AT; negative: before it)."""
    window = [r for r in records if began <= r["t1"] < until]
    failed = [r for r in window if not ok(r)]
    last_failure = max((r["t1"] for r in failed), default=None)
    first_success = min((r["t1"] for r in window if ok(r) and r["t1"] >= up_at), default=None)
    return {
        "answers": len(window),
        "statuses": statuses(window),
        "failed": len(failed),
        "failed_statuses": statuses(failed),
        "database_down_seconds": round(up_at - began, 2),
        "slowest_answer_seconds": round(max((r["t1"] - r["t0"] for r in window), default=0), 2),
        "last_failure_after_database_up_seconds": round(last_failure - up_at, 2) if last_failure else None,
        "first_success_after_database_up_seconds": round(first_success - up_at, 2) if first_success else None,
    }, failed


def ok(record):
    return isinstance(record["status"], int) and record["status"] < 500


def scenario_postgres(services):
    facts, failures = {}, []
    topology = Topology(services, "postgres").start()
    try:
        api = Api(topology.url)
        orgs = professional_orgs(api, topology, 2, 4)
        pids = {n: topology.pid(n) for n in ("server-1", "server-2", "worker-1", "worker-2", "scheduler")}
        org_reads = [(o["token"], p) for o in orgs for p in ("/api/vendors", "/api/dashboard/stats", "/api/documents")]
        load = Load(api)
        load.add("read", 6, lambda s, rnd: (api.call("GET", *reversed(rnd.choice(org_reads)), session=s, timeout=30), {}))
        load.add("upload", 4, upload_body(api, orgs, [5_000, 50_000]))
        load.start()
        time.sleep(4)
        # A: pg_ctl restart -m fast (a second or so down).
        began = time.monotonic()
        services.pg_ctl("-m", "fast", "-w", "restart", "-o", services.pg_opts())
        up_a = time.monotonic()
        log(f"PostgreSQL restarted (-m fast) in {up_a - began:.2f} s")
        time.sleep(10)
        # B: stopped, 5 s down, started.
        began_b = time.monotonic()
        services.pg_ctl("-m", "fast", "-w", "stop")
        time.sleep(5)
        services.pg_ctl("-o", services.pg_opts(), "-w", "start")
        up_b = time.monotonic()
        log(f"PostgreSQL stopped and started again, {up_b - began_b:.2f} s down")
        time.sleep(12)
        load.stop()
        records = load.records
        a, failed_a = outage_facts(records, began, up_a, began_b)
        b, failed_b = outage_facts(records, began_b, up_b, float("inf"))
        before = [r for r in records if r["t1"] < began]
        facts.update({"requests": len(records), "statuses": statuses(records), "before_faults": statuses(before),
                      "restart_fast": a, "stop_5s_start": b})
        for label, window, up in (("restart -m fast", failed_a, up_a), ("stop, 5 s, start", failed_b, up_b)):
            bad = [r for r in window if r["status"] not in (500, 503)]
            if bad:
                failures.append(f"{label}: {len(bad)} answers other than 500/503 during the outage: {statuses(bad)}")
            late = [r for r in window if r["t0"] > up + 15]
            if late:
                failures.append(f"{label}: {len(late)} failures more than 15 s after the database was back: {statuses(late)}")
        if [r for r in before if not ok(r)]:
            failures.append("failures before any fault")
        tail = [r for r in records if r["t0"] > up_b + 5]
        tail_failed = [r for r in tail if not ok(r)]
        facts["from_5s_after_the_second_fault_on"] = statuses(tail)
        if not tail or tail_failed:
            failures.append(f"the load after recovery: {statuses(tail)}")
        same = {n: alive(p) and topology.pid(n) == p for n, p in pids.items()}
        facts["same_processes_alive"] = same
        if not all(same.values()):
            failures.append(f"processes restarted or died: {same}")
        for name in ("server-1", "server-2"):
            status, checks = topology.readiness(topology.port_of(name))
            facts[f"{name}_readiness"] = f"{status} {json.dumps(checks)}"
            if status != 200:
                failures.append(f"{name} /_readiness after the restarts: {status} {checks}")
        more, problems = check_uploads(api, services, topology, records)
        facts.update(more)
        failures += problems
        # The workers' database connections too: a reminder batch after the restarts.
        today = datetime.now(timezone.utc).date()
        orgs = reminder_orgs(api, 1, today, domain="example.com")
        handed = sweep(topology)
        wait_until("the reminders after the restarts", lambda: unsent_reminders(topology, today) == 0, 60)
        more = check_emails(topology, orgs, today, failures)
        facts["reminders_after_the_restarts"] = (f"{handed} handed to the workers, {more['messages_received']} of "
                                                 f"{more['emails_expected']} emails, {more['duplicates']} twice")
    finally:
        topology.stop()
    return facts, failures


# ---------------------------------------------------------------------------------------------


def machine():
    cpu = next((l.split(":", 1)[1].strip() for l in Path("/proc/cpuinfo").read_text().splitlines()
                if l.startswith("model name")), platform.processor())
    mem = next((l.split()[1] for l in Path("/proc/meminfo").read_text().splitlines() if l.startswith("MemTotal")), "0")
    version = run([BIN, "--version"], check=False).stdout.strip() or "?"
    commit = run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], check=False).stdout.strip()
    dirty = run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"], check=False).stdout.strip()
    return (f"{os.cpu_count()} CPUs ({cpu}), {int(mem) // 1024 // 1024} GiB RAM, {platform.system()} {platform.release()}; "
            f"binary {os.environ.get('FAULTS_BIN_ORIGIN', BIN)} ({version}, {os.environ.get('FAULTS_BIN_KIND', '?')}); "
            f"PostgreSQL {run([str(PG_BIN / 'postgres'), '--version']).stdout.split()[2]}, "
            f"Redis {run(['redis-server', '--version']).stdout.split()[2].removeprefix('v=')}; the repository at {commit}"
            f"{' (with uncommitted changes)' if dirty else ''}")


def report(results, started, duration):
    lines = [RESULTS_BEGIN, "", f"Run of {started:%Y-%m-%d %H:%M} UTC, {duration:.0f} s: `{COMMAND}`", "",
             f"Machine: {machine()}.", "",
             f"Settings: claim timeout {CLAIM_TIMEOUT} s, SMTP sink holding each slow.test recipient "
             f"{SLOW_SECONDS} s.", ""]
    for name, (facts, failures) in results.items():
        lines.append(f"### {name}: {'PASSED' if not failures else 'FAILED'}")
        lines.append("")
        for key, value in facts.items():
            lines.append(f"- {key.replace('_', ' ')}: {json.dumps(value) if isinstance(value, (dict, list)) else value}")
        for failure in failures:
            lines.append(f"- **FAILED**: {failure}")
        lines.append("")
    lines.append(RESULTS_END)
    block = "\n".join(lines)
    path = Path(REPORT)
    text = path.read_text() if path.exists() else ""
    if RESULTS_BEGIN in text and RESULTS_END in text:
        head, rest = text.split(RESULTS_BEGIN, 1)
        text = head + block + rest.split(RESULTS_END, 1)[1]
    else:
        text = (text or "# Faults\n\n") + "\n" + block + "\n"
    path.write_text(text)
    log(f"results written to {path}")


def main():
    started = datetime.now(timezone.utc)
    t0 = time.monotonic()
    services = Services()
    results = {}
    def on_signal(signum, _frame):
        raise KeyboardInterrupt(f"signal {signum}")

    signal.signal(signal.SIGTERM, on_signal)
    try:
        services.start_s3()
        services.start_smtp()
        services.start_postgres()
        plan = []
        for name in SCENARIOS:
            if name == "redis":
                plan += [(f"redis ({mode})", lambda m=mode: scenario_redis(services, m)) for mode in REDIS_MODES]
            else:
                fn = {"uploads": scenario_uploads, "worker": scenario_worker, "postgres": scenario_postgres,
                      "worker-accept": lambda svc: scenario_worker(svc, at_accept=True)}.get(name)
                if fn is None:
                    sys.exit(f"faults: unknown scenario {name}")
                plan.append((name, lambda f=fn: f(services)))
        for name, scenario in plan:
            log(f"=== {name}")
            # The Redis scenario runs a Redis of its own mode; the others one without persistence.
            if name.startswith("redis"):
                services.stop_redis()
            elif services.redis_mode != "none" or "redis" not in services.procs:
                services.stop_redis()
                services.start_redis("none")
            try:
                facts, failures = scenario()
            except Failed as err:
                facts, failures = {}, [f"did not complete: {err}"]
            except Exception:  # noqa: BLE001 - one scenario's crash is its failure
                facts, failures = {}, [f"did not complete: {traceback.format_exc()}"]
            results[name] = (facts, failures)
            for key, value in facts.items():
                log(f"  {key}: {value}")
            for failure in failures:
                log(f"  FAILED: {failure}")
            log(f"=== {name}: {'passed' if not failures else 'FAILED'}")
    except KeyboardInterrupt:
        log("interrupted")
        return 130
    finally:
        services.close()
    if REPORT and results:
        report(results, started, time.monotonic() - t0)
    failed = [name for name, (_, failures) in results.items() if failures]
    log(f"{len(results) - len(failed)} of {len(results)} scenarios passed" + (f"; FAILED: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
