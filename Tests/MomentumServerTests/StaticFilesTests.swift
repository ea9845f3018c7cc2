import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumTestSupport
import Testing

@testable import MomentumServer

@Suite("Static files of the browser UI")
struct StaticFilesTests {
    @Test func thePublicFolderIsFoundBesideTheBinary() throws {
        let folder = try #require(StaticFiles.locate(environment: [:]))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("index.html").path))
    }

    @Test func theRootServesTheIndexAsHTMLThatIsRevalidated() async throws {
        let server = try TestServer()
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
        let server = try TestServer(publicDirectory: folder.url)
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
        let server = try TestServer(host: "0.0.0.0")
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
