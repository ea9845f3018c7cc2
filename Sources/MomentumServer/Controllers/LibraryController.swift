import Foundation
import Hummingbird
import MomentumCore
import MomentumServices

/// `/api/v1/library`: the guided meditation library — the list grouped by teacher, uploads
/// streamed to disk, the audio streamed with range requests, edits, teacher suggestions,
/// remembered positions and logging what was listened to. Items are answered in the shape of
/// `momentum library list --json`.
struct LibraryController {
    let library: LibraryService
    let settings: SettingsService
    let metrics: ServerMetrics
    let fileIO = FileIO()

    /// The upload route's path: its body is streamed to disk, so ``BodyLimitMiddleware`` leaves
    /// it alone and the library's own size limit applies.
    static let uploadPath = "/api/v1/library/upload"

    func addRoutes(to group: RouterGroup<BasicRequestContext>) {
        group.get(use: list)
        group.get("ambient", use: ambientBeds)
        group.get("suggestions", use: suggestions)
        group.post("upload", use: upload)
        group.get("{id}", use: show)
        group.patch("{id}", use: edit)
        group.delete("{id}", use: delete)
        group.get("{id}/audio", use: audio)
        group.put("{id}/position", use: savePosition)
        group.post("{id}/listened", use: listened)
    }

    // MARK: - Reading

