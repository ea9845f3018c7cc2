import Foundation
import Testing

@testable import MomentumCore

/// Symbols read back by ZBar, a decoder that shares no code with ours (`zbar-tools` on
/// Debian; `.ci/run` installs it). One test at a time: Foundation's `Process.run()` crashed once
/// in CI (a bad pointer in its `memcpy`) while these three spawned `zbarimg` at once.
@Suite("QR codes read by a real decoder", .enabled(if: zbarimg != nil), .serialized)
struct QRCodeDecodingTests {
    @Test func randomURLsOfEveryLengthReadBackUnchanged() throws {
        var random = SeededRandomNumberGenerator(seed: 18004)
        let urls = (0..<48).map { index in randomURL(length: 12 + index * 9, using: &random) }
        let images = try urls.enumerated().map { index, url in
            let correction = QRCode.Correction.allCases[index % 4]
            return try QRCode.encode(url, correction: correction).pgm()
        }
        let decoded = try decode(images)
        #expect(decoded == urls)
    }

    @Test func germanTextReadsBackAsTheSameUTF8() throws {
        let texts = ["Grüße aus Köln", "Jörg übt täglich zehn Minuten Atmen — Öl, Äpfel, Süßes."]
        let images = try texts.map { try QRCode.encode($0, correction: .quartile).pgm() }
        let decoded = try decode(images)
        #expect(decoded == texts)
    }

    @Test func everyForcedMaskReadsBack() throws {
        let text = "http://192.168.1.20:8080/pair/K7PX2QMW9RTB"
        let images = try QRCode.masks.map { try QRCode.encode(text, mask: $0).pgm() }
        let decoded = try decode(images)
        #expect(decoded == Array(repeating: text, count: QRCode.masks.count))
    }

    private func randomURL(length: Int, using random: inout SeededRandomNumberGenerator) -> String {
        let prefix = "https://momentum.example/pair?code="
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~%/")
        let tail = (0..<max(length - prefix.count, 1)).map { _ in alphabet.randomElement(using: &random) ?? "x" }
        return prefix + String(tail)
    }

    /// What `zbarimg` reads in each image, written to a file of its own.
    private func decode(_ images: [[UInt8]]) throws -> [String] {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("momentum-qrcode-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try images.enumerated().map { index, image in
            let file = directory.appendingPathComponent("\(index).pgm")
            try Data(image).write(to: file)
            return try decode(file)
        }
    }

    private func decode(_ file: URL) throws -> String {
        let process = Process()
        process.executableURL = try #require(zbarimg)
        // The bytes as they are: without `binary` ZBar guesses a character set and takes
        // UTF-8 for Shift JIS. Binary output has no separator, hence one image per run.
        process.arguments = ["--quiet", "--raw", "--nodbus", "-Sbinary", file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}

/// `zbarimg` on the search path, if installed.
let zbarimg: URL? = (ProcessInfo.processInfo.environment["PATH"] ?? "")
    .split(separator: ":")
    .map { URL(fileURLWithPath: String($0)).appendingPathComponent("zbarimg") }
    .first { FileManager.default.isExecutableFile(atPath: $0.path) }
