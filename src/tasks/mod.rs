pub mod make_admin;
pub mod reminders_sweep;
pub mod set_plan;
pub mod storage_orphans;
