{% extends "layout.html.t" %}
{% block content %}
<p style="margin:0 0 16px;">Hi {{ name }},</p>
<p style="margin:0 0 16px;">{% if vendorCount == 1 %}<strong>{{ count }} documents</strong> of <strong>{{ vendor }}</strong> expire soon or have expired:{% else %}<strong>{{ count }} documents</strong> of <strong>{{ vendorCount }} vendors</strong> expire soon or have expired:{% endif %}</p>
{% for v in vendors %}
<p style="margin:16px 0 4px;font-weight:700;">{{ v.vendor }}</p>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="margin:0 0 8px;font-size:14px;color:#334155;border-collapse:collapse;">
  {% for d in v.documents %}
  <tr><td style="padding:6px 0;border-top:1px solid #e2e8f0;">{{ d.document }}<br><span style="color:#64748b;font-size:13px;word-break:break-all;">{{ d.fileName }}</span></td><td style="padding:6px 0 6px 12px;border-top:1px solid #e2e8f0;text-align:right;">{% if d.expired %}Expired on {{ d.expirationDate }}{% else %}{{ d.expirationDate }}, {{ d.when }}{% endif %}<br><span style="display:inline-block;padding:2px 10px;border-radius:9999px;font-size:12px;font-weight:600;{% if d.expired %}background:#fee2e2;color:#b91c1c;{% else %}background:#fef9c3;color:#a16207;{% endif %}">{{ d.status }}</span></td></tr>
  {% endfor %}
</table>
<p style="margin:0 0 8px;font-size:13px;"><a href="{{ v.vendorUrl }}" style="color:#2563eb;">View {{ v.vendor }}</a>: <a href="{{ v.vendorUrl }}" style="color:#2563eb;word-break:break-all;">{{ v.vendorUrl }}</a></p>
{% endfor %}
<p style="margin:16px 0 0;color:#475569;">We have asked {% if vendorCount == 1 %}{{ vendor }}{% else %}each vendor{% endif %} to upload the renewed documents through the vendor portal.</p>
{% endblock content %}
