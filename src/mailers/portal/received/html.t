{% extends "layout.html.t" %}
{% block content %}
<p style="margin:0 0 16px;">Hi {{ name }},</p>
<p style="margin:0 0 16px;"><strong>{{ vendor }}</strong> uploaded a document through the vendor portal:</p>
<table role="presentation" cellpadding="0" cellspacing="0" style="margin:0 0 20px;background:#f8fafc;border:1px solid #e2e8f0;border-radius:8px;width:100%;">
  <tr><td style="padding:12px 16px;"><strong>{{ label }}</strong><br><span style="color:#475569;">{{ fileName }}</span>{% if expirationDate %}<br><span style="color:#475569;">Expires {{ expirationDate }}</span>{% endif %}</td></tr>
</table>
<p style="margin:24px 0;"><a href="{{ vendorUrl }}" style="background:#2563eb;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600;display:inline-block;">View {{ vendor }}</a></p>
{% endblock content %}
