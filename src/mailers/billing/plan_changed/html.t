<!DOCTYPE html>
<html>
<body style="margin:0;padding:0;background:#f1f5f9;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#0f172a;">
  <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="padding:32px 12px;">
    <tr><td align="center">
      <table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:12px;overflow:hidden;">
        <tr><td style="background:#2563eb;color:#ffffff;padding:20px 28px;font-size:20px;font-weight:700;">Vendorwatch</td></tr>
        <tr><td style="padding:28px;font-size:15px;line-height:1.6;">
          <p style="margin:0 0 16px;">Hi {{ name }},</p>
          {% if byOperator %}{% if professional %}<p style="margin:0 0 16px;">The Vendorwatch team has moved <strong>{{ organization }}</strong> to the Professional plan; no payment was taken. You can keep up to {{ vendorLimit }} vendors, with no limit on documents.</p>{% else %}<p style="margin:0 0 16px;">The Vendorwatch team has moved <strong>{{ organization }}</strong> to the Free plan. Nothing was deleted: every vendor and document is still there. While you have more than {{ vendorLimit }} vendors, new vendors cannot be added.</p>{% endif %}{% elif professional %}<p style="margin:0 0 16px;">Thank you: your payment went through and <strong>{{ organization }}</strong> is now on the Professional plan. You can keep up to {{ vendorLimit }} vendors, with no limit on documents.</p>{% else %}<p style="margin:0 0 16px;">The Professional subscription of <strong>{{ organization }}</strong> has ended, and the organization is back on the Free plan. Nothing was deleted: every vendor and document is still there. While you have more than {{ vendorLimit }} vendors, new vendors cannot be added.</p>{% endif %}
          <p style="margin:24px 0;"><a href="{{ billingUrl }}" style="background:#2563eb;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600;display:inline-block;">See your plan and billing</a></p>
          <p style="margin:0;color:#475569;">Questions? Write to <a href="mailto:{{ supportEmail }}" style="color:#2563eb;">{{ supportEmail }}</a>.</p>
        </td></tr>
      </table>
    </td></tr>
  </table>
</body>
</html>
