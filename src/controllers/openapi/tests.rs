//! The checked-in copy of the document, which the frontend's types are generated from.

use utoipa::OpenApi;

/// The screens' types are generated from this file (`frontend/src/types/openapi.d.ts`), so
/// it must be the document the server serves. `scripts/gen-api` rewrites both.
#[test]
fn the_checked_in_openapi_json_is_the_served_document() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/frontend/openapi.json");
    let fresh = super::pretty_json();
    if std::env::var_os("OPENAPI_UPDATE").is_some() {
        std::fs::write(path, &fresh).expect("frontend/openapi.json is writable");
    }
    let checked_in = std::fs::read_to_string(path).unwrap_or_default();
    // The whole document is 200 KB: name the first line that differs, not both texts.
    let first_difference = checked_in
        .lines()
        .zip(fresh.lines())
        .position(|(old, new)| old != new)
        .unwrap_or_else(|| checked_in.lines().count().min(fresh.lines().count()));
    assert!(
        checked_in == fresh,
        "frontend/openapi.json is not the API's document (from line {}): run scripts/gen-api \
         to regenerate it and the frontend's types from it, then commit both",
        first_difference + 1
    );
}

/// openapi-typescript keys operations by their id, so two operations with one id give one of
/// them the other's types (the vendors list was typed as the activity log): each id once.
#[test]
fn every_operation_id_is_unique() {
    let doc = super::ApiDoc::openapi();
    let mut seen = std::collections::BTreeMap::new();
    for (path, item) in &doc.paths.paths {
        for (method, operation) in [
            ("get", &item.get),
            ("put", &item.put),
            ("post", &item.post),
            ("delete", &item.delete),
            ("patch", &item.patch),
        ] {
            let Some(id) = operation.as_ref().and_then(|op| op.operation_id.clone()) else {
                continue;
            };
            if let Some(first) = seen.insert(id.clone(), format!("{method} {path}")) {
                panic!("operationId {id} is used by {first} and {method} {path}: give one an operation_id");
            }
        }
    }
}
