Hello {{ vendor }},

{{ organization }} keeps your compliance documents on Vendorwatch. Your {{ document }} on file {% if expired %}expired on {{ expirationDate }}{% else %}expires on {{ expirationDate }} ({{ when }}){% endif %}.

Please upload the renewed document through the vendor portal:
{{ uploadUrl }}

Your company key: {{ companyKey }}

Enter the company key, then upload the file under {{ document }}. You do not need an account.

— Vendorwatch, on behalf of {{ organization }}
