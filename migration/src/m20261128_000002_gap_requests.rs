use loco_rs::schema::*;
use sea_orm_migration::prelude::*;

/// `gap_requests`: the days a vendor was asked to correct its certificates' gaps ("Request
/// corrections", at most once a day per vendor: the unique index decides between two at once).
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        create_table(
            m,
            "gap_requests",
            &[("id", ColType::PkAuto), ("requested_on", ColType::Date)],
            &[("organization", ""), ("vendor", "")],
        )
        .await?;
        m.create_index(
            Index::create()
                .name("idx-gap-requests-once-a-day")
                .table(Alias::new("gap_requests"))
                .col(Alias::new("vendor_id"))
                .col(Alias::new("requested_on"))
                .unique()
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        drop_table(m, "gap_requests").await
    }
}
