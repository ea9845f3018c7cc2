/// "Did you mean …?" for a mistyped name: a subcommand, a preset, a program, a setting key.
///
/// The suggestion is the known name closest to what was typed, at most two edits away
/// (Levenshtein distance: insertions, deletions, substitutions), ignoring case. When two names are
/// equally close there is no suggestion rather than a guess, and a name typed exactly (in any
/// case) suggests nothing either — it was not mistyped.
///
/// ```swift
/// NameSuggestion.closest(to: "medtate", among: ["meditate", "breathe"])  // "meditate"
/// NameSuggestion.closest(to: "xyz", among: ["meditate", "breathe"])      // nil
/// ```
public enum NameSuggestion {
    /// The most edits a typo may be from the name it was meant to be.
    public static let maximumDistance = 2

    /// The one known name within ``maximumDistance`` edits of `typed`, or `nil`.
    public static func closest(to typed: String, among names: some Sequence<String>) -> String? {
        let wanted = typed.lowercased()
        guard !wanted.isEmpty else { return nil }
        var best: (name: String, distance: Int)?
        var isTied = false
        // In the order given, so the first of two names that differ only in case (an id before
        // its display name) is the one suggested.
        for name in names {
            let distance = self.distance(wanted, name.lowercased())
            if distance == 0 { return nil }
            guard distance <= maximumDistance else { continue }
            if let current = best, distance >= current.distance {
                if distance == current.distance, current.name.lowercased() != name.lowercased() { isTied = true }
                continue
            }
            best = (name, distance)
            isTied = false
        }
        return isTied ? nil : best?.name
    }

    /// The Levenshtein distance between `a` and `b`, by characters.
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
