/// Which way a Morse session trains: hearing and typing, or keying.
public enum MorseDirection: String, Sendable, Hashable, Codable, CaseIterable {
    /// A character plays; the person types what they heard.
    case receive
    /// A character is shown; the person keys it.
    case send
}
