Hi {{ name }},

{% if vendorCount == 1 %}{{ count }} documents of {{ vendor }} expire soon or have expired:{% else %}{{ count }} documents of {{ vendorCount }} vendors expire soon or have expired:{% endif %}
{% for v in vendors %}
{{ v.vendor }}
{% for d in v.documents %}- {{ d.document }} ("{{ d.fileName }}"): {% if d.expired %}expired on {{ d.expirationDate }}{% else %}expires on {{ d.expirationDate }}, {{ d.when }}{% endif %}. Status: {{ d.status }}
{% endfor %}See the vendor and its documents:
{{ v.vendorUrl }}
{% endfor %}
We have asked {% if vendorCount == 1 %}{{ vendor }}{% else %}each vendor{% endif %} to upload the renewed documents through the vendor portal.

— Vendorwatch
