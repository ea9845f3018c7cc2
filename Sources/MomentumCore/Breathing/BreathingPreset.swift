import Foundation

/// A named pattern with a number of rounds: one of the nine built in, or one of the person's own.
public struct BreathingPreset: Sendable, Equatable, Identifiable {
    /// A built-in's fixed id (`box`), or the id of the person's own preset.
    public var id: String
    /// The person's own name; built-ins are named by ``nameKey`` in the person's language.
    public var name: String
    public var pattern: BreathingPattern
    public var rounds: Int
    public var isBuiltIn: Bool

    public init(id: String, name: String, pattern: BreathingPattern, rounds: Int, isBuiltIn: Bool = false)
        throws(BreathingError)
    {
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty else { throw .emptyPresetName }
        guard name.trimmingCharacters(in: .whitespaces).count <= Self.maximumNameLength else {
            throw .presetNameTooLong
        }
        do { try TextInput.check(name, field: "name") } catch { throw .text(error) }
        try pattern.validate()
        try BreathingLength.rounds(rounds).validate()
        self.id = id
        self.name = name.trimmingCharacters(in: .whitespaces)
        self.pattern = pattern
        self.rounds = rounds
        self.isBuiltIn = isBuiltIn
    }

    /// The most characters a preset's name may have.
    public static let maximumNameLength = TextInput.maximumNameLength

    private init(builtIn id: String, _ name: String, _ pattern: BreathingPattern, _ rounds: Int) {
        self.id = id
        self.name = name
        self.pattern = pattern
        self.rounds = rounds
        isBuiltIn = true
    }

    /// The catalog key of a built-in's name (`breathing.preset.box`).
    public var nameKey: String? { isBuiltIn ? "breathing.preset.\(id)" : nil }

    /// The preset's name in the catalog's language.
    public func displayName(_ catalog: StringCatalog) -> String {
        guard let key = nameKey.flatMap(StringKey.init(rawValue:)) else { return name }
        return catalog[key]
    }

    /// The plan this preset starts.
    public func plan(length: BreathingLength? = nil, catalog: StringCatalog) -> BreathingPlan {
        BreathingPlan(
            pattern: pattern, length: length ?? .rounds(rounds), presetName: displayName(catalog), presetID: id)
    }

    /// The nine presets every person has (SPEC §4).
    public static let builtIn: [BreathingPreset] = [
        BreathingPreset(builtIn: "box", "Box breathing", BreathingPattern(unchecked: 4, 4, 4, 4), 10),
        BreathingPreset(builtIn: "calming", "Calming breath", BreathingPattern(unchecked: 4, 0, 6, 0), 10),
        BreathingPreset(builtIn: "coherent", "Coherent breathing", BreathingPattern(unchecked: 5, 0, 5, 0), 12),
        BreathingPreset(builtIn: "deep-calm", "Deep calm", BreathingPattern(unchecked: 7, 0, 5, 0), 8),
        BreathingPreset(builtIn: "relaxing", "Relaxing breath (4-7-8)", BreathingPattern(unchecked: 4, 7, 8, 0), 10),
        BreathingPreset(builtIn: "rhythmic", "Rhythmic breath", BreathingPattern(unchecked: 6, 3, 6, 3), 8),
        BreathingPreset(builtIn: "awake", "Awake", BreathingPattern(unchecked: 6, 0, 2, 0), 15),
        BreathingPreset(builtIn: "pranayama", "Pranayama", BreathingPattern(unchecked: 7, 4, 8, 4), 6),
        BreathingPreset(builtIn: "ujjayi", "Ujjayi", BreathingPattern(unchecked: 7, 0, 7, 0), 10),
    ]

    /// The rounds a new preset of the person's own starts with (with ``BreathingPattern/newPreset``).
    public static let newPresetRounds = 10
}
