import Foundation
import Hummingbird

/// The browser UI's files, for every GET that no route answers.
///
/// They are built into the binary (`EmbeddedWebApp`, made from the `Public` folder by the
/// EmbedWebApp build plugin), so `momentum` serves its web app wherever it is copied. The
/// `MOMENTUM_PUBLIC_DIR` variable serves a folder instead (the UI author's working copy, so a
/// changed script shows without a rebuild). API paths never reach the files; unknown files are
/// JSON 404s.
public enum StaticFiles {
    /// `$MOMENTUM_PUBLIC_DIR` when set; `nil` serves the built-in files. A value that names no
    /// folder with an `index.html` is refused rather than passed over: whoever set it expects
    /// their folder to be served.
    public static func locate(environment: [String: String]) throws(MissingWebApp) -> URL? {
        guard let explicit = environment["MOMENTUM_PUBLIC_DIR"], !explicit.isEmpty else { return nil }
        let url = URL(fileURLWithPath: explicit, isDirectory: true)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue,
            FileManager.default.isReadableFile(atPath: url.appendingPathComponent("index.html").path)
        else { throw MissingWebApp(path: explicit) }
        return url
    }

    /// `$MOMENTUM_PUBLIC_DIR` names no folder holding the web app.
    public struct MissingWebApp: Error, Equatable {
        public var path: String
    }

    /// HTML is revalidated every time (a new UI shows at once); other files for an hour, with
    /// ETags and Last-Modified from the file middleware.
    static let cacheControl = CacheControl([
        (MediaType(type: .text, subType: "html"), [.noCache]),
        (MediaType(type: .any), [.public, .maxAge(3600)]),
    ])
}

/// Serves the UI's static files for GET and HEAD requests outside `/api`: a folder's, or the
/// built-in ones.
struct StaticFilesMiddleware<Context: RequestContext>: RouterMiddleware {
    private enum Files: Sendable {
        case folder(FileMiddleware<Context, LocalFileSystem>)
        case embedded(FileMiddleware<Context, EmbeddedFiles>)
    }

    private let files: Files

    init(folder: URL?) {
        if let folder {
            files = .folder(
                FileMiddleware(folder.path, cacheControl: StaticFiles.cacheControl, searchForIndexHtml: true))
        } else {
            files = .embedded(
                FileMiddleware(
                    fileProvider: EmbeddedFiles.shared, cacheControl: StaticFiles.cacheControl,
                    searchForIndexHtml: true))
        }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        guard !RoutedPaths.isRouted(request.uri.path) else {
            return try await next(request, context)
        }
        switch files {
        case .folder(let middleware): return try await middleware.handle(request, context: context, next: next)
        case .embedded(let middleware): return try await middleware.handle(request, context: context, next: next)
        }
    }
}

/// The web app built into the binary, as Hummingbird's file middleware reads files: a path is a
/// file of `EmbeddedWebApp`, or a folder when files lie under it. Every file dates from when
/// the program started (so a new build is fetched anew; HTML is revalidated every time anyway).
struct EmbeddedFiles: FileProvider {
    struct FileAttributes: FileMiddlewareFileAttributes, Sendable {
        var isFolder: Bool
        var size: Int
        var modificationDate: Date
    }

    static let shared = EmbeddedFiles(base64: EmbeddedWebApp.files, started: Date())

    private let files: [String: [UInt8]]
    private let folders: Set<String>
    private let started: Date

    init(base64: [String: String], started: Date) {
        var files: [String: [UInt8]] = [:]
        var folders: Set<String> = ["/"]
        for (path, text) in base64 {
            guard let data = Data(base64Encoded: text) else { continue }
            files[path] = [UInt8](data)
            var parent = path
            while let slash = parent.lastIndex(of: "/"), slash != parent.startIndex {
                parent = String(parent[..<slash])
                folders.insert(parent)
            }
        }
        self.files = files
        self.folders = folders
        self.started = started
    }

    /// The path without a trailing slash ("/" stays): how files and folders are keyed.
    func getFileIdentifier(_ path: String) -> String? {
        var key = path.hasPrefix("/") ? path : "/" + path
        while key.count > 1, key.hasSuffix("/") { key.removeLast() }
        return key
    }

    func getAttributes(id: String) async throws -> FileAttributes? {
        if let bytes = files[id] {
            return FileAttributes(isFolder: false, size: bytes.count, modificationDate: started)
        }
        if folders.contains(id) { return FileAttributes(isFolder: true, size: 0, modificationDate: started) }
        return nil
    }

    func loadFile(id: String, context: some RequestContext) async throws -> ResponseBody {
        guard let bytes = files[id] else { throw HTTPError(.notFound) }
        return ResponseBody(byteBuffer: ByteBuffer(bytes: bytes))
    }

    func loadFile(id: String, range: ClosedRange<Int>, context: some RequestContext) async throws -> ResponseBody {
        guard let bytes = files[id], range.lowerBound >= 0, range.upperBound < bytes.count else {
            throw HTTPError(.rangeNotSatisfiable)
        }
        return ResponseBody(byteBuffer: ByteBuffer(bytes: bytes[range]))
    }
}
