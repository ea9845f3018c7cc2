import Foundation
import Testing

@testable import MomentumCore

@Suite("Finding by the start of an id")
struct IDPrefixTests {
    static let first = UUID(uuidString: "3F2A1C9E-0000-0000-0000-000000000001")!
    static let second = UUID(uuidString: "3F2A77AA-0000-0000-0000-000000000002")!
    static let ids = [first, second]

    @Test func fourCharactersOrMoreFindTheOneIdThatStartsSoIgnoringCase() throws {
        #expect(try IDPrefix.find("3f2a1", in: Self.ids, id: \.self) == Self.first)
        #expect(try IDPrefix.find("3F2A77", in: Self.ids, id: \.self) == Self.second)
        #expect(try IDPrefix.find(" 3f2a1c9e ", in: Self.ids, id: \.self) == Self.first)
    }

    @Test func tooShortUnknownAndAmbiguousAreTold() {
        #expect(throws: IDPrefix.LookupError.tooShort) { try IDPrefix.find("3f2", in: Self.ids, id: \.self) }
        #expect(throws: IDPrefix.LookupError.notFound) { try IDPrefix.find("abcd", in: Self.ids, id: \.self) }
        #expect(throws: IDPrefix.LookupError.ambiguous) { try IDPrefix.find("3f2a", in: Self.ids, id: \.self) }
    }

    @Test func aShortPrefixNeverMatches() {
        #expect(!IDPrefix.matches("3f2", id: Self.first))
        #expect(IDPrefix.matches("3f2a", id: Self.first))
    }
}
