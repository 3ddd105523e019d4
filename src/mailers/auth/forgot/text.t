Hi {{ name }},

Someone asked to reset the password of your Vendorwatch account. If it was you, open this link to choose a new password:

{{ resetUrl }}

The link works once and expires in {{ ttlMinutes }} minutes. If you did not ask for this, ignore this email: your password stays as it is.

Questions? Write to {{ supportEmail }}.

— Vendorwatch
