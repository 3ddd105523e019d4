//! The states and kinds kept in text columns (decision 49): each is an enum of its model
//! (`organizations::Plan`, `users::PlatformRole`, ...) deriving sea-orm's `DeriveActiveEnum`
//! with the column's strings, while the generated entity keeps the column's `String`. These
//! helpers read such a string back.

use sea_orm::ActiveEnum;

/// The state spelled `value`; `None` for a string no variant stores.
#[must_use]
pub fn parse<E: ActiveEnum<Value = String>>(value: &str) -> Option<E> {
    E::try_from_value(&value.to_owned()).ok()
}

/// The state a row stores in `column`. Rows are written through the enum, so a string no
/// variant stores is a row changed by hand: it is logged and read as `fallback`, the state
/// that grants and starts nothing.
#[must_use]
pub fn stored<E: ActiveEnum<Value = String>>(column: &str, value: &str, fallback: E) -> E {
    parse(value).unwrap_or_else(|| {
        tracing::error!(
            column,
            value,
            "unknown stored state, read as {}",
            fallback.to_value()
        );
        fallback
    })
}

/// Test support: `pinned` lists every variant with the string it is stored as and serialized
/// as; each round-trips, every variant is listed, and unknown strings are refused.
///
/// # Panics
/// When one of these does not hold.
#[cfg(test)]
pub fn assert_pinned<E>(pinned: &[(E, &str)])
where
    E: ActiveEnum<Value = String>
        + sea_orm::Iterable
        + serde::Serialize
        + serde::de::DeserializeOwned
        + std::fmt::Debug
        + PartialEq
        + Copy,
{
    for &(state, text) in pinned {
        assert_eq!(state.to_value(), text, "{state:?} is stored as");
        assert_eq!(parse::<E>(text), Some(state), "`{text}` reads as");
        assert_eq!(
            serde_json::to_value(state).unwrap(),
            serde_json::Value::String(text.to_string()),
            "{state:?} is serialized as"
        );
        assert_eq!(
            serde_json::from_value::<E>(serde_json::Value::String(text.to_string())).unwrap(),
            state
        );
        for wrong in [text.to_uppercase(), format!(" {text}"), format!("{text}s")] {
            assert_eq!(parse::<E>(&wrong), None, "`{wrong}` is refused");
        }
    }
    assert_eq!(E::iter().count(), pinned.len(), "every variant is pinned");
    assert_eq!(parse::<E>(""), None);
    assert_eq!(parse::<E>("unknown"), None);
}
