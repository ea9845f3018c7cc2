import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumTestSupport
import Testing

@testable import MomentumServer

/// The web app's source folder, `Sources/MomentumServer/Public`, which the binary embeds.
enum PublicFolder {
    static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/MomentumServer/Public", isDirectory: true)
}

@Suite("Static files of the browser UI")
struct StaticFilesTests {
    /// The binary carries every file of the folder, byte for byte, and nothing else.
    @Test func theBinaryCarriesEveryFileOfThePublicFolder() throws {
        var onDisk: [String: Data] = [:]
        let walk = try #require(
            FileManager.default.enumerator(at: PublicFolder.url, includingPropertiesForKeys: [.isRegularFileKey]))
        for case let url as URL in walk
        where (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
            let path = String(url.standardizedFileURL.path.dropFirst(PublicFolder.url.standardizedFileURL.path.count))
            onDisk[path.hasPrefix("/") ? path : "/" + path] = try Data(contentsOf: url)
        }
        #expect(onDisk["/index.html"] != nil)
        #expect(Set(EmbeddedWebApp.files.keys) == Set(onDisk.keys))
        for (path, text) in EmbeddedWebApp.files {
            #expect(Data(base64Encoded: text) == onDisk[path], "\(path)")
        }
    }

    /// Only `MOMENTUM_PUBLIC_DIR` serves a folder (a UI author's working copy); else the built-in files.
    @Test func aFolderIsServedOnlyWhenMomentumPublicDirNamesOne() throws {
        #expect(try StaticFiles.locate(environment: [:]) == nil)
        #expect(throws: StaticFiles.MissingWebApp(path: "/no/such/folder")) {
            try StaticFiles.locate(environment: ["MOMENTUM_PUBLIC_DIR": "/no/such/folder"])
        }
        // A folder, but not the web app's: refused as well.
        #expect(throws: StaticFiles.MissingWebApp(path: "/tmp")) {
            try StaticFiles.locate(environment: ["MOMENTUM_PUBLIC_DIR": "/tmp"])
        }
        #expect(
            try StaticFiles.locate(environment: ["MOMENTUM_PUBLIC_DIR": PublicFolder.url.path])?.path
                == PublicFolder.url.path)
    }

    @Test func theRootServesTheIndexAsHTMLThatIsRevalidated() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let response = try await client.send(.get, "/")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(response.headers[.cacheControl] == "no-cache")
            #expect(response.headers[.eTag] != nil)
            #expect(response.text.contains("Momentum"))
            #expect(response.headers[.contentSecurityPolicy] == SecurityHeaders.contentSecurityPolicy)
            let css = try await client.send(.get, "/app.css")
            #expect(css.headers[.contentType]?.hasPrefix("text/css") == true)
            #expect(css.headers[.cacheControl] == "public, max-age=3600")
        }
    }

    @Test func unknownFilesAndAPIPathsAreJSON404sNotFiles() async throws {
        let folder = try TemporaryDirectory()
        try Data("secret".utf8).write(to: folder.file("index.html"))
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("api/v1"), withIntermediateDirectories: true)
        try Data("file-content".utf8).write(to: folder.url.appendingPathComponent("api/v1/shadow.txt"))
        let server = try await TestServer(publicDirectory: folder.url)
        try await server.test { client in
            let missing = try await client.send(.get, "/no-such-page")
            #expect(missing.status == .notFound)
            #expect(missing.errorCode == "not_found")
            let shadowed = try await client.send(.get, "/api/v1/shadow.txt")
            #expect(shadowed.status == .notFound)
            #expect(!shadowed.text.contains("file-content"))
            let traversal = try await client.send(.get, "/..%2findex.html")
            #expect(traversal.status == .badRequest)
        }
    }

    @Test func offLoopbackTheUIFilesStayOpenSoTheLoginPageLoads() async throws {
        let server = try await TestServer(host: "0.0.0.0")
        try await server.test { client in
            let response = try await client.send(.get, "/")
            #expect(response.status == .ok)
            let login = try await client.send(.get, "/login.html")
            #expect(login.status == .ok)
            #expect(login.text.contains("login-token"))
            // The login page speaks from the catalog; the rest of the API stays closed.
            #expect(try await client.send(.get, "/api/v1/catalog?lang=de").status == .ok)
            #expect(try await client.send(.get, "/api/v1/ambient").status == .unauthorized)
            #expect(try await client.send(.get, "/api/v1/catalogue").status == .notFound)
        }
    }
}
