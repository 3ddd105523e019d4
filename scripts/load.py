"""The load tool of scripts/load : many organizations read and write through
the API at once, every answer is recorded, and afterwards every acknowledged write is looked
for, through the API and in the database and the bucket.

    python scripts/load.py register --url URL --orgs N --free N --out orgs.json
    python scripts/load.py run --url URL --orgs orgs.json --connections C --duration S \
        --database-url postgres://... --s3-endpoint http://... --s3-bucket B \
        --topology DIR --report docs/benchmarks/load.md --command '...' --bin PATH

`register` signs up N organizations (the first N - free of them are made Professional by
scripts/load through `scripts/topology cli DIR task set_plan`, the rest stay Free). `run` keeps
C requests in flight for S seconds, each one a random organization and a random operation:

    reads   GET /api/vendors, GET /api/dashboard/stats, GET /api/documents, GET /api/vendors/{id}
    writes  POST /api/vendors, PUT /api/vendors/{id}, POST /api/vendors/{id}/documents (a small
            PDF, `other` or `w9`), DELETE /api/vendors/{id}

Writes stay within each organization's plan (vendors, and documents per vendor on Free), counting
the ones in flight, so no refusal is expected: any answer but the route's 2xx is counted against
the run. The tool keeps what each acknowledged write did (the vendor's key, the document's id,
the notes a PUT set) and, per vendor, never sends two PUTs or two `w9` uploads at once, and
deletes only a vendor with nothing in flight (no other request starts on it meanwhile): the state
the server should hold is then exactly known. Reads are checked as they come back (an
acknowledged write must be visible to a read sent after its acknowledgement; a vendor whose
delete was acknowledged must not be). Afterwards it compares, per organization, the vendor list,
the document list and the dashboard figures with what it recorded, then the database (every
acknowledged vendor and document row there, every deleted one gone, at most one current document
per superseding slot) and the bucket (one object per document row, none left over). It writes
the report and exits 1 when any check fails.
"""

import argparse
import asyncio
import datetime
import json
import os
import random
import re
import resource
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

import aiohttp

SERVICE_TYPES = ["general-contractor", "plumbing", "electrical", "hvac", "cleaning", "landscaping",
                 "security", "pest-control", "technology", "consulting", "other"]

# A small, well-formed one-page PDF (the server decides the type by the content).
PDF = (b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n"
       b"2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n"
       b"3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\n"
       b"trailer<</Root 1 0 R>>\n%%EOF\n")

R_LIST = "GET /api/vendors"
R_STATS = "GET /api/dashboard/stats"
R_DOCS = "GET /api/documents"
R_SHOW = "GET /api/vendors/{id}"
R_CREATE = "POST /api/vendors"
R_PUT = "PUT /api/vendors/{id}"
R_UPLOAD = "POST /api/vendors/{id}/documents"
R_DELETE = "DELETE /api/vendors/{id}"
ROUTES = [R_LIST, R_STATS, R_DOCS, R_SHOW, R_CREATE, R_PUT, R_UPLOAD, R_DELETE]
SUCCESS = {R_LIST: 200, R_STATS: 200, R_DOCS: 200, R_SHOW: 200, R_CREATE: 201, R_PUT: 200,
           R_UPLOAD: 201, R_DELETE: 204}
WRITES = {R_CREATE, R_PUT, R_UPLOAD, R_DELETE}

# The mix, in percent of the operations picked (reads 70, writes 30).
MIX = [(R_LIST, 22), (R_STATS, 16), (R_DOCS, 16), (R_SHOW, 16),
       (R_CREATE, 8), (R_PUT, 9), (R_UPLOAD, 9), (R_DELETE, 4)]

PLAN_LIMITS = {"professional": (25, None), "free": (2, 10)}  # config/production.yaml, settings.plans


def now():
    return time.monotonic()


class Vendor:
    def __init__(self, key, org, notes, acked):
        self.key = key
        self.org = org
        self.acked = acked            # when its creation was acknowledged
        self.notes = notes            # the notes of the last acknowledged create or PUT
        self.put_seq = 0              # acknowledged PUTs
        self.put_inflight = False
        self.w9_inflight = False
        self.uploads_inflight = 0
        self.inflight = 0             # requests of any kind naming this vendor
        self.delete_sent = None
        self.delete_acked = None
        self.other_docs = {}          # document id -> acknowledged at
        self.w9_docs = []             # (document id, acknowledged at), in acknowledgement order

    def docs_held(self):
        """Current documents, counting uploads in flight (the Free plan's limit)."""
        return len(self.other_docs) + (1 if self.w9_docs else 0) + self.uploads_inflight


class Org:
    def __init__(self, record):
        self.index = record["index"]
        self.email = record["email"]
        self.token = record["token"]
        self.plan = record["plan"]
        self.vendor_limit, self.doc_limit = PLAN_LIMITS[self.plan]
        self.headers = {"Authorization": f"Bearer {self.token}"}
        self.live = {}               # key -> Vendor: acknowledged, delete not acknowledged
        self.deleted = {}            # key -> Vendor: delete acknowledged
        self.creates_inflight = 0
        self.creates_started = 0
        self.deletes_started = 0
        self.unknown_creates = 0     # a create whose answer was not 201 (its outcome unknown)

    def usable(self):
        return [v for v in self.live.values() if v.delete_sent is None]


class Stats:
    def __init__(self):
        self.status = {}             # (route, status) -> count
        self.latency = {r: [] for r in ROUTES}
        self.failures = []           # (route, status, detail), the first ones kept
        self.stale = []              # read checks that failed
        self.stale_count = 0
        self.failure_count = 0

    def record(self, route, status, ms):
        self.status[(route, status)] = self.status.get((route, status), 0) + 1
        if ms is not None:
            self.latency.setdefault(route, []).append(ms)

    def fail(self, route, status, detail):
        self.failure_count += 1
        if len(self.failures) < 40:
            self.failures.append((route, status, detail))

    def stale_read(self, detail):
        self.stale_count += 1
        if len(self.stale) < 40:
            self.stale.append(detail)


async def call(session, stats, route, method, url, record=True, **kw):
    """One request: (status or an error name, parsed JSON or None, ms, request id)."""
    started = now()
    try:
        async with session.request(method, url, **kw) as resp:
            body = await resp.read()
            ms = (now() - started) * 1000
            status = resp.status
            rid = resp.headers.get("x-request-id", "")
    except asyncio.TimeoutError:
        if record:
            stats.record(route, "timeout", None)
            stats.fail(route, "timeout", f"{method} {url}: no answer within the client's timeout")
        return "timeout", None, None, ""
    except aiohttp.ClientError as err:
        if record:
            stats.record(route, "connection error", None)
            stats.fail(route, "connection error", f"{method} {url}: {type(err).__name__}: {err}")
        return "connection error", None, None, ""
    data = None
    if body:
        try:
            data = json.loads(body)
        except ValueError:
            data = body[:300].decode("utf-8", "replace")
    if record:
        stats.record(route, status, ms)
        if status != SUCCESS.get(route, 200):
            stats.fail(route, status, f"{method} {url} -> {status} (request id {rid}): "
                       f"{json.dumps(data)[:300] if data is not None else ''}")
    return status, data, ms, rid


