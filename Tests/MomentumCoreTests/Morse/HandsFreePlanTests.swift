import Foundation
import MomentumCore
import Testing

@Suite("Hands-free copy: the items drawn, the spoken answers and the schedule")
struct HandsFreePlanTests {
    static var timing: MorseTiming {
        get throws { try MorseTiming(characterWPM: 20, effectiveWPM: 20) }
    }

    @Test func theSameSeedDrawsTheSameItemsAndCallSignsAreSpelledOut() throws {
        let plan = try HandsFreePlan(content: .callSigns, count: 12, seed: 42, timing: try Self.timing)
        let items = plan.items()
        #expect(items.count == 12)
        #expect(items == plan.items())
        #expect(items != (try HandsFreePlan(content: .callSigns, count: 12, seed: 43, timing: try Self.timing)).items())
        for item in items {
            #expect(throws: Never.self) { try CallSign(item.sent) }
            #expect(item.spoken == item.sent.map(String.init).joined(separator: " "))
        }
        for (previous, next) in zip(items, items.dropFirst()) { #expect(previous.sent != next.sent) }
    }

    @Test func wordsAndQCodesAreSpokenInThePlansLanguage() throws {
        let words = try HandsFreePlan(content: .words, count: 30, seed: 1, timing: try Self.timing, language: .german)
        for item in words.items() {
            #expect(item.spoken == item.sent.lowercased())
            #expect(throws: Never.self) { try MorseText(item.sent) }
        }
        let codes = try HandsFreePlan(content: .qCodes, count: 40, seed: 3, timing: try Self.timing, language: .german)
        let qrs = try #require(codes.items().first { $0.sent == "QRS" })
        #expect(qrs.spoken == "Q R S. langsamer geben")
        let english = try HandsFreePlan(content: .qCodes, count: 40, seed: 3, timing: try Self.timing)
        #expect(english.items().first { $0.sent == "QRS" }?.spoken == "Q R S. send slower")
    }

    @Test func anOwnListIsSentInOrderWithCallSignsSpelledAndWordsSaid() throws {
        let plan = try HandsFreePlan(
            content: .list, list: ["dl1abc", "  hello   world ", "599", "W1AW/P"], seed: 9, timing: try Self.timing)
        #expect(
            plan.items() == [
                HandsFreeItem(sent: "DL1ABC", spoken: "D L 1 A B C"),
                HandsFreeItem(sent: "HELLO WORLD", spoken: "hello world"),
                HandsFreeItem(sent: "599", spoken: "5 9 9"),
                HandsFreeItem(sent: "W1AW/P", spoken: "W 1 A W stroke P"),
            ])
        #expect(plan.count == 4)
    }

