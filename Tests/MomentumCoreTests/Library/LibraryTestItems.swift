import Foundation
import MomentumCore

/// Library items for the tests: only the fields a test is about differ.
enum LibraryTestItems {
    static let importedAt = Date(timeIntervalSince1970: 1_800_000_000)

    static func item(
        _ index: Int, teacher: String?, name: String, editedTeacher: String? = nil, editedName: String? = nil,
        duration: Duration = .seconds(600)
    ) -> LibraryItem {
        let id = UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", index)) ?? UUID()
        return LibraryItem(
            id: id, originalTeacher: teacher, originalName: name, originalAlbum: nil, editedTeacher: editedTeacher,
            editedName: editedName, duration: duration, format: .mp3,
            fileName: LibraryItem.storedFileName(id: id, format: .mp3), originalFileName: "\(name).mp3",
            byteSize: 1000, contentHash: String(repeating: "0", count: 64),
            importedAt: importedAt.addingTimeInterval(Double(index)))
    }

    static let german = Locale(identifier: "de_DE")
    static let french = Locale(identifier: "fr_FR")
    static let swedish = Locale(identifier: "sv_SE")
    static let english = Locale(identifier: "en_US")
}
