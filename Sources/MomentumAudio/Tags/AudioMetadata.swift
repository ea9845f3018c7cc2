/// What an audio file says about itself: its container, its tags and how long it plays.
///
/// Text fields are cleaned before they get here: NULs and control characters removed,
/// whitespace trimmed, several values of one field (ID3v2.4 allows them) joined with " / ", and
/// anything longer than ``TagText/maximumCharacters`` characters cut to that length rather than
/// rejected — a 10,000-character artist is a broken tagger, not a broken recording, and the
/// person can edit the name. An empty field is `nil`.
public struct AudioMetadata: Sendable, Equatable {
    /// The container, found from the file's bytes, never from its name.
    public enum Format: String, Sendable, Equatable, CaseIterable {
        case mp3
        case m4a
        case wav
    }

    public var format: Format
    public var artist: String?
    public var title: String?
    public var album: String?
    public var duration: Duration

    public init(format: Format, artist: String? = nil, title: String? = nil, album: String? = nil, duration: Duration) {
        self.format = format
        self.artist = artist
        self.title = title
        self.album = album
        self.duration = duration
    }

    init(format: Format, fields: TagFields, duration: Duration) {
        self.init(format: format, artist: fields.artist, title: fields.title, album: fields.album, duration: duration)
    }
}

/// The text fields one tag holds.
struct TagFields: Equatable, Sendable {
    var artist: String?
    var title: String?
    var album: String?

    /// These fields, each missing one taken from `other` (ID3v2 over ID3v1, per field).
    func filling(from other: TagFields) -> TagFields {
        TagFields(artist: artist ?? other.artist, title: title ?? other.title, album: album ?? other.album)
    }
}