    @Test func plansOutOfBoundsAreRefusedWithTheirReason() {
        #expect(throws: HandsFreeError.countOutOfRange) {
            try HandsFreePlan(content: .words, count: 0, timing: try Self.timing)
        }
        #expect(throws: HandsFreeError.countOutOfRange) {
            try HandsFreePlan(content: .words, count: 201, timing: try Self.timing)
        }
        #expect(throws: HandsFreeError.pauseOutOfRange) {
            try HandsFreePlan(content: .words, timing: try Self.timing, pauseAfterMorse: .milliseconds(499))
        }
        #expect(throws: HandsFreeError.pauseOutOfRange) {
            try HandsFreePlan(content: .words, timing: try Self.timing, pauseAfterSpeech: .milliseconds(5001))
        }
        #expect(throws: HandsFreeError.itemGapOutOfRange) {
            try HandsFreePlan(content: .words, timing: try Self.timing, itemGap: .seconds(11))
        }
        #expect(throws: HandsFreeError.emptyList) {
            try HandsFreePlan(content: .list, list: [], timing: try Self.timing)
        }
        #expect(throws: HandsFreeError.entryLength("   ")) {
            try HandsFreePlan(content: .list, list: ["   "], timing: try Self.timing)
        }
        let long = String(repeating: "E", count: 31)
        #expect(throws: HandsFreeError.entryLength(long)) {
            try HandsFreePlan(content: .list, list: [long], timing: try Self.timing)
        }
        for bad in ["CAFÉ☺", "<AR>", "A\u{7}B", "TAB\tX"] {
            #expect(throws: HandsFreeError.unsendable(bad)) {
                try HandsFreePlan(content: .list, list: [bad], timing: try Self.timing)
            }
        }
        #expect(throws: HandsFreeError.countOutOfRange) {
            try HandsFreePlan(content: .list, list: Array(repeating: "E", count: 201), timing: try Self.timing)
        }
    }

    @Test func everyAnswerFollowsItsMorseAfterThePausesAsSet() throws {
        let plan = try HandsFreePlan(
            content: .callSigns, count: 3, seed: 5, timing: try Self.timing, pauseAfterMorse: .milliseconds(800),
            pauseAfterSpeech: .milliseconds(1200), itemGap: .seconds(3))
        let items = plan.items()
        let speech: [Duration] = [.milliseconds(900), .milliseconds(1500), .milliseconds(700)]
        let schedule = HandsFreeSchedule(plan: plan, items: items, speechLengths: speech)
        #expect(schedule.parts.map(\.kind) == Array(repeating: [.morse, .speech, .morse], count: 3).flatMap { $0 })
        for item in 0..<3 {
            let parts = schedule.parts.filter { $0.item == item }
            let keying = try MorseKeyer(timing: try Self.timing).keying(items[item].sent)
            let sounding =
                keying.elements.reduce(Duration.zero) { $0 + $1.duration }
                - (keying.elements.last.map { $0.isKeyDown ? .zero : $0.duration } ?? .zero) + plan.tone.rise
            #expect(parts[0].length == sounding)
            #expect(parts[1].start == parts[0].end + .milliseconds(800))
            #expect(parts[1].length == speech[item])
            #expect(parts[2].start == parts[1].end + .milliseconds(1200))
            #expect(parts[2].length == parts[0].length)
            if item > 0 {
                let previousEnd = try #require(schedule.parts.last { $0.item == item - 1 }).end
                #expect(parts[0].start == previousEnd + .seconds(3))
            }
        }
        #expect(schedule.length == schedule.parts.last?.end)
        // The keyed elements of the whole session put each Morse part where the schedule says.
        var clock = Duration.zero
        var starts: [Duration] = []
        var lastKeyUp: Duration?
        for element in schedule.elements {
            // A Morse part starts after a silence at least as long as the shortest pause.
            if element.isKeyDown, lastKeyUp.map({ clock - $0 >= .milliseconds(800) }) ?? true {
                starts.append(clock)
            }
            clock += element.duration
            if element.isKeyDown { lastKeyUp = clock }
        }
        #expect(starts == schedule.parts.filter { $0.kind == .morse }.map(\.start))
        #expect(clock == schedule.length)
    }

    @Test func withoutTheRepeatEachItemIsMorseThenItsAnswer() throws {
        let plan = try HandsFreePlan(content: .words, count: 4, timing: try Self.timing, repeatsMorse: false)
        let schedule = HandsFreeSchedule(
            plan: plan, items: plan.items(), speechLengths: Array(repeating: .seconds(1), count: 4))
        #expect(schedule.parts.map(\.kind) == Array(repeating: [.morse, .speech], count: 4).flatMap { $0 })
        let lastSpeech = try #require(schedule.parts.last)
        #expect(schedule.length == lastSpeech.end)
    }

    @Test func listeningIsLoggedAsMorsePracticeByTheListeningRule() throws {
        let plan = try HandsFreePlan(content: .qCodes, count: 10, timing: try Self.timing)
        let end = Date(timeIntervalSince1970: 1_800_000_000)
        let id = UUID()
        let finished = try #require(
            try HandsFreeListening.record(
                plan: plan, listened: .seconds(95), finished: true, endedAt: end, id: id, device: "phone"))
        #expect(finished.kind == .morse)
        #expect(finished.countedSeconds == 95)
        #expect(finished.start == end.addingTimeInterval(-95))
        #expect(finished.details["practice"] == "handsFree")
        #expect(finished.details["content"] == "qCodes")
        let stopped = try HandsFreeListening.record(
            plan: plan, listened: .seconds(120), finished: false, endedAt: end, id: id, device: "phone")
        #expect(stopped?.details["stoppedEarly"] == "true")
        #expect(
            try HandsFreeListening.record(
                plan: plan, listened: .seconds(59), finished: false, endedAt: end, id: id, device: "phone") == nil)
    }
}
