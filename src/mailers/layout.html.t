<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="x-apple-disable-message-reformatting">
<title>{{ subject }}</title>
<style>img{max-width:100%;height:auto;}a{overflow-wrap:anywhere;word-break:break-word;}</style>
</head>
<body style="margin:0;padding:0;background:#f1f5f9;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#0f172a;">
  <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="width:100%;padding:24px 8px;">
    <tr><td align="center">
      <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="width:100%;max-width:560px;background:#ffffff;border-radius:12px;overflow:hidden;">
        <tr><td style="background:#2563eb;color:#ffffff;padding:20px 24px;font-size:20px;font-weight:700;">Vendorwatch</td></tr>
        <tr><td style="padding:24px;font-size:15px;line-height:1.6;overflow-wrap:anywhere;word-break:break-word;">
{% block content %}{% endblock content %}
        </td></tr>
      </table>
{% block footer %}{% endblock footer %}
    </td></tr>
  </table>
</body>
</html>
