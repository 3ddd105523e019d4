use sea_orm_migration::{prelude::*, sea_orm::DatabaseBackend};

/// `vendor_figures`: what the dashboard counts of each vendor, kept rather than counted on every
/// request (docs/benchmarks/lists.md, "fifteenth pass"): how many current documents it has, the
/// earliest expiration date among them (which decides its status on a given day), and how many
/// of its required documents have no current document in their slot. One row per vendor,
/// written by database triggers in the transaction of every change that can move a figure (a
/// document inserted, deleted, or updated in its vendor, slot, expiration date or currency; a
/// vendor inserted, or its required documents or organization changed), so no write path can
/// forget it, as with `organizations.data_version`. A vendor's deletion takes its row with it.
///
/// Each refresh reads the vendor's figures again from its rows rather than adding to them, so a
/// refresh is never wrong for having missed an earlier one. On `PostgreSQL` the triggers are
/// deferred to the commit, as the data version's are, and a refresh first locks the vendor's row
/// here, then reads: a second transaction refreshing the same vendor waits for the first to
/// commit and then reads what it committed (each statement of the function reads afresh), where
/// a single upsert would write figures read before the first's commit.
#[derive(DeriveMigrationName)]
pub struct Migration;

const TABLE: &str = "vendor_figures";
const INDEX: &str = "idx-vendor-figures-org";

/// The slots a vendor can require (`Slot` in `src/models/compliance/kinds.rs`; the app cannot be a
/// dependency here, and `src/models/vendor_figures.rs` tests that the two agree).
pub const SLOTS: [&str; 7] = [
    "w9",
    "coi_general_liability",
    "coi_workers_comp",
    "coi_automobile",
    "sales_tax",
    "vendor_agreement",
    "other",
];

/// The figures of the vendors `filter` selects (SQL over `v`, a row of `vendors`), as the rows
/// to upsert.
fn figures_of(backend: DatabaseBackend, filter: &str) -> String {
    let required = match backend {
        DatabaseBackend::Postgres => {
            "json_array_elements_text(v.required_documents::json) AS r(value)"
        }
        _ => {
            "json_each(CASE WHEN json_valid(v.required_documents) \
             THEN v.required_documents ELSE '[]' END) AS r"
        }
    };
    let slots = SLOTS.map(|s| format!("'{s}'")).join(", ");
    format!(
        "INSERT INTO {TABLE} (vendor_id, organization_id, current_documents, first_expiration, \
         missing_required) \
         SELECT v.id, v.organization_id, \
         (SELECT COUNT(*) FROM documents AS d WHERE d.vendor_id = v.id AND d.is_current = TRUE), \
         (SELECT MIN(d.expiration_date) FROM documents AS d \
          WHERE d.vendor_id = v.id AND d.is_current = TRUE), \
         (SELECT COUNT(*) FROM {required} WHERE r.value IN ({slots}) \
          AND NOT EXISTS (SELECT 1 FROM documents AS d WHERE d.vendor_id = v.id \
          AND d.slot = r.value AND d.is_current = TRUE)) \
         FROM vendors AS v WHERE {filter} \
         ON CONFLICT (vendor_id) DO UPDATE SET organization_id = excluded.organization_id, \
         current_documents = excluded.current_documents, \
         first_expiration = excluded.first_expiration, \
         missing_required = excluded.missing_required"
    )
}

/// `PostgreSQL`: the refresh of one vendor, and the two trigger functions calling it. A table's
/// triggers of one event fire in the order of their names, so each table's is named to come
/// after its `{table}_data_version`: every writing transaction then locks the organization's
/// row before any vendor's figures, and two of them cannot deadlock over the two (seen when the
/// vendors' came first: `tests/requests/vendor_figures.rs`).
fn pg_functions() -> String {
    let refresh = figures_of(DatabaseBackend::Postgres, "v.id = p_vendor");
    format!(
        "CREATE OR REPLACE FUNCTION vendor_figures_refresh(p_vendor bigint) RETURNS void \
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM {TABLE} WHERE vendor_id = p_vendor FOR UPDATE;
  {refresh};
END
$$;
CREATE OR REPLACE FUNCTION vendor_figures_of_document() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM vendor_figures_refresh(OLD.vendor_id);
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.vendor_id <> OLD.vendor_id) THEN
    PERFORM vendor_figures_refresh(NEW.vendor_id);
  END IF;
  RETURN NULL;
END
$$;
CREATE OR REPLACE FUNCTION vendor_figures_of_vendor() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM vendor_figures_refresh(NEW.id);
  RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER documents_vendor_figures \
AFTER INSERT OR DELETE OR UPDATE OF is_current, expiration_date, slot, vendor_id ON documents \
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION vendor_figures_of_document();
CREATE CONSTRAINT TRIGGER vendors_vendor_figures \
AFTER INSERT OR UPDATE OF required_documents, organization_id ON vendors \
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION vendor_figures_of_vendor();"
    )
}