    @Sendable func list(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<LibraryListJSON>
    {
        let catalog = try await catalog(for: request)
        let groups = try await library.groupedItems(locale: try locale(for: request, catalog: catalog))
        return JSONResponse(LibraryListJSON(groups, catalog: catalog))
    }

    struct Items: Encodable {
        var items: [LibraryItemJSON]
    }

    /// The items marked as ambient beds, by name: the meditation's own ambient choices.
    @Sendable func ambientBeds(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Items> {
        let catalog = try await catalog(for: request)
        let beds = try await library.ambientBeds(locale: try locale(for: request, catalog: catalog))
        return JSONResponse(Items(items: beds.map { LibraryItemJSON($0, catalog: catalog) }))
    }

    struct Suggestions: Encodable {
        var suggestions: [String]
    }

    @Sendable func suggestions(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<
        Suggestions
    > {
        let catalog = try await catalog(for: request)
        let text = request.uri.queryParameters["q"].map(String.init) ?? ""
        guard text.count <= LibraryText.maximumCharacters else {
            throw APIError.invalid(.apiQueryTooLong, ["maximum": "\(LibraryText.maximumCharacters)"])
        }
        return await JSONResponse(
            Suggestions(
                suggestions: try library.teacherSuggestions(
                    for: text, locale: try locale(for: request, catalog: catalog))))
    }

    @Sendable func show(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<LibraryItemJSON>
    {
        await JSONResponse(LibraryItemJSON(try item(context), catalog: try await catalog(for: request)))
    }

    /// The item's file with its MIME type, whole (200) or the one range asked for (206, 416).
    @Sendable func audio(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let item = try await item(context)
        var headers = HTTPFields()
        // The file under an id never changes; a new import gets a new id.
        headers[.cacheControl] = "private, max-age=31536000, immutable"
        return try await fileIO.rangedResponse(
            path: library.fileURL(for: item).path, contentType: item.format.mimeType, request: request,
            context: context, headers: headers)
    }

    // MARK: - Uploading

    struct UploadAnswer: Encodable {
        /// `imported` or `skipped`.
        var outcome: String
        /// The item added, or the one already holding the same bytes.
        var item: LibraryItemJSON
        /// What happened, in the person's language, naming the file.
        var message: String
    }

    /// `POST /upload?name=<original file name>` with the file's bytes as the body: streamed
    /// chunk by chunk into a staged import (never collected in memory), refused at once when its
    /// Content-Length is over the library's size limit and stopped when the bytes pass it.
    /// 201 imported, 200 skipped as a duplicate; a refused file leaves neither row nor file.
    @Sendable func upload(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let catalog = try await catalog(for: request)
        guard let name = request.uri.queryParameters["name"].map(String.init),
            !name.trimmingCharacters(in: .whitespaces).isEmpty
        else {
            throw APIError.badRequest(.errorLibraryUploadName, code: "missing_name")
        }
        let announced = request.headers[.contentLength].flatMap { Int64($0) }
        let staged = try library.beginImport(originalFileName: name, expectedByteCount: announced)
        let outcome = try await Self.receive(request.body, into: staged)
        let answer: UploadAnswer
        let status: HTTPResponse.Status
        switch outcome {
        case .imported(let item):
            status = .created
            answer = UploadAnswer(
                outcome: "imported", item: LibraryItemJSON(item, catalog: catalog),
                message: item.teacher == nil
                    ? catalog.format(.libraryUploadedNoTeacher, ["file": staged.fileName, "name": item.name])
                    : catalog.format(
                        .libraryUploaded,
                        ["file": staged.fileName, "name": item.name, "teacher": item.shownTeacher(catalog)]))
        case .duplicate(let fileName, let existing):
            status = .ok
            answer = UploadAnswer(
                outcome: "skipped", item: LibraryItemJSON(existing, catalog: catalog),
                // A plain sentence for the page: no id (the terminal's message has one to type).
                message: catalog.format(.libraryWebDuplicate, ["file": fileName, "name": existing.name]))
        }
        return try JSONResponse(answer, status: status).response(from: request, context: context)
    }

    /// Writes `body`'s chunks into `staged` and finishes it. Any error — the size limit passed,
    /// a failed write, the client gone (the body's sequence throws), the task cancelled —
    /// abandons the import, so nothing is left behind.
    static func receive<Body: AsyncSequence>(_ body: Body, into staged: LibraryStagedImport) async throws
        -> LibraryImportOutcome
    where Body.Element == ByteBuffer {
        do {
            for try await chunk in body {
                try Task.checkCancellation()
                try staged.write(Data(buffer: chunk, byteTransferStrategy: .noCopy))
            }
            return try await staged.finish()
        } catch {
            staged.abandon()
            throw error
        }
    }

    // MARK: - Changing

    /// `PATCH /{id}`: `teacher` and `name` (a string; `null` or `""` shows the original again)
    /// and `isAmbientBed`; fields left out stay. A refused value changes nothing.
    @Sendable func edit(_ request: Request, context: BasicRequestContext) async throws
        -> JSONResponse<LibraryItemJSON>
    {
        let catalog = try await catalog(for: request)
        var edited = try await item(context)
        let id = edited.id
        let changes = try await RequestBody.decode(ItemChanges.self, from: request)
        if changes.teacher != .keep || changes.name != .keep {
            edited = try await library.edit(id: id, teacher: changes.teacher, name: changes.name)
        }
        if let isAmbientBed = changes.isAmbientBed, isAmbientBed != edited.isAmbientBed {
            edited = try await library.setAmbientBed(id: id, isAmbientBed)
        }
        return JSONResponse(LibraryItemJSON(edited, catalog: catalog))
    }

    /// The body of an edit: each field present or not; `null` is "restore the original".
    struct ItemChanges: Decodable {
        var teacher = LibraryFieldEdit.keep
        var name = LibraryFieldEdit.keep
        var isAmbientBed: Bool?

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        static let known = ["teacher", "name", "isAmbientBed"]

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            if let unknown = container.allKeys.map(\.stringValue).sorted().first(where: { !Self.known.contains($0) }) {
                throw APIError.invalid(
                    .apiNoSuchField, ["field": unknown, "fields": Self.known.joined(separator: ", ")])
            }
            func field(_ name: String) throws -> LibraryFieldEdit {
                let key = Key(stringValue: name)
                guard container.contains(key) else { return .keep }
                if try container.decodeNil(forKey: key) { return .restoreOriginal }
                return .set(try container.decode(String.self, forKey: key))
            }
            teacher = try field("teacher")
            name = try field("name")
            isAmbientBed = try container.decodeIfPresent(Bool.self, forKey: Key(stringValue: "isAmbientBed"))
        }
    }

    @Sendable func delete(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await library.delete(id: try item(context).id)
        return Response(status: .noContent)
    }

    struct Position: Decodable {
        var positionMs: Int64
    }

    @Sendable func savePosition(_ request: Request, context: BasicRequestContext) async throws
        -> JSONResponse<LibraryItemJSON>
    {
        let catalog = try await catalog(for: request)
        let id = try await item(context).id
        let body = try await RequestBody.decode(Position.self, from: request)
        return await JSONResponse(
            LibraryItemJSON(try library.savePosition(id: id, .milliseconds(body.positionMs)), catalog: catalog))
    }

    struct Listened: Decodable {
        /// The time actually listened (not the position), in milliseconds.
        var listenedMs: Int64
        /// Whether the file played to its end.
        var finished: Bool
    }

    /// `POST /{id}/listened`: logs a guided session ending now when the core's rule says it
    /// counts (``GuidedListening``); answers whether it did.
    @Sendable func listened(_ request: Request, context: BasicRequestContext) async throws
        -> JSONResponse<ListenedAnswer>
    {
        let id = try await item(context).id
        let body = try await RequestBody.decode(Listened.self, from: request)
        let record = try await library.logListening(
            itemID: id, listened: .milliseconds(body.listenedMs), finished: body.finished)
        if let record { metrics.recordSessionLogged(kind: record.kind.rawValue) }
        let text = await EndingSentence.listening(
            .milliseconds(body.listenedMs), logged: record != nil, language: try catalog(for: request).language)
        return JSONResponse(ListenedAnswer(logged: record != nil, record: record, text: text))
    }

    // MARK: - Helpers

    private func item(_ context: BasicRequestContext) async throws -> LibraryItem {
        guard let text = context.parameters.get("id"), let id = UUID(uuidString: text) else {
            throw APIError.notFound(.apiNoLibraryItem)
        }
        return try await library.item(id: id)
    }

    private func catalog(for request: Request) async throws -> StringCatalog {
        .shared(for: try await LanguageChoice.language(for: request, settings: settings))
    }

    /// The locale to sort in: `?locale=` (a BCP 47 tag such as `de-DE`, what the browser's
    /// `navigator.language` says), else the first tag of `Accept-Language`, else the language.
    private func locale(for request: Request, catalog: StringCatalog) throws -> Locale {
        if let tag = request.uri.queryParameters["locale"].map(String.init) {
            guard let locale = Self.locale(tag: tag) else {
                throw APIError.invalid(.apiLocaleTag)
            }
            return locale
        }
        let accepted = request.headers[.acceptLanguage]?.split(separator: ",").first
            .flatMap { $0.split(separator: ";").first }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        if let accepted, let locale = Self.locale(tag: accepted),
            Language(localeIdentifier: accepted) == catalog.language
        {
            return locale
        }
        return catalog.language.locale
    }

    /// A locale for a tag of letters, digits, `-` and `_` (at most 35), else `nil`.
    static func locale(tag: String) -> Locale? {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_"))
        guard (2...35).contains(tag.count), tag.unicodeScalars.allSatisfy({ allowed.contains($0) && $0.isASCII })
        else { return nil }
        return Locale(identifier: tag.replacingOccurrences(of: "-", with: "_"))
    }
}

/// The answer to a report of listening (a guided session, a hands-free copy session): whether it
/// was logged (finished, or stopped after at least a minute), the record, and what it came to in
/// the request's language and in words (the core's ``EndingSentence/listening(_:logged:language:)``;
/// absent when under a second was heard).
struct ListenedAnswer: Encodable {
    var logged: Bool
    var record: PracticeRecord?
    var text: String?
}
