import Foundation
import Hummingbird
import MomentumCore
import MomentumServices
import MomentumStoreContract

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The whole backup on the web (see docs/backup.md): `GET /backup/summary` says what a backup
/// holds now and how large its archive is, `GET /backup` streams the archive, and a restore
/// goes in two steps so a large archive is uploaded once — `POST /restores` takes the file and
/// checks it completely (a dry run), `POST /restores/{id}/apply` restores it, `DELETE` drops it.
///
/// The checks, the restore and the sentences are the terminal's (``BackupService``,
/// ``BackupMessages``), in the request's language. Archives are written and uploads kept in a
/// folder of the data directory (``StagedRestores``), never in memory.
struct BackupController {
    let backup: BackupService
    let settings: SettingsService
    let libraryDirectory: URL
    let staged: StagedRestores
    /// The largest file `POST /restores` takes.
    let uploadLimit: Int64
    /// The largest JSON backup it takes (archives may be as large as ``uploadLimit``): what
    /// a restore reads whole (``BackupDocument/maximumBytes``), refused before it is on disk.
    let documentLimit: Int64
    let now: @Sendable () -> Date
    let makeID: @Sendable () -> UUID
    /// The zone of the person's day when settings name none (the file name's date).
    let timeZone: TimeZone

    /// The default for ``uploadLimit``: a whole library fits (each file up to the library's
    /// limit), a full disk does not.
    static let defaultUploadLimit: Int64 = 32 * 1024 * 1024 * 1024

    /// The upload route: its body is a file streamed to disk, so ``BodyLimitMiddleware`` leaves
    /// it alone and ``RequestGuardMiddleware`` takes archive and JSON types on it.
    static let uploadPath = "/api/v1/restores"

    init(
        services: MomentumServices, stagingFolder: URL, now: @escaping @Sendable () -> Date,
        makeID: @escaping @Sendable () -> UUID, timeZone: TimeZone, uploadLimit: Int64 = Self.defaultUploadLimit,
        documentLimit: Int64 = BackupDocument.maximumBytes
    ) {
        backup = services.backup
        settings = services.settings
        libraryDirectory = services.library.directory
        staged = StagedRestores(folder: stagingFolder)
        self.uploadLimit = uploadLimit
        self.documentLimit = min(documentLimit, uploadLimit)
        self.now = now
        self.makeID = makeID
        self.timeZone = timeZone
        staged.removeLeftovers()
    }

    func addRoutes(to group: RouterGroup<BasicRequestContext>) {
        group.get("backup/summary", use: summary)
        group.get("backup", use: download)
        group.post("restores", use: upload)
        group.post("restores/{id}/apply", use: apply)
        group.delete("restores/{id}", use: discard)
    }

    // MARK: - Backing up

    struct Summary: Encodable {
        /// Rows per kind (the keys of ``BackupKind``), kinds without rows left out.
        var counts: [String: Int]
        var audioBytes: Int64
        /// The archive's size in bytes, as `GET /backup` will send it.
        var archiveBytes: Int64
        /// ``archiveBytes`` for people ("12 MB").
        var archiveSize: String
        /// The name the download gets.
        var fileName: String
        /// What the backup holds and its size, in the request's language.
        var message: String
    }

