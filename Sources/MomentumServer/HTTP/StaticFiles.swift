import Foundation
import Hummingbird

/// The browser UI's files from the `Public` folder, for every GET that no route answers.
///
/// The folder is copied beside the binary by SwiftPM (`Momentum_MomentumServer.resources/Public`),
/// which `swift run` and a release binary shipped with its resources folder both find; the
/// `MOMENTUM_PUBLIC_DIR` variable points elsewhere (a packager's layout, or the UI author's
/// working copy). API paths never reach the file system; unknown files are JSON 404s.
public enum StaticFiles {
    static let resourceBundleName = "Momentum_MomentumServer"

    /// The first folder that exists: `$MOMENTUM_PUBLIC_DIR`, then the resources beside the binary.
    /// Unlike SwiftPM's `Bundle.module`, a missing folder does not stop the program: the API still
    /// works, and `/` answers 404.
    public static func locate(environment: [String: String]) -> URL? {
        var candidates: [URL] = []
        if let explicit = environment["MOMENTUM_PUBLIC_DIR"], !explicit.isEmpty {
            candidates.append(URL(fileURLWithPath: explicit, isDirectory: true))
        }
        let beside = [Bundle.main.bundleURL, Bundle.main.executableURL?.deletingLastPathComponent()].compactMap { $0 }
        for folder in beside {
            candidates.append(
                folder.appendingPathComponent("\(resourceBundleName).resources/Public", isDirectory: true))
            candidates.append(
                folder.appendingPathComponent(
                    "\(resourceBundleName).bundle/Contents/Resources/Public", isDirectory: true))
            candidates.append(folder.appendingPathComponent("\(resourceBundleName).bundle/Public", isDirectory: true))
        }
        return candidates.first { url in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && isFolder.boolValue
        }
    }

    /// HTML is revalidated every time (a new UI shows at once); other files for an hour, with
    /// ETags and Last-Modified from the file middleware.
    static let cacheControl = CacheControl([
        (MediaType(type: .text, subType: "html"), [.noCache]),
        (MediaType(type: .any), [.public, .maxAge(3600)]),
    ])
}

/// Serves the UI's static files for GET and HEAD requests outside `/api`.
struct StaticFilesMiddleware<Context: RequestContext>: RouterMiddleware {
    let files: FileMiddleware<Context, LocalFileSystem>?

    init(folder: URL?) {
        files = folder.map {
            FileMiddleware($0.path, cacheControl: StaticFiles.cacheControl, searchForIndexHtml: true)
        }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        guard let files, !RoutedPaths.isRouted(request.uri.path) else {
            return try await next(request, context)
        }
        return try await files.handle(request, context: context, next: next)
    }
}
