import Foundation
import Testing

@testable import MomentumCore

@Suite("Strict JSON: a field the type does not read is refused, not ignored")
struct StrictJSONTests {
    struct Body: Decodable, Equatable {
        var name: String
        var plan: MeditationPlan?
        var tags: [String: String]?
        var items: [Item]?
        var at: Date?
    }

    struct Item: Decodable, Equatable {
        var text: String
    }

    func decode(_ json: String) throws -> Body {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try StrictJSON.decode(Body.self, from: Data(json.utf8), using: decoder)
    }

    @Test func aBodyOfKnownFieldsDecodesAsJSONDecoderWould() throws {
        let body = try decode(
            #"""
            {"name":"a","plan":{"durationMs":60000,"intervalGongs":{"mode":"every","minutes":1}},
             "tags":{"any key":"x","5":"y"},"items":[{"text":"t"}],"at":"2027-01-15T08:00:00Z"}
            """#)
        #expect(body.name == "a")
        #expect(body.plan?.intervalGongs == .every(minutes: 1))
        #expect(body.tags == ["any key": "x", "5": "y"])
        #expect(body.items == [Item(text: "t")])
        #expect(body.at == Date(timeIntervalSince1970: 1_800_000_000))
    }

    @Test(arguments: [
        (#"{"name":"a","nmae":"b"}"#, "nmae"),
        (#"{"name":"a","plan":{"durationMinutes":5}}"#, "plan.durationMinutes"),
        (#"{"name":"a","plan":{"intervalGongs":{"mode":"off","minutes":5}}}"#, "plan.intervalGongs.minutes"),
        (#"{"name":"a","items":[{"text":"t"},{"text":"u","done":true}]}"#, "items[1].done"),
        (#"{"name":"a","zeta":1,"alpha":2}"#, "alpha"),
    ])
    func anUnknownFieldIsNamedByItsPath(json: String, field: String) {
        #expect(throws: JSONInputError.unknownField(field)) { try decode(json) }
    }

    @Test func aMissingOrMistypedFieldIsStillTheDecodersError() {
        #expect(throws: DecodingError.self) { try decode(#"{"nmae":"a"}"#) }
        #expect(throws: DecodingError.self) { try decode(#"{"name":3}"#) }
        #expect(throws: DecodingError.self) { try decode(#"{"name":"a","at":"yesterday"}"#) }
    }

    @Test func nullForAnOptionalFieldIsReadNotUnknown() throws {
        #expect(try decode(#"{"name":"a","plan":null,"items":null}"#).plan == nil)
    }
}
