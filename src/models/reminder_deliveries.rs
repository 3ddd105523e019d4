//! The emails of a reminder that the mail server accepted, one row each (see
//! `reminders::delivery`).

use sea_orm::entity::prelude::{DeriveActiveEnum, EnumIter, StringLen};

pub use super::_entities::reminder_deliveries::{self, ActiveModel, Entity, Model};

#[async_trait::async_trait]
impl sea_orm::ActiveModelBehavior for ActiveModel {}

/// Who an email of a reminder went to (`reminder_deliveries.kind`, decision 49): a user of
/// the organization, or the vendor. Also part of the email's `Message-ID`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum DeliveryKind {
    #[sea_orm(string_value = "organization")]
    Organization,
    #[sea_orm(string_value = "vendor")]
    Vendor,
}

#[cfg(test)]
mod tests {
    use sea_orm::{ActiveEnum, Iterable};

    use super::*;

    #[test]
    fn delivery_kinds_are_stored_as_before() {
        for (kind, text) in [
            (DeliveryKind::Organization, "organization"),
            (DeliveryKind::Vendor, "vendor"),
        ] {
            assert_eq!(kind.to_value(), text);
            assert_eq!(super::super::state::parse(text), Some(kind));
            assert_eq!(
                super::super::state::parse::<DeliveryKind>(&text.to_uppercase()),
                None
            );
        }
        assert_eq!(DeliveryKind::iter().count(), 2);
        assert_eq!(super::super::state::parse::<DeliveryKind>("user"), None);
    }
}
