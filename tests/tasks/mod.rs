mod demo;
mod operator;
mod schedulers;