class Load:
    def __init__(self, args, orgs):
        self.args = args
        self.base = args.url.rstrip("/")
        self.orgs = [Org(o) for o in orgs]
        self.stats = Stats()
        self.verify = Stats()
        self.rng = random.Random(args.seed)
        self.seq = 0
        self.routes, self.weights = zip(*MIX)
        self.writes_acked = {R_CREATE: 0, R_PUT: 0, R_UPLOAD: 0, R_DELETE: 0}
        self.cpu = None
        self.cpu_groups, self.cpu_busy = {}, 0

    def next_seq(self):
        self.seq += 1
        return self.seq

    def vendor_body(self, org, notes):
        n = self.next_seq()
        return {
            "name": f"Load Vendor {org.index}-{n}",
            "email": f"vendor{n}@org{org.index}.load.example",
            "serviceType": self.rng.choice(SERVICE_TYPES),
            "phone": "555-0100",
            "city": "Springfield",
            "state": "IL",
            "zipCode": "62701",
            "notes": notes,
        }

    # --- Operations -----------------------------------------------------------------------

    async def op(self, session):
        org = self.rng.choice(self.orgs)
        route = self.rng.choices(self.routes, self.weights)[0]
        usable = org.usable()
        full = len(org.live) + org.creates_inflight >= org.vendor_limit
        if route in (R_SHOW, R_PUT, R_UPLOAD) and not usable:
            route = R_LIST if full else R_CREATE
        if route == R_CREATE and full:
            route = R_DELETE
        if route == R_DELETE:
            idle = [v for v in usable if v.inflight == 0]
            if not idle:
                route = R_CREATE if not full else R_LIST
            else:
                return await self.delete(session, org, self.rng.choice(idle))
        if route == R_LIST:
            return await self.list_vendors(session, org)
        if route == R_STATS:
            return await self.stats_read(session, org)
        if route == R_DOCS:
            return await self.list_documents(session, org)
        if route == R_CREATE:
            return await self.create(session, org)
        vendor = self.rng.choice(usable)
        if route == R_SHOW:
            return await self.show(session, org, vendor)
        if route == R_PUT:
            if vendor.put_inflight:
                return await self.show(session, org, vendor)
            return await self.put(session, org, vendor)
        if org.doc_limit is not None and vendor.docs_held() >= org.doc_limit:
            return await self.show(session, org, vendor)
        return await self.upload(session, org, vendor)

    async def create(self, session, org):
        notes = f"created {self.next_seq()}"
        body = self.vendor_body(org, notes)
        org.creates_inflight += 1
        org.creates_started += 1
        try:
            status, data, _, _ = await call(session, self.stats, R_CREATE, "POST",
                                            f"{self.base}/api/vendors", json=body, headers=org.headers)
        finally:
            org.creates_inflight -= 1
        if status == 201 and isinstance(data, dict) and data.get("id"):
            org.live[data["id"]] = Vendor(data["id"], org, notes, now())
            self.writes_acked[R_CREATE] += 1
        else:
            org.unknown_creates += 1

    async def put(self, session, org, vendor):
        notes = f"put {self.next_seq()}"
        body = self.vendor_body(org, notes)
        vendor.put_inflight = True
        vendor.inflight += 1
        try:
            status, data, _, _ = await call(session, self.stats, R_PUT, "PUT",
                                            f"{self.base}/api/vendors/{vendor.key}", json=body,
                                            headers=org.headers)
        finally:
            vendor.put_inflight = False
            vendor.inflight -= 1
        if status == 200:
            vendor.notes = notes
            vendor.put_seq += 1
            self.writes_acked[R_PUT] += 1
            if not isinstance(data, dict) or data.get("notes") != notes:
                self.stats.fail(R_PUT, status, f"PUT {vendor.key} answered notes "
                                f"{data.get('notes') if isinstance(data, dict) else data!r}, not {notes!r}")

    async def upload(self, session, org, vendor):
        w9 = not vendor.w9_inflight and self.rng.random() < 0.3
        n = self.next_seq()
        form = aiohttp.FormData()
        form.add_field("documentType", "w9" if w9 else "other")
        if self.rng.random() < 0.7:
            days = self.rng.randint(-60, 400)
            form.add_field("expirationDate", (datetime.date.today() + datetime.timedelta(days=days)).isoformat())
        form.add_field("notes", f"upload {n}")
        form.add_field("file", PDF, filename=f"document-{n}.pdf", content_type="application/pdf")
        vendor.inflight += 1
        vendor.uploads_inflight += 1
        if w9:
            vendor.w9_inflight = True
        try:
            status, data, _, _ = await call(session, self.stats, R_UPLOAD, "POST",
                                            f"{self.base}/api/vendors/{vendor.key}/documents",
                                            data=form, headers=org.headers)
        finally:
            vendor.inflight -= 1
            vendor.uploads_inflight -= 1
            if w9:
                vendor.w9_inflight = False
        if status == 201 and isinstance(data, dict) and data.get("id"):
            self.writes_acked[R_UPLOAD] += 1
            if w9:
                vendor.w9_docs.append((data["id"], now()))
            else:
                vendor.other_docs[data["id"]] = now()

    async def delete(self, session, org, vendor):
        vendor.delete_sent = now()
        org.deletes_started += 1
        vendor.inflight += 1
        try:
            status, _, _, _ = await call(session, self.stats, R_DELETE, "DELETE",
                                         f"{self.base}/api/vendors/{vendor.key}", headers=org.headers)
        finally:
            vendor.inflight -= 1
        if status == 204:
            vendor.delete_acked = now()
            del org.live[vendor.key]
            org.deleted[vendor.key] = vendor
            self.writes_acked[R_DELETE] += 1
        # Otherwise the vendor stays in `live` with delete_sent set: nothing picks it again, and
        # the final comparison names it (its fate unknown).

    # --- Reads, checked against what was acknowledged ------------------------------------

    def snapshot(self, org):
        """What a read sent now must and must not see."""
        sent = now()
        certain = {k: v for k, v in org.live.items() if v.delete_sent is None}
        gone = set(org.deleted)
        pending = org.creates_inflight + sum(1 for v in org.live.values() if v.delete_sent is not None)
        return sent, certain, gone, pending, org.creates_started, org.deletes_started

    async def list_vendors(self, session, org):
        sent, certain, gone, _, _, _ = self.snapshot(org)
        status, data, _, rid = await call(session, self.stats, R_LIST, "GET",
                                          f"{self.base}/api/vendors", headers=org.headers)
        if status != 200 or not isinstance(data, list):
            return
        received = now()
        seen = {v.get("id") for v in data}
        for key, vendor in certain.items():
            if key not in seen and not (vendor.delete_sent and vendor.delete_sent < received):
                self.stats.stale_read(f"GET /api/vendors of org {org.index} (request id {rid}) lacks vendor "
                                      f"{key}, acknowledged {sent - vendor.acked:.3f} s before the request")
        for key in seen & gone:
            self.stats.stale_read(f"GET /api/vendors of org {org.index} (request id {rid}) lists vendor {key}, "
                                  f"whose delete was acknowledged before the request")

    async def stats_read(self, session, org):
        sent, certain, _, pending, creates0, deletes0 = self.snapshot(org)
        status, data, _, rid = await call(session, self.stats, R_STATS, "GET",
                                          f"{self.base}/api/dashboard/stats", headers=org.headers)
        if status != 200 or not isinstance(data, dict):
            return
        total = data.get("totalVendors")
        low = len(certain) - (org.deletes_started - deletes0)
        high = len(certain) + pending + (org.creates_started - creates0)
        if not isinstance(total, int) or not low <= total <= high:
            self.stats.stale_read(f"GET /api/dashboard/stats of org {org.index} (request id {rid}): "
                                  f"totalVendors {total}, expected {low}..{high}")
        parts = sum(data.get(k, 0) for k in ("compliantVendors", "expiringVendors", "nonCompliantVendors"))
        if parts != total:
            self.stats.stale_read(f"GET /api/dashboard/stats of org {org.index} (request id {rid}): "
                                  f"the three figures add up to {parts}, not totalVendors {total}")

    async def list_documents(self, session, org):
        sent, certain, gone, _, _, _ = self.snapshot(org)
        expected = {d: v for v in certain.values() for d in v.other_docs}
        status, data, _, rid = await call(session, self.stats, R_DOCS, "GET",
                                          f"{self.base}/api/documents", headers=org.headers)
        if status != 200 or not isinstance(data, list):
            return
        received = now()
        seen = {d.get("id"): d.get("vendorId") for d in data}
        for doc, vendor in expected.items():
            if doc not in seen and not (vendor.delete_sent and vendor.delete_sent < received):
                self.stats.stale_read(f"GET /api/documents of org {org.index} (request id {rid}) lacks "
                                      f"document {doc} of vendor {vendor.key}, acknowledged before the request")
        for doc, key in seen.items():
            if key in gone:
                self.stats.stale_read(f"GET /api/documents of org {org.index} (request id {rid}) lists "
                                      f"document {doc} of vendor {key}, deleted before the request")

    async def show(self, session, org, vendor):
        put_seq, put_inflight, notes = vendor.put_seq, vendor.put_inflight, vendor.notes
        docs_before = set(vendor.other_docs)
        vendor.inflight += 1
        try:
            status, data, _, rid = await call(session, self.stats, R_SHOW, "GET",
                                              f"{self.base}/api/vendors/{vendor.key}", headers=org.headers)
        finally:
            vendor.inflight -= 1
        if status != 200 or not isinstance(data, dict):
            return
        if not put_inflight and vendor.put_seq == put_seq and not vendor.put_inflight and data.get("notes") != notes:
            self.stats.stale_read(f"GET /api/vendors/{vendor.key} (request id {rid}) answered notes "
                                  f"{data.get('notes')!r}; the last acknowledged write set {notes!r}")
        shown = {d.get("id") for d in data.get("documents") or []}
        missing = docs_before - shown
        if missing:
            self.stats.stale_read(f"GET /api/vendors/{vendor.key} (request id {rid}) lacks acknowledged "
                                  f"documents {sorted(missing)[:3]}")

    # --- The run --------------------------------------------------------------------------

    async def worker(self, session, deadline):
        while now() < deadline:
            await self.op(session)

    async def progress(self, started, deadline):
        while now() < deadline:
            await asyncio.sleep(min(10, max(0.1, deadline - now())))
            done = sum(self.stats.status.values())
            errors = sum(c for (_, s), c in self.stats.status.items() if not isinstance(s, int) or s >= 500)
            print(f"load: {now() - started:5.0f} s  {done} requests  {done / (now() - started):.0f}/s  "
                  f"5xx or connection errors: {errors}  stale reads: {self.stats.stale_count}",
                  file=sys.stderr, flush=True)

    async def run(self):
        timeout = aiohttp.ClientTimeout(total=self.args.timeout)
        connector = aiohttp.TCPConnector(limit=self.args.connections, limit_per_host=self.args.connections)
        async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
            started = now()
            self.cpu0 = resource.getrusage(resource.RUSAGE_SELF)
            self.wall0 = time.time()
            deadline = started + self.args.duration
            account = asyncio.create_task(self.cpu.run(deadline)) if self.cpu else None
            tasks = [asyncio.create_task(self.worker(session, deadline)) for _ in range(self.args.connections)]
            reporter = asyncio.create_task(self.progress(started, deadline))
            await asyncio.gather(*tasks)
            self.elapsed = now() - started
            self.cpu1 = resource.getrusage(resource.RUSAGE_SELF)
            reporter.cancel()
            if account:
                account.cancel()
                self.cpu_groups, self.cpu_busy = self.cpu.result()
            self.wall1 = time.time()
        connector = aiohttp.TCPConnector(limit=8)
        async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
            await self.check_api(session)

    # --- Afterwards: the API -------------------------------------------------------------

    async def check_api(self, session):
        self.api_problems = []
        sem = asyncio.Semaphore(8)

        async def one(org):
            async with sem:
                return org, await asyncio.gather(
                    call(session, self.verify, R_LIST, "GET", f"{self.base}/api/vendors", headers=org.headers),
                    call(session, self.verify, R_DOCS, "GET", f"{self.base}/api/documents", headers=org.headers),
                    call(session, self.verify, R_STATS, "GET", f"{self.base}/api/dashboard/stats",
                         headers=org.headers))

        for org, (vendors, docs, stats) in await asyncio.gather(*(one(o) for o in self.orgs)):
            problems = self.api_problems
            if vendors[0] != 200 or docs[0] != 200 or stats[0] != 200:
                problems.append(f"org {org.index}: the read-back answered {vendors[0]}, {docs[0]}, {stats[0]}")
                continue
            expected = org.live
            seen = {v["id"]: v for v in vendors[1]}
            for key in sorted(set(expected) - set(seen)):
                problems.append(f"org {org.index}: acknowledged vendor {key} is missing from GET /api/vendors")
            for key in sorted(set(seen) & set(org.deleted)):
                problems.append(f"org {org.index}: deleted vendor {key} is still in GET /api/vendors")
            for key in sorted(set(seen) - set(expected) - set(org.deleted)):
                problems.append(f"org {org.index}: GET /api/vendors lists vendor {key}, never acknowledged "
                                f"({org.unknown_creates} creates had no 201)")
            for key in sorted(set(seen) & set(expected)):
                if seen[key].get("notes") != expected[key].notes:
                    problems.append(f"org {org.index}: vendor {key} has notes {seen[key].get('notes')!r}, "
                                    f"the last acknowledged write set {expected[key].notes!r}")
            want_docs = {}
            for v in expected.values():
                for d in v.other_docs:
                    want_docs[d] = v.key
                if v.w9_docs:
                    want_docs[v.w9_docs[-1][0]] = v.key
            got_docs = {d["id"]: d.get("vendorId") for d in docs[1]}
            for d in sorted(set(want_docs) - set(got_docs)):
                problems.append(f"org {org.index}: acknowledged document {d} of vendor {want_docs[d]} is not "
                                f"among the current documents")
            for d in sorted(set(got_docs) - set(want_docs)):
                problems.append(f"org {org.index}: GET /api/documents lists document {d} (vendor "
                                f"{got_docs[d]}), not expected as current")
            if stats[1].get("totalVendors") != len(expected):
                problems.append(f"org {org.index}: totalVendors {stats[1].get('totalVendors')}, "
                                f"{len(expected)} vendors acknowledged")
            self.verify_counts = getattr(self, "verify_counts", {"vendors": [0, 0], "documents": [0, 0]})
            self.verify_counts["vendors"][0] += len(expected)
            self.verify_counts["vendors"][1] += len(set(expected) & set(seen))
            self.verify_counts["documents"][0] += len(want_docs)
            self.verify_counts["documents"][1] += len(set(want_docs) & set(got_docs))


