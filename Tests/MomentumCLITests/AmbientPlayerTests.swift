import Foundation
import MomentumAudio
import MomentumCore
import MomentumTestSupport
import Testing

@testable import MomentumCLI

@Suite("Streaming the ambient bed to a system player")
struct AmbientPlayerTests {
    /// A "player" that keeps what it is sent: the real pipe, process and writer thread.
    static func recorder(into file: URL) -> SystemCuePlayer.Command {
        SystemCuePlayer.Command(executable: "/bin/sh", arguments: ["-c", "cat > '\(file.path)'"])
    }

    @Test func theBedReachesThePlayerAsRawPCMAndEndsFadedToSilence() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("bed.raw")
        let player = PipedAmbientPlayer(
            command: Self.recorder(into: file), generator: .rain, volume: 0.5, seed: 4)
        player.start()
        // Wait for the real pipe to carry a second of the bed (a recorder reads as fast as it can).
        while player.framesWritten < 44_100 { await Task.yield() }
        player.pause()
        player.resume()
        await player.stop()
        let bytes = try Data(contentsOf: file)
        let format = PipedAmbientPlayer.format
        // Whole stereo frames, at least the 1.5 s fade out, and the very last frame silent.
        #expect(bytes.count % 4 == 0)
        #expect(bytes.count / 4 >= 44_100 + format.frames(at: AmbientBed.fade) / 2)
        let samples = bytes.withUnsafeBytes { raw in raw.bindMemory(to: Int16.self).map { Int16(littleEndian: $0) } }
        #expect(samples.suffix(2) == [0, 0])
        #expect(samples.contains { $0 != 0 })
    }

    @Test func aPlayerThatFailsDoesNotHangOrStopTheProgram() async throws {
        let player = PipedAmbientPlayer(
            command: SystemCuePlayer.Command(executable: "/bin/sh", arguments: ["-c", "exit 1"]),
            generator: .brown, volume: 1, seed: 1)
        player.start()
        await player.stop()
        let missing = PipedAmbientPlayer(
            command: SystemCuePlayer.Command(executable: "/nonexistent/player", arguments: []),
            generator: .brown, volume: 1, seed: 1)
        missing.start()
        await missing.stop()
    }

    @Test func detectionFindsAStreamingPlayerAndPassesTheFormat() throws {
        let directory = try TemporaryDirectory()
        let aplay = directory.url.appendingPathComponent("aplay")
        try Data("#!/bin/sh\n".utf8).write(to: aplay)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: aplay.path)
        let found = PipedAmbientPlayer.detect(environment: ["PATH": directory.url.path])
        #expect(found?.executable == aplay.path)
        #expect(
            found?.arguments == ["-q", "-t", "raw", "-f", "S16_LE", "-r", "44100", "-c", "2", "--buffer-time=100000"])
        #expect(PipedAmbientPlayer.detect(environment: ["PATH": "/nonexistent"]) == nil)
    }
}
