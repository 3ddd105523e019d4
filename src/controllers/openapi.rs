//! `GET /api/openapi.json`: the `OpenAPI` 3 document, generated from the handlers' annotations.

use crate::errors::ApiResult;
use loco_rs::prelude::*;
use utoipa::{
    openapi::{
        path::Operation,
        schema::{ArrayItems, KnownFormat, ObjectBuilder, Schema, SchemaFormat, SchemaType, Type},
        security::{HttpAuthScheme, SecurityScheme},
        ContentBuilder, Ref, RefOr, Response, ResponseBuilder,
    },
    Modify, OpenApi,
};

use crate::models::file_type::FileKind;

use super::{
    account, activity, auth, billing, blog, bulk, content, document_files, documents, extractions,
    integrations, keywords, portal, reminders, reports, requirements, team, vendors,
};

/// A text without NUL characters: `PostgreSQL` cannot store one, and the server refuses one
/// with a 422 wherever text is taken (docs/decisions.md, 26).
pub const NO_NUL: &str = r"^[^\x00]*$";
/// A text with something besides white space, and without NUL characters.
pub const NOT_BLANK: &str = r"^[^\x00]*[^\s\x00][^\x00]*$";
/// A company key: 8 ASCII letters or digits.
pub const COMPANY_KEY: &str = "^[A-Za-z0-9]{8}$";

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                utoipa::openapi::security::HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "The token of a sign-in (a JWT), or an API key (`vwk_` and 40 \
                         characters) made by an admin on the Integrations page. A key acts for \
                         its organization only: a `read` key as a viewer, a `write` key at most \
                         as a member; its calls are rate limited per key (429 with \
                         `Retry-After`).",
                    ))
                    .build(),
            ),
        );
    }
}

/// The answers every operation can give, written once: a 400 for a request that cannot be read
/// (a malformed body or query, a body that is not a JSON object, a missing or wrong
/// Content-Type, a value of the wrong type), a 422 on every operation that takes text (a NUL
/// character in it, if nothing else), and a 401 on every operation that needs a token.
/// Downloads and views answer the file's detected type.
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

/// An answer of raw bytes, in any of `content_types`.
fn binary_response(description: &str, content_types: &[&str]) -> RefOr<Response> {
    let binary = ObjectBuilder::new()
        .schema_type(Type::String)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::Binary)))
        .build();
    content_types
        .iter()
        .fold(
            ResponseBuilder::new().description(description),
            |response, content_type| {
                response.content(
                    *content_type,
                    ContentBuilder::new().schema(Some(binary.clone())).build(),
                )
            },
        )
        .into()
}

fn file_response(kinds: &[FileKind]) -> RefOr<Response> {
    let types: Vec<&str> = kinds.iter().map(|k| k.content_type()).collect();
    binary_response("The exact bytes uploaded, as their detected type", &types)
}

/// The view's answers: PDFs and images inline (HEIC as a JPEG and TIFF as a PNG, or as
/// themselves when they cannot be converted), Word files as downloads.
fn view_response() -> RefOr<Response> {
    let mut types: Vec<&str> = FileKind::ALL
        .into_iter()
        .flat_map(|k| [k.view_content_type(), k.content_type()])
        .collect();
    types.sort_unstable();
    types.dedup();
    binary_response("The file, inline when a browser can show it", &types)
}

fn add_common(path: &str, operation: &mut Operation) {
    let responses = &mut operation.responses.responses;
    responses.entry("400".to_string()).or_insert_with(|| {
        envelope("The request could not be read: a malformed body or query, a body that is not a JSON object, a missing or wrong Content-Type, or a value of the wrong type")
    });
    let takes_text = operation.request_body.is_some()
        || operation
            .parameters
            .as_ref()
            .is_some_and(|params| !params.is_empty());
    if takes_text {
        responses.entry("422".to_string()).or_insert_with(|| {
            envelope("A value breaks a rule, field by field in `errors`: here, a NUL character in a text")
        });
    }
    if operation.security.is_some() {
        responses
            .entry("401".to_string())
            .or_insert_with(|| envelope("No token, or a token that is not valid"));
    }
    if path.ends_with("/download") {
        responses.insert("200".to_string(), file_response(&FileKind::ALL));
    } else if path.ends_with("/view") || path.ends_with("/{name}") {
        responses.insert("200".to_string(), view_response());
    } else if path == "/api/documents/archive" {
        // Written `body = Vec<u8>`, which utoipa states as a JSON array of integers.
        responses.insert(
            "200".to_string(),
            binary_response(
                "The documents' files in one ZIP archive",
                &["application/zip"],
            ),
        );
    }
}

/// A signed-in call that writes is refused to viewers (`CurrentUser`), unless it is one of the
/// few open to every role; the platform's own tools (`/api/admin`) ask the platform role.
fn add_role_refusal(method: &str, path: &str, operation: &mut Operation) {
    if operation.security.is_none()
        || path.starts_with("/api/admin/")
        || super::current::OPEN_TO_EVERY_ROLE.contains(&(method, path))
    {
        return;
    }
    operation
        .responses
        .responses
        .entry("403".to_string())
        .or_insert_with(|| {
            envelope(
                "`forbidden_role`: the caller's role in the organization does not allow this call",
            )
        });
}

