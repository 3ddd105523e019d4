//! `cargo loco db entities` on `SQLite`: the committed entities keep their `PostgreSQL` types.
//!
//! The entities in `src/models/_entities` are what sea-orm-cli writes from the migrated
//! `PostgreSQL` schema (scripts/check-loco-layout holds them to it). `SQLite` cannot tell them
//! apart: sea-query declares both `integer()` and `big_integer()` columns `integer` there, and
//! sea-orm-cli reads every `integer` back as `i64`, so regenerating on `SQLite` turned each
//! `i32` (`PostgreSQL`'s `int4`) into `i64` and the crate stopped building; and `SQLite` keeps the
//! foreign key `PostgreSQL` drops on `activities.organization_id`, so relations differ too
//! (docs/decisions.md, "Loco's generators on `SQLite`").
//!
//! So on `SQLite` the command's output is merged with the entities it replaced: a column or a
//! relation that an entity already had keeps its committed lines; only new tables, new columns
//! and relations to new tables come from `SQLite`. Loco's generators write portable columns
//! (`int` is a `big_integer`), so those are what `PostgreSQL` would write as well.

use std::{
    collections::{BTreeMap, BTreeSet},
    fs, io,
    path::{Path, PathBuf},
};

/// The entity files as they were before sea-orm-cli rewrote them.
pub struct Snapshot {
    dir: PathBuf,
    files: BTreeMap<String, String>,
}

impl Snapshot {
    /// Reads every entity file of `dir` (a missing directory is an empty snapshot).
    ///
    /// # Errors
    ///
    /// A file that cannot be read.
    pub fn take(dir: &Path) -> io::Result<Self> {
        let mut files = BTreeMap::new();
        if dir.is_dir() {
            for entry in fs::read_dir(dir)? {
                let path = entry?.path();
                if let Some(name) = entity_file_name(&path) {
                    files.insert(name, fs::read_to_string(&path)?);
                }
            }
        }
        Ok(Self {
            dir: dir.to_path_buf(),
            files,
        })
    }

    /// Merges each regenerated entity of a table the snapshot had with its snapshot
    /// ([`merge`]), and answers the names of the files it changed back.
    ///
    /// # Errors
    ///
    /// A file that cannot be read or written.
    pub fn reapply(&self) -> io::Result<Vec<String>> {
        let tables: BTreeSet<String> = self
            .files
            .keys()
            .map(|name| name.trim_end_matches(".rs").to_string())
            .collect();
        let mut changed = Vec::new();
        for (name, old) in &self.files {
            let path = self.dir.join(name);
            let Ok(new) = fs::read_to_string(&path) else {
                continue;
            };
            let merged = merge(old, &new, &tables);
            if merged != new {
                fs::write(&path, merged)?;
                changed.push(name.clone());
            }
        }
        Ok(changed)
    }
}

/// An entity file's name: `<table>.rs`, not `mod.rs` nor `prelude.rs`.
fn entity_file_name(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    let entity = path.is_file()
        && Path::new(name).extension().is_some_and(|ext| ext == "rs")
        && name != "mod.rs"
        && name != "prelude.rs";
    entity.then(|| name.to_string())
}

/// One field of `Model` or one variant of `Relation`, with its attribute lines.
#[derive(Clone)]
struct Item {
    lines: Vec<String>,
}

impl Item {
    /// The field's name (`pub name: Type,`) or the variant's (`Name,`).
    fn key(&self) -> &str {
        let last = self.lines.last().map_or("", |l| l.trim());
        let last = last.strip_prefix("pub ").unwrap_or(last);
        last.split([':', ',']).next().unwrap_or("").trim()
    }

    /// The table a relation variant points to (`super::<table>::Entity`).
    fn target(&self) -> &str {
        self.lines.iter().find_map(|l| target_of(l)).unwrap_or("")
    }
}

fn target_of(line: &str) -> Option<&str> {
    let rest = &line[line.find("super::")? + "super::".len()..];
    rest.split("::").next()
}

/// An entity file cut where the merge works: the lines before `Model`'s fields, the fields,
/// the lines up to `Relation`, its variants, and the top-level items after it.
struct Parts {
    head: Vec<String>,
    fields: Vec<Item>,
    middle: Vec<String>,
    variants: Vec<Item>,
    after: Vec<Vec<String>>,
    trailing_newline: bool,
}

