import Foundation
import Testing

@testable import MomentumCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Symbols read back by ZBar, a decoder that shares no code with ours (`zbar-tools` on
/// Debian; `.ci/run` installs it), one test at a time. `zbarimg` is started with `posix_spawn`,
/// not Foundation's `Process`: on Linux, Swift 6.3's `Process.run()` now and then reads past a
/// `readdir` buffer and crashes (swift-corelibs-foundation#5472), and these tests start it 58 times.
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
        let executable = try #require(zbarimg).path
        // The bytes as they are: without `binary` ZBar guesses a character set and takes
        // UTF-8 for Shift JIS. Binary output has no separator, hence one image per run.
        let arguments = [executable, "--quiet", "--raw", "--nodbus", "-Sbinary", file.path]
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_addclose(&actions, ends[0])
        posix_spawn_file_actions_addclose(&actions, ends[1])
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, executable, &actions, nil, argv, environ)
        close(ends[1])
        defer { close(ends[0]) }
        try #require(spawned == 0, "posix_spawn: \(spawned)")
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(ends[0], &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            data.append(contentsOf: buffer[0..<count])
        }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0, errno == EINTR {}
        return String(decoding: data, as: UTF8.self)
    }
}

/// `zbarimg` on the search path, if installed.
let zbarimg: URL? = (ProcessInfo.processInfo.environment["PATH"] ?? "")
    .split(separator: ":")
    .map { URL(fileURLWithPath: String($0)).appendingPathComponent("zbarimg") }
    .first { FileManager.default.isExecutableFile(atPath: $0.path) }
