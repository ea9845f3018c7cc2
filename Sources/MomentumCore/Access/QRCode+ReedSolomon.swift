// Reed–Solomon error correction over GF(256), as QR codes use it (ISO/IEC 18004, 7.5.2).

extension QRCode {
    /// Arithmetic in GF(2⁸) modulo the QR polynomial x⁸ + x⁴ + x³ + x² + 1.
    enum GaloisField {
        /// Multiplies two field elements by shift-and-add ("Russian peasant"), reducing on overflow.
        static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
            var product: UInt8 = 0
            var a = a
            var b = b
            while b != 0 {
                if b & 1 != 0 { product ^= a }
                let overflows = a & 0x80 != 0
                a <<= 1
                if overflows { a ^= 0x1D }  // 0x11D without the bit that fell off
                b >>= 1
            }
            return product
        }
    }

    /// The coefficients of ∏(x − αⁱ) for i in 0..<degree, highest power first, the leading 1 left out.
    static func reedSolomonGenerator(degree: Int) -> [UInt8] {
        var coefficients = [UInt8](repeating: 0, count: degree)
        coefficients[degree - 1] = 1
        var root: UInt8 = 1  // α⁰
        for _ in 0..<degree {
            // Multiply the polynomial by (x − root); in GF(2⁸) minus is plus.
            for index in coefficients.indices {
                coefficients[index] = GaloisField.multiply(coefficients[index], root)
                if index + 1 < coefficients.count { coefficients[index] ^= coefficients[index + 1] }
            }
            root = GaloisField.multiply(root, 0x02)
        }
        return coefficients
    }

    /// The error correction codewords of `data`: the remainder of data·xⁿ divided by the generator.
    static func reedSolomonRemainder(of data: [UInt8], generator: [UInt8]) -> [UInt8] {
        var remainder = [UInt8](repeating: 0, count: generator.count)
        for byte in data {
            let factor = byte ^ remainder[0]
            remainder.removeFirst()
            remainder.append(0)
            for index in remainder.indices {
                remainder[index] ^= GaloisField.multiply(generator[index], factor)
            }
        }
        return remainder
    }
}