    /// `GET /backup/summary`: what a backup holds now, and its archive's size — counted from the
    /// rows and the library files' sizes, nothing written.
    @Sendable func summary(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Summary> {
        let catalog = try await catalog(for: request)
        let read = await Self.result { () async throws(BackupFailure) in try await backup.document() }
        let document = try result(read, step: "summary", catalog: catalog, path: "", context: context)
        let libraryDirectory = libraryDirectory
        let counted = await Self.result { () async throws(BackupFailure) -> [ArchiveSize.Entry] in
            let data: Data
            do throws(BackupError) {
                data = try document.encoded()
            } catch {
                throw .backup(error)
            }
            var entries = [ArchiveSize.Entry(path: BackupArchiveLayout.documentPath, bytes: Int64(data.count))]
            for row in document.tables[BackupKind.library.rawValue] ?? [] {
                guard case .text(let fileName) = row["fileName"] ?? .null else { continue }
                let path = libraryDirectory.appendingPathComponent(fileName).path
                // As the archive would: a missing file is said (409); one that cannot be read is a
                // logged 500 naming it.
                let attributes: [FileAttributeKey: Any]
                do {
                    attributes = try FileManager.default.attributesOfItem(atPath: path)
                } catch {
                    let problem = FileProblem(error)
                    guard problem == .missing else { throw .backup(.cannotWrite(path: path, problem: problem)) }
                    throw .backup(.libraryFileMissing(fileName: fileName))
                }
                guard let size = attributes[.size] as? NSNumber else {
                    throw .backup(.libraryFileMissing(fileName: fileName))
                }
                entries.append(
                    ArchiveSize.Entry(path: BackupArchiveLayout.libraryFolder + fileName, bytes: size.int64Value))
            }
            return entries
        }
        let entries = try result(counted, step: "summary", catalog: catalog, path: "", context: context)
        let counts = document.tables.mapValues(\.count).filter { $0.value > 0 }
        let audioBytes = entries.dropFirst().reduce(0) { $0 + $1.bytes }
        let archiveBytes = ArchiveSize.bytes(of: entries)
        let size = ErrorMessages.byteSizeText(archiveBytes)
        return await JSONResponse(
            Summary(
                counts: counts, audioBytes: audioBytes, archiveBytes: archiveBytes, archiveSize: size,
                fileName: try fileName(),
                message: catalog.format(
                    .backupWebSummary,
                    [
                        "contents": BackupMessages.contents(counts, audioBytes: audioBytes, catalog: catalog),
                        "size": size,
                    ])
            ))
    }

    /// `GET /backup`: the archive, written into the staging folder and streamed from there. The
    /// file is unlinked as soon as it is open, so nothing is left behind however the download ends.
    @Sendable func download(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let catalog = try await catalog(for: request)
        let name = try await fileName()
        let url = try staged.makeURL(prefix: "download", id: makeID(), extension: "zip")
        let written = await Self.result { () async throws(BackupFailure) in try await backup.writeArchive(to: url) }
        defer { unlink(url.path) }
        _ = try result(written, step: "archive", catalog: catalog, path: name, context: context)
        let descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else {
            context.logger.error("backup archive vanished", metadata: ["errno": "\(errno)"])
            throw APIError.serverFault
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            _ = close(descriptor)
            throw APIError.serverFault
        }
        unlink(url.path)
        // A file read through a descriptor opened before it was unlinked, as a cached render.
        let file = CachedRender(descriptor: descriptor, byteCount: Int(status.st_size))
        var headers = HTTPFields()
        headers[.contentType] = "application/zip"
        headers[.contentLength] = "\(file.byteCount)"
        headers[.contentDisposition] = "attachment; filename=\"\(name)\""
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: file.body())
    }

    /// `momentum-backup-YYYY-MM-DD.zip`, the day the person's (settings' zone and day start).
    private func fileName() async throws -> String {
        let day = try await settings.load().progress.dayCalendar(systemTimeZone: timeZone).day(of: now())
        return "momentum-backup-\(day).zip"
    }

    // MARK: - Restoring

    struct Staged: Encodable {
        var id: UUID
        var expiresAt: Date
        var fileName: String
        var summary: RestoreSummary
        /// What the backup holds and what a restore would add and keep, in the request's language.
        var lines: [String]
    }

    struct Restored: Encodable {
        var summary: RestoreSummary
        var lines: [String]
    }

