import Foundation
import MomentumCore
import Testing

@testable import MomentumAudio

@Suite("WAV files: written, read back, and refused when broken")
struct WAVFileTests {
    static func noise(count: Int, seed: UInt64) -> [Float] {
        var random = SeededRandomNumberGenerator(seed: seed)
        return (0..<count).map { _ in Float.random(in: -1..<1, using: &random) }
    }

    @Test(arguments: [(8_000, 1), (22_050, 2), (44_100, 1), (48_000, 2)])
    func aFileWrittenByMomentumReadsBackIdentically(rate: Int, channels: Int) throws {
        let format = try AudioFormat(sampleRate: rate, channels: channels)
        let samples = Self.noise(count: 2_000 * channels, seed: UInt64(rate))
        let audio = try WAVFile.decode(WAVFile.encode(samples: samples, format: format))
        #expect(audio.format == format)
        #expect(audio.samples == samples.map(WAVFile.pcm))
        #expect(audio.frameCount == 2_000)
    }

    @Test func fullScaleAndBeyondAreClampedAndNotANumberIsSilence() throws {
        let audio = try WAVFile.decode(WAVFile.encode(samples: [1, -1, 2, -7, .nan, 0.5], format: AudioFormat()))
        #expect(audio.samples == [32767, -32767, 32767, -32767, 0, 16384])
    }

    @Test func chunksItDoesNotNeedAreSkipped() throws {
        var data = try WAVFile.encode(samples: [0.25, -0.25, 0.5], format: AudioFormat(sampleRate: 8_000))
        // A LIST chunk with an odd length (and its pad byte) between fmt and data.
        let list: [UInt8] = Array("LIST".utf8) + [3, 0, 0, 0] + Array("abc".utf8) + [0]
        data.insert(contentsOf: list, at: 36)
        let audio = try WAVFile.decode(data)
        #expect(audio.samples == [8192, -8192, 16384])
    }

    @Test func brokenFilesAreRefusedWithAReason() throws {
        let good = try WAVFile.encode(samples: [0.1, 0.2], format: AudioFormat(sampleRate: 8_000))
        #expect(throws: WAVError.notWAV) { try WAVFile.decode(Data("hello".utf8)) }
        #expect(throws: WAVError.truncated) { try WAVFile.decode(good.prefix(46)) }
        var eightBit = good
        eightBit[34] = 8
        #expect(throws: WAVError.notSixteenBitPCM) { try WAVFile.decode(eightBit) }
        var slow = good
        slow.replaceSubrange(24..<28, with: [0xE8, 0x03, 0, 0])  // 1000 Hz
        #expect(throws: WAVError.unsupportedFormat(sampleRate: 1_000, channels: 1)) { try WAVFile.decode(slow) }
        #expect(throws: WAVError.missingData) { try WAVFile.decode(good.prefix(36)) }
    }

    @Test func thousandsOfMutationsAndTruncationsNeverCrashTheReader() throws {
        let good = try WAVFile.encode(samples: Self.noise(count: 64, seed: 3), format: AudioFormat(sampleRate: 8_000))
        var random = SeededRandomNumberGenerator(seed: 42)
        var outcomes = (read: 0, refused: 0)
        for round in 0..<3_000 {
            var bytes = [UInt8](good)
            if round % 3 == 0 {
                bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &random)))
            }
            for _ in 0..<Int.random(in: 1...6, using: &random) where !bytes.isEmpty {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            do {
                let audio = try WAVFile.decode(Data(bytes))
                #expect(audio.samples.count % audio.format.channels == 0)
                outcomes.read += 1
            } catch {
                outcomes.refused += 1
            }
        }
        #expect(outcomes.read > 0 && outcomes.refused > 0)
    }
}
