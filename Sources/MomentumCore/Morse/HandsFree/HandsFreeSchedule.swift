/// When each part of a hands-free session sounds: for every item its Morse, the pause, the spoken
/// answer, the pause, the Morse again (when the plan repeats it), then the gap before the next.
///
/// Speech lengths come from the speech engine, so the schedule is made once they are known. A
/// Morse part lasts from its first key-down to the end of its last one plus the tone's fall, so a
/// pause is silence as long as the plan says.
///
/// ```swift
/// let schedule = HandsFreeSchedule(plan: plan, items: plan.items(), speechLengths: lengths)
/// schedule.parts.first  // HandsFreeSchedule.Part(item: 0, kind: .morse, start: .zero, length: …)
/// ```
public struct HandsFreeSchedule: Sendable, Equatable {
    public struct Part: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            case morse
            case speech
        }

        public let item: Int
        public let kind: Kind
        public let start: Duration
        public let length: Duration
        public var end: Duration { start + length }
    }

    /// Every sounding part, in time order.
    public let parts: [Part]
    /// The Morse of each item, keyed at the plan's timing (the same for both sendings).
    public let keyings: [MorseKeying]
    /// From the first sound to the end of the last.
    public let length: Duration

    /// - Parameter speechLengths: how long each item's spoken answer lasts, in item order.
    public init(plan: HandsFreePlan, items: [HandsFreeItem], speechLengths: [Duration]) {
        let keyer = MorseKeyer(timing: plan.timing)
        keyings = items.map { item in
            // try?: every item was checked to be sendable when the plan was made (a drawn one always
            // is); one that is not sends nothing rather than stopping the session.
            (try? keyer.keying(item.sent, skippingUnencodable: true)).map(Self.trimmed) ?? MorseKeying(elements: [])
        }
        var parts: [Part] = []
        var clock = Duration.zero
        for (index, keying) in keyings.enumerated() {
            let morse = Self.soundingLength(keying, tone: plan.tone)
            let speech = index < speechLengths.count ? max(.zero, speechLengths[index]) : .zero
            if index > 0 { clock += plan.itemGap }
            parts.append(Part(item: index, kind: .morse, start: clock, length: morse))
            clock += morse + plan.pauseAfterMorse
            parts.append(Part(item: index, kind: .speech, start: clock, length: speech))
            clock += speech
            if plan.repeatsMorse {
                clock += plan.pauseAfterSpeech
                parts.append(Part(item: index, kind: .morse, start: clock, length: morse))
                clock += morse
            }
        }
        self.parts = parts
        length = clock
    }

    /// The keying without its trailing gaps: the Morse ends with its last tone.
    static func trimmed(_ keying: MorseKeying) -> MorseKeying {
        var elements = keying.elements
        while let last = elements.last, !last.isKeyDown { elements.removeLast() }
        return MorseKeying(elements: elements, skipped: keying.skipped)
    }

    /// How long a keying sounds: its elements and the fall of its last tone.
    static func soundingLength(_ keying: MorseKeying, tone: MorseTone) -> Duration {
        keying.elements.isEmpty ? .zero : keying.duration + tone.rise
    }

    /// The whole session as keyed elements, silence where the pauses and the speech are: what a
    /// Morse renderer plays under the speech.
    public var elements: [MorseElement] {
        var elements: [MorseElement] = []
        var clock = Duration.zero
        for part in parts where part.kind == .morse {
            if part.start > clock { elements.append(MorseElement(kind: .wordGap, duration: part.start - clock)) }
            elements += keyings[part.item].elements
            clock = part.start + keyings[part.item].duration
        }
        if length > clock { elements.append(MorseElement(kind: .wordGap, duration: length - clock)) }
        return elements
    }
}