/// `SQLite`'s triggers (one writer at a time there, so they run at once).
fn sqlite_triggers() -> String {
    let refresh = |filter: &str| figures_of(DatabaseBackend::Sqlite, filter);
    let trigger = |name: &str, event: &str, body: String| {
        format!("CREATE TRIGGER \"{TABLE}_{name}\" AFTER {event} BEGIN {body}; END")
    };
    [
        trigger(
            "document_insert",
            "INSERT ON documents",
            refresh("v.id = NEW.vendor_id"),
        ),
        trigger(
            "document_delete",
            "DELETE ON documents",
            refresh("v.id = OLD.vendor_id"),
        ),
        trigger(
            "document_update",
            "UPDATE OF is_current, expiration_date, slot, vendor_id ON documents",
            format!(
                "{}; {}",
                refresh("v.id = OLD.vendor_id"),
                refresh("v.id = NEW.vendor_id AND NEW.vendor_id <> OLD.vendor_id")
            ),
        ),
        trigger(
            "vendor_insert",
            "INSERT ON vendors",
            refresh("v.id = NEW.id"),
        ),
        trigger(
            "vendor_update",
            "UPDATE OF required_documents, organization_id ON vendors",
            refresh("v.id = NEW.id"),
        ),
    ]
    .join(";\n")
}

const SQLITE_TRIGGERS: [&str; 5] = [
    "document_insert",
    "document_delete",
    "document_update",
    "vendor_insert",
    "vendor_update",
];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table(Alias::new(TABLE))
                .col(
                    ColumnDef::new(Alias::new("vendor_id"))
                        .big_integer()
                        .not_null()
                        .primary_key(),
                )
                .col(
                    ColumnDef::new(Alias::new("organization_id"))
                        .big_integer()
                        .not_null(),
                )
                .col(
                    ColumnDef::new(Alias::new("current_documents"))
                        .integer()
                        .not_null(),
                )
                .col(ColumnDef::new(Alias::new("first_expiration")).date().null())
                .col(
                    ColumnDef::new(Alias::new("missing_required"))
                        .integer()
                        .not_null(),
                )
                .foreign_key(
                    ForeignKey::create()
                        .name("fk-vendor-figures-vendor")
                        .from(Alias::new(TABLE), Alias::new("vendor_id"))
                        .to(Alias::new("vendors"), Alias::new("id"))
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .to_owned(),
        )
        .await?;
        // The dashboard groups an organization's rows by these, from the index alone.
        let mut index = Index::create();
        index.name(INDEX).table(Alias::new(TABLE));
        for column in [
            "organization_id",
            "current_documents",
            "first_expiration",
            "missing_required",
        ] {
            index.col(Alias::new(column));
        }
        m.create_index(index).await?;
        let db = m.get_connection();
        let backend = m.get_database_backend();
        db.execute_unprepared(&figures_of(backend, "TRUE")).await?;
        let triggers = if backend == DatabaseBackend::Postgres {
            pg_functions()
        } else {
            sqlite_triggers()
        };
        db.execute_unprepared(&triggers).await?;
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        let drops = if m.get_database_backend() == DatabaseBackend::Postgres {
            "DROP TRIGGER IF EXISTS documents_vendor_figures ON documents;
             DROP TRIGGER IF EXISTS vendors_vendor_figures ON vendors;
             DROP FUNCTION IF EXISTS vendor_figures_of_document();
             DROP FUNCTION IF EXISTS vendor_figures_of_vendor();
             DROP FUNCTION IF EXISTS vendor_figures_refresh(bigint);"
                .to_string()
        } else {
            SQLITE_TRIGGERS
                .map(|name| format!("DROP TRIGGER IF EXISTS \"{TABLE}_{name}\""))
                .join(";\n")
        };
        m.get_connection().execute_unprepared(&drops).await?;
        m.drop_table(Table::drop().table(Alias::new(TABLE)).to_owned())
            .await
    }
}
