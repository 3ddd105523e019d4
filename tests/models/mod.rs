//! Model tests: the models' own functions against a real database, without HTTP. Loco's
//! generators (`cargo loco generate model|scaffold`) add their model tests here.

mod vendors;
