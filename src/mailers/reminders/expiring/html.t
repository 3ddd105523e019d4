{% extends "layout.html.t" %}
{% block content %}
<p style="margin:0 0 16px;">Hi {{ name }},</p>
<p style="margin:0 0 16px;">{% if expired %}The <strong>{{ document }}</strong> of <strong>{{ vendor }}</strong> expired on <strong>{{ expirationDate }}</strong>.{% else %}The <strong>{{ document }}</strong> of <strong>{{ vendor }}</strong> expires on <strong>{{ expirationDate }}</strong>, {{ when }}.{% endif %}</p>
<table role="presentation" cellpadding="0" cellspacing="0" style="margin:0 0 16px;font-size:14px;color:#334155;">
  <tr><td style="padding:2px 16px 2px 0;color:#64748b;">Vendor</td><td>{{ vendor }}</td></tr>
  <tr><td style="padding:2px 16px 2px 0;color:#64748b;">Document</td><td>{{ document }} ({{ fileName }})</td></tr>
  <tr><td style="padding:2px 16px 2px 0;color:#64748b;">Expiration Date</td><td>{{ expirationDate }}</td></tr>
  <tr><td style="padding:2px 16px 2px 0;color:#64748b;">Status</td><td><span style="display:inline-block;padding:2px 10px;border-radius:9999px;font-size:12px;font-weight:600;{% if expired %}background:#fee2e2;color:#b91c1c;{% else %}background:#fef9c3;color:#a16207;{% endif %}">{{ status }}</span></td></tr>
</table>
<p style="margin:24px 0;"><a href="{{ vendorUrl }}" style="background:#2563eb;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600;display:inline-block;">View {{ vendor }}</a></p>
<p style="margin:0 0 8px;color:#475569;font-size:13px;">Or open this link: <a href="{{ vendorUrl }}" style="color:#2563eb;">{{ vendorUrl }}</a></p>
<p style="margin:0;color:#475569;">We have asked {{ vendor }} to upload the renewed document through the vendor portal.</p>
{% endblock content %}
