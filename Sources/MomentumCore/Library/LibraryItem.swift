import Foundation

/// The containers the library keeps, named as the stored files' extensions.
public enum LibraryAudioFormat: String, Sendable, Codable, CaseIterable {
    case mp3
    case m4a
    case wav

    /// The stored file's extension.
    public var fileExtension: String { rawValue }

    /// The MIME type a browser needs to play the file.
    public var mimeType: String {
        switch self {
        case .mp3: "audio/mpeg"
        case .m4a: "audio/mp4"
        case .wav: "audio/wav"
        }
    }
}

/// One guided meditation in the library: what its tags said, what the person changed, and the
/// copied file it plays from.
///
/// The originals are never overwritten: the shown teacher and name are the person's edit when
/// there is one, else what the file said.
///
/// ```swift
/// item.name                    // "Body Scan" (or the edit)
/// item.shownTeacher(catalog)   // "Mara Lindqvist", or "Unknown teacher" when the file had none
/// ```
public struct LibraryItem: Sendable, Equatable, Identifiable {
    public var id: UUID
    /// The artist the file's tags named; `nil` when they named none.
    public var originalTeacher: String?
    /// The title the file's tags named, else its file name without the extension.
    public var originalName: String
    public var originalAlbum: String?
    /// The person's teacher, shown instead of the original; `nil` shows the original.
    public var editedTeacher: String?
    /// The person's name, shown instead of the original; `nil` shows the original.
    public var editedName: String?
    public var duration: Duration
    public var format: LibraryAudioFormat
    /// The copied file's name inside the library folder: always `<id>.<extension>`.
    public var fileName: String
    /// The name the file had when it was imported, cleaned of paths and control characters.
    public var originalFileName: String
    public var byteSize: Int64
    /// The SHA-256 of the file's bytes, lowercase hex: how duplicates are recognised.
    public var contentHash: String
    public var importedAt: Date
    /// Whether the person chose this file as an ambient sound for meditation.
    public var isAmbientBed: Bool
    /// Where the player left off; zero when never played or played to the end.
    public var position: Duration

    public init(
        id: UUID, originalTeacher: String?, originalName: String, originalAlbum: String?,
        editedTeacher: String? = nil, editedName: String? = nil, duration: Duration, format: LibraryAudioFormat,
        fileName: String, originalFileName: String, byteSize: Int64, contentHash: String, importedAt: Date,
        isAmbientBed: Bool = false, position: Duration = .zero
    ) {
        self.id = id
        self.originalTeacher = originalTeacher
        self.originalName = originalName
        self.originalAlbum = originalAlbum
        self.editedTeacher = editedTeacher
        self.editedName = editedName
        self.duration = duration
        self.format = format
        self.fileName = fileName
        self.originalFileName = originalFileName
        self.byteSize = byteSize
        self.contentHash = contentHash
        self.importedAt = importedAt
        self.isAmbientBed = isAmbientBed
        self.position = position
    }

    /// The teacher shown: the edit if present, else the original; `nil` when neither exists.
    public var teacher: String? { editedTeacher ?? originalTeacher }

    /// The name shown: the edit if present, else the original.
    public var name: String { editedName ?? originalName }

    /// The teacher shown, with a missing one as the catalog's "Unknown teacher".
    public func shownTeacher(_ catalog: StringCatalog) -> String {
        teacher ?? catalog[.libraryUnknownTeacher]
    }

    /// The stored file name for an item `id` in `format`: the only name a library file ever has.
    public static func storedFileName(id: UUID, format: LibraryAudioFormat) -> String {
        "\(id.uuidString.lowercased()).\(format.fileExtension)"
    }

    /// The id in short form, as the terminal shows it (the first 8 hex digits).
    public var shortID: String { String(id.uuidString.lowercased().prefix(8)) }
}
