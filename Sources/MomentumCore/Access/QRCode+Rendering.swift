// A QR code as text for a terminal and as an image for tests.

extension QRCode {
    /// Which modules a terminal drawing paints with block characters.
    ///
    /// A camera needs dark modules on a light ground. A terminal paints block characters in
    /// its text colour on its background colour, and which of the two is light depends on the
    /// terminal's theme, so no plain drawing reads right on every terminal.
    public enum TerminalStyle: Sendable, Equatable, CaseIterable {
        /// Light modules (and the quiet zone) as blocks: right on light text over a dark
        /// background, most terminals' default (`qrencode -t UTF8`).
        case forDarkBackground
        /// Dark modules as blocks: right on dark text over a light background (`qrencode -t UTF8i`).
        case forLightBackground
        /// ``forDarkBackground`` with the colours set to white on black by ANSI escapes, so it
        /// reads right on either theme (`qrencode -t ANSIUTF8`); only for output that is a terminal.
        case fixedColours
    }

    /// The symbol and a light quiet zone as text, two module rows per line with the half
    /// blocks `▀ ▄ █` and spaces, so that modules come out roughly square.
    ///
    /// The standard asks for a quiet zone of four modules; two keep the code small, and
    /// phone cameras read it when the terminal around it is not light (or with
    /// ``TerminalStyle/forLightBackground``, not dark).
    public func terminalLines(quietZone: Int = 2, style: TerminalStyle = .forDarkBackground) -> [String] {
        let quietZone = max(quietZone, 0)
        let span = -quietZone..<(size + quietZone)
        func painted(_ x: Int, _ y: Int) -> Bool {
            guard span.contains(y) else { return false }  // below the last row: the terminal's own
            return style == .forLightBackground ? self[x, y] : !self[x, y]
        }
        return stride(from: span.lowerBound, to: span.upperBound, by: 2).map { top in
            let line = String(span.map { x in Self.halfBlock(top: painted(x, top), bottom: painted(x, top + 1)) })
            return style == .fixedColours ? "\u{1B}[97;40m" + line + "\u{1B}[0m" : line
        }
    }

    private static func halfBlock(top: Bool, bottom: Bool) -> Character {
        switch (top, bottom) {
        case (true, true): "█"
        case (true, false): "▀"
        case (false, true): "▄"
        case (false, false): " "
        }
    }

    /// The symbol as a binary greyscale image (PGM, "P5"): dark modules black, everything else
    /// white, `scale` pixels per module and a quiet zone of `quietZone` modules all round.
    public func pgm(scale: Int = 4, quietZone: Int = 4) -> [UInt8] {
        let scale = max(scale, 1)
        let quietZone = max(quietZone, 0)
        let side = (size + 2 * quietZone) * scale
        var image = Array("P5\n\(side) \(side)\n255\n".utf8)
        image.reserveCapacity(image.count + side * side)
        for row in 0..<side {
            let y = row / scale - quietZone
            for column in 0..<side {
                image.append(self[column / scale - quietZone, y] ? 0 : 255)
            }
        }
        return image
    }
}
