Hi {{ name }},

{{ vendor }} uploaded a document through the vendor portal:

  {{ label }}: {{ fileName }}{% if expirationDate %}
  Expires: {{ expirationDate }}{% endif %}

See it with the vendor's other documents: {{ vendorUrl }}

— Vendorwatch
