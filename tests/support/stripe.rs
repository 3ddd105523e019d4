//! A server of the tests' own that answers like Stripe's API for the calls the product makes
//! (customers, Checkout sessions created and retrieved — with `expand[]` of `line_items` and
//! `subscription` —, billing-portal sessions), with the objects shaped as Stripe's API
//! reference publishes them, and the events Stripe would send, signed like Stripe signs them
//! (HMAC-SHA256 over `"{t}.{body}"`).

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use axum::{
    extract::{Path, RawQuery, State},
    http::{HeaderMap, StatusCode},
    response::{IntoResponse, Response},
    routing::{get, post},
    Json, Router,
};
use hmac_for_tests::{Hmac, KeyInit, Mac};
use serde_json::{json, Value};
use sha2_for_tests::Sha256;

pub const SECRET_KEY: &str = "sk_test_vendorwatch";
pub const PRICE_ID: &str = "price_professional_monthly";
pub const WEBHOOK_SECRET: &str = "whsec_vendorwatch_test";

/// One call the product made: method, path and form fields.
#[derive(Debug, Clone)]
pub struct Call {
    pub method: &'static str,
    pub path: String,
    pub form: HashMap<String, String>,
}

#[derive(Default)]
struct Fake {
    calls: Vec<Call>,
    sessions: HashMap<String, Value>,
    /// Each session's line items (Stripe returns them only when asked to expand them).
    line_items: HashMap<String, Vec<Value>>,
    subscriptions: HashMap<String, Value>,
    next: u32,
}

/// The running server; `url` goes into `settings.billing.api_base`.
#[derive(Clone)]
pub struct StripeFake {
    pub url: String,
    state: Arc<Mutex<Fake>>,
}

type Shared = Arc<Mutex<Fake>>;

fn now() -> i64 {
    chrono::Utc::now().timestamp()
}

fn authorized(headers: &HeaderMap) -> bool {
    headers.get("authorization").and_then(|v| v.to_str().ok())
        == Some(format!("Bearer {SECRET_KEY}").as_str())
}

fn stripe_error(status: StatusCode, kind: &str, message: &str) -> Response {
    (
        status,
        Json(json!({"error": {"type": kind, "message": message}})),
    )
        .into_response()
}

fn record(
    state: &Shared,
    method: &'static str,
    path: &str,
    body: &str,
) -> (HashMap<String, String>, u32) {
    let form: HashMap<String, String> = url::form_urlencoded::parse(body.as_bytes())
        .into_owned()
        .collect();
    let mut fake = state.lock().unwrap();
    fake.calls.push(Call {
        method,
        path: path.to_string(),
        form: form.clone(),
    });
    fake.next += 1;
    (form, fake.next)
}

async fn create_customer(
    State(state): State<Shared>,
    headers: HeaderMap,
    body: String,
) -> Response {
    if !authorized(&headers) {
        return stripe_error(
            StatusCode::UNAUTHORIZED,
            "invalid_request_error",
            "Invalid API Key provided",
        );
    }
    let (form, n) = record(&state, "POST", "/v1/customers", &body);
    Json(json!({
        "id": format!("cus_test{n:04}"),
        "object": "customer",
        "address": null,
        "balance": 0,
        "created": now(),
        "currency": null,
        "default_source": null,
        "delinquent": false,
        "description": null,
        "email": form.get("email"),
        "invoice_prefix": format!("VW{n:04}"),
        "livemode": false,
        "metadata": {"organization": form.get("metadata[organization]")},
        "name": form.get("name"),
        "phone": null,
        "preferred_locales": [],
        "shipping": null,
        "tax_exempt": "none",
        "test_clock": null
    }))
    .into_response()
}

