//! Request and response types that `cargo loco generate scaffold --api` writes for the
//! resources it scaffolds. The product's own request types live beside their models or
//! handlers, and its response shapes in `views/`; this module is where Loco's generator adds
//! its own.
pub mod common;