# --- Afterwards: the database and the bucket -------------------------------------------------

def psql(url, sql):
    out = subprocess.run(["psql", url, "-X", "-At", "-F", "\t", "-v", "ON_ERROR_STOP=1", "-c", sql],
                         check=True, capture_output=True, text=True).stdout
    return [line.split("\t") for line in out.splitlines() if line]


def check_database(load, url):
    problems = []
    by_email = {o.email: o for o in load.orgs}
    rows = psql(url, "SELECT u.email, v.key, COALESCE(v.notes, '') FROM vendors v "
                     "JOIN users u ON u.organization_id = v.organization_id")
    db_vendors = {key: (email, notes) for email, key, notes in rows}
    docs = psql(url, "SELECT d.pid, v.key, d.slot, d.is_current, d.storage_key FROM documents d "
                     "JOIN vendors v ON v.id = d.vendor_id")
    db_docs = {pid: (key, slot, current == "t", storage) for pid, key, slot, current, storage in docs}
    orphan_docs = psql(url, "SELECT count(*) FROM documents d WHERE NOT EXISTS "
                            "(SELECT 1 FROM vendors v WHERE v.id = d.vendor_id)")[0][0]
    counts = {"vendors": [0, 0], "documents": [0, 0], "deleted vendors": [0, 0], "deleted documents": [0, 0]}
    for org in load.orgs:
        for key, v in org.live.items():
            counts["vendors"][0] += 1
            if db_vendors.get(key, (None,))[0] == org.email:
                counts["vendors"][1] += 1
                if db_vendors[key][1] != v.notes:
                    problems.append(f"vendor {key}: notes {db_vendors[key][1]!r} in the database, "
                                    f"the last acknowledged write set {v.notes!r}")
            else:
                problems.append(f"org {org.index}: acknowledged vendor {key} is not in the database")
            ids = list(v.other_docs) + [d for d, _ in v.w9_docs]
            for d in ids:
                counts["documents"][0] += 1
                if db_docs.get(d, (None,))[0] == key:
                    counts["documents"][1] += 1
                else:
                    problems.append(f"org {org.index}: acknowledged document {d} of vendor {key} is not in the database")
            if v.w9_docs:
                last = v.w9_docs[-1][0]
                current = [d for d, (k, slot, cur, _) in db_docs.items() if k == key and slot == "w9" and cur]
                if current != [last]:
                    problems.append(f"vendor {key}: current w9 documents {current}, the last acknowledged "
                                    f"upload is {last}")
        for key, v in org.deleted.items():
            counts["deleted vendors"][0] += 1
            if key in db_vendors:
                problems.append(f"org {org.index}: deleted vendor {key} is still in the database")
            else:
                counts["deleted vendors"][1] += 1
            for d in list(v.other_docs) + [d for d, _ in v.w9_docs]:
                counts["deleted documents"][0] += 1
                if d in db_docs:
                    problems.append(f"document {d} of deleted vendor {key} is still in the database")
                else:
                    counts["deleted documents"][1] += 1
    known = {k for o in load.orgs for k in list(o.live) + list(o.deleted)}
    unknown = [k for k, (email, _) in db_vendors.items() if email in by_email and k not in known]
    for key in unknown:
        problems.append(f"vendor {key} is in the database but no create of it was acknowledged")
    if orphan_docs != "0":
        problems.append(f"{orphan_docs} document rows point to no vendor")
    dup = psql(url, "SELECT v.key, d.slot, count(*) FROM documents d JOIN vendors v ON v.id = d.vendor_id "
                    "WHERE d.is_current AND d.slot <> 'other' GROUP BY v.key, d.slot HAVING count(*) > 1")
    for key, slot, n in dup:
        problems.append(f"vendor {key} has {n} current documents in slot {slot}")
    over = psql(url, "SELECT u.email, o.plan, count(*) FROM vendors v JOIN organizations o ON o.id = v.organization_id "
                     "JOIN users u ON u.organization_id = o.id GROUP BY u.email, o.plan")
    for email, plan, n in over:
        if int(n) > PLAN_LIMITS.get(plan, (25, None))[0]:
            problems.append(f"the organization of {email} ({plan}) holds {n} vendors, over its plan")
    storage = {s for (_, _, _, s) in db_docs.values()}
    return problems, counts, storage, len(db_docs)


