import Foundation

/// How breathing presets and workout programs are named and found: by id, or by name ignoring
/// case — a built-in by its name in any language — and copies are "… (copy)", "… (copy 2)".
public enum PresetNaming {
    public static func folded(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespacesAndNewlines).folding(options: [.caseInsensitive], locale: nil)
    }

    /// Every name something answers to, folded: its id, its name, and a built-in's catalog name
    /// in each language.
    public static func names(id: String, name: String, builtInKey: String?) -> Set<String> {
        var names: Set<String> = [folded(id), folded(name)]
        if let key = builtInKey.flatMap(StringKey.init(rawValue:)) {
            for language in Language.allCases { names.insert(folded(StringCatalog.shared(for: language)[key])) }
        }
        return names
    }

    /// "Box breathing (copy)", or "(copy 2)", "(copy 3)" … when that is taken. A long name is
    /// shortened (ending in "…") so that the copy's name stays within ``TextInput/maximumNameLength``.
    public static func freeCopyName(for name: String, taken: Set<String>, catalog: StringCatalog) -> String {
        var number = 1
        while true {
            func copyName(_ name: String) -> String {
                number == 1
                    ? catalog.format(.breathingPresetCopyName, ["name": name])
                    : catalog.format(.breathingPresetNumberedCopyName, ["name": name, "number": "\(number)"])
            }
            var candidate = copyName(name)
            let excess = candidate.count - TextInput.maximumNameLength
            if excess > 0 { candidate = copyName(String(name.prefix(max(0, name.count - excess - 1))) + "…") }
            if !taken.contains(folded(candidate)) { return candidate }
            number += 1
        }
    }
}
