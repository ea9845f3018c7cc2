import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import MomentumCore
import MomentumServices
import Testing

@testable import MomentumServer

/// Two people on one server (issue 26): Ada, the founder, with one of everything, and Ben, new.
/// Whatever Ben asks for — by listing, by Ada's ids, by sync or live feed — answers nothing of Ada's.
@Suite("A household: each person reaches only their own data, by listing, by id, by sync and live")
struct HouseholdIsolationTests {
    /// Every name Ada gives her things carries this word; Ben's answers must never hold it.
    static let marker = "Zephyr"
    static let adaCallSign = "DL1ZEP"

    /// A household off loopback with Ada (the founder), Ben and a full token each; Ada has made
    /// one of everything through the API.
    struct Household: Sendable {
        let ben: Person
        let ada: HTTPFields
        let benHeaders: HTTPFields
        /// Ada's ids by what they name: record, breathing, sit, program, timer, item, morse, run, qso, tracker.
        let ids: [String: String]
    }

    static func bearer(_ secret: String) -> HTTPFields { [.authorization: "Bearer \(secret)"] }

    static func makeHousehold(host: String = "0.0.0.0") async throws -> (TestServer, Household) {
        let server = try await TestServer(host: host)
        let ben = try await server.household.add(named: "Ben")
        let tokens = server.household.accessTokens
        let ada = await Self.bearer(
            try tokens.create(name: "ada-phone", scope: .full, personID: Person.founderID).secret)
        let benHeaders = await Self.bearer(try tokens.create(name: "ben-phone", scope: .full, personID: ben.id).secret)
        // Ada's daily reminder: her calendar feed has an event, Ben's must not.
        var settings = try await server.services.settings.load()
        settings.reminders = try settings.reminders.addingDaily(time: "10:00", weekdays: "all", category: "focus")
        try await server.services.settings.save(settings)
        let ids = try await server.test { client in try await Self.makeAdasThings(client, as: ada) }
        return (server, Household(ben: ben, ada: ada, benHeaders: benHeaders, ids: ids))
    }

