//! A JSON body extractor whose rejections are our 400 envelope, not axum's plain text (a body
//! past the route's limit is a 413, stated by `body_limit`).
//!
//! A body must be a JSON object: serde would otherwise read a struct from an array of its
//! fields in order (`["coi", "general_liability"]` as a document update). A NUL character in any
//! text is a 422 naming its field.

use axum::{
    extract::{FromRequest, Request},
    http::StatusCode,
};
use serde::de::DeserializeOwned;

use crate::errors::{api_error, bad_request, field_error, ApiError};

pub struct ApiJson<T>(pub T);

fn invalid_body(reason: &str) -> ApiError {
    ApiError::from(bad_request(
        "invalid_body",
        &format!("The request body could not be read: {reason}"),
    ))
}

/// Where the first string or key holding a NUL character is (`PostgreSQL` cannot store one in
/// text), named as the field errors name fields: `name`, `keywordData[3].keyword`.
pub(crate) fn nul_at(value: &serde_json::Value, at: &str) -> Option<String> {
    let inner = |name: &str| {
        if at.is_empty() {
            name.to_string()
        } else {
            format!("{at}.{name}")
        }
    };
    match value {
        serde_json::Value::String(s) if s.contains('\0') => Some(if at.is_empty() {
            "body".to_string()
        } else {
            at.to_string()
        }),
        serde_json::Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, item)| nul_at(item, &format!("{at}[{i}]"))),
        serde_json::Value::Object(map) => map.iter().find_map(|(k, v)| {
            if k.contains('\0') {
                Some(inner(&k.replace('\0', "")))
            } else {
                nul_at(v, &inner(k))
            }
        }),
        _ => None,
    }
}

impl<S, T> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> std::result::Result<Self, Self::Rejection> {
        let axum::Json(value) = axum::Json::<serde_json::Value>::from_request(req, state)
            .await
            .map_err(|rejection| {
                if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                    // Not a body that cannot be read but one too long: the route's body-limit
                    // layer (`body_limit.rs`) puts its figure in the sentence.
                    ApiError::from(api_error(
                        StatusCode::PAYLOAD_TOO_LARGE,
                        "payload_too_large",
                        "The request body is too large.",
                    ))
                } else {
                    invalid_body(&rejection.body_text())
                }
            })?;
        if !value.is_object() {
            return Err(invalid_body("it must be a JSON object."));
        }
        // A rule about a value (the document's patterns say it), so a 422 naming the field.
        if let Some(field) = nul_at(&value, "") {
            return Err(ApiError::from(field_error(
                &field,
                "Text may not contain NUL characters.",
            )));
        }
        serde_json::from_value(value)
            .map(Self)
            .map_err(|err| invalid_body(&err.to_string()))
    }
}
