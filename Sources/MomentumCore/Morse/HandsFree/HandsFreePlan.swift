import Foundation

/// A hands-free copy session in the Morse Code Ninja format: each item sent in Morse, then
/// spoken, then (by default) sent again — for a walk or a drive, with nothing to press.
///
/// The plan is the whole session: the same plan gives the same items, the same speech and the same
/// samples on every run, so a server can render it whenever it is asked for.
///
/// ```swift
/// let plan = try HandsFreePlan(content: .callSigns, count: 20, seed: 7, timing: MorseTiming(), language: .german)
/// plan.items().first  // HandsFreeItem(sent: "DL3KX", spoken: "D L 3 K X")
/// ```
public struct HandsFreePlan: Sendable, Equatable {
    /// What the session sends.
    public enum Content: String, Sendable, Codable, CaseIterable {
        /// Common short words of the spoken language.
        case words
        /// Call signs like the QSO practice's stations, spelled out.
        case callSigns
        /// The Q codes of everyday contacts, spelled and explained.
        case qCodes
        /// The learner's own list, in its order.
        case list
    }

    public static let countBounds = 1...200
    /// Longest entry of an own list, in characters.
    public static let entryLength = 1...30
    public static let pauseBounds: ClosedRange<Duration> = .milliseconds(500) ... .seconds(5)
    public static let itemGapBounds: ClosedRange<Duration> = .milliseconds(500) ... .seconds(10)
    /// Morse Code Ninja's pacing: a second before the answer and a second after it.
    public static let standardPause = Duration.seconds(1)
    public static let standardItemGap = Duration.seconds(2)

    public let content: Content
    /// The own list's entries, upper-cased; empty for the other contents.
    public let list: [String]
    /// How many items are drawn (an own list is sent once, in order).
    public let count: Int
    public let seed: UInt64
    public let timing: MorseTiming
    public let tone: MorseTone
    /// The language of the speech (and of the words).
    public let language: Language
    /// The silence between an item's Morse and its spoken answer.
    public let pauseAfterMorse: Duration
    /// The silence after the spoken answer.
    public let pauseAfterSpeech: Duration
    /// Whether the Morse is sent again after the answer, as Morse Code Ninja does.
    public let repeatsMorse: Bool
    /// The silence before the next item.
    public let itemGap: Duration

    public init(
        content: Content, list: [String] = [], count: Int = 20, seed: UInt64 = 1,
        timing: MorseTiming, tone: MorseTone = .standard, language: Language = .english,
        pauseAfterMorse: Duration = standardPause, pauseAfterSpeech: Duration = standardPause,
        repeatsMorse: Bool = true, itemGap: Duration = standardItemGap
    ) throws(HandsFreeError) {
        guard Self.pauseBounds.contains(pauseAfterMorse), Self.pauseBounds.contains(pauseAfterSpeech) else {
            throw .pauseOutOfRange
        }
        guard Self.itemGapBounds.contains(itemGap) else { throw .itemGapOutOfRange }
        if content == .list {
            guard !list.isEmpty else { throw .emptyList }
            guard Self.countBounds.contains(list.count) else { throw .countOutOfRange }
            self.list = try list.map { entry throws(HandsFreeError) in try Self.checkedEntry(entry) }
            self.count = list.count
        } else {
            guard Self.countBounds.contains(count) else { throw .countOutOfRange }
            self.list = []
            self.count = count
        }
        self.content = content
        self.seed = seed
        self.timing = timing
        self.tone = tone
        self.language = language
        self.pauseAfterMorse = pauseAfterMorse
        self.pauseAfterSpeech = pauseAfterSpeech
        self.repeatsMorse = repeatsMorse
        self.itemGap = itemGap
    }

