import Foundation
import Hummingbird
import MomentumCore
import MomentumServices

/// `/api/v1/trackers` (docs/notifications.md): the person's quiet daily trackers — listed with
/// their last days (`GET`), made (`POST`), changed (`PATCH …/{id}`) and ended (`DELETE …/{id}`);
/// a day answered (`PUT …/{id}/days/{YYYY-MM-DD}` with `{"answer": true|false}`, what a
/// question's Yes and No do from the notification) or cleared (`DELETE` it); and a month's
/// answers for Progress's calendar (`GET …/calendar?month=YYYY-MM`).
struct TrackersController {
    let trackers: TrackerService
    let settings: SettingsService

    func addRoutes(to group: RouterGroup<BasicRequestContext>) {
        group.get(use: list)
        group.post(use: add)
        group.get("calendar", use: month)
        group.patch(":id", use: change)
        group.delete(":id", use: delete)
        group.put(":id/days/:day", use: answer)
        group.delete(":id/days/:day", use: clear)
    }

    struct NewTracker: Decodable {
        var name: String
        /// `HH:MM` on the person's clock.
        var askAt: String
        /// `today` (default) or `yesterday`.
        var about: String?
    }

    struct TrackerChanges: Decodable {
        var name: String?
        var askAt: String?
        var about: String?
    }

    struct Answer: Decodable {
        var answer: Bool
    }

    @Sendable func list(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<TrackersView> {
        JSONResponse(try await trackers.list(language: try await language(for: request)))
    }

    @Sendable func add(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<TrackerView> {
        let body = try await RequestBody.decode(NewTracker.self, from: request)
        let tracker = try await trackers.add(
            name: body.name, askAt: try TimeOfDay(parsing: body.askAt), about: try Self.about(body.about) ?? .today)
        return JSONResponse(
            try await trackers.view(tracker.id.uuidString, language: try await language(for: request)),
            status: .created)
    }

    @Sendable func change(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<TrackerView> {
        let id = try Self.id(context)
        let body = try await RequestBody.decode(TrackerChanges.self, from: request)
        let askAt = try body.askAt.map { text throws(TimeOfDayError) in try TimeOfDay(parsing: text) }
        let tracker = try await trackers.change(id, name: body.name, askAt: askAt, about: try Self.about(body.about))
        return JSONResponse(try await trackers.view(tracker.id.uuidString, language: try await language(for: request)))
    }

    @Sendable func delete(_ request: Request, context: BasicRequestContext) async throws -> Response {
        _ = try await trackers.delete(try Self.id(context))
        return Response(status: .noContent)
    }

    @Sendable func answer(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<TrackerView> {
        let (id, day) = try Self.idAndDay(context)
        let body = try await RequestBody.decode(Answer.self, from: request)
        try await trackers.answer(id, body.answer, day: day)
        return JSONResponse(try await trackers.view(id, language: try await language(for: request)))
    }

    @Sendable func clear(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let (id, day) = try Self.idAndDay(context)
        try await trackers.answer(id, nil, day: day)
        return Response(status: .noContent)
    }

    @Sendable func month(_ request: Request, context: BasicRequestContext) async throws
        -> JSONResponse<TrackerMonthView>
    {
        guard let text = request.uri.queryParameters["month"],
            let (year, month) = CalendarPeriodText.month(String(text))
        else { throw APIError.badRequest(.apiMonthFormat) }
        return JSONResponse(
            try await trackers.month(year: year, month: month, language: try await language(for: request)))
    }

    /// The tracker's id from the path: only an id names a tracker here (the terminal also takes names).
    private static func id(_ context: BasicRequestContext) throws -> String {
        let text = context.parameters.get("id") ?? ""
        guard let id = UUID(uuidString: text) else {
            throw TrackerServiceError.invalid(.unknownTracker(String(text.prefix(TextInput.maximumNameLength))))
        }
        return id.uuidString
    }

    private static func idAndDay(_ context: BasicRequestContext) throws -> (String, Day) {
        let id = try id(context)
        return (id, try Day(parsing: context.parameters.get("day") ?? ""))
    }

    private static func about(_ text: String?) throws -> Tracker.About? {
        guard let text else { return nil }
        guard let about = Tracker.About(rawValue: text) else {
            throw APIError.invalid(.errorTrackerAbout, ["value": String(text.prefix(20))])
        }
        return about
    }

    private func language(for request: Request) async throws -> Language {
        try await LanguageChoice.language(for: request, settings: settings)
    }
}
