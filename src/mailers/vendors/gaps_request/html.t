{% extends "layout.html.t" %}
{% block content %}
<p style="margin:0 0 16px;">Hello {{ vendor }},</p>
<p style="margin:0 0 16px;"><strong>{{ organization }}</strong> checked your certificates of insurance on Vendorwatch against what its contract asks you to carry, and found:</p>
<ul style="margin:0 0 16px;padding-left:20px;">{% for gap in gaps %}<li style="margin:0 0 6px;">{{ gap }}</li>{% endfor %}</ul>
<p style="margin:0 0 16px;">Please ask your insurance agent for a corrected certificate, then upload it through the vendor portal.</p>
<p style="margin:0 0 8px;">Your company key:</p>
<p style="margin:0 0 16px;text-align:center;"><span style="display:inline-block;font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:22px;font-weight:700;letter-spacing:3px;background:#eff6ff;color:#1d4ed8;padding:10px 18px;border-radius:8px;">{{ companyKey }}</span></p>
<p style="margin:24px 0;"><a href="{{ uploadUrl }}" style="background:#2563eb;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600;display:inline-block;">Open the vendor portal</a></p>
<p style="margin:0;color:#475569;">Enter the company key, then upload the certificate under its insurance type. You do not need an account.</p>
{% endblock content %}
