import Foundation

/// A named countdown with a checklist, for routines ("Morning pages 25 min: water, notebook,
/// phone away"). Its run is kept as instants, so the remaining time is computed, never counted.
public struct FocusTimer: Sendable, Equatable, Identifiable {
    public var id: UUID
    public var name: String
    public var duration: Duration
    /// A symbol name for the web app, one of ``icons``.
    public var icon: String
    /// `#RRGGBB`.
    public var color: String
    public var notes: String
    public var sortOrder: Int
    public var createdAt: Date
    public var updatedAt: Date
    /// The checklist in its order.
    public var items: [ChecklistItem]
    public var run: FocusRun

    public static let durationBounds: ClosedRange<Duration> = .seconds(1) ... .seconds(24 * 3600)
    public static let defaultDuration: Duration = .seconds(25 * 60)
    public static let defaultIcon = "timer"
    /// The icon names a timer may have: the one list every front end offers and checks.
    public static let icons = [
        "timer", "book", "leaf", "pencil", "cup", "moon", "sun", "heart", "star", "music", "bell", "flame",
        "drop", "bed", "house", "briefcase", "laptop", "phone", "dumbbell", "walk", "bike", "brush", "checklist",
        "lightbulb",
    ]
    /// A warm clay, the first of the web app's timer colours.
    public static let defaultColor = "#B5835A"
    public static let maximumNameLength = TextInput.maximumNameLength
    public static let maximumNotesLength = 2000
    public static let maximumItems = 100

    public init(
        id: UUID, name: String, duration: Duration = FocusTimer.defaultDuration, icon: String = FocusTimer.defaultIcon,
        color: String = FocusTimer.defaultColor, notes: String = "", sortOrder: Int, createdAt: Date,
        updatedAt: Date? = nil, items: [ChecklistItem] = [], run: FocusRun = .idle
    ) throws(FocusTimerError) {
        try Self.checkColor(color)
        self.id = id
        self.name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        self.duration = duration
        self.icon = icon
        self.color = color.uppercased()
        self.notes = notes
        self.sortOrder = sortOrder
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
        self.items = items
        self.run = run
        try validate()
    }

    /// Checks every field; each problem has its own error.
    public func validate() throws(FocusTimerError) {
        try Self.checkName(name)
        guard Self.durationBounds.contains(duration) else { throw .durationOutOfRange }
        guard duration.wholeMilliseconds % 1000 == 0 else { throw .durationNotWholeSeconds }
        try Self.checkIcon(icon)
        try Self.checkColor(color)
        guard notes.count <= Self.maximumNotesLength else { throw .notesTooLong }
        do { try TextInput.check(notes, field: "notes", lines: .multiple) } catch { throw .text(error) }
        guard items.count <= Self.maximumItems else { throw .tooManyItems }
        var seen = Set<UUID>()
        for item in items {
            try ChecklistItem.checkText(item.text)
            guard seen.insert(item.id).inserted else { throw .duplicateItemID(item.id) }
        }
        try run.validate(duration: duration)
    }

    static func checkName(_ name: String) throws(FocusTimerError) {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .blankName }
        guard trimmed.count <= maximumNameLength else { throw .nameTooLong }
        do { try TextInput.check(trimmed, field: "name") } catch { throw .text(error) }
    }

    static func checkIcon(_ icon: String) throws(FocusTimerError) {
        guard icons.contains(icon) else { throw .invalidIcon(icon) }
    }

    static func checkColor(_ color: String) throws(FocusTimerError) {
        let hex = Set("0123456789ABCDEFabcdef")
        guard color.count == 7, color.first == "#", color.dropFirst().allSatisfy(hex.contains) else {
            throw .invalidColor(color)
        }
    }

    /// The focus timeline: one focus segment, the end gong when it is done.
    public func timeline() throws(FocusTimerError) -> Timeline {
        try Self.countdown(duration)
    }

    /// What is left of a running timer at `now`: the time left, then the end gong. A player that
    /// starts it at `now` sounds the gong when the time is up, whatever happens to its page.
    ///
    /// Throws ``FocusTimerError/notRunning(_:)`` unless the timer is running at `now` (paused,
    /// idle, or its time is up).
    public func remainingTimeline(at now: Date) throws(FocusTimerError) -> Timeline {
        guard status(at: now) == .running else { throw .notRunning(name) }
        return try Self.countdown(remaining(at: now))
    }

    /// One focus segment of `length`, the end gong at its end.
    private static func countdown(_ length: Duration) throws(FocusTimerError) -> Timeline {
        do {
            return try Timeline(
                practice: .focus, segments: [Segment(kind: .focus, start: .zero, duration: length)],
                cues: [Cue(offset: length, sound: .endGong)])
        } catch {
            throw .internalInconsistency
        }
    }
}

/// One line of a timer's checklist.
public struct ChecklistItem: Sendable, Equatable, Identifiable {
    public var id: UUID
    public var text: String
    public var done: Bool
    public var sortOrder: Int
    public var createdAt: Date
    public var updatedAt: Date

    public static let maximumTextLength = 200

    public init(
        id: UUID, text: String, done: Bool = false, sortOrder: Int, createdAt: Date, updatedAt: Date? = nil
    ) throws(FocusTimerError) {
        try Self.checkText(text)
        self.id = id
        self.text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        self.done = done
        self.sortOrder = sortOrder
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
    }

    static func checkText(_ text: String) throws(FocusTimerError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .blankItemText }
        guard trimmed.count <= maximumTextLength else { throw .itemTextTooLong }
        do { try TextInput.check(trimmed, field: "text") } catch { throw .text(error) }
    }
}

/// Why a focus timer, an item or a runtime action cannot be used. Nothing changes in any case.
public enum FocusTimerError: Error, Equatable, Sendable {
    case blankName
    /// A name, item text or the notes hold a control character (see ``TextInput``).
    case text(TextInputError)
    case nameTooLong
    case durationOutOfRange
    case durationNotWholeSeconds
    case invalidIcon(String)
    case invalidColor(String)
    case notesTooLong
    case tooManyItems
    case blankItemText
    case itemTextTooLong
    case duplicateItemID(UUID)
    case nameTaken(String)
    case unknownTimer(String)
    case ambiguousTimer(String)
    case unknownItem(String)
    case positionOutOfRange(position: Int, count: Int)
    /// A stored run that breaks the rules (elapsed below zero or past the duration).
    case invalidRun
    case alreadyRunning(String)
    case notRunning(String)
    case notPaused(String)
    case notStarted(String)
    case internalInconsistency
}