    /// One of everything, made as Ada through the API; her ids by what they name.
    static func makeAdasThings(_ client: some TestClientProtocol, as ada: HTTPFields) async throws -> [String: String] {
        func made(_ method: HTTPRequest.Method, _ path: String, _ json: String) async throws -> [String: Any] {
            let response = try await client.send(method, path, json: json, headers: ada)
            #expect(
                (200..<300).contains(response.status.code), "\(method) \(path): \(response.status) \(response.text)")
            return try response.object
        }
        func id(_ object: [String: Any]) throws -> String { try #require(object["id"] as? String, "\(object)") }
        var ids: [String: String] = [:]
        ids["record"] = try id(
            await made(
                .post, "/api/v1/log", #"{"kind":"meditation","start":"2027-01-15T07:00:00Z","durationMs":600000}"#))
        ids["breathing"] = try id(
            await made(.post, "/api/v1/breathing/presets", #"{"name":"Zephyr breath","pattern":"4-2-6-0","rounds":8}"#))
        ids["sit"] = try id(
            await made(
                .post, "/api/v1/meditation/presets",
                #"{"name":"Zephyr sit","plan":{"durationMs":1200000,"countdownMs":10000}}"#))
        ids["program"] = try id(await made(.post, "/api/v1/workouts/programs", #"{"name":"Zephyr legs"}"#))
        let timer = try await made(
            .post, "/api/v1/timers", #"{"name":"Zephyr focus","durationMs":1500000,"items":["Zephyr kettle"]}"#)
        ids["timer"] = try id(timer)
        ids["item"] = try id(try #require((timer["items"] as? [[String: Any]])?.first))
        ids["morse"] = try id(await made(.post, "/api/v1/morse/sessions", #"{"direction":"receive"}"#))
        _ = try await made(.post, "/api/v1/morse/sessions/\(ids["morse"] ?? "")/start", "{}")
        ids["run"] = try id(
            await made(.post, "/api/v1/runs", #"{"kind":"meditation","plan":{"durationMs":600000,"countdownMs":0}}"#))
        _ = try await made(.put, "/api/v1/morse/call-sign", #"{"callSign":"\#(adaCallSign)"}"#)
        ids["qso"] = try id(
            await made(
                .post, "/api/v1/morse/qso",
                #"{"mode":"answer","style":"firstContact","callSign":"\#(adaCallSign)","seed":11}"#))
        ids["tracker"] = try id(await made(.post, "/api/v1/trackers", #"{"name":"Zephyr tracker","askAt":"21:00"}"#))
        _ = try await made(.put, "/api/v1/trackers/\(ids["tracker"] ?? "")/days/2027-01-14", #"{"answer":true}"#)
        _ = try await made(.patch, "/api/v1/settings", #"{"language":"de","progress":{"goals":{"workout":77}}}"#)
        return ids
    }

    /// What of Ada's `text` holds: her ids, her things' names, her call sign, her name (in any
    /// case: some answers write ids in capitals).
    static func adasTraces(in text: String, ids: [String: String]) -> [String] {
        let words = [marker, adaCallSign, #""Ada""#] + ids.values.sorted()
        return words.filter { text.range(of: $0, options: .caseInsensitive) != nil }
    }

    /// `template` with Ada's id for each parameter of a route of hers, a random id otherwise.
    static func concrete(_ template: String, ids: [String: String]) -> String {
        let owner: String? =
            [
                ("/api/v1/log/", "record"), ("/api/v1/breathing/presets/", "breathing"),
                ("/api/v1/meditation/presets/", "sit"), ("/api/v1/workouts/programs/", "program"),
                ("/api/v1/timers/", "timer"), ("/api/v1/morse/sessions/", "morse"), ("/api/v1/runs/", "run"),
                ("/api/v1/morse/qso/", "qso"), ("/api/v1/trackers/", "tracker"),
            ].first { template.hasPrefix($0.0) }?.1
        let random = UUID().uuidString.lowercased()
        return
            template
            .replacingOccurrences(of: "{id}", with: owner.flatMap { ids[$0] } ?? random)
            .replacingOccurrences(of: "{item}", with: ids["item"] ?? random)
            .replacingOccurrences(of: "{kind}", with: "meditation")
            .replacingOccurrences(of: "{cue}", with: "startGong")
            .replacingOccurrences(of: "{day}", with: "2027-01-14")
    }

    // MARK: - Every route, as the other person

    /// `text` with each of `ids` written as `<id>`: answers about two ids, side by side.
    static func masked(_ text: String, ids: [String: String]) -> String {
        ids.values.reduce(text) { $0.replacingOccurrences(of: $1, with: "<id>", options: .caseInsensitive) }
    }

    /// Given Ada's things; when Ben calls every route of a person's router — with Ada's ids in
    /// the path where the route takes one; then no answer holds anything of Ada's that Ben did
    /// not send himself, an id of Ada's is answered exactly as an id no one has (so Ben cannot
    /// even tell it exists), every GET of one answers 4xx, and Ada's things are all still there.
    @Test func noRouteAnswersAnotherPersonsDataByIdOrListing() async throws {
        let (server, home) = try await Self.makeHousehold()
        // Reads first and deletions last, so a route that reaches Ada's data shows what it reads
        // before another one removes it.
        func order(_ method: HTTPRequest.Method) -> Int { method == .get ? 0 : method == .delete ? 2 : 1 }
        let routes = server.personRouter.routes.map { (method: $0.method, path: $0.path.description) }
            .sorted {
                (order($0.method), $0.path, $0.method.rawValue) < (order($1.method), $1.path, $1.method.rawValue)
            }
        #expect(routes.count > 60)
        let (ids, ben) = (home.ids, home.benHeaders)
        let strangers = ids.mapValues { _ in UUID().uuidString.lowercased() }
        let adaBefore = try await server.test { client in
            try await client.send(.get, "/api/v1/timers", headers: home.ada).text
        }

        let (walked, leaks) = try await server.test { client in
            var walked: [String] = []
            var leaks: [String] = []
            for route in routes {
                let path = Self.concrete(route.path, ids: ids)
                let isRead = route.method == .get || route.method == .head
                let body = isRead ? nil : "{}"
                let response = try await client.send(route.method, path, json: body, headers: ben)
                walked.append("\(route.method) \(route.path) → \(response.status.code)")
                // An id Ben sent may come back in the answer ("No timer …"); nothing else of Ada's may.
                // (Rendered audio is samples, not data: searching megabytes of it takes seconds.)
                let isAudio = response.headers[.contentType]?.hasPrefix("audio/") == true
                let text = isAudio ? "" : response.text
                let traces = Self.adasTraces(in: text, ids: ids).filter { !path.contains($0) }
                if !traces.isEmpty {
                    leaks.append("\(route.method) \(path) → \(response.status.code) holds \(traces)")
                }
                guard ids.values.contains(where: { path.contains($0) }) else { continue }
                if isRead, !(400..<500).contains(response.status.code) {
                    leaks.append("\(route.method) \(path) → \(response.status.code), expected 4xx")
                }
                let strangerPath = Self.concrete(route.path, ids: strangers)
                let stranger = try await client.send(route.method, strangerPath, json: body, headers: ben)
                let (asAda, asStranger) = (
                    Self.masked(response.text, ids: ids), Self.masked(stranger.text, ids: strangers)
                )
                if response.status != stranger.status || asAda != asStranger {
                    leaks.append(
                        "\(route.method) \(route.path) answers Ada's id (\(response.status.code) \(asAda)) "
                            + "unlike an unknown one (\(stranger.status.code) \(asStranger))")
                }
            }
            // Queries that name Ada's things.
            for path in [
                "/api/v1/sync/last-change?type=focusTimer&id=\(ids["timer"] ?? "")&field=name",
                "/api/v1/sync/pull?after=0", "/api/v1/log?from=2027-01-01&to=2027-02-01",
            ] {
                let response = try await client.send(.get, path, headers: ben)
                walked.append("GET \(path) → \(response.status.code)")
                let traces = Self.adasTraces(in: response.text, ids: ids).filter { !path.contains($0) }
                if !traces.isEmpty { leaks.append("GET \(path) → \(response.status.code) holds \(traces)") }
            }
            return (walked, leaks)
        }
        #expect(leaks == [], "routes walked as Ben:\n\(walked.joined(separator: "\n"))")

        // Nothing Ben sent touched Ada's things.
        try await server.test { client in
            let timers = try await client.send(.get, "/api/v1/timers", headers: home.ada).text
            #expect(timers == adaBefore)
            let log = try await client.send(.get, "/api/v1/log", headers: home.ada).text
            #expect(log.contains(ids["record"] ?? "-"))
            for path in [
                "/api/v1/meditation/presets/\(ids["sit"] ?? "")", "/api/v1/morse/sessions/\(ids["morse"] ?? "")",
                "/api/v1/runs/\(ids["run"] ?? "")", "/api/v1/morse/qso/\(ids["qso"] ?? "")",
            ] {
                let response = try await client.send(.get, path, headers: home.ada)
                #expect(response.status == .ok, "Ada's \(path): \(response.status) \(response.text)")
            }
            for (path, name) in [
                ("/api/v1/breathing/presets", "Zephyr breath"), ("/api/v1/workouts/programs", "Zephyr legs"),
                ("/api/v1/trackers", "\"answer\":true"),
            ] {
                let response = try await client.send(.get, path, headers: home.ada)
                #expect(response.text.contains(name), "Ada's \(path): \(response.text)")
            }
        }
    }

    // MARK: - Listings

    /// Given Ada's things; when Ben lists his log, timers, presets, programs, progress, sync log,
    /// settings and calendar feed; then each answer is exactly what a person who has just joined
    /// (Cy) sees, and holds nothing of Ada's.
    @Test func anotherPersonsListingsShowWhatANewcomerSees() async throws {
        let (server, home) = try await Self.makeHousehold()
        let tokens = server.household.accessTokens
        let cy = try await server.household.add(named: "Cy")
        let cyHeaders = await Self.bearer(try tokens.create(name: "cy-phone", personID: cy.id).secret)
        let benFeed = try await tokens.create(name: "ben-calendar", scope: .feed, personID: home.ben.id).secret
        let cyFeed = try await tokens.create(name: "cy-calendar", scope: .feed, personID: cy.id).secret
        let adaFeed = try await tokens.create(name: "ada-calendar", scope: .feed, personID: Person.founderID).secret
        let listings = [
            "/api/v1/log", "/api/v1/timers", "/api/v1/breathing/presets", "/api/v1/meditation/presets",
            "/api/v1/workouts/programs", "/api/v1/progress/streaks", "/api/v1/progress/today",
            "/api/v1/progress/calendar", "/api/v1/progress/statistics", "/api/v1/sync/pull?after=0",
            "/api/v1/settings", "/api/v1/morse/progress", "/api/v1/morse/call-sign", "/api/v1/reminders",
            "/api/v1/runs", "/api/v1/morse/sessions", "/api/v1/backup/summary",
        ]
        try await server.test { client in
            for path in listings {
                let ben = try await client.send(.get, path, headers: home.benHeaders)
                let cy = try await client.send(.get, path, headers: cyHeaders)
                let ada = try await client.send(.get, path, headers: home.ada)
                #expect(ben.status == .ok, "\(path): \(ben.status) \(ben.text)")
                #expect(Self.adasTraces(in: ben.text, ids: home.ids) == [], "\(path): \(ben.text)")
                #expect(ben.text == cy.text, "\(path): Ben sees \(ben.text), a newcomer \(cy.text)")
                // (Ada's Morse session is not finished: her course and list are a newcomer's too.)
                if !["/api/v1/runs", "/api/v1/morse/progress", "/api/v1/morse/sessions"].contains(path) {
                    #expect(ada.text != ben.text, "\(path): Ada's answer is Ben's")
                }
            }
            let benSettings = try await client.send(.get, "/api/v1/settings", headers: home.benHeaders).object
            #expect(benSettings["language"] as? String != "de")

            let adaCalendar = try await client.send(.get, "/reminders.ics?token=\(adaFeed)")
            #expect(adaCalendar.text.contains("BEGIN:VEVENT"))
            let benCalendar = try await client.send(.get, "/reminders.ics?token=\(benFeed)")
            let cyCalendar = try await client.send(.get, "/reminders.ics?token=\(cyFeed)")
            #expect(benCalendar.status == .ok)
            #expect(!benCalendar.text.contains("BEGIN:VEVENT"), "\(benCalendar.text)")
            #expect(benCalendar.text == cyCalendar.text)
        }
    }

    @Test func theSessionNamesThePersonTheTokenBelongsTo() async throws {
        let (server, home) = try await Self.makeHousehold()
        try await server.test { client in
            let ben = try await client.send(.get, "/api/v1/session", headers: home.benHeaders).object
            #expect((ben["person"] as? [String: Any])?["name"] as? String == "Ben")
            #expect((ben["person"] as? [String: Any])?["role"] as? String == "member")
            let ada = try await client.send(.get, "/api/v1/session", headers: home.ada).object
            #expect((ada["person"] as? [String: Any])?["name"] as? String == "Ada")
        }
    }

    /// A token of a person who has since been removed opens nothing.
    @Test func aRemovedPersonsTokenOpensNothing() async throws {
        let (server, home) = try await Self.makeHousehold()
        _ = try await server.household.remove("Ben")
        try await server.test { client in
            let response = try await client.send(.get, "/api/v1/timers", headers: home.benHeaders)
            #expect(response.status == .unauthorized)
            #expect(Self.adasTraces(in: response.text, ids: home.ids) == [])
        }
    }

    // MARK: - Sync

    /// Given Ada's timer; when Ben pushes a change of its name (he guessed or saw its id); then
    /// Ada's timer keeps its name and her sync log has no change of Ben's — and, as issue 26
    /// (point 5) asks, the push is refused with 422.
    @Test func aPushForAnotherPersonsEntityDoesNotReachTheirs() async throws {
        let (server, home) = try await Self.makeHousehold()
        let timer = try #require(home.ids["timer"])
        var benPhone = try TestDevice(node: "benphone", name: "browser@ben")
        let body = try pushBody([try benPhone.set(.focusTimer, timer, "name", .string("Hijacked"))])
        try await server.test { client in
            let pushed = try await client.send(.post, "/api/v1/sync/push", json: body, headers: home.benHeaders)
            #expect(pushed.status == .unprocessableContent, "\(pushed.status) \(pushed.text)")
            #expect(pushed.errorCode == "not_yours")
            let adaTimers = try await client.send(.get, "/api/v1/timers", headers: home.ada).text
            #expect(adaTimers.contains("Zephyr focus"))
            #expect(!adaTimers.contains("Hijacked"))
            let adaLog = try await client.send(.get, "/api/v1/sync/pull?after=0&limit=1000", headers: home.ada).text
            #expect(!adaLog.contains("Hijacked") && !adaLog.contains("browser@ben"))
            let benTimer = try await client.send(.get, "/api/v1/timers/\(timer)", headers: home.benHeaders)
            #expect(!benTimer.text.contains(Self.marker))
        }
    }

    // MARK: - Live feed

    /// Given Ben's live feed open on a running server; when Ada pushes a change and then Ben
    /// does; then Ben's feed carries Ben's change and not Ada's (which would have come first).
    @Test func theLiveFeedCarriesOnlyThePersonsOwnChanges() async throws {
        let (server, home) = try await Self.makeHousehold()
        let clock = server.clock
        let dependencies = ServerDependencies(household: server.household, now: { clock.now }, version: "test-version")
        let application = Application(
            router: server.router,
            server: .http1WebSocketUpgrade(
                webSocketRouter: buildLiveRouter(configuration: server.configuration, dependencies: dependencies)),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        let benHeaders = home.benHeaders
        try await application.test(.live) { client in
            let (received, receiver) = AsyncStream<String>.makeStream()
            let listener = Task {
                try await client.ws("/api/v1/live", configuration: .init(additionalHeaders: benHeaders)) {
                    inbound, _, _ in
                    // Until Ben's own change arrives, or five seconds (a feed that never carries it
                    // fails the test rather than hanging it).
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for try await message in inbound.messages(maxSize: 1 << 20) {
                                guard case .text(let text) = message else { continue }
                                receiver.yield(text)
                                if text.contains("Ben's own") { return }
                            }
                        }
                        group.addTask { try await Task.sleep(for: .seconds(5)) }
                        _ = try await group.next()
                        group.cancelAll()
                    }
                    receiver.finish()
                }
            }
            var iterator = received.makeAsyncIterator()
            let head = try #require(await iterator.next())
            #expect(head.hasPrefix("{\"head\""))

            var adaPhone = try TestDevice(node: "adaphone", name: "browser@ada")
            let adas = try pushBody(try adaPhone.timer("6f1c0e4a-0000-4000-8000-0000000000ad", name: "Zephyr live"))
            #expect(try await client.send(.post, "/api/v1/sync/push", json: adas, headers: home.ada).status == .ok)
            var benPhone = try TestDevice(node: "benphone", name: "browser@ben")
            let bens = try pushBody(try benPhone.timer("6f1c0e4a-0000-4000-8000-0000000000be", name: "Ben's own"))
            #expect(try await client.send(.post, "/api/v1/sync/push", json: bens, headers: benHeaders).status == .ok)

            var messages: [String] = []
            while let text = await iterator.next() { messages.append(text) }
            _ = try await listener.value
            #expect(messages.contains { $0.contains("Ben's own") })
            #expect(messages.allSatisfy { !$0.contains(Self.marker) && !$0.contains("browser@ada") }, "\(messages)")
        }
    }

    // MARK: - Loopback

    /// Given a household of two on loopback; when the server's own screen asks without choosing
    /// a profile; then it is told to choose one (401 `choose_person`) — while a household of one
    /// answers as before.
    @Test func onLoopbackASharedServerAsksWhoIsThere() async throws {
        let alone = try await TestServer()
        try await alone.test { client in
            let response = try await client.send(.get, "/api/v1/timers")
            #expect(response.status == .ok)
        }
        let shared = try await TestServer()
        let ben = try await shared.household.add(named: "Ben")
        try await shared.test { client in
            let response = try await client.send(.get, "/api/v1/timers")
            #expect(response.status == .unauthorized)
            #expect(response.errorCode == "choose_person")
        }
        // A session of Ben's answers as Ben.
        let token = try await shared.household.accessTokens.create(name: "ben-screen", personID: ben.id)
        let sessionID = try await #require(try shared.household.accessTokens.startSession(secret: token.secret))
        try await shared.test { client in
            let session = try await client.send(
                .get, "/api/v1/session", headers: [.cookie: "momentum_session=\(sessionID)"])
            #expect(session.status == .ok)
            #expect(((try session.object["person"]) as? [String: Any])?["name"] as? String == "Ben")
        }
    }
}