/// A Checkout session as Stripe's API reference shows one.
pub fn checkout_session(
    id: &str,
    org_pid: Option<&str>,
    customer: &str,
    paid: bool,
    subscription: Option<&str>,
) -> Value {
    json!({
        "id": id,
        "object": "checkout.session",
        "adaptive_pricing": null,
        "after_expiration": null,
        "allow_promotion_codes": null,
        "amount_subtotal": 2900,
        "amount_total": 2900,
        "automatic_tax": {"enabled": false, "liability": null, "provider": null, "status": null},
        "billing_address_collection": null,
        "cancel_url": "http://localhost:5150/dashboard",
        "client_reference_id": org_pid,
        "client_secret": null,
        "consent": null,
        "consent_collection": null,
        "created": now(),
        "currency": "usd",
        "custom_fields": [],
        "custom_text": {"after_submit": null, "shipping_address": null, "submit": null, "terms_of_service_acceptance": null},
        "customer": customer,
        "customer_creation": null,
        "customer_details": null,
        "customer_email": null,
        "expires_at": now() + 86_400,
        "invoice": null,
        "invoice_creation": null,
        "livemode": false,
        "locale": null,
        "metadata": {},
        "mode": "subscription",
        "payment_intent": null,
        "payment_link": null,
        "payment_method_collection": "always",
        "payment_method_types": ["card"],
        "payment_status": if paid { "paid" } else { "unpaid" },
        "phone_number_collection": {"enabled": false},
        "recovered_from": null,
        "setup_intent": null,
        "shipping_address_collection": null,
        "shipping_cost": null,
        "shipping_options": [],
        "status": if paid { "complete" } else { "open" },
        "submit_type": null,
        "subscription": subscription,
        "success_url": "http://localhost:5150/payment-success?session_id={CHECKOUT_SESSION_ID}",
        "total_details": {"amount_discount": 0, "amount_shipping": 0, "amount_tax": 0},
        "ui_mode": "hosted",
        "url": if paid { Value::Null } else { json!(format!("https://checkout.stripe.test/c/pay/{id}")) }
    })
}

/// A price as Stripe's API reference shows one: recurring monthly, or one-time.
pub fn price(id: &str, unit_amount: i64, recurring: bool) -> Value {
    json!({
        "id": id, "object": "price", "active": true, "billing_scheme": "per_unit",
        "created": now() - 86_400, "currency": "usd", "custom_unit_amount": null, "livemode": false,
        "lookup_key": null, "metadata": {}, "nickname": null, "product": "prod_professional",
        "recurring": if recurring {
            json!({"interval": "month", "interval_count": 1, "meter": null,
                   "trial_period_days": null, "usage_type": "licensed"})
        } else { Value::Null },
        "tax_behavior": "unspecified", "tiers_mode": null, "transform_quantity": null,
        "type": if recurring { "recurring" } else { "one_time" },
        "unit_amount": unit_amount, "unit_amount_decimal": unit_amount.to_string()
    })
}

/// A Checkout session's line item as Stripe's API reference shows one.
pub fn line_item(n: u32, price: &Value, quantity: u64) -> Value {
    let amount = price["unit_amount"].as_i64().unwrap_or(0) * i64::try_from(quantity).unwrap();
    json!({
        "id": format!("li_test{n:04}"),
        "object": "item",
        "amount_discount": 0,
        "amount_subtotal": amount,
        "amount_tax": 0,
        "amount_total": amount,
        "currency": "usd",
        "description": "Vendorwatch Professional",
        "price": price,
        "quantity": quantity
    })
}

async fn create_session(State(state): State<Shared>, headers: HeaderMap, body: String) -> Response {
    if !authorized(&headers) {
        return stripe_error(
            StatusCode::UNAUTHORIZED,
            "invalid_request_error",
            "Invalid API Key provided",
        );
    }
    let (form, n) = record(&state, "POST", "/v1/checkout/sessions", &body);
    let id = format!("cs_test_{n:04}");
    let session = checkout_session(
        &id,
        form.get("client_reference_id").map(String::as_str),
        form.get("customer").map_or("", String::as_str),
        false,
        None,
    );
    let items = form
        .get("line_items[0][price]")
        .map(|price_id| {
            let quantity = form
                .get("line_items[0][quantity]")
                .and_then(|q| q.parse().ok())
                .unwrap_or(1);
            vec![line_item(n, &price(price_id, 2900, true), quantity)]
        })
        .unwrap_or_default();
    let mut fake = state.lock().unwrap();
    fake.line_items.insert(id.clone(), items);
    fake.sessions.insert(id, session.clone());
    Json(session).into_response()
}

