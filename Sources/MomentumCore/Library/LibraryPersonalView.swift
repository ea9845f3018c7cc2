import Foundation

/// One person's own view of an item of the household's library (docs/people.md): the audio file
/// and its list entry are the household's, while each person edits teacher and name for
/// themselves, chooses their own ambient beds and has their own place in every meditation.
///
/// ```swift
/// let mine = LibraryPersonalView(itemID: item.id, position: .seconds(312))
/// item.seen(through: mine).position      // 312 s; the next person starts at 0
/// ```
public struct LibraryPersonalView: Sendable, Equatable {
    public var itemID: UUID
    /// Whether the person edited teacher and name: then theirs show (`nil`: the original).
    public var hasEdits: Bool
    public var editedTeacher: String?
    public var editedName: String?
    /// The person's choice of the item as an ambient bed; `nil`: the household's.
    public var isAmbientBed: Bool?
    /// Where this person's player left off.
    public var position: Duration

    public init(
        itemID: UUID, hasEdits: Bool = false, editedTeacher: String? = nil, editedName: String? = nil,
        isAmbientBed: Bool? = nil, position: Duration = .zero
    ) {
        self.itemID = itemID
        self.hasEdits = hasEdits
        self.editedTeacher = editedTeacher
        self.editedName = editedName
        self.isAmbientBed = isAmbientBed
        self.position = position
    }
}

extension LibraryItem {
    /// The item as one person sees it: the household's entry with their own edits of teacher and
    /// name, their ambient choice, and their own place (from the start without one: another
    /// person's place is never theirs).
    public func seen(through view: LibraryPersonalView?) -> LibraryItem {
        var seen = self
        seen.position = view?.position ?? .zero
        guard let view else { return seen }
        if view.hasEdits {
            seen.editedTeacher = view.editedTeacher
            seen.editedName = view.editedName
        }
        if let isAmbientBed = view.isAmbientBed { seen.isAmbientBed = isAmbientBed }
        return seen
    }
}
