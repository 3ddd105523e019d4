{% extends "layout.html.t" %}
{% block content %}
<p style="margin:0 0 16px;">Hi {{ name }},</p>
<p style="margin:0 0 16px;">Someone asked to reset the password of your Vendorwatch account. If it was you, choose a new password:</p>
<p style="margin:24px 0;"><a href="{{ resetUrl }}" style="background:#2563eb;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600;display:inline-block;">Reset your password</a></p>
<p style="margin:0 0 16px;color:#475569;">The link works once and expires in {{ ttlMinutes }} minutes. If you did not ask for this, ignore this email: your password stays as it is.</p>
<p style="margin:0;color:#475569;">Questions? Write to <a href="mailto:{{ supportEmail }}" style="color:#2563eb;">{{ supportEmail }}</a>.</p>
{% endblock content %}
