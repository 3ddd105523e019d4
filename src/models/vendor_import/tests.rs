use super::*;

fn limit(vendors: u64) -> PlanLimit {
    PlanLimit {
        vendors,
        message: "Free accounts are limited to 3 vendors maximum.".into(),
    }
}

fn preview(text: &str, existing: &Existing, room: u64, choices: &ImportChoices) -> ImportPlan {
    let table = file::read(text.as_bytes()).unwrap();
    plan(
        &table,
        choices,
        existing,
        (0, room),
        &limit(3),
        &SetNames::of(&[]),
    )
    .unwrap()
}

fn fates(plan: &ImportPlan) -> Vec<(u64, &str)> {
    plan.rows
        .iter()
        .map(|r| (r.line, r.status.as_str()))
        .collect()
}

#[test]
fn an_import_previews_each_row_with_its_fate() {
    let existing = Existing {
        emails: HashSet::from(["taken@example.com".to_string()]),
        names: HashSet::new(),
    };
    let text = "Name,Email,Service Type,Phone\n\
        Acme,acme@example.com,plumbing,+1 555 0100\n\
        ,nobody@example.com,plumbing,\n\
        Dup,TAKEN@example.com,plumbing,\n\
        Evil,evil@example.com,plumbing,=cmd|' /C calc'!A0\n\
        Two,two@example.com,HVAC,\n\
        Three,three@example.com,hvac,\n";
    let plan = preview(text, &existing, 2, &ImportChoices::default());
    assert_eq!(
        fates(&plan),
        vec![
            (2, "create"),
            (3, "error"),
            (4, "duplicate"),
            (5, "error"),
            (6, "create"),
            (7, "error")
        ]
    );
    assert_eq!(plan.rows[1].errors, vec!["Vendor name is required"]);
    assert_eq!(
        plan.rows[3].errors,
        vec!["Phone looks like a spreadsheet formula."]
    );
    assert_eq!(
        plan.rows[5].errors,
        vec![limit(3).message],
        "past the plan's room"
    );
    assert_eq!(plan.to_create.len(), 2);
    assert_eq!(plan.to_create[0].phone.as_deref(), Some("+1 555 0100"));
}

#[test]
fn every_problem_of_a_row_is_named_at_once_in_the_forms_words() {
    let text = "Vendor,Email,Service,Phone\n\
        ,not-an-email,Plumbng,01234567890123456789012345678901234567890123456789012345\n";
    let plan = preview(text, &Existing::default(), 5, &ImportChoices::default());
    let errors = &plan.rows[0].errors;
    assert_eq!(errors.len(), 4, "{errors:?}");
    for expected in [
        "Service type \"Plumbng\" is not one we know; did you mean \"Plumbing\"?",
        "Invalid email address",
        "Vendor name is required",
        "Phone must be at most 50 characters",
    ] {
        assert!(
            errors.iter().any(|e| e == expected),
            "{expected} in {errors:?}"
        );
    }
    assert!(!errors.iter().any(|e| e.contains('`')));
}

#[test]
fn duplicates_by_email_and_by_name_without_an_email_are_shown() {
    let existing = Existing {
        emails: HashSet::new(),
        names: HashSet::from(["acme cleaning".to_string()]),
    };
    let text = "Name,Email,Service Type\n\
        ACME  Cleaning,,cleaning\n\
        Bolt,bolt@example.com,cleaning\n\
        Bolt Two,BOLT@example.com,cleaning\n\
        Coil,,cleaning\n\
        coil,,cleaning\n";
    let plan = preview(text, &existing, 10, &ImportChoices::default());
    assert_eq!(
        fates(&plan),
        vec![
            (2, "duplicate"),
            (3, "create"),
            (4, "duplicate"),
            (5, "error"),
            (6, "duplicate")
        ]
    );
    assert!(plan.rows[0].errors[0].contains("already exists"));
    assert_eq!(plan.rows[2].errors, vec!["Line 3 has the same email."]);
    assert!(plan.rows[4].errors[0].starts_with("Line 5 has the same name"));
}

#[test]
fn defaults_fill_what_the_file_lacks_and_notes_keep_chosen_columns() {
    let text = "Vendor,Email,Full Name,Account #\n\
        Acme,acme@example.com,Ann Smith,A-1\n";
    let choices = ImportChoices {
        mapping: HashMap::from([("Full Name".to_string(), Some("notes".to_string()))]),
        defaults: ImportDefaults {
            service_type: Some("General Contractor".to_string()),
            requirement_set: None,
        },
    };
    let plan = preview(text, &Existing::default(), 10, &choices);
    let vendor = &plan.to_create[0];
    assert_eq!(vendor.service_type, "general-contractor");
    assert_eq!(vendor.notes.as_deref(), Some("Full Name: Ann Smith"));
    let ignored: Vec<&str> = plan
        .columns
        .iter()
        .filter(|c| c.field.is_none())
        .map(|c| c.header.as_str())
        .collect();
    assert_eq!(ignored, vec!["Account #"]);

    let table = file::read(text.as_bytes()).unwrap();
    let bad = ImportChoices {
        defaults: ImportDefaults {
            service_type: Some("Roofing".to_string()),
            requirement_set: None,
        },
        ..ImportChoices::default()
    };
    let refused = plan_err(&table, &bad);
    assert!(refused.contains_key("defaults.serviceType"), "{refused:?}");
}

