/// The affirmation lines a sit shows: one during the countdown, another while it runs.
///
/// The rotation index advances by one each time a sit starts and is kept by the store; each list
/// is read at the index modulo its own length, so lists of different lengths drift against each
/// other and the pairs keep changing.
public struct Affirmations: Sendable, Equatable {
    public var countdown: String
    public var running: String

    /// The lines for the sit that starts with rotation `index`.
    public init(rotationIndex index: Int, catalog: StringCatalog) {
        countdown = Self.line(catalog.list(.countdownAffirmations), at: index)
        running = Self.line(catalog.list(.runningAffirmations), at: index)
    }

    private static func line(_ list: [String], at index: Int) -> String {
        guard !list.isEmpty else { return "" }
        let position = ((index % list.count) + list.count) % list.count
        return list[position]
    }
}
