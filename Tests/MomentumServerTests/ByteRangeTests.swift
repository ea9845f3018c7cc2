import Testing

@testable import MomentumServer

@Suite("Range headers for streamed audio")
struct ByteRangeTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var header: String?
        var size: Int
        var expected: ByteRangeRequest
        var testDescription: String { "\(header ?? "no header") of \(size) bytes" }
    }

    static let cases: [Case] = [
        Case(header: nil, size: 1000, expected: .whole),
        Case(header: "bytes=0-99", size: 1000, expected: .partial(0...99)),
        Case(header: "bytes=0-0", size: 1000, expected: .partial(0...0)),
        Case(header: "bytes=400-599", size: 1000, expected: .partial(400...599)),
        Case(header: "bytes=500-", size: 1000, expected: .partial(500...999)),
        Case(header: "bytes=-500", size: 1000, expected: .partial(500...999)),
        Case(header: "bytes=-5000", size: 1000, expected: .partial(0...999)),
        Case(header: "bytes=900-5000", size: 1000, expected: .partial(900...999)),
        Case(header: "bytes=999-999", size: 1000, expected: .partial(999...999)),
        Case(header: "BYTES= 10-19 ", size: 1000, expected: .partial(10...19)),
        Case(header: "bytes=0-99999999999999999999999", size: 1000, expected: .partial(0...999)),
        // Beyond the end, empty, backwards or unreadable: 416.
        Case(header: "bytes=1000-", size: 1000, expected: .unsatisfiable),
        Case(header: "bytes=1000-1100", size: 1000, expected: .unsatisfiable),
        Case(header: "bytes=99999999999999999999999-", size: 1000, expected: .unsatisfiable),
        Case(header: "bytes=-0", size: 1000, expected: .unsatisfiable),
        Case(header: "bytes=0-", size: 0, expected: .unsatisfiable),
        Case(header: "bytes=-10", size: 0, expected: .unsatisfiable),
        Case(header: "bytes=5-2", size: 1000, expected: .unsatisfiable),
        Case(header: "bytes=abc", size: 1000, expected: .unsatisfiable),
        Case(header: "bytes=-", size: 1000, expected: .unsatisfiable),
        Case(header: "bytes=1-2-3", size: 1000, expected: .unsatisfiable),
        Case(header: "bytes=+1-2", size: 1000, expected: .unsatisfiable),
        Case(header: "bytes=", size: 1000, expected: .unsatisfiable),
        Case(header: "bytes=0-1,x", size: 1000, expected: .unsatisfiable),
        // Other units and several ranges are ignored: the whole file.
        Case(header: "items=0-5", size: 1000, expected: .whole),
        Case(header: "bytes=0-1,5-6", size: 1000, expected: .whole),
    ]

    @Test(arguments: cases)
    func header(_ example: Case) {
        #expect(ByteRangeRequest(header: example.header, size: example.size) == example.expected)
    }

    @Test func contentRangeNamesTheBytesSentOrTheSize() {
        #expect(ByteRangeRequest.partial(500...999).contentRange(size: 1000) == "bytes 500-999/1000")
        #expect(ByteRangeRequest.unsatisfiable.contentRange(size: 1000) == "bytes */1000")
        #expect(ByteRangeRequest.whole.contentRange(size: 1000) == nil)
    }
}