async def list_bucket(endpoint, bucket, prefix=""):
    keys, token = [], None
    async with aiohttp.ClientSession() as session:
        while True:
            params = {"list-type": "2", "max-keys": "1000", "prefix": prefix}
            if token:
                params["continuation-token"] = token
            async with session.get(f"{endpoint.rstrip('/')}/{bucket}", params=params) as resp:
                text = await resp.text()
                if resp.status != 200:
                    raise RuntimeError(f"listing the bucket answered {resp.status}: {text[:200]}")
            root = ET.fromstring(text)
            ns = {"s3": root.tag.split("}")[0].strip("{")} if root.tag.startswith("{") else {}
            find = (lambda e, n: e.findall(f"s3:{n}", ns)) if ns else (lambda e, n: e.findall(n))
            keys += [c.findtext("s3:Key" if ns else "Key", namespaces=ns) for c in find(root, "Contents")]
            truncated = (root.findtext("s3:IsTruncated" if ns else "IsTruncated", namespaces=ns) or "") == "true"
            token = root.findtext("s3:NextContinuationToken" if ns else "NextContinuationToken", namespaces=ns)
            if not truncated or not token:
                return keys


def check_bucket(storage, keys):
    problems = []
    objects = set(keys)
    missing = sorted(storage - objects)
    left = sorted(objects - storage)
    for k in missing[:20]:
        problems.append(f"the file {k} of a document row is not in the bucket")
    for o in left[:20]:
        problems.append(f"the object {o} is in the bucket but no document row names it")
    if len(missing) + len(left) > 40:
        problems.append(f"{len(missing)} files missing and {len(left)} objects left over in all")
    return problems, len(objects)


# --- Concurrent writes on one vendor ---------------------------------------------------------

