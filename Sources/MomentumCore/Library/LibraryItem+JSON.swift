import Foundation

/// A library item as the terminal's `--json` and the web API write it: shown values first,
/// originals and edits beside them, times in milliseconds, instants as ISO 8601 in UTC.
public struct LibraryItemJSON: Codable, Sendable, Equatable {
    public var id: String
    /// The teacher shown; `null` when the file named none and the person gave none.
    public var teacher: String?
    /// The teacher as shown to the person: ``teacher`` or the localized "Unknown teacher".
    public var teacherLabel: String
    public var name: String
    public var album: String?
    public var originalTeacher: String?
    public var originalName: String
    public var editedTeacher: String?
    public var editedName: String?
    public var durationMs: Int64
    /// The length in words in the catalog's language ("3 s", "25 min 12 s"), what a page shows:
    /// never a clock. Optional only so older documents still read.
    public var lengthText: String?
    public var format: String
    public var mimeType: String
    public var fileName: String
    public var originalFileName: String
    public var byteSize: Int64
    public var sha256: String
    public var importedAt: String
    public var isAmbientBed: Bool
    public var positionMs: Int64

    public init(_ item: LibraryItem, catalog: StringCatalog) {
        id = item.id.uuidString.lowercased()
        teacher = item.teacher
        teacherLabel = item.shownTeacher(catalog)
        name = item.name
        album = item.originalAlbum
        originalTeacher = item.originalTeacher
        originalName = item.originalName
        editedTeacher = item.editedTeacher
        editedName = item.editedName
        durationMs = item.duration.wholeMilliseconds
        lengthText = DurationFormatting.words(item.duration, language: catalog.language)
        format = item.format.rawValue
        mimeType = item.format.mimeType
        fileName = item.fileName
        originalFileName = item.originalFileName
        byteSize = item.byteSize
        sha256 = item.contentHash
        importedAt = InstantText.format(item.importedAt)
        isAmbientBed = item.isAmbientBed
        positionMs = item.position.wholeMilliseconds
    }
}

/// The grouped library as JSON: `{"count": 3, "groups": [{"teacher": …, "teacherLabel": …,
/// "items": [LibraryItemJSON …]}]}`.
public struct LibraryListJSON: Codable, Sendable, Equatable {
    public struct Group: Codable, Sendable, Equatable {
        /// `null` for the group of items without a teacher.
        public var teacher: String?
        public var teacherLabel: String
        public var items: [LibraryItemJSON]
    }

    public var count: Int
    public var groups: [Group]

    public init(_ groups: [LibraryTeacherGroup], catalog: StringCatalog) {
        self.groups = groups.map { group in
            Group(
                teacher: group.teacher, teacherLabel: group.teacher ?? catalog[.libraryUnknownTeacher],
                items: group.items.map { LibraryItemJSON($0, catalog: catalog) })
        }
        count = groups.reduce(0) { $0 + $1.items.count }
    }
}
