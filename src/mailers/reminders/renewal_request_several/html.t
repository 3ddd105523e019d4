{% extends "layout.html.t" %}
{% block content %}
<p style="margin:0 0 16px;">Hello {{ vendor }},</p>
<p style="margin:0 0 16px;"><strong>{{ organization }}</strong> keeps your compliance documents on Vendorwatch. <strong>{{ count }} of your documents</strong> on file expire soon or have expired:</p>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="margin:0 0 16px;font-size:14px;color:#334155;border-collapse:collapse;">
  {% for d in documents %}
  <tr><td style="padding:6px 0;border-top:1px solid #e2e8f0;"><strong>{{ d.document }}</strong><br><span style="color:#64748b;font-size:13px;word-break:break-all;">{{ d.fileName }}</span></td><td style="padding:6px 0 6px 12px;border-top:1px solid #e2e8f0;text-align:right;">{% if d.expired %}Expired on {{ d.expirationDate }}{% else %}Expires on {{ d.expirationDate }} ({{ d.when }}){% endif %}</td></tr>
  {% endfor %}
</table>
<p style="margin:0 0 16px;">Please upload the renewed documents through the vendor portal with your company key:</p>
<p style="margin:0 0 16px;text-align:center;"><span style="display:inline-block;font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:22px;font-weight:700;letter-spacing:3px;background:#eff6ff;color:#1d4ed8;padding:10px 18px;border-radius:8px;">{{ companyKey }}</span></p>
<p style="margin:24px 0;"><a href="{{ uploadUrl }}" style="background:#2563eb;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600;display:inline-block;">Upload the renewed documents</a></p>
<p style="margin:0 0 8px;color:#475569;font-size:13px;">Or open this link: <a href="{{ uploadUrl }}" style="color:#2563eb;word-break:break-all;">{{ uploadUrl }}</a></p>
<p style="margin:0;color:#475569;">Enter the company key, then upload each file under its document type. You do not need an account.</p>
{% endblock content %}
