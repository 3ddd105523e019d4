//! Which vendor field each column of a file fills: guessed from the headers that `QuickBooks`,
//! Xero, Google Contacts and people write, changeable by the person (docs/product.md,
//! "Importing vendors"), and the service types as people write them.

use std::collections::HashMap;

use crate::models::vendors::SERVICE_TYPES;

/// The fields a column can fill, with the words the Add Vendor form uses for them.
pub const FIELDS: [(&str, &str); 10] = [
    ("name", "Vendor name"),
    ("email", "Contact email"),
    ("serviceType", "Service type"),
    ("phone", "Phone"),
    ("address", "Address"),
    ("city", "City"),
    ("state", "State"),
    ("zipCode", "Zip code"),
    ("notes", "Notes"),
    ("requirementSet", "Requirement set"),
];

/// Fields that several columns may fill: address lines are joined, notes kept one a line.
const MANY: [&str; 2] = ["address", "notes"];

/// A field's words, for messages.
#[must_use]
pub fn label(field: &str) -> &str {
    FIELDS
        .iter()
        .find(|(key, _)| *key == field)
        .map_or(field, |(_, label)| label)
}

/// A header's guess: the field and how sure (0 is surest: a company column beats a person's
/// name, a postal address beats a street address).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Guess {
    pub field: &'static str,
    pub rank: u8,
}

fn key(text: &str) -> String {
    text.chars()
        .filter(char::is_ascii_alphanumeric)
        .collect::<String>()
        .to_ascii_lowercase()
}

/// The field a header names, if any.
#[must_use]
pub fn guess(header: &str) -> Option<Guess> {
    let k = key(header);
    let g = |field, rank| Some(Guess { field, rank });
    match k.as_str() {
        "vendor" | "vendorname" | "company" | "companyname" | "contactname" | "supplier"
        | "suppliername" | "payee" | "businessname" | "organization1name" | "organizationname"
        | "displayname" | "displaynameas" => g("name", 0),
        "name" | "fullname" => g("name", 1),
        "legalname" => g("name", 2),
        "email" | "emailaddress" | "contactemail" | "email1value" | "emails" | "primaryemail"
        | "mainemail" => g("email", 0),
        "servicetype" | "service" | "trade" => g("serviceType", 0),
        "phone" | "phonenumber" | "phonenumbers" | "phone1value" | "telephone" | "mainphone"
        | "primaryphone" | "businessphone" => g("phone", 0),
        "mobile" | "mobilenumber" | "mobilephone" => g("phone", 1),
        "address" | "streetaddress" | "street" | "billingaddress" | "address1street" => {
            g("address", 0)
        }
        "city" | "pocity" | "address1city" | "town" | "billingaddresscity" => g("city", 0),
        "state"
        | "region"
        | "poregion"
        | "province"
        | "stateprovince"
        | "address1region"
        | "billingaddressstate" => g("state", 0),
        "zip"
        | "zipcode"
        | "postalcode"
        | "postcode"
        | "popostalcode"
        | "address1postalcode"
        | "billingaddresspostalcode" => g("zipCode", 0),
        "sacity" => g("city", 1),
        "saregion" => g("state", 1),
        "sapostalcode" => g("zipCode", 1),
        "notes" | "note" | "memo" | "comments" => g("notes", 0),
        "requirementset" | "requirements" | "requirementsetname" => g("requirementSet", 0),
        _ => address_line(&k),
    }
}

/// `AddressLine1`, `POAddressLine2`, `Billing Address Line 1`: a postal address line; Xero's
/// street address (`SAAddressLine1`) only when there is no postal one.
fn address_line(k: &str) -> Option<Guess> {
    let rest = k
        .strip_prefix("po")
        .or_else(|| k.strip_prefix("billing"))
        .unwrap_or(k);
    let rank = u8::from(k.starts_with("sa"));
    let rest = rest.strip_prefix("sa").unwrap_or(rest);
    let line = rest
        .strip_prefix("addressline")
        .or_else(|| rest.strip_prefix("address"))?;
    (!line.is_empty() && line.chars().all(|c| c.is_ascii_digit())).then_some(Guess {
        field: "address",
        rank,
    })
}

/// The guessed mapping of a file's headers: for each field the surest columns (all of them for
/// address lines; the first for the rest), every other column ignored.
#[must_use]
pub fn guess_all(headers: &[String]) -> Vec<Option<&'static str>> {
    let guesses: Vec<Option<Guess>> = headers.iter().map(|h| guess(h)).collect();
    let mut best: HashMap<&str, u8> = HashMap::new();
    for g in guesses.iter().flatten() {
        let rank = best.entry(g.field).or_insert(g.rank);
        *rank = (*rank).min(g.rank);
    }
    let mut taken: Vec<&str> = Vec::new();
    guesses
        .iter()
        .map(|g| {
            let g = (*g)?;
            if best.get(g.field) != Some(&g.rank) {
                return None;
            }
            if !MANY.contains(&g.field) {
                if taken.contains(&g.field) {
                    return None;
                }
                taken.push(g.field);
            }
            Some(g.field)
        })
        .collect()
}

