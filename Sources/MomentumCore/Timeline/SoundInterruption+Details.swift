extension SoundInterruption {
    /// The key of ``PracticeRecord/details`` under which a record keeps its interruptions.
    public static let detailsKey = "soundInterruptions"

    /// The interruptions as a record's details keep them: each offset and length in whole
    /// milliseconds, `"751000+4000,1200000+2500"`. Twenty of ten hours each fit in 360 characters.
    public static func detailsText(_ interruptions: [SoundInterruption]) -> String {
        interruptions.map { "\($0.offset.wholeMilliseconds)+\($0.length.wholeMilliseconds)" }
            .joined(separator: ",")
    }

    /// The interruptions worth telling in a details text written by ``detailsText(_:)``.
    ///
    /// Details come from outside too (a record edited by hand, a backup, another device), so any
    /// text is read: one that is not entirely such a list yields no interruptions.
    public static func parsing(detailsText text: String) -> [SoundInterruption] {
        guard !text.isEmpty, text.utf8.count <= longestDetailsText else { return [] }
        var interruptions: [SoundInterruption] = []
        for entry in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = entry.split(separator: "+", omittingEmptySubsequences: false)
            guard parts.count == 2, let offset = milliseconds(parts[0]), let length = milliseconds(parts[1]),
                // try?: an entry out of bounds makes the text not ours: no interruptions are told, as
                // documented above; the details text itself stays in the record untouched.
                let interruption = try? SoundInterruption(offsetMilliseconds: offset, lengthMilliseconds: length)
            else { return [] }
            interruptions.append(interruption)
        }
        return worthTelling(interruptions)
    }

    /// Room for ``mostKept`` of the longest, with some to spare; longer texts are not ours.
    static let longestDetailsText = 1_000

    /// Digits only: `Int64("+5")` and `Int64("-5")` would read a sign.
    private static func milliseconds(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return nil
        }
        return Int64(text)
    }
}

extension PracticeRecord {
    /// The sound interruptions worth telling that the practice was logged with; none when its
    /// details hold none or an unreadable text.
    public var soundInterruptions: [SoundInterruption] {
        details[SoundInterruption.detailsKey].map { SoundInterruption.parsing(detailsText: $0) } ?? []
    }
}
