import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumCore
import MomentumServices
import Testing

@testable import MomentumServer

@Suite("Practice log and progress")
struct LogAndProgressRoutesTests {
    @Test func aManualEntryIsAddedListedEditedAndDeleted() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let added = try await client.send(
                .post, "/api/v1/log",
                json:
                    #"{"kind":"meditation","start":"2027-01-14T07:00:00Z","durationMs":1200000,"details":{"place":"park"}}"#
            )
            #expect(added.status == .created)
            let id = try #require(try added.object["id"] as? String)
            #expect(try added.object["countedSeconds"] as? Int == 1200)

            let listed = try await client.send(.get, "/api/v1/log?kind=meditation&since=2027-01-14T00:00:00Z")
            #expect((try listed.object["records"] as? [Any])?.count == 1)
            let none = try await client.send(.get, "/api/v1/log?kind=workout")
            #expect((try none.object["records"] as? [Any])?.count == 0)

            let edited = try await client.send(.patch, "/api/v1/log/\(id)", json: #"{"durationMs":600000}"#)
            #expect(edited.status == .ok)
            #expect(try edited.object["countedSeconds"] as? Int == 600)

            let deleted = try await client.send(.delete, "/api/v1/log/\(id)")
            #expect(deleted.status == .noContent)
            let again = try await client.send(.delete, "/api/v1/log/\(id)")
            #expect(again.status == .notFound)
        }
        await #expect(try server.services.practiceLog.records().isEmpty)
    }

    @Test(arguments: [
        (
            #"{"kind":"meditation","start":"2027-01-14T07:00:00Z","durationMs":0}"#,
            HTTPResponse.Status.unprocessableContent
        ),
        (#"{"kind":"meditation","start":"2027-01-14T07:00:00Z","durationMs":999999999}"#, .unprocessableContent),
        (#"{"kind":"meditation","start":"2027-01-14T07:00:00Z"}"#, .badRequest),
        (#"{"kind":"meditation","start":"soon","durationMs":60000}"#, .unprocessableContent),
        (#"{"kind":"meditation","start":"2027-01-14T07:00:00Z","durationMs":"long"}"#, .badRequest),
        (#"{"kind":"nap","start":"2027-01-14T07:00:00Z","durationMs":60000}"#, .unprocessableContent),
    ])
    func aBadManualEntryStoresNothing(body: String, status: HTTPResponse.Status) async throws {
        let server = try await TestServer()
        try await server.test { client in
            let response = try await client.send(.post, "/api/v1/log", json: body)
            #expect(response.status == status, "\(response.text)")
            #expect(response.errorMessage?.isEmpty == false)
        }
        await #expect(try server.services.practiceLog.records().isEmpty)
    }

    @Test(arguments: [
        "/api/v1/log?kind=nap", "/api/v1/log?since=yesterday", "/api/v1/progress/calendar?month=2026-13",
        "/api/v1/progress/calendar?month=0000-01", "/api/v1/progress/calendar?month=2026-1",
        "/api/v1/progress/calendar?month=+202-01", "/api/v1/progress/calendar?month=2026-%0A1",
        "/api/v1/progress/year?year=+202",
        "/api/v1/progress/year?year=26", "/api/v1/progress/statistics?period=decade",
        "/api/v1/progress/year?category=naps",
    ])
    func badQueriesAreClearErrors(uri: String) async throws {
        let server = try await TestServer()
        try await server.test { client in
            let response = try await client.send(.get, uri)
            #expect([.badRequest, .unprocessableContent].contains(response.status), "\(response.text)")
            #expect(response.errorMessage?.isEmpty == false)
        }
    }

    @Test func editingOrDeletingAnUnknownRecordIs404() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let unknown = "00000000-0000-0000-0000-0000000000ff"
            let patch = try await client.send(.patch, "/api/v1/log/\(unknown)", json: "{}")
            #expect(patch.status == .notFound)
            let delete = try await client.send(.delete, "/api/v1/log/\(unknown)")
            #expect(delete.status == .notFound)
            let malformed = try await client.send(.delete, "/api/v1/log/abc")
            #expect(malformed.status == .notFound)
        }
    }

    @Test func progressReadsTheSameReportAsTheTerminal() async throws {
        let server = try await TestServer()
        // Three days of 20 minutes before "today" (2027-01-15).
        for day in 12...14 {
            try await server.services.practiceLog.addRecord(
                kind: .meditation, start: Date(timeIntervalSince1970: 1_800_000_000 - Double(15 - day) * 86_400),
                length: 1200)
        }
        let report = try await server.services.progress.report()
        try await server.test { client in
            let calendar = try await client.send(.get, "/api/v1/progress/calendar?month=2027-01")
            #expect(calendar.status == .ok)
            #expect(try calendar.object["month"] as? Int == 1)
            let weeks = try #require(try calendar.object["weeks"] as? [[Any]])
            let days = weeks.joined().compactMap { $0 as? [String: Any] }
            #expect(days.count == 31)
            let twelfth = try #require(days.first { ($0["day"] as? String) == "2027-01-12" })
            #expect((twelfth["minutes"] as? [String: Int])?["mindfulness"] == 20)

            let streaks = try await client.send(.get, "/api/v1/progress/streaks")
            let mindfulness = try #require(
                (try streaks.object["categories"] as? [String: Any])?["mindfulness"] as? [String: Any])
            #expect(mindfulness["current"] as? Int == report.streak(for: .mindfulness).current)
            #expect(mindfulness["longest"] as? Int == 3)

            let statistics = try await client.send(.get, "/api/v1/progress/statistics?period=month")
            #expect(try statistics.object["period"] as? String == "month")
            #expect((try statistics.object["total"] as? [String: Any])?["seconds"] as? Int == 3600)

            // The views are the services' own, the ones `momentum streak|calendar --json` print.
            let streaksView = try JSONDecoder().decode(StreaksView.self, from: Data(streaks.text.utf8))
            #expect(streaksView == StreaksView(report))
            let monthView = try JSONDecoder().decode(CalendarMonthView.self, from: Data(calendar.text.utf8))
            #expect(monthView == CalendarMonthView(try report.month(year: 2027, month: 1), today: report.today))
            // The arrows' months come with the view: the page does no month arithmetic.
            #expect([monthView.id, monthView.previous, monthView.next] == ["2027-01", "2026-12", "2027-02"])

            let year = try await client.send(.get, "/api/v1/progress/year?year=2027")
            let levels = try #require(try year.object["days"] as? [[String: Any]])
            #expect(levels.contains { ($0["day"] as? String) == "2027-01-13" && ($0["level"] as? Int ?? 0) > 0 })
            let yearView = try JSONDecoder().decode(YearHeatMapView.self, from: Data(year.text.utf8))
            #expect(yearView.previous == 2026)
            #expect(yearView.next == nil, "2027 is the year of today: no arrow into the future")
        }
    }

    @Test func todayTellsTheMinutesAgainstTheGoalAndTheStreakInTheAskedLanguage() async throws {
        let server = try await TestServer()
        // 23 minutes on each of the last three days, today (2027-01-15) included.
        for day in 13...15 {
            try await server.services.practiceLog.addRecord(
                kind: .meditation,
                start: Date(timeIntervalSince1970: 1_800_000_000 - 3_600 - Double(15 - day) * 86_400),
                length: 1_380)
        }
        let report = try await server.services.progress.report()
        try await server.test { client in
            // A breathing session's completion view asks by its kind: breathing is mindfulness.
            let today = try await client.send(.get, "/api/v1/progress/today?kind=breathing")
            #expect(today.status == .ok, "\(today.text)")
            let view = try JSONDecoder().decode(TodayView.self, from: Data(today.text.utf8))
            #expect(view == TodayView(report, category: .mindfulness, language: .english))
            #expect(view.minutes == 23 && view.counts && view.streak == 3)
            #expect(view.streakText == "Mindfulness streak: 3 days.")
            if let goal = view.goalMinutes {
                #expect(view.goalReached == (23 >= goal))
                #expect(view.minutesText.hasPrefix("Today: 23 min"), "\(view.minutesText)")
            } else {
                #expect(view.minutesText == "Today: 23 min.")
            }

            var headers = HTTPFields()
            headers[.acceptLanguage] = "de"
            let german = try await client.send(.get, "/api/v1/progress/today?kind=meditation", headers: headers)
            let germanView = try JSONDecoder().decode(TodayView.self, from: Data(german.text.utf8))
            #expect(germanView.streakText == "Achtsamkeit: 3 Tage in Folge.")
            #expect(germanView.minutesText.hasPrefix("Heute: 23 Min"), "\(germanView.minutesText)")

            let workout = try await client.send(.get, "/api/v1/progress/today?kind=workout")
            let workoutView = try JSONDecoder().decode(TodayView.self, from: Data(workout.text.utf8))
            #expect(workoutView.minutes == 0 && !workoutView.counts && workoutView.streak == 0)
            #expect(workoutView.streakText == "Workout streak: 0 days.")

            let refused = try await client.send(.get, "/api/v1/progress/today?kind=nap")
            #expect(refused.status == .unprocessableContent)
            #expect(refused.errorMessage?.contains("nap") == true)
        }
    }
}