fn plan_err(table: &Table, choices: &ImportChoices) -> crate::models::refusal::FieldErrors {
    match plan(
        table,
        choices,
        &Existing::default(),
        (0, 10),
        &limit(10),
        &SetNames::of(&[]),
    ) {
        Err(Refusal::Invalid(errors)) => errors,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn a_guard_an_export_added_comes_off_and_excel_text_cells_unwrap() {
    let text = "Name,Email,Service Type,Phone,Zip Code\n\
        Acme,acme@example.com,plumbing,'+49 30 1234567,\"=\"\"01234\"\"\"\n";
    let plan = preview(text, &Existing::default(), 10, &ImportChoices::default());
    let vendor = &plan.to_create[0];
    assert_eq!(vendor.phone.as_deref(), Some("+49 30 1234567"));
    assert_eq!(vendor.zip_code.as_deref(), Some("01234"));
}

#[test]
fn a_requirement_set_column_names_a_set_in_any_case_or_is_the_rows_error() {
    let sets = SetNames(HashMap::from([(
        "general contractors".to_string(),
        "set-pid".to_string(),
    )]));
    let text = "Name,Email,Service Type,Requirement Set\n\
        Acme,acme@example.com,plumbing,  GENERAL   Contractors \n\
        Bolt,bolt@example.com,plumbing,\n\
        Coil,coil@example.com,plumbing,Cleaning crews\n";
    let table = file::read(text.as_bytes()).unwrap();
    let plan = plan(
        &table,
        &ImportChoices::default(),
        &Existing::default(),
        (0, 10),
        &limit(10),
        &sets,
    )
    .unwrap();
    let statuses: Vec<&str> = plan.rows.iter().map(|r| r.status.as_str()).collect();
    assert_eq!(statuses, vec!["create", "create", "error"]);
    assert_eq!(
        plan.rows[2].errors,
        vec!["There is no requirement set named \"Cleaning crews\"."]
    );
    let chosen: Vec<_> = plan
        .to_create
        .iter()
        .map(|v| v.requirement_set_id.clone())
        .collect();
    assert_eq!(chosen, vec![Some(Some("set-pid".to_string())), None]);
}

#[test]
fn a_file_without_a_name_column_is_previewed_for_the_person_to_choose_one() {
    let text = "Firma;Kontakt\nMüller Bau;mueller@example.com\n";
    let plan = preview(text, &Existing::default(), 10, &ImportChoices::default());
    let fields: Vec<_> = plan.columns.iter().map(|c| c.field).collect();
    assert_eq!(fields, vec![None, None]);
    assert!(plan.rows[0]
        .errors
        .contains(&"Vendor name is required".to_string()));
    let chosen = ImportChoices {
        mapping: HashMap::from([
            ("Firma".to_string(), Some("name".to_string())),
            ("Kontakt".to_string(), Some("email".to_string())),
        ]),
        defaults: ImportDefaults {
            service_type: Some("other".to_string()),
            requirement_set: None,
        },
    };
    let plan = preview(text, &Existing::default(), 10, &chosen);
    assert_eq!(plan.to_create[0].name, "Müller Bau");
}

#[test]
fn quickbooks_vendor_contact_list_as_saved() {
    let text = "\"Vendor Contact List\"\r\n\"Craig's Design and Landscaping Services\"\r\n\r\n\
        \"Vendor\",\"Phone Numbers\",\"Email\",\"Full Name\",\"Billing Address\",\"Account #\"\r\n\
        \"Brosnahan Insurance Agency\",\"(650) 555-9912\",\"brosnahan@example.com\",\"Nick Brosnahan\",\"P.O. Box 5, Middlefield, CA  94482\",\"7653412\"\r\n\
        \"Cal Telephone\",\"(650) 555-1616\",\"cal@example.com\",\"\",\"10 Main St., Palo Alto, CA  94303\",\"\"\r\n\
        \"\",\"\",\"\",\"\",\"\",\"\"\r\n\
        \"Friday, Nov 27, 2026 06:22:54 AM GMT-8\"\r\n";
    let choices = ImportChoices {
        defaults: ImportDefaults {
            service_type: Some("other".to_string()),
            requirement_set: None,
        },
        ..ImportChoices::default()
    };
    let plan = preview(text, &Existing::default(), 10, &choices);
    assert_eq!(plan.header_line, 4);
    assert_eq!(fates(&plan), vec![(5, "create"), (6, "create")]);
    assert_eq!(plan.to_create[0].phone.as_deref(), Some("(650) 555-9912"));
    assert_eq!(
        plan.to_create[0].address.as_deref(),
        Some("P.O. Box 5, Middlefield, CA  94482")
    );
}