class Races:
    """What the mixed load never does: requests that race on one vendor, as two people of one
    organization (or a person and the vendor on the portal) may. Each check has its expectation;
    what was seen is reported beside it, with the log lines of any 5xx."""

    def __init__(self, args, orgs):
        self.args = args
        self.base = args.url.rstrip("/")
        self.pro = Org(orgs["race-pro"])
        self.free = Org(orgs["race-free"])
        self.stats = Stats()
        self.results = []            # (name, passed, expected, seen)
        self.errors = []             # (request, status, request id)

    async def req(self, session, org, route, method, path, **kw):
        status, data, _, rid = await call(session, self.stats, route, method, f"{self.base}{path}",
                                          headers=org.headers, **kw)
        if not isinstance(status, int) or status >= 500:
            self.errors.append((f"{method} {path}", status, rid))
        return status, data

    async def vendor(self, session, org, name):
        status, data = await self.req(session, org, R_CREATE, "POST", "/api/vendors",
                                      json={"name": name, "email": "race@load.example", "serviceType": "hvac"})
        if status != 201:
            raise RuntimeError(f"creating a vendor for the race checks answered {status}: {data}")
        return data["id"]

    def upload(self, session, org, key, kind="other"):
        form = aiohttp.FormData()
        form.add_field("documentType", kind)
        form.add_field("file", PDF, filename=f"{kind}.pdf", content_type="application/pdf")
        return self.req(session, org, R_UPLOAD, "POST", f"/api/vendors/{key}/documents", data=form)

    def check(self, name, passed, expected, seen):
        self.results.append((name, passed, expected, seen))

    async def run(self, db_url):
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=self.args.timeout)) as session:
            await self.delete_while_writing(session, db_url)
            await self.w9_at_once(session, db_url)
            await self.vendor_limit(session)
            await self.document_limit(session)

    async def delete_while_writing(self, session, db_url, rounds=20):
        org = self.pro
        tally = {}
        keys = []
        for n in range(rounds):
            key = await self.vendor(session, org, f"Race {n}")
            keys.append(key)
            ops = []
            for _ in range(3):
                ops.append(("upload", self.upload(session, org, key)))
                ops.append(("PUT", self.req(session, org, R_PUT, "PUT", f"/api/vendors/{key}",
                                            json={"name": f"Race {n} renamed", "email": "race@load.example",
                                                  "serviceType": "plumbing"})))
            ops.insert(n % 7, ("DELETE", self.req(session, org, R_DELETE, "DELETE", f"/api/vendors/{key}")))
            answers = await asyncio.gather(*(op for _, op in ops))
            for (label, _), (status, _) in zip(ops, answers):
                tally[(label, status)] = tally.get((label, status), 0) + 1
        seen = ", ".join(f"{label} {status}: {c}" for (label, status), c in sorted(tally.items(), key=str))
        fivexx = sum(c for (_, st), c in tally.items() if not isinstance(st, int) or st >= 500)
        self.check(f"{rounds} rounds: DELETE /api/vendors/{{id}} sent with 3 uploads and 3 PUTs of the same vendor "
                   "at once", fivexx == 0, "each upload 201 or 404, each PUT 200 or 404, the DELETE 204", seen)
        pid = psql(db_url, "SELECT o.pid FROM organizations o JOIN users u ON u.organization_id = o.id "
                           f"WHERE u.email = '{org.email}'")[0][0]
        rows = int(psql(db_url, "SELECT count(*) FROM documents d JOIN users u ON u.organization_id = "
                                f"d.organization_id WHERE u.email = '{org.email}'")[0][0])
        objects = await list_bucket(self.args.s3_endpoint, self.args.s3_bucket, prefix=f"documents/{pid}/")
        uploaded = tally.get(("upload", 201), 0)
        self.check("... then the organization's files in the bucket (every vendor deleted)", len(objects) == rows,
                   f"{rows} (one per document row)",
                   f"{len(objects)} objects for {rows} document rows ({uploaded} uploads acknowledged)")

    async def w9_at_once(self, session, db_url, n=10):
        org = self.pro
        key = await self.vendor(session, org, "Race W-9")
        answers = await asyncio.gather(*(self.upload(session, org, key, "w9") for _ in range(n)))
        statuses = [st for st, _ in answers]
        rows = psql(db_url, "SELECT count(*) FILTER (WHERE d.is_current), count(DISTINCT d.version), count(*) "
                            "FROM documents d JOIN vendors v ON v.id = d.vendor_id "
                            f"WHERE v.key = '{key}' AND d.slot = 'w9'")[0]
        current, versions, total = (int(x) for x in rows)
        self.check(f"{n} `w9` uploads at once to one vendor", statuses.count(201) == n and current == 1
                   and versions == total,
                   f"{n} x 201; 1 current w9, the others history, versions 1..{n}",
                   f"{', '.join(f'{statuses.count(x)} x {x}' for x in sorted(set(statuses), key=str))}; "
                   f"{current} current, {versions} distinct versions among {total}")

    async def vendor_limit(self, session, n=10):
        org = self.pro
        status, data = await self.req(session, org, R_STATS, "GET", "/api/dashboard/stats")
        have = data["totalVendors"]
        for i in range(org.vendor_limit - 1 - have):
            await self.vendor(session, org, f"Race fill {i}")
        answers = await asyncio.gather(*(self.req(session, org, R_CREATE, "POST", "/api/vendors",
                                                  json={"name": f"Race last {i}", "email": "race@load.example",
                                                        "serviceType": "hvac"}) for i in range(n)))
        statuses = [st for st, _ in answers]
        _, data = await self.req(session, org, R_STATS, "GET", "/api/dashboard/stats")
        total = data["totalVendors"]
        self.check(f"{n} vendor creates at once, Professional, at {org.vendor_limit - 1} of {org.vendor_limit} vendors",
                   statuses.count(201) == 1 and total == org.vendor_limit,
                   f"one 201 and {n - 1} x 402; {org.vendor_limit} vendors",
                   f"{statuses.count(201)} x 201, {statuses.count(402)} x 402; {total} vendors")

    async def document_limit(self, session, n=10):
        org = self.free
        key = await self.vendor(session, org, "Race documents")
        for _ in range(org.doc_limit - 2):
            await self.upload(session, org, key)
        answers = await asyncio.gather(*(self.upload(session, org, key) for _ in range(n)))
        statuses = [st for st, _ in answers]
        _, data = await self.req(session, org, R_SHOW, "GET", f"/api/vendors/{key}")
        held = len(data.get("documents") or [])
        self.check(f"{n} uploads at once, Free, to a vendor at {org.doc_limit - 2} of {org.doc_limit} documents",
                   statuses.count(201) == 2 and held == org.doc_limit,
                   f"two 201 and {n - 2} x 402; {org.doc_limit} documents",
                   f"{statuses.count(201)} x 201, {statuses.count(402)} x 402; {held} documents")


# --- Afterwards: the logs -------------------------------------------------------------------

def scan_logs(topology):
    errors, warnings = [], {}
    nginx_status = {}
    logs = os.path.join(topology, "logs")
    for name in sorted(os.listdir(logs)):
        path = os.path.join(logs, name)
        if name == "nginx-access.log":
            with open(path, encoding="utf-8", errors="replace") as f:
                for line in f:
                    m = re.search(r'"status":(\d+)', line)
                    if m:
                        nginx_status[int(m.group(1))] = nginx_status.get(int(m.group(1)), 0) + 1
            continue
        if not name.endswith(".log") or name.startswith("nginx"):
            if name == "nginx-error.log":
                with open(path, encoding="utf-8", errors="replace") as f:
                    for line in f:
                        if "[error]" in line or "[crit]" in line or "[alert]" in line:
                            errors.append(f"{name}: {line.strip()[:400]}")
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                if '"level":"ERROR"' in line or '"level":"error"' in line:
                    errors.append(f"{name}: {line.strip()[:600]}")
                elif '"level":"WARN"' in line or '"level":"warn"' in line:
                    try:
                        message = json.loads(line).get("fields", {}).get("message", "?")
                    except ValueError:
                        message = line.strip()[:200]
                    key = f"{name}: {message}"
                    warnings[key] = warnings.get(key, 0) + 1
    return errors, warnings, nginx_status


def error_lines(topology, request_ids):
    """The ERROR lines the servers logged for these requests: (error.msg with ids and numbers
    blanked) -> (count, one whole line)."""
    wanted = set(request_ids)
    found = {}
    logs = os.path.join(topology, "logs")
    for name in sorted(os.listdir(logs)):
        if not name.startswith("server-"):
            continue
        with open(os.path.join(logs, name), encoding="utf-8", errors="replace") as f:
            for line in f:
                if '"ERROR"' not in line:
                    continue
                m = re.search(r'"request_id":"([^"]+)"', line)
                if not m or m.group(1) not in wanted:
                    continue
                try:
                    msg = json.loads(line)["fields"].get("error.msg", "?")
                except (ValueError, KeyError):
                    msg = "?"
                msg = re.sub(r"\(vendor_id\)=\(\d+\)", "(vendor_id)=(N)", msg)
                count, example = found.get(msg, (0, line.strip()))
                found[msg] = (count + 1, example)
    return found


