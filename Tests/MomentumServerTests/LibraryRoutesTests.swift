import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumCore
import MomentumServices
import MomentumTestSupport
import Testing

@testable import MomentumServer

@Suite("The guided meditation library over HTTP: uploads, the list, audio ranges, edits and listening")
struct LibraryRoutesTests {
    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: SharedAudioFixtures.url(name))
    }

    /// Every file in the library folder, hidden ones (staged imports) included.
    static func libraryFiles(_ server: TestServer) -> [String] { libraryFiles(server.services.library.directory) }

    static func libraryFiles(_ folder: URL) -> [String] {
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    static func upload(
        _ client: some TestClientProtocol, _ data: Data, name: String, language: String = "en"
    ) async throws -> TestResponse {
        var headers = HTTPFields()
        headers[.acceptLanguage] = language
        headers[.contentType] = "application/octet-stream"
        let query = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name
        return try await client.execute(
            uri: "/api/v1/library/upload?name=\(query)", method: .post, headers: headers,
            body: ByteBuffer(bytes: data))
    }

    static func item(_ response: TestResponse) throws -> [String: Any] {
        try #require(try response.object["item"] as? [String: Any])
    }

    @Test func anUploadedFixtureIsImportedAndListedUnderItsTeacher() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let response = try await Self.upload(
                client, try Self.fixture("id3v23-latin1.mp3"), name: "id3v23-latin1.mp3")
            #expect(response.status == .created, "\(response.text)")
            #expect(try response.object["outcome"] as? String == "imported")
            let item = try Self.item(response)
            #expect(item["teacher"] as? String == "Mara Lindqvist")
            #expect(item["name"] as? String == "Body Scan")
            #expect(item["album"] as? String == "Evening Practice")
            #expect(item["originalFileName"] as? String == "id3v23-latin1.mp3")
            #expect(abs((item["durationMs"] as? Int ?? 0) - 3030) <= 100)
            #expect(item["lengthText"] as? String == "3 s")
            #expect((try response.object["message"] as? String)?.contains("id3v23-latin1.mp3") == true)

            _ = try await Self.upload(client, try Self.fixture("no-tags.mp3"), name: "no-tags.mp3")
            let list = try await client.send(.get, "/api/v1/library?lang=de&locale=de-DE")
            #expect(list.status == .ok)
            #expect(try list.object["count"] as? Int == 2)
            let groups = try #require(try list.object["groups"] as? [[String: Any]])
            #expect(groups.map { $0["teacherLabel"] as? String } == ["Mara Lindqvist", "Unbekannte Lehrperson"])
            let names = (groups[0]["items"] as? [[String: Any]])?.map { $0["name"] as? String }
            #expect(names == ["Body Scan"])

            let one = try await client.send(.get, "/api/v1/library/\(item["id"] as? String ?? "")")
            #expect(one.status == .ok)
            #expect(try one.object["sha256"] as? String == item["sha256"] as? String)
        }
        #expect(Self.libraryFiles(server).count == 2)
    }

    @Test func theSameBytesAgainAreSkippedAsADuplicateInThePersonsLanguage() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let data = try Self.fixture("tagged.m4a")
            let first = try await Self.upload(client, data, name: "tagged.m4a")
            #expect(first.status == .created)
            let again = try await Self.upload(client, data, name: "copy of tagged.m4a", language: "de")
            #expect(again.status == .ok, "\(again.text)")
            #expect(try again.object["outcome"] as? String == "skipped")
            #expect(try Self.item(again)["id"] as? String == (try Self.item(first)["id"] as? String))
            let message = try #require(try again.object["message"] as? String)
            #expect(message.contains("„copy of tagged.m4a“ ist schon in deiner Bibliothek"), "\(message)")
            #expect(!message.contains(String((try Self.item(first)["id"] as? String ?? "").prefix(8))), "\(message)")
        }
        #expect(Self.libraryFiles(server).count == 1)
        await #expect(try server.services.library.items().count == 1)
    }

    @Test(arguments: ["not-audio.mp3", "truncated.mp3"])
    func aFileThatIsNotAudioIsRefusedByNameAndLeavesNothing(file: String) async throws {
        let server = try await TestServer()
        try await server.test { client in
            let response = try await Self.upload(client, try Self.fixture(file), name: file)
            #expect(response.status == .unprocessableContent, "\(response.text)")
            #expect(response.errorCode == "not_audio")
            #expect(response.errorMessage?.contains("“\(file)”") == true, "\(response.errorMessage ?? "")")
        }
        await #expect(try server.services.library.items().isEmpty)
        #expect(Self.libraryFiles(server) == [])
    }

    @Test func anUploadOverTheLimitIsRefusedBeforeAByteIsWrittenAndLeavesNothing() async throws {
        let server = try await TestServer(librarySizeLimit: 10_000)
        try await server.test { client in
            let response = try await Self.upload(client, try Self.fixture("id3v23-latin1.mp3"), name: "Body Scan.mp3")
            #expect(response.status == .contentTooLarge, "\(response.text)")
            #expect(response.errorCode == "file_too_large")
            #expect(response.errorMessage?.contains("“Body Scan.mp3”") == true)
        }
        await #expect(try server.services.library.items().isEmpty)
        #expect(Self.libraryFiles(server) == [])
    }

    /// A body that never announced its length is stopped where it passes the limit.
    @Test func aStreamedBodyIsStoppedAtTheLimitAndLeavesNothing() async throws {
        let server = try await TestServer(librarySizeLimit: 10_000)
        let staged = try server.services.library.beginImport(originalFileName: "endless.mp3")
        let chunks = AsyncStream<ByteBuffer> { continuation in
            for _ in 0..<50 { continuation.yield(ByteBuffer(repeating: 0xFF, count: 1_000)) }
            continuation.finish()
        }
        await #expect(throws: LibraryImportError.tooLarge(fileName: "endless.mp3", limit: 10_000)) {
            try await LibraryController.receive(chunks, into: staged)
        }
        #expect(Self.libraryFiles(server) == [])
    }

    struct Disconnected: Error {}

    /// The client going away mid-upload (the body's sequence throws) abandons the import.
    @Test func anUploadCutOffByTheClientLeavesNothing() async throws {
        let server = try await TestServer()
        let staged = try server.services.library.beginImport(originalFileName: "half.mp3")
        let data = try Self.fixture("id3v23-latin1.mp3")
        let chunks = AsyncThrowingStream<ByteBuffer, any Error> { continuation in
            continuation.yield(ByteBuffer(bytes: data.prefix(8_000)))
            continuation.finish(throwing: Disconnected())
        }
        await #expect(throws: Disconnected.self) {
            try await LibraryController.receive(chunks, into: staged)
        }
        #expect(Self.libraryFiles(server) == [])
        await #expect(try server.services.library.items().isEmpty)
    }

    @Test func aFileNameWithAPathNeverReachesTheFileSystem() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let response = try await Self.upload(
                client, try Self.fixture("id3v23-latin1.mp3"), name: "../../etc/passwd.mp3")
            #expect(response.status == .created, "\(response.text)")
            let item = try Self.item(response)
            #expect(item["originalFileName"] as? String == "passwd.mp3")
            #expect((item["fileName"] as? String)?.hasSuffix(".mp3") == true)
            #expect((item["fileName"] as? String)?.contains("/") == false)

            let missing = try await client.send(.post, "/api/v1/library/upload")
            #expect(missing.status == .badRequest)
            #expect(missing.errorCode == "missing_name")
        }
        #expect(Self.libraryFiles(server).count == 1)
        let parent = server.configuration.dataDirectory.deletingLastPathComponent()
        #expect(!FileManager.default.fileExists(atPath: parent.appendingPathComponent("etc/passwd.mp3").path))
    }

    @Test func theAudioIsStreamedWithRangeRequests() async throws {
        let server = try await TestServer()
        let data = try Self.fixture("vbr-xing.mp3")
        try await server.test { client in
            let uploaded = try await Self.upload(client, data, name: "vbr-xing.mp3")
            let id = try #require(try Self.item(uploaded)["id"] as? String)
            let uri = "/api/v1/library/\(id)/audio"
            let size = data.count

            let whole = try await client.send(.get, uri)
            #expect(whole.status == .ok)
            #expect(whole.headers[.contentType] == "audio/mpeg")
            #expect(whole.headers[.acceptRanges] == "bytes")
            #expect(Data(buffer: whole.body) == data)

            func ranged(_ range: String) async throws -> TestResponse {
                var headers = HTTPFields()
                headers[.range] = range
                return try await client.send(.get, uri, headers: headers)
            }
            let cases: [(String, Range<Int>)] = [
                ("bytes=0-99", 0..<100),
                ("bytes=1000-1999", 1000..<2000),
                ("bytes=-500", (size - 500)..<size),
                ("bytes=\(size - 10)-", (size - 10)..<size),
            ]
            for (header, range) in cases {
                let response = try await ranged(header)
                #expect(response.status == .partialContent, "\(header)")
                #expect(
                    response.headers[.contentRange] == "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(size)",
                    "\(header)")
                #expect(response.headers[.contentType] == "audio/mpeg")
                #expect(Data(buffer: response.body) == data.subdata(in: range), "\(header)")
            }
            let beyond = try await ranged("bytes=\(size)-\(size + 100)")
            #expect(beyond.status == .rangeNotSatisfiable)
            #expect(beyond.headers[.contentRange] == "bytes */\(size)")

            let unknown = try await client.send(.get, "/api/v1/library/00000000-0000-0000-0000-00000000ffff/audio")
            #expect(unknown.status == .notFound)
        }
    }

    @Test func editsShowTheEditAndNullOrEmptyRestoresTheOriginal() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let uploaded = try await Self.upload(client, try Self.fixture("id3v23-latin1.mp3"), name: "a.mp3")
            let id = try #require(try Self.item(uploaded)["id"] as? String)
            let uri = "/api/v1/library/\(id)"

            let edited = try await client.send(
                .patch, uri, json: #"{"name": "Evening Body Scan", "teacher": "Mara L.", "isAmbientBed": true}"#)
            #expect(edited.status == .ok, "\(edited.text)")
            #expect(try edited.object["name"] as? String == "Evening Body Scan")
            #expect(try edited.object["teacher"] as? String == "Mara L.")
            #expect(try edited.object["originalName"] as? String == "Body Scan")
            #expect(try edited.object["isAmbientBed"] as? Bool == true)
            let beds = try await client.send(.get, "/api/v1/library/ambient")
            #expect((try beds.object["items"] as? [[String: Any]])?.map { $0["id"] as? String } == [id])

            let restored = try await client.send(.patch, uri, json: #"{"teacher": null, "name": ""}"#)
            #expect(try restored.object["name"] as? String == "Body Scan")
            #expect(try restored.object["teacher"] as? String == "Mara Lindqvist")
            #expect(try restored.object["editedName"] == nil)
            #expect(try restored.object["isAmbientBed"] as? Bool == true)

            let long = String(repeating: "a", count: 10_000)
            let refused = try await client.send(
                .patch, uri, json: #"{"name": "Kept?", "teacher": "\#(long)", "isAmbientBed": false}"#)
            #expect(refused.status == .unprocessableContent)
            #expect(refused.errorMessage?.contains("10000") == true, "\(refused.errorMessage ?? "")")
            let unknownField = try await client.send(.patch, uri, json: #"{"title": "x"}"#)
            #expect(unknownField.status == .unprocessableContent)
            let after = try await client.send(.get, uri)
            #expect(try after.object["name"] as? String == "Body Scan")
            #expect(try after.object["isAmbientBed"] as? Bool == true)
        }
    }

    @Test func teacherSuggestionsComeFromTheLibrary() async throws {
        let server = try await TestServer()
        try await server.test { client in
            _ = try await Self.upload(client, try Self.fixture("id3v23-latin1.mp3"), name: "a.mp3")
            _ = try await Self.upload(client, try Self.fixture("id3v24-utf8.mp3"), name: "b.mp3")
            func suggestions(_ text: String) async throws -> [String]? {
                let query = text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
                let response = try await client.send(.get, "/api/v1/library/suggestions?q=\(query)")
                #expect(response.status == .ok)
                return try response.object["suggestions"] as? [String]
            }
            #expect(try await suggestions("mara") == ["Mara Lindqvist"])
            #expect(try await suggestions("jurg") == ["Jürgen Weiß"])
            #expect(try await suggestions("Mara Lindqvist") == [])
            #expect(try await suggestions("") == [])
        }
    }

    @Test func deletingRemovesTheRowAndTheFile() async throws {
        let server = try await TestServer()
        let folder = server.services.library.directory
        try await server.test { client in
            let uploaded = try await Self.upload(client, try Self.fixture("with-cover.mp3"), name: "c.mp3")
            let id = try #require(try Self.item(uploaded)["id"] as? String)
            #expect(Self.libraryFiles(folder).count == 1)
            let deleted = try await client.send(.delete, "/api/v1/library/\(id)")
            #expect(deleted.status == .noContent)
            #expect(Self.libraryFiles(folder) == [])
            #expect(try await client.send(.get, "/api/v1/library/\(id)").status == .notFound)
            #expect(try await client.send(.delete, "/api/v1/library/\(id)").status == .notFound)
        }
    }

    @Test func thePositionIsRemembered() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let uploaded = try await Self.upload(client, try Self.fixture("id3v23-latin1.mp3"), name: "a.mp3")
            let id = try #require(try Self.item(uploaded)["id"] as? String)
            let saved = try await client.send(.put, "/api/v1/library/\(id)/position", json: #"{"positionMs": 1500}"#)
            #expect(saved.status == .ok, "\(saved.text)")
            #expect(try saved.object["positionMs"] as? Int == 1500)
            let negative = try await client.send(
                .put, "/api/v1/library/\(id)/position", json: #"{"positionMs": -1}"#)
            #expect(negative.status == .unprocessableContent)
            #expect(try await client.send(.get, "/api/v1/library/\(id)").object["positionMs"] as? Int == 1500)
        }
    }

    @Test func listeningLogsAGuidedSessionByTheCoreRule() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let uploaded = try await Self.upload(client, try Self.fixture("id3v23-latin1.mp3"), name: "a.mp3")
            let id = try #require(try Self.item(uploaded)["id"] as? String)
            let uri = "/api/v1/library/\(id)/listened"

            let short = try await client.send(.post, uri, json: #"{"listenedMs": 30000, "finished": false}"#)
            #expect(short.status == .ok, "\(short.text)")
            #expect(try short.object["logged"] as? Bool == false)
            #expect(try short.object["record"] == nil)

            let finished = try await client.send(.post, uri, json: #"{"listenedMs": 3000, "finished": true}"#)
            #expect(try finished.object["logged"] as? Bool == true)
            let record = try #require(try finished.object["record"] as? [String: Any])
            #expect(record["kind"] as? String == "guided")

            let stopped = try await client.send(.post, uri, json: #"{"listenedMs": 61000, "finished": false}"#)
            #expect(try stopped.object["logged"] as? Bool == true)

            let bad = try await client.send(.post, uri, json: #"{"listenedMs": -5, "finished": true}"#)
            #expect(bad.status == .unprocessableContent)

            let log = try await client.send(.get, "/api/v1/log?kind=guided")
            #expect((try log.object["records"] as? [Any])?.count == 2)
        }
    }
}
