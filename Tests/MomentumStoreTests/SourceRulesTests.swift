import Foundation
import Testing

/// Rules the sources keep (docs/architecture.md, "Rules the sources keep"), read from the files
/// themselves so that CI fails on a new break:
/// - no silent `try?`: each one says why nil is the right answer, in a `// try?: …` comment on its
///   line or in the comment lines directly above it;
/// - no file in Sources over 400 lines.
@Suite struct SourceRulesTests {
    static let sources = StoreBoundaryTests.root.appendingPathComponent("Sources")
    static let maximumLines = 400

    /// Every Swift file in Sources, with its path relative to the package and its text.
    static func sourceFiles() throws -> [(path: String, text: String)] {
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var found: [(path: String, text: String)] = []
        for case let file as URL in files where file.pathExtension == "swift" {
            let path = String(file.path.dropFirst(StoreBoundaryTests.root.path.count + 1))
            found.append((path, try String(contentsOf: file, encoding: .utf8)))
        }
        return found.sorted { $0.path < $1.path }
    }

    /// The lines (1-based) of `text` with a `try?` that no `// try?:` reason covers.
    static func unexplainedTryQuestionMarks(in text: String) -> [Int] {
        var found: [Int] = []
        var commentsAbove = false
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("//") {
                commentsAbove = commentsAbove || trimmed.contains("try?:")
                continue
            }
            if hasTryQuestionMark(line), !line.contains("// try?:"), !commentsAbove { found.append(index + 1) }
            commentsAbove = false
        }
        return found
    }

    /// Whether `line` has `try?` as a word (not the end of a name such as `Entry?`).
    static func hasTryQuestionMark(_ line: Substring) -> Bool {
        var rest = line[...]
        while let range = rest.range(of: "try?") {
            let before = rest[..<range.lowerBound].last
            if before.map({ !($0.isLetter || $0.isNumber || $0 == "_") }) ?? true { return true }
            rest = rest[range.upperBound...]
        }
        return false
    }

    @Test func theTryRuleFindsWhatItShould() {
        let text = """
            let a = try? read()
            // try?: a missing file is an empty list
            let b = try? read()
            // The cache may be cold.
            // try?: a cold cache is read again
            // (next call).
            let c = try? read()
            let d = try? read() // try?: best effort
            func entry() -> Entry? { nil }
            // try?: a comment above a blank line does not reach past it

            let e = try? read()
            """
        #expect(Self.unexplainedTryQuestionMarks(in: text) == [1, 12])
    }

    @Test func everyTryQuestionMarkSaysWhyNilIsTheRightAnswer() throws {
        var unexplained: [String] = []
        for file in try Self.sourceFiles() {
            unexplained += Self.unexplainedTryQuestionMarks(in: file.text).map { "\(file.path):\($0)" }
        }
        #expect(unexplained.isEmpty, "try? without a `// try?:` reason: \(unexplained.joined(separator: ", "))")
    }

    @Test func noSourceFileIsLongerThanTheLimit() throws {
        let long = try Self.sourceFiles().compactMap { file -> String? in
            let lines =
                file.text.split(separator: "\n", omittingEmptySubsequences: false).count
                - (file.text.hasSuffix("\n") ? 1 : 0)
            return lines > Self.maximumLines ? "\(file.path) (\(lines) lines)" : nil
        }
        #expect(long.isEmpty, "longer than \(Self.maximumLines) lines: \(long.joined(separator: ", "))")
    }
}
