import Foundation

/// A named workout plan: one of the five built in, or one the person saved.
public struct WorkoutProgram: Sendable, Equatable, Identifiable {
    /// A built-in's fixed id (`tabata`), or the id of the person's own program.
    public var id: String
    /// The person's own name; built-ins are named by ``nameKey`` in the person's language.
    public var name: String
    public var plan: WorkoutPlan
    public var isBuiltIn: Bool

    public init(id: String, name: String, plan: WorkoutPlan, isBuiltIn: Bool = false) throws(WorkoutError) {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw .emptyProgramName }
        guard name.count <= Self.maximumNameLength else { throw .programNameTooLong }
        do { try TextInput.check(name, field: "name") } catch { throw .text(error) }
        try plan.validate()
        self.id = id
        self.name = name
        self.plan = plan
        self.isBuiltIn = isBuiltIn
    }

    /// The most characters a program's name may have.
    public static let maximumNameLength = TextInput.maximumNameLength

    private init(builtIn id: String, _ name: String, _ plan: WorkoutPlan) {
        self.id = id
        self.name = name
        self.plan = plan
        isBuiltIn = true
    }

    /// The catalog key of a built-in's name (`workout.program.tabata`).
    public var nameKey: String? { isBuiltIn ? "workout.program.\(id)" : nil }

    /// The program's name in the catalog's language.
    public func displayName(_ catalog: StringCatalog) -> String {
        guard let key = nameKey.flatMap(StringKey.init(rawValue:)) else { return name }
        return catalog[key]
    }

    /// The plan this program starts, named after it. A built-in's exercises (stored in English)
    /// are named in the catalog's language; the person's own stay as they were typed.
    public func plan(catalog: StringCatalog) -> WorkoutPlan {
        var plan = plan
        plan.programName = displayName(catalog)
        plan.programID = id
        if isBuiltIn {
            plan.exerciseNames = plan.exerciseNames.map { name in
                Self.exerciseKey(name).map { catalog[$0] } ?? name
            }
        }
        return plan
    }

    /// The catalog key of a built-in exercise: `Mountain climbers` → `workout.exercise.mountain-climbers`.
    static func exerciseKey(_ englishName: String) -> StringKey? {
        StringKey(rawValue: "workout.exercise." + englishName.lowercased().replacingOccurrences(of: " ", with: "-"))
    }

    /// The built-in program with `id`.
    public static func builtIn(id: String) throws(WorkoutError) -> WorkoutProgram {
        guard let program = builtIn.first(where: { $0.id == id }) else { throw .unknownProgram(id) }
        return program
    }

    /// The five programs every person has (SPEC §5); each starts with 10 s to get ready.
    public static let builtIn: [WorkoutProgram] = [
        WorkoutProgram(builtIn: "tabata", "Tabata", WorkoutPlan(work: .seconds(20), rest: .seconds(10), rounds: 8)),
        WorkoutProgram(builtIn: "emom-10", "EMOM 10", WorkoutPlan(work: .seconds(60), rest: .zero, rounds: 10)),
        WorkoutProgram(builtIn: "beginner", "Beginner", WorkoutPlan(work: .seconds(30), rest: .seconds(30), rounds: 8)),
        WorkoutProgram(
            builtIn: "power-intervals", "Power intervals",
            WorkoutPlan(work: .seconds(40), rest: .seconds(20), rounds: 10)),
        WorkoutProgram(
            builtIn: "core-circuit", "Core circuit",
            WorkoutPlan(
                work: .seconds(40), rest: .seconds(20), rounds: 6, sets: 3, setRest: .seconds(60),
                exerciseNames: ["Plank", "Crunches", "Mountain climbers", "Russian twists", "Leg raises", "Side plank"])
        ),
    ]

    /// The plan a new program of the person's own starts with: the defaults of SPEC §5.
    public static let newProgramPlan = WorkoutPlan()
}
