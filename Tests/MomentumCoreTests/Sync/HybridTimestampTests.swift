import Foundation
import Testing

@testable import MomentumCore

@Suite("Hybrid timestamps: a total order, and a text form that sorts the same way")
struct HybridTimestampTests {
    func stamp(_ physical: Int64, _ counter: Int, _ node: String) throws -> HybridTimestamp {
        try HybridTimestamp(physical: physical, counter: counter, node: node)
    }

    @Test func stampsOrderByPhysicalTimeThenCounterThenNode() throws {
        let ordered = [
            try stamp(1_000, 5, "z"), try stamp(1_001, 0, "a"), try stamp(1_001, 0, "b"), try stamp(1_001, 1, "a"),
            try stamp(1_001, 1, "a0"), try stamp(2_000, 0, "a"),
        ]
        #expect(ordered.shuffled().sorted() == ordered)
        for (earlier, later) in zip(ordered, ordered.dropFirst()) {
            #expect(earlier < later)
            #expect(!(later < earlier))
        }
    }

    @Test func theTextFormHasFixedWidthNumbers() throws {
        #expect(try stamp(1_800_000_000_123, 2, "laptop").description == "1800000000123-00002-laptop")
        #expect(try stamp(5, 65_535, "n-1").description == "0000000000005-65535-n-1")
    }

    @Test func theTextFormReadsBack() throws {
        let original = try stamp(1_800_000_000_123, 42, "terminal@laptop:2-b")
        #expect(try HybridTimestamp(parsing: original.description) == original)
    }

    @Test func textsSortLikeTheirStamps() throws {
        var generator = SeededGenerator(seed: 7)
        let nodes = ["a", "b", "ab", "laptop", "phone-2", "Z", "n:9", "x.y"]
        let stamps = try (0..<500).map { _ in
            try stamp(
                Int64.random(in: 0...2_000_000_000_000, using: &generator) / Int64.random(in: 1...3, using: &generator),
                Int.random(in: 0...3, using: &generator) == 0 ? 0 : Int.random(in: 0...65_535, using: &generator),
                nodes.randomElement(using: &generator) ?? "a")
        }
        let byStamp = stamps.sorted().map(\.description)
        let byText = stamps.map(\.description).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        #expect(byStamp == byText)
        #expect(stamps.map(\.description).sorted() == byText)
    }

    @Test(arguments: [
        "", "1800000000123-00002", "1800000000123-00002-", "180000000012-00002-a", "18000000001234-00002-a",
        "1800000000123-0002-a", "1800000000123-000002-a", "1800000000123-65536-a", "-800000000123-00002-a",
        "+800000000123-00002-a", "18000000001x3-00002-a", "1800000000123-0000x-a", "1800000000123-00002-a b",
        "1800000000123-00002-é", "1800000000123_00002_a", " 1800000000123-00002-a",
        "1800000000123-00002-" + String(repeating: "n", count: 65),
    ])
    func malformedTextsAreRefused(text: String) {
        #expect(throws: HybridClockError.malformed(text)) { try HybridTimestamp(parsing: text) }
    }

    @Test func fieldsOutOfRangeHaveTheirOwnErrors() {
        #expect(throws: HybridClockError.counterOutOfRange(65_536)) { try stamp(0, 65_536, "a") }
        #expect(throws: HybridClockError.counterOutOfRange(-1)) { try stamp(0, -1, "a") }
        #expect(throws: HybridClockError.physicalOutOfRange(-1)) { try stamp(-1, 0, "a") }
        #expect(throws: HybridClockError.physicalOutOfRange(10_000_000_000_000)) {
            try stamp(10_000_000_000_000, 0, "a")
        }
        #expect(throws: HybridClockError.invalidNode("")) { try stamp(0, 0, "") }
        #expect(throws: HybridClockError.invalidNode("a/b")) { try stamp(0, 0, "a/b") }
    }

    @Test func stampsEncodeAsTheirText() throws {
        let original = try stamp(1_800_000_000_123, 3, "phone")
        let data = try JSONEncoder().encode([original])
        #expect(String(decoding: data, as: UTF8.self) == #"["1800000000123-00003-phone"]"#)
        #expect(try JSONDecoder().decode([HybridTimestamp].self, from: data) == [original])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([HybridTimestamp].self, from: Data(#"["yesterday"]"#.utf8))
        }
    }
}