    /// `POST /restores?name=<file name>` with the backup as the body: streamed to the staging
    /// folder (refused at once when its Content-Length is over the limit, stopped when the bytes
    /// pass it), checked completely, and kept for an hour. 201 with what a restore would do; a
    /// refused file answers 422 with the terminal's sentence and is removed.
    @Sendable func upload(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let catalog = try await catalog(for: request)
        let name = Self.shownName(request.uri.queryParameters["name"].map(String.init), catalog: catalog)
        let tooLarge = APIError(
            .contentTooLarge, code: "backup_too_large", key: .backupWebTooLarge,
            arguments: ["limit": ErrorMessages.byteSizeText(uploadLimit)])
        let documentTooLarge = APIError(
            .contentTooLarge, code: "backup_too_large", key: .backupWebTooLarge,
            arguments: ["limit": ErrorMessages.byteSizeText(documentLimit)])
        let announced = request.headers[.contentLength].flatMap { Int64($0) }
        if let announced, announced > uploadLimit { throw tooLarge }
        let isJSON = request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true
        if isJSON, let announced, announced > documentLimit { throw documentTooLarge }
        let id = makeID()
        let url = try staged.makeURL(prefix: "restore", id: id, extension: "upload")
        do {
            try await Self.receive(
                request.body, into: url, limits: .init(archive: uploadLimit, document: documentLimit),
                tooLarge: (archive: tooLarge, document: documentTooLarge))
            let checked = await Self.result { () async throws(BackupFailure) in
                try await backup.restore(from: url, dryRun: true)
            }
            let summary = try result(checked, step: "restore check", catalog: catalog, path: name, context: context)
            let kept = StagedRestores.Staged(
                id: id, url: url, name: name, expires: now().addingTimeInterval(StagedRestores.lifetime))
            staged.keep(kept, now: now())
            scheduleExpiry()
            let answer = Staged(
                id: id, expiresAt: kept.expires, fileName: name, summary: summary,
                lines: BackupMessages.summary(summary, path: name, catalog: catalog))
            return try JSONResponse(answer, status: .created).response(from: request, context: context)
        } catch {
            staged.remove(url)
            throw error
        }
    }

    /// `POST /restores/{id}/apply`: restores the checked upload (checked again, all or nothing)
    /// and removes it. 404 for an unknown id, 410 for one that expired.
    @Sendable func apply(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Restored> {
        let catalog = try await catalog(for: request)
        let kept = try take(context, catalog: catalog)
        let restored = await Self.result { () async throws(BackupFailure) in
            try await backup.restore(from: kept.url, dryRun: false)
        }
        if case .failure(.store(.busy)) = restored {
            // Nothing happened and the same request works shortly: the upload stays.
            staged.putBack(kept, now: now())
        } else {
            staged.remove(kept.url)
        }
        let summary = try result(restored, step: "restore", catalog: catalog, path: kept.name, context: context)
        return JSONResponse(
            Restored(summary: summary, lines: BackupMessages.summary(summary, path: kept.name, catalog: catalog)))
    }

    /// `DELETE /restores/{id}`: drops the upload. 204; 404 or 410 as for apply.
    @Sendable func discard(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let kept = try take(context, catalog: try await catalog(for: request))
        staged.remove(kept.url)
        return Response(status: .noContent)
    }

    private func take(_ context: BasicRequestContext, catalog: StringCatalog) throws -> StagedRestores.Staged {
        let unknown = APIError(.notFound, code: "not_found", key: .backupWebUnknownUpload)
        guard let text = context.parameters.get("id"), let id = UUID(uuidString: text) else { throw unknown }
        switch staged.take(id, now: now()) {
        case .found(let kept): return kept
        case .expired: throw APIError(.gone, code: "restore_expired", key: .backupWebExpired)
        case .unknown: throw unknown
        }
    }

    /// Removes the upload once it has expired, even when no request comes to do it.
    private func scheduleExpiry() {
        let (staged, now) = (staged, now)
        Task.detached(priority: .background) {
            // try?: the sleep throws only when the task is cancelled, which nothing does; removing
            // what expired is right either way.
            try? await Task.sleep(for: .seconds(StagedRestores.lifetime + 1))
            staged.removeExpired(now: now())
        }
    }

    /// How large an upload may grow: an archive (it starts `PK`) or a JSON document (anything else).
    struct UploadLimits {
        var archive: Int64
        var document: Int64
    }

    /// Writes `body` into a new file at `url`, chunk by chunk; throws the matching `tooLarge` when
    /// it passes its kind's limit — known from its first two bytes, so a JSON document larger than
    /// a restore reads is refused as it comes, not once 32 GiB of it are on disk. The caller
    /// removes the file when this throws.
    static func receive<Body: AsyncSequence>(
        _ body: Body, into url: URL, limits: UploadLimits, tooLarge: (archive: APIError, document: APIError)
    ) async throws where Body.Element == ByteBuffer {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw APIError.serverFault
        }
        let handle = try FileHandle(forWritingTo: url)
        // try?: the bytes were synchronized to disk below before the file is used, or the upload
        // has failed and is removed; closing loses nothing either way.
        defer { try? handle.close() }
        var received: Int64 = 0
        var start: [UInt8] = []
        var limit = limits.archive
        var refusal = tooLarge.archive
        for try await chunk in body {
            try Task.checkCancellation()
            if start.count < 2 {
                start += chunk.readableBytesView.prefix(2 - start.count)
                if start.count == 2, start != [0x50, 0x4B] {
                    limit = min(limits.archive, limits.document)
                    refusal = tooLarge.document
                }
            }
            received += Int64(chunk.readableBytes)
            guard received <= limit else { throw refusal }
            try handle.write(contentsOf: Data(buffer: chunk, byteTransferStrategy: .noCopy))
        }
        try handle.synchronize()
    }