def server_latency(topology, start, end):
    """The servers' own view of the run, from their `request finished` log lines between the
    wall-clock instants START and END: (method route) -> [latencies in ms], statuses."""
    latency, statuses = {}, {}
    logs = os.path.join(topology, "logs")
    for name in sorted(os.listdir(logs)):
        if not name.startswith("server-"):
            continue
        with open(os.path.join(logs, name), encoding="utf-8", errors="replace") as f:
            for line in f:
                if "request finished" not in line:
                    continue
                try:
                    rec = json.loads(line)
                    at = datetime.datetime.fromisoformat(rec["timestamp"].replace("Z", "+00:00")).timestamp()
                except (ValueError, KeyError):
                    continue
                if not start <= at <= end:
                    continue
                span = rec.get("span", {})
                key = f"{span.get('method')} {span.get('route')}"
                fields = rec.get("fields", {})
                latency.setdefault(key, []).append(float(fields.get("latency_ms", 0)))
                st = fields.get("status")
                statuses.setdefault(key, {})
                statuses[key][st] = statuses[key].get(st, 0) + 1
    return latency, statuses


class CpuAccount:
    """Where the machine's CPU went during the run: every process is sampled from /proc (every
    2 s, so a process that ends between two samples loses at most its last 2 s) and put in a
    group: the topology's processes (each runs in a session of its own, its children with it:
    nginx's worker, the scheduler's task shells), the PostgreSQL backends of the topology's
    database, the S3 and SMTP servers, this tool, and everything else the machine ran."""

    def __init__(self, topology, database, helpers):
        self.tick = os.sysconf("SC_CLK_TCK")
        self.leaders = {}
        pids = os.path.join(topology, "pids")
        for name in sorted(os.listdir(pids)):
            try:
                with open(os.path.join(pids, name)) as f:
                    self.leaders[f.read().strip()] = name[:-4]
            except OSError:
                pass
        self.database = database
        self.helpers = set(helpers)
        self.me = str(os.getpid())
        self.seen = {}               # pid -> ticks at the last sample
        self.groups = {}
        self.machine0 = self.machine_ticks()
        self.sample(baseline=True)

    @staticmethod
    def machine_ticks():
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
        # user nice system idle iowait irq softirq steal: busy is all but idle and iowait.
        return sum(v[:3]) + sum(v[5:8])

    def group(self, pid, fields):
        if pid == self.me:
            return "load tool (scripts/load.py)"
        name = self.leaders.get(fields[3]) or self.leaders.get(pid)
        if name:
            return name
        if pid in self.helpers:
            return "S3 (moto) and SMTP servers"
        if fields[0] and self.database:
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    cmd = f.read()
            except OSError:
                cmd = b""
            if cmd.startswith(b"postgres:") and self.database.encode() in cmd:
                return "PostgreSQL backends of the topology's database"
        return None

    def sample(self, baseline=False):
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            ticks = int(fields[11]) + int(fields[12])
            before = self.seen.get(pid, None if not baseline else ticks)
            self.seen[pid] = ticks
            if baseline:
                continue
            delta = ticks - (before or 0)
            if delta <= 0:
                continue
            g = self.group(pid, fields)
            if g:
                self.groups[g] = self.groups.get(g, 0) + delta

    async def run(self, until):
        while now() < until:
            await asyncio.sleep(min(2, max(0.05, until - now())))
            self.sample()

    def result(self):
        self.sample()
        busy = self.machine_ticks() - self.machine0
        order = ["server-1", "server-2", "worker-1", "worker-2", "scheduler", "nginx"]
        rank = lambda g: (order.index(g) if g in order else len(order), g)  # noqa: E731
        out = {g: self.groups[g] / self.tick for g in sorted(self.groups, key=rank)}
        out["everything else on the machine"] = max(0, busy - sum(self.groups.values())) / self.tick
        return out, busy / self.tick


# --- The report -----------------------------------------------------------------------------

def pct(values, q):
    if not values:
        return float("nan")
    s = sorted(values)
    i = min(len(s) - 1, max(0, int(round(q * (len(s) - 1)))))
    return s[i]


def machine():
    def sh(cmd):
        try:
            return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout.rstrip()
        except OSError:
            return "?"
    return {
        "cpu": sh("lscpu | sed -n 's/^Model name: *//p' | head -n 1"),
        "nproc": sh("nproc"),
        "free": sh("free -g"),
        "loadavg": sh("cat /proc/loadavg"),
        "kernel": sh("uname -r"),
        "postgres": sh("psql \"$LOAD_DATABASE_URL\" -XAtc 'SHOW server_version' 2>/dev/null"),
    }


PROSE_START = "<!-- prose: kept as written when the report is generated again -->"
PROSE_END = "<!-- end of prose -->"


