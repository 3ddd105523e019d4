use loco_rs::schema::*;
use sea_orm_migration::{prelude::*, sea_orm::DatabaseBackend};

use crate::m20261124_000003_organizations_data_version::sqlite_triggers;

/// Insurance requirements and certificate review (docs/product.md, "Requirements and gaps").
///
/// - `requirement_sets`: a named set of lines with minimum limits and endorsements (`lines`,
///   JSON text: `[{line, minimums, additionalInsured, waiverOfSubrogation}]`).
/// - `vendors.requirement_set_id`: the set a vendor must meet (null: none). No foreign key:
///   `SQLite` cannot add one to an existing table, so deleting a set clears it from its vendors
///   in the same transaction (`requirements::delete`), on both databases.
/// - `documents.coverage`/`coverage_source`: what a COI certificate shows (JSON text, the
///   `coverage` shape of the contract) and who said so (`manual`, `extracted`, `confirmed`).
/// - `waivers`: a gap of a vendor (line and kind) that does not count until `until`, with the
///   reason and who gave it.
///
/// Gaps are computed from these rows on every read. The vendor list and the dashboard figures
/// are kept per `organizations.data_version` (`src/infra/answer_cache.rs`), so the two new
/// tables get the same triggers as `vendors` and `documents`.
#[derive(DeriveMigrationName)]
pub struct Migration;

const NEW_TABLES: [&str; 2] = ["requirement_sets", "waivers"];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        create_table(
            m,
            "requirement_sets",
            &[
                ("id", ColType::PkAuto),
                ("pid", ColType::UuidUniq),
                ("name", ColType::String),
                ("lines", ColType::Text),
            ],
            &[("organization", "")],
        )
        .await?;
        create_table(
            m,
            "waivers",
            &[
                ("id", ColType::PkAuto),
                ("pid", ColType::UuidUniq),
                ("line", ColType::StringNull),
                ("kind", ColType::String),
                ("reason", ColType::Text),
                ("until", ColType::Date),
                ("given_by_pid", ColType::UuidNull),
                ("given_by_name", ColType::String),
            ],
            &[("organization", ""), ("vendor", "")],
        )
        .await?;
        add_column(m, "vendors", "requirement_set_id", ColType::BigIntegerNull).await?;
        add_column(m, "documents", "coverage", ColType::TextNull).await?;
        add_column(m, "documents", "coverage_source", ColType::StringNull).await?;
        m.create_index(
            Index::create()
                .name("idx-vendors-requirement-set")
                .table(Alias::new("vendors"))
                .col(Alias::new("requirement_set_id"))
                .to_owned(),
        )
        .await?;
        let db = m.get_connection();
        for table in NEW_TABLES {
            match m.get_database_backend() {
                DatabaseBackend::Postgres => {
                    db.execute_unprepared(&format!(
                        "CREATE CONSTRAINT TRIGGER \"{table}_data_version\" \
                         AFTER INSERT OR UPDATE OR DELETE ON \"{table}\" \
                         DEFERRABLE INITIALLY DEFERRED \
                         FOR EACH ROW EXECUTE FUNCTION organizations_data_version_bump()"
                    ))
                    .await?;
                }
                _ => {
                    for sql in sqlite_triggers(table) {
                        db.execute_unprepared(&sql).await?;
                    }
                }
            }
        }
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.drop_index(
            Index::drop()
                .name("idx-vendors-requirement-set")
                .table(Alias::new("vendors"))
                .to_owned(),
        )
        .await?;
        remove_column(m, "documents", "coverage_source").await?;
        remove_column(m, "documents", "coverage").await?;
        remove_column(m, "vendors", "requirement_set_id").await?;
        // Their triggers go with them.
        drop_table(m, "waivers").await?;
        drop_table(m, "requirement_sets").await
    }
}
