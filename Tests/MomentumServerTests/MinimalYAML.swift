import Foundation

/// Just enough YAML to read `openapi.yaml` in tests: block mappings and sequences by indentation,
/// flow mappings and sequences (`{ a: 1, b: [x, y] }`) on one line, quoted and plain scalars, and
/// block scalars (`|`, `>`, `>-`), which are skipped. Mappings become `[String: Any]`, sequences
/// `[Any]`, scalars `String`.
enum MinimalYAML {
    static func parse(_ text: String) -> Any {
        var lines: [(indent: Int, text: String)] = []
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = raw.drop { $0 == " " }
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            lines.append((raw.count - trimmed.count, String(trimmed)))
        }
        var index = 0
        return block(&lines, &index, indent: 0)
    }

    private static func block(_ lines: inout [(indent: Int, text: String)], _ index: inout Int, indent: Int) -> Any {
        guard index < lines.count else { return "" }
        if lines[index].text.hasPrefix("- ") || lines[index].text == "-" {
            var list: [Any] = []
            while index < lines.count, lines[index].indent == indent, lines[index].text.hasPrefix("-") {
                let rest = String(lines[index].text.dropFirst(2))
                if rest.hasPrefix("{") || rest.hasPrefix("[") || splitKey(rest) == nil {
                    list.append(scalarOrFlow(rest))
                    index += 1
                } else {
                    // `- key: value` starts a mapping whose keys sit two columns further in.
                    lines[index] = (indent + 2, rest)
                    list.append(block(&lines, &index, indent: indent + 2))
                }
            }
            return list
        }
        var map: [String: Any] = [:]
        while index < lines.count, lines[index].indent == indent, let (key, value) = splitKey(lines[index].text) {
            index += 1
            if value.isEmpty {
                if index < lines.count,
                    lines[index].indent > indent
                        || (lines[index].indent == indent && lines[index].text.hasPrefix("- "))
                {
                    map[key] = block(&lines, &index, indent: lines[index].indent)
                } else {
                    map[key] = ""
                }
            } else if ["|", ">", "|-", ">-"].contains(value) {
                while index < lines.count, lines[index].indent > indent { index += 1 }
                map[key] = ""
            } else {
                map[key] = scalarOrFlow(value)
            }
        }
        return map
    }

    /// `key: value` split at the first `: ` (or a final `:`) outside quotes.
    private static func splitKey(_ text: String) -> (String, String)? {
        var quote: Character?
        for position in text.indices {
            let character = text[position]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'", position == text.startIndex {
                quote = character
            } else if character == ":" {
                let next = text.index(after: position)
                if next == text.endIndex || text[next] == " " {
                    let key = unquote(String(text[..<position]))
                    return (key, String(text[next...]).trimmingCharacters(in: .whitespaces))
                }
            }
        }
        return nil
    }

    private static func scalarOrFlow(_ text: String) -> Any {
        guard text.hasPrefix("{") || text.hasPrefix("[") else { return unquote(text) }
        var characters = Array(text)[...]
        return flow(&characters)
    }

    private static func flow(_ text: inout ArraySlice<Character>) -> Any {
        skipSpaces(&text)
        guard let first = text.first else { return "" }
        if first == "{" {
            text.removeFirst()
            var map: [String: Any] = [:]
            while true {
                skipSpaces(&text)
                if text.first == "}" {
                    text.removeFirst()
                    return map
                }
                let key = flowScalar(&text, stoppingAt: [":"])
                if text.first == ":" { text.removeFirst() }
                map[key] = flow(&text)
                skipSpaces(&text)
                if text.first == "," { text.removeFirst() }
                if text.isEmpty { return map }
            }
        }
        if first == "[" {
            text.removeFirst()
            var list: [Any] = []
            while true {
                skipSpaces(&text)
                if text.first == "]" {
                    text.removeFirst()
                    return list
                }
                list.append(flow(&text))
                skipSpaces(&text)
                if text.first == "," { text.removeFirst() }
                if text.isEmpty { return list }
            }
        }
        return flowScalar(&text, stoppingAt: [",", "}", "]"])
    }

    private static func flowScalar(_ text: inout ArraySlice<Character>, stoppingAt stops: Set<Character>) -> String {
        skipSpaces(&text)
        if let quote = text.first, quote == "\"" || quote == "'" {
            text.removeFirst()
            var value = ""
            while let character = text.first {
                text.removeFirst()
                if character == quote { break }
                if character == "\\", let escaped = text.first {
                    text.removeFirst()
                    value.append(escaped)
                } else {
                    value.append(character)
                }
            }
            return value
        }
        var value = ""
        while let character = text.first, !stops.contains(character) {
            value.append(character)
            text.removeFirst()
        }
        return value.trimmingCharacters(in: .whitespaces)
    }

    private static func skipSpaces(_ text: inout ArraySlice<Character>) {
        while text.first == " " { text.removeFirst() }
    }

    private static func unquote(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.count >= 2, let first = trimmed.first, first == "\"" || first == "'", trimmed.last == first {
            return String(trimmed.dropFirst().dropLast())
        }
        return trimmed
    }
}