impl Modify for CommonResponses {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for (path, item) in &mut openapi.paths.paths {
            if let Some(get) = &mut item.get {
                add_common(path, get);
            }
            for (method, operation) in [
                ("PUT", &mut item.put),
                ("POST", &mut item.post),
                ("DELETE", &mut item.delete),
                ("PATCH", &mut item.patch),
            ] {
                if let Some(operation) = operation {
                    add_common(path, operation);
                    add_role_refusal(method, path, operation);
                }
            }
        }
    }
}

/// Says of every text a client sends (parameters and request bodies) that it holds no NUL
/// character: a pattern where the text has none, and the pattern "something besides white
/// space" rewritten to say it too. Texts with a format or a list of values need nothing more.
struct NoNul;

fn component_name(reference: &Ref) -> Option<String> {
    reference
        .ref_location
        .strip_prefix("#/components/schemas/")
        .map(str::to_string)
}

fn no_nul_in(schema: &mut RefOr<Schema>, refs: &mut Vec<String>) {
    match schema {
        RefOr::Ref(reference) => refs.extend(component_name(reference)),
        RefOr::T(schema) => no_nul_in_schema(schema, refs),
    }
}

fn no_nul_in_schema(schema: &mut Schema, refs: &mut Vec<String>) {
    match schema {
        Schema::Object(object) => {
            let is_text = match &object.schema_type {
                SchemaType::Type(t) => *t == Type::String,
                SchemaType::Array(types) => types.contains(&Type::String),
                SchemaType::AnyValue => false,
            };
            if is_text && object.enum_values.is_none() && object.format.is_none() {
                match object.pattern.as_deref() {
                    None => object.pattern = Some(NO_NUL.to_string()),
                    Some(r"\S" | r".*\S.*") => object.pattern = Some(NOT_BLANK.to_string()),
                    Some(_) => {}
                }
            }
            for property in object.properties.values_mut() {
                no_nul_in(property, refs);
            }
        }
        Schema::Array(array) => {
            if let ArrayItems::RefOrSchema(items) = &mut array.items {
                no_nul_in(items, refs);
            }
        }
        Schema::OneOf(one_of) => one_of.items.iter_mut().for_each(|s| no_nul_in(s, refs)),
        Schema::AllOf(all_of) => all_of.items.iter_mut().for_each(|s| no_nul_in(s, refs)),
        Schema::AnyOf(any_of) => any_of.items.iter_mut().for_each(|s| no_nul_in(s, refs)),
        // A kind of schema added later: no text of its own to say it of.
        _ => {}
    }
}

impl Modify for NoNul {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let mut refs = Vec::new();
        for item in openapi.paths.paths.values_mut() {
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
                for param in operation.parameters.iter_mut().flatten() {
                    if let Some(schema) = param.schema.as_mut() {
                        no_nul_in(schema, &mut refs);
                    }
                }
                for content in operation
                    .request_body
                    .iter_mut()
                    .flat_map(|body| body.content.values_mut())
                {
                    if let Some(schema) = content.schema.as_mut() {
                        no_nul_in(schema, &mut refs);
                    }
                }
            }
        }
        // The components the requests name, and theirs in turn, each once.
        let Some(components) = openapi.components.as_mut() else {
            return;
        };
        let mut done = std::collections::BTreeSet::new();
        while let Some(name) = refs.pop() {
            if done.insert(name.clone()) {
                if let Some(schema) = components.schemas.get_mut(&name) {
                    no_nul_in(schema, &mut refs);
                }
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
        account::public_config, account::payment_status, account::dashboard_stats, account::preferences, account::organization_settings,
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
        document_files::download, document_files::view, document_files::view_link,
        document_files::signed_view,
        activity::list, reminders::list,
        portal::validate_key, portal::portal_upload,
        team::list_members, team::change_role, team::remove_member, team::transfer_ownership,
        team::invite, team::list_invitations, team::revoke_invitation, team::show_invitation,
        team::accept_invitation,
        requirements::list, requirements::templates, requirements::show, requirements::create,
        requirements::update, requirements::destroy, requirements::assign,
        requirements::put_coverage, requirements::waive, requirements::unwaive,
        requirements::gap_request,
        extractions::extract, extractions::show, extractions::portal_show,
        extractions::portal_correct,
        integrations::list_keys, integrations::create_key, integrations::revoke_key,
        integrations::list_webhooks, integrations::create_webhook, integrations::show_webhook,
        integrations::delete_webhook, integrations::list_deliveries, integrations::send_test,
        integrations::show_feed, integrations::rotate_feed, integrations::feed_file,
    ),
    modifiers(&BearerAuth, &CommonResponses, &NoNul)
)]
pub struct ApiDoc;

/// This document as the checked-in `frontend/openapi.json` holds it: pretty-printed, keys in a
/// fixed order, one newline at the end, so that a change of the API is a readable diff.
///
/// # Panics
///
/// Never in practice: the document is plain data that always serializes.
#[must_use]
pub fn pretty_json() -> String {
    let mut json = ApiDoc::openapi()
        .to_pretty_json()
        .expect("the OpenAPI document serializes");
    json.push('\n');
    json
}

/// This document.
#[utoipa::path(get, path = "/api/openapi.json", tag = "meta",
    responses((status = 200, description = "The OpenAPI 3 document")))]
async fn document() -> ApiResult {
    super::ok_json(ApiDoc::openapi())
}

pub fn routes() -> Routes {
    Routes::new().add("/api/openapi.json", get(document))
}

#[cfg(test)]
mod tests;
