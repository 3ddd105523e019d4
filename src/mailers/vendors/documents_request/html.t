<!DOCTYPE html>
<html>
<body style="margin:0;padding:0;background:#f1f5f9;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#0f172a;">
  <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="padding:32px 12px;">
    <tr><td align="center">
      <table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:12px;overflow:hidden;">
        <tr><td style="background:#2563eb;color:#ffffff;padding:20px 28px;font-size:20px;font-weight:700;">Vendorwatch</td></tr>
        <tr><td style="padding:28px;font-size:15px;line-height:1.6;">
          <p style="margin:0 0 16px;">Hello {{ vendor }},</p>
          <p style="margin:0 0 16px;"><strong>{{ organization }}</strong> keeps your compliance documents on Vendorwatch and asks you to upload {% if wanted %}these documents:</p>
          <ul style="margin:0 0 16px;padding-left:20px;">{% for label in wanted %}<li>{{ label }}</li>{% endfor %}</ul>{% else %}your current compliance documents.</p>{% endif %}
          <p style="margin:0 0 8px;">Your company key:</p>
          <p style="margin:0 0 16px;text-align:center;"><span style="display:inline-block;font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:22px;font-weight:700;letter-spacing:3px;background:#eff6ff;color:#1d4ed8;padding:10px 18px;border-radius:8px;">{{ companyKey }}</span></p>
          <p style="margin:24px 0;"><a href="{{ uploadUrl }}" style="background:#2563eb;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600;display:inline-block;">Open the vendor portal</a></p>
          <p style="margin:0;color:#475569;">Enter the company key, then upload each file under its document type. You do not need an account.</p>
        </td></tr>
      </table>
    </td></tr>
  </table>
</body>
</html>
