import Foundation

/// The saved practice a session was started from, as the log keeps it in a record's details: a
/// saved sit (`preset`, `presetID`), a breathing preset (`preset`, `presetID`) or a workout
/// program (`program`, `programID`). The names are for people; the ids for counting, since a
/// name may change or be said in another language.
public enum PracticeOrigin: Sendable, Equatable, Hashable {
    case meditationPreset(id: String)
    case breathingPreset(id: String)
    case workoutProgram(id: String)

    /// The detail holding a saved sit's or a breathing preset's id.
    public static let presetIDKey = "presetID"
    /// The detail holding a workout program's id.
    public static let programIDKey = "programID"

    /// Where `record` was started from, if the log says (records from before the ids were kept,
    /// and practices started without a saved one, say nothing).
    public init?(_ record: PracticeRecord) {
        switch record.kind {
        case .meditation:
            guard let id = record.details[Self.presetIDKey], !id.isEmpty else { return nil }
            self = .meditationPreset(id: id)
        case .breathing:
            guard let id = record.details[Self.presetIDKey], !id.isEmpty else { return nil }
            self = .breathingPreset(id: id)
        case .workout:
            guard let id = record.details[Self.programIDKey], !id.isEmpty else { return nil }
            self = .workoutProgram(id: id)
        case .guided, .morse, .focus:
            return nil
        }
    }
}

/// One practice a long press on the home-screen icon offers: its name and the deep link that
/// opens it ready to start.
public struct PracticeShortcut: Sendable, Equatable, Encodable {
    public var name: String
    public var url: String
    public var origin: PracticeOrigin

    private enum CodingKeys: String, CodingKey { case name, url }
}

/// The person's three most used practices, for the web app manifest's `shortcuts`.
///
/// - Counted: the sessions in the log that began in the last ``window`` (90 days) from a saved
///   sit, a breathing preset or a workout program (``PracticeOrigin``); a practice started without
///   one does not count.
/// - Order: most sessions first; a tie goes to the one used most recently, then to the name.
/// - Only practices that still exist are offered (a deleted preset drops out).
/// - Fewer than three: filled with, in this order, the person's first saved sit (by name), Box
///   breathing and Tabata, skipping any already offered; with nothing saved and no log, Box
///   breathing and Tabata.
public enum PracticeShortcuts {
    /// How many shortcuts the manifest offers.
    public static let count = 3
    /// How far back the log is counted.
    public static let window: TimeInterval = 90 * 24 * 3600

    /// The fillers after the person's first saved sit.
    public static let fallbacks: [PracticeOrigin] = [.breathingPreset(id: "box"), .workoutProgram(id: "tabata")]

    /// The shortcuts for `records` (any span: those outside the window are ignored) at `now`, among
    /// the person's saved sits, breathing presets and workout programs, named in `catalog`'s
    /// language.
    public static func choose(
        records: [PracticeRecord], now: Date, meditationPresets: [MeditationPreset],
        breathingPresets: [BreathingPreset], workoutPrograms: [WorkoutProgram], catalog: StringCatalog
    ) -> [PracticeShortcut] {
        func shortcut(_ origin: PracticeOrigin) -> PracticeShortcut? {
            switch origin {
            case .meditationPreset(let id):
                guard let preset = meditationPresets.first(where: { $0.id == id }) else { return nil }
                return PracticeShortcut(
                    name: preset.name, url: "/#meditate/preset/" + encoded(preset.name), origin: origin)
            case .breathingPreset(let id):
                guard let preset = breathingPresets.first(where: { $0.id == id }) else { return nil }
                return PracticeShortcut(
                    name: preset.displayName(catalog), url: "/#breathe?preset=" + encoded(id), origin: origin)
            case .workoutProgram(let id):
                guard let program = workoutPrograms.first(where: { $0.id == id }) else { return nil }
                return PracticeShortcut(
                    name: program.displayName(catalog), url: "/#workout?program=" + encoded(id), origin: origin)
            }
        }

        let since = now.addingTimeInterval(-window)
        var uses: [PracticeOrigin: (count: Int, latest: Date)] = [:]
        for record in records where record.start >= since && record.start <= now {
            guard let origin = PracticeOrigin(record) else { continue }
            let seen = uses[origin] ?? (0, .distantPast)
            uses[origin] = (seen.count + 1, max(seen.latest, record.start))
        }
        let used = uses.compactMap { origin, use in shortcut(origin).map { ($0, use) } }
            .sorted { lhs, rhs in
                if lhs.1.count != rhs.1.count { return lhs.1.count > rhs.1.count }
                if lhs.1.latest != rhs.1.latest { return lhs.1.latest > rhs.1.latest }
                return lhs.0.name < rhs.0.name
            }
            .map(\.0)
        var chosen = Array(used.prefix(count))
        let firstSit = meditationPresets.min { $0.name.localizedStandardCompare($1.name) == .orderedAscending }
        let fillers = (firstSit.map { [PracticeOrigin.meditationPreset(id: $0.id)] } ?? []) + fallbacks
        for origin in fillers where chosen.count < count && !chosen.contains(where: { $0.origin == origin }) {
            if let filler = shortcut(origin) { chosen.append(filler) }
        }
        return chosen
    }

    /// `text` for a URL's fragment, as `encodeURIComponent` writes it (the deep links decode it so).
    static func encoded(_ text: String) -> String {
        let allowed = CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
