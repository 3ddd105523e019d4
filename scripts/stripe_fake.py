"""A server that answers like Stripe's API for the calls Vendorwatch makes, for the browser
tests (scripts/test starts it and points the e2e server at it with STRIPE_API_BASE): customers,
Checkout sessions (created, and retrieved with `expand[]` of `line_items` and `subscription`),
billing-portal sessions, with objects shaped as Stripe's API reference publishes them. Its
Checkout and portal URLs are pages of its own.
`POST /_test/sessions/<id>/pay` marks a session paid, as paying on Stripe's page would.
The Rust tests use tests/support/stripe.rs, the same server in Rust.

Usage: python3 scripts/stripe_fake.py <port>
"""

import hashlib
import hmac
import json
import sys
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

SECRET_KEY = "sk_test_vendorwatch_e2e"
PORT = int(sys.argv[1])
BASE = f"http://127.0.0.1:{PORT}"
SESSIONS = {}
# Each session's line items, returned only when the look-up expands them.
LINE_ITEMS = {}
SUBSCRIPTIONS = {}
COUNTER = [0]


def next_id(prefix):
    COUNTER[0] += 1
    return f"{prefix}{COUNTER[0]:04d}"


def checkout_session(sid, org_pid, customer):
    now = int(time.time())
    return {
        "id": sid, "object": "checkout.session", "adaptive_pricing": None,
        "after_expiration": None, "allow_promotion_codes": None, "amount_subtotal": 2900,
        "amount_total": 2900,
        "automatic_tax": {"enabled": False, "liability": None, "provider": None, "status": None},
        "billing_address_collection": None, "cancel_url": None, "client_reference_id": org_pid,
        "client_secret": None, "consent": None, "consent_collection": None, "created": now,
        "currency": "usd", "custom_fields": [],
        "custom_text": {"after_submit": None, "shipping_address": None, "submit": None,
                        "terms_of_service_acceptance": None},
        "customer": customer, "customer_creation": None, "customer_details": None,
        "customer_email": None, "expires_at": now + 86400, "invoice": None,
        "invoice_creation": None, "livemode": False, "locale": None, "metadata": {},
        "mode": "subscription", "payment_intent": None, "payment_link": None,
        "payment_method_collection": "always", "payment_method_types": ["card"],
        "payment_status": "unpaid", "phone_number_collection": {"enabled": False},
        "recovered_from": None, "setup_intent": None, "shipping_address_collection": None,
        "shipping_cost": None, "shipping_options": [], "status": "open", "submit_type": None,
        "subscription": None, "success_url": None,
        "total_details": {"amount_discount": 0, "amount_shipping": 0, "amount_tax": 0},
        "ui_mode": "hosted", "url": f"{BASE}/c/pay/{sid}",
    }


def price_object(price_id, created):
    return {
        "id": price_id, "object": "price", "active": True,
        "billing_scheme": "per_unit", "created": created, "currency": "usd",
        "custom_unit_amount": None, "livemode": False, "lookup_key": None, "metadata": {},
        "nickname": None, "product": "prod_professional",
        "recurring": {"interval": "month", "interval_count": 1, "meter": None,
                      "trial_period_days": None, "usage_type": "licensed"},
        "tax_behavior": "unspecified", "tiers_mode": None, "transform_quantity": None,
        "type": "recurring", "unit_amount": 2900, "unit_amount_decimal": "2900",
    }


def line_item(price_id, quantity):
    """A Checkout session's line item, as Stripe's API reference shows one."""
    amount = 2900 * quantity
    return {
        "id": next_id("li_e2e"), "object": "item", "amount_discount": 0,
        "amount_subtotal": amount, "amount_tax": 0, "amount_total": amount, "currency": "usd",
        "description": "Vendorwatch Professional",
        "price": price_object(price_id, int(time.time())), "quantity": quantity,
    }


