Hello {{ vendor }},

{{ organization }} keeps your compliance documents on Vendorwatch. {{ count }} of your documents on file expire soon or have expired:
{% for d in documents %}
- {{ d.document }} ("{{ d.fileName }}"): {% if d.expired %}expired on {{ d.expirationDate }}{% else %}expires on {{ d.expirationDate }} ({{ d.when }}){% endif %}
{%- endfor %}

Please upload the renewed documents through the vendor portal:
{{ uploadUrl }}

Your company key: {{ companyKey }}

Enter the company key, then upload each file under its document type. You do not need an account.

— Vendorwatch, on behalf of {{ organization }}
