<!DOCTYPE html>
<html>
<body style="margin:0;padding:0;background:#f1f5f9;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#0f172a;">
  <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="padding:32px 12px;">
    <tr><td align="center">
      <table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:12px;overflow:hidden;">
        <tr><td style="background:#2563eb;color:#ffffff;padding:20px 28px;font-size:20px;font-weight:700;">Vendorwatch</td></tr>
        <tr><td style="padding:28px;font-size:15px;line-height:1.6;">
          <p style="margin:0 0 16px;">Hi {{ name }},</p>
          <p style="margin:0 0 16px;">Someone asked to reset the password of your Vendorwatch account. If it was you, choose a new password:</p>
          <p style="margin:24px 0;"><a href="{{ resetUrl }}" style="background:#2563eb;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600;display:inline-block;">Reset your password</a></p>
          <p style="margin:0 0 16px;color:#475569;">The link works once and expires in {{ ttlMinutes }} minutes. If you did not ask for this, ignore this email: your password stays as it is.</p>
          <p style="margin:0;color:#475569;">Questions? Write to <a href="mailto:{{ supportEmail }}" style="color:#2563eb;">{{ supportEmail }}</a>.</p>
        </td></tr>
      </table>
    </td></tr>
  </table>
</body>
</html>
