import Foundation
import MomentumCore
import Testing

@testable import MomentumAudio

@Suite("A render as FLAC: lossless, small where the sound is quiet")
struct FLACByteStreamTests {
    func timeline(ambient: String, seconds: Int = 12) throws -> Timeline {
        try Timeline(
            practice: .meditation,
            segments: [Segment(kind: .meditation, start: .zero, duration: .seconds(seconds))],
            cues: [
                Cue(offset: .zero, sound: .startGong), Cue(offset: .seconds(seconds / 2), sound: .intervalGong),
                Cue(offset: .seconds(seconds), sound: .endGong),
            ],
            ambient: AmbientChoice(id: ambient, volume: 0.5))
    }

    /// The WAV stream's samples and the FLAC stream's bytes of one render.
    func both(_ timeline: Timeline, format: AudioFormat) throws -> (wav: WAVAudio, flac: [UInt8]) {
        var wavStream = try WAVByteStream(source: TimelineRenderer(timeline: timeline, format: format))
        var wav: [UInt8] = []
        while let chunk = wavStream.next() { wav += chunk }
        var flacStream = FLACByteStream(source: try TimelineRenderer(timeline: timeline, format: format))
        var flac: [UInt8] = []
        while let chunk = flacStream.next(frames: 3) { flac += chunk }
        return (try WAVFile.decode(Data(wav)), flac)
    }

    @Test(arguments: [
        ("silent", AudioFormat.runStream), ("rain", .runStream),
        ("brown", try AudioFormat(sampleRate: 44_100, channels: 2)),
    ])
    func itDecodesToExactlyTheWAVStreamsSamples(ambient: String, format: AudioFormat) throws {
        let (wav, flac) = try both(try timeline(ambient: ambient), format: format)
        let decoded = try FLACTestDecoder.decode(flac)
        #expect(decoded.sampleRate == format.sampleRate)
        #expect(decoded.channels == format.channels)
        #expect(decoded.frameCount == wav.frameCount)
        #expect(decoded.samples.count == wav.samples.count)
        #expect(decoded.samples == wav.samples)
    }

    @Test func gongsOverSilenceCostAFractionOfTheWAV() throws {
        let (wav, flac) = try both(try timeline(ambient: "silent", seconds: 60), format: .runStream)
        let wavBytes = wav.frameCount * 2
        // 1 min + the end gong's ring: 3.3 MB of WAV.
        #expect(flac.count * 10 < wavBytes, "FLAC \(flac.count) bytes against WAV \(wavBytes)")
    }

    @Test func edgeValuesAndEveryBlockLengthSurviveTheRoundTrip() throws {
        // Full scale both ways, a constant block, a single-sample step, and a short last block.
        var samples: [Int16] = []
        samples += Array(repeating: 0, count: 4096)
        samples += (0..<4096).map { $0 % 2 == 0 ? Int16.max : Int16.min }
        samples += (0..<4096).map { Int16(truncatingIfNeeded: $0 &* 7919) }
        samples += [1234]
        samples += (0..<37).map { Int16($0 * 100) }
        var bytes = FLACEncoder.header(format: .runStream, frameCount: samples.count)
        var index = 0
        var start = 0
        while start < samples.count {
            let count = min(FLACEncoder.blockSize, samples.count - start)
            bytes += samples[start..<start + count].withUnsafeBufferPointer {
                FLACEncoder.frame($0, frames: count, channels: 1, sampleRate: 22_050, index: index)
            }
            start += count
            index += 1
        }
        let decoded = try FLACTestDecoder.decode(bytes)
        #expect(decoded.samples == samples)
    }

    @Test func frameNumbersPastOneByteAreCodedAsTheFormatSays() throws {
        // Frame 70 000 (about 3.6 hours in at 22.05 kHz) takes four bytes of its UTF-8-like code.
        let samples = [Int16](repeating: 5, count: 16)
        let frame = samples.withUnsafeBufferPointer {
            FLACEncoder.frame($0, frames: 16, channels: 1, sampleRate: 22_050, index: 70_000)
        }
        var reader = FLACTestDecoder.BitReader(bytes: frame)
        reader.position = 32
        #expect(try reader.utf8Number() == 70_000)
    }
}

/// Just enough of a FLAC decoder to check the encoder: STREAMINFO, frames of independent
/// channels with their CRCs, and constant, verbatim and fixed subframes with Rice residuals.
enum FLACTestDecoder {
    struct Decoded {
        var sampleRate = 0
        var channels = 0
        var frameCount = 0
        var samples: [Int16] = []
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    struct BitReader {
        let bytes: [UInt8]
        var position = 0

        mutating func read(_ bits: Int) throws -> UInt64 {
            var value: UInt64 = 0
            for _ in 0..<bits {
                guard position / 8 < bytes.count else { throw Failure(description: "ran out of bits") }
                let bit = (bytes[position / 8] >> (7 - UInt8(position % 8))) & 1
                value = value << 1 | UInt64(bit)
                position += 1
            }
            return value
        }

        mutating func signed(_ bits: Int) throws -> Int64 {
            let value = try read(bits)
            return Int64(bitPattern: value << (64 - UInt64(bits))) >> (64 - Int64(bits))
        }

        mutating func unary() throws -> Int {
            var count = 0
            while try read(1) == 0 { count += 1 }
            return count
        }

        mutating func utf8Number() throws -> UInt64 {
            let first = try read(8)
            var continuation = 0
            while first & (0x80 >> UInt64(continuation)) != 0 { continuation += 1 }
            guard continuation != 1 else { throw Failure(description: "a continuation byte first") }
            var value = continuation == 0 ? first : first & ((1 << UInt64(7 - continuation)) - 1)
            for _ in 0..<max(0, continuation - 1) { value = value << 6 | (try read(8) & 0x3F) }
            return value
        }
    }

