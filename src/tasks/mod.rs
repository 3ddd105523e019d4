pub mod content_schedule;
pub mod keyword_ingests;
pub mod make_admin;
pub mod reminders_sweep;
pub mod report_snapshots;
pub mod set_plan;
pub mod storage_orphans;
pub mod weekly_summary;
