//! When reminders go out (docs/product.md, "Reminders").

use chrono::{Days, NaiveDate};

/// Reminder dates for a document expiring on `expiration`: one per offset (days before);
/// dates already past on `today` collapse into a single reminder dated today.
#[must_use]
pub fn reminder_dates(expiration: NaiveDate, offsets: &[u32], today: NaiveDate) -> Vec<NaiveDate> {
    let mut dates: Vec<NaiveDate> = offsets
        .iter()
        .filter_map(|d| expiration.checked_sub_days(Days::new(u64::from(*d))))
        .map(|date| date.max(today))
        .collect();
    dates.sort_unstable();
    dates.dedup();
    dates
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    #[test]
    fn reminder_dates_collapse_past_dates_into_today() {
        let today = d("2026-03-10");
        assert_eq!(
            reminder_dates(d("2026-05-01"), &[30, 7, 0], today),
            vec![d("2026-04-01"), d("2026-04-24"), d("2026-05-01")]
        );
        assert_eq!(
            reminder_dates(d("2026-03-20"), &[30, 7, 0], today),
            vec![today, d("2026-03-13"), d("2026-03-20")],
            "30 days before is already past: it becomes today"
        );
        assert_eq!(
            reminder_dates(d("2026-03-01"), &[30, 7, 0], today),
            vec![today],
            "an already expired document gets one reminder, today"
        );
    }
}
