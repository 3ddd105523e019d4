//! Case-insensitive "contains" filters that behave the same on SQLite and PostgreSQL.

use sea_orm::sea_query::{Expr, ExprTrait, Func, IntoColumnRef, LikeExpr};

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

/// The `offset`/`limit` window of a list that was filtered in memory.
pub fn window<T>(
    items: impl IntoIterator<Item = T>,
    offset: Option<u64>,
    limit: Option<u64>,
) -> impl Iterator<Item = T> {
    let offset = offset.map_or(0, |o| usize::try_from(o).unwrap_or(usize::MAX));
    let limit = limit.map_or(usize::MAX, |l| usize::try_from(l).unwrap_or(usize::MAX));
    items.into_iter().skip(offset).take(limit)
}
