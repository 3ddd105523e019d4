{% extends "layout.html.t" %}
{% block content %}
<p style="margin:0 0 16px;">Hi {{ name }},</p>
<p style="margin:0 0 16px;">Here is where <strong>{{ organization }}</strong> stands this week ({{ weekOf }}):</p>
<table role="presentation" cellpadding="0" cellspacing="0" style="margin:0 0 16px;font-size:14px;color:#334155;">
  <tr><td style="padding:2px 16px 2px 0;color:#64748b;">Current</td><td>{{ current }} of {{ total }} vendors</td></tr>
  <tr><td style="padding:2px 16px 2px 0;color:#64748b;">Expiring soon</td><td>{{ expiringSoon }}</td></tr>
  <tr><td style="padding:2px 16px 2px 0;color:#64748b;">Expired</td><td>{{ expired }}</td></tr>
  <tr><td style="padding:2px 16px 2px 0;color:#64748b;">Missing documents</td><td>{{ missing }}</td></tr>
</table>
{% if withGaps %}<p style="margin:0 0 8px;">Short of their insurance requirements:</p>
<ul style="margin:0 0 16px;padding-left:20px;">{% for item in withGaps %}<li>{{ item.vendor }}: {{ item.first }}{% if item.more %} (and {{ item.more }} more){% endif %}</li>{% endfor %}</ul>{% endif %}
{% if expiring %}<p style="margin:0 0 8px;">Expiring in the next 7 days:</p>
<ul style="margin:0 0 16px;padding-left:20px;">{% for item in expiring %}<li>{{ item.vendor }}: {{ item.label }}, {{ item.date }}</li>{% endfor %}</ul>{% else %}<p style="margin:0 0 16px;">Nothing expires in the next 7 days.</p>{% endif %}
<p style="margin:24px 0;"><a href="{{ reportsUrl }}" style="background:#2563eb;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600;display:inline-block;">See the reports</a></p>
<p style="margin:0;color:#475569;font-size:13px;">You get this email every Monday. To stop it, <a href="{{ unsubscribeUrl }}" style="color:#2563eb;">unsubscribe</a> (no sign-in needed). You can turn it back on with "Email me a weekly summary" on the Reports page.</p>
{% endblock content %}
