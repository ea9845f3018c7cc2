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
    /// Where the person put it among their saved sits: lower first, then the older first (see
    /// ``ordered(_:)``); 0 for every sit made before they could be reordered.
    public var sortOrder: Int

    /// A checked preset: a name as breathing presets' names are (not blank, at most
    /// ``maximumNameLength`` characters, no control characters) and a plan within its bounds.
    public init(
        id: String, name: String, plan: MeditationPlan, createdAt: Date, updatedAt: Date, sortOrder: Int = 0,
        ambientCatalog: AmbientCatalog = .builtIn
    ) throws(MeditationPresetError) {
        try Self.checkName(name)
        do { try plan.validate(ambientCatalog: ambientCatalog) } catch { throw .invalidPlan(error) }
        self.id = id
        self.name = name.trimmingCharacters(in: .whitespaces)
        self.plan = plan
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.sortOrder = sortOrder
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

    /// Saved sits in the person's order: by ``sortOrder``, then the older first, then by id.
    public static func ordered(_ presets: [MeditationPreset]) -> [MeditationPreset] {
        presets.sorted { ($0.sortOrder, $0.createdAt, $0.id) < ($1.sortOrder, $1.createdAt, $1.id) }
    }

    /// The sort order a new saved sit takes: after every other.
    public static func nextSortOrder(after presets: [MeditationPreset]) -> Int {
        (presets.map(\.sortOrder).max() ?? -1) + 1
    }

    /// The highest place a move may name (a place past the last sit is the last).
    public static let maximumPosition = 10_000

    /// `presets` with the one of `id` moved to `index` (0 first; past the last is the last), each then
    /// numbered by its place: the sits whose ``sortOrder`` changed, stamped `updatedAt`, to save.
    /// Moving a sit to where it is changes nothing.
    public static func moving(
        _ id: String, to index: Int, in presets: [MeditationPreset], at updatedAt: Date
    ) throws(MeditationPresetError) -> [MeditationPreset] {
        guard (0...maximumPosition).contains(index) else { throw .positionOutOfRange }
        var order = ordered(presets)
        guard let from = order.firstIndex(where: { $0.id == id }) else { throw .unknownPreset(id) }
        let moved = order.remove(at: from)
        order.insert(moved, at: min(index, order.count))
        var changed: [MeditationPreset] = []
        for (place, preset) in order.enumerated() where preset.sortOrder != place {
            var renumbered = preset
            renumbered.sortOrder = place
            renumbered.updatedAt = updatedAt
            changed.append(renumbered)
        }
        // Only the order of sits matters: numbering an untouched order afresh is no change.
        return order.map(\.id) == ordered(presets).map(\.id) ? [] : changed
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
    /// A place to move a saved sit to below 0 or beyond ``maximumPosition``.
    case positionOutOfRange
}
