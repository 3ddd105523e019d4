{% if expired %}Your {{ document }} has expired: {{ organization }} asks for the renewed one{% else %}{{ organization }} asks for your renewed {{ document }}{% endif %}
