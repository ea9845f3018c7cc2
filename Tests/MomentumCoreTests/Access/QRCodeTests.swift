import Testing

@testable import MomentumCore

@Suite("QR code encoder")
struct QRCodeTests {
    @Test(arguments: ReferenceSymbol.all)
    func matchesTheReferenceSymbolModuleByModule(_ reference: ReferenceSymbol) throws {
        let code = try QRCode.encode(reference.text, correction: reference.correction, mask: reference.mask)
        #expect(code.version == reference.version)
        #expect(code.rows == reference.rows)
    }

    @Test func everyVersionAndLevelMatchesTheReferenceAtFullCapacity() throws {
        for (version, digest) in ReferenceSymbol.fullSymbolDigests {
            var rows: [String] = []
            for correction in QRCode.Correction.allCases {
                let capacity = QRCode.byteCapacity(version: version, correction: correction)
                let bytes = (0..<capacity).map { UInt8((37 * $0 + version) % 256) }
                let code = try QRCode.encode(bytes: bytes, correction: correction, mask: version % 8)
                #expect(code.version == version, "\(correction)")
                rows += code.rows
            }
            #expect(fnv1a(rows.joined()) == digest, "version \(version)")
        }
    }

    /// Masks chosen by Nayuki's reference encoder (qrcodegen 1.8.0 for Python) at levels low,
    /// medium, quartile and high; it reads the penalty rules as ours does.
    @Test(arguments: [
        ("Momentum", [0, 3, 3, 0]),
        ("http://192.168.1.20:8080/pair?code=K7PX-2QMW-9RTB&user=Anna&lang=de&from=terminal", [2, 6, 2, 2]),
        (String(repeating: "Momentum ", count: 40), [1, 1, 1, 1]),
        ("https://example.org/pair?code=ABCD1234", [0, 0, 2, 2]),
        ("http://192.168.1.20:8080/pair/K7PX2QMW9RTB", [5, 2, 3, 1]),
        ("Grüße, Jörg!", [2, 3, 7, 3]),
    ])
    func choosesTheMaskTheReferenceEncoderChooses(text: String, masks: [Int]) throws {
        let chosen = try QRCode.Correction.allCases.map { try QRCode.encode(text, correction: $0).mask }
        #expect(chosen == masks)
    }

    @Test func theSymbolIsSeventeenPlusFourModulesPerVersionWithFindersInTheCorners() throws {
        for version in [1, 2, 6, 7, 14, 27, 40] {
            let bytes = [UInt8](repeating: 0x61, count: QRCode.byteCapacity(version: version, correction: .medium))
            let code = try QRCode.encode(bytes: bytes)
            #expect(code.version == version)
            #expect(code.size == 17 + 4 * version)
            for (left, top) in [(0, 0), (code.size - 7, 0), (0, code.size - 7)] {
                #expect(code.hasFinder(left: left, top: top), "version \(version) at \(left), \(top)")
            }
            #expect(code[-1, 0] == false && code[code.size, code.size - 1] == false)
        }
    }

    @Test(arguments: QRCode.Correction.allCases)
    func theLargestTextThatFitsAVersionPicksItAndOneByteMoreTheNext(_ correction: QRCode.Correction) throws {
        for version in 1..<40 {
            let capacity = QRCode.byteCapacity(version: version, correction: correction)
            // A forced mask spares the mask search, which is not under test here.
            let fitting = try QRCode.encode(
                bytes: .init(repeating: 0x2F, count: capacity), correction: correction, mask: 0)
            let oneMore = try QRCode.encode(
                bytes: .init(repeating: 0x2F, count: capacity + 1), correction: correction, mask: 0)
            #expect(fitting.version == version)
            #expect(oneMore.version == version + 1)
        }
    }

    @Test func publishedByteCapacitiesAtLevelMedium() {
        // ISO/IEC 18004, table 7: versions 1, 10 and 40.
        #expect(QRCode.byteCapacity(version: 1, correction: .medium) == 14)
        #expect(QRCode.byteCapacity(version: 10, correction: .medium) == 213)
        #expect(QRCode.byteCapacity(version: 40, correction: .medium) == 2331)
    }

    @Test func textBeyondVersionFortyIsRefusedWithItsLengthAndTheMaximum() {
        let text = String(repeating: "ä", count: 1166)  // 2332 bytes in UTF-8
        #expect(throws: QRCodeError.tooLong(byteCount: 2332, maximum: 2331)) {
            try QRCode.encode(text)
        }
        #expect(throws: QRCodeError.tooLong(byteCount: 1274, maximum: 1273)) {
            try QRCode.encode(bytes: [UInt8](repeating: 0, count: 1274), correction: .high)
        }
        #expect(QRCodeError.tooLong(byteCount: 2332, maximum: 2331).localized.key == "error.qrCode.tooLong")
    }

    @Test func aForcedMaskOutsideZeroToSevenIsRefused() {
        #expect(throws: QRCodeError.maskOutOfRange(8)) { try QRCode.encode("x", mask: 8) }
        #expect(throws: QRCodeError.maskOutOfRange(-1)) { try QRCode.encode("x", mask: -1) }
    }

    @Test func textIsEncodedAsItsUTF8Bytes() throws {
        let text = "Grüße, Jörg! Öl für die Tür."
        #expect(try QRCode.encode(text) == QRCode.encode(bytes: Array(text.utf8)))
    }

    @Test func randomBytesEitherEncodeIntoTheSmallestVersionOrAreTooLong() throws {
        var random = SeededRandomNumberGenerator(seed: 26)
        for _ in 0..<40 {
            let count = Int.random(in: 0...3000, using: &random)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            let correction = QRCode.Correction.allCases.randomElement(using: &random) ?? .medium
            let maximum = QRCode.byteCapacity(version: 40, correction: correction)
            do {
                let code = try QRCode.encode(bytes: bytes, correction: correction)
                #expect(QRCode.byteCapacity(version: code.version, correction: correction) >= count)
                #expect(
                    code.version == 1 || QRCode.byteCapacity(version: code.version - 1, correction: correction) < count)
            } catch {
                #expect(error == .tooLong(byteCount: count, maximum: maximum))
                #expect(count > maximum)
            }
        }
    }
}

extension QRCode {
    /// Rows of `#` (dark) and `.` (light), as the reference symbols are kept.
    var rows: [String] {
        (0..<size).map { y in String((0..<size).map { x in self[x, y] ? "#" : "." }) }
    }

    /// Whether a 7×7 finder (dark ring, light ring, dark 3×3) sits with its top-left corner here.
    func hasFinder(left: Int, top: Int) -> Bool {
        (0..<7).allSatisfy { dy in
            (0..<7).allSatisfy { dx in
                let ring = max(abs(dx - 3), abs(dy - 3))
                return self[left + dx, top + dy] == (ring != 2)
            }
        }
    }
}

/// FNV-1a, 64 bits, over the UTF-8 bytes of `text`.
func fnv1a(_ text: String) -> UInt64 {
    text.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
}
