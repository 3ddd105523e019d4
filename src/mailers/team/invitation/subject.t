{{ invitedBy }} invited you to {{ organization }} on Vendorwatch
