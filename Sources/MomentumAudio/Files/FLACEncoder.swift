/// 16-bit PCM as FLAC frames: lossless, so a cue decodes at exactly the sample it was rendered at,
/// and silence and decaying gongs cost almost nothing (docs/offline.md: a silent 20-minute sit is
/// about 0.6 MB instead of 54 MB of WAV). Every browser's `<audio>` plays it.
///
/// The encoder is the format's simplest complete one: each block of ``blockSize`` frames is one
/// frame; each channel of it a subframe, stored as a constant, as a fixed polynomial predictor of
/// order 0–4 with its residual in Rice codes (partitioned, each partition with its own
/// parameter), or verbatim — whichever is smallest. Stereo channels are coded independently.
/// Reference: the FLAC format (RFC 9639).
public enum FLACEncoder {
    /// Frames per FLAC frame: the format's usual size (about 0.19 s at 22.05 kHz).
    public static let blockSize = 4096

    /// `fLaC` and the STREAMINFO block: what comes before the first frame. The MD5 of the samples
    /// is left unset (zero), as the format allows for a stream written as it is made.
    public static func header(format: AudioFormat, frameCount: Int) -> [UInt8] {
        var writer = BitWriter()
        for byte in Array("fLaC".utf8) { writer.write(UInt64(byte), bits: 8) }
        writer.write(1, bits: 1)  // the last metadata block
        writer.write(0, bits: 7)  // STREAMINFO
        writer.write(34, bits: 24)
        writer.write(UInt64(blockSize), bits: 16)
        writer.write(UInt64(blockSize), bits: 16)
        writer.write(0, bits: 24)  // smallest frame: unknown
        writer.write(0, bits: 24)  // largest frame: unknown
        writer.write(UInt64(format.sampleRate), bits: 20)
        writer.write(UInt64(format.channels - 1), bits: 3)
        writer.write(15, bits: 5)  // 16 bits a sample
        writer.write(UInt64(frameCount), bits: 36)
        for _ in 0..<16 { writer.write(0, bits: 8) }
        return writer.bytes
    }

    /// One FLAC frame of `frames` frames of interleaved `samples`, numbered `index`.
    public static func frame(
        _ samples: UnsafeBufferPointer<Int16>, frames: Int, channels: Int, sampleRate: Int, index: Int
    ) -> [UInt8] {
        var writer = BitWriter()
        writer.write(0b11_1111_1111_1110, bits: 14)  // sync
        writer.write(0, bits: 1)
        writer.write(0, bits: 1)  // fixed block size: frames are numbered
        let sizeCode: UInt64 = frames == blockSize ? 0b1100 : 0b0111
        writer.write(sizeCode, bits: 4)
        let rateCode = Self.rateCode(sampleRate)
        writer.write(rateCode, bits: 4)
        writer.write(UInt64(channels - 1), bits: 4)  // independent channels
        writer.write(0b100, bits: 3)  // 16 bits a sample
        writer.write(0, bits: 1)
        writeUTF8Number(UInt64(index), into: &writer)
        if sizeCode == 0b0111 { writer.write(UInt64(frames - 1), bits: 16) }
        if rateCode == 0b1101 { writer.write(UInt64(sampleRate), bits: 16) }
        writer.write(UInt64(CRC.crc8(writer.bytes)), bits: 8)

        var channel = [Int32](repeating: 0, count: frames)
        for index in 0..<channels {
            for frame in 0..<frames { channel[frame] = Int32(Int16(littleEndian: samples[frame * channels + index])) }
            channel.withUnsafeBufferPointer { writeSubframe($0, into: &writer) }
        }
        writer.padToByte()
        let crc = CRC.crc16(writer.bytes)
        writer.write(UInt64(crc), bits: 16)
        return writer.bytes
    }

    private static func rateCode(_ rate: Int) -> UInt64 {
        switch rate {
        case 8_000: 0b0100
        case 16_000: 0b0101
        case 22_050: 0b0110
        case 24_000: 0b0111
        case 32_000: 0b1000
        case 44_100: 0b1001
        case 48_000: 0b1010
        default: 0b1101  // in Hz, in 16 bits after the header (every rate Momentum writes fits)
        }
    }

