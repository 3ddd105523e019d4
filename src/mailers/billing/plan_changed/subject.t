{% if professional %}{{ organization }} is now on Vendorwatch Professional{% else %}{{ organization }} is back on the Vendorwatch Free plan{% endif %}
