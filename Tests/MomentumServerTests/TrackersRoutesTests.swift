import Foundation
import HTTPTypes
import MomentumCore
import MomentumServices
import Testing

@testable import MomentumServer

/// `/api/v1/trackers`: a tracker is made, answered day by day (a second answer replaces the
/// first, a cleared day is unanswered again — never a "no"), listed with its last days and run,
/// marked on the calendar, renamed and ended; hostile bodies and days are answered in words.
struct TrackersRoutesTests {
    @Test func aTrackerIsMadeAnsweredListedAndEnded() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let made = try await client.send(
                .post, "/api/v1/trackers", json: #"{"name":" Alcohol-free ","askAt":"21:00"}"#)
            #expect(made.status == .created, "\(made.text)")
            let id = try #require(try made.object["id"] as? String)
            #expect(try made.object["name"] as? String == "Alcohol-free")
            #expect(try made.object["about"] as? String == "today")
            let today = try #require(try made.object["questionDay"] as? String)
            #expect(try made.object["questionText"] as? String == "Alcohol-free today?")

            let yes = try await client.send(.put, "/api/v1/trackers/\(id)/days/\(today)", json: #"{"answer":true}"#)
            #expect(yes.status == .ok, "\(yes.text)")
            #expect(try yes.object["questionAnswer"] as? Bool == true)
            #expect(try yes.object["run"] as? Int == 1)
            let yesterday = try Day(parsing: today).adding(days: -1).description
            _ = try await client.send(.put, "/api/v1/trackers/\(id)/days/\(yesterday)", json: #"{"answer":true}"#)
            let listed = try await client.send(.get, "/api/v1/trackers")
            let trackers = try #require(try listed.object["trackers"] as? [[String: Any]])
            #expect(trackers.first?["run"] as? Int == 2)
            #expect(trackers.first?["runText"] as? String == "2 days in a row")
            let days = try #require(trackers.first?["days"] as? [[String: Any]])
            #expect(days.count == 7 && days.last?["day"] as? String == today && days.last?["answer"] as? Bool == true)
            // An unanswered day has no answer at all.
            #expect(days.first?.keys.contains("answer") == false)

            let changed = try await client.send(
                .put, "/api/v1/trackers/\(id)/days/\(today)", json: #"{"answer":false}"#)
            #expect(try changed.object["run"] as? Int == 0)
            let cleared = try await client.send(.delete, "/api/v1/trackers/\(id)/days/\(today)")
            #expect(cleared.status == .noContent)
            let month = String(today.prefix(7))
            let calendar = try await client.send(.get, "/api/v1/trackers/calendar?month=\(month)")
            #expect(calendar.status == .ok, "\(calendar.text)")
            let marked = try #require(try calendar.object["days"] as? [[String: Any]])
            if yesterday.hasPrefix(month) {
                #expect(marked.map { $0["day"] as? String } == [yesterday])
                #expect(marked.first?["text"] as? String == "Alcohol-free: yes")
            }

            let renamed = try await client.send(
                .patch, "/api/v1/trackers/\(id)", json: #"{"name":"Sober","askAt":"7:30","about":"yesterday"}"#)
            #expect(renamed.status == .ok, "\(renamed.text)")
            #expect(try renamed.object["askAt"] as? String == "07:30")
            #expect(try renamed.object["questionText"] as? String == "Sober yesterday?")
            let ended = try await client.send(.delete, "/api/v1/trackers/\(id)")
            #expect(ended.status == .noContent)
            let gone = try await client.send(.put, "/api/v1/trackers/\(id)/days/\(today)", json: #"{"answer":true}"#)
            #expect(gone.status == .notFound)
        }
        await #expect(try server.services.trackers.list(language: .english).trackers.isEmpty)
    }

    @Test func hostileBodiesAndDaysAreAnsweredInWords() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let made = try await client.send(.post, "/api/v1/trackers", json: #"{"name":"No sugar","askAt":"20:00"}"#)
            let id = try #require(try made.object["id"] as? String)
            let today = try Day(parsing: try #require(try made.object["questionDay"] as? String))
            let refusals: [(HTTPRequest.Method, String, String?, HTTPResponse.Status, String)] = [
                (.post, "/api/v1/trackers", #"{"name":"no SUGAR","askAt":"20:00"}"#, .conflict, "already have"),
                (.post, "/api/v1/trackers", #"{"name":"","askAt":"20:00"}"#, .unprocessableContent, "needs a name"),
                (
                    .post, "/api/v1/trackers",
                    "{\"name\":\"\(String(repeating: "x", count: 101))\",\"askAt\":\"20:00\"}",
                    .unprocessableContent, "at most 100"
                ),
                (.post, "/api/v1/trackers", #"{"name":"a\u0007b","askAt":"20:00"}"#, .unprocessableContent, ""),
                (.post, "/api/v1/trackers", #"{"name":"Tea","askAt":"25:00"}"#, .unprocessableContent, ""),
                (
                    .post, "/api/v1/trackers", #"{"name":"Tea","askAt":"20:00","about":"tomorrow"}"#,
                    .unprocessableContent, "tomorrow"
                ),
                (.post, "/api/v1/trackers", #"{"name":"Tea","askAt":"20:00","admin":true}"#, .badRequest, ""),
                (
                    .put, "/api/v1/trackers/\(id)/days/\(today.adding(days: 1))", #"{"answer":true}"#,
                    .unprocessableContent, "has not come yet"
                ),
                (.put, "/api/v1/trackers/\(id)/days/1999-12-31", #"{"answer":true}"#, .unprocessableContent, "2000"),
                (.put, "/api/v1/trackers/\(id)/days/2026-02-30", #"{"answer":true}"#, .unprocessableContent, ""),
                (.put, "/api/v1/trackers/\(id)/days/\(today)", #"{"answer":"yes"}"#, .badRequest, ""),
                (.put, "/api/v1/trackers/\(id)/days/\(today)", #"{"answer":true,"day":"x"}"#, .badRequest, ""),
                (.put, "/api/v1/trackers/not-an-id/days/\(today)", #"{"answer":true}"#, .notFound, "no tracker"),
                (.put, "/api/v1/trackers/\(UUID().uuidString)/days/\(today)", #"{"answer":true}"#, .notFound, ""),
                (.get, "/api/v1/trackers/calendar?month=2026-13", nil, .badRequest, ""),
            ]
            for (method, path, body, status, says) in refusals {
                let answer = try await client.send(method, path, json: body)
                #expect(answer.status == status, "\(method) \(path) \(body ?? ""): \(answer.text)")
                #expect(answer.errorMessage.map { says.isEmpty || $0.contains(says) } == true, "\(answer.text)")
            }
        }
        let kept = try await server.services.trackers.list(language: .english)
        #expect(kept.trackers.map(\.name) == ["No sugar"])
        #expect(kept.trackers.allSatisfy { $0.days.allSatisfy { $0.answer == nil } })
    }
}