    // MARK: - Helpers

    /// The value, or the failure as an answer: a refused backup is a 422 with the terminal's
    /// sentence (and "Nothing was changed."), a busy database a 503, a broken disk a logged 500.
    private func result<Value>(
        _ outcome: Result<Value, BackupFailure>, step: String, catalog: StringCatalog, path: String,
        context: BasicRequestContext
    ) throws -> Value {
        switch outcome {
        case .success(let value):
            return value
        case .failure(.store(let store)):
            throw ServiceErrorMapping.apiError(for: store, logger: context.logger)
        case .failure(.backup(.cannotWrite(let target, let problem))):
            // The path is the server's own: it goes to the log only.
            // `step` says which: the summary and a restore read files, the archive writes one.
            context.logger.error(
                "backup file could not be used",
                metadata: ["step": "\(step)", "path": "\(target)", "problem": "\(problem)"])
            throw APIError.serverFault
        case .failure(.backup(.libraryFileMissing(let file))):
            throw APIError(.conflict, code: "library_file_missing") { catalog in
                BackupMessages.message(for: .libraryFileMissing(fileName: file), path: path, catalog: catalog)
            }
        case .failure(let failure):
            throw APIError(.unprocessableContent, code: "backup_refused") { catalog in
                BackupMessages.message(for: failure, path: path, catalog: catalog) + " "
                    + catalog[.errorBackupUnchanged]
            }
        }
    }

    /// The file's name as the messages show it: its last component, without control characters,
    /// at most 200 characters; the catalog's "the uploaded file" when there is none.
    static func shownName(_ given: String?, catalog: StringCatalog) -> String {
        let last = (given ?? "").split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let cleaned = String(
            String.UnicodeScalarView(last.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) })
        ).trimmingCharacters(in: .whitespaces)
        guard !cleaned.isEmpty else { return catalog[.backupWebUploadedFile] }
        return cleaned.count > 200 ? String(cleaned.prefix(200)) + "…" : cleaned
    }

    private func catalog(for request: Request) async throws -> StringCatalog {
        .shared(for: try await LanguageChoice.language(for: request, settings: settings))
    }
}
