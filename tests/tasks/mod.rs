mod operator;
mod schedulers;