def expanded(sid, expand):
    """The session as a look-up with these `expand[]` values returns it."""
    session = dict(SESSIONS[sid])
    if "line_items" in expand:
        session["line_items"] = {"object": "list", "data": LINE_ITEMS.get(sid, []),
                                 "has_more": False,
                                 "url": f"/v1/checkout/sessions/{sid}/line_items"}
    if "subscription" in expand and session.get("subscription") in SUBSCRIPTIONS:
        session["subscription"] = SUBSCRIPTIONS[session["subscription"]]
    return session


def subscription(sid, customer, status, period_end):
    start = period_end - 30 * 86400
    price = price_object("price_e2e_professional", start)
    plan = {
        "id": "price_e2e_professional", "object": "plan", "active": True, "amount": 2900,
        "amount_decimal": "2900", "billing_scheme": "per_unit", "created": start,
        "currency": "usd", "interval": "month", "interval_count": 1, "livemode": False,
        "metadata": {}, "meter": None, "nickname": None, "product": "prod_professional",
        "tiers_mode": None, "transform_usage": None, "trial_period_days": None,
        "usage_type": "licensed",
    }
    item = {
        "id": "si_e2e0001", "object": "subscription_item", "billing_thresholds": None,
        "created": start, "current_period_end": period_end, "current_period_start": start,
        "discounts": [], "metadata": {}, "plan": plan, "price": price, "quantity": 1,
        "subscription": sid, "tax_rates": [],
    }
    return {
        "id": sid, "object": "subscription", "application": None,
        "application_fee_percent": None,
        "automatic_tax": {"disabled_reason": None, "enabled": False, "liability": None},
        "billing_cycle_anchor": start, "billing_cycle_anchor_config": None,
        "billing_mode": {"flexible": None, "type": "classic", "updated_at": None},
        "billing_schedules": [], "billing_thresholds": None, "cancel_at": None,
        "cancel_at_period_end": False, "canceled_at": None,
        "cancellation_details": {"comment": None, "feedback": None, "reason": None},
        "collection_method": "charge_automatically", "created": start, "currency": "usd",
        "customer": customer, "days_until_due": None, "default_payment_method": None,
        "default_source": None, "default_tax_rates": [], "description": None, "discounts": [],
        "ended_at": None, "invoice_settings": {"account_tax_ids": None, "issuer": {"type": "self"}},
        "items": {"object": "list", "data": [item], "has_more": False, "total_count": 1,
                  "url": f"/v1/subscription_items?subscription={sid}"},
        "latest_invoice": None, "livemode": False, "metadata": {},
        "next_pending_invoice_item_invoice": None, "on_behalf_of": None,
        "pause_collection": None, "payment_settings": None,
        "pending_invoice_item_interval": None, "pending_setup_intent": None,
        "pending_update": None, "schedule": None, "start_date": start, "status": status,
        "test_clock": None, "transfer_data": None, "trial_end": None, "trial_settings": None,
        "trial_start": None,
    }