def write_report(args, load, results, before, after, ok, checks):
    st = load.stats
    total = sum(st.status.values())
    rps = total / load.elapsed
    fivexx = sum(c for (_, s), c in st.status.items() if isinstance(s, int) and s >= 500)
    fivexx += sum(c for (_, s), c in load.verify.status.items() if isinstance(s, int) and s >= 500)
    conn = sum(c for (_, s), c in st.status.items() if not isinstance(s, int))
    prose = None
    if os.path.exists(args.report):
        text = open(args.report, encoding="utf-8").read()
        if PROSE_START in text and PROSE_END in text:
            prose = text.split(PROSE_START, 1)[1].split(PROSE_END, 1)[0].strip("\n")
    if not prose:
        prose = "**[To be written by the engineer: what these numbers say, and what they do not.]**"
    lines = []
    w = lines.append
    w("# Load: mixed reads and writes from many organizations")
    w("")
    w("Generated by `scripts/load` (the tables are measured; the prose section is written by hand and")
    w("kept when the report is generated again). It starts the production topology on this machine")
    w("(`scripts/topology`: nginx round-robin in front of two servers, two workers on Redis, the")
    w("scheduler, PostgreSQL, S3 storage on moto's server, mail to `scripts/smtp_sink.py`), signs up")
    w(f"{len(load.orgs)} organizations through the API ({sum(o.plan == 'professional' for o in load.orgs)} made "
      "Professional with `scripts/topology cli DIR task")
    w(f"set_plan`, {sum(o.plan == 'free' for o in load.orgs)} left Free), and keeps {args.connections} requests "
      f"in flight for {args.duration:g} s with `scripts/load.py`")
    w("(Python asyncio + aiohttp, one process on the same cores), each a random organization and a")
    w("random operation of the mix below. Writes stay within each plan (counting those in flight), so")
    w("every answer but the route's 2xx counts against the run. Afterwards every acknowledged write is")
    w("looked for through the API, in the database and in the bucket.")
    w("")
    w("## Machine and run")
    w("")
    m = results["machine"]
    w(f"- Date: {results['started']} to {results['finished']}")
    w(f"- Command: `{args.command}`")
    w(f"- Server binary: `{args.bin}` ({args.bin_note}); `scripts/load` at commit {args.commit}")
    w(f"- CPU: {m['cpu']}, {m['nproc']} cores; Linux {m['kernel']}; PostgreSQL {m['postgres'] or '?'}")
    w(f"- Load average before: {before}; after: {after} (`/proc/loadavg`)")
    w("- Memory (`free -g`, before the run):")
    w("")
    w("```")
    w(m["free"])
    w("```")
    w("")
    if load.cpu_groups:
        cores = int(m["nproc"] or 1)
        w(f"- Where the CPU went during the run ({cores} cores x {load.elapsed:.0f} s = "
          f"{cores * load.elapsed:.0f} core-seconds; busy {load.cpu_busy:.0f}, "
          f"{100 * load.cpu_busy / (cores * load.elapsed):.0f}%), core-seconds (user + system, sampled "
          "from /proc every 2 s):")
        w("")
        w("  | Processes | Core-seconds | Share of the machine |")
        w("  | --- | ---: | ---: |")
        for g, secs in load.cpu_groups.items():
            w(f"  | {g} | {secs:.1f} | {100 * secs / (cores * load.elapsed):.0f}% |")
    w("")
    w("## Prose")
    w("")
    w(PROSE_START)
    w(prose)
    w(PROSE_END)
    w("")
    w("## Result")
    w("")
    w(f"**{'PASSED' if ok else 'FAILED'}**: {total} requests in {load.elapsed:.1f} s, **{rps:.0f} requests/s**; "
      f"5xx: **{fivexx}**; connection errors and timeouts: **{conn}**; reads that missed an acknowledged "
      f"write: **{st.stale_count}**.")
    w("")
    w("| Check | Result |")
    w("| --- | --- |")
    for name, passed, detail in checks:
        w(f"| {name} | {'ok' if passed else '**FAILED**'}: {detail} |")
    w("")
    w("## Requests by route")
    w("")
    w("| Route | Share of the mix | Requests | Statuses | Requests/s | Median ms | p99 ms | Max ms "
      "| Server median ms | Server p99 ms |")
    w("| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    mix = dict(MIX)
    server_lat = results["server_latency"]
    for r in ROUTES:
        counts = {s: c for (route, s), c in st.status.items() if route == r}
        n = sum(counts.values())
        lat = st.latency.get(r, [])
        sl = server_lat.get(r.replace("{id}", "{id}"), [])
        statuses = ", ".join(f"{s}: {c}" for s, c in sorted(counts.items(), key=lambda x: str(x[0])))
        w(f"| `{r}` | {mix[r]}% | {n} | {statuses} | {n / load.elapsed:.1f} | {pct(lat, 0.5):.1f} | "
          f"{pct(lat, 0.99):.1f} | {max(lat) if lat else float('nan'):.1f} | {pct(sl, 0.5):.1f} | {pct(sl, 0.99):.1f} |")
    all_lat = [x for r in ROUTES for x in st.latency.get(r, [])]
    all_sl = [x for r in ROUTES for x in server_lat.get(r, [])]
    w(f"| all | 100% | {total} | | {rps:.1f} | {pct(all_lat, 0.5):.1f} | {pct(all_lat, 0.99):.1f} | "
      f"{max(all_lat) if all_lat else float('nan'):.1f} | {pct(all_sl, 0.5):.1f} | {pct(all_sl, 0.99):.1f} |")
    w("")
    w("Requests/s, median, p99 and max are the load tool's (from sending the request to the last byte")
    w("of the answer, through nginx); the server columns are the servers' own `latency_ms` of their")
    w("`request finished` log lines in the run's window (to the answer's headers, in the process).")
    w("")
    w("The mix is the share of operations picked; the requests differ where a pick could not be made as")
    w("such (a create in an organization at its vendor limit becomes a delete, a vendor operation in an")
    w("organization without vendors a create, a PUT on a vendor with a PUT in flight a read). The tool's")
    w("latency includes waiting for its own event loop on the shared CPU.")
    w("")
    w("## Writes: acknowledged against found")
    w("")
    w("| What | Acknowledged | Found |")
    w("| --- | ---: | ---: |")
    for label, (a, f) in results["db_counts"].items():
        w(f"| {label} (database{', gone' if label.startswith('deleted') else ''}) | {a} | {f} |")
    for label, (a, f) in results["api_counts"].items():
        w(f"| {label} (API read-back{', current' if label == 'documents' else ''}) | {a} | {f} |")
    w(f"| files in the bucket, against document rows | {results['storage_rows']} | {results['bucket_objects']} |")
    w("")
    wa = load.writes_acked
    w(f"Acknowledged during the run: {wa[R_CREATE]} vendors created, {wa[R_PUT]} vendor updates, "
      f"{wa[R_UPLOAD]} documents uploaded, {wa[R_DELETE]} vendors deleted.")
    w("")
    w("## The servers' side")
    w("")
    ns = results["nginx_status"]
    w("nginx's access log, every request of the run (sign-ups and the read-back included): " +
      ", ".join(f"{s}: {c}" for s, c in sorted(ns.items())) + ".")
    w("")
    warnings = results["log_warnings"]
    w(f"ERROR lines in the logs of the servers, workers, scheduler and nginx: {len(results['log_errors'])}; "
      f"WARN lines: {sum(warnings.values())}" + (", by log and message:" if warnings else "."))
    if warnings:
        w("")
        for k, c in sorted(warnings.items(), key=lambda x: -x[1])[:15]:
            w(f"- {c} x `{k}`")
    if results["log_errors"]:
        w("")
        w("```")
        for e in results["log_errors"][:20]:
            w(e)
        w("```")
    if results.get("race_results"):
        w("")
        w("## Concurrent writes on one vendor")
        w("")
        w("After the checks above, on two organizations of their own (one Professional, one Free), what the")
        w("mixed load never does: requests that race on one vendor, as two people of one organization, or")
        w("a person and the vendor on the portal, may.")
        w("")
        w("| Requests | Expected | Seen | Result |")
        w("| --- | --- | --- | --- |")
        for name, passed, expected, seen in results["race_results"]:
            w(f"| {name} | {expected} | {seen} | {'ok' if passed else '**FAILED**'} |")
        if results.get("race_logs"):
            w("")
            w("The servers' ERROR lines for those 5xx, by message (count, then one whole line):")
            w("")
            for msg, (count, example) in sorted(results["race_logs"].items(), key=lambda x: -x[1][0]):
                w(f"- {count} x `{msg[:300]}`")
                w("")
                w("  ```")
                w(f"  {example[:1500]}")
                w("  ```")
    problems = results["problems"]
    if problems:
        w("")
        w("## What failed")
        w("")
        for p in problems[:80]:
            w(f"- {p}")
        if len(problems) > 80:
            w(f"- ... {len(problems) - 80} more")
    os.makedirs(os.path.dirname(os.path.abspath(args.report)), exist_ok=True)
    with open(args.report + ".tmp", "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(args.report + ".tmp", args.report)


# --- Commands -------------------------------------------------------------------------------

async def register(args):
    run_id = f"{int(time.time())}{os.getpid()}"
    stats = Stats()
    orgs = []
    sem = asyncio.Semaphore(4)
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60)) as session:
        async def one(i):
            async with sem:
                email = f"owner{i}-{run_id}@load.example"
                body = {"name": f"Load Owner {i}", "email": email, "password": "load-password-1",
                        "company": f"Load Company {i}"}
                status, data, _, rid = await call(session, stats, "POST /api/auth/register", "POST",
                                                  f"{args.url.rstrip('/')}/api/auth/register", json=body)
                if status != 201 or not isinstance(data, dict) or not data.get("token"):
                    raise SystemExit(f"load: registration {i} answered {status} (request id {rid}): {data}")
                if isinstance(i, str):
                    return {"index": i, "email": email, "token": data["token"], "role": "race",
                            "plan": "professional" if i == "race-pro" else "free"}
                plan = "free" if i >= args.orgs - args.free else "professional"
                return {"index": i, "email": email, "token": data["token"], "plan": plan, "role": "load"}
        ids = list(range(args.orgs)) + (["race-pro", "race-free"] if args.races else [])
        orgs = await asyncio.gather(*(one(i) for i in ids))
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(orgs, f)
    print(f"load: {len(orgs)} organizations signed up", file=sys.stderr)