    static func decode(_ bytes: [UInt8]) throws -> Decoded {
        guard bytes.count > 42, Array(bytes[0..<4]) == Array("fLaC".utf8) else { throw Failure(description: "no fLaC") }
        var reader = BitReader(bytes: bytes, position: 32)
        var decoded = Decoded()
        guard try reader.read(1) == 1, try reader.read(7) == 0, try reader.read(24) == 34 else {
            throw Failure(description: "not one STREAMINFO block")
        }
        _ = try reader.read(16 + 16 + 24 + 24)
        decoded.sampleRate = Int(try reader.read(20))
        decoded.channels = Int(try reader.read(3)) + 1
        guard try reader.read(5) == 15 else { throw Failure(description: "not 16-bit") }
        decoded.frameCount = Int(try reader.read(36))
        _ = try reader.read(64)
        _ = try reader.read(64)
        var frameIndex: UInt64 = 0
        while reader.position / 8 < bytes.count {
            let frameStart = reader.position / 8
            guard try reader.read(14) == 0b11_1111_1111_1110, try reader.read(2) == 0 else {
                throw Failure(description: "no frame sync at byte \(frameStart)")
            }
            let sizeCode = try reader.read(4)
            let rateCode = try reader.read(4)
            let channels = Int(try reader.read(4)) + 1
            guard channels == decoded.channels, try reader.read(3) == 0b100, try reader.read(1) == 0 else {
                throw Failure(description: "a frame of another layout")
            }
            guard try reader.utf8Number() == frameIndex else { throw Failure(description: "frame out of order") }
            let size: Int =
                switch sizeCode {
                case 0b1100: 4096
                case 0b0111: Int(try reader.read(16)) + 1
                default: throw Failure(description: "block size code \(sizeCode)")
                }
            if rateCode == 0b1101 { _ = try reader.read(16) }
            let headerEnd = reader.position / 8
            guard try reader.read(8) == UInt64(CRC.crc8(Array(bytes[frameStart..<headerEnd]))) else {
                throw Failure(description: "header CRC")
            }
            var channelSamples: [[Int32]] = []
            for _ in 0..<channels { channelSamples.append(try subframe(&reader, size: size)) }
            if reader.position % 8 != 0 { _ = try reader.read(8 - reader.position % 8) }
            let frameEnd = reader.position / 8
            guard try reader.read(16) == UInt64(CRC.crc16(Array(bytes[frameStart..<frameEnd]))) else {
                throw Failure(description: "frame CRC")
            }
            for index in 0..<size {
                for channel in channelSamples { decoded.samples.append(Int16(channel[index])) }
            }
            frameIndex += 1
        }
        return decoded
    }

    private static func subframe(_ reader: inout BitReader, size: Int) throws -> [Int32] {
        guard try reader.read(1) == 0 else { throw Failure(description: "subframe padding") }
        let type = try reader.read(6)
        guard try reader.read(1) == 0 else { throw Failure(description: "wasted bits") }
        switch type {
        case 0: return Array(repeating: Int32(try reader.signed(16)), count: size)
        case 1: return try (0..<size).map { _ in Int32(try reader.signed(16)) }
        case 8...12:
            let order = Int(type - 8)
            var samples = try (0..<order).map { _ in Int32(try reader.signed(16)) }
            guard try reader.read(2) == 0 else { throw Failure(description: "not 4-bit Rice") }
            let partitionOrder = Int(try reader.read(4))
            let perPartition = size >> partitionOrder
            for partition in 0..<(1 << partitionOrder) {
                let parameter = Int(try reader.read(4))
                guard parameter != 15 else { throw Failure(description: "escape") }
                for _ in 0..<(perPartition - (partition == 0 ? order : 0)) {
                    let folded = UInt64(try reader.unary()) << UInt64(parameter) | (try reader.read(parameter))
                    let residual = Int32(truncatingIfNeeded: Int64(folded >> 1) ^ -Int64(folded & 1))
                    let index = samples.count
                    let s = { (back: Int) in samples[index - back] }
                    let predicted: Int32 =
                        switch order {
                        case 0: 0
                        case 1: s(1)
                        case 2: 2 * s(1) - s(2)
                        case 3: 3 * s(1) - 3 * s(2) + s(3)
                        default: 4 * s(1) - 6 * s(2) + 4 * s(3) - s(4)
                        }
                    samples.append(predicted + residual)
                }
            }
            return samples
        default: throw Failure(description: "subframe type \(type)")
        }
    }
}