/// `GET /v1/checkout/sessions/{id}`, with `expand[]` (as `expand[0]=...&expand[1]=...`) of
/// `line_items` (a list object) and `subscription` (the object in place of its id).
async fn retrieve_session(
    State(state): State<Shared>,
    headers: HeaderMap,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
) -> Response {
    if !authorized(&headers) {
        return stripe_error(
            StatusCode::UNAUTHORIZED,
            "invalid_request_error",
            "Invalid API Key provided",
        );
    }
    let query = query.unwrap_or_default();
    let (form, _) = record(
        &state,
        "GET",
        &format!("/v1/checkout/sessions/{id}"),
        &query,
    );
    let expand: Vec<&String> = form
        .iter()
        .filter(|(k, _)| k.starts_with("expand"))
        .map(|(_, v)| v)
        .collect();
    let fake = state.lock().unwrap();
    match fake.sessions.get(&id).cloned() {
        Some(mut session) => {
            if expand.iter().any(|e| *e == "line_items") {
                let items = fake.line_items.get(&id).cloned().unwrap_or_default();
                session["line_items"] = json!({
                    "object": "list",
                    "data": items,
                    "has_more": false,
                    "url": format!("/v1/checkout/sessions/{id}/line_items")
                });
            }
            if expand.iter().any(|e| *e == "subscription") {
                let sub = session["subscription"].as_str().map(str::to_string);
                if let Some(object) = sub.and_then(|sub| fake.subscriptions.get(&sub)) {
                    session["subscription"] = object.clone();
                }
            }
            Json(session).into_response()
        }
        None => stripe_error(
            StatusCode::NOT_FOUND,
            "invalid_request_error",
            &format!("No such checkout.session: '{id}'"),
        ),
    }
}

async fn create_portal(State(state): State<Shared>, headers: HeaderMap, body: String) -> Response {
    if !authorized(&headers) {
        return stripe_error(
            StatusCode::UNAUTHORIZED,
            "invalid_request_error",
            "Invalid API Key provided",
        );
    }
    let (form, n) = record(&state, "POST", "/v1/billing_portal/sessions", &body);
    Json(json!({
        "id": format!("bps_test{n:04}"),
        "object": "billing_portal.session",
        "configuration": "bpc_test_default",
        "created": now(),
        "customer": form.get("customer"),
        "flow": null,
        "livemode": false,
        "locale": null,
        "on_behalf_of": null,
        "return_url": form.get("return_url"),
        "url": format!("https://billing.stripe.test/p/session/bps_test{n:04}")
    }))
    .into_response()
}

