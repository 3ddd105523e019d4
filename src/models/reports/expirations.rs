//! The expirations report (docs/product.md, "Reports"): the organization's current documents
//! expiring in each of the next 12 weeks, with their vendors; at once ([`expirations`], which
//! the weekly summary reads too) or week by week while it is sent ([`ExpirationsReport`]).

use std::collections::HashMap;

use chrono::{Duration, NaiveDate};
use loco_rs::prelude::*;

use crate::models::{
    _entities::documents::Column as D,
    documents,
    sheet::{self, Cell},
};

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExpiringDocument {
    pub id: String,
    pub label: String,
    pub expiration_date: NaiveDate,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
pub struct ExpiringVendor {
    pub id: String,
    pub name: String,
    pub documents: Vec<ExpiringDocument>,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExpirationWeek {
    pub week_start: NaiveDate,
    pub week_end: NaiveDate,
    pub count: usize,
    pub vendors: Vec<ExpiringVendor>,
}

impl ExpirationWeek {
    /// The sheet's rows of the week: one per document, its vendors in the week's order.
    #[must_use]
    pub fn rows(&self) -> Vec<Vec<Cell>> {
        self.vendors
            .iter()
            .flat_map(|v| {
                v.documents.iter().map(|d| {
                    vec![
                        Cell::Date(Some(self.week_start)),
                        v.name.clone().into(),
                        v.id.clone().into(),
                        d.label.clone().into(),
                        Cell::Date(Some(d.expiration_date)),
                    ]
                })
            })
            .collect()
    }
}

/// The sheet's columns: one row per document.
pub const EXPIRATION_COLUMNS: [&str; 5] = [
    "Week Of",
    "Vendor",
    "Company Key",
    "Document",
    "Expiration Date",
];

/// How many weeks ahead the expirations report looks.
pub const EXPIRATION_WEEKS: i64 = 12;

/// The organization's current documents expiring in the report's weeks, by expiration date
/// (ties by id, so that the report reads the same twice).
fn expiring(org_id: i64, today: NaiveDate) -> sea_orm::Select<documents::Entity> {
    documents::Entity::find()
        .in_tenant(org_id)
        .filter(D::IsCurrent.eq(true))
        .filter(D::ExpirationDate.gte(today))
        .filter(D::ExpirationDate.lt(today + Duration::days(EXPIRATION_WEEKS * 7)))
        .order_by_asc(D::ExpirationDate)
        .order_by_asc(D::Id)
}

/// Documents in expiration order folded into the report's weeks, each week handed over as soon
/// as no later document can fall in it.
struct Weeks {
    today: NaiveDate,
    /// The week being filled, and where each of its vendors is in it (by company key).
    week: ExpirationWeek,
    number: i64,
    vendors: HashMap<String, usize>,
}

impl Weeks {
    fn new(today: NaiveDate) -> Self {
        Self {
            today,
            week: Self::empty(today, 0),
            number: 0,
            vendors: HashMap::new(),
        }
    }

    fn empty(today: NaiveDate, number: i64) -> ExpirationWeek {
        ExpirationWeek {
            week_start: today + Duration::days(number * 7),
            week_end: today + Duration::days(number * 7 + 6),
            count: 0,
            vendors: vec![],
        }
    }

    /// The week filled so far, the next one begun.
    fn next(&mut self) -> ExpirationWeek {
        self.number += 1;
        self.vendors.clear();
        std::mem::replace(&mut self.week, Self::empty(self.today, self.number))
    }

    /// Adds `doc` of the vendor `(key, name)`; the weeks it closes, in order.
    fn add(
        &mut self,
        doc: &documents::Model,
        (key, name): &(String, String),
    ) -> Vec<ExpirationWeek> {
        let Some(expiration) = doc.expiration_date else {
            return vec![];
        };
        let number = (expiration - self.today).num_days().div_euclid(7);
        if !(0..EXPIRATION_WEEKS).contains(&number) || number < self.number {
            return vec![];
        }
        let mut closed = vec![];
        while self.number < number {
            closed.push(self.next());
        }
        self.week.count += 1;
        let entry = ExpiringDocument {
            id: doc.pid.to_string(),
            label: doc.label().to_string(),
            expiration_date: expiration,
        };
        if let Some(&at) = self.vendors.get(key) {
            self.week.vendors[at].documents.push(entry);
        } else {
            self.vendors.insert(key.clone(), self.week.vendors.len());
            self.week.vendors.push(ExpiringVendor {
                id: key.clone(),
                name: name.clone(),
                documents: vec![entry],
            });
        }
        closed
    }

    /// The week being filled and the empty ones after it.
    fn finish(mut self) -> Vec<ExpirationWeek> {
        let mut rest = vec![];
        while self.number < EXPIRATION_WEEKS {
            rest.push(self.next());
        }
        rest
    }
}

/// Current documents expiring in each of the next 12 weeks (from `today`), with their vendors,
/// at once. [`ExpirationsReport`] sends the same weeks while it reads them.
///
/// # Errors
/// Database errors.
pub async fn expirations(
    db: &DatabaseConnection,
    org_id: i64,
    today: NaiveDate,
) -> Result<Vec<ExpirationWeek>> {
    let names = super::vendor_names(db, org_id, None).await?;
    let mut weeks = Weeks::new(today);
    let mut out = vec![];
    for doc in expiring(org_id, today).all(db).await? {
        if let Some(vendor) = names.get(&doc.vendor_id) {
            out.extend(weeks.add(&doc, vendor));
        }
    }
    out.extend(weeks.finish());
    Ok(out)
}

/// The expirations report read while it is sent: the vendors' names first, then one statement
/// streaming the documents in expiration order, each week sent once it is complete; both in one
/// read transaction ([`super::begin_read`]).
pub struct ExpirationsReport {
    txn: sea_orm::DatabaseTransaction,
    names: HashMap<i64, (String, String)>,
    org_id: i64,
    today: NaiveDate,
}

impl ExpirationsReport {
    /// Begins the read with the vendors' names.
    ///
    /// # Errors
    /// Database errors.
    pub async fn open(db: &DatabaseConnection, org_id: i64, today: NaiveDate) -> Result<Self> {
        let txn = super::begin_read(db).await?;
        let names = super::vendor_names(&txn, org_id, None).await?;
        Ok(Self {
            txn,
            names,
            org_id,
            today,
        })
    }

    /// The 12 weeks, each as soon as it is complete; a database error as the last item. Read
    /// by a task of its own, which stops when the stream is dropped (a client that went away).
    pub fn weeks(self) -> impl futures_util::Stream<Item = Result<ExpirationWeek>> + Send {
        let (tx, rx) = tokio::sync::mpsc::channel::<Result<ExpirationWeek>>(2);
        tokio::spawn(async move {
            if let Err(err) = self.send(&tx).await {
                let _ = tx.send(Err(err)).await;
            }
        });
        sheet::received(rx)
    }

    async fn send(self, tx: &tokio::sync::mpsc::Sender<Result<ExpirationWeek>>) -> Result<()> {
        use futures_util::StreamExt;
        let mut weeks = Weeks::new(self.today);
        {
            let mut docs =
                std::pin::pin!(expiring(self.org_id, self.today).stream(&self.txn).await?);
            while let Some(doc) = docs.next().await {
                let doc = doc?;
                let Some(vendor) = self.names.get(&doc.vendor_id) else {
                    continue;
                };
                for week in weeks.add(&doc, vendor) {
                    if tx.send(Ok(week)).await.is_err() {
                        return Ok(());
                    }
                }
            }
        }
        for week in weeks.finish() {
            if tx.send(Ok(week)).await.is_err() {
                return Ok(());
            }
        }
        self.txn.commit().await?;
        Ok(())
    }
}
