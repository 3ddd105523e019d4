{% if expired %}{{ document }} for {{ vendor }} has expired{% else %}{{ document }} for {{ vendor }} expires {{ when }}{% endif %}