def run(args):
    with open(args.orgs, encoding="utf-8") as f:
        orgs = json.load(f)
    os.environ["LOAD_DATABASE_URL"] = args.database_url
    results = {"machine": machine(), "started": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}
    before = results["machine"]["loadavg"]
    race_orgs = {o["index"]: o for o in orgs if o.get("role") == "race"}
    orgs = [o for o in orgs if o.get("role", "load") == "load"]
    load = Load(args, orgs)
    with open(os.path.join(args.topology, "database")) as f:
        database = f.read().strip()
    load.cpu = CpuAccount(args.topology, database, [p for p in args.helper_pids.split(",") if p])
    print(f"load: {args.connections} connections for {args.duration:g} s over {len(orgs)} organizations",
          file=sys.stderr, flush=True)
    asyncio.run(load.run())
    with open("/proc/loadavg") as f:
        after = f.read().strip()
    results["finished"] = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    results["tool_cpu"] = (load.cpu1.ru_utime + load.cpu1.ru_stime) - (load.cpu0.ru_utime + load.cpu0.ru_stime)

    print("load: checking every acknowledged write (API, database, bucket)", file=sys.stderr, flush=True)
    db_problems, db_counts, storage, rows = check_database(load, args.database_url)
    keys = asyncio.run(list_bucket(args.s3_endpoint, args.s3_bucket))
    bucket_problems, objects = check_bucket(storage, keys)
    log_errors, log_warnings, nginx_status = scan_logs(args.topology)
    server_lat, server_status = server_latency(args.topology, load.wall0, load.wall1)
    results["server_latency"] = server_lat
    results["server_status"] = server_status
    results.update(db_counts=db_counts, storage_rows=rows, bucket_objects=objects, log_errors=log_errors,
                   log_warnings=log_warnings, nginx_status=nginx_status,
                   api_counts=getattr(load, "verify_counts", {}))

    st = load.stats
    fivexx = [(r, s, c) for (r, s), c in list(st.status.items()) + list(load.verify.status.items())
              if isinstance(s, int) and s >= 500]
    conn = sum(c for (_, s), c in list(st.status.items()) + list(load.verify.status.items()) if not isinstance(s, int))
    other = sum(c for (r, s), c in st.status.items() if isinstance(s, int) and s < 500 and s != SUCCESS[r])
    other_verify = sum(c for (r, s), c in load.verify.status.items() if isinstance(s, int) and s < 500 and s != 200)
    n5 = sum(c for _, _, c in fivexx)
    checks = [
        ("No 5xx (the run and the read-back)", n5 == 0,
         "none" if not fivexx else ", ".join(f"{r} {s}: {c}" for r, s, c in fivexx)),
        ("No connection error or timeout", conn == 0, f"{conn}"),
        ("No other refusal (402, 404, 409, 422, 429, ...)", other + other_verify == 0,
         f"{other + other_verify}" + (" (429s: rate limited)" if any(s == 429 for (_, s) in st.status) else "")),
        ("Reads sent after a write's acknowledgement saw it", st.stale_count == 0, f"{st.stale_count} stale reads"),
        ("The API read-back matches what was acknowledged", not load.api_problems,
         f"{len(load.api_problems)} differences"),
        ("The database holds every acknowledged write and no deleted vendor", not db_problems,
         f"{len(db_problems)} differences"),
        ("The bucket holds one object per document row", not bucket_problems,
         f"{rows} rows, {objects} objects"),
        ("No ERROR line in the logs", not log_errors, f"{len(log_errors)}"),
    ]
    race_results, race_logs, race_stats = [], {}, None
    if race_orgs:
        print("load: concurrent writes on one vendor (the race checks)", file=sys.stderr, flush=True)
        races = Races(args, race_orgs)
        try:
            asyncio.run(races.run(args.database_url))
        except (RuntimeError, KeyError, TypeError) as err:
            races.check("the race checks ran", False, "they run to the end", f"stopped: {err!r}")
        race_results = races.results
        race_logs = error_lines(args.topology, [rid for _, _, rid in races.errors if rid])
        race_stats = races.stats
        failed = [r for r in race_results if not r[1]]
        checks.append(("Concurrent writes on one vendor (below)", not failed,
                       f"{len(race_results) - len(failed)} of {len(race_results)} as expected"))
    results.update(race_results=race_results, race_logs=race_logs, race_stats=race_stats)
    ok = all(c[1] for c in checks)
    problems = ([f"{r} -> {s}: {d}" for r, s, d in st.failures + load.verify.failures] + st.stale
                + load.api_problems + db_problems + bucket_problems + log_errors[:10])
    results["problems"] = problems
    write_report(args, load, results, before, after, ok, checks)

    total = sum(st.status.values())
    print(f"\nload: {total} requests in {load.elapsed:.1f} s = {total / load.elapsed:.0f}/s at {args.connections} "
          f"connections over {len(orgs)} organizations", file=sys.stderr)
    for r in ROUTES:
        counts = {s: c for (route, s), c in st.status.items() if route == r}
        lat = st.latency.get(r, [])
        print(f"  {r:34} {sum(counts.values()):7}  median {pct(lat, .5):7.1f} ms  p99 {pct(lat, .99):7.1f} ms  "
              f"{dict(sorted(counts.items(), key=lambda x: str(x[0])))}", file=sys.stderr)
    for label, (a, f) in db_counts.items():
        print(f"  {label}: acknowledged {a}, found {f} (database)", file=sys.stderr)
    for name, passed, detail in checks:
        print(f"  [{'ok' if passed else 'FAILED'}] {name}: {detail}", file=sys.stderr)
    for name, passed, expected, seen in race_results:
        print(f"  [{'ok' if passed else 'FAILED'}] race: {name}: expected {expected}; seen {seen}", file=sys.stderr)
    for msg, (count, _) in race_logs.items():
        print(f"    {count} x ERROR {msg[:200]}", file=sys.stderr)
    for p in problems[:30]:
        print(f"  - {p}", file=sys.stderr)
    print(f"load: {'PASSED' if ok else 'FAILED'}; wrote {args.report}", file=sys.stderr)
    return 0 if ok else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("register")
    r.add_argument("--url", required=True)
    r.add_argument("--orgs", type=int, required=True)
    r.add_argument("--free", type=int, default=0)
    r.add_argument("--out", required=True)
    r.add_argument("--races", action="store_true", help="also the two organizations of the race checks")
    l = sub.add_parser("run")
    l.add_argument("--url", required=True)
    l.add_argument("--orgs", required=True)
    l.add_argument("--connections", type=int, default=100)
    l.add_argument("--duration", type=float, default=300)
    l.add_argument("--timeout", type=float, default=60)
    l.add_argument("--seed", type=int, default=16)
    l.add_argument("--database-url", required=True)
    l.add_argument("--s3-endpoint", required=True)
    l.add_argument("--s3-bucket", required=True)
    l.add_argument("--topology", required=True)
    l.add_argument("--report", required=True)
    l.add_argument("--command", dest="command_line", default="scripts/load")
    l.add_argument("--bin", default="?")
    l.add_argument("--bin-note", default="")
    l.add_argument("--commit", default="?")
    l.add_argument("--helper-pids", default="", help="the S3 and SMTP servers' pids, comma-separated")
    args = parser.parse_args()
    if args.command == "register":
        asyncio.run(register(args))
        return 0
    args.command = args.command_line
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
