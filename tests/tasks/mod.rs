mod operator;
