extension PostgresStore {
    /// The characters ``TextInput`` refuses in names since issue 46 (bidirectional controls and
    /// U+FEFF), as a PostgreSQL regular expression.
    static let refusedInNames = #"[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\uFEFF]"#

    /// `column` without them, trimmed of spaces.
    static func cleanedName(_ column: String) -> String {
        "btrim(regexp_replace(\(column), '\(refusedInNames)', '', 'g'), ' ')"
    }

    /// Names written before issue 46 that hold a bidirectional control or U+FEFF would no longer
    /// load (the store checks rows as it reads them) nor sync, so those characters are left out of
    /// them once — in the rows, the merged fields and the log (SQLite's "v16" does the same). A
    /// name that was nothing else is named by its id; one that now collides with another ends in
    /// the first characters of its id.
    static let nameRuleMigration = Migration(
        version: 12, name: "names hold no direction controls",
        statements: [
            cleaning("focus_timer", "name", fallback: "Untitled"),
            cleaning("checklist_item", "text", fallback: "Item"),
            cleaning("breathing_preset", "name", fallback: "Untitled", unique: true),
            cleaning("workout_program", "name", fallback: "Untitled", unique: true),
            cleaning("meditation_preset", "name", fallback: "Untitled", unique: true),
            cleaning("person", "name", fallback: "Person", unique: true, perPerson: false, maximum: 40),
            // Exercise names: a JSON list of strings; one left empty is dropped.
            """
            UPDATE workout_program w SET exercise_names = COALESCE(
                (SELECT json_agg(\(cleanedName("e.value")) ORDER BY e.ordinality)::text
                    FROM json_array_elements_text(w.exercise_names::json) WITH ORDINALITY AS e(value, ordinality)
                    WHERE \(cleanedName("e.value")) <> ''),
                '[]')
            WHERE w.exercise_names ~ '\(refusedInNames)'
            """,
        ]
            + syncedNames.flatMap { type, field, table, column, fallback in
                [
                    // A merged field takes its row's cleaned name (the same text) …
                    """
                    UPDATE sync_field f SET value = to_json(t.\(column))::text FROM \(table) t
                    WHERE f.entity_type = '\(type)' AND f.field = '\(field)' AND f.value ~ '\(refusedInNames)'
                        AND t.person_id = f.person_id AND t.id = f.entity_id
                    """,
                    // … or, where the row is gone, its own value cleaned; a logged change its own value (as
                    // text, so the log keeps its texts' form).
                    """
                    UPDATE sync_field f SET value = to_json(
                        COALESCE(NULLIF(\(cleanedName("f.value::json #>> '{}'")), ''), '\(fallback) ' || left(f.entity_id, 8)))::text
                    WHERE f.entity_type = '\(type)' AND f.field = '\(field)' AND f.value ~ '\(refusedInNames)'
                    """,
                    """
                    UPDATE sync_log l SET message = regexp_replace(
                        regexp_replace(l.message, '\(refusedInNames)', '', 'g'),
                        '"value":" *"', '"value":"\(fallback) ' || left(l.entity_id, 8) || '"')
                    WHERE l.entity_type = '\(type)' AND l.field = '\(field)' AND l.message ~ '\(refusedInNames)'
                    """,
                ]
            })

    private static let syncedNames: [(type: String, field: String, table: String, column: String, fallback: String)] = [
        ("focusTimer", "name", "focus_timer", "name", "Untitled"),
        ("checklistItem", "text", "checklist_item", "text", "Item"),
        ("meditationPreset", "name", "meditation_preset", "name", "Untitled"),
    ]

    /// The statement that cleans `column` of `table`: a blank result becomes `fallback` and the
    /// id's first characters; with `unique`, a result another row's (cleaned) name already has
    /// (A–Z folded, as the unique indexes) ends in the first characters of the id, cut to stay
    /// within `maximum` characters.
    private static func cleaning(
        _ table: String, _ column: String, fallback: String, unique: Bool = false, perPerson: Bool = true,
        maximum: Int = 100
    ) -> String {
        let cleaned = cleanedName("t.\(column)")
        let id = "left(t.id::text, 8)"
        var cases = "WHEN \(cleaned) = '' THEN '\(fallback) ' || \(id)"
        if unique {
            let samePerson = perPerson ? "o.person_id = t.person_id AND " : ""
            cases += """

                WHEN EXISTS (SELECT 1 FROM \(table) o WHERE \(samePerson)o.id <> t.id
                    AND \(asciiFolded(cleanedName("o.\(column)"))) = \(asciiFolded(cleaned)))
                THEN left(\(cleaned), \(maximum - 9)) || ' ' || \(id)
                """
        }
        return """
            UPDATE \(table) t SET \(column) = CASE \(cases)
                ELSE \(cleaned) END
            WHERE t.\(column) ~ '\(refusedInNames)'
            """
    }
}