fn parse(src: &str) -> Option<Parts> {
    let lines: Vec<String> = src.lines().map(str::to_string).collect();
    let model = lines.iter().position(|l| l == "pub struct Model {")?;
    let model_end = model + lines[model..].iter().position(|l| l == "}")?;
    let relation = lines
        .iter()
        .position(|l| l.starts_with("pub enum Relation {"))?;
    let (variants, relation_end) = if lines[relation].ends_with("{}") {
        (Vec::new(), relation)
    } else {
        let end = relation + lines[relation..].iter().position(|l| l == "}")?;
        (items(&lines[relation + 1..end]), end)
    };
    let mut after: Vec<Vec<String>> = Vec::new();
    let mut open = false;
    for line in &lines[relation_end + 1..] {
        if line.is_empty() && !open {
            continue;
        }
        if !open {
            after.push(Vec::new());
            open = true;
        }
        after.last_mut()?.push(line.clone());
        // A top-level item ends with a closing brace or semicolon at column 0.
        if line == "}" || (!line.starts_with(' ') && (line.ends_with('}') || line.ends_with(';'))) {
            open = false;
        }
    }
    Some(Parts {
        head: lines[..=model].to_vec(),
        fields: items(&lines[model + 1..model_end]),
        middle: lines[model_end..relation].to_vec(),
        variants,
        after,
        trailing_newline: src.ends_with('\n'),
    })
}

/// Splits a struct's or enum's body into its fields or variants: each ends with the line at
/// the body's indentation that is not an attribute (`    pub x: T,`, `    Name,`).
fn items(body: &[String]) -> Vec<Item> {
    let mut out = Vec::new();
    let mut lines = Vec::new();
    for line in body {
        lines.push(line.clone());
        let top = line.starts_with("    ") && !line.starts_with("     ");
        if top && !line.trim_start().starts_with("#[") && line.ends_with(',') {
            out.push(Item {
                lines: std::mem::take(&mut lines),
            });
        }
    }
    out
}

/// `impl Related<super::<table>::Entity> for Entity { .. }`: its table.
fn related_target(block: &[String]) -> Option<&str> {
    let first = block.first()?;
    if first.starts_with("impl Related<super::") {
        target_of(first)
    } else {
        None
    }
}

