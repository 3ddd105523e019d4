//! `GET /api/openapi.json`: the OpenAPI 3 document, generated from the handlers' annotations.

use crate::errors::ApiResult;
use loco_rs::prelude::*;
use utoipa::{
    openapi::security::{Http, HttpAuthScheme, SecurityScheme},
    Modify, OpenApi,
};

use super::{account, activity, auth, documents, portal, reminders, vendors};

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

#[derive(OpenApi)]
#[openapi(
    info(title = "Vendorwatch API", description = "Vendor compliance tracking. Errors share one envelope: {error, message, errors?}."),
    paths(
        document,
        auth::register, auth::login, auth::me, auth::forgot, auth::reset,
        account::public_config, account::payment_status, account::dashboard_stats,
        vendors::list, vendors::create, vendors::show, vendors::update, vendors::destroy, vendors::documents_of,
        documents::upload, documents::list, documents::show, documents::update, documents::destroy,
        documents::download, documents::view,
        activity::list, reminders::list,
        portal::validate_key, portal::portal_upload,
    ),
    modifiers(&BearerAuth)
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
