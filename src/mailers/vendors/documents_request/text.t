Hello {{ vendor }},

{{ organization }} keeps your compliance documents on Vendorwatch and asks you to upload {% if wanted %}these documents:
{% for label in wanted %}
  - {{ label }}{% endfor %}
{% else %}your current compliance documents.{% endif %}

Upload them through the vendor portal:
{{ uploadUrl }}

Your company key: {{ companyKey }}

Enter the company key, then upload each file under its document type. You do not need an account.

— Vendorwatch, on behalf of {{ organization }}