impl StripeFake {
    pub async fn start() -> Self {
        let state: Shared = Arc::default();
        let app = Router::new()
            .route("/v1/customers", post(create_customer))
            .route("/v1/checkout/sessions", post(create_session))
            .route("/v1/checkout/sessions/{id}", get(retrieve_session))
            .route("/v1/billing_portal/sessions", post(create_portal))
            .with_state(state.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        Self { url, state }
    }

    pub fn calls(&self) -> Vec<Call> {
        self.state.lock().unwrap().calls.clone()
    }

    /// The checkout session as Stripe holds it after the customer paid, with its subscription
    /// (active, renewing in 30 days) unless the subscription exists already.
    pub fn pay(&self, session_id: &str, subscription: &str) {
        let mut fake = self.state.lock().unwrap();
        let session = fake
            .sessions
            .get_mut(session_id)
            .expect("a session of this server");
        session["payment_status"] = json!("paid");
        session["status"] = json!("complete");
        session["subscription"] = json!(subscription);
        session["url"] = Value::Null;
        let customer = session["customer"].as_str().unwrap_or_default().to_string();
        fake.subscriptions
            .entry(subscription.to_string())
            .or_insert_with(|| {
                self::subscription(
                    subscription,
                    &customer,
                    "active",
                    false,
                    now() + 30 * 86_400,
                )
            });
    }

    /// The session as Stripe holds it once it expired unpaid.
    pub fn expire(&self, session_id: &str) {
        let mut fake = self.state.lock().unwrap();
        let session = fake
            .sessions
            .get_mut(session_id)
            .expect("a session of this server");
        session["status"] = json!("expired");
        session["url"] = Value::Null;
    }

    /// The subscription's status changes on Stripe (its webhook event is the test's to send);
    /// returns the subscription as it now is.
    pub fn set_subscription_status(&self, subscription: &str, status: &str) -> Value {
        let mut fake = self.state.lock().unwrap();
        let sub = fake
            .subscriptions
            .get_mut(subscription)
            .expect("a subscription of this server");
        sub["status"] = json!(status);
        sub.clone()
    }

    /// A paid session Stripe holds that the product did not create (a Payment Link's, say):
    /// `mode`, one line item of `price`, for `subscription` if given (created active).
    pub fn add_paid_session(
        &self,
        id: &str,
        org_pid: &str,
        customer: &str,
        mode: &str,
        price: &Value,
        subscription: Option<&str>,
    ) -> Value {
        let mut session = checkout_session(id, Some(org_pid), customer, true, subscription);
        session["mode"] = json!(mode);
        let amount = price["unit_amount"].clone();
        session["amount_subtotal"] = amount.clone();
        session["amount_total"] = amount;
        let mut fake = self.state.lock().unwrap();
        fake.next += 1;
        let n = fake.next;
        fake.line_items
            .insert(id.to_string(), vec![line_item(n, price, 1)]);
        if let Some(sub) = subscription {
            fake.subscriptions
                .entry(sub.to_string())
                .or_insert_with(|| {
                    self::subscription(sub, customer, "active", false, now() + 30 * 86_400)
                });
        }
        fake.sessions.insert(id.to_string(), session.clone());
        session
    }

    pub fn session(&self, id: &str) -> Value {
        self.state.lock().unwrap().sessions[id].clone()
    }
}

/// The billing settings that point the product at `fake`.
pub fn configure(config: &mut loco_rs::config::Config, fake: &StripeFake) {
    let settings = config.settings.get_or_insert_with(|| json!({}));
    settings["billing"] = json!({
        "stripe_secret_key": SECRET_KEY,
        "professional_price_id": PRICE_ID,
        "webhook_secret": WEBHOOK_SECRET,
        "api_base": fake.url,
    });
}

/// An event as Stripe sends it to a webhook endpoint.
pub fn event(id: &str, kind: &str, object: Value) -> String {
    let mut event = json!({
        "id": id,
        "object": "event",
        "api_version": "2025-09-30.clover",
        "created": now(),
        "data": {"object": null},
        "livemode": false,
        "pending_webhooks": 1,
        "request": {"id": null, "idempotency_key": null},
        "type": kind
    });
    event["data"]["object"] = object;
    event.to_string()
}

/// The `Stripe-Signature` header for `payload` signed with `secret` at `timestamp`.
pub fn signature(payload: &str, secret: &str, timestamp: i64) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(format!("{timestamp}.{payload}").as_bytes());
    format!(
        "t={timestamp},v1={}",
        hex::encode(mac.finalize().into_bytes())
    )
}

