/// A key of the string catalogs.
///
/// The keys are declared by area in `Keys/StringKey+<Area>.swift` (`StringKey.phaseCountdown`,
/// `.errorUnexpected` …). A test reads those declarations and checks that each key exists in every
/// language and that the catalogs hold no key missing there.
public struct StringKey: RawRepresentable, Hashable, Sendable {
    public let rawValue: String

    /// The key named `rawValue` when the catalogs hold it (keys chosen at run time: an exercise's
    /// name, a backup kind), else nil.
    public init?(rawValue: String) {
        guard StringCatalog.shared(for: .english).strings[rawValue] != nil else { return nil }
        self.rawValue = rawValue
    }

    init(_ rawValue: String) {
        self.rawValue = rawValue
    }
}

extension StringKey: CustomStringConvertible {
    public var description: String { rawValue }
}
