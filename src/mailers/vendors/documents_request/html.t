{% extends "layout.html.t" %}
{% block content %}
<p style="margin:0 0 16px;">Hello {{ vendor }},</p>
<p style="margin:0 0 16px;"><strong>{{ organization }}</strong> keeps your compliance documents on Vendorwatch and asks you to upload {% if wanted %}these documents:</p>
<ul style="margin:0 0 16px;padding-left:20px;">{% for label in wanted %}<li>{{ label }}</li>{% endfor %}</ul>{% else %}your current compliance documents.</p>{% endif %}
<p style="margin:0 0 8px;">Your company key:</p>
<p style="margin:0 0 16px;text-align:center;"><span style="display:inline-block;font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:22px;font-weight:700;letter-spacing:3px;background:#eff6ff;color:#1d4ed8;padding:10px 18px;border-radius:8px;">{{ companyKey }}</span></p>
<p style="margin:24px 0;"><a href="{{ uploadUrl }}" style="background:#2563eb;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600;display:inline-block;">Open the vendor portal</a></p>
<p style="margin:0;color:#475569;">Enter the company key, then upload each file under its document type. You do not need an account.</p>
{% endblock content %}
