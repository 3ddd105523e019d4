{% extends "layout.html.t" %}
{% block content %}
<p style="margin:0 0 16px;">Hello {{ vendor }},</p>
<p style="margin:0 0 16px;"><strong>{{ organization }}</strong> keeps your compliance documents on Vendorwatch. Your <strong>{{ document }}</strong> on file {% if expired %}expired on <strong>{{ expirationDate }}</strong>{% else %}expires on <strong>{{ expirationDate }}</strong> ({{ when }}){% endif %}.</p>
<p style="margin:0 0 16px;">Please upload the renewed document through the vendor portal with your company key:</p>
<p style="margin:0 0 16px;text-align:center;"><span style="display:inline-block;font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:22px;font-weight:700;letter-spacing:3px;background:#eff6ff;color:#1d4ed8;padding:10px 18px;border-radius:8px;">{{ companyKey }}</span></p>
<p style="margin:24px 0;"><a href="{{ uploadUrl }}" style="background:#2563eb;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600;display:inline-block;">Upload the renewed document</a></p>
<p style="margin:0 0 8px;color:#475569;font-size:13px;">Or open this link: <a href="{{ uploadUrl }}" style="color:#2563eb;">{{ uploadUrl }}</a></p>
<p style="margin:0;color:#475569;">Enter the company key, then upload the file under {{ document }}. You do not need an account.</p>
{% endblock content %}
