//! `GET /api/openapi.json`: the `OpenAPI` 3 document, generated from the handlers' annotations.

use crate::errors::ApiResult;
use loco_rs::prelude::*;
use utoipa::{
    openapi::{
        path::Operation,
        schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type},
        security::{Http, HttpAuthScheme, SecurityScheme},
        ContentBuilder, Ref, RefOr, Response, ResponseBuilder,
    },
    Modify, OpenApi,
};

use crate::models::file_type::FileKind;

use super::{
    account, activity, auth, billing, blog, bulk, content, documents, keywords, portal, reminders,
    reports, vendors,
};

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(Http::new(HttpAuthScheme::Bearer)),
        );
    }
}

/// The answers every operation can give, written once: a 400 for a request that cannot be read
/// (a malformed body or query, a body that is not a JSON object, a missing or wrong
/// Content-Type, a value of the wrong type, a NUL character), and a 401 on every operation that
/// needs a token. Downloads and views answer the file's detected type.
struct CommonResponses;

fn envelope(description: &str) -> RefOr<Response> {
    ResponseBuilder::new()
        .description(description)
        .content(
            "application/json",
            ContentBuilder::new()
                .schema(Some(Ref::from_schema_name("Envelope")))
                .build(),
        )
        .into()
}

fn file_response(kinds: &[FileKind]) -> RefOr<Response> {
    let binary = ObjectBuilder::new()
        .schema_type(Type::String)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::Binary)))
        .build();
    kinds
        .iter()
        .fold(
            ResponseBuilder::new().description("The exact bytes uploaded, as their detected type"),
            |response, kind| {
                response.content(
                    kind.content_type(),
                    ContentBuilder::new().schema(Some(binary.clone())).build(),
                )
            },
        )
        .into()
}

fn add_common(path: &str, operation: &mut Operation) {
    let responses = &mut operation.responses.responses;
    responses.entry("400".to_string()).or_insert_with(|| {
        envelope("The request could not be read: a malformed body or query, a body that is not a JSON object, a missing or wrong Content-Type, or a NUL character")
    });
    if operation.security.is_some() {
        responses
            .entry("401".to_string())
            .or_insert_with(|| envelope("No token, or a token that is not valid"));
    }
    if path.ends_with("/download") {
        responses.insert("200".to_string(), file_response(&FileKind::ALL));
    } else if path.ends_with("/view") {
        let viewable: Vec<FileKind> = FileKind::ALL
            .into_iter()
            .filter(|k| k.is_viewable())
            .collect();
        responses.insert("200".to_string(), file_response(&viewable));
    }
}

impl Modify for CommonResponses {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for (path, item) in &mut openapi.paths.paths {
            for operation in [
                &mut item.get,
                &mut item.put,
                &mut item.post,
                &mut item.delete,
                &mut item.patch,
            ]
            .into_iter()
            .flatten()
            {
                add_common(path, operation);
            }
        }
    }
}

#[derive(OpenApi)]
#[openapi(
    info(title = "Vendorwatch API", description = "Vendor compliance tracking. Errors share one envelope: {error, message, errors?}."),
    paths(
        document,
        auth::register, auth::login, auth::me, auth::logout, auth::forgot, auth::reset,
        account::public_config, account::payment_status, account::dashboard_stats, account::preferences,
        billing::create_subscription, billing::upgrade, billing::portal, billing::stripe_webhook,
        bulk::archive, bulk::delete_documents, bulk::delete_vendors, bulk::renewal_requests,
        bulk::export_vendors, bulk::export_documents, bulk::import_vendors,
        reports::compliance, reports::expirations, reports::non_compliant, reports::responsiveness,
        blog::admin_list, blog::admin_show, blog::admin_stats, blog::admin_create, blog::admin_update,
        blog::admin_delete, blog::admin_preview, blog::public_list, blog::public_show,
        keywords::upload, keywords::progress, keywords::count, keywords::suggest,
        content::generate, content::job, content::jobs, content::start_plan, content::show_plan,
        content::cancel_plan, content::stats,
        vendors::list, vendors::create, vendors::show, vendors::update, vendors::destroy, vendors::documents_of,
        documents::upload, documents::list, documents::show, documents::update, documents::destroy,
        documents::download, documents::view,
        activity::list, reminders::list,
        portal::validate_key, portal::portal_upload,
    ),
    modifiers(&BearerAuth, &CommonResponses)
)]
pub struct ApiDoc;

/// This document.
#[utoipa::path(get, path = "/api/openapi.json", tag = "meta",
    responses((status = 200, description = "The OpenAPI 3 document")))]
async fn document() -> ApiResult {
    super::ok_json(ApiDoc::openapi())
}

pub fn routes() -> Routes {
    Routes::new().add("/api/openapi.json", get(document))
}
