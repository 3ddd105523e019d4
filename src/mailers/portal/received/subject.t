{{ vendor }} sent {{ label }}
