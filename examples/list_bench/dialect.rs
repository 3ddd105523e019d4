//! The SQL of the bulk seeding that differs between `PostgreSQL` and `SQLite`: a series of
//! integers, date arithmetic, timestamps, uuids, company keys.

use chrono::NaiveDate;

/// The SQL that differs between the two databases.
pub struct Dialect {
    pub pg: bool,
    pub today: NaiveDate,
}

impl Dialect {
    /// The CTE `g(i)`: the integers `first..=last` (64-bit on both, for the arithmetic on ids).
    pub fn series(&self, first: u64, last: u64) -> String {
        if self.pg {
            format!("g(i) AS (SELECT generate_series(CAST({first} AS BIGINT), {last}))")
        } else {
            format!("g(i) AS (SELECT {first} UNION ALL SELECT i + 1 FROM g WHERE i < {last})")
        }
    }

    pub fn date(&self, day: NaiveDate) -> String {
        if self.pg {
            format!("DATE '{day}'")
        } else {
            format!("'{day}'")
        }
    }

    /// The date `days` (an integer expression) after the date `day`.
    pub fn shift(&self, day: &str, days: &str) -> String {
        if self.pg {
            format!("({day} + CAST({days} AS INTEGER))")
        } else {
            format!("date({day}, ({days}) || ' days')")
        }
    }

    /// The date `days` after today.
    pub fn day(&self, days: &str) -> String {
        self.shift(&self.date(self.today), days)
    }

    /// Midnight UTC of the date `day`, as the app stores a timestamp with time zone.
    pub fn midnight(&self, day: &str) -> String {
        if self.pg {
            format!("(CAST({day} AS TIMESTAMP) AT TIME ZONE 'UTC')")
        } else {
            format!("({day} || 'T00:00:00+00:00')")
        }
    }

    /// A uuid made of the hex digit `kind` and the integer expression `n`: ordered by `n`, so
    /// that a unique index takes each batch's rows at one end rather than anywhere (random
    /// uuids make every row a write to a random page of an index larger than the caches).
    pub fn ordered_uuid(&self, kind: u8, n: &str) -> String {
        assert!(kind < 16, "one hex digit");
        if self.pg {
            format!("CAST('{kind:x}' || lpad(to_hex({n}), 31, '0') AS uuid)")
        } else {
            format!("unhex(printf('{kind:x}%031x', {n}))")
        }
    }

    /// A uuid column as the text the activity log keeps.
    pub fn uuid_text(&self, col: &str) -> String {
        if self.pg {
            format!("CAST({col} AS TEXT)")
        } else {
            let part = |from: u8, len: Option<u8>| {
                len.map_or(format!("substr(hex({col}), {from})"), |len| {
                    format!("substr(hex({col}), {from}, {len})")
                })
            };
            format!(
                "lower({} || '-' || {} || '-' || {} || '-' || {} || '-' || {})",
                part(1, Some(8)),
                part(9, Some(4)),
                part(13, Some(4)),
                part(17, Some(4)),
                part(21, None)
            )
        }
    }

    /// A company key (8 letters or digits) from a vendor id below 10,000,000.
    pub fn company_key(&self, id: &str) -> String {
        if self.pg {
            format!("('T' || lpad(CAST({id} AS TEXT), 7, '0'))")
        } else {
            format!("printf('T%07d', {id})")
        }
    }
}
