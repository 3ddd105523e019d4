Hello,

{{ invitedBy }} invited you to join {{ organization }} on Vendorwatch as {{ role }}, to keep track of its vendors' compliance documents together.

Accept the invitation and create your account here:

{{ acceptUrl }}

The link works once and expires in {{ ttlDays }} days. If you were not expecting this, ignore this email: nothing happens unless you accept.

Questions? Write to {{ supportEmail }}.

— Vendorwatch
