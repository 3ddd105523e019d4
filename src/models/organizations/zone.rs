//! An organization's time zone and its day (docs/product.md, "Time zones"): "today" for its
//! documents, dashboard, reports, reminders and weekly summary is its local date, and its
//! emails go out in its morning.

use chrono::{DateTime, Days, NaiveDate, Timelike, Utc};
use chrono_tz::Tz;

use super::Model;
use crate::models::refusal::Refusal;

/// The zone of an organization that never chose one (those created before zones were kept).
pub const DEFAULT_TIME_ZONE: &str = "UTC";

/// The local hour from which an organization's day is swept: its reminders and its weekly
/// summary go out then.
pub const MORNING_HOUR: u32 = 8;

/// The IANA zone named `name` (`America/Los_Angeles`), as the tz database spells it.
///
/// # Errors
/// `Invalid` on `timeZone` for a name the tz database does not know.
pub fn parse_time_zone(name: &str) -> Result<Tz, Refusal> {
    name.parse::<Tz>()
        .map_err(|_| Refusal::field("timeZone", "Choose a time zone from the list."))
}

/// The schema of a time zone in the API: one of the tz database's names, exactly as it spells
/// them (what [`parse_time_zone`] takes), so that a client, or a generated test, knows them all.
#[must_use]
pub fn time_zone_schema() -> utoipa::openapi::Object {
    use utoipa::openapi::{schema::Type, ObjectBuilder};
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(chrono_tz::TZ_VARIANTS.iter().map(|tz| tz.name())))
        .examples([serde_json::json!("America/Los_Angeles")])
        .build()
}

/// The schema of sign-up's time zone: a tz database name, or empty or null for UTC.
#[must_use]
pub fn time_zone_or_none_schema() -> utoipa::openapi::Object {
    use utoipa::openapi::{
        schema::{SchemaType, Type},
        ObjectBuilder,
    };
    let names = chrono_tz::TZ_VARIANTS
        .iter()
        .map(|tz| serde_json::json!(tz.name()))
        .chain([serde_json::json!(""), serde_json::Value::Null]);
    ObjectBuilder::new()
        .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
        .enum_values(Some(names))
        .examples([serde_json::json!("America/Los_Angeles")])
        .build()
}

/// The zone named `name`; UTC for a name no longer known (a zone the tz database retired after
/// it was stored), so a day is always found.
#[must_use]
pub fn zone_named(name: &str) -> Tz {
    name.parse().unwrap_or(Tz::UTC)
}

/// The date in `zone` at `now`.
#[must_use]
pub fn local_date(zone: Tz, now: DateTime<Utc>) -> NaiveDate {
    now.with_timezone(&zone).date_naive()
}

/// The latest day in `zone` whose morning ([`MORNING_HOUR`], local) has come by `now`: the
/// local date from 8:00, the day before until then. Reading the local clock (rather than
/// adding hours to midnight) keeps a day that is 23 or 25 hours long (a DST change) neither
/// skipped nor swept twice early.
#[must_use]
pub fn swept_day(zone: Tz, now: DateTime<Utc>) -> NaiveDate {
    let local = now.with_timezone(&zone);
    let date = local.date_naive();
    if local.hour() >= MORNING_HOUR {
        date
    } else {
        date.checked_sub_days(Days::new(1)).unwrap_or(date)
    }
}

impl Model {
    /// The organization's time zone.
    #[must_use]
    pub fn zone(&self) -> Tz {
        zone_named(&self.time_zone)
    }

    /// The organization's date at `now`: its "today".
    #[must_use]
    pub fn today_at(&self, now: DateTime<Utc>) -> NaiveDate {
        local_date(self.zone(), now)
    }

    /// The organization's date now (the system clock; requests read
    /// `controllers::current::CurrentUser::today`, which a test can fix).
    #[must_use]
    pub fn today(&self) -> NaiveDate {
        self.today_at(Utc::now())
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    fn at(y: i32, mo: u32, d: u32, h: u32, mi: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(y, mo, d, h, mi, 0).unwrap()
    }

    fn date(y: i32, mo: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, mo, d).unwrap()
    }

    #[test]
    fn the_local_date_is_the_zones() {
        let los_angeles = parse_time_zone("America/Los_Angeles").unwrap();
        let auckland = parse_time_zone("Pacific/Auckland").unwrap();
        // 2026-04-01 00:30 UTC: 17:30 on March 31 in Los Angeles, 13:30 on April 1 in Auckland.
        let now = at(2026, 4, 1, 0, 30);
        assert_eq!(local_date(los_angeles, now), date(2026, 3, 31));
        assert_eq!(local_date(auckland, now), date(2026, 4, 1));
        // 2026-03-31 11:30 UTC: already April 1 in Auckland (NZDT, +13), still March 31 in UTC.
        assert_eq!(
            local_date(auckland, at(2026, 3, 31, 11, 30)),
            date(2026, 4, 1)
        );
        assert_eq!(
            local_date(Tz::UTC, at(2026, 3, 31, 11, 30)),
            date(2026, 3, 31)
        );
    }

    #[test]
    fn unknown_names_are_refused_and_read_as_utc() {
        assert!(parse_time_zone("Mars/Olympus_Mons").is_err());
        assert!(parse_time_zone("").is_err());
        assert_eq!(zone_named("Mars/Olympus_Mons"), Tz::UTC);
        assert_eq!(parse_time_zone("Europe/Paris").unwrap(), Tz::Europe__Paris);
        // Exactly as the tz database spells it, as the API document lists it: what the schema
        // refuses, the server refuses too.
        assert!(parse_time_zone(" Europe/Paris ").is_err());
        assert!(parse_time_zone("europe/paris").is_err());
    }

    #[test]
    fn the_swept_day_turns_at_eight_local_also_on_dst_days() {
        let los_angeles = zone_named("America/Los_Angeles");
        // 08:00 UTC on April 1 is 01:00 PDT: Los Angeles' April 1 morning has not come.
        assert_eq!(
            swept_day(los_angeles, at(2026, 4, 1, 8, 0)),
            date(2026, 3, 31)
        );
        // 15:00 UTC is 08:00 PDT: it has.
        assert_eq!(
            swept_day(los_angeles, at(2026, 4, 1, 15, 0)),
            date(2026, 4, 1)
        );
        // March 8, 2026 (clocks go forward at 02:00, a 23-hour day): 08:00 PDT is 15:00 UTC.
        assert_eq!(
            swept_day(los_angeles, at(2026, 3, 8, 14, 59)),
            date(2026, 3, 7)
        );
        assert_eq!(
            swept_day(los_angeles, at(2026, 3, 8, 15, 0)),
            date(2026, 3, 8)
        );
        // November 1, 2026 (clocks go back, a 25-hour day): 08:00 PST is 16:00 UTC.
        assert_eq!(
            swept_day(los_angeles, at(2026, 11, 1, 15, 59)),
            date(2026, 10, 31)
        );
        assert_eq!(
            swept_day(los_angeles, at(2026, 11, 1, 16, 0)),
            date(2026, 11, 1)
        );
        // A half-hour zone: 08:00 in Kolkata is 02:30 UTC; the 03:00 UTC run finds it.
        let kolkata = zone_named("Asia/Kolkata");
        assert_eq!(swept_day(kolkata, at(2026, 4, 1, 2, 0)), date(2026, 3, 31));
        assert_eq!(swept_day(kolkata, at(2026, 4, 1, 3, 0)), date(2026, 4, 1));
    }
}