    /// An entry of an own list: one or more words that Morse can send, upper-cased, its spaces
    /// made single.
    static func checkedEntry(_ entry: String) throws(HandsFreeError) -> String {
        let words = entry.split(whereSeparator: { $0 == " " }).map(String.init)
        let text = words.joined(separator: " ").uppercased()
        guard Self.entryLength.contains(text.count) else { throw .entryLength(String(entry.prefix(40))) }
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == "<" }),
            (try? MorseText(text)) != nil  // try?: an entry Morse cannot send is the error below
        else { throw .unsendable(String(entry.prefix(40))) }
        return text
    }

    /// The session's items, in order: drawn from the seed, never the same twice in a row.
    public func items() -> [HandsFreeItem] {
        var generator = SeededRandomNumberGenerator(seed: seed)
        switch content {
        case .list:
            return list.map { HandsFreeItem(sent: $0, spoken: HandsFreeItem.spoken($0)) }
        case .callSigns:
            var drawn: [HandsFreeItem] = []
            while drawn.count < count {
                let call = VirtualStation.random(using: &generator).callSign.text
                if drawn.last?.sent == call { continue }
                drawn.append(HandsFreeItem(sent: call, spoken: HandsFreeItem.spelled(call)))
            }
            return drawn
        case .words:
            return Self.draw(count, from: HandsFreeWords.words(in: language), using: &generator).map {
                HandsFreeItem(sent: $0, spoken: $0.lowercased())
            }
        case .qCodes:
            let codes = HandsFreeWords.qCodes
            return Self.draw(count, from: codes.indices.map { $0 }, using: &generator).map { index in
                let code = codes[index]
                return HandsFreeItem(
                    sent: code.code, spoken: "\(HandsFreeItem.spelled(code.code)). \(code.meaning(in: language))")
            }
        }
    }

    /// `count` draws from `pool`, each different from the one before.
    private static func draw<T: Equatable>(
        _ count: Int, from pool: [T], using generator: inout some RandomNumberGenerator
    )
        -> [T]
    {
        var drawn: [T] = []
        while drawn.count < count, let next = pool.randomElement(using: &generator) {
            if pool.count > 1 && drawn.last == next { continue }
            drawn.append(next)
        }
        return drawn
    }
}

/// One item of a hands-free session: what is sent in Morse and what is then said.
public struct HandsFreeItem: Sendable, Equatable, Codable {
    public let sent: String
    public let spoken: String

    public init(sent: String, spoken: String) {
        self.sent = sent
        self.spoken = spoken
    }

    /// An entry spoken as a listener would say it: a call sign or any entry with digits is spelled
    /// out, character by character; words are said as words.
    static func spoken(_ entry: String) -> String {
        let isCallSign = (try? CallSign(entry)) != nil  // try?: not a call sign is the other branch
        if isCallSign || entry.contains(where: \.isNumber) { return spelled(entry) }
        return entry.lowercased()
    }

    /// "DL1ABC" → "D L 1 A B C"; a slash is said as "stroke".
    static func spelled(_ text: String) -> String {
        text.filter { $0 != " " }.map { $0 == "/" ? "stroke" : String($0) }.joined(separator: " ")
    }
}

/// Why a hands-free plan was refused. Nothing is rendered.
public enum HandsFreeError: Error, Equatable, Sendable {
    case countOutOfRange
    case pauseOutOfRange
    case itemGapOutOfRange
    case emptyList
    /// An own list's entry is empty or too long (the entry, cut short).
    case entryLength(String)
    /// An own list's entry has a character Morse cannot send.
    case unsendable(String)
}

/// What listening to a hands-free session amounts to in the log: a Morse practice, by the rule
/// every listened practice follows (``GuidedListening/outcome(listened:finished:)``): finishing
/// logs the time listened, stopping after a minute logs it marked as stopped early, less logs
/// nothing.
public enum HandsFreeListening {
    public static func record(
        plan: HandsFreePlan, listened: Duration, finished: Bool, endedAt: Date, id: UUID, device: String
    ) throws(PracticeRecordError) -> PracticeRecord? {
        let outcome = GuidedListening.outcome(listened: listened, finished: finished)
        return try outcome.record(
            id: id, kind: .morse, start: endedAt.addingTimeInterval(-outcome.time.inSeconds), end: endedAt,
            details: ["practice": "handsFree", "content": plan.content.rawValue, "items": "\(plan.count)"],
            device: device)
    }
}
