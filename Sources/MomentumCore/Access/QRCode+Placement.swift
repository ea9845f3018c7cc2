// Where every module of a symbol goes: function patterns, codewords, masking, format and
// version information (ISO/IEC 18004, 7.3 and 7.7 to 7.10).

extension QRCode {
    /// A symbol being built: its modules, and which of them belong to function patterns
    /// (finders, separators, timing, alignment, format and version information), which the data
    /// and the mask leave alone.
    struct ModuleGrid {
        let version: Int
        let size: Int
        private(set) var dark: [Bool]
        private var isFunction: [Bool]

        init(version: Int) {
            self.version = version
            size = 17 + 4 * version
            dark = Array(repeating: false, count: size * size)
            isFunction = Array(repeating: false, count: size * size)
        }

        subscript(x: Int, y: Int) -> Bool { dark[y * size + x] }

        private mutating func setFunction(x: Int, y: Int, dark isDark: Bool) {
            dark[y * size + x] = isDark
            isFunction[y * size + x] = true
        }

        /// Everything but the data; the format and version areas are reserved with light modules
        /// so that the codewords flow around them.
        mutating func placeFunctionPatterns() {
            for (x, y) in [(3, 3), (size - 4, 3), (3, size - 4)] { placeFinder(centerX: x, centerY: y) }
            for index in 8..<(size - 8) {
                setFunction(x: index, y: 6, dark: index % 2 == 0)
                setFunction(x: 6, y: index, dark: index % 2 == 0)
            }
            let centers = alignmentCenters(version: version)
            for x in centers {
                for y in centers where !overlapsFinder(x: x, y: y) { placeAlignment(centerX: x, centerY: y) }
            }
            placeFormatBits(0)
            placeVersionBits()
        }

        private func overlapsFinder(x: Int, y: Int) -> Bool {
            (x == 6 && y == 6) || (x == 6 && y == size - 7) || (x == size - 7 && y == 6)
        }

        /// A 7×7 finder with its light separator, clipped at the symbol's edge.
        private mutating func placeFinder(centerX: Int, centerY: Int) {
            for dy in -4...4 {
                for dx in -4...4 {
                    let x = centerX + dx
                    let y = centerY + dy
                    guard (0..<size).contains(x), (0..<size).contains(y) else { continue }
                    let ring = max(abs(dx), abs(dy))  // 0 to 1 dark, 2 light, 3 dark, 4 separator
                    setFunction(x: x, y: y, dark: ring != 2 && ring != 4)
                }
            }
        }

        private mutating func placeAlignment(centerX: Int, centerY: Int) {
            for dy in -2...2 {
                for dx in -2...2 {
                    setFunction(x: centerX + dx, y: centerY + dy, dark: max(abs(dx), abs(dy)) != 1)
                }
            }
        }

        /// The 15 format bits, twice: around the top-left finder, and split between the other two.
        /// Bit 0 is the least significant.
        mutating func placeFormatBits(_ bits: Int) {
            func bit(_ index: Int) -> Bool { (bits >> index) & 1 == 1 }
            for index in 0...5 { setFunction(x: 8, y: index, dark: bit(index)) }
            setFunction(x: 8, y: 7, dark: bit(6))
            setFunction(x: 8, y: 8, dark: bit(7))
            setFunction(x: 7, y: 8, dark: bit(8))
            for index in 9..<15 { setFunction(x: 14 - index, y: 8, dark: bit(index)) }
            for index in 0..<8 { setFunction(x: size - 1 - index, y: 8, dark: bit(index)) }
            for index in 8..<15 { setFunction(x: 8, y: size - 15 + index, dark: bit(index)) }
            setFunction(x: 8, y: size - 8, dark: true)  // the module that is always dark
        }

