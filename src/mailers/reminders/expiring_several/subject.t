{% if vendorCount == 1 %}{{ count }} documents of {{ vendor }} need renewal{% else %}{{ count }} documents of {{ vendorCount }} vendors need renewal{% endif %}
