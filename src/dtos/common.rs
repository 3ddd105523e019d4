//! What Loco's API scaffold (`cargo loco generate scaffold --api`) builds its controllers on:
//! its error body and its page of results. The product's own handlers answer with
//! `crate::errors::Envelope` and `X-Total-Count` lists instead; a scaffolded controller is a
//! starting point, brought to those shapes before it ships (CONTRIBUTING.md).

use loco_rs::model::query::PageResponse;
use serde::{Deserialize, Serialize};

/// The scaffold's error body.
#[derive(Debug, Serialize, Deserialize)]
pub struct ApiError {
    pub code: String,
    pub message: String,
    pub details: Option<serde_json::Value>,
}

/// One page of a scaffolded list, with where it is in the whole.
#[derive(Debug, Serialize)]
pub struct Page<T> {
    pub items: Vec<T>,
    pub page: u64,
    pub page_size: u64,
    pub total_pages: u64,
    pub total_items: u64,
}

impl<T> Page<T> {
    /// The page Loco's `query::paginate` read, each row as `T`.
    #[must_use]
    pub fn from_query<M>(res: PageResponse<M>) -> Self
    where
        T: From<M>,
    {
        Self {
            items: res.page.into_iter().map(T::from).collect(),
            page: res.meta.page,
            page_size: res.meta.page_size,
            total_pages: res.meta.total_pages,
            total_items: res.meta.total_items,
        }
    }
}
