import Foundation

/// A saved sit: everything of a ``MeditationPlan`` under a name of the person's own.
///
/// ```swift
/// let evening = try MeditationPreset(
///     id: "e1", name: "Evening", plan: MeditationPlan(duration: .minutes(20), intervalGongs: .every(minutes: 5)),
///     createdAt: now, updatedAt: now)
/// evening.summary(.shared(for: .english))  // "20 min · gongs every 5 min"
/// ```
public struct MeditationPreset: Sendable, Equatable, Identifiable {
    public var id: String
    /// The name, trimmed; unique among the person's saved sits, ignoring case (the service's rule).
    public var name: String
    public var plan: MeditationPlan
    public var createdAt: Date
    public var updatedAt: Date

    /// A checked preset: a name as breathing presets' names are (not blank, at most
    /// ``maximumNameLength`` characters, no control characters) and a plan within its bounds.
    public init(
        id: String, name: String, plan: MeditationPlan, createdAt: Date, updatedAt: Date,
        ambientCatalog: AmbientCatalog = .builtIn
    ) throws(MeditationPresetError) {
        try Self.checkName(name)
        do { try plan.validate(ambientCatalog: ambientCatalog) } catch { throw .invalidPlan(error) }
        self.id = id
        self.name = name.trimmingCharacters(in: .whitespaces)
        self.plan = plan
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The most characters a saved sit's name may have.
    public static let maximumNameLength = TextInput.maximumNameLength

    /// Checks a name by the rules of breathing presets' names: not blank, at most
    /// ``maximumNameLength`` characters once trimmed, no control characters.
    public static func checkName(_ name: String) throws(MeditationPresetError) {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw .emptyName }
        guard trimmed.count <= maximumNameLength else { throw .nameTooLong }
        do { try TextInput.check(name, field: "name") } catch { throw .text(error) }
    }

    /// The one line a card or a list shows, in the catalog's language (see ``MeditationPlan/summary(_:ambientCatalog:)``).
    public func summary(_ catalog: StringCatalog, ambientCatalog: AmbientCatalog = .builtIn) -> String {
        plan.summary(catalog, ambientCatalog: ambientCatalog)
    }
}

/// Why a saved sit cannot be made, found or changed.
public enum MeditationPresetError: Error, Equatable, Sendable {
    case emptyName
    case nameTooLong
    /// The name holds a control character (see ``TextInput``).
    case text(TextInputError)
    case invalidPlan(MeditationPlanError)
    case unknownPreset(String)
    /// Another saved sit already has this name (ignoring case).
    case nameTaken(String)
}
