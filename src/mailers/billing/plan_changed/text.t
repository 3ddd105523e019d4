Hi {{ name }},

{% if byOperator %}{% if professional %}The Vendorwatch team has moved {{ organization }} to the Professional plan; no payment was taken. You can keep up to {{ vendorLimit }} vendors, with no limit on documents.{% else %}The Vendorwatch team has moved {{ organization }} to the Free plan. Nothing was deleted: every vendor and document is still there. While you have more than {{ vendorLimit }} vendors, new vendors cannot be added.{% endif %}{% elif professional %}Thank you: your payment went through and {{ organization }} is now on the Professional plan. You can keep up to {{ vendorLimit }} vendors, with no limit on documents.{% else %}The Professional subscription of {{ organization }} has ended, and the organization is back on the Free plan. Nothing was deleted: every vendor and document is still there. While you have more than {{ vendorLimit }} vendors, new vendors cannot be added.{% endif %}

See your plan and billing: {{ billingUrl }}

Questions? Write to {{ supportEmail }}.

— Vendorwatch
