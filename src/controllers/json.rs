//! A JSON body extractor whose rejections are our 400 envelope, not axum's plain text.

use axum::{
    extract::{FromRequest, Request},
    http::StatusCode,
};
use loco_rs::prelude::*;
use serde::de::DeserializeOwned;

use crate::errors::api_error;

pub struct ApiJson<T>(pub T);

impl<S, T> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = Error;

    async fn from_request(req: Request, state: &S) -> std::result::Result<Self, Self::Rejection> {
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(value)) => Ok(Self(value)),
            Err(rejection) => Err(api_error(
                StatusCode::BAD_REQUEST,
                "invalid_body",
                &format!(
                    "The request body could not be read: {}",
                    rejection.body_text()
                ),
            )),
        }
    }
}
