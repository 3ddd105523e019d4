{% extends "layout.html.t" %}
{% block content %}
<p style="margin:0 0 16px;">Hello,</p>
<p style="margin:0 0 16px;"><strong>{{ invitedBy }}</strong> invited you to join <strong>{{ organization }}</strong> on Vendorwatch as {{ role }}, to keep track of its vendors' compliance documents together.</p>
<p style="margin:24px 0;"><a href="{{ acceptUrl }}" style="background:#2563eb;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600;display:inline-block;">Accept the invitation</a></p>
<p style="margin:0 0 16px;color:#475569;">The link works once and expires in {{ ttlDays }} days. If you were not expecting this, ignore this email: nothing happens unless you accept.</p>
<p style="margin:0;color:#475569;">Questions? Write to <a href="mailto:{{ supportEmail }}" style="color:#2563eb;">{{ supportEmail }}</a>.</p>
{% endblock content %}
