use loco_rs::prelude::*;

use crate::models::users;

/// `cargo loco task make_admin email:ann@example.com [revoke:true]`: grants (or takes back)
/// the platform-operator role that opens the blog tools.
pub struct MakeAdmin;

#[async_trait]
impl Task for MakeAdmin {
    fn task(&self) -> TaskInfo {
        TaskInfo {
            name: "make_admin".to_string(),
            detail: "Make a user an admin: make_admin email:<email> [revoke:true]".to_string(),
        }
    }

    async fn run(&self, ctx: &AppContext, vars: &task::Vars) -> Result<()> {
        let email = vars.cli_arg("email")?;
        let revoke = vars.cli_arg("revoke").is_ok_and(|v| v == "true");
        let user = users::Model::find_by_email(&ctx.db, email)
            .await
            .map_err(|_| Error::string(&format!("no user with email `{email}`")))?;
        let role = if revoke {
            users::PlatformRole::User
        } else {
            users::PlatformRole::Admin
        };
        let user = user.into_active_model().set_role(&ctx.db, role).await?;
        println!("{} is now `{}`", user.email, user.role);
        Ok(())
    }
}
