{{ organization }} asks for {{ count }} renewed documents
