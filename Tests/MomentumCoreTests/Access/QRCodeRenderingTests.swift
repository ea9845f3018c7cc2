import Foundation
import Testing

@testable import MomentumCore

@Suite("QR code rendering")
struct QRCodeRenderingTests {
    @Test func forADarkBackgroundLightModulesAndTheQuietZoneAreBlocks() throws {
        let code = try QRCode.encode("momentum.local/pair/7GQ4")
        let lines = code.terminalLines(quietZone: 2, style: .forDarkBackground)
        #expect(lines.count == (code.size + 4 + 1) / 2)
        #expect(lines.allSatisfy { $0.count == code.size + 4 })
        #expect(lines[0] == String(repeating: "█", count: code.size + 4))
        let lightModules = code.modulesWithQuietZone(2).map { row in row.map { !$0 } }
        #expect(paintedModules(lines, quietZone: 2, size: code.size) == lightModules)
    }

    @Test func forALightBackgroundDarkModulesAreBlocks() throws {
        let code = try QRCode.encode("Momentum", correction: .high)
        let lines = code.terminalLines(quietZone: 1, style: .forLightBackground)
        #expect(lines[0].hasPrefix(" ▄▄▄▄▄▄▄ "))  // the quiet zone row over the finder's top edge
        #expect(paintedModules(lines, quietZone: 1, size: code.size) == code.modulesWithQuietZone(1))
    }

    @Test func fixedColoursWrapTheDarkBackgroundDrawingInWhiteOnBlack() throws {
        let code = try QRCode.encode("Momentum")
        let plain = code.terminalLines(style: .forDarkBackground)
        let coloured = code.terminalLines(style: .fixedColours)
        #expect(coloured == plain.map { "\u{1B}[97;40m" + $0 + "\u{1B}[0m" })
    }

    @Test func theBottomHalfBelowAnOddHeightIsLeftToTheTerminal() throws {
        let code = try QRCode.encode("Momentum")  // 21 modules + 2 × 2 quiet: 25 rows
        let last = try #require(code.terminalLines().last)
        #expect(last == String(repeating: "▀", count: code.size + 4))
    }

    @Test func theImageIsAGreymapWithScaledModulesAndAQuietZone() throws {
        let code = try QRCode.encode("Momentum")
        let image = code.pgm(scale: 3, quietZone: 4)
        let side = (21 + 8) * 3
        let header = Array("P5\n\(side) \(side)\n255\n".utf8)
        #expect(Array(image.prefix(header.count)) == header)
        let pixels = Array(image.dropFirst(header.count))
        #expect(pixels.count == side * side)
        for y in 0..<side {
            for x in 0..<side {
                let isDark = code[x / 3 - 4, y / 3 - 4]
                if pixels[y * side + x] != (isDark ? 0 : 255) {
                    Issue.record("pixel \(x), \(y)")
                    return
                }
            }
        }
    }
}

extension QRCode {
    /// Row by row over the symbol and its quiet zone, `true` for dark.
    func modulesWithQuietZone(_ quietZone: Int) -> [[Bool]] {
        let span = -quietZone..<(size + quietZone)
        return span.map { y in span.map { x in self[x, y] } }
    }
}

/// The painted half of each character, two module rows per line, cut to the drawing's height.
func paintedModules(_ lines: [String], quietZone: Int, size: Int) -> [[Bool]] {
    let rows = lines.flatMap { line in
        [line.map { "▀█".contains($0) }, line.map { "▄█".contains($0) }]
    }
    return Array(rows.prefix(size + 2 * quietZone))
}
