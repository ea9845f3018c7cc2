import Foundation
import Testing

@testable import MomentumServer

/// Every screen is built from the design system (docs/design-system.md): outside the tokens in
/// `:root`, app.css sizes type, gaps and corners only through `var(--text-*)`, `var(--space-*)`
/// and `var(--radius*)` — a new literal size fails here and goes into the scale or the doc first.
@Suite("Design system: app.css uses the tokens")
struct DesignSystemTests {
    static func stylesheet() throws -> String {
        try String(contentsOf: PublicFolder.url.appendingPathComponent("app.css"), encoding: .utf8)
    }

    /// The declarations `property: value` after the first `:root { … }` block.
    static func declarations(_ property: String, in css: String) throws -> [String] {
        let root = try #require(css.range(of: ":root {"))
        let end = try #require(css.range(of: "}", range: root.upperBound..<css.endIndex))
        let body = String(css[end.upperBound...])
        let pattern = try Regex("(?:^|[;{\\s])\(property):\\s*([^;}]+)")
        return body.matches(of: pattern).compactMap { $0.output[1].substring.map { String($0).trimmed } }
    }

    @Test func theTokensAreDefinedOnce() throws {
        let css = try Self.stylesheet()
        for token in [
            "--text-sm", "--text-md", "--text-display", "--space-2", "--space-4", "--radius-pill", "--motion-calm",
        ] {
            #expect(css.components(separatedBy: "\(token):").count == 2, "\(token) is defined once")
        }
    }

    @Test func typeComesFromTheScale() throws {
        // SVG text is sized in its viewBox's units (px), which scale with the drawing.
        let stray = try Self.declarations("font-size", in: Self.stylesheet())
            .filter { !$0.hasPrefix("var(--text-") && $0 != "inherit" && $0.wholeMatch(of: /\d+px/) == nil }
        #expect(stray.isEmpty, "font sizes outside the type scale: \(stray)")
    }

    @Test func gapsComeFromTheSpacingScale() throws {
        let css = try Self.stylesheet()
        let stray = try (Self.declarations("gap", in: css) + Self.declarations("row-gap", in: css))
            .filter { value in !value.split(separator: " ").allSatisfy { $0.hasPrefix("var(--space-") || $0 == "0" } }
        #expect(stray.isEmpty, "gaps outside the spacing scale: \(stray)")
    }

    @Test func cornersComeFromTheRadii() throws {
        let stray = try Self.declarations("border-radius", in: Self.stylesheet()).filter { value in
            !value.split(separator: " ").allSatisfy {
                $0.hasPrefix("var(--radius") || $0 == "0" || $0 == "50%" || $0 == "inherit"
            }
        }
        #expect(stray.isEmpty, "corners outside the radii: \(stray)")
    }
}

extension String {
    fileprivate var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
