//! The whole role matrix (docs/product.md, "Teams"), taken from the published `OpenAPI`
//! document so that a route added later is covered without a line here: every signed-in call
//! that writes is refused to a viewer (403 `forbidden_role`, nothing changed) unless it is one
//! of the few open to every role; the admin calls are refused to a member; everything else a
//! member may call, and every read a viewer may. Without a token, every one of them is a 401.

use loco_rs::TestServer;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::{json, Value};
use vendorwatch::{
    controllers::current::OPEN_TO_EVERY_ROLE,
    models::{_entities::documents, extractions},
};

use crate::support::{
    bearer, create_vendor, email, get, make_professional, register, upload, with_app, Account,
    UploadSpec,
};

/// The calls only admins and the owner may make.
const ADMIN_ONLY: [(&str, &str); 24] = [
    ("GET", "/api/team/invitations"),
    ("PUT", "/api/account/organization"),
    ("POST", "/api/create-subscription"),
    ("POST", "/api/upgrade-to-professional"),
    ("POST", "/api/billing/portal"),
    ("POST", "/api/team/invitations"),
    ("DELETE", "/api/team/invitations/{id}"),
    ("PUT", "/api/team/members/{id}"),
    ("DELETE", "/api/team/members/{id}"),
    ("POST", "/api/team/transfer-ownership"),
    ("POST", "/api/requirement-sets"),
    ("PUT", "/api/requirement-sets/{id}"),
    ("DELETE", "/api/requirement-sets/{id}"),
    ("GET", "/api/api-keys"),
    ("POST", "/api/api-keys"),
    ("DELETE", "/api/api-keys/{id}"),
    ("GET", "/api/webhooks"),
    ("POST", "/api/webhooks"),
    ("GET", "/api/webhooks/{id}"),
    ("DELETE", "/api/webhooks/{id}"),
    ("GET", "/api/webhooks/{id}/deliveries"),
    ("POST", "/api/webhooks/{id}/test"),
    ("GET", "/api/calendar-feed"),
    ("POST", "/api/calendar-feed/rotate"),
];

/// Every signed-in operation of the document that is not the platform's own (`/api/admin`).
async fn operations(server: &TestServer) -> Vec<(String, String)> {
    let doc: Value = server.get("/api/openapi.json").await.json();
    let mut found = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        if path.starts_with("/api/admin/") {
            continue;
        }
        for (method, op) in item.as_object().unwrap() {
            if op.get("security").is_some() {
                found.push((method.to_uppercase(), path.clone()));
            }
        }
    }
    assert!(found.len() > 30, "the document lists the API: {found:?}");
    found
}

struct Ids {
    vendor: String,
    document: String,
    member: String,
    invitation: String,
    set: String,
}

fn concrete(path: &str, ids: &Ids) -> String {
    let id = if path.starts_with("/api/vendors/") {
        &ids.vendor
    } else if path.starts_with("/api/documents/") {
        &ids.document
    } else if path.starts_with("/api/team/members/") {
        &ids.member
    } else if path.starts_with("/api/team/invitations/") {
        &ids.invitation
    } else if path.starts_with("/api/requirement-sets/") {
        &ids.set
    } else {
        "unused"
    };
    path.replace("{id}", id)
}

async fn call(
    server: &TestServer,
    who: &Account,
    method: &str,
    path: &str,
) -> axum_test::TestResponse {
    let (h, v) = bearer(&who.token);
    let request = match method {
        "POST" => server.post(path),
        "PUT" => server.put(path),
        "DELETE" => server.delete(path),
        "PATCH" => server.patch(path),
        _ => server.get(path),
    };
    let request = request.add_header(h, v);
    if method == "GET" {
        request.await
    } else {
        request.json(&json!({})).await
    }
}

async fn call_without_token(
    server: &TestServer,
    method: &str,
    path: &str,
) -> axum_test::TestResponse {
    match method {
        "POST" => server.post(path).json(&json!({})).await,
        "PUT" => server.put(path).json(&json!({})).await,
        "DELETE" => server.delete(path).json(&json!({})).await,
        "PATCH" => server.patch(path).json(&json!({})).await,
        _ => server.get(path).await,
    }
}