    /// The frame number as the format writes it: UTF-8's variable length coding, to 36 bits.
    private static func writeUTF8Number(_ value: UInt64, into writer: inout BitWriter) {
        if value < 0x80 {
            writer.write(value, bits: 8)
            return
        }
        var continuation = 1
        while value >= (1 << (5 * continuation + 6)) { continuation += 1 }
        let leading = UInt64((0xFF << (7 - continuation)) & 0xFF)
        writer.write(leading | (value >> (6 * UInt64(continuation))), bits: 8)
        for index in stride(from: continuation - 1, through: 0, by: -1) {
            writer.write(0x80 | ((value >> (6 * UInt64(index))) & 0x3F), bits: 8)
        }
    }

    // MARK: Subframes

    private static func writeSubframe(_ samples: UnsafeBufferPointer<Int32>, into writer: inout BitWriter) {
        if samples.allSatisfy({ $0 == samples[0] }) {
            writer.write(0b0_000000_0, bits: 8)  // constant
            writer.write(UInt64(UInt16(bitPattern: Int16(samples[0]))), bits: 16)
            return
        }
        let verbatimBits = samples.count * 16
        var best: (order: Int, plan: ResidualPlan)?
        for order in 0...min(4, samples.count - 1) {
            let residual = Self.residual(samples, order: order)
            let plan = ResidualPlan(residual, order: order, blockSize: samples.count)
            let bits = order * 16 + plan.bits
            if bits < (best.map { $0.order * 16 + $0.plan.bits } ?? Int.max) { best = (order, plan) }
        }
        guard let best, best.order * 16 + best.plan.bits < verbatimBits else {
            writer.write(0b0_000001_0, bits: 8)  // verbatim
            for sample in samples { writer.write(UInt64(UInt16(bitPattern: Int16(sample))), bits: 16) }
            return
        }
        writer.write(UInt64(0b0_001000_0 | (best.order << 1)), bits: 8)  // fixed, of its order
        for sample in samples.prefix(best.order) { writer.write(UInt64(UInt16(bitPattern: Int16(sample))), bits: 16) }
        best.plan.write(into: &writer)
    }

    /// What the fixed predictor of `order` leaves, from sample `order` on.
    static func residual(_ samples: UnsafeBufferPointer<Int32>, order: Int) -> [Int32] {
        var residual = [Int32]()
        residual.reserveCapacity(samples.count - order)
        for index in order..<samples.count {
            let s = { (back: Int) in samples[index - back] }
            let value: Int32 =
                switch order {
                case 0: s(0)
                case 1: s(0) - s(1)
                case 2: s(0) - 2 * s(1) + s(2)
                case 3: s(0) - 3 * s(1) + 3 * s(2) - s(3)
                default: s(0) - 4 * s(1) + 6 * s(2) - 4 * s(3) + s(4)
                }
            residual.append(value)
        }
        return residual
    }
}

/// A residual in Rice codes: the partition order and each partition's parameter that spend the
/// fewest bits.
struct ResidualPlan {
    static let largestParameter = 14
    let residual: [UInt32]
    let predictorOrder: Int
    let partitionOrder: Int
    let parameters: [Int]
    /// The bits of the residual section, its method and order included.
    let bits: Int

    init(_ signed: [Int32], order: Int, blockSize: Int) {
        // Zigzag: 0, -1, 1, -2 … → 0, 1, 2, 3 …
        let folded = signed.map { UInt32(bitPattern: ($0 << 1) ^ ($0 >> 31)) }
        var best: (order: Int, parameters: [Int], bits: Int) = (0, [], Int.max)
        var partitionOrder = 0
        while partitionOrder <= 8 {
            let partitions = 1 << partitionOrder
            guard blockSize % partitions == 0, blockSize / partitions > order else { break }
            var parameters: [Int] = []
            var bits = 2 + 4
            var start = 0
            for partition in 0..<partitions {
                let count = blockSize / partitions - (partition == 0 ? order : 0)
                let (parameter, cost) = Self.bestParameter(folded[start..<start + count])
                parameters.append(parameter)
                bits += 4 + cost
                start += count
            }
            if bits < best.bits { best = (partitionOrder, parameters, bits) }
            partitionOrder += 1
        }
        residual = folded
        predictorOrder = order
        (self.partitionOrder, parameters, bits) = best
    }

