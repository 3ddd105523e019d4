Reset your Vendorwatch password