        /// The 18 version bits from version 7 on, in two 6×3 blocks beside the top-right and
        /// bottom-left finders.
        private mutating func placeVersionBits() {
            guard version >= 7 else { return }
            let bits = QRCode.versionBits(version)
            for index in 0..<18 {
                let isDark = (bits >> index) & 1 == 1
                let near = index / 3
                let far = size - 11 + index % 3
                setFunction(x: far, y: near, dark: isDark)
                setFunction(x: near, y: far, dark: isDark)
            }
        }

        /// The codewords' bits, most significant first, in two-module-wide columns from the
        /// bottom-right corner, upwards then downwards, skipping the vertical timing column.
        /// Modules left over (the remainder bits) stay light.
        mutating func placeCodewords(_ codewords: [UInt8]) {
            let bitCount = codewords.count * 8
            var bitIndex = 0
            for (x, y) in codewordPath() where bitIndex < bitCount {
                let byte = codewords[bitIndex / 8]
                dark[y * size + x] = (byte >> (7 - bitIndex % 8)) & 1 == 1
                bitIndex += 1
            }
        }

        /// The data modules in placement order.
        private func codewordPath() -> [(x: Int, y: Int)] {
            var path: [(x: Int, y: Int)] = []
            var right = size - 1
            var upwards = true
            while right >= 1 {
                if right == 6 { right = 5 }
                for step in 0..<size {
                    let y = upwards ? size - 1 - step : step
                    for x in [right, right - 1] where !isFunction[y * size + x] { path.append((x, y)) }
                }
                upwards.toggle()
                right -= 2
            }
            return path
        }

        /// Applies `mask` to the data modules and writes the matching format bits. Call once.
        mutating func finish(mask: Int, correction: Correction) {
            let pattern = QRCode.maskPattern(mask)
            for y in 0..<size {
                for x in 0..<size where !isFunction[y * size + x] && pattern(x, y) {
                    dark[y * size + x].toggle()
                }
            }
            placeFormatBits(QRCode.formatBits(correction: correction, mask: mask))
        }
    }

    /// Whether data mask `number` inverts the module at column `x`, row `y` (table 10).
    static func maskPattern(_ number: Int) -> (Int, Int) -> Bool {
        switch number {
        case 0: { x, y in (x + y) % 2 == 0 }
        case 1: { _, y in y % 2 == 0 }
        case 2: { x, _ in x % 3 == 0 }
        case 3: { x, y in (x + y) % 3 == 0 }
        case 4: { x, y in (x / 3 + y / 2) % 2 == 0 }
        case 5: { x, y in x * y % 2 + x * y % 3 == 0 }
        case 6: { x, y in (x * y % 2 + x * y % 3) % 2 == 0 }
        default: { x, y in ((x + y) % 2 + x * y % 3) % 2 == 0 }
        }
    }

    /// Correction level and mask in five bits, a BCH(15,5) code appended, then XOR-ed with the
    /// standard's pattern so that the format is never all light (annex C).
    static func formatBits(correction: Correction, mask: Int) -> Int {
        let levelBits =
            switch correction {
            case .low: 0b01
            case .medium: 0b00
            case .quartile: 0b11
            case .high: 0b10
            }
        let data = levelBits << 3 | mask
        return (data << 10 | bchRemainder(of: data << 10, generator: 0b101_0011_0111)) ^ 0b101_0100_0001_0010
    }

    /// The version in six bits with a BCH(18,6) code appended (annex D).
    static func versionBits(_ version: Int) -> Int {
        version << 12 | bchRemainder(of: version << 12, generator: 0b1_1111_0010_0101)
    }

    /// The remainder of polynomial division over GF(2), bits as coefficients.
    private static func bchRemainder(of value: Int, generator: Int) -> Int {
        let generatorDegree = Int.bitWidth - generator.leadingZeroBitCount - 1
        var remainder = value
        while remainder != 0, Int.bitWidth - remainder.leadingZeroBitCount - 1 >= generatorDegree {
            let shift = (Int.bitWidth - remainder.leadingZeroBitCount - 1) - generatorDegree
            remainder ^= generator << shift
        }
        return remainder
    }
}