/// The regenerated entity `new` of a table the committed entity `old` described, with what
/// `old` had kept: each of its fields' lines (type and attributes), its relations and their
/// `Related` impls. What `new` adds is taken from it when it is new to the schema: a field
/// `old` lacks, a relation (and its impl) to a table not in `tables` (the tables entities
/// existed for). Relations are ordered by table, as sea-orm-codegen orders them.
/// A file either side that is not shaped as sea-orm-codegen writes is left as `new` wrote it.
#[must_use]
pub fn merge(old: &str, new: &str, tables: &BTreeSet<String>) -> String {
    let (Some(old), Some(new)) = (parse(old), parse(new)) else {
        return new.to_string();
    };
    let is_new = |table: &str| !tables.contains(table);
    let old_fields: BTreeMap<&str, &Item> = old.fields.iter().map(|f| (f.key(), f)).collect();

    let mut out = new.head.clone();
    for field in &new.fields {
        let kept = old_fields.get(field.key()).copied().unwrap_or(field);
        out.extend(kept.lines.iter().cloned());
    }
    out.extend(new.middle.iter().cloned());

    let mut variants = old.variants.clone();
    variants.extend(new.variants.iter().filter(|v| is_new(v.target())).cloned());
    variants.sort_by(|a, b| a.target().cmp(b.target()));
    if variants.is_empty() {
        out.push("pub enum Relation {}".to_string());
    } else {
        out.push("pub enum Relation {".to_string());
        out.extend(variants.iter().flat_map(|v| v.lines.iter().cloned()));
        out.push("}".to_string());
    }

    // Plain `Related` impls by table, then those going through a junction (`fn via`).
    let mut related: Vec<&Vec<String>> = old
        .after
        .iter()
        .filter(|b| related_target(b).is_some())
        .collect();
    related.extend(
        new.after
            .iter()
            .filter(|b| related_target(b).is_some_and(is_new)),
    );
    let via = |b: &Vec<String>| b.iter().any(|l| l.contains("fn via()"));
    related.sort_by(|a, b| (via(a), related_target(a)).cmp(&(via(b), related_target(b))));
    let others = new.after.iter().filter(|b| related_target(b).is_none());
    for block in related.into_iter().chain(others) {
        out.push(String::new());
        out.extend(block.iter().cloned());
    }
    let mut text = out.join("\n");
    if new.trailing_newline {
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = "//! `SeaORM` Entity, @generated by sea-orm-codegen 2.0\n\nuse sea_orm::entity::prelude::*;\n\n#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]\n#[sea_orm(table_name = \"reminders\")]\npub struct Model {\n";

    fn entity(fields: &str, relations: &str, impls: &str) -> String {
        let relation = if relations.is_empty() {
            "pub enum Relation {}\n".to_string()
        } else {
            format!("pub enum Relation {{\n{relations}}}\n")
        };
        format!("{HEAD}{fields}}}\n\n#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]\n{relation}{impls}")
    }

    fn related(table: &str, variant: &str) -> String {
        format!("\nimpl Related<super::{table}::Entity> for Entity {{\n    fn to() -> RelationDef {{\n        Relation::{variant}.def()\n    }}\n}}\n")
    }

    fn tables(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|n| (*n).to_string()).collect()
    }

    const ORG: &str = "    #[sea_orm(\n        belongs_to = \"super::organizations::Entity\",\n        from = \"Column::OrganizationId\",\n        to = \"super::organizations::Column::Id\"\n    )]\n    Organizations,\n";

    #[test]
    fn an_existing_column_keeps_its_committed_type_and_a_new_one_comes_from_sqlite() {
        let old = entity(
            "    #[sea_orm(primary_key)]\n    pub id: i64,\n    pub offset_days: i32,\n",
            "",
            "",
        );
        let new = entity(
            "    #[sea_orm(primary_key)]\n    pub id: i64,\n    pub offset_days: i64,\n    #[sea_orm(column_type = \"Text\")]\n    pub label: String,\n",
            "",
            "",
        );
        let want = entity(
            "    #[sea_orm(primary_key)]\n    pub id: i64,\n    pub offset_days: i32,\n    #[sea_orm(column_type = \"Text\")]\n    pub label: String,\n",
            "",
            "",
        );
        assert_eq!(merge(&old, &new, &tables(&["reminders"])), want);
    }

    #[test]
    fn a_relation_sqlite_alone_has_is_left_out_and_a_committed_one_kept() {
        let old = entity(
            "    pub id: i64,\n",
            "    #[sea_orm(has_many = \"super::vendors::Entity\")]\n    Vendors,\n",
            &related("vendors", "Vendors"),
        );
        let new = entity(
            "    pub id: i64,\n",
            ORG,
            &related("organizations", "Organizations"),
        );
        let tables = tables(&["reminders", "organizations", "vendors"]);
        assert_eq!(merge(&old, &new, &tables), old);
    }

    #[test]
    fn a_relation_to_a_new_table_is_added_in_table_order() {
        let probes = "    #[sea_orm(has_many = \"super::probes::Entity\")]\n    Probes,\n";
        let vendors = "    #[sea_orm(has_many = \"super::vendors::Entity\")]\n    Vendors,\n";
        let old = entity(
            "    pub id: i64,\n",
            &format!("{ORG}{vendors}"),
            &format!(
                "{}{}",
                related("organizations", "Organizations"),
                related("vendors", "Vendors")
            ),
        );
        let new = entity(
            "    pub id: i64,\n",
            &format!("{ORG}{probes}{vendors}"),
            &format!(
                "{}{}{}",
                related("organizations", "Organizations"),
                related("probes", "Probes"),
                related("vendors", "Vendors")
            ),
        );
        let tables = tables(&["reminders", "organizations", "vendors"]);
        assert_eq!(merge(&old, &new, &tables), new);
        // The first relation of an entity that had none.
        let old = entity("    pub id: i64,\n", "", "");
        let new = entity("    pub id: i64,\n", probes, &related("probes", "Probes"));
        assert_eq!(merge(&old, &new, &tables), new);
    }

    #[test]
    fn a_file_not_shaped_as_sea_orm_writes_it_is_left_as_generated() {
        let new = entity("    pub id: i64,\n", "", "");
        assert_eq!(merge("not an entity", &new, &tables(&[])), new);
    }
}