    private static func bestParameter(_ values: ArraySlice<UInt32>) -> (Int, Int) {
        guard !values.isEmpty else { return (0, 0) }
        let sum = values.reduce(0) { $0 + Int($1) }
        let mean = sum / values.count
        let guess = mean > 0 ? min(largestParameter, Int.bitWidth - mean.leadingZeroBitCount - 1) : 0
        var best = (parameter: 0, bits: Int.max)
        for parameter in max(0, guess - 1)...min(largestParameter, guess + 1) {
            var bits = values.count * (parameter + 1)
            for value in values { bits += Int(value >> UInt32(parameter)) }
            if bits < best.bits { best = (parameter, bits) }
        }
        return best
    }

    func write(into writer: inout BitWriter) {
        writer.write(0b00, bits: 2)  // Rice, 4-bit parameters
        writer.write(UInt64(partitionOrder), bits: 4)
        // Each partition holds as many samples, the first fewer by the predictor's warm-up.
        let perPartition = (residual.count + predictorOrder) >> partitionOrder
        var start = 0
        for (partition, parameter) in parameters.enumerated() {
            let count = perPartition - (partition == 0 ? predictorOrder : 0)
            writer.write(UInt64(parameter), bits: 4)
            for value in residual[start..<start + count] {
                writer.writeUnary(Int(value >> UInt32(parameter)))
                if parameter > 0 { writer.write(UInt64(value) & ((1 << UInt64(parameter)) - 1), bits: parameter) }
            }
            start += count
        }
    }
}

/// Bits written most significant first, as FLAC lays them out.
struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var accumulator: UInt64 = 0
    private var pending = 0

    mutating func write(_ value: UInt64, bits: Int) {
        var left = bits
        while left > 0 {
            let take = min(left, 56 - pending)
            let chunk = (value >> UInt64(left - take)) & ((1 << UInt64(take)) - 1)
            accumulator = (accumulator << UInt64(take)) | chunk
            pending += take
            left -= take
            while pending >= 8 {
                bytes.append(UInt8(truncatingIfNeeded: accumulator >> UInt64(pending - 8)))
                pending -= 8
            }
            accumulator &= (1 << UInt64(pending)) - 1
        }
    }

    /// `count` zeros, then a one.
    mutating func writeUnary(_ count: Int) {
        var zeros = count
        while zeros >= 32 {
            write(0, bits: 32)
            zeros -= 32
        }
        write(1, bits: zeros + 1)
    }

    mutating func padToByte() {
        if pending > 0 { write(0, bits: 8 - pending) }
    }
}

/// FLAC's checksums: CRC-8 (polynomial 0x07) of a frame's header, CRC-16 (0x8005) of the frame.
enum CRC {
    private static let table8: [UInt8] = (0..<256).map { index in
        var crc = UInt8(index)
        for _ in 0..<8 { crc = crc & 0x80 != 0 ? (crc << 1) ^ 0x07 : crc << 1 }
        return crc
    }

    private static let table16: [UInt16] = (0..<256).map { index in
        var crc = UInt16(index) << 8
        for _ in 0..<8 { crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x8005 : crc << 1 }
        return crc
    }

    static func crc8(_ bytes: [UInt8]) -> UInt8 {
        bytes.reduce(0) { crc, byte in table8[Int(crc ^ byte)] }
    }

    static func crc16(_ bytes: [UInt8]) -> UInt16 {
        bytes.reduce(0) { crc, byte in (crc << 8) ^ table16[Int(UInt8(truncatingIfNeeded: crc >> 8) ^ byte)] }
    }
}