def send_event(endpoint, secret, event_type, obj):
    """Posts an event to a webhook endpoint, signed as Stripe signs it."""
    payload = json.dumps({
        "id": next_id("evt_e2e"), "object": "event", "api_version": "2025-09-30.clover",
        "created": int(time.time()), "data": {"object": obj}, "livemode": False,
        "pending_webhooks": 1, "request": {"id": None, "idempotency_key": None},
        "type": event_type,
    })
    stamp = int(time.time())
    digest = hmac.new(secret.encode(), f"{stamp}.{payload}".encode(), hashlib.sha256).hexdigest()
    request = urllib.request.Request(endpoint, data=payload.encode(), method="POST", headers={
        "Content-Type": "application/json", "Stripe-Signature": f"t={stamp},v1={digest}"})
    try:
        with urllib.request.urlopen(request) as response:
            return response.status
    except urllib.error.HTTPError as err:
        return err.code


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def send(self, status, body, content_type="application/json"):
        data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def form(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length).decode() if length else ""
        return {k: v[0] for k, v in parse_qs(raw).items()}

    def authorized(self):
        if self.headers.get("Authorization") == f"Bearer {SECRET_KEY}":
            return True
        self.send(401, {"error": {"type": "invalid_request_error", "message": "Invalid API Key provided"}})
        return False

    def page(self, title):
        self.send(200, f"<!doctype html><html lang=en><title>{title}</title><h1>{title}</h1></html>",
                  "text/html; charset=utf-8")

    def do_GET(self):
        if self.path.startswith("/c/pay/"):
            return self.page("Stripe Checkout (test)")
        if self.path.startswith("/p/session/"):
            return self.page("Stripe customer portal (test)")
        if self.path.startswith("/v1/checkout/sessions/") and self.authorized():
            path, _, query = self.path.partition("?")
            sid = path.rsplit("/", 1)[1]
            expand = [v for k, vs in parse_qs(query).items() if k.startswith("expand") for v in vs]
            if sid in SESSIONS:
                return self.send(200, expanded(sid, expand))
            return self.send(404, {"error": {"type": "invalid_request_error",
                                             "message": f"No such checkout.session: '{sid}'"}})
        if self.path == "/_ping":
            return self.send(200, {"ok": True})
        return self.send(404, {"error": {"type": "invalid_request_error", "message": "Unrecognized request URL"}})

    def do_POST(self):
        if self.path.startswith("/_test/sessions/") and self.path.endswith("/pay"):
            sid = self.path.split("/")[3]
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
            session = SESSIONS[sid]
            session.update(payment_status="paid", status="complete", url=None,
                           subscription=body.get("subscription", "sub_e2e"))
            SUBSCRIPTIONS.setdefault(session["subscription"], subscription(
                session["subscription"], session["customer"], "active", int(time.time()) + 30 * 86400))
            return self.send(200, session)
        if self.path == "/_test/events/subscription-updated":
            # {endpoint, secret, sessionId, periodEnd}: the subscription of a paid session,
            # renewing at periodEnd, sent to the app's webhook endpoint.
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
            session = SESSIONS[body["sessionId"]]
            sub = subscription(session["subscription"], session["customer"], "active", body["periodEnd"])
            SUBSCRIPTIONS[sub["id"]] = sub
            status = send_event(body["endpoint"], body["secret"], "customer.subscription.updated", sub)
            return self.send(200, {"status": status})
        if not self.authorized():
            return None
        form = self.form()
        now = int(time.time())
        if self.path == "/v1/customers":
            return self.send(200, {
                "id": next_id("cus_e2e"), "object": "customer", "address": None, "balance": 0,
                "created": now, "currency": None, "default_source": None, "delinquent": False,
                "description": None, "email": form.get("email"), "invoice_prefix": "VWE2E",
                "livemode": False, "metadata": {}, "name": form.get("name"), "phone": None,
                "preferred_locales": [], "shipping": None, "tax_exempt": "none", "test_clock": None,
            })
        if self.path == "/v1/checkout/sessions":
            sid = next_id("cs_test_e2e")
            SESSIONS[sid] = checkout_session(sid, form.get("client_reference_id"), form.get("customer"))
            if "line_items[0][price]" in form:
                LINE_ITEMS[sid] = [line_item(form["line_items[0][price]"],
                                             int(form.get("line_items[0][quantity]", "1")))]
            return self.send(200, SESSIONS[sid])
        if self.path == "/v1/billing_portal/sessions":
            pid = next_id("bps_e2e")
            return self.send(200, {
                "id": pid, "object": "billing_portal.session", "configuration": "bpc_e2e",
                "created": now, "customer": form.get("customer"), "flow": None, "livemode": False,
                "locale": None, "on_behalf_of": None, "return_url": form.get("return_url"),
                "url": f"{BASE}/p/session/{pid}",
            })
        return self.send(404, {"error": {"type": "invalid_request_error", "message": "Unrecognized request URL"}})


if __name__ == "__main__":
    ThreadingHTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
