//! Teams (docs/product.md, "Teams"): invitations, seats, roles, removal and the hand-over of
//! ownership, through the API; every refusal leaves everything as it was.

use chrono::{Duration, Utc};
use loco_rs::{app::AppContext, TestServer};
use sea_orm::{ActiveModelTrait, ActiveValue, ColumnTrait, EntityTrait, QueryFilter};
use serde_json::{json, Value};
use vendorwatch::models::{_entities::invitations, users};

use crate::support::{
    assert_envelope, bearer, create_vendor, email, get, make_professional, register, with_app,
    Account,
};

async fn send(
    server: &TestServer,
    account: &Account,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> axum_test::TestResponse {
    let (h, v) = bearer(&account.token);
    let request = match method {
        "POST" => server.post(path),
        "PUT" => server.put(path),
        "DELETE" => server.delete(path),
        "PATCH" => server.patch(path),
        _ => server.get(path),
    }
    .add_header(h, v);
    match body {
        Some(body) => request.json(&body).await,
        None => request.await,
    }
}

fn token_from(raw: &str) -> String {
    let message = raw
        .replace("=\r\n", "")
        .replace("=\n", "")
        .replace("=3D", "=");
    let start = message
        .find("accept-invitation?token=")
        .expect("the accept link in the email")
        + "accept-invitation?token=".len();
    message[start..]
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .collect()
}

/// Invites `address` as `role`; returns the invitation's JSON and the link's token.
async fn invite(
    server: &TestServer,
    ctx: &AppContext,
    by: &Account,
    address: &str,
    role: &str,
) -> (Value, String) {
    let res = send(
        server,
        by,
        "POST",
        "/api/team/invitations",
        Some(json!({"email": address, "orgRole": role})),
    )
    .await;
    assert_eq!(res.status_code(), 201, "{}", res.text());
    let deliveries = ctx.mailer.as_ref().unwrap().deliveries();
    let message = deliveries
        .messages
        .iter()
        .rev()
        .find(|m| m.contains(&format!("To: {address}")))
        .expect("an email to the invited address")
        .clone();
    (res.json(), token_from(&message))
}

/// Invites and accepts: a new person of `by`'s organization with `role`.
pub(super) async fn join(
    server: &TestServer,
    ctx: &AppContext,
    by: &Account,
    name: &str,
    role: &str,
) -> Account {
    let address = email(&name.to_lowercase().replace(' ', "-"));
    let (_, token) = invite(server, ctx, by, &address, role).await;
    let res = server
        .post(&format!("/api/invitations/{token}/accept"))
        .json(&json!({"name": name, "password": "team-password"}))
        .await;
    assert_eq!(res.status_code(), 201, "{}", res.text());
    let body: Value = res.json();
    Account {
        token: body["token"].as_str().unwrap().to_string(),
        user: body["user"].clone(),
        email: address,
    }
}

async fn members(server: &TestServer, account: &Account) -> Vec<Value> {
    let res = get(server, account, "/api/team/members").await;
    assert_eq!(res.status_code(), 200, "{}", res.text());
    res.json::<Vec<Value>>()
}

/// The people and their roles, without when each last used the app (which every request moves).
async fn roster(server: &TestServer, account: &Account) -> Vec<Value> {
    let mut people = members(server, account).await;
    for person in &mut people {
        person["lastActiveAt"] = Value::Null;
    }
    people
}

async fn role_of(server: &TestServer, account: &Account, id: &Value) -> String {
    members(server, account)
        .await
        .into_iter()
        .find(|m| &m["id"] == id)
        .map_or_else(
            || "gone".to_string(),
            |m| m["orgRole"].as_str().unwrap().to_string(),
        )
}

#[tokio::test]
async fn an_invited_person_accepts_and_works_in_the_inviting_organization() {
    with_app(|server, ctx| async move {
        let owner = register(&server, "Olive Owner", Some("Riverside Properties")).await;
        assert_eq!(
            owner.user["orgRole"], "owner",
            "registration makes the owner"
        );
        let vendor = create_vendor(&server, &owner, "Acme Plumbing").await;
        let address = email("mia-member");

        let (sent, token) = invite(&server, &ctx, &owner, &address, "member").await;
        assert_eq!(sent["email"], address.as_str());
        assert_eq!(sent["orgRole"], "member");
        assert_eq!(sent["invitedBy"], "Olive Owner");
        assert!(sent["expiresAt"].as_str().is_some());
        assert!(token.len() >= 64, "32 random bytes: {token}");
        let stored = invitations::Entity::find()
            .one(&ctx.db)
            .await
            .unwrap()
            .unwrap();
        assert_ne!(stored.token_digest, token, "only a digest is kept");
        assert!(!stored.token_digest.contains(&token));
        let pending = get(&server, &owner, "/api/team/invitations").await;
        assert_eq!(pending.json::<Vec<Value>>().len(), 1);

        let preview = server.get(&format!("/api/invitations/{token}")).await;
        assert_eq!(preview.status_code(), 200, "{}", preview.text());
        assert_eq!(
            preview.json::<Value>(),
            json!({"organizationName": "Riverside Properties", "invitedBy": "Olive Owner",
                   "email": address, "orgRole": "member"})
        );

        let res = server
            .post(&format!("/api/invitations/{token}/accept"))
            .json(&json!({"name": "Mia Member", "password": "team-password"}))
            .await;
        assert_eq!(res.status_code(), 201, "{}", res.text());
        let body: Value = res.json();
        assert_eq!(body["user"]["orgRole"], "member");
        assert_eq!(body["user"]["email"], address.as_str());
        let mia = Account {
            token: body["token"].as_str().unwrap().to_string(),
            user: body["user"].clone(),
            email: address.clone(),
        };
        let seen = get(&server, &mia, "/api/vendors")
            .await
            .json::<Vec<Value>>();
        assert_eq!(seen.len(), 1, "the organization's vendors");
        assert_eq!(seen[0]["id"], vendor["id"]);
        create_vendor(&server, &mia, "Bright Electric").await;

        let team = members(&server, &owner).await;
        let roles: Vec<(&str, &str)> = team
            .iter()
            .map(|m| (m["name"].as_str().unwrap(), m["orgRole"].as_str().unwrap()))
            .collect();
        assert_eq!(roles, [("Olive Owner", "owner"), ("Mia Member", "member")]);
        assert!(team[1]["joinedAt"].as_str().is_some());
        assert!(
            team[1]["lastActiveAt"].as_str().is_some(),
            "Mia has used the app: {}",
            team[1]
        );
        assert!(get(&server, &owner, "/api/team/invitations")
            .await
            .json::<Vec<Value>>()
            .is_empty());

        // The link worked once.
        let again = server.get(&format!("/api/invitations/{token}")).await;
        assert_envelope(&again, 404, "invitation_not_found");
        let again = server
            .post(&format!("/api/invitations/{token}/accept"))
            .json(&json!({"name": "Mia Again", "password": "team-password"}))
            .await;
        assert_envelope(&again, 404, "invitation_not_found");
    })
    .await;
}

#[tokio::test]
async fn unknown_used_revoked_replaced_and_expired_links_all_answer_the_same() {
    with_app(|server, ctx| async move {
        let owner = register(&server, "Olive Owner", None).await;
        make_professional(&ctx, &owner).await;
        let (first, revoked) = invite(&server, &ctx, &owner, &email("rev"), "viewer").await;
        let path = format!("/api/team/invitations/{}", first["id"].as_str().unwrap());
        assert_eq!(
            send(&server, &owner, "DELETE", &path, None)
                .await
                .status_code(),
            204
        );
        assert_envelope(
            &send(&server, &owner, "DELETE", &path, None).await,
            404,
            "not_found",
        );

        let again = email("again");
        let (_, replaced) = invite(&server, &ctx, &owner, &again, "viewer").await;
        let (_, resent) = invite(&server, &ctx, &owner, &again, "member").await;
        let pending = get(&server, &owner, "/api/team/invitations")
            .await
            .json::<Vec<Value>>();
        assert_eq!(pending.len(), 1, "re-sending replaces: {pending:?}");
        assert_eq!(pending[0]["orgRole"], "member");

        let (_, expired) = invite(&server, &ctx, &owner, &email("late"), "viewer").await;
        let row = invitations::Entity::find()
            .filter(invitations::Column::RevokedAt.is_null())
            .all(&ctx.db)
            .await
            .unwrap()
            .into_iter()
            .max_by_key(|r| r.id)
            .unwrap();
        let mut row: invitations::ActiveModel = row.into();
        row.expires_at = ActiveValue::Set((Utc::now() - Duration::minutes(1)).into());
        row.update(&ctx.db).await.unwrap();

        let unknown = "0".repeat(64);
        let mut bodies = Vec::new();
        for token in [&revoked, &replaced, &expired, &unknown] {
            let res = server.get(&format!("/api/invitations/{token}")).await;
            bodies.push(assert_envelope(&res, 404, "invitation_not_found"));
            let res = server
                .post(&format!("/api/invitations/{token}/accept"))
                .json(&json!({"name": "Some One", "password": "team-password"}))
                .await;
            assert_envelope(&res, 404, "invitation_not_found");
        }
        assert!(bodies.windows(2).all(|w| w[0] == w[1]), "{bodies:?}");
        let preview = server.get(&format!("/api/invitations/{resent}")).await;
        assert_eq!(preview.status_code(), 200, "the newest link works");
        assert_eq!(
            crate::support::count_users(&ctx).await,
            1,
            "no account made"
        );
    })
    .await;
}

#[tokio::test]
async fn seats_count_people_and_pending_invitations_per_plan() {
    with_app(|server, ctx| async move {
        let owner = register(&server, "Olive Owner", None).await;
        let first = email("first");
        invite(&server, &ctx, &owner, &first, "member").await;
        let res = send(
            &server,
            &owner,
            "POST",
            "/api/team/invitations",
            Some(json!({"email": email("second"), "orgRole": "member"})),
        )
        .await;
        let body = assert_envelope(&res, 402, "plan_limit");
        let message = body["message"].as_str().unwrap();
        assert!(
            message.contains("Free") && message.contains('2'),
            "{message}"
        );
        assert_eq!(
            get(&server, &owner, "/api/team/invitations")
                .await
                .json::<Vec<Value>>()
                .len(),
            1,
            "nothing added"
        );
        // Re-sending to the same email takes no second seat.
        invite(&server, &ctx, &owner, &first, "viewer").await;

        let config = get(&server, &owner, "/api/config").await.json::<Value>();
        assert_eq!(config["plans"]["free"]["seats"], 2);
        assert_eq!(config["plans"]["professional"]["seats"], 10);

        make_professional(&ctx, &owner).await;
        for n in 0..8 {
            invite(&server, &ctx, &owner, &email(&format!("pro{n}")), "viewer").await;
        }
        let res = send(
            &server,
            &owner,
            "POST",
            "/api/team/invitations",
            Some(json!({"email": email("eleventh"), "orgRole": "viewer"})),
        )
        .await;
        let body = assert_envelope(&res, 402, "plan_limit");
        assert!(body["message"].as_str().unwrap().contains("Professional"));
    })
    .await;
}

#[tokio::test]
async fn an_email_with_an_account_is_not_invited_nor_made_twice() {
    with_app(|server, ctx| async move {
        let owner = register(&server, "Olive Owner", None).await;
        let stranger = register(&server, "Sam Stranger", Some("Elsewhere")).await;
        let res = send(
            &server,
            &owner,
            "POST",
            "/api/team/invitations",
            Some(json!({"email": stranger.email, "orgRole": "member"})),
        )
        .await;
        assert_envelope(&res, 409, "email_taken");
        let res = send(
            &server,
            &owner,
            "POST",
            "/api/team/invitations",
            Some(json!({"email": owner.email.to_uppercase(), "orgRole": "member"})),
        )
        .await;
        assert_envelope(&res, 409, "already_member");

        // An account made with the email between the invitation and its acceptance.
        let late = email("late");
        let (_, token) = invite(&server, &ctx, &owner, &late, "member").await;
        let res = server
            .post("/api/auth/register")
            .json(&json!({"name": "Late Comer", "email": late, "password": "pass-word"}))
            .await;
        assert_eq!(res.status_code(), 201);
        let res = server
            .post(&format!("/api/invitations/{token}/accept"))
            .json(&json!({"name": "Late Comer", "password": "team-password"}))
            .await;
        assert_envelope(&res, 409, "email_taken");
        assert_eq!(members(&server, &owner).await.len(), 1, "no one joined");
        let preview = server.get(&format!("/api/invitations/{token}")).await;
        assert_eq!(preview.status_code(), 200, "the link was not spent");
    })
    .await;
}

#[tokio::test]
async fn bad_team_input_is_refused_and_changes_nothing() {
    with_app(|server, ctx| async move {
        let owner = register(&server, "Olive Owner", None).await;
        make_professional(&ctx, &owner).await;
        for body in [
            json!({"email": "not-an-email", "orgRole": "member"}),
            json!({"email": email("x"), "orgRole": "owner"}),
            json!({"email": email("x"), "orgRole": "boss"}),
            json!({"email": email("x"), "orgRole": ""}),
        ] {
            let res = send(&server, &owner, "POST", "/api/team/invitations", Some(body)).await;
            assert_envelope(&res, 422, "validation_failed");
        }
        let res = server
            .post("/api/team/invitations")
            .json(&json!({"email": email("x"), "orgRole": "member"}))
            .await;
        assert_envelope(&res, 401, "unauthorized");
        assert!(get(&server, &owner, "/api/team/invitations")
            .await
            .json::<Vec<Value>>()
            .is_empty());

        let (_, token) = invite(&server, &ctx, &owner, &email("short"), "member").await;
        for body in [
            json!({"name": "Al Short", "password": "12345"}),
            json!({"name": " ", "password": "long-enough"}),
        ] {
            let res = server
                .post(&format!("/api/invitations/{token}/accept"))
                .json(&body)
                .await;
            assert_envelope(&res, 422, "validation_failed");
        }
        assert_eq!(members(&server, &owner).await.len(), 1);
        let preview = server.get(&format!("/api/invitations/{token}")).await;
        assert_eq!(preview.status_code(), 200, "still pending");

        let mia = join(&server, &ctx, &owner, "Mia Member", "member").await;
        let path = format!("/api/team/members/{}", mia.user["id"].as_str().unwrap());
        for body in [json!({"orgRole": "owner"}), json!({"orgRole": "boss"})] {
            let res = send(&server, &owner, "PUT", &path, Some(body)).await;
            assert_envelope(&res, 422, "validation_failed");
        }
        assert_eq!(role_of(&server, &owner, &mia.user["id"]).await, "member");
    })
    .await;
}

#[tokio::test]
async fn who_may_change_and_remove_whom() {
    with_app(|server, ctx| async move {
        let owner = register(&server, "Olive Owner", None).await;
        make_professional(&ctx, &owner).await;
        let ada = join(&server, &ctx, &owner, "Ada Admin", "admin").await;
        let abe = join(&server, &ctx, &owner, "Abe Admin", "admin").await;
        let mia = join(&server, &ctx, &owner, "Mia Member", "member").await;
        let vic = join(&server, &ctx, &owner, "Vic Viewer", "viewer").await;
        let path =
            |who: &Account| format!("/api/team/members/{}", who.user["id"].as_str().unwrap());
        let refused = [
            // An admin cannot change or remove an admin, nor the owner, nor make an admin.
            (&ada, "PUT", path(&abe), Some(json!({"orgRole": "member"}))),
            (&ada, "DELETE", path(&abe), None),
            (
                &ada,
                "PUT",
                path(&owner),
                Some(json!({"orgRole": "member"})),
            ),
            (&ada, "DELETE", path(&owner), None),
            (&ada, "PUT", path(&mia), Some(json!({"orgRole": "admin"}))),
            // No one changes their own role, the owner included.
            (&ada, "PUT", path(&ada), Some(json!({"orgRole": "viewer"}))),
            (
                &owner,
                "PUT",
                path(&owner),
                Some(json!({"orgRole": "admin"})),
            ),
            (&owner, "DELETE", path(&owner), None),
            // Members and viewers manage no one, nor invite.
            (&mia, "PUT", path(&vic), Some(json!({"orgRole": "member"}))),
            (&mia, "DELETE", path(&vic), None),
            (&vic, "DELETE", path(&mia), None),
            (
                &ada,
                "POST",
                "/api/team/invitations".to_string(),
                Some(json!({"email": email("new-admin"), "orgRole": "admin"})),
            ),
            (
                &mia,
                "POST",
                "/api/team/invitations".to_string(),
                Some(json!({"email": email("x"), "orgRole": "viewer"})),
            ),
            (&mia, "GET", "/api/team/invitations".to_string(), None),
            (
                &ada,
                "POST",
                "/api/team/transfer-ownership".to_string(),
                Some(json!({"memberId": mia.user["id"]})),
            ),
        ];
        let before = roster(&server, &owner).await;
        for (who, method, path, body) in refused {
            let res = send(&server, who, method, &path, body).await;
            assert_envelope(&res, 403, "forbidden_role");
        }
        assert_eq!(roster(&server, &owner).await, before, "nothing changed");

        // What each may do.
        let res = send(
            &server,
            &ada,
            "PUT",
            &path(&mia),
            Some(json!({"orgRole": "viewer"})),
        )
        .await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        assert_eq!(res.json::<Value>()["orgRole"], "viewer");
        let res = send(
            &server,
            &owner,
            "PUT",
            &path(&abe),
            Some(json!({"orgRole": "member"})),
        )
        .await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        let res = send(&server, &ada, "DELETE", &path(&vic), None).await;
        assert_eq!(res.status_code(), 204, "{}", res.text());
        assert_eq!(role_of(&server, &owner, &vic.user["id"]).await, "gone");
    })
    .await;
}

#[tokio::test]
async fn another_organizations_people_and_invitations_are_not_found() {
    with_app(|server, ctx| async move {
        let owner = register(&server, "Olive Owner", None).await;
        make_professional(&ctx, &owner).await;
        let mia = join(&server, &ctx, &owner, "Mia Member", "viewer").await;
        let path =
            |who: &Account| format!("/api/team/members/{}", who.user["id"].as_str().unwrap());
        let other = register(&server, "Mallory Other", Some("Other Org")).await;
        for (method, body) in [
            ("PUT", Some(json!({"orgRole": "viewer"}))),
            ("DELETE", None),
        ] {
            let res = send(&server, &other, method, &path(&mia), body.clone()).await;
            assert_envelope(&res, 404, "not_found");
            let res = send(&server, &owner, method, "/api/team/members/nope", body).await;
            assert_envelope(&res, 404, "not_found");
        }
        let res = send(
            &server,
            &other,
            "POST",
            "/api/team/transfer-ownership",
            Some(json!({"memberId": mia.user["id"]})),
        )
        .await;
        assert_envelope(&res, 404, "not_found");
        assert_eq!(role_of(&server, &owner, &mia.user["id"]).await, "viewer");
        let (sent, _) = invite(&server, &ctx, &owner, &email("theirs"), "viewer").await;
        let res = send(
            &server,
            &other,
            "DELETE",
            &format!("/api/team/invitations/{}", sent["id"].as_str().unwrap()),
            None,
        )
        .await;
        assert_envelope(&res, 404, "not_found");
        assert_eq!(
            get(&server, &owner, "/api/team/invitations")
                .await
                .json::<Vec<Value>>()
                .len(),
            1
        );
    })
    .await;
}

#[tokio::test]
async fn removing_someone_ends_their_tokens_at_once_and_keeps_what_they_made() {
    with_app(|server, ctx| async move {
        let owner = register(&server, "Olive Owner", None).await;
        let mia = join(&server, &ctx, &owner, "Mia Member", "member").await;
        let made = create_vendor(&server, &mia, "Acme Plumbing").await;
        assert_eq!(get(&server, &mia, "/api/auth/me").await.status_code(), 200);

        let path = format!("/api/team/members/{}", mia.user["id"].as_str().unwrap());
        assert_eq!(
            send(&server, &owner, "DELETE", &path, None)
                .await
                .status_code(),
            204
        );
        assert_eq!(get(&server, &mia, "/api/auth/me").await.status_code(), 401);
        assert_eq!(get(&server, &mia, "/api/vendors").await.status_code(), 401);
        let login = server
            .post("/api/auth/login")
            .json(&json!({"email": mia.email, "password": "team-password"}))
            .await;
        assert_eq!(login.status_code(), 401, "the account is gone");

        let vendors = get(&server, &owner, "/api/vendors")
            .await
            .json::<Vec<Value>>();
        assert_eq!(vendors.len(), 1);
        assert_eq!(vendors[0]["id"], made["id"], "what they made stays");
        assert!(users::Model::find_by_email(&ctx.db, &mia.email)
            .await
            .is_err());
        assert_eq!(members(&server, &owner).await.len(), 1);
    })
    .await;
}

#[tokio::test]
async fn only_the_owner_hands_ownership_over() {
    with_app(|server, ctx| async move {
        let owner = register(&server, "Olive Owner", None).await;
        let ada = join(&server, &ctx, &owner, "Ada Admin", "admin").await;
        let body = json!({"memberId": ada.user["id"]});
        let res = send(
            &server,
            &ada,
            "POST",
            "/api/team/transfer-ownership",
            Some(body.clone()),
        )
        .await;
        assert_envelope(&res, 403, "forbidden_role");
        let res = send(
            &server,
            &owner,
            "POST",
            "/api/team/transfer-ownership",
            Some(json!({"memberId": owner.user["id"]})),
        )
        .await;
        assert_envelope(&res, 404, "not_found");

        let res = send(
            &server,
            &owner,
            "POST",
            "/api/team/transfer-ownership",
            Some(body),
        )
        .await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        assert_eq!(res.json::<Value>()["orgRole"], "owner");
        assert_eq!(role_of(&server, &ada, &ada.user["id"]).await, "owner");
        assert_eq!(role_of(&server, &ada, &owner.user["id"]).await, "admin");
        let me = get(&server, &owner, "/api/auth/me").await.json::<Value>();
        assert_eq!(me["orgRole"], "admin");
        // The new owner may now remove the former one; the former owner may not touch them.
        let path = format!("/api/team/members/{}", ada.user["id"].as_str().unwrap());
        let res = send(&server, &owner, "DELETE", &path, None).await;
        assert_envelope(&res, 403, "forbidden_role");
        let path = format!("/api/team/members/{}", owner.user["id"].as_str().unwrap());
        assert_eq!(
            send(&server, &ada, "DELETE", &path, None)
                .await
                .status_code(),
            204
        );
    })
    .await;
}

async fn activity_of(server: &TestServer, account: &Account, path: String) -> Vec<Value> {
    let res = get(server, account, &path).await;
    assert_eq!(res.status_code(), 200, "{}", res.text());
    res.json()
}

#[tokio::test]
async fn the_activity_log_says_who_did_what_and_filters_by_person() {
    with_app(|server, ctx| async move {
        let owner = register(&server, "Olive Owner", None).await;
        let mia = join(&server, &ctx, &owner, "Mia Member", "member").await;
        let made = create_vendor(&server, &mia, "Acme Plumbing").await;
        let key = made["id"].as_str().unwrap();
        let edit = send(
            &server,
            &owner,
            "PUT",
            &format!("/api/vendors/{key}"),
            Some(crate::support::vendor_body("Acme Plumbing and Heating")),
        )
        .await;
        assert_eq!(edit.status_code(), 200, "{}", edit.text());

        let log: Vec<Value> = get(&server, &owner, "/api/activity-logs").await.json();
        let by = |t: &str| log.iter().find(|e| e["activityType"] == t).unwrap().clone();
        let (created, updated) = (by("vendor_created"), by("vendor_updated"));
        assert_eq!(created["source"], "user");
        assert_eq!(created["actor"]["id"], mia.user["id"]);
        assert_eq!(created["actor"]["name"], "Mia Member");
        assert_eq!(updated["actor"]["id"], owner.user["id"]);
        assert_eq!(updated["actor"]["name"], "Olive Owner");

        let mias = |account| {
            let path = format!(
                "/api/activity-logs?actor={}",
                mia.user["id"].as_str().unwrap()
            );
            activity_of(&server, account, path)
        };
        let only_mia = mias(&owner).await;
        assert_eq!(only_mia.len(), 1, "{only_mia:?}");
        assert_eq!(only_mia[0]["id"], created["id"]);

        // Another organization filtering by this person finds nothing of theirs.
        let stranger = crate::support::other_org(&server).await;
        assert!(mias(&stranger).await.is_empty());

        let bad = get(&server, &owner, "/api/activity-logs?actor=not-a-person").await;
        assert_envelope(&bad, 422, "validation_failed");

        // Removed, the person is still named on what they did, and still found.
        let path = format!("/api/team/members/{}", mia.user["id"].as_str().unwrap());
        assert_eq!(
            send(&server, &owner, "DELETE", &path, None)
                .await
                .status_code(),
            204
        );
        let after = mias(&owner).await;
        assert_eq!(after.len(), 1);
        assert_eq!(after[0]["actor"]["name"], "Mia Member");
    })
    .await;
}

#[tokio::test]
async fn a_change_of_people_is_judged_by_the_role_its_author_has_now() {
    with_app(|server, ctx| async move {
        let owner = register(&server, "Olive Owner", None).await;
        make_professional(&ctx, &owner).await;
        let ada = join(&server, &ctx, &owner, "Ada Admin", "admin").await;
        let mia = join(&server, &ctx, &owner, "Mia Member", "member").await;
        // Ada's request was let in while she was an admin ...
        let as_let_in = users::Model::find_by_email(&ctx.db, &ada.email)
            .await
            .unwrap();
        // ... and the owner made her a member before it got to the people.
        let path = format!("/api/team/members/{}", ada.user["id"].as_str().unwrap());
        let demoted = send(
            &server,
            &owner,
            "PUT",
            &path,
            Some(json!({"orgRole": "member"})),
        )
        .await;
        assert_eq!(demoted.status_code(), 200, "{}", demoted.text());
        let before = roster(&server, &owner).await;

        let mia_id = mia.user["id"].as_str().unwrap();
        let removal = vendorwatch::models::members::remove(&ctx.db, &as_let_in, mia_id).await;
        assert!(removal.is_err(), "a member may not remove anyone");
        let change = vendorwatch::models::members::change_role(
            &ctx.db,
            &as_let_in,
            mia_id,
            vendorwatch::models::members::OrgRole::Viewer,
        )
        .await;
        assert!(change.is_err(), "nor change a role");
        assert_eq!(roster(&server, &owner).await, before, "nothing changed");
    })
    .await;
}
