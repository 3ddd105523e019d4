//! The checked-in copy of the document, which the frontend's types are generated from.

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