/// A subscription object as Stripe's API reference shows one.
pub fn subscription(
    id: &str,
    customer: &str,
    status: &str,
    cancel_at_period_end: bool,
    period_end: i64,
) -> Value {
    let start = period_end - 30 * 86_400;
    json!({
        "id": id,
        "object": "subscription",
        "application": null,
        "application_fee_percent": null,
        "automatic_tax": {"disabled_reason": null, "enabled": false, "liability": null},
        "billing_cycle_anchor": start,
        "billing_cycle_anchor_config": null,
        "billing_mode": {"flexible": null, "type": "classic", "updated_at": null},
        "billing_schedules": [],
        "billing_thresholds": null,
        "cancel_at": if cancel_at_period_end { json!(period_end) } else { Value::Null },
        "cancel_at_period_end": cancel_at_period_end,
        "canceled_at": if status == "canceled" { json!(now()) } else { Value::Null },
        "cancellation_details": {"comment": null, "feedback": null, "reason": null},
        "collection_method": "charge_automatically",
        "created": start,
        "currency": "usd",
        "customer": customer,
        "days_until_due": null,
        "default_payment_method": null,
        "default_source": null,
        "default_tax_rates": [],
        "description": null,
        "discounts": [],
        "ended_at": if status == "canceled" { json!(now()) } else { Value::Null },
        "invoice_settings": {"account_tax_ids": null, "issuer": {"type": "self"}},
        "items": {
            "object": "list",
            "data": [{
                "id": "si_test0001",
                "object": "subscription_item",
                "billing_thresholds": null,
                "created": start,
                "current_period_end": period_end,
                "current_period_start": start,
                "discounts": [],
                "metadata": {},
                "plan": {
                    "id": PRICE_ID, "object": "plan", "active": true, "amount": 2900,
                    "amount_decimal": "2900", "billing_scheme": "per_unit", "created": start,
                    "currency": "usd", "interval": "month", "interval_count": 1, "livemode": false,
                    "metadata": {}, "meter": null, "nickname": null, "product": "prod_professional",
                    "tiers_mode": null, "transform_usage": null, "trial_period_days": null,
                    "usage_type": "licensed"
                },
                "price": {
                    "id": PRICE_ID, "object": "price", "active": true, "billing_scheme": "per_unit",
                    "created": start, "currency": "usd", "custom_unit_amount": null, "livemode": false,
                    "lookup_key": null, "metadata": {}, "nickname": null, "product": "prod_professional",
                    "recurring": {"interval": "month", "interval_count": 1, "meter": null,
                                  "trial_period_days": null, "usage_type": "licensed"},
                    "tax_behavior": "unspecified", "tiers_mode": null, "transform_quantity": null,
                    "type": "recurring", "unit_amount": 2900, "unit_amount_decimal": "2900"
                },
                "quantity": 1,
                "subscription": id,
                "tax_rates": []
            }],
            "has_more": false,
            "total_count": 1,
            "url": format!("/v1/subscription_items?subscription={id}")
        },
        "latest_invoice": null,
        "livemode": false,
        "metadata": {},
        "next_pending_invoice_item_invoice": null,
        "on_behalf_of": null,
        "pause_collection": null,
        "payment_settings": null,
        "pending_invoice_item_interval": null,
        "pending_setup_intent": null,
        "pending_update": null,
        "schedule": null,
        "start_date": start,
        "status": status,
        "test_clock": null,
        "transfer_data": null,
        "trial_end": null,
        "trial_settings": null,
        "trial_start": null
    })
}

/// An invoice whose payment failed, as Stripe's API reference shows one.
pub fn failed_invoice(id: &str, customer: &str, subscription: &str) -> Value {
    json!({
        "id": id,
        "object": "invoice",
        "account_country": "US",
        "account_name": "Vendorwatch",
        "amount_due": 2900,
        "amount_overpaid": 0,
        "amount_paid": 0,
        "amount_remaining": 2900,
        "amount_shipping": 0,
        "attempt_count": 1,
        "attempted": true,
        "auto_advance": true,
        "automatic_tax": {"disabled_reason": null, "enabled": false, "liability": null, "provider": null, "status": null},
        "billing_reason": "subscription_cycle",
        "collection_method": "charge_automatically",
        "created": now(),
        "currency": "usd",
        "customer": customer,
        "default_tax_rates": [],
        "description": null,
        "discounts": [],
        "issuer": {"type": "self"},
        "lines": {"object": "list", "data": [], "has_more": false, "url": format!("/v1/invoices/{id}/lines")},
        "livemode": false,
        "metadata": {},
        "parent": {"quote_details": null, "subscription_details": {"metadata": {}, "subscription": subscription}, "type": "subscription_details"},
        "payment_settings": {"default_mandate": null, "payment_method_options": null, "payment_method_types": null},
        "period_end": now(),
        "period_start": now() - 30 * 86_400,
        "post_payment_credit_notes_amount": 0,
        "pre_payment_credit_notes_amount": 0,
        "starting_balance": 0,
        "status": "open",
        "status_transitions": {"finalized_at": now(), "marked_uncollectible_at": null, "paid_at": null, "voided_at": null},
        "subtotal": 2900,
        "total": 2900
    })
}
