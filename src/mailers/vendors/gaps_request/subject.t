{{ organization }} asks you to correct your certificate of insurance
