<!DOCTYPE html>
<html>
<body style="margin:0;padding:0;background:#f1f5f9;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#0f172a;">
  <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="padding:32px 12px;">
    <tr><td align="center">
      <table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:12px;overflow:hidden;">
        <tr><td style="background:#2563eb;color:#ffffff;padding:20px 28px;font-size:20px;font-weight:700;">Vendorwatch</td></tr>
        <tr><td style="padding:28px;font-size:15px;line-height:1.6;">
          <p style="margin:0 0 16px;">Hi {{ name }},</p>
          <p style="margin:0 0 16px;"><strong>{{ vendor }}</strong> uploaded a document through the vendor portal:</p>
          <table role="presentation" cellpadding="0" cellspacing="0" style="margin:0 0 20px;background:#f8fafc;border:1px solid #e2e8f0;border-radius:8px;width:100%;">
            <tr><td style="padding:12px 16px;"><strong>{{ label }}</strong><br><span style="color:#475569;">{{ fileName }}</span>{% if expirationDate %}<br><span style="color:#475569;">Expires {{ expirationDate }}</span>{% endif %}</td></tr>
          </table>
          <p style="margin:24px 0;"><a href="{{ vendorUrl }}" style="background:#2563eb;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600;display:inline-block;">View {{ vendor }}</a></p>
        </td></tr>
      </table>
    </td></tr>
  </table>
</body>
</html>