fn refused_for_role(res: &axum_test::TestResponse) -> bool {
    res.status_code() == 403
        && res.json::<Value>()["error"] == "forbidden_role"
        && res.json::<Value>()["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty())
}

/// What the organization holds, as its owner reads it.
async fn holdings(server: &TestServer, owner: &Account) -> Vec<Value> {
    let mut seen = Vec::new();
    for path in [
        "/api/vendors",
        "/api/documents",
        "/api/team/members",
        "/api/team/invitations",
        "/api/activity-logs",
        "/api/reminders",
        "/api/payment-status",
        "/api/requirement-sets",
    ] {
        let res = get(server, owner, path).await;
        assert_eq!(res.status_code(), 200, "{path}: {}", res.text());
        let mut body: Value = res.json();
        if path == "/api/team/members" {
            // When each person last used the app moves with every request.
            for m in body.as_array_mut().unwrap() {
                m["lastActiveAt"] = Value::Null;
            }
        }
        seen.push(body);
    }
    let me: Value = get(server, owner, "/api/auth/me").await.json();
    seen.push(me);
    seen
}

async fn join(
    server: &TestServer,
    ctx: &loco_rs::app::AppContext,
    owner: &Account,
    role: &str,
) -> (Account, String) {
    let address = email(role);
    let (h, v) = bearer(&owner.token);
    let res = server
        .post("/api/team/invitations")
        .add_header(h, v)
        .json(&json!({"email": address, "orgRole": role}))
        .await;
    assert_eq!(res.status_code(), 201, "{}", res.text());
    let invitation = res.json::<Value>()["id"].as_str().unwrap().to_string();
    let raw = ctx
        .mailer
        .as_ref()
        .unwrap()
        .deliveries()
        .messages
        .iter()
        .rev()
        .find(|m| m.contains(&format!("To: {address}")))
        .unwrap()
        .replace("=\r\n", "")
        .replace("=\n", "")
        .replace("=3D", "=");
    let start = raw.find("accept-invitation?token=").unwrap() + "accept-invitation?token=".len();
    let token: String = raw[start..]
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .collect();
    let res = server
        .post(&format!("/api/invitations/{token}/accept"))
        .json(&json!({"name": format!("Some {role}"), "password": "team-password"}))
        .await;
    assert_eq!(res.status_code(), 201, "{}", res.text());
    let body: Value = res.json();
    (
        Account {
            token: body["token"].as_str().unwrap().to_string(),
            user: body["user"].clone(),
            email: address,
        },
        invitation,
    )
}

async fn pending_invitation(server: &TestServer, owner: &Account) -> String {
    let (h, v) = bearer(&owner.token);
    let res = server
        .post("/api/team/invitations")
        .add_header(h, v)
        .json(&json!({"email": email("pending"), "orgRole": "viewer"}))
        .await;
    assert_eq!(res.status_code(), 201, "{}", res.text());
    res.json::<Value>()["id"].as_str().unwrap().to_string()
}

/// Calls every operation as `viewer`: reads and the calls open to every role pass the role
/// check; every other call is refused for the role.
async fn check_viewer(server: &TestServer, viewer: &Account, ops: &[(String, String)], ids: &Ids) {
    let mut open_to_viewers = Vec::new();
    // Signing out ends the viewer's token: it goes last.
    let viewer_order = ops
        .iter()
        .filter(|(_, p)| p != "/api/auth/logout")
        .chain(ops.iter().filter(|(_, p)| p == "/api/auth/logout"));
    for (method, path) in viewer_order {
        let res = call(server, viewer, method, &concrete(path, ids)).await;
        let is_open = OPEN_TO_EVERY_ROLE.contains(&(method.as_str(), path.as_str()));
        let admin_only = ADMIN_ONLY.contains(&(method.as_str(), path.as_str()));
        if (method == "GET" && !admin_only) || is_open {
            assert!(
                !refused_for_role(&res),
                "a viewer may call {method} {path}: {}",
                res.text()
            );
            if is_open {
                open_to_viewers.push((method.clone(), path.clone()));
            }
            // A viewer reads everything: a read is never refused for the role.
            if method == "GET" {
                assert!(
                    res.status_code().as_u16() < 400,
                    "a viewer reads {method} {path}: {} {}",
                    res.status_code(),
                    res.text()
                );
            }
        } else {
            assert!(
                refused_for_role(&res),
                "a viewer is refused {method} {path}: {} {}",
                res.status_code(),
                res.text()
            );
        }
    }
    assert_eq!(
        open_to_viewers.len(),
        OPEN_TO_EVERY_ROLE.len(),
        "{open_to_viewers:?}"
    );
}

#[tokio::test]
async fn every_write_route_refuses_a_viewer_and_every_admin_route_a_member() {
    with_app(|server, ctx| async move {
        let owner = register(&server, "Olive Owner", None).await;
        make_professional(&ctx, &owner).await;
        let vendor = create_vendor(&server, &owner, "Acme Plumbing").await;
        let vendor_key = vendor["id"].as_str().unwrap().to_string();
        let res = upload(&server, &owner, &vendor_key, &UploadSpec::pdf("w9")).await;
        assert_eq!(res.status_code(), 201, "{}", res.text());
        let document = res.json::<Value>()["id"].as_str().unwrap().to_string();
        // A reading by AI on record (AI is off here), so that its GET reads something.
        let stored = documents::Entity::find()
            .filter(documents::Column::Pid.eq(uuid::Uuid::parse_str(&document).unwrap()))
            .one(&ctx.db)
            .await
            .unwrap()
            .unwrap();
        extractions::unavailable(&ctx.db, &stored, None, "For the role checks.")
            .await
            .unwrap();
        let (viewer, _) = join(&server, &ctx, &owner, "viewer").await;
        let (member, _) = join(&server, &ctx, &owner, "member").await;
        let pending = pending_invitation(&server, &owner).await;
        let (h, v) = bearer(&owner.token);
        let res = server
            .post("/api/requirement-sets")
            .add_header(h, v)
            .json(&json!({"name": "Contractors", "lines": [{"line": "general_liability"}]}))
            .await;
        assert_eq!(res.status_code(), 201, "{}", res.text());
        let set = res.json::<Value>()["id"].as_str().unwrap().to_string();
        let ids = Ids {
            set,
            vendor: vendor_key,
            document,
            member: member.user["id"].as_str().unwrap().to_string(),
            invitation: pending,
        };
        let ops = operations(&server).await;
        for (method, path) in &ADMIN_ONLY {
            assert!(
                ops.iter().any(|(m, p)| m == method && p == path),
                "{method} {path} is in the document"
            );
        }

        let before = holdings(&server, &owner).await;
        for (method, path) in &ops {
            let res = call_without_token(&server, method, &concrete(path, &ids)).await;
            assert_eq!(
                res.status_code(),
                401,
                "{method} {path} without a token: {}",
                res.text()
            );
            assert_eq!(res.json::<Value>()["error"], "unauthorized");
        }
        assert_eq!(
            holdings(&server, &owner).await,
            before,
            "calls without a token changed nothing"
        );
        check_viewer(&server, &viewer, &ops, &ids).await;
        assert_eq!(
            holdings(&server, &owner).await,
            before,
            "a viewer changed nothing"
        );

        for (method, path) in &ADMIN_ONLY {
            let res = call(&server, &member, method, &concrete(path, &ids)).await;
            assert!(
                refused_for_role(&res),
                "a member is refused {method} {path}: {} {}",
                res.status_code(),
                res.text()
            );
        }
        assert_eq!(
            holdings(&server, &owner).await,
            before,
            "a member changed nothing"
        );

        for (method, path) in &ops {
            if ADMIN_ONLY.contains(&(method.as_str(), path.as_str())) || path == "/api/auth/logout"
            {
                continue;
            }
            let res = call(&server, &member, method, &concrete(path, &ids)).await;
            assert!(
                !refused_for_role(&res),
                "a member may call {method} {path}: {}",
                res.text()
            );
        }
    })
    .await;
}
