//! A COI's stored notes begin with its insurance type (docs/product.md, "Documents, slots and versions").

use super::CoiType;

/// The notes stored for a document: a COI's begin with its type.
#[must_use]
pub fn compose_notes(coi: Option<CoiType>, notes: Option<&str>) -> Option<String> {
    let notes = notes.map(str::trim).filter(|n| !n.is_empty());
    match (coi, notes) {
        (Some(coi), Some(n)) => Some(format!("COI Type: {} - {n}", coi.label())),
        (Some(coi), None) => Some(format!("COI Type: {}", coi.label())),
        (None, n) => n.map(ToString::to_string),
    }
}

/// The user's own part of stored notes (without the `COI Type: ...` prefix).
#[must_use]
pub fn user_notes(stored: Option<&str>) -> Option<String> {
    let stored = stored?;
    let own = match stored.strip_prefix("COI Type: ") {
        Some(rest) => rest.split_once(" - ").map(|(_, n)| n)?,
        None => stored,
    };
    let own = own.trim();
    (!own.is_empty()).then(|| own.to_string())
}

/// The COI type named in notes written the product's way (`COI Type: General Liability`), for clients that send no `coiType`.
#[must_use]
pub fn coi_type_in_notes(notes: &str) -> Option<CoiType> {
    let n = notes.to_lowercase();
    if n.contains("general liability") || n.contains("general_liability") {
        Some(CoiType::GeneralLiability)
    } else if n.contains("workers_comp") || n.contains("workers comp") {
        Some(CoiType::WorkersComp)
    } else if n.contains("automobile") || n.contains("auto") {
        Some(CoiType::Automobile)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coi_notes_begin_with_the_type() {
        assert_eq!(
            compose_notes(Some(CoiType::GeneralLiability), Some(" renewal ")),
            Some("COI Type: General Liability - renewal".to_string())
        );
        assert_eq!(
            compose_notes(Some(CoiType::Automobile), Some("")),
            Some("COI Type: Automobile".to_string())
        );
        assert_eq!(compose_notes(None, Some("hi")), Some("hi".to_string()));
        assert_eq!(compose_notes(None, None), None);
    }

    #[test]
    fn user_notes_drop_the_coi_prefix() {
        assert_eq!(
            user_notes(Some("COI Type: Automobile - fleet")),
            Some("fleet".to_string())
        );
        assert_eq!(user_notes(Some("COI Type: Automobile")), None);
        assert_eq!(user_notes(Some("plain")), Some("plain".to_string()));
        assert_eq!(
            coi_type_in_notes("COI Type: workers_comp"),
            Some(CoiType::WorkersComp)
        );
        assert_eq!(
            coi_type_in_notes("COI Type: General Liability"),
            Some(CoiType::GeneralLiability)
        );
    }
}
