import Foundation
import Testing

@testable import MomentumCore

@Suite("Finding by the start of an id")
struct IDPrefixTests {
    /// 3f2a1c9e-0000-0000-0000-000000000001
    static let first = UUID(uuid: (0x3F, 0x2A, 0x1C, 0x9E, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1))
    /// 3f2a77aa-0000-0000-0000-000000000002
    static let second = UUID(uuid: (0x3F, 0x2A, 0x77, 0xAA, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2))
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
