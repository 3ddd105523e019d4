Hi {{ name }},

{% if expired %}The {{ document }} of {{ vendor }} ("{{ fileName }}") expired on {{ expirationDate }}.{% else %}The {{ document }} of {{ vendor }} ("{{ fileName }}") expires on {{ expirationDate }}, {{ when }}.{% endif %}

Status: {{ status }}

See the vendor and its documents:
{{ vendorUrl }}

We have asked {{ vendor }} to upload the renewed document through the vendor portal.

— Vendorwatch
