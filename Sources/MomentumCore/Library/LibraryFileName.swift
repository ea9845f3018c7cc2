/// What an imported file's own name may be used for: a default title and a label, never a path.
///
/// The stored file is always `<id>.<extension>`; the name the person's file had only supplies
/// the title when its tags have none. So `../../etc/passwd.mp3` is cut to `passwd.mp3`, control
/// characters and direction controls are dropped, and the result is never longer than ``maximumCharacters``.
public enum LibraryFileName {
    /// The longest kept name, as long as the longest tag text the readers keep.
    public static let maximumCharacters = 200

    /// The name shown when a file's name is empty after cleaning.
    public static let fallback = "audio"

    /// `name`'s last path component (after `/` or `\`), without the characters names refuse
    /// (``TextInput``), trimmed, cut to ``maximumCharacters``; ``fallback`` when nothing is left.
    ///
    /// ```swift
    /// LibraryFileName.sanitized("../../etc/passwd.mp3")  // "passwd.mp3"
    /// ```
    public static func sanitized(_ name: String) -> String {
        let lastComponent = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let visible = String(lastComponent.unicodeScalars.filter { !LibraryText.isRefused($0) })
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let cut = String(visible.prefix(maximumCharacters))
        // ".." or "." alone are not names.
        guard !cut.isEmpty, cut.contains(where: { $0 != "." }) else { return fallback }
        return cut
    }

    /// The title for a file whose tags name none: its cleaned name without the extension.
    ///
    /// ```swift
    /// LibraryFileName.defaultTitle(for: "Body Scan.final.mp3")  // "Body Scan.final"
    /// LibraryFileName.defaultTitle(for: ".mp3")                  // ".mp3"
    /// ```
    public static func defaultTitle(for fileName: String) -> String {
        let name = sanitized(fileName)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        let stem = name[..<dot].trimmingCharacters(in: .whitespaces)
        return stem.isEmpty ? name : stem
    }
}
