//! A JSON body extractor whose rejections are our 400 envelope, not axum's plain text (a body
//! past the route's limit is a 413, stated by `body_limit`).
//!
//! A body must be a JSON object: serde would otherwise read a struct from an array of its
//! fields in order (`["coi", "general_liability"]` as a document update).

use axum::{
    extract::{FromRequest, Request},
    http::StatusCode,
};
use serde::de::DeserializeOwned;

use crate::errors::{api_error, bad_request, ApiError};

pub struct ApiJson<T>(pub T);

fn invalid_body(reason: &str) -> ApiError {
    ApiError::from(bad_request(
        "invalid_body",
        &format!("The request body could not be read: {reason}"),
    ))
}

/// Whether any string or key holds a NUL character, which `PostgreSQL` cannot store in text.
fn has_nul(value: &serde_json::Value) -> bool {
    match value {
        serde_json::Value::String(s) => s.contains('\0'),
        serde_json::Value::Array(items) => items.iter().any(has_nul),
        serde_json::Value::Object(map) => map.iter().any(|(k, v)| k.contains('\0') || has_nul(v)),
        _ => false,
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
        if has_nul(&value) {
            return Err(invalid_body("text may not contain NUL characters."));
        }
        serde_json::from_value(value)
            .map(Self)
            .map_err(|err| invalid_body(&err.to_string()))
    }
}