/// The person's mapping (`{"<header>": "<field>" | null}`) over the guess: a header it does not
/// name keeps its guess.
///
/// # Errors
/// Sentences naming a header not in the file, a field that does not exist, or one field filled
/// from two columns. (No name column is not one: the preview shows the columns for the person
/// to choose it, each row saying its name is missing.)
pub fn apply<S: std::hash::BuildHasher>(
    headers: &[String],
    guessed: Vec<Option<&'static str>>,
    chosen: &HashMap<String, Option<String>, S>,
) -> Result<Vec<Option<&'static str>>, Vec<String>> {
    let mut errors = Vec::new();
    for header in chosen.keys() {
        if !headers.contains(header) {
            errors.push(format!("The file has no column \"{header}\"."));
        }
    }
    let mapped: Vec<Option<&'static str>> = headers
        .iter()
        .zip(guessed)
        .map(|(header, guess)| match chosen.get(header) {
            None => guess,
            Some(None) => None,
            Some(Some(field)) => {
                let known = FIELDS
                    .iter()
                    .find(|(key, _)| key == field)
                    .map(|(key, _)| *key);
                if known.is_none() {
                    errors.push(format!(
                        "\"{field}\" is not a vendor field (column \"{header}\")."
                    ));
                }
                known
            }
        })
        .collect();
    for (field, label) in FIELDS {
        if MANY.contains(&field) {
            continue;
        }
        let from: Vec<&str> = headers
            .iter()
            .zip(&mapped)
            .filter(|(_, m)| **m == Some(field))
            .map(|(h, _)| h.as_str())
            .collect();
        if from.len() > 1 {
            errors.push(format!(
                "{label} is filled from {} columns ({}); choose one.",
                from.len(),
                from.iter()
                    .map(|h| format!("\"{h}\""))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    if errors.is_empty() {
        Ok(mapped)
    } else {
        Err(errors)
    }
}

/// A service type's words as the app shows them: `general-contractor` is "General Contractor",
/// `hvac` "HVAC".
#[must_use]
pub fn service_label(code: &str) -> String {
    if code == "hvac" {
        return "HVAC".to_string();
    }
    code.split('-')
        .map(|word| {
            let mut chars = word.chars();
            chars.next().map_or_else(String::new, |first| {
                first.to_uppercase().chain(chars).collect()
            })
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A service type as people write it, by its code or its label in any case and spacing
/// ("General Contractor", "general-contractor", "HVAC").
///
/// # Errors
/// A sentence naming the value, with the closest type when one is close.
pub fn service_type(value: &str) -> Result<&'static str, String> {
    let k = key(value);
    if let Some(code) = SERVICE_TYPES.iter().find(|code| key(code) == k) {
        return Ok(code);
    }
    let closest = SERVICE_TYPES
        .iter()
        .map(|code| (strsim::jaro_winkler(&key(code), &k), code))
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .filter(|(score, _)| *score >= 0.8);
    Err(match closest {
        Some((_, code)) => format!(
            "Service type \"{}\" is not one we know; did you mean \"{}\"?",
            value.trim(),
            service_label(code)
        ),
        None => format!(
            "Service type \"{}\" is not one we know. Use one of: {}.",
            value.trim(),
            SERVICE_TYPES.map(service_label).join(", ")
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(list: &[&str]) -> Vec<String> {
        list.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn quickbooks_xero_and_google_headers_are_guessed() {
        let qb = headers(&[
            "Vendor",
            "Phone Numbers",
            "Email",
            "Full Name",
            "Billing Address",
            "Account #",
        ]);
        assert_eq!(
            guess_all(&qb),
            vec![
                Some("name"),
                Some("phone"),
                Some("email"),
                None,
                Some("address"),
                None
            ]
        );
        let xero = headers(&[
            "*ContactName",
            "AccountNumber",
            "EmailAddress",
            "FirstName",
            "POAddressLine1",
            "POAddressLine2",
            "POCity",
            "PORegion",
            "POPostalCode",
            "SAAddressLine1",
            "SACity",
            "PhoneNumber",
        ]);
        assert_eq!(
            guess_all(&xero),
            vec![
                Some("name"),
                None,
                Some("email"),
                None,
                Some("address"),
                Some("address"),
                Some("city"),
                Some("state"),
                Some("zipCode"),
                None,
                None,
                Some("phone")
            ]
        );
        let google = headers(&[
            "Name",
            "Organization 1 - Name",
            "E-mail 1 - Value",
            "Phone 1 - Value",
        ]);
        assert_eq!(
            guess_all(&google),
            vec![None, Some("name"), Some("email"), Some("phone")]
        );
    }

    #[test]
    fn the_persons_mapping_wins_and_is_checked() {
        let h = headers(&["Vendor", "Email", "Full Name", "Trade"]);
        let chosen = HashMap::from([
            ("Full Name".to_string(), Some("notes".to_string())),
            ("Trade".to_string(), None),
        ]);
        assert_eq!(
            apply(&h, guess_all(&h), &chosen).unwrap(),
            vec![Some("name"), Some("email"), Some("notes"), None]
        );
        let bad = HashMap::from([
            ("Full Name".to_string(), Some("name".to_string())),
            ("Nope".to_string(), None),
            ("Trade".to_string(), Some("color".to_string())),
        ]);
        let errors = apply(&h, guess_all(&h), &bad).unwrap_err();
        assert_eq!(errors.len(), 3, "{errors:?}");
        assert!(errors
            .iter()
            .any(|e| e.contains("Vendor name is filled from 2 columns")));
    }

    #[test]
    fn service_types_by_label_or_code_with_close_spellings_suggested() {
        assert_eq!(service_type("General Contractor"), Ok("general-contractor"));
        assert_eq!(service_type(" hvac "), Ok("hvac"));
        assert_eq!(service_type("PEST-CONTROL"), Ok("pest-control"));
        assert_eq!(
            service_type("Plumbng").unwrap_err(),
            "Service type \"Plumbng\" is not one we know; did you mean \"Plumbing\"?"
        );
        assert!(service_type("Roofing")
            .unwrap_err()
            .contains("Use one of: General Contractor, Plumbing"));
    }
}
