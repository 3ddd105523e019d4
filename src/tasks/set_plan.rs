use loco_rs::prelude::*;

use crate::{
    mailers::billing::{BillingMailer, ChangedBy},
    models::{billing, organizations, state, users},
};

/// `cargo loco task set_plan email:ann@example.com plan:professional`: moves the organization
/// of that user to a plan by hand (billing not configured, support cases).
pub struct SetPlan;

#[async_trait]
impl Task for SetPlan {
    fn task(&self) -> TaskInfo {
        TaskInfo {
            name: "set_plan".to_string(),
            detail:
                "Set an organization's plan: set_plan email:<member email> plan:free|professional"
                    .to_string(),
        }
    }

    async fn run(&self, ctx: &AppContext, vars: &task::Vars) -> Result<()> {
        let email = vars.cli_arg("email")?;
        let name = vars.cli_arg("plan")?;
        let Some(plan) = state::parse::<organizations::Plan>(name) else {
            return Err(Error::string(&format!(
                "unknown plan `{name}`: use free or professional"
            )));
        };
        let user = users::Model::find_by_email(&ctx.db, email)
            .await
            .map_err(|_| Error::string(&format!("no user with email `{email}`")))?;
        let org = user.organization(&ctx.db).await?;
        match billing::change_plan(&ctx.db, &org, plan).await? {
            Some(change) => {
                BillingMailer::plan_changed(ctx, &change, ChangedBy::Operator).await?;
                println!(
                    "organization `{}` is now on the `{}` plan",
                    change.org.name, change.org.plan
                );
            }
            None => println!(
                "organization `{}` is already on the `{name}` plan",
                org.name
            ),
        }
        Ok(())
    }
}
