import Foundation
import Testing

@testable import MomentumCore

@Suite("Timeline JSON")
struct TimelineJSONTests {
    @Test func timelineEncodesInMillisecondsAndDecodesToTheSameValue() throws {
        let timeline = try MeditationPlan(
            duration: .minutes(10), countdown: .seconds(15), intervalGongs: .every(minutes: 5), reflection: .minutes(1),
            ambientID: "rain"
        ).timeline()
        let data = try JSONEncoder().encode(timeline)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["practice"] as? String == "meditation")
        #expect(object["totalMs"] as? Int == 675_000)
        let segments = try #require(object["segments"] as? [[String: Any]])
        #expect(segments.map { $0["kind"] as? String } == ["countdown", "meditation", "reflection"])
        #expect(segments.map { $0["startMs"] as? Int } == [0, 15_000, 615_000])
        let cues = try #require(object["cues"] as? [[String: Any]])
        #expect(cues.map { $0["offsetMs"] as? Int } == [15_000, 315_000, 615_000, 675_000])
        #expect(cues.map { $0["sound"] as? String } == ["startGong", "intervalGong", "phaseGong", "endGong"])
        #expect(object["ambientFadeMs"] as? Int == 1500)
        #expect(try JSONDecoder().decode(Timeline.self, from: data) == timeline)
    }

    @Test func playersGetEveryCueWithASoundInOrderFromTheCore() throws {
        let timeline = try MeditationPlan(
            duration: .minutes(12), countdown: .seconds(5), intervalGongs: .every(minutes: 5)
        ).timeline()
        let object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(timeline)) as? [String: Any])
        let scheduled = try #require(object["scheduledCues"] as? [[String: Any]])
        let expected = timeline.cues(after: .zero, includingLower: true, through: .minutes(13)).filter {
            $0.sound != nil
        }
        #expect(scheduled.compactMap { $0["offsetMs"] as? Int } == expected.map { Int($0.offset.wholeMilliseconds) })
        #expect(scheduled.compactMap { $0["sound"] as? String } == expected.compactMap { $0.sound?.rawValue })
        #expect(scheduled.count >= 4)
        #expect(object["ambientFadeMs"] == nil)
    }

    @Test func anOpenEndedSitSchedulesItsGongsForADay() throws {
        let timeline = try MeditationPlan(countdown: .zero, intervalGongs: .every(minutes: 5), isOpenEnded: true)
            .timeline()
        let object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(timeline)) as? [String: Any])
        let offsets = try #require(object["scheduledCues"] as? [[String: Any]]).compactMap { $0["offsetMs"] as? Int }
        #expect(offsets.first == 0)
        #expect(offsets.last == 24 * 3_600_000)
        #expect(offsets.count == 24 * 12 + 1)
    }

    @Test func openEndedTimelineHasNullTotalAndARepeatingCue() throws {
        let timeline = try MeditationPlan(countdown: .zero, intervalGongs: .every(minutes: 5), isOpenEnded: true)
            .timeline()
        let data = try JSONEncoder().encode(timeline)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["totalMs"] is NSNull)
        #expect(try JSONDecoder().decode(Timeline.self, from: data) == timeline)
    }

    @Test func aSegmentsDetailIsEncodedOnlyWhenPresent() throws {
        let detail = SegmentDetail(round: 2, rounds: 8, set: 1, sets: 3, exercise: "Plank")
        let timeline = try Timeline(
            practice: .workout,
            segments: [
                Segment(kind: .getReady, start: .zero, duration: .seconds(10)),
                Segment(kind: .work, start: .seconds(10), duration: .seconds(20), detail: detail),
            ])
        let data = try JSONEncoder().encode(timeline)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let segments = try #require(object["segments"] as? [[String: Any]])
        #expect(segments[0].keys.sorted() == ["durationMs", "kind", "startMs"])
        let encoded = try #require(segments[1]["detail"] as? [String: Any])
        #expect(encoded["round"] as? Int == 2)
        #expect(encoded["exercise"] as? String == "Plank")
        #expect(try JSONDecoder().decode(Timeline.self, from: data) == timeline)
    }

    @Test func decodingRejectsSegmentsWithGaps() {
        let json = """
            {"practice":"meditation","segments":[{"kind":"countdown","startMs":0,"durationMs":1000},
            {"kind":"meditation","startMs":2000,"durationMs":1000}],"cues":[]}
            """
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Timeline.self, from: Data(json.utf8)) }
    }

    @Test func timelineRejectsAnOpenEndedSegmentBeforeTheLast() {
        #expect(throws: TimelineError.openEndedSegmentNotLast(index: 0)) {
            try Timeline(
                practice: .meditation,
                segments: [
                    Segment(kind: .meditation, start: .zero, duration: nil),
                    Segment(kind: .reflection, start: .zero, duration: .seconds(1)),
                ])
        }
    }
}
