Hi {{ name }},

Here is where {{ organization }} stands this week ({{ weekOf }}):

  Current: {{ current }} of {{ total }} vendors
  Expiring soon: {{ expiringSoon }}
  Expired: {{ expired }}
  Missing documents: {{ missing }}
{% if withGaps %}
Short of their insurance requirements:
{% for item in withGaps %}
  - {{ item.vendor }}: {{ item.first }}{% if item.more %} (and {{ item.more }} more){% endif %}{% endfor %}
{% endif %}{% if expiring %}
Expiring in the next 7 days:
{% for item in expiring %}
  - {{ item.vendor }}: {{ item.label }}, {{ item.date }}{% endfor %}
{% else %}
Nothing expires in the next 7 days.
{% endif %}
See the reports: {{ reportsUrl }}

You get this email every Monday. To stop it, unsubscribe here (no sign-in needed):
{{ unsubscribeUrl }}
You can turn it back on with "Email me a weekly summary" on the Reports page.

— Vendorwatch
