//! Search filters and paging windows that behave the same on `SQLite` and `PostgreSQL`.

use sea_orm::{
    sea_query::{Expr, ExprTrait, Func, IntoColumnRef, LikeExpr},
    QuerySelect,
};

/// `lower(col) LIKE '%q%'`, with `%`, `_` and `\` in `q` taken literally.
#[must_use]
pub fn contains_ci(col: impl IntoColumnRef, q: &str) -> Expr {
    let escaped = q
        .to_lowercase()
        .replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_");
    Expr::expr(Func::lower(Expr::col(col))).like(LikeExpr::new(format!("%{escaped}%")).escape('\\'))
}

/// A trimmed, non-empty search text.
#[must_use]
pub fn text(q: Option<&str>) -> Option<&str> {
    q.map(str::trim).filter(|q| !q.is_empty())
}

/// The `limit`/`offset` window of a list, as SQL takes it on `SQLite` and `PostgreSQL` alike.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Page {
    /// Rows at most; `None`: every row.
    pub limit: Option<u64>,
    /// Rows skipped first.
    pub offset: Option<u64>,
}

impl Page {
    /// The largest `LIMIT` or `OFFSET` the databases take (they bind them as signed 64-bit).
    const MAX: u64 = i64::MAX.unsigned_abs();

    /// `LIMIT` and `OFFSET` for SQL: both at most `i64::MAX` (larger ones mean the same
    /// rows), and an offset always with a limit, which `SQLite` requires.
    #[must_use]
    pub fn sql(self) -> (Option<u64>, Option<u64>) {
        let offset = self
            .offset
            .map(|o| Ord::min(o, Self::MAX))
            .filter(|o| *o > 0);
        let limit = match (self.limit, offset) {
            (Some(l), _) => Some(Ord::min(l, Self::MAX)),
            (None, Some(_)) => Some(Self::MAX),
            (None, None) => None,
        };
        (limit, offset)
    }

    /// `select` restricted to this window.
    #[must_use]
    pub fn apply<Q: QuerySelect>(self, select: Q) -> Q {
        let (limit, offset) = self.sql();
        select.limit(limit).offset(offset)
    }

    /// How many rows match in all, when the window's `rows` tell without a count: a window
    /// that came back short of its limit (or had none) ends at the last row, unless it is
    /// empty past the start (the rows may end before the offset).
    #[must_use]
    pub fn known_total(self, rows: usize) -> Option<u64> {
        let (limit, offset) = self.sql();
        let (rows, offset) = (rows as u64, offset.unwrap_or(0));
        let short = limit.is_none_or(|limit| rows < limit);
        (short && (rows > 0 || offset == 0)).then_some(offset + rows)
    }

    /// The total of a list: `known_total`, or else `count` (the count query).
    ///
    /// # Errors
    /// What `count` returns.
    pub async fn total<F, E>(self, rows: usize, count: F) -> std::result::Result<u64, E>
    where
        F: std::future::Future<Output = std::result::Result<u64, E>>,
    {
        match self.known_total(rows) {
            Some(total) => Ok(total),
            None => count.await,
        }
    }
}

/// A list's order: one of the list's own keys, ascending or descending (`sort=key` or
/// `sort=-key` in a query string); ties are broken by id in the same direction.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Sort<K> {
    pub key: K,
    pub descending: bool,
}

impl<K: Copy> Sort<K> {
    /// `raw` read against `keys` (name, key): absent or empty gives `default`; `None` when it
    /// names no key.
    #[must_use]
    pub fn parse(raw: Option<&str>, default: Self, keys: &[(&str, K)]) -> Option<Self> {
        let Some(raw) = raw.map(str::trim).filter(|r| !r.is_empty()) else {
            return Some(default);
        };
        let (descending, name) = raw
            .strip_prefix('-')
            .map_or((false, raw), |name| (true, name));
        keys.iter().find(|(n, _)| *n == name).map(|(_, key)| Self {
            key: *key,
            descending,
        })
    }

    /// SQL's order for this direction.
    #[must_use]
    pub const fn order(self) -> sea_orm::Order {
        if self.descending {
            sea_orm::Order::Desc
        } else {
            sea_orm::Order::Asc
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Page;

    const MAX: u64 = i64::MAX.unsigned_abs();

    #[test]
    fn a_short_window_tells_the_total_and_a_full_or_empty_one_does_not() {
        let total = |limit, offset, rows| Page { limit, offset }.known_total(rows);
        assert_eq!(total(None, None, 0), Some(0));
        assert_eq!(total(None, None, 25), Some(25));
        assert_eq!(total(Some(25), None, 7), Some(7));
        assert_eq!(total(Some(25), Some(50), 7), Some(57));
        assert_eq!(total(None, Some(3), 4), Some(7));
        assert_eq!(total(Some(25), None, 25), None, "more may follow");
        assert_eq!(total(Some(0), None, 0), None);
        assert_eq!(
            total(Some(25), Some(50), 0),
            None,
            "the rows may end before 50"
        );
        assert_eq!(total(None, Some(3), 0), None);
    }

    #[test]
    fn a_sort_is_a_known_key_with_an_optional_minus() {
        use super::Sort;
        let keys = [("name", 1), ("updatedAt", 2)];
        let default = Sort {
            key: 1,
            descending: false,
        };
        let parse = |raw| Sort::parse(raw, default, &keys);
        assert_eq!(parse(None), Some(default));
        assert_eq!(parse(Some(" ")), Some(default));
        assert_eq!(
            parse(Some("-updatedAt")),
            Some(Sort {
                key: 2,
                descending: true
            })
        );
        assert_eq!(
            parse(Some("updatedAt")),
            Some(Sort {
                key: 2,
                descending: false
            })
        );
        assert_eq!(parse(Some("updated_at")), None);
        assert_eq!(parse(Some("--name")), None);
        assert_eq!(parse(Some("-")), None);
    }

    #[test]
    fn windows_stay_within_what_sql_takes() {
        let page = |limit, offset| Page { limit, offset }.sql();
        assert_eq!(page(None, None), (None, None));
        assert_eq!(page(Some(25), None), (Some(25), None));
        assert_eq!(page(Some(25), Some(50)), (Some(25), Some(50)));
        assert_eq!(
            page(None, Some(3)),
            (Some(MAX), Some(3)),
            "SQLite needs a LIMIT"
        );
        assert_eq!(page(Some(u64::MAX), None), (Some(MAX), None));
        assert_eq!(page(None, Some(u64::MAX)), (Some(MAX), Some(MAX)));
        assert_eq!(page(Some(0), Some(0)), (Some(0), None));
        assert_eq!(page(None, Some(0)), (None, None));
    }
}
