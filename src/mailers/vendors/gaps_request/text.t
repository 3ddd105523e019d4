Hello {{ vendor }},

{{ organization }} checked your certificates of insurance on Vendorwatch against what its contract asks you to carry, and found:
{% for gap in gaps %}
  - {{ gap }}{% endfor %}

Please ask your insurance agent for a corrected certificate, then upload it through the vendor portal:
{{ uploadUrl }}

Your company key: {{ companyKey }}

Enter the company key, then upload the certificate under its insurance type. You do not need an account.

— Vendorwatch, on behalf of {{ organization }}
