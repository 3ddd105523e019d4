//! The status rules of [`super::document_status`] and [`super::vendor_status`] in SQL, so lists
//! can filter and count on the database server. Today's date is a bound parameter and the
//! expressions compare dates only, so they read the same on `SQLite` and `PostgreSQL`. A test holds
//! them to the same answers as the Rust rules.

use chrono::{Days, NaiveDate};
use sea_orm::sea_query::{
    CaseStatement, Cond, Condition, Expr, ExprTrait, Func, Query, QueryStatementBuilder,
};

use super::{Status, EXPIRING_SOON_DAYS};
use crate::models::_entities::{documents, vendors};

/// The last day on which a document expiring then is `expiring_soon` rather than `current`.
fn soon(today: NaiveDate) -> NaiveDate {
    today + Days::new(EXPIRING_SOON_DAYS.unsigned_abs())
}

/// Whether a document with `expiration` (a date column or expression) has `status` on `today`.
#[must_use]
pub fn document_status_is(expiration: &Expr, status: Status, today: NaiveDate) -> Condition {
    match status {
        Status::Expired => Cond::all().add(expiration.clone().lte(today)),
        Status::ExpiringSoon => Cond::all()
            .add(expiration.clone().gt(today))
            .add(expiration.clone().lte(soon(today))),
        Status::Current => Cond::any()
            .add(expiration.clone().is_null())
            .add(expiration.clone().gt(soon(today))),
        // A document is never missing: that is a slot or a vendor without documents.
        Status::Missing => Cond::all().add(Expr::val(1).eq(0)),
    }
}

/// A status as a number ordered as [`Status`] is (worst highest), for `MAX` over documents.
#[must_use]
pub fn rank(status: Status) -> i32 {
    match status {
        Status::Current => 0,
        Status::ExpiringSoon => 1,
        Status::Expired => 2,
        Status::Missing => 3,
    }
}

/// The status in SQL of a document with `expiration`, as its [`rank`].
#[must_use]
pub fn document_rank(expiration: &Expr, today: NaiveDate) -> Expr {
    CaseStatement::new()
        .case(
            document_status_is(expiration, Status::Expired, today),
            rank(Status::Expired),
        )
        .case(
            document_status_is(expiration, Status::ExpiringSoon, today),
            rank(Status::ExpiringSoon),
        )
        .finally(rank(Status::Current))
        .into()
}

/// The status in SQL of the vendor in the enclosing query's `vendors` row, as its [`rank`]: the
/// worst status of its current documents, `missing` without any.
#[must_use]
pub fn vendor_rank(today: NaiveDate) -> Expr {
    let expiration = Expr::col((documents::Entity, documents::Column::ExpirationDate));
    let worst = Query::select()
        .expr(Func::max(document_rank(&expiration, today)))
        .from(documents::Entity)
        .and_where(
            Expr::col((documents::Entity, documents::Column::VendorId))
                .equals((vendors::Entity, vendors::Column::Id)),
        )
        .and_where(Expr::col((documents::Entity, documents::Column::IsCurrent)).eq(true))
        .to_owned();
    Func::coalesce([
        Expr::SubQuery(None, Box::new(worst.into_sub_query_statement())),
        Expr::val(rank(Status::Missing)),
    ])
    .into()
}

#[cfg(test)]
mod tests {
    use chrono::{Duration, NaiveDate};
    use sea_orm::{
        sea_query::{Expr, Query, SqliteQueryBuilder},
        ConnectionTrait, Database, DbBackend, Statement,
    };

    use super::{document_rank, document_status_is, rank};
    use crate::models::compliance::{document_status, Status};

    /// Every boundary of the rule, evaluated by `SQLite` with the date bound as the app binds it.
    #[tokio::test]
    async fn sql_status_matches_the_rust_rule_at_every_boundary() {
        let db = Database::connect("sqlite::memory:").await.unwrap();
        let today = NaiveDate::from_ymd_opt(2026, 3, 10).unwrap();
        let mut dates: Vec<Option<NaiveDate>> =
            (-2..=33).map(|d| Some(today + Duration::days(d))).collect();
        dates.push(None);
        for date in dates {
            let expected = document_status(date, today);
            let value = Expr::val(date);
            let mut select = Query::select();
            select.expr(document_rank(&value, today));
            for status in [
                Status::Current,
                Status::ExpiringSoon,
                Status::Expired,
                Status::Missing,
            ] {
                select.expr(
                    sea_orm::sea_query::CaseStatement::new()
                        .case(document_status_is(&value, status, today), 1)
                        .finally(0),
                );
            }
            let (sql, values) = select.build(SqliteQueryBuilder);
            let row = db
                .query_one_raw(Statement::from_sql_and_values(
                    DbBackend::Sqlite,
                    sql,
                    values,
                ))
                .await
                .unwrap()
                .unwrap();
            let got: Vec<i32> = (0..5).map(|i| row.try_get_by_index(i).unwrap()).collect();
            assert_eq!(got[0], rank(expected), "{date:?}");
            let is: Vec<bool> = got[1..].iter().map(|v| *v == 1).collect();
            assert_eq!(
                is,
                [
                    Status::Current,
                    Status::ExpiringSoon,
                    Status::Expired,
                    Status::Missing
                ]
                .map(|s| s == expected),
                "{date:?}"
            );
        }
    }
}
