{{ organization }} asks for your compliance documents
